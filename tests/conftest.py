"""Shared test helpers: lint a snippet, load the built-in content once, golden files."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dtc import project

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite expected-output files instead of comparing")


@pytest.fixture
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.fixture(scope="session")
def builtin() -> project.Result:
    """The built-in content, loaded and checked once per test session."""
    return project.builtin()


@pytest.fixture
def lint_text(tmp_path, monkeypatch):
    """Lint YAML text written to a file; returns the project result."""
    monkeypatch.chdir(tmp_path)

    def run(text: str, name: str = "hero.yaml") -> project.Result:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return project.run([Path(name)])

    return run


def content_copy(tmp_path, hero_file: str, replace=(), status: str = "", cards: str = "") -> Path:
    """A copy of the built-in content, with one hero file changed: (old, new) text replacements, one
    more status effect (a YAML list item, indented 2), more cards (YAML list items, indented 2)."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "content")
    path = tmp_path / "content" / "heroes" / hero_file
    text = path.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text, old
        text = text.replace(old, new)
    if status:
        text = text.replace("status_effects:\n", f"status_effects:\n{status}\n", 1)
    if cards:
        text = text.rstrip("\n") + "\n\n" + cards
    path.write_text(text, encoding="utf-8")
    return tmp_path / "content"


def codes(result: project.Result, include_allowed: bool = False) -> list[tuple[str, int, int]]:
    """(code, line, col) of each diagnostic, in order."""
    return [
        (d.code, d.span.line if d.span else 0, d.span.col if d.span else 0)
        for d in result.diagnostics
        if include_allowed or d.suppressed is None
    ]


MINIMAL_HERO = """
hero: Tester
dice:
  faces: {1: Claw, 2: Claw, 3: Claw, 4: Paw, 5: Paw, 6: Leaf}
status_effects:
  - name: Wound
    polarity: negative
    stack_limit: 2
    effects:
      - During your Upkeep Phase, receive 1 dmg.
offensive:
  - name: Swipe
    requires: 3 [Claw]
    effect: Deal 4 dmg.
defensive:
  - name: Guard
    dice: 2
    effect: Deal 1 dmg per [Claw] rolled.
"""


@pytest.fixture(scope="session")
def image(builtin) -> dict:
    """The compiled image of the built-in content (plain data)."""
    from dtc.compiler import compile_content

    return compile_content(builtin.content, project.artifact_names(builtin, [ROOT / "content"]))


@pytest.fixture(scope="session")
def compiled(image):
    """The built-in content as a verified, loaded artifact."""
    from dtc import artifact

    return artifact.load(artifact.to_bytes(image))


def count_word_comparisons(pattern) -> list[str]:
    """Make a compiled verb pattern (`verbs.compile_pattern`) note every word it compares: the list
    returned fills as it matches (the matcher's work, counted rather than timed)."""
    compared: list[str] = []

    class Counting:
        def __init__(self, regex):
            self.regex = regex

        def fullmatch(self, word):
            compared.append(word)
            return self.regex.fullmatch(word)

    pattern.items = [(kind, Counting(what) if kind == "word" else what) for kind, what in pattern.items]
    return compared
