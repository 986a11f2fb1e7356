"""The wheel ships the grammar, schemas and content; an installed dtc works from any folder.

Slow (it builds a wheel and installs it into a fresh virtualenv); CI runs it.
"""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import MINIMAL_HERO, ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out),
                    str(ROOT)], check=True)
    (built,) = out.glob("dtc-*.whl")
    return built


def test_wheel_holds_grammar_schemas_and_content(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in [
        "dtc/_data/grammar/effect.lark",
        "dtc/_data/schemas/hero.schema.json",
        "dtc/_data/schemas/effect.schema.json",
        "dtc/_data/content/heroes/druid.yaml",
        "dtc/_data/content/rules/vanguard-2.4.3.yaml",
        "dtc/cli/main.py",
        "dtc/views/icons/claw.svg",  # issue 23, Deliver 5: "a default icon set shipped in the wheel"
        "dtc/views/icons/main-phase.svg",
    ]:
        assert required in names, required


def test_installed_dtc_works_from_another_folder(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    dtc = env_dir / "bin" / "dtc"
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "mine.yaml").write_text(MINIMAL_HERO.lstrip("\n"))

    shown = subprocess.run([str(dtc), "show", "druid"], cwd=work, capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert "Wrath of Nature!" in shown.stdout

    linted = subprocess.run([str(dtc), "lint", "mine.yaml"], cwd=work, capture_output=True, text=True)
    assert linted.returncode == 0, linted.stderr
    assert "checked 1 file: 0 errors, 0 warnings" in linted.stderr

    broken = MINIMAL_HERO.lstrip("\n").replace("Deal 4 dmg.", "Deal 4 dmg. Inflict Wond.")
    (work / "bad.yaml").write_text(broken)
    bad = subprocess.run([str(dtc), "lint", "bad.yaml"], cwd=work, capture_output=True, text=True)
    assert bad.returncode == 1 and "error[C002]" in bad.stderr
    assert "Traceback" not in bad.stderr

    board = subprocess.run([str(dtc), "board", "druid", "-o", "druid.html"], cwd=work, capture_output=True,
                           text=True)
    assert board.returncode == 0, board.stderr
    page = (work / "druid.html").read_text()
    assert 'aria-label="Claw"' in page and "<title>Claw</title>" in page  # the shipped icon, drawn
