"""Issue 23, the designer views without a browser: the board, the icons, the print sheets, the
balance report, the Valeria sheet and the live preview's pages, read from the HTML they write.
(tests/test_browser.py loads the same pages in headless Chromium.)"""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc import odds, project
from dtc.cli.main import cli
from dtc.views import printing
from dtc.views.content import hero_odds, read, render_board
from dtc.views.report import ReportError, check_results, matchup_cells, report_html, start_player

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


class Elements(HTMLParser):
    """Every start tag's attributes, and the text, of a page."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def having(self, attribute: str) -> list[dict]:
        return [a for _, a in self.tags if attribute in a]


@pytest.fixture(scope="module")
def built():
    return read([CONTENT])


@pytest.fixture
def designer(tmp_path, monkeypatch):
    """A designer's own folder: the Druid alone."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "heroes").mkdir()
    shutil.copy(CONTENT / "heroes" / "druid.yaml", tmp_path / "heroes" / "druid.yaml")
    return tmp_path


def druid(found):
    return next(h for h in found.heroes if h.name == "Druid")


# ------------------------------------------------------------------ board


def test_the_druid_board_shows_every_ability_with_its_exact_odds(built):
    """Issue 23, Deliver 1: each ability with its requirement drawn as dice and its 1/2/3-attempt odds
    beside it, the numbers `dtc odds` gives (002 is Valeria; the odds: tests/test_odds.py)."""
    hero = druid(built)
    html, errors = render_board(built, hero)
    assert errors == []
    page = Elements(html)
    shown = [a["data-ability"] for a in page.having("data-ability")]
    assert shown == [a.name for kind in ("offensive", "ultimate", "defensive", "passive")
                     for a in hero.abilities if a.kind == kind]
    report = hero_odds(built.compiled, hero)
    odds_text = re.findall(r'data-odds="([^"]+)">(.*?)</div>', html)
    assert len(odds_text) == len(report["abilities"]) == 10
    for row in report["abilities"]:
        wanted = " · ".join(f"{float(c):.1%}" for c in row["chances"])
        cells = [re.findall(r"<b>([\d.]+%)</b>", cell) for _, cell in odds_text]
        assert wanted.split(" · ") in cells, row["ability"]
    # Ferocity's three tiers: 3, 4 and 5 Claw dice drawn
    ferocity = html[html.index('data-ability="Ferocity"'):html.index('data-ability="Wild Realignment"')]
    assert [t.count('class="die"') for t in ferocity.split('class="tier"')[1:]] == [3, 4, 5]
    assert "50.0%" in ferocity and "89.6%" in ferocity and "98.4%" in ferocity  # `dtc odds druid`


def test_the_board_shows_the_dice_key_statuses_components_and_the_deck_as_printed(built):
    hero = druid(built)
    page = Elements(render_board(built, hero)[0])
    faces = {a["data-face"] for a in page.having("data-face")}
    assert faces == {str(v) for v in hero.faces}
    assert [a["data-status"] for a in page.having("data-status")] == [s.name for s in hero.statuses]
    assert [a["data-component"] for a in page.having("data-component")] == [c.name for c in hero.components]
    shared = [c for cs in built.result.content.card_sets if cs.every_hero for c in cs.cards]
    assert [a["data-card"] for a in page.having("data-card")] == [c.name for c in hero.cards + shared]
    text = "".join(page.text)
    assert f"Deck ({sum(c.copies for c in hero.cards + shared)} cards)" in text
    # printed text: `[Paw]` is an icon, its name kept for reading and copying
    symbols = {a["data-symbol"] for a in page.having("data-symbol")}
    assert {"Claw", "Paw", "Leaf"} <= symbols
    assert "Stack Limit" not in text or "stack limit" in text.lower()


def test_a_hero_with_lint_errors_gets_an_error_page_naming_them(designer):
    """Issue 23, Tests: "a hero with lint errors renders an error page naming them, never a traceback"."""
    path = designer / "heroes" / "druid.yaml"
    path.write_text(path.read_text().replace("Deal 4 dmg.", "Deal 4 dmgz.", 1))
    result = run("board", "druid", "--content", ".", "-o", "druid.html")
    assert result.exit_code == 1
    assert "error[P001]" in result.output and "Traceback" not in result.output
    page = (designer / "druid.html").read_text()
    assert "error[P001]" in page and "heroes/druid.yaml:81:" in page and 'class="ability"' not in page


def test_dtc_board_writes_the_page_and_refuses_an_unknown_hero(designer):
    good = run("board", "druid", "--content", ".", "-o", "out/druid.html")
    assert good.exit_code == 0 and "wrote out/druid.html" in good.output
    assert (designer / "out" / "druid.html").read_text().startswith("<!DOCTYPE html>")
    unknown = run("board", "drood", "--content", ".", "-o", "x.html")
    assert unknown.exit_code == 2 and "did you mean `Druid`" in unknown.output
    assert not (designer / "x.html").exists()
    missing = run("board", "druid", "--content", "nowhere", "-o", "x.html")
    assert missing.exit_code == 2 and "no such file or folder" in missing.output
    # every command that reads content names it with --ruleset (README), the views too
    named = run("board", "druid", "--ruleset", ".", "-o", "named.html")
    assert named.exit_code == 0 and (designer / "named.html").read_text() == (
        designer / "out" / "druid.html").read_text()


def test_a_page_never_loads_anything_from_the_network(built):
    """Issue 23, Why: "Nothing here should need the network at view time"."""
    html = render_board(built, druid(built))[0]
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "@import" not in html and "url(http" not in html


# ------------------------------------------------------------------ icons


def test_a_hero_names_its_own_icon_files_and_lint_checks_them(designer):
    """Issue 23, Deliver 5: "a hero's YAML may name its own icon file per symbol (SVG or PNG, path
    relative to the file; checked by lint)"; "a missing icon file is a lint error"."""
    path = designer / "heroes" / "druid.yaml"
    text = path.read_text()
    faces = "  faces: {1: Claw, 2: Claw, 3: Claw, 4: Paw, 5: Paw, 6: Leaf}\n"
    assert faces in text
    (designer / "heroes" / "art").mkdir()
    (designer / "heroes" / "art" / "claw.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>')
    (designer / "heroes" / "art" / "paw.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    path.write_text(text.replace(faces, faces + "  icons: {Claw: art/claw.svg, Paw: art/paw.png}\n"))
    found = read([Path(".")])
    assert [d for d in found.result.errors] == []
    html = render_board(found, druid(found))[0]
    assert 'src="data:image/svg+xml;base64,' in html and 'src="data:image/png;base64,' in html

    path.write_text(text.replace(faces, faces + "  icons: {Claw: art/gone.svg, Pawz: art/paw.png, "
                                                "Leaf: art/claw.txt}\n"))
    (designer / "heroes" / "art" / "claw.txt").write_text("not an icon")
    result = run("lint", ".")
    assert result.exit_code == 1
    assert "error[C039]: the icon file 'art/gone.svg' for [Claw]: no such file" in result.output
    assert "an icon for 'Pawz', which is not a symbol of Druid's dice" in result.output
    assert "did you mean 'Paw'?" in result.output
    assert "for [Leaf]: an icon is an SVG or PNG file, not .txt" in result.output


def test_a_symbol_without_an_icon_gets_its_initials_and_the_default_set_covers_the_built_in_dice(built):
    from dtc.views.icons import DEFAULT_DIR, Icons, icon_file_name

    for hero in built.heroes:
        for symbol in hero.symbols:
            assert (DEFAULT_DIR / icon_file_name(symbol)).is_file(), symbol
    for timing in ("Main Phase", "Roll Phase", "Instant"):  # a card's timing symbol
        assert (DEFAULT_DIR / icon_file_name(timing)).is_file(), timing
    drawn = Icons().html("Moon Beam")
    assert "<text" in drawn and ">MB</text>" in drawn and 'aria-label="Moon Beam"' in drawn


# ------------------------------------------------------------------ print


def test_the_print_sheets_hold_nine_cards_each_at_real_size_with_cut_marks(built):
    """Issue 23, Deliver 2: 63 x 88 mm cards, 9 per A4 or Letter sheet, cut marks, the board on a sheet
    of its own."""
    hero = druid(built)
    faces = printing.deck_faces(hero, built.result.content)
    shared = [c for cs in built.result.content.card_sets if cs.every_hero for c in cs.cards]
    assert len(faces) == sum(c.copies for c in hero.cards + shared) == 33
    for paper in printing.PAPERS.values():
        html = printing.print_html([(hero, None)], built.result.content, paper)
        sheets = re.findall(r'<section class="sheet ([a-z-]+)"', html)
        assert sheets == ["board-sheet"] + ["card-sheet"] * 4
        slots = [len(re.findall(r'data-slot="', s)) for s in html.split('<section class="sheet')[2:]]
        assert slots == [9, 9, 9, 6]
        assert f"size: {paper.width}mm {paper.height}mm" in html
        assert html.count('class="mark"') == 4 * 16  # every column and row edge, both sides
        left = (paper.width - 3 * 63) / 2
        assert f"left:{left}mm" in html and "repeat(3,63.0mm)" in html and "repeat(3,88.0mm)" in html


def test_dtc_print_refuses_a_broken_hero_and_writes_html_without_a_browser(designer):
    out = run("print", "--content", ".", "--html", "-o", "cards.html")
    own = sum(c.copies for c in druid(read([Path(".")])).cards)  # no shared cards in this folder
    assert out.exit_code == 0 and (designer / "cards.html").read_text().count('data-slot="') == own == 17
    path = designer / "heroes" / "druid.yaml"
    path.write_text(path.read_text().replace("Deal 4 dmg.", "Deal 4 dmgz.", 1))
    broken = run("print", "--content", ".", "-o", "cards.pdf")
    assert broken.exit_code == 1 and "error[P001]" in broken.output and "fix them to print" in broken.output
    assert not (designer / "cards.pdf").exists()


def test_dtc_print_without_a_browser_says_how_to_get_one(designer, monkeypatch):
    monkeypatch.setenv("PATH", str(designer))  # no chromium here
    out = run("print", "--content", ".", "-o", "cards.pdf")
    assert out.exit_code == 2 and "needs Chromium or Chrome" in out.output and "--html" in out.output
    assert not (designer / "cards.pdf").exists()


# ------------------------------------------------------------------ report


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    out = run("simulate", "--all", "--games", "12", "--seed", "5", "--format", "json")
    assert out.exit_code == 0
    (folder / "results.json").write_text(out.output)
    return folder, json.loads(out.output)


def test_the_report_has_a_heatmap_cell_per_pair_with_the_rate_from_the_json(results):
    """Issue 23, Deliver 3 and Tests: "the heatmap has a cell per pair with the rate from the JSON"."""
    folder, data = results
    html = report_html(data, None)
    cells = {(c["data-hero"], c["data-opponent"]): float(c["data-rate"])
             for c in Elements(html).having("data-opponent")}
    names = [h["hero"] for h in data["heroes"]]
    assert len(cells) == len(names) ** 2
    for p in data["pairs"]:
        assert cells[(p["hero"], p["opponent"])] == pytest.approx(p["win_rate"])
        assert cells[(p["opponent"], p["hero"])] == pytest.approx(
            p["win_rate"] if p["hero"] == p["opponent"] else p["opponent_win_rate"])
        low, high = p["win_rate_ci95"]
        hover = f"{p['hero']} vs {p['opponent']}: {p['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}"
        assert hover in html
    assert data["ruleset"] in html and "seed 5" in html and "bots: heuristic" in html


def test_game_lengths_count_every_game_that_ended(results):
    _, data = results
    for p in data["pairs"]:
        ended = round(p["games"] * (1 - p["unfinished_rate"]))
        assert sum(p["game_lengths"].values()) == ended
        total = sum(int(t) * g for t, g in p["game_lengths"].items())
        assert total / ended == pytest.approx(p["average_turns"], abs=0.01)


def test_the_start_player_rate_is_over_every_decisive_game(results):
    _, data = results
    rate, low, high, games = start_player(data["pairs"])
    decisive = sum(round(p["games"] * (1 - p["draw_rate"] - p["unfinished_rate"])) for p in data["pairs"])
    assert games == decisive and low <= rate <= high


def test_dtc_report_equals_simulate_html_for_the_same_games(results):
    """`dtc report results.json` and `dtc simulate --html` write the same page for the same games."""
    folder, _ = results
    assert run("report", folder / "results.json", "-o", folder / "a.html").exit_code == 0
    direct = run("simulate", "--all", "--games", "12", "--seed", "5", "--html", folder / "b.html")
    assert direct.exit_code == 0 and "wrote" in direct.output
    a, b = (folder / "a.html").read_text(), (folder / "b.html").read_text()
    assert a == b and a.count('class="odds-chart"') == 4


def test_a_report_of_another_ruleset_says_the_odds_are_not_shown(results, designer):
    folder, _ = results
    out = run("report", folder / "results.json", "-o", "r.html", "--ruleset", ".")
    assert out.exit_code == 0 and "is not the one these games were played with" in out.output
    assert 'id="no-odds"' in (designer / "r.html").read_text()


@pytest.mark.parametrize("text, says", [
    ("{", "not JSON"),
    ("[]", "not a JSON object"),
    ('{"pairs": []}', "no 'seed'"),
    ('{"tables": [], "seed": 1}', "--mode simulation"),
    ('{"pairs": [], "seed": 1, "ruleset": "x", "games_per_pair": 1}', "'pairs' is empty"),
    ('{"pairs": [{"hero": "A"}], "seed": 1, "ruleset": "x", "games_per_pair": 1}',
     "pairs[0] has no 'opponent'"),
    ('{"pairs": [{"hero": "A", "opponent": "B", "games": 3, "win_rate": 2, "win_rate_ci95": [0, 1], '
     '"opponent_win_rate": 0, "opponent_win_rate_ci95": [0, 1]}], "seed": 1, "ruleset": "x", '
     '"games_per_pair": 1}', "pairs[0].win_rate is not a rate"),
    ("[" * 100000, "not JSON"),
])
def test_a_file_that_is_not_simulate_json_is_refused_in_one_line(tmp_path, text, says):
    (tmp_path / "r.json").write_text(text)
    out = run("report", tmp_path / "r.json", "-o", tmp_path / "r.html")
    assert out.exit_code == 2 and says in out.output and "Traceback" not in out.output
    assert not (tmp_path / "r.html").exists()
    with pytest.raises((ReportError, ValueError, RecursionError)):
        check_results(json.loads(text))


@pytest.mark.parametrize("lengths", [{"\u00b2": 1}, {"9" * 5000: 1}, {"99999999": 5}, {"0": 1},
                                     {"401": 1}, {"12": True}, {"12": -1}])
def test_game_lengths_no_game_can_have_are_refused_in_one_line(results, tmp_path, lengths):
    """A superscript `²` passed `isdigit` and then int() raised (exit 3); 5,000 nines passed Python's
    digit limit; a game of 99,999,999 turns drew its histogram for ever. A game length is a whole
    number of turns a game can last (the engine stops at MAX_TURNS)."""
    _, data = results
    edited = json.loads(json.dumps(data))
    edited["pairs"][0]["game_lengths"] = lengths
    (tmp_path / "r.json").write_text(json.dumps(edited))
    out = run("report", tmp_path / "r.json", "-o", tmp_path / "r.html")
    assert out.exit_code == 2 and "pairs[0].game_lengths is not turns -> games" in out.output
    assert "internal error" not in out.output and not (tmp_path / "r.html").exists()


def test_a_mirror_pair_is_one_cell_and_another_pair_fills_both(results):
    _, data = results
    names, cells = matchup_cells(data["pairs"])
    assert len(names) == 4 and len(cells) == 16


# ------------------------------------------------------------------ Valeria sheet


def test_the_valeria_sheet_shows_every_section_and_reward_pip(tmp_path):
    """Issue 23, Deliver 1: "Kingdoms of Valeria: `dtc valeria sheet` renders the player sheet"."""
    out = run("valeria", "sheet", "-o", tmp_path / "sheet.html")
    assert out.exit_code == 0
    sheet = next(s for s in project.builtin().content.valeria.sheets if s.name == "Castle and Forest")
    page = Elements((tmp_path / "sheet.html").read_text())
    assert [a["data-citizen"] for a in page.having("data-citizen")] == [c.label for c in sheet.citizens]
    assert [a["data-track"] for a in page.having("data-track")] == list(sheet.tracks)
    assert [a["data-domain"] for a in page.having("data-domain")] == [d.name for d in sheet.domains]
    assert [a["data-lair"] for a in page.having("data-lair")] == [lair.name for lair in sheet.lairs]
    rewards = [p for c in sheet.citizens for p in c.pips] + [p for t in sheet.tracks.values() for p in t]
    rewards += sheet.gold + sheet.wall + [p for r in sheet.roads for p in r.pips]
    rewards += [p for lair in sheet.lairs for b in lair.blocks for p in b.pips]
    drawn = [a["data-reward"] for a in page.having("data-reward")]
    rules = project.builtin().content.valeria.the_rules
    assert len(drawn) == sum(1 for p in rewards if p is not None) + len(rules.rewards)  # + the legend
    assert run("valeria", "sheet", "Nope", "-o", tmp_path / "x.html").exit_code == 2


# ------------------------------------------------------------------ serve (pages, no browser)


def test_the_preview_puts_each_diagnostic_at_its_entry_and_follows_the_files(designer):
    from dtc.views.serve import Preview, make_server

    preview = Preview([Path(".")])
    assert preview.snapshot.version == 1 and not preview.refresh()
    assert 'href="/hero/druid"' in preview.index()
    status, page = preview.hero_page("druid")
    assert status == 200 and "diagnostic error" not in page
    path = designer / "heroes" / "druid.yaml"
    good = path.read_text()
    path.write_text(good.replace("Deal 4 dmg.", "Deal 4 dmgz.", 1))
    assert preview.refresh() and preview.snapshot.version == 2
    status, page = preview.hero_page("druid")
    lint = run("lint", ".").output
    said = lint[:lint.index("checked")].strip()
    assert said.startswith("heroes/druid.yaml:81:")
    panel = page[page.index('id="e-offensive-0"'):]
    panel = panel[:panel.index('id="e-offensive-1"')]
    from html import escape

    assert escape(said) in panel  # the same text as `dtc lint`, in Ferocity's panel
    path.write_text("hero: [")
    assert preview.refresh()
    status, page = preview.hero_page("druid")
    assert status == 200 and "does not make a hero" in page and "error[Y003]" in page
    assert preview.hero_page("nobody")[0] == 404
    server = make_server(preview, 0)
    try:
        assert server.server_address[0] == "127.0.0.1"  # never on another interface
    finally:
        server.server_close()


def test_the_odds_of_a_board_are_those_of_dtc_odds(built):
    hero = druid(built)
    index = next(i for i, h in enumerate(built.compiled.heroes) if h["name"] == "Druid")
    assert hero_odds(built.compiled, hero) == odds.hero_report(built.compiled, index, 3)
