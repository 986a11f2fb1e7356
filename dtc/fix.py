"""Fixes: diagnostics and the source text in; each unambiguous `did you mean` as an edit out.

A diagnostic whose hint is exactly "did you mean `X`?" names one replacement for a misspelled name
or word, whichever stage wrote it.  `derive` gives such a diagnostic its `fix` (the text that
replaces its span) when the replacement can be placed safely; `apply` (`dtc lint --fix`) writes
the fixes of some files in place.  The rules:

* one suggestion only: "did you mean `A` or `B`?", or any other hint, is left alone; so is a
  suggestion with a placeholder (a verb's pattern, `gain {n} CP`), which is no text to write;
* the misspelled text is what the message names between backticks (or, when it names nothing
  that fits, the span's text itself, word for word), found exactly once in the span's source text
  as whole words; a symbol keeps its brackets as written (`[Clwa]` -> `[Claw]`, `Clwa` in a
  `requires:` list -> `Claw`);
* it is replaced when it differs from the suggestion at all, case included: the lint matches names
  without regard to case, so a diagnostic on a case-only difference (a key `Effect`) means the
  case matters there;
* words split over lines of a folded scalar are replaced word by word, the line breaks kept;
* the file must read the same but for that one word: with the edit made, its YAML has the same
  structure and the same values but the one scalar, whose value changes by just that word (the
  comments, quoting and layout are never touched).  A fix that fails any of these is not placed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import ScalarEvent
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver

from dtc import project
from dtc.diagnostics import Diagnostic
from dtc.source import SourceFile, Span, display_path

MAX_ROUNDS = 5  # a fix can let a check run that a schema error held back: lint again, a few times
SIMILAR = 0.5  # how alike the misspelled text and the suggestion must be (difflib ratio)
_SUGGESTION = re.compile(r"did you mean `([^`]+)`\?")
_BACKTICKED = re.compile(r"`([^`]+)`")
_YAML = YAML(typ="safe")
_RESOLVER = VersionedResolver()


class CannotPlace(Exception):
    """A suggestion that cannot be written safely where the diagnostic points; says why."""


@dataclass(frozen=True)
class Edit:
    """One change to a file's text: characters `start` to `end` (`old`) become `new`."""

    start: int
    end: int
    old: str
    new: str


def suggestion(hint: str | None) -> str | None:
    """The one replacement a hint of the form "did you mean `X`?" names, or None."""
    found = _SUGGESTION.fullmatch(hint.strip()) if hint else None
    if found is None or "{" in found.group(1):
        return None
    return found.group(1)


def lint(paths: list[Path]) -> project.Result:
    """Lint `paths` (`dtc lint`), the diagnostics given their fixes."""
    result = project.run(paths, keep_heroes=False)  # a lint needs no heroes kept: memory
    result.diagnostics = derive(result.diagnostics, result.sources)
    return result


def derive(diagnostics: list[Diagnostic], sources: dict[str, SourceFile]) -> list[Diagnostic]:
    """The diagnostics, each unambiguous `did you mean` that can be placed given its `fix`."""
    events: dict[str, list | None] = {}
    out = []
    for d in diagnostics:
        source = sources.get(d.span.path) if d.span is not None else None
        if source is not None and d.fix is None and suggestion(d.hint) is not None:
            try:
                edit = place(d, source.text, events)
            except CannotPlace:
                edit = None
            if edit is not None:
                start, end = span_offsets(source.text, d.span)
                text = source.text
                d = replace(d, fix=text[start:edit.start] + edit.new + text[edit.end:end])
        out.append(d)
    return out


def place(d: Diagnostic, text: str, events: dict | None = None) -> Edit | None:
    """The edit that writes the suggestion of `d` into `text`; None when the text already reads so.
    Raises CannotPlace when it cannot be placed safely.  `events` caches the parse of `text`."""
    new = suggestion(d.hint)
    if new is None or d.span is None:
        return None
    start, end = span_offsets(text, d.span)
    edit = _spot(d, text, start, end, new)
    if edit.old == edit.new:
        return None
    events = {} if events is None else events
    if d.span.path not in events:
        events[d.span.path] = _events(text)
    before = events[d.span.path]
    if before is None or not _keeps_the_yaml(text, edit, before):
        raise CannotPlace("the file would read differently around it (quoting or YAML syntax)")
    return edit


def span_offsets(text: str, span: Span) -> tuple[int, int]:
    """The character offsets in `text` of a span's start and end (CannotPlace when it is not in it)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def offset(line: int, col: int) -> int:
        if not 1 <= line <= len(starts):
            raise CannotPlace("the diagnostic points outside the file")
        line_end = starts[line] - 1 if line < len(starts) else len(text)
        if not 1 <= col <= line_end - starts[line - 1] + 1:
            raise CannotPlace("the diagnostic points outside its line")
        return starts[line - 1] + col - 1

    start, end = offset(span.line, span.col), offset(span.end_line, span.end_col)
    if end <= start:
        raise CannotPlace("the diagnostic points at no text")
    return start, end


def _spot(d: Diagnostic, text: str, start: int, end: int, new: str) -> Edit:
    """Where in the span the misspelled text is, and what it becomes."""
    shown = text[start:end]
    best: tuple[float, re.Match, str] | None = None
    for wrong in _candidates(d.message, shown, new):
        old_word, new_word = _brackets(wrong, new)
        found = list(_whole_words(old_word).finditer(shown))
        if len(found) != 1:
            continue
        score = difflib.SequenceMatcher(None, old_word.casefold(), new_word.casefold()).ratio()
        if score >= SIMILAR and (best is None or score > best[0]):
            best = (score, found[0], new_word)
    if best is None:
        raise CannotPlace("the text it points at is not the misspelled word")
    _, match, new_word = best
    old = match.group()
    return Edit(start + match.start(), start + match.end(), old, _word_by_word(old, new_word))


def _candidates(message: str, shown: str, new: str) -> list[str]:
    """What the misspelled text may be: each name in backticks in the message, then the span's own
    text when it has as many words as the suggestion."""
    out = _BACKTICKED.findall(message)
    if len(shown.split()) == len(new.split()):
        out.append(shown)
    return out


def _brackets(wrong: str, new: str) -> tuple[str, str]:
    """The misspelled text and its replacement, both with brackets or both without."""
    if _bracketed(new) and not _bracketed(wrong):
        return wrong, new[1:-1]
    if _bracketed(wrong) and not _bracketed(new):
        return wrong[1:-1], new
    return wrong, new


def _bracketed(s: str) -> bool:
    return len(s) > 2 and s[0] == "[" and s[-1] == "]"


def _whole_words(words: str) -> re.Pattern:
    """`words` as whole words in source text: any run of whitespace (a folded line break) between
    them, any case."""
    parts = words.split()
    body = r"\s+".join(re.escape(p) for p in parts) if parts else re.escape(words)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def _word_by_word(old: str, new: str) -> str:
    """`new` written where `old` is, keeping the whitespace between `old`'s words when both have as
    many words (a line break in a folded scalar stays where it was)."""
    gaps = re.findall(r"\s+", old)
    words = new.split()
    if len(words) == len(gaps) + 1 and gaps:
        return "".join(w + g for w, g in zip(words, gaps + [""], strict=True))
    if "\n" in old:
        raise CannotPlace("the name is split over lines and the suggestion has other words")
    return new


def _events(text: str) -> list | None:
    """The YAML event stream of `text`, or None when it does not read as YAML."""
    try:
        return list(_YAML.parse(text))
    except (YAMLError, RecursionError, ValueError):
        return None


def _keeps_the_yaml(text: str, edit: Edit, before: list) -> bool:
    """Whether `text` with `edit` made reads as before but for one scalar, changed by that word."""
    after = _events(text[:edit.start] + edit.new + text[edit.end:])
    if after is None or len(after) != len(before):
        return False
    changed = []
    for a, b in zip(before, after, strict=True):
        if type(a) is not type(b) or getattr(a, "tag", None) != getattr(b, "tag", None):
            return False
        if isinstance(a, ScalarEvent) and a.value != b.value:
            changed.append((a, b))
    if len(changed) != 1:
        return False
    a, b = changed[0]
    if a.style != b.style:
        return False
    if a.implicit[0] and _resolved(a.value) != _resolved(b.value):  # text stays text, never a number
        return False
    old, new, value = _squash(edit.old), _squash(edit.new), _squash(a.value)
    return any(value[:i] + new + value[i + len(old):] == _squash(b.value)
               for i in range(len(value)) if value.startswith(old, i))


def _resolved(value: str) -> str:
    return _RESOLVER.resolve(ScalarNode, value, (True, False))


def _squash(text: str) -> str:
    return " ".join(text.split())


# ----------------------------------------------------------------- in place


@dataclass(frozen=True)
class Change:
    """A fix written: where (the misspelled text's place before the change), what, into what (a
    line break between words read as a space)."""

    path: str
    line: int
    col: int
    old: str
    new: str


@dataclass
class Outcome:
    """What `apply` did: the changes written, the fixes it could not place (the diagnostic and
    why), the files written, and the lint of the files as they are now."""

    result: project.Result | None = None
    changes: list[Change] = field(default_factory=list)
    skipped: list[tuple[Diagnostic, str]] = field(default_factory=list)
    files: set[str] = field(default_factory=set)


def apply(paths: list[Path]) -> Outcome:
    """Lint `paths` and write every fix that can be placed into the files found under them (never
    a file outside them, such as the built-in rules), lint after lint until none is left; the last
    lint is of the files as written."""
    outcome = Outcome()
    own = {display_path(path): path for path in project.discover(paths)[0]}
    for round_ in range(MAX_ROUNDS + 1):
        result = outcome.result = lint(paths)
        if round_ == MAX_ROUNDS or result.usage_error:
            break
        fixable: dict[str, list[Diagnostic]] = {}
        for d in result.diagnostics:
            if d.span is not None and d.span.path in own and d.span.path in result.sources \
                    and d.suppressed is None and suggestion(d.hint) is not None:
                fixable.setdefault(d.span.path, []).append(d)
        outcome.skipped = []
        written = sum(_fix_file(own[shown], result.sources[shown], diags, outcome)
                      for shown, diags in fixable.items())
        if not written:
            break
    return outcome


def _fix_file(path: Path, source: SourceFile, fixable: list[Diagnostic], outcome: Outcome) -> int:
    """Write the fixes of one file; the number written."""
    skipped = outcome.skipped
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        skipped.extend((d, f"the file cannot be read again: {exc}") for d in fixable)
        return 0
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text.removeprefix(bom)
    if text != source.text:
        skipped.extend((d, "the file changed while it was linted") for d in fixable)
        return 0
    edits = _edits(text, fixable, skipped)
    if not edits:
        return 0
    for edit in sorted(edits, reverse=True, key=lambda e: e.start):  # from the end: offsets hold
        text = text[:edit.start] + edit.new + text[edit.end:]
    before, after = _events(source.text), _events(text)
    if before is None or after is None or [type(e) for e in before] != [type(e) for e in after]:
        skipped.extend((d, "its fixes together would change the YAML") for d in fixable)
        return 0
    from dtc import artifact  # its atomic write: a failure leaves the file as it was

    try:
        artifact.write(path, (bom + text).encode("utf-8"))
    except OSError as exc:
        skipped.extend((d, f"the file cannot be written: {exc.strerror or exc}") for d in fixable)
        return 0
    shown = fixable[0].span.path
    for edit in sorted(edits, key=lambda e: e.start):
        line, col = source.line_col(edit.start)
        outcome.changes.append(Change(shown, line, col, _squash(edit.old), _squash(edit.new)))
    outcome.files.add(shown)
    return len(edits)


def _edits(text: str, fixable: list[Diagnostic], skipped: list) -> list[Edit]:
    """The edits of one file's fixes that can be placed, none overlapping another."""
    events: dict = {}
    edits: list[Edit] = []
    for d in fixable:
        try:
            edit = place(d, text, events)
        except CannotPlace as why:
            skipped.append((d, str(why)))
            continue
        if edit is None or edit in edits:
            continue
        if any(edit.start < e.end and e.start < edit.end for e in edits):
            skipped.append((d, "another fix changes the same text"))
            continue
        edits.append(edit)
    return edits
