"""Accepted means executed: every kind of AST node and every opcode, acted on in a real game.

Each case of `CASES` puts one effect text on the coverage hero (tests/cases/coverage/tester.yaml):
as a card it plays, a status effect it holds, or (on a copy of the hero of its own, so that nothing
else acts in the other cases' games) an ability, a passive ability or a component's effect. The
content is compiled once with the built-in content, and each case plays a real
`dtc.dicethrone.engine.Game` against the built-in Druid with scripted dice and answers, then checks
what a player would notice: Health, CP, tokens, cards, dice, a component, a phase skipped, an event.

Two meta-tests keep the table honest: every node kind of `dtc.nodes.NODE_TYPES` is named by a case
and occurs in that case's checked AST (except the nodes lint must refuse, `REFUSED`, shown refused),
and every Dice Throne opcode is named by a case and was executed in that case's own chunks during its
game (the VM's `trace` hook). The Kingdoms of Valeria opcodes are executed in Valeria bot games.

What lint accepts and the engine silently ignores is not a case: an opcode the engine never acts on
is in `IGNORED_OPS` (the opcode meta-test exempts it), and a node kind or opcode the engine acts on in
one place and ignores in another is in `GAPS`, with the text that shows it.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from ruamel.yaml import YAML

from dtc import artifact, project
from dtc import nodes as n
from dtc.compiler import compile_content
from dtc.diagnostics import render_text
from dtc.dicethrone.engine import Game
from dtc.dicethrone.state import Card
from dtc.opcodes import EITHER_GAME_OPS, VALERIA_OPS, Op
from dtc.parser import parse_effect
from dtc.vm import VM

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
TESTER_FILE = ROOT / "tests" / "cases" / "coverage" / "tester.yaml"
TESTER = "Coverage Tester"
OPPONENT = "Druid"

# Offensive Rolls (the tester's dice: 1-3 [Fang], 4-5 [Hoof], 6 [Moon]; the Druid's: 1-3 [Claw],
# 4-5 [Paw], 6 [Leaf]) and Defensive Rolls, in the order the scripted RNG hands them out.
NO_ATTACK = (4, 4, 5, 5, 6)  # meets none of the tester's abilities: no Attack
STRIKE = (1, 1, 1, 4, 4)  # 3 [Fang]: Strike, 3 dmg
PAWS = (4, 4)  # the Druid's Thick Hide rolls no [Claw]: no dmg back
DRUID_ATTACK = (1, 1, 1, 1, 4)  # 4 [Claw]: Ferocity, 5 dmg
DRUID_PASS = (4, 5, 6, 6, 6)  # meets none of the Druid's abilities
HOOF = (4,)  # the tester's Guard rolls no [Moon]: nothing prevented


# ------------------------------------------------------------------ the table


@dataclass(frozen=True)
class Case:
    """One effect text, where it goes, the game that reaches it, and what a player sees it do."""

    id: str
    nodes: tuple[str, ...]  # the node kinds it covers: each occurs in its checked AST
    ops: tuple[str, ...]  # the opcodes it covers: each runs in its own chunks during its game
    where: str  # card | status | offensive | defensive | passive | component
    text: Any  # the effect text (a status: its `effects:` list)
    shows: str  # what a player notices
    expect: Callable[[Seen], bool]
    entry: dict = field(default_factory=dict)  # more YAML of the card, status, ability or component
    helpers: tuple = ()  # more YAML: cards for the tester's deck, or passives of the case's own hero
    setup: Callable[[Game], Any] | None = None
    dice: tuple[int, ...] | None = None  # None: NO_ATTACK or DRUID_PASS for each turn
    turns: str = "mine"  # whose turns are played, in order: `mine theirs mine`
    acts: tuple[tuple[str, str], ...] | None = None  # (window, action) the tester takes, in order
    answers: dict = field(default_factory=dict)  # request kind -> answer, or a callable of the request

    @property
    def hero(self) -> str:
        return TESTER if self.where in ("card", "status") else f"Coverage {self.id}"

    @property
    def cards(self) -> list[str]:
        """The cards of the case the tester holds: the case's own, and helper cards."""
        if self.where not in ("card", "status"):
            return []
        return [self.name] * (self.where == "card") + [h["name"] for h in self.helpers]

    @property
    def name(self) -> str:
        """The card, status or ability that holds the text (a component: the component)."""
        if self.where == "status":
            return self.entry["name"]
        if self.where == "component":
            return self.entry["component"]
        return f"Case {self.id}"


def card(id, nodes, ops, text, shows, expect, timing="main", window=None, **kw) -> Case:
    """A card of the tester's deck, played the first time a window offers it."""
    window = window or {"main": "main", "roll": "conclude", "instant": "defensive"}[timing]
    kw.setdefault("acts", ((window, f"Case {id}"),))
    return Case(id, nodes, ops, "card", text, shows, expect, entry={"timing": timing}, **kw)


def status(id, nodes, ops, name, effects, shows, expect, held=1, entry=None, **kw) -> Case:
    """A status effect of the tester's, held (`held` tokens) from the start."""
    data = {"name": name, "polarity": "positive", "stack_limit": 3, **(entry or {})}
    user = kw.pop("setup", None)

    def setup(g):
        if held:
            g.gain_status(0, status_index(g, name), held, 0)
        if user:
            user(g)
    return Case(id, nodes, ops, "status", list(effects), shows, expect, entry=data, setup=setup, **kw)


def instant(id: str, text: str) -> dict:
    """A helper card of the tester's deck: an Instant card the case plays too."""
    return {"name": f"Case {id}", "kind": "action", "timing": "instant", "cost": 0, "effect": text}


def crank(name: str, text: str) -> dict:
    """A helper card of the tester's deck: a Main Phase card the case plays too."""
    return {"name": name, "kind": "action", "timing": "main", "cost": 0, "effect": text}


def own_events(s: Seen, *kinds: str) -> list[str]:
    """The kinds of the tester's own events, of those wanted, in order."""
    return [e["e"] for e in s.events if e.get("player") == 0 and e["e"] in kinds]


def gem(g: Game, where: str = "hand", name: str = "Fang Gem", seat: int = 0) -> None:
    """A card of the deck to the hand (or onto The Vault)."""
    p = g.seats[seat]
    card_ = next(c for c in p.deck if c.card.name == name)
    p.deck.remove(card_)
    if where == "hand":
        p.hand.append(card_)
    else:
        p.zones.setdefault(component_index(g, 0, "The Vault"), []).append(card_)


def set_state(**values) -> Callable[[Game], None]:
    """Setup: the tester's Health, CP, a component's value (by name), the Druid's Health or CP."""
    def setup(g):
        me, her = g.seats
        for key, value in values.items():
            if key in ("health", "cp"):
                setattr(me, key, value)
            elif key in ("her_health", "her_cp"):
                setattr(her, key[4:], value)
            else:
                comp = component_index(g, 0, key.replace("_", " ").title())
                data = me.table.components[comp]
                me.components[comp] = data["values"].index(value) if data["kind"] != "dial" else value
    return setup


def both(*setups) -> Callable[[Game], None]:
    return lambda g: [s(g) for s in setups]


def tokens_of(name: str, count: int = 1, seat: int = 0, tier: int = 0) -> Callable[[Game], None]:
    return lambda g: g.gain_status(seat, status_index(g, name), count, tier)


def reroll_first_die(request) -> list[int]:
    """A RollDice answer: use every Roll Attempt, re-rolling the first die."""
    return [0] if request.attempt < request.attempts else []


CASES: list[Case] = [
    # ---- cards, played in the tester's Main Phase (1)
    card("deal", ("Effect", "Deal", "Number"), ("PUSH", "DEAL", "END"), "Deal 3 dmg.",
         "the Druid loses 3 Health", lambda s: s.change("hp", 1) == -3),
    card("receive", ("Receive",), ("RECEIVE",), "Receive 2 dmg.",
         "the tester loses 2 Health", lambda s: s.change("hp") == -2),
    card("heal", ("Heal",), ("HEAL",), "Heal 4.", "the tester heals 4",
         lambda s: s.change("hp") == 4, setup=set_state(health=40)),
    card("gain-cp", ("GainCP",), ("GAIN_CP",), "Gain 2 CP.", "the tester has 2 CP more",
         lambda s: s.change("cp") == 2),
    card("lose-cp", ("LoseCP",), ("LOSE_CP",), "Lose 2 CP.", "the tester has 2 CP fewer",
         lambda s: s.change("cp") == -2, setup=set_state(cp=5)),
    card("steal-cp", ("StealCP",), ("STEAL_CP",), "Steal 2 CP.", "2 CP go from the Druid to the tester",
         lambda s: (s.change("cp"), s.change("cp", 1)) == (2, -2)),
    card("gain", ("Gain", "NamedStatus"), ("GAIN",), "Gain 1 CP and 2 Ward.",
         "the tester has 2 Ward tokens and 1 CP more",
         lambda s: s.now[0].tokens.get("Ward") == 2 and s.change("cp") == 1),
    card("inflict", ("Inflict",), ("INFLICT",), "Inflict Hex on a chosen opponent.",
         "the Druid has a Hex token", lambda s: s.now[1].tokens.get("Hex") == 1),
    card("remove", ("Remove",), ("CHOOSE_PLAYER", "REMOVE"), "Remove all Hex from a chosen player.",
         "the Druid's 2 Hex tokens are gone, the tester keeps hers",
         lambda s: (s.now[1].tokens.get("Hex", 0), s.now[0].tokens.get("Hex")) == (0, 1),
         setup=both(tokens_of("Hex", 2, seat=1), tokens_of("Hex", 1)),
         answers={"ChoosePlayer": 1}),
    card("transfer", ("Transfer",), ("TRANSFER",), "Transfer 1 negative status effect to a chosen opponent.",
         "the tester picks one of her Hex and Jinx tokens (the Jinx) and the Druid gains it",
         lambda s: (s.now[0].tokens.get("Jinx", 0), s.now[0].tokens.get("Hex"), s.now[1].tokens.get("Jinx"))
         == (0, 1, 1),
         setup=both(tokens_of("Hex"), tokens_of("Jinx")),
         answers={"ChooseItems": lambda r: [list(r.items).index("Jinx")]}),
    card("steal-status", ("Transfer",), ("TRANSFER",),
         "Steal 1 positive status effect from a chosen opponent.",
         "the Druid's Ward token goes to the tester",
         lambda s: (s.now[0].tokens.get("Ward"), s.now[1].tokens.get("Ward", 0)) == (1, 0),
         setup=tokens_of("Ward", 1, seat=1)),
    card("spend", ("Spend",), ("SPEND",), "Spend 1 Ward.",
         "the Ward token is gone and its `When spent` heals 2",
         lambda s: s.now[0].tokens.get("Ward", 0) == 0 and s.change("hp") == 2,
         setup=both(tokens_of("Ward"), set_state(health=40))),
    card("draw", ("Draw",), ("DRAW",), "Draw 2 cards.", "2 more cards in hand",
         lambda s: s.change("hand") == 2),
    card("discard", ("Discard",), ("DISCARD",), "Discard 1 card.",
         "a card goes from the hand to the discard pile",
         lambda s: s.change("hand") == -1 and "Fang Gem" in s.now[0].discard,
         setup=lambda g: [gem(g), gem(g)]),
    card("search", ("Search", "FoundCards", "Place", "Shuffle", "Then"),
         ("SEARCH", "PLACE_FOUND", "SHUFFLE", "THEN"),
         "Search your deck for any one Gem card. Place it on The Vault, then shuffle your deck.",
         "a Gem card from the deck lies on The Vault, and the deck is shuffled",
         lambda s: len(s.now[0].vault) == 1 and s.change("deck") == -1 and s.told("shuffle")),
    card("place-any", ("HandCards", "Place"), ("PLACE_ANY",),
         "Place any number of Gem cards from your hand on The Vault.",
         "both Gem cards go from the hand onto The Vault",
         lambda s: s.now[0].vault == ("Fang Gem", "Fang Gem") and s.change("hand") == -2,
         setup=lambda g: [gem(g), gem(g)], answers={"ChooseItems": lambda r: list(range(r.most))}),
    card("place-n", ("HandCards", "Place"), ("PLACE_N",),
         "Place 1 Gem card from your hand on The Vault.", "one Gem card goes onto The Vault",
         lambda s: len(s.now[0].vault) == 1 and s.change("hand") == -1,
         setup=lambda g: [gem(g), gem(g)]),
    card("use", ("UseCards",), ("USE_CARDS",), "Use 1 Gem card from The Vault.",
         "the Gem card leaves The Vault and its own effect gains 1 CP",
         lambda s: s.now[0].vault == () and s.change("cp") == 1, setup=lambda g: gem(g, "vault")),
    card("craft", ("Craft",), ("CRAFT",), "Craft Plating from The Vault.",
         "the 2 Fang Gems pay for an Iron Helm", lambda s: s.now[0].tokens.get("Iron Helm") == 1
         and s.now[0].vault == (), setup=lambda g: [gem(g, "vault"), gem(g, "vault")]),
    card("roll-total", ("Roll", "TotalRoll"), ("ROLL", "THEN", "ROLL_TOTAL"),
         "Roll 2 dice. Deal dmg equal to the total roll value.",
         "a 3 and a 4 rolled; before they count, she plays a card changing the 3 to a 6: 10 dmg",
         lambda s: s.change("hp", 1) == -10 and s.told("effect_roll", dice=[3, 4]),
         dice=(3, 4) + NO_ATTACK, helpers=(instant("roll-total-six", "Change 1 die to 6."),),
         acts=(("main", "Case roll-total"), ("rolled", "Case roll-total-six")),
         answers={"ChooseDice": [(0, 6)]}),
    card("half-value", ("Half", "ValueRolled"), ("ROLL_VALUE", "HALF"),
         "Roll 1 die. Deal dmg equal to half the value rolled (rounded up).", "a 5 rolled: 3 dmg",
         lambda s: s.change("hp", 1) == -3, dice=(5,) + NO_ATTACK),
    card("component-value", ("ComponentValue",), ("GET_COMP",), "Deal dmg equal to the Gauge value.",
         "the Gauge reads 2: 2 dmg", lambda s: s.change("hp", 1) == -2),
    card("increase", ("Increase",), ("RAISE",), "Increase Gauge by 2.", "the Gauge goes from 2 to 4",
         lambda s: s.now[0].gauge == 4),
    card("decrease", ("Decrease",), ("LOWER",), "Reduce Gauge by 1.", "the Gauge goes from 2 to 1",
         lambda s: s.now[0].gauge == 1),
    card("set", ("SetValue",), ("SET_COMP",), "Set Shape to Wolf Form.", "the tester is in Wolf Form",
         lambda s: s.now[0].shape == "Wolf Form"),
    card("flip-dial", ("Flip",), ("FLIP_DIAL",), "Flip Gauge to the High side.",
         "the Gauge shows its High side", lambda s: s.now[0].gauge_side == "High"),
    card("move", ("Move",), ("MOVE",), "Move Stance up 2.", "the Stance token goes from Middle to Top",
         lambda s: s.now[0].stance == "Top"),
    card("verb", ("VerbCall", "Either"), ("PICK_FROM", "MOVE"), "Take 1 or 2 Strides.",
         "2 Strides, down: from Middle to Bottom", lambda s: s.now[0].stance == "Bottom",
         answers={"PickNumber": 2, "ChooseDirection": "down"}),
    card("up-to", ("UpTo",), ("PICK",), "Gain up to 2 CP.", "she picks 2: 2 CP more",
         lambda s: s.change("cp") == 2),
    card("skip", ("Skip",), ("SKIP",), "Skip your Discard Phase.",
         "no Discard Phase: 8 cards kept, none sold",
         lambda s: s.told("phase_skipped", phase="Discard Phase") and not s.told("sell")
         and len(s.now[0].hand) == 8, setup=lambda g: [gem(g, name=c.card.name) for c in
                                          [c for c in g.seats[0].deck if c.card.kind == "action"][:8]]),
    card("skip-next-turn", ("Skip",), ("SKIP",), "Skip your next turn.",
         "her next turn does not happen", lambda s: s.told("turn_skipped", player=0),
         turns="mine theirs mine"),
    card("actor", ("Actor", "Discard"), ("ACTOR", "DISCARD"), "A chosen opponent discards 1 card.",
         "the Druid's one card goes to her discard pile",
         lambda s: s.now[1].hand == () and s.now[1].discard == ("Second Wind",),
         setup=lambda g: gem(g, name="Second Wind", seat=1)),
    card("cost-cp", ("Cost",), ("PAY_CP",), "Spend 2 CP to draw 2 cards.", "2 CP paid, 2 cards drawn",
         lambda s: s.change("cp") == -2 and s.change("hand") == 2),
    card("cost-tokens", ("Cost",), ("COUNT_STATUS", "COMPARE", "SPEND"), "Spend 1 Ward to heal 3.",
         "the Ward is spent (its own effect heals 2) and she heals 3",
         lambda s: s.now[0].tokens.get("Ward", 0) == 0 and s.change("hp") == 5,
         setup=both(tokens_of("Ward"), set_state(health=40))),
    card("choose", ("Choose",), ("CHOOSE", "JUMP"), "Choose one: gain 1 CP, or heal 2.",
         "she takes the second option: heals 2, no CP", lambda s: (s.change("hp"), s.change("cp")) == (2, 0),
         setup=set_state(health=40), answers={"ChooseOption": 1}),
    card("may", ("May", "If", "YouDid"), ("MAY", "DID", "NOT", "JUMP_IF_FALSE"),
         "You may draw 1 card. If you do, lose 1 CP. If you do not, heal 1.",
         "she says yes: a card drawn, 1 CP lost, no healing",
         lambda s: (s.change("hand"), s.change("cp"), s.change("hp")) == (1, -1, 0),
         setup=set_state(health=40)),
    card("must", ("Must",), ("DISCARD",), "You must discard 1 card.", "her one card is discarded",
         lambda s: s.now[0].hand == (), setup=gem),
    card("if-otherwise", ("If", "InForm"), ("IN_FORM", "JUMP"),
         "If in Wolf Form, gain 1 CP. Otherwise, heal 1.", "in Wolf Form: 1 CP, no healing",
         lambda s: (s.change("cp"), s.change("hp")) == (1, 0),
         setup=set_state(health=40, shape="Wolf Form")),
    card("at-position", ("AtPosition",), ("IN_FORM",), "If Stance is at Top, gain 2 CP.",
         "the Stance token at Top: 2 CP", lambda s: s.change("cp") == 2, setup=set_state(stance="Top")),
    card("you-have", ("YouHave",), ("COUNT_STATUS", "COMPARE"), "If you have 2 Ward, gain 1 CP.",
         "with 2 Ward tokens: 1 CP", lambda s: s.change("cp") == 1, setup=tokens_of("Ward", 2)),
    card("opponents", ("YouHave",), ("COUNT_OPPONENTS",), "If you have exactly 1 opponent, gain 1 CP.",
         "one opponent: 1 CP", lambda s: s.change("cp") == 1),
    card("cp-held", ("YouHave",), ("GET_CP",), "If you have at least 3 CP, draw 1 card.",
         "with 3 CP: a card drawn", lambda s: s.change("hand") == 1, setup=set_state(cp=3)),
    card("cards-held", ("YouHave",), ("HAND_SIZE",), "If you have 3 or more cards in hand, gain 1 CP.",
         "with 3 cards in hand: 1 CP", lambda s: s.change("cp") == 1,
         setup=lambda g: [gem(g), gem(g), gem(g, name="Moon Gem")]),
    card("opponent-has", ("YouHave",), ("ACTOR", "COUNT_STATUS"), "If your opponent has Hex, gain 1 CP.",
         "the Druid has a Hex: 1 CP", lambda s: s.change("cp") == 1, setup=tokens_of("Hex", seat=1)),
    card("total-is", ("YouHave",), ("ROLL_TOTAL",), "Roll 3 dice. If the total is 12 or more, gain 1 CP.",
         "6, 6 and 1 rolled: 13, 1 CP", lambda s: s.change("cp") == 1, dice=(6, 6, 1) + NO_ATTACK),
    card("dial-is", ("YouHave",), ("GET_COMP",), "If Gauge is at least 3, gain 1 CP.",
         "the Gauge at 3: 1 CP", lambda s: s.change("cp") == 1, setup=set_state(gauge=3)),
    card("on", ("On", "Requirement", "SymbolNeed", "ValueRange", "OtherResult"),
         ("HAS_SYMBOL", "HAS_VALUE", "ADD", "NOT"),
         "Roll 1 die: On [Moon], gain 2 CP. On 1-2, heal 1. On any other result, draw 1 card.",
         "a 4 rolled (a [Hoof]): only `any other result`, a card drawn",
         lambda s: (s.change("hand"), s.change("cp"), s.change("hp")) == (1, 0, 0),
         setup=set_state(health=40), dice=(4,) + NO_ATTACK),
    card("on-kinds", ("OfAKind", "Straight", "ValueRange"), ("MEETS", "HAS_VALUE"),
         "Roll 6 dice: On 3-of-a-kind, gain 2 CP. On Small Straight, heal 2. On 6, draw 1 card.",
         "1, 2, 3, 4, 4, 4 rolled: three 4s and 1-2-3-4, no 6: 2 CP and 2 Health",
         lambda s: (s.change("cp"), s.change("hp"), s.change("hand")) == (2, 2, 0),
         setup=set_state(health=40), dice=(1, 2, 3, 4, 4, 4) + NO_ATTACK),
    card("any-of", ("AnyOf", "ValueRange"), ("HAS_VALUE", "ADD"), "Roll 1 die: On 5 or 6, gain 2 CP.",
         "a 6 rolled: 2 CP", lambda s: s.change("cp") == 2, dice=(6,) + NO_ATTACK),
    card("highest", ("ValueRolled",), ("ROLL_HIGHEST",),
         "Roll 3 dice. Deal dmg equal to the highest value rolled.", "2, 5 and 3 rolled: 5 dmg",
         lambda s: s.change("hp", 1) == -5, dice=(2, 5, 3) + NO_ATTACK),
    card("for-each", ("ForEach", "SymbolsRolled"), ("COUNT_SYMBOLS", "DUP", "SUB", "JUMP", "POP"),
         "Roll 3 dice. For each [Fang] rolled, gain 1 CP.", "two [Fang] rolled: 2 CP",
         lambda s: s.change("cp") == 2, dice=(1, 2, 6) + NO_ATTACK),
    card("per", ("Per", "SymbolsRolled"), ("COUNT_SYMBOLS", "MUL"), "Roll 3 dice. Heal 1 per [Hoof] rolled.",
         "two [Hoof] rolled: heals 2", lambda s: s.change("hp") == 2, setup=set_state(health=40),
         dice=(4, 5, 1) + NO_ATTACK),
    card("times", ("Times",), ("COUNT_SYMBOLS", "MUL"), "Roll 3 dice. Deal 2 × [Fang] dmg.",
         "two [Fang] rolled: 4 dmg", lambda s: s.change("hp", 1) == -4, dice=(1, 2, 6) + NO_ATTACK),
    card("sum", ("Sum", "Times"), ("ADD",), "Roll 2 dice. Heal 1 + 2 × [Fang].",
         "one [Fang] rolled: heals 3", lambda s: s.change("hp") == 3, setup=set_state(health=40),
         dice=(1, 4) + NO_ATTACK),
    card("capped", ("Capped", "Per"), ("MIN",),
         "Roll 3 dice. Deal 1 dmg per [Fang] rolled up to a maximum of 2 dmg.",
         "three [Fang] rolled, at most 2: 2 dmg", lambda s: s.change("hp", 1) == -2,
         dice=(1, 1, 1) + NO_ATTACK),
    card("tokens-held", ("TokensHeld",), ("COUNT_STATUS", "MUL"), "Gain 1 CP per Ward token you have.",
         "2 Ward tokens: 2 CP", lambda s: s.change("cp") == 2, setup=tokens_of("Ward", 2)),
    card("tokens-on-opponent", ("TokensHeld",), ("ACTOR", "COUNT_STATUS"),
         "Deal 1 dmg for each Hex on your opponent.", "2 Hex on the Druid: 2 dmg",
         lambda s: s.change("hp", 1) == -2, setup=tokens_of("Hex", 2, seat=1)),
    card("cards-in-hand", ("CardsInHand",), ("HAND_SIZE",), "Gain 1 CP per card in your hand.",
         "2 cards in hand: 2 CP", lambda s: s.change("cp") == 2, setup=lambda g: [gem(g), gem(g)]),
    card("then", ("Then",), ("THEN",), "Gain 1 CP. Then draw 1 card.",
         "1 CP; at the `Then` she plays an Instant card (2 CP); then the card is drawn",
         lambda s: s.change("cp") == 3 and s.change("hand") == 1
         and s.kinds("cp", "play", "draw")[-4:] == ["cp", "play", "cp", "draw"],
         helpers=(instant("then-cp", "Gain 2 CP."),), acts=(("main", "Case then"), ("then", "Case then-cp"))),
    card("at-turn-end", ("Delayed", "TurnEdge"), ("SCHEDULE",), "At the end of your turn, gain 2 CP.",
         "2 CP as her turn ends, after her Roll Phase",
         lambda s: s.change("cp") == 2 and s.order("roll", "cp")),
    card("at-phase-end", ("Delayed", "PhaseEdge"), ("SCHEDULE",), "At the end of the Roll Phase, gain 1 CP.",
         "1 CP after her roll", lambda s: s.change("cp") == 1 and s.order("roll", "cp")),
    card("next-upkeep", ("Delayed", "During"), ("SCHEDULE",), "During your Upkeep Phase, heal 3.",
         "she heals 3 in her next Upkeep Phase", lambda s: s.change("hp") == 3 and s.told("heal", player=0),
         setup=set_state(health=40), turns="mine theirs mine"),
    # a trigger in a card's text waits for the next time its moment comes, and acts then, once, as
    # the rulebook's "When Attacked" / "Whenever" effects of a card do when the card says so: core
    # rules (000_eaa64e0770891241.txt), "Turn Breakdown" and "Action Cards" (an effect of a card
    # played now that says when it acts)
    card("attacked-later", ("Delayed", "Attacked"), ("SCHEDULE", "PREVENT"), "When Attacked, prevent 2 dmg.",
         "played in her Main Phase, it prevents 2 of the Druid's 5 dmg on his turn: she takes 3",
         lambda s: s.change("hp") == -3 and s.told("prevent", player=0, amount=2),
         turns="mine theirs", dice=NO_ATTACK + DRUID_ATTACK + HOOF),
    card("attacking-later", ("Delayed", "Attacking"), ("SCHEDULE", "GAIN_CP"), "When Attacking, gain 1 CP.",
         "played in her Main Phase, 1 CP as her Strike is made",
         lambda s: s.change("cp") == 1 and s.order("activate", "cp"), dice=STRIKE + PAWS),
    card("conclude-later", ("Delayed", "Conclude"), ("SCHEDULE", "GAIN_CP"),
         "When you conclude your Offensive Roll Phase with an Attack, gain 1 CP.",
         "played in her Main Phase, 1 CP as her Strike concludes her Offensive Roll Phase",
         lambda s: s.change("cp") == 1 and s.order("attack", "cp"), dice=STRIKE + PAWS),
    card("reads-later", ("Delayed", "Reads"), ("SCHEDULE", "GAIN_CP"), "Whenever Gauge reads 5, gain 1 CP.",
         "played, then a card takes the Gauge from 2 to 5: 1 CP",
         lambda s: s.now[0].gauge == 5 and s.change("cp") == 1,
         helpers=(crank("Crank Three", "Increase Gauge by 3."),),
         acts=(("main", "Case reads-later"), ("main", "Crank Three"))),
    card("exceeds-later", ("Delayed", "WouldExceed"), ("SCHEDULE", "GAIN_CP"),
         "If Gauge would be increased above 5, gain 1 CP.",
         "played, then a card would take the Gauge from 2 to 7: it stops at 5, and 1 CP",
         lambda s: s.now[0].gauge == 5 and s.change("cp") == 1,
         helpers=(crank("Crank Five", "Increase Gauge by 5."),),
         acts=(("main", "Case exceeds-later"), ("main", "Crank Five"))),
    # `at any time` in a card: the effect waits, and is offered like the other at-any-time effects
    # until she uses it, once (core rules, "Action Cards": Instant cards "at any time")
    card("any-time-later", ("Delayed", "AnyTime"), ("SCHEDULE", "GAIN_CP"), "At any time, gain 1 CP.",
         "played in her Main Phase, it waits: she uses it in her Offensive Roll Phase, 1 CP",
         lambda s: s.change("cp") == 1 and s.order("roll", "cp") and s.told("use_effect", player=0),
         acts=(("main", "Case any-time-later"), ("offensive", "Case any-time-later"))),
    card("hurt-later", ("Delayed", "Damaged"), ("SCHEDULE", "GAIN_CP"), "When you are dealt dmg, gain 1 CP.",
         "played in her Main Phase, it waits: 1 CP when the Druid's Attack hurts her",
         lambda s: s.change("cp") == 1 and s.change("hp") == -5,
         turns="mine theirs", dice=NO_ATTACK + DRUID_ATTACK + HOOF),
    card("damaged-later", ("Delayed", "DamagedByPhase"), ("SCHEDULE", "GAIN_CP"),
         "When you receive dmg from an opponent's Offensive Roll Phase, gain 1 CP.",
         "played in her Main Phase, 1 CP when the Druid's Attack hurts her",
         lambda s: s.change("cp") == 1 and s.change("hp") == -5,
         turns="mine theirs", dice=NO_ATTACK + DRUID_ATTACK + HOOF),
    # core rules, "Turn Breakdown", 2. Income Phase: "Gain 1 CP & draw 1 card"; `instead` replaces
    # what its effect does of that (the card), not the CP
    # several players: `up to N chosen opponents` (all of them, with no more opponents than N: no
    # question) and `each player` (each does it, the card's player first)
    card("up-to-opponents", ("ChooseUpTo", "Deal"), ("CHOOSE_PLAYERS", "DEAL"),
         "Deal 2 dmg to up to 2 chosen opponents.",
         "played in her Main Phase: the Druid, her only opponent, takes 2 dmg",
         lambda s: s.change("hp", 1) == -2 and s.change("hp") == 0),
    card("each-player", ("Actor", "Draw"), ("ACTOR_NTH", "DRAW"), "Each player draws 1 card.",
         "played in her Main Phase: she draws 1 card, and then the Druid does",
         lambda s: [e["player"] for e in s.told("draw")] == [0, 1] and s.change("hand", 1) == 1),
    # `they` for the player chosen before, as a subject and in a condition (issue 20)
    card("they", ("Inflict", "Actor", "If", "YouHave"), ("CHOOSE_PLAYER", "INFLICT", "ACTOR", "COUNT_STATUS",
                                                       "LOSE_CP"),
         "Inflict Hex on a chosen opponent. If they have 2 Hex, they lose 1 CP.",
         "the Druid held 1 Hex: now 2, so she loses 1 CP",
         lambda s: s.now[1].tokens.get("Hex") == 2 and s.change("cp", 1) == -1,
         setup=lambda g: g.gain_status(1, status_index(g, "Hex"), 1, 0)),
    card("instead", ("Delayed", "During", "Instead"), ("SCHEDULE", "INSTEAD", "DRAW"),
         "During your Income Phase, draw 2 cards instead.",
         "her next Income Phase: 1 CP and 2 cards, not the Income card and 2 more",
         lambda s: s.change("cp") == 1 and [e["count"] for e in s.told("draw", player=0)] == [2],
         turns="mine theirs mine"),
    # core rules, "Turn Breakdown", 3. Main Phase: "Spend CP to play cards"
    card("spend-any-cp", ("SpendAnyCP", "CPSpent", "Per"), ("PAY_ANY_CP", "PAID"),
         "Spend any amount of CP: deal 1 dmg per CP spent.", "she spends all 3 of her CP: 3 dmg",
         lambda s: s.change("cp") == -3 and s.change("hp", 1) == -3, setup=set_state(cp=3)),
    card("per-token-removed", ("TokensRemoved", "Remove"), ("REMOVE", "REMOVED"),
         "Remove all Hex from your opponent. Deal 2 dmg per token removed.",
         "the Druid's 2 Hex are removed: 4 dmg",
         lambda s: s.now[1].tokens.get("Hex", 0) == 0 and s.change("hp", 1) == -4,
         setup=tokens_of("Hex", 2, seat=1)),
    # printed card text (issue: printed card text is the source): random discards, a raised Stack Limit
    card("discard-random", ("DiscardRandom",), ("DISCARD_RANDOM",), "Discard 1 random card.",
         "one card of her hand goes to the discard pile unasked",
         lambda s: s.told("discard", player=0, card="Fang Gem") and s.now[0].hand == (),
         setup=lambda g: gem(g)),
    card("every-n-rolled", ("EveryNRolled", "Per", "Roll"), ("COUNT_SYMBOLS", "DIV"),
         "Roll 4 dice. Gain 1 CP for every 2 [Fang] rolled.", "3 [Fang]s rolled: one pair, 1 CP",
         lambda s: s.change("cp") == 1, dice=(1, 1, 1, 4) + NO_ATTACK),
    # 004_59219b97262c5e85.txt, "Increasing Stack Limit": hers alone, for the rest of the game
    card("stack-limit", ("RaiseStackLimit",), ("RAISE_LIMIT", "GAIN"),
         "Increase your Ward stack limit by 2. Gain 5 Ward.", "she holds 5 Ward (the limit was 3)",
         lambda s: s.now[0].tokens.get("Ward") == 5),
    # ---- cards played in the Roll Phase of the tester's own Attack
    card("extra-attempt", ("ExtraRollAttempt",), ("EXTRA_ROLL",), "Perform 1 additional Roll Attempt.",
         "a fourth Roll Attempt", lambda s: bool(s.told("roll", player=0, attempt=4)), timing="roll",
         window="offensive", dice=NO_ATTACK + (4, 4, 4), answers={"RollDice": reroll_first_die}),
    card("dealt-this-turn", ("YouHave", "If"), ("TURN_COUNT", "GAIN_CP"),
         "If you dealt 3 dmg or more this turn, gain 2 CP.", "her Strike dealt 3: 2 CP",
         lambda s: s.change("cp") == 2, timing="roll", dice=STRIKE + PAWS),
    card("attacked-this-turn", ("YouHave", "If"), ("TURN_COUNT", "GAIN_CP"),
         "If you were Attacked this turn, gain 1 CP.", "attacked by the Druid, she gains 1 CP as his Roll "
         "Phase ends", lambda s: s.change("cp") == 1, timing="instant", window="roll_end", turns="theirs",
         dice=DRUID_ATTACK + HOOF),
    # `Spend any number of <status>`: she picks how many (all, here); each token's `When spent` acts
    card("spend-any", ("SpendAnyTokens", "Per", "TokensRemoved", "GainCP"),
         ("SPEND_ANY", "REMOVED", "GAIN_CP"),
         "Spend any number of Ward to gain 1 CP per token spent.",
         "she spends both her Wards: each heals her 2, and 2 CP",
         lambda s: s.now[0].tokens.get("Ward", 0) == 0 and s.change("cp") == 2 and s.change("hp") == 4,
         setup=lambda g: (g.gain_status(0, status_index(g, "Ward"), 2, 0), set_state(health=40)(g))),
    # the hand as a whole: discarded, and drawn back up to a number
    card("hand-refill", ("Discard", "DrawUntil", "Then"), ("DISCARD", "HAND_SIZE", "SUB", "DRAW"),
         "Discard your hand. Then draw cards until you have 3 cards in hand.",
         "she holds 2 more cards: both discarded, then 3 drawn",
         lambda s: len(s.now[0].discard) == 3 and len(s.now[0].hand) == 3,
         setup=lambda g: (gem(g), gem(g))),
    # a card back from the discard pile (offered only with one there)
    card("return-card", ("ReturnCards",), ("RETURN_CARDS",),
         "Return 1 card from your discard pile to your hand.",
         "a Fang Gem in her discard pile comes back to her hand",
         lambda s: "Fang Gem" in s.now[0].hand and "Fang Gem" not in s.now[0].discard,
         setup=lambda g: (gem(g), g.seats[0].discard.append(g.seats[0].hand.pop()))),
    # a dial's side as a condition
    card("on-side", ("OnSide", "If"), ("SIDE_IS", "GAIN_CP"),
         "If Gauge is on the High side, gain 2 CP. If Gauge is on the Low side, draw 1 card.",
         "her Gauge turned to its High side: 2 CP, and no card",
         lambda s: s.change("cp") == 2 and not s.told("draw", player=0),
         setup=lambda g: g.seats[0].sides.__setitem__(component_index(g, 0, "Gauge"), 1)),
    # Health compared: hers against a number, and against another player's
    card("health-below", ("YouHave", "If"), ("GET_HEALTH", "ACTOR", "COMPARE", "GAIN_CP"),
         "If you have less Health than your opponent, gain 2 CP. If you have 30 Health or less, draw 1 card.",
         "at 40 Health against the Druid's 50: 2 CP, and no card (40 is not 30 or less)",
         lambda s: s.change("cp") == 2 and not s.told("draw", player=0), setup=set_state(health=40)),
    # `Choose two`: two different options, the second asked among the ones left
    card("choose-two", ("Choose", "GainCP", "Draw"), ("CHOOSE", "GAIN_CP", "DRAW"),
         "Choose two: gain 2 CP, or draw 1 card, or heal 2.",
         "she takes the first option twice over: 2 CP, then (the CP gone from the list) a card",
         lambda s: s.change("cp") == 2 and bool(s.told("draw", player=0)) and s.change("hp") == 0),
    # `this turn`: the turn under way, whoever's; played in the Druid's turn, at the end of his turn
    # (`At the end of your turn` would wait for hers)
    card("this-turn", ("Delayed", "TurnEdge"), ("SCHEDULE", "GAIN_CP"), "At the end of this turn, gain 1 CP.",
         "played as the Druid's Roll Phase ends: 1 CP as his turn ends",
         lambda s: s.change("cp") == 1 and s.kinds("cp", "turn")[-1] == "cp", timing="instant",
         window="roll_end", turns="theirs", dice=DRUID_ATTACK + HOOF),
    card("label", ("Label", "AddDamage"), ("ADD_DMG",), "Attack Modifier. Add 2 dmg.",
         "Strike's 3 dmg and 2 more", lambda s: s.change("hp", 1) == -5, timing="roll",
         dice=STRIKE + PAWS),
    card("reroll", ("Reroll", "UpTo"), ("REROLL",), "Re-roll up to 2 of your dice.",
         "two dice re-rolled to [Fang]s: Strike is met and hits", timing="roll", window="offensive",
         expect=lambda s: s.told("activate", ability="Strike") and s.change("hp", 1) == -3,
         dice=(1, 4, 5, 5, 6, 1, 1) + PAWS, answers={"ChooseDice": [1, 2]}),
    card("reroll-all", ("Reroll",), ("REROLL",), "Re-roll all of your dice.",
         "all five re-rolled, unasked, to three [Fang]s: Strike is met and hits", timing="roll",
         window="offensive",
         expect=lambda s: s.told("activate", ability="Strike") and s.change("hp", 1) == -3
         and s.told("roll", player=0, dice=[4, 4, 5, 5, 6]),
         dice=NO_ATTACK + STRIKE + PAWS, answers={"ChooseDice": lambda r: pytest.fail("asked which dice")}),
    card("change-dice", ("ChangeDice",), ("CHANGE_DICE",), "Change 1 of your dice to [Fang].",
         "a [Hoof] changed to a [Fang]: Strike is met and hits", timing="roll", window="offensive",
         expect=lambda s: s.told("activate", ability="Strike") and s.change("hp", 1) == -3,
         dice=(1, 1, 4, 4, 5) + PAWS, answers={"ChooseDice": [(2, 3)]}),
    card("adjust-dice", ("AdjustDice",), ("CHANGE_DICE",), "Increase or decrease 1 of your dice by 1.",
         "a [Hoof] 4 turned down to a [Fang] 3: Strike is met and hits", timing="roll", window="offensive",
         expect=lambda s: s.told("activate", ability="Strike") and s.change("hp", 1) == -3,
         dice=(1, 1, 4, 6, 6) + PAWS, answers={"ChooseDice": [(2, 3)]}),
    card("copy-die", ("AdjustDice",), ("CHANGE_DICE",), "Set 1 of your dice to the value of another die.",
         "a [Moon] set to the 1 another die shows: Strike is met and hits", timing="roll", window="offensive",
         expect=lambda s: s.told("activate", ability="Strike") and s.change("hp", 1) == -3,
         dice=(1, 1, 4, 6, 6) + PAWS, answers={"ChooseDice": [(3, 1)]}),
    card("attack-becomes", ("AttackBecomes",), ("ATTACK_BECOMES",), "The Attack becomes undefendable.",
         "the Druid rolls no defence and takes Strike's 3 dmg",
         lambda s: not s.told("defend") and s.change("hp", 1) == -3, timing="roll", dice=STRIKE),
    card("phase-fails", ("PhaseFails",), ("FAIL_PHASE",), "Your Offensive Roll Phase fails.",
         "her Strike is not activated: no dmg",
         lambda s: s.told("activation_failed") and s.change("hp", 1) == 0, timing="roll",
         window="offensive", dice=STRIKE),
    # ---- instant cards played against the Druid's Attack (Ferocity, 5 dmg)
    card("prevent", ("Prevent",), ("PREVENT",), "Prevent 2 dmg.", "5 dmg come, she takes 3",
         lambda s: s.change("hp") == -3, timing="instant", turns="theirs", dice=DRUID_ATTACK + HOOF),
    card("prevent-half", ("PreventHalf",), ("PREVENT_HALF",),
         "Prevent half of the incoming dmg (rounded up).", "5 dmg come, 3 prevented: she takes 2",
         lambda s: s.change("hp") == -2, timing="instant", turns="theirs", dice=DRUID_ATTACK + HOOF),
    # core rules, "Reducing Damage": the effect says how it rounds
    card("prevent-half-down", ("PreventHalf",), ("PREVENT_HALF",),
         "Prevent half of the incoming dmg (rounded down).", "5 dmg come, 2 prevented: she takes 3",
         lambda s: s.change("hp") == -3, timing="instant", turns="theirs", dice=DRUID_ATTACK + HOOF),
    card("prevent-all", ("PreventAll",), ("PREVENT_ALL",), "Prevent all incoming dmg.",
         "5 dmg come, she takes none", lambda s: s.change("hp") == 0 and s.told("damage_total", player=0),
         timing="instant", turns="theirs", dice=DRUID_ATTACK + HOOF),
    card("double", ("DoubleEffect",), ("DOUBLE",), "Double the effect of 1 Plating.",
         "her Iron Helm prevents 1 dmg twice: she takes 3 of the 5",
         lambda s: s.change("hp") == -3, timing="instant", turns="theirs", dice=DRUID_ATTACK + HOOF,
         setup=tokens_of("Plating", tier=1)),
    # a token whose effect is its `When spent` (core rules, "Spendable Status Effects"): doubled,
    # spending it acts twice
    card("double-spent", ("DoubleEffect", "Spend", "Then"), ("DOUBLE", "SPEND"),
         "Double the effect of 1 Ward. Then spend 1 Ward.",
         "the Ward's `When spent` heals 2, twice: she heals 4",
         lambda s: s.change("hp") == 4 and s.now[0].tokens.get("Ward", 0) == 0,
         setup=both(tokens_of("Ward"), set_state(health=40))),
    # ---- status effects the tester holds
    status("during", ("During", "Receive"), ("RECEIVE",), "Singe",
           ["During your Upkeep Phase, receive 1 dmg."], "her Upkeep Phase deals her 1 dmg",
           lambda s: s.change("hp") == -1 and s.order("health", "roll"), entry={"polarity": "negative"}),
    status("turn-edge", ("TurnEdge",), ("GAIN_CP",), "Tide", ["At the end of your turn, gain 1 CP."],
           "1 CP as her turn ends", lambda s: s.change("cp") == 1 and s.order("roll", "cp")),
    status("phase-edge", ("PhaseEdge",), ("HEAL",), "Glow", ["At the end of your Main Phase, heal 1."],
           "she heals 1 as each of her two Main Phases ends", lambda s: s.change("hp") == 2,
           setup=set_state(health=40)),
    status("conclude", ("Conclude", "ThisToken", "Remove", "PhaseFails", "ValueRange"),
           ("REMOVE_THIS", "ROLL", "HAS_VALUE", "FAIL_PHASE"), "Dazzle",
           ["When you conclude your Offensive Roll Phase, remove this token and roll 1 die. On 1-2, "
            "your Offensive Roll Phase fails."],
           "her Strike is met, the Dazzle goes, a 1 is rolled: the Strike fails",
           lambda s: s.told("activation_failed") and s.change("hp", 1) == 0
           and s.now[0].tokens.get("Dazzle", 0) == 0, entry={"polarity": "negative"},
           dice=STRIKE + (1,)),
    status("attacked", ("Attacked", "Actor"), ("ACTOR", "HEAL"), "Mark",
           ["When Attacked by an opponent, the Attacker heals 7."], "the Druid attacks her and heals 7",
           lambda s: s.told("heal", player=1, amount=7), entry={"polarity": "negative"},
           setup=set_state(her_health=40), turns="theirs", dice=DRUID_ATTACK + HOOF),
    status("spent", ("Spent", "AnyTime"), ("DRAW",), "Poise", ["When spent, draw 1 card."],
           "she spends it in her Main Phase: the token goes, a card comes",
           lambda s: s.now[0].tokens.get("Poise", 0) == 0 and s.change("hand") == 1,
           entry={"spendable": "at any time"}, acts=(("main", "Poise"),)),
    status("gained-at-limit", ("GainedAtLimit", "Flip", "ThisToken", "During"),
           ("FLIP_THIS", "FLIP_TOKEN", "MAY"), "Mend",
           [{"side": "2", "effect": 'During your Upkeep Phase, heal 2 and flip it to the "1" side.'},
            {"side": "1", "effect": "During your Upkeep Phase, heal 1 and remove this token."},
            'If you gain this token while at Stack Limit, you may flip a token to the "2" side instead.'],
           "her Upkeep heals 2 and turns it to its 1 side; gained again at its limit, it turns back to 2",
           lambda s: s.change("hp") == 2 and s.now[0].token_sides["Mend"] == ("2",)
           and [e["side"] for e in s.told("flip")] == ["1", "2"],
           entry={"sides": ["2", "1"], "stack_limit": 1}, setup=set_state(health=40),
           helpers=(instant("gain-mend", "Gain Mend."),), acts=(("main", "Case gain-mend"),)),
    status("gain-this", ("ThisToken", "Gain"), ("GAIN_THIS",), "Echo",
           ["During your Upkeep Phase, gain this token."], "her Upkeep gives her a second Echo",
           lambda s: s.now[0].tokens.get("Echo") == 2),
    status("spend-this", ("Spend", "ThisToken", "Spent"), ("SPEND_THIS", "GAIN_CP"), "Spark",
           ["During your Upkeep Phase, heal 1 and spend this token.", "When spent, gain 2 CP."],
           "her Upkeep spends it: the token goes, 2 CP come",
           lambda s: s.now[0].tokens.get("Spark", 0) == 0 and s.change("cp") == 2,
           setup=set_state(health=40)),
    status("extra-attempts", ("PhaseEdge", "ExtraRollAttempts", "Capped", "Receive", "ThisToken"),
           ("REMOVE_THIS", "EXTRA_ATTEMPTS", "MIN", "RECEIVE"), "Thorns",
           # as Barbed Vine prints it (003_bd4cabbe7964005d.txt, "Status Effects and Tokens")
           ["A player afflicted with this token receives 1 damage for each Roll Attempt beyond the first "
            "during their Offensive Roll Phase, up to a maximum of 2 damage per turn. This token is removed "
            "and then this damage is applied at the conclusion of the Roll Phase."],
           "three Roll Attempts: the Thorns go and she takes 2 dmg",
           lambda s: s.change("hp") == -2 and s.now[0].tokens.get("Thorns", 0) == 0,
           entry={"polarity": "negative"}, dice=NO_ATTACK + (4, 4),
           answers={"RollDice": reroll_first_die}),
    # Armor as printed (000_eaa64e0770891241.txt, "Forgemaster" > "Status Effects"): the moment once,
    # above the tiers, and each tier's own line
    status("tier-effects", ("TierEffects", "May", "Prevent"), ("MAY", "PREVENT"), "Rampart",
           ["Whenever a player is Attacked with normal damage, they may activate the effects below based "
            "on the Rampart that is on them."],
           "the Druid's 5 dmg: her Tin Plate, asked, prevents 2 and she takes 3",
           lambda s: s.change("hp") == -3 and s.told("prevent", by="Tin Plate"),
           held=0, entry={"polarity": "unique", "stack_limit": 1, "slots": [
               {"name": "Plate", "limit": 1, "tiers": [
                   {"name": "Tin", "blueprint": "2 [Fang]", "effect": "Prevent 2 dmg."}]}]},
           setup=tokens_of("Rampart", tier=1), turns="theirs", dice=DRUID_ATTACK + HOOF),
    # a status's text that names its own tokens speaks of the stack: once for all of them
    status("per-stack", ("Per", "TokensHeld"), ("COUNT_STATUS", "MUL", "RECEIVE"), "Sting",
           ["During your Upkeep Phase, receive 1 dmg for each of these tokens. Then remove 1 of these "
            "tokens."],
           "2 Stings: 2 dmg once (not 2 per token) and one Sting goes",
           lambda s: s.change("hp") == -2 and s.now[0].tokens.get("Sting") == 1,
           held=2, entry={"polarity": "negative"}),
    status("per-token", ("Receive",), ("RECEIVE",), "Nettle",
           ["During your Upkeep Phase, receive 1 dmg."],
           "2 Nettles: each deals its 1 dmg",
           lambda s: s.change("hp") == -2, held=2, entry={"polarity": "negative"}),
    status("damaged-by-phase", ("DamagedByPhase", "Spent", "Roll", "Half", "ValueRolled", "Deal"),
           ("ROLL", "ROLL_VALUE", "HALF", "DEAL"), "Counter",
           ["When you receive dmg from an opponent's Offensive Roll Phase, you may spend this token. "
            "When spent, roll 1 Chaos die. Then deal dmg equal to half the value rolled (rounded up) "
            "to the Attacker."],
           "hit by the Druid's Ferocity she spends it, rolls a Chaos 5 and deals 3 dmg back",
           lambda s: s.change("hp", 1) == -3 and s.now[0].tokens.get("Counter", 0) == 0,
           turns="theirs", dice=DRUID_ATTACK + HOOF + (5,), acts=(("defensive", "Counter"),)),
    status("damaged", ("DamagedByPhase",), ("GAIN_CP",), "Grit",
           ["When you receive dmg from an opponent's Offensive Roll Phase, gain 2 CP."],
           "the Druid's Attack hurts her: 2 CP", lambda s: s.change("cp") == 2 and s.change("hp") == -5,
           turns="theirs", dice=DRUID_ATTACK + HOOF),
    # `When you receive dmg`: any dmg that lowers her Health, once it lands; an Attack's included
    status("hurt", ("Damaged",), ("GAIN_CP",), "Sore", ["When you receive dmg, gain 1 CP."],
           "the Druid's Attack lands 5 dmg on her, and then she gains 1 CP",
           lambda s: s.change("cp") == 1 and s.change("hp") == -5 and s.order("health", "cp"),
           turns="theirs", dice=DRUID_ATTACK + HOOF),
    # `from a status effect`: her own Nettle-like token's dmg sets it off (an Attack's would not)
    status("hurt-by-status", ("Damaged", "Receive"), ("RECEIVE", "GAIN_CP"), "Blister",
           ["During your Upkeep Phase, receive 1 dmg.",
            "When you receive dmg from a status effect, gain 2 CP."],
           "her Upkeep: the token deals her 1 dmg, and then she gains 2 CP",
           lambda s: s.change("hp") == -1 and s.change("cp") == 2 and s.order("health", "cp"),
           entry={"polarity": "negative"}),
    # `When you gain this token`: once per token gained, as it is gained
    status("gained", ("Gained",), ("GAIN_CP",), "Glint", ["When you gain this token, gain 1 CP."],
           "a card gives her 2 Glints: 2 CP",
           lambda s: s.now[0].tokens.get("Glint") == 2 and s.change("cp") == 2, held=0,
           helpers=(crank("Strike Glints", "Gain 2 Glint."),), acts=(("main", "Strike Glints"),)),
    # `When you heal`: her Health rises; what it heals itself sets off nothing again
    status("healed", ("Healed", "Heal"), ("GAIN_CP", "HEAL"), "Afterglow",
           ["When you heal, gain 1 CP. Then heal 1."],
           "a card heals her 2: 1 CP and 1 more Health, once",
           lambda s: s.change("cp") == 1 and s.change("hp") == 3, setup=set_state(health=40),
           helpers=(crank("Mend Up", "Heal 2."),), acts=(("main", "Mend Up"),)),
    # `When you play an Action card`: after the card resolves
    status("plays-card", ("PlaysCard",), ("GAIN_CP",), "Tempo", ["When you play an Action card, gain 2 CP."],
           "she plays an Action card (a 0 CP one that draws): 2 CP after its card",
           lambda s: s.change("cp") == 2 and s.order("draw", "cp"),
           helpers=(crank("Quick Draw", "Draw 1 card."),), acts=(("main", "Quick Draw"),)),
    # `When you spend <status>`: spending a token of another status sets it off
    status("spends", ("SpendsStatus",), ("GAIN_CP",), "Miser", ["When you spend Ward, gain 2 CP."],
           "a card spends one of her Wards: the Ward heals 2, and she gains 2 CP",
           lambda s: s.now[0].tokens.get("Ward", 0) == 0 and s.change("cp") == 2,
           setup=lambda g: g.gain_status(0, status_index(g, "Ward"), 1, 0),
           helpers=(crank("Cash Ward", "Spend 1 Ward."),), acts=(("main", "Cash Ward"),)),
    status("any-time-status", ("AnyTime", "ThisToken", "Remove", "May"), ("MAY", "REMOVE_THIS", "GAIN_CP"),
           "Cache", ["At any time, you may remove this token and gain 2 CP."],
           "she uses it in her Main Phase: the token goes, 2 CP come",
           lambda s: s.now[0].tokens.get("Cache", 0) == 0 and s.change("cp") == 2, acts=(("main", "Cache"),)),
    status("reads-status", ("Reads",), ("GAIN_CP",), "Tally", ["Whenever Gauge reads 5, gain 2 CP."],
           "a card takes the Gauge from 2 to 5: 2 CP", lambda s: s.now[0].gauge == 5 and s.change("cp") == 2,
           helpers=(crank("Crank Tally", "Increase Gauge by 3."),), acts=(("main", "Crank Tally"),)),
    status("exceeds-status", ("WouldExceed",), ("GAIN_CP",), "Overflow",
           ["If Gauge would be increased above 5, gain 2 CP."],
           "a card would take the Gauge from 2 to 6: it stops at 5, and 2 CP",
           lambda s: s.now[0].gauge == 5 and s.change("cp") == 2,
           helpers=(crank("Crank Overflow", "Increase Gauge by 4."),), acts=(("main", "Crank Overflow"),)),
    # core rules, "Turn Breakdown", 6. Defensive Roll Phase: "the Defender now begins the Defensive
    # Roll Phase": its start and what acts during it are hers, before she rolls
    status("during-defense", ("During",), ("GAIN_CP",), "Brace",
           ["During your Defensive Roll Phase, gain 1 CP."],
           "the Druid attacks: she gains 1 CP, then defends",
           lambda s: own_events(s, "cp", "defend") == ["cp", "defend"], turns="theirs",
           dice=DRUID_ATTACK + HOOF),
    status("defense-start", ("PhaseEdge",), ("GAIN_CP",), "Bulwark",
           ["At the start of the Defensive Roll Phase, gain 1 CP."],
           "the Druid attacks: she gains 1 CP, then defends",
           lambda s: own_events(s, "cp", "defend") == ["cp", "defend"], turns="theirs",
           dice=DRUID_ATTACK + HOOF),
    status("once-per-turn", ("Effect", "PhaseEdge"), ("GAIN_CP",), "Tithe",
           ["Once per turn, at the end of your Main Phase, gain 1 CP."],
           "both her Main Phases end, and it acts once: 1 CP", lambda s: s.change("cp") == 1),
    # ---- passive abilities, components and abilities (each on a hero of its own)
    Case("any-time", ("AnyTime", "Cost", "May"), ("MAY", "PAY_CP", "DRAW"), "passive",
         "Once per turn, at any time, you may spend 1 CP to draw 1 card.",
         "she uses it in her Main Phase: 1 CP for a card",
         lambda s: s.change("cp") == -1 and s.change("hand") == 1, acts=(("main", "Case any-time"),)),
    Case("attacking", ("Attacking", "AddDamage"), ("ADD_DMG",), "component",
         "When Attacking, add 3 dmg.", "at Top of the Stance her Strike deals 3 more",
         lambda s: s.change("hp", 1) == -6, entry={"component": "Stance", "at": "Top"},
         setup=set_state(stance="Top"), dice=STRIKE + PAWS),
    # Marvel rulebook, "Final DMG Total (Advanced)", "3. Multiply & Divide": a multiplier on the subtotal
    Case("double-attack", ("Attacking", "DoubleAttack"), ("DOUBLE_DMG",), "component",
         "When Attacking, double the dmg of this Attack.",
         "at Top of the Stance her Strike's 3 dmg is doubled",
         lambda s: s.change("hp", 1) == -6 and bool(s.told("double", player=0)),
         entry={"component": "Stance", "at": "Top"}, setup=set_state(stance="Top"), dice=STRIKE + PAWS),
    Case("conclude-attack", ("Conclude",), ("GAIN_CP",), "passive",
         "When you conclude your Offensive Roll Phase with an Attack, gain 2 CP.",
         "her Strike is an Attack: 2 CP", lambda s: s.change("cp") == 2, dice=STRIKE + PAWS),
    Case("reads", ("Reads", "Flip"), ("FLIP_DIAL",), "component",
         "Whenever Gauge reads 5, flip Gauge to the High side.",
         "her Upkeep moves the Gauge from 4 to 5, and it turns to its High side",
         lambda s: (s.now[0].gauge, s.now[0].gauge_side) == (5, "High"), entry={"component": "Gauge"},
         helpers=({"name": "Wind Up", "effect": "During your Upkeep Phase, increase Gauge by 1."},),
         setup=set_state(gauge=4)),
    Case("would-exceed", ("WouldExceed", "Excess", "Per"), ("EVENT_VALUE", "HEAL"),
         "component", "If Gauge would be increased above 5, heal 1 for each increase above 5 instead.",
         "her Upkeep would take the Gauge from 4 to 7: it stops at 5 and she heals 2",
         lambda s: s.now[0].gauge == 5 and s.change("hp") == 2, entry={"component": "Gauge"},
         helpers=({"name": "Wind Up", "effect": "During your Upkeep Phase, increase Gauge by 3."},),
         setup=set_state(gauge=4, health=40)),
    Case("damaged-passive", ("DamagedByPhase",), ("GAIN_CP",), "passive",
         "When you receive dmg from an opponent's Offensive Roll Phase, gain 2 CP.",
         "the Druid's Attack hurts her: 2 CP", lambda s: s.change("cp") == 2 and s.change("hp") == -5,
         turns="theirs", dice=DRUID_ATTACK + HOOF),
    Case("hurt-passive", ("Damaged",), ("GAIN_CP",), "passive", "Whenever you are dealt dmg, gain 2 CP.",
         "the Druid's Attack hurts her: 2 CP", lambda s: s.change("cp") == 2 and s.change("hp") == -5,
         turns="theirs", dice=DRUID_ATTACK + HOOF),
    Case("reads-passive", ("Reads",), ("GAIN_CP",), "passive", "Whenever Gauge reads 5, gain 2 CP.",
         "her Upkeep moves the Gauge from 4 to 5: 2 CP",
         lambda s: s.now[0].gauge == 5 and s.change("cp") == 2,
         helpers=({"name": "Wind Up", "effect": "During your Upkeep Phase, increase Gauge by 1."},),
         setup=set_state(gauge=4)),
    Case("exceeds-passive", ("WouldExceed",), ("GAIN_CP",), "passive",
         "If Gauge would be increased above 5, gain 2 CP.",
         "her Upkeep would take the Gauge from 4 to 7: it stops at 5, and 2 CP",
         lambda s: s.now[0].gauge == 5 and s.change("cp") == 2,
         helpers=({"name": "Wind Up", "effect": "During your Upkeep Phase, increase Gauge by 3."},),
         setup=set_state(gauge=4)),
    Case("offensive", ("OfAKind", "On"), ("DEAL", "MEETS", "GAIN_CP"), "offensive",
         "Deal 4 dmg.", "four [Hoof] 4s: 4 dmg, and `additionally` 1 CP",
         lambda s: s.change("hp", 1) == -4 and s.change("cp") == 1,
         entry={"requires": "4 [Hoof]", "additionally": "On 4-of-a-kind [Hoof], gain 1 CP."},
         dice=(4, 4, 4, 4, 1) + PAWS),
    Case("defensive", ("If", "InForm", "Instead", "Roll", "Per"), ("ROLL", "COUNT_SYMBOLS", "DEAL"),
         "defensive", "If in Owl Form, roll 3 dice instead. Deal 1 dmg per [Fang] rolled.",
         "in Owl Form she defends with 3 dice, not 2: two [Fang], 2 dmg back",
         lambda s: s.told("effect_roll", player=0, dice=[1, 1, 4]) and s.change("hp", 1) == -2,
         entry={"dice": 2}, setup=set_state(shape="Owl Form"), turns="theirs",
         dice=DRUID_ATTACK + (1, 1, 4)),
    Case("attacked-later-ability", ("Delayed", "Attacked"), ("SCHEDULE", "PREVENT"), "offensive",
         "Deal 3 dmg. When Attacked, prevent 2 dmg.",
         "her Attack deals 3; on the Druid's turn it prevents 2 of his 5 dmg: she takes 3",
         lambda s: s.change("hp", 1) == -3 and s.change("hp") == -3, entry={"requires": "3 [Fang]"},
         turns="mine theirs", dice=STRIKE + PAWS + DRUID_ATTACK + HOOF),
    Case("attack-landed", ("Delayed", "AttackLanded", "If", "YouHave", "Receive"),
         ("SCHEDULE", "TURN_COUNT", "RECEIVE"), "offensive",
         "Deal 3 dmg. If this Attack deals at least 1 dmg, you take 2 dmg.",
         "her Attack hits the Druid for 3, and then she takes 2 herself",
         lambda s: s.change("hp", 1) == -3 and s.change("hp") == -2, entry={"requires": "3 [Fang]"},
         dice=STRIKE + PAWS),
]

# Node kinds no checked AST holds: the checker resolves them away (an `Item` continues the verb
# before it, `Gain 1 CP and 2 Ward`; a `Param` is a verb's argument, replaced by what the card
# says), and refuses them where it cannot. (text, the diagnostic lint refuses it with)
REFUSED = {
    "Item": ("2 Ward.", "C016"),
    "Param": ("Gain {n} CP.", "C016"),
}

# Opcodes the engine does not act on: they run, and nothing in the game changes for them. The
# opcode meta-test exempts them; they are in no case. (None now: INSTEAD is the `instead` case.)
IGNORED_OPS: dict[str, tuple[str, str]] = {}


class Gap(NamedTuple):
    """Text lint accepts whose node kind or opcode the engine acts on elsewhere, but not there."""

    what: str  # the node kind or opcode
    where: str  # card | ability | status | passive
    text: str


# None now: each gap found became a case (a `# GAP: <what the engine ignores>` entry, `Gap(what,
# where, text)`, when one is found again).
GAPS: tuple[Gap, ...] = ()


# ---------------------------------------------------------------- the content


def _load(path: Path) -> dict:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def _dump(data: dict, path: Path) -> None:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    with path.open("w", encoding="utf-8") as f:
        yaml.dump(data, f)


def _heroes() -> dict[str, dict]:
    """The hero documents: the tester with every card and status case, and a hero of each other
    case's own (the tester without its cards, with the case's ability, passive or component effect)."""
    base = _load(TESTER_FILE)
    tester = copy.deepcopy(base)
    out = {"tester": tester}
    for case in CASES:
        tester["cards"] += [dict(h) for h in case.helpers] if case.where in ("card", "status") else []
        if case.where == "card":
            tester["cards"].append({"name": case.name, "kind": "action", "cost": 0, "effect": case.text,
                                    **case.entry})
        elif case.where == "status":
            tester["status_effects"].append({**case.entry, "effects": case.text})
        else:
            hero = copy.deepcopy(base)
            hero["hero"] = case.hero
            hero["cards"] = [c for c in hero["cards"] if c["kind"] == "unique"]
            entry = dict(case.entry)
            if case.where == "component":
                named = entry.pop("component")
                comp = next(c for c in hero["components"] if c["name"] == named)
                comp["effects"] = [{**entry, "effect": case.text}] if entry else [case.text]
            else:
                hero[case.where] = [{"name": case.name, "effect": case.text, **entry}]
            hero["passive"] = hero.get("passive", []) + [dict(h) for h in case.helpers]
            out[case.id] = hero
    return out


@dataclass
class Built:
    result: project.Result
    artifact: artifact.Artifact


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Built:
    """The built-in content and the coverage heroes, checked and compiled once."""
    folder = tmp_path_factory.mktemp("coverage")
    for name, hero in _heroes().items():
        _dump(hero, folder / f"{name}.yaml")
    result = project.run([CONTENT, folder])
    assert not result.errors, "\n".join(render_text(d, result.sources) for d in result.errors)
    image = compile_content(result.content, project.artifact_names(result, [CONTENT, folder]))
    return Built(result, artifact.load(artifact.to_bytes(image)))


# ------------------------------------------------------------------- the games


class Dice:
    """Scripted dice: each roll takes the next value; shuffles keep the order (seeded once spent)."""

    def __init__(self, values):
        self.values = list(values)
        self.fallback = random.Random(0)

    def randrange(self, count):
        return self.values.pop(0) - 1 if self.values else self.fallback.randrange(count)

    def randint(self, low, high):
        return self.values.pop(0) if self.values else self.fallback.randint(low, high)

    def shuffle(self, items):
        """Decks keep the order the case laid them in."""

    def random(self):
        return self.fallback.random()


def status_index(g: Game, name: str) -> int:
    return next(i for i, s in enumerate(g.a.statuses) if s["name"] == name
                and s.get("owner") in (None, g.seats[0].table.name))


def component_index(g: Game, seat: int, name: str) -> int:
    return next(i for i, c in enumerate(g.seats[seat].table.components) if c["name"] == name)


@dataclass(frozen=True)
class Seat:
    """What a player sees of one seat."""

    hp: int
    cp: int
    hand: tuple[str, ...]
    deck: int
    discard: tuple[str, ...]
    vault: tuple[str, ...] = ()
    gauge: int | None = None
    gauge_side: str | None = None
    stance: str | None = None
    shape: str | None = None
    tokens: dict[str, int] = field(default_factory=dict)
    token_sides: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, g: Game, seat: int) -> Seat:
        p = g.seats[seat]
        tokens: dict[str, int] = {}
        sides: dict[str, tuple[str, ...]] = {}
        for status, held in p.tokens.items():
            entry = g.a.statuses[status]
            for token in held:
                label = entry["name"]
                if token.tier:
                    tier = entry["tiers"][token.tier - 1]
                    label = f"{tier['tier']} {tier['slot']}"
                tokens[label] = tokens.get(label, 0) + 1
                if entry.get("sides"):
                    sides[label] = sides.get(label, ()) + (entry["sides"][token.side],)
        view = {}
        for comp, data in enumerate(p.table.components):
            name = data["name"].removeprefix("The ").lower()
            if data["kind"] == "zone":
                view[name] = tuple(c.card.name for c in p.zones.get(comp, []))
            else:
                view[name] = g.shown(seat, comp)
            if data["kind"] == "dial" and data.get("sides"):
                view[f"{name}_side"] = data["sides"][p.sides[comp]]
        known = {k: v for k, v in view.items() if k in cls.__dataclass_fields__}
        return cls(p.health, p.cp, tuple(c.card.name for c in p.hand), len(p.deck),
                   tuple(c.card.name for c in p.discard), tokens=tokens, token_sides=sides, **known)


@dataclass
class Seen:
    """A case's game as its players saw it: both seats before and after, and the events told."""

    was: tuple[Seat, Seat]
    now: tuple[Seat, Seat]
    events: list[dict]

    def change(self, what: str, seat: int = 0) -> int:
        before, after = getattr(self.was[seat], what), getattr(self.now[seat], what)
        return (len(after) - len(before)) if isinstance(after, tuple) else after - before

    def told(self, kind: str, **fields) -> list[dict]:
        return [e for e in self.events if e["e"] == kind and all(e.get(k) == v for k, v in fields.items())]

    def kinds(self, *wanted: str) -> list[str]:
        """The kinds of the events told, of those wanted, in order."""
        return [e["e"] for e in self.events if e["e"] in wanted]

    def order(self, first: str, then: str) -> bool:
        """Whether an event `then` of the tester's comes after the first event `first`."""
        kinds = [e["e"] for e in self.events]
        return first in kinds and any(e["e"] == then and e.get("player") == 0
                                      for e in self.events[kinds.index(first):])


@dataclass
class Played:
    seen: Seen
    ran: set[str]  # the opcodes executed in the case's own chunks


def _answer(case: Case):
    """The tester takes the case's actions when offered (and passes otherwise); both players keep
    their dice, say yes, take the first option, the most of a number, the first items."""
    acts = list(case.acts or ())

    def answer(request):
        kind = type(request).__name__
        if kind != "Act" and request.player == 0 and kind in case.answers:
            given = case.answers[kind]
            return given(request) if callable(given) else given
        if kind == "Act":
            if acts and request.player == 0 and request.window == acts[0][0]:
                for i, action in enumerate(request.actions):
                    if action.kind in ("play", "use", "spend") and action.name.startswith(acts[0][1]):
                        acts.pop(0)
                        return i
            return None
        defaults = {"RollDice": [], "Activate": 0, "ChooseDefense": 0, "YesNo": True, "ChooseOption": 0,
                    "ChooseDirection": "up", "ChooseDice": []}
        if kind in defaults:
            return defaults[kind]
        if kind == "PickNumber":
            return request.choices[-1]
        if kind == "ChooseItems":
            return list(range(request.least or min(1, request.most)))
        if kind == "ChoosePlayer":
            return request.players[0]
        if kind == "SellDown":
            return list(range(request.count))
        raise AssertionError(f"{case.id}: unexpected {request}")
    answer.left = acts
    return answer


def _owned(owner: str, prefix: str) -> bool:
    return owner == prefix or owner.startswith(prefix + " ›")


def play(case: Case, built: Built, ran: set) -> Played:
    """Play the case's turns in a real game; what was seen, and which opcodes its chunks ran."""
    a = built.artifact
    heroes = [next(i for i, h in enumerate(a.heroes) if h["name"] == name) for name in (case.hero, OPPONENT)]
    turns = case.turns.split()
    dice = case.dice if case.dice is not None else sum(
        (NO_ATTACK if t == "mine" else DRUID_PASS for t in turns), ())
    g = Game(a, heroes, seed=0, rng=Dice(dice))
    g.start_player = 0  # her first turn is the game's first: no Income Phase in it
    if case.setup:
        case.setup(g)
    was = (Seat.of(g, 0), Seat.of(g, 1))
    me = g.seats[0]
    for name in case.cards:  # in her hand, made for the case (the deck is as it was)
        definition = next(c for c in me.table.deck if c.name == name)
        me.hand.append(Card(10_000 + len(me.hand), definition))
    answer = _answer(case)
    ran.clear()
    for whose in turns:
        g.active = 0 if whose == "mine" else 1
        run = g.turn()
        with contextlib.suppress(StopIteration):  # the turn is over
            request = next(run)
            while True:
                request = run.send(answer(request))
    assert not answer.left, f"{case.id}: never offered {answer.left}"
    prefix = f"{case.hero} › " + ("card " if case.where == "card" else "") + case.name
    ops = {op.name for chunk, op in ran if _owned(a.chunks[chunk].owner, prefix)}
    return Played(Seen(was, (Seat.of(g, 0), Seat.of(g, 1)), g.events), ops)


@pytest.fixture(scope="module")
def played(built) -> dict[str, Played | Exception]:
    """Every case played once, with the VM tracing which instructions of which chunk ran."""
    vm = VM.shared(built.artifact)
    ran: set[tuple[int, Op]] = set()
    vm.trace = lambda chunk, ins, stack: ran.add((chunk, ins.op))
    out: dict[str, Played | Exception] = {}
    try:
        for case in CASES:
            try:
                out[case.id] = play(case, built, ran)
            except Exception as problem:  # reported by the case's own test
                out[case.id] = problem
    finally:
        vm.trace = None
    return out


# ---------------------------------------------------------------------- tests


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_engine_acts_on_it(case, played):
    result = played[case.id]
    if isinstance(result, Exception):
        raise result
    seen = result.seen
    told = "\n".join(f"  {e}" for e in seen.events)
    assert case.expect(seen), f"{case.where} {case.text!r}: expected {case.shows}; events:\n{told}"


def test_case_ids_are_unique():
    assert len({c.id for c in CASES}) == len(CASES)


def _sites(built: Built, case: Case) -> list:
    """The checked ASTs of the case's text (a status: its effects as the engine runs them, its
    `spendable:` trigger)."""
    hero = next(h for h in built.result.content.heroes if h.name == case.hero)
    if case.where == "card":
        return [next(c for c in hero.cards if c.name == case.name).effect.ast]
    if case.where == "status":
        held = next(s for s in hero.statuses if s.name == case.name)
        tiers = [t.effect.ast for slot in held.slots for t in slot.tiers]
        moment = [held.tier_moment.ast] if held.tier_moment else []
        spendable = [held.spendable.ast] if held.spendable else []
        return [s.ast for s in held.effects] + spendable + tiers + moment
    if case.where == "component":
        return [s.ast for s in next(c for c in hero.components if c.name == case.name).effects]
    return [s.ast for s in next(a for a in hero.abilities if a.name == case.name).sites()]


def node_kinds(trees) -> set[str]:
    return {type(node).__name__ for tree in trees for node in n.walk(tree)}


def test_every_node_kind_occurs_in_the_checked_ast_of_a_case(built):
    covered = set()
    for case in CASES:
        missing = set(case.nodes) - node_kinds(_sites(built, case))
        assert not missing, f"{case.id}: no {sorted(missing)} in the checked AST of {case.text!r}"
        covered |= set(case.nodes)
    assert set(REFUSED).isdisjoint(covered)
    assert set(n.NODE_TYPES) - set(REFUSED) - covered == set()
    assert covered | set(REFUSED) <= set(n.NODE_TYPES)


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_the_nodes_no_checked_ast_holds_are_refused_by_lint(kind, tmp_path):
    text, code = REFUSED[kind]
    parsed, _ = parse_effect(text)
    assert kind in node_kinds([parsed])  # the parser makes one
    hero = _load(TESTER_FILE)
    hero["cards"].append({"name": "Refused", "kind": "action", "timing": "main", "cost": 0, "effect": text})
    _dump(hero, tmp_path / "hero.yaml")
    result = project.run([tmp_path / "hero.yaml"])
    assert [d.code for d in result.errors] == [code], [d.message for d in result.errors]


def test_an_item_is_resolved_into_the_verb_before_it(built):
    """`Gain 1 CP and 2 Ward`: the parser's `Item` is a `Gain` once checked (the `gain` case)."""
    case = next(c for c in CASES if c.id == "gain")
    parsed, _ = parse_effect(case.text)
    assert "Item" in node_kinds([parsed]) and "Item" not in node_kinds(_sites(built, case))


def test_a_label_the_yaml_fields_contradict_is_refused(tmp_path):
    """A `Label` compiles to nothing: the engine reads the YAML fields, and lint holds the label to
    them (`C036`), so the `label` case's Attack Modifier card is played as one because it is one."""
    hero = _load(TESTER_FILE)
    hero["cards"].append({"name": "Refused", "kind": "action", "timing": "main", "cost": 0,
                          "effect": "Heal 7. Attack Modifier."})
    _dump(hero, tmp_path / "hero.yaml")
    assert [d.code for d in project.run([tmp_path / "hero.yaml"]).errors] == ["C036"]


def test_every_dice_throne_opcode_runs_in_the_game_of_a_case(played):
    covered = set()
    for case in CASES:
        result = played[case.id]
        if isinstance(result, Exception):
            raise result
        missing = set(case.ops) - result.ran
        assert not missing, f"{case.id}: {sorted(missing)} never ran (ran: {sorted(result.ran)})"
        covered |= set(case.ops)
    dice_throne = {op.name for op in Op if op not in VALERIA_OPS or op in EITHER_GAME_OPS}
    assert dice_throne - covered == set(IGNORED_OPS)
    assert covered <= dice_throne


def test_each_gap_names_a_node_kind_or_opcode_a_case_covers():
    """A gap is a place where the engine does not act on what it acts on elsewhere (a case)."""
    covered = {name for case in CASES for name in case.nodes + case.ops}
    for gap in GAPS:
        assert gap.what in covered, gap
    assert set(IGNORED_OPS) <= set(Op.__members__) and set(IGNORED_OPS).isdisjoint(covered)


def test_lint_accepts_every_gap(tmp_path):
    """Each gap is text lint accepts (a gap closed by refusing the text is taken off the list)."""
    hero = _load(TESTER_FILE)
    texts = [Gap(op, where, text) for op, (where, text) in IGNORED_OPS.items()] + list(GAPS)
    for i, (_, where, text) in enumerate(texts):
        if where == "card":
            hero["cards"].append({"name": f"Gap {i}", "kind": "action", "timing": "main", "cost": 0,
                                  "effect": text})
        elif where == "status":
            hero["status_effects"].append({"name": f"Gap {i}", "polarity": "positive", "stack_limit": 1,
                                           "effects": [text]})
        elif where == "passive":
            hero.setdefault("passive", []).append({"name": f"Gap {i}", "effect": text})
        else:
            hero["offensive"].append({"name": f"Gap {i}", "requires": "4 [Moon]", "effect": text})
    _dump(hero, tmp_path / "hero.yaml")
    result = project.run([tmp_path / "hero.yaml"])
    assert result.errors == [], "\n".join(render_text(d, result.sources) for d in result.errors)


# ------------------------------------------------------- Kingdoms of Valeria

VALERIA_GAMES = ((1, None, 1), (1, "Winter", 2), (4, None, 3))  # (players, sheet, seed): solo and 4


def test_every_valeria_opcode_the_content_compiles_to_runs_in_valeria_games(built):
    """The Valeria opcodes come from Valeria content (rewards, Statues, Domains, Solo events): bot
    games on the Castle and Forest sheets and on the Winter sheets run every one of them. MARK_TRACK
    is in no content (no reward marks a Guild Track pip by choice): tests/test_valeria_engine.py runs
    it (`test_mark_track_asks_which_track`)."""
    from dtc.valeria.bots import BOTS
    from dtc.valeria.engine import Game as Valeria

    a = built.artifact
    compiled = {ins.op for chunk in a.chunks for ins in chunk.program} & VALERIA_OPS
    ran: set[Op] = set()
    vm = VM.shared(a)
    vm.trace = lambda chunk, ins, stack: ran.add(ins.op)
    try:
        for players, sheet, seed in VALERIA_GAMES:
            g = Valeria(a, players, seed, sheet, solo=players == 1)
            bots = [BOTS["greedy"](seed * 7 + i) for i in range(players)]
            run = g.play()
            try:
                request = next(run)
                while True:
                    request = run.send(bots[request.player].answer(g, request))
            except StopIteration as stop:
                result = stop.value
            assert all(score.stars > 0 for score in result.scores)  # the sheets were marked
    finally:
        vm.trace = None
    assert compiled - ran == set()
    assert VALERIA_OPS - compiled == {Op.MARK_TRACK}
    elsewhere = (ROOT / "tests" / "test_valeria_engine.py").read_text(encoding="utf-8")
    assert "def test_mark_track_asks_which_track" in elsewhere and "Op.MARK_TRACK" in elsewhere
