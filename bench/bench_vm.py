"""Benchmark: compile time for the shipped content, and VM throughput.

Targets (issue "Effect compiler, ruleset artifact and bytecode interpreter"):
compile under 1 s; at least 100,000 effect executions per second on one core,
over the mix of every Vanguard ability (each tier and variant, each defensive
ability), run against the sample state with plain answers.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dtc import artifact, project  # noqa: E402
from dtc.compiler import compile_content  # noqa: E402
from dtc.sample import SampleState, run_to_end  # noqa: E402
from dtc.vm import VM, RunContext  # noqa: E402

RUNS = 5


def compile_process() -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(RUNS):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "dtc", "compile", str(ROOT / "content"),
                                   "-o", str(Path(tmp) / "ruleset.dtcb")], capture_output=True)
            times.append(time.perf_counter() - start)
            if done.returncode:
                sys.exit(done.stderr.decode())
    return times


def compile_stage(result) -> list[float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        data = artifact.to_bytes(compile_content(result.content))
        artifact.load(data)
        times.append(time.perf_counter() - start)
    return times


def throughput(loaded, seconds: float = 3.0) -> tuple[float, float, int]:
    vm = VM(loaded)
    jobs = []
    for hero_index, hero in enumerate(loaded.heroes):
        faces = {int(v): s for v, s in hero["dice"]["faces"].items()}
        for ability in hero["abilities"]:
            chunks = [o["chunk"] for o in ability.get("options", [])]
            if ability.get("chunk") is not None:
                chunks.append(ability["chunk"])
            jobs += [(hero_index, chunk, faces) for chunk in chunks]
    states = {h: SampleState(loaded, [h, (h + 1) % len(loaded.heroes)], logging=False)
              for h in range(len(loaded.heroes))}
    rng = random.Random(1)
    done = instructions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for hero_index, chunk, faces in jobs:
            ctx = RunContext(0, hero_index, attacker=0, defender=1, roll=[1, 2, 3, 4, 6], faces=faces)
            outcome, _ = run_to_end(vm, chunk, ctx, states[hero_index], rng)
            instructions += outcome.instructions
            done += 1
    elapsed = time.perf_counter() - start
    return done / elapsed, instructions / elapsed, len(jobs)


def main() -> None:
    print(f"dtc compile and VM benchmark  (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    process = compile_process()
    print(f"{'dtc compile content/ (whole process)':<44} median {statistics.median(process):6.3f} s   "
          f"(target < 1 s: {'ok' if statistics.median(process) < 1 else 'OVER TARGET'})")
    result = project.builtin()
    stage = compile_stage(result)
    print(f"{'compile + link + verify stage alone':<44} median {statistics.median(stage) * 1000:6.1f} ms")
    loaded = artifact.load(artifact.to_bytes(compile_content(result.content)))
    rate, per_instruction, jobs = throughput(loaded)
    print(f"{'VM effect executions per second':<44} {rate:10,.0f}   over {jobs} ability chunks   "
          f"(target >= 100,000: {'ok' if rate >= 100_000 else 'UNDER TARGET'})")
    print(f"{'VM instructions per second':<44} {per_instruction:10,.0f}")


if __name__ == "__main__":
    main()
