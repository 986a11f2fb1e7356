"""Dice Throne Adventures: minions run by their printed bot rules (003_bd4cabbe7964005d.txt)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc import artifact, project
from dtc.adventures.battle import (
    HERO,
    MINION,
    HeroBot,
    KingsHandTable,
    MinionBattle,
    MinionBot,
    battles,
    minion_index,
)
from dtc.adventures.objective import met, rerolls
from dtc.agents.base import drive, play
from dtc.artifact import ArtifactError
from dtc.cli.main import cli
from dtc.compiler import compile_content
from dtc.dicethrone.requests import Act, Activate, RollDice
from dtc.vm import ChooseDice

ROOT = Path(__file__).resolve().parent.parent

CHAOS = {v: v - 1 for v in range(1, 7)}  # a Chaos die: face value -> symbol id (One .. Six)
SIX = 5


def test_symbols_past_the_quantity_needed_and_other_symbols_are_rerolled():
    """"7. Minion Step": re-roll any dice that do not match the Roll Objective "or which exceed
    the required quantity of a symbol"."""
    three_sixes = {"items": [{"symbol": SIX, "count": 3}]}
    assert rerolls(three_sixes, CHAOS, [6, 2, 6, 6, 6]) == []  # met: nothing more to roll
    assert rerolls(three_sixes, CHAOS, [6, 2, 6, 1, 4]) == [1, 3, 4]
    two_and_two = {"items": [{"symbol": SIX, "count": 2}, {"symbol": 4, "count": 2}]}
    assert rerolls(two_and_two, CHAOS, [6, 6, 6, 5, 1]) == [2, 4]  # the third 6 exceeds the two needed


def test_straights_keep_exactly_one_of_each_middle_number():
    """"When the Roll Objective is Straights": "Keep exactly one of each 2, 3, 4, and 5 result. The
    2 is re-rolled because only one 2 should be kept.\""""
    large = {"items": [{"straight": "large"}]}
    assert rerolls(large, CHAOS, [2, 2, 3, 5, 4]) == [1]
    assert rerolls(large, CHAOS, [5, 5, 5, 5, 5]) == [1, 2, 3, 4]


def test_straights_keep_a_1_or_6_only_when_already_part_of_a_straight():
    """"Only keep a 1 or 6 value if it is already part of a Small or Large Straight. A 6 is kept
    because it forms a Small Straight. 1 and 6 are re-rolled because neither one forms a Small or
    Large Straight.\""""
    large = {"items": [{"straight": "large"}]}
    assert rerolls(large, CHAOS, [3, 4, 5, 6, 6]) == [4]  # 3-4-5-6 is a Small Straight: one 6 kept
    assert rerolls(large, CHAOS, [1, 3, 4, 6, 2]) == [3]  # 1-2-3-4 keeps the 1; the 6 forms nothing
    small = {"items": [{"straight": "small"}]}
    assert rerolls(small, CHAOS, [1, 2, 4, 6, 6]) == [0, 3, 4]  # neither the 1 nor a 6 forms one


def test_n_of_a_kind_keeps_the_largest_group_up_to_n():
    three = {"items": [{"of_a_kind": 3, "symbol": None}]}
    assert rerolls(three, CHAOS, [2, 5, 5, 1, 2]) == [0, 3, 4]  # two 5s and two 2s: the higher kept
    assert rerolls(three, CHAOS, [4, 4, 4, 1, 4]) == []
    assert met(three, CHAOS, [4, 4, 1, 4, 2])
    assert not met(three, CHAOS, [4, 4, 1, 3, 2])


@pytest.mark.parametrize("dice, expected", [
    ([1, 2, 3, 4, 6], True), ([2, 3, 4, 5, 5], True), ([1, 2, 4, 5, 6], False), ([6, 6, 6, 6, 6], False)])
def test_a_straight_objective_is_met_by_its_run(dice, expected):
    assert met({"items": [{"straight": "small"}]}, CHAOS, dice) is expected


# ------------------------------------------------------------------ minion battles


def fight(compiled, hero: str, minion: str, seed: int, **options):
    """One recorded battle: the game, its result and every (request, answer, phase) asked."""
    game = MinionBattle(compiled, compiled.hero(hero)[0], minion_index(compiled, minion), seed, **options)
    asked = []
    result = play(game, [HeroBot(seed), MinionBot(seed + 1)],
                  recorder=lambda request, answer: asked.append((request, answer, game.phase)))
    return game, result, asked


def test_the_minion_skips_its_income_phase_and_main_phase_1(compiled):
    """"7. Minion Step": "Income Phase: Skip this phase." "Main Phase (1): Skip this phase." The hero
    has "a complete Dice Throne turn" (her Income from her first Hero Step on: the crawl is under way)."""
    for seed in range(1, 6):
        game, result, asked = fight(compiled, "druid", "portal warden", seed)
        assert not [e for e in game.events if e.get("player") == MINION
                    and (e["e"] == "draw" or (e["e"] == "cp" and e["change"] > 0))]
        assert not [r for r, _, phase in asked if isinstance(r, Act) and r.player == MINION
                    and phase == "Main Phase (1)"]
        first = next(i for i, e in enumerate(game.events) if e["e"] == "turn")
        assert any(e["e"] == "cp" and e["player"] == HERO for e in game.events[first:first + 12])
        assert result.turns >= 2


def test_a_minion_with_first_strike_attacks_the_hero_first(compiled):
    """"5. First Strike": "Any Minion with First Strike will always Attack the Hero first."; without
    it, "you going first"."""
    for seed in range(1, 4):
        for minion, first in (("sand rat", MINION), ("fairy", HERO)):
            game, _, _ = fight(compiled, "duelist", minion, seed)
            assert next(e for e in game.events if e["e"] == "turn")["player"] == first


def test_a_first_strike_minion_defeated_in_its_own_turn_leaves_the_hero_her_full_turn(compiled):
    """"5. First Strike": "If a Minion with First Strike is defeated during its turn, you still get
    your full turn afterwards. Even though there is no longer an enemy, you might still activate an
    ability which provides other benefits." The Sand Rat (First Strike) at 2 Health with Burn ("dealt 2
    damage during the Upkeep Phase of their turn") falls in its own Upkeep."""
    burn = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Burn")
    for minion, full_turn in (("sand rat", True), ("fairy", False)):
        game = MinionBattle(compiled, compiled.hero("druid")[0], minion_index(compiled, minion), 3)
        agents = [HeroBot(1), MinionBot(2)]
        drive(game, agents, game.setup())
        game.seats[MINION].health = 2
        game.gain_status(MINION, burn, 1, 0)
        drive(game, agents, game.steps())
        assert not game.seats[MINION].alive and game.over.winner == HERO
        turns = [e["player"] for e in game.events if e["e"] == "turn"]
        if full_turn:  # the minion's turn, then the hero's whole turn: her Income Phase too
            assert turns == [MINION, HERO] and game.events[-1]["e"] != "turn"
            after = game.events[next(i for i, e in enumerate(game.events) if e["e"] == "full_turn"):]
            assert any(e["e"] == "cp" and e["player"] == HERO and e["change"] > 0 for e in after)
            assert any(e["e"] == "roll" and e["player"] == HERO for e in after)  # her Offensive Roll
            assert not any(e["e"] == "defend" for e in after) and game.over.winner == HERO
            assert game.seats[MINION].health == 0
        else:  # without First Strike the hero goes first (her Attack may fell it), no turn after
            assert turns[0] == HERO and not any(e["e"] == "full_turn" for e in game.events)


@pytest.mark.parametrize("revived", [False, True])
def test_a_hero_who_falls_in_her_turn_after_the_first_strike_minion_fell(compiled, revived):
    """Her full turn after a First Strike minion fell is still her turn: Burn in her Upkeep takes her to
    0 Health; a teammate's Salve revives her to 1 and the turn goes on ("A teammate must immediately
    spend a Salve to restore you to 1 Health"), or, with none, she has fallen (the crawl is lost)."""
    burn = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Burn")
    game = MinionBattle(compiled, compiled.hero("druid")[0], minion_index(compiled, "sand rat"), 3,
                        revive=lambda p: revived)
    agents = [HeroBot(1), MinionBot(2)]
    drive(game, agents, game.setup())
    game.seats[MINION].health = 2
    game.gain_status(MINION, burn, 1, 0)
    game.seats[HERO].health = 2
    game.gain_status(HERO, burn, 1, 0)
    drive(game, agents, game.steps())  # ends: no one is left to pass the turn to
    assert game.over.winner == HERO and not game.seats[MINION].alive
    after = game.events[next(i for i, e in enumerate(game.events) if e["e"] == "full_turn"):]
    if revived:
        assert any(e["e"] == "revived" for e in after) and game.seats[HERO].health >= 1
        assert any(e["e"] == "roll" and e["player"] == HERO for e in after)
    else:
        assert not game.seats[HERO].alive
        assert not any(e["e"] == "roll" and e["player"] == HERO for e in after)


@pytest.mark.parametrize("cp, rolls", [(2, True), (1, False)])
def test_a_minions_starting_cp_pays_to_remove_knockdown(compiled, cp, rolls):
    """003_bd4cabbe7964005d.txt, "Managing Minion (CP)": "All Minions do, however, feature a Starting CP
    value to ensure effectiveness of CP based status effects (e.g. Knockdown)." With 2 CP the minion
    pays for Knockdown's removal (authored: 2 CP in its Upkeep Phase) and rolls; with 1 it cannot,
    and its Offensive Roll Phase is skipped (a Minion has no Income or Main Phase to find CP in)."""
    knockdown = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Knockdown")
    game = MinionBattle(compiled, compiled.hero("druid")[0], minion_index(compiled, "portal warden"), 3)
    agents = [HeroBot(1), MinionBot(2)]
    drive(game, agents, game.setup())
    game.gain_status(MINION, knockdown, 1, 0)
    game.seats[MINION].cp = cp
    game.active = MINION
    told = len(game.events)
    drive(game, agents, game.turn())
    step = game.events[told:]
    assert not game.seats[MINION].tokens.get(knockdown)  # removed either way
    assert any(e["e"] == "roll" and e["player"] == MINION for e in step) is rolls
    assert game.seats[MINION].cp == (0 if rolls else 1)


def test_the_minion_rerolls_by_its_roll_objective_and_stops_when_it_is_met(compiled):
    """"Re-roll any dice that do not match the Minion's Roll Objective ... Re-roll dice a second time if
    the Roll Objective has still not been met.\""""
    minion = minion_index(compiled, "portal warden")
    table = compiled.players[minion]
    objective, faces = table["minion"]["objective"], {int(v): s for v, s in table["dice"]["faces"].items()}
    seen = 0
    for seed in range(1, 6):
        _, _, asked = fight(compiled, "forgemaster", "portal warden", seed)
        for request, answer, _ in asked:
            if isinstance(request, RollDice) and request.player == MINION:
                sixes = [i for i, v in enumerate(request.dice) if v == 6][:4]
                assert answer == [i for i in range(5) if i not in sixes] if len(sixes) < 4 else answer == []
                assert answer == rerolls(objective, faces, list(request.dice))
                seen += 1
    assert seen > 5


def test_the_minion_performs_the_best_ability_it_has_fulfilled(compiled):
    """"The Minion performs the best ability that it has fulfilled the Activation Requirement for.\""""
    picked = {}
    for seed in range(1, 8):
        _, _, asked = fight(compiled, "sun elf", "portal warden", seed)
        for request, answer, _ in asked:
            if isinstance(request, Activate) and request.player == MINION:
                sixes = list(request.dice).count(6)
                label = request.choices[answer].label
                picked[label] = sixes
                assert ("Judgement" in label) == (sixes >= 4)
                assert ("Smite" in label) == (sixes == 3)
    assert len(picked) >= 2


def test_kings_hand_gives_another_offensive_roll_phase_when_no_ability_was_activated(compiled):
    """"King's Hand", "A. No Ability Activated": "Roll 1 Chaos die. A successful King's Hand roll
    gives the Boss/Minion another Offensive Roll Phase." Spending is not optional, at most the
    scenario's "Max tokens spent per turn", and the tokens are the minion's card's ("King's Hand:
    the number of King's Hand tokens the Minion begins with")."""
    always = KingsHandTable(per_turn=1, success=(1, 2, 3, 4, 5, 6))
    spent = again = 0
    for seed in range(1, 40):
        game, _, _ = fight(compiled, "druid", "raging berserker", seed, kings_hand=always)
        events = game.events
        tokens = [e for e in events if e["e"] == "kings_hand"]
        assert len(tokens) <= 1  # the Raging Berserker begins with one
        for k, e in enumerate(events):
            if e["e"] == "kings_hand":
                spent += 1
                before = events[:k]
                last_turn = max(i for i, x in enumerate(before) if x["e"] == "turn")
                assert before[last_turn]["player"] == MINION
                assert any(x["e"] == "no_ability" for x in before[last_turn:])
                after = next(x for x in events[k + 1:] if x["e"] in ("roll", "turn", "end"))
                assert after["e"] == "roll" and after["player"] == MINION and after["attempt"] == 1
                again += 1
    assert spent == again > 0
    never = KingsHandTable(per_turn=1, success=())
    for seed in range(1, 10):
        game, _, _ = fight(compiled, "druid", "raging berserker", seed, kings_hand=never)
        for k, e in enumerate(game.events):
            if e["e"] == "kings_hand":
                assert not e["success"]
                after = next(x for x in game.events[k + 1:] if x["e"] in ("roll", "turn", "end"))
                assert after["e"] != "roll"


def test_kings_hand_forces_the_hero_to_reroll_a_die_against_an_ultimate(compiled):
    """"B. When Targeted with an Ultimate": "Roll 1 Chaos die. A successful King's Hand roll forces
    you to re-roll 1 of your dice." (then she activates what her dice meet)."""
    hero = compiled.hero("druid")[0]
    game = MinionBattle(compiled, hero, minion_index(compiled, "raging berserker"), 3,
                        kings_hand=KingsHandTable(per_turn=1, success=(1, 2, 3, 4, 5, 6)))
    ultimate = next(a for a in game.seats[HERO].abilities if a.kind == "ultimate")
    need = compiled.heroes[hero]["abilities"]
    item = next(a for a in need if a["kind"] == "ultimate")["options"][0]["requirement"]["items"][0]
    face = next(v for v, s in game.seats[HERO].table.faces.items() if s == item["symbol"])
    game.roll, game.attempts = [face] * 5, 3
    asked = []

    class Hero:
        """Takes the Ultimate, re-rolls die 3 when forced; the heuristic bot's answer otherwise."""

        def answer(self, game, request):
            asked.append(request)
            if isinstance(request, Activate):
                return next((i for i, c in enumerate(request.choices)
                             if game.seats[HERO].abilities[c.ability] is ultimate), 0)
            if isinstance(request, ChooseDice):
                return [2]
            return HeroBot(1).answer(game, request)

    drive(game, [Hero(), Hero()], game.announce(HERO))
    forced = [r for r in asked if isinstance(r, ChooseDice) and r.owner == "King's Hand"]
    assert len(forced) == 1 and forced[0].most == 1
    assert game.kings_hand == 0
    assert [e["which"] for e in game.events if e["e"] == "reroll"] == [[2]]
    assert sum(isinstance(r, Activate) for r in asked) == 2  # chosen again on the dice as they are now


def test_battles_are_the_same_for_the_same_seed(compiled):
    one = battles(compiled, compiled.hero("duelist")[0], minion_index(compiled, "crimson jackal"), 30, 7)
    two = battles(compiled, compiled.hero("duelist")[0], minion_index(compiled, "crimson jackal"), 30, 7)
    assert one == two and one.games == 30
    other = battles(compiled, compiled.hero("duelist")[0], minion_index(compiled, "crimson jackal"), 30, 8)
    assert (other.wins, other.turns) != (one.turns, one.turns)


GLOOM_BAT = """minion_set: My minions
authored: a minion made up for this test
dice: Chaos
minions:
  - name: Gloom Bat
    level: 1
    health: 40
    cp: 2
    roll_objective: 2-of-a-kind
    offensive:
      - name: Screech
        requires: 2-of-a-kind
        effect: Deal 3 dmg.
    defensive:
      - name: Flit
        dice: 1
        effect: On 6, prevent 1 dmg.
"""


def test_a_new_minion_added_as_yaml_alone_fights(tmp_path):
    """Issue "Dice Throne Adventures", Done when: "A new minion is added as YAML alone and fights"."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "adventures" / "gloom-bat.yaml").write_text(GLOOM_BAT)
    result = project.run([content])
    assert not result.errors, [d.message for d in result.errors]
    loaded = artifact.load(artifact.to_bytes(compile_content(result.content)))
    game, _, _ = fight(loaded, "druid", "gloom bat", 1)
    assert any(e["e"] == "activate" and e["player"] == MINION and "Screech" in e["ability"]
               for e in game.events)
    assert any(e["e"] == "cp" and e["player"] == HERO for e in game.events)
    out = CliRunner().invoke(cli, ["adventure", "battle", "druid", "gloom bat", "--games", "5",
                                   "--ruleset", str(content), "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["minion"] == "Gloom Bat" and report["games"] == 5


def test_minion_lint_names_an_unknown_die_and_an_objective_no_roll_meets(lint_text):
    bad_die = lint_text(GLOOM_BAT.replace("dice: Chaos", "dice: Chaoz"), "m.yaml")
    assert [d.code for d in bad_die.errors] == ["C024"]
    assert "unknown die `Chaoz`" in bad_die.errors[0].message


def test_minion_objectives_are_requirements_of_its_dice(tmp_path):
    (tmp_path / "adventures.yaml").write_text((ROOT / "content/statuses/adventures.yaml").read_text())
    bad = GLOOM_BAT.replace("roll_objective: 2-of-a-kind", "roll_objective: 6 [Six]")
    (tmp_path / "m.yaml").write_text(bad.replace("requires: 2-of-a-kind", "requires: 2 [Sixx]"))
    result = project.run([tmp_path])
    found = sorted((d.code, d.span.line) for d in result.errors)
    assert found == [("C001", 12), ("C006", 9)]


@pytest.mark.parametrize("field, value", [("level", 5), ("health", 0), ("kings_hand", 10), ("cp", 16)])
def test_a_minion_edited_past_its_callouts_is_refused_in_one_line(image, field, value):
    """The artifact verifier checks a minion's card as it checks a hero (issue "Hardening")."""
    edited = copy.deepcopy(image)
    k = next(i for i, m in enumerate(edited["minions"]) if "minion" in m)
    edited["minions"][k]["minion"][field] = value
    with pytest.raises(ArtifactError) as info:
        artifact.load(artifact.to_bytes(edited))
    assert f"minions[{k}].minion.{field}" in str(info.value) and "\n" not in str(info.value)


def test_an_unknown_minion_is_a_usage_error_that_lists_the_minions():
    out = CliRunner().invoke(cli, ["adventure", "battle", "druid", "fairie"])
    assert out.exit_code == 2
    assert "no minion `fairie`" in out.output and "Fairy" in out.output
