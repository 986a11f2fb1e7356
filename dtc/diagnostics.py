"""Diagnostics: problems found by any stage, and their renderings.

A stage never raises at the user and never prints: it returns `Diagnostic`s.
This module holds the one table of diagnostic codes and turns diagnostics into
text (rustc style), JSON, GitHub Actions annotations or SARIF 2.1.0.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import PurePosixPath
from urllib.parse import quote

from dtc.source import SourceFile, Span, hidden_character, looks_like_a_space


class Findings:
    """What a lint found (`diagnostics`): its errors and warnings, those `allow` covers left out."""

    diagnostics: list

    @property
    def errors(self) -> list:
        return [d for d in self.diagnostics if d.severity == "error" and d.suppressed is None]

    @property
    def warnings(self) -> list:
        return [d for d in self.diagnostics if d.severity == "warning" and d.suppressed is None]


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Code:
    """One row of the code table: `Y001` + kebab-case name + what it means."""

    code: str
    name: str
    summary: str


# Stage letters: Y yaml (load), S schema, P parse, C check.  Codes are never reused:
# a retired code (C004, C013) stays unassigned.
CODES: dict[str, Code] = {
    c.code: c
    for c in [
        Code("Y001", "file-too-large", "the file is over the size limit"),
        Code("Y002", "not-utf8", "the file is not UTF-8 text"),
        Code("Y003", "yaml-syntax", "the file is not valid YAML"),
        Code("Y004", "tag-refused", "YAML tags are not allowed in content"),
        Code("Y005", "alias-bomb", "aliases expand to too many nodes"),
        Code("Y006", "nesting-too-deep", "the document is nested too deeply"),
        Code("Y007", "duplicate-key", "a mapping has the same key twice"),
        Code("Y008", "document-count", "a content file holds exactly one YAML document"),
        Code("Y009", "unreadable", "the file cannot be read"),
        Code("Y010", "bad-key", "mapping keys must be plain text or numbers"),
        Code("Y011", "recursive-alias", "an alias refers to a node that contains it"),
        Code("Y012", "compiled-ruleset", "a compiled ruleset (.dtcb) was given where content is read"),
        Code("Y013", "number-too-long", "a number is written with more digits than any content needs"),
        Code("Y014", "hidden-character", "text holds a character that cannot be seen for what it is"),
        Code("S001", "schema", "the document does not match its schema"),
        Code("S002", "unknown-kind", "the document kind is not known"),
        Code("S003", "unknown-key", "a key is not allowed here"),
        Code("S004", "missing-key", "a required key is missing"),
        Code("P001", "unexpected-token", "effect text does not parse"),
        Code("P002", "unexpected-end", "effect text ends too early"),
        Code("P003", "run-together", "a number and a word are written without a space"),
        Code("P004", "unexpected-character", "effect text has a character the language does not use"),
        Code("C001", "unknown-symbol", "a dice symbol is not on the hero's dice"),
        Code("C002", "unknown-status", "a status effect is not known"),
        Code("C003", "unknown-component", "a component (dial, track, form, zone) is not known"),
        Code("C005", "unknown-verb", "a phrase matches no verb of the language or of the hero"),
        Code("C006", "impossible-requirement", "no roll of the hero's dice can meet this requirement"),
        Code("C007", "unreachable-condition", "a condition can never hold here"),
        Code("C008", "duplicate-name", "two things have the same name"),
        Code("C009", "upgrade-without-ability", "an upgrade card names an ability the hero does not have"),
        Code("C010", "out-of-range", "a number is outside its allowed range"),
        Code("C011", "unknown-damage-type", "a damage type is not in the ruleset's chart"),
        Code("C012", "unknown-phase", "a phase is not in the ruleset"),
        Code("C014", "verb-recursion", "verbs expand into each other forever"),
        Code("C015", "bad-verb-argument", "a verb's argument does not fit where it is used"),
        Code("C016", "misplaced", "a construct is used where it has no meaning"),
        Code("C017", "unknown-value", "a form, side, position or slot is not known"),
        Code("C018", "unknown-card-type", "a card type or zone is not known"),
        Code("C019", "ast-schema", "a parsed effect does not match the effect schema (a dtc bug)"),
        Code("C020", "bad-verb", "a verb definition cannot be used"),
        Code("C021", "no-ruleset", "no ruleset is available to check against"),
        Code("C022", "missing-trigger", "a triggered effect does not say when it happens"),
        Code("C023", "bad-allow", "an `allow` entry names no known warning"),
        Code("C024", "unknown-name",
             "a guild, die, reward, sheet, Domain, Lair or Citizen section is not known"),
        Code("C025", "unknown-pip", "a pip is written with a mark that is no reward's"),
        Code("C026", "unreachable", "a Domain no road reaches, or a starting pip no road leaves"),
        Code("C027", "shadowed-status", "a hero's status effect has the name of a shared one"),
        Code("C028", "over-stack-limit",
             "more tokens gained or inflicted at once than the stack limit holds"),
        Code("C029", "spent-for-nothing", "a spendable status effect has no `When spent` effect"),
        Code("C030", "zone-holds-other",
             "cards of one type are placed on or used from a zone that holds another"),
        Code("C031", "zone-holds-no-card", "a zone holds a card type that no card of the deck has"),
        Code("C032", "blueprint-beyond-deck", "a blueprint needs more cards of a symbol than the deck has"),
        Code("C033", "side-without-effect", "a component's side has no effect of its own"),
        Code("C034", "aimed-at-oneself", "an ability aims at the Attacker or Defender that is its own hero"),
        Code("C035", "upgrade-cheaper", "a higher level of an upgrade costs no more than a lower one"),
        Code("C036", "label-mismatch", "the text says what a card or token is, and its YAML fields disagree"),
        Code("C037", "mode-seats",
             "a game mode's teams, turn order, shared dial or targeting do not fit its players"),
        Code("C038", "adventure-map",
             "a Portal Crawl map, or what it places and draws, cannot be played as the rulebook says"),
        Code("C039", "icon-file",
             "an icon named in a hero's `dice: icons:` is for no symbol of its dice, or its file is "
             "missing or not an SVG or PNG image"),
        Code("C040", "dice-too-many",
             "a hero's dice fall in more ways than the exact odds and the bots can weigh"),
        Code("C041", "lexicon-not-read",
             "a lexicon other than the built-in one: the language's words are its own, and it is not read"),
    ]
}

CODE_BY_NAME: dict[str, Code] = {c.name: c for c in CODES.values()}


@dataclass(frozen=True)
class Diagnostic:
    """One problem: where, how bad, what, and how to fix it."""

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    hint: str | None = None
    suppressed: str | None = None  # the author's reason, when an `allow` covers it
    notes: tuple[str, ...] = field(default=())
    # the text that replaces the span, from a hint "did you mean `X`?" (`dtc.fix`; `dtc lint --fix`)
    fix: str | None = None

    @property
    def name(self) -> str:
        return CODES[self.code].name

    def with_note(self, note: str) -> Diagnostic:
        return replace(self, notes=self.notes + (note,))

    def to_json(self) -> dict:
        out = {
            "code": self.code,
            "name": self.name,
            "severity": str(self.severity),
            "message": self.message,
        }
        if self.span is not None:
            out.update(self.span.to_json())
        if self.hint:
            out["hint"] = self.hint
        if self.fix is not None:
            out["fix"] = self.fix
        if self.notes:
            out["notes"] = list(self.notes)
        if self.suppressed is not None:
            out["suppressed"] = self.suppressed
        return out


def error(code: str, message: str, span: Span | None = None, hint: str | None = None) -> Diagnostic:
    """An error diagnostic."""
    return Diagnostic(code, Severity.ERROR, message, span, hint)


def warning(code: str, message: str, span: Span | None = None, hint: str | None = None) -> Diagnostic:
    """A warning diagnostic."""
    return Diagnostic(code, Severity.WARNING, message, span, hint)


def sort_key(d: Diagnostic) -> tuple:
    s = d.span
    if s is None:
        return ("", 0, 0, d.code, d.message)
    return (s.path, s.line, s.col, d.code, d.message)


# ----------------------------------------------------------------- renderings


def render_text(d: Diagnostic, sources: dict[str, SourceFile], color: bool = False) -> str:
    """rustc style: `path:line:col: error[C001]: message`, the line, a caret, help."""
    sev = str(d.severity)
    if color:
        sev = {"error": "\x1b[1;31merror", "warning": "\x1b[1;33mwarning", "note": "\x1b[1;36mnote"}[
            sev
        ] + "\x1b[0m"
    where = f"{d.span.path}:{d.span.line}:{d.span.col}: " if d.span else ""
    lines = [f"{where}{sev}[{d.code}]: {d.message}"]
    src = sources.get(d.span.path) if d.span else None
    if d.span and src is not None:
        text = src.line_text(d.span.line)
        if text:
            gutter = str(d.span.line)
            pad = " " * len(gutter)
            width = d.span.end_col - d.span.col if d.span.end_line == d.span.line else len(text)
            width = max(1, min(width, len(text) - d.span.col + 1))
            shown, caret = _snippet(text, d.span.col - 1, width)
            lines += [f"{pad} |", f"{gutter} | {shown}", f"{pad} | {caret}"]
    for note in d.notes:
        lines.append(f"  = note: {note}")
    if d.hint:
        lines.append(f"  = help: {d.hint}")
    return "\n".join(lines)


SNIPPET_WIDTH = 160  # characters of a long line shown around the column


def _snippet(text: str, start: int, width: int) -> tuple[str, str]:
    """The source line as shown (a long one cut around the place, control characters made visible)
    and its caret line, aligned under tabs and wide characters as a terminal draws them."""
    if len(text) > SNIPPET_WIDTH:
        left = max(0, start - SNIPPET_WIDTH // 3)
        right = min(len(text), left + SNIPPET_WIDTH)
        text = ("…" if left else "") + text[left:right] + ("…" if right < len(text) else "")
        start += (1 if left else 0) - left
        width = min(width, len(text) - start)
    shown = "".join("\ufffd" if _unseen(ch) else ch for ch in text)
    caret = "".join("\t" if ch == "\t" else " " * _cells(ch) for ch in shown[:start])
    caret += "^" * max(1, sum(_cells(ch) for ch in shown[start:start + width]))
    return shown, caret


def _unseen(ch: str) -> bool:
    """A control character, or one that prints as nothing (a right-to-left override would turn the
    line around): shown as U+FFFD so the caret stays under it."""
    if ch < " " or ch == "\x7f":
        return ch != "\t"
    return hidden_character(ch) == 0 and not looks_like_a_space(ch)


def _cells(ch: str) -> int:
    """Terminal columns a character takes: two for East Asian wide and full-width ones (emoji too)."""
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def render_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command, so the message lands on the right line."""
    kind = {"error": "error", "warning": "warning", "note": "notice"}[str(d.severity)]
    if d.suppressed is not None:  # an allowed warning, shown on request: a notice, with its reason
        kind = "notice"
    props = [f"title={_gh_prop(d.code + ' ' + d.name)}"]
    if d.span:
        props = [
            f"file={_gh_prop(d.span.path)}",
            f"line={d.span.line}",
            f"col={d.span.col}",
            f"endLine={d.span.end_line}",
            f"endColumn={d.span.end_col}",
        ] + props
    message = d.message + (f" (help: {d.hint})" if d.hint else "")
    if d.suppressed is not None:
        message += f" (allowed: {' '.join(d.suppressed.split())})"
    return f"::{kind} {','.join(props)}::{_gh_data(message)}"


def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def render_json(diags: list[Diagnostic], files: int) -> str:
    """Machine-readable: every diagnostic (suppressed ones marked) and a summary."""
    live = [d for d in diags if d.suppressed is None]
    payload = {
        "version": 1,
        "files": files,
        "errors": sum(1 for d in live if d.severity == Severity.ERROR),
        "warnings": sum(1 for d in live if d.severity == Severity.WARNING),
        "suppressed": len(diags) - len(live),
        "diagnostics": [d.to_json() for d in diags],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False)


def render_sarif(diags: list[Diagnostic], version: str) -> str:
    """SARIF 2.1.0 for code scanning; suppressed warnings carry their justification."""
    used = sorted({d.code for d in diags})
    rules = [
        {
            "id": code,
            "name": CODES[code].name,
            "shortDescription": {"text": CODES[code].summary},
        }
        for code in used
    ]
    index = {code: i for i, code in enumerate(used)}
    results = []
    for d in diags:
        result: dict = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": str(d.severity),
            "message": {"text": d.message + (f"\nhelp: {d.hint}" if d.hint else "")},
        }
        if d.span:
            result["locations"] = [
                {
                    "physicalLocation": {
                        "artifactLocation": _sarif_location(d.span.path),
                        "region": {
                            "startLine": d.span.line,
                            "startColumn": d.span.col,
                            "endLine": d.span.end_line,
                            "endColumn": d.span.end_col,
                        },
                    }
                }
            ]
        if d.fix is not None and d.span:
            result["fixes"] = [_sarif_fix(d)]
        if d.suppressed is not None:
            result["suppressions"] = [{"kind": "inSource", "justification": d.suppressed}]
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dtc",
                        "version": version,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",  # columns count characters, not UTF-16 units
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _sarif_fix(d: Diagnostic) -> dict:
    """A SARIF fix: the diagnostic's span replaced by its `fix` (what `dtc lint --fix` writes)."""
    region = {"startLine": d.span.line, "startColumn": d.span.col,
              "endLine": d.span.end_line, "endColumn": d.span.end_col}
    return {
        "description": {"text": d.hint},
        "artifactChanges": [{
            "artifactLocation": _sarif_location(d.span.path),
            "replacements": [{"deletedRegion": region, "insertedContent": {"text": d.fix}}],
        }],
    }


def _sarif_location(path: str) -> dict:
    """A SARIF artifactLocation: a relative path as a percent-encoded URI reference from the
    source root (where dtc ran), an absolute one as a `file:` URI."""
    posix = path.replace("\\", "/")
    if PurePosixPath(posix).is_absolute():
        return {"uri": PurePosixPath(posix).as_uri()}
    return {"uri": quote(posix), "uriBaseId": "%SRCROOT%"}
