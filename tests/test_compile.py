"""Compiling: golden disassembly, determinism, atomic output, running without the front end."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner
from conftest import CASES, MINIMAL_HERO, ROOT

from dtc import artifact
from dtc.cli.main import cli
from dtc.disasm import format_chunk

GOLDEN = CASES / "disasm"


def _listing(compiled, prefix: str) -> str:
    chunks = [i for i, c in enumerate(compiled.chunks) if c.owner.startswith(prefix + " ›")]
    return "\n\n".join(format_chunk(compiled, i) for i in chunks) + "\n"


@pytest.mark.parametrize("owner,name", [
    ("Druid", "druid"), ("Duelist", "duelist"), ("Forgemaster", "forgemaster"),
    ("Sun Elf", "sun-elf"), ("Dice Throne Adventures", "adventures"), ("Common", "common"),
])
def test_golden_disassembly(compiled, owner, name, update_golden):
    """Every Vanguard ability, status effect and unique element, read by a person."""
    actual = _listing(compiled, owner)
    golden = GOLDEN / f"{name}.disasm"
    if update_golden:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert actual == golden.read_text(encoding="utf-8")


def test_every_content_effect_has_a_chunk(builtin, compiled):
    sites = 0
    for hero in builtin.content.heroes:
        for ability in hero.abilities:
            sites += len(ability.sites())
    assert sites > 50 and len(compiled.chunks) > sites


def test_compiling_twice_gives_identical_bytes(tmp_path, monkeypatch):
    runner = CliRunner()
    first = tmp_path / "a" / "ruleset.dtcb"
    second = tmp_path / "b" / "ruleset.dtcb"
    monkeypatch.chdir(ROOT)
    assert runner.invoke(cli, ["compile", "content", "-o", str(first)]).exit_code == 0
    monkeypatch.chdir(tmp_path)  # another working directory, an absolute path
    assert runner.invoke(cli, ["compile", str(ROOT / "content"), "-o", str(second)]).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes()[:4] == b"DTCB"


def test_failed_compile_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hero.yaml").write_text(MINIMAL_HERO.replace("Deal 4 dmg.", "Deal 4 dmg. Inflict Wond."))
    result = CliRunner().invoke(cli, ["compile", "hero.yaml", "-o", "out/ruleset.dtcb"])
    assert result.exit_code == 1
    assert "error[C002]" in result.stderr and "nothing written" in result.stderr
    assert not (tmp_path / "out" / "ruleset.dtcb").exists()


def test_write_is_atomic(tmp_path, monkeypatch):
    target = tmp_path / "ruleset.dtcb"
    target.write_bytes(b"old")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        artifact.write(target, b"new contents")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["ruleset.dtcb"]  # no temp file left


def test_unwritable_output_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(cli, ["compile", "content", "-o", str(blocker / "ruleset.dtcb")])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_artifact_runs_without_yaml_grammar_or_schemas(tmp_path, image):
    """Load and run with ruamel, lark and jsonschema made unimportable and no data folders."""
    path = tmp_path / "ruleset.dtcb"
    artifact.write(path, artifact.to_bytes(image))
    script = textwrap.dedent(f"""
        import sys
        for blocked in ("ruamel", "ruamel.yaml", "lark", "jsonschema", "jsonschema_rs"):
            sys.modules[blocked] = None
        import random
        from pathlib import Path
        from dtc import artifact
        from dtc.sample import SampleState, run_to_end
        from dtc.vm import VM, RunContext
        loaded = artifact.read(Path({str(path)!r}))
        hero_index, druid = loaded.hero("druid")
        answer = next(a for a in druid["abilities"] if a["name"] == "Forest's Answer")
        faces = {{int(v): s for v, s in druid["dice"]["faces"].items()}}
        state = SampleState(loaded, [hero_index, 1])
        ctx = RunContext(0, hero_index, attacker=0, defender=1, roll=[1, 2, 3, 4, 5], faces=faces)
        outcome, asked = run_to_end(VM(loaded), answer["options"][0]["chunk"], ctx, state,
                                    random.Random(3))
        print(state.incoming[1], outcome.instructions)
        assert not any(name.startswith(("lark", "ruamel", "jsonschema")) and sys.modules[name]
                       for name in list(sys.modules))
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "7"


def test_disasm_command_filters_and_reads(tmp_path, image):
    path = tmp_path / "ruleset.dtcb"
    artifact.write(path, artifact.to_bytes(image))
    result = CliRunner().invoke(cli, ["disasm", str(path), "--hero", "druid", "--ability", "Maul"])
    assert result.exit_code == 0
    out = result.stdout
    assert "== chunk" in out and "Druid › Maul" in out and "Ferocity" not in out
    assert "ROLL_TOTAL" in out and "REROLL" in out and "(to " in out
    unknown = CliRunner().invoke(cli, ["disasm", str(path), "--hero", "nobody"])
    assert unknown.exit_code == 2 and "no hero `nobody`" in unknown.stderr


def test_explain_command():
    result = CliRunner().invoke(cli, ["explain", "--hero", "sun-elf",
                                      "Increase Sun Dial by 2. Then deal 9 dmg."])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for heading in ("tokens:", "tree:", "bytecode:", "run:"):
        assert heading in out
    assert "RAISE" in out and "Sun Dial is now 5" in out
    assert "incoming dmg: player 2: 9" in out
    bad = CliRunner().invoke(cli, ["explain", "--hero", "sun-elf", "Increase Moon Dial by 2."])
    assert bad.exit_code == 1 and "unknown component `Moon Dial`" in bad.stderr


def test_generated_opcode_table_matches_the_doc(update_golden):
    from dtc.opcodes import markdown_table

    doc_path = ROOT / "docs" / "bytecode.md"
    doc = doc_path.read_text(encoding="utf-8")
    start = doc.index("<!-- opcode table")
    start = doc.index("\n", start) + 1
    end = doc.index("<!-- end of opcode table -->")
    if update_golden:
        doc = doc[:start] + markdown_table() + "\n" + doc[end:]
        doc_path.write_text(doc, encoding="utf-8")
        end = doc.index("<!-- end of opcode table -->")
    assert doc[start:end].strip() == markdown_table()


def test_opcode_numbers_are_unique_and_stable():
    from dtc.opcodes import TABLE, Op

    assert set(TABLE) == set(Op)
    assert len({op.value for op in Op}) == len(Op)
    assert (Op.PUSH, Op.END, Op.DEAL, Op.IN_FORM) == (1, 19, 50, 106)




@pytest.mark.parametrize("text, said", [
    ("Prevent 1 dmg per [Paw] rolled.", "player 1 prevents 2 dmg"),
    ("Gain 1 CP for each [Leaf] rolled.", "player 1 gains 1 CP"),
    ("Draw 1 card for each [Paw] rolled.", "player 1 draws 2 card(s)"),
])
def test_per_symbol_amounts_count_the_dice(text, said):
    """`per` / `for each` works for prevention, CP and cards as for dmg and healing: two [Paw] and a
    [Leaf] rolled (4, 4, 6) prevent 2, give 1 CP, draw 2."""
    result = CliRunner().invoke(cli, ["explain", "--hero", "druid", "--as", "defensive", "--roll", "4,4,6",
                                      text])
    assert result.exit_code == 0, result.output
    assert said in result.stdout


@pytest.mark.parametrize("text, said", [
    ("Increase Sun Dial by 1 per [Stave] rolled.", "player 1's Sun Dial is now 5"),
    ("Reduce Sun Dial by 1 for each [Stave] rolled.", "player 1's Sun Dial is now 1"),
])
def test_a_dial_moves_once_per_matching_die(text, said):
    """`per` / `for each` on a dial's increase or reduction: two [Stave] rolled (1, 2, 6) move the
    sample's Sun Dial (3) by 2."""
    result = CliRunner().invoke(cli, ["explain", "--hero", "sun_elf", "--as", "defensive", "--roll", "1,2,6",
                                      text])
    assert result.exit_code == 0, result.output
    assert said in result.stdout


def test_a_condition_before_the_trigger_of_a_passive_reads_as_after_it():
    """`If Sun Dial is at least 5, when Attacking, add 2 dmg.` is the same passive as `When Attacking,
    if Sun Dial is at least 5, add 2 dmg.` (the condition is checked when the trigger comes); in an
    ability, where a trigger schedules what follows, the order stays as written."""
    def bytecode(text, kind="passive"):
        result = CliRunner().invoke(cli, ["explain", "--hero", "sun_elf", "--as", kind, text])
        assert result.exit_code == 0, result.output
        return result.stdout.split("bytecode:")[1].split("run:")[0]

    first = bytecode("If Sun Dial is at least 5, when Attacking, add 2 dmg.")
    assert first == bytecode("When Attacking, if Sun Dial is at least 5, add 2 dmg.")
    assert "GET_COMP" in first and "ADD_DMG" in first
    assert "SCHEDULE" in bytecode("If Sun Dial is at least 5, at the end of the Roll Phase, add 2 dmg.",
                                  "offensive")


def test_explain_a_status_text_as_that_status():
    """`--as status --status Wound`: `this token` is a Wound token (the sample player holds one),
    not the hero's first status; an unknown status is a usage error."""
    text = "During your Upkeep Phase, receive 1 dmg. Then roll 1 die: On 4-6, remove this token."
    result = CliRunner().invoke(cli, ["explain", "--hero", "druid", "--as", "status", "--status", "wound",
                                      text])
    assert result.exit_code == 0, result.output
    assert "player 1: health 50, CP 2, statuses: 1 Wound" in result.stdout
    bad = CliRunner().invoke(cli, ["explain", "--hero", "druid", "--as", "status", "--status", "Wond", text])
    assert bad.exit_code == 2 and "Druid has no status `Wond`" in bad.stderr


def test_a_condition_on_a_dials_value():
    """`If Sun Dial is at least 4, ...` reads the dial (3 at the start of the sample run); a track or
    an unknown name is refused with what to write."""
    def explain(text):
        return CliRunner().invoke(cli, ["explain", "--hero", "sun-elf", text])

    assert "player 1 gains 1 CP" in explain("If Sun Dial is 3, gain 1 CP.").stdout
    assert "gains" not in explain("If Sun Dial is at least 4, gain 1 CP.").stdout
    assert "player 1 gains 1 CP" in explain("If your Sun Dial is 3 or more, gain 1 CP.").stdout
    moon = explain("If Moon Dial is 2, deal 2 dmg.")
    assert moon.exit_code == 1 and "unknown component `Moon Dial`" in moon.stderr
    track = CliRunner().invoke(cli, ["explain", "--hero", "duelist", "If Footwork is 2, deal 2 dmg."])
    assert track.exit_code == 1 and "Footwork is a track; this needs a dial" in track.stderr


def test_explain_with_no_dice_rolled():
    """`--roll ""` is "empty for none", as the help says: 1 dmg per [Claw] rolled deals nothing."""
    text = "Deal 1 dmg per [Claw] rolled."
    result = CliRunner().invoke(cli, ["explain", "--hero", "druid", "--roll", "", text])
    assert result.exit_code == 0, result.output
    assert "current roll none" in result.stdout and "incoming dmg: none" in result.stdout


@pytest.mark.parametrize("hero, text, message, hint", [
    ("sun-elf", "If Charged Gem is at least 1, deal 2 dmg.", "`Charged Gem` is a status effect, not a dial",
     "count its tokens: `If you have 1 Charged Gem, ...`"),
    ("druid", "If Active Form is 2, deal 2 dmg.", "Active Form is a set of forms; this needs a dial",
     "a form is a condition of its own: `If in Druid Form, ...`"),
])
def test_a_condition_on_the_wrong_kind_of_thing_says_what_to_write(hero, text, message, hint):
    result = CliRunner().invoke(cli, ["explain", "--hero", hero, text])
    assert result.exit_code == 1 and message in result.stderr and hint in result.stderr


def test_a_dial_condition_out_of_its_range_is_a_warning():
    """The Sun Dial runs 0 to 5: `If Sun Dial is 9` can never hold (C007, as for an `On` that cannot)."""
    never = CliRunner().invoke(cli, ["explain", "--hero", "sun-elf", "If Sun Dial is 9, heal 1."])
    assert "warning[C007]: Sun Dial runs from 0 to 5: this condition can never hold" in never.stderr
    fine = CliRunner().invoke(cli, ["explain", "--hero", "sun-elf", "If Sun Dial is at least 5, heal 1."])
    assert fine.exit_code == 0 and "C007" not in fine.stderr


def test_a_card_carries_what_it_says_for_the_table(compiled):
    """The artifact keeps each card's words, so a player can read a card in hand (`?` at a window):
    an action card its effect, an upgrade what each tier (or variant) of its ability needs and does."""
    from dtc.dicethrone.engine import Game
    from dtc.dicethrone.narrate import card_texts

    druid = compiled.heroes[compiled.hero("druid")[0]]
    texts = {c["name"]: c["text"] for c in druid["cards"]}
    assert texts["Nature's Cure II"] == "3 [Paw] 1 [Leaf]: Gain 2 Regenerate. Deal 6 dmg."
    assert texts["Ferocity II"].startswith("3 [Claw]: Deal 5 dmg. / 4 [Claw]: Deal 6 dmg. / ")
    duelist = compiled.heroes[compiled.hero("duelist")[0]]
    assert {c["name"]: c["text"] for c in duelist["cards"]}["Strike II"] == (  # variants, not tiers
        "Small Straight: You may take 1 Step. Then deal 8 dmg. / "
        "Large Straight: You may take up to 2 Steps. Then deal 12 dmg.")
    every = [c for h in compiled.heroes for c in h["cards"]] + \
        [c for s in compiled.data["card_sets"] for c in s["cards"]]
    assert all(c["text"] for c in every)  # every card in the built-in content says something
    common = {c["name"]: c["text"] for s in compiled.data["card_sets"] for c in s["cards"]}
    assert common["Pilfer"] == "Choose one: steal 1 CP, or a chosen opponent discards 1 card."
    game = Game(compiled, [compiled.hero("druid")[0], compiled.hero("duelist")[0]], 1)
    game.draw(0, 2)
    first = game.seats[0].hand[0].card
    shown = card_texts(game, 0).splitlines()[0]
    assert shown.startswith(f"  - {first.name} ({first.cost} CP, ") and shown.endswith(f"): {first.text}")
    assert first.text
    game.seats[0].hand.clear()
    assert card_texts(game, 0) == "your hand is empty"
