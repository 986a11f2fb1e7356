"""Benchmark: how long `dtc lint` takes, as a user sees it (whole process, start-up included).

Prints figures for the shipped content and for 100 generated hero files, each against `yamllint`
(default rules) on the same files, a YAML linter that checks syntax and style only:
  - dtc --no-cache: every file checked (what every lint cost before the lint cache)
  - dtc cold: the lint cache empty (a file changed), the compiled parser tables cached
  - dtc warm: nothing changed since the last lint: read from the lint cache
  - dtc first run: no cache at all (parser tables built too), once
Medians of RUNS runs. Targets (issue "Content language"): under 1 s for the shipped content, under
3 s for 100 heroes, cold; warm no slower than yamllint. And once, 2,000 generated heroes
(issue "Hardening": under 20 s and 300 MB).

The runs get a private cache folder, and may write bytecode (`__pycache__`) even where
PYTHONDONTWRITEBYTECODE is set: yamllint's was written when pip installed it, and an installed dtc
has its own too.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DTC = [sys.executable, "-m", "dtc"]
YAMLLINT = [sys.executable, "-m", "yamllint"]
RUNS = 7


def timed(args: list[str], env: dict, ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """(wall time, CPU time) of one run of the command, in seconds. The CPU time (user + system)
    hardly moves with the load of a shared machine; the wall time is what a user waits."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        sys.exit(f"benchmark command failed ({done.returncode}): {' '.join(args)}\n{done.stderr}")
    return elapsed, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


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


def wall(samples: list[tuple[float, float]]) -> float:
    return statistics.median(w for w, _ in samples)


def cpu(samples: list[tuple[float, float]]) -> float:
    return statistics.median(c for _, c in samples)


def line(label: str, samples: list[tuple[float, float]], target: str = "") -> None:
    best = min(w for w, _ in samples)
    print(f"  {label:<40} median {wall(samples):6.3f} s   best {best:6.3f} s   cpu {cpu(samples):6.3f} s"
          f"   {target}")


def compare(label: str, folder: Path, env: dict, target: float) -> None:
    """dtc without its lint cache, cold and warm, and yamllint, on the files under `folder`."""
    lint = DTC + ["lint", str(folder)]
    entries = Path(env["XDG_CACHE_HOME"]) / "dtc" / "lint"
    print(f"\n{label}")
    uncached, cold = [], []
    for _ in range(RUNS):  # interleaved: a change of load on the machine hits both alike
        uncached.append(timed(lint + ["--no-cache"], env))
        shutil.rmtree(entries, ignore_errors=True)
        cold.append(timed(lint, env))
    warm = [timed(lint, env) for _ in range(RUNS)]
    verdict = "ok" if wall(cold) < target else "OVER TARGET"
    line("dtc lint --no-cache (before the cache)", uncached)
    line("dtc lint, cold (lint cache empty)", cold, f"(target < {target:.0f} s: {verdict})")
    print(f"  {'  of which the cache (in-process)':<40} median {miss_cost(folder) * 1000:6.1f} ms"
          f"   (cold - no-cache: wall {(wall(cold) - wall(uncached)) * 1000:+.0f} ms, "
          f"cpu {(cpu(cold) - cpu(uncached)) * 1000:+.0f} ms)")
    line("dtc lint, warm (nothing changed)", warm)
    if importlib.util.find_spec("yamllint") is None:
        print("  yamllint is not installed: `pip install -e '.[bench]'` (make bench does)")
        return
    yamllint = [timed(YAMLLINT + [str(folder)], env, ok=(0, 1)) for _ in range(RUNS)]
    line("yamllint (default rules)", yamllint)
    ratio = wall(warm) / wall(yamllint)
    met = "met" if ratio <= 1 else "NOT MET"
    print(f"  dtc warm / yamllint = {ratio:.2f}   (target: warm no slower than yamllint: {met}); "
          f"dtc cold / yamllint = {wall(cold) / wall(yamllint):.2f}")


def miss_cost(folder: Path) -> float:
    """What the lint cache adds to a lint it cannot answer: the key (code fingerprint, every input
    hashed) before the lint and again after it, the check that the lint read nothing else, and the
    entry written. Seconds, median of RUNS."""
    sys.path.insert(0, str(ROOT))
    from dtc import lintcache, project

    result = project.run([folder])
    samples = []
    with tempfile.TemporaryDirectory(prefix="dtc-bench-entries-") as entries:
        for _ in range(RUNS):
            lintcache.code_fingerprint.cache_clear()  # computed once per process
            start = time.perf_counter()
            files = lintcache.key_files([folder])
            key = lintcache.lint_key([folder], files)
            assert lintcache._covered(result, files)
            assert lintcache.lint_key([folder], lintcache.key_files([folder])) == key
            lintcache.store(Path(entries), key, result)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def many(env: dict, count: int = 2000) -> None:
    """`dtc lint --no-cache` of `count` generated heroes: wall time and peak memory of the process
    (issue "Hardening": 2,000 heroes under 20 s and 300 MB). Once: it takes a while."""
    with tempfile.TemporaryDirectory(prefix="dtc-bench-many-") as tmp:
        generate_heroes(Path(tmp), count)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        elapsed, used = timed(DTC + ["lint", "--no-cache", tmp], env)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
    print(f"\n{count} generated hero files, dtc lint --no-cache, once")
    note = "" if peak > before else " (no larger than an earlier run: a bound, not the figure)"
    print(f"  wall {elapsed:6.2f} s   cpu {used:6.2f} s   peak memory {peak / 1024:6.0f} MB{note}   "
          f"(target < 20 s: {'met' if elapsed < 20 else 'NOT MET'}; < 300 MB: "
          f"{'met' if peak / 1024 < 300 else 'NOT MET'})")


def main() -> None:
    cache = Path(tempfile.mkdtemp(prefix="dtc-bench-cache-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)
    try:
        print(f"dtc lint benchmark  (python {sys.version.split()[0]}, {RUNS} runs each, "
              f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f})")
        first, first_cpu = timed(DTC + ["lint", str(ROOT / "content")], env)
        print(f"  {'shipped content, first run (no cache at all)':<47} {first:6.3f} s{'':16}"
              f"cpu {first_cpu:6.3f} s")
        compare("shipped content (content/)", ROOT / "content", env, 1.0)
        with tempfile.TemporaryDirectory(prefix="dtc-bench-heroes-") as tmp:
            generate_heroes(Path(tmp), 100)
            compare("100 generated hero files", Path(tmp), env, 3.0)
        many(env)
        startup = [timed(DTC + ["--version"], env) for _ in range(RUNS)]
        print()
        line("start-up alone (dtc --version)", startup)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
