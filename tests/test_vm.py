"""The VM: each opcode's meaning, each compiled ability against the rulebook, determinism.

Rulebook numbers cite 000_eaa64e0770891241.txt, "<hero>" > "Hero Board" / "Status Effects".
"""

from __future__ import annotations

import copy
import random

import pytest

from dtc import artifact
from dtc.explain import compile_text
from dtc.opcodes import TARGETS, Op
from dtc.sample import SampleState, ScriptedRNG, first_answer, run_to_end
from dtc.vm import (
    VM,
    ChooseDice,
    ChooseOption,
    PickNumber,
    RunContext,
    VMError,
    Window,
    YesNo,
    change_options,
)


def faces_of(loaded, hero_index):
    return {int(v): s for v, s in loaded.players[hero_index]["dice"]["faces"].items()}


class Scripted:
    """Answers from a list, in order; a request's type is checked as it comes."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.seen = []

    def __call__(self, request):
        self.seen.append(request)
        if isinstance(request, Window):
            return None
        return self.answers.pop(0)


def run_ability(compiled, hero, ability, roll, dice=(), answers=None, option=0, setup=None):
    """Run an ability's chunk as `hero` (player 0) against player 1; returns (state, outcome, asked)."""
    hero_index, data = compiled.hero(hero)
    entry = next(a for a in data["abilities"] if a["name"] == ability)
    chunk = entry["chunk"] if entry["kind"] == "defensive" else entry["options"][option]["chunk"]
    other = (hero_index + 1) % len(compiled.heroes)
    state = SampleState(compiled, [hero_index, other])
    if setup:
        setup(state, hero_index)
    faces = faces_of(compiled, hero_index)
    ctx = RunContext(0, hero_index, attacker=0, defender=1, roll=list(roll), faces=faces)
    outcome, asked = run_to_end(VM(compiled), chunk, ctx, state, ScriptedRNG(list(dice)),
                                answers or first_answer)
    return state, outcome, asked


def status_id(compiled, name):
    return next(i for i, s in enumerate(compiled.statuses) if s["name"] == name)


def count(state, compiled, seat, name):
    return state.status_count(seat, status_id(compiled, name))


# ------------------------------------------------------- abilities vs rulebook


def test_ferocity_tiers(compiled):
    """Druid, Ferocity: 3 Claw deal 4, 4 Claw deal 5, 5 Claw deal 6."""
    for option, dmg in enumerate([4, 5, 6]):
        state, _, _ = run_ability(compiled, "druid", "Ferocity", [1, 1, 1, 4, 6], option=option)
        assert state.incoming == {0: 0, 1: dmg}


def test_wild_realignment_in_druid_form(compiled):
    """Druid, Wild Realignment: Gain 1 CP and 2 Shape Shift. Then, if in Druid Form, draw 1 card."""
    state, _, asked = run_ability(compiled, "druid", "Wild Realignment", [1, 4, 5, 6, 6])
    assert state.seats[0].cp == 3
    assert count(state, compiled, 0, "Shape Shift") == 2
    assert len(state.seats[0].hand) == 1
    assert any(isinstance(r, Window) for r in asked)


def test_wild_realignment_in_bear_form_draws_nothing(compiled):
    def bear(state, hero_index):
        state.seats[0].components[0] = 1  # Form: Bear Form
    state, _, _ = run_ability(compiled, "druid", "Wild Realignment", [1, 4, 5, 6, 6], setup=bear)
    assert len(state.seats[0].hand) == 0 and state.seats[0].cp == 3


def test_forests_answer_on_claw_adds_2(compiled):
    """Druid, Forest's Answer: Gain Shape Shift. Then deal 7 dmg & roll 1 die: On Claw, add 2 dmg."""
    state, _, _ = run_ability(compiled, "druid", "Forest's Answer", [1, 2, 3, 4, 5], dice=[2])
    assert state.incoming[1] == 7 and state.added == 2
    assert count(state, compiled, 0, "Shape Shift") == 1


def test_forests_answer_on_leaf_gains_regenerate(compiled):
    state, _, _ = run_ability(compiled, "druid", "Forest's Answer", [1, 2, 3, 4, 5], dice=[6])
    assert state.added == 0 and count(state, compiled, 0, "Regenerate") == 1


def test_maul_deals_the_total_of_two_dice(compiled):
    """Druid, Maul: Roll 2 dice and deal dmg equal to the total roll value."""
    state, _, asked = run_ability(compiled, "druid", "Maul", [4, 4, 5, 5, 1], dice=[3, 6])
    assert state.incoming[1] == 9
    assert not any(isinstance(r, ChooseDice) for r in asked)  # no re-roll outside Bear Form


def test_maul_in_bear_form_may_reroll_one_die(compiled):
    def bear(state, hero_index):
        state.seats[0].components[0] = 1
    answers = Scripted(True, [0])  # yes, re-roll die 0
    state, _, _ = run_ability(compiled, "druid", "Maul", [4, 4, 5, 5, 1], dice=[1, 6, 5], answers=answers,
                              setup=bear)
    assert state.incoming[1] == 5 + 6  # the 1 became a 5
    asked = [r for r in answers.seen if not isinstance(r, Window)]
    assert isinstance(asked[0], YesNo) and asked[1].most == 1
    # the dice may be changed before they count: a window right after the roll
    assert isinstance(answers.seen[0], Window) and answers.seen[0].reason == "after effect roll"


def test_thick_hide_rolls_2_or_4_dice_and_deals_per_claw(compiled):
    """Druid, Thick Hide: Defense Roll 2; if in Bear Form, roll 4 dice instead. Deal 1 dmg per Claw."""
    state, _, _ = run_ability(compiled, "druid", "Thick Hide", [], dice=[1, 2, 3, 3])
    assert state.incoming[1] == 2  # two dice rolled: 1 and 2, both Claws

    def bear(state, hero_index):
        state.seats[0].components[0] = 1
    state, _, _ = run_ability(compiled, "druid", "Thick Hide", [], dice=[1, 2, 3, 4], setup=bear)
    assert state.incoming[1] == 3  # four dice: three Claws


def test_retreat(compiled):
    """Duelist, Retreat (Defense Roll 4): 1 dmg per Blade; 1 Step backward per Boot or Pierce."""
    state, _, _ = run_ability(compiled, "duelist", "Retreat", [], dice=[1, 2, 4, 6])
    assert state.incoming[1] == 2
    footwork = compiled.hero("duelist")[1]["components"][0]["values"]
    assert footwork[state.seats[0].components[0]] == "Defense 3"  # Neutral, two steps down


def test_balestra_asks_how_many_steps_then_deals_6(compiled):
    """Duelist, Balestra: You may take up to 2 Steps. Then deal 6 dmg."""
    answers = Scripted(True, 2, "up")
    state, _, _ = run_ability(compiled, "duelist", "Balestra", [1, 1, 6, 6, 6], answers=answers)
    assert [type(r).__name__ for r in answers.seen] == [
        "YesNo", "PickNumber", "ChooseDirection", "Window"]
    assert answers.seen[1].choices == (0, 1, 2)
    assert state.incoming[1] == 6
    footwork = compiled.hero("duelist")[1]["components"][0]["values"]
    assert footwork[state.seats[0].components[0]] == "Offense 3"


def test_en_garde(compiled):
    """Duelist, En Garde: Deal 8 dmg and roll 4 dice: On Pierce, inflict Disarm."""
    state, _, _ = run_ability(compiled, "duelist", "En Garde", [6] * 5, dice=[1, 2, 3, 6])
    assert state.incoming[1] == 8 and count(state, compiled, 1, "Disarm") == 1
    state, _, _ = run_ability(compiled, "duelist", "En Garde", [6] * 5, dice=[1, 2, 3, 4])
    assert count(state, compiled, 1, "Disarm") == 0


def test_master_of_the_blade(compiled):
    """Duelist, Master of the Blade!: Gain 2 Guard Break. Inflict Disarm. ... Then deal 11 dmg."""
    state, _, _ = run_ability(compiled, "duelist", "Master of the Blade!", [6] * 5, answers=Scripted(False))
    assert count(state, compiled, 0, "Guard Break") == 2
    assert count(state, compiled, 1, "Disarm") == 1 and state.incoming[1] == 11


def test_furnace_adds_the_value_rolled(compiled):
    """Forgemaster, Furnace: Deal 5 dmg and roll 1 die: add dmg equal to the value rolled."""
    state, _, _ = run_ability(compiled, "forgemaster", "Furnace", [4, 4, 5, 5, 1], dice=[6])
    assert state.incoming[1] == 5 and state.added == 6


def test_armored_up_with_two_armor(compiled):
    """Forgemaster, Armored Up: If you have 2 Armor, add 2 dmg. Large Straight: Deal 10 dmg."""
    hero_index, data = compiled.hero("forgemaster")
    ability = next(a for a in data["abilities"] if a["name"] == "Armored Up")
    armor = status_id(compiled, "Armor")
    state = SampleState(compiled, [hero_index, 0])
    state.gain_status(0, armor, 2, 1)
    ctx = RunContext(0, hero_index, defender=1, roll=[1, 2, 3, 4, 5], faces=faces_of(compiled, hero_index))
    vm = VM(compiled)
    run_to_end(vm, ability["shared"], ctx, state, random.Random(0))
    run_to_end(vm, ability["options"][1]["chunk"], ctx, state, random.Random(0))
    assert state.added == 2 and state.incoming[1] == 10


def mined_or_first(request):
    """Every Ore card a Mine finds (it takes them all), the first item of anything else."""
    return list(range(request.least)) if getattr(request, "purpose", None) == "search" else [0]


def test_masterwork_doubles_an_armor_once(compiled):
    """Forgemaster, Masterwork: "On Forge, double the effect of one Armor. On Anvil, double the effect
    of up to two different Armor." With Masterwork II's two dice showing Forge and Anvil and one Armor,
    the Armor is doubled by the Forge; the Anvil has no other Armor to double and asks nothing."""
    hero_index, _ = compiled.hero("forgemaster")
    chunk = next(i for i, c in enumerate(compiled.chunks) if c.owner == "Forgemaster › card Masterwork II")
    armor = status_id(compiled, "Armor")
    state = SampleState(compiled, [hero_index, 0])
    state.gain_status(0, armor, 1, 6)  # an Ultimanium Shield
    ctx = RunContext(0, hero_index, attacker=1, defender=0, faces=faces_of(compiled, hero_index))
    _, asked = run_to_end(VM(compiled), chunk, ctx, state, ScriptedRNG([4, 6]), lambda r: [0])
    doubles = [r for r in asked if getattr(r, "purpose", None) == "double the effect"]
    assert [r.items for r in doubles] == [("Armor",)]
    assert (doubles[0].least, doubles[0].most) == (1, 1)  # "one Armor": not a choice to pass up
    assert state.doubled == [(armor, [0])]
    state.gain_status(0, armor, 1, 1)  # a Gold Helmet beside it: the Anvil doubles the one left
    _, asked = run_to_end(VM(compiled), chunk, ctx, state, ScriptedRNG([6, 1]), mined_or_first)
    assert [r.items for r in asked if getattr(r, "purpose", None) == "double the effect"] == [("Armor",)]
    assert state.doubled == [(armor, [0]), (armor, [1])]  # the second token, not the first again
    state = SampleState(compiled, [hero_index, 0])  # two Armor: the Anvil's "up to two" may take none
    state.gain_status(0, armor, 1, 6)
    state.gain_status(0, armor, 1, 1)
    doubling = "double the effect"
    _, asked = run_to_end(VM(compiled), chunk, ctx, state, ScriptedRNG([6, 1]),
                          lambda r: [] if getattr(r, "purpose", "") == doubling else mined_or_first(r))
    doubles = [r for r in asked if getattr(r, "purpose", None) == "double the effect"]
    assert [(r.least, r.most) for r in doubles] == [(0, 2)] and state.doubled == [(armor, [])]


def test_final_touches_searches_places_shuffles_and_deals_34(compiled):
    """Forgemaster, Final Touches!: Search your deck for any one Ore Card. Place it on The Forge,
    then shuffle your deck. Deal 34 dmg."""
    state, _, asked = run_ability(compiled, "forgemaster", "Final Touches!", [6] * 5)
    assert state.incoming[1] == 34
    assert list(state.seats[0].zones.values()) == [["Pick Ore"]]
    assert "Pick Ore" not in state.seats[0].hand
    assert [r.purpose for r in asked if hasattr(r, "purpose")] == ["search"]


def test_scorching_staff_on_sun_power(compiled):
    """Sun Elf, Scorching Staff: Deal 5 dmg and roll 1 die ... On Sun Power, gain Charged Gem and
    increase Sun Dial by 2."""
    state, _, _ = run_ability(compiled, "sun-elf", "Scorching Staff", [1, 4, 4, 5, 2], dice=[6])
    assert state.incoming[1] == 5
    assert count(state, compiled, 0, "Charged Gem") == 1
    assert state.seats[0].components[0] == 5  # started at 3


def test_solar_burst_choice(compiled):
    """Sun Elf, Solar Burst: Increase Sun Dial by 2. Choose one: gain Charged Gem, or inflict
    Sun Marked. Then deal 8 dmg."""
    answers = Scripted(1)
    state, _, _ = run_ability(compiled, "sun-elf", "Solar Burst", [6, 6, 6, 6, 1], answers=answers)
    assert answers.seen[0].options == ("Gain Charged Gem", "Inflict Sun Marked")
    assert count(state, compiled, 1, "Sun Marked") == 1 and count(state, compiled, 0, "Charged Gem") == 0
    assert state.incoming[1] == 8


@pytest.mark.parametrize("held, taken", [("Charged Gem", "Sun Marked"), ("Sun Marked", "Charged Gem")])
def test_solar_burst_does_not_offer_a_choice_that_would_be_lost(compiled, held, taken):
    """Charged Gem and Sun Marked have a Stack Limit of 1 (000_eaa64e0770891241.txt, "Sun Elf" >
    "Status Effects"; "Stack Limits": no more tokens than the limit on a hero): holding a Gem, gaining
    one would be lost, so the choice is not asked and Sun Marked is inflicted (and the other way round)."""
    gem, marked = status_id(compiled, "Charged Gem"), status_id(compiled, "Sun Marked")

    def setup(state, _):
        if held == "Charged Gem":
            state.gain_status(0, gem, 1, 0)
        else:
            state.gain_status(1, marked, 1, 0)

    answers = Scripted()  # asked anything but a window: nothing to pop, the test fails
    state, _, _ = run_ability(compiled, "sun-elf", "Solar Burst", [6, 6, 6, 6, 1], answers=answers,
                              setup=setup)
    assert count(state, compiled, 0, "Charged Gem") == 1 and count(state, compiled, 1, "Sun Marked") == 1
    assert not [r for r in answers.seen if isinstance(r, ChooseOption)]
    verb = "Inflict" if taken == "Sun Marked" else "Gain"
    assert f'player 1 takes "{verb} {taken}", the one option that can do anything now' in state.log


def test_a_choice_that_spares_the_chooser_harm_is_still_offered(builtin):
    """A negative status gained at its limit is lost too, but that is the chooser's good ("Or": "you
    may resolve only one of the options"): `Choose one: gain Wound, or lose 2 CP` still asks."""
    content = builtin.content
    druid = next(h for h in content.heroes if h.name == "Druid")
    loaded, index = compile_text(content, druid, "Choose one: gain Wound, or lose 2 CP.")
    hero_index = content.heroes.index(druid)
    state = SampleState(loaded, [hero_index, (hero_index + 1) % len(loaded.heroes)])
    state.gain_status(0, status_id(loaded, "Wound"), 2, 0)
    state.seats[0].cp = 5
    asked = []
    run_to_end(VM(loaded), index, RunContext(0, hero_index), state, random.Random(0),
               lambda r: asked.append(r) or 0)
    assert [r.options for r in asked if isinstance(r, ChooseOption)] == [("Gain Wound", "Lose 2 CP")]
    assert state.seats[0].cp == 5  # chose the Wound it could not hold



def test_you_may_asks_about_its_own_part_and_a_card_counts_its_then_part(builtin):
    """`You may spend 2 CP to draw 1 card. Then heal 2.` with no CP: the question is about the spend
    (it cannot be paid: not asked), while the effect as a whole still does something (the heal)."""
    content = builtin.content
    druid = next(h for h in content.heroes if h.name == "Druid")
    loaded, index = compile_text(content, druid, "You may spend 2 CP to draw 1 card. Then heal 2.")
    hero_index = content.heroes.index(druid)
    state = SampleState(loaded, [hero_index, (hero_index + 1) % len(loaded.heroes)])
    state.seats[0].cp, state.seats[0].health = 0, 30
    vm = VM(loaded)
    assert vm.can_start(index, state, 0)  # the heal after the `Then`
    asked = []
    run_to_end(vm, index, RunContext(0, hero_index), state, random.Random(0), lambda r: asked.append(r) or 0)
    assert not [r for r in asked if isinstance(r, YesNo)] and state.seats[0].health == 32
    state.seats[0].cp = 2
    run_to_end(vm, index, RunContext(0, hero_index), state, random.Random(0), lambda r: asked.append(r) or 1)
    assert [r for r in asked if isinstance(r, YesNo)] and state.seats[0].cp == 0

def test_ultimates(compiled):
    """Each Ultimate's damage: Wrath of Nature! 12, Final Touches! 34, Solar Flare! 10."""
    for hero, name, dmg in [("druid", "Wrath of Nature!", 12), ("sun-elf", "Solar Flare!", 10)]:
        state, _, _ = run_ability(compiled, hero, name, [6] * 5)
        assert state.incoming[1] == dmg


# ------------------------------------------------------------ statuses


def run_status(compiled, hero, status, effect=0, dice=(), answers=None, side=0, tokens=1):
    hero_index, _ = compiled.hero(hero)
    sid = status_id(compiled, status)
    entry = compiled.statuses[sid]["effects"][effect]
    state = SampleState(compiled, [hero_index, (hero_index + 1) % 4])
    state.gain_status(0, sid, tokens, 0)
    for token in state.seats[0].statuses[sid]:
        token.side = side
    ctx = RunContext(0, hero_index, defender=1, faces=faces_of(compiled, hero_index), status=sid, token=0)
    outcome, asked = run_to_end(VM(compiled), entry["chunk"], ctx, state, ScriptedRNG(list(dice)),
                                answers or first_answer)
    return state, sid, entry


def test_regenerate_two_then_one(compiled):
    """Druid, Regenerate: Regenerate 2: Heal 2 and flip it to the "1" side. Regenerate 1: Heal 1
    and remove this token."""
    state, sid, entry = run_status(compiled, "druid", "Regenerate", effect=0)
    assert entry["side"] == 0 and entry["trigger"]["on"] == "during"
    assert state.seats[0].health == 52 and state.seats[0].statuses[sid][0].side == 1
    state, sid, _ = run_status(compiled, "druid", "Regenerate", effect=1, side=1)
    assert state.seats[0].health == 51 and state.seats[0].statuses[sid] == []


def test_wound(compiled):
    """Druid, Wound: dealt 1 dmg during Upkeep. Then roll 1 die: on 4-6, remove this token."""
    state, sid, _ = run_status(compiled, "druid", "Wound", dice=[5])
    assert state.incoming[0] == 1 and state.seats[0].statuses[sid] == []
    state, sid, _ = run_status(compiled, "druid", "Wound", dice=[3])
    assert len(state.seats[0].statuses[sid]) == 1


def test_charged_gem(compiled):
    """Sun Elf, Charged Gem: On 1-2 gain 1 CP; on 3-4 deal 2 isolated undefendable dmg to a chosen
    opponent; on 5-6 both."""
    state, _, _ = run_status(compiled, "sun-elf", "Charged Gem", dice=[1])
    assert state.seats[0].cp == 3 and state.incoming[1] == 0
    state, _, _ = run_status(compiled, "sun-elf", "Charged Gem", dice=[4])
    assert state.seats[0].cp == 2 and state.incoming[1] == 2
    state, _, _ = run_status(compiled, "sun-elf", "Charged Gem", dice=[6])
    assert state.seats[0].cp == 3 and state.incoming[1] == 2
    assert any("isolated" in line for line in state.log)


def test_guard_break_makes_the_attack_undefendable_on_4_5(compiled):
    state, _, _ = run_status(compiled, "duelist", "Guard Break", dice=[4])
    assert compiled.damage_types[state.attack_type] == "undefendable"
    state, _, _ = run_status(compiled, "duelist", "Guard Break", dice=[6])
    assert state.attack_type is None


def test_sun_marked_attacker_heals_7(compiled):
    """Sun Elf, Sun Marked: When Attacked by an opponent, the Attacker Heals 7."""
    hero_index, _ = compiled.hero("sun-elf")
    sid = status_id(compiled, "Sun Marked")
    entry = compiled.statuses[sid]["effects"][0]
    state = SampleState(compiled, [0, hero_index])
    ctx = RunContext(0, 0, attacker=1, defender=0, status=sid, token=0)
    run_to_end(VM(compiled), entry["chunk"], ctx, state, random.Random(0))
    assert state.seats[1].health == 57 and state.seats[0].health == 50


def test_sun_dial_overflow_heals_per_point(compiled):
    """Sun Elf, Sun Dial: increased above 5, Heal 1 for each increase above 5 instead."""
    hero_index, data = compiled.hero("sun-elf")
    effect = data["components"][0]["effects"][0]
    assert effect["trigger"] == {"on": "would_exceed", "component": 0, "limit": 5}
    state = SampleState(compiled, [hero_index, 0])
    ctx = RunContext(0, hero_index, event_value=3)
    outcome, _ = run_to_end(VM(compiled), effect["chunk"], ctx, state, random.Random(0))
    assert state.seats[0].health == 53 and outcome.replaced


# ------------------------------------------------------------- per opcode


def assemble(compiled, ops, consts=(), hero="druid", status=None):
    """A verified artifact with one extra chunk made of `ops`; returns (artifact, chunk index)."""
    image = copy.deepcopy(compiled.data)
    hero_index = compiled.hero(hero)[0] if hero else None
    code = bytearray()
    for op, *operands in ops:
        from dtc.chunk import Chunk

        scratch = Chunk("test", 0, hero_index)
        scratch.emit(op, *operands, line=1)
        code += scratch.code
    image["chunks"].append({"owner": "test", "source": 0, "hero": hero_index, "status": status,
                            "code": code.hex(), "consts": list(consts), "lines": [[1, len(code)]],
                            "prompts": {}})
    loaded = artifact.load(artifact.to_bytes(image))
    return loaded, len(loaded.chunks) - 1


def run_ops(compiled, ops, consts=(), answers=None, roll=(), dice=(), **kw):
    loaded, index = assemble(compiled, ops, consts, **kw)
    hero_index = loaded.chunks[index].hero
    state = SampleState(loaded, [hero_index if hero_index is not None else 0, 1])
    faces = faces_of(loaded, hero_index) if hero_index is not None else {}
    ctx = RunContext(0, hero_index, attacker=1, defender=1, roll=list(roll), faces=faces)
    outcome, asked = run_to_end(VM(loaded), index, ctx, state, ScriptedRNG(list(dice)),
                                answers or first_answer)
    return state, outcome, asked


def deal_top(*before):
    """ops that compute something, then deal it, so the result shows as incoming dmg."""
    return list(before) + [(Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]


@pytest.mark.parametrize("ops,expected", [
    ([(Op.PUSH, 7)], 7),
    ([(Op.PUSH, 3), (Op.PUSH, 4), (Op.ADD,)], 7),
    ([(Op.PUSH, 3), (Op.PUSH, 4), (Op.SUB,)], 0),
    ([(Op.PUSH, 9), (Op.PUSH, 4), (Op.SUB,)], 5),
    ([(Op.PUSH, 3), (Op.PUSH, 4), (Op.MUL,)], 12),
    ([(Op.PUSH, 3), (Op.PUSH, 2), (Op.MIN,)], 2),
    ([(Op.PUSH, 5), (Op.HALF, 0)], 3),
    ([(Op.PUSH, 5), (Op.HALF, 1)], 2),
    ([(Op.PUSH, 0), (Op.NOT,)], 1),
    ([(Op.PUSH, 5), (Op.DUP,), (Op.ADD,)], 10),
    ([(Op.PUSH, 5), (Op.PUSH, 9), (Op.POP,)], 5),
    ([(Op.PUSH, 2), (Op.PUSH, 2), (Op.COMPARE, 0)], 1),
    ([(Op.PUSH, 2), (Op.PUSH, 2), (Op.COMPARE, 1)], 0),
    ([(Op.PUSH, 1), (Op.PUSH, 2), (Op.COMPARE, 2)], 1),
    ([(Op.PUSH, 2), (Op.PUSH, 2), (Op.COMPARE, 3)], 1),
    ([(Op.ROLL_TOTAL,)], 12),
    ([(Op.ROLL_VALUE,)], 1),
    ([(Op.HAS_VALUE, 5, 6)], 0),
    ([(Op.HAS_VALUE, 4, 4)], 1),
    ([(Op.HAS_SYMBOL, 0, 3)], 1),  # symbol 0 is Claw: 1, 2, 3... the roll has 1, 3 and 4, 4: two Claws
    ([(Op.GET_CP,)], 2),
    ([(Op.HAND_SIZE,)], 0),
    ([(Op.COUNT_OPPONENTS,)], 1),
    ([(Op.GET_COMP, 0)], 0),
    ([(Op.IN_FORM, 0, 0)], 1),
    ([(Op.EVENT_VALUE,)], 0),
    ([(Op.EXTRA_ATTEMPTS,)], 0),
])
def test_arithmetic_and_queries(compiled, ops, expected):
    state, _, _ = run_ops(compiled, deal_top(*ops), roll=[1, 3, 4, 4])
    if ops == [(Op.HAS_SYMBOL, 0, 3)]:
        expected = 0  # only 1 and 3 are Claws: fewer than 3
    assert state.incoming[1] == expected


def test_count_symbols_and_meets(compiled):
    claw = compiled.symbols.index("Claw")
    paw = compiled.symbols.index("Paw")
    state, _, _ = run_ops(compiled, deal_top((Op.COUNT_SYMBOLS, 0)), consts=[[claw, paw]],
                          roll=[1, 4, 6, 6])
    assert state.incoming[1] == 2
    four_paws = {"items": [{"of_a_kind": 4, "symbol": paw}]}
    for roll, expected in [([4, 4, 4, 4, 1], 1), ([4, 4, 5, 5, 1], 0)]:
        state, _, _ = run_ops(compiled, deal_top((Op.MEETS, 0)), consts=[four_paws], roll=roll)
        assert state.incoming[1] == expected


def test_jumps_and_loops(compiled):
    # three times round a loop: deal 1 each time
    # offsets: PUSH 0, DUP 3, JUMP_IF_FALSE 4, PUSH 7, DEAL 10, PUSH 14, SUB 17, JUMP 18, POP 21
    ops = [(Op.PUSH, 3), (Op.DUP,), (Op.JUMP_IF_FALSE, 21), (Op.PUSH, 1),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.PUSH, 1), (Op.SUB,), (Op.JUMP, 3),
           (Op.POP,), (Op.END,)]
    state, outcome, _ = run_ops(compiled, ops)
    assert state.incoming[1] == 3


def test_choose_may_pick_and_did(compiled):
    ops = [(Op.MAY,), (Op.POP,), (Op.DID,), (Op.PICK, 2, 4), (Op.ADD,),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    answers = Scripted(True, 3)
    state, _, _ = run_ops(compiled, ops, answers=answers)
    assert state.incoming[1] == 4
    assert isinstance(answers.seen[1], PickNumber) and answers.seen[1].choices == (2, 3, 4)


def test_roll_uses_the_rng_and_reroll_changes_dice(compiled):
    ops = [(Op.PUSH, 2), (Op.ROLL, 0), (Op.PUSH, 1), (Op.REROLL, 0), (Op.ROLL_TOTAL,),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    state, _, asked = run_ops(compiled, ops, dice=[1, 2, 6], answers=Scripted([1]))
    assert state.incoming[1] == 1 + 6


@pytest.mark.parametrize("op, answer", [((Op.REROLL, 0), []), ((Op.CHANGE_DICE, 1, 6, 0), [])])
def test_re_rolling_or_changing_no_die_leaves_the_dice_as_they_were(compiled, op, answer):
    """`re-roll up to 1 die` answered with none: nothing is re-rolled, and nobody is told it was."""
    ops = [(Op.PUSH, 2), (Op.ROLL, 0), (Op.PUSH, 1), op, (Op.ROLL_TOTAL,),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    state, _, _ = run_ops(compiled, ops, dice=[1, 2, 6], answers=Scripted(answer))
    assert state.incoming[1] == 1 + 2
    assert [line for line in state.log if "re-rolls" in line or "changes" in line] == []


def test_change_dice(compiled):
    ops = [(Op.PUSH, 1), (Op.CHANGE_DICE, 1, 6, 0), (Op.ROLL_TOTAL,),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    answers = Scripted([(0, 6)])
    state, _, _ = run_ops(compiled, ops, roll=[1, 1], answers=answers)
    assert state.incoming[1] == 7 and answers.seen[0].values == (6,)


def test_a_die_moved_up_or_down_takes_only_values_its_faces_have(compiled):
    """`Increase or decrease 1 die by 1` on dice 6 2: the 6 may become a 5 only, the 2 a 1 or a 3;
    a 6 raised to 7 is refused (no face shows 7)."""
    ops = [(Op.PUSH, 1), (Op.CHANGE_DICE, 3, 1, 0), (Op.ROLL_TOTAL,),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    answers = Scripted([(0, 5)])
    state, _, _ = run_ops(compiled, ops, roll=[6, 2], answers=answers)
    assert answers.seen[0].options == ((5,), (1, 3)) and state.incoming[1] == 7
    with pytest.raises(VMError, match="a value that die may take"):
        run_ops(compiled, ops, roll=[6, 2], answers=Scripted([(0, 7)]))


@pytest.mark.parametrize(("mode", "roll", "options"), [
    (4, (6, 2), ((), (3,))),  # up by 1: a 6 stays
    (5, (1, 2), ((), (1,))),  # down by 1: a 1 stays
    (6, (1, 1, 5), ((5,), (5,), (1,))),  # to another die's value, never the one it shows
    (0, (1, 2), ((1, 2, 3, 4, 5, 6),) * 2),  # any value: every face, as before
])
def test_change_options_by_mode(mode, roll, options):
    assert change_options(roll, None, mode, 1) == options


def test_no_die_that_can_move_asks_nothing(compiled):
    """`Increase 1 die by 1` on a roll of 6s: no die can go up, no question, nothing changes."""
    ops = [(Op.PUSH, 1), (Op.CHANGE_DICE, 4, 1, 0), (Op.END,)]
    answers = Scripted()
    run_ops(compiled, ops, roll=[6, 6], answers=answers)
    assert answers.seen == []


def test_statuses_cp_and_health(compiled):
    wound = status_id(compiled, "Wound")
    ops = [(Op.PUSH, 2), (Op.GAIN, wound, 0), (Op.PUSH, 1), (Op.REMOVE, wound, 0),
           (Op.PUSH, 1), (Op.INFLICT, wound, TARGETS.index("opponent")), (Op.PUSH, 3), (Op.GAIN_CP,),
           (Op.PUSH, 1), (Op.LOSE_CP,), (Op.PUSH, 4), (Op.HEAL,), (Op.PUSH, 2), (Op.STEAL_CP,), (Op.END,)]
    state, _, _ = run_ops(compiled, ops)
    assert count(state, compiled, 0, "Wound") == 1 and count(state, compiled, 1, "Wound") == 1
    assert state.seats[0].cp == 2 + 3 - 1 + 2 and state.seats[1].cp == 0
    assert state.seats[0].health == 54


def test_actor_and_pay_cp(compiled):
    ops = [(Op.ACTOR, TARGETS.index("attacker")), (Op.PUSH, 7), (Op.HEAL,),
           (Op.ACTOR, TARGETS.index("self")), (Op.PUSH, 5), (Op.PAY_CP,), (Op.NOT,), (Op.NOT,),
           (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    state, _, _ = run_ops(compiled, ops)
    assert state.seats[1].health == 57  # the Attacker (player 2) healed
    assert state.incoming[1] == 0 and state.seats[0].cp == 2  # could not pay 5 CP


def test_then_windows_and_schedule(compiled):
    trigger = {"on": "phase_edge", "edge": "end", "phase": compiled.phases.index("Roll Phase")}
    ops = [(Op.THEN, 0), (Op.SCHEDULE, 0, 5), (Op.INSTEAD,), (Op.END,)]
    state, outcome, asked = run_ops(compiled, ops, consts=[trigger])
    assert [r.reason for r in asked] == ["then"]
    assert state.scheduled == [(trigger, 5)] and outcome.replaced


def test_components(compiled):
    ops = [(Op.PUSH, 2), (Op.RAISE, 0), (Op.PUSH, 1), (Op.LOWER, 0), (Op.FLIP_DIAL, 0, 1),
           (Op.GET_COMP, 0), (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    state, _, _ = run_ops(compiled, ops, hero="sun-elf")
    assert state.incoming[1] == 3 + 2 - 1 and state.seats[0].sides[0] == 1


def test_budget_stops_an_endless_loop(compiled):
    loaded, index = assemble(compiled, [(Op.JUMP, 0), (Op.END,)])
    vm = VM(loaded, budget=500)
    with pytest.raises(VMError, match="budget of 500 exhausted"):
        run_to_end(vm, index, RunContext(0, 0), SampleState(loaded, [0, 1]), random.Random(0))


@pytest.mark.parametrize("answer", [5, -1, "0", True, None])
def test_bad_answers_are_clean_errors(compiled, answer):
    hero_index, data = compiled.hero("sun-elf")
    burst = next(a for a in data["abilities"] if a["name"] == "Solar Burst")
    run = VM(compiled).run(burst["options"][0]["chunk"], RunContext(0, hero_index, defender=1),
                           SampleState(compiled, [hero_index, 0]), random.Random(0))
    request = next(run)
    assert isinstance(request, ChooseOption)
    with pytest.raises(VMError, match="answer an option number from 0 to 1"):
        run.send(answer)


def test_same_seed_and_answers_same_trace(compiled):
    def trace_of(seed):
        lines = []
        vm = VM(compiled)
        vm.trace = lambda chunk, ins, stack: lines.append((chunk, ins.offset, tuple(stack)))
        hero_index, data = compiled.hero("druid")
        answer = next(a for a in data["abilities"] if a["name"] == "Maul")
        state = SampleState(compiled, [hero_index, 1])
        ctx = RunContext(0, hero_index, defender=1, roll=[4, 4, 4, 4, 1],
                         faces=faces_of(compiled, hero_index))
        state.seats[0].components[0] = 1
        run_to_end(vm, answer["options"][0]["chunk"], ctx, state, random.Random(seed))
        return lines, state.log
    assert trace_of(11) == trace_of(11)
    assert len({str(trace_of(seed)) for seed in range(10)}) > 1  # the seed does matter


# ------------------------------------------- every ability, table-driven

NO = Scripted  # a fresh answer list per row: `you may` declined where the row says False

RULEBOOK = [
    # hero, ability, option, final dice, scripted dice, answers, expected
    ("druid", "Ferocity", 0, [1, 1, 1, 4, 6], [], None, {"dmg": [(4, "normal")]}),
    ("druid", "Ferocity", 1, [1, 1, 1, 2, 6], [], None, {"dmg": [(5, "normal")]}),
    ("druid", "Ferocity", 2, [1, 1, 1, 2, 3], [], None, {"dmg": [(6, "normal")]}),
    ("druid", "Wild Realignment", 0, [1, 4, 5, 6, 2], [], None,
     {"cp": 1, "gain": {"Shape Shift": 2}, "hand": 1}),
    ("druid", "Nature's Cure", 0, [4, 4, 5, 6, 1], [], None,
     {"gain": {"Regenerate": 1}, "dmg": [(5, "normal")]}),
    ("druid", "Maul", 0, [4, 4, 5, 5, 1], [3, 6], None, {"dmg": [(9, "normal")]}),
    ("druid", "Forest's Call", 0, [1, 2, 3, 4, 1], [], None,
     {"gain": {"Shape Shift": 1}, "dmg": [(6, "normal")]}),
    ("druid", "Protect the Forest", 0, [6, 6, 6, 6, 1], [], None,
     {"gain": {"Regenerate": 1, "Shape Shift": 1}, "dmg": [(6, "undefendable")]}),
    ("druid", "Forest's Answer", 0, [1, 2, 3, 4, 5], [3], None,
     {"gain": {"Shape Shift": 1}, "dmg": [(7, "normal")], "added": 2}),
    ("druid", "Forest's Answer", 0, [1, 2, 3, 4, 5], [5], None,
     {"gain": {"Shape Shift": 2}, "dmg": [(7, "normal")]}),
    ("druid", "Wrath of Nature!", 0, [6] * 5, [], None,
     {"gain": {"Regenerate": 1, "Shape Shift": 2}, "dmg": [(12, "normal")]}),
    ("druid", "Thick Hide", None, [], [1, 4], None, {"dmg": [(1, "normal")]}),
    ("duelist", "Blade Flurry", 0, [1, 2, 3, 4, 4], [], None, {"dmg": [(4, "normal")]}),
    ("duelist", "Blade Flurry", 1, [1, 2, 3, 1, 4], [], None, {"dmg": [(5, "normal")]}),
    ("duelist", "Blade Flurry", 2, [1, 2, 3, 1, 2], [], None, {"dmg": [(6, "normal")]}),
    ("duelist", "Feint Attack", 0, [1, 2, 6, 6, 4], [], [False],
     {"gain": {"Guard Break": 1}, "dmg": [(2, "undefendable")]}),
    ("duelist", "Balestra", 0, [1, 2, 6, 6, 6], [], [False], {"dmg": [(6, "normal")]}),
    ("duelist", "Strike", 0, [1, 2, 3, 4, 4], [], None, {"dmg": [(7, "normal")]}),
    ("duelist", "Strike", 1, [1, 2, 3, 4, 5], [], [False], {"dmg": [(10, "normal")]}),
    ("duelist", "Bladestorm", 0, [6, 6, 6, 6, 1], [], [False],
     {"gain": {"Guard Break": 1}, "inflict": {"Disarm": 1}, "dmg": [(8, "normal")]}),
    ("duelist", "En Garde", 0, [6] * 5, [6, 1, 1, 1], None,
     {"inflict": {"Disarm": 1}, "dmg": [(8, "normal")]}),
    ("duelist", "Master of the Blade!", 0, [6] * 5, [], [False],
     {"gain": {"Guard Break": 2}, "inflict": {"Disarm": 1}, "dmg": [(11, "normal")]}),
    ("duelist", "Retreat", None, [], [1, 1, 1, 2], None, {"dmg": [(1, "normal")] * 4}),
    ("forgemaster", "Pick Axe", 0, [1, 2, 3, 4, 6], [], None, {"dmg": [(5, "normal")]}),
    ("forgemaster", "Pick Axe", 1, [1, 2, 3, 1, 6], [], None, {"dmg": [(6, "normal")]}),
    ("forgemaster", "Pick Axe", 2, [1, 2, 3, 1, 2], [], None, {"dmg": [(7, "normal")]}),
    ("forgemaster", "Furnace", 0, [4, 4, 5, 5, 1], [4], None, {"dmg": [(5, "normal")], "added": 4}),
    ("forgemaster", "Armored Up", 0, [1, 2, 3, 4, 6], [], None, {"dmg": [(7, "normal")]}),
    ("forgemaster", "Armored Up", 1, [1, 2, 3, 4, 5], [], None, {"dmg": [(10, "normal")]}),
    ("forgemaster", "Smelting Time", 0, [6] * 4 + [1], [], None,
     {"hand": 1, "dmg": [(9, "undefendable")]}),
    # Mining takes every Ore card of the top 2 (authored: "reveal all Ore Cards that are Mined")
    ("forgemaster", "A Good Haul", 0, [1, 4, 4, 5, 6], [], [[0, 1], False],
     {"hand": 2, "dmg": [(8, "normal")]}),
    ("forgemaster", "Final Touches!", 0, [6] * 5, [], None, {"dmg": [(34, "normal")], "zone": 1}),
    ("forgemaster", "Masterwork", None, [], [2], [[0, 1]], {"hand": 2}),
    ("sun-elf", "Light Staff", 0, [1, 2, 3, 4, 6], [], None, {"dmg": [(4, "normal")]}),
    ("sun-elf", "Light Staff", 1, [1, 2, 3, 1, 6], [], None, {"dmg": [(5, "normal")]}),
    ("sun-elf", "Light Staff", 2, [1, 2, 3, 1, 2], [], None, {"dmg": [(7, "normal")]}),
    ("sun-elf", "Ray Absorption", 0, [4, 4, 5, 1, 1], [], None,
     {"dial": 5, "heal": 7, "gain": {"Charged Gem": 1}}),
    ("sun-elf", "Scorching Staff", 0, [1, 4, 4, 5, 6], [2], None, {"dmg": [(5, "normal")], "added": 2}),
    ("sun-elf", "Scorching Staff", 0, [1, 4, 4, 5, 6], [4], None, {"dmg": [(5, "normal")], "dial": 5}),
    ("sun-elf", "Radiant Energy", 0, [1, 2, 3, 6, 6], [], None,
     {"inflict": {"Sun Marked": 1}, "dmg": [(6, "normal")]}),
    ("sun-elf", "Ray of Light", 0, [1, 2, 3, 4, 1], [], None, {"dial": 4, "dmg": [(7, "normal")]}),
    ("sun-elf", "Solar Burst", 0, [6] * 4 + [1], [], [0],
     {"dial": 5, "gain": {"Charged Gem": 1}, "dmg": [(8, "normal")]}),
    ("sun-elf", "Sun Beam", 0, [1, 2, 3, 4, 5], [], None, {"dial": 5, "dmg": [(9, "normal")]}),
    ("sun-elf", "Solar Flare!", 0, [6] * 5, [], None,
     {"dial": 5, "gain": {"Charged Gem": 1}, "inflict": {"Sun Marked": 1}, "dmg": [(10, "normal")]}),
    ("sun-elf", "Harness the Light", None, [], [3], None, {"heal": 1}),
]


@pytest.mark.parametrize("hero,ability,option,roll,dice,answers,expected", RULEBOOK,
                         ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in RULEBOOK])
def test_every_ability_gives_what_the_rulebook_says(compiled, hero, ability, option, roll, dice,
                                                    answers, expected):
    """000_eaa64e0770891241.txt, "<hero>" > "Hero Board": damage, healing, statuses, CP."""
    state, _, _ = run_ability(compiled, hero, ability, roll, dice=dice, option=option or 0,
                              answers=Scripted(*answers) if answers is not None else None)
    me, them = state.seats
    assert [(amount, kind) for target, amount, kind, _ in state.dealt if target == 1] == \
        expected.get("dmg", [])
    assert state.added == expected.get("added", 0)
    assert me.health - 50 == expected.get("heal", 0)
    assert me.cp - 2 == expected.get("cp", 0)
    mine = {compiled.statuses[s]["name"]: len(t) for s, t in me.statuses.items() if t}
    theirs = {compiled.statuses[s]["name"]: len(t) for s, t in them.statuses.items() if t}
    assert mine == expected.get("gain", {}) and theirs == expected.get("inflict", {})
    assert len(me.hand) == expected.get("hand", 0)
    assert sum(len(z) for z in me.zones.values()) == expected.get("zone", 0)
    if "dial" in expected:
        assert me.components[0] == expected["dial"]


def test_the_table_covers_every_offensive_option_and_defense(compiled):
    covered = {(r[0], r[1], r[2] or 0) for r in RULEBOOK}
    for hero in ("druid", "duelist", "forgemaster", "sun-elf"):
        _, data = compiled.hero(hero)
        for ability in data["abilities"]:
            if ability["kind"] == "defensive":
                assert (hero, ability["name"], 0) in covered
            for i, _ in enumerate(ability.get("options", [])):
                assert (hero, ability["name"], i) in covered, (hero, ability["name"], i)


def test_cards_zones_and_nested_card_chunks(compiled):
    """PLACE_N puts Ore from hand on The Forge; USE_CARDS runs each card's own chunk."""
    hero_index, data = compiled.hero("forgemaster")
    ore = compiled.card_types.index("Ore")
    ops = [(Op.PUSH, 2), (Op.DRAW,), (Op.PUSH, 2), (Op.PLACE_N, 0, ore), (Op.PUSH, 1),
           (Op.USE_CARDS, 0, ore), (Op.END,)]
    state, outcome, asked = run_ops(compiled, ops, hero="forgemaster",
                                    answers=Scripted([0, 1], [0]))
    me = state.seats[0]
    assert me.hand == [] and me.zones[0] == ["Pick Ore"] and me.discard == ["Pick Ore"]
    assert me.cp == 3  # Pick Ore's Scrap Effect: gain 1 CP, run as a nested chunk
    assert [r.purpose for r in asked] == ["place", "use"]


def test_discard_place_any_and_search(compiled):
    ore = compiled.card_types.index("Ore")
    ops = [(Op.PUSH, 3), (Op.DRAW,), (Op.PLACE_ANY, 0, ore), (Op.PUSH, 1), (Op.DISCARD,),
           (Op.SEARCH, 0, 1, ore), (Op.PLACE_FOUND, 0), (Op.SHUFFLE,), (Op.END,)]
    state, _, asked = run_ops(compiled, ops, hero="forgemaster",
                              answers=Scripted([0], [0], [0]))
    me = state.seats[0]
    assert me.zones[0] == ["Pick Ore", "Pick Ore"] and len(me.discard) == 1 and len(me.hand) == 1
    assert [r.purpose for r in asked] == ["place", "discard", "search"]


def test_tokens_this_token_double_and_craft(compiled):
    regen = status_id(compiled, "Regenerate")
    armor = status_id(compiled, "Armor")
    forge_zone = 0
    # two tokens; flip the second to side "1"; gain one more (3); spend the running token
    # (token 0: 2 left); spend 1 more (the flipped one: 1 left); flip the running token to "1"
    ops = [(Op.PUSH, 2), (Op.GAIN, regen, 0), (Op.FLIP_TOKEN, regen, 1), (Op.GAIN_THIS,),
           (Op.SPEND_THIS,), (Op.PUSH, 1), (Op.SPEND, regen), (Op.FLIP_THIS, 1),
           (Op.COUNT_STATUS, regen), (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    state, _, asked = run_ops(compiled, ops, status=regen, answers=Scripted([1]))
    assert state.incoming[1] == 1
    assert [t.side for t in state.seats[0].statuses[regen]] == [1]
    assert asked[0].items == ("Regenerate (2)", "Regenerate (2)")
    crafts = [(Op.CRAFT, armor, forge_zone), (Op.PUSH, 1), (Op.DOUBLE, armor, 1), (Op.END,)]
    state, _, asked = run_ops(compiled, crafts, hero="forgemaster", answers=Scripted([2], [0]))
    assert state.status_count(0, armor) == 1 and state.doubled == [(armor, [0])]


def test_damage_outcomes(compiled):
    undefendable = compiled.damage_types.index("undefendable")
    offensive = compiled.phases.index("Offensive Roll Phase")
    income = compiled.phases.index("Income Phase")
    ops = [(Op.PUSH, 2), (Op.RECEIVE, 0), (Op.PUSH, 3), (Op.PREVENT,), (Op.PREVENT_HALF, 0),
           (Op.PREVENT_ALL,), (Op.ATTACK_BECOMES, undefendable), (Op.FAIL_PHASE, offensive),
           (Op.SKIP, income, 0), (Op.END,)]
    state, _, _ = run_ops(compiled, ops)
    assert state.incoming[0] == 2 and state.prevented[0] == 3
    assert state.attack_type == undefendable and state.failed == [offensive]
    assert state.seats[0].skipped == [income]
    assert any("half" in line for line in state.log) and any("all incoming" in line for line in state.log)


def test_choices_and_tracks(compiled):
    ops = [(Op.PICK_FROM, 0), (Op.MOVE, 0, 0), (Op.SET_COMP, 0, 4), (Op.PUSH, 1), (Op.MOVE, 0, 1),
           (Op.GET_COMP, 0), (Op.DEAL, 0, TARGETS.index("opponent"), 0), (Op.END,)]
    answers = Scripted(2, "down")
    state, _, asked = run_ops(compiled, ops, consts=[[1, 2]], hero="duelist", answers=answers)
    assert asked[0].choices == (1, 2) and asked[1].component == "Footwork"
    assert state.incoming[1] == 3  # set to Defense 3 (index 4), then one Step up: index 3


def valeria_chunks(compiled) -> set[int]:
    v = compiled.data["valeria"]
    chunks = {r["chunk"] for r in v["rules"]["rewards"] if r["chunk"] is not None}
    chunks |= {d["chunk"] for s in v["sheets"] for d in s["domains"]}
    chunks |= {c["chunk"] for c in v["statues"]["cards"]}
    chunks |= {c["chunk"] for e in v["events"] for c in e["cards"]}
    return chunks


def run_on_sheets(vm, compiled, index):
    from dtc.valeria.engine import Game as Valeria

    game = Valeria(compiled, 1, seed=index, solo=True)
    game.setup()
    game.phase = "action"
    game.dice = {"harvest 1": 2, "harvest 2": 5, "Yellow": 3, "Red": 4, "Green": 5, "Blue": 6}
    run = vm.run(index, RunContext(0), game, random.Random(index))
    try:
        next(run)
        while True:
            run.send(0)  # the first option of every choice
    except StopIteration:
        pass


def test_every_opcode_runs(compiled):
    """Every opcode is executed somewhere: in the content's chunks or the programs above."""
    seen: set[Op] = set()
    vm = VM(compiled)
    vm.trace = lambda chunk, ins, stack: seen.add(ins.op)
    valeria = valeria_chunks(compiled)
    for index, chunk in enumerate(compiled.chunks):
        if index in valeria:  # a Kingdoms of Valeria effect runs against player sheets
            run_on_sheets(vm, compiled, index)
            continue
        hero = chunk.hero if chunk.hero is not None else 0
        state = SampleState(compiled, [hero, (hero + 1) % len(compiled.heroes)], logging=False)
        ctx = RunContext(0, hero, attacker=1, defender=1, roll=[4, 4, 4, 4, 6],
                         faces=faces_of(compiled, hero), status=chunk.status, token=0)
        if chunk.status is not None:
            state.gain_status(0, chunk.status, 1, 0)
        run_to_end(vm, index, ctx, state, random.Random(index))
    from dtc.opcodes import TABLE

    missing = set(TABLE) - seen
    exercised_above = {Op.PLACE_N, Op.USE_CARDS, Op.PLACE_ANY, Op.DISCARD, Op.FLIP_TOKEN,
                       Op.GAIN_THIS, Op.SPEND_THIS, Op.SPEND, Op.CRAFT, Op.DOUBLE, Op.FAIL_PHASE,
                       Op.PREVENT_ALL, Op.PREVENT_HALF, Op.SKIP, Op.MOVE, Op.SET_COMP, Op.PICK_FROM,
                       Op.LOSE_CP, Op.STEAL_CP, Op.COMPARE, Op.NOT, Op.MIN, Op.HALF, Op.ADD,
                       Op.EXTRA_ATTEMPTS, Op.EVENT_VALUE, Op.GET_CP, Op.HAND_SIZE,
                       Op.COUNT_OPPONENTS, Op.GET_COMP, Op.CHANGE_DICE, Op.REROLL, Op.PICK,
                       Op.DID, Op.SCHEDULE, Op.INSTEAD, Op.PAY_CP, Op.ACTOR, Op.ROLL_TOTAL,
                       Op.ROLL_VALUE, Op.DUP, Op.POP, Op.SUB, Op.MUL, Op.COUNT_SYMBOLS,
                       Op.MEETS, Op.COUNT_STATUS, Op.RAISE, Op.LOWER, Op.FLIP_DIAL, Op.RECEIVE,
                       Op.ROLL_HIGHEST, Op.PAY_ANY_CP, Op.PAID, Op.REMOVED, Op.TURN_COUNT, Op.EXTRA_ROLL,
                       Op.DISCARD_RANDOM, Op.RAISE_LIMIT, Op.TRANSFER,  # printed constructs (test_coverage)
                       Op.CHOOSE_PLAYERS, Op.ACTOR_NTH, Op.DOUBLE_DMG, Op.GET_HEALTH, Op.SPEND_ANY,
                       Op.SIDE_IS, Op.RETURN_CARDS,
                       Op.MARK_TRACK}  # the last in tests/test_valeria_engine.py (no content uses it)
    assert missing <= exercised_above, missing - exercised_above


def test_the_can_start_shortcut_never_says_yes_where_reading_the_state_says_no(compiled):
    """`can_start` skips reading the state for steps it would say yes to anyway; over every chunk and
    step of the built-in content and states with nothing (no CP, cards, tokens, forms at each end)
    or everything (every stack full), the shortcut agrees with reading the state."""
    vm = VM(compiled)
    states = []
    for hero in range(len(compiled.heroes)):
        for cp, hand in ((0, False), (15, True)):
            state = SampleState(compiled, [hero, (hero + 1) % len(compiled.heroes)])
            state.seats[0].cp = cp
            if not hand:
                state.seats[0].hand.clear()
            states.append(state)
            full = copy.deepcopy(state)  # every status at its stack limit, on both players
            for seat in (0, 1):
                for status, entry in enumerate(compiled.statuses):
                    if entry.get("class") is None and not entry.get("tiers"):
                        full.gain_status(seat, status, entry.get("stack_limit", 3), 0)
            states.append(full)
            for comp in range(len(state.seats[0].components)):
                values = compiled.heroes[hero]["components"][comp].get("values") or [0]
                for at_end in (0, len(values) - 1):
                    moved = copy.deepcopy(state)
                    moved.seats[0].components[comp] = at_end
                    states.append(moved)
    checked = 0
    for chunk in range(len(compiled.chunks)):
        for at in range(len(vm._steps(chunk))):
            if vm._starts_unchecked(chunk, at):
                for state in states:
                    if compiled.chunks[chunk].hero in (None, state.seats[0].hero):
                        assert vm.reads_start(chunk, state, 0, at), (compiled.chunks[chunk].owner, at)
                        checked += 1
    assert checked > 1000


def test_an_option_counting_none_of_the_dice_is_not_offered(tmp_path):
    """"Choose one: prevent 1 dmg per [Leaf] rolled, or deal 1 dmg per [Claw] rolled to the Attacker"
    with no Leaf rolled: the first option would prevent nothing, so it is not offered and the other
    is taken unasked (the empty one was offered, and bots took it: designer QA)."""
    from test_engine import compiled_with_cards

    compiled = compiled_with_cards(tmp_path, "druid.yaml", "", replace=[(
        "effect: If in Bear Form, roll 4 dice instead. Deal 1 dmg per [Claw] rolled.",
        'effect: "Choose one: prevent 1 dmg per [Leaf] rolled, or deal 1 dmg per [Claw] rolled to the '
        'Attacker."')])
    answers = Scripted()
    state, _, _ = run_ability(compiled, "druid", "Thick Hide", [], dice=[1, 2], answers=answers)
    assert not [r for r in answers.seen if isinstance(r, ChooseOption)]
    assert sum(state.incoming.values()) == 2  # both Claws: 2 dmg to the Attacker (the runner's seat 0)
    answers = Scripted(1)
    state, _, _ = run_ability(compiled, "druid", "Thick Hide", [], dice=[1, 6], answers=answers)
    (asked,) = [r for r in answers.seen if isinstance(r, ChooseOption)]  # one of each: both offered
    assert len(asked.options) == 2


@pytest.mark.parametrize("text, windows", [
    ("Roll 1 die: On 6, gain 1 CP.", [2]),  # the break before the die counts
    ("Roll 1 die. Then gain 1 CP.", [0]),  # its Then is that break already
    ("If you have 1 Wound, roll 1 die. Then gain 1 CP.", [0]),  # ... from inside an `If` too
    ("Choose one: roll 1 die, or gain 1 CP. Then gain 2 CP.", [0]),  # ... or an option
])
def test_one_window_after_an_effects_roll(builtin, text, windows):
    """A window opens after the dice an effect rolls, before they count; a `Then` right after is
    that window already: two in a row asked players twice for nothing (code review: from inside an
    `If` or an option, the `Then` after it was not seen)."""
    content = builtin.content
    druid = next(h for h in content.heroes if h.name == "Druid")
    loaded, index = compile_text(content, druid, text)
    steps = VM(loaded)._steps(index)
    assert [a for op, a, _, _ in steps if op == Op.THEN] == windows


# ------------------------------------------------- printed constructs, run (printed card text)


def _run_text(builtin, text, *, dice=(), answers=first_answer, setup=None, hero="Druid", roll=(),
              kind="card"):
    content = builtin.content
    who = next(h for h in content.heroes if h.name == hero)
    loaded, index = compile_text(content, who, text, kind)
    hero_index = content.heroes.index(who)
    state = SampleState(loaded, [hero_index, (hero_index + 1) % len(loaded.heroes)])
    if setup:
        setup(state, loaded)
    ctx = RunContext(0, hero_index, attacker=0, defender=1, roll=list(roll),
                     faces=faces_of(loaded, hero_index))
    outcome, asked = run_to_end(VM(loaded), index, ctx, state, ScriptedRNG(list(dice)), answers)
    return state, asked


@pytest.mark.parametrize("bear, cp, health", [(True, 2, 33), (False, 3, 30)])
def test_otherwise_runs_when_the_if_does_not(builtin, bear, cp, health):
    def setup(state, loaded):
        state.seats[0].health = 30
        if bear:
            state.set_component(0, 0, 1)  # Active Form: Bear Form
    state, _ = _run_text(builtin, "If in Bear Form, heal 3. Otherwise, gain 1 CP.", setup=setup)
    assert (state.seats[0].cp, state.seats[0].health) == (cp, health)


@pytest.mark.parametrize("face, cp, cards", [(1, 3, 0), (4, 2, 0), (6, 2, 1)])
def test_on_any_other_result_runs_when_no_on_before_it_held(builtin, face, cp, cards):
    text = "Roll 1 die: On 1-2, gain 1 CP. On 3-4, heal 2. On any other result, draw 1 card."
    state, _ = _run_text(builtin, text, dice=[face])
    assert (state.seats[0].cp, len(state.seats[0].hand)) == (cp, cards)


@pytest.mark.parametrize("faces, inflicted", [([6, 6], 1), ([1, 2], 0)])
def test_a_condition_on_the_total_rolled(builtin, faces, inflicted):
    state, _ = _run_text(builtin, "Roll 2 dice. If the total is 10 or more, inflict Wound.", dice=faces)
    assert state.status_count(1, status_id(state.a, "Wound")) == inflicted


def test_amounts_counted_from_the_state(builtin):
    def setup(state, loaded):
        state.gain_status(1, status_id(loaded, "Wound"), 2, 0)
        state.gain_status(0, status_id(loaded, "Shape Shift"), 2, 0)
    # symbols are counted on the dice of a roll: an offensive ability's (the `×` inside a sum was not
    # checked for one, and read nothing in a card)
    state, _ = _run_text(builtin, "Deal 1 dmg for each Wound on your opponent. Heal 1 + 2 × [Claw].",
                         setup=setup, roll=[1, 1, 4, 5, 6], kind="offensive")
    assert state.incoming[1] == 2 and state.seats[0].health == 55
    state, _ = _run_text(builtin, "Gain 1 CP per Shape Shift token you have.", setup=setup)
    assert state.seats[0].cp == 4


def test_a_condition_on_the_opponents_hand(builtin):
    def setup(state, loaded):
        state.seats[1].hand.extend(state.seats[1].deck[:4])
    state, _ = _run_text(builtin, "If your opponent has 4 or more cards in hand, gain 2 CP.", setup=setup)
    assert state.seats[0].cp == 4
    state, _ = _run_text(builtin, "If your opponent has 4 or more cards in hand, gain 2 CP.")
    assert state.seats[0].cp == 2


def test_a_chosen_player_is_asked_for_once_and_only_that_player_is_hit(builtin):
    """`Inflict Wound on a chosen player` inflicted every player (the target meant all of them); now it
    asks, once for a whole list, and `them` after it is the player chosen."""
    from dtc.vm import ChoosePlayer

    asked = []

    def pick_opponent(request):
        asked.append(request)
        return 1 if isinstance(request, ChoosePlayer) else first_answer(request)
    text = "Inflict Wound and Regenerate on a chosen player. Deal 2 dmg to them."
    state, _ = _run_text(builtin, text, answers=pick_opponent)
    chose = [r for r in asked if isinstance(r, ChoosePlayer)]
    assert len(chose) == 1 and chose[0].players == (0, 1) and chose[0].hostile is True
    assert state.status_count(0, status_id(state.a, "Wound")) == 0
    assert state.status_count(1, status_id(state.a, "Wound")) == 1
    assert state.status_count(1, status_id(state.a, "Regenerate")) == 1 and state.incoming[1] == 2


def test_a_chosen_teammate_in_one_versus_one_is_no_one(builtin):
    """No teammate in a 1v1 game: what she would do is skipped (it stopped the run with an error)."""
    state, asked = _run_text(builtin, "A chosen teammate heals 4. Gain 1 CP.")
    assert state.seats[0].cp == 3 and state.seats[0].health == 50
    assert not asked


@pytest.mark.parametrize("face, healed", [(5, 2), (6, 2), (3, 0)])
def test_on_any_of_several_values(builtin, face, healed):
    def setup(state, loaded):
        state.seats[0].health = 40
    state, _ = _run_text(builtin, "Roll 1 die: On 5 or 6, heal 2.", dice=[face], setup=setup)
    assert state.seats[0].health == 40 + healed


def test_the_highest_value_rolled_and_a_form_not_held(builtin):
    state, _ = _run_text(builtin, "Roll 3 dice. Deal dmg equal to the highest value rolled.", dice=[2, 5, 3])
    assert state.incoming[1] == 5
    state, _ = _run_text(builtin, "If not in Bear Form, gain 1 CP.")  # in Druid Form
    assert state.seats[0].cp == 3


def test_spending_a_token_named_without_a_count_spends_one(builtin):
    def setup(state, loaded):
        state.gain_status(0, status_id(loaded, "Shape Shift"), 2, 0)
    state, _ = _run_text(builtin, "Spend a Shape Shift token to gain 2 CP.", setup=setup)
    assert state.seats[0].cp == 4 and state.status_count(0, status_id(state.a, "Shape Shift")) == 1


def test_spend_any_amount_of_cp_and_count_what_was_spent_or_removed(builtin):
    """`Spend any amount of CP: deal 1 dmg per CP spent.`; `Remove all Wound ... Deal 2 dmg per token
    removed.` (printed card text: amounts counted from what the effect just did)."""
    from dtc.vm import PickNumber

    def three(request):
        return 3 if isinstance(request, PickNumber) else first_answer(request)

    def setup(state, loaded):
        state.seats[0].cp = 5
        state.gain_status(1, status_id(loaded, "Wound"), 2, 0)
    state, asked = _run_text(builtin, "Spend any amount of CP: deal 1 dmg per CP spent.", setup=setup,
                             answers=three)
    assert [r.choices for r in asked if isinstance(r, PickNumber)] == [(0, 1, 2, 3, 4, 5)]
    assert state.seats[0].cp == 2 and state.incoming[1] == 3
    state, _ = _run_text(builtin, "Remove all Wound from your opponent. Deal 2 dmg per token removed.",
                         setup=setup)
    assert state.status_count(1, status_id(state.a, "Wound")) == 0 and state.incoming[1] == 4


def test_a_companion_is_no_status_effect_to_what_removes_them(tmp_path):
    """"Companions are not Status Effects, and are therefore immune to cards and abilities that alter
    Status Effects" (004_59219b97262c5e85.txt, "Companions"): `Remove 1 positive status effect` takes the
    Regenerate token, never the companion; an opponent's `remove all <companion>` takes nothing."""
    from conftest import content_copy

    from dtc import project
    from dtc.compiler import compile_content

    companion = ("  - name: Wolf\n    polarity: positive\n    stack_limit: 1\n    companion: true\n"
                 "    effects:\n      - During your Upkeep Phase, heal 1.\n")
    folder = content_copy(tmp_path, "druid.yaml", status=companion)
    front = project.run([folder])
    assert front.errors == []
    image = compile_content(front.content, project.artifact_names(front, [folder]))
    loaded = artifact.load(artifact.to_bytes(image))
    druid = next(h for h in front.content.heroes if h.name == "Druid")
    loaded_text, index = compile_text(front.content, druid, "Remove 1 positive status effect from yourself.")
    hero_index = front.content.heroes.index(druid)
    state = SampleState(loaded_text, [hero_index, (hero_index + 1) % len(loaded_text.heroes)])
    wolf, regen = status_id(loaded_text, "Wolf"), status_id(loaded_text, "Regenerate")
    state.gain_status(0, wolf, 1, 0)
    state.gain_status(0, regen, 1, 0)
    run_to_end(VM(loaded_text), index, RunContext(0, hero_index), state, random.Random(0))
    assert (state.status_count(0, wolf), state.status_count(0, regen)) == (1, 0)
    assert loaded.statuses[wolf]["companion"] and loaded.statuses[wolf]["removable"] is False


def test_a_list_aimed_at_a_teammate_that_is_no_one_does_nothing(builtin):
    """`A chosen teammate gains Regenerate and Shape Shift` in 1v1: neither goes to the opponent (the
    later items went to `chosen`, which fell back on the opponent)."""
    state, _ = _run_text(builtin, "A chosen teammate gains Regenerate and Shape Shift.")
    assert all(state.status_count(p, status_id(state.a, name)) == 0
               for p in (0, 1) for name in ("Regenerate", "Shape Shift"))


def test_twice_the_value_rolled(builtin):
    state, _ = _run_text(builtin, "Roll 1 die. Deal dmg equal to twice the value rolled.", dice=[5])
    assert state.incoming[1] == 10


def test_a_transfer_moves_tokens_within_the_gainers_stack_limit(builtin):
    """`Transfer all Wound to your opponent`: the 2 Wounds leave; the opponent, holding 1 already with
    a Stack Limit of 2 ("Stack Limits"), keeps 2; `per token removed` counts the 2 that left."""
    def setup(state, loaded):
        state.gain_status(0, status_id(loaded, "Wound"), 2, 0)
        state.gain_status(1, status_id(loaded, "Wound"), 1, 0)
    text = "Transfer all Wound to your opponent. Gain 1 CP per token removed."
    state, _ = _run_text(builtin, text, setup=setup)
    wound = status_id(state.a, "Wound")
    assert (state.status_count(0, wound), state.status_count(1, wound)) == (0, 2)
    assert state.seats[0].cp == 4


def test_a_token_marked_not_transferable_stays(builtin):
    """Shape Shift: "This token may not be removed or transferred by any other means"
    (000_eaa64e0770891241.txt, Druid): `Steal 1 Shape Shift` takes nothing."""
    def setup(state, loaded):
        state.gain_status(1, status_id(loaded, "Shape Shift"), 1, 0)
        state.gain_status(1, status_id(loaded, "Regenerate"), 1, 0)
    text = "Steal 1 Shape Shift from your opponent. Steal 1 Regenerate from your opponent."
    state, _ = _run_text(builtin, text, setup=setup)
    shift, regenerate = status_id(state.a, "Shape Shift"), status_id(state.a, "Regenerate")
    assert (state.status_count(0, shift), state.status_count(1, shift)) == (0, 1)
    assert (state.status_count(0, regenerate), state.status_count(1, regenerate)) == (1, 0)


def test_a_transfer_to_another_player_never_goes_back_to_where_it_came_from(builtin):
    """`from a chosen player to another player`: the Druid chooses her opponent; in a 1v1 game the
    other player is she herself, unasked."""
    from dtc.vm import ChoosePlayer

    def setup(state, loaded):
        state.gain_status(1, status_id(loaded, "Regenerate"), 1, 0)
    asked = []

    def answers(request):
        asked.append(request)
        return 1 if isinstance(request, ChoosePlayer) else first_answer(request)
    state, _ = _run_text(builtin, "Transfer 1 status effect from a chosen player to another player.",
                         setup=setup, answers=answers)
    assert [r.players for r in asked if isinstance(r, ChoosePlayer)] == [(0, 1)]
    assert state.status_count(0, status_id(state.a, "Regenerate")) == 1


@pytest.mark.parametrize("text, dealt", [
    # Maul as printed (000_eaa64e0770891241.txt, "Druid"): no `Then` between them, so the dmg counts
    # the dice the Bear Form re-roll leaves ("Resolving Text", "Then")
    ("Roll 2 dice and deal dmg equal to the total roll value. If in Bear Form, you may re-roll one of "
     "these dice.", 7),
    # with a `Then`, what follows comes after: the dmg counts the dice before the re-roll
    ("Roll 2 dice and deal dmg equal to the total roll value. Then if in Bear Form, you may re-roll one "
     "of these dice.", 2),
])
def test_a_re_roll_of_the_dice_comes_before_the_amount_read_from_them(builtin, text, dealt):
    def setup(state, loaded):
        state.set_component(0, 0, 1)  # Active Form: Bear Form
    state, _ = _run_text(builtin, text, dice=[1, 1, 6], setup=setup)
    assert state.incoming[1] == dealt
