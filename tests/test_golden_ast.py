"""Golden ASTs: every effect of the built-in content, as dtc understands it after checking.

One file per content file under tests/cases/ast/, reviewed by reading: each
effect's owner, its text as written, and the resolved tree (verbs expanded,
names canonical). `make golden` rewrites them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CASES

from dtc import nodes as n


def _sites(builtin):
    by_file: dict[str, list] = {}
    content = builtin.content
    for hero in content.heroes:
        sites = []
        if hero.setup:
            sites.append(hero.setup)
        for comp in hero.components:
            sites.extend(comp.effects)
        for verb in hero.verbs:
            sites.append(verb.means)
        for status in hero.statuses:
            sites.extend(status.effects)
            sites.extend(t.effect for slot in status.slots for t in slot.tiers)
        for ability in hero.abilities:
            for option in ability.options:
                sites.extend([option.requires, option.effect])
            sites.extend(s for s in (ability.shared, ability.additionally) if s)
            sites.extend(ability.effects)
        for card in hero.cards:
            if card.effect:
                sites.append(card.effect)
            if card.ability:
                for option in card.ability.options:
                    sites.extend([option.requires, option.effect])
                sites.extend(s for s in (card.ability.shared, card.ability.additionally) if s)
        by_file[hero.doc.path] = sites
    for status_set in content.status_sets:
        by_file[status_set.doc.path] = [s for st in status_set.statuses for s in st.effects]
    for card_set in content.card_sets:
        by_file[card_set.doc.path] = [c.effect for c in card_set.cards if c.effect]
    return by_file


def render_sites(sites) -> str:
    blocks = []
    for site in sites:
        text = " ".join(str(site.text).split())
        tree = n.dump(site.ast) if site.ast is not None else "(no tree)"
        blocks.append(f"# {site.owner} :: {site.context}\n# {text}\n{tree}")
    return "\n\n".join(blocks) + "\n"


def test_golden_asts(builtin, update_golden):
    folder = CASES / "ast"
    folder.mkdir(exist_ok=True)
    seen = set()
    for path, sites in _sites(builtin).items():
        name = Path(path).stem + ".ast"
        seen.add(name)
        actual = render_sites(sites)
        golden = folder / name
        if update_golden:
            golden.write_text(actual, encoding="utf-8")
        assert golden.exists(), f"run `make golden` to create {name}"
        assert actual == golden.read_text(encoding="utf-8"), name
    assert {p.name for p in folder.glob("*.ast")} == seen


@pytest.mark.parametrize("needle", ["VerbCall(text='take 1 Step'", "Move(component='Footwork'"])
def test_golden_asts_show_expansions(needle):
    assert needle in (CASES / "ast" / "duelist.ast").read_text()
