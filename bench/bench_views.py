"""Benchmark: rendering every built-in hero's board (issue 23, Done when: "rendering every built-in
hero's board under 1 s in all").

The content is read once (lint + compile, what `dtc board` does before it draws, timed apart); then
every hero's board page is made from it, its exact odds included, REPEATS times; the figure is the
best round (this machine is shared and noisy). Also timed: the print sheets of every hero (HTML, the
part dtc does; Chromium's layout to PDF is timed once, whole) and a balance report page.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dtc.views.content import hero_odds, read, render_board  # noqa: E402
from dtc.views.printing import PAPERS, print_html, to_pdf  # noqa: E402

REPEATS = 5
TARGET = 1.0  # seconds, all boards


def best(work, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    start = time.perf_counter()
    found = read([ROOT / "content"])
    loaded = time.perf_counter() - start
    heroes = found.heroes
    boards = best(lambda: [render_board(found, h) for h in heroes])
    sizes = [len(render_board(found, h)[0]) for h in heroes]
    sheets = best(lambda: print_html([(h, hero_odds(found.compiled, h)) for h in heroes],
                                     found.result.content, PAPERS["a4"]))
    print(f"read the content (lint + compile, once): {loaded:.2f} s")
    print(f"every built-in hero's board ({len(heroes)} heroes, odds included, best of {REPEATS}): "
          f"{boards * 1000:.0f} ms in all, {boards / len(heroes) * 1000:.0f} ms each, "
          f"{sum(sizes) / len(sizes) / 1024:.0f} KiB a page; target under {TARGET:.0f} s: "
          + ("met" if boards < TARGET else "NOT met"))
    print(f"print sheets of every hero (HTML): {sheets * 1000:.0f} ms")
    if shutil.which("chromium"):
        html = print_html([(h, hero_odds(found.compiled, h)) for h in heroes], found.result.content,
                          PAPERS["a4"])
        start = time.perf_counter()
        pdf = to_pdf(html)
        print(f"  to PDF in headless Chromium (start included): {time.perf_counter() - start:.2f} s, "
              f"{len(pdf) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
