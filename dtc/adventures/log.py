"""Session logs of a Dice Throne Adventures campaign: each session played (`dtc adventure play`) is
written down as it goes, and `dtc adventure replay` plays it again from the log alone and checks that
it goes the same way, line by line.

A log is JSON lines: a head (the campaign as the session began, the ruleset's hash, the seats played
at the terminal), then one line per thing that happened in order — `{"said": ...}` for each line the
crawl was told in, `{"ask": request, "answer": ...}` for an answer to the game, `{"prompt": ...,
"answer": ...}` for one to the crawl (a move, Salves) — and last the session's row of the Campaign
Scoring sheet (`{"session": ...}`) or that the session was left (`{"left": {"answers": N}}`). A session
is a function of its campaign, its ruleset and its answers, so that is all a replay needs.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from dtc.artifact import Artifact

LOG_MARKER = "dtc-adventure-log"
FORMAT = 1


class LogError(ValueError):
    """A session log that cannot be read or replayed (one line saying where and why)."""


class OtherRuleset(LogError):
    """The log was played with another ruleset."""


def log_path(campaign_path: Path, session: int) -> Path:
    """Where session `session` (1, 2, ...) of the campaign in `campaign_path` is logged: beside it."""
    campaign_path = Path(campaign_path)
    return campaign_path.with_name(f"{campaign_path.stem}.session-{session}.log")


class SessionLog:
    """The log of the session under way; `write()` puts it on disk whole (atomically), so a session
    killed between two answers leaves the log of those given."""

    def __init__(self, path: Path, artifact: Artifact, campaign, humans: list[int]):
        from dtc.session import engine_version

        self.path = Path(path)
        self.head = {"dtc": LOG_MARKER, "version": FORMAT, "engine": engine_version(),
                     "ruleset": artifact.content_hash, "heroes": list(campaign.heroes), "seed": campaign.seed,
                     "session": len(campaign.sessions) + 1, "humans": sorted(humans),
                     "campaign": {**campaign.to_json(), "in_progress": []}}
        self.records: list[dict] = []

    def said(self, line: str) -> None:
        self.records.append({"said": line})

    def asked(self, request: Any, answer: Any) -> None:
        from dtc.session import plain

        self.records.append({"ask": plain(request), "answer": plain(answer)})

    def prompted(self, prompt: str, answer: Any) -> None:
        from dtc.session import plain

        self.records.append({"prompt": prompt, "answer": plain(answer)})

    @property
    def answers(self) -> int:
        return sum("answer" in r for r in self.records)

    def write(self, end: dict | None = None) -> None:
        """The log as it stands, with `end` (the session row, or that it was left) as its last line."""
        from dtc import artifact as artifact_mod

        lines = [self.head, *self.records, *([end] if end else [])]
        artifact_mod.write(self.path, "".join(json.dumps(r) + "\n" for r in lines).encode())

    def ended(self, session) -> None:
        self.write({"session": asdict(session)})

    def left(self) -> None:
        self.write({"left": {"answers": self.answers}})


def setup_of(campaign) -> dict:
    """What a log's head says of its game, for `session.check_writable` (another campaign's log, or
    another session's, is not written over)."""
    return {"heroes": list(campaign.heroes), "seed": campaign.seed, "session": len(campaign.sessions) + 1}


# ------------------------------------------------------------------ replay

def read(path: Path) -> tuple[dict, list[tuple[int, dict]]]:
    """The head and the records (each with its line number) of a session log, or a LogError."""
    from dtc.session import SessionError, read_game_text

    try:  # bounded, as a game's save or log is read
        text = read_game_text(path, "session log")
    except SessionError as exc:
        raise LogError(str(exc)) from None
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except RecursionError:
            raise LogError(f"{path}:{number}: a JSON line nested too deeply") from None
        except ValueError as exc:
            if not records and text.lstrip().startswith("{") and '"dtc-adventure-campaign"' in text[:200]:
                raise LogError(f"{path} is a campaign file, not a session log: play it with `dtc adventure "
                               f"play {path}`; its sessions' logs are beside it") from None
            raise LogError(f"{path}:{number}: not a JSON line ({exc.args[0]})") from None
        if not isinstance(record, dict):
            raise LogError(f"{path}:{number}: a log line is a JSON object")
        records.append((number, record))
    if not records:
        raise LogError(f"{path} is empty: not a session log")
    head = records[0][1]
    if head.get("dtc") != LOG_MARKER:
        raise LogError(f"{path} is not a Dice Throne Adventures session log (`dtc adventure play` writes "
                       f"them beside the campaign file)")
    if head.get("version") != FORMAT:
        raise LogError(f"{path}: session log format {head.get('version')!r} is not supported (this dtc "
                       f"reads {FORMAT})")
    body = records[1:]
    for number, record in body[:-1]:
        if not ({"said"} == record.keys() or {"ask", "answer"} == record.keys()
                or {"prompt", "answer"} == record.keys()):
            raise LogError(f"{path}:{number}: a log line is {{\"said\"}}, {{\"ask\", \"answer\"}} or "
                           f"{{\"prompt\", \"answer\"}} (the session's end comes last); this one is none")
    return head, body


class _Differs(Exception):
    """Raised inside the replayed session where it leaves the log."""


class _Stopped(Exception):
    """The log of a left (or killed) session has run out: the replay went as far as it goes."""


class Script:
    """Every hero at the terminal during a replay: gives the log's answers in order, checking that the
    session asks for them (and tells its lines) as it did."""

    def __init__(self, path: Path, records: list[tuple[int, dict]], partial: bool, echo=None):
        self.path = path
        self.records = records
        self.partial = partial
        self.echo = echo
        self.at = 0  # the next record
        self.answers = 0

    def say(self, text: str) -> None:
        """What a hero at the terminal was shown is not in the log (the narration is)."""

    def _next(self, what: str) -> tuple[int, dict]:
        if self.at >= len(self.records):
            if self.partial:
                raise _Stopped
            raise _Differs(f"{self.path}: replay differs: the session goes on ({what}) after the log's "
                           f"last line")
        number, record = self.records[self.at]
        self.at += 1
        return number, record

    def told(self, line: str) -> None:
        number, record = self._next(f"it tells {_short(line)}")
        if record.get("said") != line:
            raise _Differs(f"{self.path}:{number}: replay differs: the session tells {_short(line)}, the "
                           f"log has {_short(record)}")
        if self.echo is not None:
            self.echo(line)

    def answer(self, game, request) -> Any:
        from dtc.session import plain

        return self._answered("ask", plain(request))

    def ask(self, prompt: str, parse, hint: str) -> Any:
        return self._answered("prompt", prompt)

    def _answered(self, key: str, asked: Any) -> Any:
        """The logged answer, once the next line is this question (`ask`: the game's request, `prompt`:
        the crawl's)."""
        number, record = self._next(f"it asks {_short(asked)}")
        if record.get(key) != asked:
            raise _Differs(f"{self.path}:{number}: replay differs at answer {self.answers + 1}: the session "
                           f"asks {_short(asked)}, the log has {_short(record)}")
        self.answers += 1
        return record["answer"]


def replay(artifact: Artifact, path: Path, echo=None) -> tuple[Any, int]:
    """Play a logged session again from the campaign its log began with and its answers, checking
    each line; (the session's row of the sheet, or None for a log of a session left before its end;
    the answers given). A LogError names the line where the replay and the log part."""
    from dtc.adventures.campaign import CampaignError, Session, from_json, play_session
    from dtc.vm import VMError

    head, body = read(path)
    ruleset = head.get("ruleset")
    if ruleset != artifact.content_hash:
        raise OtherRuleset(f"{path} was played with ruleset {str(ruleset)[:16]}…, not "
                           f"{artifact.content_hash[:16]}…; pass the same --ruleset")
    end = body[-1][1] if body and ({"session"} == body[-1][1].keys() or {"left"} == body[-1][1].keys()) \
        else None
    records = body[:-1] if end is not None else body
    partial = end is None or "left" in end
    try:
        campaign = from_json(head.get("campaign"), f"{path}:1")
    except CampaignError as exc:
        raise LogError(f"{exc} (the log's head holds the campaign as the session began)") from None
    humans = head.get("humans")
    if not isinstance(humans, list) or not all(isinstance(k, int) and 0 <= k < len(campaign.heroes)
                                               for k in humans):
        raise LogError(f"{path}:1: damaged log head (`humans` must list seats of the campaign's heroes)")
    script = Script(path, records, partial, echo)
    try:
        session = play_session(artifact, campaign, {k: script for k in humans} or None, script.told)
    except _Stopped:
        if end is not None and end["left"].get("answers") != script.answers:
            raise LogError(f"{path}:{body[-1][0]}: the log says the session was left after "
                           f"{end['left'].get('answers')} answers, and it holds {script.answers}") from None
        return None, script.answers
    except _Differs as exc:
        raise LogError(str(exc) + _other_engine(head)) from None
    except VMError as exc:
        number = records[script.at - 1][0] if script.at else 1
        raise LogError(f"{path}:{number}: replay differs: the game refuses the logged answer: {exc}"
                       + _other_engine(head)) from None
    except CampaignError as exc:
        raise LogError(f"{path}: {exc}") from None
    if script.at != len(records):
        raise LogError(f"{path}:{records[script.at][0]}: replay differs: the session ended, the log goes "
                       f"on" + _other_engine(head))
    if end is None or "left" in end:
        raise LogError(f"{path}: replay differs: the session ends, and the log says it was left "
                       f"before its end" if end else
                       f"{path}: replay differs: the session ends, and the log stops before its end")
    logged = end["session"]
    made = asdict(session)
    if not isinstance(logged, dict) or {k: logged.get(k) for k in made} != made:
        raise LogError(f"{path}:{body[-1][0]}: replay differs: the session ends {_short(made)}, the log "
                       f"has {_short(logged)}" + _other_engine(head))
    return Session(**made), script.answers


def _other_engine(head: dict) -> str:
    from dtc.session import engine_version

    made_by = head.get("engine")
    if isinstance(made_by, str) and made_by != engine_version():
        return f" (the log was written by dtc {made_by}, this is {engine_version()})"
    return ""


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) < 120 else text[:117] + "..."
