"""The built-in content against the rulebooks it transcribes.

Each test cites the rulebook file and heading it checks.
"""

from __future__ import annotations

import pytest

from dtc import nodes as n

VANGUARD = "000_eaa64e0770891241.txt"


def hero(builtin, name):
    return next(h for h in builtin.content.heroes if h.name == name)


def ability(h, name):
    return next(a for a in h.abilities if a.name == name)


def test_builtin_content_lints_clean(builtin):
    """`dtc lint content/` exits 0: no errors, no unexplained warnings."""
    assert builtin.errors == [] and builtin.warnings == []


@pytest.mark.parametrize("name,faces", [
    ("Druid", {1: "Claw", 2: "Claw", 3: "Claw", 4: "Paw", 5: "Paw", 6: "Leaf"}),
    ("Duelist", {1: "Blade", 2: "Blade", 3: "Blade", 4: "Boot", 5: "Boot", 6: "Pierce"}),
    ("Forgemaster", {1: "Pick", 2: "Pick", 3: "Pick", 4: "Forge", 5: "Forge", 6: "Anvil"}),
    ("Sun Elf", {1: "Stave", 2: "Stave", 3: "Stave", 4: "Charge", 5: "Charge", 6: "Sun Power"}),
])
def test_dice_keys(builtin, name, faces):
    """000_eaa64e0770891241.txt, "<hero>" > "Dice Key"."""
    h = hero(builtin, name)
    assert h.faces == faces and h.dice_count == 5


BOARDS = {
    # 000_eaa64e0770891241.txt, "<hero>" > "Hero Board": every ability, in board order.
    "Druid": (["Ferocity", "Wild Realignment", "Nature's Cure", "Maul", "Forest's Call",
               "Protect the Forest", "Forest's Answer"], "Wrath of Nature!", ["Thick Hide"],
              ["Druid Form", "Cat Form", "Bear Form"]),
    "Duelist": (["Blade Flurry", "Feint Attack", "Balestra", "Strike", "Bladestorm", "En Garde"],
                "Master of the Blade!", ["Retreat"], ["Reposition"]),
    "Forgemaster": (["Pick Axe", "Furnace", "Armored Up", "Smelting Time", "A Good Haul"],
                    "Final Touches!", ["Masterwork"], ["The Mines", "The Forge"]),
    "Sun Elf": (["Light Staff", "Ray Absorption", "Scorching Staff", "Radiant Energy", "Ray of Light",
                 "Solar Burst", "Sun Beam"], "Solar Flare!", ["Harness the Light"], []),
}


@pytest.mark.parametrize("name", BOARDS)
def test_every_ability_on_the_board(builtin, name):
    offensive, ultimate, defensive, passive = BOARDS[name]
    h = hero(builtin, name)
    by_kind = lambda k: [a.name for a in h.abilities if a.kind == k]  # noqa: E731
    assert by_kind("offensive") == offensive
    assert by_kind("ultimate") == [ultimate]
    assert by_kind("defensive") == defensive
    assert by_kind("passive") == passive


@pytest.mark.parametrize("name,statuses", [
    ("Druid", {"Shape Shift": ("unique", 2), "Regenerate": ("positive", 2), "Wound": ("negative", 2)}),
    ("Duelist", {"Guard Break": ("positive", 2), "Disarm": ("negative", 1)}),
    ("Forgemaster", {"Armor": ("unique", 2)}),
    ("Sun Elf", {"Charged Gem": ("positive", 1), "Sun Marked": ("negative", 1)}),
])
def test_status_effects_and_stack_limits(builtin, name, statuses):
    """000_eaa64e0770891241.txt, "<hero>" > "Status Effects"."""
    h = hero(builtin, name)
    assert {s.name: (s.polarity, s.stack_limit) for s in h.statuses} == statuses


def test_sun_marked_is_persistent(builtin):
    """000_eaa64e0770891241.txt, "Sun Elf" > "Status Effects" > Sun Marked: "Persistent"."""
    sun_marked = next(s for s in hero(builtin, "Sun Elf").statuses if s.name == "Sun Marked")
    assert sun_marked.data["persistent"] is True


def test_armor_slots_and_blueprints(builtin):
    """000_eaa64e0770891241.txt, "Forgemaster" > "Status Effects" > Helmets, Shields."""
    armor = hero(builtin, "Forgemaster").statuses[0]
    table = {(s.name, t.name): " ".join(map(str, t.blueprint.ast.items)) for s in armor.slots
             for t in s.tiers}
    assert [s.name for s in armor.slots] == ["Helmet", "Shield"]
    assert [t.name for t in armor.slots[0].tiers] == ["Gold", "Diamond", "Ultimanium"]
    ult = armor.slots[1].tiers[2].effect.ast
    assert ult.trigger == n.Attacked(False, "any", "ultimate")
    assert ult.body == (n.Prevent(n.Number(2)),)
    assert len(table) == 6


@pytest.mark.parametrize("name,component,facts", [
    ("Sun Elf", "Sun Dial", {"kind": "dial", "range": [0, 5], "start": 3, "sides": ["Dusk", "Dawn"],
                             "start_side": "Dusk"}),
    ("Duelist", "Footwork", {"kind": "track", "start": "Neutral",
                             "positions": ["Offense 3", "Offense 1", "Neutral", "Defense 1", "Defense 3"]}),
    ("Druid", "Active Form", {"kind": "forms", "forms": ["Druid Form", "Bear Form", "Cat Form"],
                       "start": "Druid Form"}),
    ("Forgemaster", "The Forge", {"kind": "zone", "holds": "Ore"}),
])
def test_unique_game_elements(builtin, name, component, facts):
    """000_eaa64e0770891241.txt, "<hero>" > "Unique Game Element(s)" and Hero Setup."""
    comp = next(c for c in hero(builtin, name).components if c.name == component)
    for key, value in facts.items():
        assert comp.data[key] == value, key


def test_thick_hide_bear_bonus_is_a_marked_gap_not_a_guess(builtin):
    """000_eaa64e0770891241.txt, "Duplicate-Content and Sourcing Notes": illegible, not guessed."""
    thick = ability(hero(builtin, "Druid"), "Thick Hide")
    assert "illegible" in thick.gap
    body = thick.effects[0].ast.body
    assert body == (
        n.If(n.InForm("Bear Form"), (n.Instead((n.Roll(n.Number(4), None),)),)),
        n.Deal(n.Per(n.Number(1), n.SymbolsRolled(("Claw",))), None, None, False),
    )


def test_forests_answer_resolves_to_core_statements(builtin):
    """000_eaa64e0770891241.txt, "Druid" > "Hero Board" > Forest's Answer."""
    answer = ability(hero(builtin, "Druid"), "Forest's Answer")
    req = answer.options[0].requires.ast
    assert req == n.Requirement((n.Straight("large"),))
    body = answer.options[0].effect.ast.body
    assert body[0] == n.Gain(n.NamedStatus("Shape Shift", None)) and body[1] == n.Then()


def test_transform_verbs_expand_to_form_changes(builtin):
    """000_eaa64e0770891241.txt, "Druid" > Shape Shift: spent to transform."""
    shape_shift = next(s for s in hero(builtin, "Druid").statuses if s.name == "Shape Shift")
    effect = shape_shift.effects[0].ast
    assert effect.trigger == n.Spent()
    options = effect.body[0].options
    assert [o[0].body for o in options] == [
        (n.SetValue("Active Form", "Bear Form"),), (n.SetValue("Active Form", "Cat Form"),),
        (n.SetValue("Active Form", "Druid Form"),)]


def test_unreachable_printed_conditions_are_flagged_and_explained(builtin):
    """The four first abilities print an On 4-of-a-kind bonus that 5 dice cannot fit with any
    tier, and Harness the Light prints "On 2 Charge" on Defense Roll 1: the checker finds all
    five in the transcription and each is `allow`ed with the reason."""
    allowed = [d for d in builtin.diagnostics if d.suppressed is not None]
    where = sorted((d.span.path.split("/")[-1], d.code) for d in allowed)
    assert where.count(("druid.yaml", "C007")) == 2  # Ferocity and its authored upgrade
    assert ("duelist.yaml", "C007") in where and ("forgemaster.yaml", "C007") in where
    assert where.count(("sun-elf.yaml", "C007")) == 2  # Light Staff, Harness the Light
    assert all("Printed so" in d.suppressed or "printed" in d.suppressed.lower() for d in allowed)


def test_every_card_is_marked_authored(builtin):
    """The rulebooks list no cards: every card in the content says it is authored."""
    for h in builtin.content.heroes:
        for card in h.cards:
            assert "authored" in card.data, (h.name, card.name)
    for card_set in builtin.content.card_sets:
        assert "authored" in card_set.doc.data


def test_decks(builtin):
    """Every hero has upgrades for several abilities and action cards of each timing."""
    shared = sum(c.copies for cs in builtin.content.card_sets if cs.every_hero for c in cs.cards)
    for h in builtin.content.heroes:
        upgrades = {c.data["upgrades"] for c in h.cards if c.kind == "upgrade"}
        assert len(upgrades) >= 4, h.name
        timings = {c.data["timing"] for c in h.cards if c.kind == "action"}
        assert timings == {"main", "roll", "instant"}, h.name
        assert sum(c.copies for c in h.cards) + shared >= 30


def test_adventures_status_list(builtin):
    """003_bd4cabbe7964005d.txt, "Status Effects and Tokens": the listed effects; and "Other Game
    Modes": "King's Hand tokens are a Unique Status Effect (Stack Limit: 5): Cannot be removed or
    transferred by any means"."""
    (adventures,) = builtin.content.status_sets
    assert [s.name for s in adventures.statuses] == [
        "Back Strike", "Barbed Vine", "Bleed", "Blind", "Bounty", "Bonus Damage", "Burn", "Chaos",
        "King's Hand", "Knockdown", "Concussion"]
    limits = {s.name: s.stack_limit for s in adventures.statuses}
    assert limits == {"Back Strike": 1, "Barbed Vine": 1, "Bleed": 2, "Blind": 1, "Bounty": 1,
                      "Bonus Damage": 2, "Burn": 1, "Chaos": 6, "King's Hand": 5, "Knockdown": 1,
                      "Concussion": 1}
    # named by the rulebook, their text not printed there: authored, and said so
    for name in ("Knockdown", "Concussion"):
        assert "authored" in next(s for s in adventures.statuses if s.name == name).data
    kings_hand = next(s for s in adventures.statuses if s.name == "King's Hand").data
    assert kings_hand["polarity"] == "unique" and kings_hand["removable"] is False
    assert kings_hand["transferable"] is False
    bounty = next(s for s in adventures.statuses if s.name == "Bounty")
    assert "without a printed number" in bounty.data["gap"]


def test_ruleset_v2_4_3_constants(builtin):
    """000_eaa64e0770891241.txt, "Game Setup", "Health", "Combat Points (CP)", "Hero Cards",
    "3 Player Games" > "King of the Hill"."""
    rules = next(r for r in builtin.content.rulesets if r.data["edition"] == "2.4.3")
    d = rules.data
    assert rules.default
    assert d["modes"]["1v1"]["starting_health"] == 50
    assert d["modes"]["king_of_the_hill"]["starting_health"] == 35
    assert (d["cp"]["start"], d["cp"]["max"], d["cp"]["sell_value"]) == (2, 15, 1)
    assert (d["cards"]["starting_hand"], d["cards"]["hand_limit"]) == (4, 6)
    assert d["heal_cap_above_start"] == 10
    assert d["attack_modifiers"] == "own_attacks"


def test_damage_type_chart(builtin):
    """000_eaa64e0770891241.txt, "Damage Type Chart" (v2.4.3) and 001_34bc079e63d76679.txt (v2.0)."""
    def chart(edition):
        rules = next(r for r in builtin.content.rulesets if r.data["edition"] == edition)
        return {t["name"]: (t["defendable"], t["avoidable"], t["modifiable"], t["special_targeting"])
                for t in rules.data["damage_types"]}
    assert chart("2.4.3") == {
        "normal": (True, True, True, False),
        "undefendable": (False, True, True, False),
        "pure": (False, True, False, False),
        "collateral": (False, True, False, True),
        "ultimate": (False, False, "increase only", False),
    }
    # the older edition: ultimate damage is plainly Enhanceable
    assert chart("2.0")["ultimate"] == (False, False, True, False)
