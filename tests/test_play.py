"""Playing: `dtc play` (at a pseudo-terminal, and --auto), saves, resumes, `dtc replay`, `dtc simulate`."""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from dtc.cli.main import cli as main

DTC = str(Path(sys.executable).with_name("dtc"))


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


# ------------------------------------------------------- the terminal player

# Each prompt the terminal player shows, and a valid answer to it (a function of the match).
PROMPTS = [
    (r"do what\? \(Enter passes[^)]*\) > ", lambda m: ""),
    (r"re-roll which dice\? \(positions 1-\d, e\.g\. `1 3`; Enter keeps all and stops rolling[^)]*\) > ",
     lambda m: ""),
    (r"activate which\? > ", lambda m: "1"),
    (r"defend with\? [^>]*> ", lambda m: "1"),
    (r"choose > ", lambda m: "1"),
    (r"choose \(Enter: in the order listed\) > ", lambda m: ""),
    (r"\? \[y/n\] > ", lambda m: "y"),
    (r"how many\? \((\d+)[^)]*\) > ", lambda m: m.group(1).decode()),
    (r"sell which (\d+)\? \(\?: what the cards say\) > ",
     lambda m: " ".join(str(i) for i in range(1, int(m.group(1)) + 1))),
    (r"pick (\d+)(?: to \d+)? > ", lambda m: " ".join(str(i) for i in range(1, int(m.group(1)) + 1))),
    (r"pick up to \d+ \(Enter: none\) > ", lambda m: "1"),
    (r"up or down\? > ", lambda m: "up"),
    (r"change (?:1 die|up to \d+ dice)[^>]*> ", lambda m: ""),
    (r"re-roll (?:1 die|up to \d+ dice) of these \(positions; Enter for none\) > ", lambda m: ""),
    (r"re-roll the die\? \(1 re-rolls it; Enter for none\) > ", lambda m: ""),
    (r"choose a player \((P\d)[^)]*\) > ", lambda m: m.group(1).decode()),
]
RESULT = r"result: (.+) after (\d+) turns"
ANY_PROMPT = r"\? [^\r\n]*> "  # `do what? (...) > `, `[y/n] > `: not the `> ` of `-> health 53`


def spawn(*args) -> pexpect.spawn:
    # Ctrl-C must reach the game even when the tests run as a background job (which ignores SIGINT,
    # and a program inherits that)
    child = pexpect.spawn(DTC, [str(a) for a in args], timeout=15, dimensions=(50, 160),
                          env={"PATH": str(Path(sys.executable).parent), "COLUMNS": "160",
                               "HOME": str(Path.home())},
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.delaybeforesend = None  # the prompt is always read before answering: no need to wait
    return child


def answer_prompts(child: pexpect.spawn, stop_after: int | None = None) -> int:
    """Answer every prompt sensibly until the result (or `stop_after` answers); returns answers given."""
    patterns = [p for p, _ in PROMPTS] + [RESULT]
    given = 0
    while stop_after is None or given < stop_after:
        index = child.expect(patterns)
        if index == len(PROMPTS):
            return given
        child.sendline(PROMPTS[index][1](child.match))
        given += 1
    return given


def nonsense(child: pexpect.spawn, text: str, hint: str) -> None:
    """Type `text` at the prompt; expect the hint and the same prompt again."""
    prompt = child.after
    child.sendline(text)
    child.expect(hint)
    child.expect_exact(prompt.splitlines()[-1])


def answer_until(child: pexpect.spawn, wanted: str) -> None:
    """Answer prompts until the one matching `wanted` is shown (it is left unanswered)."""
    patterns = [p for p, _ in PROMPTS]
    while True:
        index = child.expect(patterns)
        if re.search(wanted, patterns[index].replace("\\", "")):
            return
        child.sendline(PROMPTS[index][1](child.match))


def test_an_interactive_game_with_nonsense_save_resume_and_replay(tmp_path):
    """Play at a pseudo-terminal: nonsense is answered with a hint, Ctrl-C saves and leaves (exit 130), the
    game resumes where it was left and ends with a result; its log replays exactly."""
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    child = spawn("play", "--hero", "druid", "--vs", "duelist", "--seed", 7, "--save", save)
    child.expect(r"Start player: P\d")
    child.expect(r"your hand: ")  # the table comes with the first question, whatever it is
    child.expect(r"do what\? \(Enter passes[^)]*\) > ")
    nonsense(child, "banana", r"\? type (1|a number from 1 to \d+), or press Enter to pass")
    nonsense(child, "99", r"\? type (1|a number from 1 to \d+), or press Enter to pass")
    prompt = child.after
    child.sendline("?")  # what the cards in hand say, then the same question again
    child.expect(r"  - [^\r\n]+ \(\d+ CP, [^)]+\): [A-Z]")
    child.expect_exact(prompt.splitlines()[-1])
    child.sendline("")
    answer_until(child, r"re-roll which dice\?")
    # a die named twice, one out of range: refused
    hint = (r"\? give different dice positions from 1 to 5 \(the #number before a die, not its value\), "
            r"or press Enter")
    nonsense(child, "1 1 9", hint)
    nonsense(child, "all of them", hint)
    child.sendline("")
    answer_prompts(child, stop_after=40)
    child.expect(r"> ")
    child.sendintr()
    child.expect(r"left the game; saved to .*game\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # interrupted, as a shell script running it needs to know
    saved = json.loads(save.read_text())
    assert saved["heroes"] == ["Druid", "Duelist"] and saved["seed"] == 7 and len(saved["answers"]) > 40

    child = spawn("play", "--resume", save, "--log", log)
    child.expect(r"resuming after (\d+) answers")
    assert int(child.match.group(1)) == len(saved["answers"])
    child.expect(r"your hand: ")  # the table before the first question of the resumed game
    answer_prompts(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(json.loads(save.read_text())["answers"]) > len(saved["answers"])

    replayed = run("replay", log)
    assert replayed.exit_code == 0, replayed.output
    assert re.match(r"replay matches: \d+ answers, \d+ turns, (P\d won|draw)", replayed.output)


def test_an_interactive_king_of_the_hill_game_with_save_resume_and_replay(tmp_path):
    """King of the Hill at a pseudo-terminal ("3 Player Games"): the table shows the mode, the Leader,
    whose turn it is and whom the player may Attack; she chooses the Defender (nonsense is refused
    with a hint); Ctrl-C saves; the game resumes with its mode and ends; its log replays exactly."""
    save, log = tmp_path / "hill.json", tmp_path / "hill.jsonl"
    child = spawn("play", "--mode", "koth", "--heroes", "druid,duelist,sun_elf", "--seed", 3, "--save", save)
    child.expect(r"king_of_the_hill: P1 Druid vs P2 Duelist vs P3 Sun Elf\. Start player: P\d")
    child.expect(r"king_of_the_hill; Leader: P[\d, P]+; turn: P\d; you are P1; you may Attack P2, P3")
    answer_until(child, r"choose a player")
    assert b"the Defender of" in child.before  # what the choice is for, with each one's Health
    nonsense(child, "P1", r"type one of P2, P3")
    nonsense(child, "P7", r"type one of P2, P3")
    child.sendline("P2")
    child.expect(r"P1 Druid targets P2 Duelist \(chosen\)")
    answer_prompts(child, stop_after=10)
    child.expect(ANY_PROMPT)
    child.sendintr()
    child.expect(r"left the game; saved to .*hill\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    saved = json.loads(save.read_text())
    assert saved["mode"] == "king_of_the_hill" and saved["heroes"] == ["Druid", "Duelist", "Sun Elf"]

    child = spawn("play", "--resume", save, "--log", log)
    child.expect(r"king_of_the_hill; resuming after (\d+) answers")
    answer_prompts(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    replayed = run("replay", log)
    assert replayed.exit_code == 0, replayed.output
    assert re.match(r"replay matches: \d+ answers, \d+ turns, (P\d won|draw)", replayed.output)


@pytest.mark.parametrize("args, message", [
    (["--mode", "5v5", "--heroes", "druid,duelist"], r"--mode 5v5: no such mode in Dice Throne v2\.4\.3; "
                                                     r"there are 1v1, 2v2, .*king_of_the_hill \(koth\)"),
    (["--mode", "2v2", "--heroes", "druid,duelist,sun_elf"], r"mode 2v2 seats 4 heroes; give 4 names"),
    (["--mode", "koth", "--hero", "druid", "--vs", "duelist"], r"mode king_of_the_hill seats 3 heroes"),
    (["--mode", "koth", "--heroes", "druid,duelist,nobody"], r"--heroes: no hero `nobody`"),
    (["--mode", "koth", "--heroes", "druid,duelist,sun_elf", "--seat", "4"],
     r"--seat 4: the table has 3 seats"),
])
def test_a_mode_or_table_that_cannot_be_played_is_refused(args, message):
    result = run("play", *args)
    assert result.exit_code == 2 and re.search(message, result.output), result.output


def test_auto_plays_a_narrated_2v2_game_to_its_end():
    """`dtc play --mode 2v2 --heroes ... --auto`: the teams, the zigzag turn order, the targeting die,
    and the team that won."""
    result = run("play", "--mode", "2v2", "--heroes", "druid,duelist,sun_elf,forgemaster", "--auto",
                 "--seed", 3)
    assert result.exit_code == 0, result.output
    assert ("2v2: P1 Druid & P2 Duelist vs P3 Sun Elf & P4 Forgemaster; turn order P1, P3, P2, P4."
            in result.output)
    assert re.search(r"rolls the targeting die: \d\n.* targets P\d \w+", result.output)
    assert re.search(r"result: (Druid \(P1\) & Duelist \(P2\)|Sun Elf \(P3\) & Forgemaster \(P4\)) won "
                     r"after \d+ turns|result: a draw", result.output)


def test_a_line_with_a_nul_byte_is_answered_like_other_nonsense():
    """Issue "Hardening", "Terminal": a line with a NUL byte got no reply until the next Enter (the
    terminal read it as an unfinished C string); it is answered at once, with the hint."""
    child = spawn("play", "--hero", "druid", "--vs", "duelist", "--seed", 7)
    child.expect(r"do what\? \(Enter passes[^)]*\) > ")
    child.send("ba\x00na\r")
    child.expect(r"\? type (1|a number from 1 to \d+), or press Enter to pass", timeout=5)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_kill_saves_the_game_and_leaves_as_ctrl_c_does(tmp_path):
    """`kill` (SIGTERM) at a prompt: the game is saved and left, exit 143 (code review: it left
    without saving the answers of the turn)."""
    save = tmp_path / "g.json"
    child = spawn("play", "--hero", "druid", "--vs", "duelist", "--seed", 7, "--save", save)
    child.expect(ANY_PROMPT)
    child.kill(signal.SIGTERM)
    child.expect(r"left the game; saved to .*g\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signal.SIGTERM and json.loads(save.read_text())["seed"] == 7


@pytest.mark.parametrize("leave", ["end of input", "q", "Quit"])
def test_end_of_input_or_q_leaves_cleanly(tmp_path, leave):
    """End of input, or `q`/`quit` typed at any prompt, leaves the game as Ctrl-C does."""
    child = spawn("play", "--hero", "forgemaster", "--vs", "sun-elf", "--seed", 2)
    child.expect(ANY_PROMPT)  # a question (keys typed before one is shown are dropped)
    if leave == "end of input":
        child.sendeof()
    else:
        child.sendline(leave)
    child.expect("left the game \\(use --save FILE to be able to continue\\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in child.before.decode()


READ_TWICE = """
import time
from dtc.agents.human import read_fresh
time.sleep(float(__import__("sys").argv[1]))  # busy (a bot's turn): keys typed now wait
print("got", repr(read_fresh("first> ")))
print("got", repr(read_fresh("second> ")))
"""


def test_keys_typed_before_a_question_do_not_answer_it():
    """An Enter pressed while no question was shown (a window with nothing to play is not asked)
    answered the next question, whatever it was: it skipped a Main Phase and stopped a roll with two
    attempts left (player QA). At a terminal, what was typed before the question is dropped."""
    child = pexpect.spawn(sys.executable, ["-c", READ_TWICE, "1.5"], timeout=15)
    child.sendline("")  # typed while the program is busy
    child.expect_exact("first> ")
    child.sendline("1")
    child.expect(r"got '(.*)'\r\n")
    assert child.match.group(1) == b"1"
    child.expect_exact("second> ")
    child.sendline("2")
    child.expect(r"got '(.*)'\r\n")
    assert child.match.group(1) == b"2"
    child.expect(pexpect.EOF)


def test_long_lines_wrap_at_word_ends_and_between_items():
    """Lines wider than the terminal wrap at word ends, indented under themselves (the terminal cut
    words in two: player QA); a line of items set apart by two spaces or ` | ` (a Valeria sheet's
    Lairs, the dice) breaks only between items (`Troll Bridge` was cut: code review)."""
    from dtc.agents.human import _wrapped

    lairs = ("Lairs     Goblin Warren 5/3: 1-6[.*] 7-12[.G*] | Troll Bridge 7/4: 1-4[..S] 5-8[.*.] | "
             "Wyvern Roost 9/6: 2-5[.R.] 6-9[..*] 10-12[.*]")
    lines = _wrapped(lairs, 60).split("\n")
    assert lines == ["Lairs     Goblin Warren 5/3: 1-6[.*] 7-12[.G*] |",
                     "    Troll Bridge 7/4: 1-4[..S] 5-8[.*.] |",
                     "    Wyvern Roost 9/6: 2-5[.R.] 6-9[..*] 10-12[.*]"]
    menu = _wrapped("  [1] play Shrug It Off (1 CP) - no effect now, and words enough to wrap", 40)
    assert menu.split("\n") == ["  [1] play Shrug It Off (1 CP) - no",
                                "      effect now, and words enough to", "      wrap"]
    citizens = "Citizens  " + " ".join(f"{n}:Ho[.*]" for n in range(1, 12))  # one item, wider than a line
    assert all(len(x) <= 40 for x in _wrapped(citizens, 40).split("\n"))
    prompt = _wrapped("do what? (Enter passes; ?: your cards; a: abilities; s: statuses) > ", 50)
    assert prompt.endswith("statuses) > ") and all(len(x) <= 50 for x in prompt.split("\n"))


def test_piped_answers_are_all_read_in_order():
    """Answers piped in (a script, a test) are not a terminal: none is dropped."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", READ_TWICE, "0.3"], input="a\nb\n", capture_output=True,
                          text=True, timeout=30)
    assert done.stdout.splitlines() == ["first> got 'a'", "second> got 'b'"]


def test_the_prompt_shows_the_table_dice_and_what_they_meet():
    """Before the first roll: the table (once: it is not shown again at the roll when it is what the
    Main Phase just showed, player QA), the dice and what they meet."""
    child = spawn("play", "--hero", "sun_elf", "--vs", "druid", "--seed", 4)
    child.logfile_read = io.BytesIO()
    answer_until(child, r"re-roll which dice\?")
    shown = child.logfile_read.getvalue().decode()
    assert len(re.findall(r"P1 Sun Elf: health", shown.split("== Turn 2")[-1])) == 1
    assert re.search(r"P1 Sun Elf: health \d+, \d+ CP, \d+ cards; .*Sun Dial: \d", shown)
    assert re.search(r"P2 Druid: health \d+", shown)
    assert re.search(r"your hand: [^[]+ \(\d+ CP, (instant|roll phase|main phase|upgrade .+)\)", shown)
    assert re.search(r"dice: (#\d \d:(Stave|Charge|Sun Power)  ){4}#5 \d:(Stave|Charge|Sun Power)", shown)
    assert re.search(r"these dice meet: ", shown)
    child.sendintr()
    child.expect(pexpect.EOF)


# ---------------------------------------------------------------- --auto


def test_auto_plays_a_narrated_game_to_a_result():
    result = run("play", "--hero", "sun_elf", "--vs", "forgemaster", "--auto", "--seed", 3)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("seed 3; Sun Elf vs Forgemaster")
    assert "== Turn 1:" in out and " rolls " in out and " activates " in out
    assert re.search(r"result: (Sun Elf \(P1\) won|Forgemaster \(P2\) won|a draw) after \d+ turns", out)
    assert run("play", "--hero", "sun_elf", "--vs", "forgemaster", "--auto", "--seed", 3).output == out


def test_the_narration_names_the_passive_track_or_token_that_adds_prevents_or_changes_dmg():
    """Dmg added, prevented or made undefendable by something nothing before named (a form's passive,
    a track's position, a spent token) says where it came from, and whose Attack it is."""
    wanted = [r"P1 Druid adds 2 dmg to the Attack \(from Cat Form\)",
              r"P2 Duelist adds \d dmg to the Attack \(from Footwork \(Offense \d\)\)",
              r"P2 Duelist prevents \d dmg \(from Footwork \(Defense \d\)\)",
              r"P2 Duelist's Attack becomes undefendable \(from Guard Break\)",
              r"adds \d dmg to the Attack\n"]  # a card's or ability's own: told before it, not named
    out = ""
    for seed in range(1, 11):  # which games have each, the bots decide: play until all are seen
        out += run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", seed).output
        if all(re.search(w, out) for w in wanted):
            break
    assert [w for w in wanted if not re.search(w, out)] == []


def test_auto_log_replays_and_a_tampered_log_is_refused(tmp_path):
    log = tmp_path / "auto.jsonl"
    played = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 5, "--log", log)
    assert played.exit_code == 0
    good = run("replay", log)
    assert good.exit_code == 0 and good.output.startswith("replay matches:")
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["dtc"] == "dtc-dicethrone-log" and head["seed"] == 5 and len(head["ruleset"]) == 64

    health = next(i for i, line in enumerate(lines) if '"e": "health"' in line)
    event = json.loads(lines[health])
    event["event"]["health"] += 1
    lines_with = lambda i, record: "\n".join(lines[:i] + [json.dumps(record)] + lines[i + 1:])  # noqa: E731
    (tmp_path / "event.jsonl").write_text(lines_with(health, event))
    bad = run("replay", tmp_path / "event.jsonl")
    # the message names the line that differs, as a compiler would
    # and the field that differs, not two records cut at the same place (tester QA)
    where = rf"error: .*event.jsonl:{health + 1}: replay differs at event \d+: at health: the log has " \
        rf"{event['event']['health']}, the game has {event['event']['health'] - 1}"
    assert bad.exit_code == 1 and re.match(where, bad.stderr)

    roll = next(i for i, line in enumerate(lines) if '"RollDice"' in line)
    record = json.loads(lines[roll])
    record["answer"] = [0, 1, 2, 3, 4] if record["answer"] != [0, 1, 2, 3, 4] else []
    (tmp_path / "answer.jsonl").write_text(lines_with(roll, record))
    bad = run("replay", tmp_path / "answer.jsonl")
    assert bad.exit_code == 1 and re.match(r"error: .*answer.jsonl:\d+: replay differs", bad.stderr)
    assert int(bad.stderr.split("answer.jsonl:")[1].split(":")[0]) > roll  # at or after the changed line

    record["answer"] = "banana"
    (tmp_path / "refused.jsonl").write_text(lines_with(roll, record))
    bad = run("replay", tmp_path / "refused.jsonl")
    assert bad.exit_code == 1 and "the game refuses the logged answer \"banana\"" in bad.stderr
    assert f"refused.jsonl:{roll + 1}: replay differs" in bad.stderr

    (tmp_path / "cut.jsonl").write_text("\n".join(lines[: len(lines) // 2]))
    bad = run("replay", tmp_path / "cut.jsonl")
    assert bad.exit_code == 1 and "the log is incomplete: it ends after" in bad.stderr


def test_season_one_rules_are_chosen_by_name_and_recorded(tmp_path):
    """The content keeps Season One's rules as their own ruleset (seeds README: "the older wording is
    kept as its own ruleset in content"); nothing let a player choose them (Season One QA). `--rules`
    names them; the save and log record them, so a resume and a replay play them again."""
    from dtc import rulesets
    from dtc.dicethrone.session import Setup, new_game

    log, save = tmp_path / "g.jsonl", tmp_path / "g.json"
    played = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 3, "--rules", "2.0",
                 "--log", log, "--save", save)
    assert played.exit_code == 0 and played.output.startswith("seed 3; Druid vs Duelist; Dice Throne v2.0\n")
    assert json.loads(log.read_text().splitlines()[0])["rules"] == "Dice Throne v2.0"
    setup = Setup.from_json(json.loads(save.read_text()))
    assert new_game(rulesets.builtin(), setup).rules.name == "Dice Throne v2.0"
    assert new_game(rulesets.builtin(), Setup(**{**setup.to_json(), "rules": None})).rules.name == \
        "Dice Throne v2.4.3"
    assert run("replay", log).output.startswith("replay matches:")
    default = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 3, "--log", log)
    assert "rules" not in json.loads(log.read_text().splitlines()[0]) and "v2.0" not in default.output
    wrong = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--rules", "3.0")
    assert wrong.exit_code == 2
    assert "--rules 3.0: no such rules here; there are `Marvel Dice Throne` (marvel), `Dice Throne v2.0`, " \
           "`Dice Throne v2.4.3`" \
        in wrong.stderr
    simulated = json.loads(run("simulate", "druid", "duelist", "--games", 4, "--rules", "dice throne v2.0",
                               "--format", "json").output)
    assert simulated["rules"] == "Dice Throne v2.0"
    # a save naming rules the ruleset has not, or no name at all: a one-line error, exit 2
    data = json.loads(save.read_text())
    data["answers"] = data["answers"][:5]
    for rules, message in (("Nope", "error: the ruleset has no rules called `Nope`"),
                           (5, "damaged save file (the rules are not a name)")):
        save.write_text(json.dumps({**data, "rules": rules}))
        refused = run("play", "--resume", save)
        assert refused.exit_code == 2 and message in refused.stderr and "Traceback" not in refused.output


def test_replay_narrate_tells_the_game_as_play_auto_did(tmp_path):
    """A tester watching a logged game back: `replay --narrate` tells it as `play --auto` did (every
    draw named: it is read after the game), then says it matches (it only checked: player QA)."""
    log = tmp_path / "g.jsonl"
    played = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 5, "--log", log)
    told = run("replay", log, "--narrate")
    assert told.exit_code == 0
    lines = told.output.splitlines()
    assert lines[-1].startswith("replay matches:")
    draws = [x for x in lines if re.match(r"P\d \w+ draws \d+: ", x)]
    assert draws and all(len(x.split(": ")[1].split(", ")) == int(x.split(" draws ")[1].split(":")[0])
                         for x in draws)
    unnamed = [re.sub(r"^(P\d \w+ draws \d+): .*", r"\1", x) for x in lines[:-1]]
    assert unnamed == played.output.splitlines()[1:-1]  # without its `seed ...` and `result:` lines


def test_a_save_given_to_replay_says_how_to_continue_it_and_a_moved_ruleset_is_named(tmp_path):
    from conftest import ROOT

    save, log, ruleset = tmp_path / "g.json", tmp_path / "g.jsonl", tmp_path / "two.dtcb"
    heroes = ROOT / "content" / "heroes"
    compiled = run("compile", heroes / "druid.yaml", heroes / "duelist.yaml", ROOT / "content" / "rules",
                   "-o", ruleset)
    assert compiled.exit_code == 0, compiled.output
    run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 2, "--ruleset", ruleset,
        "--save", save, "--log", log)
    wrong = run("replay", save)
    assert wrong.exit_code == 1 and "is a saved game, not a log: continue it with `--resume`" in wrong.stderr
    ruleset.rename(tmp_path / "moved.dtcb")
    lost = run("replay", log)
    assert lost.exit_code == 1
    assert f"(it was played with --ruleset {ruleset}, which is not there any more)" in lost.stderr
    resumed = run("play", "--resume", save)
    # named as the ruleset it was saved with, not "the built-in content" (code review)
    assert resumed.exit_code == 2 and f"was saved with the ruleset in {ruleset} (" in resumed.stderr
    assert "which is not there any more; pass --ruleset with the content it was played with" in resumed.stderr
    assert run("play", "--resume", save, "--ruleset", tmp_path / "moved.dtcb").exit_code == 0
    assert run("replay", log, "--ruleset", tmp_path / "moved.dtcb").exit_code == 0


def test_the_log_of_a_game_left_early_replays_as_far_as_it_went(tmp_path):
    """Leaving at a prompt (here: the input ends) writes a last log line saying so; `dtc replay` checks
    every answer and event up to it and says the game has no result, exit 0. The same log without
    that line is incomplete (exit 1), and a changed answer in it still differs (exit 1)."""
    log = tmp_path / "left.jsonl"
    played = run("play", "--hero", "druid", "--vs", "duelist", "--seed", 5, "--log", log, input="\n" * 6)
    assert played.exit_code == 0 and "left the game" in played.output
    lines = log.read_text().splitlines()
    assert json.loads(lines[-1]) == {"left": {"answers": sum('"ask"' in line for line in lines)}}
    replayed = run("replay", log)
    assert replayed.exit_code == 0, replayed.stderr
    assert re.match(r"replay matches: \d+ answers, as far as the game went \(it was left before its end\)",
                    replayed.output)

    (tmp_path / "cut.jsonl").write_text("\n".join(lines[:-1]))
    assert "the log is incomplete" in run("replay", tmp_path / "cut.jsonl").stderr
    ask = next(i for i, line in enumerate(lines) if '"ask"' in line)
    record = json.loads(lines[ask])
    record["answer"] = "banana"
    (tmp_path / "changed.jsonl").write_text("\n".join(lines[:ask] + [json.dumps(record)] + lines[ask + 1:]))
    changed = run("replay", tmp_path / "changed.jsonl")
    assert changed.exit_code == 1 and f"changed.jsonl:{ask + 1}: replay differs" in changed.stderr
    later = [i for i, line in enumerate(lines) if '"ask"' in line][-1]  # an answer lost, the end kept
    (tmp_path / "lost.jsonl").write_text("\n".join(lines[:later] + lines[later + 1:]))
    lost = run("replay", tmp_path / "lost.jsonl")
    assert lost.exit_code == 1 and "the log says the game was left after" in lost.stderr
    (tmp_path / "uncounted.jsonl").write_text("\n".join(lines[:-1] + ['{"left": {}}']))
    uncounted = run("replay", tmp_path / "uncounted.jsonl")
    assert uncounted.exit_code == 1
    assert "the line saying the game was left gives no answer count" in uncounted.stderr
    (tmp_path / "more.jsonl").write_text("\n".join(lines + lines[ask:ask + 1]))
    more = run("replay", tmp_path / "more.jsonl")
    assert more.exit_code == 1 and "the log goes on after the line saying the game was left" in more.stderr


@pytest.mark.parametrize("text, message", [
    ("", "is empty: not a dtc game log"),
    ("{nope", "bad.jsonl:1: not a JSON line"),
    ('{"dtc": "something else"}', "is not a dtc game log"),
    ('{"dtc": "dtc-dicethrone-log", "version": 1}', "damaged log header"),
    ('{"dtc": "dtc-dicethrone-log"}\n[1, 2]', "bad.jsonl:2: a log line is either"),
    ('5\n{"event": 1}', "is not a dtc game log"),  # a header that is no object
    ('"a left b"\n{"event": 1}', "is not a dtc game log"),
])
def test_broken_logs_are_refused_with_a_reason(tmp_path, text, message):
    (tmp_path / "bad.jsonl").write_text(text)
    result = run("replay", tmp_path / "bad.jsonl")
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.output


# ------------------------------------------------------------ saves, errors


def bot_game(save):
    return run("play", "--hero", "duelist", "--vs", "druid", "--auto", "--seed", 9, "--save", save)


def test_a_saved_bot_game_resumes_to_the_same_result(tmp_path):
    save = tmp_path / "s.json"
    whole = bot_game(save)
    assert whole.exit_code == 0
    data = json.loads(save.read_text())
    data["answers"] = data["answers"][: len(data["answers"]) // 2]
    save.write_text(json.dumps(data))
    resumed = run("play", "--resume", save)
    assert resumed.exit_code == 0
    assert resumed.output.splitlines()[-1] == whole.output.splitlines()[-1]
    assert f"resuming after {len(data['answers'])} answers" in resumed.output


def test_a_logged_game_resumed_goes_on_being_logged_and_replays_whole(tmp_path):
    """A game saved with `--log` names its log; resumed without `--log`, it is logged there again
    (whole, so it replays from the start) and the player is told; `--log` elsewhere wins."""
    save, log = tmp_path / "s.json", tmp_path / "g.jsonl"
    whole = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 5, "--save", save,
                "--log", log)
    assert whole.exit_code == 0
    data = json.loads(save.read_text())
    assert data["log_file"] == str(log.resolve())
    data["answers"] = data["answers"][: len(data["answers"]) // 2]
    save.write_text(json.dumps(data))
    log.write_text("")  # what a game left early would have left unfinished
    resumed = run("play", "--resume", save)
    assert resumed.exit_code == 0
    assert f"note: the game is logged to {log.resolve()} again" in resumed.stderr
    replayed = run("replay", log)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.startswith("replay matches:")
    elsewhere = tmp_path / "other.jsonl"
    save.write_text(json.dumps(data))
    moved = run("play", "--resume", save, "--log", elsewhere)
    assert moved.exit_code == 0 and "note: the game is logged" not in moved.stderr
    assert run("replay", elsewhere).exit_code == 0


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"),
    ("not json", "is not valid JSON"),
    ('{"dtc": "dtc-dicethrone-log"}', "is not a dtc save file"),
    ('{"dtc": "dtc-dicethrone-save", "version": 99}', "save format 99 is not supported"),
    ('{"dtc": "dtc-dicethrone-save", "version": 1, "seed": 1}', "damaged save file"),
])
def test_broken_saves_are_refused_with_a_reason(tmp_path, content, message):
    save = tmp_path / "s.json"
    if content is not None:
        save.write_text(content)
    result = run("play", "--resume", save)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_a_save_whose_answers_do_not_fit_is_refused(tmp_path):
    save = tmp_path / "s.json"
    assert bot_game(save).exit_code == 0
    data = json.loads(save.read_text())
    data["answers"][0] = "banana"
    save.write_text(json.dumps(data))
    result = run("play", "--resume", save)
    assert result.exit_code == 2 and "the saved game does not fit this ruleset" in result.stderr
    data["answers"] = data["answers"][1:] + [None, None]
    data["answers"][0] = None
    save.write_text(json.dumps(data))
    result = run("play", "--resume", save)
    assert result.exit_code == 2 and "does not fit" in result.stderr


def test_a_save_from_another_ruleset_is_refused(tmp_path):
    save = tmp_path / "s.json"
    save.write_text(json.dumps({"dtc": "dtc-dicethrone-save", "version": 1, "ruleset": "ab" * 32,
                                "seed": 1, "heroes": ["Druid", "Duelist"], "agents": ["human", "heuristic"],
                                "answers": []}))
    result = run("play", "--resume", save)
    assert result.exit_code == 2
    assert "s.json was saved with the built-in content (abababababababab…), which has changed since" \
        in result.stderr
    # made by another dtc: the content may be the same, compiled otherwise (tester QA: told to pass
    # the same --ruleset, which was the same)
    save.write_text(json.dumps({**json.loads(save.read_text()), "engine": "0123456789abcdef"}))
    result = run("play", "--resume", save)
    assert result.exit_code == 2 and "which another version of dtc compiled (engine 0123456789abcdef" \
        in result.stderr
    # another --ruleset named than the one it was saved with: said so (it said "has changed since")
    from conftest import ROOT

    given = run("play", "--resume", save, "--ruleset", ROOT / "content" / "heroes")
    assert given.exit_code == 2 and f"not --ruleset {ROOT / 'content' / 'heroes'} (" in given.stderr
    assert "resume it without --ruleset" in given.stderr


def test_a_log_from_another_dtc_says_so(tmp_path):
    """A log recorded by another dtc names it, not "pass the same --ruleset" (tester QA)."""
    log = tmp_path / "g.jsonl"
    played = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 2, "--log", log)
    assert played.exit_code == 0
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head.update(ruleset="cd" * 32, engine="0123456789abcdef")
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    result = run("replay", log)
    assert result.exit_code == 1
    assert "recorded by another version of dtc (engine 0123456789abcdef" in result.stderr


def test_the_save_is_written_atomically(tmp_path):
    save = tmp_path / "s.json"
    assert bot_game(save).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary file left behind


@pytest.mark.parametrize("args, message", [
    (["--hero", "druid"], "say who plays: --hero HERO --vs HERO"),
    (["--hero", "druidd", "--vs", "duelist"], "no hero `druidd`; did you mean `Druid`?"),
    (["--hero", "druid", "--vs", "wizard"], "--vs: no hero `wizard`"),
    # a designer's own hero, asked of the built-in content: where it would be found
    (["--hero", "storm-warden", "--vs", "druid"], "(the built-in content; a hero of your own: pass --ruleset "
                                                  "with the folder that holds its file"),
])
def test_play_usage_errors(args, message):
    result = run("play", *args)
    assert result.exit_code == 2 and message in result.stderr


# --------------------------------------------------------------- simulate


def test_simulate_a_mode_is_the_same_whatever_the_jobs():
    """`dtc simulate --mode 2v2 --all` (every table of two teams of different heroes) and `--mode
    koth --heroes ...`: the same numbers with 1 and 2 worker processes; each side's rate with its
    interval, the rate by place at the table, the teams' and heroes' rates over every table."""
    every = ("simulate", "--mode", "2v2", "--all", "--games", 30, "--seed", 1, "--format", "json")
    one, two = run(*every, "--jobs", 1), run(*every, "--jobs", 2)
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    data = json.loads(one.output)
    assert data["mode"] == "2v2" and len(data["tables"]) == 3 and data["places"] == [[1, 2], [3, 4]]
    for table in data["tables"]:
        assert table["games"] == 30
        rest = table["draw_rate"] + table["unfinished_rate"]
        shares = sum(side["win_rate"] for side in table["sides"]) + rest
        assert abs(shares - 1) < 1e-3 and abs(sum(table["seat_win_rates"]) + table["draw_rate"]
                                               + table["unfinished_rate"] - 1) < 1e-3
    assert {tuple(t["team"]) for t in data["teams"]} == {tuple(s["heroes"]) for t in data["tables"]
                                                        for s in t["sides"]}
    assert {h["hero"] for h in data["heroes"]} == {"Druid", "Duelist", "Forgemaster", "Sun Elf"}
    args = ("simulate", "--mode", "koth", "--heroes", "druid,duelist,sun_elf", "--games", 40, "--seed", 1,
            "--format", "json")
    one, two = run(*args, "--jobs", 1), run(*args, "--jobs", 2)
    assert one.exit_code == 0 and one.output == two.output
    (table,) = json.loads(one.output)["tables"]
    assert [s["heroes"] for s in table["sides"]] == [["Druid"], ["Duelist"], ["Sun Elf"]]
    assert json.loads(one.output)["mode"] == "king_of_the_hill"


def test_simulate_json_is_the_same_whatever_the_jobs():
    one = run("simulate", "druid", "duelist", "--games", 120, "--seed", 1, "--format", "json", "--jobs", 1)
    two = run("simulate", "druid", "duelist", "--games", 120, "--seed", 1, "--format", "json", "--jobs", 2)
    assert one.exit_code == 0 and one.output == two.output
    data = json.loads(one.output)
    (pair,) = data["pairs"]
    assert pair["games"] == 120 and (pair["hero"], pair["opponent"]) == ("Druid", "Duelist")
    shares = pair["win_rate"] + pair["opponent_win_rate"] + pair["draw_rate"] + pair["unfinished_rate"]
    assert abs(shares - 1) < 1e-3  # rounded
    low, high = pair["win_rate_ci95"]
    assert 0 <= low <= pair["win_rate"] <= high <= 1 and high - low < 0.25
    assert 5 < pair["average_turns"] < 60
    other = run("simulate", "druid", "duelist", "--games", 120, "--seed", 2, "--format", "json")
    assert json.loads(other.output)["pairs"] != data["pairs"]


def test_simulate_all_as_csv_and_table():
    result = run("simulate", "--all", "--games", 6, "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len(rows) == 10  # 4 heroes: 6 pairs and 4 mirror matches
    # and how they were made, on every row (tester QA: CSV files of two runs looked the same)
    from dtc import rulesets

    assert {(r["seed"], r["bot"], r["opponent_bot"], r["ruleset"], r["rules"]) for r in rows} == \
        {("1", "heuristic", "heuristic", rulesets.builtin().content_hash, "")}
    assert {r["hero"] for r in rows} | {r["opponent"] for r in rows} == {"Druid", "Duelist", "Forgemaster",
                                                                       "Sun Elf"}
    table = run("simulate", "forgemaster", "sun-elf", "--games", 6)
    assert table.exit_code == 0 and "Forgemaster" in table.output and "wins (95% CI)" in table.output
    from dtc import rulesets

    built_in = rulesets.builtin().content_hash[:16]
    assert f"ruleset: the built-in content ({built_in}…)" in table.output  # which rules were played
    mirror = run("simulate", "duelist", "duelist", "--games", 6)  # which Duelist is "hero" (QA)
    assert mirror.exit_code == 0 and "│ Duelist (P1) │ Duelist (P2) │" in mirror.output


def test_simulate_all_gives_each_heros_win_rate_against_the_others():
    """A designer's question, "its win rate against every other hero": with --all, each hero's games
    against the others from either side of a pair (mirror matches left out), most wins first."""
    data = json.loads(run("simulate", "--all", "--games", 8, "--seed", 3, "--format", "json").output)
    heroes = {h["hero"]: h for h in data["heroes"]}
    assert set(heroes) == {"Druid", "Duelist", "Forgemaster", "Sun Elf"}
    for name, h in heroes.items():
        assert h["games"] == 3 * 8  # three opponents, 8 games each
        pairs = [p for p in data["pairs"] if p["hero"] != p["opponent"]]
        wins = sum(p["win_rate"] * p["games"] for p in pairs if p["hero"] == name) \
            + sum(p["opponent_win_rate"] * p["games"] for p in pairs if p["opponent"] == name)
        assert abs(h["win_rate"] * h["games"] - wins) < 0.01
        assert abs(h["win_rate"] + h["loss_rate"] + h["draw_rate"] + h["unfinished_rate"] - 1) < 1e-3
    rates = [h["win_rate"] for h in data["heroes"]]
    assert rates == sorted(rates, reverse=True)
    table = run("simulate", "--all", "--games", 8, "--seed", 3).output
    assert "each hero against the others (mirror matches left out)" in table
    pair = json.loads(run("simulate", "druid", "duelist", "--games", 4, "--format", "json").output)
    assert "heroes" not in pair  # one pair: its row says it all


def test_a_pairs_games_are_the_same_alone_or_in_the_matrix():
    """A designer reruns one row of the matrix to check it: the same games (each game's seed comes
    from the seed and the heroes' names, not the pair's place in the matrix; tester QA: 57% in the
    matrix, 46% alone)."""
    matrix = json.loads(run("simulate", "--all", "--games", 30, "--seed", 4, "--format", "json").output)
    alone = json.loads(run("simulate", "forgemaster", "sun_elf", "--games", 30, "--seed", 4,
                           "--format", "json").output)
    row = next(p for p in matrix["pairs"] if (p["hero"], p["opponent"]) == ("Forgemaster", "Sun Elf"))
    assert alone["pairs"] == [row]


def test_all_with_a_bot_per_seat_plays_every_seating():
    """--all --vs-bot: the hero named first in a pair got --bot, so "each hero against the others"
    ranked the heroes by their order (Druid 100%, Sun Elf 0.6%: tester QA). Every ordered pair is
    played, and each hero is counted from the --bot seat."""
    data = json.loads(run("simulate", "--all", "--games", 5, "--vs-bot", "random", "--format", "json").output)
    seatings = {(p["hero"], p["opponent"]) for p in data["pairs"]}
    assert ("Druid", "Sun Elf") in seatings and ("Sun Elf", "Druid") in seatings and len(seatings) == 16
    heroes = {h["hero"]: h for h in data["heroes"]}
    assert all(h["games"] == 3 * 5 for h in heroes.values())
    wins = sum(p["win_rate"] * p["games"] for p in data["pairs"]
               if p["hero"] == "Sun Elf" and p["opponent"] != "Sun Elf")
    assert abs(heroes["Sun Elf"]["win_rate"] * 15 - wins) < 0.01
    assert heroes["Sun Elf"]["win_rate"] > 0.5  # a heuristic bot beats a random one, whatever its hero
    table = run("simulate", "--all", "--games", 5, "--vs-bot", "random").output
    assert "as the heuristic bot against the random bot" in " ".join(table.split())  # a title may wrap


def test_games_stopped_at_the_turn_limit_are_not_draws(monkeypatch):
    """A draw is every hero defeated together (000_eaa64e0770891241.txt, "Health": "If all
    remaining players are simultaneously reduced to 0 health, the game is a draw"); a game the engine stops
    at its turn limit has no end the rulebook gives: `unfinished`, apart from draws, and said so."""
    from dtc.dicethrone import engine

    monkeypatch.setattr(engine, "MAX_TURNS", 2)
    data = json.loads(run("simulate", "druid", "duelist", "--games", 10, "--format", "json").output)
    (pair,) = data["pairs"]
    assert pair["unfinished_rate"] == 1.0 and pair["draw_rate"] == 0.0 and pair["win_rate"] == 0.0
    assert pair["start_player_win_rate"] is None and pair["average_turns"] is None  # no game ended
    table = run("simulate", "druid", "duelist", "--games", 10)
    assert "unfinished" in table.output
    assert "stopped at the turn limit (2 turns) with no winner (not in avg turns)" in table.output
    played = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 3)
    assert "The game stops at the turn limit after 2 turns, with no winner" in played.output
    # the summary adds both heroes' health to what the narration told (it repeated it: player QA)
    last = played.output.rstrip().splitlines()[-1]
    assert re.fullmatch(r"result: no winner \(stopped at the turn limit\) after 2 turns "
                        r"\(health: Druid \d+, Duelist \d+\)", last), last
    assert "draw" not in played.output.split("The game stops")[1]
    monkeypatch.undo()
    plain = run("simulate", "druid", "duelist", "--games", 10)
    assert "unfinished" not in plain.output  # the column comes only when a game had no end


@pytest.mark.parametrize("args, message", [
    (["druid"], "give two heroes (`dtc simulate HERO HERO`) or --all; 1 given"),
    (["druid", "duelist", "sun_elf"], "or --all; 3 given"),
    (["druid", "duelist", "--all"], "give two heroes or --all, not both"),
    (["druid", "mage"], "no hero `mage`"),
])
def test_simulate_usage_errors(args, message):
    result = run("simulate", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_a_compiled_ruleset_plays_like_the_built_in_content(tmp_path):
    from conftest import ROOT

    ruleset = tmp_path / "ruleset.dtcb"
    assert run("compile", ROOT / "content", "-o", ruleset).exit_code == 0
    game = ["play", "--hero", "druid", "--vs", "forgemaster", "--auto", "--seed", 12]
    built_in, compiled = run(*game), run(*game, "--ruleset", ruleset)
    assert compiled.exit_code == 0 and compiled.output == built_in.output


def test_a_ruleset_without_common_cards_is_said_to_have_none(tmp_path):
    """`--ruleset content/heroes` (the heroes folder, not the content) plays decks without the common
    cards, and the win rates differ a lot from the content's (14% against 59%, silently: tester QA):
    a note says so, for simulate as for compile; the whole content folder has none."""
    from conftest import ROOT

    heroes = ROOT / "content" / "heroes"
    played = run("simulate", "druid", "duelist", "--games", 2, "--ruleset", heroes)
    assert played.exit_code == 0
    assert f"note: {heroes} holds no common cards" in played.stderr
    compiled = run("compile", heroes, "-o", tmp_path / "h.dtcb")
    assert compiled.exit_code == 0 and "holds no common cards" in compiled.stderr
    whole = run("simulate", "druid", "duelist", "--games", 2, "--ruleset", ROOT / "content")
    assert whole.exit_code == 0 and "note:" not in whole.stderr


def test_simulate_killed_stops_its_workers_quietly():
    """`kill` (SIGTERM) on a run with workers: it leaves as Ctrl-C does, exit 143, with no worker
    tracebacks (four BrokenPipeError tracebacks: tester QA) and nothing on stdout."""
    import subprocess
    import time

    child = subprocess.Popen([DTC, "simulate", "druid", "duelist", "--games", "5000", "--jobs", "2",
                              "--format", "csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    children = Path(f"/proc/{child.pid}/task/{child.pid}/children")
    for _ in range(300):  # until its workers run (Linux tells a process's children)
        if children.exists() and len(children.read_text().split()) >= 2:
            break
        time.sleep(0.05)
    time.sleep(0.5)  # and play
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in err and out == b""


def test_simulate_shows_progress_on_a_terminal(tmp_path):
    child = spawn("simulate", "druid", "duelist", "--games", 300)
    child.expect("simulating")
    child.expect(r"wins \(95% CI\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # on stderr: `> results.csv` at a terminal still shows it, and the file holds the CSV alone (tester
    # QA: no bar at all; Ctrl-C left a newline in the file)
    out = tmp_path / "out.csv"

    def to_file(games: int) -> pexpect.spawn:
        command = f"'{DTC}' simulate druid duelist --games {games} --format csv > '{out}'"
        return pexpect.spawn("/bin/sh", ["-c", command], timeout=60,
                             env={"PATH": str(Path(sys.executable).parent), "HOME": str(Path.home())},
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    child = to_file(300)
    child.expect("simulating")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and out.read_text().startswith("hero,opponent,games,")
    child = to_file(3000)
    child.expect("simulating")
    child.sendintr()
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert out.read_text() == ""


def test_the_table_shows_sides_tiers_zone_cards_timings_and_incoming_damage(compiled):
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import table
    from dtc.dicethrone.requests import Act

    game = Game(compiled, [compiled.hero("druid")[0], compiled.hero("forgemaster")[0]], 1)
    next(game.play())
    named = {s["name"]: i for i, s in enumerate(compiled.statuses)}
    game.gain_status(0, named["Regenerate"], 1, 0)
    game.gain_status(1, named["Armor"], 1, 1)
    shown = table(game, 0)
    assert "1 Regenerate (2)" in shown  # its side: heals 2
    assert re.search(r"1 Armor \(\w+ Helmet\)", shown) and "The Forge: empty" in shown
    # unnumbered: only the menu's numbers pick (a hand numbered beside it misled: player QA)
    assert re.search(r"your hand: [^[]+ \(\d CP, (upgrade|instant|main phase|roll phase)", shown)
    game.draw(0, 4)  # a long hand is broken between cards, never within one
    hand = table(game, 0).splitlines()[2:]
    entry = r"[^[ ][^[]* \(\d+ CP, [^)]+\)"
    row_pattern = rf"(your hand: | {{11}}){entry}(  {entry})*"
    assert len(hand) > 1 and all(len(row) <= 100 and re.fullmatch(row_pattern, row) for row in hand), hand
    game.accumulate = True
    game.incoming[0].amounts.append((5, game.rules.damage_types[0]))
    said = []
    human = Human(read=lambda prompt: "", say=said.append)
    assert human.answer(game, Act("Defensive Roll Phase", 0, "defensive", ())) is None
    assert "incoming for you so far: 5 dmg, 0 prevented" in said


def test_picking_every_item_there_is_asks_nothing_and_hints_plainly(compiled):
    """A pick with nothing to choose (take the one Ore found) is not asked: it asked "pick all 1
    (Enter)", where other picks take Enter for none (player QA); a pick of one says "1 number", not
    "1 different numbers"."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import ChooseItems

    game = Game(compiled, [0, 1], 1)
    typed, said = iter([""]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    assert human.answer(game, ChooseItems("Mining", 0, ("Pick Ore",), 1, 1, "search")) == [0]
    assert said[-1] == "  (the only choice: taking it)" and not [line for line in said if "> " in line]
    typed, said = iter(["x", "3", "1"]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    assert human.answer(game, ChooseItems("Cleanse", 0, ("Wound", "Bleed"), 1, 1, "remove")) == [0]
    assert said.count("  ? give 1 number from 1 to 2") == 2


def test_up_to_n_chosen_players_is_asked_as_players_and_bots_help_themselves(compiled):
    """`Up to 2 chosen players gain Protect` (issue 20, "up to 2 chosen opponents"): a player types
    players (nonsense and one too many are asked again, Enter is none); the heuristic bot gives a help
    to herself alone and a harm to her opponents."""
    from dtc.agents.bots import HeuristicBot
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import ChoosePlayers

    game = Game(compiled, [0, 1], 1)
    typed, said = iter(["P7", "P1 P2 P2", "p2, P1"]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    ask = ChoosePlayers("Rally", 0, (0, 1), 2, "chosen_player", "Up to 2 chosen players gain Protect", False)
    assert sorted(human.answer(game, ask)) == [0, 1]
    assert said.count("  ? type up to 2 different players of P1, P2, such as `P2`, or press Enter") == 2
    assert "  P1 Druid (health 50); P2 Duelist (health 50)" in said  # who each one is
    typed = iter([""])
    assert human.answer(game, ask) == []
    bot = HeuristicBot(seed=1)
    assert bot.answer(game, ask) == [0]
    harm = ChoosePlayers("Volley", 0, (0, 1), 1, "chosen_player", "Deal 2 dmg to up to 1 chosen player", True)
    assert bot.answer(game, harm) == [1]



def test_a_may_question_shows_what_its_effect_does_either_way(compiled):
    """The Dawn side's "you may add dmg equal to the Sun Dial value" is followed, yes or no, by "At
    the end of the Roll Phase, reduce Sun Dial by 4" (000_eaa64e0770891241.txt, "Sun Elf" > "Sun
    Dial"): the question alone hid that declining keeps nothing, so the whole effect is shown first.
    The request comes from a real game (bots until the dial asks)."""
    from dtc.agents.base import play
    from dtc.agents.bots import HeuristicBot
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import YesNo

    sun_elf = compiled.hero("sun-elf")[0]
    for seed in range(10):
        game, asked = Game(compiled, [sun_elf, sun_elf], seed), []
        bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
        play(game, bots, recorder=lambda r, a, kept=asked: kept.append(r))
        dial = [r for r in asked if isinstance(r, YesNo) and r.owner.endswith("Dawn side")]
        if dial:
            break
    request = dial[0]
    assert "reduce Sun Dial by 4" in request.text
    said = []
    human = Human(read=lambda prompt: "n", say=said.append)
    human.asked = True
    assert human.answer(game, request) is False
    assert said == ["  (Sun Dial (Dawn side): If your Offensive Roll Phase results in an Attack, you may "
                    "choose to add the Sun Dial value as dmg. At the end of the Roll Phase, reduce Sun Dial "
                    "by 4. Attack Modifier.)"]  # as printed on the board
    # a question that is the whole effect says nothing more
    said.clear()
    human.answer(game, YesNo("Forgemaster › The Mines", 0, "You may Mine your deck",
                             "During your Upkeep Phase, you may Mine your deck."))
    assert said == []


def test_a_question_from_a_card_names_the_card_as_players_do(compiled):
    """A card's question says the card's name (`Lucky Break: choose one`), not where its text sits
    in the content (`Common › card Lucky Break`); a status's says the status (`Disarm`, not
    `Duelist › Disarm`, which read as if the Duelist were choosing)."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import ChooseItems, ChooseOption, YesNo

    game = Game(compiled, [0, 1], 1)
    said = []
    human = Human(read=lambda prompt: "1", say=said.append)
    human.asked = True
    human.answer(game, ChooseOption("Common › card Lucky Break", 0, ("Draw 1 card", "Gain 1 CP")))
    human.answer(game, ChooseItems("Druid › card Ferocity II › tier 1", 0, ("Wound",), 0, 1, "remove"))
    human.answer(game, ChooseOption("Duelist › Disarm", 0, ("Discard 1 card", "Skip your Income Phase")))
    assert [line for line in said if not line.startswith("  ")] == [
        "Lucky Break: choose one", "Ferocity II: remove", "Disarm: choose one"]
    # a yes/no names its source: one Armor of two is asking
    asked = []
    human = Human(read=lambda prompt: asked.append(prompt) or "y", say=said.append)
    human.asked = True
    assert human.answer(game, YesNo("Forgemaster › Armor › Gold Shield", 0, "You may prevent 1 dmg")) is True
    assert asked == ["Armor (Gold Shield): You may prevent 1 dmg? [y/n] > "]


def test_questions_with_nothing_to_decide_are_not_asked(compiled):
    """A window where everything offered would do nothing now passes unasked (and such a card is
    played only after a question); a pick among tokens all alike takes one unasked; a pick that may
    be none says so and takes Enter or 0."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act, Action
    from dtc.vm import ChooseItems

    game = Game(compiled, [0, 1], 1)
    said, typed = [], iter(["0", "x", "", "2"])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    idle = Action("play", "Shrug It Off", 0, 1, 1.0, True)
    assert human.answer(game, Act("Main Phase (1)", 0, "main", (idle,))) is None and said == []
    assert human.answer(game, ChooseItems("Druid › Regenerate", 0, ("2", "2"), 1, 1, "flip")) == [0]
    assert said[-1] == "  (all alike: taking it)"
    assert human.answer(game, ChooseItems("Mining", 0, ("Pick Ore",), 0, 1, "place")) == []
    assert said[-1] == "pick up to 1 (Enter: none) > "
    assert human.answer(game, ChooseItems("Mining", 0, ("Pick Ore",), 0, 1, "place")) == []
    assert "  ? give up to 1 number from 1 to 1, or press Enter for none" in said
    assert human.answer(game, ChooseItems("Mining", 0, ("Pick Ore", "Forge Ore"), 0, 1, "place")) == [1]
    # a card that would do nothing is played only when she says so, after a question
    said, typed = [], iter(["1", "n", "1", "y"])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    useful = Action("play", "Quick Study", 1, 1, 1.0)
    assert human.answer(game, Act("Main Phase (1)", 0, "main", (idle, useful))) == 0
    assert said.count("Shrug It Off would do nothing now: play it anyway? [y/n] > ") == 2


def test_dice_questions_say_what_the_card_says(compiled):
    """"Change 1 die to any value" asks for one die, not "up to 1 dice"; a value off the die is
    answered with the values it can take; one die on the table is re-rolled with a yes, in effect;
    a re-roll among the abilities to activate is named in the hint."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Activate, Choice
    from dtc.vm import ChooseDice

    game = Game(compiled, [0, 1], 1)
    said, typed = [], iter(["3=9", "3=6", "1 2 3", "1 2", "2", "1", "5", "2"])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    six = (1, 2, 3, 4, 5, 6)
    assert human.answer(game, ChooseDice("Fine Tuning", 0, (1, 2, 3, 4, 5), 1, "change", six)) == [[2, 6]]
    assert "change 1 die: a `die=value` pair (values 1, 2, 3, 4, 5, 6; Enter for none) > " in said
    assert "  ? write e.g. `5=6`: a die from 1 to 5, a value among 1, 2, 3, 4, 5, 6; or Enter for none" \
        in said
    assert human.answer(game, ChooseDice("Lucky Break", 0, (1, 2, 3, 4, 5), 2, "re-roll")) == [0, 1]
    assert "re-roll up to 2 dice of these (positions; Enter for none) > " in said
    shown = next(line for line in reversed(said) if line.startswith("Lucky Break: dice "))
    assert shown == "Lucky Break: dice #1 1  #2 2  #3 3  #4 4  #5 5"  # the positions it asks for (QA)
    assert "  ? give at most 2 different positions from 1 to 5, e.g. `1 3`, or Enter for none" in said
    assert human.answer(game, ChooseDice("Lucky Break", 0, (6,), 2, "re-roll")) == [0]
    assert said[-2:] == ["  ? type 1 to re-roll the die, or press Enter", "re-roll the die? (1 re-rolls it; "
                         "Enter for none) > "]
    choices = (Choice("Ferocity (3 [Claw])", 0, 0, 4.0), Choice("re-roll (1 roll attempt left)", -1, -1, 0.0))
    assert human.answer(game, Activate("Offensive Roll Phase", 0, (1, 1, 1, 4, 5), choices)) == 1
    assert "  ? type a number from 1 to 2: the ability to activate (or to re-roll), or 0 for none" in said


def test_a_die_changed_by_a_card_takes_a_symbol_name_and_nothing_changed_is_confirmed(compiled):
    """`3=Anvil` names the one face showing [Anvil]; `3=Pick` (three faces) is refused with the
    names it takes; Enter at a card's change asks first, since the card's CP are spent all the same."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import ChooseDice

    game = Game(compiled, [compiled.hero("forgemaster")[0], 0], 1)
    game.roll_faces = game.seats[0].table.faces  # Forgemaster: 1-3 Pick, 4-5 Forge, 6 Anvil
    said, typed = [], iter(["3=Pick", "3=[anvil]", "", "n", "", "y"])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    six = (1, 2, 3, 4, 5, 6)
    card = "Common › card Fine Tuning"
    assert human.answer(game, ChooseDice(card, 0, (1, 2, 3, 4, 5), 1, "change", six)) == [[2, 6]]
    assert "  ? write e.g. `5=6`: a die from 1 to 5, a value among 1, 2, 3, 4, 5, 6 or a symbol (Anvil); " \
        "or Enter for none" in said
    assert human.answer(game, ChooseDice(card, 0, (1, 2, 3, 4, 5), 1, "change", six)) == []
    assert said.count("change no die? (Fine Tuning is spent all the same) [y/n] > ") == 2


def test_enter_at_a_roll_that_meets_nothing_asks_before_it_stops_rolling(compiled):
    """Enter keeps every die and ends the Offensive Roll; with nothing met and attempts left, that
    is asked first (a `n` goes back to the question); with an ability met, or no attempt left, not."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import RollDice

    game = Game(compiled, [compiled.hero("druid")[0], 0], 1)
    said, typed = [], iter(["", "n", "1 2", "", "y"])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    game.roll = [6, 6, 4, 2, 1]  # Leaf Leaf Paw Claw Claw: nothing
    nothing = RollDice("Offensive Roll Phase", 0, tuple(game.roll), (), 1, 3)
    assert human.answer(game, nothing) == [0, 1]
    assert "dice: #1 6:Leaf  #2 6:Leaf  #3 4:Paw  #4 2:Claw  #5 1:Claw   (roll attempt 1 of 3)" in said
    stop = "these dice meet nothing and 2 roll attempt(s) are left: stop rolling anyway? [y/n] > "
    assert said.count(stop) == 1
    assert human.answer(game, nothing) == [] and said.count(stop) == 2
    game.roll = [1, 1, 1, 4, 5]  # three Claws: an ability met, Enter stops at once
    said.clear()
    typed = iter([""])
    assert human.answer(game, RollDice("Offensive Roll Phase", 0, tuple(game.roll), (), 1, 3)) == []
    assert stop not in said


def test_a_step_on_a_track_says_where_each_way_leads(compiled):
    """"You may take 1 Step" asks up or down; the question says where the token is and where each
    way leads (Footwork's positions, top to bottom), so "up" need not be guessed to mean forward."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import ChooseDirection

    game = Game(compiled, [compiled.hero("duelist")[0], 0], 1)
    asked = []
    human = Human(read=lambda prompt: asked.append(prompt) or "down", say=lambda text: None)
    human.asked = True
    assert human.answer(game, ChooseDirection("Duelist › Parry", 0, "Footwork", 1)) == "down"
    assert asked == ["move Footwork 1 (now Neutral; up: Offense 1, down: Defense 1): up or down? > "]
    # `u`/`d`, or the position a way leads to, answer too; anything else is asked again with them
    said, typed = [], iter(["sideways", "offense 1", "d", "Defense 1"])
    human = Human(read=lambda prompt: next(typed), say=said.append)
    human.asked = True
    assert [human.answer(game, ChooseDirection("Duelist › Parry", 0, "Footwork", 1)) for _ in range(3)] \
        == ["up", "down", "down"]
    assert said == ["  ? answer up or down (or where to: Offense 1 or Defense 1)"]

def test_the_narration_tells_a_change_from_a_roll_and_a_sale_before_its_cp(compiled):
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import line, table

    game = Game(compiled, [0, 1], 1)
    changed = {"e": "effect_roll", "player": 0, "dice": [6], "symbols": ["Leaf"], "how": "changes"}
    assert line(game, changed) == "P1 Druid changes the dice: 6:Leaf"  # a log without what changed
    assert line(game, {**changed, "how": "rolls"}) == "P1 Druid rolls 6:Leaf"
    # which dice a card re-rolled or changed, and what they showed, as the engine tells it
    from dtc.vm import RunContext
    ctx = RunContext(0, 0, roll=[1, 6, 6, 6, 6])
    ctx.faces = game.seats[0].table.faces
    ctx.roll[0] = 6
    game.rolled(ctx, 0, "changes", {0: 1})
    assert line(game, game.events[-1]) == \
        "P1 Druid changes die 1 (1:Claw -> 6:Leaf): " + " ".join(["6:Leaf"] * 5)
    ctx.roll[2:4] = [4, 6]
    game.rolled(ctx, 0, "re-rolls", {2: 6, 3: 6})
    assert line(game, game.events[-1]) == ("P1 Druid re-rolls dice 3 and 4 (6:Leaf -> 4:Paw, "
                                           "6:Leaf -> 6:Leaf): 6:Leaf 6:Leaf 4:Paw 6:Leaf 6:Leaf")
    ctx.roll, ctx.faces = [2], game.seats[1].table.faces  # one die: no positions
    game.rolled(ctx, 0, "re-rolls", {0: 6})
    assert line(game, game.events[-1]) == "P1 Druid re-rolls 6:Pierce -> 2:Blade"
    # dice on the table are whose rolled them: a card another player plays on them says so
    game.rolled(RunContext(1, 1, roll=[5, 5]), 1)
    game.roll_faces = game.seats[1].table.faces
    ctx = RunContext(0, 0, roll=game.roll)
    ctx.faces = game.roll_faces
    ctx.roll[1] = 6
    game.rolled(ctx, 0, "changes", {1: 5})
    assert line(game, game.events[-1]) == \
        "P1 Druid changes P2 Duelist's die 2 (5:Boot -> 6:Pierce): 5:Boot 6:Pierce"
    ctx.roll[:] = [4]
    game.rolled(ctx, 0, "re-rolls", {0: 6})
    assert line(game, game.events[-1]) == "P1 Druid re-rolls P2 Duelist's die (6:Pierce -> 4:Boot)"
    me = game.seats[0]
    me.hand = [me.deck.pop(), me.deck.pop()]
    game.sell(0, 0)
    assert [e["e"] for e in game.events[-2:]] == ["sell", "cp"]
    assert "1 card;" in table(game, 0)
    # a status inflicted says by whom; one gained does not
    wound = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Wound")
    game.gain_status(1, wound, 1, 0, by=0)
    assert line(game, game.events[-1]) == "P1 Druid inflicts 1 Wound on P2 Duelist"
    game.gain_status(1, wound, 1, 0)
    assert line(game, game.events[-1]) == "P2 Duelist gains 1 Wound"


def test_w_passes_until_the_players_turn_unless_dmg_comes_at_her(compiled):
    """Holding an instant means a question at every window of the other player's turn; `w` passes
    them until her own turn; she is asked again when dmg is on its way to her, once for each
    amount coming (not at every window while the same dmg waits for the end of the Roll Phase)."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act

    game = Game(compiled, [0, 1], 1)
    game.active = 1  # the other player's turn
    typed, said = iter(["w", ""]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    window = Act("Offensive Roll Phase", 0, "announced", ())
    assert human.answer(game, window) is None
    assert said[-1] == "  (passing until your turn, unless dmg comes at you)"
    asked = len(said)
    assert human.answer(game, window) is None and len(said) == asked  # passed unasked
    game.accumulate = True
    game.incoming[0].amounts.append((5, game.rules.damage_types[0]))
    assert human.answer(game, Act("Defensive Roll Phase", 0, "defensive", ())) is None
    assert "incoming for you so far: 5 dmg, 0 prevented" in said and said[-1].startswith("do what?")
    asked = len(said)  # she let the 5 dmg come: the next windows do not ask about it again ...
    assert human.answer(game, Act("Roll Phase end", 0, "roll_end", ())) is None and len(said) == asked
    game.incoming[0].amounts.append((2, game.rules.damage_types[0]))  # ... but about 7, once
    typed = iter([""])
    assert human.answer(game, Act("Roll Phase end", 0, "roll_end", ())) is None
    assert "incoming for you so far: 7 dmg, 0 prevented" in said
    game.incoming[0].amounts.clear()
    game.active = 0
    typed = iter([""])
    human.answer(game, Act("Main Phase (1)", 0, "main", ()))  # her own Main Phase: no `w`
    assert said[-1] == "do what? (Enter passes; ?: your cards; a: abilities; s: statuses) > "
    # in her own turn's other windows (a player was asked 7-8 times a turn, player QA), `w` passes
    # them until her next Main Phase
    typed = iter(["w", ""])
    assert human.answer(game, Act("Offensive Roll Phase", 0, "offensive", ())) is None
    assert said[-2:] == ["do what? (Enter passes; w: pass until your next Main Phase; ?: your cards; "
                         "a: abilities; s: statuses) > ",
                         "  (passing until your next Main Phase, unless dmg comes at you)"]
    asked = len(said)
    assert human.answer(game, Act("Offensive Roll Phase", 0, "conclude", ())) is None and len(said) == asked
    human.answer(game, Act("Main Phase (2)", 0, "main", ()))  # asked again
    assert said[-1] == "do what? (Enter passes; ?: your cards; a: abilities; s: statuses) > "


def test_w_again_at_the_same_dmg_and_acting_while_waiting(compiled):
    """Pressing `w` again when asked about dmg coming let the same dmg ask again at every window (9
    dmg asked about three times: player QA); acting in a window while waiting lost the window (she
    spent a token to change form, and was not asked again to play the card it served)."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act, Action

    game = Game(compiled, [0, 1], 1)
    game.active, game.accumulate = 1, True
    typed, said = iter(["w", "w"]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    act = (Action("play", "X", 0, 1),)
    assert human.answer(game, Act("Offensive Roll Phase", 0, "announced", act)) is None
    game.incoming[0].amounts.append((9, game.rules.damage_types[0]))
    assert human.answer(game, Act("Defensive Roll Phase", 0, "defensive", act)) is None  # asked: `w`
    asked = len(said)
    assert human.answer(game, Act("Roll Phase end", 0, "roll_end", act)) is None and len(said) == asked
    game.incoming[0].amounts.append((2, game.rules.damage_types[0]))  # 11 now: asked, and she acts
    typed = iter(["1", ""])
    assert human.answer(game, Act("Roll Phase end", 0, "roll_end", act)) == 0
    human.answer(game, Act("Roll Phase end", 0, "roll_end", act))  # the same window, after she acted
    assert said[-1].startswith("do what?") and len(said) > asked + 3


def test_a_yes_no_question_reads_the_table_first(compiled):
    """`s` at `You may Mine your deck? [y/n]` was refused with "answer y or n" (player QA): `?`, `a`
    and `s` read, then the same question."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import YesNo

    game = Game(compiled, [compiled.hero("duelist")[0], 0], 1)
    typed, said = iter(["s", "maybe", "n"]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    assert human.answer(game, YesNo("The Mines", 0, "You may Mine your deck", "")) is False
    assert any(x.startswith("P1 Duelist:\n  - Footwork (track") for x in said)
    assert "  ? answer y or n (?: your cards, a: abilities, s: statuses)" in said


def test_a_prevention_card_offered_before_any_dmg_says_none_is_coming_yet(compiled):
    """Parry offered in the other player's Offensive Roll, nothing announced: it would count against
    the dmg of the Roll Phase ("Reducing Damage"). Offered alone, it is not worth a question (a
    player was asked 7-8 times a turn about Parry and Shrug It Off, player QA): she is asked once
    dmg is on its way. Offered with something else, the menu says none is coming yet."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act

    game = Game(compiled, [compiled.hero("duelist")[0], 0], 1)
    p = game.seats[0]
    p.hand[:] = [next(c for c in p.deck if c.card.name == name) for name in ("Parry", "Quick Study")]
    game.active, game.phase, p.cp = 1, "Offensive Roll Phase", 5
    said = []
    human = Human(read=lambda prompt: "", say=said.append)
    human.asked = True
    offered = tuple(a for a in game.actions(0, "announced") if a.kind == "play")
    assert [a.name for a in offered] == ["Parry", "Quick Study"]
    assert human.answer(game, Act(game.phase, 0, "announced", offered[:1])) is None and said == []
    human.answer(game, Act(game.phase, 0, "announced", offered))
    assert "  [1] play Parry (2 CP) - no dmg coming at you yet" in said
    said.clear()
    game.accumulate = True
    game.incoming[0].amounts.append((5, game.rules.damage_types[0]))
    human.answer(game, Act(game.phase, 0, "announced", offered[:1]))
    assert "  [1] play Parry (2 CP)" in said


def test_an_effect_usable_at_any_time_alone_is_offered_in_the_main_phase_or_against_dmg(compiled):
    """The Forge ("At any time, you may scrap 1 Ore card") offered alone stopped the game at every
    step of every turn (7 stops for one Attack, player QA): she is asked in her own Main Phase and when
    dmg comes at her, not in the other windows."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act

    game = Game(compiled, [compiled.hero("forgemaster")[0], 0], 1)
    p = game.seats[0]
    forge = next(i for i, c in enumerate(p.table.components) if c["kind"] == "zone")
    p.zones[forge] = [next(c for c in p.deck if c.card.name == "Forge Ore")]
    p.hand.clear()
    said = []
    human = Human(read=lambda prompt: "", say=said.append)
    human.asked = True
    for active, phase, window in ((0, "Offensive Roll Phase", "conclude"), (1, "Main Phase (1)", "main")):
        game.active, game.phase = active, phase
        offered = tuple(game.actions(0, window))
        assert [a.kind for a in offered] == ["use"]
        assert human.answer(game, Act(phase, 0, window, offered)) is None and said == []
    game.active, game.phase = 0, "Main Phase (1)"
    human.answer(game, Act(game.phase, 0, "main", tuple(game.actions(0, "main"))))
    assert "  [1] use The Forge: scrap 1 Ore card" in said
    said.clear()
    game.active, game.phase, game.accumulate = 1, "Defensive Roll Phase", True
    game.incoming[0].amounts.append((5, game.rules.damage_types[0]))
    human.answer(game, Act(game.phase, 0, "defensive", tuple(game.actions(0, "defensive"))))
    assert "  [1] use The Forge: scrap 1 Ore card" in said


@pytest.mark.parametrize("phase, window, header", [
    ("Roll Phase end", "roll_end", "-- Roll Phase end (at the end of the Roll Phase): you may act --"),
    ("Offensive Roll Phase", "conclude",
     "-- Offensive Roll Phase (as it concludes with an Attack): you may act --"),
    ("Main Phase (1)", "then", "-- Main Phase (1) (at a Then): you may act --"),
    ("Upkeep Phase", "upkeep", "-- Upkeep Phase: you may act --"),
])
def test_a_window_says_when_it_opens_in_players_words(compiled, phase, window, header):
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act

    game = Game(compiled, [0, 1], 1)
    game.phase, game.active = phase, 0
    said = []
    human = Human(read=lambda prompt: "", say=said.append)
    human.asked = True
    human.answer(game, Act(phase, 0, window, ()))
    assert header in said and not any(f"({window})" in line for line in said)  # no engine names
    game.active = 1  # the other player's turn: whose it is is said
    human.answer(game, Act(phase, 0, window, ()))
    assert header.replace(": you may act", f", P2 {game.seats[1].table.name}'s turn: you may act") in said


def test_the_activation_menu_says_what_each_tier_needs(compiled):
    """`Pick Axe (1)`, `(2)`, `(3)` would not tell the tiers apart: each is called by what it needs
    (so is each in the narration and in `dtc odds`), the highest met alone offered; an ability of
    one option says it beside."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Activate

    game = Game(compiled, [compiled.hero("forgemaster")[0], 0], 1)
    game.roll = [1, 1, 1, 1, 4]
    said = []
    typed = iter(["1"])
    human = Human(read=lambda prompt: next(typed), say=said.append)
    human.asked = True
    choices = tuple(game.choices(0))
    assert human.answer(game, Activate("Offensive Roll Phase", 0, tuple(game.roll), choices)) == 0
    # what activating it does, as written: the tier's effect, then the ability's own
    assert "  [1] Pick Axe (4 [Pick]): Deal 6 dmg. On 4-of-a-kind [Forge], gain 1 CP." in said
    assert not any("(3 [Pick])" in line for line in said)
    game.roll = [1, 4, 4, 5, 6]  # Pick Forge Forge Forge Anvil: an ability of one option
    said.clear()
    human.read = lambda prompt: "1"
    human.answer(game, Activate("Offensive Roll Phase", 0, tuple(game.roll), tuple(game.choices(0))))
    assert any(re.fullmatch(r"  \[\d\] [^(]+  \(met: .+\): [A-Z].+\.", line) for line in said), said


def test_a_at_a_window_or_a_roll_shows_every_heros_abilities_as_they_are_now(compiled):
    """`a` lists the player's abilities, then the opponent's, each option with what it needs and what
    it does as written (an upgrade in place of the board's); `?` at a roll shows the hand; then the
    same question again."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import card_texts
    from dtc.dicethrone.requests import Act, Action, RollDice

    game = Game(compiled, [compiled.hero("forgemaster")[0], compiled.hero("druid")[0]], 1)
    game.roll = [1, 1, 1, 4, 6]
    said, typed = [], iter(["a", "?", "", "A", ""])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    assert human.answer(game, RollDice("Offensive Roll Phase", 0, tuple(game.roll), (), 1, 3)) == []
    shown = "\n".join(said)
    assert shown.index("P1 Forgemaster's abilities:") < shown.index("P2 Druid's abilities:")
    assert "      5 [Pick]: Deal 7 dmg." in shown and "  - Masterwork (defensive, 1 die): On [Pick]" in shown
    assert "      Large Straight: Gain Shape Shift. Then deal 7 dmg & roll 1 die" in shown
    # an ability with no effect of its own says what the board says of it (it read "(no text)")
    assert "  - Bear Form (passive): WHEN BEAR FORM IS ACTIVE... Your Defensive Ability is stronger" in shown
    assert card_texts(game, 0) in shown  # `?`: the cards in hand
    said.clear()
    human.answer(game, Act("Main Phase (1)", 0, "main", (Action("sell", "X", 0, 1),)))
    assert any(line.startswith("P1 Forgemaster's abilities:") for line in "\n".join(said).splitlines())


def test_s_shows_every_heros_status_effects_dials_and_tracks(compiled):
    """`s` says what the status effects, dials and tracks do, as the rules print them, and where they
    stand now (a player held Sun Marked for turns with nothing in the game saying what it did, and
    could not read the Sun Dial's or Footwork's rules: player QA). Then the same question again."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act, Action

    game = Game(compiled, [compiled.hero("duelist")[0], compiled.hero("sun_elf")[0]], 1)
    game.gain_status(0, next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Sun Marked"), 1, 0)
    said, typed = [], iter(["s", ""])
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    game.active = 0
    assert human.answer(game, Act("Main Phase (1)", 0, "main", (Action("sell", "X", 0, 1),))) is None
    shown = "\n".join(said)
    assert shown.index("P1 Duelist:") < shown.index("P2 Sun Elf:")
    assert "  - Footwork (track, now Neutral)\n      at Offense 3: When Attacking, add 3 dmg." in shown
    # each as printed ("Duelist" > "Status Effects"), with when it is spent as dtc read it
    assert ("  - Guard Break (stack limit 2, spendable as you conclude your Offensive Roll Phase with an "
            "Attack)\n      If a player concludes their Offensive Roll Phase with an Attack, they may spend "
            "this token and roll 1 die. If the outcome is 4-5, the Attack becomes undefendable.") in shown
    # the Sun Elf's status she holds, under her
    assert "  - Sun Marked (stack limit 1, persistent): holds 1\n      When a player afflicted with this " \
           "token is Attacked by an opponent, the Attacker Heals 7. Attack Modifier. Persistent." in shown
    assert "  - Sun Dial (dial, now 3 on Dusk)" in shown and \
           "      Dawn: Whenever this dial reads 0, immediately flip it over to the Dusk side." in shown
    assert said[-1].startswith("do what?")
    # forms: each with what it gives (it said only "now Druid Form": player QA, round 2)
    from dtc.dicethrone.narrate import element_texts

    druid = Game(compiled, [compiled.hero("druid")[0], 0], 1)
    forms = element_texts(druid, 0).split("\n")
    assert forms[1:3] == ["  - Active Form (forms, now Druid Form)",
                          "      Druid Form: WHEN DRUID FORM IS ACTIVE... At the conclusion of your turn, "
                          "you or a chosen teammate gains Regenerate."]
    assert any(x.startswith("      Cat Form: WHEN CAT FORM IS ACTIVE... If you conclude") for x in forms)


def test_defend_with_says_what_each_defence_does(tmp_path):
    """Two Defensive Abilities: the question listed their names alone, and `a` was refused (designer
    QA). Each comes with its dice and what it does; `a` reads every ability, then the question again."""
    from test_engine import compiled_with_cards

    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import ChooseDefense

    weak = "  - name: Bark\n    dice: 1\n    effect: On [Leaf], prevent 1 dmg.\n\n"
    compiled = compiled_with_cards(tmp_path, "druid.yaml", "", replace=[(
        "defensive:\n  - name: Thick Hide\n", f"defensive:\n{weak}  - name: Thick Hide\n")])
    game = Game(compiled, [compiled.hero("druid")[0], compiled.hero("duelist")[0]], 1)
    typed, said = iter(["a", "2"]), []
    human = Human(read=lambda prompt: said.append(prompt) or next(typed), say=said.append)
    human.asked = True
    assert human.answer(game, ChooseDefense("Defensive Roll Phase", 0, ("Bark", "Thick Hide"))) == 1
    assert "  [1] Bark (1 die): On [Leaf], prevent 1 dmg." in said
    assert any(x.startswith("  [2] Thick Hide (2 dice): If in Bear Form, roll 4 dice instead.") for x in said)
    assert any(x.startswith("P1 Druid's abilities:") for x in said)
    assert said[-1] == "defend with? (?: your cards, a: abilities, s: statuses) > "


def test_choice_prompts_say_what_the_number_is_for(compiled):
    """A number out of range at `choose`, `defend with?` or `activate which?` is answered with what to
    type and what it picks (no bare "type 1 to 2")."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import ChooseDefense, SellDown
    from dtc.vm import ChooseOption

    game = Game(compiled, [0, 1], 1)
    typed, said = iter(["9", "1", "7", "2"]), []
    human = Human(read=lambda prompt: next(typed), say=said.append)
    human.asked = True
    assert human.answer(game, ChooseOption("Solar Burst", 0, ("Gain Charged Gem", "Inflict Sun Marked"))) == 0
    assert "  ? type a number from 1 to 2: the option to take" in said
    assert human.answer(game, ChooseDefense("Defensive Roll Phase", 0, ("Parry", "Riposte"))) == 1
    assert "  ? type a number from 1 to 2: the defensive ability to roll for" in said
    # selling down: `?` reads the cards first, then the same question
    p = game.seats[0]
    p.hand[:] = p.deck[:7]
    typed = iter(["?", "7"])
    said.clear()
    assert human.answer(game, SellDown("Discard Phase", 0, tuple(c.card.name for c in p.hand), 1)) == [6]
    assert f"  - {p.hand[6].card.name} ({p.hand[6].card.cost} CP" in "\n".join(said)
    # an order of effects: Enter resolves them in the order listed
    typed = iter(["", "2"])
    order = ChooseOption("Upkeep Phase", 0, ("Wound", "Sun Dial"), "which resolves first? (each will)")
    assert [human.answer(game, order), human.answer(game, order)] == [0, 1]


def test_a_choose_one_keeps_its_printed_numbers_when_an_option_could_do_nothing(compiled):
    """Spending Shape Shift in Bear Form: "transform into Bear Form" would do nothing and is not
    offered, yet Cat Form stays [2] and Druid Form [3], as printed (the numbers do not move with the
    form she is in); the shut one is shown and refused."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import ChooseOption

    game = Game(compiled, [compiled.hero("druid")[0], 0], 1)
    p = game.seats[0]
    forms = next(i for i, c in enumerate(p.table.components) if c["kind"] == "forms")
    p.components[forms] = p.table.components[forms]["values"].index("Bear Form")
    shape_shift = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Shape Shift")
    game.gain_status(0, shape_shift, 1, 0)
    game.spend_token(0, shape_shift, 0)
    request = next(game.drain())
    assert isinstance(request, ChooseOption) and request.offered == (1, 2) and len(request.printed) == 3
    said, typed = [], iter(["1", "2"])
    human = Human(read=lambda prompt: next(typed), say=said.append)
    human.asked = True
    assert request.options[human.answer(game, request)] == request.printed[1]  # [2]: Cat Form
    assert "  [-] Transform into Bear Form (nothing to do now)" in said
    assert "  [2] Transform into Cat Form" in said and "  ? type one of 2, 3: the option to take" in said


def test_a_question_naming_a_component_shows_its_value(compiled):
    """"You may add dmg equal to the Sun Dial value?" is asked at the conclusion of the Offensive Roll
    Phase, with no table in sight: the prompt says what the dial reads."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.vm import YesNo

    sun_elf = compiled.hero("sun-elf")[0]
    game = Game(compiled, [sun_elf, 0], 1)
    prompts = []
    human = Human(read=lambda prompt: prompts.append(prompt) or "y", say=lambda text: None)
    human.asked = True
    assert human.answer(game, YesNo("Sun Elf › Sun Dial", 0, "You may add dmg equal to the Sun Dial value"))
    assert prompts == ["You may add dmg equal to the Sun Dial value (Sun Dial: 3)? [y/n] > "]


def test_a_players_own_draws_are_named_to_her_and_the_bots_are_not(compiled, capsys):
    """At the terminal a player read "P1 Druid draws 1" and had to ask `?` for the card (player QA):
    her own draws are named; the bot's stay hidden. A reshuffle of the discard pile is told."""
    from dtc.cli.main import _narrator
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import line

    game = Game(compiled, [0, 1], 1)
    game.record = True
    told = len(game.events)
    game.draw(0, 1)
    game.draw(1, 1)
    me, bot = game.seats
    me.deck, me.discard = [], me.deck[:2]
    game.draw(0, 1)
    narrate = _narrator(line, {0})
    for event in game.events[told:]:
        narrate(game, event)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"P1 Druid draws 1: {me.hand[-2].card.name}"
    assert out[1] == "P2 Duelist draws 1"
    assert out[2:] == ["P1 Druid shuffles the discard pile into an empty deck",
                       f"P1 Druid draws 1: {me.hand[-1].card.name}"]


def test_a_window_she_let_pass_is_not_asked_again_until_something_changes(compiled):
    """A player holding an instant card (Quick Study) was stopped ~115 times a game, at every step of
    the other's turn (player QA): passed once, the same offers are not asked about again in that
    turn until dmg comes at her, something new is offered, or, holding a card that alters dice, new
    dice are on the table or a new moment of the roll comes (new dice on the same faces too: a die
    re-rolled to its old value hid her last chance to alter her own dice, player QA round 2). The
    other hero's rolls in progress are not asked about (her dice are altered once she announces)."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.requests import Act

    game = Game(compiled, [compiled.hero("duelist")[0], compiled.hero("druid")[0]], 1)
    p = game.seats[0]
    p.hand[:] = [next(c for c in p.deck if c.card.name == "Quick Study")]
    game.active, p.cp, game.turn_no = 1, 5, 2
    prompts = []
    human = Human(read=lambda prompt: prompts.append(prompt) or "", say=lambda text: None)
    human.asked = True

    def window(phase, name, roll=None):
        game.phase = phase
        if roll is not None:
            game.roll, game.dice_open = list(roll), True
            game.dice_rolled += 1
        human.answer(game, Act(phase, 0, name, tuple(game.actions(0, name))))
        return len(prompts)

    assert window("Upkeep Phase", "upkeep") == 1  # asked
    assert window("Income Phase", "income") == 1  # the same offers: passed already
    assert window("Main Phase (1)", "main") == 1  # the other's Main Phase
    assert window("Offensive Roll Phase", "announced", (1, 2, 3, 4, 5)) == 1  # dice: not hers to alter
    game.accumulate = True
    game.incoming[0].amounts.append((6, game.rules.damage_types[0]))
    assert window("Offensive Roll Phase", "conclude") == 2  # dmg coming at her: asked
    assert window("Roll Phase end", "roll_end") == 2  # the same dmg and offers
    game.incoming[0].amounts.append((2, game.rules.damage_types[0]))
    assert window("Roll Phase end", "roll_end") == 3  # more dmg: asked again
    game.incoming[0].amounts.clear()
    game.roll, game.dice_open, game.accumulate = [], False, False
    assert window("Main Phase (2)", "main") == 3  # the dmg landed: nothing new

    game.turn_no, game.active = 3, 0  # her own turn, a card that alters dice in hand
    p.hand.append(next(c for c in p.deck if c.card.name == "Lucky Break"))
    assert window("Upkeep Phase", "upkeep") == 4  # a new turn
    assert window("Offensive Roll Phase", "offensive", (1, 1, 2, 4, 1)) == 5
    assert window("Offensive Roll Phase", "offensive", (1, 1, 2, 4, 1)) == 6  # re-rolled, the same faces
    assert window("Offensive Roll Phase", "announced") == 7  # the ability announced: the last chance
    game.roll, game.dice_open = [], False
    assert window("Main Phase (2)", "main") == 8  # her own Main Phase always asks
    assert window("Discard Phase", "discard") == 8  # nothing she did not let pass in Main Phase (2)
    # her Attack's dmg, prevented by the defender: news to her too, she may answer it (code review)
    game.phase, game.accumulate = "Roll Phase end", True
    game.incoming[1].amounts.append((4, game.rules.damage_types[0]))
    assert window("Roll Phase end", "roll_end") == 9
    assert window("Roll Phase end", "roll_end") == 9
    game.incoming[1].prevented += 2
    assert window("Roll Phase end", "roll_end") == 10
    # isolated dmg is each time its own instance: always asked (code review)
    game.incoming[1] = type(game.incoming[1])()
    assert window("Main Phase (2)", "isolated") == 11
    assert window("Main Phase (2)", "isolated") == 12


def test_ore_cards_say_how_they_are_used(compiled):
    """Forgemaster, "Ore (Cards)": "choose an Ore card from your Passive Ability, The Forge, and
    perform the Scrap Effect". `?` read "Forge Ore (0 CP, Ore): Heal 2", and the scrap picker named
    the cards alone (player QA): the card's line says where its effect is used from and the symbol it
    counts as for blueprints; the picker says what each card does."""
    from dtc.agents.human import Human
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import card_texts
    from dtc.vm import ChooseItems

    game = Game(compiled, [compiled.hero("forgemaster")[0], 0], 1)
    p = game.seats[0]
    ore = next(c for c in p.deck if c.card.name == "Forge Ore")
    p.hand[:] = [ore]
    assert card_texts(game, 0) == f"  - Forge Ore (0 CP, Ore [Forge]): used from The Forge: {ore.card.text}"
    forge = next(i for i, c in enumerate(p.table.components) if c["kind"] == "zone")
    p.zones[forge] = [ore]
    said = []
    human = Human(read=lambda prompt: "", say=said.append)
    human.asked = True
    assert human.answer(game, ChooseItems("Forgemaster › The Forge", 0, ("Forge Ore",), 0, 1, "use")) == []
    assert f"  [1] Forge Ore: {ore.card.text}" in said


def test_the_same_event_in_a_row_is_told_once_with_a_count(compiled, capsys):
    """Retreat's "For every [Blade] rolled, deal 1 dmg" was told as one identical line per Blade
    (player QA): a run of the same event is one line with how many; the same event after another is
    told again."""
    from dtc.cli.main import _narrator
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import line

    game = Game(compiled, [compiled.hero("duelist")[0], compiled.hero("druid")[0]], 1)
    deal = {"e": "deal", "source": 0, "target": 1, "amount": 1, "type": "normal"}
    game.events[:] = [dict(deal), dict(deal), dict(deal), {"e": "cp", "player": 0, "change": 1}, dict(deal)]
    narrate = _narrator(line)
    for event in game.events:
        narrate(game, event)
    assert capsys.readouterr().out.splitlines() == [
        "P1 Duelist: 1 dmg on its way to P2 Druid (x3)", "P1 Duelist +1 CP",
        "P1 Duelist: 1 dmg on its way to P2 Druid"]
