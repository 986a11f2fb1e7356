"""Reading artifacts: every corruption is refused with a one-line reason; fuzzing never crashes."""

from __future__ import annotations

import copy
import functools
import json
import os
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtc import artifact
from dtc.artifact import FORMAT_VERSION, ArtifactError
from dtc.cli.main import cli
from dtc.opcodes import Op
from dtc.sample import SampleState, first_answer
from dtc.vm import VM, RunContext, VMError

EXAMPLES = int(os.environ.get("DTC_FUZZ_EXAMPLES", "200"))


@pytest.fixture(scope="module")
def raw(image) -> bytes:
    return artifact.to_bytes(image)


def refused(data: bytes) -> str:
    with pytest.raises(ArtifactError) as info:
        artifact.load(data)
    message = str(info.value)
    assert "\n" not in message
    return message


def with_image(image, change) -> bytes:
    mutated = copy.deepcopy(image)
    change(mutated)
    return artifact.to_bytes(mutated)


def set_code(image, index, ops: list[int], consts=None) -> bytes:
    def change(img):
        chunk = img["chunks"][index]
        chunk["code"] = bytes(ops).hex()
        chunk["lines"] = [[1, len(ops)]]
        chunk["prompts"] = {}
        if consts is not None:
            chunk["consts"] = consts
    return with_image(image, change)


def test_valid_artifact_loads(raw):
    loaded = artifact.load(raw)
    assert len(loaded.heroes) == 4 and loaded.version


@pytest.mark.parametrize("mutate,expected", [
    (lambda r: b"XXXX" + r[4:], "bad magic"),
    (lambda r: r[:4] + (99).to_bytes(2, "big") + r[6:], "format version 99 is not supported"),
    (lambda r: r[:10], "truncated: 10 bytes is shorter than the 64-byte header"),
    (lambda r: b"hello\n", "not a dtc ruleset artifact (bad magic number)"),  # short, and no artifact
    (lambda r: b"", "not a dtc ruleset artifact"),
    (lambda r: r[:200], "truncated: the payload should be"),
    (lambda r: r + b"junk", "4 unexpected bytes after the payload"),
    (lambda r: r[:500] + bytes([r[500] ^ 0x01]) + r[501:], "content hash mismatch"),
    (lambda r: r[:20] + bytes([r[20] ^ 0xFF]) + r[21:], "content hash mismatch"),
    (lambda r: r[:6] + b"\x00\x20" + r[8:], "damaged header"),
])
def test_header_corruptions(raw, mutate, expected):
    assert expected in refused(mutate(raw))


def test_unreadable_payload_with_a_valid_hash():
    import hashlib

    payload = b"{not json"
    header = (b"DTCB" + FORMAT_VERSION.to_bytes(2, "big") + (64).to_bytes(2, "big")
              + hashlib.sha256(payload).digest() + len(payload).to_bytes(4, "big")
              + b"x".ljust(16, b"\0") + b"\0" * 4)
    assert "payload is not readable" in refused(header + payload)


@pytest.mark.parametrize("ops,expected", [
    ([0xEE, Op.END], "unknown opcode 0xee"),
    ([Op.PUSH, 0], "PUSH is cut short"),
    ([Op.PUSH, 0, 1, Op.GAIN, 0x27, 0x0F, 0, Op.END], "dangling reference to status 9999"),
    ([Op.JUMP, 0x03, 0xE7, Op.END], "jump to 0999 is not the start of an instruction"),
    ([Op.JUMP, 0, 1, Op.END], "jump to 0001 is not the start of an instruction"),
    ([Op.ADD, Op.END], "stack underflow"),
    ([Op.PUSH, 0, 1, Op.END], "the chunk ends with 1 value(s) left"),
    ([Op.PUSH, 0, 1, Op.POP], "runs off the end of the chunk"),
    ([Op.PUSH, 0, 1, Op.JUMP_IF_FALSE, 0, 10, Op.PUSH, 0, 2, Op.NOT, Op.END],
     "unbalanced stack"),
    ([Op.DEAL, 0xFE, 1, 0, Op.END], "dangling reference to damage type 254"),
    ([Op.PUSH, 0, 1, Op.DEAL, 0, 77, 0, Op.END], "dangling reference to target 77"),
    ([Op.CHOOSE, 1, 0, 40, Op.END], "option at 0040 is not an instruction"),
    ([Op.SCHEDULE, 0, 0x7F, 0xFF, Op.END], "dangling reference to constant 0"),
    ([Op.SET_COMP, 9, 0, Op.END], "dangling reference to component 9"),
    ([Op.HAS_SYMBOL, 0x10, 0, 1, Op.POP, Op.END], "dangling reference to symbol 4096"),
])
def test_bytecode_corruptions(image, ops, expected):
    # chunk 0 belongs to the Druid, so component operands are checked against its components
    assert expected in refused(set_code(image, 0, [int(x) for x in ops]))


def test_this_token_outside_a_status(image):
    ferocity = next(i for i, c in enumerate(image["chunks"]) if c["owner"] == "Druid › Ferocity › tier 1")
    assert "`this token` outside a status effect" in refused(
        set_code(image, ferocity, [Op.REMOVE_THIS, Op.END]))


def test_constant_of_the_wrong_kind(image):
    assert "dangling reference to symbol 99" in refused(
        set_code(image, 0, [Op.COUNT_SYMBOLS, 0, Op.POP, Op.END], consts=[[99]]))
    assert "empty requirement" in refused(
        set_code(image, 0, [Op.MEETS, 0, Op.POP, Op.END], consts=[{"items": []}]))


def test_an_artifact_without_effect_texts_still_loads_and_plays_and_a_bad_text_is_refused(image):
    """Artifacts compiled before the effects' texts were kept have none: they load and play the same
    game (the menus then say nothing of what an ability does); a text that is not a string is refused."""
    from dtc.agents.base import play
    from dtc.agents.bots import HeuristicBot
    from dtc.dicethrone.engine import Game

    def strip(img):
        for chunk in img["chunks"]:
            chunk.pop("text", None)

    assert any("text" in c for c in image["chunks"])
    old, new = artifact.load(with_image(image, strip)), artifact.load(artifact.to_bytes(image))
    assert all(c.text == "" for c in old.chunks)
    results = [play(Game(a, [0, 1], 3), [HeuristicBot(1), HeuristicBot(2)]) for a in (old, new)]
    assert results[0] == results[1]
    assert "text is not a string" in refused(with_image(image, lambda img: img["chunks"][0].update(text=7)))


@pytest.mark.parametrize("change,expected", [
    (lambda img: img["heroes"][0]["abilities"][0]["options"][0].update(chunk=9999),
     "dangling reference to chunk 9999"),
    (lambda img: img["heroes"][0].update(statuses=[12345]), "dangling reference to status 12345"),
    (lambda img: img["heroes"][0]["dice"]["faces"].update({"1": 999}), "dangling reference to symbol 999"),
    (lambda img: img["statuses"][3].update(owner="Nobody"), "dangling reference to hero 'Nobody'"),
    (lambda img: img["heroes"][1].update(rules="No Such Rules"), "dangling reference to ruleset"),
    (lambda img: img["heroes"][0]["abilities"][0]["options"][0]["requirement"]["items"][0].update(
        symbol=500), "dangling reference to symbol 500"),
    (lambda img: img["chunks"][0].update(lines=[[1, 1]]), "line table does not cover the code"),
    (lambda img: img.update(format=FORMAT_VERSION + 1),
     f"image format {FORMAT_VERSION + 1} is not {FORMAT_VERSION}"),
    (lambda img: img.pop("heroes"), "heroes: expected a list"),
])
def test_reference_corruptions(image, change, expected):
    assert expected in refused(with_image(image, change))


@pytest.mark.parametrize("mutate", [
    lambda r: r[: len(r) // 2],
    lambda r: r[:300] + bytes([r[300] ^ 0x40]) + r[301:],
])
def test_commands_refuse_bad_artifacts_with_exit_1_and_one_line(tmp_path, raw, mutate):
    path = tmp_path / "bad.dtcb"
    path.write_bytes(mutate(raw))
    log = tmp_path / "game.jsonl"
    log.write_text('{"dtc": "dtc-dicethrone-log"}\n')
    for command in (["disasm", str(path)],
                    ["play", "--hero", "druid", "--vs", "duelist", "--auto", "--ruleset", str(path)],
                    ["simulate", "druid", "duelist", "--games", "2", "--ruleset", str(path)],
                    ["replay", str(log), "--ruleset", str(path)]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1, command
        assert len(result.stderr.strip().splitlines()) == 1, command
        assert result.stderr.startswith("error: "), command
    missing = CliRunner().invoke(cli, ["disasm", str(tmp_path / "missing.dtcb")])
    assert missing.exit_code == 1 and "cannot read" in missing.stderr


# ---------------------------------------------------------------- fuzzing

FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(st.data())
def test_flipped_dropped_and_inserted_bytes_never_crash_the_loader(data):
    blob = bytearray(artifact.to_bytes(_image()))
    for _ in range(data.draw(st.integers(1, 5))):
        action = data.draw(st.sampled_from(["flip", "drop", "insert"]))
        pos = data.draw(st.integers(0, len(blob) - 1))
        if action == "flip":
            blob[pos] ^= data.draw(st.integers(1, 255))
        elif action == "drop":
            del blob[pos:pos + data.draw(st.integers(1, 64))]
        else:
            blob[pos:pos] = data.draw(st.binary(min_size=1, max_size=16))
    try:
        artifact.load(bytes(blob))
    except ArtifactError as exc:
        assert str(exc) and "\n" not in str(exc)


CODE_EDITS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 255)),
                      min_size=1, max_size=4)
TABLE_EDIT = st.one_of(st.none(), st.tuples(st.integers(0, 10**7), st.integers(0, 9)))


@functools.cache
def _image() -> dict:
    # not a fixture: hypothesis would print the whole image with every failing example
    from dtc import project
    from dtc.compiler import compile_content

    return compile_content(project.builtin().content)


@FUZZ
@given(CODE_EDITS, TABLE_EDIT)
def test_rehashed_mutations_either_fail_verification_or_run_safely(code_edits, table_edit):
    """Mutate code and tables, recompute the hash (so the verifier, not the hash, must
    catch it), then run every chunk of whatever verifies: only clean errors allowed."""
    mutated = copy.deepcopy(_image())
    chunks = mutated["chunks"]
    for which, where, value in code_edits:
        chunk = chunks[which % len(chunks)]
        code = bytearray.fromhex(chunk["code"])
        code[where % len(code)] = value
        chunk["code"] = code.hex()
    if table_edit is not None:
        text = json.dumps(mutated)
        numbers = [m for m in range(len(text)) if text[m].isdigit()]
        at = numbers[table_edit[0] % len(numbers)]
        try:
            mutated = json.loads(text[:at] + str(table_edit[1]) + text[at + 1:])
        except ValueError:  # the edit made invalid JSON (a leading zero); nothing to test
            return
    try:
        loaded = artifact.load(artifact.to_bytes(mutated))
    except ArtifactError:
        return
    vm = VM(loaded, budget=2_000)
    for index, chunk in enumerate(loaded.chunks):
        hero = chunk.hero if chunk.hero is not None else 0
        state = SampleState(loaded, [hero, (hero + 1) % len(loaded.heroes)], logging=False)
        faces = {int(v): s for v, s in loaded.heroes[hero]["dice"]["faces"].items()}
        ctx = RunContext(0, hero, attacker=0, defender=1, roll=[1, 2, 3, 4, 6], faces=faces,
                         status=chunk.status, token=0)
        if chunk.status is not None:
            state.gain_status(0, chunk.status, 1, 0)
        run = vm.run(index, ctx, state, random.Random(index))
        try:
            request = next(run)
            while True:
                request = run.send(first_answer(request))
        except StopIteration:
            pass
        except VMError as exc:
            assert str(exc)
