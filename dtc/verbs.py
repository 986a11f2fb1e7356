"""Verbs: a hero's own phrases (`take {n} Steps`) as macros over the core language.

A verb has one or more `say` patterns and a `means` text in the core language
that may use the pattern's parameters.  A phrase in effect text matches a
pattern word for word (ignoring case and a plural `s`), each `{param}`
capturing the words in its place.  The expansion is the `means` AST with each
parameter replaced: in a number's place the argument is parsed as an amount
(`2`, `up to 2`, `1 or 2`); in a name's place it is the words themselves.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cache
from typing import Any

from dtc import nodes as n
from dtc.parser import keyword_text, lark_parser, parse_amount

_PARAM = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
MAX_PATTERN_WORDS = 40  # far past any printed phrase; the matcher's depth is the pattern's length


@dataclass
class Pattern:
    """One `say` pattern, compiled: its items in order, each a word's regex or a parameter's name."""

    text: str
    items: list[tuple[str, Any]]  # ("word", compiled regex) or ("param", name)
    params: list[str]
    literal_length: int

    def match(self, text: str) -> dict[str, str] | None:
        """The words each parameter captures when `text` is the pattern (None when it is not): words
        match ignoring case and a plural `s`, a parameter takes one or more whole words, the earlier
        ones as few as they can. Each (item, word) pair is tried once at most: time grows with the
        pattern's length times the text's, squared at worst, never exponentially (issue "Hardening":
        eight parameters and 45 words took 19 s as one regex)."""
        words = text.split()
        items = self.items
        failed: set[tuple[int, int]] = set()
        taken: list[tuple[str, int, int]] = []

        def fits(i: int, w: int) -> bool:
            if i == len(items):
                return w == len(words)
            if (i, w) in failed:
                return False
            kind, what = items[i]
            if kind == "word":
                if w < len(words) and what.fullmatch(words[w]) and fits(i + 1, w + 1):
                    return True
            else:
                # a parameter before the last item leaves a word for each item after it
                for end in range(w + 1, len(words) - (len(items) - i - 1) + 1):
                    taken.append((what, w, end))
                    if fits(i + 1, end):
                        return True
                    taken.pop()
            failed.add((i, w))
            return False

        if not fits(0, 0):
            return None
        return {name: " ".join(words[start:end]) for name, start, end in taken}


def compile_pattern(text: str) -> Pattern:
    """`text` as a Pattern: words match ignoring case and plural `s`; `{x}` captures."""
    items: list[tuple[str, Any]] = []
    params = []
    literal = 0
    for token in text.split():
        m = _PARAM.fullmatch(token)
        if m:
            params.append(m.group(1))
            items.append(("param", m.group(1)))
        else:
            literal += len(token)
            items.append(("word", re.compile(_word_regex(token), re.IGNORECASE)))
    return Pattern(text, items, params, literal)


def _word_regex(word: str) -> str:
    stem = word[:-1] if word.lower().endswith("s") and len(word) > 3 else word
    return re.escape(stem) + r"(?:s|es)?"


@cache
def core_keywords() -> frozenset[str]:
    """Every keyword of the core grammar (`deal`, `gain`, `the`, ...), lowercased."""
    words = set()
    for t in lark_parser().terminals:
        word = keyword_text(t)
        if word is not None and re.fullmatch(r"[A-Za-z'’-]+", word):
            words.add(word.lower())
    return frozenset(words)


def pattern_problems(text: str) -> list[str]:
    """Why a `say` pattern cannot be used (empty when it can)."""
    words = text.split()
    if not words:
        return ["the pattern is empty"]
    if len(words) > MAX_PATTERN_WORDS:
        return [f"a pattern has at most {MAX_PATTERN_WORDS} words ({len(words)} here)"]
    if _PARAM.fullmatch(words[0]):
        return ["a pattern must start with a word, not a parameter"]
    first = words[0].lower()
    if first in core_keywords():
        return [f"a pattern cannot start with `{words[0]}`, a word of the core language; "
                "start it with a word of its own"]
    if not re.fullmatch(r"[A-Za-z][A-Za-z'’!-]*", words[0]):
        return [f"a pattern must start with a plain word, not `{words[0]}`"]
    params = _PARAM.findall(text)
    if len(params) != len(set(params)):
        return ["a parameter appears twice in the pattern"]
    stray = re.sub(_PARAM, "", text)
    if "{" in stray or "}" in stray:
        return ["parameters are written `{name}` in lowercase letters"]
    return []


@dataclass
class Match:
    verb: Any  # dtc.model.Verb
    pattern: Pattern
    args: dict[str, str]


def match(text: str, verbs: list) -> list[Match]:
    """The verb patterns `text` matches, most specific (most literal words) first."""
    found = []
    for verb, patterns in verbs:
        for p in patterns:
            args = p.match(text)
            if args is not None:
                found.append(Match(verb, p, args))
    found.sort(key=lambda m: -m.pattern.literal_length)
    return found


def suggest(text: str, verbs: list) -> str | None:
    """The pattern closest to `text`, to offer as `did you mean`."""
    shapes = {}
    for _, patterns in verbs:
        for p in patterns:
            shapes[_PARAM.sub("N", p.text).lower()] = p.text
    shape = re.sub(r"\b(up to \d+|\d+ or \d+|\d+)\b", "N", text).lower()
    close = difflib.get_close_matches(shape, list(shapes), n=1, cutoff=0.5)
    return shapes[close[0]] if close else None


# ------------------------------------------------------------- substitution


class ArgumentError(Exception):
    """A verb argument does not fit where the `means` uses it."""


def substitute(body: tuple, args: dict[str, str]) -> tuple:
    """The `means` body with parameters replaced by the call's arguments."""
    return tuple(_sub(node, args) for node in body)


def _sub(node: Any, args: dict[str, str]) -> Any:
    if isinstance(node, tuple):
        return tuple(_sub(x, args) for x in node)
    if isinstance(node, n.Param):
        return _amount(node.name, args)
    if isinstance(node, n.VerbCall):
        text = _PARAM.sub(lambda m: args.get(m.group(1), m.group(0)), node.text)
        return replace(node, text=text)
    if isinstance(node, str):
        m = _PARAM.fullmatch(node)
        return args.get(m.group(1), node) if m else node
    if not is_dataclass(node) or isinstance(node, n.Offsets):
        return node
    changes = {f.name: _sub(getattr(node, f.name), args) for f in fields(node) if f.name != "span"}
    return replace(node, **changes)


def _amount(name: str, args: dict[str, str]) -> Any:
    text = args.get(name)
    if text is None:
        raise ArgumentError(f"`{{{name}}}` is not a parameter of this verb")
    amount, problems = parse_amount(text)
    if problems or amount is None:
        raise ArgumentError(f"`{{{name}}}` stands for a number here (`2`, `up to 2`, `1 or 2`); "
                            f"got `{text}`")
    return amount
