"""Benchmark: exact odds tables, cold (no cached state space, no cache file), on one core.

Targets (issue "Exact activation odds with optimal rerolls"): under 5 ms per
requirement and under 100 ms for a whole hero.

* per requirement: each distinct offensive requirement of the built-in heroes
  (their upgrades' too), solved for 1 to 3 attempts with the state space built
  afresh every time; the worst and the median;
* per hero: every requirement of the hero, then the whole `dtc odds` report
  (chances of every ability, of meeting at least one, and the defensive rolls'
  outcomes), from nothing.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dtc import odds, rulesets  # noqa: E402
from dtc.disasm import requirement_text  # noqa: E402

RUNS = 3


def cold() -> None:
    odds._SHAPES.clear()


def per_requirement(loaded) -> list[tuple[float, str, str]]:
    out = []
    for hero, data in enumerate(loaded.heroes):
        faces = {int(v): s for v, s in data["dice"]["faces"].items()}
        for requirement in odds.Book(loaded, 3, None).hero_requirements(hero):
            times = []
            for _ in range(RUNS):
                cold()
                start = time.perf_counter()
                odds.table_for([requirement], faces, data["dice"]["count"], 3)
                times.append(time.perf_counter() - start)
            out.append((min(times), data["name"], requirement_text(loaded, requirement)))
    return out


def per_hero(loaded, hero: int) -> tuple[float, float, int]:
    tables, reports = [], []
    count = 0
    for _ in range(RUNS):
        cold()
        book = odds.Book(loaded, 3, None)
        start = time.perf_counter()
        for requirement in book.hero_requirements(hero):
            book.table(hero, [requirement])
        tables.append(time.perf_counter() - start)
        count = len(book.tables)
        cold()
        loaded._odds_books = {3: odds.Book(loaded, 3, None)}
        start = time.perf_counter()
        odds.hero_report(loaded, hero, 3, upgrades=True)
        reports.append(time.perf_counter() - start)
    return min(tables), min(reports), count


def main() -> None:
    print(f"dtc odds benchmark  (python {sys.version.split()[0]}, {os.cpu_count()} cpus; "
          f"cold, best of {RUNS})")
    loaded = rulesets.builtin()
    times = per_requirement(loaded)
    slowest = max(times)
    median = statistics.median(t for t, _, _ in times)
    print(f"  per requirement ({len(times)} distinct): median {median * 1e3:.2f} ms, "
          f"worst {slowest[0] * 1e3:.2f} ms ({slowest[1]}: {slowest[2]})   target < 5 ms")
    for hero, data in enumerate(loaded.heroes):
        tables, report, count = per_hero(loaded, hero)
        print(f"  {data['name']:<12} {count:2} requirements {tables * 1e3:6.1f} ms; "
              f"whole `dtc odds --upgrades` report {report * 1e3:6.1f} ms   target < 100 ms")


if __name__ == "__main__":
    main()
