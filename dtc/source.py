"""Source files and spans: text in, 1-based line/column positions out.

Every later stage points back into a YAML file through a `Span`, so that a
diagnostic can show the offending source line with a caret under it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, end exclusive."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int

    @staticmethod
    def point(path: str, line: int, col: int, width: int = 1) -> Span:
        """A span of `width` characters on one line."""
        return Span(path, line, col, line, col + max(width, 1))

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
        }


@dataclass
class SourceFile:
    """The text of one file, kept so diagnostics can quote its lines."""

    path: str
    text: str

    def __post_init__(self) -> None:
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def line_text(self, line: int) -> str:
        """The text of 1-based `line`, or "" when out of range."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return ""

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset into the text."""
        before = self.text[:offset]
        line = before.count("\n") + 1
        return line, offset - (before.rfind("\n") + 1) + 1


def display_path(path: Path) -> str:
    """A path as users typed it: relative to the working directory when inside it."""
    try:
        return str(real_path(path).relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):  # outside it, or no working directory (deleted under us)
        return str(path)


def real_path(path: Path) -> Path:
    """The path with symbolic links resolved; as given (made absolute where it can be) when that
    cannot be done: a link loop, a working directory deleted under us."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop, before Python 3.13
        try:
            return Path(path).absolute()
        except OSError:
            return Path(path)


class TextMap:
    """Maps offsets in a YAML scalar's value back to positions in the file.

    A scalar's value is not a slice of the file: quotes, escapes, folding and
    block indentation change it.  The map walks value and source side by side,
    treating any run of whitespace as equal to any other, which is exact for
    plain, quoted and folded scalars in practice and degrades to the start of
    the scalar when the two cannot be aligned.
    """

    def __init__(self, value: str, source: str, start: int, line: int, col: int):
        self._positions = _align(value, source, start, line, col)
        self._fallback = (line, col)

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, col) of character `offset` of the value."""
        if not self._positions:
            return self._fallback
        offset = max(0, min(offset, len(self._positions) - 1))
        return self._positions[offset]


def _align(value: str, source: str, start: int, line: int, col: int) -> list[tuple[int, int]]:
    """Positions (1-based) of each value character, plus one past the end."""
    positions: list[tuple[int, int]] = []
    i, n = start, len(source)
    cur_line, cur_col = line, col

    def advance(k: int) -> None:
        nonlocal i, cur_line, cur_col
        for _ in range(k):
            if i >= n:
                return
            if source[i] == "\n":
                cur_line += 1
                cur_col = 1
            else:
                cur_col += 1
            i += 1

    for ch in value:
        if ch.isspace():
            positions.append((cur_line, cur_col))
            # a value whitespace run maps onto one source whitespace run
            while i < n and source[i].isspace():
                advance(1)
            continue
        limit = min(n, i + 200)
        j = source.find(ch, i, limit)
        if j < 0:
            return []
        advance(j - i)
        positions.append((cur_line, cur_col))
        advance(1)
    positions.append((cur_line, cur_col))
    return positions


# Characters that print as nothing (format characters such as U+200B ZERO WIDTH SPACE, U+FEFF, the
# soft hyphen, the bidirectional controls), as a plain space without being one (U+00A0 NO-BREAK
# SPACE, copied in from a PDF), or as nothing known (private use, unassigned). In a name they make
# two names that look alike differ (`Swipe` and `Swi\u200bpe`); in effect text, a word nobody can see
# is wrong. A tab, a newline and the zero-width joiner inside an emoji are what they look like.
_HIDDEN_CATEGORIES = {"Cf", "Co", "Cn", "Cs", "Cc", "Zs", "Zl", "Zp"}
_SEEN_AS_WHAT_THEY_ARE = {" ", "\t", "\n", "\r"}
_ZERO_WIDTH_JOINER = "\u200d"
_ASCII_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def hidden_character(text: str) -> int | None:
    """The offset of the first character of `text` that a reader cannot see for what it is (an
    invisible character, a space that is not a plain space), or None."""
    if text.isascii():  # nearly every string: no loop
        control = _ASCII_CONTROL.search(text)
        return control.start() if control else None
    for i, ch in enumerate(text):
        if ch in _SEEN_AS_WHAT_THEY_ARE or unicodedata.category(ch) not in _HIDDEN_CATEGORIES:
            continue
        if ch == _ZERO_WIDTH_JOINER and _inside_emoji(text, i):
            continue
        return i
    return None


def _inside_emoji(text: str, i: int) -> bool:
    """A zero-width joiner between two symbols (`🧙\u200d♀`) is part of one emoji."""
    return 0 < i < len(text) - 1 and all(
        unicodedata.category(text[j])[0] in "SM" for j in (i - 1, i + 1))


def character_name(ch: str) -> str:
    """A character as a diagnostic names it: `U+00A0 (NO-BREAK SPACE)`."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def visible(text: str) -> str:
    """`text` with every character that prints as nothing written as `<U+200B>` (for a message)."""
    if hidden_character(text) is None:
        return text
    return "".join(f"<U+{ord(ch):04X}>" if hidden_character(ch) == 0 and not looks_like_a_space(ch)
                   else ch for ch in text)


def looks_like_a_space(ch: str) -> bool:
    """Whether a hidden character shows as a space (a no-break space), not as nothing."""
    return unicodedata.category(ch) == "Zs"


def read_bounded(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. A device, a FIFO or a file that grows
    past the limit (`/dev/zero`, a pipe that never ends) is refused with a ValueError saying so, never
    read to a MemoryError or a hang; an OSError is the caller's to word."""
    import os
    import stat

    with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise ValueError("it is not a regular file (a device or a pipe)")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"it is larger than {limit // (1024 * 1024)} MB")
    return data
