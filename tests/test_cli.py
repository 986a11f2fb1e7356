"""The command line: exit codes, output formats, `show`."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from conftest import MINIMAL_HERO, ROOT

from dtc.cli.main import cli as main

CONTENT = str(ROOT / "content")


def run(*args, cwd=None):
    runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def broken(tmp_path, monkeypatch):
    """A hero file with one misspelled status and one unreachable condition."""
    monkeypatch.chdir(tmp_path)
    text = MINIMAL_HERO.lstrip("\n").replace("effect: Deal 4 dmg.", "effect: Deal 4 dmg. Inflict Wuond.")
    (tmp_path / "hero.yaml").write_text(text)
    return tmp_path / "hero.yaml"


def test_lint_builtin_content_is_clean():
    result = run("lint", CONTENT)
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.stderr


def test_lint_error_exit_1_with_source_line_and_caret(broken):
    result = run("lint", "hero.yaml")
    assert result.exit_code == 1
    err = result.stderr
    assert "hero.yaml:13:33: error[C002]: unknown status effect `Wuond`" in err
    assert "13 |     effect: Deal 4 dmg. Inflict Wuond." in err
    assert "   |                                 ^^^^^" in err
    assert "= help: did you mean `Wound`?" in err
    assert "1 error, 0 warnings" in err


def test_warnings_fail_only_with_strict(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = MINIMAL_HERO.replace("dice: 2\n    effect: Deal 1 dmg per [Claw] rolled.",
                                "dice: 1\n    effect: On 2 [Paw], heal 1.")
    (tmp_path / "hero.yaml").write_text(text)
    assert run("lint", "hero.yaml").exit_code == 0
    strict = run("lint", "--strict", "hero.yaml")
    assert strict.exit_code == 1 and "warning[C007]" in strict.stderr


def test_usage_errors_exit_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("lint", "missing.yaml").exit_code == 2
    assert run("lint").exit_code == 2
    assert run("lint", "--format", "xml", CONTENT).exit_code == 2


def test_json_format(broken):
    result = run("lint", "--format", "json", "hero.yaml")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["errors"] == 1 and data["files"] == 1
    d = data["diagnostics"][0]
    assert (d["code"], d["name"], d["line"], d["col"], d["path"]) == (
        "C002", "unknown-status", 13, 33, "hero.yaml")
    assert d["hint"] == "did you mean `Wound`?"


def test_github_format(broken):
    result = run("lint", "--format", "github", "hero.yaml")
    lines = result.stdout.strip().splitlines()
    assert lines == [
        "::error file=hero.yaml,line=13,col=33,endLine=13,endColumn=38,title=C002 unknown-status"
        "::unknown status effect `Wuond` (help: did you mean `Wound`?)"
    ]
    assert re.fullmatch(r"::(error|warning|notice) [^:]+::.+", lines[0])


def test_sarif_format_is_well_formed(broken):
    result = run("lint", "--format", "sarif", "hero.yaml")
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    (sarif_run,) = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "dtc" and driver["version"]
    rules = driver["rules"]
    for res in sarif_run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("error", "warning", "note")
        assert res["message"]["text"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "hero.yaml", "uriBaseId": "%SRCROOT%"}
        region = loc["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])
    assert sarif_run["columnKind"] == "unicodeCodePoints"  # what dtc's columns count (CI QA)


def test_sarif_paths_are_uri_references():
    """A path with a space, `,`, `:` or `%` is percent-encoded; a path outside the working directory
    is a `file:` URI (CI QA: they were written raw, which code scanning cannot read)."""
    from dtc.diagnostics import _sarif_location

    assert _sarif_location("content/dir with space/we,ird:na%me.yaml") == {
        "uri": "content/dir%20with%20space/we%2Cird%3Ana%25me.yaml", "uriBaseId": "%SRCROOT%"}
    assert _sarif_location("/tmp/x y/hero.yaml") == {"uri": "file:///tmp/x%20y/hero.yaml"}


def test_sarif_carries_allowed_warnings_as_suppressed():
    result = run("lint", "--format", "sarif", CONTENT)
    results = json.loads(result.stdout)["runs"][0]["results"]
    assert results and all(r["suppressions"][0]["kind"] == "inSource" for r in results)
    assert result.exit_code == 0


def test_show_druid_text():
    result = run("show", "druid")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Dice (5): 1 Claw · 2 Claw · 3 Claw · 4 Paw · 5 Paw · 6 Leaf" in out
    assert "Large Straight  Gain Shape Shift. Then deal 7 dmg. Roll 1 die. On [Claw], add 2 dmg." in out
    assert "Thick Hide (Defense Roll 2)" in out and "GAP (not in dtc)" in out
    assert "Shape Shift — unique, stack limit 2, spendable at any time" in out
    assert "Form — forms Druid Form, Bear Form, Cat Form, starts as Druid Form" in out
    assert ("Ferocity II — 2 CP — upgrade Ferocity to II: 3 [Claw]: Deal 5 dmg. / 4 [Claw]: Deal 6 dmg. / "
            "5 [Claw]: Deal 8 dmg. / Additionally: On 4-of-a-kind [Paw], inflict Wound. (authored)") in out


def test_show_json_and_slugs():
    result = run("show", "Sun-Elf", "--format", "json")
    view = json.loads(result.stdout)
    assert view["hero"] == "Sun Elf"
    assert view["dice"]["faces"]["6"] == "Sun Power"
    names = [a["name"] for a in view["offensive"]]
    assert names == ["Light Staff", "Ray Absorption", "Scorching Staff", "Radiant Energy",
                     "Ray of Light", "Solar Burst", "Sun Beam"]
    assert view["ultimate"][0]["options"][0]["ast"]["node"] == "Effect"
    # a component's effect says the side it acts on (it read as if always on)
    dial = view["components"][0]["effects"]
    assert dial[1] == {"effect": "During your Upkeep Phase, increase Sun Dial by 1.", "side": "Dusk"}
    assert dial[3]["side"] == "Dawn" and dial[3]["attack_modifier"] is True
    text = run("show", "duelist").stdout
    assert "      [at Offense 3, Attack Modifier] When Attacking, add 3 dmg." in text


def test_show_unknown_hero_suggests():
    result = run("show", "drood")
    assert result.exit_code == 2
    assert "no hero, Minion or Boss `drood`; did you mean `Druid`?" in result.stderr


DEPRECATED = "note: --content is deprecated; use --ruleset (it takes the same paths)"


@pytest.mark.parametrize("command", [
    ["show", "druid"], ["show", "sun-elf", "--format", "json"], ["heroes"],
    ["explain", "--hero", "druid", "Deal 2 dmg per [Claw] rolled."], ["odds", "druid"],
    ["simulate", "druid", "duelist", "--games", 2, "--format", "json"],
    ["play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 3]])
def test_every_command_reading_content_takes_ruleset(command):
    """One option names the content everywhere (show, explain and heroes took `--content`, the others
    `--ruleset`): the content folder reads as the built-in content does."""
    given = run(*command, "--ruleset", CONTENT)
    assert given.exit_code == 0, given.output
    assert given.stdout == run(*command).stdout


@pytest.mark.parametrize("command", ["show", "explain", "heroes", "odds", "play", "simulate", "replay"])
def test_help_offers_ruleset_and_hides_the_old_content(command):
    shown = run(command, "--help")
    assert shown.exit_code == 0 and "--ruleset" in shown.stdout and "--content" not in shown.stdout


@pytest.mark.parametrize("command", [["show", "druid"], ["heroes"],
                                     ["explain", "--hero", "druid", "Deal 2 dmg."]])
def test_the_old_content_option_still_works_with_a_note(command):
    old = run(*command, "--content", CONTENT)
    assert old.exit_code == 0, old.output
    assert old.stdout == run(*command, "--ruleset", CONTENT).stdout
    assert old.stderr.splitlines()[0] == DEPRECATED
    assert DEPRECATED not in run(*command, "--ruleset", CONTENT).stderr


def test_ruleset_takes_several_content_files_where_the_source_is_read():
    heroes = ROOT / "content" / "heroes"
    listed = run("heroes", "--ruleset", heroes / "druid.yaml", "--content", heroes / "duelist.yaml")
    assert listed.exit_code == 0, listed.output
    assert [line.split()[0] for line in listed.stdout.splitlines()] == ["Druid", "Duelist"]
    assert listed.stderr.splitlines()[0] == DEPRECATED


@pytest.fixture
def designer(tmp_path, monkeypatch):
    """A designer's folder: ./content/heroes/myhero.yaml holds a hero that is not built in (Tester)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content" / "heroes").mkdir(parents=True)
    (tmp_path / "content" / "heroes" / "myhero.yaml").write_text(MINIMAL_HERO.lstrip("\n"))
    return tmp_path


@pytest.mark.parametrize("command, option, again", [
    (["show", "myhero"], "", "dtc show myhero"),
    (["show", "myhero", "--format", "json"], "", "dtc show myhero"),
    (["explain", "--hero", "myhero", "Deal 2 dmg."], "", "dtc explain --hero myhero 'Deal 2 dmg.'"),
    (["odds", "myhero"], "HERO: ", "dtc odds myhero"),
    (["play", "--hero", "myhero", "--vs", "druid"], "--hero: ", "dtc play --hero myhero --vs druid"),
    (["play", "--hero", "druid", "--vs", "myhero", "--auto"], "--vs: ", "dtc play --hero druid --vs myhero"),
    (["simulate", "druid", "myhero"], "HERO: ", "dtc simulate druid myhero")])
def test_a_hero_found_nearby_is_named_with_the_option_that_finds_it(designer, command, option, again):
    """`dtc show myhero` said only "no hero `myhero`; heroes here: Druid, ..." while ./content held it:
    the error says where it is and the command that reads it."""
    result = run(*command)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (f"error: {option}no built-in hero `myhero`; it is in "
                                              f"content/heroes/myhero.yaml: {again} --ruleset content/")
    assert "Traceback" not in result.output


def test_the_command_the_hint_gives_works(designer):
    hint = run("show", "tester").stderr  # by the name its file gives it, too
    assert hint.splitlines()[-1].endswith(
        "it is in content/heroes/myhero.yaml: dtc show tester --ruleset content/")
    shown = run("show", "tester", "--ruleset", "content/")
    assert shown.exit_code == 0, shown.output
    assert "Swipe" in shown.stdout
    assert run("odds", "tester", "--ruleset", "content/").exit_code == 0
    other = run("show", "nobody")  # nothing nearby: what there is, and how to show one's own
    assert other.exit_code == 2 and "no hero, Minion or Boss `nobody`; heroes here: Druid" in other.stderr
    assert "pass --ruleset with the folder that holds its file" in other.stderr
    given = run("show", "myhero", "--ruleset", ROOT / "content")  # told where to look: no hint
    assert given.exit_code == 2 and "no built-in hero" not in given.stderr


def test_a_hero_in_the_current_folder_is_named_with_what_finds_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tide.yaml").write_text(MINIMAL_HERO.lstrip("\n"))
    assert run("show", "tide").stderr.splitlines()[-1] == (
        "error: no built-in hero `tide`; it is in tide.yaml: dtc show tide --ruleset tide.yaml")
    (tmp_path / "heroes").mkdir()
    (tmp_path / "tide.yaml").rename(tmp_path / "heroes" / "tide.yaml")
    assert run("show", "tide").stderr.splitlines()[-1] == (
        "error: no built-in hero `tide`; it is in heroes/tide.yaml: dtc show tide --ruleset .")


def test_a_compiled_ruleset_given_as_content_is_named_so(tmp_path):
    """`dtc heroes --content x.dtcb` said "byte 0x93 is not UTF-8 / save the file as UTF-8", and
    `dtc show` "heroes here: none" (tester QA): a compiled ruleset is named as one, with where it goes;
    the commands that read the source say in one line what to pass instead, `heroes` lists it."""
    ruleset = tmp_path / "x.dtcb"
    assert run("compile", CONTENT, "-o", ruleset).exit_code == 0
    result = run("lint", ruleset)
    assert result.exit_code == 1
    assert "x.dtcb:1:1: error[Y012]: this is a compiled ruleset (`dtc compile`'s output), not content" \
        in result.stderr
    assert "goes to --ruleset" in result.stderr
    for command in (["show", "druid"], ["explain", "--hero", "druid", "Deal 2 dmg."]):
        for option in ("--ruleset", "--content"):
            refused = run(*command, option, ruleset)
            assert refused.exit_code == 2, (command, option)
            assert refused.stderr.splitlines()[-1] == (
                f"error: --ruleset {ruleset} is a compiled ruleset; `dtc {command[0]}` reads content: "
                "pass the content folder it was compiled from (e.g. --ruleset content/)")
            assert "Traceback" not in refused.output
    listed = run("heroes", "--ruleset", ruleset)  # the same heroes, each named by its file in the ruleset
    assert listed.exit_code == 0 and "Druid          content/heroes/druid.yaml  (" in listed.stdout

    def without_paths(out):
        return [re.sub(r" \S+\.yaml ", " ", line) for line in out.splitlines()]
    assert without_paths(listed.stdout) == without_paths(run("heroes").stdout)
    assert run("heroes", "--ruleset", ruleset, "--ruleset", CONTENT).exit_code == 2


def test_outputs_do_not_replace_files_that_are_not_dtcs(tmp_path):
    """`--log precious.yaml` or `compile -o druid.yaml` replaced a hero file with JSON or bytes
    (tester QA): a file that is not a dtc save, log or ruleset is left alone, with an error; dtc's own
    are written over as before."""
    hero = tmp_path / "druid.yaml"
    hero.write_text("hero: Druid\n")
    game = ["play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 2]
    for option in ("--log", "--save"):
        refused = run(*game, option, hero)
        assert refused.exit_code == 2 and f"will not write over {hero}: it is not a dtc save or log" \
            in refused.stderr
    refused = run("compile", CONTENT, "-o", hero)
    assert refused.exit_code == 2 and "it is not a compiled ruleset" in refused.stderr
    assert hero.read_text() == "hero: Druid\n"
    log, ruleset = tmp_path / "g.jsonl", tmp_path / "r.dtcb"
    for _ in range(2):
        assert run(*game, "--log", log).exit_code == 0
        assert run("compile", CONTENT, "-o", ruleset).exit_code == 0
    # a save laid out by hand (`jq .`) is still a save: it resumes and is written over (code review)
    save = tmp_path / "s.json"
    assert run(*game, "--save", save).exit_code == 0
    data = json.loads(save.read_text())
    data["answers"] = data["answers"][:10]
    save.write_text(json.dumps(data, indent=2))
    assert run("play", "--resume", save).exit_code == 0 and len(json.loads(save.read_text())["answers"]) > 10


def test_show_refuses_a_broken_hero(broken):
    result = run("show", "tester", "--ruleset", "hero.yaml")
    assert result.exit_code == 1
    assert "error[C002]" in result.stderr


def test_heroes_lists_the_builtin_heroes():
    result = run("heroes")
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "Druid", "Duelist", "Forgemaster", "Sun"]


def test_empty_folder_is_a_usage_error(tmp_path):
    result = run("lint", str(tmp_path))
    assert result.exit_code == 2 and "no content files" in result.stderr


def test_console_script_turns_bugs_into_one_line(monkeypatch, capsys):
    import dtc.cli.main as cli_main

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    import dtc.project

    monkeypatch.setattr(dtc.project, "builtin", boom)
    monkeypatch.setattr("sys.argv", ["dtc", "heroes"])
    with pytest.raises(SystemExit) as exit_info:
        cli_main.main()
    assert exit_info.value.code == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: kaboom" in err and "Traceback" not in err


def test_console_script_usage_error_exit_2(monkeypatch, capsys):
    import dtc.cli.main as cli_main

    monkeypatch.setattr("sys.argv", ["dtc", "lint", "--format", "xml", "x"])
    with pytest.raises(SystemExit) as exit_info:
        cli_main.main()
    assert exit_info.value.code == 2
    assert "Invalid value for '--format'" in capsys.readouterr().err


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and "dtc" in result.stdout


def test_heroes_says_why_a_file_is_not_listed(tmp_path):
    (tmp_path / "bad.yaml").write_text("hero: [unclosed\n")
    bad = run("heroes", "--ruleset", tmp_path / "bad.yaml")
    assert bad.exit_code == 1 and "bad.yaml:2:1: error[Y003]" in bad.stderr
    missing = run("heroes", "--ruleset", tmp_path / "nope")
    assert missing.exit_code == 2 and "no such file or folder" in missing.stderr
    none = run("heroes", "--ruleset", ROOT / "content" / "valeria")
    assert none.exit_code == 1 and "no heroes in" in none.stderr


def test_simulate_refuses_a_ruleset_without_heroes(tmp_path):
    out = tmp_path / "valeria.dtcb"
    assert run("compile", ROOT / "content" / "valeria", "-o", out).exit_code == 0
    result = run("simulate", "--all", "--ruleset", out, "--games", 1)
    assert result.exit_code == 2 and "no Dice Throne heroes" in result.stderr


@pytest.mark.parametrize("roll", ["1,,1,4,6,6", "+1,1,4,6,6", "１,1,4,6,6", "1,1,4,6"])
def test_odds_roll_takes_plain_face_values_only(roll):
    result = run("odds", "druid", "--roll", roll)
    assert result.exit_code == 2 and "error: --roll takes the 5 face values" in result.stderr


def test_odds_with_no_re_roll_left_gives_no_advice_to_keep():
    result = run("odds", "druid", "--roll", "1,1,4,6,6", "--attempts-left", 0)
    assert result.exit_code == 0 and "keep" not in result.output
    assert "Ferocity (3 [Claw])" in result.output and "not met, no re-roll left" in result.output


@pytest.mark.parametrize("command", [["play", "--hero", "druid", "--vs", "duelist"], ["simulate", "--all"],
                                     ["valeria", "solo"]])
def test_a_missing_ruleset_file_is_a_usage_error(command, tmp_path):
    result = run(*command, "--ruleset", tmp_path / "nope.dtcb")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_explain_with_broken_content_lists_its_errors_instead_of_crashing(broken):
    """The text is compiled with the content it names: a hero with errors (a misspelled status)
    is reported as lint would, exit 1, not an internal error; what was read is shown all the same."""
    result = run("explain", "--hero", "Tester", "--ruleset", broken, "Deal 4 dmg.")
    assert result.exit_code == 1 and "internal error" not in result.output
    assert "hero.yaml:" in result.stderr and "Wuond" in result.stderr
    assert "error: Tester has 1 error(s): the text is read above, but compiled and run only once" \
        in result.stderr
    assert "DEAL 'Deal'" in result.stdout and "bytecode:" not in result.stdout


def test_ruleset_may_be_a_content_folder_compiled_on_the_spot(tmp_path, broken):
    """A designer plays and simulates a content folder without a `dtc compile` step; content with
    errors is refused as lint would report it."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "mine")
    result = run("simulate", "druid", "duelist", "--games", 4, "--seed", 1, "--format", "json",
                 "--ruleset", tmp_path / "mine")
    assert result.exit_code == 0, result.output
    built_in = run("simulate", "druid", "duelist", "--games", 4, "--seed", 1, "--format", "json")
    assert json.loads(result.stdout)["pairs"] == json.loads(built_in.stdout)["pairs"]
    bad = run("play", "--hero", "tester", "--vs", "tester", "--auto", "--ruleset", broken)
    assert bad.exit_code == 1 and "Wuond" in bad.stderr
    assert "has 1 error(s); fix them (`dtc lint" in bad.stderr


def test_a_content_folder_is_the_same_ruleset_whatever_its_name_and_saves_remember_it(tmp_path):
    """A renamed copy of the content compiles to the built-in ruleset's hash; a game saved with
    `--ruleset FOLDER` resumes with the command it prints (the save names the folder), and says so
    when the folder changed since."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "mine")
    built_in = run("compile", CONTENT, "-o", tmp_path / "a.dtcb")
    mine = run("compile", tmp_path / "mine", "-o", tmp_path / "b.dtcb")
    assert built_in.output.split("sha256")[1] == mine.output.split("sha256")[1]
    save = tmp_path / "s.json"
    played = run("play", "--hero", "druid", "--vs", "duelist", "--auto", "--seed", 2,
                 "--ruleset", tmp_path / "mine", "--save", save)
    assert played.exit_code == 0 and json.loads(save.read_text())["ruleset_file"] == str(tmp_path / "mine")
    data = json.loads(save.read_text())
    data["answers"] = data["answers"][:20]
    save.write_text(json.dumps(data))
    assert run("play", "--resume", save).exit_code == 0
    hero = tmp_path / "mine" / "heroes" / "druid.yaml"
    hero.write_text(hero.read_text().replace("effect: Deal 4 dmg.", "effect: Deal 5 dmg.", 1))
    data["answers"] = data["answers"][:20]
    save.write_text(json.dumps(data))
    changed = run("play", "--resume", save)
    assert changed.exit_code == 2
    assert f"saved with the ruleset in {tmp_path / 'mine'} (" in changed.stderr
    assert "…), which has changed since; pass the same --ruleset, unchanged" in changed.stderr


def test_a_ruleset_without_heroes_says_so(tmp_path):
    import shutil

    shutil.copytree(ROOT / "content" / "rules", tmp_path / "rules-only" / "rules")
    result = run("simulate", "druid", "duelist", "--games", 2, "--ruleset", tmp_path / "rules-only")
    assert result.exit_code == 2 and "this ruleset has no heroes" in result.stderr


def test_the_pre_commit_hook_lints_the_whole_content_folder(tmp_path, monkeypatch):
    """The hook passed only the changed files to `dtc lint`, so checks across files went wrong: a
    second hero of the same name in a new file passed (CI QA). It lints the folder instead."""
    import shutil

    from ruamel.yaml import YAML

    (hook,) = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["pass_filenames"] is False and hook["args"] == ["content/"]
    shutil.copytree(ROOT / "content", tmp_path / "content")
    heroes = tmp_path / "content" / "heroes"
    shutil.copy(heroes / "druid.yaml", heroes / "druid-copy.yaml")
    command = hook["entry"].split()[1:] + hook["args"]
    monkeypatch.chdir(tmp_path)
    folder = run(*command)
    assert folder.exit_code == 1 and "two heroes are named `Druid`" in folder.stderr
    alone = run("lint", "content/heroes/druid-copy.yaml")  # what the hook used to run
    assert alone.exit_code == 0


def test_a_folder_without_content_is_a_diagnostic_in_every_format(tmp_path):
    """A missing path gave a JSON document and an empty folder plain text: a pipeline saw two shapes
    for one kind of failure (CI QA). Both are Y009, exit 2."""
    result = run("lint", str(tmp_path), "--format", "json")
    assert result.exit_code == 2
    (found,) = json.loads(result.stdout)["diagnostics"]
    assert found["code"] == "Y009" and found["message"].startswith("no content files (*.yaml, *.yml) under")


def test_a_symbolic_link_loop_is_an_error_not_a_crash(tmp_path):
    """`dtc lint <a link to itself>` ended in "internal error: RuntimeError: Symlink loop" (CI QA)."""
    loop = tmp_path / "self.yaml"
    loop.symlink_to(loop)
    for command in (["lint", loop], ["compile", loop, "-o", tmp_path / "out.dtcb"]):
        result = run(*command)
        assert result.exit_code == 2, result.output
        assert "is a symbolic link that leads nowhere (a loop, or a target that is gone)" in result.stderr


def test_color_always_colours_a_pipe_and_no_color_is_honoured(broken, monkeypatch):
    """`--color always` printed no colour where it matters, a CI log that is no terminal (CI QA)."""
    assert "\x1b[" in run("lint", "hero.yaml", "--color", "always").stderr
    assert "\x1b[" not in run("lint", "hero.yaml").stderr  # auto, and no terminal
    from dtc.cli.main import _color

    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert _color("auto") is False and _color("always") is True


def test_a_compiled_artifact_gets_the_permissions_a_plain_write_would(tmp_path):
    """Artifacts and saves were always 0600 (the temporary file's), whatever the umask: a later CI
    step under another user could not read them (CI QA). A new file gets 0666 less the umask; a
    file replaced keeps its own."""
    import os
    import stat

    out = tmp_path / "ruleset.dtcb"
    umask = os.umask(0o022)
    try:
        assert run("compile", CONTENT, "-o", out).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        out.chmod(0o640)
        assert run("compile", CONTENT, "-o", out).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o640
    finally:
        os.umask(umask)


def test_a_control_character_is_pointed_at_in_one_line(tmp_path):
    """A NUL in a YAML file was reported at 1:1 with ruamel's own message over two lines, and the raw
    character was echoed (CI QA): it is reported where it is, in the one-line form."""
    bad = tmp_path / "nul.yaml"
    bad.write_bytes(b"hero: D\x00ruid\n")
    result = run("lint", bad)
    first, _, source, caret, *_ = result.stderr.splitlines()
    assert first.endswith("nul.yaml:1:8: error[Y003]: invalid YAML: U+0000 is not allowed in YAML (control "
                          "characters are not)")
    assert source == "1 | hero: D\ufffdruid" and caret == "  |        ^"


def test_a_snippet_lines_up_under_tabs_and_wide_characters_and_cuts_long_lines():
    from dtc.diagnostics import _snippet

    assert _snippet("\tname: 🐻 Wuond", 9, 5) == ("\tname: 🐻 Wuond", "\t" + " " * 6 + "  " + " " + "^^^^^")
    shown, caret = _snippet("x" * 5000 + " Wuond " + "y" * 5000, 5001, 5)
    assert len(shown) <= 162 and shown.startswith("…") and shown.endswith("…")
    assert shown[caret.index("^"):caret.index("^") + 5] == "Wuond"


CONTENT_FILES = len(list((ROOT / "content").rglob("*.yaml")))  # every built-in content file


def test_hidden_folders_are_not_searched(tmp_path):
    """`dtc lint .` at a repository's root linted `.github/workflows/*.yml` and
    `.pre-commit-config.yaml` and failed on them (CI QA): hidden files and folders are skipped."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "content")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n", encoding="utf-8")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    result = run("lint", tmp_path)
    assert result.exit_code == 0, result.stderr
    assert f"checked {CONTENT_FILES} files" in result.stderr  # the content's, not the hidden ones


def test_a_broken_link_in_a_content_folder_is_reported(tmp_path):
    """Issue "Hardening", "Terminal": broken symlinks in a content folder were skipped silently; each
    is a warning with its path (the rest is linted as before; `--strict` fails on it)."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "content")
    (tmp_path / "content" / "heroes" / "ghost.yaml").symlink_to(tmp_path / "gone.yaml")
    result = run("lint", tmp_path / "content")
    assert result.exit_code == 0, result.stderr
    assert "ghost.yaml` is a symbolic link that leads nowhere" in result.stderr
    assert f"checked {CONTENT_FILES} files: 0 errors, 1 warning" in result.stderr
    assert run("lint", "--strict", tmp_path / "content").exit_code == 1


def test_lint_of_a_device_or_pipe_says_what_it_is(tmp_path):
    """`dtc lint /dev/zero` said "no such file"; it says what the path is, and exits 2."""
    import os

    result = run("lint", "/dev/zero")
    assert result.exit_code == 2 and "`/dev/zero` is a character device, not a content file" in result.stderr
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = run("lint", fifo)
    assert result.exit_code == 2 and "is a named pipe (FIFO)" in result.stderr


def test_github_annotations_show_allowed_warnings_when_asked():
    """`--show-allowed` was ignored with `--format github` (CI QA): allowed warnings are notices."""
    plain = run("lint", "--format", "github", CONTENT)
    shown = run("lint", "--format", "github", "--show-allowed", CONTENT)
    assert plain.stdout == "" and shown.exit_code == 0
    lines = shown.stdout.splitlines()
    assert lines and all(line.startswith("::notice file=") and "(allowed: " in line for line in lines)


def test_compile_to_standard_output(tmp_path):
    """`-o -` wrote a file named `-` (CI QA); it writes the artifact to standard output."""
    run("compile", CONTENT, "-o", tmp_path / "file.dtcb")
    piped = CliRunner().invoke(main, ["compile", str(CONTENT), "-o", "-"])
    assert piped.exit_code == 0 and piped.stdout_bytes == (tmp_path / "file.dtcb").read_bytes()


def test_show_marks_a_shared_card_whose_text_does_not_check(tmp_path):
    """A broken card in the shared card set (another file than the hero's) was listed in the hero's
    deck with its text as if it worked: it is marked, and the diagnostics say why."""
    import shutil

    shutil.copytree(ROOT / "content", tmp_path / "content")
    cards = tmp_path / "content" / "cards" / "common.yaml"
    text = cards.read_text(encoding="utf-8")
    first = re.search(r"effect: (.+)", text).group(1)
    cards.write_text(text.replace(f"effect: {first}", "effect: Blorp the dice.", 1), encoding="utf-8")
    result = run("show", "druid", "--ruleset", tmp_path / "content")
    assert "Blorp the dice. [does not check: `dtc lint` says why]" in result.stdout


def test_explain_shows_the_text_as_the_phrasebook_read_it():
    result = run("explain", "--hero", "druid", "Take two damage.")
    assert result.exit_code == 0
    assert "read as (the lexicon and phrasebook):\n  receive 2 dmg.\n" in result.stdout
    assert "read as" not in run("explain", "--hero", "druid", "Receive 2 dmg.").stdout


def test_explain_reads_a_roll_phase_card_on_the_dice_of_the_roll():
    """A Roll Phase card works on the dice on the table, as lint reads a card with `timing: roll`;
    as a Main Phase card (the default) there are no dice to change."""
    text = "Increase or decrease 1 die by 1."
    result = run("explain", "--hero", "druid", "--as", "card", "--timing", "roll", "--roll", "6,2", text)
    assert result.exit_code == 0, result.output
    assert "options=((5,), (1, 3))" in result.stdout and "changes the dice to 5 2" in result.stdout
    main = run("explain", "--hero", "druid", "--as", "card", text)
    assert main.exit_code != 0 and "needs dice, but nothing is rolled here" in main.output
    wrong = run("explain", "--hero", "druid", "--timing", "roll", text)
    assert wrong.exit_code == 2 and "--timing roll is for --as card" in wrong.output


def test_explain_tells_a_tiers_moment_and_refuses_it_mixed_into_a_sentence():
    """The moment above Armor's tiers runs nothing of its own: said, exit 0; written inside another
    sentence it is refused (it failed to compile, an internal error)."""
    moment = ("Whenever a player is Attacked with normal damage, they may activate the effects below based "
              "on the Armor that is on them.")
    told = run("explain", "--hero", "forgemaster", "--as", "status", "--status", "Armor", moment)
    assert told.exit_code == 0 and "note: this sentence is the moment of the tiers' effects" in told.stdout
    mixed = run("explain", "--hero", "forgemaster", "--as", "status", "--status", "Armor",
                "When Attacked, deal 1 dmg and activate the effects below.")
    assert mixed.exit_code == 1 and "error[C016]" in mixed.output and "internal error" not in mixed.output


def test_the_commands_live_a_group_per_module_and_the_exit_codes_in_one():
    """Issue 23, 7: `dtc/cli/main.py` held every command in 1,200 lines; split by command group, each
    file thin over its stage, the exit codes still defined in one place."""
    from dtc.cli.main import cli

    homes = {name: command.callback.__module__ for name, command in cli.commands.items()}
    assert homes == {
        "lint": "dtc.cli.content", "show": "dtc.cli.content", "compile": "dtc.cli.content",
        "disasm": "dtc.cli.content", "explain": "dtc.cli.content", "heroes": "dtc.cli.content",
        "modes": "dtc.cli.content", "play": "dtc.cli.game", "replay": "dtc.cli.game",
        "simulate": "dtc.cli.simulate", "odds": "dtc.cli.simulate", "valeria": "dtc.cli.valeria",
        "adventure": "dtc.cli.adventure", "sweep": "dtc.cli.sweep", "board": "dtc.cli.views",
        "print": "dtc.cli.views", "report": "dtc.cli.views", "serve": "dtc.cli.views"}
    folder = ROOT / "dtc" / "cli"
    defined = [p.name for p in sorted(folder.glob("*.py"))
               if re.search(r"^EXIT_\w+(, EXIT_\w+)* = ", p.read_text(), re.MULTILINE)]
    assert defined == ["common.py"]
    assert all(len(p.read_text().splitlines()) < 600 for p in folder.glob("*.py"))
