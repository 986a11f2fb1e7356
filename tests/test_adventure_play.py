"""Dice Throne Adventures at the terminal: a campaign session played through a pseudo-terminal,
left and gone on with from where it was (issue "Dice Throne Adventures", Tests: "an interactive
session through a pseudo-terminal with a save and a resume")."""

from __future__ import annotations

import json
import signal

import pexpect
from test_play import PROMPTS, spawn

CRAWL_PROMPTS = [
    (r"move where\? \(1-(\d+)\) > ", lambda m: "1"),
    (r"spend how many \(Heal \d+ each\)\? \(0-\d+, Enter: none\) > ", lambda m: ""),
]
SESSION = r"scenario 1 \(Portal Crawl\): (won|lost), Session Score (-?\d+)"


def answer(child, until: str, limit: int = 3000, stop_after: int | None = None) -> int:
    prompts = CRAWL_PROMPTS + PROMPTS
    patterns = [p for p, _ in prompts] + [until]
    given = 0
    while given < limit and (stop_after is None or given < stop_after):
        index = child.expect(patterns, timeout=30)
        if index == len(prompts):
            return given
        child.sendline(prompts[index][1](child.match))
        given += 1
    return given


def test_a_session_at_the_terminal_is_left_and_played_again(tmp_path):
    path = tmp_path / "camp.json"
    made = spawn("adventure", "new", "--heroes", "druid,sun_elf", "--seed", "5", "--save", path)
    made.expect(pexpect.EOF)
    made.close()
    assert made.exitstatus == 0
    before = path.read_text()

    child = spawn("adventure", "play", path)
    child.expect(r"Portal Crawl: ")
    child.expect(r"\[S AB\]")  # both standees on the Crimson Sands
    answer(child, "never", stop_after=6)
    child.kill(signal.SIGINT)
    child.expect("left the session")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 or child.signalstatus == signal.SIGINT
    left = json.loads(path.read_text())
    assert left["sessions"] == [] and left["in_progress"]  # the answers so far are kept
    assert json.loads(before)["sessions"] == []

    child = spawn("adventure", "play", path)
    answer(child, SESSION)
    result = child.match.group(1).decode()
    child.expect(r"Campaign Score (-?\d+)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(path.read_text())
    assert len(saved["sessions"]) == 1 and saved["sessions"][0]["won"] == (result == "won")
    assert saved["scenario"] == (2 if result == "won" else 1)
    # "logged and replayable": the session left and gone on with is one log, which replays whole
    replayed = spawn("adventure", "replay", tmp_path / "camp.session-1.log")
    replayed.expect(r"replay matches: (\d+) answers; scenario 1 \(Portal Crawl\): (won|lost)")
    assert int(replayed.match.group(1)) >= 6 and replayed.match.group(2).decode() == result
    replayed.expect(pexpect.EOF)


def test_a_session_gone_on_with_ends_as_one_played_straight_through(tmp_path):
    """Saved after every answer: leave a session (`q`) after some answers, go on with it, and it ends
    exactly as the same answers given in one go."""
    straight, parted = tmp_path / "straight.json", tmp_path / "parted.json"
    for path in (straight, parted):
        made = spawn("adventure", "new", "--heroes", "druid,sun_elf", "--seed", "8", "--save", path)
        made.expect(pexpect.EOF)
    child = spawn("adventure", "play", straight)
    answer(child, SESSION)
    child.expect(pexpect.EOF)
    child = spawn("adventure", "play", parted)
    given = answer(child, "never", stop_after=10)
    assert given == 10
    child.expect(r"> ")
    child.sendline("q")
    child.expect("keeps its (\\d+) answers so far")
    kept = int(child.match.group(1))
    child.expect(pexpect.EOF)
    assert kept >= 10 and len(json.loads(parted.read_text())["in_progress"]) == kept
    child = spawn("adventure", "play", parted)
    child.expect(f"going on with the session left after {kept} answers")
    answer(child, SESSION)
    child.expect(pexpect.EOF)
    one, two = json.loads(straight.read_text()), json.loads(parted.read_text())
    assert one["sessions"] == two["sessions"] and one["decks"] == two["decks"]
    assert two["in_progress"] == []


def test_nonsense_at_the_move_prompt_is_answered_with_a_hint(tmp_path):
    path = tmp_path / "camp.json"
    made = spawn("adventure", "new", "--heroes", "druid", "--seed", "2", "--save", path)
    made.expect(pexpect.EOF)
    child = spawn("adventure", "play", path)
    child.expect(r"spend how many[^>]*> ")
    child.sendline("")
    child.expect(r"move where\? \(1-\d+\) > ")
    child.sendline("banana")
    child.expect("type a number from 1 to")
    child.expect(r"move where\? \(1-\d+\) > ")
    child.sendline("q")
    child.expect("left the session")
    child.expect(pexpect.EOF)


def test_a_boss_vs_many_game_played_as_the_boss_at_the_terminal():
    """"Boss vs Many ... allows you to play a Boss Battle with one player playing as the Boss": the Boss
    at the terminal spends a King's Hand token when offered ("King's Hand", "When a King's Hand token is
    spent, roll a Loot die") and the game is played to its end."""
    import re

    child = spawn("adventure", "boss-vs-many", "mad king", "--heroes", "druid,sun_elf", "--play", "1",
                  "--seed", "2")
    child.expect("Boss vs Many: P1 Mad King vs P2 Druid & P3 Sun Elf")
    spent = False
    ended = r"(Mad King wins|Druid \+ Sun Elf win|ends in a draw) after (\d+) turns"
    patterns = [p for p, _ in PROMPTS] + [ended]
    for _ in range(3000):
        index = child.expect(patterns, timeout=30)
        if index == len(PROMPTS):
            break
        offered = re.search(rb"\[(\d+)\] spend King's Hand", child.before) if index == 0 else None
        if offered and not spent:
            child.sendline(offered.group(1).decode())
            child.expect(r"rolls \d+ on the Loot die for King's Hand")
            spent = True
            continue
        child.sendline(PROMPTS[index][1](child.match))
    else:
        raise AssertionError("the game did not end in 3000 answers")
    assert spent and int(child.match.group(2)) > 0
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_boss_vs_game_at_the_terminal_is_saved_resumed_and_replayed(tmp_path):
    """A Boss vs Many game played as a Hero with --save and --log: left with `q`, gone on with
    `resume-vs` to its end, and its log replayed by `replay-vs`."""
    save, log = tmp_path / "g.json", tmp_path / "g.log"
    child = spawn("adventure", "boss-vs-many", "fallen barbarian", "--heroes", "druid,sun_elf", "--play", "2",
                  "--seed", "4", "--save", save, "--log", log)
    given = 0
    patterns = [p for p, _ in PROMPTS]
    while given < 8:
        index = child.expect(patterns, timeout=30)
        child.sendline(PROMPTS[index][1](child.match))
        given += 1
    child.expect(patterns, timeout=30)
    child.sendline("q")
    child.expect(r"saved to .*g\.json \(continue with `dtc adventure resume-vs ")
    child.expect(pexpect.EOF)
    child = spawn("adventure", "resume-vs", save)
    child.expect(r"resuming after (\d+) answers")
    assert int(child.match.group(1)) >= 8
    ended = r"(Fallen Barbarian wins|Druid \+ Sun Elf win|ends in a draw) after (\d+) turns"
    for _ in range(3000):
        index = child.expect(patterns + [ended], timeout=30)
        if index == len(PROMPTS):
            break
        child.sendline(PROMPTS[index][1](child.match))
    turns = child.match.group(2).decode()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    replayed = spawn("adventure", "replay-vs", log)
    replayed.expect(rf"replay matches: \d+ answers, {turns} turns")
    replayed.expect(pexpect.EOF)
