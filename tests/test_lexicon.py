"""The lexicon and the readings built on it: keywords as whole words, amounts as printed, number words
and synonyms wherever a word can stand, and phrasebook rewrites that keep who does what.

The printed texts come from the corpus (tests/cases/printed/, see tests/test_printed.py); the readings
of amounts follow the rulebooks' own (000_eaa64e0770891241.txt, "Resolving Text"; "Reducing Damage" for
halves rounded up).
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT
from test_printed import CORPUS, DEFAULT_HERO, PRINTED, ROLL, SEED, _hero, _status
from test_printed import printed as printed  # noqa: F401  (the fixture, shared)

from dtc import phrases
from dtc.explain import explain, tokens
from dtc.parser import KEYWORD_PRIORITY, keyword_text, lark_parser, parse_effect

# ------------------------------------------------------------------ whole words

KEYWORDS = sorted({w for t in lark_parser().terminals if (w := keyword_text(t)) and w[-1:].isalpha()})
SUFFIXES = ("ir", "x", "ing", "ed", "zz")


def test_every_keyword_is_read_only_as_a_whole_word():
    """The lexer reads a keyword only as a whole word: `the` is never the start of `their`."""
    for terminal in lark_parser().terminals:
        word = keyword_text(terminal)
        if not word or not word[-1:].isalpha():
            continue
        assert terminal.priority == KEYWORD_PRIORITY, word
        regex = re.compile(terminal.pattern.to_regexp())
        for suffix in SUFFIXES:
            assert regex.match(word + suffix) is None, (word, suffix)
            assert regex.match(word + " " + suffix) is not None, word


def _sentences_with(word: str) -> list[str]:
    out = []
    for _, entry in CORPUS:
        text = entry["text"]
        if re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", text, re.I):
            out.append(text)
    return out


@pytest.mark.parametrize("word", KEYWORDS)
def test_a_keyword_with_letters_after_it_is_a_plain_word(word):
    """Every keyword of the grammar, in the corpus sentences that use it, written with letters after
    it (`theirs`, `dealx`): the lexer never reads the keyword out of the longer word."""
    for text in _sentences_with(word)[:3]:
        m = re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", text, re.I)
        for suffix in SUFFIXES:
            longer = m.group(0) + suffix
            if longer.casefold() in {k.casefold() for k in KEYWORDS}:
                continue  # `deal` + `s` is a keyword of its own
            changed = text[:m.start()] + longer + text[m.end():]
            read = tokens(changed)
            assert f"{word.upper()} {m.group(0)!r}" not in read[len(tokens(text[:m.start()])):][:1], \
                (changed, read)


# ------------------------------------------------------------------- amounts

AMOUNTS = [  # printed amount, Druid's roll (1-3 Claw, 4-5 Paw, 6 Leaf), the dmg dealt
    ("Deal 4 + 1 dmg per [Claw] rolled.", [1, 2, 3, 4, 6], 7),
    ("Deal 2 + 2 dmg per [Paw] rolled.", [4, 5, 1, 1, 1], 6),
    ("Deal 2 × [Claw] dmg.", [1, 2, 3, 4, 6], 6),
    ("Deal 1 + 2 × [Claw] dmg.", [1, 2, 4, 4, 6], 5),
    ("Deal 3 dmg plus 1 dmg per [Claw] rolled.", [1, 2, 3, 4, 6], 6),
    ("Deal 1 dmg per [Claw] rolled, up to a maximum of 2 dmg.", [1, 2, 3, 4, 6], 2),
    ("Deal dmg equal to half the total roll value (rounded up).", [1, 2, 3, 4, 5], 8),
    ("Deal dmg equal to half the total roll value (rounded down).", [1, 2, 3, 4, 5], 7),
    ("Deal dmg equal to twice the number of [Claw] rolled.", [1, 2, 3, 4, 6], 6),
    ("Deal two + one dmg per [Claw] rolled.", [1, 2, 3, 4, 6], 5),
    ("Deal 1 dmg per 2 [Claw] rolled.", [1, 2, 3, 4, 6], 1),
    ("Deal 2 + 3 dmg per 2 [Claw] rolled.", [1, 2, 3, 1, 6], 8),
    ("Deal dmg equal to the total roll value.", [1, 2, 3, 4, 6], 16),
    ("Deal dmg equal to the highest value rolled.", [1, 2, 3, 4, 5], 5),
    ("Deal five damage.", [1, 2, 3, 4, 5], 5),
]


@pytest.fixture(scope="module")
def druid(builtin):
    return next(h for h in builtin.content.heroes if h.name == "Druid")


@pytest.mark.parametrize("text, roll, dealt", AMOUNTS, ids=[a[0] for a in AMOUNTS])
def test_printed_amounts_have_their_printed_value(builtin, druid, text, roll, dealt):
    view = explain(builtin.content, druid, text, "offensive", roll, SEED)
    assert [d.message for d in view.diagnostics if d.severity == "error"] == []
    done = [line for line in view.trace if "deals" in line]
    assert done and re.search(rf"deals {dealt} \w+ dmg", done[0]), (text, done)


# ------------------------------------------------------------- variations

NUMBER_WORDS = {n: w for w, n in phrases.lexicon().numbers if " " not in w}
_SHIELDED = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\"[^\"]*\"|“[^”]*”")


def _outside_brackets(text: str, change) -> str:
    """`change` applied to the text between symbols, parameters and quoted names."""
    out, at = [], 0
    for m in _SHIELDED.finditer(text):
        out.append(change(text[at:m.start()]))
        out.append(m.group(0))
        at = m.end()
    out.append(change(text[at:]))
    return "".join(out)


def _numbers_as_words(part: str) -> str:
    return re.sub(r"(?<![\w\-/])(\d+)(?![\w\-/%])(?!\s*(?:,\s*\d|or\s+\d))",
                  lambda m: NUMBER_WORDS.get(int(m.group(1)), m.group(1)), part)


def _synonyms(part: str) -> str:
    part = re.sub(r"(?<![\w'-])dmg(?![\w'-])", "damage", part)
    part = re.sub(r"(?<![\w'-])result(?![\w'-])", "outcome", part)
    return re.sub(r"(?<![\w'-])at random(?![\w'-])", "randomly", part)


def _counted(count: str, name: str) -> str:
    """`1 Wound` as `a Wound token` (an article for the number), `2 Wound` as `2 Wound tokens`."""
    if count == "1":
        return f"{'an' if name[0].lower() in 'aeiou' else 'a'} {name} token"
    return f"{count} {name} {'token' if count in ('a', 'an') else 'tokens'}"


def _tokens_after_counts(text: str, names: list[str]) -> str:
    """`Gain 2 Shape Shift` -> `Gain 2 Shape Shift tokens` (a count before the status's name)."""
    for name in names:
        text = re.sub(rf"(?<![\w-])(\d+|a|an) ({re.escape(name)})(?![\w'’-])(?!\s+(?i:tokens?|die|dice)\b)",
                      lambda m: _counted(m.group(1), m.group(2)), text)
    return text


def variation(text: str, names: list[str]) -> str:
    """The sentence as another printing would word it: `a Wound token` for `1 Wound`, `tokens` after
    a count of a status, number words, `damage`, `outcome`, `randomly`."""
    text = _tokens_after_counts(text, names)
    text = _outside_brackets(text, _numbers_as_words)
    return _outside_brackets(text, _synonyms)


def _listing(printed, entry, text: str):
    hero = _hero(printed, entry.get("hero", DEFAULT_HERO))
    status = _status(printed, hero, entry.get("status"))
    view = explain(printed.content, hero, text, entry["as"], ROLL, SEED, status, entry.get("timing", "main"))
    errors = [d.message for d in view.diagnostics if d.severity == "error"]
    return errors, view.listing


def _status_names() -> list[str]:
    """The status effects of the corpus heroes and their shared set, longest first."""
    from ruamel.yaml import YAML

    names = set()
    for path in sorted(PRINTED.glob("*.yaml")):
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
        names |= {s["name"] for s in data.get("status_effects") or ()}
    return sorted(names, key=len, reverse=True)


NAMES = _status_names()
VARIED = [(i, e, v) for i, e in CORPUS if (v := variation(e["text"], NAMES)) != e["text"]]


@pytest.mark.parametrize("entry, varied", [(e, v) for _, e, v in VARIED], ids=[i for i, _, _ in VARIED])
def test_a_meaning_preserving_variation_compiles_to_the_same_bytecode(printed, entry, varied):  # noqa: F811
    errors, listing = _listing(printed, entry, varied)
    assert errors == [], (varied, errors)
    base_errors, base = _listing(printed, entry, entry["text"])
    assert base_errors == []
    assert listing == base, f"{entry['text']!r} and {varied!r} compile differently"


def test_the_variations_reach_most_of_the_corpus():
    assert len(VARIED) >= 0.7 * len(CORPUS), (len(VARIED), len(CORPUS))


# ---------------------------------------------------------------- phrasebook

SUBJECTS = {"attacker", "defender", "opponent", "opponents", "player", "players", "they", "teammate"}
HOLDER = {"they", "player", "players"}
_WORDS = re.compile(r"[A-Za-z']+")


def _book_entries():
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load((ROOT / "content" / "rules" / "phrasebook.yaml").read_text())
    for entry in data["phrases"]:
        says = entry["say"] if isinstance(entry["say"], list) else [entry["say"]]
        for say in says:
            yield say, entry["means"], entry.get("for")


@pytest.mark.parametrize("say, means, where", list(_book_entries()))
def test_a_phrase_keeps_the_amounts_and_the_players_it_does_not_mean_to_change(say, means, where):
    """Every amount a phrase's `say` captures is in its `means`; a player named in `say` is named in
    `means` too, unless the phrase says who the holder of a status is (`you`, in a status's text):
    `the Attacker increases their dmg by {n}` read `add {n} dmg to the Attack` dropped the Attacker."""
    amounts = {p for p in re.findall(r"\{([a-z_]+)\}", say) if p in phrases.AMOUNT_PARAMS}
    assert amounts <= set(re.findall(r"\{([a-z_]+)\}", means)), (say, means)
    named = {w.casefold() for w in _WORDS.findall(say)} & SUBJECTS
    if where == "status effects":  # `they`, `a player with this token`: the holder, `you`
        named -= HOLDER
    kept = {w.casefold() for w in _WORDS.findall(means)} & SUBJECTS
    assert not named or kept, (say, means)


def test_the_subject_before_a_rewrite_does_what_follows_it(builtin):
    """Rendered back: the Attacker adds the dmg and gains the CP (a subject is carried to the verbs
    after it, as English reads them)."""
    effect, problems = parse_effect("The Attacker increases their dmg by 1 and gains 1 CP.",
                                    phrases.phrasebook([("increases their dmg by {n}",
                                                         "adds {n} dmg to the Attack")]))
    assert problems == []
    assert [(type(s).__name__, s.target, type(s.action).__name__) for s in effect.body] == [
        ("Actor", "attacker", "AddDamage"), ("Actor", "attacker", "GainCP")]
    effect, _ = parse_effect("Your opponent discards 1 card and you gain 2 CP.")
    assert [type(s).__name__ for s in effect.body] == ["Actor", "GainCP"]


# ------------------------------------------------------------------ lexicon


def test_the_lexicon_is_data_every_text_is_read_with():
    book = phrases.lexicon()
    assert ("one", 1) in book.numbers and ("outcome", "result") in book.words
    assert phrases.read("Roll two dice: On any other outcome, discard 1 card randomly.").text == \
        "Roll 2 dice: On any other result, discard 1 card at random."


def test_a_name_is_never_read_as_a_word_of_the_lexicon():
    book = phrases.EMPTY.shielding(["Bonus Damage", "Two Moons"])
    assert phrases.read("Gain 1 Bonus Damage and 1 Two Moons.", book).text == \
        "Gain 1 Bonus Damage and 1 Two Moons."


def test_a_lexicon_in_the_content_that_is_not_the_built_in_one_is_refused(lint_text):
    result = lint_text("lexicon: Mine\nnumbers: {one: 1}\nwords: []\n", "lexicon.yaml")
    assert [d.code for d in result.errors] == ["C041"]



NUMBERS = re.compile(r"(?<![\w\[/-])\d+(?![\w\]/-])")
PLAYERS = {"attacker", "defender", "opponent", "teammate"}


def _players(text: str) -> set[str]:
    text = re.sub(r"attacking (opponent|player)", "attacker", text.lower())
    text = re.sub(r"defending (opponent|player)", "defender", text)
    return {w.rstrip("s") for w in re.findall(r"[a-z]+", text)} & PLAYERS


def _rewritten_by_the_phrasebook(printed):  # noqa: F811
    from dtc.checker import Checker

    checker = Checker(printed.content)
    book, status_book = checker.check_phrasebooks(for_status=False), checker.check_phrasebooks()
    for where, entry in CORPUS:
        if entry["as"] == "status":
            used = status_book.in_text_of(entry["status"]) if entry.get("status") else status_book
        else:
            used = book
        if phrases.read(entry["text"], used).text != phrases.read(entry["text"]).text:
            yield where, entry["text"], used


def test_a_phrasebook_rewrite_keeps_who_does_what_and_how_much(printed):  # noqa: F811
    """Every corpus sentence the phrasebook rewrites, parsed and rendered back (as `dtc explain` and
    `dtc show` render it): each number it prints and each player it names (the Attacker, the
    Defender, an opponent, a teammate) are still there. `the Attacker increases their dmg by 1 and
    gains 1 CP` rendered `add 1 dmg to the Attack and gain 1 CP`: the Attacker was gone."""
    from dtc.render import render_effect

    checked = 0
    for where, text, book in _rewritten_by_the_phrasebook(printed):
        effect, _ = parse_effect(text, book)
        assert effect is not None, (where, text)
        printed_words = phrases.read(text).text
        rendered = phrases.read(render_effect(effect)).text
        before = NUMBERS.findall(phrases.shield(printed_words))
        after = NUMBERS.findall(phrases.shield(rendered))
        assert all(before.count(x) <= after.count(x) for x in before), (where, text, rendered)
        assert _players(printed_words) <= _players(rendered), (where, text, rendered)
        checked += 1
    assert checked >= 200, checked
