"""`dtc sweep` (issue 24, "Balance by search"): one number of a hero varied, each variant compiled and
simulated against the field; refused variants reported and skipped."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from conftest import ROOT

from dtc.cli.sweep import sweep
from dtc.sweep import SweepError, parse_vary, variant_text


def run(*args: str):
    return CliRunner().invoke(sweep, list(args))


def test_more_damage_wins_more():
    """A number with a known monotonic effect: the Druid's most common Attack (Ferocity's first tier,
    3 Claws on dice half of whose faces are Claws) dealing 1, 7 or 13 dmg."""
    result = run("--vary", "druid: Ferocity tier 1 damage = 1..13 step 6", "--games", "40",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [p["value"] for p in report["points"]] == [1, 7, 13]
    assert report["opponents"] == ["Duelist", "Forgemaster", "Sun Elf"]
    rates = [p["win_rate"] for p in report["points"]]
    assert rates[0] < rates[1] < rates[2] and rates[2] - rates[0] > 0.2, rates
    assert all(p["games"] == 120 for p in report["points"])
    low, high = report["points"][0]["interval"]
    assert low <= rates[0] <= high
    assert report["closest_to_even"] in (1, 7, 13)


def test_a_variant_lint_refuses_is_reported_and_skipped():
    """Stack Limit 0 is no Stack Limit: that value is refused with lint's diagnostic, at the line of the
    designer's own file, and the others play."""
    result = run("--vary", "druid: Wound stack limit = 0..2 step 2", "--games", "10")
    assert result.exit_code == 0, result.output
    refused = next(line for line in result.output.splitlines() if line.strip().startswith("0"))
    line = next(n for n, text in enumerate((ROOT / "content/heroes/druid.yaml").read_text().splitlines(), 1)
                if text.strip() == "- name: Wound") + 2
    said = rf"refused: heroes/druid\.yaml:{line}:\d+: error\[C010\]: `stack_limit` must be at least 1"
    assert re.search(said, refused), refused
    assert re.search(r"^\s+2\s+\d+\.\d%", result.output, re.MULTILINE)
    assert "closest to 50%: 2" in result.output


def test_a_sweep_whose_every_value_is_refused_says_so_and_fails():
    """It said "2 games against each of no hero per value" (attacker's pass): nothing was played."""
    result = run("--vary", "druid: Wound stack limit = 0..0", "--games", "2")
    assert result.exit_code == 1
    assert "no value could be played" in result.output and "no hero" not in result.output
    assert "every value was refused" in result.output


def test_the_same_numbers_on_a_cluster_and_with_jobs():
    args = ["--vary", "duelist: cards.0.cost = 1..2", "--games", "12", "--format", "json"]
    alone = run(*args)
    assert alone.exit_code == 0, alone.output
    assert run(*args, "--jobs", "2").output == alone.output
    assert run(*args, "--cluster", "local:2").output == alone.output


def test_the_html_page_plots_each_value_with_its_rate(tmp_path):
    page = tmp_path / "sweep.html"
    result = run("--vary", "druid: Nature's Cure damage = 3..5 step 2", "--games", "10", "--format", "json",
                 "--html", str(page))
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    html = page.read_text()
    assert "<script" not in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")
    drawn = re.findall(r'<g class="point" data-x="(\d+)" data-rate="([\d.]+)"', html)
    assert [(int(x), round(float(r), 4)) for x, r in drawn] == [
        (p["value"], p["win_rate"]) for p in report["points"]]
    assert f'<strong id="closest">{report["closest_to_even"]}</strong>' in html


@pytest.mark.parametrize("vary, says", [
    ("druid Ferocity = 1..3", "write `HERO: WHAT = LOW..HIGH [step N]`"),
    ("druid: Ferocity tier 1 damage = 5..3", "goes up from LOW to HIGH"),
    ("druid: Ferocity tier 1 damage = 1..999", "at most 200 in one sweep"),
    ("barbarian: Smack tier 1 damage = 3..6", "no hero `barbarian`"),
    ("druid: Smack tier 1 damage = 3..6", "no ability `Smack` in heroes/druid.yaml; its abilities: Ferocity"),
    ("druid: Ferocity tier 4 damage = 3..6", "has 3 tiers; no tier 4"),
    ("druid: Maul damage = 3..6", "deals no number of dmg to vary"),
    ("druid: card Lucky Break cost = 0..3", "no card `Lucky Break` in heroes/druid.yaml"),
    ("druid: cards.99.cost = 0..3", "`cards.99` is not in heroes/druid.yaml"),
    ("druid: hero = 0..3", "`hero` is 'Druid' in heroes/druid.yaml, not a whole number"),
    # a dice key's faces are numbers in the YAML: `dice.faces.1` was "not in heroes/druid.yaml"
    ("druid: dice.faces.1 = 0..3", "`dice.faces.1` is 'Claw' in heroes/druid.yaml, not a whole number"),
])
def test_what_cannot_be_varied_is_one_line_and_exit_2(vary, says):
    result = run("--vary", vary, "--games", "5")
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output


def test_a_variant_changes_the_one_number_and_keeps_the_file():
    text = (ROOT / "content/heroes/druid.yaml").read_text()
    changed = variant_text(text, parse_vary("druid: Ferocity tier 2 damage = 9..9"), 9)
    before, after = text.splitlines(), changed.splitlines()
    assert len(before) == len(after)
    differ = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert differ == [("        effect: Deal 5 dmg.", "        effect: Deal 9 dmg.")]
    with pytest.raises(SweepError):
        parse_vary("druid: Ferocity")


def test_a_ruleset_that_is_no_content_folder_is_refused(tmp_path):
    """`--ruleset` names the content folder whose YAML is varied; a compiled file or a missing path has
    none: one line, exit 2."""
    for given in (tmp_path / "missing", tmp_path / "rules.dtcb"):
        if given.suffix:
            given.write_bytes(b"DTCB")
        result = run("--vary", "druid: Ferocity tier 1 damage = 3..4", "--ruleset", str(given))
        assert result.exit_code == 2
        assert "give the content folder the hero's YAML is in" in result.output


def test_a_hero_of_ones_own_content_folder_is_swept(tmp_path):
    """A designer's folder: the variants are of her file, the field is her folder's other heroes."""
    import shutil

    folder = tmp_path / "mine"
    folder.mkdir()
    for name in ("druid.yaml", "duelist.yaml"):
        shutil.copy(ROOT / "content" / "heroes" / name, folder / name)
    result = run("--vary", "duelist: cards.0.cost = 1..2", "--games", "6", "--ruleset", str(folder),
                 "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["hero"] == "Duelist" and report["opponents"] == ["Druid"]
    assert [p["games"] for p in report["points"]] == [6, 6]
