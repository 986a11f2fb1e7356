"""Lint cache: the paths of a `dtc lint` in, the whole result of an earlier lint of the same inputs out.

Checks cross files (a hero uses the shared statuses, the rulesets, the phrasebook), so one entry
holds one whole lint: its diagnostics (as JSON), the number of files, and the source lines the
text format quotes.  Its key is a hash of everything that can change the result: this cache's
format, dtc's version and code, the working folder (paths are shown relative to it), the paths
given, every content file found under them (path and content hash), the built-in files a lint may
fall back on (rulesets, phrasebook, Valeria rules), the grammars and schemas, and the installed
libraries.  A warm lint with nothing changed reads and hashes the files and prints; it loads no
YAML, schema or parser machinery.

Entries live under the user cache folder (`dtc.resources.cache_dir()`, `lint/`), are written
atomically and bounded in number (the most recently used are kept).  A damaged entry is ignored and
rebuilt; a cache that cannot be read or written is skipped, never fatal.  What is printed is
rendered from the result in both cases, so a cached lint prints the same bytes with the same exit
code in every format.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from dtc import __version__
from dtc.diagnostics import CODES, Diagnostic, Findings, Severity
from dtc.resources import cache_dir, data_dir
from dtc.source import Span

FORMAT = 1
MAX_ENTRIES = 64
CONTENT_SUFFIXES = (".yaml", ".yml")  # as `project.discover` finds content
_PACKAGE = Path(__file__).resolve().parent


@dataclass
class Quoted:
    """The lines of one source file that the diagnostics quote (what `render_text` reads)."""

    lines: dict[int, str] = field(default_factory=dict)

    def line_text(self, line: int) -> str:
        return self.lines.get(line, "")


@dataclass
class CachedLint(Findings):
    """A lint result read from the cache: what the `lint` command prints and exits with."""

    diagnostics: list[Diagnostic]
    files: int
    sources: dict[str, Quoted]
    usage_error: bool = False


def lint(paths: list[Path], use_cache: bool = True):
    """The result of linting `paths` (a `project.Result`, or a `CachedLint` when an entry fits)."""
    files = key_files(paths) if use_cache else None
    key = lint_key(paths, files) if files is not None else None
    folder = _folder() if key is not None else None
    if folder is not None:
        cached = load(folder / f"{key}.json", key)
        if cached is not None:
            return cached
    from dtc import fix

    result = fix.lint(paths)
    # stored only when the files it read are those of the key, unchanged while it ran
    if folder is not None and _covered(result, files) and lint_key(paths, key_files(paths)) == key:
        store(folder, key, result)
    return result


# ------------------------------------------------------------------ the key


def lint_key(paths: list[Path], files: list[Path] | None) -> str | None:
    """The hash of every input of a lint of `paths` that reads `files` (see `key_files`); None when
    the lint is not cached (a path is missing, a file cannot be read: the lint says so, quickly)."""
    if files is None:
        return None
    digest = hashlib.sha256(f"dtc lint cache {FORMAT}\0{__version__}\0{code_fingerprint()}\0".encode())
    digest.update(f"{sys.version}\0{_libraries()}\0{os.getcwd()}\0".encode())
    for path in paths:
        digest.update(os.fsencode(path) + b"\0")
    inputs = [(True, path) for path in files] + [(False, path) for path in _builtin_inputs()]
    for found, path in inputs:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if found and b"icons:" in data:
            return None  # a hero's own icon files are inputs too, anywhere on disk: not cached
        digest.update(b"found\0" if found else b"builtin\0")
        digest.update(os.fsencode(path) + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:32]


def key_files(paths: list[Path]) -> list[Path] | None:
    """The content files a lint of `paths` reads, as `project.discover` finds them (None when a path
    is neither a file nor a folder, or a folder holds no content)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in CONTENT_SUFFIXES and p.is_file()
                           and not any(part.startswith(".") for part in p.relative_to(path).parts))
            if not found:
                return None
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            return None
    return list(dict.fromkeys(p.resolve() for p in files))


def _builtin_inputs() -> list[Path]:
    """The files besides the content that a lint may read: the built-in rulesets, phrasebook and
    Valeria rules (used when the content brings none), the grammars and the schemas."""
    content = data_dir("content")
    return (sorted((content / "rules").glob("*.yaml")) + [content / "valeria" / "rules.yaml"]
            + sorted(data_dir("grammar").glob("*.lark")) + sorted(data_dir("schemas").glob("*.json")))


@functools.cache
def code_fingerprint() -> str:
    """`dtc.session.engine_version()`, computed here: importing the session module loads the VM,
    which costs more than a whole warm lint (a test keeps the two equal)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _libraries() -> str:
    """The distributions installed beside dtc's libraries (their names carry their versions): an
    upgraded YAML or schema library may word a diagnostic otherwise."""
    names = []
    for entry in filter(None, sys.path):  # not "" (the working folder, in the key already)
        try:
            names += sorted(n for n in os.listdir(entry) if n.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
    return "\0".join(names)


def _covered(result, files: list[Path]) -> bool:
    """Whether every file the lint read is in its key (a lint that read something else is not
    stored: it could not tell when that changed)."""
    if result.usage_error or result.files != len(files):
        return False
    known = {str(p) for p in files} | {str(p.resolve()) for p in _builtin_inputs()}
    return all(str(Path(path).resolve()) in known for path in result.sources)


# ------------------------------------------------------------- the entries


def _folder() -> Path | None:
    base = cache_dir()
    if base is None:
        return None
    folder = base / "lint"
    try:
        folder.mkdir(exist_ok=True, mode=0o700)
    except OSError:
        return None
    return folder if folder.is_dir() else None


def load(path: Path, key: str) -> CachedLint | None:
    """The entry at `path`, or None when there is none or it is damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["format"] != FORMAT or data["key"] != key:
            return None
        diagnostics = [_diagnostic(d) for d in data["diagnostics"]]
        sources = {p: Quoted({int(n): str(t) for n, t in lines.items()})
                   for p, lines in data["lines"].items()}
        cached = CachedLint(diagnostics, int(data["files"]), sources)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    with contextlib.suppress(OSError):  # a cache that cannot be touched is only trimmed sooner
        os.utime(path)  # recently used: kept when the cache is trimmed
    return cached


def store(folder: Path, key: str, result) -> None:
    """Write the result as the entry for `key` (atomically), then keep the newest MAX_ENTRIES."""
    lines: dict[str, dict[str, str]] = {}
    for d in result.diagnostics:
        if d.span is not None and d.span.path in result.sources:
            quoted = lines.setdefault(d.span.path, {})
            quoted[str(d.span.line)] = result.sources[d.span.path].line_text(d.span.line)
    entry = {"format": FORMAT, "key": key, "files": result.files,
             "diagnostics": [_plain(d) for d in result.diagnostics], "lines": lines}
    text = json.dumps(entry)  # ASCII: a path that is no UTF-8 (surrogate-escaped) survives too
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".lint-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(text)
            os.replace(tmp, folder / f"{key}.json")
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return
    _trim(folder)


def _trim(folder: Path) -> None:
    with contextlib.suppress(OSError):  # trimming is housekeeping: a lint never fails on it
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[MAX_ENTRIES:]:
            old.unlink()


def _plain(d: Diagnostic) -> dict:
    span = d.span
    return {"code": d.code, "severity": str(d.severity), "message": d.message,
            "span": None if span is None else [span.path, span.line, span.col, span.end_line, span.end_col],
            "hint": d.hint, "suppressed": d.suppressed, "notes": list(d.notes), "fix": d.fix}


def _diagnostic(data: dict) -> Diagnostic:
    """A diagnostic as `_plain` wrote it (ValueError, KeyError or TypeError when it is not)."""
    span, hint, suppressed, fix = data["span"], data["hint"], data["suppressed"], data["fix"]
    if data["code"] not in CODES or not all(x is None or isinstance(x, str)
                                            for x in (hint, suppressed, fix)):
        raise ValueError("not a diagnostic")
    return Diagnostic(
        data["code"], Severity(data["severity"]), str(data["message"]),
        None if span is None else Span(str(span[0]), *(int(x) for x in span[1:])),
        hint, suppressed, tuple(str(n) for n in data["notes"]), fix)

