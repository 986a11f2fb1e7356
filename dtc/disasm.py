"""Disassemble: chunk bytes in, instruction records (data) and listings (text) out.

`instructions()` decodes without trusting the bytes (the verifier uses it on
untrusted artifacts); `format_chunk()` prints a listing in the house format:

    0000  101  PUSH             1
    0003    |  GAIN             3 0 (Hex)
    0007  102  JUMP_IF_FALSE    21 (to 0021)

offset, source line (`|` when unchanged), name, raw operands, resolved names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dtc.opcodes import (
    ANY_CARD,
    CHANGE_MODES,
    COMPARISONS,
    COUNTABLES,
    OTHER_SIDE,
    SECTIONS,
    SHAPE_SIZE,
    SKIP_NEXT_TURN,
    TABLE,
    TARGETS,
    VOID_KINDS,
    Op,
)

# THEN's windows (opcodes.THEN_WINDOWS) as a listing says them
THEN_LABELS = ("Then", "after the Defensive Roll", "after the roll")


class DecodeError(Exception):
    """The bytes are not a sequence of whole, known instructions."""


@dataclass(frozen=True)
class Instruction:
    offset: int
    op: Op
    operands: tuple  # ints; a table operand is a tuple of offsets
    size: int


def instructions(code: bytes) -> list[Instruction]:
    """Every instruction of `code`, in order; raises DecodeError on bad bytes."""
    out = []
    offset = 0
    while offset < len(code):
        byte = code[offset]
        info = TABLE.get(byte)  # type: ignore[call-overload]
        if info is None:
            raise DecodeError(f"offset {offset:04}: unknown opcode 0x{byte:02x}")
        pos = offset + 1
        operands: list[Any] = []
        for shape in info.operands:
            if shape == "table":
                if pos >= len(code):
                    raise DecodeError(f"offset {offset:04}: {info.op.name} is cut short")
                count = code[pos]
                pos += 1
                if pos + 2 * count > len(code):
                    raise DecodeError(f"offset {offset:04}: {info.op.name} is cut short")
                operands.append(tuple(int.from_bytes(code[pos + 2 * i:pos + 2 * i + 2], "big")
                                      for i in range(count)))
                pos += 2 * count
                continue
            size = SHAPE_SIZE[shape]
            if pos + size > len(code):
                raise DecodeError(f"offset {offset:04}: {info.op.name} is cut short")
            operands.append(int.from_bytes(code[pos:pos + size], "big"))
            pos += size
        out.append(Instruction(offset, info.op, tuple(operands), pos - offset))
        offset = pos
    return out


# ---------------------------------------------------------------- listing


def format_chunk(artifact: Any, index: int) -> str:
    """The listing of one chunk of a loaded artifact."""
    chunk = artifact.chunks[index]
    source = artifact.sources[chunk.source]
    lines = [f"== chunk {index}: {chunk.owner}  ({source}) =="]
    previous_line = None
    for ins in instructions(chunk.code):
        line = chunk.lines[ins.offset]
        shown = f"{line:4}" if line != previous_line else "   |"
        previous_line = line
        raw = " ".join(str(x) if not isinstance(x, tuple) else "[" + " ".join(map(str, x)) + "]"
                       for x in ins.operands)
        resolved = describe(artifact, chunk, ins)
        text = f"{ins.offset:04}  {shown}  {ins.op.name:<16} {raw}"
        if resolved:
            text = f"{text:<44} ({resolved})"
        lines.append(text.rstrip())
    return "\n".join(lines)


def describe(artifact: Any, chunk: Any, ins: Instruction) -> str:
    """The operands of `ins` in words: names, targets, offsets."""
    info = TABLE[ins.op]
    words = []
    comp = None
    status = None
    for shape, value in zip(info.operands, ins.operands, strict=True):
        word = _word(artifact, chunk, ins.op, shape, value, comp, status)
        if shape == "comp" and chunk.hero is not None:
            comp = artifact.players[chunk.hero]["components"][value]
        if shape == "status":
            status = artifact.statuses[value]
        if word:
            words.append(word)
    return ", ".join(words)


def _word(artifact, chunk, op, shape, value, comp, status) -> str:
    if shape == "jump":
        return f"to {value:04}"
    if shape == "table":
        return "options at " + " ".join(f"{v:04}" for v in value)
    if shape == "status":
        return artifact.statuses[value]["name"]
    if shape == "symbol":
        return f"[{artifact.symbols[value]}]"
    if shape == "dtype":
        return artifact.damage_types[value]
    if shape == "phase":
        return artifact.phases[value]
    if shape == "target":
        return TARGETS[value]
    if shape == "ctype":
        return "any card" if value == ANY_CARD else artifact.card_types[value]
    if shape == "chunk":
        return f"chunk {value}: {artifact.chunks[value].owner}"
    if shape == "die":
        return "hero dice" if value == 0 else f"{artifact.dice[value - 1]['name']} die"
    if shape == "cmp":
        return COMPARISONS[value]
    if shape == "comp" and chunk.hero is not None:
        return artifact.players[chunk.hero]["components"][value]["name"]
    if shape == "value" and comp is not None:
        return str(comp["values"][value])
    if shape == "side":
        sides = comp["sides"] if comp is not None else (
            status["sides"] if status is not None else _this_sides(artifact, chunk))
        if value == OTHER_SIDE:
            return "the other side"
        return f"side {sides[value]}" if value < len(sides) else ""
    if shape == "tier" and value and status is not None:
        tier = status["tiers"][value - 1]
        return f"{tier['tier']} {tier['slot']}"
    if shape == "const":
        return _const_word(artifact, op, chunk.consts[value])
    if shape == "mode" and op in (Op.HALF, Op.PREVENT_HALF):
        return "rounded up" if value == 0 else "rounded down"
    if shape == "mode" and op == Op.CHANGE_DICE:
        return CHANGE_MODES[value]
    if shape == "mode" and op == Op.SKIP:
        return "the next one" if value == SKIP_NEXT_TURN else ""
    if shape == "dir":
        return ("player chooses", "up", "down")[value]
    if shape in ("guild", "color"):
        rules = artifact.data.get("valeria", {}).get("rules", {})
        names = rules.get("guilds" if shape == "guild" else "colors", [])
        return ("any" if shape == "guild" else "any colored die") if value == 0 else names[value - 1]
    if shape == "reward":
        return artifact.data["valeria"]["rules"]["rewards"][value]["name"]
    if shape == "section":
        return SECTIONS[value]
    if shape == "where":
        return SECTIONS[value - 1] if value else "anywhere"
    if shape == "what":
        return COUNTABLES[value]
    if shape == "voidkind":
        return VOID_KINDS[value]
    if op == Op.THEN and shape == "u8":
        return THEN_LABELS[value] if value < len(THEN_LABELS) else "?"
    if op == Op.DEAL and shape == "u8":
        return "isolated" if value else ""
    return ""


def _this_sides(artifact, chunk) -> list:
    if chunk.status is None:
        return []
    return artifact.statuses[chunk.status].get("sides", [])


def _const_word(artifact, op, value) -> str:
    if op == Op.COUNT_SYMBOLS:
        return " or ".join(f"[{artifact.symbols[s]}]" for s in value)
    if op == Op.PICK_FROM:
        return " or ".join(map(str, value))
    if op == Op.MEETS:
        return requirement_text(artifact, value)
    if op == Op.SCHEDULE:
        return trigger_text(artifact, value)
    return repr(value)


def requirement_text(artifact, req: dict) -> str:
    parts = []
    for item in req["items"]:
        if "straight" in item:
            parts.append(f"{item['straight'].title()} Straight")
        elif "of_a_kind" in item:
            sym = item.get("symbol")
            parts.append(f"{item['of_a_kind']}-of-a-kind" +
                         (f" [{artifact.symbols[sym]}]" if sym is not None else ""))
        else:
            parts.append(f"{item['count']} [{artifact.symbols[item['symbol']]}]")
    return " ".join(parts)


def option_label(artifact, name: str, options: list, j: int) -> str:
    """How an ability option is called: the ability's name, and for one of several tiers or variants
    what it needs of the dice: `<ability> (4 [<symbol>])`."""
    if len(options) == 1:
        return name
    return f"{name} ({requirement_text(artifact, options[j]['requirement'])})"


def trigger_text(artifact, trigger: dict) -> str:
    on = trigger["on"]
    if "phase" in trigger:
        phase = artifact.phases[trigger["phase"]]
        if on == "phase_edge":
            return f"at the {trigger['edge']} of the {phase}"
        return f"{on.replace('_', ' ')} {phase}"
    return on.replace("_", " ")
