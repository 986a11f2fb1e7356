"""The Dice Throne Adventures campaign: 8 scenarios, Portal Crawls and Boss Battles in turn, each
session recorded on the Campaign Scoring sheet and carried in a campaign file between evenings.

003_bd4cabbe7964005d.txt, "Campaign Setup" and "Scenario Conclusion": "2. Record Win / Loss &
Increase Starting Salves" (a win records the Session Score and carries the Salves left as the next
Starting Salves; a loss scores -10 and gives 3 more Starting Salves than the session began with),
"3. Advance or Repeat the Scenario".
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dtc.artifact import Artifact
from dtc.cluster import Cluster

MARKER = "dtc-adventure-campaign"  # the kind of file, for `session.check_writable`
FORMAT = 1
SCENARIOS = 8  # "Portal Crawls (scenarios 1, 3, 5, and 7)", Boss Battles after each
MAX_SESSIONS = 40  # a bot campaign that has not ended by then stops (each loss repeats a scenario)


class CampaignError(ValueError):
    """A campaign file that cannot be read or does not fit the ruleset (one line saying why)."""


@dataclass
class Session:
    """One row of the Campaign Scoring sheet."""

    scenario: int
    won: bool
    score: int  # H. Session Score (a loss: -10)
    salves_left: int
    starting_salves_next: int
    turns: int


@dataclass
class Campaign:
    """What the campaign file carries between sessions."""

    heroes: list[str]
    difficulty: str
    seed: int
    scenario: int = 1  # the next scenario to play
    starting_salves: int | None = None  # None: session one's, from the Hero Setup
    sessions: list[Session] = field(default_factory=list)
    decks: list = field(default_factory=list)  # a `dtc.adventures.loot.Deck` per hero ([] before session one)
    # the answers given so far at the terminal in the session under way (saved after each one): a left
    # session played again gives them back unasked and goes on from there
    in_progress: list = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.scenario > SCENARIOS

    @property
    def score(self) -> int:
        """The Campaign Score: the Session Scores added up."""
        return sum(s.score for s in self.sessions)

    def to_json(self) -> dict:
        return {"dtc": MARKER, "version": FORMAT, "heroes": self.heroes, "difficulty": self.difficulty,
                "seed": self.seed, "scenario": self.scenario, "starting_salves": self.starting_salves,
                "sessions": [asdict(s) for s in self.sessions], "decks": [d.to_json() for d in self.decks],
                "in_progress": list(self.in_progress)}


def from_json(data: Any, where: str) -> Campaign:
    """A Campaign from a campaign file's JSON (CampaignError naming the first thing wrong)."""
    if not isinstance(data, dict) or data.get("dtc") != MARKER:
        raise CampaignError(f"{where}: not a dtc adventure campaign file (make one with `dtc adventure new`)")
    if data.get("version") != FORMAT:
        raise CampaignError(f"{where}: campaign file version {data.get('version')!r}, this dtc reads "
                            f"{FORMAT}")
    try:
        heroes = [str(h) for h in data["heroes"]]
        sessions = [Session(int(s["scenario"]), bool(s["won"]), int(s["score"]), int(s["salves_left"]),
                            int(s["starting_salves_next"]), int(s["turns"])) for s in data["sessions"]]
        salves = data["starting_salves"]
        from dtc.adventures.loot import Deck

        decks = [Deck([str(n) for n in d["added"]], [str(n) for n in d["removed"]])
                 for d in data.get("decks", [])]
        in_progress = data.get("in_progress", [])
        if not isinstance(in_progress, list):
            raise TypeError("in_progress is not a list")
        campaign = Campaign(heroes, str(data["difficulty"]), int(data["seed"]), int(data["scenario"]),
                            None if salves is None else int(salves), sessions, decks, in_progress)
    except (KeyError, TypeError, ValueError) as exc:
        raise CampaignError(f"{where}: a campaign file field is missing or of the wrong kind "
                            f"({exc})") from None
    if campaign.decks and len(campaign.decks) != len(heroes):
        raise CampaignError(f"{where}: one deck a hero is needed ({len(heroes)} heroes, "
                            f"{len(campaign.decks)} decks)")
    if not 1 <= len(heroes) <= 4 or not 1 <= campaign.scenario <= SCENARIOS + 1:
        raise CampaignError(f"{where}: 1 to 4 heroes and a scenario from 1 to {SCENARIOS + 1} are needed")
    if campaign.starting_salves is not None and not 0 <= campaign.starting_salves <= 99:
        raise CampaignError(f"{where}: starting_salves must be from 0 to 99")
    return campaign


def read(path: Path) -> Campaign:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CampaignError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise CampaignError(f"{path}: not a dtc adventure campaign file (it is not JSON)") from None
    return from_json(data, str(path))


def write(path: Path, campaign: Campaign) -> None:
    """Write the campaign file whole or not at all (`artifact.write` replaces it atomically)."""
    from dtc import artifact as artifact_mod

    artifact_mod.write(path, (json.dumps(campaign.to_json(), indent=1) + "\n").encode())


class Recorded:
    """A hero at the terminal whose answers are kept as she gives them (`answers`, shared by every
    hero of the session, in the order given; `saved()` is told after each), and who gives back
    `replay`'s answers unasked first: a session left and played again goes on where it was. With
    `log` (a `dtc.adventures.log.SessionLog`), each answer is logged with what it answers."""

    def __init__(self, human, answers: list, replay: list, saved, log=None):
        self.human = human
        self.answers = answers
        self.replay = replay
        self.saved = saved
        self.log = log
        self.say = human.say

    def answer(self, game, request) -> Any:
        fresh = not self.replay
        value = self.human.answer(game, request) if fresh else self.replay.pop(0)
        if self.log is not None:
            self.log.asked(request, value)
        return self._kept(value, fresh)

    def ask(self, prompt: str, parse, hint: str) -> Any:
        fresh = not self.replay
        value = self.human.ask(prompt, parse, hint) if fresh else self.replay.pop(0)
        if self.log is not None:
            self.log.prompted(prompt, value)
        return self._kept(value, fresh)

    def _kept(self, value: Any, fresh: bool) -> Any:
        """Every answer joins `answers`; a new one (not given back from `replay`) is then saved."""
        from dtc.session import plain

        self.answers.append(plain(value) if fresh else value)
        if fresh:
            self.saved()
        return value


def hero_indices(artifact: Artifact, campaign: Campaign) -> list[int]:
    out = []
    for name in campaign.heroes:
        found = artifact.hero(name)
        if found is None:
            raise CampaignError(f"the campaign's hero `{name}` is not in this ruleset")
        out.append(found[0])
    return out


def play_session(artifact: Artifact, campaign: Campaign, humans: dict[int, Any] | None = None,
                 echo=None, saved=None, log=None) -> Session:
    """Play the next scenario and record it ("Record Win / Loss", "Advance or Repeat"): the heroes in
    `humans` (by seat) at the terminal, the others by bots; `echo` tells a crawl turn by turn. With
    `saved`, the humans' answers are kept in `campaign.in_progress` and `saved()` is told after each
    (the caller writes the file); the answers already there are given first, unasked. With `log` (a
    `dtc.adventures.log.SessionLog`), the session is logged as it goes (its narration and answers),
    the log written whenever the file is; the caller logs its end."""
    import random

    from dtc.adventures import loot
    from dtc.adventures.boss import play_boss_scenario
    from dtc.adventures.crawl import Crawl, scenario_cards
    from dtc.dicethrone.simulate import game_seed

    if campaign.finished:
        raise CampaignError("the campaign is over: all 8 scenarios are won")
    heroes = hero_indices(artifact, campaign)
    levels = [d["name"].casefold() for d in artifact.adventure["difficulties"]]
    if campaign.difficulty.casefold() not in levels:
        raise CampaignError(f"the campaign's Difficulty `{campaign.difficulty}` is not in this ruleset "
                            f"(it has {', '.join(d['name'] for d in artifact.adventure['difficulties'])})")
    difficulty = levels.index(campaign.difficulty.casefold())
    cards = scenario_cards(artifact, campaign.scenario)
    if not cards:
        what = "Boss" if campaign.scenario % 2 == 0 else "Portal Crawl card"
        raise CampaignError(f"scenario {campaign.scenario} has no {what} in this ruleset")
    s = game_seed(campaign.seed, "campaign", len(campaign.sessions))
    card = cards[s % len(cards)]
    if log is not None:
        echo, saved = _logged(log, echo, saved)
    if humans and saved is not None:
        replay, answers = list(campaign.in_progress), []
        campaign.in_progress = answers
        humans = {k: Recorded(h, answers, replay, saved, log) for k, h in humans.items()}
    salves = campaign.starting_salves
    if not campaign.decks:
        campaign.decks = [loot.Deck() for _ in heroes]
    rng = random.Random(s ^ 0x5EED)  # the Shop's and Boss Loot's draws
    if campaign.scenario % 2 == 0:  # a Boss Battle
        result = play_boss_scenario(artifact, heroes, card, s, difficulty, salves, humans, campaign.decks)
    else:
        crawl = Crawl(artifact, heroes, card, s, difficulty, salves=salves, humans=humans,
                      record=echo is not None, decks=campaign.decks)
        if echo is not None:
            from dtc.adventures.view import narrated_crawl

            result = narrated_crawl(crawl, echo)
        else:
            result = crawl.play()
    score = result.score
    if artifact.data.get("loot") and campaign.scenario % 2 == 0:
        # "Whether you've won or lost a Boss Battle, you will now gain Boss Loot"; "E. Unclaimed Boss
        # Loot cards: 1 Scenario Point for each"
        chests = artifact.players[card]["boss"]["boss_loot"]  # the Boss Battle Scenario card's
        unclaimed = loot.boss_loot(artifact, heroes, campaign.decks, chests, artifact.adventure["loot_die"],
                                   rng)
        score += unclaimed if result.won else 0
    elif artifact.data.get("loot"):
        # "Shop"; "D. Unspent Gold (Portal Crawl Only): 1 Scenario Point for every 5 unspent Gold your
        # team has remaining after the Shop Phase" (the crawl counted the Gold before it)
        deal = artifact.adventure["scenarios"][card]["shop_deal"]  # the Scenario card's Conclusion
        bought = loot.shop(artifact, heroes, campaign.decks, result.gold, deal, rng, result.unidentified)
        if result.won:
            score += bought.unspent // 5 - result.gold // 5
    if salves is None:  # session one: the Hero Setup's Starting Salves
        salves = next(r for r in artifact.adventure["hero_setup"] if r["heroes"] == len(heroes))["salves"]
    began = salves
    if result.won:  # "C. Starting Salves for next session: ... the Salves your team still has"
        following = result.salves_left
    else:  # "Add 3 to your current session's Starting Salve value" (the adventure's `loss`)
        following = began + artifact.adventure["loss"]["salves"]
    session = Session(campaign.scenario, result.won, score, result.salves_left, following, result.turns)
    campaign.sessions.append(session)
    campaign.in_progress = []
    campaign.starting_salves = following
    if result.won:  # "Advance to the next scenario"; a loss repeats it
        campaign.scenario += 1
    return session


def _logged(log, echo, saved):
    """`echo` and `saved` that also log: each line told goes in the log (told at the terminal too when
    `echo` tells it there), and the log is written with the campaign file after each answer."""
    def tell(line: str) -> None:
        log.said(line)
        if echo is not None:
            echo(line)

    def save() -> None:
        log.write()
        saved()

    return tell, (save if saved is not None else None)


def play_campaign(artifact: Artifact, campaign: Campaign) -> Campaign:
    """Bot sessions until the campaign is over (or MAX_SESSIONS)."""
    while not campaign.finished and len(campaign.sessions) < MAX_SESSIONS:
        play_session(artifact, campaign)
    return campaign


# ------------------------------------------------------------------ simulation

CHUNK = 5  # campaigns per piece of work


def _campaigns(artifact: Artifact, heroes: list[str], difficulty: str, seed: int, start: int,
               count: int) -> list[tuple[int, int, int, bool]]:
    """(index, Campaign Score, sessions, finished) of bot campaigns start..start+count-1."""
    from dtc.dicethrone.simulate import game_seed

    out = []
    for i in range(start, start + count):
        fresh = Campaign(list(heroes), difficulty, game_seed(seed, "campaigns", i))
        campaign = play_campaign(artifact, fresh)
        out.append((i, campaign.score, len(campaign.sessions), campaign.finished))
    return out


def simulate_campaigns(artifact: Artifact, raw: bytes, heroes: list[str], difficulty: str, games: int,
                       seed: int, jobs: int = 1, cluster: Cluster | None = None) -> dict:
    """`games` seeded bot campaigns: the Campaign Score's distribution, the sessions they took, how
    many ended (won all 8 scenarios within MAX_SESSIONS). The same numbers for any `jobs`."""
    from dtc.adventures.pieces import run_pieces

    work = [(heroes, difficulty, seed, start, min(CHUNK, games - start)) for start in range(0, games, CHUNK)]
    parts = run_pieces(artifact, raw, _campaigns, work, jobs, cluster)
    rows: list[tuple[int, int, int, bool]] = [row for part in parts for row in part]
    rows.sort()
    scores = sorted(r[1] for r in rows)
    n = len(rows)

    def at(q: float) -> int:
        return scores[min(n - 1, int(q * n))]

    return {"campaigns": n, "mean_score": sum(scores) / n, "min": scores[0], "p10": at(0.1),
            "median": at(0.5), "p90": at(0.9), "max": scores[-1],
            "mean_sessions": sum(r[2] for r in rows) / n, "finished_rate": sum(r[3] for r in rows) / n}
