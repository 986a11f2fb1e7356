"""Saves, resumes and logs of both games (`dtc.session`): damaged or unwritable files give one
line and a non-zero exit, never a traceback, and a save is never lost to a failed resume."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from dtc.agents.human import _changes, _number, _positions
from dtc.cli.main import cli

GAMES = {
    "valeria": (["valeria", "play", "--players", "2", "--seed", "3", "--auto"], ["valeria", "play"]),
    "dicethrone": (["play", "--hero", "druid", "--vs", "duelist", "--seed", "3", "--auto"], ["play"]),
}


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


@pytest.fixture(params=sorted(GAMES))
def saved(request, tmp_path):
    """(game, a finished bot game's save file)."""
    new, _ = GAMES[request.param]
    save = tmp_path / "game.json"
    result = run(*new, "--save", save)
    assert result.exit_code == 0, result.output
    return request.param, save


def test_a_resume_that_does_not_fit_leaves_the_save_as_it_was(saved):
    game, save = saved
    data = json.loads(save.read_text())
    data["answers"][len(data["answers"]) // 2] = 999  # an answer no request can take
    save.write_text(json.dumps(data))
    before = save.read_text()
    result = run(*GAMES[game][1], "--resume", save)
    assert result.exit_code == 2
    assert "does not fit" in result.stderr and "Traceback" not in result.output
    assert save.read_text() == before  # the answers after the bad one are still there


def test_a_resume_that_does_not_fit_leaves_the_log_it_names_as_it_was(saved, tmp_path):
    """A damaged save was refused, but only after the log it names had been cut to the answers
    replayed so far: the finished game's log was lost (player QA)."""
    game, _ = saved
    save, log = tmp_path / "logged.json", tmp_path / "logged.jsonl"
    assert run(*GAMES[game][0], "--save", save, "--log", log).exit_code == 0
    data = json.loads(save.read_text())
    data["answers"][len(data["answers"]) // 2] = 999
    save.write_text(json.dumps(data))
    before = log.read_text()
    result = run(*GAMES[game][1], "--resume", save)
    assert result.exit_code == 2 and "does not fit" in result.stderr
    assert log.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir() if "logged" in p.name) == ["logged.json", "logged.jsonl"]


def test_a_save_or_log_of_another_dtc_version_says_so_when_it_does_not_fit(saved, tmp_path):
    """Saves and logs carry the engine version: when the answers no longer fit, the player is told the
    file comes from another version of dtc (the ruleset may be the same), not just that it is broken."""
    game, save = saved
    data = json.loads(save.read_text())
    assert len(data["engine"]) == 16
    data["answers"][len(data["answers"]) // 2] = 999
    save.write_text(json.dumps(data))
    same = run(*GAMES[game][1], "--resume", save)
    assert same.exit_code == 2 and "another version" not in same.stderr
    data["engine"] = "0123456789abcdef"
    save.write_text(json.dumps(data))
    other = run(*GAMES[game][1], "--resume", save)
    assert other.exit_code == 2 and "does not fit" in other.stderr
    assert "recorded by another version of dtc: engine 0123456789abcdef, this is" in other.stderr
    log = tmp_path / "g.jsonl"
    assert run(*GAMES[game][0], "--log", log).exit_code == 0
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    assert len(head["engine"]) == 16 and head["engine"] != "0123456789abcdef"
    head["engine"] = "0123456789abcdef"
    (tmp_path / "old.jsonl").write_text("\n".join([json.dumps(head)] + lines[1: len(lines) // 2]))
    replayed = run(*(["valeria", "replay"] if game == "valeria" else ["replay"]), tmp_path / "old.jsonl")
    assert replayed.exit_code == 1 and "recorded by another version of dtc" in replayed.stderr


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(agents=d["agents"][:1]), "1 agents for 2 seats"),
    (lambda d: d.update(agents=[d["agents"][0], "nosuchbot"]), "unknown agent 'nosuchbot'"),
    (lambda d: d.update(agents="hb"), "is not a list of names"),
    (lambda d: d.update(seed=1.7), "seed 1.7 is not a whole number"),
    (lambda d: d.update(answers="xyz"), "answers are not a list"),
    (lambda d: d.pop("ruleset"), "no 'ruleset'"),
])
def test_a_damaged_save_is_refused_with_what_is_wrong(saved, change, message):
    game, save = saved
    data = json.loads(save.read_text())
    change(data)
    save.write_text(json.dumps(data))
    result = run(*GAMES[game][1], "--resume", save)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {save}: damaged save file (") and message in result.stderr


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_save_or_log_that_cannot_be_written_is_refused_before_the_game(game, tmp_path):
    new, _ = GAMES[game]
    (tmp_path / "afile").write_text("")
    cases = [
        (["--save", tmp_path / "afile" / "x.json"], "is not a directory"),
        (["--save", tmp_path], "it is a directory"),
        (["--log", tmp_path / "afile" / "x.jsonl"], "is not a directory"),
        (["--save", tmp_path / "same", "--log", tmp_path / "same"], "name the same file"),
        (["--save", tmp_path / "pipe"], "is not a regular file"),
        (["--log", "/dev/full"], "is not a regular file"),
    ]
    os.mkfifo(tmp_path / "pipe")  # a save would have replaced the pipe (or a device) with a file
    for extra, message in cases:
        result = run(*new, *extra)
        assert result.exit_code == 2, extra
        assert message in result.stderr and "Turn 1" not in result.output, extra
        assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "same").exists()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_save_through_a_symbolic_link_replaces_the_file_it_names(game, tmp_path):
    new, _ = GAMES[game]
    (tmp_path / "saves").mkdir()
    target = tmp_path / "saves" / "game.json"
    target.write_text("")  # an empty file: written over (another game's save is not: below)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    result = run(*new, "--save", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads(target.read_text())["answers"]
    log_target = tmp_path / "saves" / "game.jsonl"  # a log the same way (it is now renamed into place)
    log_target.write_text("")
    log_link = tmp_path / "link.jsonl"
    log_link.symlink_to(log_target)
    assert run(*new, "--log", log_link).exit_code == 0
    assert log_link.is_symlink() and log_target.read_text().startswith('{"dtc"')


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_save_or_log_of_another_game_or_kind_is_never_written_over(game, tmp_path):
    """Issue "Hardening", "Saves and logs never clobber other files": `--save` over a Kingdoms of
    Valeria save replaced it; a read-only save was written over. A file is written over only when it is
    empty or a save (log) of the same game and kind; anything else is refused in one line, untouched."""
    import os

    new, _ = GAMES[game]
    other = next(g for g in GAMES if g != game)
    theirs = tmp_path / "theirs.json"
    assert run(*GAMES[other][0], "--save", theirs).exit_code == 0
    before = theirs.read_bytes()
    result = run(*new, "--save", theirs)
    assert result.exit_code == 2 and "will not write over" in result.stderr and "not a" in result.stderr
    assert theirs.read_bytes() == before
    mine = tmp_path / "mine.json"
    assert run(*new, "--save", mine).exit_code == 0
    again = run(*new, "--save", mine)  # the same game again: its own save is written over
    assert again.exit_code == 0, again.output
    seeded = [a for a in new]
    seeded[seeded.index("--seed") + 1] = "99"
    result = run(*seeded, "--save", mine)
    assert result.exit_code == 2 and "it holds another game" in result.stderr
    os.chmod(mine, 0o444)
    result = run(*new, "--save", mine)
    assert result.exit_code == 2 and "it is read-only" in result.stderr


def test_a_stray_partial_log_of_a_killed_run_is_removed(tmp_path):
    """"A resume killed with kill -9 leaves a stray `.partial` log file": the next run writing that log
    removes those of processes no longer running (its own is put in place as always)."""
    stray = tmp_path / ".game.999999999.partial.jsonl"
    stray.write_text("{}\n")
    new, _ = GAMES["dicethrone"]
    assert run(*new, "--log", tmp_path / "game.jsonl").exit_code == 0
    assert not stray.exists() and (tmp_path / "game.jsonl").is_file()
    assert not list(tmp_path.glob(".game.*.partial*"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_missing_folders_are_made_for_saves_and_logs_alike(game, tmp_path):
    new, _ = GAMES[game]
    result = run(*new, "--save", tmp_path / "a" / "game.json", "--log", tmp_path / "b" / "game.jsonl")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a" / "game.json").is_file() and (tmp_path / "b" / "game.jsonl").is_file()


def test_a_log_that_fails_during_the_game_is_one_line(tmp_path, monkeypatch):
    """A disk that fills up while the game is logged: an error naming the log, not a dtc bug."""
    import builtins

    real_open = builtins.open

    class Full:
        def __init__(self, f):
            self.f, self.lines = f, 0

        def write(self, text):
            self.lines += 1
            if self.lines > 40:
                raise OSError(28, "No space left on device")
            return self.f.write(text)

        def flush(self):
            self.f.flush()

        def close(self):
            self.f.close()

    def opener(path, *args, **kwargs):
        f = real_open(path, *args, **kwargs)
        return Full(f) if str(path).endswith(".jsonl") else f

    monkeypatch.setattr(builtins, "open", opener)
    result = run(*GAMES["dicethrone"][0], "--log", tmp_path / "game.jsonl")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: cannot write {tmp_path / 'game.jsonl'}: No space left on device"


def test_the_log_holds_every_answer_so_far_while_a_player_thinks(tmp_path):
    """A game killed while a player thinks (the terminal closed) keeps its log up to that question:
    `replay` then says how far it went, instead of finding whatever a buffer had written."""
    from dtc import rulesets
    from dtc.agents.bots import HeuristicBot
    from dtc.dicethrone.session import DICE_THRONE, Setup
    from dtc.session import Session

    loaded = rulesets.builtin()
    log = tmp_path / "game.jsonl"
    seen = []

    class Watched(HeuristicBot):
        def answer(self, game, request):
            lines = [json.loads(line) for line in log.read_text().splitlines()]
            seen.append((sum("ask" in line for line in lines), len(session.answers)))
            return super().answer(game, request)

    setup = Setup(loaded.content_hash, 3, ["druid", "duelist"], ["heuristic", "heuristic"])
    session = Session(loaded, DICE_THRONE, setup, [Watched(3), HeuristicBot(4)], log_path=log)
    session.run()
    assert len(seen) > 50 and all(logged == answered for logged, answered in seen)


def test_resuming_says_which_options_the_save_overrides(saved):
    game, save = saved
    result = run(*GAMES[game][1], "--resume", save, "--seed", 99)
    assert result.exit_code == 0
    assert "note: --seed ignored" in result.stderr and "seed 3;" in result.output
    damaged = save.parent / "damaged.json"
    damaged.write_text(save.read_text()[:40])  # refused: no note about options it never got to use
    result = run(*GAMES[game][1], "--resume", damaged, "--seed", 99)
    assert result.exit_code == 2 and "ignored" not in result.stderr and result.stderr.startswith("error:")


def test_a_multiplayer_save_is_not_resumed_as_a_solo_game(tmp_path):
    save = tmp_path / "g.json"
    run("valeria", "play", "--players", 2, "--seed", 3, "--auto", "--save", save)
    result = run("valeria", "solo", "--resume", save)
    assert result.exit_code == 2
    assert f"is a 2-player game; continue it with `dtc valeria play --resume {save}`" in result.stderr


@pytest.mark.parametrize("game, replay", [("valeria", ["valeria", "replay"]), ("dicethrone", ["replay"])])
def test_broken_logs_are_refused_in_one_line(game, replay, tmp_path):
    log = tmp_path / "g.jsonl"
    assert run(*GAMES[game][0], "--log", log).exit_code == 0
    lines = log.read_text().splitlines()
    (tmp_path / "short.jsonl").write_text("\n".join(lines[: len(lines) // 2]))
    short = run(*replay, tmp_path / "short.jsonl")
    assert short.exit_code == 1 and "the log is incomplete" in short.stderr
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    binary = run(*replay, tmp_path / "binary.jsonl")
    assert binary.exit_code == 1 and "not UTF-8 text" in binary.stderr
    head = json.loads(lines[0])
    (tmp_path / "future.jsonl").write_text("\n".join([json.dumps(dict(head, version=99))] + lines[1:]))
    future = run(*replay, tmp_path / "future.jsonl")  # it used to replay and say it matched
    assert future.exit_code == 1 and "log format 99 is not supported" in future.stderr


def test_digits_that_are_not_0_to_9_are_answered_with_a_hint():
    assert _number("²", 1, 9) is None and _number("①", 1, 9) is None and _number("3", 1, 9) == 3
    assert _positions("1 ²", 5) is None and _number("9" * 5000, 1, 9) is None
    result = run("valeria", "play", "--players", 2, "--seed", 3, input="²\n①\n")
    assert result.exit_code == 0  # end of input leaves the game cleanly
    assert result.output.count("? type a number from 1 to") == 2


def test_the_same_position_twice_is_refused_with_a_hint():
    """`re-roll which dice? 1 1 1` re-rolled die 1 once; `sell which 1? 2 2` sold one card."""
    assert _positions("1 1 1", 5) is None and _positions("2, 2", 5) is None
    assert _positions("3 1", 5) == [0, 2] and _positions("", 5) == []
    faces = [range(1, 7)] * 5
    assert _changes("1=6 1=5", 5, 2, faces) is None and _changes("1=6 2=5", 5, 2, faces) == [[0, 6], [1, 5]]


def test_a_die_moved_up_or_down_takes_only_its_own_values():
    """`Increase or decrease 1 die by 1`: a 6 may become a 5, not a 1 (dice `6 2`)."""
    options = [(5,), (1, 3)]
    assert _changes("1=5", 2, 1, options) == [[0, 5]] and _changes("2=3", 2, 1, options) == [[1, 3]]
    assert _changes("1=1", 2, 1, options) is None and _changes("1=7", 2, 1, options) is None


def test_a_symbol_of_two_words_can_be_typed_for_a_die():
    """The hint offers `a value or a symbol (Sun Power)`, and `2=Sun Power` was refused: the words
    were split apart (player QA). Case, brackets, quotes and spaces do not matter."""
    names = {"sun power": 6, "stave": 1}
    for typed in ("2=Sun Power", "2=sun power", "2=SunPower", "2=sun_power", '2="Sun Power"',
                  "2=[Sun Power]"):
        assert _changes(typed, 5, 2, [range(1, 7)] * 5, names) == [[1, 6]], typed
    assert _changes("2=Sun Power, 3=stave", 5, 2, [range(1, 7)] * 5, names) == [[1, 6], [2, 1]]
    assert _changes("2=Sun Powr", 5, 2, [range(1, 7)] * 5, names) is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_resuming_a_log_says_it_is_a_log(game, tmp_path):
    new, resume = GAMES[game]
    log = tmp_path / "game.jsonl"
    assert run(*new, "--log", log).exit_code == 0
    result = run(*resume, "--resume", log)
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"error: {log} is a game log, not a save: logs are replayed "
                                     "(`replay`); `--save FILE` writes a file to resume")


def test_a_log_keeps_the_question_and_leaves_out_what_only_bots_read():
    """A `Choose one` in a log is its owner, player and options: where the options' steps are (for
    bots weighing them) is no part of the question, so a log stays the same whatever the bytecode."""
    from dtc.session import plain
    from dtc.vm import ChooseOption

    options = ("Discard 1 card", "Skip your Income Phase")
    asked = plain(ChooseOption("Duelist › Disarm", 1, options, steps_at=(7, (3, 9))))
    assert asked == {"type": "ChooseOption", "owner": "Duelist › Disarm", "player": 1,
                     "options": ["Discard 1 card", "Skip your Income Phase"], "question": "choose one"}


@pytest.mark.parametrize("args", [["replay", "{f}"], ["play", "--resume", "{f}"], ["disasm", "{f}"],
                                  ["valeria", "replay", "{f}"]])
def test_a_file_that_never_ends_or_nests_forever_is_refused(tmp_path, args):
    """Issue "Hardening": reading a file that never ends (`/dev/zero`, a FIFO) for disasm, replay or
    `--resume` is refused, not a hang or a MemoryError; a 100,000-deep JSON save or log is refused,
    not a RecursionError."""
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text('{"dtc": "dtc-dicethrone-save", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for path, why in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                      (deep, "nested too deeply" if args[0] != "disasm" else "bad magic")):
        result = run(*[a.format(f=path) for a in args])
        assert result.exit_code in (1, 2) and why in result.output, (path, result.output)
        assert "Traceback" not in result.output


def test_a_save_longer_than_what_is_read_of_it_keeps_its_kind(tmp_path):
    """The kind of a file is read from its first MB: a Valeria save whose one line runs past that was
    written over by a Dice Throne save (its head did not parse, and a head that does not parse was
    taken for an empty file). Its marker is enough to refuse it."""
    theirs = tmp_path / "theirs.json"
    assert run(*GAMES["valeria"][0], "--save", theirs).exit_code == 0
    data = json.loads(theirs.read_text())
    data["padding"] = "x" * (1 << 20)
    theirs.write_text(json.dumps(data))
    before = theirs.read_bytes()
    result = run(*GAMES["dicethrone"][0], "--save", theirs)
    assert result.exit_code == 2
    assert "it is a Kingdoms of Valeria save, not a Dice Throne save" in result.stderr
    assert theirs.read_bytes() == before
