"""Benchmark: how long `dtc lint` takes, as a user sees it (whole process, start-up included).

Prints figures for the shipped content and for 100 generated hero files, cold
(empty parser cache) and warm. Targets (issue "Content language"): under 1 s
for the shipped content, under 3 s for 100 heroes.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DTC = [sys.executable, "-m", "dtc"]
RUNS = 5


def timed(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"benchmark command failed ({done.returncode}): {' '.join(args)}\n{done.stderr}")
    return elapsed


def generate_heroes(folder: Path, count: int) -> None:
    """`count` distinct hero files: the built-in heroes renamed, with their numbers varied."""
    sources = sorted((ROOT / "content" / "heroes").glob("*.yaml"))
    rng = random.Random(7)
    for i in range(count):
        text = sources[i % len(sources)].read_text(encoding="utf-8")
        text = re.sub(r"^hero: (.*)$", rf"hero: \1 {i}", text, count=1, flags=re.M)
        # vary dmg/heal numbers so effect texts differ from file to file
        text = re.sub(r"\b(Deal|deal|Heal|heal) (\d+)\b",
                      lambda m: f"{m.group(1)} {int(m.group(2)) + rng.randint(0, 3)}", text)
        (folder / f"hero-{i:03}.yaml").write_text(text, encoding="utf-8")


def report(label: str, samples: list[float], target: float) -> None:
    best, median = min(samples), statistics.median(samples)
    verdict = "ok" if median < target else "OVER TARGET"
    print(f"{label:<44} median {median:6.3f} s   best {best:6.3f} s   "
          f"(target < {target:.0f} s: {verdict})")


def main() -> None:
    cache = Path(tempfile.mkdtemp(prefix="dtc-bench-cache-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    try:
        print(f"dtc lint benchmark  (python {sys.version.split()[0]}, {RUNS} runs each, "
              f"{os.cpu_count()} cpus)")
        cold = timed(DTC + ["lint", str(ROOT / "content")], env)
        print(f"{'shipped content, cold (no parser cache)':<44} {cold:6.3f} s")
        warm = [timed(DTC + ["lint", str(ROOT / "content")], env) for _ in range(RUNS)]
        report("shipped content (8 files), warm", warm, 1.0)
        with tempfile.TemporaryDirectory(prefix="dtc-bench-heroes-") as tmp:
            generate_heroes(Path(tmp), 100)
            hundred = [timed(DTC + ["lint", tmp], env) for _ in range(RUNS)]
            report("100 generated hero files, warm", hundred, 3.0)
        startup = [timed(DTC + ["--version"], env) for _ in range(RUNS)]
        print(f"{'start-up alone (dtc --version)':<44} median {statistics.median(startup):6.3f} s")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
