"""What the commands share: the exit codes, the help texts of their common options, and finding
the ruleset and the heroes a command names."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dtc.cli.sources import not_built_in

# Stage modules are imported inside the commands that use them: `dtc disasm`
# never loads the YAML, grammar or schema machinery, and `dtc --version` is quick.

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
RULESET_HELP = ("A compiled ruleset (FILE.dtcb), or a content folder compiled on the spot "
                "(default: the built-in content).")
MODE_HELP = ("The way to play: 1v1 (default), 2v2, king_of_the_hill (koth), and the 5-6 player modes of "
             "the rules (see `dtc modes`).")
RULES_HELP = ("The rules to play, by name, version or alias (`Dice Throne v2.0`, `2.0`: Season One's; "
              "`marvel`); default: the content's default rules.")


def _print_diagnostics(result) -> None:
    from dtc.diagnostics import render_text

    for d in result.diagnostics:
        if d.suppressed is None:
            click.echo(render_text(d, result.sources), err=True)


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


def _player_index(loaded, name: str, option: str, builtin: bool = False,
                  command_line: str | None = None) -> int:
    """The players index of the hero, Minion or Boss called `name` in a compiled ruleset (a hero
    first); an unknown name is `_hero_name`'s error, which names the Minions and Bosses too (exit 2)."""
    from dtc.show import slug

    found = loaded.hero(name)
    if found is not None:
        return found[0]
    first = len(loaded.heroes)
    for k, player in enumerate(loaded.players[first:], first):
        if slug(player["name"]) == slug(name):
            return k
    if not loaded.minions:
        _hero_name(loaded, name, option, builtin, command_line)  # the heroes alone: its own error
    if command_line is not None:
        _not_built_in(name, command_line, builtin, option)
    groups = {"heroes here": [h["name"] for h in loaded.heroes],
              "Minions": [m["name"] for m in loaded.minions if "minion" in m],
              "Bosses": [m["name"] for m in loaded.minions if "boss" in m]}
    _no_player(name, _nearest(name, [n for names in groups.values() for n in names]), groups, option)


def _nearest(name: str, names: list[str]) -> str | None:
    """The name nearest `name` (by slug), for a `did you mean`."""
    import difflib

    from dtc.show import slug

    by_slug = {slug(n): n for n in reversed(names)}  # the first of a clash (a hero's) wins
    close = difflib.get_close_matches(slug(name), list(by_slug), n=1, cutoff=0.5)
    return by_slug[close[0]] if close else None


def _no_player(name: str, guess: str | None, groups: dict[str, list[str]], option: str = "",
               own: str = ""):
    """The one-line error for a name that is no hero, Minion or Boss of the content, naming those
    it has (exit 2, as an unknown hero is everywhere)."""
    hint = f"did you mean `{guess}`? " if guess else ""
    listed = "; ".join(f"{title}: {', '.join(sorted(names))}" for title, names in groups.items() if names)
    where = f"{option}: " if option else ""
    click.echo(f"error: {where}no hero, Minion or Boss `{name}`; {hint}{listed or 'heroes here: none'}{own}",
               err=True)
    sys.exit(EXIT_USAGE)


_SIGNALLED: list[int] = []  # the signal that stopped the command, when one did (SIGTERM)


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


def _terminated(signum, frame) -> None:
    # `kill`: leave as Ctrl-C does (a game saved, workers stopped, no file half-written), exit 128+N
    _SIGNALLED.append(signum)
    raise KeyboardInterrupt


def _interrupted_code() -> int:
    return 128 + _SIGNALLED[0] if _SIGNALLED else 130
