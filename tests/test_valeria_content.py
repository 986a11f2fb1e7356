"""Kingdoms of Valeria as content: the effect language, the sheets, `dtc lint` on them."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner
from conftest import ROOT

from dtc import project
from dtc.cli.main import cli
from dtc.valeria import language as lang

VALERIA = ROOT / "content" / "valeria"


def lint(*paths):
    return CliRunner().invoke(cli, ["lint", *map(str, paths)], catch_exceptions=False)


@pytest.mark.parametrize("text, expected", [
    ("Mark a Citizen of your choice.", [{"statement": "Mark", "count": 1, "target": "citizen_choice"}]),
    ("Immediately mark 1 Worker Citizen.",
     [{"statement": "Mark", "count": 1, "target": "guild_citizen", "name": "Worker"}]),
    ("Mark 2 Road pips.", [{"statement": "Mark", "count": 2, "target": "road"}]),
    ("Mark a Lair pip of your choice.", [{"statement": "Mark", "count": 1, "target": "lair_choice"}]),
    ("Take a Statue.", [{"statement": "TakeStatue"}]),
    ("Gain 1 VP for every 3 Gold pips.", [{"statement": "Score", "vp": 1, "per": 3, "what": "gold_pips"}]),
    ("Gain 2 VPs for every Soldier Citizen pip.",
     [{"statement": "Score", "vp": 2, "per": 1, "what": "citizen_pips", "name": "Soldier"}]),
    ("Gain 3 VPs for every Star pip on the Wall.",
     [{"statement": "Score", "vp": 3, "per": 1, "what": "wall_stars"}]),
    ("Immediately perform 3 Gold Rewards. Count this card as 3 Star pips.",
     [{"statement": "Perform", "count": 3, "reward": "Gold"}, {"statement": "CountStars", "count": 3}]),
    ("You may add 1 or subtract 1 to any 1 colored die.", [{"statement": "Adjust", "up": 1, "down": 1}]),
    ("You may flip the Green die to its opposite side.", [{"statement": "Flip", "die": "Green"}]),
    ("Void the 9/10 Citizen.", [{"statement": "Void", "kind": "citizen", "name": "9/10"}]),
    ("Void the Dragon's Den Lair.", [{"statement": "Void", "kind": "lair", "name": "Dragon's Den"}]),
])
def test_sentences_read_like_the_sheet(text, expected):
    statements, problems = lang.parse(text)
    assert problems == [] and lang.to_json(statements) == expected


@pytest.mark.parametrize("text, code, fragment", [
    ("Mark a Gold pip", "P002", "ends too early"),
    ("Mark a Goldd pip.", "P001", "unexpected word `Goldd`"),
    ("Take a Statue; now.", "P004", "unexpected character `;`"),
    ("", "P002", "empty"),
])
def test_bad_sentences_are_problems_not_crashes(text, code, fragment):
    statements, problems = lang.parse(text)
    assert statements is None and problems[0].code == code and fragment in problems[0].message


def test_the_built_in_valeria_content_is_clean():
    result = project.run([VALERIA])
    assert result.errors == [] and result.warnings == []
    valeria = result.content.valeria
    assert [s.name for s in valeria.sheets] == ["Castle and Forest", "Winter"]
    standard = valeria.sheets[0]
    # the rulebook's facts ("Citizens Tableau", "Game Setup", "Guild Tracks", "Roads and Domains")
    by_label = {c.label: c for c in standard.citizens}
    assert [c.label for c in standard.citizens] == ["1", "2", "3", "4", "5", "6", "7", "8", "9/10", "11/12"]
    assert (by_label["3"].guild, by_label["4"].guild, by_label["5"].guild, by_label["6"].guild) == \
        ("Shadow", "Soldier", "Worker", "Soldier")
    assert [c.label for c in standard.citizens if c.start] == ["5", "6"]
    assert all(len(c.pips) == 2 for c in standard.citizens)
    assert sorted(standard.tracks) == ["Holy", "Shadow", "Soldier", "Worker"]
    assert all(len(t) == 24 for t in standard.tracks.values())
    assert len(standard.starts) == 4 and len(standard.domains) == 13
    assert sum(r.bridge is not None for r in standard.roads) == 6
    assert all(r.pips[r.bridge + 1] == "Gold" for r in standard.roads if r.bridge is not None)
    assert len(standard.lairs) == 4 and all(len(lair.blocks) >= 2 for lair in standard.lairs)
    assert "Plinth" in standard.gold
    winter = valeria.sheets[1]
    assert [lair.access for lair in winter.lairs][0] == "start" and winter.lairs[0].vp == (5, 3)
    assert all(len(lair.blocks) == 2 for lair in winter.lairs)
    statues = valeria.statues[0]
    assert [s.number for s in statues.cards] == list(range(1, 15)) and statues.copies == ["Day", "Night"]
    assert [s.number for s in statues.cards if s.instant] == [12, 13, 14]


def test_a_sheet_on_its_own_is_checked_against_the_built_in_rules(tmp_path):
    shutil.copy(VALERIA / "castle-forest.yaml", tmp_path / "sheet.yaml")
    assert lint(tmp_path / "sheet.yaml").exit_code == 0


def test_sheet_mistakes_point_at_the_line_with_a_hint(tmp_path):
    text = (VALERIA / "castle-forest.yaml").read_text()
    text = text.replace('{value: "7", guild: Holy, pips: ".S"}', '{value: "7", guild: Holly, pips: ".X"}')
    text = text.replace("to the Green die.}", "to the Grene die.}")
    text = text.replace("{from: Thornfield, to: Nightshade,", "{from: Thornfield, to: Nightshad,")
    text = text.replace("{name: Mistral, power:", "{name: Misty, power:")
    (tmp_path / "sheet.yaml").write_text(text)
    result = lint(tmp_path / "sheet.yaml")
    assert result.exit_code == 1
    err = result.stderr
    assert "sheet.yaml:24:25: error[C024]: unknown guild `Holly`" in err
    assert "sheet.yaml:24:40: error[C025]: `X` is not a pip mark" in err
    assert "error[C024]: a road leads to `Nightshad`, which is not a Domain" in err
    assert "= help: did you mean `Nightshade`?" in err
    assert "error[C024]: unknown colored die `Grene`" in err and "did you mean `Green`?" in err
    assert "error[C024]: a road leads to `Mistral`" in err or "`Mistral`, which is neither" in err
    assert "warning[C026]: no road reaches the Misty Domain" in err


def test_statue_and_event_mistakes(tmp_path):
    shutil.copy(VALERIA / "castle-forest.yaml", tmp_path)
    statues = (VALERIA / "statues.yaml").read_text().replace(
        "Immediately perform 3 Recruit Rewards.", "Immediately perform 3 Recruitt Rewards.").replace(
        "{number: 2, effect: Gain 1 VP for every Domain.}", "{number: 2, effect: Take a Statue.}")
    (tmp_path / "statues.yaml").write_text(statues)
    events = (VALERIA / "solo-events.yaml").read_text().replace("Void the 8 Citizen.", "Void the 13 Citizen.")
    (tmp_path / "events.yaml").write_text(events)
    err = lint(tmp_path).stderr
    assert "error[C024]: unknown reward `Recruitt`" in err and "did you mean `Recruit`?" in err
    assert "error[C016]: taking a Statue has no meaning in a scoring Statue" in err
    assert "error[C024]: unknown Citizen section `13`" in err


def compile_(*paths, out):
    return CliRunner().invoke(cli, ["compile", *map(str, paths), "-o", str(out)], catch_exceptions=False)


def test_rules_mistakes_are_found_by_lint_as_compile_finds_them(tmp_path):
    """A loop of rewards, an end no sheet can reach, a second set of rules: lint errors, with the
    exit code `dtc compile` gives (never an internal error)."""
    rules = (VALERIA / "rules.yaml").read_text()
    rules = rules.replace("effect: Mark a Gold pip.", "effect: Perform a Road Reward.")
    rules = rules.replace("effect: Mark a Road pip.", "effect: Perform a Gold Reward.")
    rules = rules.replace("end_after_complete_tracks: 3", "end_after_complete_tracks: 9")
    (tmp_path / "rules.yaml").write_text(rules)
    result = lint(tmp_path / "rules.yaml")
    assert result.exit_code == 1
    assert "error[C014]: rewards perform each other in a loop: Gold -> Road -> Gold" in result.stderr
    assert "error[C010]: the end needs 9 complete Guild Tracks, but there are 4" in result.stderr
    built = compile_(tmp_path / "rules.yaml", out=tmp_path / "out.dtcb")
    assert built.exit_code == 1 and "internal error" not in built.output + built.stderr
    assert not (tmp_path / "out.dtcb").exists()
    second = (VALERIA / "rules.yaml").read_text().replace("valeria_rules: ", "valeria_rules: Second ", 1)
    shutil.copy(VALERIA / "rules.yaml", tmp_path / "rules.yaml")
    (tmp_path / "second.yaml").write_text(second)
    assert "error[C008]: a second set of Valeria rules" in lint(tmp_path).stderr


def test_more_sheet_and_card_mistakes(tmp_path):
    sheet = (VALERIA / "castle-forest.yaml").read_text()
    sheet = sheet.replace("name: Troll Bridge", "name: Goblin Warren")
    sheet = sheet.replace("{from: Thornfield, to: Nightshade,", "{from: Thornfield, to: Thornfield,")
    (tmp_path / "sheet.yaml").write_text(sheet)
    statues = (VALERIA / "statues.yaml").read_text().replace(
        "{number: 3, effect: Gain 1 VP for every 3 Gold pips.}",
        "{number: 3, effect: Gain 0 VPs for every 0 Gold pips.}")
    (tmp_path / "statues.yaml").write_text(statues)
    err = lint(tmp_path).stderr
    assert "error[C008]: two Monster Lairs are called `Goblin Warren`" in err
    assert "error[C010]: a road leads from `Thornfield` back to itself" in err
    assert "error[C010]: a vp of 0 does nothing" in err and "error[C010]: a per of 0 does nothing" in err


def test_a_broken_sheet_is_not_also_an_unknown_sheet(tmp_path):
    sheet = (VALERIA / "castle-forest.yaml").read_text().replace("{name: Mistral,", "{name: Mistral", 1)
    (tmp_path / "sheet.yaml").write_text(sheet)
    shutil.copy(VALERIA / "solo-events.yaml", tmp_path)
    shutil.copy(VALERIA / "rules.yaml", tmp_path)
    err = lint(tmp_path).stderr
    assert "sheet.yaml" in err and "unknown sheet" not in err

