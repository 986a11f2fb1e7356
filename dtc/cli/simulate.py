"""The commands that count: simulate (a pair, --all, a mode's tables) and odds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from dtc.cli.common import (
    EXIT_CLEAN,
    EXIT_USAGE,
    MODE_HELP,
    RULES_HELP,
    RULESET_HELP,
    _face_values,
    _hero_name,
    _player_index,
    _ruleset,
)
from dtc.cli.game import _hero_list, _mode, _rules
from dtc.cli.sources import again
from dtc.cli.workers import cluster_options


@click.command()
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
@click.option("--html", "html_path", type=click.Path(path_type=Path),
              help="Also write a balance report page (heatmap, rates, game lengths, odds) to this file.")
@cluster_options
def simulate(heroes_, games, seed, jobs, bot, opponent_bot, ruleset_path, all_pairs, fmt, rules, mode,
             hero_list, html_path, cluster) -> None:
    """Bot-versus-bot games: win and draw rates with 95% intervals, game length, start advantage;
    with --mode, the tables of that mode (--heroes A,B,..., or --all: every team against every other)."""
    from itertools import combinations_with_replacement, product

    from dtc import artifact as artifact_mod
    from dtc.dicethrone.simulate import field_summary, summary
    from dtc.dicethrone.simulate import simulate as run_simulation

    loaded = _ruleset(ruleset_path)
    if mode is not None or hero_list is not None:
        table = _mode(loaded, _rules(loaded, rules), mode)
        if html_path is not None and (table.name != "1v1" or hero_list is not None):
            click.echo("error: --html reports 1v1 pairs; a --mode's tables have no report page yet", err=True)
            sys.exit(EXIT_USAGE)
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
    if html_path is not None:  # written before the numbers are printed: a failure leaves no output at all
        from dtc.cli.views import report_odds, write_page
        from dtc.views.report import report_html

        data = {**meta, "pairs": rows, **({"heroes": field} if field is not None else {})}
        write_page(html_path, report_html(data, *report_odds(loaded, loaded.content_hash)))
    _print_simulation(rows, fmt, meta, ruleset_path, field)
    if html_path is not None and fmt == "table":
        click.echo(f"wrote {html_path}: the balance report")
    sys.exit(EXIT_CLEAN)


def _simulate_mode(loaded, table, heroes_, hero_list, games, seed, jobs, bot, opponent_bot, ruleset_path,
                   all_pairs, fmt, rules, cluster=None) -> None:
    """`dtc simulate --mode MODE`: one table (--heroes) or every table of distinct teams (--all)."""
    from dtc import artifact as artifact_mod
    from dtc.dicethrone.simulate import sides_field, table_summary
    from dtc.dicethrone.simulate import simulate as run_simulation

    if opponent_bot is not None:
        click.echo("error: --vs-bot is for 1v1 games; with --mode one --bot plays every seat", err=True)
        sys.exit(EXIT_USAGE)
    sizes = [len(side) for side in table.teams]
    size = max(sizes)
    if all_pairs:
        if heroes_ or hero_list:
            click.echo("error: give the heroes or --all, not both", err=True)
            sys.exit(EXIT_USAGE)
        if len(loaded.heroes) < size:
            click.echo(f"error: mode {table.name} needs teams of {size}; the ruleset has "
                       f"{len(loaded.heroes)} heroes", err=True)
            sys.exit(EXIT_USAGE)
        tables = _tables_of(len(loaded.heroes), sizes)
        if not tables:
            click.echo(f"error: mode {table.name} seats {table.players} different heroes; the ruleset has "
                       f"{len(loaded.heroes)}", err=True)
            sys.exit(EXIT_USAGE)
        # the mode's sides are seats; its teams here are listed side by side in seat order
        tables = [_seated(table, t) for t in tables]
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


def _tables_of(heroes: int, sizes: list[int]) -> list[list[int]]:
    """Every table of different heroes (one hero box each) for sides of these sizes, listed team after
    team; sides of one size are alike, so a table is listed once (its teams of that size in order)."""
    from itertools import combinations

    tables: list[list[int]] = []

    def place(k: int, used: set[int], chosen: list[tuple[int, ...]]) -> None:
        if k == len(sizes):
            tables.append([h for team in chosen for h in team])
            return
        like = [team for team, size in zip(chosen, sizes, strict=False) if size == sizes[k]]
        for team in combinations([h for h in range(heroes) if h not in used], sizes[k]):
            if not like or team > like[-1]:
                place(k + 1, used | set(team), [*chosen, team])

    place(0, set(), [])
    return tables


def _seated(table, heroes: list[int]) -> list[int]:
    """Heroes listed team after team, put in the seats of the mode's sides (side k's seats get team k)."""
    placed = [0] * len(heroes)
    listed = iter(heroes)
    for side in table.teams:
        for seat in side:
            placed[seat] = next(listed)
    return placed


def _seating(places: list[list[int]]) -> str:
    """How the sides sat (dicethrone.simulate.play_tables): in turn first when they are of one size."""
    if len({len(side) for side in places}) == 1:
        return "the sides take turns sitting first"
    return "sides of different sizes keep their seats"


def _print_tables(meta: dict, rows: list[dict], teams: list[dict] | None, heroes: list[dict],
                  ruleset_path: Path | None) -> None:
    from rich.console import Console
    from rich.table import Table

    games = meta["games_per_table"]
    console = Console(width=120)
    t = Table(title=f"{meta['mode']}: {games} game{'s' * (games != 1)} per table, seed {meta['seed']}, "
                    f"{meta['bot']} bots ({_seating(meta['places'])})")
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


@click.command()
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
    """Exact chances of each offensive ability with the best re-rolls (and what to keep now), of a
    hero, a Minion (and of its Roll Objective) or a Boss."""
    from dtc import odds as odds_mod
    from dtc.dicethrone.tables import rules_of

    loaded = _ruleset(ruleset_path)
    index = _player_index(loaded, hero, "HERO", ruleset_path is None, again("odds", hero))
    attempts = rules_of(loaded).roll_attempts
    data = loaded.players[index]
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
    objective = report.get("objective")  # a Minion's: what its Minion Step re-rolls for
    need = max([len(r["requirement"]) for r in rows] + [len("needs")]
               + ([len(objective["requirement"])] if objective else []))
    columns = [f"{k} roll{'s' if k > 1 else ''}" for k in range(1, attempts + 1)]
    cell = max(10, *(len(show(c)) for r in rows for c in r["chances"]))
    click.echo(f"  {'ability':<{width}}  {'needs':<{need}}  " + "  ".join(f"{c:>{cell}}" for c in columns))
    for r in rows:
        click.echo(f"  {r['ability']:<{width}}  {r['requirement']:<{need}}  "
                   + "  ".join(f"{show(c):>{cell}}" for c in r["chances"]))
    if "any" in report:
        click.echo(f"  {'at least one ability':<{width}}  {'':<{need}}  "
                   + "  ".join(f"{show(c):>{cell}}" for c in report["any"]))
    if objective:
        click.echo(f"  {'Roll Objective':<{width}}  {objective['requirement']:<{need}}  "
                   + "  ".join(f"{show(c):>{cell}}" for c in objective["chances"]))
    setup = report.get("setup")
    for d in report["defensive"]:
        click.echo(f"\n{d['ability']} (defensive, {d['dice']} {'die' if d['dice'] == 1 else 'dice'}): "
                   "what the roll does" + (f", with {', '.join(setup)} as the game starts" if setup else ""))
        for o in d["outcomes"]:
            chance = "" if o["chance"] is None else show(o["chance"])
            click.echo(f"  {chance:>{cell}}  {o['outcome']}")
