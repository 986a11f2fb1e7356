"""Benchmark: `dtc simulate --all` on a local Dask cluster of 2 workers against one process.

Target (issue "Simulation past one machine"): `--cluster local:2` at least 1.8x as fast as
`--jobs 1` on a 2-core machine (scheduling overhead under 10%), with the same output byte for byte.
The wall time of the whole command, cluster start-up included; `BENCH_CLUSTER_GAMES` games per pair.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

GAMES = int(os.environ.get("BENCH_CLUSTER_GAMES", "300"))


def timed(*extra: str) -> tuple[float, str]:
    command = [sys.executable, "-m", "dtc", "simulate", "--all", "--games", str(GAMES), "--seed", "1",
               "--format", "json", *extra]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    print(f"dtc cluster benchmark  ({os.cpu_count()} cpus, `dtc simulate --all --games {GAMES}`)")
    alone, expected = timed("--jobs", "1")
    spread, got = timed("--cluster", "local:2")
    pool, pooled = timed("--jobs", "2")
    same = "same output" if got == expected == pooled else "OUTPUT DIFFERS"
    print(f"  --jobs 1: {alone:6.1f} s   --jobs 2: {pool:6.1f} s ({alone / pool:.2f}x)   "
          f"--cluster local:2: {spread:6.1f} s ({alone / spread:.2f}x; target 1.8x)   {same}")


if __name__ == "__main__":
    main()
