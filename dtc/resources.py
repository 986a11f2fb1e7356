"""Resources: where the grammar, the schemas and the built-in content live.

In a wheel they ship inside the package (`dtc/_data/...`); in a source checkout
(or an editable install) they are the top-level `grammar/`, `schemas/` and
`content/` folders of the repository.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The folder holding `name` ("grammar", "schemas" or "content")."""
    shipped = _PACKAGE / "_data" / name
    if shipped.is_dir():
        return shipped
    return _PACKAGE.parent / name


def cache_dir() -> Path | None:
    """A private, per-user folder for derived files (the compiled parser tables)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "dtc"
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None
