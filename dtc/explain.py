"""Explain: a player (a hero, a Minion or a Boss) and a line of effect text in; its tokens, tree,
bytecode and a run out.

For designers learning the language (`dtc explain --hero HERO "..."`): each
stage's view of the same text, then a trace of the VM running it against a
sample state with plain answers (first option, yes, the most).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dtc import artifact as artifact_mod
from dtc import nodes as n
from dtc import phrases
from dtc.artifact import Artifact
from dtc.checker import Checker, tier_moment_of
from dtc.compiler import Compiler, _Scope
from dtc.diagnostics import Diagnostic
from dtc.disasm import describe, format_chunk
from dtc.loader import Document
from dtc.model import Content, Hero, Site
from dtc.parser import lark_parser, parse_effect
from dtc.resolve import Context
from dtc.sample import SampleState, first_answer
from dtc.source import SourceFile
from dtc.vm import VM, RunContext

KINDS = ("offensive", "defensive", "card", "status", "passive")


@dataclass
class Explanation:
    tokens: list[str] = field(default_factory=list)
    reading: str | None = None  # the text as the phrasebook rewrote it, when it did
    tree: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    listing: str = ""
    trace: list[str] = field(default_factory=list)
    sources: dict = field(default_factory=dict)
    note: str = ""  # why nothing is compiled though nothing is wrong (a tiers' moment)


def _site(text: str, kind: str, hero: Hero, timing: str = "main") -> Site:
    path = "<explain>"
    doc = Document(path, SourceFile(path, text), {"effect": text})
    doc.locate(("effect",), doc.span(()))
    doc.scalar_starts[("effect",)] = 0
    # a Roll Phase or Instant card may work on the dice of the roll in progress, as lint reads it
    with_dice = kind in ("offensive", "defensive") or (kind == "card" and timing in ("roll", "instant"))
    return Site(text, doc, ("effect",), f"{hero.name} › explain", kind,
                dice=hero.dice_count if with_dice else None)


def tokens(text: str) -> list[str]:
    """The tokens the parser sees, as `TYPE 'text'`."""
    out = []
    interactive = lark_parser().parse_interactive(text, start="effect")
    try:
        for tok in interactive.iter_parse():
            out.append(f"{tok.type} {tok.value!r}")
    except Exception:  # the parse error itself is reported with the diagnostics
        pass
    return out


def explain(content: Content, hero: Hero, text: str, kind: str, roll: list[int],
            seed: int, status: Any = None, timing: str = "main", run: bool = True) -> Explanation:
    """Every stage's view of `text` as `hero`'s effect of the given kind (`--as status`: the text
    of `status`, the hero's first one when not given; a card's `timing`: main, roll or instant).
    `hero` may be a Minion or a Boss. Without `run`, only what reading and checking make (the
    content has errors, so nothing is compiled)."""
    site = _site(text, kind, hero, timing)
    checker, scope = _hero_checker(content, hero)
    book = scope.book_for(kind)
    if kind == "status" and status is None and hero.statuses:
        status = hero.statuses[0]
    if kind == "status" and status is not None and book is not None:
        book = book.in_text_of(status.name)  # the status's own name stands for `this token`
    try:
        reading = phrases.read(text, book).text
    except phrases.Unsettled:
        reading = text  # the diagnostics say so
    result = Explanation(tokens=tokens(reading), reading=reading if reading != text else None)
    result.sources[site.doc.path] = site.doc.source
    parsed, _ = parse_effect(text, book)
    if parsed is not None:
        result.tree = n.dump(parsed)
    if kind == "status" and status is None and hero.statuses:
        status = hero.statuses[0]
    result.diagnostics = _check(content, hero, site, kind, status, (checker, scope))
    if site.ast is None or any(d.severity == "error" for d in result.diagnostics):
        return result
    result.tree = n.dump(site.ast)
    if tier_moment_of(site.ast) is not None:
        result.note = ("this sentence is the moment of the tiers' effects below it: it runs nothing of its "
                       "own, and each tier's line that names no moment runs at it")
        return result
    if not run:
        return result
    loaded, chunk_index, first_new = _compile(content, hero, site, status if kind == "status" else None)
    result.listing = "\n".join(format_chunk(loaded, i) for i in range(first_new, len(loaded.chunks)))
    result.trace = _run(loaded, player_index(content, hero), chunk_index, roll, seed, kind)
    return result


def compile_text(content: Content, hero: Hero, text: str, kind: str = "card") -> tuple[Artifact, int]:
    """The content's ruleset with one more chunk, `text` as `hero`'s effect; (artifact, its chunk).
    ValueError with the first error when the text does not check."""
    site = _site(text, kind, hero)
    errors = [d for d in _check(content, hero, site, kind, None) if d.severity == "error"]
    if site.ast is None or errors:
        raise ValueError(errors[0].message if errors else f"cannot parse {text!r}")
    loaded, chunk_index, _ = _compile(content, hero, site, None)
    return loaded, chunk_index


def _hero_checker(content: Content, hero: Hero):
    """A checker of the content and the hero's scope (names, verbs, phrasebooks), for one more text."""
    checker = Checker(content)
    checker.book = checker.check_phrasebooks(for_status=False)
    checker.status_book = checker.check_phrasebooks()
    ruleset = checker.ruleset_for(hero.ruleset, content.rulesets, hero.doc, ("rules",))
    statuses = [s for ss in content.status_sets for s in ss.statuses]
    scope = checker.hero_scope(hero, ruleset, statuses)
    checker.check_verbs(hero, scope)
    return checker, scope


def _check(content: Content, hero: Hero, site: Site, kind: str, status: Any,
           made=None) -> list[Diagnostic]:
    """Check the text as the hero's (filling `site.ast`); the diagnostics."""
    checker, scope = made or _hero_checker(content, hero)
    checker.diags = []
    ctx = Context(kind, dice=site.dice)
    if kind == "status":
        ctx.status = status
    checker.check_site(site, scope, ctx)
    checker.misplaced_tier_effects(site)
    return checker.diags


def _compile(content: Content, hero: Hero, site: Site, status: Any) -> tuple[Artifact, int, int]:
    """(the ruleset with the site's chunks added, the site's chunk, the first chunk added)."""
    compiler = Compiler(content)
    image = compiler.compile()
    first_new = len(compiler.chunks)
    chunk_index = compiler.effect_chunk(site, _Scope(hero, player_index(content, hero), status))
    image["chunks"] = [c.to_json() for c in compiler.chunks]
    return artifact_mod.load(artifact_mod.to_bytes(image)), chunk_index, first_new


def player_index(content: Content, player: Hero) -> int:
    """The player's index in a compiled ruleset: the heroes count first, then Minions and Bosses."""
    every = list(content.heroes) + list(content.minions)
    return next(i for i, p in enumerate(every) if p is player)  # by identity: a dataclass's == is deep


def _opponent(loaded, player: int) -> int:
    """Who player 2 plays: the next hero (a Minion's or a Boss's is the first hero); the player
    itself when there is no other."""
    heroes = len(loaded.heroes)
    if player >= heroes:
        return 0 if heroes else player
    return (player + 1) % heroes


def _run(loaded, hero_index: int, chunk_index: int, roll: list[int], seed: int, kind: str) -> list[str]:
    lines: list[str] = []
    vm = VM(loaded)
    other = _opponent(loaded, hero_index)
    state = SampleState(loaded, [hero_index, other])
    chunk = loaded.chunks[chunk_index]

    def trace(index, ins, stack):
        state_lines = state.log[trace.seen:]
        trace.seen = len(state.log)
        lines.extend(f"      -> {line}" for line in state_lines)
        words = describe(loaded, loaded.chunks[index], ins)
        raw = " ".join(str(x) for x in ins.operands if not isinstance(x, tuple))
        shown = f"{raw} ({words})" if words else raw
        lines.append(f"  {ins.offset:04}  {ins.op.name:<15} {shown:<34} stack {stack}")

    trace.seen = 0
    vm.trace = trace
    faces = {int(v): s for v, s in loaded.players[hero_index]["dice"]["faces"].items()}
    status = chunk.status if kind == "status" else None
    ctx = RunContext(0, hero_index, attacker=0, defender=1, roll=list(roll), faces=faces,
                     status=status, token=0)
    if status is not None:
        state.gain_status(0, status, 1, 0)
    lines.append(f"sample state: player 1 plays {loaded.players[hero_index]['name']}, player 2 "
                 f"plays {loaded.players[other]['name']}; current roll {roll or 'none'}")
    run = vm.run(chunk_index, ctx, state, random.Random(seed))
    try:
        request = next(run)
        while True:
            answer = first_answer(request)
            lines.append(f"      ? {type(request).__name__}: {request} -> answer {answer!r}")
            request = run.send(answer)
    except StopIteration as stop:
        lines.extend(f"      -> {line}" for line in state.log[trace.seen:])
        outcome = stop.value
    lines.append(f"done after {outcome.instructions} instructions")
    incoming = ", ".join(f"player {p + 1}: {v}" for p, v in state.incoming.items() if v)
    lines.append(f"incoming dmg: {incoming or 'none'}; added to the Attack: {state.added}")
    for p in state.seats:
        held = ", ".join(f"{len(t)} {loaded.statuses[s]['name']}" for s, t in p.statuses.items() if t)
        lines.append(f"player {p.seat + 1}: health {p.health}, CP {p.cp}, statuses: {held or 'none'}")
    return lines
