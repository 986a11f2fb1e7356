"""Benchmark: simulated Dice Throne Adventures Portal Crawls per second on one core.

Issue "Dice Throne Adventures", Done when: "`make bench` prints simulated Portal Crawl scenarios
per second on one core". Every Portal Crawl card of the built-in adventure, for a team of one, two
and four bot heroes; best of 3 runs, timed in CPU seconds of this process (wall time swings on a
shared machine).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dtc import rulesets  # noqa: E402
from dtc.adventures.boss import boss_battle  # noqa: E402
from dtc.adventures.crawl import Crawl  # noqa: E402

RUNS = 3
CRAWLS = 8  # per card and team


def best_rate(games) -> tuple[float, float, float]:
    """(games per CPU second, turns per game, win rate) of `games()` (it yields each game's result:
    `turns` and `won`), best of RUNS."""
    best, turns, wins, n = 0.0, 0, 0, 0
    for _ in range(RUNS):
        turns = wins = n = 0
        start = time.process_time()
        for result in games():
            turns += result.turns
            wins += result.won
            n += 1
        best = max(best, n / (time.process_time() - start))
    return best, turns / n, wins / n


def rate(loaded, heroes: list[int]) -> tuple[float, float, float]:
    """Portal Crawls: every card, CRAWLS seeds each."""
    cards = range(len(loaded.adventure["scenarios"]))
    return best_rate(lambda: (Crawl(loaded, heroes, card, seed).play()
                              for card in cards for seed in range(CRAWLS)))


def boss_rate(loaded, heroes: list[int]) -> tuple[float, float, float]:
    """Boss Battles against every Boss, CRAWLS seeds each."""
    bosses = loaded.indices_of("boss")
    return best_rate(lambda: (boss_battle(loaded, heroes, boss, seed, [1] * len(heroes))[1]
                              for boss in bosses for seed in range(CRAWLS)))


def vs_rate(loaded, players: list[int], many: bool) -> float:
    """Boss vs games by bots a second on one core (`dtc.adventures.bossvs.play_vs`)."""
    from dtc.adventures.bossvs import play_vs

    best = 0.0
    for _ in range(RUNS):
        start = time.process_time()
        tally = play_vs(loaded, players, many, 1, 0, CRAWLS * 2)
        best = max(best, tally.games / (time.process_time() - start))
    return best


def main() -> None:
    print(f"dtc adventure benchmark  (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    loaded = rulesets.builtin()
    heroes = list(range(len(loaded.heroes)))
    for team in (heroes[:1], heroes[:2], heroes[:4]):
        crawls, turns, won = rate(loaded, team)
        names = "+".join(loaded.heroes[h]["name"] for h in team)
        print(f"  Portal Crawl, {len(team)} hero(es) ({names}), one core: {crawls:6.1f} crawls/s  "
              f"({turns:.1f} crawl turns each, {won:.0%} won; {len(loaded.adventure['scenarios'])} cards "
              f"x {CRAWLS} crawls, best of {RUNS})")
    for team in (heroes[:1], heroes[:2]):
        battles, turns, won = boss_rate(loaded, team)
        print(f"  Boss Battle, {len(team)} hero(es), one core: {battles:6.1f} battles/s  ({turns:.1f} turns "
              f"each, {won:.0%} won; {len(loaded.indices_of('boss'))} Bosses x {CRAWLS}, best of {RUNS})")
    bosses = loaded.indices_of("boss")
    many, duel = vs_rate(loaded, [bosses[0], *heroes[:2]], True), vs_rate(loaded, bosses[:2], False)
    print(f"  Boss vs Many (a Boss, 2 heroes), one core: {many:6.1f} games/s;  Boss vs Boss: {duel:6.1f} "
          f"games/s  ({CRAWLS * 2} games, best of {RUNS})")


if __name__ == "__main__":
    main()
