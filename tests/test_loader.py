"""Loading YAML: positions kept, nothing executable, bombs and deep nesting refused."""

from __future__ import annotations

import time

import pytest

from dtc.loader import MAX_DEPTH, MAX_FILE_BYTES, load_bytes, load_file, load_text


def only(diags):
    assert len(diags) == 1, diags
    return diags[0]


def test_plain_data_and_positions():
    doc, diags = load_text("hero: Druid\ndice:\n  faces: {1: Claw, 2: Paw}\nlist:\n  - a\n  - b: 3\n",
                           "h.yaml")
    assert diags == []
    assert doc.data == {"hero": "Druid", "dice": {"faces": {"1": "Claw", "2": "Paw"}},
                        "list": ["a", {"b": 3}]}
    # every key and item keeps its line and column (1-based)
    assert (doc.span(("hero",)).line, doc.span(("hero",)).col) == (1, 7)
    assert (doc.key_span(("dice", "faces", "2")).line, doc.key_span(("dice", "faces", "2")).col) == (3, 20)
    assert (doc.span(("list", 1, "b")).line, doc.span(("list", 1, "b")).col) == (6, 8)
    # an unknown path falls back to the nearest located ancestor
    assert doc.span(("list", 1, "b", "zzz")).line == 6


def test_yaml_12_scalars():
    doc, _ = load_text("a: yes\nb: true\nc: ~\nd: 0x10\ne: 1.5\nf: '3'\ng: 007\n", "s.yaml")
    assert doc.data == {"a": "yes", "b": True, "c": None, "d": 16, "e": 1.5, "f": "3", "g": 7}


def test_text_span_inside_folded_scalar():
    doc, _ = load_text("effect: >\n  Gain Shape Shift.\n  Then deal 7 dmg.\n", "f.yaml")
    value = doc.data["effect"]
    start = value.index("deal")
    span = doc.text_span(("effect",), start, start + 4)
    assert (span.line, span.col, span.end_col) == (3, 8, 12)


def test_text_span_inside_quoted_scalar():
    doc, _ = load_text('effect: "Deal 5 dmg: add 2 dmg."\n', "q.yaml")
    start = doc.data["effect"].index("add")
    span = doc.text_span(("effect",), start, start + 3)
    assert (span.line, span.col) == (1, 22)


@pytest.mark.parametrize("text", [
    "a: !!python/object/apply:os.system ['echo pwned']\n",
    "a: !!python/name:os.system\n",
    "a: !custom 3\n",
    "a: !!str 3\n",
    "!!map {a: 1}\n",
])
def test_tags_are_refused(text):
    doc, diags = load_text(text, "t.yaml")
    assert doc is None
    d = only(diags)
    assert d.code == "Y004"
    assert "not allowed" in d.message


def test_billion_laughs_is_refused_quickly():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    start = time.process_time()
    doc, diags = load_text("\n".join(lines) + "\n", "bomb.yaml")
    elapsed = time.process_time() - start
    assert doc is None
    assert only(diags).code == "Y005"
    # generous bound: refusing must not mean expanding (expanding takes hours)
    assert elapsed < 5


def test_small_aliases_are_fine():
    doc, diags = load_text("base: &b {cost: 2}\ncard: *b\nmerged:\n  <<: *b\n  name: X\n", "a.yaml")
    assert diags == []
    assert doc.data["card"] == {"cost": 2}
    assert doc.data["merged"] == {"cost": 2, "name": "X"}


def test_recursive_alias_is_refused():
    doc, diags = load_text("a: &a [1, *a]\n", "r.yaml")
    assert doc is None and only(diags).code == "Y011"


def test_absurd_nesting_is_refused_quickly():
    start = time.process_time()
    doc, diags = load_text("[" * 100_000 + "]" * 100_000, "deep.yaml")
    assert doc is None
    d = only(diags)
    assert d.code == "Y006" and str(MAX_DEPTH) in d.message
    assert time.process_time() - start < 5


def test_nesting_at_the_limit_loads():
    depth = MAX_DEPTH - 1
    doc, diags = load_text("[" * depth + "1" + "]" * depth, "ok.yaml")
    assert diags == [] and doc is not None


def test_every_duplicate_key_is_reported_at_its_line():
    doc, diags = load_text("a: 1\nb: 2\na: 3\nc:\n  x: 1\n  x: 2\n", "d.yaml")
    assert doc is None
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("Y007", 3, 1), ("Y007", 6, 3)]
    assert "first on line 1" in diags[0].message


def test_oversized_file_is_refused_without_reading(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    doc, diags = load_file(path)
    assert doc is None and only(diags).code == "Y001"


def test_not_utf8():
    doc, diags = load_bytes(b"hero: Dru\xffid\n", "b.yaml")
    d = only(diags)
    assert d.code == "Y002" and (d.span.line, d.span.col) == (1, 10)


def test_a_byte_order_mark_is_read_past_and_changes_no_position():
    """Editors on Windows start UTF-8 files with U+FEFF: harmless there, so read past (issue
    "Hardening": "the UTF-8 BOM ... stay accepted only where harmless")."""
    text = "hero: Druid\ndice:\n  faces: {1: Claw}\n"
    plain, _ = load_bytes(text.encode(), "h.yaml")
    marked, diags = load_bytes(b"\xef\xbb\xbf" + text.encode(), "h.yaml")
    assert diags == [] and marked.data == plain.data and marked.spans == plain.spans


@pytest.mark.parametrize("value,at,what", [
    ("Ma\u200bul", 3, "U+200B (ZERO WIDTH SPACE)"),
    ("Shape\u00a0Shift", 6, "U+00A0 (NO-BREAK SPACE)"),
    ("Wound\ufeff", 6, "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
    ("Sun\u202eMarked", 4, "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("A\u200dB", 2, "U+200D (ZERO WIDTH JOINER)"),
])
def test_a_character_that_cannot_be_seen_is_an_error_at_its_place(value, at, what):
    """`Maul` and `Ma\u200bul` print alike and are two names: every key and value with such a
    character is refused at the character, and the message shows where it is."""
    doc, diags = load_text(f"statuses:\n  - name: {value}\n    {value}: 1\n", "s.yaml")
    assert doc is None and [d.code for d in diags] == ["Y014", "Y014"]
    assert [(d.span.line, d.span.col) for d in diags] == [(2, 11 + at - 1), (3, 5 + at - 1)]
    assert what in diags[0].message


def test_tabs_and_an_emoji_joined_by_a_zero_width_joiner_are_what_they_look_like():
    doc, diags = load_text('summary: "a\tb, \U0001f9d9\u200d\u2640 wizard"\n', "s.yaml")
    assert diags == [] and doc.data["summary"] == "a\tb, \U0001f9d9\u200d\u2640 wizard"


def test_syntax_error_points_at_the_problem():
    doc, diags = load_text("a: [1, 2\nb: 3\n", "s.yaml")
    d = only(diags)
    assert d.code == "Y003" and d.span.line == 2


def test_colon_in_plain_text_gets_a_hint():
    doc, diags = load_text("effect: Roll 1 die: On [Claw], add 2 dmg.\n", "c.yaml")
    d = only(diags)
    assert d.code == "Y003" and "quoted" in d.hint


def test_bracket_requirement_gets_a_hint():
    doc, diags = load_text("requires: [Claw] [Paw]\n", "b.yaml")
    d = only(diags)
    assert d.code == "Y003" and "[Claw, Paw]" in d.hint


@pytest.mark.parametrize("text,code", [
    ("", "Y008"),
    ("# only a comment\n", "Y008"),
    ("a: 1\n---\nb: 2\n", "Y008"),
    ("? [1, 2]\n: x\n", "Y010"),
    ("null: x\n", "Y010"),
])
def test_document_shape_problems(text, code):
    doc, diags = load_text(text, "x.yaml")
    assert doc is None and only(diags).code == code


def test_missing_file(tmp_path):
    doc, diags = load_file(tmp_path / "nope.yaml")
    assert doc is None and only(diags).code == "Y009"


def test_misindented_key_and_tab_get_hints():
    text = "statuses:\n  - name: Charge\n   polarity: positive\n"
    d = only(load_text(text, "i.yaml")[1])
    assert d.code == "Y003" and d.span.line == 3
    assert d.hint == ("this line starts at column 4 and the key above it at column 5: the keys of one item "
                      "line up (a new item starts with `- `)")
    d = only(load_text("status:\n\tstack_limit: 3\n", "t.yaml")[1])
    assert d.code == "Y003" and d.hint == "indent with spaces, not tabs"


@pytest.mark.parametrize("number", ["9" * 5000, "0x" + "f" * 5000, "-" + "1" * 30, "0o" + "7" * 40])
def test_a_number_of_thousands_of_digits_is_refused_where_it_is(number):
    """Issue "Hardening": a 5,000-digit integer (or `0x` and 5,000 hex digits) crashed lint (Python's
    integer digit limit); it is refused at its place, saying how long a number may be."""
    doc, diags = load_text(f"ruleset: x\ncards:\n  starting_hand: {number}\n", "r.yaml")
    assert doc is None and [d.code for d in diags] == ["Y013"]
    assert (diags[0].span.line, diags[0].span.col) == (3, 18)
    assert "at most 20 characters" in diags[0].hint


def test_long_text_and_ordinary_numbers_still_load():
    doc, diags = load_text(f"a: {'9' * 20}\nb: '{'9' * 30}'\nc: {'x' * 300}\n", "r.yaml")
    assert not diags and doc.data["a"] == int("9" * 20) and doc.data["b"] == "9" * 30
