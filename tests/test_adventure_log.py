"""Session logs of a Dice Throne Adventures campaign, and their replay (issue "Dice Throne
Adventures", Deliver 6: "`dtc adventure play camp.json [--auto]` (one session, saved after every
turn, resumable, logged and replayable)")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dtc.adventures.battle import HeroBot
from dtc.adventures.campaign import Campaign, play_session
from dtc.adventures.log import LogError, SessionLog, replay
from dtc.cli.main import cli


class Player:
    """A hero at the terminal who answers as a bot would, and takes the first choice at the crawl's
    own prompts (moves; Salves: none)."""

    def __init__(self, seed: int):
        self.bot = HeroBot(seed)
        self.shown: list[str] = []  # what the terminal showed her (the map, the destinations)

    def say(self, text: str) -> None:
        self.shown.append(text)

    def answer(self, game, request):
        return self.bot.answer(game, request)

    def ask(self, prompt: str, parse, hint: str):
        picked = parse("1")
        return picked if picked is not None else parse("")


def logged_session(compiled, tmp_path, scenario: int = 1, seed: int = 4):
    """A session of two heroes at the terminal, logged; (the log, the session, the players)."""
    camp = Campaign(["Druid", "Sun Elf"], "Normal", seed, scenario=scenario)
    log = SessionLog(tmp_path / f"s{scenario}.log", compiled, camp, [0, 1])
    players = [Player(1), Player(2)]
    session = play_session(compiled, camp, dict(enumerate(players)), None, lambda: None, log)
    log.ended(session)
    return log.path, session, players


@pytest.mark.parametrize("scenario", [1, 2])  # a Portal Crawl and a Boss Battle
def test_a_session_played_at_the_terminal_replays_from_its_log_alone(compiled, tmp_path, scenario):
    path, session, players = logged_session(compiled, tmp_path, scenario)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    answers = [r for r in lines if "answer" in r]
    assert answers, "the heroes at the terminal answered"
    assert lines[-1] == {"session": {**lines[-1]["session"], "score": session.score, "won": session.won}}
    again, given = replay(compiled, path)
    assert again == session and given == len(answers)
    if scenario == 1:  # a crawl: each move was asked with the map and its destinations shown
        assert any(" move to:" in text for p in players for text in p.shown)


def test_a_replay_that_parts_from_its_log_names_the_line(compiled, tmp_path):
    path, _, _ = logged_session(compiled, tmp_path)
    lines = path.read_text().splitlines()
    # the first move with two ways to go, answered with the other one
    at = next(i for i, line in enumerate(lines) if '"prompt": "move where? (1-' in line
              and '(1-1)' not in line)
    record = json.loads(lines[at])
    record["answer"] = 2 if record["answer"] == 1 else 1
    lines[at] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match=rf"^{path}:\d+: replay differs"):
        replay(compiled, path)


def test_a_log_of_a_session_left_replays_as_far_as_it_went(compiled, tmp_path):
    path, _, _ = logged_session(compiled, tmp_path)
    lines = path.read_text().splitlines()
    asks = [i for i, line in enumerate(lines) if '"answer"' in line]
    cut = lines[:asks[5] + 1]
    path.write_text("\n".join(cut + [json.dumps({"left": {"answers": 6}})]) + "\n")
    assert replay(compiled, path) == (None, 6)
    path.write_text("\n".join(cut + [json.dumps({"left": {"answers": 9}})]) + "\n")
    with pytest.raises(LogError, match="left after 9 answers, and it holds 6"):
        replay(compiled, path)
    path.write_text("\n".join(cut) + "\n")  # killed: no last line at all
    assert replay(compiled, path) == (None, 6)


def test_bot_sessions_of_a_campaign_are_logged_beside_it_and_replay(tmp_path):
    runner = CliRunner()
    camp = tmp_path / "camp.json"
    assert runner.invoke(cli, ["adventure", "new", "--heroes", "druid,sun_elf", "--seed", "2",
                               "--save", str(camp)]).exit_code == 0
    out = runner.invoke(cli, ["adventure", "play", str(camp), "--auto"])
    assert out.exit_code == 0, out.output
    log = tmp_path / "camp.session-1.log"
    assert f"logged in {log}" in out.output
    again = runner.invoke(cli, ["adventure", "replay", str(log), "--narrate"])
    assert again.exit_code == 0, again.output
    assert "Portal Crawl: " in again.output and "-- turn 1:" in again.output
    row = json.loads(camp.read_text())["sessions"][0]
    verdict = "won" if row["won"] else "lost"
    assert f"replay matches: 0 answers; scenario 1 (Portal Crawl): {verdict}, Session Score {row['score']}" \
        in again.output
    # the log says what the session told: a line changed is found, with its line number
    lines = log.read_text().splitlines()
    told = next(i for i, line in enumerate(lines) if "reveals" in line)
    lines[told] = lines[told].replace("reveals", "befriends")
    log.write_text("\n".join(lines) + "\n")
    bad = runner.invoke(cli, ["adventure", "replay", str(log)])
    assert bad.exit_code == 1 and f"{log}:{told + 1}: replay differs" in bad.output
    assert "Traceback" not in bad.output


def test_a_session_log_never_writes_over_another_file(tmp_path):
    runner = CliRunner()
    camp = tmp_path / "camp.json"
    runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--save", str(camp)])
    notes = tmp_path / "camp.session-1.log"
    notes.write_text("my notes\n")
    out = runner.invoke(cli, ["adventure", "play", str(camp), "--auto"])
    assert out.exit_code == 2 and "will not write over" in out.output and notes.read_text() == "my notes\n"
    assert json.loads(camp.read_text())["sessions"] == []
    other = tmp_path / "other.json"  # another campaign's session 1 log, named as this one's would be
    runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--seed", "9", "--save", str(other)])
    runner.invoke(cli, ["adventure", "play", str(other), "--auto"])
    notes.write_bytes((tmp_path / "other.session-1.log").read_bytes())
    out = runner.invoke(cli, ["adventure", "play", str(camp), "--auto"])
    assert out.exit_code == 2 and "holds another game" in out.output


def test_replaying_what_is_no_session_log_is_a_one_line_error(tmp_path):
    runner = CliRunner()
    camp = tmp_path / "camp.json"
    runner.invoke(cli, ["adventure", "new", "--heroes", "druid", "--save", str(camp)])
    for path, says in ((camp, "is a campaign file, not a session log"),
                       (tmp_path / "none.log", "cannot read"),
                       ("/dev/zero", "not a session log")):
        out = runner.invoke(cli, ["adventure", "replay", str(path)])
        assert out.exit_code == 1 and says in out.output and "Traceback" not in out.output, out.output
    other = tmp_path / "other.log"
    runner.invoke(cli, ["adventure", "play", str(camp), "--auto"])
    head, *rest = (tmp_path / "camp.session-1.log").read_text().splitlines()
    other.write_text("\n".join([json.dumps({**json.loads(head), "ruleset": "0" * 64}), *rest]) + "\n")
    out = runner.invoke(cli, ["adventure", "replay", str(other)])
    assert out.exit_code == 1 and "was played with ruleset 0000000000000000" in out.output
