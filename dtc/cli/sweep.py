"""`dtc sweep`: balance by search, over `dtc.sweep`."""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path

import click

from dtc.cli.workers import cluster_options


@click.command()
@click.option("--vary", "vary_text", required=True, metavar="'HERO: WHAT = LOW..HIGH [step N]'",
              help="The number to vary: `barbarian: Smack tier 1 damage = 3..6`, `barbarian: card Rage "
                   "cost = 0..3`, `barbarian: Mangled stack limit = 1..4`, or a path in the hero's YAML, "
                   "`barbarian: cards.2.cost = 0..3`.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Games against each other hero, for each value.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Worker processes (the numbers do not depend on it).")
@click.option("--bot", type=click.Choice(["heuristic", "estimate", "random"]), default="heuristic",
              show_default=True)
@click.option("--ruleset", "content_path", type=click.Path(path_type=Path),
              help="The content folder the hero is in (default: the built-in content); a compiled "
                   ".dtcb holds no YAML to vary.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--html", "html_path", type=click.Path(path_type=Path),
              help="Also write the plot of win rate against the value, with its intervals, as a page.")
@cluster_options
def sweep(vary_text: str, games: int, seed: int, jobs: int, bot: str, content_path: Path | None, fmt: str,
          html_path: Path | None, cluster) -> None:
    """Balance by search: vary one number of a hero over a range; each variant is checked and compiled
    like any content, then plays every other hero (the hero in the first seat); the win rate with its
    95% interval for each value, and the value closest to 50%. A variant lint refuses is reported and
    skipped."""
    from dtc import project
    from dtc.cli.main import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE
    from dtc.dicethrone.simulate import simulate
    from dtc.sweep import SweepError, parse_vary, run_sweep

    folder = content_path if content_path is not None else project.builtin_content_dir()
    if not folder.is_dir():
        click.echo(f"error: --ruleset {folder}: give the content folder the hero's YAML is in", err=True)
        sys.exit(EXIT_USAGE)

    def play(loaded, raw, pairs):
        return simulate(loaded, raw, pairs, games, seed, jobs, bot, cluster=cluster)

    def told(point) -> None:
        if fmt == "table" and sys.stderr.isatty():
            said = "refused" if point.refused else f"{point.win_rate:.1%}"
            click.echo(f"  {point.value}: {said}", err=True)

    try:
        vary = parse_vary(vary_text)
        result = run_sweep(folder, vary, games, seed, play, told)
    except SweepError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    report = result.as_json()
    if html_path is not None:
        _write_html(html_path, result, report)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        _print_table(result, report)
    played = [p for p in result.points if p.refused is None]
    sys.exit(EXIT_CLEAN if played else EXIT_PROBLEMS)


def _print_table(result, report: dict) -> None:
    against = (f"{result.games} games against each of {', '.join(result.opponents)} per value"
               if result.opponents else "no value could be played (each is refused below)")
    click.echo(f"dtc sweep: {result.hero}, {result.vary.what}; {against}, seed {result.seed}")
    click.echo(f"  {'value':>6}  {'win rate':>8}  {'95% interval':>13}  {'games':>7}")
    for p in result.points:
        if p.refused:
            click.echo(f"  {p.value:>6}  refused: {p.refused}")
        else:
            low, high = p.interval
            click.echo(f"  {p.value:>6}  {p.win_rate:>8.1%}  {f'{low:.1%}-{high:.1%}':>13}  {p.games:>7}")
    best = report["closest_to_even"]
    if best is None:
        click.echo("  every value was refused: no variant to play")
    else:
        rate = next(p.win_rate for p in result.points if p.value == best and p.refused is None)
        click.echo(f"  closest to 50%: {best} ({rate:.1%})")


def _write_html(path: Path, result, report: dict) -> None:
    from dtc import artifact
    from dtc.plot import Estimate, rates_chart
    from dtc.views.page import page

    played = [p for p in result.points if p.refused is None]
    chart = rates_chart([Estimate(p.value, p.win_rate, *p.interval) for p in played],
                        f"{result.vary.what} ({result.hero})", f"{result.hero}'s win rate")
    rows = "".join(f"<tr><td>{p.value}</td><td>{escape(p.refused) if p.refused else f'{p.win_rate:.1%}'}</td>"
                   f"<td>{'' if p.refused else f'{p.interval[0]:.1%}-{p.interval[1]:.1%}'}</td>"
                   f"<td>{p.games}</td></tr>" for p in result.points)
    best = report["closest_to_even"]
    body = (f"<h1>{escape(result.hero)}: {escape(result.vary.what)}</h1>\n"
            f"<p>{result.games} games against each of {escape(', '.join(result.opponents))} per value; seed "
            f"{result.seed}. Closest to 50%: <strong id=\"closest\">{best}</strong>.</p>\n{chart}\n"
            "<table><tr><th>value</th><th>win rate</th><th>95% interval</th><th>games</th></tr>"
            f"{rows}</table>\n<p>Made by <code>dtc sweep --vary {escape(repr(result.vary.text))}</code>.</p>")
    try:
        artifact.write(path, page(f"dtc sweep: {result.hero}", body).encode("utf-8"))
    except OSError as exc:
        click.echo(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
        sys.exit(1)
