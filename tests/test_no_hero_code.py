"""The engine holds no hero-specific code: no hero, ability, status or component name
from the content appears anywhere in dtc/ (code, comments or docstrings)."""

from __future__ import annotations

import codecs
import json
import re
import shutil

import pytest
from conftest import ROOT
from ruamel.yaml import YAML

from dtc import artifact, project
from dtc.agents.base import play
from dtc.agents.bots import HeuristicBot, RandomBot
from dtc.compiler import compile_content
from dtc.dicethrone.engine import Game


def content_names(compiled) -> set[str]:
    names = set()
    for hero in compiled.players:  # the heroes, then Dice Throne Adventures minions
        names.add(hero["name"])
        names.update(a["name"] for a in hero["abilities"])
        names.update(c["name"] for c in hero["components"])
        for comp in hero["components"]:
            names.update(str(v) for v in comp["values"] if isinstance(v, str))
            names.update(comp.get("sides", []))
    names.update(s["name"] for s in compiled.statuses if s.get("class") is None)
    return {n for n in names if len(n) > 2}


# Rulebook terms the engine must name that contain a content name as a word: "Any Minion with
# First Strike will always Attack the Hero first" (003_bd4cabbe7964005d.txt, "5. First Strike")
# holds the Duelist's `Strike`; "King's Hand" is a rule of the rulebook the campaign engine runs
# ("King's Hand": "automatically spent by the Boss/Minion during two situations"), and the Boss vs
# modes' status of that name is found through the adventure's data (`boss_vs.kings_hand`), never by
# name. "Knockdown" and "Concussion" are quoted from the Boss Battle's "Special Situations" ("a
# status effect (such as Knockdown)", "an effect (such as Concussion)"): the engine finds such a
# status by what its effect does (`BossBattle.removal_costs`, a Boss with no Roll Objective), never
# by name. They are blanked before the search; nothing else is.
RULE_TERMS = ("First Strike", "King's Hand", "Knockdown", "Concussion")


def test_no_content_name_in_the_engine(compiled):
    names = content_names(compiled)
    assert {"Druid", "Sun Dial", "Shape Shift", "Footwork", "Guard Break"} <= names
    found = []
    for path in sorted((ROOT / "dtc").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for term in RULE_TERMS:  # same length, so line numbers still hold
            text = re.sub(re.escape(term), lambda m: " " * len(m.group(0)), text, flags=re.IGNORECASE)
        for name in names:
            pattern = r"(?<![\w-])" + r"[\s_-]+".join(map(re.escape, name.split())) + r"(?![\w-])"
            for m in re.finditer(pattern, text, flags=re.IGNORECASE):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r} ({name})")
    assert found == [], "\n".join(found)


# ------------------------------------------------ a new hero is one YAML file

def hero_names(document: dict) -> list[str]:
    """Every name a hero file gives: the hero, its dice symbols, components (forms, sides, values),
    statuses, abilities and cards."""
    names = [document["hero"], *map(str, document["dice"]["faces"].values())]
    for comp in document.get("components", []):
        names += [comp["name"], *map(str, comp.get("forms", [])), *map(str, comp.get("sides", [])),
                  *(str(v) for v in comp.get("values", []) if isinstance(v, str))]
    names += [s["name"] for s in document.get("status_effects", [])]
    for key in ("offensive", "defensive", "passive"):
        names += [a["name"] for a in document.get(key, [])]
    if "ultimate" in document:
        names.append(document["ultimate"]["name"])
    names += [c["name"] for c in document.get("cards", [])]
    return sorted({n for n in names if len(n) > 2 and not n.isdigit()}, key=len, reverse=True)


def rot13(name: str) -> str:
    return codecs.encode(name, "rot13")


def renamer(names: list[str], rename) -> re.Pattern:
    """One pass over a text, longest names first, whole words only: `Druid Form` before `Druid`; a
    name may be folded over two lines of a YAML text, and printed in capitals (`WHEN DRUID FORM IS
    ACTIVE...`: renamed in capitals)."""
    spelled = [r"\s+".join(map(re.escape, name.split(" "))) for name in names]
    capitals = [r"\s+".join(map(re.escape, name.upper().split(" ")))
                for name in names if name.upper() != name]
    pattern = re.compile(r"(?<![\w])(" + "|".join(spelled + capitals) + r")(?![\w])")
    by_upper = {name.upper(): name for name in names}

    def one(m):
        written = " ".join(m.group(1).split())
        if written in by_upper and written not in names:
            return rename(by_upper[written]).upper()
        return rename(written)
    return lambda text: pattern.sub(one, text)


@pytest.mark.parametrize("file", ["druid.yaml", "duelist.yaml", "forgemaster.yaml", "sun-elf.yaml"])
def test_a_new_hero_is_one_yaml_file(file, tmp_path):
    """Deliver 2: "a new hero with the same kinds of mechanics can be added as one YAML file".
    Each Vanguard hero is copied into a fifth hero file with every one of its names changed (hero,
    dice symbols, forms, tracks, dial sides, statuses, abilities, cards): the twin compiles beside
    the four and plays, against every hero and with the same seeds, the very same games, event for
    event once the names are read back. So nothing in the engine hangs on a name or a file."""
    shutil.copytree(ROOT / "content", tmp_path / "content")
    original = (ROOT / "content" / "heroes" / file).read_text(encoding="utf-8")
    names = hero_names(YAML(typ="safe").load(original))
    assert len(names) > 15
    twin_file = tmp_path / "content" / "heroes" / f"twin-{file}"
    twin_file.write_text(renamer(names, rot13)(original), encoding="utf-8")
    front = project.run([tmp_path / "content"])
    assert front.errors == [], [str(d) for d in front.errors]
    loaded = artifact.load(artifact.to_bytes(compile_content(
        front.content, project.artifact_names(front, [tmp_path / "content"]))))
    heroes = [h["name"] for h in loaded.heroes]
    source_hero, twin = names_of(original), rot13(names_of(original))
    assert len(heroes) == 5 and twin in heroes
    read_back = renamer([rot13(n) for n in names], rot13)
    for other in range(5):
        if heroes[other] == twin:
            continue
        for seed in (1, 2):
            games = [Game(loaded, [heroes.index(h), other], seed) for h in (source_hero, twin)]
            results = [play(g, [HeuristicBot(seed), RandomBot(seed + 1)]) for g in games]
            assert results[0] == results[1]
            logs = [json.dumps(g.events) for g in games]
            assert twin in logs[1] and logs[1] != logs[0] and len(games[1].events) > 100
            assert read_back(logs[1]) == logs[0]


def names_of(text: str) -> str:
    return YAML(typ="safe").load(text)["hero"]
