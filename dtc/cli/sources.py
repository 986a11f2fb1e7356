"""Where commands find content: `--ruleset` for the commands that read source content (with
`--content`, its old name), and where to look for a hero that is not built in.

The commands that play or count (`play`, `odds`, `simulate`) take `--ruleset` as a compiled
ruleset or content compiled on the spot; `show`, `explain` and `heroes` take the same option for
the content itself, which they read with its source lines.
"""

from __future__ import annotations

import functools
import re
import shlex
from pathlib import Path

import click

SOURCE_HELP = ("The content to read: a content folder or YAML files (repeat it for several; default: "
               "the built-in content).")
NEARBY = Path("content")  # where a designer's content folder usually is, under the current folder
MAX_SCANNED = 2000  # files looked at for a hero's name: the hint must not crawl a home folder
MAX_BYTES = 1 << 20
_HERO_LINE = re.compile(r"""(?m)^hero:[ \t]*["']?([^"'#\n]+?)["']?[ \t]*(?:#.*)?$""")


def source_option(help_text: str = SOURCE_HELP):
    """`--ruleset PATH...` for a command reading content (its function takes `ruleset_paths`), and
    the hidden `--content`, which it replaces: scripts that pass it still work, with a note."""

    def decorate(command):
        @functools.wraps(command)
        def run(*args, ruleset_paths, content_paths, **kwargs):
            if content_paths:
                click.echo("note: --content is deprecated; use --ruleset (it takes the same paths)", err=True)
            return command(*args, ruleset_paths=ruleset_paths + content_paths, **kwargs)

        path = click.Path(path_type=Path)
        run = click.option("--content", "content_paths", multiple=True, type=path, hidden=True)(run)
        return click.option("--ruleset", "ruleset_paths", multiple=True, type=path, help=help_text)(run)
    return decorate


def compiled(paths: tuple[Path, ...]) -> Path | None:
    """The first of the paths that is a compiled ruleset (`dtc compile`'s output, by its magic)."""
    for path in paths:
        try:
            with open(path, "rb") as f:
                if f.read(4) == b"DTCB":
                    return Path(path)
        except OSError:  # not there, or a folder: reading the content says what is wrong
            continue
    return None


def nearby_hero(name: str) -> tuple[str, str] | None:
    """(the file, what to give `--ruleset`) for a hero file called `name` (by its `hero:` or the
    file's name) under ./content, or in the current folder or its heroes/ folder; None if none."""
    from dtc.show import slug

    wanted = slug(name)
    for path, ruleset in _candidates():
        if slug(path.stem) == wanted or _hero_slug(path) == wanted:
            return path.as_posix(), ruleset
    return None


def again(command: str, *words: str) -> str:
    """A command line as the user would type it again (`dtc show 'Tide Caller'`)."""
    return " ".join([f"dtc {command}", *(shlex.quote(w) for w in words)])


def not_built_in(name: str, command_line: str) -> str | None:
    """`no built-in hero `x`; it is in FILE: COMMAND --ruleset FOLDER` when a hero file nearby has
    that name, else None."""
    found = nearby_hero(name)
    if found is None:
        return None
    where, ruleset = found
    return f"no built-in hero `{name}`; it is in {where}: {command_line} --ruleset {ruleset}"


def _candidates():
    """Content files nearby, each with what finds it: ./content's under `content/`, a content
    folder's own (./heroes/) under `.`, a lone file in the current folder as itself."""
    scanned = 0
    groups = [(_yaml_under(NEARBY), f"{NEARBY.as_posix()}/"), (_yaml_in(Path("heroes")), "."),
              (_yaml_in(Path(".")), None)]
    for files, ruleset in groups:
        for path in files:
            scanned += 1
            if scanned > MAX_SCANNED:
                return
            yield path, ruleset or path.as_posix()


def _yaml_under(folder: Path):
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.suffix in (".yaml", ".yml") and not any(p.startswith(".") for p in relative.parts) \
                and path.is_file():
            yield path


def _yaml_in(folder: Path):
    if folder.is_dir():
        yield from sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")
                          and not p.name.startswith(".") and p.is_file())


def _hero_slug(path: Path) -> str | None:
    """The slug of the `hero:` a YAML file starts a hero with, read without loading it."""
    from dtc.show import slug

    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = _HERO_LINE.search(text)
    return slug(found.group(1)) if found else None
