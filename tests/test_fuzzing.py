"""`make fuzz` (tests/fuzzing.py): every property test is fuzzed, under one stage, and the run's
table says when a stage fell short of its inputs or a test failed (issue "Hardening", Done when:
"`make fuzz` runs 100,000 generated inputs per stage")."""

from __future__ import annotations

import ast
from pathlib import Path

import fuzzing
from fuzzing import STAGES, Outcome, asked_of, done_before, read_log, report

TESTS = Path(__file__).resolve().parent


def _property_tests() -> set[str]:
    """Every test function under tests/ that Hypothesis generates inputs for (`@given`)."""
    found = set()
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                called = decorator.func if isinstance(decorator, ast.Call) else decorator
                if getattr(called, "id", None) == "given" or getattr(called, "attr", None) == "given":
                    found.add(f"tests/{path.name}::{node.name}")
    return found


def test_every_property_test_is_fuzzed_under_exactly_one_stage():
    staged = [share.test for shares in STAGES.values() for share in shares]
    assert len(staged) == len(set(staged)), "a test is counted under two stages"
    assert set(staged) == _property_tests(), "a property test `make fuzz` would not run, or a stale name"


def test_each_stage_is_given_all_its_inputs():
    for stage, shares in STAGES.items():
        assert sum(share.part for share in shares) >= 1.0, stage
        assert sum(asked_of(share, 100_000) for share in shares) >= 100_000, stage


def test_two_tests_of_one_name_write_two_logs(tmp_path):
    logs = {fuzzing.log_of(share, tmp_path) for shares in STAGES.values() for share in shares}
    assert len(logs) == sum(len(shares) for shares in STAGES.values())


# what pytest -p no:cacheprovider --hypothesis-show-statistics prints (Hypothesis 6)
PASSED = """\
============================ Hypothesis Statistics =============================
tests/test_properties.py::test_random_yaml_never_crashes_the_loader:

  - during generate phase (12.34 seconds):
    - Typical runtimes: ~ 0-1 ms, of which < 1ms in data generation
    - 1000 passing, 0 failing, and 3 invalid test cases

  - Stopped because settings.max_examples=1000

1 passed in 13.10s
"""


def test_the_run_reads_hypothesis_statistics_and_pytest_closing_line():
    share = STAGES["load"][0]
    outcome = read_log(share, 1000, PASSED)
    assert (outcome.inputs, outcome.failing, outcome.seconds, outcome.passed) == (1000, 0, 13.1, True)
    assert outcome.typical.startswith("~ 0-1 ms")


def test_a_stage_short_of_its_inputs_or_a_failing_test_fails_the_run():
    share = STAGES["load"][0]
    good = Outcome(share, 1000, inputs=1000, status=0)
    table, ok = report([good], 1000, ["load"])
    assert ok and "load: 1,000 inputs" in table
    table, ok = report([Outcome(share, 1000, inputs=999, status=0)], 1000, ["load"])
    assert not ok and "FEWER THAN 1,000" in table
    table, ok = report([Outcome(share, 1000, inputs=1000, failing=1, status=1)], 1000, ["load"])
    assert not ok and "FAILED" in table


def test_a_run_in_parts_resumes_past_the_tests_already_done_and_says_on_which_commit(tmp_path):
    """`make fuzz` is hours long: `--resume` leaves out a test whose log holds a passing run of all its
    inputs, and the table names the commit each test ran on."""
    share = STAGES["load"][0]
    log = fuzzing.log_of(share, tmp_path)
    log.write_text(f"# dtc fuzz: {share.test} with 1000 inputs at commit abc1234567\n" + PASSED)
    found = done_before(share, 1000, tmp_path)
    assert found is not None and found.commit == "abc1234567"
    assert "(commit abc1234567)" in report([found], 1000, ["load"])[0]
    assert done_before(share, 2000, tmp_path) is None  # fewer inputs than asked: run again
    log.write_text(PASSED.replace("1 passed", "1 failed"))
    assert done_before(share, 1000, tmp_path) is None


def test_a_stage_whose_tests_ran_every_input_they_can_generate_is_whole_and_says_so():
    """The compile stage's number test has about 72,000 distinct inputs (sites x numbers x forms):
    Hypothesis runs each and stops ("nothing left to do"); the stage is whole, and the table says it
    had fewer than asked. A test that merely stopped short is not."""
    share = STAGES["load"][0]
    ran_all = Outcome(share, 1000, inputs=700, status=0, stopped="nothing left to do")
    table, ok = report([ran_all], 1000, ["load"])
    assert ok and "every input its tests can generate; fewer than 1,000" in table
    assert "(ran out of distinct inputs)" in table
    table, ok = report([Outcome(share, 1000, inputs=700, status=0, stopped="settings.max_examples")],
                       1000, ["load"])
    assert not ok and "FEWER THAN 1,000" in table
