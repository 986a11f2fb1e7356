"""Sentences that were accepted and run with another meaning (issue "Reading real card text right"):
each is played in a scripted game that shows the printed meaning.

The rules they are checked against: 000_eaa64e0770891241.txt (Vanguard), "Turn Phases" (the
Offensive Roll Phase and its Roll Attempts), "Reducing Damage" (prevention on the total of a
phase's dmg), "Resolving Text"; 003_bd4cabbe7964005d.txt, "Status Effects and Tokens" (Bounty: "the
Attacker increases their dmg by 1 and gains 1 CP").
"""

from __future__ import annotations

import pytest
from test_engine import answers, compiled_with_cards, drive, events, give_card, new_game, status

from dtc.dicethrone.requests import Action
from dtc.dicethrone.state import Attack
from dtc.explain import explain
from dtc.parser import parse_effect


def _card(name: str, effect: str, timing: str = "main") -> str:
    return f"""\
  - name: {name}
    kind: action
    authored: a test card
    timing: {timing}
    cost: 0
    effect: "{effect}"
"""


def _lint_errors(tmp_path, cards: str = "", replace=()) -> list[str]:
    """The error messages of the built-in content with the Druid's file changed."""
    from conftest import content_copy

    from dtc import project

    return [d.message for d in project.run([content_copy(tmp_path, "druid.yaml", replace, "", cards)]).errors]


def _play(game, seat: int, name: str) -> None:
    give_card(game, seat, name)
    drive(game.perform(seat, Action("play", name, 0, 0)), answers())


def test_a_sum_then_per_adds_the_count_to_the_first_number(tmp_path):
    """`Deal 4 + 1 dmg per Chaos token you have.` is 4 + (1 per token): 6 with 2 tokens, not (4 + 1) × 2
    = 10 (nor the 0 it was with none)."""
    compiled = compiled_with_cards(tmp_path, "druid.yaml", _card(
        "Test Sum", "Deal 4 + 1 dmg per Shape Shift token you have."))
    game = new_game(compiled, ["druid", "duelist"])
    game.seats[0].hand.clear()
    game.phase = "Main Phase (1)"
    game.gain_status(0, status(compiled, "Shape Shift"), 2, 0)
    assert game.status_count(0, status(compiled, "Shape Shift")) == 2
    _play(game, 0, "Test Sum")
    assert [e["amount"] for e in events(game, "deal")] == [6]


def test_the_printed_example_with_chaos_reads_as_a_sum():
    """The sentence as printed, with Chaos (a Minions' and Bosses' status): the tree is 4 + (1 per
    Chaos), for any holder."""
    effect, problems = parse_effect("Deal 4 + 1 dmg per Chaos token you have.")
    assert problems == []
    amount = effect.body[0].amount
    assert type(amount).__name__ == "Sum"
    assert amount.terms[0].value == 4 and type(amount.terms[1]).__name__ == "Per"


def test_their_is_a_word_not_the_keyword_the(builtin):
    """`At the end of their turn, gain 1 CP.` said "unknown phase `ir turn`": `the` matched inside
    `their`. In a status effect (third person) it is the holder's turn."""
    druid = next(h for h in builtin.content.heroes if h.name == "Druid")
    regenerate = next(s for s in druid.statuses if s.name == "Regenerate")
    view = explain(builtin.content, druid, "At the end of their turn, gain 1 CP.", "status", [1, 2, 3],
                   1, regenerate, "main")
    assert [d.message for d in view.diagnostics if d.severity == "error"] == []
    assert "TurnEdge(edge='end', whose='your')" in view.tree


@pytest.mark.parametrize("text", [
    "When your opponent concludes their Offensive Roll Phase with an Attack, gain 1 CP.",
    "Deal 3 dmg to another player.",
])
def test_a_keyword_never_matches_inside_a_longer_word(text):
    """`their`, `another`: no problem points inside a word (it was "unexpected `s`", "`ir`")."""
    _, problems = parse_effect(text)
    for p in problems:
        words = text[p.start:p.end]
        assert words[:1].isalpha() and words[-1:].isalpha(), (words, p.message)
        assert (p.start == 0 or not text[p.start - 1].isalpha()) and not text[p.end:p.end + 1].isalpha()


def test_the_attackers_added_dmg_and_cp_go_to_the_attacker(tmp_path):
    """"When a player afflicted with this token is Attacked, the Attacker increases their dmg by 1 and
    gains 1 CP." (Bounty): the Attacker, not the token's holder, gains the CP (the phrasebook dropped the
    subject, and the holder gained it)."""
    compiled = compiled_with_cards(tmp_path, "duelist.yaml", "", status="""\
  - name: Test Bounty
    polarity: negative
    stack_limit: 1
    authored: a test status, printed as Bounty
    effects:
      - >-
        When a player afflicted with this token is Attacked, the Attacker increases their dmg by 1
        and gains 1 CP.""")
    game = new_game(compiled, ["druid", "duelist"])
    game.gain_status(1, status(compiled, "Test Bounty"), 1, 0)
    druid, duelist = game.seats
    druid.cp, duelist.cp = 2, 2
    game.phase = "Offensive Roll Phase"
    game.attack = Attack(0, 1, druid.abilities[0], False, 0, True)
    drive(game.fire(1, "attacked", None, 0, 1), answers())
    assert (druid.cp, duelist.cp) == (3, 2)
    assert game.incoming[1].added == 1  # the Attack on the holder hits 1 harder


def test_skipping_the_phase_at_its_start_skips_this_one(tmp_path):
    """"At the start of your Offensive Roll Phase, ... skip your Offensive Roll Phase": the phase only
    begun is skipped (no roll, no Attack), not the next turn's."""
    compiled = compiled_with_cards(tmp_path, "duelist.yaml", "", status="""\
  - name: Test Daze
    polarity: negative
    stack_limit: 1
    authored: a test status
    effects:
      - At the start of your Offensive Roll Phase, remove this token and skip your Offensive Roll Phase.""")
    game = new_game(compiled, ["duelist", "druid"], dice=[1, 1, 1, 1, 1])
    game.turn_no = 2
    game.gain_status(0, status(compiled, "Test Daze"), 1, 0)
    drive(game.roll_phases(0), answers())
    assert not events(game, "roll") and game.attack is None
    assert game.status_count(0, status(compiled, "Test Daze")) == 0
    assert not game.seats[0].skip  # nothing left over for the next turn
    game2_rolls = len(events(game, "roll"))
    drive(game.roll_phases(0), answers())  # the next turn's phase rolls as usual
    assert len(events(game, "roll")) > game2_rolls


def test_another_players_roll_attempt_is_refused(tmp_path):
    """`A chosen player performs 1 additional Roll Attempt` linted clean and did nothing outside her
    own Offensive Roll Phase: a Roll Attempt is the roller's own ("Turn Phases")."""
    text = "A chosen player performs 1 additional Roll Attempt."
    errors = _lint_errors(tmp_path, _card("Test Attempt", text, "roll"))
    assert any("only by the player whose Offensive Roll Phase it is" in m for m in errors), errors


def _druid_attack(tmp_path, effect: str):
    compiled = compiled_with_cards(tmp_path, "druid.yaml", "", replace=[(
        "      - requires: 3 [Claw]\n        effect: Deal 4 dmg.\n",
        f"      - requires: 3 [Claw]\n        effect: {effect}\n")])
    game = new_game(compiled, ["druid", "duelist"], dice=[1, 1, 1, 4, 5] + [6] * 10)
    game.turn_no = 2
    return game


def test_this_attack_deals_is_read_after_its_dmg_lands(tmp_path):
    """`If this attack deals at least 1 dmg, you take 4 dmg` could not be said; the form that linted
    (`If you dealt at least 1 dmg this turn`) was read before the dmg landed and never fired. The
    self-inflicted dmg is a source of its own."""
    game = _druid_attack(tmp_path, "Deal 4 undefendable dmg. "
                                   "If this attack deals at least 1 dmg, you take 4 dmg.")
    druid, duelist = game.seats
    drive(game.roll_phases(0), answers(Activate=0))
    assert duelist.health == duelist.start_health - 4
    assert druid.health == druid.start_health - 4


def test_this_attack_deals_too_little_does_nothing(tmp_path):
    game = _druid_attack(tmp_path, "Deal 4 undefendable dmg. If this Attack deals at least 5 dmg, gain 3 CP.")
    druid, duelist = game.seats
    cp = druid.cp
    drive(game.roll_phases(0), answers(Activate=0))
    assert duelist.health == duelist.start_health - 4 and druid.cp == cp


def test_dealt_this_turn_in_an_offensive_ability_is_refused(tmp_path):
    errors = _lint_errors(tmp_path, replace=[(
        "      - requires: 3 [Claw]\n        effect: Deal 4 dmg.\n",
        "      - requires: 3 [Claw]\n        effect: Deal 4 dmg. If you dealt at least 1 dmg this turn, "
        "gain 1 CP.\n")])
    assert any("before its Attack's dmg lands" in m for m in errors), errors


def test_an_attack_condition_outside_an_attack_is_refused(tmp_path):
    errors = _lint_errors(tmp_path, _card("Test Late", "If this Attack deals at least 1 dmg, gain 1 CP."))
    assert any("is read once an Attack's dmg has landed" in m for m in errors), errors


def test_your_own_dmg_is_not_reduced_by_what_you_prevent_of_the_opponents(tmp_path):
    """"you take 4 dmg" was summed with the opponent's counter-dmg, so a prevention the hero played
    against that reduced her own dmg too: it is a source of its own ("Reducing Damage")."""
    compiled = compiled_with_cards(tmp_path, "druid.yaml", _card("Test Recoil", "You take 3 dmg.",
                                                                 "instant"))
    game = new_game(compiled, ["druid", "duelist"])
    druid = game.seats[0]
    druid.hand.clear()
    game.phase = "Main Phase (1)"
    game.accumulate = True
    from dtc.vm import RunContext

    game.deal(RunContext(1, game.seats[1].table.index), 0, 2, 0, False)  # the opponent's 2 dmg
    _play(game, 0, "Test Recoil")
    game.prevent(RunContext(0, druid.table.index), 0, 4)  # she prevents 4 of what comes at her
    drive(game.land_damage(None), answers())
    assert druid.health == druid.start_health - 3  # her own 3 whole; pooled, it was 5 - 4 = 1


def _holding(tmp_path, text: str):
    compiled = compiled_with_cards(tmp_path, "duelist.yaml", "", status=f"""\
  - name: Test Mark
    polarity: negative
    stack_limit: 1
    authored: a test status
    effects:
      - {text}""")
    game = new_game(compiled, ["duelist", "druid"], dice=[1, 1, 1, 1, 1] + [6] * 20)
    game.gain_status(0, status(compiled, "Test Mark"), 1, 0)
    return game


def test_at_the_end_of_their_turn_is_the_holders_turn_end(tmp_path):
    """`At the end of their turn, gain 1 CP.` in a status: its holder gains the CP as her turn ends."""
    game = _holding(tmp_path, "At the end of their turn, gain 1 CP.")
    cp = game.seats[0].cp
    game.active, game.turn_no = 0, 2
    drive(game.turn_edge(0, "end"), answers())
    assert game.seats[0].cp == cp + 1


def test_concludes_their_offensive_roll_phase_with_an_attack(tmp_path):
    """"When a player afflicted with this token concludes their Offensive Roll Phase with an Attack,
    gain 1 CP." said "unexpected `s`": it lints, and the holder gains the CP when she attacks."""
    game = _holding(tmp_path, "When a player afflicted with this token concludes their Offensive Roll Phase "
                              "with an Attack, gain 1 CP.")
    cp = game.seats[0].cp
    game.turn_no = 2
    drive(game.roll_phases(0), answers(Activate=0))
    assert events(game, "activate") and game.seats[0].cp == cp + 1


def test_tokens_after_a_status_name_are_the_status_and_nothing_else_is_swallowed():
    """`Gain 2 Chaos Tokens`: `Tokens` after the name is the lexicon's optional word, read as the status
    (explicitly, not swallowed into a longer name); a word that is not `token(s)` is part of the name,
    and an unknown name is reported as such."""
    effect, problems = parse_effect("Gain 2 Chaos Tokens.")
    assert problems == [] and effect.body[0].status.name == "Chaos"
    effect, problems = parse_effect("If you have 3 Chaos Tokens, gain 1 CP.")
    assert problems == [] and effect.body[0].condition.what == "Chaos"
    effect, _ = parse_effect("Gain 2 Chaos Tokenz.")
    assert effect.body[0].status.name == "Chaos Tokenz"


@pytest.mark.parametrize("moment", ["During your Offensive Roll Phase",
                                    "At the start of your Offensive Roll Phase"])
def test_an_additional_roll_attempt_given_as_the_phase_begins_is_performed(tmp_path, moment):
    """`During your Offensive Roll Phase, perform 1 additional Roll Attempt.` linted clean and did
    nothing: the phase set its Roll Attempts after its start and `During` effects had run, and the
    one given was lost. Three Roll Attempts and one more ("Turn Phases"): four in all, so after her
    first roll she is asked three times what to re-roll."""
    from dtc.dicethrone.requests import RollDice

    game = _holding(tmp_path, f"{moment}, perform 1 additional Roll Attempt.")
    game.turn_no = 2
    _, asked = drive(game.roll_phases(0), answers(RollDice=lambda r: [0]))
    rolls = [r for r in asked if isinstance(r, RollDice)]
    assert [r.attempt for r in rolls] == [1, 2, 3] and rolls[0].attempts == 4


@pytest.mark.parametrize("moment", ["During your Offensive Roll Phase",
                                    "At the start of your Offensive Roll Phase"])
def test_dmg_added_before_the_attack_is_made_goes_to_it(tmp_path, moment):
    """`During your Offensive Roll Phase, add 2 dmg.` linted clean and added nothing: the Attack is
    made later in the phase, and an addition with no Attack was dropped. It waits for the Attack
    ("Attack Modifiers"), which lands 2 more dmg than the same roll without it."""
    def defender_takes(text: str) -> int:
        game = _holding(tmp_path / str(len(text)), text)
        game.turn_no = 2
        drive(game.roll_phases(0), answers(Activate=0))
        assert events(game, "activate")
        return game.seats[1].start_health - game.seats[1].health

    plain = defender_takes("At the end of your turn, gain 1 CP.")
    assert defender_takes(f"{moment}, add 2 dmg.") == plain + 2


@pytest.mark.parametrize("moment", ["During your Upkeep Phase", "At the end of your turn",
                                    "When you are Attacked", "At the end of your Offensive Roll Phase"])
def test_a_roll_attempt_given_when_no_roll_attempt_comes_is_refused(tmp_path, moment):
    """A Roll Attempt given where its holder's Offensive Roll Phase has none left to perform linted
    clean and did nothing (the engine adds attempts only then, "Turn Phases")."""
    errors = _lint_errors(tmp_path, replace=[("    effects:\n", f"""\
    effects:
      - {moment}, perform 1 additional Roll Attempt.
""")])
    assert any("is never then" in m for m in errors), errors
