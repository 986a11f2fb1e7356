"""Phrasebook: printed card text in, the core language's text and a map back to the print out.

Cards print the same thing many ways ("take 3 damage", "is dealt 3 dmg", "receive
three dmg").  The grammar holds structure; the phrasebook, a content document
(`content/rules/phrasebook.yaml`), holds the fixed phrasings and synonyms, each
a `say` pattern and the core text it `means`.  `read` rewrites a text with
them before it is parsed and keeps, for every character of the rewritten text,
the span of printed text it came from, so diagnostics and AST spans still point
at what the designer wrote.

Patterns match whole words, ignoring case and a plural `s`.  A parameter named
`{n}`, `{m}`, `{k}`, `{amount}` or `{count}` captures an amount (`3`, `up to 2`,
`1 or 2`); `{kind}`, `{type}` and `{word}` one word; any other `{name}` the
words in its place, within one clause (never across `.`, `:` or `;`).  Rewriting repeats until nothing
changes, so phrases build on each other ("takes three damage" -> "takes 3
dmg" -> "receive 3 dmg"); a phrasebook that never settles is reported.

Numbers written against a word (`3CP`, `2dmg`), as cards often print them, are
spaced first; that is a style warning, not an error.

Before the phrases, every text is read through the lexicon (`content/rules/lexicon.yaml`, the
built-in one: it is part of the language, like the grammar): word-level knowledge that applies
wherever a word can stand — number words (`two` -> `2`, `one of your dice`) and synonyms
(`outcome` -> `result`, `randomly` -> `at random`). The phrasebook's own `say` patterns are read
through it too, so a phrase is written once, in the language's words.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

from dtc.resources import data_dir

AMOUNT_PARAMS = frozenset({"n", "m", "k", "amount", "count"})
WORD_PARAMS = frozenset({"kind", "type", "word"})  # one word: `take {n} {kind} dmg`
MAX_PASSES = 8
MAX_PARAMS = 4
_PARAM = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_PARAM_THEN_MARK = re.compile(r"\{([a-z_][a-z0-9_]*)\}([,.;:!?)]*)")
_AMOUNT = r"(?:up to \d+|\d+ or \d+|\d+)"
_SHIELDED = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\"[^\"]*\"|“[^”]*”")
_WORD = re.compile(r"[A-Za-z0-9'’]+")
_SEAM = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
_BOUNDARY_BEFORE = r"(?<![A-Za-z0-9'’-])"
_BOUNDARY_AFTER = r"(?![A-Za-z0-9'’-])"


@dataclass(frozen=True)
class Phrase:
    """One `say` pattern of the phrasebook and the core text it means."""

    say: str
    means: str
    regex: re.Pattern = field(compare=False, repr=False)
    params: tuple[str, ...] = field(compare=False, repr=False)
    first: str = field(compare=False, repr=False)  # the stem of its first word, to find it fast
    literal_length: int = field(compare=False, repr=False)


@dataclass(frozen=True)
class Phrasebook:
    """Phrases by the stem of their first word, longest first; hashed by their text.

    `names` are the content's own names (statuses, components, forms ...): never rewritten, so a
    status called `Heavy Damage` stays itself while `3 damage` reads `3 dmg`."""

    phrases: tuple[Phrase, ...] = field(compare=False, repr=False)
    key: str = ""
    by_first: dict = field(default_factory=dict, compare=False, repr=False, hash=False)
    names: re.Pattern | None = field(default=None, compare=False, repr=False, hash=False)
    # read first, before names are shielded: a status's own name where `this token` stands
    own: Phrasebook | None = field(default=None, compare=False, repr=False, hash=False)

    def __hash__(self) -> int:
        return hash(self.key)

    def shielding(self, names) -> Phrasebook:
        """The same phrases, leaving the given names as written."""
        words = sorted({" ".join(x.split()) for x in names if x and x.strip()}, key=lambda x: (-len(x), x))
        if not words:
            return self
        return _shielding(self, tuple(words))

    def in_text_of(self, status: str) -> Phrasebook:
        """The phrases for the text of the status itself: its own name stands where `this token`
        does (`A player afflicted with Stun ...` in Stun's text reads `... with this token`)."""
        return _in_text_of(self, status)


def spaced(word: str) -> str:
    """`3CP` as the language writes it: `3 CP`."""
    return _SEAM.sub(" ", word)


def shield(text: str, fill: str = " ") -> str:
    """The text with its symbols, parameters and quoted names blanked out (same length)."""
    return _SHIELDED.sub(lambda m: fill * len(m.group(0)), text)


@dataclass(frozen=True)
class Reading:
    """A text as the grammar reads it, and where each of its characters was printed."""

    text: str
    starts: tuple[int, ...]  # printed offset where the character at i begins (one more: the end)
    ends: tuple[int, ...]  # printed offset where it ends
    spaced: tuple[tuple[int, int, str], ...] = ()  # (start, end, written) of run-together words

    @property
    def rewritten(self) -> bool:
        return len(self.starts) != len(self.text) + 1 or any(
            s != i for i, s in enumerate(self.starts))

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The printed span a span of the rewritten text comes from."""
        start = min(max(start, 0), len(self.text))
        end = min(max(end, start), len(self.text))
        printed_start = self.starts[start]
        printed_end = self.ends[end - 1] if end > start else printed_start
        return printed_start, max(printed_end, printed_start)


# ---------------------------------------------------------------- building


def pattern_problems(say: str, means: str) -> list[str]:
    """Why a phrase cannot be used (empty when it can)."""
    words = say.split()
    if not words:
        return ["the pattern is empty"]
    if _PARAM.fullmatch(words[0]) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9'’!/-]*", words[0]):
        return [f"a phrase must start with a plain word, not `{words[0]}`"]
    params = _PARAM.findall(say)
    if len(params) != len(set(params)):
        return ["a parameter appears twice in the pattern"]
    if len(params) > MAX_PARAMS:
        return [f"a phrase takes at most {MAX_PARAMS} parameters (this one has {len(params)})"]
    if any(_words_param(a) and _words_param(b) for a, b in zip(words, words[1:], strict=False)):
        return ["two parameters side by side cannot be told apart: put a word between them"]
    unknown = sorted(set(_PARAM.findall(means)) - set(params))
    if unknown:
        return [f"`{{{unknown[0]}}}` is used in `means` but is not a parameter of `say`"]
    if "{" in _PARAM.sub("", say) or "}" in _PARAM.sub("", say):
        return ["parameters are written `{name}` in lowercase letters"]
    return []


def _words_param(token: str) -> bool:
    m = _PARAM.fullmatch(token)
    return m is not None and m.group(1) not in AMOUNT_PARAMS


def compile_phrase(say: str, means: str, lexical: bool = True) -> Phrase:
    """The regex for a `say` pattern (check it with `pattern_problems` first); `lexical`: the
    pattern is read through the lexicon first, as the texts it will match are."""
    if lexical:
        say = in_lexicon_words(say)
    tokens = say.split()
    parts = []
    params = []
    literal = 0
    for i, token in enumerate(tokens):
        m = _PARAM_THEN_MARK.fullmatch(token)  # `{phase},`: a parameter, then its punctuation
        if m is None:
            literal += len(token)
            parts.append(_word(token))
            continue
        name, mark = m.group(1), m.group(2)
        params.append(name)
        last = i == len(tokens) - 1 and not mark
        words = r"[^.:;\s](?:[^.:;]*[^.:;\s])?" if last else r"[^.:;\s](?:[^.:;]*?[^.:;\s])?"
        if name in WORD_PARAMS:
            words = r"[^.:;,\s]+"
        parts.append(f"(?P<{name}>{_AMOUNT if name in AMOUNT_PARAMS else words}){re.escape(mark)}")
    regex = re.compile(_BOUNDARY_BEFORE + r"\s+".join(parts) + _BOUNDARY_AFTER, re.IGNORECASE)
    return Phrase(say, means, regex, tuple(params), stem(_WORD.match(tokens[0]).group(0)), literal)


def _word(word: str) -> str:
    base = word[:-1] if word.lower().endswith("s") and len(word) > 3 else word
    return re.escape(base) + r"(?:s|es)?"


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """A word as phrases are indexed by: lowercased, without a plural `s`."""
    word = word.lower().replace("’", "'")
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def phrasebook(entries: list[tuple[str, str]], lexical: bool = True) -> Phrasebook:
    """A phrasebook of (say, means) pairs that `pattern_problems` accepts."""
    phrases = [compile_phrase(say, means, lexical) for say, means in entries]
    # a phrase the lexicon already says (`damage` -> `dmg`) would rewrite its meaning into itself
    phrases = [p for p in phrases if p.say.casefold().split() != p.means.casefold().split()]
    by_first: dict[str, list[Phrase]] = {}
    for p in phrases:
        by_first.setdefault(p.first, []).append(p)
    for group in by_first.values():
        group.sort(key=lambda p: -p.literal_length)
    key = hashlib.sha256("\0".join(f"{s}\1{m}" for s, m in entries).encode()).hexdigest()
    return Phrasebook(tuple(phrases), key, {k: tuple(v) for k, v in by_first.items()})


EMPTY = phrasebook([], lexical=False)


# ----------------------------------------------------------------- the lexicon

LEXICON_FILE = ("rules", "lexicon.yaml")  # under the built-in content


@dataclass(frozen=True)
class Lexicon:
    """The language's words: number words and synonyms, each entry (say, means)."""

    numbers: tuple[tuple[str, int], ...]
    words: tuple[tuple[str, str], ...]
    book: Phrasebook = field(compare=False, repr=False)


def lexicon_entries(data: dict) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, str], ...]]:
    """The (word, number) and (say, means) entries of a lexicon document's data."""
    numbers = tuple((str(word), int(value)) for word, value in (data.get("numbers") or {}).items())
    words = []
    for entry in data.get("words") or ():
        says = entry["say"] if isinstance(entry["say"], list) else [entry["say"]]
        words.extend((str(say), str(entry["means"])) for say in says)
    return numbers, tuple(words)


@cache
def lexicon() -> Lexicon:
    """The built-in lexicon (a broken one is a bug of dtc's own files: it raises)."""
    from ruamel.yaml import YAML

    path = data_dir("content").joinpath(*LEXICON_FILE)
    numbers, words = lexicon_entries(YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8")))
    entries = [(word, str(value)) for word, value in numbers] + list(words)
    return Lexicon(numbers, words, phrasebook(entries, lexical=False))


def in_lexicon_words(text: str) -> str:
    """`text` with the lexicon's words read (`change the value of one die` -> `... of 1 die`)."""
    return read(text).text


_PLAIN = frozenset({"the", "a", "an", "of", "to", "your", "you", "on", "in", "and", "or", "this", "it"})


def written_so(book: Phrasebook | None, words: str, around: str | None = None) -> str | None:
    """How the phrasebook says what `words` begin like (`Take two points of dmg` -> the phrase `take {n}
    dmg`, read `receive {n} dmg`), as a hint; None when no phrase begins with that word. With `around`
    (the words at the problem), only phrases that share one of those words: others would lead away."""
    first = _WORD.search(words)
    if book is None or first is None:
        return None
    found = book.by_first.get(stem(first.group(0)), ())
    if around is not None:
        near = {stem(w) for w in _WORD.findall(around)} - _PLAIN
        found = tuple(p for p in found
                      if near & ({stem(w) for w in _WORD.findall(_PARAM.sub(" ", p.say))} - _PLAIN))
    found = found[:3]
    if not found:
        return None
    shown = "; ".join(f"`{p.say}` (read `{p.means}`)" for p in found)
    return f"cards print it {shown}: write one of these, or add the wording to the phrasebook"


@lru_cache(maxsize=256)
def _shielding(book: Phrasebook, words: tuple[str, ...]) -> Phrasebook:
    if not words:
        return Phrasebook(book.phrases, book.key, book.by_first, own=book.own)
    alternatives = "|".join(r"\s+".join(map(re.escape, w.split())) for w in words)
    # the symbols, parameters and quoted names too: one pass blanks all that is never rewritten
    names = re.compile(f"{_SHIELDED.pattern}|{_BOUNDARY_BEFORE}(?:{alternatives}){_BOUNDARY_AFTER}",
                       re.IGNORECASE)
    key = hashlib.sha256((book.key + "\0" + "\0".join(words)).encode()).hexdigest()
    return Phrasebook(book.phrases, key, book.by_first, names, book.own)


# a status effect's text with the status's own name where `this token` stands (`A player afflicted
# with Stun ...`), read as `this token` (the phrasebook knows the rest); and `spend this token to X`,
# which the language says with the status's name
_OWN_NAME = (("afflicted with {}", "afflicted with this token"),
             ("a player with {}", "a player with this token"),
             ("the player with {}", "the player with this token"),
             ("a player who has {}", "a player with this token"),
             ("spend this token to", "spend 1 {} to"), ("spend it to", "spend 1 {} to"))


@lru_cache(maxsize=1024)
def _in_text_of(book: Phrasebook, status: str) -> Phrasebook:
    name = " ".join(status.split())
    if not name or pattern_problems(_OWN_NAME[0][0].format(name), "you"):
        return book
    own = phrasebook([(say.format(name), means.format(name)) for say, means in _OWN_NAME], lexical=False)
    key = hashlib.sha256((book.key + "\0own\0" + name).encode()).hexdigest()
    return Phrasebook(book.phrases, key, book.by_first, book.names, own)


# ----------------------------------------------------------------- reading


class Unsettled(Exception):
    """The phrasebook keeps rewriting this text (a phrase whose meaning holds its own pattern)."""


def read(text: str, book: Phrasebook | None = None) -> Reading:
    """`text` spaced, read through the lexicon and rewritten by the phrasebook, with its map back
    to the printed text."""
    current, starts, ends, spaced = _space(text)
    if book is not None and book.own is not None:
        _, current, starts, ends = _rewrite_once(current, starts, ends, book.own)
    words = lexicon().book
    if _mentions(current, words):  # one pass: a word's meaning is in the language's own words
        names = book.names if book is not None else None
        _, current, starts, ends = _rewrite_once(current, starts, ends, words, names)
    if book is None or not book.phrases:
        return Reading(current, tuple(starts), tuple(ends), spaced)
    for _ in range(MAX_PASSES):
        changed, current, starts, ends = _rewrite_once(current, starts, ends, book)
        if not changed:
            return Reading(current, tuple(starts), tuple(ends), spaced)
    raise Unsettled(current)


def _mentions(text: str, book: Phrasebook) -> bool:
    """Whether a word of the text begins one of the book's phrases (most texts hold none: no pass)."""
    first = book.by_first
    return any(stem(m.group(0)) in first for m in _WORD.finditer(text))


def _space(text: str) -> tuple[str, list[int], list[int], tuple]:
    """`3CP` -> `3 CP`: the words numbers are run into, spaced; each inserted space maps to its word."""
    shielded = shield(text)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    spaced = []
    at = 0
    if _SEAM.search(shielded) is None:  # nothing run together (most texts): one copy
        _copy(text, 0, len(text), out, starts, ends)
        starts.append(len(text))
        return text, starts, ends, ()
    for m in _WORD.finditer(shielded):
        seams = [s.start() for s in _SEAM.finditer(m.group(0))]
        if not seams:
            continue
        spaced.append((m.start(), m.end(), m.group(0)))
        for seam in seams:
            cut = m.start() + seam
            _copy(text, at, cut, out, starts, ends)
            out.append(" ")
            starts.append(m.start())
            ends.append(m.end())
            at = cut
    _copy(text, at, len(text), out, starts, ends)
    starts.append(len(text))
    return "".join(out), starts, ends, tuple(spaced)


def _copy(text, a, b, out, starts, ends) -> None:
    out.append(text[a:b])
    starts.extend(range(a, b))
    ends.extend(range(a + 1, b + 1))


def _blank(m: re.Match) -> str:
    return "\0" * len(m.group(0))


def _rewrite_once(text, starts, ends, book, names=None):
    names = names if names is not None else book.names
    shielded = (names or _SHIELDED).sub(_blank, text)  # `names` blanks the symbols too
    out: list[str] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    at = 0
    changed = False
    for word in _WORD.finditer(shielded):
        if word.start() < at:
            continue
        for phrase in book.by_first.get(stem(word.group(0)), ()):
            m = phrase.regex.match(shielded, word.start())
            if m is None:
                continue
            _splice(text, starts, ends, at, word.start(), out, new_starts, new_ends)
            _emit(phrase, m, text, starts, ends, out, new_starts, new_ends)
            at = m.end()
            changed = True
            break
    _splice(text, starts, ends, at, len(text), out, new_starts, new_ends)
    new_starts.append(starts[len(text)])
    return changed, "".join(out), new_starts, new_ends


def _splice(text, starts, ends, a, b, out, new_starts, new_ends) -> None:
    out.append(text[a:b])
    new_starts.extend(starts[a:b])
    new_ends.extend(ends[a:b])


def _emit(phrase, m, text, starts, ends, out, new_starts, new_ends) -> None:
    """The meaning of one match: its own words map to the whole match, each argument to itself."""
    whole_start, whole_end = starts[m.start()], ends[m.end() - 1]
    at = 0
    for p in _PARAM.finditer(phrase.means):
        literal = phrase.means[at:p.start()]
        out.append(literal)
        new_starts.extend([whole_start] * len(literal))
        new_ends.extend([whole_end] * len(literal))
        name = p.group(1)
        _splice(text, starts, ends, m.start(name), m.end(name), out, new_starts, new_ends)
        at = p.end()
    literal = phrase.means[at:]
    out.append(literal)
    new_starts.extend([whole_start] * len(literal))
    new_ends.extend([whole_end] * len(literal))
