"""Schemas: every document kind validates, and errors land on the YAML line and column."""

from __future__ import annotations

import json

import pytest
from conftest import MINIMAL_HERO, ROOT, codes

from dtc import nodes as n
from dtc.schema import SCHEMA_FILES, validate_effect_ast, validator


def test_schemas_are_2020_12_and_well_formed():
    for name in SCHEMA_FILES:
        body = json.loads((ROOT / "schemas" / name).read_text())
        assert body["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        validator(name).check_schema(body)


def test_builtin_documents_of_each_kind_are_valid(builtin):
    kinds = {"hero": 0, "card_set": 0, "status_set": 0, "ruleset": 0}
    for _hero in builtin.content.heroes:
        kinds["hero"] += 1
    kinds["card_set"] = len(builtin.content.card_sets)  # the common cards, and the Loot cards' set
    kinds["status_set"] = len(builtin.content.status_sets)
    kinds["ruleset"] = len(builtin.content.rulesets)
    assert kinds == {"hero": 4, "card_set": 2, "status_set": 1, "ruleset": 3}
    assert len(builtin.content.minions) == 12 + 4  # the minions and the Bosses
    assert len(builtin.content.loot) == 24 and len(builtin.content.adventures) == 1
    assert not [d for d in builtin.diagnostics if d.code.startswith("S")]


def test_unknown_key_points_at_the_key_with_a_suggestion(lint_text):
    result = lint_text(MINIMAL_HERO.replace("    effect: Deal 4 dmg.", "    efect: Deal 4 dmg."))
    found = [(d.code, d.span.line, d.span.col, d.hint) for d in result.diagnostics]
    assert ("S003", 13, 5, "did you mean `effect`?") in found


def test_missing_key(lint_text):
    result = lint_text(MINIMAL_HERO.replace("    dice: 2\n", ""))
    d = result.diagnostics[0]
    assert (d.code, d.span.line) == ("S004", 15)
    assert d.message == "item 1 of `defensive` is missing `dice`"


def test_wrong_type(lint_text):
    result = lint_text(MINIMAL_HERO.replace("stack_limit: 2", "stack_limit: two"))
    d = result.diagnostics[0]
    assert (d.code, d.span.line, d.span.col) == ("S001", 7, 18)
    assert d.message == "`stack_limit` must be a whole number, not text"


def test_enum_suggests(lint_text):
    result = lint_text(MINIMAL_HERO.replace("polarity: negative", "polarity: negatve"))
    d = result.diagnostics[0]
    assert d.code == "S001" and d.hint == "did you mean `negative`?"


def test_card_kind_needs_its_keys(lint_text):
    result = lint_text(MINIMAL_HERO + "cards:\n  - name: X\n    kind: action\n    cost: 1\n")
    messages = {d.message for d in result.diagnostics}
    assert "item 1 of `cards` is missing `timing`" in messages
    assert "item 1 of `cards` is missing `effect`" in messages


def test_bad_face_number(lint_text):
    result = lint_text(MINIMAL_HERO.replace("6: Leaf}", "six: Leaf}"))
    d = result.diagnostics[0]
    assert d.code == "S001" and d.span.line == 3 and "numbered" in d.hint


def test_unknown_document_kind(lint_text):
    result = lint_text("heor: X\n")
    d = result.diagnostics[0]
    assert d.code == "S002" and "did you mean `hero`" in d.message


def test_flow_mapping_comma_gets_a_hint(lint_text):
    result = lint_text(MINIMAL_HERO.replace("      - During your Upkeep Phase, receive 1 dmg.",
                                            "      - {effect: During your Upkeep Phase, receive 1 dmg.}"))
    assert any("comma" in (d.hint or "") for d in result.diagnostics)


# --------------------------------------------------------- the effect AST schema


def test_effect_schema_describes_every_node_type():
    body = json.loads((ROOT / "schemas" / "effect.schema.json").read_text())
    defs = {k for k in body["$defs"] if k[0].isupper()}
    assert defs == set(n.NODE_TYPES)
    for name, cls in n.NODE_TYPES.items():
        fields = {f for f in cls.__dataclass_fields__ if f != "span"}
        assert set(body["$defs"][name]["required"]) == {"node"} | fields, name


def test_parsed_content_validates_and_broken_trees_do_not(builtin):
    effects = [s.ast for h in builtin.content.heroes for a in h.abilities for s in a.sites()
               if isinstance(s.ast, n.Effect)]
    assert len(effects) > 50
    for e in effects:
        assert validate_effect_ast(n.to_json(e)) == []
    broken = n.to_json(n.Effect(None, False, (n.Deal(n.Number(-1), None, "nobody", False),)))
    problems = validate_effect_ast(broken)
    assert len(problems) >= 1


@pytest.mark.parametrize("mutate", [
    lambda j: j["body"][0].update(node="Explode"),
    lambda j: j["body"][0].pop("amount"),
    lambda j: j["body"][0].update(target="nobody"),
    lambda j: j.update(once_per_turn="yes"),
])
def test_effect_schema_rejects(mutate):
    data = n.to_json(n.Effect(None, False, (n.Deal(n.Number(2), None, None, False),)))
    assert validate_effect_ast(data) == []
    mutate(data)
    assert validate_effect_ast(data) != []


def test_schema_errors_for_every_kind(lint_text):
    result = lint_text("card_set: X\ncards:\n  - name: Y\n    kind: action\n    timing: whenever\n"
                       "    cost: 1\n    effect: Draw 1 card.\n", "cards.yaml")
    assert codes(result) == [("S001", 5, 13)]


def test_a_list_item_with_a_colon_in_its_text_says_to_quote_it(lint_text):
    """`- When spent, choose one: heal 2` is read by YAML as a key and a value: the message about a
    missing `effect` says why, and how to write it."""
    result = lint_text(MINIMAL_HERO.replace("      - During your Upkeep Phase, receive 1 dmg.",
                                            "      - When spent, choose one: heal 2, or gain 1 CP."))
    found = [d for d in result.diagnostics if d.code == "S004"]
    assert found and "YAML read `When spent, choose one:` as a key" in found[0].hint


def test_an_over_indented_key_is_named_as_such(lint_text):
    result = lint_text(MINIMAL_HERO.replace("    stack_limit: 2", "      stack_limit: 2"))
    found = [d for d in result.diagnostics if d.code == "Y003"]
    assert found and found[0].hint == ("`stack_limit:` is indented 2 more than the line above: a key "
                                       "lines up with the keys beside it")
    quoted = lint_text(MINIMAL_HERO.replace("effect: Deal 4 dmg.", "effect: Choose one: deal 4 dmg."))
    assert [d.hint for d in quoted.diagnostics if d.code == "Y003"] == [
        "text that contains `: ` must be quoted, or written as a block (`effect: >`)"]


def test_a_key_written_with_a_space_gets_the_key_it_means(lint_text):
    result = lint_text(MINIMAL_HERO.replace("stack_limit: 2", "stack limit: 2"))
    d = next(d for d in result.diagnostics if d.code == "S003")
    assert d.message.startswith("unknown key `stack limit`") and d.hint == "did you mean `stack_limit`?"


def test_a_whole_number_written_with_a_point_is_refused_where_lint_passed_it(lint_text):
    """`stack_limit: 2.0` linted clean (the fast validator counts 2.0 as an integer) and then failed
    in the artifact with an internal error (issue 25, "whole numbers written `5.0`"): lint says where."""
    result = lint_text(MINIMAL_HERO.replace("stack_limit: 2", "stack_limit: 2.0", 1))
    found = [d for d in result.diagnostics if d.code == "S001"]
    assert found and "written with a point (write `2`)" in found[0].message


def test_a_numeric_enum_is_of_whole_numbers_too():
    """JSON Schema's `enum: [2, 3]` takes 2.0 (equal as JSON numbers): an upgrade card's `level: 2.0`
    linted clean and the artifact then refused it (found by make fuzz). Each enum of numbers says
    `type: integer` as well, so lint refuses it where it is."""
    def enums(node):
        if isinstance(node, dict):
            if "enum" in node and all(isinstance(v, int) for v in node["enum"]):
                yield node
            for value in node.values():
                yield from enums(value)
        elif isinstance(node, list):
            for value in node:
                yield from enums(value)

    found = [(path.name, node) for path in sorted((ROOT / "schemas").glob("*.json"))
             for node in enums(json.loads(path.read_text(encoding="utf-8")))]
    assert len(found) >= 3  # card level, Boss scenario, Portal Crawl scenario
    assert [name for name, node in found if node.get("type") != "integer"] == []


def test_a_boss_scenario_written_with_a_point_is_refused(tmp_path, monkeypatch):
    from dtc import project

    monkeypatch.chdir(tmp_path)
    text = (ROOT / "content" / "adventures" / "fallen-barbarian.yaml").read_text(encoding="utf-8")
    assert "\nscenario: 2\n" in text
    (tmp_path / "boss.yaml").write_text(text.replace("\nscenario: 2\n", "\nscenario: 2.0\n"))
    found = [d for d in project.run([tmp_path / "boss.yaml"]).diagnostics if d.code == "S001"]
    assert found and "written with a point" in found[0].message and found[0].span.line == 16


@pytest.mark.parametrize("old, new", [
    ("  starting_hand: 4", "  starting_hand: " + "1" + "0" * 19),  # 10**19: `dtc simulate` hung on 10**100
    ("  hand_limit: 6", "  hand_limit: 1000"),
    ("  max: 15", "  max: 100000"),
    ("heal_cap_above_start: 10 ", "heal_cap_above_start: 5000 "),
])
def test_ruleset_numbers_have_sane_ranges(tmp_path, old, new):
    """Issue "Hardening": `starting_hand: 10**100` linted and compiled clean, then `dtc simulate` hung;
    every number of a ruleset has a range, and lint names the field and its limit."""
    import shutil

    from dtc import project

    root = tmp_path / "content"
    shutil.copytree("content", root)
    rules = root / "rules" / "vanguard-2.4.3.yaml"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new, 1))
    found = [d for d in project.run([root]).errors if "must be at most" in d.message]
    assert len(found) == 1 and found[0].span.path.endswith("vanguard-2.4.3.yaml"), found
    assert new.split(":")[0].strip() in found[0].message


def test_an_item_in_error_is_left_out_and_the_positions_after_it_move_up():
    """Issue 43: what the later stages get of a document whose only errors are inside items is a
    valid copy without those items, every position after one still pointing at its own text."""
    from dtc.loader import load_text
    from dtc.schema import validate

    text = MINIMAL_HERO.lstrip("\n") + (
        "ultimate: {name: Big, requires: '5 [Claw]', efect: Deal 9 dmg.}\n"
        "cards:\n"
        "  - {name: Costly, kind: action, timing: main, cost: lots, effect: Gain 1 CP.}\n"
        "  - {name: Kept, kind: action, timing: main, cost: 1, effect: Gain 1 CP.}\n")
    doc, _ = load_text(text, "hero.yaml")
    kind, diags, rest = validate(doc)
    assert kind == "hero" and [d.code for d in diags] == ["S003", "S001"]
    assert "ultimate" not in rest.data and [c["name"] for c in rest.data["cards"]] == ["Kept"]
    assert validator("hero.schema.json").is_valid(rest.data)
    kept = next(i for i, line in enumerate(text.splitlines(), 1) if "name: Kept" in line)
    assert rest.span(("cards", 0, "name")).line == kept
    assert rest.text_map(("cards", 0, "effect")) is not None
    assert sorted(rest.left_out) == ["Big", "Costly"]
    assert len(doc.data["cards"]) == 2  # the loaded document is left as it was


def test_an_error_outside_every_item_leaves_nothing_to_check():
    from dtc.loader import load_text
    from dtc.schema import validate

    doc, _ = load_text(MINIMAL_HERO.replace("  faces:", "  fces:"), "hero.yaml")
    kind, diags, rest = validate(doc)
    assert kind == "hero" and diags and rest is None
