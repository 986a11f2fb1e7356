"""The Kingdoms of Valeria effect language: sheet and card text in, a small typed AST out.

Reward pips, Statue cards, Domain powers and Solo events are written as
sentences (`grammar/valeria.lark`, the same family as the Dice Throne
grammar): `Mark a Citizen of your choice.`, `Gain 1 VP for every 3 Gold pips.`,
`You may flip the Green die to its opposite side.`  Parse errors are
`dtc.parser.Problem`s with offsets, turned into diagnostics by the checker
like any effect text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from dtc.parser import Problem
from dtc.resources import data_dir

# What `Mark ...` marks, and what `Gain N VP for every ...` counts.
MARK_TARGETS = ("citizen_choice", "guild_citizen", "gold", "road", "wall", "lair_choice", "track_choice")
COUNTABLES = (
    "bridges",
    "domains",
    "gold_pips",
    "wall_stars",
    "lairs",
    "star_pips",
    "citizen_pips",
    "reward_pips",
)


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class Mark:
    count: int
    target: str  # one of MARK_TARGETS
    name: str | None = None  # the guild, for guild_citizen
    name_span: Span | None = None
    span: Span | None = None


@dataclass(frozen=True)
class TakeStatue:
    span: Span | None = None


@dataclass(frozen=True)
class Score:
    vp: int
    per: int
    what: str  # one of COUNTABLES
    name: str | None = None  # the guild, for citizen_pips; the reward, for reward_pips
    name_span: Span | None = None
    span: Span | None = None
    section: str | None = None  # reward_pips: only those in this section (`in your Gold Chart`)


@dataclass(frozen=True)
class CountStars:
    count: int
    span: Span | None = None


@dataclass(frozen=True)
class Perform:
    count: int
    reward: str
    name_span: Span | None = None
    span: Span | None = None


@dataclass(frozen=True)
class Adjust:
    up: int
    down: int
    die: str | None  # a die color, or None for "any 1 colored die"
    name_span: Span | None = None
    span: Span | None = None


@dataclass(frozen=True)
class Flip:
    die: str
    name_span: Span | None = None
    span: Span | None = None


@dataclass(frozen=True)
class Void:
    kind: str  # citizen | domain | lair
    name: str  # "9/10" for citizens
    name_span: Span | None = None
    span: Span | None = None


Statement = Mark | TakeStatue | Score | CountStars | Perform | Adjust | Flip | Void


def to_json(statements: tuple[Statement, ...]) -> list[dict]:
    """Plain data for a parsed text (spans left out), for schemas and golden files."""
    out = []
    for s in statements:
        data = {k: v for k, v in asdict(s).items() if not k.endswith("span") and v is not None}
        out.append({"statement": type(s).__name__, **data})
    return out


# ------------------------------------------------------------------ parser


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    text = (data_dir("grammar") / "valeria.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False)


@lru_cache(maxsize=2048)
def parse(text: str) -> tuple[tuple[Statement, ...] | None, list[Problem]]:
    """Parse a Valeria effect text into statements, or problems with offsets."""
    if not text.strip():
        return None, [Problem("P002", "the text is empty", 0, 1, "write the effect, e.g. `Mark a Gold pip.`")]
    try:
        tree = lark_parser().parse(text)
    except UnexpectedInput as exc:
        return None, [_explain(exc, text)]
    return tuple(_Build().transform(tree).children), []


_DESCRIBE = {
    "NAME": "a name",
    "INT": "a number",
    "DOT": "`.`",
    "$END": "the end of the text",
    "OF_YOUR_CHOICE": "`of your choice`",
}


def _expected(names: set[str]) -> str:
    shown = set()
    for name in names:
        if name in _DESCRIBE:
            shown.add(_DESCRIBE[name])
            continue
        for t in lark_parser().terminals:
            if t.name == name:
                shown.add(f"`{t.pattern.value}`" if t.pattern.type == "str" else name.lower())
    listed = sorted(shown)
    return ", ".join(listed[:8] + (["…"] if len(listed) > 8 else []))


def _explain(exc: UnexpectedInput, text: str) -> Problem:
    hint = (
        "sentences read like the sheet: `Mark a Gold pip.`, `Take a Statue.`, "
        "`Gain 1 VP for every Domain.`, `You may flip the Green die.`"
    )
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        if text[pos : pos + 1].isalpha():  # a keyword matched the start of a longer word: show the word
            start, end = pos, pos
            while start > 0 and text[start - 1].isalpha():
                start -= 1
            while end < len(text) and text[end].isalpha():
                end += 1
            return Problem("P001", f"unexpected word `{text[start:end]}`", start, end, hint)
        return Problem(
            "P004",
            f"unexpected character `{text[pos : pos + 1]}`",
            pos,
            pos + 1,
            "Valeria effects use words, numbers, `/` (as in `9/10`) and `.`",
        )
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        expected = set(getattr(exc, "expected", None) or getattr(exc, "accepts", set()))
        end = len(text.rstrip())
        return Problem(
            "P002",
            f"the text ends too early; expected {_expected(expected)}",
            max(0, end - 1),
            max(1, end),
            "end every sentence with `.`",
        )
    assert isinstance(exc, UnexpectedToken)
    token: Token = exc.token
    where = token.start_pos or 0
    end = token.end_pos if token.end_pos is not None else where + 1
    expected = set(exc.accepts or exc.expected)
    return Problem(
        "P001",
        f"unexpected `{token.value}`; expected {_expected(expected)}",
        where,
        max(end, where + 1),
        hint,
    )


def _span(meta) -> Span | None:
    return None if getattr(meta, "empty", True) else Span(meta.start_pos, meta.end_pos)


@dataclass(frozen=True)
class _Name:
    text: str
    span: Span


def _n(name) -> tuple[str | None, Span | None]:
    return (name.text, name.span) if isinstance(name, _Name) else (None, None)


class _Build(Transformer):
    """Parse tree -> statements."""

    @v_args(meta=True)
    def name(self, meta, tokens):
        return _Name(" ".join(t.value for t in tokens), Span(meta.start_pos, meta.end_pos))

    def count(self, items):
        return int(items[0])

    def one(self, items):
        return 1

    def section(self, items):
        return items[0].value.lower()

    # -- targets of `mark`
    def any_citizen(self, items):
        return ("citizen_choice", None)

    def guild_citizen(self, items):
        return ("guild_citizen", items[0])

    def section_pip(self, items):
        return (items[0], None)

    def lair_pip(self, items):
        return ("lair_choice", None)

    def track_pip(self, items):
        return ("track_choice", None)

    @v_args(meta=True)
    def mark(self, meta, items):
        items = [i for i in items if not (isinstance(i, Token) and i.type == "IMMEDIATELY")]
        count = items[0] if isinstance(items[0], int) else 1
        target, name = items[-1]
        text, span = _n(name)
        return Mark(count, target, text, span, _span(meta))

    @v_args(meta=True)
    def take(self, meta, items):
        return TakeStatue(_span(meta))

    # -- scoring
    def bridges(self, items):
        return ("bridges", None)

    def domains(self, items):
        return ("domains", None)

    def gold_pips(self, items):
        return ("gold_pips", None)

    def wall_stars(self, items):
        return ("wall_stars", None)

    def lairs(self, items):
        return ("lairs", None)

    def star_pips(self, items):
        return ("star_pips", None)

    def reward_pips(self, items):
        return ("reward_pips", items[0])

    def reward_pips_in(self, items):
        """`Plinth pips in your Gold Chart`: those of one section only ("Statue Cards" #7)."""
        return ("reward_pips", items[0], items[-1])

    def citizen_pips(self, items):
        return ("citizen_pips", items[0])

    @v_args(meta=True)
    def score(self, meta, items):
        numbers = [int(i) for i in items if isinstance(i, Token) and i.type == "INT"]
        what, name, *section = items[-1]
        text, span = _n(name)
        return Score(numbers[0], numbers[1] if len(numbers) > 1 else 1, what, text, span, _span(meta),
                     section[0] if section else None)

    @v_args(meta=True)
    def stars(self, meta, items):
        count = next(i for i in items if isinstance(i, Token) and i.type == "INT")
        return CountStars(int(count), _span(meta))

    @v_args(meta=True)
    def perform(self, meta, items):
        count = int(next(i for i in items if isinstance(i, Token) and i.type == "INT"))
        name = next(i for i in items if isinstance(i, _Name))
        return Perform(count, name.text, name.span, _span(meta))

    @v_args(meta=True)
    def perform_one(self, meta, items):
        name = next(i for i in items if isinstance(i, _Name))
        return Perform(1, name.text, name.span, _span(meta))

    # -- dice powers
    def named_die(self, items):
        return items[0]

    def any_die(self, items):
        return None

    @v_args(meta=True)
    def adjust(self, meta, items):
        up, down, die = int(items[0]), int(items[1]), items[2]
        text, span = _n(die)
        return Adjust(up, down, text, span, _span(meta))

    @v_args(meta=True)
    def flip(self, meta, items):
        name = items[0]
        return Flip(name.text, name.span, _span(meta))

    # -- solo events
    @v_args(meta=True)
    def void_citizen(self, meta, items):
        numbers = [i.value for i in items if isinstance(i, Token) and i.type == "INT"]
        return ("citizen", _Name("/".join(numbers), Span(meta.start_pos, meta.end_pos)))

    def void_domain(self, items):
        return ("domain", items[0])

    def void_lair(self, items):
        return ("lair", items[0])

    @v_args(meta=True)
    def void(self, meta, items):
        kind, name = items[0]
        return Void(kind, name.text, name.span, _span(meta))


def parse_or_raise(text: str) -> tuple[Statement, ...]:
    """For tests and tools: the statements, or ValueError with the first problem."""
    statements, problems = parse(text)
    if problems:
        raise ValueError(problems[0].message)
    return statements  # type: ignore[return-value]


def describe(statements: Any) -> str:
    """A short reading of the statements (for `dtc show`-like views and disassembly notes)."""
    return "; ".join(type(s).__name__ for s in statements)
