"""Rulesets: an artifact file, or the built-in content compiled once and cached.

The cache (per user, keyed by dtc's version and the bytes of the built-in
content) means `dtc play` and `dtc simulate` start at once; the cached file is
verified like any artifact every time it is loaded.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from dtc import __version__, artifact
from dtc.artifact import Artifact, ArtifactError
from dtc.resources import cache_dir, data_dir


class RulesetError(Exception):
    """The ruleset cannot be had; one-line reason."""


def _builtin_key() -> str:
    """The content, grammar and schemas, and dtc's own code: a changed compiler compiles anew."""
    digest = hashlib.sha256(__version__.encode())
    code = Path(__file__).resolve().parent
    for path in sorted(code.rglob("*.py")):
        digest.update(path.relative_to(code).as_posix().encode())
        digest.update(path.read_bytes())
    for folder in ("content", "grammar", "schemas"):
        root = data_dir(folder)
        for path in sorted(root.rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def builtin() -> Artifact:
    """The built-in content as a verified artifact (compiled on first use, then cached)."""
    folder = cache_dir()
    key = _builtin_key()
    path = folder / f"builtin-{key}.dtcb" if folder else None
    if path is not None and path.exists():
        try:
            return artifact.read(path)
        except ArtifactError:
            pass  # a damaged cache is rebuilt
    from dtc import project
    from dtc.compiler import compile_content

    result = project.builtin()
    if result.errors:
        raise RulesetError(f"the built-in content has {len(result.errors)} error(s); run `dtc lint`")
    names = project.artifact_names(result, [data_dir("content")])
    data = artifact.to_bytes(compile_content(result.content, names))
    if path is not None and _builtin_key() == key:  # files edited while it compiled: not this key's
        try:
            artifact.write(path, data)
        except OSError:
            pass
    return artifact.load(data)


def load(path: Path | None) -> Artifact:
    """The artifact at `path`, or the built-in one; raises RulesetError."""
    if path is None:
        return builtin()
    try:
        return artifact.read(path)
    except ArtifactError as exc:
        raise RulesetError(f"{path}: {exc}") from None
