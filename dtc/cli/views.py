"""The designer views: board (a hero as a page), print (cards to PDF), report (a balance report from
simulate's JSON), serve (a live preview of a content folder)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dtc.cli.common import EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE

CONTENT_HELP = ("The content folder (or YAML files) to read, as every command names it (`--content` is "
                "the same; default: the built-in content).")


def _content_paths(content: tuple[Path, ...]) -> list[Path]:
    from dtc import project

    for path in content:
        if not path.exists():
            click.echo(f"error: --content {path}: no such file or folder", err=True)
            sys.exit(EXIT_USAGE)
    return list(content) or [project.builtin_content_dir()]


def _read(paths: list[Path]):
    from dtc.views.content import read

    found = read(paths)
    if found.result.usage_error:
        from dtc.cli.common import _print_diagnostics

        _print_diagnostics(found.result)
        sys.exit(EXIT_USAGE)
    return found


def _find(found, wanted: str, command: str):
    """The hero, Minion or Boss named (name or slug) in what was read; a usage error naming those
    there if none."""
    from dtc import focus
    from dtc.cli.common import _no_player

    hero, guess = focus.find(found.result.content, wanted)
    if hero is None:
        for d in found.result.errors:  # a file that did not load may be where the hero was
            if d.code.startswith("Y") or d.code.startswith("S"):
                click.echo(found.text(d), err=True)
        _no_player(wanted, guess, focus.groups(found.result.content),
                   own=f" (`dtc {command}` reads the built-in content, or the folder given with --ruleset)")
    return hero


def write_page(path: Path, html: str) -> None:
    """Write a page atomically (a failure leaves no half-written file); an I/O error: one line, exit 2."""
    from dtc import artifact

    try:
        artifact.write(path, html.encode("utf-8"))
    except OSError as exc:
        click.echo(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)


@click.command()
@click.argument("hero")
@click.option("--ruleset", "--content", "content", multiple=True, type=click.Path(path_type=Path),
              help=CONTENT_HELP)
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="The HTML file to write (default: HERO.html here).")
def board(hero: str, content: tuple[Path, ...], output: Path | None) -> None:
    """A hero's board as a self-contained HTML page: dice key, abilities with their dice and odds,
    status effects, components and the deck as cards (a Minion's card callouts and Roll Objective, a
    Boss's setup and Action cards). One whose entry has errors gets a page naming them (and exit 1);
    errors elsewhere in the content do not stop it."""
    from dtc.show import slug
    from dtc.views.content import render_board

    found = _read(_content_paths(content))
    chosen = _find(found, hero, "board")
    html, errors = render_board(found, chosen)
    output = output or Path(f"{slug(chosen.name)}.html")
    write_page(output, html)
    if errors:
        for d in errors:
            click.echo(found.text(d), err=True)
        click.echo(f"error: {chosen.name} has {len(errors)} error(s): {output} names them instead of "
                   "showing the board", err=True)
        sys.exit(EXIT_PROBLEMS)
    odds = "" if found.odds(chosen) else (" (no odds: what it needs (rules, status effects) has errors; "
                                          "`dtc lint` them)")
    click.echo(f"wrote {output}: {chosen.name}'s board{odds}")
    sys.exit(EXIT_CLEAN)


@click.command("print")
@click.option("--hero", "hero_names", multiple=True,
              help="A hero to print (name or slug; again for more). Default: every hero.")
@click.option("--ruleset", "--content", "content", multiple=True, type=click.Path(path_type=Path),
              help=CONTENT_HELP)
@click.option("--paper", type=click.Choice(["a4", "letter"], case_sensitive=False), default="a4",
              show_default=True, help="The sheet size.")
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="The PDF to write (with --html, the HTML page to print from any browser).")
@click.option("--html", "as_html", is_flag=True,
              help="Write the printable page as HTML instead of a PDF (no Chromium needed).")
@click.option("--browser", help="The Chromium or Chrome to print with (default: found on PATH, or "
              "$DTC_CHROMIUM).")
def print_command(hero_names: tuple[str, ...], content: tuple[Path, ...], paper: str, output: Path,
                  as_html: bool, browser: str | None) -> None:
    """Print-and-play: each hero's board on a sheet of its own, then every card of its deck at real
    size (63 x 88 mm), nine to an A4 or Letter sheet, with cut marks."""
    from dtc import focus
    from dtc.views.browser import BrowserError
    from dtc.views.printing import PAPERS, print_html, to_pdf

    found = _read(_content_paths(content))
    chosen = [_find(found, name, "print") for name in hero_names] or found.heroes
    chosen = [h for k, h in enumerate(chosen) if all(h is not o for o in chosen[:k])]  # each once
    if not chosen:
        click.echo("error: no hero to print in the content read", err=True)
        sys.exit(EXIT_USAGE)
    broken = [(h, d) for h in chosen for d in focus.own(found.result.errors, found.result.content, h)]
    if broken:
        for _, d in broken:
            click.echo(found.text(d), err=True)
        names = ", ".join(dict.fromkeys(h.name for h, _ in broken))  # each once, in order
        click.echo(f"error: {names}: {len(broken)} error(s); fix them to print", err=True)
        sys.exit(EXIT_PROBLEMS)
    html = print_html([(h, found.odds(h)) for h in chosen], found.result.content,
                      PAPERS[paper.lower()])
    if as_html:
        write_page(output, html)
        click.echo(f"wrote {output}: print it at 100% scale, no margins")
        sys.exit(EXIT_CLEAN)
    try:
        pdf = to_pdf(html, browser)
    except BrowserError as exc:
        click.echo(f"error: {exc} (or write the page with --html and print it from a browser)", err=True)
        sys.exit(EXIT_USAGE)
    from dtc import artifact

    try:
        artifact.write(output, pdf)
    except OSError as exc:
        click.echo(f"error: cannot write {output}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)
    from dtc.views.board import deck_faces
    from dtc.views.printing import PER_SHEET

    cards = sum(len(deck_faces(h, found.result.content)) for h in chosen)
    sheets = sum(1 + -(-len(deck_faces(h, found.result.content)) // PER_SHEET) for h in chosen)
    click.echo(f"wrote {output}: {sheets} {PAPERS[paper.lower()].name} sheets, {len(chosen)} board(s) and "
               f"{cards} cards")
    sys.exit(EXIT_CLEAN)


def report_odds(loaded, simulated_hash: str) -> tuple[list[dict] | None, str]:
    """Each hero's odds from the ruleset at hand, when it is the one simulated (else None and why)."""
    from dtc import odds
    from dtc.dicethrone.tables import rules_of

    if loaded.content_hash != simulated_hash:
        return None, (f"No odds: the ruleset at hand ({loaded.content_hash[:16]}…) is not the one these "
                      f"games were played with ({str(simulated_hash)[:16]}…); pass that one with --ruleset.")
    attempts = rules_of(loaded).roll_attempts
    return [odds.hero_report(loaded, i, attempts) for i in range(len(loaded.heroes))], ""


@click.command()
@click.argument("results", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="The HTML file to write.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path),
              help="The ruleset the games were played with, for the odds (a FILE.dtcb or a content folder; "
                   "default: the built-in content).")
def report(results: Path, output: Path, ruleset_path: Path | None) -> None:
    """A balance report (HTML, plots as inline SVG) from `dtc simulate --all --format json`: win-rate
    heatmap, each hero's rate, game lengths, first-player advantage, odds per hero."""
    import json

    from dtc.cli.common import _ruleset
    from dtc.views.report import ReportError, report_html

    try:
        text = results.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        click.echo(f"error: cannot read {results}: {reason or exc}", err=True)
        sys.exit(EXIT_USAGE)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f":{exc.lineno}:{exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        click.echo(f"error: {results}{where}: not JSON ({getattr(exc, 'msg', 'nested too deep')}); make the "
                   "file with `dtc simulate --all --format json > FILE`", err=True)
        sys.exit(EXIT_USAGE)
    try:
        from dtc.views.report import check_results

        check_results(data)
    except ReportError as exc:
        click.echo(f"error: {results}: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    found, note = report_odds(_ruleset(ruleset_path), data["ruleset"])
    write_page(output, report_html(data, found, note))
    click.echo(f"wrote {output}: {len(data['pairs'])} pairs" + ("" if found else f" ({note})"))
    sys.exit(EXIT_CLEAN)


@click.command()
@click.argument("content", nargs=-1, type=click.Path(path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port to listen on (0: a free one, printed).")
def serve(content: tuple[Path, ...], port: int) -> None:
    """A live preview of a content folder: an index of its heroes and each hero's board, served on
    127.0.0.1 only; pages re-render when a file changes, lint diagnostics shown where they point.
    Ctrl-C stops it."""
    from dtc.views.serve import serve as run

    paths = _content_paths(content)

    def ready(url: str) -> None:
        click.echo(f"serving {', '.join(str(p) for p in paths)} at {url} (Ctrl-C stops)", err=False)

    try:
        run(paths, port, ready)
    except OSError as exc:
        click.echo(f"error: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("stopped")
    sys.exit(EXIT_CLEAN)
