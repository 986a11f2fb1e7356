"""Golden diagnostics: each broken file in tests/cases/lint/ has its exact expected output.

`make golden` rewrites the `.err` files; review the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CASES

from dtc import project
from dtc.diagnostics import render_text

LINT_CASES = sorted((CASES / "lint").glob("*.yaml"))


def render_all(result: project.Result) -> str:
    blocks = []
    for d in result.diagnostics:
        text = render_text(d, result.sources)
        if d.suppressed is not None:
            text += f"\n  = allowed: {d.suppressed}"
        blocks.append(text)
    return "\n\n".join(blocks) + "\n"


@pytest.mark.parametrize("case", LINT_CASES, ids=[c.stem for c in LINT_CASES])
def test_lint_case(case: Path, monkeypatch, update_golden):
    monkeypatch.chdir(case.parent)
    result = project.run([Path(case.name)])
    actual = render_all(result)
    expected_file = case.with_suffix(".err")
    if update_golden:
        expected_file.write_text(actual, encoding="utf-8")
    assert expected_file.exists(), f"run `make golden` to create {expected_file.name}"
    assert actual == expected_file.read_text(encoding="utf-8")
    assert result.diagnostics, "a broken-content case must produce diagnostics"
