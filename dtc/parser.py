"""Parse: effect text in, an `Effect` AST (or `Problem`s) out.

The grammar is `grammar/effect.lark` (LALR).  This module builds the Lark
parser once per process (cached on disk per user, keyed by the grammar's
hash), turns parse trees into `dtc.nodes` with a Transformer, and turns Lark's
exceptions into problems with a message a designer can act on.  Problems carry
offsets into the text; the checker maps them to file positions.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cache, lru_cache
from typing import Any

import lark
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    GrammarError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.lexer import PatternRE, PatternStr, TerminalDef

from dtc import nodes as n
from dtc import phrases
from dtc.phrases import Phrasebook
from dtc.resources import cache_dir, data_dir
from dtc.source import character_name, hidden_character, looks_like_a_space

START_SYMBOLS = ["effect", "requirement", "amount", "trigger"]


@dataclass(frozen=True)
class Problem:
    """A diagnostic inside one text: code, message and character offsets."""

    code: str
    message: str
    start: int
    end: int
    hint: str | None = None
    severity: str = "error"
    notes: tuple[str, ...] = field(default=())
    focus: str | None = None  # the name in the span the problem is about: the caret goes under it

    def narrowed(self, text: str) -> Problem:
        """The problem with its span on `focus` when the name is written inside it (`Increase
        Moon Dial by 2`: the caret under `Moon Dial`, not the whole phrase)."""
        if not self.focus:
            return self
        at = text.casefold().find(self.focus.casefold(), self.start, self.end)
        return self if at < 0 else replace(self, start=at, end=at + len(self.focus))


# ------------------------------------------------------------- the parser


def grammar_text() -> str:
    """The effect grammar, as shipped."""
    return (data_dir("grammar") / "effect.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The Lark LALR parser, built once per process and cached on disk per user."""
    text = grammar_text()
    key = hashlib.sha256(
        f"{text}\0{_WORD_GOES_ON}\0{KEYWORD_PRIORITY}\0{lark.__version__}\0{sys.version_info[:2]}".encode()
    ).hexdigest()[:20]
    folder = cache_dir()
    path = folder / f"effect-{key}.lark-cache" if folder else None
    if path is not None and path.exists():
        try:
            with open(path, "rb") as f:
                return Lark.load(f)
        except Exception:  # a damaged cache is rebuilt, never fatal
            pass
    parser = Lark(
        text,
        parser="lalr",
        lexer="contextual",
        start=START_SYMBOLS,
        propagate_positions=True,
        maybe_placeholders=False,
        edit_terminals=whole_word,
    )
    if path is not None:
        _save_atomically(parser, path)
    return parser


KEYWORD_PRIORITY = 2  # above WORD's, so that where both may stand a keyword is read as itself
_WORD_GOES_ON = r"(?![A-Za-z0-9'’-])"


def whole_word(terminal: TerminalDef) -> None:
    """A keyword of letters matches only a whole word (`the` never the start of `their`).

    Lark's contextual lexer tries, where no name may stand, only the keywords the parser accepts
    there, and a plain string matches the start of a longer word: `At the end of their turn` read
    `the` + `ir`.  The keyword becomes a regex that no letter may follow; its priority over WORD
    keeps it the keyword where a name could stand too (Lark's own rule for a string a regex also
    matches)."""
    pattern = terminal.pattern
    if not isinstance(pattern, PatternStr) or not pattern.value[-1:].isalpha():
        return
    terminal.pattern = PatternRE(re.escape(pattern.value) + _WORD_GOES_ON, pattern.flags,
                                 pattern.raw)
    terminal.priority = KEYWORD_PRIORITY


def keyword_text(terminal: TerminalDef) -> str | None:
    """The word or mark a keyword terminal stands for (`the`, `re-roll`, `&`); None for the
    terminals of names, numbers and symbols."""
    pattern = terminal.pattern
    if pattern.type == "str":
        return pattern.value
    if terminal.priority == KEYWORD_PRIORITY and pattern.raw and pattern.raw.startswith('"'):
        return pattern.raw.rstrip("i")[1:-1]  # the grammar's own `"the"i`
    return None


def _save_atomically(parser: Lark, path) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".effect-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            parser.save(f)
        os.replace(tmp, path)
    except OSError:
        pass


# --------------------------------------------------------------- entry points


def parse_effect(text: str, book: Phrasebook | None = None) -> tuple[n.Effect | None, list[Problem]]:
    """Parse a whole effect text (`Gain Hex. Then deal 6 dmg.`), read through the phrasebook."""
    return _parse(text, "effect", book)


def parse_requirement(text: str) -> tuple[n.Requirement | None, list[Problem]]:
    """Parse an activation requirement (`3 [Claw]`, `Small Straight`)."""
    return _parse(text, "requirement", None)


def parse_amount(text: str) -> tuple[Any, list[Problem]]:
    """Parse an amount (`2`, `up to 2`, `1 or 2`): used for verb arguments."""
    return _parse(text, "amount", None)


def parse_trigger(text: str, book: Phrasebook | None = None) -> tuple[Any, list[Problem]]:
    """Parse a trigger on its own (`at any time`, `during your Main Phase`)."""
    return _parse(text, "trigger", book)


@lru_cache(maxsize=4096)
def _parse(text: str, start: str, book: Phrasebook | None) -> tuple[Any, list[Problem]]:
    # Cached: effect text repeats a lot across heroes and cards ("Deal 5 dmg.").
    # Nodes are frozen, so sharing a result is safe.
    if not text.strip():
        return None, [Problem("P002", "the text is empty", 0, 1, "write the effect, e.g. `Deal 5 dmg.`")]
    try:
        reading = phrases.read(text, book)
    except phrases.Unsettled as exc:
        return None, [Problem("P005", "the phrasebook keeps rewriting this text", 0, len(text),
                              f"it reads `{exc}` after {phrases.MAX_PASSES} passes: a phrase's `means` "
                              "holds its own `say`")]
    notes = [Problem("P003", f"`{word}` runs a number and a word together", a, b,
                     f"write `{phrases.spaced(word)}`", severity="warning")
             for a, b, word in reading.spaced]
    try:
        tree = lark_parser().parse(reading.text, start=start)
    except UnexpectedInput as exc:
        first = _explain(exc, reading.text, start)
        if first.hint is None:  # a structural failure: how the phrasebook says what it begins like
            printed_at, printed_end = reading.span(first.start, first.end)
            sentence = text[:printed_at].rsplit(".", 1)[-1]
            around = " ".join(sentence.split()[-2:] + [text[printed_at:printed_end]])
            first = replace(first, hint=phrases.written_so(book, sentence, around))
        later = _later_problems(reading.text, first) if start == "effect" else []
        return None, notes + [_printed(p, reading, text) for p in [first, *later]]
    builder = _Builder(reading.text)
    try:
        node = builder.transform(tree)
    except RecursionError:
        node = None
    depth = _nesting(node) if node is not None else MAX_NESTING + 1
    if depth > MAX_NESTING:  # what reads the tree after this recurses on it
        return None, notes + [Problem("C016", f"conditions, moments and choices are nested more than "
                                      f"{MAX_NESTING} deep here", 0, len(text),
                                      "split the effect into sentences of their own")]
    if reading.rewritten:
        node = n.remap(node, reading.span)
    return node, notes + [_printed(p, reading, text) for p in builder.problems]


MAX_NESTING = 32  # statements inside statements (`On [Claw], On [Claw], ...`): no card nests more


def _nesting(root: Any) -> int:
    """How deep statements sit inside one another (iteratively: the tree may be deep)."""
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack.extend((x, depth) for x in node)
            continue
        if not is_dataclass(node) or isinstance(node, n.Offsets):
            continue
        deepest = max(deepest, depth)
        if depth > MAX_NESTING:
            break
        for f in fields(node):
            if f.name in ("body", "orelse", "options", "action"):
                stack.append((getattr(node, f.name), depth + 1))
    return deepest


_SENTENCE_END = re.compile(r"\.(?=\s|$)")


def _later_problems(text: str, first: Problem) -> list[Problem]:
    """Error recovery: after the sentence the first problem is in, each later sentence is parsed on
    its own, so one run reports a problem in every sentence that has one (as a compiler does)."""
    shielded = phrases.shield(text)
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(shielded)]
    problems = []
    for begin, end in zip(starts, starts[1:] + [len(text)], strict=False):
        sentence = text[begin:end]
        if begin <= first.start or not sentence.strip(" ."):
            continue
        try:
            lark_parser().parse(sentence, start="effect")
        except UnexpectedInput as exc:
            p = _explain(exc, sentence, "effect")
            problems.append(replace(p, start=p.start + begin, end=p.end + begin))
    return problems




_NO_MOMENT = "there is no such moment"


def _printed(problem: Problem, reading: phrases.Reading, printed: str) -> Problem:
    """A problem found in the text as read, placed on the printed text it comes from."""
    if reading.rewritten:
        start, end = reading.span(problem.start, problem.end)
        problem = replace(problem, start=start, end=max(end, start + 1))
    if problem.message == _NO_MOMENT:  # the moment in the designer's own words
        words = " ".join(printed[problem.start:problem.end].split())
        what = "condition" if words[:3].casefold() == "if " else "trigger"
        problem = replace(problem, message=f"there is no {what} `{words}`")
    return problem


# --------------------------------------------------------- error messages

_DESCRIBE = {
    "WORD": "a name",
    "NUMBER": "a number",
    "SYMBOL": "a dice symbol like `[Claw]`",
    "RANGE": "a range like `1-2`",
    "PARAM": "a parameter like `{n}`",
    "STRING": "a quoted side name",
    "OF_A_KIND": "`N-of-a-kind`",
    "COMMA_THEN": "`, then`",
    "COMMA_OR": "`, or`",
    "_AT_RANDOM": "`at random`",
    "_COMMA_CAP": "`, up to a maximum of`",
    "$END": "the end of the text",
}

_CLAUSE_STARTS = {
    "DEAL", "DEALS", "GAIN", "GAINS", "HEAL", "HEALS", "INFLICT", "INFLICTS", "ROLL", "ROLLS",
    "DRAW", "DRAWS", "REMOVE", "REMOVES", "ADD", "ADDS", "INCREASE", "REDUCE", "PREVENT",
    "CHOOSE", "DISCARD", "DISCARDS", "SPEND", "SPENDS", "STEAL", "LOSE", "LOSES", "FLIP",
    "SET", "MOVE", "PLACE", "SEARCH", "SHUFFLE", "SKIP", "DOUBLE", "USE", "CRAFT", "THEN",
}


def _terminal_display(name: str) -> str:
    if name in _DESCRIBE:
        return _DESCRIBE[name]
    word = _keyword_of(name)
    return f"`{word}`" if word is not None else name.lower()


def core_word_guess(text: str) -> str | None:
    """`text` with its first word, a misspelled word of the language, written right (`Gian Charge` ->
    `Gain Charge`, `Dureing your Upkeep Phase` -> `During ...`); None when it is no near miss."""
    first, _, rest = text.partition(" ")
    word = near_word(first, sentence_starts())
    if word is None:
        return None
    return f"{_cased_like(word, first)} {rest}".strip()


def edit_distance(a: str, b: str, limit: int) -> int:
    """Letters inserted, deleted, changed or swapped with the next one to make `b` of `a` (the
    Damerau-Levenshtein distance), or `limit + 1` once it is more than `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return previous[-1]


def near_word(word: str, candidates) -> str | None:
    """The one candidate `word` is a typo of: one edit away (two for words of 8 letters or more:
    `sucessfully`), the nearest when several are; None when none is, or two are as near."""
    folded = word.casefold()
    if len(folded) < 3 or not folded.replace("'", "").replace("-", "").isalpha():
        return None
    limit = 2 if len(folded) >= 8 else 1
    scored = sorted((edit_distance(folded, c.casefold(), limit), c) for c in set(candidates)
                    if c.casefold() != folded and len(c) >= 3)
    scored = [(d, c) for d, c in scored if d <= limit]
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _cased_like(word: str, written: str) -> str:
    return word[:1].upper() + word[1:] if written[:1].isupper() else word


@lru_cache(maxsize=1)
def sentence_starts() -> frozenset[str]:
    """The words a sentence of the language may begin with (`deal`, `during`, `if`, `choose` ...)."""
    accepts = lark_parser().parse_interactive("", start="effect").accepts()
    return frozenset(w for w in (_keyword_of(name) for name in accepts) if w and w.isalpha())


@cache
def _keyword_of(name: str) -> str | None:
    for t in lark_parser().terminals:
        if t.name == name:
            return keyword_text(t)
    return None


_RESTRICTION = re.compile(
    r"^(?:(?:play|use)\b.*\b(?:only|unless)\b|(?:only|can only|may only)\b.*\bplay|playable\b|"
    r"(?:this card )?(?:can(?:not|'t)?|may)(?: only)? be played\b|not playable\b)", re.I)
_LABELS = {"unique", "instant", "instant action", "main phase", "roll phase", "roll phase card",
           "main phase card", "ultimate", "undefendable", "unblockable", "unavoidable", "upgrade",
           "hero upgrade", "action", "action card", "equipment", "loot", "passive", "passive ability"}
_MOMENT = re.compile(r"^(?:when|whenever|after|before|upon|each time|every time|as soon as|on a|on an|on the|"
                     r"at the|at any|if a|if an|if the|once)\b[^,.]*", re.I)


def not_an_effect(text: str) -> tuple[str, str] | None:
    """What a sentence that is no effect is, as (message, hint): a play restriction, a card label,
    a moment the language has no trigger for; None when it reads like an effect."""
    sentence = " ".join(text.split()).rstrip(".!")
    if _RESTRICTION.match(sentence):
        return (f"`{sentence}` is a play restriction, not an effect",
                "a card says when it is played with its `timing:` (main, roll or instant); a restriction "
                "beyond that cannot be said yet: leave it out of the effect")
    if sentence.casefold() in _LABELS:
        return (f"`{sentence}` is a card label, not an effect",
                "the card's fields say it: `kind:` (action, upgrade, unique), `timing:` (main, roll, "
                "instant); the labels the text may carry are `Attack Modifier.`, `Persistent.`, "
                "`Ultimate.` and `Stack Limit: N.`")
    return None


def unknown_moment(text: str, at: int) -> tuple[int, int] | None:
    """Where the moment a sentence begins with is, when the problem at `at` lies inside it and the
    language has no trigger (or condition) for it (`On a failed Offensive Roll, ...`)."""
    begin = text.rfind(".", 0, at) + 1
    sentence = text[begin:]
    lead = len(sentence) - len(sentence.lstrip())
    moment = _MOMENT.match(sentence.lstrip())
    if moment is None or "," not in sentence[lead + moment.end():lead + moment.end() + 1]:
        return None
    if not begin + lead <= at < begin + lead + moment.end():
        return None
    start = begin + lead
    return start, start + len(moment.group(0).rstrip())


def _expected(names: set[str]) -> str:
    shown = sorted({_terminal_display(x) for x in names})
    if len(shown) > 8:
        shown = shown[:8] + ["…"]
    return ", ".join(shown)


def _explain(exc: UnexpectedInput, text: str, start: str) -> Problem:
    what = start
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = text[pos] if pos < len(text) else ""
        if ch and hidden_character(ch) == 0:  # nothing to show between backticks
            hint = ("type a plain space in its place" if looks_like_a_space(ch) else "delete it: it prints "
                    "as nothing")
            return Problem("P004", f"unexpected character {character_name(ch)} in {what}", pos, pos + 1, hint)
        return Problem("P004", f"unexpected character `{ch}` in {what}", pos, pos + 1,
                       _char_hint(ch, start))
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        expected = getattr(exc, "expected", None) or getattr(exc, "accepts", set())
        end = len(text.rstrip())
        hint = _eof_hint(text)
        message = f"the {what} ends too early"
        if hint is None:
            message += f"; expected {_expected(set(expected))}"
        return Problem("P002", message, max(0, end - 1), max(1, end), hint)
    assert isinstance(exc, UnexpectedToken)
    token: Token = exc.token
    expected = set(exc.accepts or exc.expected)
    where = token.start_pos or 0
    end = token.end_pos if token.end_pos is not None else where + 1
    hint = None
    words = {w for w in (_keyword_of(e) for e in expected) if w and w.isalpha()}
    # and the lexicon's words: a synonym of a word that may stand here, or one that says nothing
    synonyms = {say: means for say, means in phrases.lexicon().words
                if means.casefold() in words or not means}
    # a typo of a synonym (`outcme`) is told as the synonym the designer meant, which reads as the word
    typo = near_word(token.value, words | set(synonyms)) if token.value[:1].isalpha() else None
    if typo is not None:  # a word one edit from what may stand here (or from its synonym): that alone
        return Problem("P001", f"unexpected `{token.value}` in {what}; expected {_expected(expected)}",
                       where, max(end, where + 1), f"did you mean `{_cased_like(typo, token.value)}`?")
    moment = unknown_moment(text, where) if start == "effect" else None
    if moment is not None:  # named in the printed words once placed on them (`_printed`)
        return Problem("P001", _NO_MOMENT, moment[0], moment[1],
                       "the moments the language knows are in docs/effect-language.md, \"Triggers\" "
                       "(`When you are Attacked`, `At the start of your Upkeep Phase`, `When spent`, ...), "
                       "and its conditions under \"Conditions\"")
    if token.type in _CLAUSE_STARTS and ("DOT" in expected or "AND" in expected):
        return Problem("P001", f"`{token.value}` starts a new clause, but the one before it has "
                       "not ended", where, max(end, where + 1),
                       "end the sentence with `.` or join the two with `and`")
    if start == "requirement":
        hint = "a requirement is dice symbols with counts (`3 [Claw]`, `[Claw] 2 [Paw]`), " \
               "`N-of-a-kind`, `Small Straight` or `Large Straight`"
    elif start == "trigger" and token.value.casefold() in ("anytime", "any"):
        hint = "write `at any time`"
    elif token.value.casefold() in ("less", "most", "fewer", "below", "under"):  # `below` is a keyword too
        hint = _comparison_hint(token.value, text[:where])
    elif re.search(r"\bif\s+(the\s+|your\s+)?(target|enemy)\s+has\b", text[:where], re.I):
        hint = ("another player's tokens are tested with `If your opponent has <status>, ...` (or `the "
                "Attacker`, `the Defender`, `they` for the player named before)")
    elif re.search(r"\b(on|to|from)\s+(him|her)\b", text, re.I):  # `it` is `this token`
        hint = ("name who: `on the Attacker`, `on the Defender`, `on a chosen opponent`, `on each "
                "opponent`, or `them` for the player named just before")
    elif "TOKEN" in expected and expected <= {"ON", "TOKEN", "TOKENS", "YOU", "YOUR", "SPENT"}:  # `per X`
        hint = ("`per` and `for each` count symbols rolled (`per [Claw] rolled`) or tokens (`per Hex token "
                "you have`, `for each Hex on your opponent`)")
    elif token.type == "WORD" and any("SYMBOL" in e for e in expected):
        hint = f"dice symbols are written in brackets: `[{token.value}]`"
    elif token.type == "WORD" and "NUMBER" in expected:
        hint = "this needs a number first, e.g. `gain 1 CP`"
    elif any(e.upper() == "DMG" for e in expected) and re.search(r"\bdamage\s*$", text[:where], re.I):
        hint = "the effect language writes damage as `dmg`: `deal 4 dmg`"
    return Problem("P001", f"unexpected `{token.value}` in {what}; expected {_expected(expected)}",
                   where, max(end, where + 1), hint)


def _comparison_hint(word: str, before: str) -> str:
    """`If <dial> is less than 3`, `2 or less`: the words the language compares with."""
    words = "the comparisons are `at least N`, `at most N`, `more than N`, `fewer than N` and `exactly N`"
    number = re.search(r"(\d+)\s+or\s*$", before)
    if number:
        return f"`{number.group(1)} or {word}` is written `fewer than {int(number.group(1)) + 1}` ({words})"
    return f"write `fewer than N` ({words})"


def _char_hint(ch: str, start: str) -> str | None:
    if ch in "[]":
        return "dice symbols are written in brackets: `[Claw]`"
    if ch == "-":
        return "write ranges as `1-2` and kinds as `4-of-a-kind`"
    if ch in "{}":
        return "parameters like `{n}` are only for a verb's `means`"
    return "effect text uses words, numbers, `[Symbols]` and the punctuation `. , : & ( )`"


def _eof_hint(text: str) -> str | None:
    if re.search(r"\b(and|&)\s*\.?\s*$", text, re.I):
        return "something must follow `and`"
    return None


# ------------------------------------------------------------- tree → AST


def _per(items: list, meta) -> Any:
    """The amount, or `amount for each <countable>` when a `per` follows it, capped when `up to a
    maximum of N` follows (`Heal 1 per [Leaf] rolled, up to a maximum of 3`)."""
    amount = items[0]
    for extra in items[1:]:
        if isinstance(extra, int):
            amount = n.Capped(amount, extra, span=_off(meta))
        else:
            amount = _times_count(amount, extra, meta)
    return amount


def _times_count(amount: Any, count: Any, meta) -> Any:
    """`amount per count`, as printed: in `4 + 1 dmg per <status> token` the `per` takes the term it
    follows (4 + (1 per token)), never the whole sum."""
    if isinstance(amount, n.Sum):
        last = amount.terms[-1]
        per = n.Per(last, count, span=_off(meta))
        return replace(amount, terms=amount.terms[:-1] + (per,))
    return n.Per(amount, count, span=_off(meta))


def _at_most(compare: str, count: int) -> tuple[str, int]:
    """`at most N` is `fewer than N+1`: the four comparisons of the tree stay four."""
    return ("fewer_than", count + 1) if compare == "at_most" else (compare, count)


def _comparison(items: list, default: str, count: int | None = None) -> tuple[str, int]:
    """(compare, count) of a condition's parts: the comparison written (`at least`, `2 or more`) or
    `default`, and its number (or `count` when none is written)."""
    words = [i for i in items if isinstance(i, str) and not isinstance(i, lark.Token)]
    number = next((int(i) for i in items if isinstance(i, lark.Token) and i.type == "NUMBER"), count)
    return _at_most(words[-1] if words else default, number)


def _no(what: str) -> tuple[bool, str]:
    """`no Scorch` -> (True, "Scorch"): a name read after `has`/`have` that begins with `no`."""
    if what.casefold().startswith("no ") and len(what) > 3:
        return True, what[3:].strip()
    return False, what


def _off(meta) -> n.Offsets | None:
    if getattr(meta, "empty", True):
        return None
    return n.Offsets(meta.start_pos, meta.end_pos)


def _tok_off(tok: Token) -> n.Offsets:
    return n.Offsets(tok.start_pos, tok.end_pos)


@dataclass
class _Step:
    then: bool
    guards: list
    body: tuple
    span: n.Offsets | None


@dataclass(frozen=True)
class _Guard:
    kind: str  # trigger, limit, if, on, for_each, may, must
    value: Any
    span: n.Offsets | None


@dataclass(frozen=True)
class _UpTo:
    """`up to 2 chosen opponents` as parsed: `body` makes the statement aiming at it a `ChooseUpTo`."""

    count: int
    who: str  # chosen_opponent | chosen_player


@dataclass(frozen=True)
class _Plus:
    """`plus 1 dmg per [Claw] rolled` as parsed: added to the dmg before it."""

    amount: Any


def _holds_up_to(stmt: Any) -> bool:
    return any(isinstance(getattr(stmt, f, None), _UpTo) for f in ("target", "source", "dest"))


def _without_up_to(stmt: Any) -> Any:
    """The statement with a misplaced `up to N chosen ...` read as `a chosen ...` (it was reported)."""
    return replace(stmt, **{f: getattr(stmt, f).who for f in ("target", "source", "dest")
                            if isinstance(getattr(stmt, f, None), _UpTo)})


@dataclass(frozen=True)
class _Damage:
    amount: Any
    damage_type: str | None
    isolated: bool


def _wrap(guards: list, body: tuple) -> tuple:
    """Apply a step's guards to its body, outermost guard first."""
    for g in reversed(guards):
        if g.kind == "if":
            body = (n.If(g.value, body, span=g.span),)
        elif g.kind == "on":
            body = (n.On(g.value, body, span=g.span),)
        elif g.kind == "for_each":
            body = (n.ForEach(g.value, body, span=g.span),)
        elif g.kind == "may":
            body = (n.May(body, span=g.span),)
        elif g.kind == "must":
            body = (n.Must(body, span=g.span),)
        elif g.kind == "trigger":
            body = (n.Delayed(g.value, body, span=g.span),)
    return body


@v_args(meta=True)
class _Builder(Transformer):
    """Builds `dtc.nodes` from Lark trees; problems found on the way are collected."""

    def __init__(self, text: str):
        super().__init__(visit_tokens=False)  # no method takes a token: skip the lookup per token
        self.text = text
        self.problems: list[Problem] = []
        self.saw_up_to = False  # an `up to N chosen ...` was parsed: look for one left where none goes
        self.yours: set[int] = set()  # the clauses written with `you` as their subject (by id)

    # -- effect structure
    def effect(self, meta, steps_per_sentence):
        labels = tuple(s for sentence in steps_per_sentence for s in sentence if isinstance(s, n.Label))
        steps = [s for sentence in steps_per_sentence for s in sentence if not isinstance(s, n.Label)]
        trigger, once = None, False
        if steps:
            trigger, once = self._lift(steps[0])
        body: list = []
        for step in steps:
            for g in step.guards:
                if g.kind == "limit":
                    self._misplaced(g, "`once per turn` goes at the start of an effect")
            if step.then and body:  # a `Then` with nothing before it changes nothing
                body.append(n.Then(span=step.span))
            guards = [g for g in step.guards if g.kind != "limit"]
            # `Additionally, otherwise, ...` is `Otherwise, ...`; an `otherwise` after any other guard
            # has no sentence to be the other case of (found by the grammar fuzzer: it was dropped)
            lead = next((i for i, g in enumerate(guards) if g.kind != "also"), len(guards))
            for g in guards[lead + 1:]:
                if g.kind == "otherwise":
                    self._misplaced(g, "`Otherwise` begins its sentence")
            if lead < len(guards) and guards[lead].kind == "otherwise":
                self._otherwise(body, guards[lead], _wrap(guards[lead + 1:], step.body))
                continue
            wrapped = _wrap(guards, step.body)
            if guards and guards[0].kind == "on" and isinstance(guards[0].value, n.OtherResult):
                wrapped = (self._other_result(body, wrapped[0], guards[0]),)
            body.extend(wrapped)
        effect = n.Effect(trigger, once, tuple(body), labels, span=_off(meta))
        return self._stray_up_to(effect, meta) if self.saw_up_to else effect

    def _stray_up_to(self, node: Any, meta) -> Any:
        """`up to N chosen ...` left where no statement made a choice of it (`spend any amount of X to
        transfer all X from up to 2 chosen opponents`): reported, and read as `a chosen ...`."""
        if isinstance(node, _UpTo):
            self.problems.append(Problem(
                "C016", "`up to N chosen ...` is read only as the players a statement of the card's player "
                "is done to", meta.start_pos, meta.end_pos, "name one player: `a chosen opponent`"))
            return node.who
        if isinstance(node, tuple):
            return tuple(self._stray_up_to(x, meta) for x in node)
        if not is_dataclass(node) or isinstance(node, n.Offsets):
            return node
        changes = {f.name: self._stray_up_to(getattr(node, f.name), meta) for f in fields(node)
                   if f.name != "span"}
        return replace(node, **changes)

    def _otherwise(self, body: list, guard: _Guard, then: tuple) -> None:
        """`If X, A. Otherwise, B.`: B is the If's `orelse`; after `On`s, B is `On any other result`."""
        before = body[-1] if body else None
        if isinstance(before, n.If) and not before.orelse:
            body[-1] = replace(before, orelse=then)
        elif isinstance(before, n.On):
            other = n.On(n.OtherResult((), span=guard.span), then, span=guard.span)
            body.append(self._other_result(body, other, guard))
        else:
            self._misplaced(guard, "`Otherwise` follows the `If` (or `On`) sentence it is the other "
                                   "case of")
            body.extend(then)

    def _other_result(self, body: list, on: n.On, guard: _Guard) -> n.On:
        """`On any other result`: the tests of the `On` sentences just before it."""
        tests = []
        for stmt in reversed(body):
            if not isinstance(stmt, n.On) or isinstance(stmt.test, n.OtherResult):
                break
            tests[:0] = stmt.test.tests if isinstance(stmt.test, n.AnyOf) else [stmt.test]
        if not tests:
            self._misplaced(guard, "`On any other result` follows the `On` sentences it is the rest of")
        return replace(on, test=replace(on.test, tests=tuple(tests)))

    def _lift(self, step: _Step):
        """Move the leading trigger (and `once per turn`) of the first step to the effect."""
        trigger, once = None, False
        for i, g in enumerate(step.guards):
            if g.kind == "limit" and not once:
                once = True
                step.guards[i] = _Guard("lifted", None, g.span)
            elif g.kind == "trigger":
                trigger = g.value
                step.guards[i] = _Guard("lifted", None, g.span)
                break
            elif not (g.kind == "also" or (g.kind == "if" and isinstance(g.value, n.InForm))):
                break
        step.guards[:] = [g for g in step.guards if g.kind != "lifted"]
        return trigger, once

    def _call_userfunc(self, tree, new_children=None):
        # Lark looks a `v_args` method up anew at every node, wrapping it each time
        # (functools.update_wrapper): the plain functions, collected once, are called instead.
        method = _RULES.get(tree.data)
        if method is None:
            return super()._call_userfunc(tree, new_children)
        try:
            return method(self, tree.meta, tree.children if new_children is None else new_children)
        except GrammarError:
            raise
        except Exception as exc:
            raise VisitError(tree.data, tree, exc) from exc

    def _at_least(self, value: int, minimum: int, meta, what: str) -> int:
        if value < minimum:
            start = getattr(meta, "start_pos", 0) or 0
            end = getattr(meta, "end_pos", start + 1) or start + 1
            self.problems.append(Problem("C010", f"{what} must be at least {minimum}; got {value}",
                                         start, end))
        return value

    def _misplaced(self, g: _Guard, message: str):
        span = g.span or n.Offsets(0, 1)
        self.problems.append(Problem("C016", message, span.start, span.end))

    def sentence(self, meta, items):
        if len(items) == 1 and isinstance(items[0], n.Label):
            return [items[0]]
        steps = []
        pending_then = False
        for item in items:
            if isinstance(item, Token):  # COMMA_THEN
                pending_then = True
                continue
            if pending_then:
                item.then = True
                pending_then = False
            steps.append(item)
        return steps

    def step(self, meta, items):
        then = bool(items) and isinstance(items[0], n.Then)
        if then:
            items = items[1:]
        guards = [i for i in items if isinstance(i, _Guard)]
        trailing = [g for g in guards if g.kind == "trailing"]
        if trailing:  # `receive 1 dmg during your Upkeep Phase` reads `During your Upkeep Phase, receive ...`
            guards = [_Guard("trigger", trailing[0].value, trailing[0].span)] + [
                g for g in guards if g.kind != "trailing"]
        body = next(i for i in reversed(items) if not isinstance(i, _Guard))
        return _Step(then, guards, body, _off(meta))

    def trailing_trigger(self, meta, items):
        return _Guard("trailing", items[0], _off(meta))

    def then(self, meta, _):
        return n.Then(span=_off(meta))

    def trigger_guard(self, meta, items):
        return _Guard("trigger", items[0], _off(meta))

    def limit_guard(self, meta, items):
        return _Guard("limit", True, _off(meta))

    def if_guard(self, meta, items):
        return _Guard("if", items[0], _off(meta))

    def on_guard(self, meta, items):
        return _Guard("on", items[0], _off(meta))

    def attack_modifier_label(self, meta, _):
        return n.Label("attack modifier", span=_off(meta))

    def persistent_label(self, meta, _):
        return n.Label("persistent", span=_off(meta))

    def ultimate_label(self, meta, _):
        return n.Label("ultimate", span=_off(meta))

    def stack_limit_label(self, meta, items):
        return n.Label("stack limit", int(items[-1]), span=_off(meta))

    def also_guard(self, meta, _):
        # "Additionally, inflict Hex": what follows happens too, as the text before it does
        return _Guard("also", None, _off(meta))

    def otherwise_guard(self, meta, _):
        return _Guard("otherwise", None, _off(meta))

    def on_other(self, meta, _):
        return n.OtherResult((), span=_off(meta))

    def for_each_guard(self, meta, items):
        return _Guard("for_each", items[0], _off(meta))

    def may_guard(self, meta, _):
        return _Guard("may", None, _off(meta))

    def must_guard(self, meta, _):
        return _Guard("must", None, _off(meta))

    def body(self, meta, items):
        instead = bool(items) and items[-1] == "instead"
        clauses = [
            replace(c, joined=True) if i > 0 and isinstance(c, (n.VerbCall, n.Item)) else c
            for i, c in enumerate(items[:-1] if instead else items)
        ]
        clauses = self._subjects_carried(clauses)
        for i, c in enumerate(clauses):  # `spend 3 CP to heal 2 and gain 1 CP`: the payment buys both
            if isinstance(c, n.Cost) and i + 1 < len(clauses):
                clauses[i:] = [replace(c, action=c.action + tuple(clauses[i + 1:]))]
                break
        clauses = self._choices_of_many(clauses, meta)
        if instead:
            return (n.Instead(tuple(clauses), span=_off(meta)),)
        return tuple(clauses)

    def _subjects_carried(self, clauses: list) -> list:
        """`The Attacker adds 1 dmg to the Attack and gains 1 CP`: a clause with no subject of its
        own, after one with a subject, is done by that subject (as English reads it); `you` named
        again takes it back (`... and you gain 1 CP`)."""
        out: list = []
        subject = None
        for c in clauses:
            if isinstance(c, n.Actor):
                subject = c.target
            elif id(c) in self.yours:
                subject = None
            elif subject is not None and not isinstance(c, n.NO_SUBJECT):
                c = n.Actor(subject, c, span=c.span)
            out.append(c)
        return out

    def _choices_of_many(self, clauses: list, meta) -> list:
        """A clause aimed at `up to N chosen opponents` becomes a `ChooseUpTo` around it, aimed at the
        players chosen; the clauses after it aimed at the same (`Inflict Hex and Daze on up to 2 chosen
        opponents`) join it: one choice."""
        out: list = []
        for c in clauses:
            if isinstance(c, n.Actor) and _holds_up_to(c.action):  # `they transfer ... to up to 2 ...`
                self.problems.append(Problem(
                    "C016", "`up to N chosen ...` is not read after another player as the subject",
                    meta.start_pos, meta.end_pos, "say it as the card's player's own statement (`Deal 2 "
                    "dmg to up to 2 chosen opponents`), or name one player: `a chosen opponent`"))
                c = replace(c, action=_without_up_to(c.action))
            marker = getattr(c, "target", None)
            if isinstance(marker, _UpTo) and marker.count < 1:
                self.problems.append(Problem("C016", "`up to 0 chosen ...` chooses no one", meta.start_pos,
                                             meta.end_pos, "write `up to 2 chosen opponents`"))
                marker = _UpTo(1, marker.who)
            if not isinstance(marker, _UpTo):
                if any(isinstance(getattr(c, f, None), _UpTo) for f in ("source", "dest")):
                    self.problems.append(Problem(
                        "C016", "`up to N chosen ...` names the players a statement is done to, not where "
                        "tokens come from or go", meta.start_pos, meta.end_pos, "name one player: `a chosen "
                        "opponent`"))
                    c = replace(c, **{f: "chosen_opponent" for f in ("source", "dest")
                                      if isinstance(getattr(c, f, None), _UpTo)})
                out.append(c)
                continue
            aimed = replace(c, target="chosen_players")
            last = out[-1] if out else None
            if isinstance(last, n.ChooseUpTo) and (last.count, last.who) == (marker.count, marker.who):
                out[-1] = replace(last, body=last.body + (aimed,))
            else:
                out.append(n.ChooseUpTo(marker.count, marker.who, (aimed,), span=c.span or _off(meta)))
        return out

    def instead(self, meta, _):
        return "instead"

    def choose(self, meta, items):
        options = tuple(i for i in items if not isinstance(i, Token))
        count = next((int(i) for i in items if isinstance(i, Token) and i.type == "NUMBER"), 1)
        return (n.Choose(options, count, span=_off(meta)),)

    def option(self, meta, items):
        guards = [i for i in items if isinstance(i, _Guard)]
        for g in guards:
            if g.kind == "limit":
                self._misplaced(g, "`once per turn` goes at the start of an effect")
        return _wrap([g for g in guards if g.kind != "limit"], items[-1])

    # -- clauses
    def subject_action(self, meta, items):
        who, action = items
        if who == "self":
            self.yours.add(id(action))  # `you` said: no subject carried onto it (`_subjects_carried`)
            return action
        return n.Actor(who, action, span=_off(meta))

    def subject_you(self, meta, _):
        return "self"

    def subject_you_or(self, meta, items):
        if items[0] != "chosen_teammate":
            self.problems.append(Problem("C016", "`you or ...` goes with a chosen teammate",
                                         meta.start_pos, meta.end_pos,
                                         "write `you or a chosen teammate gains ...`"))
        return "self_or_chosen_teammate"

    def subject_target(self, meta, items):
        return items[0]

    def subject_they(self, meta, _):
        return "them"  # the player named last, as `them` (a status effect's text reads `they` as `you`)

    def item(self, meta, items):
        return n.Item(int(items[0]), items[1], span=_off(meta))

    def phrase(self, meta, items):
        return n.VerbCall(self.text[meta.start_pos:meta.end_pos], span=_off(meta))

    def deal(self, meta, items):
        d: _Damage = items[0]
        target = items[1] if len(items) > 1 else None
        return n.Deal(d.amount, d.damage_type, target, d.isolated, span=_off(meta))

    def receive(self, meta, items):
        d: _Damage = items[0]
        return n.Receive(d.amount, d.damage_type, span=_off(meta))

    def add_dmg(self, meta, items):
        d: _Damage = items[0]
        if d.damage_type is not None:
            self.problems.append(Problem(
                "C016", f"added dmg takes the Attack's own damage type; `{d.damage_type}` "
                "cannot be added", meta.start_pos, meta.end_pos,
                "write `add 2 dmg`, or `deal 2 undefendable dmg` for a separate instance"))
        return n.AddDamage(d.amount, span=_off(meta))

    def attack_suffix(self, meta, _):
        return None

    def heal(self, meta, items):
        return n.Heal(_per(items, meta), span=_off(meta))

    def gain_cp(self, meta, items):
        return n.GainCP(_per(items, meta), span=_off(meta))

    def gain(self, meta, items):
        return n.Gain(items[0], span=_off(meta))

    def inflict(self, meta, items):
        return n.Inflict(items[0], items[1] if len(items) > 1 else None, span=_off(meta))

    def remove(self, meta, items):
        return n.Remove(items[0], items[1] if len(items) > 1 else None, span=_off(meta))

    def remove_all_these(self, meta, items):
        status = n.NamedStatus(n.THESE_TOKENS, None, span=_off(meta))
        return n.Remove(status, items[0] if items else None, True, span=_off(meta))

    def remove_all(self, meta, items):
        status = n.NamedStatus(items[0], None, span=_off(meta))
        return n.Remove(status, items[1] if len(items) > 1 else None, True, span=_off(meta))

    def transfer(self, meta, items):
        source = items[1] if len(items) > 2 else None
        return n.Transfer(items[0], source, items[-1], span=_off(meta))

    def transfer_all(self, meta, items):
        status = n.NamedStatus(items[0], None, span=_off(meta))
        source = items[1] if len(items) > 2 else None
        return n.Transfer(status, source, items[-1], True, span=_off(meta))

    def steal_status(self, meta, items):
        return n.Transfer(items[0], items[1], "self", span=_off(meta))

    def tier_effects(self, meta, _):
        return n.TierEffects(span=_off(meta))

    def transfer_to(self, meta, items):
        return items[0]

    def another_player(self, meta, _):
        return "another_player"

    def spend(self, meta, items):
        return n.Spend(items[0], span=_off(meta))

    def cost(self, meta, items):
        self._paid(items[0], meta)
        return n.Cost(items[0], (items[1],), span=_off(meta))

    def cost_tokens(self, meta, items):
        self._paid(items[0], meta)
        status = None if items[1].casefold() == "cp" else items[1]
        return n.Cost(items[0], (items[2],), status, span=_off(meta))

    def _paid(self, amount, meta) -> None:
        """`spend 0 CP to ...` pays nothing: the effect is the action alone."""
        if isinstance(amount, n.Number) and amount.value < 1:
            where = amount.span or n.Offsets(meta.start_pos, meta.end_pos)
            self.problems.append(Problem("C010", f"a cost must be at least 1; got {amount.value}",
                                         where.start, where.end,
                                         "with nothing to pay, write the action alone"))

    def lose_cp(self, meta, items):
        return n.LoseCP(items[0], span=_off(meta))

    def steal_cp(self, meta, items):
        return n.StealCP(items[0], span=_off(meta))

    def draw(self, meta, items):
        return n.Draw(_per(items, meta), span=_off(meta))

    def discard(self, meta, items):
        return n.Discard(items[0], span=_off(meta))

    def return_cards(self, meta, items):
        return n.ReturnCards(items[0], span=_off(meta))

    def discard_hand(self, meta, _):
        return n.Discard(n.Number(n.WHOLE_HAND), span=_off(meta))

    def draw_until(self, meta, items):
        return n.DrawUntil(int(items[0]), span=_off(meta))

    def search(self, meta, items):
        top, count = items[0], items[1]
        card_type = items[2] if len(items) > 2 else None
        return n.Search(top, count, card_type, span=_off(meta))

    def whole_deck(self, meta, _):
        return None

    def deck_top(self, meta, items):
        return self._at_least(int(items[0]), 1, meta, "the number of cards looked at")

    def count_all(self, meta, _):
        return None  # every card it finds

    def count_number(self, meta, items):
        return self._at_least(int(items[0]), 1, meta, "the number of cards searched for")

    def count_one(self, meta, _):
        return 1

    def shuffle(self, meta, _):
        return n.Shuffle(span=_off(meta))

    def place(self, meta, items):
        return n.Place(items[0], items[1], span=_off(meta))

    def found_cards(self, meta, items):
        return n.FoundCards(items[0] if items else None, span=_off(meta))

    def hand_cards_any(self, meta, items):
        return n.HandCards(None, items[0] if items else None, span=_off(meta))

    def hand_cards(self, meta, items):
        return n.HandCards(items[0], items[1] if len(items) > 1 else None, span=_off(meta))

    def use_cards(self, meta, items):
        amount, *names = items
        card_type = names[0] if len(names) > 1 else None
        return n.UseCards(amount, card_type, names[-1], span=_off(meta))

    def craft(self, meta, items):
        return n.Craft(items[0], items[1], span=_off(meta))

    def prevent(self, meta, items):
        return n.Prevent(_per(items, meta), span=_off(meta))

    def prevent_half(self, meta, items):
        return n.PreventHalf(items[0] if items else "up", span=_off(meta))

    def prevent_all(self, meta, _):
        return n.PreventAll(span=_off(meta))

    def roll(self, meta, items):
        return n.Roll(items[0], items[1] if len(items) > 1 else None, span=_off(meta))

    def reroll(self, meta, items):
        return n.Reroll(items[0], "own" in items, span=_off(meta))

    def reroll_all(self, meta, items):
        return n.Reroll(n.Number(n.ALL_DICE), "own" in items, True, span=_off(meta))

    def reroll_any(self, meta, items):
        return n.Reroll(n.UpTo(n.ALL_DICE), "own" in items, span=_off(meta))

    def change_dice(self, meta, items):
        own = "own" in items
        rest = [i for i in items if i != "own"]
        return n.ChangeDice(rest[0], rest[1], own, span=_off(meta))

    def shift_either(self, meta, items):
        return self._adjust(meta, items, "up or down")

    def shift_up(self, meta, items):
        return self._adjust(meta, items, "up")

    def shift_down(self, meta, items):
        return self._adjust(meta, items, "down")

    def copy_die(self, meta, items):
        return self._adjust(meta, items, "copy")

    @staticmethod
    def _adjust(meta, items, how: str):
        own = "own" in items
        rest = [i for i in items if i != "own"]
        by = int(rest[1]) if len(rest) > 1 else 0
        return n.AdjustDice(rest[0], how, by, own, span=_off(meta))

    def own_dice(self, meta, _):
        return "own"

    def any_face(self, meta, _):
        return None

    def value_face(self, meta, items):
        return int(items[0])

    def symbol_face(self, meta, items):
        return _symbol(items[0])

    def increase(self, meta, items):
        return n.Increase(items[0], _per(items[1:], meta), span=_off(meta))

    def decrease(self, meta, items):
        return n.Decrease(items[0], _per(items[1:], meta), span=_off(meta))

    def set_value(self, meta, items):
        return n.SetValue(items[0], items[1], span=_off(meta))

    def name_value(self, meta, items):
        return items[0]

    def number_value(self, meta, items):
        return int(items[0])

    def flip(self, meta, items):
        what, name = items[0]
        side = items[1] if len(items) > 1 else None
        return n.Flip(what, name, side, span=_off(meta))

    def flip_this(self, meta, _):
        return ("this_token", None)

    def flip_a_token(self, meta, _):
        return ("a_token", None)

    def flip_status_token(self, meta, items):
        return ("status_token", items[0])

    def flip_component(self, meta, items):
        return ("component", items[0])

    def side(self, meta, items):
        value = items[0]
        if isinstance(value, Token) and value.type == "STRING":
            return value.value[1:-1]
        return value

    def move(self, meta, items):
        if len(items) == 3:
            return n.Move(items[0], items[1], items[2], span=_off(meta))
        return n.Move(items[0], None, items[1], span=_off(meta))

    def up(self, meta, _):
        return "up"

    def down(self, meta, _):
        return "down"

    def skip(self, meta, items):
        return n.Skip(items[0], span=_off(meta))

    def double_effect(self, meta, items):
        different = "different" in items
        rest = [i for i in items if i != "different"]
        return n.DoubleEffect(rest[1], rest[0], different, span=_off(meta))

    def different(self, meta, _):
        return "different"

    def attack_becomes(self, meta, items):
        return n.AttackBecomes(str(items[0]).lower(), span=_off(meta))

    def phase_fails(self, meta, items):
        return n.PhaseFails(items[0], span=_off(meta))

    # -- damage
    def damage_amount(self, meta, items):
        amount = items[0]
        damage_type = None
        for extra in items[1:]:
            if isinstance(extra, str):
                damage_type = extra
            elif isinstance(extra, int):
                amount = n.Capped(amount, extra, span=_off(meta))
            elif isinstance(extra, _Plus):
                amount = n.Sum((amount, extra.amount), span=_off(meta))
            else:
                amount = _times_count(amount, extra, meta)
        return _Damage(amount, damage_type, False)

    def plus(self, meta, items):
        amount = items[0] if len(items) == 1 else n.Per(items[0], items[1], span=_off(meta))
        return _Plus(amount)

    def damage_equal(self, meta, items):
        plus = [i for i in items if isinstance(i, Token) and i.type == "NUMBER"]
        items = [i for i in items if not (isinstance(i, Token) and i.type == "NUMBER")]
        damage_type = items[0] if len(items) > 1 else None
        quantity = items[-1]
        if plus:  # `the Heat value plus 2`
            quantity = n.Sum((quantity, n.Number(int(plus[0]))), span=_off(meta))
        return _Damage(quantity, damage_type, False)

    def damage_isolated(self, meta, items):
        damage_type = items[1] if len(items) > 1 else None
        return _Damage(items[0], damage_type, True)

    def damage_type(self, meta, items):
        return str(items[0]).lower()

    def cap(self, meta, items):
        return int(items[0])

    def per(self, meta, items):
        return items[0]

    # -- status references
    def one_status(self, meta, items):
        """`a Protect token`: one."""
        return n.NamedStatus(items[-1], n.Number(1, span=_off(meta)), span=_off(meta))

    def cost_one_token(self, meta, items):
        """`Spend Blood Power to add 2 dmg`, `Spend a Chi token to heal 2`: one token."""
        return n.Cost(n.Number(1, span=_off(meta)), (items[-1],), items[0], span=_off(meta))

    def on_any_symbols(self, meta, items):
        """`On [Claw] or [Paw]`: each run of symbols is a test of its own."""
        return n.AnyOf(tuple(items), span=_off(meta))

    def req_group(self, meta, items):
        return n.Requirement(_merge(items), span=_off(meta))

    def on_values(self, meta, items):
        tests = tuple(i for i in items if not isinstance(i, Token))
        return tests[0] if len(tests) == 1 else n.AnyOf(tests, span=_off(meta))

    def status_named(self, meta, items):
        if len(items) == 2:
            return n.NamedStatus(items[1], items[0], span=_off(meta))
        return n.NamedStatus(items[0], None, span=_off(meta))

    def these_tokens(self, meta, items):
        """`1 of these tokens` in a status effect's text: tokens of that status (the checker names it)."""
        return n.NamedStatus(n.THESE_TOKENS, items[0], span=_off(meta))

    def this_token(self, meta, _):
        return n.ThisToken(span=_off(meta))

    # -- amounts
    def number(self, meta, items):
        return n.Number(int(items[0]), span=_off(meta))

    def times(self, meta, items):
        return n.Times(int(items[0]), items[1], span=_off(meta))

    def up_to(self, meta, items):
        return n.UpTo(self._at_least(int(items[0]), 1, meta, "`up to`"), span=_off(meta))

    def either(self, meta, items):
        return n.Either((int(items[0]), int(items[1])), span=_off(meta))

    def one(self, meta, _):
        return n.Number(1, span=_off(meta))

    def param(self, meta, items):
        return n.Param(items[0].value[1:-1], span=_off(meta))

    def symbols_rolled(self, meta, items):
        return n.SymbolsRolled(items[0], span=_off(meta))

    def excess(self, meta, items):
        return n.Excess(int(items[0]), span=_off(meta))

    def extra_attempts(self, meta, _):
        return n.ExtraRollAttempts(span=_off(meta))

    def total_roll(self, meta, _):
        return n.TotalRoll(span=_off(meta))

    def value_rolled(self, meta, _):
        return n.ValueRolled(span=_off(meta))

    def highest_rolled(self, meta, _):
        return n.ValueRolled(True, span=_off(meta))

    def number_rolled(self, meta, items):
        """`the number of [Claw] rolled`: a count of the dice showing the symbols."""
        return n.Times(1, items[0], span=_off(meta))

    def component_value(self, meta, items):
        return n.ComponentValue(items[0], span=_off(meta))

    def twice(self, meta, items):
        """`twice the value rolled`: the quantity added to itself."""
        return n.Sum((items[0], items[0]), span=_off(meta))

    def half(self, meta, items):
        return n.Half(items[0], items[1] if len(items) > 1 else "up", span=_off(meta))

    def rounding(self, meta, items):
        return items[0]

    def round_dir(self, meta, items):
        return str(items[0]).lower()

    def symbol_set(self, meta, items):
        return tuple(_symbol(t) for t in items)

    # -- conditions
    def in_form(self, meta, items):
        return n.InForm(items[-1], span=_off(meta))

    def not_in_form(self, meta, items):
        return n.InForm(items[-1], True, span=_off(meta))

    def opponent_cp(self, meta, items):
        """`If your opponent has 2 or fewer CP`."""
        compare, count = _comparison(items[1:], "at_least")
        return n.YouHave(compare, count, "CP", "opponent_cp", items[0], span=_off(meta))

    def at_position(self, meta, items):
        return n.AtPosition(str(items[0]), items[1], span=_off(meta))

    def on_side(self, meta, items):
        side = str(items[1])
        return n.OnSide(str(items[0]), side.strip('"') if side.startswith('"') else side, span=_off(meta))

    def position_name(self, meta, items):
        """`<name> 3`: a position's name, a number at its end included."""
        return " ".join(str(i) for i in items)

    def position_quoted(self, meta, items):
        return str(items[0])[1:-1]

    def you_have(self, meta, items):
        compare, count = _comparison(items, "at_least")
        kind, what = items[-1]
        return n.YouHave(compare, count, what, kind, span=_off(meta))

    def total_is(self, meta, items):
        """`If the total is 12 or more`: the dice just rolled, added up (`is 12`: exactly)."""
        compare, count = _comparison(items, "exactly")
        return n.YouHave(compare, count, "total", "roll_total", span=_off(meta))

    def opponent_cards(self, meta, items):
        """`If your opponent has 4 or more cards in hand`."""
        compare, count = _comparison(items[1:], "at_least")
        return n.YouHave(compare, count, "cards", "opponent_cards", items[0], span=_off(meta))

    def tokens_held(self, meta, items):
        named = len(items) > 1 and isinstance(items[1], str) and items[1] in n.TARGETS
        holder = items[1] if named else "self"
        return n.TokensHeld(str(items[0]), holder, span=_off(meta))

    def these_held(self, meta, _):
        """`for each of these tokens`, `per token` in a status effect's text: its own tokens you hold."""
        return n.TokensHeld(n.THESE_TOKENS, "self", span=_off(meta))

    def tokens_opponent_has(self, meta, items):
        return n.TokensHeld(str(items[0]), "opponent", span=_off(meta))

    def discard_random(self, meta, items):
        return n.DiscardRandom(items[0], span=_off(meta))

    def raise_limit(self, meta, items):
        return n.RaiseStackLimit(str(items[0]), items[1], span=_off(meta))

    def extra_attempt(self, meta, items):
        return n.ExtraRollAttempt(items[0], span=_off(meta))

    def dealt_this_turn(self, meta, items):
        """`If you dealt 8 dmg or more this turn` (no number: any dmg)."""
        compare, count = _comparison(items, "at_least", 1)
        return n.YouHave(compare, count, "dmg", "dealt_this_turn", span=_off(meta))

    def attack_dealt(self, meta, items):
        """`If this Attack deals at least 5 dmg` (no number: any dmg)."""
        compare, count = _comparison(items, "at_least", 1)
        return n.YouHave(compare, count, "dmg", "attack_dealt", span=_off(meta))

    def attacked_this_turn(self, meta, _):
        return n.YouHave("at_least", 1, "Attacks", "attacked_this_turn", span=_off(meta))

    def spend_any_cp(self, meta, _):
        return n.SpendAnyCP(span=_off(meta))

    def spend_any_tokens(self, meta, items):
        return n.SpendAnyTokens(str(items[0]), tuple(items[1:]), span=_off(meta))

    def every_n_rolled(self, meta, items):
        n_ = self._at_least(int(items[0]), 1, meta, "a group of dice")
        return n.EveryNRolled(n_, items[1], span=_off(meta))

    def cp_spent(self, meta, _):
        return n.CPSpent(span=_off(meta))

    def tokens_removed(self, meta, _):
        return n.TokensRemoved(span=_off(meta))

    def tokens_spent(self, meta, items):
        return n.TokensRemoved(str(items[0]) if items else None, span=_off(meta))

    def cards_in_hand(self, meta, _):
        return n.CardsInHand(span=_off(meta))

    def sum(self, meta, items):
        return n.Sum(tuple(items), span=_off(meta))

    def you_have_one(self, meta, items):
        """`If you have a negative status effect`, `If you have <status>`: at least 1; `If you have
        no <status>`: fewer than 1."""
        kind, what = items[-1]
        none, what = _no(str(what))
        if none and what.casefold() == "cp":
            kind = "cp"
        return n.YouHave("fewer_than" if none else "at_least", 1, what, kind, span=_off(meta))

    def component_is(self, meta, items):
        """`If Heat is 4` (exactly), `If Heat is at least 4`, `If Heat is 4 or more`: a dial's value."""
        compare, count = _comparison(items[1:], "exactly")
        return n.YouHave(compare, count, items[0], "component", span=_off(meta))

    def opponent_has(self, meta, items):
        """`If your opponent has Scorch` (at least 1), `If the opponent has 2 Scorch`."""
        numbers = [i for i in items if isinstance(i, lark.Token) and i.type == "NUMBER"]
        # `compare? NUMBER? name`: a comparison, when written, comes first and is no token
        words = [i for i in items[1:-1] if isinstance(i, str) and not isinstance(i, lark.Token)]
        compare = words[-1] if words else "at_least"  # `at least 2`, or `2 or more`
        count = int(numbers[0]) if numbers else 1
        what = str(items[-1])
        for article in ("a ", "an ", "any "):  # `has a negative status effect`: at least 1
            if what.casefold().startswith(article) and not numbers:
                what = what[len(article):]
        none, what = _no(what) if not numbers else (False, what)
        if none:  # `has no Scorch`: fewer than 1
            compare, count = "fewer_than", 1
        compare, count = _at_most(compare, count)
        kind = "opponent_cp" if what.casefold() == "cp" else "opponent_status"
        return n.YouHave(compare, count, what, kind, items[0], span=_off(meta))

    def you_health(self, meta, items):
        """`If you have 10 Health or less`."""
        compare, count = _comparison(items, "at_least")
        compare, count = _at_most(compare, count)
        return n.YouHave(compare, count, "Health", "health", span=_off(meta))

    def holder_health(self, meta, items):
        """`If your opponent has 10 Health or less`."""
        compare, count = _comparison(items[1:], "at_least")
        compare, count = _at_most(compare, count)
        return n.YouHave(compare, count, "Health", "opponent_health", items[0], span=_off(meta))

    def health_below(self, meta, items):
        """`If you have less Health than your opponent`."""
        return n.YouHave("fewer_than", 0, "Health", "health_than", items[0], span=_off(meta))

    def health_above(self, meta, items):
        return n.YouHave("more_than", 0, "Health", "health_than", items[0], span=_off(meta))

    def holder_opponent(self, meta, _):
        return "opponent"

    def holder_attacker(self, meta, _):
        return "attacker"

    def holder_defender(self, meta, _):
        return "defender"

    def holder_them(self, meta, _):
        return "them"

    def at_least(self, meta, _):
        return "at_least"

    def more_than(self, meta, _):
        return "more_than"

    def fewer_than(self, meta, _):
        return "fewer_than"

    def at_most(self, meta, _):
        return "at_most"  # made `fewer than N+1` by `_at_most`

    def exactly(self, meta, _):
        return "exactly"

    def have_named(self, meta, items):
        return ("status", items[0])

    def have_opponents(self, meta, _):
        return ("opponents", "opponent")

    def have_cp(self, meta, _):
        return ("cp", "CP")

    def have_cards(self, meta, _):
        return ("cards", "cards")

    def you_did(self, meta, _):
        return n.YouDid(False, span=_off(meta))

    def you_did_not(self, meta, _):
        return n.YouDid(True, span=_off(meta))

    # -- dice tests and requirements
    def on_symbols(self, meta, items):
        return n.Requirement(_merge(items), span=_off(meta))

    def on_straight(self, meta, items):
        return n.Requirement((items[0],), span=_off(meta))

    def on_range(self, meta, items):
        low, high = (int(x) for x in items[0].value.split("-"))
        if low > high:
            self.problems.append(Problem("C010", f"range `{items[0].value}` runs backwards",
                                         items[0].start_pos, items[0].end_pos,
                                         f"write `{high}-{low}`"))
        return n.ValueRange(low, high, span=_off(meta))

    def on_value(self, meta, items):
        v = int(items[0])
        return n.ValueRange(v, v, span=_off(meta))

    def req_symbols(self, meta, items):
        return n.Requirement(_merge(items), span=_off(meta))

    def req_straight(self, meta, items):
        return n.Requirement((items[0],), span=_off(meta))

    def req_symbol(self, meta, items):
        count = int(items[0]) if len(items) == 2 else 1
        self._at_least(count, 1, meta, "a symbol count")
        return n.SymbolNeed(_symbol(items[-1]), count, span=_off(meta))

    def req_of_a_kind(self, meta, items):
        count = self._at_least(int(items[0].value.split("-")[0]), 2, meta, "N-of-a-kind")
        symbol = _symbol(items[1]) if len(items) > 1 else None
        return n.OfAKind(count, symbol, span=_off(meta))

    def small_straight(self, meta, _):
        return n.Straight("small", span=_off(meta))

    def large_straight(self, meta, _):
        return n.Straight("large", span=_off(meta))

    # -- triggers
    def during(self, meta, items):
        return n.During(items[0], span=_off(meta))

    def during_next(self, meta, items):
        return n.During(items[0], True, span=_off(meta))

    def turn_edge(self, meta, items):
        return n.TurnEdge(items[0], span=_off(meta))

    def turn_edge_next(self, meta, items):
        return n.TurnEdge(items[0], "next", span=_off(meta))

    def turn_edge_this(self, meta, items):
        return n.TurnEdge(items[0], "this", span=_off(meta))

    def phase_edge(self, meta, items):
        return n.PhaseEdge(items[0], items[1], span=_off(meta))

    def edge(self, meta, items):
        return str(items[0]).lower()

    def conclude(self, meta, items):
        return n.Conclude(items[0], len(items) > 1, span=_off(meta))

    def with_attack(self, meta, _):
        return True

    def results_in_attack(self, meta, items):
        return n.Conclude(items[0], True, span=_off(meta))

    def attacked(self, meta, items):
        by_opponent = "by_opponent" in items
        damage_type = except_type = None
        for i in items:
            if isinstance(i, tuple):
                damage_type, except_type = i
        return n.Attacked(by_opponent, damage_type, except_type, span=_off(meta))

    def by_opponent(self, meta, _):
        return "by_opponent"

    def with_type(self, meta, items):
        return (items[0], None)

    def with_any_type(self, meta, items):
        return ("any", items[0] if items else None)

    def attacking(self, meta, _):
        return n.Attacking(span=_off(meta))

    def spent(self, meta, _):
        return n.Spent(span=_off(meta))

    def gained_at_limit(self, meta, _):
        return n.GainedAtLimit(span=_off(meta))

    def reads(self, meta, items):
        return n.Reads(items[0], int(items[1]), span=_off(meta))

    def would_exceed(self, meta, items):
        return n.WouldExceed(items[0], int(items[1]), span=_off(meta))

    def any_time(self, meta, _):
        return n.AnyTime(span=_off(meta))

    def damaged_by_phase(self, meta, items):
        return n.DamagedByPhase(items[0], span=_off(meta))

    def damaged(self, meta, items):
        return n.Damaged(bool(items), span=_off(meta))

    def from_status(self, meta, _):
        return True

    def gained(self, meta, _):
        return n.Gained(span=_off(meta))

    def healed(self, meta, _):
        return n.Healed(span=_off(meta))

    def plays_card(self, meta, items):
        kind = str(items[0]) if items else None
        return n.PlaysCard(kind, span=_off(meta))

    def spends_status(self, meta, items):
        return n.SpendsStatus(items[0], span=_off(meta))

    # -- targets
    def chosen(self, meta, items):
        return "chosen_" + items[0]

    def who(self, meta, items):
        return str(items[0]).lower()

    def attacker(self, meta, _):
        return "attacker"

    def defender(self, meta, _):
        return "defender"

    def each_opponent(self, meta, _):
        return "each_opponent"

    def each_player(self, meta, _):
        return "each_player"

    def leader(self, meta, _):
        return "leader"

    def left_opponent(self, meta, _):
        return "left_opponent"

    def right_opponent(self, meta, _):
        return "right_opponent"

    def double_attack(self, meta, _):
        return n.DoubleAttack(span=_off(meta))

    def up_to_opponents(self, meta, items):
        self.saw_up_to = True
        return _UpTo(int(items[0]), "chosen_opponent")

    def up_to_players(self, meta, items):
        self.saw_up_to = True
        return _UpTo(int(items[0]), "chosen_player")

    def opponent(self, meta, _):
        return "opponent"

    def yourself(self, meta, _):
        return "self"

    def them(self, meta, _):
        return "them"  # the player named last: resolved by the checker

    def target_to(self, meta, items):
        return items[0]

    def target_on(self, meta, items):
        return items[0]

    def target_from(self, meta, items):
        return items[0]

    # -- names
    def the_name(self, meta, items):
        return items[0]

    def name(self, meta, items):
        if len(items) == 1 and items[0].type == "PARAM":
            return items[0].value
        return " ".join(t.value for t in items)


_RULES = {name: f.base_func for name, f in vars(_Builder).items() if hasattr(f, "visit_wrapper")}


def _symbol(tok: Token | str) -> str:
    return " ".join(str(tok)[1:-1].split())


def _merge(items: list) -> tuple:
    """Join repeated symbols: `[Paw] [Paw]` is `2 [Paw]`; other items keep their order."""
    merged: list = []
    index: dict[str, int] = {}
    for item in items:
        if isinstance(item, n.SymbolNeed) and item.symbol.lower() in index:
            i = index[item.symbol.lower()]
            prev = merged[i]
            merged[i] = n.SymbolNeed(prev.symbol, prev.count + item.count, span=prev.span)
            continue
        if isinstance(item, n.SymbolNeed):
            index[item.symbol.lower()] = len(merged)
        merged.append(item)
    return tuple(merged)
