"""docs/effect-language.md cannot drift: its examples parse and its how-to hero lints clean."""

from __future__ import annotations

import re

from conftest import ROOT

from dtc.parser import parse_effect

DOC = (ROOT / "docs" / "effect-language.md").read_text(encoding="utf-8")


def blocks(kind: str, text: str = DOC) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)


def test_every_effect_example_parses():
    lines = [line for block in blocks("effect") for line in block.splitlines() if line.strip()]
    assert len(lines) > 100
    for line in lines:
        effect, problems = parse_effect(line)
        assert effect is not None and problems == [], (line, problems)


def test_every_printed_example_reads_through_the_phrasebook(builtin):
    """The `printed` blocks are printed card text: they parse as `dtc lint` reads them."""
    from dtc.checker import Checker

    book = Checker(builtin.content).check_phrasebooks()
    lines = [line for block in blocks("printed") for line in block.splitlines() if line.strip()]
    assert len(lines) >= 10
    for line in lines:
        effect, problems = parse_effect(line, book)
        assert effect is not None and problems == [], (line, problems)


def test_the_how_to_hero_lints_clean(lint_text):
    how_to = DOC.split("## How to add a hero from scratch", 1)[1]
    yaml_blocks = [re.sub(r"(?m)^   ", "", b) for b in re.findall(r"```yaml\n(.*?)```", how_to, re.S)]
    hero = "\n".join(yaml_blocks)
    result = lint_text(hero, "my-hero.yaml")
    assert result.errors == [] and result.warnings == [], [d.message for d in result.diagnostics]
    (tide,) = result.content.heroes
    assert tide.name == "Tide Caller" and len(tide.abilities) == 5


def test_every_diagnostic_code_is_documented():
    from dtc.diagnostics import CODES

    for code, info in CODES.items():
        if code[0] == "C":
            assert code in DOC or info.name in DOC, code
