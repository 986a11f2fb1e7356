"""Benchmark: complete Kingdoms of Valeria bot games per second on one core.

Target (issue "Kingdoms of Valeria"): at least 100 four-player bot games per
second on one core. Measured for both bots (the greedy one weighs every move
and Domain power; the random one is the engine alone), best of 3 runs, and the
solo game. Timed in CPU seconds of this process: on a shared machine wall time
swings by a fifth from run to run.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dtc import rulesets  # noqa: E402
from dtc.valeria.simulate import play_one  # noqa: E402

RUNS = 3


def rate(loaded, players: int, bot: str, games: int) -> tuple[float, float, float]:
    rates, turns, scores = [], [], []
    for run in range(RUNS):
        start = time.process_time()  # CPU time of this process: steadier than wall time on a shared machine
        for seed in range(games):
            result = play_one(loaded, players, None, 1000 * run + seed, bot)
            turns.append(result.turns)
            scores.append(statistics.mean(s.total for s in result.scores))
        rates.append(games / (time.process_time() - start))
    return max(rates), statistics.mean(turns), statistics.mean(scores)


def main() -> None:
    print(f"dtc Valeria benchmark  (python {sys.version.split()[0]}, {os.cpu_count()} cpus; best of {RUNS})")
    loaded = rulesets.builtin()
    play_one(loaded, 4, None, 0, "greedy")  # warm up
    for players, bot, games in ((4, "greedy", 100), (4, "random", 100), (1, "greedy", 200)):
        per_second, turns, score = rate(loaded, players, bot, games)
        what = "solo" if players == 1 else f"{players}-player"
        target = "   target >= 100" if players == 4 else ""
        print(f"  {what:<9} {bot:<7} bots: {per_second:7.1f} games/s  ({1000 / per_second:5.1f} ms/game, "
              f"{turns:.1f} turns, mean score {score:.1f}){target}")


if __name__ == "__main__":
    main()
