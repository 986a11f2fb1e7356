"""Session: a game with its seats, recorded — logs, saves, resumes and replays, for any game.

A game is fully described by its setup (the ruleset's hash, the seed, who
plays what) and the list of answers; that is the save format (rewritten
atomically after every turn) and the core of the log.  A log (`--log`) is JSON
lines: a header, then every request with its answer and every event, in order.
`replay()` re-runs a log and fails loudly at the first request or event that
differs.  A `Kind` says which game: its file markers, how to read its setup and
how to start a game from it.  A game has `play()` (the request generator),
`events` and `turn_no`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from glob import escape as glob_escape
from pathlib import Path
from typing import Any

from dtc import artifact as artifact_mod
from dtc.artifact import Artifact
from dtc.source import read_bounded
from dtc.vm import VMError

FORMAT = 1


@functools.cache
def engine_version() -> str:
    """A fingerprint of this dtc's code (every module of the package): saves and logs carry it, so a
    game recorded by another version is named as such when its answers no longer fit."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _other_version(made_by: str | None) -> str:
    """' (recorded by another version of dtc ...)' when the file says so, else ''."""
    if not isinstance(made_by, str) or made_by == engine_version():
        return ""
    return f" (it was recorded by another version of dtc: engine {made_by}, this is {engine_version()})"


class SessionError(Exception):
    """A save or log that cannot be used, or a replay that differs; one-line message."""


class OtherRuleset(SessionError):
    """A log played with another ruleset than the one given."""


class Quit(Exception):
    """A player left the game before its end (`q`, Ctrl-C or end of input at a prompt)."""

    def __init__(self, interrupted: bool = False):
        super().__init__("interrupted" if interrupted else "left")
        self.interrupted = interrupted  # Ctrl-C: the command exits 130, as an interrupted program does


@dataclass(frozen=True)
class Kind:
    """Which game a session plays: file markers, its setup, how to start it, refused answers."""

    save: str  # the `dtc` marker of a save file
    log: str  # and of a log file
    setup_from: Callable[[dict], Any]  # plain data -> setup (KeyError/TypeError/ValueError if damaged)
    new_game: Callable[[Artifact, Any], Any]  # (artifact, setup) -> a game; SessionError if it cannot
    refused: tuple[type[Exception], ...] = (VMError,)  # what the game raises for an answer that does not fit


def plain(value: Any) -> Any:
    """JSON-ready data for requests and answers (tuples become lists)."""
    if dataclasses.is_dataclass(value):
        return {"type": type(value).__name__,
                **{f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                   if f.metadata.get("log", True)}}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


@dataclass
class Session:
    """Runs a game between agents, recording what the setup, a save or a log needs."""

    artifact: Artifact
    kind: Kind
    setup: Any  # with `ruleset` and `to_json()`
    agents: list[Any]
    log_path: Path | None = None
    save_path: Path | None = None
    on_event: Callable[[Any, dict], None] | None = None
    answers: list[Any] = field(default_factory=list)
    made_by: str | None = None  # the engine version of the save being resumed
    ruleset_file: str | None = None  # the `--ruleset` played with, for a resume that does not name it

    def run(self, recorded: list[Any] | None = None) -> Any:
        """Play to the end; `recorded` answers (from a save) are given first, unasked."""
        game = self.kind.new_game(self.artifact, self.setup)
        pending = list(recorded or [])
        for path, marker in ((self.save_path, self.kind.save), (self.log_path, self.kind.log)):
            if path is not None:
                check_writable(path, marker, self.setup.to_json())
        if self.save_path is not None and self.log_path is not None \
                and Path(self.save_path).resolve() == Path(self.log_path).resolve():
            raise SessionError(f"--save and --log name the same file ({self.save_path}); give two")
        # the log is written beside its place and put there once the saved answers all fit: a save
        # that turns out not to fit leaves the log it names as it was
        writing = target = None
        if self.log_path:
            target = Path(os.path.realpath(self.log_path))  # through a link, as saves are written
            writing = target.with_name(f".{target.stem}.{os.getpid()}.partial{target.suffix}")
            _remove_stray_partials(target)
        try:
            if self.log_path:
                target.parent.mkdir(parents=True, exist_ok=True)  # as saves do
            log = open(writing, "w", encoding="utf-8") if writing else None
        except OSError as exc:
            raise SessionError(f"cannot write {self.log_path}: {exc.strerror or exc}") from None
        shown = 0
        turns_seen = 0
        try:
            if log:
                self._log(log, {"dtc": self.kind.log, "version": FORMAT, "engine": engine_version(),
                                **self._where(), **self.setup.to_json()})
            run = game.play()
            try:
                request = next(run)
                while True:
                    shown = self._events(game, shown, log, live=not pending)
                    turns = game.turn_no
                    if writing is not None and not pending:
                        writing = self._settle_log(writing, target)
                    if turns != turns_seen:
                        turns_seen = turns
                        if not pending:  # a save being resumed is rewritten only once it has all fitted
                            self.save()
                    from_save = bool(pending)
                    agent = self.agents[request.player]
                    if from_save:
                        answer = pending.pop(0)
                        if hasattr(agent, "observe"):  # bots catch up, so a resumed game plays on the same
                            agent.observe(game, request, answer)
                    else:
                        if log:  # all so far is on disk while a player thinks (a killed game keeps it)
                            self._flush(log)
                        answer = agent.answer(game, request)
                    answer = plain(answer)
                    self.answers.append(answer)
                    if log:
                        self._log(log, {"ask": plain(request), "answer": answer})
                    try:
                        request = run.send(answer)
                    except self.kind.refused as exc:
                        if not from_save:
                            raise
                        raise SessionError(f"the saved game does not fit this ruleset"
                                           f"{_other_version(self.made_by)}: its answer "
                                           f"{len(self.answers)} ({_short(answer)}) is refused: {exc}"
                                           ) from None
            except StopIteration as stop:
                result = stop.value
            except Quit:
                if log:  # the log says so: it replays as far as it goes (`replay`)
                    self._events(game, shown, log, live=False)
                    self._log(log, {"left": {"answers": len(self.answers)}})
                raise
            if pending:
                raise SessionError(f"the saved game does not fit this ruleset{_other_version(self.made_by)}: "
                                   f"the game ended with {len(pending)} saved answers left over")
            self._events(game, shown, log, live=True)
            if writing is not None:
                writing = self._settle_log(writing, target)
            self.save()
            return result
        finally:
            if log:
                try:
                    log.close()
                except OSError as exc:  # what was still buffered could not be written
                    raise SessionError(f"cannot write {self.log_path}: {exc.strerror or exc}") from None
                finally:
                    if writing is not None:  # never put in place: the log named stays as it was
                        writing.unlink(missing_ok=True)

    def _settle_log(self, writing: Path, target: Path) -> None:
        """Put the log being written in its place (it goes on being written there: the file open is
        the same); None, for the caller to keep: nothing is left to move."""
        try:
            os.replace(writing, target)
        except OSError as exc:
            raise SessionError(f"cannot write {self.log_path}: {exc.strerror or exc}") from None

    def _where(self) -> dict:
        return {"ruleset_file": self.ruleset_file} if self.ruleset_file else {}

    def _log(self, log, line: dict) -> None:
        try:
            log.write(json.dumps(line) + "\n")
        except OSError as exc:  # a full disk, a file that takes no writing
            raise SessionError(f"cannot write {self.log_path}: {exc.strerror or exc}") from None

    def _flush(self, log) -> None:
        try:
            log.flush()
        except OSError as exc:
            raise SessionError(f"cannot write {self.log_path}: {exc.strerror or exc}") from None

    def _events(self, game: Any, shown: int, log, live: bool) -> int:
        for event in game.events[shown:]:
            if log:
                self._log(log, {"event": event})
            if live and self.on_event is not None:
                self.on_event(game, event)
        return len(game.events)

    def save(self) -> None:
        if self.save_path is None:
            return
        logged = {"log_file": str(Path(self.log_path).resolve())} if self.log_path else {}
        data = {"dtc": self.kind.save, "version": FORMAT, "engine": engine_version(), **self._where(),
                **logged, **self.setup.to_json(), "answers": self.answers}
        try:
            artifact_mod.write(self.save_path, json.dumps(data).encode())
        except OSError as exc:
            raise SessionError(f"cannot save to {self.save_path}: {exc.strerror or exc}") from None


def check_writable(path: Path, marker: str | None = None, setup: dict | None = None) -> None:
    """Refuse, before a game starts, a save or log path that could not be written, or that holds
    anything but an empty file or a save (`marker`: or log) of this same game: another game's save or
    log, a Valeria save for a Dice Throne one, a read-only save are left as they are."""
    path = Path(path)
    if path.is_dir():
        raise SessionError(f"cannot write {path}: it is a directory; name a file")
    if path.exists() and not path.is_file():  # a device, a pipe: a save would replace it
        raise SessionError(f"cannot write {path}: it is not a regular file; name a file")
    if path.is_file():
        held = _held_game(path)
        if held is None:  # a typo must not replace a hero file (tester QA)
            raise SessionError(f"will not write over {path}: it is not a dtc save or log; name another "
                               "file, or remove it first")
        if held and marker is not None and held.get("dtc") != marker:
            raise SessionError(f"will not write over {path}: it is a {_what(held.get('dtc'))}, not a "
                               f"{_what(marker)}; name another file")
        if len(held) > 1 and setup is not None and _other_game(held, setup):
            raise SessionError(f"will not write over {path}: it holds another game (seed "
                               f"{held.get('seed')}); name another file, or remove it first")
        if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:  # (root may write 0444)
            raise SessionError(f"will not write over {path}: it is read-only; name another file, or make "
                               "it writable")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # missing folders are made when saving
    if not folder.is_dir():
        raise SessionError(f"cannot write {path}: {folder} is not a directory")
    if not os.access(folder, os.W_OK):
        raise SessionError(f"cannot write {path}: {folder} is not writable")


def _held_game(path: Path) -> dict | None:
    """The head of the dtc save or log in the file ({} when empty or unreadable); None when it is no dtc
    file, or one whose kind cannot be read (cut short in its marker: it may be any game's)."""
    try:
        with open(path, "rb") as f:
            start = f.read(1 << 20)
    except OSError:
        return {}  # unreadable: writing it will say why
    if not start.strip():
        return {}
    if _DTC_HEAD.match(start) is None:
        return None
    try:
        head = json.loads(start.split(b"\n", 1)[0])
    except (ValueError, RecursionError):
        # a save longer than what was read: its marker still says what it is (a Valeria save is
        # not written over by a Dice Throne one however long it is)
        marker = _DTC_MARKER.match(start)
        return {"dtc": marker.group(1).decode("ascii")} if marker else None
    return head if isinstance(head, dict) else None


def _other_game(held: dict, setup: dict) -> bool:
    """Whether a save or log head is of another game than `setup` (its agents aside: a resumed game
    may seat others)."""
    return any(held.get(key) != value for key, value in setup.items() if key != "agents")


def _what(marker: Any) -> str:
    return {"dtc-dicethrone-save": "Dice Throne save", "dtc-dicethrone-log": "Dice Throne log",
            "dtc-valeria-save": "Kingdoms of Valeria save", "dtc-valeria-log": "Kingdoms of Valeria log",
            "dtc-adventure-campaign": "Dice Throne Adventures campaign file",
            "dtc-adventure-log": "Dice Throne Adventures session log",
            "dtc-bossvs-save": "Boss vs save", "dtc-bossvs-log": "Boss vs log"
            }.get(marker, f"dtc file ({marker})")


def _remove_stray_partials(target: Path) -> None:
    """A log being written lives beside its place as `.<name>.<pid>.partial<suffix>` until it is put
    there; a run killed before that left one: those of processes no longer running go."""
    for stray in target.parent.glob(f".{glob_escape(target.stem)}.*.partial{glob_escape(target.suffix)}"):
        pid = stray.name[len(target.stem) + 2:].split(".", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            with contextlib.suppress(OSError):
                stray.unlink()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's: leave its file alone
    return True


_DTC_HEAD = re.compile(rb'\s*\{\s*"dtc"\s*:\s*"dtc-')
_DTC_MARKER = re.compile(rb'\s*\{\s*"dtc"\s*:\s*"(dtc-[a-z-]{1,40})"')


# ------------------------------------------------------------ saves, logs


def integer(value: Any, what: str) -> int:
    """A whole number from a save or log header (not a float, text or true/false)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} {value!r} is not a whole number")
    return value


def agent_names(value: Any, count: int, known: set[str]) -> list[str]:
    """The seats' agents from a save or log header: one known name per seat."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"agents {value!r} is not a list of names")
    if len(value) != count:
        raise ValueError(f"{len(value)} agents for {count} seats")
    for name in value:
        if name not in known:
            raise ValueError(f"unknown agent {name!r} (known: {', '.join(sorted(known))})")
    return list(value)


def recorded_ruleset(path: Path) -> Path | None:
    """The `--ruleset` a save or log was played with, when it says so and it is still there (a
    broken file is left for `load_save` or `read_log` to report)."""
    where = named_ruleset(path)
    return Path(where) if where is not None and Path(where).exists() else None


def named_ruleset(path: Path) -> str | None:
    """The `--ruleset` a save or log says it was played with, there or not."""
    return _head_name(path, "ruleset_file")


def named_log(path: Path) -> str | None:
    """The `--log` a save says its game was being written to (None: not logged, or not a save)."""
    return _head_name(path, "log_file")


def _head_name(path: Path, key: str) -> str | None:
    try:  # a save is one line; a log's first line is its header
        head = json.loads(read_bounded(path, MAX_GAME_FILE).split(b"\n", 1)[0])
    except (OSError, ValueError, RecursionError):
        return None
    where = head.get(key) if isinstance(head, dict) else None
    return where if isinstance(where, str) else None


def load_save(kind: Kind, path: Path) -> tuple[Any, list[Any], str | None]:
    """The setup and answers of a save file, and the engine version that made it (if it says)."""
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("dtc") != kind.save:
        raise SessionError(f"{path} is not a dtc save file of this game")
    if data.get("version") != FORMAT:
        raise SessionError(f"{path}: save format {data.get('version')!r} is not supported")
    try:
        setup = kind.setup_from(data)
        answers = data["answers"]
    except KeyError as exc:
        raise SessionError(f"{path}: damaged save file (no {exc})") from None
    except (TypeError, ValueError) as exc:
        raise SessionError(f"{path}: damaged save file ({exc})") from None
    if not isinstance(answers, list):
        raise SessionError(f"{path}: damaged save file (its answers are not a list)")
    made_by = data.get("engine")
    return setup, answers, made_by if isinstance(made_by, str) else None


MAX_GAME_FILE = 64 * 1024 * 1024  # a save or log larger than this is no game's


def read_game_text(path: Path, what: str) -> str:
    """A save's or log's text, bounded (`read_bounded`): a SessionError says why it cannot be one."""
    try:
        raw = read_bounded(path, MAX_GAME_FILE)
    except OSError as exc:
        raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SessionError(f"{path} is not a {what}: {exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SessionError(f"{path} is not a {what} (it is not UTF-8 text)") from None


def _read_json(path: Path) -> Any:
    text = read_game_text(path, "save file")
    try:
        return json.loads(text)
    except RecursionError:
        raise SessionError(f"{path} is not a save file: its JSON is nested too deeply") from None
    except ValueError as exc:
        first = text.split("\n", 1)[0]
        if '"dtc"' in first and "-log" in first:  # the first line of a game log
            raise SessionError(f"{path} is a game log, not a save: logs are replayed (`replay`); "
                               "`--save FILE` writes a file to resume") from None
        raise SessionError(f"{path} is not valid JSON: {exc}") from None


def read_log(kind: Kind, path: Path) -> tuple[Any, list[tuple[int, dict]], str | None]:
    """The setup and records (`ask`/`answer` and `event`) of a log file, each with its line number,
    and the engine version that wrote it (if it says)."""
    lines = read_game_text(path, "dtc game log").splitlines()
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except RecursionError:
            raise SessionError(f"{path}:{number}: a JSON line nested too deeply") from None
        except ValueError as exc:
            raise SessionError(f"{path}:{number}: not a JSON line ({exc.args[0]})") from None
        if records and (not isinstance(record, dict)
                        or not ({"ask", "answer"} <= record.keys() or "event" in record or "left" in record)):
            raise SessionError(f"{path}:{number}: a log line is either {{\"ask\", \"answer\"}}, "
                               f"{{\"event\"}} or {{\"left\"}}; this one is neither")
        if records and isinstance(records[-1][1], dict) and "left" in records[-1][1]:
            raise SessionError(f"{path}:{number}: the log goes on after the line saying the game was left "
                               f"(line {records[-1][0]})")
        records.append((number, record))
    if not records:
        raise SessionError(f"{path} is empty: not a dtc game log")
    if isinstance(records[0][1], dict) and records[0][1].get("dtc") == kind.save:
        raise SessionError(f"{path} is a saved game, not a log: continue it with `--resume`; "
                           "`--log FILE` writes a log to replay")
    if not isinstance(records[0][1], dict) or records[0][1].get("dtc") != kind.log:
        raise SessionError(f"{path} is not a dtc game log of this game")
    head = records[0][1]
    if head.get("version") != FORMAT:  # as a save's: another format may mean other records
        raise SessionError(f"{path}: log format {head.get('version')!r} is not supported (this dtc "
                           f"reads {FORMAT})")
    try:
        setup = kind.setup_from(head)
    except KeyError as exc:
        raise SessionError(f"{path}: damaged log header (no {exc})") from None
    except (TypeError, ValueError) as exc:
        raise SessionError(f"{path}: damaged log header ({exc})") from None
    return setup, records[1:], head.get("engine")


def replay(kind: Kind, artifact: Artifact, path: Path) -> tuple[Any, int, Any]:
    """Re-run a log against the ruleset; returns (result, steps checked, the game re-run) or raises
    on a difference, naming the line of the log where the game and the log part. A log of a game
    left before its end replays as far as it goes: the result is then None."""
    setup, records, made_by = read_log(kind, path)
    if setup.ruleset != artifact.content_hash:
        played = f"the log was played with ruleset {setup.ruleset[:16]}…, not {artifact.content_hash[:16]}…"
        if isinstance(made_by, str) and made_by != engine_version():  # the content may be the same
            raise OtherRuleset(f"{played}: it was recorded by another version of dtc (engine {made_by}, "
                               f"this is {engine_version()}), which compiles content to another ruleset; "
                               "replay it with that version, or with the --ruleset FILE.dtcb played")
        raise OtherRuleset(f"{played}; pass the same --ruleset")
    game = kind.new_game(artifact, setup)
    other = _other_version(made_by)

    def fail(message: str) -> SessionError:
        return SessionError(message + other)

    asks = [(line, r) for line, r in records if "ask" in r]
    events = [(line, r["event"]) for line, r in records if "event" in r]
    last_record = records[-1][1] if records else None
    left = records[-1][0] if isinstance(last_record, dict) and "left" in last_record else None
    if left is not None:
        said = last_record["left"].get("answers") if isinstance(last_record["left"], dict) else None
        if not isinstance(said, int) or isinstance(said, bool):
            raise fail(f'{path}:{left}: the line saying the game was left gives no answer count '
                       f'(`{{"left": {{"answers": N}}}}`)')
        if said != len(asks):
            raise fail(f"{path}:{left}: the log says the game was left after {said} answers, and it holds "
                       f"{len(asks)}: lines are missing or added")
    last = records[-1][0] if records else 1  # the header alone: the log ends at its first line
    steps = 0
    result = None
    run = game.play()
    try:
        request = next(run)
        while True:
            if steps >= len(asks):
                if left is not None:
                    break  # as far as the game went
                raise fail(f"{path}:{last}: the log is incomplete: it ends after {steps} answers, "
                                   f"before the game does (was the game left early?); next the game asks "
                                   f"{_short(plain(request))}")
            line, record = asks[steps]
            if plain(request) != record["ask"]:
                before = f" (after the answer at line {asks[steps - 1][0]})" if steps else ""
                raise fail(f"{path}:{line}: replay differs at request {steps + 1}{before}: "
                           + _difference(record["ask"], plain(request), "the game asks"))
            answer = record["answer"]
            steps += 1  # counted before sending: the last answer ends the game with StopIteration
            try:
                request = run.send(answer)
            except kind.refused as exc:
                raise fail(f"{path}:{line}: replay differs at request {steps}: the game refuses "
                                   f"the logged answer {_short(answer)}: {exc}") from None
    except StopIteration as stop:
        result = stop.value
        if left is not None:
            raise fail(f"{path}:{left}: replay differs: the log says the game was left, and it ended "
                       f"after {steps} answers") from None
    if steps != len(asks):
        raise fail(f"{path}:{asks[steps][0]}: replay differs: the game ended after {steps} "
                           f"requests, the log has {len(asks)}")
    for i, (got, (line, want)) in enumerate(zip(game.events, events, strict=False)):
        if got != want:
            raise fail(f"{path}:{line}: replay differs at event {i + 1}: "
                       + _difference(want, got, "the game has"))
    if len(game.events) != len(events):
        where = events[len(game.events)][0] if len(events) > len(game.events) else last
        raise fail(f"{path}:{where}: replay differs: {len(game.events)} events, "
                           f"the log has {len(events)}")
    return result, steps, game


def _difference(logged: Any, made: Any, says: str) -> str:
    """Where two records first differ and how: `at actions[2].extra: the log has 1, the game asks 2`
    (both whole records cut at the same place said nothing: tester QA)."""
    at = ""
    while True:
        if isinstance(logged, dict) and isinstance(made, dict):
            key = next((k for k in list(logged) + [k for k in made if k not in logged]
                        if logged.get(k, _MISSING) != made.get(k, _MISSING)), None)
            if key is None or key not in logged or key not in made:
                break
            at, logged, made = f"{at}.{key}" if at else key, logged[key], made[key]
        elif isinstance(logged, list) and isinstance(made, list) and len(logged) == len(made):
            i = next(i for i, (x, y) in enumerate(zip(logged, made, strict=True)) if x != y)
            at, logged, made = f"{at}[{i}]", logged[i], made[i]
        else:
            break
    where = f"at {at}: " if at else ""
    return f"{where}the log has {_short(logged)}, {says} {_short(made)}"


_MISSING = object()


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) < 160 else text[:157] + "..."

