"""Dice Throne Adventures campaign (003_bd4cabbe7964005d.txt, "Campaign Setup", "2. Record Win / Loss
& Increase Starting Salves", "3. Advance or Repeat the Scenario")."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dtc.adventures import campaign as campaign_mod
from dtc.adventures.campaign import Campaign, play_campaign, play_session
from dtc.adventures.crawl import Crawl, CrawlResult
from dtc.cli.main import cli


def fixed_crawl(monkeypatch, won: bool, salves_left: int, score: int):
    def play(self, after_turn=None):
        return CrawlResult(won, "portal" if won else "defeat", 10, 1, salves_left, 0, False, 3, score)
    monkeypatch.setattr(Crawl, "play", play)


def test_a_win_records_its_score_carries_the_salves_left_and_advances(compiled, monkeypatch):
    """"B. Remaining Salves", "C. Starting Salves for next session: Record the total number of Salves
    your team still has"; "Advance to the next scenario"."""
    fixed_crawl(monkeypatch, True, 2, 25)
    camp = Campaign(["Druid", "Sun Elf"], "Normal", 1)
    session = play_session(compiled, camp)
    assert (session.scenario, session.won, session.score) == (1, True, 25)
    assert camp.starting_salves == 2 and camp.scenario == 2 and camp.score == 25


def test_a_loss_scores_minus_10_gives_3_more_salves_and_repeats(compiled, monkeypatch):
    """"Recording a Loss: When your team is defeated, you will repeat the scenario. When you repeat
    it, your team will be given 3 more Starting Salves than you began the previous session with";
    "C. Session Score: Write "-10"."""
    fixed_crawl(monkeypatch, False, 0, -10)
    camp = Campaign(["Druid", "Sun Elf"], "Normal", 1, scenario=3, starting_salves=4)
    session = play_session(compiled, camp)
    assert session.score == -10 and not session.won
    assert camp.scenario == 3 and camp.starting_salves == 7
    first = Campaign(["Druid", "Sun Elf"], "Normal", 1)  # session one: the Hero Setup's 3 Salves
    play_session(compiled, first)
    assert first.starting_salves == 3 + 3


def test_the_starting_salves_of_the_sheet_are_the_sessions_salves(compiled, monkeypatch):
    """"For all other sessions, reference the Starting Salves indicated on the Campaign Scoring sheet"."""
    seen = []
    original = Crawl.__init__

    def spy(self, *args, **kw):
        original(self, *args, **kw)
        seen.append(sum(self.salves))
    monkeypatch.setattr(Crawl, "__init__", spy)
    play_session(compiled, Campaign(["Druid"], "Normal", 1, scenario=1, starting_salves=7))
    assert seen == [7]


def test_a_bot_campaign_of_all_8_scenarios_runs_to_its_campaign_score_from_one_command(tmp_path):
    """Issue "Dice Throne Adventures", Done when: "a bot campaign of all 8 scenarios runs to its
    Campaign Score from one command"."""
    path = tmp_path / "camp.json"
    runner = CliRunner()
    made = runner.invoke(cli, ["adventure", "new", "--heroes", "druid,sun_elf", "--seed", "1",
                               "--save", str(path)])
    assert made.exit_code == 0, made.output
    out = runner.invoke(cli, ["adventure", "play", str(path), "--auto", "--all"])
    assert out.exit_code == 0, out.output
    saved = json.loads(path.read_text())
    scenarios_won = sorted({s["scenario"] for s in saved["sessions"] if s["won"]})
    assert scenarios_won == list(range(1, 9)) and saved["scenario"] == 9
    total = sum(s["score"] for s in saved["sessions"])
    assert f"Campaign Score {total} (over)" in out.output
    again = runner.invoke(cli, ["adventure", "play", str(path), "--auto"])
    assert again.exit_code == 2 and "the campaign is over" in again.output


def test_a_campaign_is_saved_after_each_session_and_resumed_from_the_file(tmp_path, compiled):
    path = tmp_path / "camp.json"
    runner = CliRunner()
    made = runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--seed", "4", "--save", str(path)])
    assert made.exit_code == 0
    for expected in (1, 2):
        out = runner.invoke(cli, ["adventure", "play", str(path), "--auto"])
        assert out.exit_code == 0, out.output
        assert len(json.loads(path.read_text())["sessions"]) == expected
    # the same two sessions, played in one go from a fresh campaign of the same seed
    whole = Campaign(["Druid"], "Normal", 4)
    play_session(compiled, whole)
    play_session(compiled, whole)
    assert json.loads(path.read_text())["sessions"] == whole.to_json()["sessions"]


def test_campaign_files_are_checked_and_never_written_over_other_files(tmp_path):
    runner = CliRunner()
    hero = tmp_path / "hero.yaml"
    hero.write_text("hero: Mine\n")
    out = runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--save", str(hero)])
    assert out.exit_code == 2 and "will not write over" in out.output and hero.read_text() == "hero: Mine\n"
    broken = tmp_path / "broken.json"
    broken.write_text('{"dtc": "dtc-adventure-campaign", "version": 1, "heroes": "x"')
    out = runner.invoke(cli, ["adventure", "play", str(broken), "--auto"])
    assert out.exit_code == 2 and "not JSON" in out.output and "Traceback" not in out.output
    odd = tmp_path / "odd.json"
    made = runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--save", str(odd)])
    assert made.exit_code == 0
    data = json.loads(odd.read_text())
    odd.write_text(json.dumps({**data, "difficulty": "Nightmare"}))
    out = runner.invoke(cli, ["adventure", "play", str(odd), "--auto"])
    assert out.exit_code == 2 and "Difficulty `Nightmare` is not in this ruleset" in out.output
    odd.write_text(json.dumps({**data, "heroes": ["Nobody"]}))
    out = runner.invoke(cli, ["adventure", "play", str(odd), "--auto"])
    assert out.exit_code == 2 and "hero `Nobody` is not in this ruleset" in out.output
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"dtc": "dtc-adventure-campaign", "version": 1, "heroes": ["Druid"]}))
    out = runner.invoke(cli, ["adventure", "play", str(wrong), "--auto"])
    assert out.exit_code == 2 and "missing or of the wrong kind" in out.output


def test_input_ending_at_the_terminal_leaves_the_session_unrecorded(tmp_path):
    """End of input at a prompt is leaving (as `q` is): the campaign file keeps the last session."""
    path = tmp_path / "camp.json"
    runner = CliRunner()
    runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--save", str(path)])
    before = path.read_text()
    out = runner.invoke(cli, ["adventure", "play", str(path)], input="")
    assert out.exit_code == 0 and "left the session" in out.output and "Traceback" not in out.output
    assert path.read_text() == before


def test_simulated_campaigns_are_the_same_for_any_jobs():
    args = ["adventure", "simulate", "--heroes", "druid,sun_elf", "--campaign", "--games", "6", "--seed", "3",
            "--format", "json"]
    one = CliRunner().invoke(cli, args + ["--jobs", "1"])
    two = CliRunner().invoke(cli, args + ["--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    report = json.loads(one.output)
    assert report == json.loads(two.output)
    assert report["campaigns"] == 6 and report["min"] <= report["median"] <= report["max"]


def test_every_bot_campaign_ends(compiled):
    """Property over seeded bot campaigns: each ends (all 8 won) within the session bound, and the
    Campaign Score is the sum of its sessions."""
    for seed in range(3):
        camp = play_campaign(compiled, Campaign(["Duelist"], "Normal", seed))
        assert len(camp.sessions) <= campaign_mod.MAX_SESSIONS
        assert camp.score == sum(s.score for s in camp.sessions)
        assert all(s.starting_salves_next >= 0 for s in camp.sessions)


def test_a_won_crawls_unspent_gold_is_scored_after_the_shop(compiled, monkeypatch):
    """"D. Unspent Gold (Portal Crawl Only): 1 Scenario Point for every 5 unspent Gold your team has
    remaining after the Shop Phase has concluded".  """
    from dtc.adventures import loot

    def play(self, after_turn=None):
        return CrawlResult(True, "portal", 10, 0, 1, 27, False, 3, 40)  # 40 counts 27 // 5 = 5 before
    monkeypatch.setattr(Crawl, "play", play)
    monkeypatch.setattr(loot, "shop", lambda *a: loot.ShopResult([[], []], 12))
    camp = Campaign(["Druid", "Sun Elf"], "Normal", 1)
    assert play_session(compiled, camp).score == 40 - 5 + 12 // 5


def test_a_session_left_at_the_terminal_is_not_taken_over_by_bots(tmp_path):
    path = tmp_path / "camp.json"
    runner = CliRunner()
    runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--save", str(path)])
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "in_progress": [0]}))
    out = runner.invoke(cli, ["adventure", "play", str(path), "--auto"])
    assert out.exit_code == 2 and "holds a session left at the terminal" in out.output


def test_watching_a_boss_battle_as_a_crawl_is_refused():
    out = CliRunner().invoke(cli, ["adventure", "crawl", "--heroes", "druid", "--scenario", "2"])
    assert out.exit_code == 2 and "is a Boss Battle, not a Portal Crawl" in out.output
