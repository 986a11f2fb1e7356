"""CLI: one function per command; logic lives in the stage modules.

Exit codes are decided in one place (`_exit_code`): 0 clean, 1 problems in the
content, 2 usage or I/O errors.  Text diagnostics go to stderr; machine
formats (json, github, sarif) and requested output go to stdout.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from dtc import __version__, project
from dtc.diagnostics import render_github, render_json, render_sarif, render_text
from dtc.show import find_hero, format_hero, hero_names, hero_view

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def _exit_code(result: project.Result, strict: bool) -> int:
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
    return sys.stderr.isatty()


def _summary(result: project.Result) -> str:
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


def main() -> None:
    """The console script: the commands, with interruptions and dtc bugs reported briefly."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # the reader went away (`dtc show druid | head`): nothing left to say
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
def lint(paths: tuple[Path, ...], fmt: str, strict: bool, show_allowed: bool, color: str) -> None:
    """Check content files (folders are searched for *.yaml)."""
    result = project.run(list(paths))
    if result.files == 0 and not result.usage_error:
        click.echo(f"error: no content files (*.yaml, *.yml) under {', '.join(map(str, paths))}",
                   err=True)
        sys.exit(EXIT_USAGE)
    diags = result.diagnostics
    if fmt == "json":
        click.echo(render_json(diags, result.files))
    elif fmt == "sarif":
        click.echo(render_sarif(diags, __version__))
    elif fmt == "github":
        for d in diags:
            if d.suppressed is None:
                click.echo(render_github(d))
    else:
        use_color = _color(color)
        for d in diags:
            if d.suppressed is None or show_allowed:
                text = render_text(d, result.sources, use_color)
                if d.suppressed is not None:
                    text += f"\n  = allowed: {' '.join(d.suppressed.split())}"
                click.echo(text, err=True)
        click.echo(_summary(result), err=True)
    sys.exit(_exit_code(result, strict))


@cli.command()
@click.argument("hero")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--content", "content_paths", multiple=True, type=click.Path(path_type=Path),
              help="Content to look in (default: the built-in content).")
def show(hero: str, fmt: str, content_paths: tuple[Path, ...]) -> None:
    """Show a hero as dtc understands it: dice, abilities, statuses, components, deck."""
    result = project.run(list(content_paths)) if content_paths else project.builtin()
    if result.usage_error:
        for d in result.diagnostics:
            click.echo(render_text(d, result.sources), err=True)
        sys.exit(EXIT_USAGE)
    found, guess = find_hero(result.content, hero)
    if found is None:
        known = ", ".join(hero_names(result.content)) or "none"
        hint = f"did you mean `{guess}`? " if guess else ""
        click.echo(f"error: no hero `{hero}`; {hint}heroes here: {known}", err=True)
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


@cli.command()
@click.option("--content", "content_paths", multiple=True, type=click.Path(path_type=Path),
              help="Content to look in (default: the built-in content).")
def heroes(content_paths: tuple[Path, ...]) -> None:
    """List the heroes in the content."""
    result = project.run(list(content_paths)) if content_paths else project.builtin()
    for h in sorted(result.content.heroes, key=lambda h: h.name):
        abilities = sum(1 for a in h.abilities)
        click.echo(f"{h.name:<14} {h.doc.path}  ({abilities} abilities, "
                   f"{sum(c.copies for c in h.cards)} own cards)")
    sys.exit(_exit_code(result, False))

