"""The commands that play Dice Throne at the terminal: play, replay; and the saves, logs and
resumes they share with the other games."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dtc.cli.common import (
    EXIT_CLEAN,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    MODE_HELP,
    RULES_HELP,
    RULESET_HELP,
    _hero_name,
    _interrupted_code,
    _ruleset,
)
from dtc.cli.sources import again


@click.command()
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


def replay_options(command):
    """LOG_FILE, `--ruleset` and `--narrate`: what `dtc replay` and `dtc valeria replay` take."""
    command = click.option("--narrate", is_flag=True,
                           help="Tell the game as it went (once it replays the same).")(command)
    ruleset = click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
                           help="The ruleset the game was played with (default: the built-in content).")
    command = ruleset(command)
    return click.argument("log_file", type=click.Path(path_type=Path))(command)


def replayed_part(steps: int) -> str:
    """What a replay of a game left before its end says."""
    return f"replay matches: {steps} answers, as far as the game went (it was left before its end)"


@click.command()
@replay_options
def replay(log_file: Path, ruleset_path: Path | None, narrate: bool) -> None:
    """Re-run a game log and check every request and event is the same."""
    from dtc.dicethrone.narrate import line
    from dtc.dicethrone.session import DICE_THRONE

    result, steps = _replay(DICE_THRONE, log_file, ruleset_path, line if narrate else None)
    if result is None:
        click.echo(replayed_part(steps))
    else:
        winner = ("stopped at the turn limit" if result.reason == "turn limit"
                  else "draw" if result.winner is None else f"P{result.winner + 1} won")
        click.echo(f"replay matches: {steps} answers, {result.turns} turns, {winner}")
    sys.exit(EXIT_CLEAN)
