"""`dtc lint --fix`: each single `did you mean` written in place, the rest of the file as it was."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner
from conftest import content_copy

from dtc import fix
from dtc.cli.main import cli
from dtc.diagnostics import error
from dtc.source import SourceFile, Span

DRUID = "content/heroes/druid.yaml"

# Nature's Cure, misspelled, with a comment and odd spacing around the misspellings
CURE = ("    requires: 3 [Paw] 1 [Leaf]\n    effect: Gain Regenerate. Deal 5 dmg.\n",
        "    requires:   3 [Paw]   1 [Lef]     # the printed card says Leaf\n"
        "    effect:   Gain Regenerate.  Deal 5 dmg.  Inflict Wuond.   # Wound: it bleeds\n")
# Forest's Answer: a folded `>-` effect, a symbol on its first line, a status split over two
ANSWER = ("On [Claw], add 2 dmg. On [Paw], gain\n      Shape Shift.",
          "On [Clwa], add 2 dmg. On [Paw], gain Shape\n      Shfit.")


def lint(*args):
    return CliRunner().invoke(cli, ["lint", *map(str, args)], catch_exceptions=False)


@pytest.fixture
def druid(tmp_path, monkeypatch):
    """Make a copy of the built-in content with the druid file misspelled by `replace`; its path."""
    monkeypatch.chdir(tmp_path)

    def make(*replace):
        content_copy(tmp_path, "druid.yaml", replace=replace)
        return tmp_path / DRUID

    return make


def where(text: str, word: str) -> str:
    """`line:col` of the one place of `word` in `text`."""
    assert text.count(word) == 1, word
    before = text[:text.index(word)]
    return f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}"


def test_fix_writes_each_suggestion_and_keeps_layout_and_comments(druid):
    path = druid(CURE)
    broken = path.read_text()
    assert lint(DRUID).exit_code == 1

    result = lint("--fix", DRUID)

    assert result.exit_code == 0, result.stderr
    assert path.read_text() == broken.replace("1 [Lef]", "1 [Leaf]").replace("Inflict Wuond", "Inflict Wound")
    assert f"{DRUID}:{where(broken, '[Lef]')}: fixed: `[Lef]` -> `[Leaf]`" in result.stderr
    assert f"{DRUID}:{where(broken, 'Wuond')}: fixed: `Wuond` -> `Wound`" in result.stderr
    assert "fixed 2 problems in 1 file" in result.stderr
    assert "checked 1 file: 0 errors" in result.stderr

    again = lint("--fix", DRUID)
    assert again.exit_code == 0
    assert "fixed 0 problems in 0 files" in again.stderr and ": fixed:" not in again.stderr
    assert path.read_text() == broken.replace("1 [Lef]", "1 [Leaf]").replace("Inflict Wuond", "Inflict Wound")


def test_folded_effect_is_fixed_at_the_right_characters(druid):
    path = druid(ANSWER)
    broken = path.read_text()

    result = lint("--fix", DRUID)

    assert result.exit_code == 0, result.stderr
    # the line break inside `Shape Shfit` stays where it was; nothing else of the block moves
    assert path.read_text() == broken.replace("[Clwa]", "[Claw]").replace("Shape\n      Shfit",
                                                                            "Shape\n      Shift")
    assert f"{DRUID}:{where(broken, '[Clwa]')}: fixed: `[Clwa]` -> `[Claw]`" in result.stderr
    assert f"{DRUID}:{where(broken, 'Shape' + chr(10) + '      Shfit')}: fixed: `Shape Shfit` -> " \
           "`Shape Shift`" in result.stderr


def test_a_schema_error_fixed_lets_the_rest_be_fixed_in_the_same_run(druid):
    """`efect:` holds back every other check of the file; once it is `effect:`, `Wuond` is found."""
    path = druid(("    effect: If in Bear Form, roll", "    efect: If in Bear Form, roll"), CURE)
    broken = path.read_text()

    result = lint("--fix", DRUID)

    assert result.exit_code == 0, result.stderr
    assert "fixed: `efect` -> `effect`" in result.stderr and "fixed: `Wuond` -> `Wound`" in result.stderr
    assert "fixed 3 problems in 1 file" in result.stderr
    assert path.read_text() == (broken.replace("efect:", "effect:").replace("[Lef]", "[Leaf]")
                                .replace("Wuond", "Wound"))


def test_hintless_errors_are_left_alone_and_fail(druid):
    """No near name (`Zqxv`), and a hint that is no single name (an unknown verb): no fix, exit 1."""
    path = druid(("effect: Gain Regenerate. Deal 5 dmg.",
                  "effect: Gain Regenerate. Deal 5 dmg. Inflict Zqxv. Wuond the Defender."))
    broken = path.read_text()

    result = lint("--fix", DRUID)

    assert result.exit_code == 1
    assert path.read_text() == broken
    assert "fixed 0 problems in 0 files" in result.stderr
    assert "error[C002]: unknown status effect `Zqxv`" in result.stderr
    assert "checked 1 file: 2 errors" in result.stderr


def test_an_ambiguous_or_other_hint_gives_no_fix():
    """Only "did you mean `X`?" with one name is a fix; the JSON shows it, or shows none."""
    text = "effect: Inflict Wuond.\n"
    span = Span("h.yaml", 1, 17, 1, 22)
    hints = ["did you mean `Wound`?", "did you mean `Wound` or `Would`?", "declare it under `verbs:`",
             "did you mean `gain {n} CP`?"]
    fixed = fix.derive([error("C002", "unknown status effect `Wuond`", span, h) for h in hints],
                       {"h.yaml": SourceFile("h.yaml", text)})
    assert [d.to_json().get("fix") for d in fixed] == ["Wound", None, None, None]


def test_a_name_written_twice_in_the_span_is_not_guessed_at():
    text = "effect: Inflict Wuond or Wuond.\n"
    d = error("C002", "unknown status effect `Wuond`", Span("h.yaml", 1, 9, 1, 31), "did you mean `Wound`?")
    with pytest.raises(fix.CannotPlace, match="not the misspelled word"):
        fix.place(d, text)


def test_a_fix_that_cannot_be_placed_safely_is_skipped_and_said(druid):
    """In a double-quoted scalar with an escape, the positions of the words are not the file's: the
    fix is not written, and the output says so."""
    path = druid(("effect: Gain Regenerate and 2 Shape Shift. Then deal 12 dmg.",
                  'effect: "Gain Regen\\x65rat and 2 Shape Shift. Then deal 12 dmg."'))
    broken = path.read_text()

    result = lint("--fix", DRUID)

    assert result.exit_code == 1
    assert path.read_text() == broken
    assert "not fixed: `Regenerate` cannot be written there" in result.stderr
    assert "fixed 0 problems in 0 files" in result.stderr


def test_a_replacement_that_would_change_the_yaml_is_not_written():
    """A plain scalar where the suggestion would start a comment (` #`) reads differently."""
    text = "name: Wuond\n"
    d = error("S001", "unknown name `Wuond`", Span("h.yaml", 1, 7, 1, 12), "did you mean `Wo #und`?")
    with pytest.raises(fix.CannotPlace, match="read differently"):
        fix.place(d, text)


def test_fix_with_json_reports_what_is_left_on_stdout(druid):
    path = druid(CURE, ("effect: Gain Regenerate and 2 Shape Shift.", "effect: Gain Regenerate and 2 Zqxv."))

    result = lint("--fix", "--format", "json", DRUID)

    assert result.exit_code == 1
    data = json.loads(result.stdout)
    errors = [d["message"] for d in data["diagnostics"] if d["severity"] == "error"]
    assert errors == ["unknown status effect `Zqxv`"]
    assert "fixed: `Wuond` -> `Wound`" in result.stderr and "fixed 2 problems in 1 file" in result.stderr
    assert "Inflict Wound." in path.read_text()


def test_json_and_sarif_carry_the_fix_without_writing_it(druid):
    path = druid(CURE)
    broken = path.read_text()

    data = json.loads(lint("--format", "json", "--no-cache", DRUID).stdout)
    fixes = {d["message"]: d.get("fix") for d in data["diagnostics"] if d["severity"] == "error"}
    assert fixes["unknown status effect `Wuond`"] == "Wound"
    assert path.read_text() == broken

    sarif = json.loads(lint("--format", "sarif", "--no-cache", DRUID).stdout)
    (wound,) = [r for r in sarif["runs"][0]["results"] if "`Wuond`" in r["message"]["text"]]
    (change,) = wound["fixes"][0]["artifactChanges"]
    line, col = map(int, where(broken, "Wuond").split(":"))
    assert change["replacements"] == [{
        "deletedRegion": {"startLine": line, "startColumn": col, "endLine": line, "endColumn": col + 5},
        "insertedContent": {"text": "Wound"}}]
    assert path.read_text() == broken


def test_fix_follows_a_symbolic_link_and_keeps_the_file_mode(druid, tmp_path):
    path = druid(CURE)
    path.chmod(0o640)
    link = tmp_path / "mine.yaml"
    link.symlink_to(path)

    result = lint("--fix", "mine.yaml")

    assert "fixed 2 problems in 1 file" in result.stderr
    assert link.is_symlink() and "Inflict Wound." in path.read_text()
    assert os.stat(path).st_mode & 0o777 == 0o640


def test_line_endings_and_byte_order_mark_are_kept(druid):
    path = druid(CURE)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    broken = path.read_bytes()

    assert lint("--fix", DRUID).exit_code == 0

    assert path.read_bytes() == broken.replace(b"[Lef]", b"[Leaf]").replace(b"Wuond", b"Wound")
