"""Printed Dice Throne text: every sentence of the printed-text corpus lints, compiles and runs.

The corpus, tests/cases/printed/*.corpus (YAML), holds effect sentences copied from the rulebooks
(the seeds: the Vanguard hero boards, status effects, "Resolving Text" and Glossary of
000_eaa64e0770891241.txt; Season One, 001_34bc079e63d76679.txt; the Adventures status list,
003_bd4cabbe7964005d.txt, "Status Effects and Tokens"; Marvel, 004_59219b97262c5e85.txt) and
sentences written in their house style (`source: authored`). Each is read as one kind of effect
(`as:`) of a corpus hero (tests/cases/printed/hero*.yaml, with the status effects of
statuses.yaml), as `dtc explain --ruleset tests/cases/printed --hero <hero> --as <as> "<text>"`
reads it: no error diagnostic, a compiled chunk, and a VM run against the sample state that ends
("done after N instructions"). Sentences the language cannot read yet are in unsupported.corpus,
grouped by construct with their errors; they are not run here, only checked to be well formed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT
from ruamel.yaml import YAML

from dtc import project
from dtc.diagnostics import render_text
from dtc.explain import KINDS, explain

PRINTED = ROOT / "tests" / "cases" / "printed"
SEEDS = ROOT.parent / "shared" / "seeds"
SEED_FILES = {  # /work/shared/seeds/README.md
    "000_eaa64e0770891241.txt", "001_34bc079e63d76679.txt", "002_76d1292095cadf00.txt",
    "003_bd4cabbe7964005d.txt", "004_59219b97262c5e85.txt",
}
SOURCE = re.compile(r'(?P<file>\d{3}_[0-9a-f]{16}\.txt), (?P<headings>"[^"]+"( > "[^"]+")*)( \(.*\))?')
DEFAULT_HERO = "Corpus Hero"
ROLL = [1, 2, 3, 4, 6]  # `dtc explain`'s default --roll
SEED = 1
KEYS = {"text", "as", "hero", "status", "timing", "source", "note"}


def _load(path: Path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def _corpus() -> list[tuple[str, dict]]:
    entries = []
    for path in sorted(PRINTED.glob("*.corpus")):
        if path.name == "unsupported.corpus":
            continue
        for i, entry in enumerate(_load(path), 1):
            entries.append((f"{path.stem}:{i}", entry))
    return entries


CORPUS = _corpus()


@pytest.fixture(scope="module")
def printed() -> project.Result:
    """The corpus heroes, loaded and checked once, as `dtc lint tests/cases/printed/` does (with the
    built-in rules and phrasebook, as the folder has none of its own)."""
    result = project.run([PRINTED])
    assert result.errors == [] and result.warnings == [], \
        [render_text(d, result.sources) for d in result.diagnostics]
    return result


def _hero(result: project.Result, name: str):
    found = [h for h in result.content.heroes if h.name == name]
    assert found, f"no corpus hero `{name}`: {[h.name for h in result.content.heroes]}"
    return found[0]


def _status(result: project.Result, hero, name: str | None):
    if name is None:
        return None
    known = hero.statuses + [s for ss in result.content.status_sets for s in ss.statuses]
    found = [s for s in known if s.name == name]
    assert found, f"{hero.name} has no status `{name}`"
    return found[0]


@pytest.mark.parametrize("entry", [e for _, e in CORPUS], ids=[i for i, _ in CORPUS])
def test_sentence_lints_compiles_and_runs(printed, entry):
    hero = _hero(printed, entry.get("hero", DEFAULT_HERO))
    status = _status(printed, hero, entry.get("status"))
    view = explain(printed.content, hero, entry["text"], entry["as"], ROLL, SEED, status,
                   entry.get("timing", "main"))
    errors = [d for d in view.diagnostics if d.severity == "error"]
    assert errors == [], "\n".join(render_text(d, view.sources) for d in errors)
    assert view.listing, "no bytecode: the effect did not compile"
    assert any(re.fullmatch(r"done after \d+ instructions", line) for line in view.trace), \
        "the VM run did not finish:\n" + "\n".join(view.trace)


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 300, len(CORPUS)


def _check_source(source: str) -> None:
    if source == "authored":
        return
    match = SOURCE.fullmatch(source)
    assert match, f"source `{source}` is neither `authored` nor `<seed file>, \"<heading>\" > ...`"
    assert match["file"] in SEED_FILES, f"`{match['file']}` is not a seed file"
    seed = SEEDS / match["file"]
    if seed.is_file():  # the seeds sit beside the repository; elsewhere the name is enough
        text = seed.read_text(encoding="utf-8")
        for heading in re.findall(r'"([^"]+)"', match["headings"]):
            assert heading in text, f"`{heading}` is not in {match['file']}"


def _key(entry: dict) -> tuple:
    return (entry["text"], entry["as"], entry.get("hero", DEFAULT_HERO), entry.get("status"),
            entry.get("timing"))


def test_entries_are_well_formed():
    seen = set()
    for where, entry in CORPUS:
        assert isinstance(entry, dict) and set(entry) <= KEYS, (where, entry)
        assert isinstance(entry.get("text"), str) and entry["text"].strip(), where
        assert entry.get("as") in KINDS, (where, entry.get("as"))
        assert "status" not in entry or entry["as"] == "status", (where, "`status:` is for `as: status`")
        assert "timing" not in entry or (entry["as"] == "card" and entry["timing"] in ("roll", "instant")), \
            (where, "`timing:` is `roll` or `instant`, for `as: card`")
        _check_source(entry.get("source", ""))
        key = _key(entry)
        assert key not in seen, (where, "the same sentence twice", entry["text"])
        seen.add(key)


def test_unsupported_list_is_well_formed():
    """Not run: the sentences the language cannot read yet, grouped by construct, each with the
    errors `dtc explain` printed for it."""
    groups = _load(PRINTED / "unsupported.corpus")
    assert groups, "unsupported.corpus is empty"
    passing = {_key(e) for _, e in CORPUS}
    for group in groups:
        assert set(group) == {"construct", "sentences"} and group["sentences"], group.get("construct")
        for entry in group["sentences"]:
            assert set(entry) <= KEYS | {"errors"}, entry
            assert entry["as"] in KINDS and entry["errors"], entry["text"]
            _check_source(entry["source"])
            assert _key(entry) not in passing, f"in the corpus and unsupported: {entry['text']}"
