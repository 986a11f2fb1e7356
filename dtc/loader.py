"""Load: a YAML file in, one `Document` (plain data + source positions) out.

The loader composes the document itself from ruamel.yaml's event stream rather
than letting ruamel construct objects, which gives it four properties the
round-trip loader does not have:

* nothing is ever constructed from a tag (tags are refused outright),
* alias expansion is counted while composing, so an alias bomb is refused
  after reading a few hundred events instead of taking hours in later walks,
* nesting depth is checked before the (recursive) structure exists,
* every duplicate key is reported, each at its own line.

The result is plain JSON-like data (dict, list, str, int, float, bool, None)
that jsonschema can validate directly, plus a table from each value's path to
its span in the file.
"""

from __future__ import annotations

import bisect
import math
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.reader import ReaderError

from dtc.diagnostics import Diagnostic, error
from dtc.source import (
    SourceFile,
    Span,
    TextMap,
    character_name,
    display_path,
    hidden_character,
    looks_like_a_space,
    visible,
)

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_EXPANDED_NODES = 200_000

PathKey = tuple  # a path into the data: str keys and int indices


@dataclass
class Document:
    """One loaded YAML file: plain data and where every part of it came from."""

    path: str
    source: SourceFile
    data: Any
    # where each value (and each key) is, packed in one int (`_pack`): a Span object is twice the
    # size, and lint holds these for every node of every file (2,000 heroes: a million of them)
    spans: dict[PathKey, int] = field(default_factory=dict)
    key_spans: dict[PathKey, int] = field(default_factory=dict)
    # where each located string value starts in the text (its line and column are its span's start):
    # one int per string, not a tuple, for heroes by the thousand
    scalar_starts: dict[PathKey, int] = field(default_factory=dict)
    # the names of the items `without` left out: other text naming one is no news (`project`)
    left_out: tuple[str, ...] = ()

    def span(self, path: PathKey) -> Span:
        """The span of the value at `path`, or of its nearest located ancestor."""
        path = tuple(path)
        while path:
            found = self.spans.get(path)
            if found is not None:
                return _unpack(self.path, found)
            path = path[:-1]
        found = self.spans.get(())
        return Span.point(self.path, 1, 1) if found is None else _unpack(self.path, found)

    def locate(self, path: PathKey, span: Span) -> None:
        """Record where the value at `path` is (for data made outside the loader)."""
        self.spans[tuple(path)] = _pack(span)

    def key_span(self, path: PathKey) -> Span:
        """The span of the key that leads to `path` (falls back to the value)."""
        found = self.key_spans.get(tuple(path))
        return self.span(path) if found is None else _unpack(self.path, found)

    def text_map(self, path: PathKey) -> TextMap | None:
        """Offsets in the string value at `path` to file positions (None if not a located string)."""
        path = tuple(path)
        index = self.scalar_starts.get(path)
        value = self.get(path)
        if index is None or not isinstance(value, str):
            return None
        start = _unpack(self.path, self.spans[path])
        return TextMap(value, self.source.text, index, start.line, start.col)

    def text_span(self, path: PathKey, start: int, end: int) -> Span:
        """The span of characters [start, end) of the string value at `path`."""
        tmap = self.text_map(path)
        if tmap is None:
            return self.span(path)
        line1, col1 = tmap.position(start)
        line2, col2 = tmap.position(max(end, start + 1))
        if (line2, col2) <= (line1, col1):
            line2, col2 = line1, col1 + 1
        return Span(self.path, line1, col1, line2, col2)

    def get(self, path: PathKey) -> Any:
        node = self.data
        for part in path:
            node = node[part]
        return node

    def without(self, items: set[PathKey]) -> Document:
        """A copy of this mapping document without some of its items, each an entry of a top-level
        list, `(key, index)`, or a top-level value, `(key,)`; the entries after one left out move up,
        and so do their positions. What a schema error inside one card leaves to check of its file."""
        data = dict(self.data)
        gone: dict[Any, list[int]] = {}  # each list's indices left out, in order
        for path in items:
            if len(path) == 1:
                data.pop(path[0], None)
            else:
                gone.setdefault(path[0], []).append(path[1])
        for key, indices in gone.items():
            indices.sort()
            data[key] = [v for i, v in enumerate(data[key]) if i not in indices]
        copy = Document(self.path, self.source, data)
        copy.spans, copy.key_spans, copy.scalar_starts = (
            _moved_up(table, items, gone) for table in (self.spans, self.key_spans, self.scalar_starts))
        return copy


def _moved_up(table: dict[PathKey, int], items: set[PathKey], gone: dict[Any, list[int]]) -> dict:
    """`table` without the paths into the items left out, the later entries of their lists moved up."""
    out = {}
    for path, value in table.items():
        if path[:1] in items or path[:2] in items:
            continue
        indices = gone.get(path[0]) if len(path) > 1 else None
        if indices:
            path = (path[0], path[1] - bisect.bisect_left(indices, path[1])) + path[2:]
        out[path] = value
    return out


_BITS = 21  # a line or a column of a file of at most MAX_FILE_BYTES fits in 21 bits
_MASK = (1 << _BITS) - 1


def _pack(span: Span) -> int:
    line, col, end_line, end_col = span.line, span.col, span.end_line, span.end_col
    if max(line, col, end_line, end_col) > _MASK:  # text not read from a file (no size limit): the start
        line, col, end_line, end_col = (min(v, _MASK) for v in (line, col, line, col + 1))
    return (((line << _BITS | col) << _BITS | end_line) << _BITS) | end_col


def _unpack(path: str, packed: int) -> Span:
    return Span(path, packed >> 3 * _BITS, packed >> 2 * _BITS & _MASK, packed >> _BITS & _MASK,
                packed & _MASK)


@dataclass
class _Frame:
    kind: str  # "map" or "seq"
    value: Any
    path: PathKey
    anchor: str | None
    size: int = 1
    key: str | None = None
    key_path: PathKey = ()  # the path of the value `key` leads to (shared by its key span and its span)
    key_span: Span | None = None
    keys_seen: dict = field(default_factory=dict)
    merges: list = field(default_factory=list)


class _Refused(Exception):
    """Stops composing: the document is refused with this diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def _make_yaml() -> YAML:
    try:
        return YAML(typ="safe", pure=False)
    except Exception:  # pragma: no cover - only without the libyaml bindings
        return YAML(typ="safe", pure=True)


_YAML = _make_yaml()


def load_file(path: Path, sources: dict | None = None) -> tuple[Document | None, list[Diagnostic]]:
    """Load one content file; never raises for bad input, returns diagnostics.

    When `sources` is given, the file's text is recorded there (by display path)
    as soon as it is decoded, so that diagnostics can quote it even when loading fails.
    """
    shown = display_path(path)
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        return None, [error("Y009", f"cannot read `{shown}`: {exc.strerror or exc}", None)]
    if size > MAX_FILE_BYTES:
        return None, [
            error(
                "Y001",
                f"file is {size} bytes; content files are limited to {MAX_FILE_BYTES} bytes",
                Span.point(shown, 1, 1),
                "split the content over several files",
            )
        ]
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [error("Y009", f"cannot read `{shown}`: {exc.strerror or exc}", None)]
    return load_bytes(raw, shown, sources)


def load_bytes(raw: bytes, path: str, sources: dict | None = None
               ) -> tuple[Document | None, list[Diagnostic]]:
    """Load content from bytes already in memory (`path` is for messages only)."""
    if len(raw) > MAX_FILE_BYTES:
        return None, [
            error(
                "Y001",
                f"file is {len(raw)} bytes; content files are limited to {MAX_FILE_BYTES} bytes",
                Span.point(path, 1, 1),
                "split the content over several files",
            )
        ]
    if raw.startswith(b"DTCB"):  # the artifact's magic: `dtc compile`'s output given as content
        return None, [
            error(
                "Y012",
                "this is a compiled ruleset (`dtc compile`'s output), not content",
                Span.point(path, 1, 1),
                "give the YAML content it was compiled from; a compiled ruleset goes to --ruleset "
                "(dtc play, simulate, odds) or to `dtc disasm`",
            )
        ]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, [
            error(
                "Y002",
                f"byte 0x{raw[exc.start]:02x} is not UTF-8",
                Span.point(path, line, col),
                "save the file as UTF-8",
            )
        ]
    text = text.removeprefix("\ufeff")
    if sources is not None:
        sources[path] = SourceFile(path, text)
    return load_text(text, path)


def load_text(text: str, path: str) -> tuple[Document | None, list[Diagnostic]]:
    """Load content from text; the core of the loader."""
    source = SourceFile(path, text)
    doc = Document(path, source, None)
    composer = _Composer(doc)
    try:
        for event in _YAML.parse(text):
            composer.feed(event)
    except _Refused as refused:
        return None, [refused.diagnostic]
    except MarkedYAMLError as exc:
        return None, [_syntax_error(exc, source)]
    except ReaderError as exc:  # a character YAML does not allow, at an offset into the text
        line, col = source.line_col(exc.position) if isinstance(exc.position, int) else (1, 1)
        name = unicodedata.name(chr(exc.character), "") if isinstance(exc.character, int) else ""
        code = f"U+{exc.character:04X}" if isinstance(exc.character, int) else "a character"
        return None, [error("Y003", f"invalid YAML: {code}{f' ({name})' if name else ''} is not allowed in "
                            "YAML (control characters are not)", Span.point(path, line, col),
                            "delete it; an editor may show it as a box or `^@`")]
    except YAMLError as exc:
        return None, [error("Y003", f"invalid YAML: {exc}", Span.point(path, 1, 1))]
    except RecursionError:
        return None, [error("Y006", "the document is nested too deeply", Span.point(path, 1, 1))]
    if composer.documents == 0:
        return None, [
            error("Y008", "the file holds no YAML document", Span.point(path, 1, 1),
                  "a content file holds one mapping, such as `hero: My Hero`")
        ]
    if composer.diagnostics:
        return None, composer.diagnostics
    doc.data = composer.root
    return doc, []


_PLAIN_KEY = re.compile(r"^\s*(- )?[A-Za-z_][A-Za-z0-9_]*$")  # `    stack_limit` before its `:`


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


_FLOW_LIST_THEN_TEXT = re.compile(r"(^|:)\s*(- )?\[[^\]]*\]\s*[^\s,#\]}]")


def _syntax_error(exc: MarkedYAMLError, source: SourceFile) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else 1
    col = mark.column + 1 if mark else 1
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    hint = None
    if "mapping values are not allowed" in problem:
        text, above = source.line_text(line), source.line_text(line - 1)
        deeper = _indent(text) - _indent(above)
        if _PLAIN_KEY.match(text[: col - 1]) and deeper > 0:  # `key: value` pushed right of its siblings
            hint = (f"`{text[: col - 1].strip()}:` is indented {deeper} more than the line above: "
                    "a key lines up with the keys beside it")
        else:
            hint = "text that contains `: ` must be quoted, or written as a block (`effect: >`)"
    elif "tab character" in problem or ("cannot start any token" in problem
                                        and ("\\t" in problem or "\t" in source.line_text(line))):
        hint = "indent with spaces, not tabs"
    elif "expected '-' indicator" in problem or "expected <block end>" in problem:
        text, above = source.line_text(line), source.line_text(line - 1)
        column = _indent(above) + (2 if above.strip().startswith("- ") else 0) + 1
        if text.strip() and _indent(text) + 1 != column:
            hint = (f"this line starts at column {_indent(text) + 1} and the key above it at column "
                    f"{column}: the keys of one item line up (a new item starts with `- `)")
    else:
        marks = [m for m in (exc.problem_mark, exc.context_mark) if m is not None]
        if any(_FLOW_LIST_THEN_TEXT.search(source.line_text(m.line + 1)) for m in marks):
            hint = (
                "a value that starts with `[` is read as a YAML list; quote the text "
                '(`requires: "[Claw] [Paw]"`) or write a list (`requires: [Claw, Paw]`)'
            )
    if exc.context and exc.context not in problem:
        problem = f"{problem} ({exc.context})"
    return error("Y003", problem, Span.point(source.path, line, col), hint)


class _Composer:
    """Builds plain data from YAML events, refusing what content must not hold."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.open_anchors: set[str] = set()
        self.expanded = 0
        self.documents = 0
        self.root: Any = None
        self.diagnostics: list[Diagnostic] = []

    # -- positions
    def _span(self, event) -> Span:
        s, e = event.start_mark, event.end_mark
        if e is None or (e.line, e.column) <= (s.line, s.column):
            return Span.point(self.doc.path, s.line + 1, s.column + 1)
        return Span(self.doc.path, s.line + 1, s.column + 1, e.line + 1, e.column + 1)

    def _refuse(self, code: str, message: str, event, hint: str | None = None):
        raise _Refused(error(code, message, self._span(event), hint))

    # -- events
    def feed(self, event) -> None:
        if isinstance(event, DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self._refuse("Y008", "a content file holds exactly one YAML document", event,
                             "remove the extra `---` or split the file")
            return
        tag = getattr(event, "tag", None)
        if tag is not None and not isinstance(event, AliasEvent):
            self._refuse("Y004", f"YAML tag `{tag}` is not allowed in content", event,
                         "content is plain data: remove the tag (quote the value if it must be text)")
        if isinstance(event, ScalarEvent):
            if event.style in (None, "") and len(event.value) > MAX_NUMBER_CHARS \
                    and (_INT.match(event.value) or _HEX.match(event.value) or _OCT.match(event.value)):
                self._refuse("Y013", f"a number of {len(event.value)} characters is longer than any "
                             "content needs", event,
                             f"write a number of at most {MAX_NUMBER_CHARS} characters "
                             "(quote it if it is text)")
            self._hidden(event)
            self._add(_scalar(event), event, size=1)
        elif isinstance(event, AliasEvent):
            self._alias(event)
        elif isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            self._open(event)
        elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            self._close()

    def _hidden(self, event: ScalarEvent) -> None:
        """A character in a key or value that cannot be seen for what it is: an error at it (the
        document is still read through, so every such place is named at once)."""
        at = hidden_character(event.value)
        if at is None:
            return
        mark = event.start_mark
        line, col = TextMap(event.value, self.doc.source.text, mark.index, mark.line + 1,
                            mark.column + 1).position(at)
        ch = event.value[at]
        shown = visible(event.value if len(event.value) <= 40 else event.value[:37] + "...")
        if looks_like_a_space(ch):
            message = f"`{shown}` holds {character_name(ch)}, which looks like a space but is not one"
            hint = "type a plain space in its place (text copied from a PDF often carries these)"
        else:
            message = f"`{shown}` holds {character_name(ch)}, which cannot be seen"
            hint = (f"delete it (an editor may show it as `<{ord(ch):04x}>`): a name or a sentence must be "
                    "what it looks like")
        self.diagnostics.append(error("Y014", message, Span.point(self.doc.path, line, col), hint))

    def _count(self, n: int, event) -> None:
        self.expanded += n
        if self.expanded > MAX_EXPANDED_NODES:
            self._refuse("Y005", f"aliases expand this document past {MAX_EXPANDED_NODES} nodes",
                         event, "write the content out, or use fewer nested aliases")

    def _alias(self, event) -> None:
        name = event.anchor
        if name in self.open_anchors:
            self._refuse("Y011", f"alias `*{name}` refers to a node that contains it", event)
        if name not in self.anchors:
            self._refuse("Y003", f"alias `*{name}` has no anchor `&{name}` before it", event)
        value, size = self.anchors[name]
        self._add(value, event, size=size)

    def _open(self, event) -> None:
        if len(self.stack) >= MAX_DEPTH:
            self._refuse("Y006", f"the document is nested more than {MAX_DEPTH} levels deep", event)
        kind = "map" if isinstance(event, MappingStartEvent) else "seq"
        container: Any = {} if kind == "map" else []
        path = self._child_path(event)
        frame = _Frame(kind, container, path, event.anchor)
        if event.anchor:
            self.open_anchors.add(event.anchor)
        self._place(container, event, path)
        self.stack.append(frame)
        self._count(1, event)

    def _close(self) -> None:
        frame = self.stack.pop()
        if frame.kind == "map" and frame.merges:
            for merged in frame.merges:
                for k, v in merged.items():
                    frame.value.setdefault(k, v)
        if frame.anchor:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (frame.value, frame.size)
        if self.stack:
            self.stack[-1].size += frame.size

    def _child_path(self, event) -> PathKey:
        if not self.stack:
            return ()
        top = self.stack[-1]
        if top.kind == "seq":
            return top.path + (len(top.value),)
        if top.key is None:
            self._refuse("Y010", "a mapping key must be plain text, not a list or mapping", event)
        return top.key_path

    def _place(self, value: Any, event, path: PathKey, located: bool = True) -> None:
        """Put a finished (or just opened) node where it belongs."""
        if located:
            self.doc.spans[path] = _pack(self._span(event))
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if top.kind == "seq":
            top.value.append(value)
            return
        key = top.key
        top.key = None
        if key == "<<":
            merges = value if isinstance(value, list) else [value]
            if not all(isinstance(m, dict) for m in merges):
                self._refuse("Y010", "a merge key `<<` takes a mapping or a list of mappings", event)
            top.merges.extend(merges)
            return
        top.value[key] = value

    def _add(self, value: Any, event, size: int, located: bool = True) -> None:
        self._count(size, event)
        if self.stack and self.stack[-1].kind == "map" and self.stack[-1].key is None:
            self._key(value, event)
            return
        path = self._child_path(event)
        self._place(value, event, path, located)
        if located and isinstance(value, str) and isinstance(event, ScalarEvent):
            self.doc.scalar_starts[path] = event.start_mark.index
        if isinstance(event, ScalarEvent) and event.anchor:
            self.anchors[event.anchor] = (value, size)
        if self.stack:
            self.stack[-1].size += size

    def _key(self, value: Any, event) -> None:
        top = self.stack[-1]
        if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
            self._refuse("Y010", f"mapping key `{event.value if hasattr(event, 'value') else '*'}`"
                         " must be text or a number", event, "quote the key")
        if isinstance(value, float) and not math.isfinite(value):
            self._refuse("Y010", "a mapping key must be text or a finite number", event)
        key = value if isinstance(value, str) else _number_key(value)
        span = self._span(event)
        if key in top.keys_seen and key != "<<":
            first = top.keys_seen[key]
            self.diagnostics.append(
                error("Y007", f"key `{key}` appears twice in this mapping (first on line {first.line})",
                      span, "remove or rename one of them")
            )
        top.keys_seen.setdefault(key, span)
        top.key = key
        top.key_path = top.path + (key,)
        self.doc.key_spans[top.key_path] = _pack(span)


def _number_key(value: int | float) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# YAML 1.2 core schema resolution for plain scalars.
_NULL = {"", "~", "null", "Null", "NULL"}
# the longest whole number read: far past any count, Health or cost (and Python reads no more than
# 4,300 digits into an int)
MAX_NUMBER_CHARS = 20
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_INT = re.compile(r"[-+]?[0-9]+$")
_OCT = re.compile(r"0o[0-7]+$")
_HEX = re.compile(r"0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)$")
_NAN = re.compile(r"\.(nan|NaN|NAN)$")


def _scalar(event: ScalarEvent) -> Any:
    value = event.value
    plain = event.style in (None, "") and (event.implicit is None or event.implicit[0])
    if not plain:
        return value
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.match(value):
        return int(value)
    if _OCT.match(value):
        return int(value[2:], 8)
    if _HEX.match(value):
        return int(value[2:], 16)
    if _FLOAT.match(value):
        return float(value)
    if _INF.match(value):
        return -math.inf if value.startswith("-") else math.inf
    if _NAN.match(value):
        return math.nan
    return value
