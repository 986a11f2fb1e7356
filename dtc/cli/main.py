"""CLI: one function per command; logic lives in the stage modules.

Exit codes are decided in one place (`_exit_code`): 0 clean, 1 problems in the
content, 2 usage or I/O errors.  Text diagnostics go to stderr; machine
formats (json, github, sarif) and requested output go to stdout.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import click

from dtc import __version__
from dtc.cli.sources import again, compiled, not_built_in, source_option
from dtc.cli.workers import cluster_options

# Stage modules are imported inside the commands that use them: `dtc disasm`
# never loads the YAML, grammar or schema machinery, and `dtc --version` is quick.

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
RULESET_HELP = ("A compiled ruleset (FILE.dtcb), or a content folder compiled on the spot "
                "(default: the built-in content).")
MODE_HELP = ("The way to play: 1v1 (default), 2v2, king_of_the_hill (koth), and the 5-6 player modes of "
             "the rules (see `dtc modes`).")
RULES_HELP = ("The rules to play, by name, version or alias (`Dice Throne v2.0`, `2.0`: Season One's; "
              "`marvel`); default: the content's default rules.")


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dtc")
def cli() -> None:
    """dtc: author, check and play dice-and-card board games from YAML content."""


_SIGNALLED: list[int] = []  # the signal that stopped the command, when one did (SIGTERM)


def _terminated(signum, frame) -> None:
    # `kill`: leave as Ctrl-C does (a game saved, workers stopped, no file half-written), exit 128+N
    _SIGNALLED.append(signum)
    raise KeyboardInterrupt


def _interrupted_code() -> int:
    return 128 + _SIGNALLED[0] if _SIGNALLED else 130


def main() -> None:
    """The console script: the commands, with interruptions and dtc bugs reported briefly."""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(_interrupted_code())
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(_interrupted_code())
    except BrokenPipeError:
        # the reader went away (`dtc show HERO | head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_PROBLEMS)
    except SystemExit:
        raise
    except Exception as exc:  # a dtc bug: say so in one line, full trace only on request
        if os.environ.get("DTC_DEBUG"):
            raise
        click.echo(f"internal error: {type(exc).__name__}: {exc} (this is a dtc bug; run with "
                   "DTC_DEBUG=1 for the full trace and please report it)", err=True)
        sys.exit(3)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]),
              default="text", show_default=True, help="How to print diagnostics.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option("--show-allowed", is_flag=True, help="Also print warnings that `allow` covers.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True)
@click.option("--no-cache", is_flag=True,
              help="Check everything again (a lint of unchanged files is otherwise read from ~/.cache/dtc).")
def lint(paths: tuple[Path, ...], fmt: str, strict: bool, show_allowed: bool, color: str,
         no_cache: bool) -> None:
    """Check content files (folders are searched for *.yaml)."""
    from dtc import lintcache
    from dtc.diagnostics import render_github, render_json, render_sarif, render_text

    result = lintcache.lint(list(paths), use_cache=not no_cache)
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


@cli.command()
@click.argument("hero")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@source_option()
def show(hero: str, fmt: str, ruleset_paths: tuple[Path, ...]) -> None:
    """Show a hero as dtc understands it: dice, abilities, statuses, components, deck."""
    from dtc.diagnostics import render_text
    from dtc.show import find_hero, format_hero, hero_names, hero_view

    result = _source_content(ruleset_paths, "show")
    if result.usage_error:
        for d in result.diagnostics:
            click.echo(render_text(d, result.sources), err=True)
        sys.exit(EXIT_USAGE)
    found, guess = find_hero(result.content, hero)
    if found is None:
        for d in result.errors:  # a file that did not load may be where the hero was
            if d.code.startswith("Y"):
                click.echo(render_text(d, result.sources), err=True)
        _not_built_in(hero, again("show", hero), builtin=not ruleset_paths)
        known = ", ".join(hero_names(result.content)) or "none"
        hint = f"did you mean `{guess}`? " if guess else ""
        own = (" (the built-in content; a hero of your own: pass --ruleset with the folder that holds its "
               "file)") if not ruleset_paths and not guess else ""
        click.echo(f"error: no hero `{hero}`; {hint}heroes here: {known}{own}", err=True)
        sys.exit(EXIT_USAGE)
    problems = [d for d in result.errors if d.span and d.span.path == found.doc.path]
    if problems:
        for d in problems:
            click.echo(render_text(d, result.sources), err=True)
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


def _not_built_in(name: str, command_line: str, builtin: bool, option: str | None = None) -> None:
    """With the built-in content, a hero not in it but in a file nearby: where, and the command that
    finds it (exit 2)."""
    message = not_built_in(name, command_line) if builtin else None
    if message is not None:
        click.echo(f"error: {option + ': ' if option else ''}{message}", err=True)
        sys.exit(EXIT_USAGE)


def _face_values(text: str, empty_ok: bool = False) -> list[int] | None:
    """Die face values written `1,1,4,6,6` (spaces allowed; `` for no dice when `empty_ok`); None
    unless exactly that."""
    if empty_ok and not text.strip():
        return []
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts):
        return None
    return [int(part) for part in parts]


def _print_diagnostics(result) -> None:
    from dtc.diagnostics import render_text

    for d in result.diagnostics:
        if d.suppressed is None:
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


@cli.command(name="compile")
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


@cli.command()
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


@cli.command()
@click.argument("text")
@click.option("--hero", required=True, help="The hero whose names and verbs the text uses.")
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
    """Show how dtc reads effect text: tokens, tree, bytecode and a sample run."""
    from dtc.diagnostics import render_text
    from dtc.explain import explain as explain_text
    from dtc.show import find_hero, hero_names

    faces = _face_values(roll, empty_ok=True)
    if faces is None:
        click.echo(f"error: --roll takes face values like 1,2,3,4,6, not {roll!r}", err=True)
        sys.exit(EXIT_USAGE)
    result = _source_content(ruleset_paths, "explain")
    if result.usage_error:  # a path not there: say so, not that the hero is not there
        _print_diagnostics(result)
        sys.exit(EXIT_USAGE)
    found, guess = find_hero(result.content, hero)
    if found is None:
        _not_built_in(hero, again("explain", "--hero", hero, text), builtin=not ruleset_paths)
        hint = f"did you mean `{guess}`? " if guess else ""
        click.echo(f"error: no hero `{hero}`; {hint}heroes: {', '.join(hero_names(result.content))}",
                   err=True)
        sys.exit(EXIT_USAGE)
    if result.errors:  # the text is compiled with the content: broken content cannot be run
        for d in result.errors:
            click.echo(render_text(d, result.sources), err=True)
        click.echo(f"error: the content has {len(result.errors)} error(s); fix them (`dtc lint`) to "
                   "explain text with it", err=True)
        sys.exit(EXIT_PROBLEMS)
    status = None
    if status_name is not None:
        known = found.statuses + [s for ss in result.content.status_sets for s in ss.statuses]
        status = next((s for s in known if s.name.casefold() == status_name.casefold()), None)
        if status is None:
            click.echo(f"error: --status: {found.name} has no status `{status_name}`; statuses: "
                       + ", ".join(s.name for s in found.statuses), err=True)
            sys.exit(EXIT_USAGE)
    if timing != "main" and kind != "card":
        click.echo(f"error: --timing {timing} is for --as card, not --as {kind}", err=True)
        sys.exit(EXIT_USAGE)
    view = explain_text(result.content, found, text, kind, faces, seed, status, timing)
    if view.reading:
        click.echo(f"read as (the phrasebook):\n  {view.reading}\n")
    click.echo("tokens:")
    click.echo("  " + "  ".join(view.tokens))
    if view.tree:
        click.echo("\ntree:")
        click.echo("\n".join("  " + line for line in view.tree.splitlines()))
    for d in view.diagnostics:
        click.echo(render_text(d, view.sources), err=True)
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


def _ruleset(path: Path | None):
    """The ruleset `--ruleset` names: a compiled FILE.dtcb, or content (a folder, a YAML file)
    compiled here and now; the built-in one without it."""
    from dtc import rulesets

    if path is not None and (Path(path).is_dir() or Path(path).suffix in (".yaml", ".yml")):
        return _compiled_content(Path(path))
    if path is not None and not Path(path).is_file():  # a wrong path is a usage error, like lint's
        click.echo(f"error: --ruleset {path}: no such file (compile one with `dtc compile content -o "
                   f"FILE.dtcb`, or name a content folder)", err=True)
        sys.exit(EXIT_USAGE)
    try:
        return rulesets.load(path)
    except rulesets.RulesetError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_PROBLEMS)


def _compiled(paths: list[Path], failure: str) -> bytes:
    """The artifact bytes of content; when it has errors, they are printed as lint prints them,
    then `failure` (`{n}`: how many), and the command exits 1 (2 for a usage error)."""
    from dtc import artifact, project
    from dtc.compiler import compile_content

    result = project.run(paths)
    if result.usage_error:
        _print_diagnostics(result)
        sys.exit(EXIT_USAGE)
    if result.errors:
        _print_diagnostics(result)
        click.echo("error: " + failure.replace("{n}", str(len(result.errors))), err=True)
        sys.exit(EXIT_PROBLEMS)
    return artifact.to_bytes(compile_content(result.content, project.artifact_names(result, paths)))


def _compiled_content(path: Path):
    """Content compiled in memory for `--ruleset FOLDER` (its errors as lint prints them, exit 1)."""
    from dtc import artifact

    if not path.exists():
        click.echo(f"error: --ruleset {path}: no such file or folder", err=True)
        sys.exit(EXIT_USAGE)
    loaded = artifact.load(_compiled([path], f"{path} has {{n}} error(s); fix them (`dtc lint {path}`)"))
    _note_no_common_cards(loaded, str(path))
    return loaded


def _note_no_common_cards(loaded, where: str) -> None:
    """A note when content with Dice Throne heroes has no common cards: each deck is then its hero's
    own cards alone, and the games differ a lot from those of the whole content (a designer pointing
    --ruleset at a heroes folder got win rates of 14% against 59%, silently: tester QA)."""
    if loaded.heroes and not loaded.data.get("card_sets"):
        click.echo(f"note: {where} holds no common cards (a `cards` file, as content/cards/common.yaml): "
                   "each deck is its hero's own cards alone; give the whole content folder to play with "
                   "them", err=True)


def _hero_name(loaded, name: str, option: str, builtin: bool = False, command_line: str | None = None) -> str:
    """The hero's name in the ruleset, or a one-line error (exit 2) naming those it has; with the
    built-in content, how to play a hero of one's own (where it is, when a file nearby has it:
    `command_line` is the command to give `--ruleset`)."""
    found = loaded.hero(name)
    if found is None:
        import difflib

        if command_line is not None:
            _not_built_in(name, command_line, builtin, option)
        names = [h["name"] for h in loaded.heroes]
        close = difflib.get_close_matches(name.replace("_", " ").replace("-", " "), names, n=1, cutoff=0.5)
        hint = f"did you mean `{close[0]}`? " if close else ""
        if not names:
            click.echo(f"error: {option}: no hero `{name}`: this ruleset has no heroes (a Dice Throne "
                       "ruleset needs hero files; is it a Valeria one, or only rules?)", err=True)
            sys.exit(EXIT_USAGE)
        own = (" (the built-in content; a hero of your own: pass --ruleset with the folder that holds its "
               "file, or with a ruleset compiled from it by `dtc compile`)") if builtin and not close else ""
        click.echo(f"error: {option}: no hero `{name}`; {hint}heroes: {', '.join(names)}{own}", err=True)
        sys.exit(EXIT_USAGE)
    return found[1]["name"]


@cli.command()
@click.option("--hero", help="Your hero (a name or slug; see `dtc heroes`).")
@click.option("--vs", "opponent", help="The bot's hero.")
@click.option("--seed", type=int, help="Seed for dice and shuffles (a random one when absent).")
@click.option("--bot", type=click.Choice(["heuristic", "estimate", "random"]), default="heuristic",
              show_default=True)
@click.option("--auto", is_flag=True, help="Bots play both heroes; the game is narrated.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
              help=RULESET_HELP)
@click.option("--save", "save_path", type=click.Path(path_type=Path),
              help="Save the game to this file after every turn.")
@click.option("--resume", "resume_path", type=click.Path(path_type=Path),
              help="Continue a saved game.")
@click.option("--log", "log_path", type=click.Path(path_type=Path),
              help="Write the game as JSON lines (for `dtc replay`).")
@click.option("--rules", help=RULES_HELP)
@click.option("--mode", help=MODE_HELP)
@click.option("--heroes", "hero_list", metavar="A,B,...",
              help="Every hero at the table, in seat order (`--mode 2v2 --heroes A,B,C,D`: A and B are "
                   "a team).")
@click.option("--seat", "human_seats", type=click.IntRange(1, 6), multiple=True,
              help="Where you sit with --heroes (default 1); give it again for more players at the terminal.")
def play(hero, opponent, seed, bot, auto, ruleset_path, save_path, resume_path, log_path, rules, mode,
         hero_list, human_seats) -> None:
    """Play Dice Throne at the terminal against bots (or watch bots with --auto): 1v1 with --hero and
    --vs, any mode with --mode and --heroes."""
    import random as random_mod

    from dtc.agents.bots import BOTS
    from dtc.agents.human import Human
    from dtc.dicethrone.narrate import line
    from dtc.dicethrone.session import DICE_THRONE, Setup
    from dtc.session import Session

    given = ruleset_path
    ruleset_path = ruleset_path or _saved_ruleset(resume_path)
    loaded = _ruleset(ruleset_path)
    recorded: list = []
    made_by = None  # the dtc version of the save being resumed
    if resume_path is not None:
        setup, recorded, made_by = _resume(DICE_THRONE, loaded, resume_path, given)
        _ignored_on_resume(["hero", "opponent", "seed", "bot", "auto", "rules", "mode", "hero_list",
                            "human_seats"])  # once the save is good
        save_path = save_path or resume_path
        log_path = log_path or _saved_log(resume_path)
    else:
        builtin = ruleset_path is None
        rules_name = _rules(loaded, rules)
        table = _mode(loaded, rules_name, mode)
        if hero_list is not None:
            if hero or opponent:
                click.echo("error: give the heroes either as --heroes A,B,... or as --hero and --vs",
                           err=True)
                sys.exit(EXIT_USAGE)
            names = _hero_list(hero_list, table)
            command_line = again("play", "--mode", table.name, "--heroes", hero_list)
            heroes = [_hero_name(loaded, name, "--heroes", builtin, command_line) for name in names]
        else:
            if not hero or not opponent or table.players != 2:
                click.echo("error: say who plays: --hero HERO --vs HERO, or --mode MODE --heroes A,B,... "
                           "(or --resume FILE)" + (f"; mode {table.name} seats {table.players} heroes"
                                                   if table.players != 2 else ""), err=True)
                sys.exit(EXIT_USAGE)
            command_line = again("play", "--hero", hero, "--vs", opponent)
            heroes = [_hero_name(loaded, hero, "--hero", builtin, command_line),
                      _hero_name(loaded, opponent, "--vs", builtin, command_line)]
        seats_taken = set(human_seats or (1,))
        if any(s > len(heroes) for s in seats_taken):
            click.echo(f"error: --seat {max(seats_taken)}: the table has {len(heroes)} seats", err=True)
            sys.exit(EXIT_USAGE)
        seed = seed if seed is not None else random_mod.SystemRandom().randrange(1, 10**9)
        agents = [bot if auto or i + 1 not in seats_taken else "human" for i in range(len(heroes))]
        setup = Setup(loaded.content_hash, seed, heroes, agents, rules_name,
                      None if table.name == "1v1" else table.name)
    seats = [Human() if kind == "human" else BOTS[kind](setup.seed * 2 + i + 1)
             for i, kind in enumerate(setup.agents)]
    click.echo(f"seed {setup.seed}; {' vs '.join(setup.heroes)}" + (f"; {setup.mode}" if setup.mode else "")
               + (f"; {setup.rules}" if setup.rules else "")
               + (f"; resuming after {len(recorded)} answers" if recorded else ""))
    own = {i for i, kind in enumerate(setup.agents) if kind == "human"}  # whose draws are named
    session = Session(loaded, DICE_THRONE, setup, seats, log_path, save_path, _narrator(line, own),
                      made_by=made_by, ruleset_file=_ruleset_file(ruleset_path))
    result = _run(session, recorded, save_path, "dtc play")
    if result.reason == "turn limit":
        winner = "no winner (stopped at the turn limit)"
    elif result.winner is None:
        winner = "a draw"
    else:
        seats = result.winners or (result.winner,)
        winner = " & ".join(f"{setup.heroes[s]} (P{s + 1})" for s in seats) + " won"
    # the narration told the end already: the summary adds where both heroes stand
    health = ", ".join(f"{name} {h}" for name, h in zip(setup.heroes, result.health, strict=True))
    click.echo(f"result: {winner} after {result.turns} turns (health: {health})")
    sys.exit(EXIT_CLEAN)


def _mode(loaded, rules: str | None, wanted: str | None):
    """The Mode `--mode` names under the rules played (1v1 when not given), or a clean exit 2 that
    lists the modes there are."""
    from dtc.dicethrone.modes import one_line_modes
    from dtc.dicethrone.tables import rules_of

    try:
        return rules_of(loaded, rules, wanted or "1v1").mode
    except KeyError:
        data = next((r for r in loaded.data["rulesets"] if r["ruleset"] == rules), None) or next(
            (r for r in loaded.data["rulesets"] if r.get("default")), loaded.data["rulesets"][0])
        click.echo(f"error: --mode {wanted}: no such mode in {data['ruleset']}; there are "
                   f"{one_line_modes(data['modes'])}", err=True)
        sys.exit(EXIT_USAGE)


def _hero_list(text: str, table) -> list[str]:
    """The heroes `--heroes` names, as many as the mode seats, or a clean exit 2."""
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names) or len(names) != table.players:
        click.echo(f"error: --heroes {text}: mode {table.name} seats {table.players} heroes; give "
                   f"{table.players} names separated by commas", err=True)
        sys.exit(EXIT_USAGE)
    return names


def _rules(loaded, wanted: str | None) -> str | None:
    """The name of the rules `--rules` names (None: the content's default), or a clean exit 2 that
    lists those there are."""
    from dtc.dicethrone.tables import rules_named

    if wanted is None:
        return None
    name = rules_named(loaded, wanted)
    if name is None:
        there = ", ".join(f"`{r['ruleset']}`" + (f" ({', '.join(r['aliases'])})" if r.get("aliases") else "")
                          for r in loaded.data["rulesets"])
        click.echo(f"error: --rules {wanted}: no such rules here; there are {there}", err=True)
        sys.exit(EXIT_USAGE)
    return name


def _ignored_on_resume(names: list[str]) -> None:
    """Say which options a resumed game does not use (the save decides them)."""
    ctx = click.get_current_context()
    given = [n for n in names if ctx.get_parameter_source(n) == click.core.ParameterSource.COMMANDLINE]
    if given:
        flags = ", ".join("--vs" if n == "opponent" else f"--{n}" for n in given)
        click.echo(f"note: {flags} ignored: a resumed game keeps the seats, seed and choices of its save",
                   err=True)


def _ruleset_file(path: Path | None) -> str | None:
    return str(Path(path).resolve()) if path is not None else None


def _saved_log(path: Path) -> Path | None:
    """The log a resumed game was being written to: it goes on (rewritten whole, so it replays from
    the start), and the player is told so."""
    from dtc.session import named_log

    where = named_log(path)
    if where is None:
        return None
    click.echo(f"note: the game is logged to {where} again, as before it was saved (--log FILE to "
               "log it elsewhere)", err=True)
    return Path(where)


def _saved_ruleset(path: Path | None) -> Path | None:
    from dtc.session import recorded_ruleset

    return recorded_ruleset(path) if path is not None else None


def _resume(kind, loaded, resume_path: Path, given: Path | None):
    """The setup and answers of a save made with this ruleset (or a clean exit 2); `given`: the
    --ruleset the player named, if she did."""
    from dtc.session import SessionError, load_save, named_ruleset

    try:
        setup, recorded, made_by = load_save(kind, resume_path)
    except SessionError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    if setup.ruleset != loaded.content_hash:
        named = named_ruleset(resume_path)  # the --ruleset it was played with, there or not
        saved = f"{resume_path} was saved with {_ruleset_named(named)} ({setup.ruleset[:16]}…)"
        if named is not None and not Path(named).exists():
            said = "which is not there any more; pass --ruleset with the content it was played with"
        elif given is not None and (named is None or Path(named) != Path(given).resolve()):
            said = f"not --ruleset {given} ({loaded.content_hash[:16]}…); resume it without --ruleset"
        else:
            said = f"which {_changed_since(made_by)}; pass the same --ruleset, unchanged"
        click.echo(f"error: {saved}, {said}", err=True)
        sys.exit(EXIT_USAGE)
    return setup, recorded, made_by


def _ruleset_named(where: str | None) -> str:
    return f"the ruleset in {where}" if where is not None else "the built-in content"


def _changed_since(made_by) -> str:
    """Why the ruleset it names is not the one it was made with: another dtc compiles content to
    another ruleset (the content unchanged: tester QA was told to pass the same --ruleset)."""
    from dtc.session import engine_version

    if isinstance(made_by, str) and made_by != engine_version():
        return (f"another version of dtc compiled (engine {made_by}, this is {engine_version()}): "
                "continue it with that version")
    return "has changed since"


def _replay(kind, log_file: Path, ruleset_path: Path | None, line=None):
    """(result, answers checked) of re-running a log, or a one-line error and exit 1; with `line`
    (the game's narration), the game is told first, as `play --auto` tells it."""
    from dtc.session import OtherRuleset, SessionError
    from dtc.session import replay as run_replay

    loaded = _ruleset(ruleset_path or _saved_ruleset(log_file))
    try:
        result, steps, game = run_replay(kind, loaded, log_file)
    except OtherRuleset as exc:
        click.echo(f"error: {exc}{'' if ruleset_path else _gone(log_file)}", err=True)
        sys.exit(EXIT_PROBLEMS)
    except SessionError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_PROBLEMS)
    if line is not None:  # every draw named: a replay is read after the game, by anyone
        narrate = _narrator(line, None)
        for event in game.events:
            narrate(game, event)
    return result, steps


def _gone(path: Path) -> str:
    """' (it was played with --ruleset X, which is not there any more)' when so, else ''."""
    from dtc.session import named_ruleset

    where = named_ruleset(path)
    if where is None or Path(where).exists():
        return ""
    return f" (it was played with --ruleset {where}, which is not there any more)"


def _narrator(line, own: set[int] | None = frozenset()):
    """Narration at the terminal; the cards drawn by the players in `own` (the humans; None: every
    player) are named to them, not those of the others. The same event several times in a row is
    told once, with how many (`For every [<symbol>], deal 1 dmg` told one line per die: player QA)."""
    from dtc.agents.human import fitted

    at = [0, 0]  # where the event told last is in the game's events, and how many after it were told with it

    def narrate(game, event):
        events = game.events
        while at[0] < len(events) and events[at[0]] is not event:
            at[0] += 1  # events are only appended: the next one told is further on (or not told)
        if at[1] > 0:
            at[1] -= 1  # told already, with the first of its run
            return
        same = 0
        while at[0] + same + 1 < len(events) and events[at[0] + same + 1] == event:
            same += 1
        at[1] = same
        text = line(game, event)
        if text is not None and same:
            text += f" (x{same + 1})"
        mine = own is None or event.get("player") in own
        if text is not None and event.get("e") == "draw" and mine:
            text += ": " + ", ".join(event.get("cards", ()))
        if text is not None and event.get("e") == "search" and event.get("rest") and mine:
            text += ": " + ", ".join(event["rest"])  # her own deck's top cards: she saw them
        if text is not None:
            click.echo(fitted(text))  # at a terminal, wrapped at word ends (it cut words: player QA)
    return narrate


def _run(session, recorded: list, save_path: Path | None, command: str, resume: str = "--resume "):
    """Play the session to its result; `q`, Ctrl-C or end of input saves and leaves cleanly (Ctrl-C
    exits 130, as an interrupted program does; the others 0). `command` and `resume` say how the save
    is gone on with."""
    from dtc.session import Quit, SessionError

    try:
        return session.run(recorded)
    except Quit as left:
        try:
            session.save()
        except SessionError as exc:
            click.echo(f"\nerror: {exc}", err=True)
            sys.exit(EXIT_USAGE)
        click.echo("")
        if save_path:
            click.echo(f"left the game; saved to {save_path} "
                       f"(continue with `{command} {resume}{save_path}`)")
        else:
            click.echo("left the game (use --save FILE to be able to continue)")
        sys.exit(_interrupted_code() if left.interrupted else EXIT_CLEAN)
    except SessionError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)


@cli.command()
@click.argument("log_file", type=click.Path(path_type=Path))
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
              help="The ruleset the game was played with (default: the built-in content).")
@click.option("--narrate", is_flag=True, help="Tell the game as it went (once it replays the same).")
def replay(log_file: Path, ruleset_path: Path | None, narrate: bool) -> None:
    """Re-run a game log and check every request and event is the same."""
    from dtc.dicethrone.narrate import line
    from dtc.dicethrone.session import DICE_THRONE

    result, steps = _replay(DICE_THRONE, log_file, ruleset_path, line if narrate else None)
    if result is None:
        click.echo(f"replay matches: {steps} answers, as far as the game went (it was left before its end)")
    else:
        winner = ("stopped at the turn limit" if result.reason == "turn limit"
                  else "draw" if result.winner is None else f"P{result.winner + 1} won")
        click.echo(f"replay matches: {steps} answers, {result.turns} turns, {winner}")
    sys.exit(EXIT_CLEAN)


@cli.command()
@click.argument("heroes_", metavar="[HERO HERO]", nargs=-1)
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes (the numbers do not depend on it).")
@click.option("--bot", type=click.Choice(["heuristic", "estimate", "random"]), default="heuristic",
              show_default=True, help="The bot playing the first hero (and the second, unless --vs-bot).")
@click.option("--vs-bot", "opponent_bot", type=click.Choice(["heuristic", "estimate", "random"]),
              help="The bot playing the second hero (default: the same as --bot).")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
@click.option("--all", "all_pairs", is_flag=True, help="Every pair of heroes (the matrix).")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
@click.option("--rules", help=RULES_HELP)
@click.option("--mode", help=MODE_HELP)
@click.option("--heroes", "hero_list", metavar="A,B,...", help="The heroes of a mode's table, in seat order.")
@cluster_options
def simulate(heroes_, games, seed, jobs, bot, opponent_bot, ruleset_path, all_pairs, fmt, rules, mode,
             hero_list, cluster) -> None:
    """Bot-versus-bot games: win and draw rates with 95% intervals, game length, start advantage;
    with --mode, the tables of that mode (--heroes A,B,..., or --all: every team against every other)."""
    from itertools import combinations_with_replacement, product

    from dtc import artifact as artifact_mod
    from dtc.dicethrone.simulate import field_summary, summary
    from dtc.dicethrone.simulate import simulate as run_simulation

    loaded = _ruleset(ruleset_path)
    if mode is not None or hero_list is not None:
        table = _mode(loaded, _rules(loaded, rules), mode)
        if table.name != "1v1" or hero_list is not None:
            _simulate_mode(loaded, table, heroes_, hero_list, games, seed, jobs, bot, opponent_bot,
                           ruleset_path, all_pairs, fmt, _rules(loaded, rules), cluster)
    # with a bot per seat, each hero plays every opponent from the --bot seat: every ordered pair
    # (one seating only ranked the heroes by their order in the ruleset)
    seated = all_pairs and opponent_bot is not None and opponent_bot != bot
    if all_pairs:
        if heroes_:
            click.echo("error: give two heroes or --all, not both", err=True)
            sys.exit(EXIT_USAGE)
        heroes = range(len(loaded.heroes))
        pairs = list(product(heroes, repeat=2) if seated else combinations_with_replacement(heroes, 2))
        if not pairs:
            click.echo("error: the ruleset has no Dice Throne heroes to simulate "
                       "(a Valeria ruleset? use `dtc valeria simulate`)", err=True)
            sys.exit(EXIT_USAGE)
    elif len(heroes_) == 2:
        command_line = again("simulate", *heroes_)
        pairs = [tuple(loaded.hero(_hero_name(loaded, h, "HERO", ruleset_path is None, command_line))[0]
                       for h in heroes_)]
    else:
        given = f"; {len(heroes_)} given" if heroes_ else ""
        click.echo(f"error: give two heroes (`dtc simulate HERO HERO`) or --all{given}", err=True)
        sys.exit(EXIT_USAGE)
    rules = _rules(loaded, rules)
    raw = artifact_mod.to_bytes(loaded.data)
    total = games * len(pairs)
    tallies = _with_progress(lambda progress: run_simulation(
        loaded, raw, pairs, games, seed, jobs, bot, progress, opponent_bot, rules, cluster=cluster), total)
    rows = [summary((loaded.heroes[a]["name"], loaded.heroes[b]["name"]), t)
            for (a, b), t in zip(pairs, tallies, strict=True)]
    names = [h["name"] for h in loaded.heroes]
    field = field_summary(names, pairs, tallies, first_seat_only=seated) if all_pairs else None
    meta = {"games_per_pair": games, "seed": seed, "bot": bot, "opponent_bot": opponent_bot or bot,
            "ruleset": loaded.content_hash, **({"rules": rules} if rules else {})}
    _print_simulation(rows, fmt, meta, ruleset_path, field)
    sys.exit(EXIT_CLEAN)


def _simulate_mode(loaded, table, heroes_, hero_list, games, seed, jobs, bot, opponent_bot, ruleset_path,
                   all_pairs, fmt, rules, cluster=None) -> None:
    """`dtc simulate --mode MODE`: one table (--heroes) or every table of distinct teams (--all)."""
    from itertools import combinations

    from dtc import artifact as artifact_mod
    from dtc.dicethrone.simulate import sides_field, table_summary
    from dtc.dicethrone.simulate import simulate as run_simulation

    if opponent_bot is not None:
        click.echo("error: --vs-bot is for 1v1 games; with --mode one --bot plays every seat", err=True)
        sys.exit(EXIT_USAGE)
    size = len(table.teams[0])
    if all_pairs:
        if heroes_ or hero_list:
            click.echo("error: give the heroes or --all, not both", err=True)
            sys.exit(EXIT_USAGE)
        if len(loaded.heroes) < size:
            click.echo(f"error: mode {table.name} needs teams of {size}; the ruleset has "
                       f"{len(loaded.heroes)} heroes", err=True)
            sys.exit(EXIT_USAGE)
        teams = list(combinations(range(len(loaded.heroes)), size))
        # a hero sits at a table once (one hero box each): teams of different heroes only
        tables = [[h for team in chosen for h in team] for chosen in combinations(teams, len(table.teams))
                  if len({h for team in chosen for h in team}) == size * len(table.teams)]
        if not tables:
            click.echo(f"error: mode {table.name} seats {table.players} different heroes; the ruleset has "
                       f"{len(loaded.heroes)}", err=True)
            sys.exit(EXIT_USAGE)
        # the mode's sides are seats; its teams here are listed side by side in seat order
        tables = [_seated(table, t, size) for t in tables]
    else:
        if heroes_ and hero_list:
            click.echo("error: give the heroes as arguments or as --heroes, not both", err=True)
            sys.exit(EXIT_USAGE)
        names = _hero_list(hero_list if hero_list else ",".join(heroes_), table)
        command_line = again("simulate", "--mode", table.name, "--heroes", ",".join(names))
        tables = [[loaded.hero(_hero_name(loaded, h, "--heroes", ruleset_path is None, command_line))[0]
                   for h in names]]
    raw = artifact_mod.to_bytes(loaded.data)
    tallies = _with_progress(lambda progress: run_simulation(
        loaded, raw, tables, games, seed, jobs, bot, progress, None, rules, table.name, cluster),
        games * len(tables))
    sides = [[[loaded.heroes[t[s]]["name"] for s in side] for side in table.teams] for t in tables]
    rows = [table_summary(s, tally) for s, tally in zip(sides, tallies, strict=True)]
    team_rows, hero_rows = sides_field(sides, tallies)
    meta = {"mode": table.name, "games_per_table": games, "seed": seed, "bot": bot,
            "places": [[s + 1 for s in side] for side in table.teams],  # seats of each side position
            "ruleset": loaded.content_hash, **({"rules": rules} if rules else {}),
            **({"authored": table.authored} if table.authored else {})}
    if fmt == "json":
        click.echo(json.dumps({**meta, "tables": rows, "heroes": hero_rows,
                               **({"teams": team_rows} if size > 1 else {})}, indent=2))
    elif fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["table", "side", "heroes", "games", "win_rate", "win_rate_low", "win_rate_high",
                         "seat_win_rate", "draw_rate", "average_turns", "mode", "seed", "bot", "ruleset"])
        for k, r in enumerate(rows):
            for i, side in enumerate(r["sides"]):
                writer.writerow([k + 1, i + 1, " & ".join(side["heroes"]), r["games"], side["win_rate"],
                                 *side["win_rate_ci95"], r["seat_win_rates"][i], r["draw_rate"],
                                 "" if r["average_turns"] is None else r["average_turns"],
                                 table.name, seed, bot, loaded.content_hash])
        click.echo(out.getvalue(), nl=False)
    else:
        _print_tables(meta, rows, team_rows if size > 1 else None, hero_rows, ruleset_path)
    sys.exit(EXIT_CLEAN)


def _seated(table, heroes: list[int], size: int) -> list[int]:
    """Heroes listed team after team, put in the seats of the mode's sides (side k's seats get team k)."""
    placed = [0] * len(heroes)
    for k, side in enumerate(table.teams):
        for j, seat in enumerate(side):
            placed[seat] = heroes[k * size + j]
    return placed


def _print_tables(meta: dict, rows: list[dict], teams: list[dict] | None, heroes: list[dict],
                  ruleset_path: Path | None) -> None:
    from rich.console import Console
    from rich.table import Table

    games = meta["games_per_table"]
    console = Console(width=120)
    t = Table(title=f"{meta['mode']}: {games} game{'s' * (games != 1)} per table, seed {meta['seed']}, "
                    f"{meta['bot']} bots (the sides take turns sitting first)")
    for column in ["table", "side", "wins (95% CI)", "wins by place", "draws", "avg turns",
                   "start player wins"]:
        t.add_column(column)
    for k, r in enumerate(rows):
        for i, side in enumerate(r["sides"]):
            low, high = side["win_rate_ci95"]
            first = i == 0
            start = r["start_player_win_rate"]
            t.add_row(str(k + 1) if first else "", " & ".join(side["heroes"]),
                      f"{side['win_rate']:.1%} ({low:.1%}-{high:.1%})",
                      f"{'+'.join(f'P{s}' for s in meta['places'][i])}: {r['seat_win_rates'][i]:.1%}",
                      f"{r['draw_rate']:.1%}" if first else "",
                      ("-" if r["average_turns"] is None else f"{r['average_turns']:.1f}") if first else "",
                      ("-" if start is None else f"{start:.1%}") if first else "")
    console.print(t)
    for found, key in ((teams, "team"), (heroes, "hero")):
        if not found or len(rows) < 2:
            continue
        h = Table(title=f"each {key} over every table")
        for column in [key, "games", "wins (95% CI)"]:
            h.add_column(column)
        for r in found:
            low, high = r["win_rate_ci95"]
            name = " & ".join(r[key]) if key == "team" else r[key]
            h.add_row(name, str(r["games"]), f"{r['win_rate']:.1%} ({low:.1%}-{high:.1%})")
        console.print(h)
    played = str(ruleset_path) if ruleset_path is not None else "the built-in content"
    rules = f"; rules: {meta['rules']}" if meta.get("rules") else ""
    console.print(f"ruleset: {played} ({meta['ruleset'][:16]}…){rules}")
    if meta.get("authored"):
        console.print(f"mode {meta['mode']} is authored, not the rulebook's: {meta['authored']}")


def _with_progress(work, total: int):
    if not sys.stderr.isatty():
        return work(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    # on stderr, the terminal, whatever stdout is (`> results.csv` showed no bar: tester QA)
    with Progress("simulating", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task("games", total=total)
        return work(lambda n: bar.advance(task, n))


def _print_simulation(rows: list[dict], fmt: str, meta: dict, ruleset_path: Path | None = None,
                      field: list[dict] | None = None) -> None:
    """The pairs' numbers (and with --all, each hero's against the others) as a table, JSON or CSV
    (CSV: the pairs only, one row each)."""
    if fmt == "json":
        click.echo(json.dumps({**meta, "pairs": rows, **({"heroes": field} if field is not None else {})},
                              indent=2))
        return
    if fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        # each row says how it was made, so files from different runs can be told apart and joined
        # (tester QA: no seed, bots or ruleset in the CSV)
        columns = ["hero", "opponent", "games", "win_rate", "win_rate_low", "win_rate_high",
                   "opponent_win_rate", "draw_rate", "unfinished_rate", "average_turns",
                   "start_player_win_rate", "seed", "bot", "opponent_bot", "ruleset", "rules"]
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        made = [meta["seed"], meta["bot"], meta["opponent_bot"], meta["ruleset"], meta.get("rules", "")]
        for r in rows:
            writer.writerow([r["hero"], r["opponent"], r["games"], r["win_rate"], *r["win_rate_ci95"],
                             r["opponent_win_rate"], r["draw_rate"], r["unfinished_rate"],
                             "" if r["average_turns"] is None else r["average_turns"],
                             "" if r["start_player_win_rate"] is None else r["start_player_win_rate"],
                             *made])
        click.echo(out.getvalue(), nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    from dtc.dicethrone.engine import MAX_TURNS

    bots = (f"{meta['bot']} bots" if meta["bot"] == meta["opponent_bot"]
            else f"{meta['bot']} bot vs {meta['opponent_bot']} bot")
    games = meta["games_per_pair"]
    t = Table(title=f"{games} game{'s' * (games != 1)} per pair, seed {meta['seed']}, {bots}")
    unfinished = any(r["unfinished_rate"] for r in rows)  # a column only when some game had no end
    columns = ["hero", "vs", "wins (95% CI)", "losses", "draws"] + ["unfinished"] * unfinished
    for column in columns + ["avg turns", "start player wins (of decisive)"]:
        t.add_column(column)
    for r in rows:
        low, high = r["win_rate_ci95"]
        start = r["start_player_win_rate"]
        mirror = r["hero"] == r["opponent"]  # which is which: the seat named first, and the other
        t.add_row(r["hero"] + " (P1)" * mirror, r["opponent"] + " (P2)" * mirror,
                  f"{r['win_rate']:.1%} ({low:.1%}-{high:.1%})",
                  f"{r['opponent_win_rate']:.1%}", f"{r['draw_rate']:.1%}",
                  *([f"{r['unfinished_rate']:.1%}"] * unfinished),
                  "-" if r["average_turns"] is None else f"{r['average_turns']:.1f}",
                  "no decisive game" if start is None else f"{start:.1%}")
    console = Console(width=120)
    console.print(t)
    if field:
        seats = ("" if meta["bot"] == meta["opponent_bot"]
                 else f", as the {meta['bot']} bot against the {meta['opponent_bot']} bot")
        h = Table(title=f"each hero against the others (mirror matches left out{seats})")
        for column in ["hero", "games", "wins (95% CI)", "losses", "draws"] + ["unfinished"] * unfinished:
            h.add_column(column)
        for r in field:
            low, high = r["win_rate_ci95"]
            h.add_row(r["hero"], str(r["games"]), f"{r['win_rate']:.1%} ({low:.1%}-{high:.1%})",
                      f"{r['loss_rate']:.1%}", f"{r['draw_rate']:.1%}",
                      *([f"{r['unfinished_rate']:.1%}"] * unfinished))
        console.print(h)
    played = str(ruleset_path) if ruleset_path is not None else "the built-in content"
    rules = f"; rules: {meta['rules']}" if meta.get("rules") else ""
    console.print(f"ruleset: {played} ({meta['ruleset'][:16]}…){rules}")
    if unfinished:
        console.print(f"unfinished: games stopped at the turn limit ({MAX_TURNS} turns) with no winner "
                      "(not in avg turns); draws are only heroes defeated together")


@cli.command()
@click.argument("hero")
@click.option("--roll", help="The dice as they lie now (face values, e.g. 1,1,4,6,6): what to keep.")
@click.option("--attempts-left", type=int, help="Re-rolls left after the roll given with --roll "
              "(default: all but the first attempt).")
@click.option("--exact", is_flag=True, help="Print exact fractions instead of percentages.")
@click.option("--upgrades", is_flag=True, help="Include the abilities of the hero's upgrade cards.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
              help=RULESET_HELP)
def odds(hero, roll, attempts_left, exact, upgrades, fmt, ruleset_path) -> None:
    """Exact chances of each offensive ability with the best re-rolls (and what to keep now)."""
    from dtc import odds as odds_mod
    from dtc.dicethrone.tables import rules_of

    loaded = _ruleset(ruleset_path)
    index = loaded.hero(_hero_name(loaded, hero, "HERO", ruleset_path is None, again("odds", hero)))[0]
    attempts = rules_of(loaded).roll_attempts
    data = loaded.heroes[index]
    show = (lambda c: str(c)) if exact else (lambda c: f"{float(c):6.1%}")  # noqa: E731
    if roll is None:
        if attempts_left is not None:
            click.echo("error: --attempts-left goes with --roll", err=True)
            sys.exit(EXIT_USAGE)
        report = odds_mod.hero_report(loaded, index, attempts, upgrades)
        if fmt == "json":
            click.echo(json.dumps(_plain_fractions(report), indent=2))
        else:
            _print_odds(report, show)
        sys.exit(EXIT_CLEAN)
    faces = sorted(int(v) for v in data["dice"]["faces"])
    values = _face_values(roll) or []
    if len(values) != data["dice"]["count"] or any(v not in faces for v in values):
        click.echo(f"error: --roll takes the {data['dice']['count']} face values of {data['name']}'s "
                   f"dice ({', '.join(map(str, faces))}), comma-separated, not {roll!r}", err=True)
        sys.exit(EXIT_USAGE)
    left = attempts - 1 if attempts_left is None else attempts_left
    if not 0 <= left <= attempts - 1:
        click.echo(f"error: --attempts-left is 0 to {attempts - 1} (there are {attempts} roll attempts)",
                   err=True)
        sys.exit(EXIT_USAGE)
    rows = odds_mod.roll_report(loaded, index, values, left, attempts)
    if fmt == "json":
        click.echo(json.dumps(_plain_fractions({"hero": data["name"], "roll": values,
                                                "attempts_left": left, "abilities": rows}), indent=2))
        sys.exit(EXIT_CLEAN)
    symbols = {int(v): loaded.symbols[sym] for v, sym in data["dice"]["faces"].items()}
    click.echo(f"{data['name']}: dice {' '.join(f'{v}:{symbols[v]}' for v in values)}; "
               f"{left} re-roll(s) left")
    width = max(len(r["ability"]) for r in rows)
    for r in rows:
        keep = " ".join(f"{values[i]}" for i in r["keep"]) or "nothing"
        advice = "met" if r["chance"] == 1 and len(r["keep"]) == len(values) else f"keep {keep}"
        if left == 0 and r["chance"] < 1:
            advice = "not met, no re-roll left"
        click.echo(f"  {r['ability']:<{width}}  {show(r['chance']):>10}  {advice}")
    sys.exit(EXIT_CLEAN)


def _plain_fractions(value):
    from fractions import Fraction

    if isinstance(value, Fraction):
        return {"chance": float(value), "exact": str(value)}
    if isinstance(value, dict):
        return {k: _plain_fractions(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_fractions(v) for v in value]
    return value


def _print_odds(report: dict, show) -> None:
    attempts = report["attempts"]
    click.echo(f"{report['hero']}: {report['dice']} dice of {report['faces']} faces; the chance of "
               f"each ability within 1 to {attempts} roll attempts, keeping the best dice for it")
    rows = report["abilities"]
    width = max([len(r["ability"]) for r in rows] + [len("at least one ability")])
    need = max([len(r["requirement"]) for r in rows] + [len("needs")])
    columns = [f"{k} roll{'s' if k > 1 else ''}" for k in range(1, attempts + 1)]
    cell = max(10, *(len(show(c)) for r in rows for c in r["chances"]))
    click.echo(f"  {'ability':<{width}}  {'needs':<{need}}  " + "  ".join(f"{c:>{cell}}" for c in columns))
    for r in rows:
        click.echo(f"  {r['ability']:<{width}}  {r['requirement']:<{need}}  "
                   + "  ".join(f"{show(c):>{cell}}" for c in r["chances"]))
    if "any" in report:
        click.echo(f"  {'at least one ability':<{width}}  {'':<{need}}  "
                   + "  ".join(f"{show(c):>{cell}}" for c in report["any"]))
    setup = report.get("setup")
    for d in report["defensive"]:
        click.echo(f"\n{d['ability']} (defensive, {d['dice']} {'die' if d['dice'] == 1 else 'dice'}): "
                   "what the roll does" + (f", with {', '.join(setup)} as the game starts" if setup else ""))
        for o in d["outcomes"]:
            chance = "" if o["chance"] is None else show(o["chance"])
            click.echo(f"  {chance:>{cell}}  {o['outcome']}")


@cli.command()
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


@cli.command()
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


@cli.group()
def valeria() -> None:
    """Kingdoms of Valeria: play with bots, play solo, simulate, replay."""


def _valeria_options(solo: bool):
    def wrap(f):
        options = [
            click.option("--sheet", help="The player sheets (default: the first, Castle and Forest)."),
            click.option("--seed", type=int, help="Seed for dice and decks (a random one when absent)."),
            click.option("--bot", type=click.Choice(["greedy", "random"]), default="greedy",
                         show_default=True),
            click.option("--auto", is_flag=True, help="Bots play every seat; the game is narrated."),
            click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
                         help=RULESET_HELP),
            click.option("--save", "save_path", type=click.Path(path_type=Path),
                         help="Save the game to this file after every turn."),
            click.option("--resume", "resume_path", type=click.Path(path_type=Path),
                         help="Continue a saved game."),
            click.option("--log", "log_path", type=click.Path(path_type=Path),
                         help="Write the game as JSON lines (for `dtc valeria replay`)."),
        ]
        if not solo:
            players = click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True,
                                   help="Players; you are P1, bots play the others.")
            options.insert(0, players)
        for option in reversed(options):
            f = option(f)
        return f
    return wrap


@valeria.command("play")
@_valeria_options(solo=False)
def valeria_play(players, sheet, seed, bot, auto, ruleset_path, save_path, resume_path, log_path) -> None:
    """Play Kingdoms of Valeria at the terminal against bots (or watch them with --auto)."""
    _valeria_game(players, False, sheet, seed, bot, auto, ruleset_path, save_path, resume_path, log_path,
                  "dtc valeria play")


@valeria.command("solo")
@_valeria_options(solo=True)
def valeria_solo(sheet, seed, bot, auto, ruleset_path, save_path, resume_path, log_path) -> None:
    """Play the solo game: 20 turns, Events on black doubles, a second Harvest, a score band."""
    _valeria_game(1, True, sheet, seed, bot, auto, ruleset_path, save_path, resume_path, log_path,
                  "dtc valeria solo")


def _valeria_game(players, solo, sheet, seed, bot, auto, ruleset_path, save_path, resume_path, log_path,
                  command) -> None:
    import random as random_mod

    from dtc.agents.human import Human
    from dtc.session import Session
    from dtc.valeria.bots import BOTS
    from dtc.valeria.engine import Game, ValeriaError
    from dtc.valeria.narrate import line, tally
    from dtc.valeria.narrate import sheet as draw
    from dtc.valeria.session import VALERIA, Setup

    given = ruleset_path
    ruleset_path = ruleset_path or _saved_ruleset(resume_path)
    loaded = _ruleset(ruleset_path)
    recorded: list = []
    made_by = None  # the dtc version of the save being resumed
    if resume_path is not None:
        setup, recorded, made_by = _resume(VALERIA, loaded, resume_path, given)
        _ignored_on_resume(["players", "sheet", "seed", "bot", "auto"])  # once the save is good
        save_path = save_path or resume_path
        log_path = log_path or _saved_log(resume_path)
        if setup.solo != solo:
            other = "dtc valeria solo" if setup.solo else "dtc valeria play"
            click.echo(f"error: {resume_path} is a {'solo' if setup.solo else f'{setup.players}-player'} "
                       f"game; continue it with `{other} --resume {resume_path}`", err=True)
            sys.exit(EXIT_USAGE)
    else:
        seed = seed if seed is not None else random_mod.SystemRandom().randrange(1, 10**9)
        try:
            name = Game(loaded, players, seed, sheet, solo).sheet["name"]
        except ValeriaError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_USAGE)
        agents = [bot if auto else "human"] + [bot] * (players - 1)
        setup = Setup(loaded.content_hash, seed, name, players, solo, agents)

    def show(game, request):
        if request.purpose in ("take an action", "use a Domain power", "mark 1 Guild Track pip"):
            return draw(game, request.player)
        return None

    seats = [Human(show=show) if kind == "human" else BOTS[kind](setup.seed * 7 + i)
             for i, kind in enumerate(setup.agents)]
    mode = "solo" if setup.solo else f"{setup.players} players"
    click.echo(f"seed {setup.seed}; {mode}; {setup.sheet}"
               + (f"; resuming after {len(recorded)} answers" if recorded else ""))
    told = _narrator(line)

    def narrate(game, event):
        told(game, event)
        if event.get("e") == "end" and "human" in setup.agents:  # the sheets the tally is read off
            for p in range(len(game.players)):
                click.echo(f"\nP{p + 1}'s sheet at the end:\n{draw(game, p)}")

    session = Session(loaded, VALERIA, setup, seats, log_path, save_path, narrate,
                      made_by=made_by, ruleset_file=_ruleset_file(ruleset_path))
    result = _run(session, recorded, save_path, command)
    click.echo("")
    click.echo(tally(None, result))
    sys.exit(EXIT_CLEAN)


@valeria.command("replay")
@click.argument("log_file", type=click.Path(path_type=Path))
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
              help="The ruleset the game was played with (default: the built-in content).")
@click.option("--narrate", is_flag=True, help="Tell the game as it went (once it replays the same).")
def valeria_replay(log_file: Path, ruleset_path: Path | None, narrate: bool) -> None:
    """Re-run a Valeria game log and check every request and event is the same."""
    from dtc.valeria.narrate import line
    from dtc.valeria.session import VALERIA

    result, steps = _replay(VALERIA, log_file, ruleset_path, line if narrate else None)
    if result is None:
        click.echo(f"replay matches: {steps} answers, as far as the game went (it was left before its end)")
        sys.exit(EXIT_CLEAN)
    scores = ", ".join(f"P{p + 1} {s.total}" for p, s in enumerate(result.scores))
    click.echo(f"replay matches: {steps} answers, {result.turns} turns, {scores}")
    sys.exit(EXIT_CLEAN)


@valeria.command("simulate")
@click.option("--players", type=click.IntRange(1, 6), default=4, show_default=True,
              help="Players (1: the solo game).")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=500, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes (the numbers do not depend on it).")
@click.option("--bot", type=click.Choice(["greedy", "random"]), default="greedy", show_default=True)
@click.option("--sheet", help="The player sheets (default: the first).")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
@cluster_options
def valeria_simulate(players, games, seed, jobs, bot, sheet, ruleset_path, fmt, cluster) -> None:
    """Bot games: mean score per seat with a 95% interval, share of wins, game length."""
    from dtc import artifact as artifact_mod
    from dtc.valeria.engine import Game, ValeriaError
    from dtc.valeria.simulate import band_shares, summary
    from dtc.valeria.simulate import simulate as run_simulation

    loaded = _ruleset(ruleset_path)
    try:
        name = Game(loaded, players, seed, sheet, solo=players == 1).sheet["name"]
    except ValeriaError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    raw = artifact_mod.to_bytes(loaded.data)
    total = _with_progress(lambda progress: run_simulation(
        loaded, raw, players, name, games, seed, jobs, bot, progress, cluster), games)
    rows = summary(total)
    bands = band_shares(total, loaded.data["valeria"]["rules"]["bands"]) if players == 1 else None
    meta = {"players": players, "games": games, "seed": seed, "bot": bot, "sheet": name,
            "average_turns": round(total.turns / total.games, 2), "ruleset": loaded.content_hash}
    if fmt == "json":
        click.echo(json.dumps({**meta, "seats": rows, **({"bands": bands} if bands else {})}, indent=2))
    elif fmt == "csv":
        click.echo("seat,mean_score,mean_score_low,mean_score_high,sd,win_share")
        for r in rows:
            low, high = r["mean_score_ci95"] or ("", "")
            sd = "" if r["sd"] is None else r["sd"]
            click.echo(f"{r['seat']},{r['mean_score']},{low},{high},{sd},{r['win_share']}")
    else:
        from rich.console import Console
        from rich.table import Table

        mode = "solo" if players == 1 else f"{players} players"
        t = Table(title=f"{games} games, {mode}, {name}, seed {seed}, {bot} bots, "
                        f"{meta['average_turns']} turns per game")
        for column in ("seat", "mean score (95% CI)", "sd") + (() if bands else ("wins",)):
            t.add_column(column)
        for r in rows:
            interval = "one game: no interval" if r["mean_score_ci95"] is None else \
                "{:.1f}-{:.1f}".format(*r["mean_score_ci95"])
            sd = "-" if r["sd"] is None else f"{r['sd']:.1f}"
            t.add_row(f"P{r['seat']}", f"{r['mean_score']:.1f} ({interval})", sd,
                      *(() if bands else (f"{r['win_share']:.1%}",)))
        Console(width=120).print(t)
        if bands:
            b = Table(title="solo score bands")
            for column in ("score", "band", "games"):
                b.add_column(column)
            edges = [band["least"] for band in bands[1:]] + [None]
            for band, upper in zip(bands, edges, strict=True):
                span = f"{band['least']}+" if upper is None else f"{band['least']}-{upper - 1}"
                b.add_row(span, band["title"], f"{band['share']:.1%}")
            Console(width=120).print(b)
    sys.exit(EXIT_CLEAN)


from dtc.cli.adventure import adventure  # noqa: E402 - the group registers after `cli` exists

cli.add_command(adventure)

from dtc.cli.sweep import sweep  # noqa: E402 - registered like `adventure`

cli.add_command(sweep)
