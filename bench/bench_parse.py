"""Benchmark: how long parsing one effect sentence takes, and where the time goes.

Times `dtc.parser.parse_effect(text, book)` without its lru_cache (`_parse.__wrapped__`) over
(a) every effect text of the built-in content, each read through the phrasebook the checker reads
it with (the hero's names shielded), and (b) the printed-text corpus (tests/cases/printed/*.corpus
but unsupported.corpus, each sentence read as its corpus hero's). Each sentence is timed whole and
in its parts: the phrasebook reading (`dtc.phrases.read`), Lark alone (LALR over the text as
read), and the rest (tree to AST, spans mapped back to the printed text). A sentence's time is its
best of REPEATS rounds (each round times every sentence once); the figures are the median, p90 and
max over the sentences.

Target (issue "Printed card text"): a median under 200 us per sentence, LALR kept. When it is
missed, or with --profile, a cProfile of the set shows where the time goes.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lark.exceptions import UnexpectedInput  # noqa: E402
from ruamel.yaml import YAML  # noqa: E402

from dtc import checker as checker_mod  # noqa: E402
from dtc import parser, phrases, project  # noqa: E402
from dtc.checker import Checker  # noqa: E402

PRINTED = ROOT / "tests" / "cases" / "printed"
DEFAULT_HERO = "Corpus Hero"  # tests/test_printed.py
MIN_CORPUS = 50  # fewer sentences than this: the corpus is not written yet
REPEATS = 7
TARGET_US = 200.0

Sentence = tuple[str, phrases.Phrasebook | None]


def content_sentences() -> list[Sentence]:
    """Every effect text of the built-in content with the phrasebook the checker reads it with."""
    seen: list[Sentence] = []
    real = checker_mod.parse_effect

    def recording(text, book=None):
        seen.append((text, book))
        return real(text, book)

    checker_mod.parse_effect = recording
    try:
        project.builtin()
    finally:
        checker_mod.parse_effect = real
    if not seen:
        sys.exit("bench_parse: the checker read no text through `dtc.checker.parse_effect`; "
                 "update content_sentences() to where it parses effects now")
    return list(dict.fromkeys(seen))


def corpus_sentences() -> list[Sentence]:
    """The printed-text corpus, each sentence with its corpus hero's phrasebook (as `dtc explain
    --ruleset tests/cases/printed --hero HERO` reads it)."""
    files = [p for p in sorted(PRINTED.glob("*.corpus")) if p.name != "unsupported.corpus"]
    if not files:
        return []
    content = project.run([PRINTED]).content
    checker = Checker(content)
    checker.book = checker.check_phrasebooks()
    statuses = [s for ss in content.status_sets for s in ss.statuses]
    books = {}
    for hero in content.heroes:
        ruleset = checker.ruleset_for(hero.ruleset, content.rulesets, hero.doc, ("rules",))
        books[hero.name] = checker.hero_scope(hero, ruleset, statuses).phrasebook
    out: list[Sentence] = []
    for path in files:
        for entry in YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8")) or []:
            if isinstance(entry, dict) and isinstance(entry.get("text"), str):
                out.append((entry["text"], books.get(entry.get("hero", DEFAULT_HERO))))
    return list(dict.fromkeys(out))


def timed(run: Callable, *args) -> float:
    """One call, in microseconds."""
    start = time.perf_counter()
    run(*args)
    return (time.perf_counter() - start) * 1e6


def measure(sentences: list[Sentence], repeats: int = REPEATS) -> dict[str, list[float]]:
    """Per sentence, the best of `repeats` rounds (a round times every sentence once, so a burst of
    load from elsewhere on the machine costs a round, not all of one sentence's runs): the whole
    parse, the phrasebook reading, Lark alone, and the rest."""
    whole_parse = parser._parse.__wrapped__
    lark = parser.lark_parser()

    def lark_alone(read: str) -> None:
        with contextlib.suppress(UnexpectedInput):  # a text that fails still costs its parse
            lark.parse(read, start="effect")

    readings = [phrases.read(text, book).text for text, book in sentences]
    best = {key: [float("inf")] * len(sentences) for key in ("whole", "phrasebook", "lark")}
    for _ in range(repeats):
        for i, (text, book) in enumerate(sentences):
            best["whole"][i] = min(best["whole"][i], timed(whole_parse, text, "effect", book))
            best["phrasebook"][i] = min(best["phrasebook"][i], timed(phrases.read, text, book))
            best["lark"][i] = min(best["lark"][i], timed(lark_alone, readings[i]))
    best["rest"] = [max(0.0, w - r - a) for w, r, a in zip(best["whole"], best["phrasebook"], best["lark"],
                                                            strict=True)]
    return best


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(label: str, sentences: list[Sentence], times: dict[str, list[float]]) -> bool:
    """Print the set's figures; whether its median meets the target."""
    count = len(times["whole"])
    total = sum(times["whole"])
    print(f"\n{label}: {count} sentences")
    print(f"  {'':<34} {'median':>8} {'p90':>8} {'max':>8}   share of the time")
    names = {"whole": "parse_effect (no lru_cache)", "phrasebook": "  phrasebook reading (phrases.read)",
             "lark": "  Lark LALR alone", "rest": "  tree -> AST, spans (the rest)"}
    for key, name in names.items():
        values = times[key]
        share = sum(values) / total * 100 if total else 0.0
        print(f"  {name:<34} {statistics.median(values):6.0f}us {percentile(values, 0.9):6.0f}us "
              f"{max(values):6.0f}us   {share:5.1f}%")
    slowest = sorted(range(count), key=lambda i: -times["whole"][i])[:3]
    for i in slowest:
        text = " ".join(sentences[i][0].split())
        print(f"  slow: {times['whole'][i]:5.0f} us  {text[:90] + '…' if len(text) > 90 else text}")
    median = statistics.median(times["whole"])
    met = median < TARGET_US
    print(f"  median {median:.0f} us per sentence (target < {TARGET_US:.0f} us, LALR: "
          f"{'met' if met else 'NOT MET'})")
    return met


def profile(label: str, sentences: list[Sentence], top: int = 18) -> None:
    """Where the time of parsing the whole set goes (cProfile, by own time)."""
    whole_parse = parser._parse.__wrapped__
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(5):
        for text, book in sentences:
            whole_parse(text, "effect", book)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    print(f"\nprofile of {label} (5 passes; by own time, top {top}):")
    lines = out.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    for line in lines[start:]:
        if line.strip():
            print("  " + line.replace(str(ROOT) + os.sep, "").replace(sys.prefix, "<venv>"))


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--profile", action="store_true", help="profile even when the target is met")
    args.add_argument("--repeats", type=int, default=REPEATS, help="rounds; a sentence's time is its best")
    options = args.parse_args()
    print(f"dtc effect-parse benchmark  (python {sys.version.split()[0]}, best of {options.repeats} rounds "
          f"a sentence, {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f})")
    parser.lark_parser()  # built (or loaded from its cache) before timing
    content = content_sentences()
    corpus = corpus_sentences()
    corpus_label = f"printed-text corpus ({PRINTED.relative_to(ROOT)}/*.corpus)"
    if len(corpus) < MIN_CORPUS:
        print(f"\nthe printed-text corpus has {len(corpus)} sentences (< {MIN_CORPUS}): not written yet, "
              "so the corpus figures below are the built-in content's texts again")
        corpus, corpus_label = content, "corpus fallback: the built-in content's texts"
    sets = [("built-in content, every effect text", content), (corpus_label, corpus)]
    missed = [(label, sentences) for label, sentences in sets
              if not report(label, sentences, measure(sentences, options.repeats))]
    for label, sentences in (sets if options.profile else missed):
        profile(label, sentences)


if __name__ == "__main__":
    main()
