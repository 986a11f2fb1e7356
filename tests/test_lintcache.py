"""The lint cache: a warm `dtc lint` prints what a cold one does, and anything changed is linted anew."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINIMAL_HERO, ROOT

import dtc.project
from dtc import lintcache
from dtc.cli.main import cli

FORMATS = ("text", "json", "github", "sarif")
FLAGS = ((), ("--strict",), ("--show-allowed",))

# a shared status set, and a hero that uses its Wound: an error, a warning and an allowed warning
STATUSES = """
status_set: Shared
status_effects:
  - name: Wound
    polarity: negative
    stack_limit: 2
    effects:
      - During your Upkeep Phase, receive 1 dmg.
"""
HERO = """
hero: Tester
dice:
  faces: {1: Claw, 2: Claw, 3: Claw, 4: Paw, 5: Paw, 6: Leaf}
offensive:
  - name: Swipe
    requires: 3 [Claw]
    effect: Deal 4 dmg. Inflict Wound.
  - name: Scratch
    requires: 3 [Paw]
    effect: Deal 2 dmg. Inflict Wuond.
defensive:
  - name: Guard
    dice: 1
    effect: On 2 [Paw], heal 1.
  - name: Parry
    dice: 1
    effect: On 2 [Claw], heal 1.
    allow:
      unreachable-condition: kept as printed
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private user cache folder; the working folder is `tmp_path`."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cache" / "dtc" / "lint"


@pytest.fixture
def runs(monkeypatch) -> list:
    """Every whole front-end run (a lint read from the cache makes none)."""
    calls: list = []
    real = dtc.project.run

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(dtc.project, "run", counted)
    return calls


@pytest.fixture
def broken(tmp_path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "statuses.yaml").write_text(STATUSES.lstrip("\n"), encoding="utf-8")
    (folder / "hero.yaml").write_text(HERO.lstrip("\n"), encoding="utf-8")
    return folder


def lint(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["lint", *map(str, args)], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_the_broken_folder_has_an_error_a_warning_and_an_allowed_warning(cache, broken):
    code, _, err = lint(broken, "--no-cache")
    assert code == 1
    assert "1 error, 1 warning, 1 allowed" in err and "error[C002]" in err and "warning[C007]" in err


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("flags", FLAGS)
def test_warm_prints_what_cold_does(cache, broken, runs, fmt, flags):
    for folder in (broken, ROOT / "content"):
        runs.clear()
        cold = lint(folder, "--format", fmt, *flags)
        warm = lint(folder, "--format", fmt, *flags)
        assert len(runs) == 1, "the second lint is read from the cache"
        assert warm == cold
        assert lint(folder, "--format", fmt, *flags, "--no-cache") == cold


def test_one_entry_serves_every_format(cache, broken, runs):
    lint(broken)
    runs.clear()
    for fmt in FORMATS:
        for flags in FLAGS:
            args = (broken, "--format", fmt, *flags)
            assert lint(*args) == lint(*args, "--no-cache")
    assert all(args == ([broken],) for args in runs) and len(runs) == len(FORMATS) * len(FLAGS)


def test_colour_is_rendered_at_print_time(cache, broken, runs):
    plain = lint(broken)
    coloured = lint(broken, "--color", "always")
    assert "\x1b[" in coloured[2] and "\x1b[" not in plain[2] and len(runs) == 1


def test_editing_a_linted_file_lints_again(cache, broken, runs):
    before = lint(broken)
    hero = broken / "hero.yaml"
    hero.write_text(hero.read_text().replace("Inflict Wuond.", "Inflict Wound."))
    after = lint(broken)
    assert len(runs) == 2 and after != before
    assert after[0] == 0 and "0 errors, 1 warning, 1 allowed" in after[2]
    assert after == lint(broken, "--no-cache")


def test_editing_a_file_the_others_depend_on_lints_again(cache, broken, runs):
    """The hero file is unchanged; the shared status set it uses is renamed."""
    before = lint(broken)
    statuses = broken / "statuses.yaml"
    statuses.write_text(statuses.read_text().replace("name: Wound", "name: Wounded"))
    after = lint(broken)
    assert len(runs) == 2 and after != before
    assert "unknown status effect `Wound`" in after[2]
    assert after == lint(broken, "--no-cache")


def test_a_new_or_removed_file_lints_again(cache, broken, runs):
    lint(broken)
    (broken / "more.yml").write_text(MINIMAL_HERO.replace("hero: Tester", "hero: Other"))
    added = lint(broken)
    assert len(runs) == 2 and "checked 3 files" in added[2]
    (broken / "more.yml").unlink()
    assert "checked 2 files" in lint(broken)[2]


def test_another_working_folder_is_another_entry(cache, broken, runs, monkeypatch):
    """Paths are shown relative to the working folder."""
    outside = lint(broken)
    monkeypatch.chdir(broken)
    inside = lint(".")
    assert len(runs) == 2
    assert inside[2].startswith("hero.yaml:10:33: error") and outside[2].startswith("mine/hero.yaml:10:33")
    assert inside == lint(".", "--no-cache")


@pytest.mark.parametrize("damage", [
    b"", b"{not json", b"[]", b'{"format": 1}', b"\xff\xfe",
    "entry with a wrong shape",
])
def test_a_damaged_entry_is_ignored_and_rebuilt(cache, broken, runs, damage):
    cold = lint(broken)
    (entry,) = cache.glob("*.json")
    if isinstance(damage, str):
        data = json.loads(entry.read_text())
        data["diagnostics"][0]["span"] = ["hero.yaml", "nine"]
        data["diagnostics"][1]["code"] = "X999"
        damage = json.dumps(data).encode()
    entry.write_bytes(damage)
    assert lint(broken) == cold and len(runs) == 2
    assert json.loads(entry.read_text())["key"] == entry.stem  # rewritten whole
    assert lint(broken) == cold and len(runs) == 2


def test_no_cache_neither_reads_nor_writes(cache, broken, runs):
    first = lint(broken, "--no-cache")
    assert not cache.exists() or not list(cache.iterdir())
    lint(broken)
    assert lint(broken, "--no-cache") == first and len(runs) == 3


@pytest.mark.parametrize("blocked", ["cache home is a file", "lint folder is a file", "entry is a folder"])
def test_a_cache_that_cannot_be_written_is_not_fatal(tmp_path, monkeypatch, broken, runs, blocked):
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    if blocked == "cache home is a file":
        home.write_text("not a folder")
        monkeypatch.setenv("XDG_CACHE_HOME", str(home / "sub"))
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", str(home))
        (home / "dtc").mkdir(parents=True)
        if blocked == "lint folder is a file":
            (home / "dtc" / "lint").write_text("not a folder")
        else:
            files = lintcache.key_files([broken])
            (home / "dtc" / "lint" / f"{lintcache.lint_key([broken], files)}.json").mkdir(parents=True)
    expected = lint(broken, "--no-cache")
    assert lint(broken) == expected and lint(broken) == expected
    assert len(runs) == 3


def test_the_cache_keeps_the_most_recent_entries(cache, tmp_path, monkeypatch, runs):
    monkeypatch.setattr(lintcache, "MAX_ENTRIES", 2)
    for i in range(4):
        (tmp_path / f"hero{i}.yaml").write_text(MINIMAL_HERO.replace("hero: Tester", f"hero: Tester {i}"))
        lint(f"hero{i}.yaml")
    assert len(list(cache.glob("*.json"))) == 2
    lint("hero3.yaml")
    assert len(runs) == 4  # the newest is still there


def test_a_lint_that_reads_an_unkeyed_file_is_not_stored(cache, broken, monkeypatch):
    """What the front end read must all be in the key: anything else could change unseen."""
    monkeypatch.setattr(lintcache, "_builtin_inputs", lambda: [])
    lint(broken)  # falls back on the built-in rulesets and phrasebook, now left out of the key
    assert not list(cache.glob("*.json"))


def test_a_builtin_input_is_in_the_key(tmp_path, broken, monkeypatch):
    extra = tmp_path / "phrasebook.yaml"
    extra.write_text("one")
    monkeypatch.setattr(lintcache, "_builtin_inputs", lambda: [extra])
    files = lintcache.key_files([broken])
    before = lintcache.lint_key([broken], files)
    extra.write_text("two")
    assert lintcache.lint_key([broken], files) != before


def test_the_key_files_are_the_files_the_front_end_finds(tmp_path):
    (tmp_path / "a" / "deep").mkdir(parents=True)
    (tmp_path / "a" / ".hidden").mkdir()
    for name in ("a/one.yaml", "a/deep/two.yml", "a/.hidden/no.yaml", "a/.no.yaml", "a/no.txt", "b.yaml"):
        (tmp_path / name).write_text("hero: x\n")
    (tmp_path / "a" / "link.yaml").symlink_to(tmp_path / "b.yaml")
    paths = [tmp_path / "a", tmp_path / "b.yaml", tmp_path / "a" / "one.yaml"]
    found, problems = dtc.project.discover(paths)
    assert problems == [] and lintcache.key_files(paths) == found
    assert lintcache.key_files([tmp_path / "missing.yaml"]) is None
    (tmp_path / "empty").mkdir()
    assert lintcache.key_files([tmp_path / "empty"]) is None


def test_the_code_fingerprint_is_the_engine_version():
    from dtc.session import engine_version

    assert lintcache.code_fingerprint() == engine_version()


def test_usage_errors_are_not_cached(cache, tmp_path, runs):
    assert lint("missing.yaml")[0] == 2 and lint("missing.yaml")[0] == 2
    assert len(runs) == 2


def test_builtin_content_copy_warm_equals_cold(cache, tmp_path, runs):
    shutil.copytree(ROOT / "content", tmp_path / "content")
    cold = lint("content")
    assert lint("content") == cold and len(runs) == 1
