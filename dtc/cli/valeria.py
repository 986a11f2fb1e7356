"""Kingdoms of Valeria: play, solo, replay, simulate."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from dtc.cli.common import EXIT_CLEAN, EXIT_USAGE, RULESET_HELP, _ruleset
from dtc.cli.game import (
    _ignored_on_resume,
    _narrator,
    _replay,
    _resume,
    _ruleset_file,
    _run,
    _saved_log,
    _saved_ruleset,
    replay_options,
    replayed_part,
)
from dtc.cli.simulate import _with_progress
from dtc.cli.workers import cluster_options


@click.group()
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
@replay_options
def valeria_replay(log_file: Path, ruleset_path: Path | None, narrate: bool) -> None:
    """Re-run a Valeria game log and check every request and event is the same."""
    from dtc.valeria.narrate import line
    from dtc.valeria.session import VALERIA

    result, steps = _replay(VALERIA, log_file, ruleset_path, line if narrate else None)
    if result is None:
        click.echo(replayed_part(steps))
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


@valeria.command("sheet")
@click.argument("name", required=False)
@click.option("--content", "content", multiple=True, type=click.Path(path_type=Path),
              help="The content folder (or YAML files) to read (default: the built-in content).")
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="The HTML file to write.")
def valeria_sheet(name: str | None, content: tuple[Path, ...], output: Path) -> None:
    """A player sheet as a self-contained HTML page: Citizens, Guild Tracks, Gold Chart, Wall, Roads,
    Domains and Monster Lairs, every reward pip marked (NAME: the sheet; default the first)."""
    from dtc.cli.views import _content_paths, _read, write_page
    from dtc.show import slug
    from dtc.views.page import error_page
    from dtc.views.sheet import sheet_html

    found = _read(_content_paths(content))
    kingdom = found.result.content.valeria
    sheets = list(kingdom.sheets) if kingdom else []
    if not sheets:
        click.echo("error: no Kingdoms of Valeria player sheet in the content read", err=True)
        sys.exit(EXIT_USAGE)
    chosen = sheets[0] if name is None else next((s for s in sheets if slug(s.name) == slug(name)), None)
    if chosen is None:
        known = ", ".join(s.name for s in sheets)
        click.echo(f"error: no sheet {name!r}; sheets here: {known}", err=True)
        sys.exit(EXIT_USAGE)
    errors = [d for d in found.diagnostics_of(chosen.doc.path) if str(d.severity) == "error"]
    if errors:
        said = [found.text(d) for d in errors]
        write_page(output, error_page(f"{chosen.name}: {len(errors)} error(s)", said,
                                      f"fix {chosen.doc.path} (`dtc lint`) and render the sheet again."))
        for d in errors:
            click.echo(found.text(d), err=True)
        click.echo(f"error: {chosen.name} has {len(errors)} error(s): {output} names them", err=True)
        sys.exit(1)
    write_page(output, sheet_html(chosen, kingdom.the_rules))
    click.echo(f"wrote {output}: the {chosen.name} sheet")
    sys.exit(EXIT_CLEAN)
