"""Focus: checked content and the name of one player in; that hero, Minion or Boss, the errors
that are its own, and the content less every other entry with an error out.

`dtc show`, `dtc explain` and `dtc board` look at one player: an error in another hero's file (or
in another Minion of the same set, or in a shared card) must not stop a designer from checking
this one. What they run is the content with those entries left out and checked again, so it
compiles; what every entry needs (the rules, the shared status effects, the phrasebook) cannot be
left out, and its errors are returned instead.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import replace
from typing import Any

from dtc.checker import check
from dtc.diagnostics import Diagnostic, Severity
from dtc.loader import Document
from dtc.model import Content, Hero, StatusSet
from dtc.show import slug
from dtc.source import Span

ROUNDS = 5  # leaving an entry out may break another that named it (an adventure, its minions)


def players(content: Content) -> list[Hero]:
    """The heroes, then the Minions and Bosses (the order of a compiled ruleset's players)."""
    return list(content.heroes) + list(content.minions)


def find(content: Content, wanted: str) -> tuple[Hero | None, str | None]:
    """The hero, Minion or Boss called `wanted` (name or slug; a hero first when names clash), or
    None and the nearest name."""
    key = slug(wanted)
    for player in players(content):
        if slug(player.name) == key:
            return player, None
    names = {slug(p.name): p.name for p in reversed(players(content))}  # a hero's name wins a clash
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.5)
    return None, names[close[0]] if close else None


def groups(content: Content) -> dict[str, list[str]]:
    """The names of the heroes, the Minions and the Bosses, for an error naming what there is."""
    return {"heroes here": [h.name for h in content.heroes],
            "Minions": [m.name for m in content.minions if m.minion is not None],
            "Bosses": [m.name for m in content.minions if m.boss is not None]}


def own(diagnostics: list[Diagnostic], content: Content, player: Hero) -> list[Diagnostic]:
    """The diagnostics in the player's entry: its file's, but for a Minion those inside another
    Minion of the same set (one in the set's own keys, as its die, is every one of its Minions')."""
    mine = [d for d in diagnostics if d.span is not None and d.span.path == player.doc.path]
    if player.minion is None:
        return mine
    minions = [(m, m.minion.objective.path[:2]) for m in content.minions  # ("minions", i): its card
               if m.minion is not None and m.doc is player.doc]
    regions = _regions(player.doc, minions)
    return [d for d in mine if (owner := _owner(d.span, regions)) is None or owner is player]


def runnable(content: Content, errors: list[Diagnostic], player: Hero) -> tuple[Content, list[Diagnostic]]:
    """The content less every other hero, Minion, Boss, card, status effect and adventure with an
    error in it, checked again; and the errors left: none when it compiles, else those of what
    every entry needs (its rules, a shared status effect the player names, the phrasebook)."""
    first = errors
    for _ in range(ROUNDS):
        if not errors:
            break
        pruned = _without_broken(content, errors, player)
        if _sizes(pruned) == _sizes(content):
            break  # nothing more to leave out: the errors are in what everything needs
        content = pruned
        errors = [d for d in check(content) if d.severity == Severity.ERROR and d.suppressed is None]
    if own(errors, content, player):  # it named what was left out: the error is there, not in it
        shared = {doc.path for doc in _documents(content)} - {p.doc.path for p in players(content)}
        errors = [d for d in first if d.span is None or d.span.path in shared] or errors
    return content, errors


def _without_broken(content: Content, errors: list[Diagnostic], player: Hero) -> Content:
    broken = {d.span.path for d in errors if d.span is not None}
    dt_files = {doc.path for doc in _documents(content)}
    card_sets = []
    for card_set in content.card_sets:
        cards = _clean(card_set.cards, card_set.doc, errors)
        if cards is not None:  # an error in the set's own keys: none of its cards
            card_sets.append(replace(card_set, cards=cards))
    kept_cards = {id(c) for cs in card_sets for c in cs.cards}
    return replace(
        content,
        heroes=[h for h in content.heroes if h is player or h.doc.path not in broken],
        minions=[m for m in content.minions if m is player or not own(errors, content, m)],
        card_sets=card_sets,
        status_sets=[_clean_statuses(ss, errors) for ss in content.status_sets],
        loot=[x for x in content.loot if id(x.card) in kept_cards],
        adventures=[a for a in content.adventures if a.doc.path not in broken],
        # an error outside every Dice Throne file may be Valeria's (another game): nothing here needs it
        valeria=None if broken - dt_files else content.valeria,
    )


def _clean_statuses(status_set: StatusSet, errors: list[Diagnostic]) -> StatusSet:
    """The set less its status effects with an error. An error in its own keys (its dice) leaves it
    whole: the players rolling its dice need it, and the error stays in the way."""
    statuses = _clean(status_set.statuses, status_set.doc, errors)
    return status_set if statuses is None else replace(status_set, statuses=statuses)


def _clean(entries: list, doc: Document, errors: list[Diagnostic]) -> list | None:
    """The entries of a file (cards, status effects: each with its `path`) less those with an
    error; None when an error is outside every one."""
    regions = _regions(doc, [(e, e.path) for e in entries])
    owners = [_owner(d.span, regions) for d in errors if d.span is not None and d.span.path == doc.path]
    if any(o is None for o in owners):
        return None
    return [e for e in entries if not any(o is e for o in owners)]


def _regions(doc: Document, entries: list[tuple[Any, tuple]]) -> list[tuple[Any, tuple, tuple]]:
    """Each (entry, its YAML path) as (entry, where it starts, where the next thing starts): the
    next entry or the next top-level key (a collection's span is only where it starts)."""
    tops = sorted(_start(doc.key_span((key,))) for key in doc.data) if isinstance(doc.data, dict) else []
    ordered = sorted(((e, _start(doc.span(path))) for e, path in entries), key=lambda pair: pair[1])
    regions = []
    for k, (entry, start) in enumerate(ordered):
        ends = [t for t in tops if t > start]
        if k + 1 < len(ordered):
            ends.append(ordered[k + 1][1])
        regions.append((entry, start, min(ends, default=(math.inf, math.inf))))
    return regions


def _owner(span: Span, regions: list[tuple[Any, tuple, tuple]]) -> Any:
    """The entry whose region holds the span's start, or None (the file's own keys)."""
    where = _start(span)
    return next((entry for entry, start, end in regions if start <= where < end), None)


def _start(span: Span) -> tuple:
    return (span.line, span.col)


def _documents(content: Content):
    for group in (content.heroes, content.minions, content.card_sets, content.status_sets,
                  content.rulesets, content.phrasebooks, content.adventures):
        yield from (entry.doc for entry in group)


def _sizes(content: Content) -> tuple:
    return (len(content.heroes), len(content.minions), sum(len(cs.cards) for cs in content.card_sets),
            len(content.card_sets), sum(len(ss.statuses) for ss in content.status_sets),
            len(content.adventures), content.valeria is None)
