"""Simulate: hero pairs, a game count and a seed in; win rates with confidence intervals out.

Game i of a pair has its own seed, derived from (seed, the heroes' names in seat
order, i) only, and results are sums; so the numbers are the same whatever the
number of worker processes, and a pair's games are the same played alone or in
the matrix, whatever other heroes the ruleset holds.
Workers get the artifact's bytes once and verify them; memory does not grow
with the number of games (only counters are kept).
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import signal
from collections.abc import Callable
from dataclasses import dataclass, field

from dtc import artifact as artifact_mod
from dtc import odds
from dtc.agents.base import play
from dtc.agents.bots import BOTS
from dtc.artifact import Artifact
from dtc.cluster import Cluster
from dtc.dicethrone.engine import Game
from dtc.dicethrone.tables import rules_of

CHUNK = 25


def game_seed(seed: int, pair: str | list | int, index: int) -> int:
    """The seed of one game, from the run's seed, the pair (what names it) and the game number."""
    digest = hashlib.sha256(f"{seed}/{pair}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class Tally:
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])  # per side, in the order the heroes were given
    seat_wins: list[int] = field(default_factory=list)  # per side position at the table (modes: seats rotate)
    draws: int = 0  # every hero defeated at once ("Health")
    unfinished: int = 0  # stopped at the engine's turn limit: no end the rulebook gives
    turns: int = 0
    unfinished_turns: int = 0  # the turns of the unfinished games (the limit each)
    start_wins: int = 0  # decisive games won by the start player
    decisive: int = 0
    lengths: dict[int, int] = field(default_factory=dict)  # turns -> games that ended after that many

    def count(self, result, side: int | None, position: int | None = None) -> None:
        """One game's result: a win for `side` (of the heroes as given; `position`: where it sat)."""
        self.games += 1
        self.turns += result.turns
        if result.reason == "turn limit":
            self.unfinished += 1
            self.unfinished_turns += result.turns
            return
        self.lengths[result.turns] = self.lengths.get(result.turns, 0) + 1
        if result.winner is None:
            self.draws += 1
        else:
            self.wins[side] += 1
            if position is not None:
                self.seat_wins[position] += 1
            self.decisive += 1
            self.start_wins += int(result.start_player in (result.winners or (result.winner,)))

    def add(self, other: Tally) -> None:
        if not self.games:  # an empty tally takes the shape of the table's (three sides, say)
            self.wins, self.seat_wins = [0] * len(other.wins), [0] * len(other.seat_wins)
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        self.draws += other.draws
        self.unfinished += other.unfinished
        self.turns += other.turns
        self.unfinished_turns += other.unfinished_turns
        self.start_wins += other.start_wins
        self.decisive += other.decisive
        for turns, games in other.lengths.items():
            self.lengths[turns] = self.lengths.get(turns, 0) + games


def play_games(a: Artifact, heroes: list[int], seed: int, start: int, count: int,
               bot: str, opponent_bot: str | None = None, rules: str | None = None,
               mode: str = "1v1") -> Tally:
    """Games start..start+count-1 of a pair, bot against bot (the first hero's, the second's), under
    the rules named (None: the content's default); another mode than 1v1: `play_tables`."""
    if mode != "1v1":
        return play_tables(a, heroes, seed, start, count, bot, rules, mode)
    tally = Tally()
    first, second = BOTS[bot], BOTS[opponent_bot or bot]
    pair = " vs ".join(a.heroes[h]["name"] for h in heroes)  # its games, alone or in any matrix
    for index in range(start, start + count):
        s = game_seed(seed, pair, index)
        game = Game(a, heroes, s, record=False, ruleset=rules)
        result = play(game, [first(s ^ 0x5EED), second(s ^ 0xB0B)])
        tally.count(result, result.winner)
    return tally


def play_tables(a: Artifact, heroes: list[int], seed: int, start: int, count: int, bot: str,
                rules: str | None, mode: str) -> Tally:
    """Games start..start+count-1 of a table of the mode (`heroes` in seat order, the mode's sides
    from it), one bot kind in every seat. Game i moves every side i places round the table (a side
    keeps its seats together), so each side sits first as often as the others: wins are counted
    per side as given, and per side position (`seat_wins`). Sides of different sizes (`teams: [[1, 2],
    [3]]`) cannot trade seats: they keep their own, and side position is side."""
    table = rules_of(a, rules, mode).mode
    sides = table.teams
    movable = len({len(side) for side in sides}) == 1
    tally = Tally(wins=[0] * len(sides), seat_wins=[0] * len(sides))
    names = " vs ".join(" & ".join(a.heroes[heroes[s]]["name"] for s in side) for side in sides)
    for index in range(start, start + count):
        s = game_seed(seed, f"{table.name}: {names}", index)
        shift = index % len(sides) if movable else 0  # side k of the heroes given sits at position k + shift
        placed = [0] * len(heroes)
        for k, side in enumerate(sides):
            for seat, at in zip(side, sides[(k + shift) % len(sides)], strict=True):
                placed[at] = heroes[seat]
        game = Game(a, placed, s, record=False, ruleset=rules, mode=table.name)
        result = play(game, [BOTS[bot](s ^ (0x5EED + k)) for k in range(len(placed))])
        position = table.team_of[result.winner] if result.winner is not None else 0
        tally.count(result, (position - shift) % len(sides), position)
    return tally


_WORKER: dict = {}


def worker_signals() -> None:
    """A worker ends quietly when told to: the command's own way of leaving on SIGTERM (raising) is
    for it alone; its pool ends the workers with SIGTERM (they printed tracebacks: tester QA)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _init(raw: bytes) -> None:
    worker_signals()
    loaded = _WORKER["artifact"] = artifact_mod.load(raw)
    inherited = _WORKER.get("odds")  # the parent's tables, inherited by the fork
    if inherited is not None and inherited.artifact.content_hash == loaded.content_hash:
        odds.book(loaded, inherited.attempts).tables.update(inherited.tables)


def _task(job: tuple) -> tuple[int, Tally]:
    pair, heroes, seed, start, count, bots, rules, mode = job
    return pair, play_games(_WORKER["artifact"], heroes, seed, start, count, *bots, rules, mode)


def simulate(a: Artifact, raw: bytes, pairs: list[tuple[int, ...]], games: int, seed: int,
             jobs: int, bot: str, progress: Callable[[int], None] | None = None,
             opponent_bot: str | None = None, rules: str | None = None, mode: str = "1v1",
             cluster: Cluster | None = None) -> list[Tally]:
    """A Tally per pair (per table of heroes, in seat order, for another mode); `progress(n)` is told
    as batches of games finish. On a Dask `cluster` (instead of `jobs`), the same numbers."""
    bots = (bot, opponent_bot or bot)
    work = [(k, list(heroes), seed, start, min(CHUNK, games - start), bots, rules, mode)
            for k, heroes in enumerate(pairs) for start in range(0, games, CHUNK)]
    tallies = [Tally() for _ in pairs]
    if cluster is not None:
        from dtc.cluster import run_on_cluster

        pieces = [(heroes, seed, start, count, *bots, rules, mode)
                  for _, heroes, seed, start, count, bots, rules, mode in work]
        told = (lambda tally: progress(tally.games)) if progress else None
        for job, tally in zip(work, run_on_cluster(cluster, a, raw, play_games, pieces, told), strict=True):
            tallies[job[0]].add(tally)
        return tallies
    jobs = min(jobs, len(work))  # no more workers than pieces of work
    # the odds tables the bots read are made (or read from the cache) once, before any worker starts
    _WORKER["odds"] = odds.book(a, rules_of(a).roll_attempts)
    _WORKER["odds"].warm(sorted({h for pair in pairs for h in pair}))
    if jobs <= 1:
        for job in work:
            pair, tally = job[0], play_games(a, job[1], seed, job[3], job[4], *bots, rules, mode)
            tallies[pair].add(tally)
            if progress:
                progress(tally.games)
        return tallies
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_init, initargs=(raw,)) as pool:
        for pair, tally in pool.imap_unordered(_task, work):
            tallies[pair].add(tally)
            if progress:
                progress(tally.games)
    return tallies


# --------------------------------------------------------------- statistics


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(names: tuple[str, str], tally: Tally) -> dict:
    """Plain numbers for one pair."""
    n = tally.games
    out = {"hero": names[0], "opponent": names[1], "games": n}
    for seat, key in ((0, "win_rate"), (1, "opponent_win_rate")):
        low, high = wilson(tally.wins[seat], n)
        out[key] = round(tally.wins[seat] / n, 4) if n else 0.0
        out[key + "_ci95"] = [round(low, 4), round(high, 4)]
    for count, key in ((tally.draws, "draw_rate"), (tally.unfinished, "unfinished_rate")):
        low, high = wilson(count, n)
        out[key] = round(count / n, 4) if n else 0.0
        out[key + "_ci95"] = [round(low, 4), round(high, 4)]
    ended = n - tally.unfinished  # the length of a game that ends: the turn limit says nothing of it
    out["average_turns"] = round((tally.turns - tally.unfinished_turns) / ended, 2) if ended else None
    # of the decisive games; none decisive (all draws or unfinished): nothing to say
    decisive = tally.decisive
    low, high = wilson(tally.start_wins, decisive)
    out["start_player_win_rate"] = round(tally.start_wins / decisive, 4) if decisive else None
    out["start_player_win_rate_ci95"] = [round(low, 4), round(high, 4)] if decisive else None
    out["game_lengths"] = {str(turns): games for turns, games in sorted(tally.lengths.items())}
    return out


def table_summary(sides: list[list[str]], tally: Tally) -> dict:
    """Plain numbers for one table of a mode: each side's win rate (as given) with its 95% interval,
    the win rate by side position at the table (who sits first), draws, unfinished games, length."""
    n = tally.games
    out: dict = {"games": n, "sides": []}
    for side, wins in zip(sides, tally.wins, strict=True):
        low, high = wilson(wins, n)
        out["sides"].append({"heroes": side, "win_rate": round(wins / n, 4) if n else 0.0,
                             "win_rate_ci95": [round(low, 4), round(high, 4)]})
    out["seat_win_rates"] = [round(w / n, 4) if n else 0.0 for w in tally.seat_wins]
    for count, key in ((tally.draws, "draw_rate"), (tally.unfinished, "unfinished_rate")):
        low, high = wilson(count, n)
        out[key] = round(count / n, 4) if n else 0.0
        out[key + "_ci95"] = [round(low, 4), round(high, 4)]
    ended = n - tally.unfinished
    out["average_turns"] = round((tally.turns - tally.unfinished_turns) / ended, 2) if ended else None
    decisive = tally.decisive
    out["start_player_win_rate"] = round(tally.start_wins / decisive, 4) if decisive else None
    return out


def sides_field(tables: list[list[list[str]]], tallies: list[Tally]) -> tuple[list[dict], list[dict]]:
    """Over every table played: each side (a team, by its heroes) and each hero, its games and win rate
    with the 95% interval; most wins first."""
    teams: dict[tuple[str, ...], list[int]] = {}
    heroes: dict[str, list[int]] = {}
    for sides, tally in zip(tables, tallies, strict=True):
        for side, wins in zip(sides, tally.wins, strict=True):
            t = teams.setdefault(tuple(side), [0, 0])
            t[0] += tally.games
            t[1] += wins
            for hero in dict.fromkeys(side):
                h = heroes.setdefault(hero, [0, 0])
                h[0] += tally.games
                h[1] += wins

    def rows(found: dict, key: str) -> list[dict]:
        out = []
        for name, (games, wins) in found.items():
            low, high = wilson(wins, games)
            out.append({key: list(name) if isinstance(name, tuple) else name, "games": games,
                        "win_rate": round(wins / games, 4), "win_rate_ci95": [round(low, 4), round(high, 4)]})
        return sorted(out, key=lambda r: (-r["win_rate"], str(r[key])))

    return rows(teams, "team"), rows(heroes, "hero")


def field_summary(names: list[str], pairs: list[tuple[int, int]], tallies: list[Tally],
                  first_seat_only: bool = False) -> list[dict]:
    """Each hero against the others (mirror matches left out), from either side of each pair (or,
    with `first_seat_only`, from the first: bots differ by seat and every ordered pair is played):
    games, win, loss, draw and unfinished rates with the win rate's 95% interval; most wins first."""
    totals: dict[int, list[int]] = {}  # hero: [games, wins, losses, draws, unfinished]
    for (a, b), tally in zip(pairs, tallies, strict=True):
        if a == b:
            continue
        sides = ((a, tally.wins[0], tally.wins[1]), (b, tally.wins[1], tally.wins[0]))
        for hero, won, lost in sides[:1] if first_seat_only else sides:
            t = totals.setdefault(hero, [0, 0, 0, 0, 0])
            for i, n in enumerate((tally.games, won, lost, tally.draws, tally.unfinished)):
                t[i] += n
    out = []
    for hero, (games, wins, losses, draws, unfinished) in totals.items():
        low, high = wilson(wins, games)
        out.append({"hero": names[hero], "games": games, "win_rate": round(wins / games, 4),
                    "win_rate_ci95": [round(low, 4), round(high, 4)], "loss_rate": round(losses / games, 4),
                    "draw_rate": round(draws / games, 4), "unfinished_rate": round(unfinished / games, 4)})
    return sorted(out, key=lambda r: (-r["win_rate"], r["hero"]))
