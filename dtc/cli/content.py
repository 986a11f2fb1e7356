"""The commands that read content: lint, show, compile, disasm, explain, heroes, modes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from dtc import __version__
from dtc.cli.common import (
    EXIT_CLEAN,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    RULESET_HELP,
    _compiled,
    _face_values,
    _no_player,
    _not_built_in,
    _note_no_common_cards,
    _print_diagnostics,
    _ruleset,
)
from dtc.cli.sources import again, compiled, source_option


def _exit_code(result, strict: bool) -> int:
    if result.usage_error:
        return EXIT_USAGE
    if result.errors or (strict and result.warnings):
        return EXIT_PROBLEMS
    return EXIT_CLEAN


def _color(mode: str) -> bool:
    if mode == "always":
        return True
    if mode == "never":
        return False
    return sys.stderr.isatty() and not os.environ.get("NO_COLOR")  # https://no-color.org


def _summary(result) -> str:
    allowed = sum(1 for d in result.diagnostics if d.suppressed is not None)
    errors, warnings = len(result.errors), len(result.warnings)
    parts = [f"{errors} error{'s' * (errors != 1)}", f"{warnings} warning{'s' * (warnings != 1)}"]
    if allowed:
        parts.append(f"{allowed} allowed")
    return f"checked {result.files} file{'s' * (result.files != 1)}: {', '.join(parts)}"


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]),
              default="text", show_default=True, help="How to print diagnostics.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option("--show-allowed", is_flag=True, help="Also print warnings that `allow` covers.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True)
@click.option("--no-cache", is_flag=True,
              help="Check everything again (a lint of unchanged files is otherwise read from ~/.cache/dtc).")
@click.option("--fix", "fix", is_flag=True,
              help="Write each single `did you mean` into the files in place (layout and comments kept), "
                   "say what changed, then report what is left.")
def lint(paths: tuple[Path, ...], fmt: str, strict: bool, show_allowed: bool, color: str,
         no_cache: bool, fix: bool) -> None:
    """Check content files (folders are searched for *.yaml)."""
    from dtc import lintcache
    from dtc.diagnostics import render_github, render_json, render_sarif, render_text

    result = _fixed(list(paths)) if fix else lintcache.lint(list(paths), use_cache=not no_cache)
    diags = result.diagnostics
    if fmt == "json":
        click.echo(render_json(diags, result.files))
    elif fmt == "sarif":
        click.echo(render_sarif(diags, __version__))
    elif fmt == "github":
        for d in diags:
            if d.suppressed is None or show_allowed:
                click.echo(render_github(d))
    else:
        use_color = _color(color)
        for d in diags:
            if d.suppressed is None or show_allowed:
                text = render_text(d, result.sources, use_color)
                if d.suppressed is not None:
                    text += f"\n  = allowed: {' '.join(d.suppressed.split())}"
                click.echo(text, err=True, color=use_color)  # `always` colours a pipe too
        click.echo(_summary(result), err=True)
    sys.exit(_exit_code(result, strict))


def _fixed(paths: list[Path]):
    """`lint --fix`: write the fixes, say each one (and each that could not be placed) on stderr;
    the lint of the files as written, for `lint` to report as usual in any format."""
    from dtc import fix

    outcome = fix.apply(paths)
    for c in outcome.changes:
        click.echo(f"{c.path}:{c.line}:{c.col}: fixed: `{c.old}` -> `{c.new}`", err=True)
    for d, why in outcome.skipped:
        click.echo(f"{d.span.path}:{d.span.line}:{d.span.col}: not fixed: `{fix.suggestion(d.hint)}` "
                   f"cannot be written there: {why}", err=True)
    n, m = len(outcome.changes), len(outcome.files)
    click.echo(f"fixed {n} problem{'s' * (n != 1)} in {m} file{'s' * (m != 1)}", err=True)
    return outcome.result


@click.command()
@click.argument("hero")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@source_option()
def show(hero: str, fmt: str, ruleset_paths: tuple[Path, ...]) -> None:
    """Show a hero, a Minion or a Boss as dtc understands it: dice, abilities, statuses, components,
    deck (a Minion's card, a Boss's setup and Action cards). Errors elsewhere in the content do not
    stop it; errors in the one asked about do."""
    from dtc import focus
    from dtc.show import format_hero, hero_view

    result = _source_content(ruleset_paths, "show")
    if result.usage_error:
        _print_diagnostics(result)
        sys.exit(EXIT_USAGE)
    found = _player(result, hero, again("show", hero), builtin=not ruleset_paths)
    problems = focus.own(result.errors, result.content, found)
    if problems:
        _print_these(problems, result)
        click.echo(f"error: {found.name} has {len(problems)} error(s); fix them to show it",
                   err=True)
        sys.exit(EXIT_PROBLEMS)
    view = hero_view(found, result.content)
    if fmt == "json":
        click.echo(json.dumps(view, indent=2, ensure_ascii=False))
    else:
        click.echo(format_hero(view))
    sys.exit(EXIT_CLEAN)


def _source_content(paths: tuple[Path, ...], command: str):
    """The content `--ruleset` names, read from its source (the built-in content without it); a
    compiled ruleset is refused in one line (exit 2), as the command reads the source."""
    from dtc import project

    ruleset = compiled(paths)
    if ruleset is not None:
        click.echo(f"error: --ruleset {ruleset} is a compiled ruleset; `dtc {command}` reads content: "
                   "pass the content folder it was compiled from (e.g. --ruleset content/)", err=True)
        sys.exit(EXIT_USAGE)
    return project.run(list(paths)) if paths else project.builtin()


def _player(result, name: str, command_line: str, builtin: bool):
    """The hero, Minion or Boss called `name` in content read from its source; else the files
    that did not load (it may be in one), where a hero of one's own is, or the names there are
    (exit 2)."""
    from dtc import focus

    found, guess = focus.find(result.content, name)
    if found is not None:
        return found
    _print_these([d for d in result.errors if d.code[:1] in ("Y", "S")], result)
    _not_built_in(name, command_line, builtin)
    own = (" (the built-in content; a hero of your own: pass --ruleset with the folder that holds its "
           "file)") if builtin and not guess else ""
    _no_player(name, guess, focus.groups(result.content), own=own)


def _print_these(diagnostics: list, result) -> None:
    from dtc.diagnostics import render_text

    for d in diagnostics:
        click.echo(render_text(d, result.sources), err=True)






def _load_artifact(path: Path):
    from dtc import artifact

    try:
        return artifact.read(path)
    except artifact.ArtifactError as exc:
        click.echo(f"error: {path}: {exc}", err=True)
        sys.exit(EXIT_PROBLEMS)


def _empty_or_a_ruleset(path: Path) -> bool:
    """Whether `compile -o` may write there: no file, an empty one, or a compiled ruleset (a pipe or
    a device is not read: that would wait for it)."""
    if not path.is_file():
        return True
    try:
        with open(path, "rb") as f:
            start = f.read(4)
    except OSError:
        return True  # not there, or a folder: writing it says what is wrong
    return start in (b"", b"DTCB")


@click.command(name="compile")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path),
              help="The artifact to write (e.g. build/ruleset.dtcb; `-`: standard output).")
def compile_command(paths: tuple[Path, ...], output: Path) -> None:
    """Compile content into one verified ruleset artifact (.dtcb)."""
    from dtc import artifact

    if str(output) != "-" and not _empty_or_a_ruleset(Path(output)):  # `-o <hero>.yaml` must not eat it
        click.echo(f"error: will not write over {output}: it is not a compiled ruleset; name another file "
                   "(e.g. build/ruleset.dtcb), or remove it first", err=True)
        sys.exit(EXIT_USAGE)
    data = _compiled(list(paths), "{n} error(s); nothing written")
    loaded = artifact.load(data)  # never write what would not verify
    _note_no_common_cards(loaded, " ".join(str(p) for p in paths))
    try:
        if str(output) == "-":  # a pipe: `dtc compile content/ -o - | sha256sum`
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            artifact.write(output, data)
    except OSError as exc:
        click.echo(f"error: cannot write {output}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"wrote {output}: {len(data)} bytes, {len(loaded.heroes)} heroes, "
               f"{len(loaded.chunks)} chunks, sha256 {loaded.content_hash[:16]}", err=True)
    sys.exit(EXIT_CLEAN)


@click.command()
@click.argument("artifact_path", metavar="FILE.dtcb", type=click.Path(path_type=Path))
@click.option("--hero", help="Only this hero's chunks.")
@click.option("--ability", help="Only this ability's (or status's, or card's) chunks.")
def disasm(artifact_path: Path, hero: str | None, ability: str | None) -> None:
    """List the bytecode of a compiled artifact, with names and source lines."""
    from dtc.disasm import format_chunk

    loaded = _load_artifact(artifact_path)
    prefix = ""
    if hero is not None:
        found = loaded.hero(hero)
        if found is None:
            names = ", ".join(h["name"] for h in loaded.heroes)
            click.echo(f"error: no hero `{hero}` in {artifact_path}; heroes: {names}", err=True)
            sys.exit(EXIT_USAGE)
        prefix = found[1]["name"] + " › "
    wanted = []
    for i, chunk in enumerate(loaded.chunks):
        if hero is not None and not chunk.owner.startswith(prefix):
            continue
        if ability is not None and not _owner_names(chunk.owner, ability):
            continue
        wanted.append(i)
    if not wanted:
        click.echo(f"error: nothing matches{' --hero ' + hero if hero else ''}"
                   f"{' --ability ' + ability if ability else ''}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"; {artifact_path}: dtc {loaded.version}, sha256 {loaded.content_hash}")
    for i in wanted:
        click.echo("")
        click.echo(format_chunk(loaded, i))
    sys.exit(EXIT_CLEAN)


def _owner_names(owner: str, name: str) -> bool:
    """Whether a chunk owner (`Tide Caller › Undertow › tier 1`) belongs to `name`."""
    parts = [p.strip().casefold() for p in owner.split("›")]
    wanted = " ".join(name.casefold().split())
    return len(parts) > 1 and parts[1] in (wanted, f"card {wanted}")


@click.command()
@click.argument("text")
@click.option("--hero", required=True,
              help="The hero, Minion or Boss (name or slug) whose names and verbs the text uses.")
@click.option("--as", "kind", type=click.Choice(["offensive", "defensive", "card", "status", "passive"]),
              default="offensive", show_default=True, help="What kind of effect the text is.")
@click.option("--roll", default="1,2,3,4,6", show_default=True,
              help="The current roll's face values (comma-separated; empty for none).")
@click.option("--seed", default=1, show_default=True, help="Seed for any dice the text rolls.")
@source_option()
@click.option("--status", "status_name", help="With --as status: the status whose text it is "
              "(default: the hero's first).")
@click.option("--timing", type=click.Choice(["main", "roll", "instant"]), default="main", show_default=True,
              help="With --as card: when the card is played (a Roll Phase or Instant card may work on "
              "the dice of --roll).")
def explain(text: str, hero: str, kind: str, roll: str, seed: int,
            ruleset_paths: tuple[Path, ...], status_name: str | None, timing: str) -> None:
    """Show how dtc reads effect text: tokens, tree, bytecode and a sample run. Errors elsewhere in
    the content do not stop it; with errors in the hero, Minion or Boss itself (or in the rules or
    status effects every one needs), it shows how far it read and exits 1."""
    from dtc import focus
    from dtc.diagnostics import render_text
    from dtc.explain import explain as explain_text

    faces = _face_values(roll, empty_ok=True)
    if faces is None:
        click.echo(f"error: --roll takes face values like 1,2,3,4,6, not {roll!r}", err=True)
        sys.exit(EXIT_USAGE)
    result = _source_content(ruleset_paths, "explain")
    if result.usage_error:  # a path not there: say so, not that the hero is not there
        _print_diagnostics(result)
        sys.exit(EXIT_USAGE)
    found = _player(result, hero, again("explain", "--hero", hero, text), builtin=not ruleset_paths)
    status = _status_named(found, result.content, status_name)
    if timing != "main" and kind != "card":
        click.echo(f"error: --timing {timing} is for --as card, not --as {kind}", err=True)
        sys.exit(EXIT_USAGE)
    # the text is compiled with the content: what has errors elsewhere is left out, not run
    own = focus.own(result.errors, result.content, found)
    content, blocking = (result.content, own) if own else focus.runnable(result.content, result.errors, found)
    view = explain_text(content, found, text, kind, faces, seed, status, timing, run=not blocking)
    if view.reading:
        click.echo(f"read as (the lexicon and phrasebook):\n  {view.reading}\n")
    click.echo("tokens:")
    click.echo("  " + "  ".join(view.tokens))
    if view.tree:
        click.echo("\ntree:")
        click.echo("\n".join("  " + line for line in view.tree.splitlines()))
    for d in view.diagnostics:
        click.echo(render_text(d, view.sources), err=True)
    if blocking:
        _not_run(found, blocking, bool(own), result)
    if view.note and not any(d.severity == "error" for d in view.diagnostics):
        click.echo(f"\nnote: {view.note}")
        return
    if any(d.severity == "error" for d in view.diagnostics) or not view.listing:
        sys.exit(EXIT_PROBLEMS)
    click.echo("\nbytecode:")
    click.echo(view.listing)
    click.echo("\nrun:")
    click.echo("\n".join(view.trace))
    sys.exit(EXIT_CLEAN)


def _status_named(found, content, status_name: str | None):
    """`--status`: the player's status effect (or a shared one) of that name; None without it."""
    if status_name is None:
        return None
    known = found.statuses + [s for ss in content.status_sets for s in ss.statuses]
    status = next((s for s in known if s.name.casefold() == status_name.casefold()), None)
    if status is None:
        click.echo(f"error: --status: {found.name} has no status `{status_name}`; statuses: "
                   + ", ".join(s.name for s in found.statuses), err=True)
        sys.exit(EXIT_USAGE)
    return status


def _not_run(found, errors: list, its_own: bool, result) -> None:
    """The errors that keep the text from being compiled and run (what was read is printed above),
    then why in one line (exit 1)."""
    _print_these(errors, result)
    where = (f"{found.name} has {len(errors)} error(s)" if its_own else
             f"what every hero, Minion and Boss needs (rules, status effects, phrasebook) has {len(errors)} "
             "error(s)")
    click.echo(f"error: {where}: the text is read above, but compiled and run only once they are fixed "
               "(`dtc lint`)", err=True)
    sys.exit(EXIT_PROBLEMS)


@click.command()
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def modes(ruleset_path: Path | None) -> None:
    """List the ways to play of each rules edition: players, sides, turn order, Health, targeting."""
    from dtc.dicethrone.modes import mode_from_data

    loaded = _ruleset(ruleset_path)
    for data in loaded.data["rulesets"]:
        click.echo(f"{data['ruleset']}" + (" (default)" if data.get("default") else ""))
        for name, entry in data["modes"].items():
            mode = mode_from_data(name, entry)
            aliases = f" ({', '.join(entry['aliases'])})" if entry.get("aliases") else ""
            sides = " vs ".join("+".join(f"P{s + 1}" for s in side) for side in mode.teams)
            order = ", ".join(f"P{s + 1}" for s in mode.turn_order)
            extra = [f"{mode.start_health} Health" + (" per team (one dial)" if mode.shared_health else ""),
                     f"turns {order}"]
            if mode.targeting != "none":
                extra.append({"roll": "targeting die", "choose": "the Attacker chooses"}[mode.targeting])
            if mode.leader_bonus_draw:
                extra.append(f"attacking a Leader draws {mode.leader_bonus_draw}")
            click.echo(f"  {name}{aliases}: {mode.players} players, {sides}; {'; '.join(extra)}")
            if mode.authored:
                click.echo(f"      authored: {mode.authored}")
    sys.exit(EXIT_CLEAN)


@click.command()
@source_option("The content to list: a content folder or YAML files (repeat it for several), or a compiled "
               "ruleset (FILE.dtcb); default: the built-in content.")
def heroes(ruleset_paths: tuple[Path, ...]) -> None:
    """List the heroes in the content."""
    from dtc import project

    ruleset = compiled(ruleset_paths)
    if ruleset is not None:
        _list_compiled_heroes(ruleset, ruleset_paths)
    result = project.run(list(ruleset_paths)) if ruleset_paths else project.builtin()
    _print_diagnostics(result)  # what kept a file out of the list (errors and warnings)
    for h in sorted(result.content.heroes, key=lambda h: h.name):
        _hero_line(h.name, h.doc.path, len(h.abilities), sum(c.copies for c in h.cards))
    if not result.content.heroes and not result.errors and not result.usage_error:
        _no_heroes(ruleset_paths)
    sys.exit(_exit_code(result, False))


def _list_compiled_heroes(ruleset: Path, paths: tuple[Path, ...]) -> None:
    """`dtc heroes --ruleset FILE.dtcb`: its heroes, named by the files they were compiled from."""
    if len(paths) > 1:
        click.echo(f"error: --ruleset {ruleset} is a compiled ruleset: give it alone", err=True)
        sys.exit(EXIT_USAGE)
    loaded = _load_artifact(ruleset)
    for h in sorted(loaded.heroes, key=lambda h: h["name"]):
        _hero_line(h["name"], loaded.data["sources"][h["source"]], len(h["abilities"]),
                   sum(c["copies"] for c in h["cards"]))
    if not loaded.heroes:
        _no_heroes(paths)
    sys.exit(EXIT_CLEAN)


def _hero_line(name: str, path: str, abilities: int, cards: int) -> None:
    click.echo(f"{name:<14} {path}  ({abilities} abilities, {cards} own cards)")


def _no_heroes(paths: tuple[Path, ...]) -> None:
    where = ", ".join(str(p) for p in paths)
    click.echo(f"no heroes in {where} (a hero is a YAML file with `hero:`; "
               f"try `dtc heroes` for the built-in ones)", err=True)
    sys.exit(EXIT_PROBLEMS)


# ------------------------------------------------------------------ Valeria
