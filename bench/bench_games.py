"""Benchmark: complete heuristic-bot Dice Throne games per second on one core, and peak memory.

Targets (issue "Dice Throne rules engine with bots"): at least 500 games per
second per core; memory flat in the number of games. Issue "More than two
heroes": 2v2 and King of the Hill at least half the 1v1 rate in turns per
second, and memory flat.

* Speed: every pair of built-in heroes (mirror matches too), the same games
  each run, in this process; best of 3 runs.
* Memory: `dtc simulate --all --jobs 2` run as a child process for 10,000 and
  for 100,000 games; the peak resident memory of any process of the run (the
  simulate process and its workers). `BENCH_GAMES` changes the larger count.
"""

from __future__ import annotations

import itertools
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dtc import rulesets  # noqa: E402
from dtc.dicethrone.simulate import play_games  # noqa: E402

GAMES_PER_PAIR = 60
RUNS = 3
LARGE = int(os.environ.get("BENCH_GAMES", "100000"))

PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
if done.returncode:
    sys.exit(done.stderr.decode())
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def speed(loaded) -> tuple[float, float]:
    pairs = list(itertools.combinations_with_replacement(range(len(loaded.heroes)), 2))
    play_games(loaded, [0, 1], 99, 0, 10, "heuristic")  # warm the caches every process warms
    rates, turns = [], 0
    for _ in range(RUNS):
        games = turns = 0
        start = time.perf_counter()
        for a, b in pairs:
            tally = play_games(loaded, [a, b], 1, 0, GAMES_PER_PAIR, "heuristic")
            games += tally.games
            turns += tally.turns
        rates.append(games / (time.perf_counter() - start))
    return max(rates), turns / games


MODE_TABLES = {"2v2": [[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]],  # every split of the four into teams
               "king_of_the_hill": [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]}
MODE_GAMES = 60


def mode_speed(loaded, mode: str) -> tuple[float, float]:
    """(games per second, turns per game) of heuristic bots at the mode's tables; best of 3 runs."""
    rates, turns = [], 0
    for _ in range(RUNS):
        games = turns = 0
        start = time.perf_counter()
        for heroes in MODE_TABLES[mode]:
            tally = play_games(loaded, heroes, 1, 0, MODE_GAMES, "heuristic", mode=mode)
            games += tally.games
            turns += tally.turns
        rates.append(games / (time.perf_counter() - start))
    return max(rates), turns / games


def mode_memory(mode: str, games: int) -> float:
    """Peak resident MB of `dtc simulate --mode MODE --all` (every table) for `games` per table."""
    done = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "dtc", "simulate",
                           "--mode", mode,
                           "--all", "--games", str(games), "--jobs", "2", "--format", "json"],
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(done.stderr)
    return int(done.stdout.strip()) / 1024


def peak_memory(total_games: int, pairs: int) -> tuple[float, float]:
    """(peak resident MB of any process of the run, seconds) for `dtc simulate --all`."""
    per_pair = max(1, total_games // pairs)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "dtc", "simulate", "--all",
                           "--games", str(per_pair), "--jobs", "2", "--format", "json"],
                          capture_output=True, text=True)
    if done.returncode:
        sys.exit(done.stderr)
    return int(done.stdout.strip()) / 1024, time.perf_counter() - start


def main() -> None:
    print(f"dtc game benchmark  (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    loaded = rulesets.builtin()
    rate, turns = speed(loaded)
    pairs = len(loaded.heroes) * (len(loaded.heroes) + 1) // 2
    print(f"  heuristic-bot games, one core:  {rate:7.1f} games/s  ({1000 / rate:.2f} ms/game, "
          f"{turns:.1f} turns/game; best of {RUNS} x {pairs * GAMES_PER_PAIR} games)   target >= 500")
    one_v_one = rate * turns
    for mode in MODE_TABLES:
        mode_rate, mode_turns = mode_speed(loaded, mode)
        ratio = mode_rate * mode_turns / one_v_one
        print(f"  {mode}, one core: {mode_rate:7.1f} games/s, {mode_turns:.1f} turns/game, "
              f"{mode_rate * mode_turns:6.0f} turns/s = {ratio:.2f} x the 1v1 turns/s   target >= 0.50")
        small, large = (mode_memory(mode, n) for n in (MODE_GAMES, MODE_GAMES * 10))
        print(f"  dtc simulate --mode {mode} --all (--jobs 2): peak {small:5.1f} MB at {MODE_GAMES} games a "
              f"table, {large:5.1f} MB at {MODE_GAMES * 10}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  this process after the speed runs: {own:.0f} MB peak")
    for total in (LARGE // 10, LARGE):
        mb, seconds = peak_memory(total, pairs)
        print(f"  dtc simulate --all, {total:>7,} games (--jobs 2): peak {mb:6.1f} MB per process, "
              f"{seconds:6.1f} s")


if __name__ == "__main__":
    main()
