"""Issue 43, "Diagnostics that lead to the fix": `dtc show` and `dtc explain` work while other files
of the content have errors (only the hero, Minion or Boss asked about must be clean, and even then
`explain` shows how far it read), and `show`, `explain`, `odds` and `board` take a Minion or a Boss
as well as a hero."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from conftest import ROOT

from dtc.cli.main import cli

CONTENT = ROOT / "content"
DISARM = "    effect: Inflict Disarm on a chosen opponent.\n"  # a card of the Duelist's own
FLUTTER = "        effect: Deal 2 dmg.\n"  # the Fairy's (the first Minion's) second ability


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def broken_copy(tmp_path, relative: str, old: str, new: str) -> tuple:
    """The built-in content copied to tmp_path with one error put in one file: (the folder, the
    error's line in that file)."""
    folder = tmp_path / "content"
    shutil.copytree(CONTENT, folder)
    path = folder / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder, text[:text.index(old)].count("\n") + 1


@pytest.fixture
def duelist_broken(tmp_path):
    """The content, the Duelist's file with an unknown status in one card."""
    return broken_copy(tmp_path, "heroes/duelist.yaml", DISARM, DISARM.replace("Disarm", "Disarmm"))


# ------------------------------------------------------------ another file broken


def test_show_of_a_clean_hero_works_while_another_hero_file_is_broken(duelist_broken):
    folder, _ = duelist_broken
    assert run("lint", folder).exit_code == 1  # the content does have an error
    shown = run("show", "druid", "--ruleset", folder)
    assert shown.exit_code == 0, shown.output
    assert "Ferocity" in shown.stdout and "Disarmm" not in shown.output


def test_show_of_the_broken_hero_is_refused_with_its_diagnostic(duelist_broken):
    folder, line = duelist_broken
    refused = run("show", "duelist", "--ruleset", folder)
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert f"heroes/duelist.yaml:{line}:21: error[C002]: unknown status effect `Disarmm`" in refused.stderr
    assert refused.stderr.splitlines()[-1] == "error: Duelist has 1 error(s); fix them to show it"
    assert refused.stdout == ""


def test_explain_compiles_and_runs_text_for_a_clean_hero_while_another_is_broken(duelist_broken):
    folder, _ = duelist_broken
    explained = run("explain", "--hero", "druid", "--ruleset", folder, "Deal 2 dmg.")
    assert explained.exit_code == 0, explained.output
    assert "bytecode:" in explained.stdout and "incoming dmg: player 2: 2" in explained.stdout
    assert "plays Duelist" not in explained.stdout  # the broken hero is left out of the sample game


def test_explain_of_the_broken_hero_shows_how_far_it_read(duelist_broken):
    folder, line = duelist_broken
    explained = run("explain", "--hero", "duelist", "--ruleset", folder, "Gain 1 CP.")
    assert explained.exit_code == 1 and "Traceback" not in explained.output
    assert "GAIN 'Gain'  NUMBER '1'  CP 'CP'  DOT '.'" in explained.stdout
    assert "GainCP(amount=Number(value=1))" in explained.stdout and "bytecode:" not in explained.stdout
    assert f"heroes/duelist.yaml:{line}:21: error[C002]" in explained.stderr
    assert explained.stderr.splitlines()[-1].startswith(
        "error: Duelist has 1 error(s): the text is read above, but compiled and run only once")


def test_explain_of_broken_text_for_a_broken_hero_reads_up_to_the_error(duelist_broken):
    folder, _ = duelist_broken
    explained = run("explain", "--hero", "duelist", "--ruleset", folder, "Deal 3 dmgz.")
    assert explained.exit_code == 1
    assert "DEAL 'Deal'  NUMBER '3'  WORD 'dmgz'" in explained.stdout
    assert "<explain>:1:12: error[P001]" in explained.stderr and "`Disarmm`" in explained.stderr


def test_a_clean_hero_board_has_its_odds_while_another_hero_is_broken(duelist_broken, tmp_path):
    folder, _ = duelist_broken
    page = tmp_path / "druid.html"
    written = run("board", "druid", "--ruleset", folder, "-o", page)
    assert written.exit_code == 0
    assert written.stdout.strip() == f"wrote {page}: Druid's board"  # no "(no odds: ...)"
    assert 'class="odds"' in page.read_text() and 'id="no-odds"' not in page.read_text()


def test_a_broken_shared_card_does_not_stop_explain(tmp_path):
    folder, _ = broken_copy(tmp_path, "cards/common.yaml", "effect: Heal 3.", "effect: Heal 3 zz.")
    explained = run("explain", "--hero", "druid", "--ruleset", folder, "Gain 1 CP.")
    assert explained.exit_code == 0, explained.output
    assert "player 1: health 50, CP 3" in explained.stdout
    shown = run("show", "druid", "--ruleset", folder)  # the card is shown as not checking
    assert shown.exit_code == 0 and "Heal 3 zz. [does not check: `dtc lint` says why]" in shown.stdout


def test_a_broken_minion_does_not_stop_another_minion_of_its_set(tmp_path):
    folder, line = broken_copy(tmp_path, "adventures/minions.yaml", FLUTTER,
                               FLUTTER.replace("dmg.", "dmgq."))
    shown = run("show", "sand-rat", "--ruleset", folder)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("Sand Rat  (Minion, level 1)")
    explained = run("explain", "--hero", "sand rat", "--ruleset", folder, "Inflict Bleed.")
    assert explained.exit_code == 0, explained.output
    assert "player 2: health 50, CP 2, statuses: 1 Bleed" in explained.stdout
    refused = run("show", "fairy", "--ruleset", folder)
    assert refused.exit_code == 1
    assert f"adventures/minions.yaml:{line}:28: error[P001]" in refused.stderr
    assert refused.stderr.count("error[") == 1  # its own error, not another Minion's
    assert refused.stderr.splitlines()[-1] == "error: Fairy has 1 error(s); fix them to show it"


def test_an_error_in_what_the_player_needs_is_named_as_such(tmp_path):
    """A shared status effect with an error (Bleed, which the Sand Rat inflicts): the Sand Rat's text
    is read but not run, the error is named where it is; a hero that needs no Bleed runs."""
    folder, line = broken_copy(tmp_path, "statuses/adventures.yaml", "they are dealt 1 damage.",
                               "they are dealt 1 damagez.")
    explained = run("explain", "--hero", "sand-rat", "--ruleset", folder, "Gain 1 CP.")
    assert explained.exit_code == 1
    assert "GAIN 'Gain'" in explained.stdout and "bytecode:" not in explained.stdout
    assert f"statuses/adventures.yaml:{line}:19: error[P001]" in explained.stderr
    assert "error: what every hero, Minion and Boss needs (rules, status effects, phrasebook) has 1 " \
        "error(s)" in explained.stderr
    druid = run("explain", "--hero", "druid", "--ruleset", folder, "Gain 1 CP.")
    assert druid.exit_code == 0 and "bytecode:" in druid.stdout


# ------------------------------------------------------------ Minions and Bosses


def test_show_a_minion_with_its_card_callouts():
    shown = run("show", "Sand Rat")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0] == "Sand Rat  (Minion, level 1)"
    assert "Health 7 · CP 2 · King's Hand 0 · First Strike · reward 1 Gold" in lines
    assert "Roll Objective: 3-of-a-kind" in lines and "  Gnaw" in lines
    assert not any(line.startswith("Deck") for line in lines)  # a Minion draws no cards
    view = json.loads(run("show", "sand-rat", "--format", "json").stdout)
    assert view["kind"] == "Minion" and view["minion"]["health"] == 7 and view["shared_cards"] == []


def test_show_a_boss_with_its_setup_and_action_cards():
    shown = run("show", "mad king")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("Mad King  (Boss, scenario 8)")
    assert "  1: Health 81, CP 2, Upgrade CP 5, King's Hand 1; each hero's Health 30" in shown.stdout
    assert "Mad War Cry — 0 CP — main action: Gain 2 CP. (Roll Objective 3-of-a-kind; Hero Bonus: " \
        "Draw 1 card.)" in shown.stdout
    assert "Second Wind" not in shown.stdout  # the cards every hero has are not a Boss's


@pytest.mark.parametrize("player, text, says", [
    ("Sand Rat", "Gain 1 CP. Inflict Bleed.", "player 2: health 50, CP 2, statuses: 1 Bleed"),
    ("Mad King", "Deal 3 dmg.", "incoming dmg: player 2: 3")])
def test_explain_runs_text_as_a_minions_or_a_bosses(player, text, says):
    explained = run("explain", "--hero", player, text)
    assert explained.exit_code == 0, explained.output
    assert f"sample state: player 1 plays {player}, player 2 plays Druid" in explained.stdout
    assert says in explained.stdout


def test_odds_of_a_minion_include_its_roll_objective():
    shown = run("odds", "Sand Rat")
    assert shown.exit_code == 0, shown.output
    rows = {line.split()[0]: line.split()[-3:] for line in shown.stdout.splitlines()[2:6]}
    assert rows["Gnaw"] == ["21.3%", "54.1%", "74.3%"]
    assert rows["Roll"] == rows["Gnaw"]  # both are 3-of-a-kind
    data = json.loads(run("odds", "sand-rat", "--format", "json").stdout)
    assert data["objective"]["requirement"] == "3-of-a-kind"


def test_odds_of_a_boss():
    shown = run("odds", "mad-king")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("Mad King: 5 dice of 6 faces")
    assert "Royal Decree" in shown.stdout and "Iron Throne (defensive, 2 dice)" in shown.stdout


def test_a_minion_board_shows_its_card_and_no_deck(tmp_path):
    page = tmp_path / "rat.html"
    written = run("board", "Sand Rat", "-o", page)
    assert written.exit_code == 0 and written.stdout.strip() == f"wrote {page}: Sand Rat's board"
    html = page.read_text()
    assert "<title>Sand Rat — Minion board</title>" in html and "<h2>Minion card</h2>" in html
    assert 'data-odds="Roll Objective"' in html and 'data-ability="Gnaw"' in html
    assert 'id="deck"' not in html


def test_a_boss_board_shows_its_setup_action_cards_and_own_deck(tmp_path):
    page = tmp_path / "king.html"
    assert run("board", "mad king", "-o", page).exit_code == 0
    html = page.read_text()
    assert "<h2>Boss setup</h2>" in html and "<td>Mad War Cry</td>" in html
    assert 'data-ability="Royal Decree"' in html and 'class="odds"' in html
    assert 'id="deck"' in html and "Cards every hero has" not in html


@pytest.mark.parametrize("command", [["show", "sand ratt"], ["explain", "--hero", "sand ratt", "Gain 1 CP."],
                                     ["odds", "sand ratt"], ["board", "sand ratt", "-o", "x.html"]])
def test_an_unknown_name_suggests_the_nearest_and_names_minions_and_bosses(command, tmp_path,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused = run(*command)
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    message = refused.stderr.splitlines()[-1]
    assert "no hero, Minion or Boss `sand ratt`; did you mean `Sand Rat`?" in message
    assert "heroes here: Druid, Duelist" in message and "Bosses: Ash Queen" in message
    assert not (tmp_path / "x.html").exists()


def test_the_hero_option_says_it_takes_a_minion_or_a_boss():
    assert "The hero, Minion or Boss" in run("explain", "--help").stdout
