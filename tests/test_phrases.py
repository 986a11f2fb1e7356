"""The phrasebook: printed phrasings rewritten to the core language, spans kept on the printed text.

The phrasings come from the rulebooks' own card and token texts (000_eaa64e0770891241.txt, the
Vanguard hero boards and "Status Effects"; 003_bd4cabbe7964005d.txt, "Status Effects and Tokens").
"""

from __future__ import annotations

import pytest

from dtc import nodes as n
from dtc import phrases
from dtc.parser import parse_effect
from dtc.project import builtin_content_dir
from dtc.render import render_effect


@pytest.fixture(scope="module")
def book(builtin):
    """The built-in phrasebook as the checker reads a Druid's text (the Druid's names shielded)."""
    from dtc.checker import Checker

    checker = Checker(builtin.content)
    checker.book = checker.check_phrasebooks()
    druid = next(h for h in builtin.content.heroes if h.name == "Druid")
    statuses = [s for ss in builtin.content.status_sets for s in ss.statuses]
    return checker.hero_scope(druid, builtin.content.rulesets[0], statuses).phrasebook


@pytest.mark.parametrize("printed, core", [
    ("Gain two CP.", "Gain 2 CP."),
    ("Take 3 damage.", "Receive 3 dmg."),
    ("Heal 3 Health.", "Heal 3."),
    ("Prevent 6 incoming damage.", "Prevent 6 dmg."),
    ("Deal five undefendable damage to the Attacking player.", "Deal 5 undefendable dmg to the Attacker."),
    ("Draw a card.", "Draw 1 card."),
    ("Gain 3 Combat Points.", "Gain 3 CP."),
    # Wound, as printed ("Druid" > "Status Effects"), read from the afflicted player's side
    ("A player afflicted with this token is dealt 1 dmg during their Upkeep Phase. Then roll 1 die: on "
     "4-6, remove this token.",
     "During your Upkeep Phase, receive 1 dmg. Then roll 1 die: On 4-6, remove this token."),
    # Blind ("Status Effects and Tokens")
    ("The next time a player afflicted with this token concludes their Offensive Roll Phase, they must "
     "remove it and roll 1 Chaos die. On 1-2, their Offensive Roll Phase fails and has no effect of any "
     "kind.",
     "When you conclude your Offensive Roll Phase, you must remove this token and roll 1 Chaos die. On 1-2, "
     "your Offensive Roll Phase fails."),
])
def test_printed_phrasings_read_as_the_core_language(book, printed, core):
    got, problems = parse_effect(printed, book)
    want, _ = parse_effect(core)
    assert problems == [] and got == want


def test_spans_point_at_the_printed_words(book):
    text = "Deal 3 damage to the Attacking player."
    effect, _ = parse_effect(text, book)
    deal = effect.body[0]
    assert text[deal.span.start:deal.span.end] == "Deal 3 damage to the Attacking player"
    _, problems = parse_effect("Deal three damage to the Attacking plyer.", book)
    assert problems and problems[0].start >= len("Deal three damage to the")  # the caret on the typo


def test_the_contents_own_names_are_never_rewritten(builtin):
    """A status named `Bonus Damage` (Adventures) keeps its name; `3 damage` beside it is `3 dmg`."""
    result = builtin
    status = next(s for ss in result.content.status_sets for s in ss.statuses if s.name == "Bonus Damage")
    assert status.effects and all(site.ast is not None for site in status.effects)
    book = phrases.phrasebook([("damage", "dmg")]).shielding(["Bonus Damage"])
    reading = phrases.read("Remove 1 Bonus Damage and deal 3 damage.", book)
    assert reading.text == "Remove 1 Bonus Damage and deal 3 dmg."


def test_a_phrase_builds_on_another_and_a_loop_is_reported():
    book = phrases.phrasebook([("damage", "dmg"), ("take {n} dmg", "receive {n} dmg"), ("three", "3")])
    assert phrases.read("Take three damage.", book).text == "receive 3 dmg."
    loop = phrases.phrasebook([("heal {n}", "heal {n} more")])
    effect, problems = parse_effect("Heal 2.", loop)
    assert effect is None and problems[0].code == "P005"


@pytest.mark.parametrize("say, means, why", [
    ("{n} dmg", "dmg", "must start with a plain word"),
    ("take {a} {b} dmg", "x {a} {b}", "side by side"),
    ("take {n} dmg", "receive {m} dmg", "`{m}` is used in `means`"),
    ("grow {a} {b} {c} {d} {e}", "x", "at most 4 parameters"),
])
def test_unusable_phrases_say_why(say, means, why):
    assert why in phrases.pattern_problems(say, means)[0]


def test_a_broken_phrase_in_a_phrasebook_file_is_reported_where_it_is(lint_text):
    result = lint_text("phrasebook: Mine\nphrases:\n  - say: '{n} dmg'\n    means: dmg\n", "phrases.yaml")
    found = [d for d in result.diagnostics if d.code == "C020"]
    assert found and found[0].span.line == 3 and "plain word" in found[0].message


def test_a_designer_adds_a_phrasing_as_data(tmp_path):
    """A phrasebook of one's own (no Python) makes a new printed phrasing lint and compile."""
    import shutil

    from dtc import project

    content = tmp_path / "content"
    shutil.copytree(builtin_content_dir(), content)
    hero = content / "heroes" / "druid.yaml"
    hero.write_text(hero.read_text().replace("effect: Gain Regenerate. Deal 5 dmg.",
                                             "effect: Gain Regenerate. Smack them for 5."), encoding="utf-8")
    assert any(d.code == "C005" for d in project.run([content]).errors)
    book = content / "rules" / "phrasebook.yaml"
    book.write_text(book.read_text() + '  - {say: "smack them for {n}", means: "deal {n} dmg"}\n',
                    encoding="utf-8")
    result = project.run([content])
    assert result.errors == []
    druid = next(h for h in result.content.heroes if h.name == "Druid")
    cure = next(a for a in druid.abilities if a.name == "Nature's Cure")
    assert render_effect(cure.options[0].effect.ast) == "Gain Regenerate. Deal 5 dmg."


def test_run_together_amounts_are_spaced_with_a_warning(book):
    effect, problems = parse_effect("Gain 3CP and deal 2dmg.", book)
    assert [(p.code, p.severity) for p in problems] == [("P003", "warning")] * 2
    assert effect == parse_effect("Gain 3 CP and deal 2 dmg.")[0]
    assert isinstance(effect.body[0], n.GainCP)


def test_a_wording_the_language_lacks_is_shown_how_cards_print_it(book):
    """"say how the same thing is written (from the phrasebook: take -> receive)": a printed verb the
    phrasebook knows, used another way, gets the phrasebook's wordings as its hint."""
    _, problems = parse_effect("Heal your Health fully.", book)
    assert problems[0].hint.startswith("cards print it `heal {n} Health` (read `heal {n}`)")


def test_a_one_word_parameter_takes_one_word():
    book = phrases.phrasebook([("take {n} {kind} dmg", "receive {n} {kind} dmg")])
    assert phrases.read("Take 2 pure dmg.", book).text == "receive 2 pure dmg."
    assert phrases.read("Take 2 points of dmg.", book).text == "Take 2 points of dmg."


def test_a_parameter_may_be_followed_by_its_punctuation():
    """`during your {phase}, up to ...`: the comma after a parameter belongs to the printed text (it
    was read as part of a literal word `{phase},`, and the phrase never matched)."""
    book = phrases.phrasebook([("once during your {phase}, gain {n} CP", "during your {phase}, gain {n} CP")])
    read = phrases.read("Once during your Main Phase, gain 2 CP.", book).text
    assert read == "during your Main Phase, gain 2 CP."

