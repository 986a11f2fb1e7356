"""Issue 23, Tests: the designer views in a real browser. Headless Chromium (Debian's `chromium`,
installed by `.ci/run`) loads a board, a report and the live preview; the tests read the rendered
DOM and keep screenshots in .artifacts/screenshots/ (with --update-golden, also the README's images
in docs/images/). The PDF of `dtc print` is read back with poppler's pdfinfo and pdftotext.

Without Chromium these tests fail, saying how to install it; DTC_NO_BROWSER=1 skips them on a
machine that cannot have one (CI always has it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dtc.views.browser import Browser, BrowserError, find_chromium

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
ARTIFACTS = ROOT / ".artifacts" / "screenshots"
IMAGES = ROOT / "docs" / "images"


def _need(tool: str, package: str) -> None:
    if shutil.which(tool):
        return
    if os.environ.get("DTC_NO_BROWSER"):
        pytest.skip(f"DTC_NO_BROWSER is set and {tool} is missing")
    pytest.fail(f"{tool} is not installed: `apt install {package}` (`.ci/run` does), or set DTC_NO_BROWSER=1 "
                "to skip the browser tests on this machine")


@pytest.fixture(scope="module")
def browser():
    try:
        find_chromium()
    except BrowserError:
        _need("chromium", "chromium")
    with Browser(width=1200, height=900) as b:
        yield b


def dtc(*args, cwd=None, **kw):
    return subprocess.run([sys.executable, "-m", "dtc", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=600, **kw)


def keep(tab, name: str, update: bool) -> Path:
    """A screenshot kept as an artifact (and, with --update-golden, as the README's picture)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"{name}.png"
    tab.screenshot(shot, full_page=False)
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000
    if update:
        IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, IMAGES / f"{name}.png")
    return shot


def test_the_druid_board_in_chromium_has_every_ability_with_its_odds(browser, tmp_path, update_golden):
    """Done when: `dtc board druid -o druid.html` works; "every ability of the Druid present with its
    odds" in the rendered DOM."""
    made = dtc("board", "druid", "-o", tmp_path / "druid.html")
    assert made.returncode == 0, made.stderr
    odds = json.loads(dtc("odds", "druid", "--format", "json").stdout)
    tab = browser.open((tmp_path / "druid.html").as_uri())
    shown = tab.evaluate("""[...document.querySelectorAll('.ability')].map(a => ({
        name: a.dataset.ability,
        odds: [...a.querySelectorAll('.odds')].map(o => [...o.querySelectorAll('b')].map(b => b.textContent)),
        dice: a.querySelectorAll('.die').length}))""")
    names = [a["name"] for a in shown]
    for ability in ("Ferocity", "Wild Realignment", "Nature's Cure", "Maul", "Forest's Call",
                    "Protect the Forest", "Forest's Answer", "Wrath of Nature!", "Thick Hide"):
        assert ability in names
    chances = [cell for a in shown for cell in a["odds"]]
    for row in odds["abilities"]:
        assert [f"{c['chance']:.1%}" for c in row["chances"]] in chances, row["ability"]
    assert len(chances) == len(odds["abilities"])
    # the icons are drawn: an SVG per die, with a size
    width = tab.evaluate("document.querySelector('.die svg').getBoundingClientRect().width")
    assert width > 10
    keep(tab, "board-druid", update_golden)


def test_the_report_in_chromium_has_a_cell_per_pair_with_the_rate_from_the_json(browser, tmp_path,
                                                                                  update_golden):
    """Done when: `dtc simulate --all --games 200 --html report.html` works; "the heatmap has a cell per
    pair with the rate from the JSON"."""
    made = dtc("simulate", "--all", "--games", "200", "--seed", "3", "--jobs", "2", "--format", "json",
               "--html", tmp_path / "report.html")
    assert made.returncode == 0, made.stderr
    data = json.loads(made.stdout)
    tab = browser.open((tmp_path / "report.html").as_uri())
    cells = tab.evaluate("""[...document.querySelectorAll('#heatmap .cell')].map(c => ({
        hero: c.dataset.hero, opponent: c.dataset.opponent,
        text: c.querySelector('text').textContent, hover: c.querySelector('title').textContent,
        width: c.getBoundingClientRect().width}))""")
    assert len(cells) == 16
    by_pair = {(c["hero"], c["opponent"]): c for c in cells}
    for p in data["pairs"]:
        cell = by_pair[(p["hero"], p["opponent"])]
        assert cell["text"] == f"{p['win_rate']:.0%}" and cell["width"] > 20
        low, high = p["win_rate_ci95"]
        assert f"{p['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}, 200 games)" in cell["hover"]
    bars = tab.evaluate("[...document.querySelectorAll('#overall .bar')].map(b => b.dataset.label)")
    assert bars == [h["hero"] for h in data["heroes"]]
    assert tab.evaluate("document.querySelectorAll('#lengths .column').length") > 5
    assert data["ruleset"] in tab.evaluate("document.querySelector('#provenance').textContent")
    assert tab.evaluate("document.querySelectorAll('.odds-chart').length") == 4
    keep(tab, "report", update_golden)


def _pdf_pages(pdf: Path) -> tuple[int, str]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    return pages, f"{round(float(size.group(1)))}x{round(float(size.group(2)))}"


def _page_text(pdf: Path, page: int) -> str:
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("paper, size", [("a4", "595x842"), ("letter", "612x792")])
def test_dtc_print_makes_a_pdf_of_real_size_cards_nine_to_a_sheet(browser, tmp_path, paper, size):
    """Done when: `dtc print --hero druid -o druid.pdf`; Tests: "page count and size, one card per slot,
    text extractable (pdftotext)"."""
    _need("pdftotext", "poppler-utils")
    made = dtc("print", "--hero", "druid", "--paper", paper, "-o", tmp_path / "druid.pdf")
    assert made.returncode == 0, made.stderr
    pages, got = _pdf_pages(tmp_path / "druid.pdf")
    assert (pages, got) == (5, size)  # the board, then 33 cards on 4 sheets
    board = _page_text(tmp_path / "druid.pdf", 1)
    assert "Druid" in board and "Ferocity" in board and "Wrath of Nature!" in board
    assert " MP " not in _page_text(tmp_path / "druid.pdf", 4)  # the timing icons are drawn, not initials
    from dtc.views.content import read

    found = read([CONTENT])
    hero = next(h for h in found.heroes if h.name == "Druid")
    shared = [c for cs in found.result.content.card_sets if cs.every_hero for c in cs.cards]
    names = [c.name for c in hero.cards + shared for _ in range(c.copies)]
    for sheet in range(4):
        text = _page_text(tmp_path / "druid.pdf", sheet + 2)
        lines = text.splitlines()
        on_sheet = names[sheet * 9:sheet * 9 + 9]
        for row in range(0, len(on_sheet), 3):  # three cards side by side: their names on one line
            three = on_sheet[row:row + 3]
            line = next((ln for ln in lines if all(n in ln for n in three)), None)
            assert line is not None, (sheet, three)
            at = [line.index(n) for n in three]
            assert at == sorted(at)
        if sheet == 0:  # the upgrades: their symbols extract as their names, the timing as its name
            assert "[Claw]" in text and "[Paw]" in text


def test_dtc_serve_shows_a_diagnostic_within_2_s_and_drops_it_when_fixed(browser, tmp_path, update_golden):
    """Done when: `dtc serve content/` works; Tests: "the preview shows a diagnostic within 2 s of a file
    being broken and drops it when fixed"; Ctrl-C stops it cleanly."""
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    server = subprocess.Popen([sys.executable, "-m", "dtc", "serve", "content"], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        index = browser.open(url)
        heroes = index.evaluate("[...document.querySelectorAll('.index a')].map(a => a.textContent)")
        assert heroes == ["Druid", "Duelist", "Forgemaster", "Sun Elf"]
        tab = browser.open(url + "hero/druid")
        assert tab.evaluate("document.querySelectorAll('.diagnostic.error').length") == 0
        hero = folder / "heroes" / "druid.yaml"
        good = hero.read_text()
        time.sleep(0.3)  # a file's mtime is coarse on some file systems
        hero.write_text(good.replace("Deal 4 dmg.", "Deal 4 dmgz.", 1))
        took = tab.wait_for("document.querySelector('#e-offensive-0 .diagnostic.error')", timeout=2)
        said = tab.evaluate("document.querySelector('#e-offensive-0 .diagnostic.error').textContent")
        lint = dtc("lint", "content", cwd=tmp_path)
        assert said.startswith("content/heroes/druid.yaml:81:28: error[P001]")
        assert said.strip() in lint.stderr  # the same text as `dtc lint`
        keep(tab, "serve-diagnostic", update_golden)
        hero.write_text(good)
        gone = tab.wait_for("!document.querySelector('.diagnostic.error') "
                            "&& document.querySelector('#e-offensive-0')", timeout=2)
        assert took < 2 and gone < 2
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=10)
        assert server.returncode == 0 and "stopped" in out and "Traceback" not in err
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_the_valeria_sheet_renders_in_chromium(browser, tmp_path):
    assert dtc("valeria", "sheet", "-o", tmp_path / "sheet.html").returncode == 0
    tab = browser.open((tmp_path / "sheet.html").as_uri())
    assert tab.evaluate("document.querySelectorAll('.citizen').length") == 10
    assert tab.evaluate("document.querySelector('.pip').getBoundingClientRect().width") >= 18
