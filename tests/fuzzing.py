"""How many inputs the property tests generate, how long one may take, and the long fuzzing run.

CI (and `make test`) runs each property test's own small slice. `make fuzz` (`python tests/fuzzing.py`)
gives every stage of the pipeline INPUTS generated inputs (issue "Hardening": 100,000 per stage): each
property test is counted under the one stage whose promise it checks, and gets its share of that
stage's inputs (DTC_FUZZ_EXAMPLES, read by `examples`). One input, whatever the stage, may take at most
BOUND: a hang or a blow-up is a failure, not a slow test (typical inputs take milliseconds; the bound
is a hundred times that and more).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

LONG_RUN = os.environ.get("DTC_FUZZ_EXAMPLES")
BOUND = timedelta(seconds=10)


def examples(ci: int) -> int:
    """The inputs a property test generates: `ci` in a normal run, DTC_FUZZ_EXAMPLES in a long one."""
    return int(LONG_RUN) if LONG_RUN else ci


@dataclass(frozen=True)
class Share:
    """One property test in the long run: its part of its stage's inputs, and what one input of it
    typically costs (ms, measured on this 2-core machine under load; only to start the longest first
    and to say how long the run takes)."""

    test: str
    part: float
    ms: float


# Each stage's parts add up to 1 (the encoders' limits test runs out of distinct inputs at about
# 1,900, so the number test carries the compile stage whole). The cheap tests of a stage carry most
# of its inputs, the costly ones (a whole game or a lint of the built-in content per input) a part
# that still reaches thousands.
PIPE = "tests/test_pipeline_properties.py::"
PROPS = "tests/test_properties.py::"
ART = "tests/test_artifact.py::"
ENGINE = "tests/test_engine_properties.py::"
VALERIA = "tests/test_valeria_play.py::"
STAGES: dict[str, list[Share]] = {
    "parse": [Share(PROPS + "test_random_text_never_crashes_the_parser", 0.4, 5),
              Share(PROPS + "test_word_salad_never_crashes_the_parser", 0.4, 7),
              Share(PROPS + "test_sentences_generated_from_the_grammar_parse_and_round_trip", 0.2, 100)],
    "load": [Share(PROPS + "test_random_yaml_never_crashes_the_loader", 1.0, 1)],
    "check": [Share(PROPS + "test_mutated_hero_files_give_diagnostics_never_exceptions", 0.45, 35),
              Share(PIPE + "test_verb_patterns_with_many_parameters_match_in_bounded_work", 0.45, 3),
              Share(PIPE + "test_lint_of_a_hero_verb_with_many_parameters_ends", 0.05, 80),
              Share(PROPS + "test_lint_of_heroes_one_at_a_time_says_what_checking_all_at_once_says",
                    0.05, 200)],
    "compile": [Share(PIPE + "test_any_number_in_a_hero_lints_to_a_diagnostic_or_compiles_and_plays",
                      1.0, 50),
                Share(PIPE + "test_effects_past_the_encoders_limits_are_refused_by_lint_or_play", 0.05, 65)],
    "verify": [Share(ART + "test_flipped_dropped_and_inserted_bytes_never_crash_the_loader", 0.7, 20),
               Share(ART + "test_rehashed_mutations_either_fail_verification_or_run_safely", 0.15, 65),
               Share(ART + "test_any_payload_edit_with_the_hash_recomputed_is_refused_in_one_line_or_plays",
                     0.15, 85)],
    "run": [Share(ENGINE + "test_any_game_keeps_the_rules_and_ends", 0.2, 27),
            Share(ENGINE + "test_same_seed_same_game", 0.1, 14),
            Share(ENGINE + "test_a_bot_that_says_it_passes_would_pass", 0.3, 9),
            Share(ENGINE + "test_skipping_the_bots_that_pass_plays_the_same_game", 0.15, 15),
            Share(ENGINE + "test_any_game_of_a_mode_keeps_the_rules_and_ends", 0.15, 29),
            Share(ENGINE + "test_same_seed_same_game_in_every_mode", 0.04, 37),
            Share(VALERIA + "test_any_game_marks_in_order_keeps_the_limits_and_ends", 0.04, 37),
            Share(VALERIA + "test_same_seed_same_game", 0.02, 97)],
    "save": [Share(PIPE + "test_the_write_guard_leaves_every_file_but_its_own_games", 0.95, 5),
             Share(PIPE + "test_saves_and_logs_are_written_only_over_their_own_game", 0.05, 90)],
}


NOT_RUN, UNFINISHED = -1, -2  # an Outcome's status besides pytest's exit code


@dataclass
class Outcome:
    """What one property test's long run did, read from pytest's and Hypothesis's output."""

    share: Share
    asked: int
    inputs: int = 0
    failing: int = 0
    typical: str = ""
    stopped: str = ""
    seconds: float = 0.0
    status: int = NOT_RUN
    commit: str = ""  # the dtc commit the test ran on (a long run may be made in parts)

    @property
    def passed(self) -> bool:
        return self.status == 0 and self.failing == 0


def asked_of(share: Share, inputs: int) -> int:
    """The inputs one test is given: its part of the stage's, rounded up."""
    return max(1, math.ceil(share.part * inputs))


def read_statistics(text: str) -> dict:
    """Hypothesis's --hypothesis-show-statistics for one test: inputs generated (the generate phase's
    passing and failing test cases), typical runtimes, why it stopped."""
    found = {"inputs": 0, "failing": 0, "typical": "", "stopped": ""}
    generate = re.search(r"during generate phase.*?(?=during \w+ phase|\Z)", text, re.S)
    if generate:
        counts = re.search(r"(\d+) passing, (\d+) failing", generate.group(0))
        if counts:
            found["inputs"] = int(counts.group(1)) + int(counts.group(2))
            found["failing"] = int(counts.group(2))
        typical = re.search(r"Typical runtimes: (.*)", generate.group(0))
        found["typical"] = typical.group(1).strip() if typical else ""
    stopped = re.search(r"Stopped because (.*)", text)
    found["stopped"] = stopped.group(1).strip() if stopped else ""
    return found


def short_name(share: Share) -> str:
    """A test's name without its folder (`test_engine_properties.test_same_seed_same_game`)."""
    module, name = share.test.split("::")
    return f"{Path(module).stem}.{name}"


def log_of(share: Share, logs: Path) -> Path:
    """Where one test's output goes (named by module and test: two modules have a
    `test_same_seed_same_game`)."""
    return logs / f"{short_name(share)}.log"


def read_log(share: Share, asked: int, text: str) -> Outcome:
    """What a test's long run did, from its output: pytest's last line and Hypothesis's statistics (and
    the commit it ran on, from the log's first line)."""
    found = read_statistics(text)
    closing = re.findall(r"^=*\s*(\d+ \w+.*?) in ([\d.]+)s", text, re.M)  # "1 passed in 12.34s"
    said, seconds = closing[-1] if closing else ("", "0")
    commit = re.match(r"# dtc fuzz: .* at commit (\S+)", text)
    status = (0 if said.strip() == "1 passed" else 1) if closing else UNFINISHED
    return Outcome(share, asked, found["inputs"], found["failing"], found["typical"], found["stopped"],
                   float(seconds), status, commit.group(1) if commit else "")


def commit_of(root: Path) -> str:
    """The commit the tests run on, `-dirty` when tracked files are changed ("" outside git)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                 capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("-dirty" if changed else "")


def done_before(share: Share, asked: int, logs: Path) -> Outcome | None:
    """`--resume`: the test's log already holds a passing run of all its inputs (or of every distinct
    input there was)."""
    if not log_of(share, logs).exists():
        return None
    outcome = read_log(share, asked, log_of(share, logs).read_text(encoding="utf-8", errors="replace"))
    enough = outcome.inputs >= asked or "nothing left" in outcome.stopped
    return outcome if outcome.passed and enough else None


def run_one(share: Share, inputs: int, logs: Path, root: Path) -> Outcome:
    """Run one property test with its share of a stage's inputs; its output goes to its log file."""
    asked = asked_of(share, inputs)
    env = {**os.environ, "DTC_FUZZ_EXAMPLES": str(asked)}
    with open(log_of(share, logs), "w", encoding="utf-8") as out:
        out.write(f"# dtc fuzz: {share.test} with {asked} inputs at commit {commit_of(root) or '?'}\n")
        out.flush()
        status = subprocess.call(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rf", "--hypothesis-show-statistics",
             share.test], cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    outcome = read_log(share, asked, log_of(share, logs).read_text(encoding="utf-8", errors="replace"))
    if status != 0:
        outcome.status = status
    return outcome


def report(outcomes: list[Outcome], inputs: int, stages: list[str]) -> tuple[str, bool]:
    """The table of the run, stage by stage, and whether every test passed and every stage got its
    inputs. A test whose generator has no more distinct inputs than it ran ("nothing left to do":
    Hypothesis ran each of them) has had them all: a stage of such tests is whole with fewer, and
    says so."""
    lines, good = [], True
    for stage in stages:
        shares = STAGES[stage]
        done = [o for o in outcomes if o.share in shares]
        total = sum(o.inputs for o in done)
        exhausted = all(o.inputs >= o.asked or (o.passed and "nothing left" in o.stopped) for o in done)
        short = total < inputs and not exhausted
        good &= all(o.passed for o in done) and not short and len(done) == len(shares)
        if short:
            fewer = f"  (FEWER THAN {inputs:,})"
        elif total < inputs:
            fewer = f"  (every input its tests can generate; fewer than {inputs:,})"
        else:
            fewer = ""
        lines.append(f"{stage}: {total:,} inputs{fewer}")
        for o in done:
            verdict = ("passed" if o.passed else "NOT RUN" if o.status == NOT_RUN
                       else "NOT FINISHED (its log has no closing line)" if o.status == UNFINISHED
                       else f"FAILED (exit {o.status}, {o.failing} failing)")
            ran_out = "  (ran out of distinct inputs)" if o.passed and "nothing left" in o.stopped else ""
            lines.append(f"  {short_name(o.share)}: {o.inputs:,} of {o.asked:,}{ran_out}, "
                         f"{o.seconds:,.0f} s, typical {o.typical or '?'}: {verdict}"
                         + (f" (commit {o.commit})" if o.commit else ""))
    return "\n".join(lines), good


def main(argv: list[str] | None = None) -> int:
    """`make fuzz`: every stage's property tests with INPUTS inputs a stage, JOBS at a time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="generated inputs a stage")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="tests run at once")
    parser.add_argument("--logs", type=Path, default=Path(".venv/fuzz"), help="a log file per test here")
    parser.add_argument("--stage", action="append", choices=sorted(STAGES), help="only these stages")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: the table of the logs already there (a run made stage by stage)")
    parser.add_argument("--resume", action="store_true",
                        help="leave out the tests whose log already holds a passing run of all their inputs")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parent.parent
    logs = args.logs if args.logs.is_absolute() else root / args.logs
    logs.mkdir(parents=True, exist_ok=True)
    stages = args.stage or list(STAGES)
    shares = [s for stage in stages for s in STAGES[stage]]
    if args.report:
        outcomes = [read_log(s, asked_of(s, args.inputs), log_of(s, logs).read_text(encoding="utf-8"))
                    if log_of(s, logs).exists() else Outcome(s, asked_of(s, args.inputs)) for s in shares]
        table, good = report(outcomes, args.inputs, stages)
        print(f"{table}\n{'all passed' if good else 'FAILED'}")
        return 0 if good else 1
    done = {s: found for s in shares
            if args.resume and (found := done_before(s, asked_of(s, args.inputs), logs))}
    for share, found in done.items():
        print(f"  done before: {short_name(share)} ({found.inputs:,} inputs, commit {found.commit or '?'})")
    shares = [s for s in shares if s not in done]
    shares.sort(key=lambda s: -asked_of(s, args.inputs) * s.ms)  # the longest first: the jobs end together
    core_seconds = sum(asked_of(s, args.inputs) * s.ms for s in shares) / 1000
    print(f"fuzzing {len(shares)} property tests, {args.inputs:,} inputs a stage ({', '.join(stages)}), "
          f"{args.jobs} at a time: about {core_seconds / 3600 / args.jobs:.1f} h; logs in {logs}", flush=True)
    start = time.perf_counter()

    def one(share: Share) -> Outcome:
        outcome = run_one(share, args.inputs, logs, root)
        print(f"  {time.perf_counter() - start:7,.0f} s  {short_name(share)}: {outcome.inputs:,} "
              f"inputs, {'passed' if outcome.passed else 'FAILED'}", flush=True)
        return outcome

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        outcomes = [*done.values(), *pool.map(one, shares)]
    table, good = report(outcomes, args.inputs, stages)
    summary = f"{table}\n{'all passed' if good else 'FAILED'} in {time.perf_counter() - start:,.0f} s\n"
    (logs / "summary.txt").write_text(summary, encoding="utf-8")
    print(summary, end="")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
