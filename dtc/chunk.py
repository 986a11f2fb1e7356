"""Chunk: one compiled effect — code, constants and a line table back to the YAML.

As in clox: `code` is the instruction bytes, `consts` the constants that
operands index (requirements, symbol lists, number lists, triggers), and
`lines` has the source line of every byte.  `source` is the file the effect
came from, `owner` says what it belongs to (`Tide Caller › Undertow › tier 1`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dtc.opcodes import SHAPE_SIZE, TABLE, Op


@dataclass
class Chunk:
    owner: str
    source: int  # index into the artifact's source files
    hero: int | None  # the hero whose components the operands name
    status: int | None = None  # the status whose token `this token` means
    code: bytearray = field(default_factory=bytearray)
    consts: list[Any] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    prompts: dict[int, Any] = field(default_factory=dict)  # offset -> text shown when asking
    text: str = ""  # the effect as written (what a player reads before choosing it), if it has one

    # -- writing
    def emit(self, op: Op, *operands: int, line: int) -> int:
        """Append one instruction; returns its offset."""
        at = len(self.code)
        info = TABLE[op]
        if len(operands) != len(info.operands):
            raise ValueError(f"{op.name} takes {len(info.operands)} operands, got {len(operands)}")
        self.code.append(op)
        for shape, value in zip(info.operands, operands, strict=True):
            size = SHAPE_SIZE[shape]
            if not 0 <= value < 256 ** size:
                raise ValueError(f"{op.name} operand {value} does not fit {shape}")
            self.code += value.to_bytes(size, "big")
        self.lines += [line] * (len(self.code) - at)
        return at

    def emit_choose(self, count: int, line: int) -> int:
        """Append CHOOSE with a table of `count` placeholder offsets; returns its offset."""
        at = len(self.code)
        self.code.append(Op.CHOOSE)
        self.code.append(count)
        self.code += b"\x00\x00" * count
        self.lines += [line] * (len(self.code) - at)
        return at

    def patch_u16(self, at: int, value: int) -> None:
        """Overwrite the u16 at byte `at` (a jump target once it is known)."""
        self.code[at:at + 2] = value.to_bytes(2, "big")

    def const(self, value: Any) -> int:
        """The index of `value` among the constants, adding it once."""
        for i, existing in enumerate(self.consts):
            if existing == value and type(existing) is type(value):
                return i
        if len(self.consts) >= 255:
            raise ValueError("a chunk holds at most 255 constants")
        self.consts.append(value)
        return len(self.consts) - 1

    @property
    def here(self) -> int:
        return len(self.code)

    def to_json(self) -> dict:
        return {
            "owner": self.owner,
            "source": self.source,
            "hero": self.hero,
            "status": self.status,
            "code": bytes(self.code).hex(),
            "consts": self.consts,
            "lines": _run_length(self.lines),
            "prompts": {str(k): v for k, v in sorted(self.prompts.items())},
            **({"text": self.text} if self.text else {}),
        }


def _run_length(lines: list[int]) -> list[list[int]]:
    """[[line, count], ...]: the line table, compressed."""
    out: list[list[int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1][1] += 1
        else:
            out.append([line, 1])
    return out


def expand_lines(runs: list[list[int]]) -> list[int]:
    """The inverse of the compression: one line per code byte."""
    lines: list[int] = []
    for line, count in runs:
        lines += [line] * count
    return lines
