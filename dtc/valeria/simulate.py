"""Simulate Valeria: a player count, a game count and a seed in; mean scores per seat out.

Game i has its own seed, derived from (seed, i) only, and the tallies are sums,
so the numbers are the same whatever the number of worker processes; only
counters are kept, so memory does not grow with the number of games.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, field

from dtc import artifact as artifact_mod
from dtc.agents.base import drive
from dtc.artifact import Artifact
from dtc.cluster import Cluster
from dtc.dicethrone.simulate import game_seed, worker_signals
from dtc.valeria.bots import BOTS
from dtc.valeria.engine import Game

CHUNK = 20


@dataclass
class Tally:
    players: int
    games: int = 0
    score: list[float] = field(default_factory=list)
    squares: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)  # shared wins count as a share
    turns: int = 0
    bands: dict[str, int] = field(default_factory=dict)  # solo: games ending in each score band

    def __post_init__(self) -> None:
        self.score = self.score or [0.0] * self.players
        self.squares = self.squares or [0.0] * self.players
        self.wins = self.wins or [0.0] * self.players

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.turns += other.turns
        for i in range(self.players):
            self.score[i] += other.score[i]
            self.squares[i] += other.squares[i]
            self.wins[i] += other.wins[i]
        for band, n in other.bands.items():
            self.bands[band] = self.bands.get(band, 0) + n


def play_one(a: Artifact, players: int, sheet: str | None, seed: int, bot: str):
    """One bot game (solo when `players` is 1); returns its Result."""
    game = Game(a, players, seed, sheet, solo=players == 1, record=False)
    agents = [BOTS[bot](seed * 7 + i) for i in range(players)]
    return drive(game, agents, game.play())


def play_games(a: Artifact, players: int, sheet: str | None, seed: int, start: int, count: int,
               bot: str) -> Tally:
    tally = Tally(players)
    for index in range(start, start + count):
        result = play_one(a, players, sheet, game_seed(seed, players, index), bot)
        tally.games += 1
        tally.turns += result.turns
        for p, s in enumerate(result.scores):
            tally.score[p] += s.total
            tally.squares[p] += s.total * s.total
        for w in result.winners:
            tally.wins[w] += 1 / len(result.winners)
        if result.band is not None:
            tally.bands[result.band] = tally.bands.get(result.band, 0) + 1
    return tally


_WORKER: dict = {}


def _init(raw: bytes) -> None:
    worker_signals()
    _WORKER["artifact"] = artifact_mod.load(raw)


def _task(job: tuple) -> Tally:
    return play_games(_WORKER["artifact"], *job)


def simulate(a: Artifact, raw: bytes, players: int, sheet: str | None, games: int, seed: int, jobs: int,
             bot: str, progress: Callable[[int], None] | None = None,
             cluster: Cluster | None = None) -> Tally:
    """The games in pieces over `jobs` worker processes, or on a Dask `cluster`: the same numbers."""
    work = [(players, sheet, seed, start, min(CHUNK, games - start), bot) for start in range(0, games, CHUNK)]
    total = Tally(players)
    if cluster is not None:
        from dtc.cluster import run_on_cluster

        told = (lambda tally: progress(tally.games)) if progress else None
        for tally in run_on_cluster(cluster, a, raw, play_games, work, told):
            total.add(tally)
        return total
    jobs = min(jobs, len(work))  # no more workers than pieces of work
    if jobs <= 1:
        for job in work:
            tally = play_games(a, *job)
            total.add(tally)
            if progress:
                progress(tally.games)
        return total
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_init, initargs=(raw,)) as pool:
        for tally in pool.imap_unordered(_task, work):
            total.add(tally)
            if progress:
                progress(tally.games)
    return total


def summary(tally: Tally) -> list[dict]:
    """Per seat: mean score with a 95% interval, its standard deviation, and its share of wins
    (the interval and deviation are None for a single game: one score says nothing of spread)."""
    out = []
    n = tally.games
    for p in range(tally.players):
        mean = tally.score[p] / n
        interval, sd = None, None
        if n > 1:
            var = max(0.0, tally.squares[p] / n - mean * mean) * n / (n - 1)
            half = 1.96 * math.sqrt(var / n)
            interval, sd = [round(mean - half, 2), round(mean + half, 2)], round(math.sqrt(var), 2)
        out.append({"seat": p + 1, "mean_score": round(mean, 2), "mean_score_ci95": interval, "sd": sd,
                    "win_share": round(tally.wins[p] / n, 4)})
    return out


def band_shares(tally: Tally, bands: list[tuple[int, str]]) -> list[dict]:
    """Solo: each score band (lowest first) with the share of games that ended in it."""
    return [{"least": least, "title": title, "share": round(tally.bands.get(title, 0) / tally.games, 4)}
            for least, title in bands]
