"""The shape of an artifact's payload, field by field, and the walk that checks a payload against it.

The compiler writes the payload (`compiler.Compiler.compile`); this module says, as plain data, what
every field of it may hold: its type, its range or its words, whether it may be missing or null, and
that nothing else is there. `artifact` checks a payload against `PAYLOAD` before it looks at the
references between tables and at the bytecode, so an edited payload (even with its hash recomputed)
is refused in one line at the first field out of place, never met by the engine as a KeyError, a
TypeError or a card printed 2^31 times.

The ranges are those lint allows (the schemas in `schemas/` and the checker), so what lint accepts
fits; a test holds the two together (tests/test_artifact.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

INDEX = 1_000_000  # a position in one of the payload's tables (checked against the table after)
SIGNED = 999  # a dial's values, a `reads N` trigger's value: the hero schema's range
LONG_TEXT = 100_000  # a card's text, a gap's note, an effect as written
NAME_TEXT = 1_000


class ShapeError(Exception):
    """A payload field that does not fit its shape: `where` is its path (`heroes[0].cards[3].cost`)."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where


@dataclass(frozen=True)
class Int:
    """A whole number (never a bool or a float) from `least` to `most`."""

    least: int
    most: int


@dataclass(frozen=True)
class Text:
    """A string of at most `most` characters; with `words`, one of them."""

    most: int = NAME_TEXT
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Flag:
    """true or false."""


@dataclass(frozen=True)
class Maybe:
    """null, or what `shape` says."""

    shape: Any


@dataclass(frozen=True)
class Many:
    """A list of `least` to `most` items, each what `shape` says."""

    shape: Any
    least: int = 0
    most: int = 100_000


@dataclass(frozen=True)
class Numbered:
    """An object keyed by whole numbers written as text (`"1"` to `"99"`: die faces, prompt offsets)."""

    shape: Any
    least: int = 0
    highest: int = 99


@dataclass(frozen=True)
class Named:
    """An object keyed by names (a ruleset's modes)."""

    shape: Any


@dataclass(frozen=True)
class Record:
    """An object with exactly these fields (`fields` always there, `optional` when there)."""

    fields: dict
    optional: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Tagged:
    """A Record chosen by the value of one of its fields (a trigger's `on`, a component's `kind`)."""

    tag: str
    cases: dict


@dataclass(frozen=True)
class Either:
    """The first Record whose `fields` are all present (a requirement item: symbol, N of a kind, straight)."""

    records: tuple


@dataclass(frozen=True)
class Or:
    """What one of `shapes` says (a whole number or a word)."""

    shapes: tuple


@dataclass(frozen=True)
class Free:
    """Checked elsewhere: a chunk's constants (by the opcode that reads them), a prompt's words."""


def check(shape: Any, value: Any, where: str) -> None:
    """Raise ShapeError at the first part of `value` that `shape` does not allow."""
    kind = type(shape)
    if kind is Int:
        if type(value) is not int:
            raise ShapeError(where, f"expected a whole number, found {_what(value)}")
        if not shape.least <= value <= shape.most:
            raise ShapeError(where, f"{value} is outside {shape.least}..{shape.most}")
    elif kind is Text:
        if not isinstance(value, str):
            raise ShapeError(where, f"expected text, found {_what(value)}")
        if len(value) > shape.most:
            raise ShapeError(where, f"text of {len(value)} characters (at most {shape.most})")
        if shape.words and value not in shape.words:
            raise ShapeError(where, f"{value!r} is not one of {', '.join(shape.words)}")
    elif kind is Flag:
        if not isinstance(value, bool):
            raise ShapeError(where, f"expected true or false, found {_what(value)}")
    elif kind is Maybe:
        if value is not None:
            check(shape.shape, value, where)
    elif kind is Many:
        if not isinstance(value, list):
            raise ShapeError(where, f"expected a list, found {_what(value)}")
        if not shape.least <= len(value) <= shape.most:
            raise ShapeError(where, f"a list of {len(value)} (from {shape.least} to {shape.most})")
        for i, item in enumerate(value):
            check(shape.shape, item, f"{where}[{i}]")
    elif kind is Numbered:
        _object(value, where)
        if len(value) < shape.least:
            raise ShapeError(where, f"at least {shape.least} entries are needed")
        for key, item in value.items():
            if not (key.isascii() and key.isdigit() and len(key) <= 6 and int(key) <= shape.highest):
                raise ShapeError(where, f"key {key[:20]!r} is not a number up to {shape.highest}")
            check(shape.shape, item, f"{where}.{key}")
    elif kind is Named:
        _object(value, where)
        for key, item in value.items():
            check(Text(), key, where)
            check(shape.shape, item, f"{where}.{key}")
    elif kind is Record:
        _record(shape, value, where)
    elif kind is Tagged:
        _object(value, where)
        if shape.tag not in value and None not in shape.cases:
            raise ShapeError(where, f"missing `{shape.tag}`")
        tag = value.get(shape.tag)
        if not isinstance(tag, (str, type(None))) or tag not in shape.cases:
            words = ", ".join("null" if t is None else str(t) for t in shape.cases)
            raise ShapeError(f"{where}.{shape.tag}", f"{_what(tag)} is not one of {words}")
        _record(shape.cases[tag], value, where, shape.tag)
    elif kind is Either:
        _object(value, where)
        for record in shape.records:
            if all(name in value for name in record.fields):
                _record(record, value, where)
                return
        raise ShapeError(where, "fits none of its forms (" + "; ".join(
            ", ".join(r.fields) for r in shape.records) + ")")
    elif kind is Or:
        problems = []
        for inner in shape.shapes:
            try:
                check(inner, value, where)
                return
            except ShapeError as problem:
                problems.append(problem)
        raise problems[0]
    elif kind is not Free:  # pragma: no cover - a mistake in the table below
        raise TypeError(f"unknown shape {shape!r}")


def _record(shape: Record, value: Any, where: str, tag: str | None = None) -> None:
    _object(value, where)
    for name, inner in shape.fields.items():
        if name not in value:
            raise ShapeError(where, f"missing `{name}`")
        check(inner, value[name], f"{where}.{name}")
    for name, item in value.items():
        if name in shape.fields or name == tag:
            continue
        if name not in shape.optional:
            raise ShapeError(where, f"unexpected field `{str(name)[:40]}`")
        check(shape.optional[name], item, f"{where}.{name}")


def _object(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise ShapeError(where, f"expected an object, found {_what(value)}")


def _what(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {int: "a whole number", float: "a number with a point", str: "text", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


# ------------------------------------------------------------------ the payload

REF = Int(0, INDEX)
CHUNK_REF = REF
PHASE = REF
EDGE = Text(words=("start", "end", "conclusion"))

TRIGGER = Tagged("on", {
    "during": Record({"phase": PHASE}),
    "turn_edge": Record({"edge": EDGE}, {"this": Flag(), "next": Flag()}),
    "phase_edge": Record({"edge": EDGE, "phase": PHASE}),
    "conclude": Record({"phase": PHASE, "with_attack": Flag()}),
    # `attacked by any dmg`: the damage type is the word `any`, not a table entry
    "attacked": Record({"by_opponent": Flag(), "damage_type": Maybe(Or((REF, Text(words=("any",))))),
                        "except": Maybe(REF)}),
    "reads": Record({"component": REF, "value": Int(-SIGNED, SIGNED)}),
    "would_exceed": Record({"component": REF, "limit": Int(-SIGNED, SIGNED)}),
    "damaged_by_phase": Record({"phase": PHASE}),
    "damaged": Record({"from_status": Flag()}),
    "spends_status": Record({"status": REF}),
    "plays_card": Record({}, {"kind": Text(words=("action", "upgrade")),
                              "timing": Text(words=("main", "roll", "instant"))}),
    **{on: Record({}) for on in ("attacking", "spent", "gained_at_limit", "gained", "any_time", "healed")},
})

TRIGGERED = Record({"trigger": Maybe(TRIGGER), "once_per_turn": Flag(), "chunk": CHUNK_REF})

REQUIREMENT = Record({"items": Many(Either((
    Record({"straight": Text(words=("small", "large"))}),
    Record({"of_a_kind": Int(2, 20), "symbol": Maybe(REF)}),
    Record({"symbol": REF, "count": Int(1, 20)}),
)), least=1, most=20)})

OPTION = Record({"requirement": REQUIREMENT, "chunk": CHUNK_REF})
_ABILITY_COMMON = {"name": Text(), "shape": Text(words=("single", "tiers", "variants")),
                   "dice": Maybe(Int(1, 10)), "attack_modifier": Flag(), "gap": Maybe(Text(LONG_TEXT)),
                   "options": Many(OPTION, most=64), "shared": Maybe(CHUNK_REF),
                   "additionally": Maybe(CHUNK_REF)}
_NOTE = {"note": Text(LONG_TEXT)}
_ATTACK_ABILITY = Record({**_ABILITY_COMMON, "kind": Text(), "effects": Many(TRIGGERED)}, _NOTE)
ABILITY = Tagged("kind", {
    "offensive": _ATTACK_ABILITY,
    "ultimate": _ATTACK_ABILITY,
    "passive": _ATTACK_ABILITY,
    "defensive": Record({**_ABILITY_COMMON, "kind": Text(), "dice": Int(1, 10), "chunk": CHUNK_REF}, _NOTE),
})
# what an upgrade card puts in the place of the ability it upgrades (compiler.Compiler.card)
UPGRADED_ABILITY = Tagged("kind", {
    "offensive": _ATTACK_ABILITY,
    "ultimate": _ATTACK_ABILITY,
    "passive": Record({"kind": Text(), "effects": Many(TRIGGERED)}),
    "defensive": Record({"kind": Text(), "dice": Int(1, 10), "chunk": CHUNK_REF}),
})

COPIES = Int(1, 9)  # schemas/card.schema.json `copies`
COST = Int(0, 15)  # schemas/card.schema.json `cost`
_CARD = {"name": Text(), "cost": COST, "copies": COPIES, "authored": Flag(), "text": Text(LONG_TEXT),
         "chunk": Maybe(CHUNK_REF)}
_CARD_OPTIONAL = {"timing": Text(words=("main", "roll", "instant")), "upgrades": Text(),
                  "level": Int(1, 9)}
CARD = Tagged("kind", {
    "action": Record({**_CARD, "kind": Text()}, _CARD_OPTIONAL),
    "upgrade": Record({**_CARD, "kind": Text(), "upgrades": Text()},
                      {**_CARD_OPTIONAL, "ability": UPGRADED_ABILITY}),
    "unique": Record({**_CARD, "kind": Text(), "type": REF, "symbol": Maybe(REF)}, _CARD_OPTIONAL),
    "equipment": Record({**_CARD, "kind": Text(), "ability": Record({"kind": Text(words=("passive",)),
                                                                      "effects": Many(TRIGGERED, least=1)})},
                        _CARD_OPTIONAL),
})

_PLACE = {"side": Maybe(REF), "at": Maybe(REF), "attack_modifier": Flag()}
COMPONENT_EFFECT = Record({**TRIGGERED.fields, **_PLACE})
_COMPONENT = {"name": Text(), "kind": Text(), "effects": Many(COMPONENT_EFFECT)}
_NAMES = Many(Text(), least=1, most=100)
COMPONENT = Tagged("kind", {
    "dial": Record({**_COMPONENT, "values": Many(Int(-SIGNED, SIGNED), least=1, most=2 * SIGNED + 1),
                    "start": Int(-SIGNED, SIGNED), "sides": Many(Text(), most=2), "start_side": REF}),
    "track": Record({**_COMPONENT, "values": _NAMES, "start": REF, "once_per_turn": Flag()}),
    "forms": Record({**_COMPONENT, "values": _NAMES, "start": REF, "once_per_turn": Flag()}),
    "zone": Record({**_COMPONENT, "values": Many(Free(), most=0), "holds": REF}),
})

STATUS_EFFECT = Record({**TRIGGERED.fields, "side": Maybe(REF)}, {"per": Text(words=("status",))})
TIER = Record({"slot": Text(), "tier": Text(), "limit": Int(1, 99), "blueprint": Maybe(REQUIREMENT),
               "effect": TRIGGERED}, {"says": Text(LONG_TEXT)})
_GENERIC_STATUS = Record({"name": Text(), "class": Text(), "owner": Maybe(Text())})
STATUS = Tagged("class", {
    None: Record({"name": Text(), "class": Maybe(Text()), "owner": Maybe(Text()), "set": Maybe(Text()),
                  "polarity": Text(words=("positive", "negative", "unique")),
                  "stack_limit": Int(1, 99), "persistent": Flag(), "removable": Flag(),
                  "transferable": Flag(), "companion": Flag(), "attack_modifier": Flag(),
                  "sides": Many(Text(), most=20), "restricted_to": Many(Text(), most=100),
                  "spendable": Maybe(TRIGGER), "effects": Many(STATUS_EFFECT), "tiers": Many(TIER)}),
    "any": _GENERIC_STATUS, "positive": _GENERIC_STATUS, "negative": _GENERIC_STATUS,
})

HERO = Record({
    "name": Text(), "source": REF, "rules": Maybe(Text()),
    "dice": Record({"count": Int(1, 10), "faces": Numbered(REF, least=1)}),
    "symbols": Many(REF), "complexity": Maybe(Int(1, 6)),
    "components": Many(COMPONENT, most=100), "statuses": Many(REF), "abilities": Many(ABILITY, most=100),
    "cards": Many(CARD, most=1000), "setup": Maybe(CHUNK_REF),
})

BOSS = Record({
    "scenario": Int(2, 8), "boss_loot": Int(0, 10),
    "setup": Many(Record({"heroes": Int(1, 4), "hero_health": Int(1, 999), "health": Int(1, 999),
                          "upgrade_cp": Int(0, 99), "cp": Int(0, 15), "kings_hand": Int(0, 9)}),
                  least=1, most=4),
    "kings_hand": Maybe(Record({"per_turn": Int(1, 5), "success": Many(Int(1, 6), least=1, most=6)})),
    "actions": Many(Record({"card": REF, "objective": REQUIREMENT, "bonus": CHUNK_REF}), least=1, most=600),
})

# a player nobody plays: a minion (`minion` callouts) or a Boss (`boss`); the verifier wants one
MINION = Record(HERO.fields, {**HERO.optional, "minion": Record({
    "level": Int(1, 4), "health": Int(1, 999), "cp": Int(0, 15), "first_strike": Flag(),
    "kings_hand": Int(0, 9),
    "objective": REQUIREMENT}, {"reward": Record({}, {"chest": Int(1, 4), "gold": Int(1, 50)})}),
    "boss": BOSS})

_PLACE = Many(Int(0, 20), least=2, most=2)
_RARITIES = ("common", "rare", "epic", "legendary")
ADVENTURE = Record({
    "name": Text(), "loot_die": Int(1, 20),
    "hero_setup": Many(Record({"heroes": Int(1, 4), "health": Int(1, 999), "gold": Int(0, 999),
                               "salves": Int(0, 10)}), least=1, most=4),
    "loot_table": Many(Many(Record({"upto": Int(1, 20),
                                    "kind": Text(words=("gold", "health", "cp", "cards", "loot")),
                                    "amount": Int(1, 50)}), least=1, most=20), least=4, most=4),
    "shop": Record({"prices": Record({r: Int(0, 999) for r in _RARITIES}), "identify": Int(0, 999),
                    "sell": Int(0, 999)}),
    "deck_limit": Int(1, 999),
    "boss_loot": Many(Record({"upto": Int(1, 20), "rarity": Text(words=_RARITIES)}), least=1, most=20),
    "loss": Record({"score": Int(-100, 0), "salves": Int(0, 20)}),
    "boss_vs": Maybe(Record({"kings_hand": REF, "kings_hand_cost": Int(0, 15), "boss_health": Int(0, 999),
                             "boss_health_per_hero": Int(0, 999), "duel_health": Int(1, 999),
                             "targeting": Many(Many(Int(1, 6), least=1, most=6), least=3, most=3)})),
    "difficulties": Many(Record({"name": Text(), "scenario_score": Int(0, 100)}), least=1, most=10),
    "environments": Many(Record({"name": Text(), "level": Int(1, 3), "health": Int(0, 20), "gold": Int(0, 50),
                                 "minion": Maybe(Int(1, 4)), "chunk": Maybe(CHUNK_REF)}), least=1, most=200),
    "scenarios": Many(Record({
        "name": Text(), "scenario": Int(1, 7), "salve_heal": Int(1, 20),
        "shop_deal": Record({r: Int(0, 10) for r in _RARITIES}),
        "kings_hand": Record({"per_turn": Int(1, 5), "success": Many(Int(1, 6), least=1, most=6)}),
        "map": Many(Many(Text(words=("S", "P", "1", "2", "3", ".")), least=1, most=20), least=1, most=20),
        "shards": Many(_PLACE, least=3, most=3), "salves": Many(_PLACE, most=400),
        "chests": Many(Record({"at": _PLACE, "chest": Int(1, 4)}), most=400)}), least=1, most=100),
})

CHUNK = Record({
    "owner": Text(), "source": REF, "hero": Maybe(REF), "status": Maybe(REF),
    "code": Text(2 * 65_536), "consts": Many(Free(), most=65_536),
    "lines": Many(Many(Int(0, INDEX), least=2, most=2), least=1),
    "prompts": Numbered(Free(), highest=65_535),
}, {"text": Text(LONG_TEXT)})

PIPS = Many(Int(-1, INDEX), most=1000)
VALERIA = Record({
    "rules": Record({
        "name": Text(), "guilds": Many(Text(), least=1, most=20), "harvest": Many(Text(), most=20),
        "actions": Named(Text()), "helper": Text(LONG_TEXT), "colors": Many(Text(), most=20),
        "rewards": Many(Record({"name": Text(), "mark": Text(), "star": Flag(), "chunk": Maybe(CHUNK_REF)}),
                        most=100),
        "end_tracks": Int(0, 999), "slay_gold": Int(0, 999), "draft": Int(1, 999),
        "most_statues": Int(1, 999), "solo_turns": Int(0, 999), "solo_events": Int(0, 999),
        "bands": Many(Many(Free(), least=2, most=2), most=100),
    }),
    "sheets": Many(Record({
        "name": Text(), "source": REF,
        "citizens": Many(Record({"values": Many(Int(1, 12), least=1, most=12), "label": Text(),
                                 "guild": REF, "pips": PIPS, "start": Int(0, 1000)}), most=100),
        "tracks": Many(Record({"guild": REF, "pips": PIPS, "row": Int(0, 1000)}), most=100),
        "gold": PIPS, "gold_rows": Many(Int(0, 1000), most=100), "wall": PIPS,
        "starts": Many(Text(), most=100),
        "roads": Many(Record({"from": Text(), "to": Maybe(Text()), "pips": PIPS,
                              "bridge": Maybe(Int(0, 1000))}), most=1000),
        "domains": Many(Record({"name": Text(), "when": Text(words=("action", "claim")),
                                "power": Text(LONG_TEXT), "chunk": CHUNK_REF}), most=1000),
        "lairs": Many(Record({"name": Text(), "vp": Many(Int(0, 999), least=2, most=2),
                              "access": Maybe(Text()),
                              "blocks": Many(Record({"low": Int(1, 12), "high": Int(1, 12), "pips": PIPS}),
                                             least=1, most=12)}), most=100),
    }), most=100),
    "statues": Maybe(Record({"name": Text(), "copies": Many(Text(), most=100),
                             "cards": Many(Record({"number": Int(0, 999), "instant": Flag(),
                                                   "text": Text(LONG_TEXT), "chunk": CHUNK_REF}),
                                           most=1000)})),
    "events": Many(Record({"name": Text(), "sheet": Text(),
                           "cards": Many(Record({"name": Text(), "chunk": CHUNK_REF}), most=1000)}),
                   most=100),
})

_SEAT = Int(1, 6)
MODE = Record({"players": Int(2, 6), "starting_health": Int(1, 999)}, {
    "teams": Many(Many(_SEAT, least=1, most=5), least=2, most=6),
    "turn_order": Or((Text(words=("clockwise",)), Many(_SEAT, least=2, most=6))),
    "shared_health": Flag(), "targeting": Text(words=("roll", "choose")),
    "leader_bonus_draw": Int(0, 9), "aliases": Many(Text(), most=4), "authored": Text(LONG_TEXT),
    "source": Text(LONG_TEXT),
})
RULESET = Record({
    "ruleset": Text(), "edition": Text(), "modes": Named(MODE),
    "cp": Record({"start": Int(0, 999), "max": Int(1, 999), "income": Int(0, 99), "sell_value": Int(0, 99)}),
    "cards": Record({"starting_hand": Int(0, 99), "income_draw": Int(0, 99), "hand_limit": Int(0, 99)}),
    "heal_cap_above_start": Int(0, 999),
    "dice": Record({"per_hero": Int(1, 10), "roll_attempts": Int(1, 10)}, {"start_roll": Int(1, 10)}),
    "phases": Many(Record({"name": Text()}, {"part_of": Text(), "start_player_skips_first": Flag(),
                                            "summary": Text(LONG_TEXT)}), least=1, most=100),
    "damage_types": Many(Record({
        "name": Text(), "defendable": Flag(), "avoidable": Flag(),
        "modifiable": Or((Flag(), Text(words=("increase only",)))), "special_targeting": Flag(),
        "attack": Flag()}, {"printed": Text()}), least=1, most=100),
}, {
    "default": Flag(), "aliases": Many(Text(), most=4), "summary": Text(LONG_TEXT), "source": Text(LONG_TEXT),
    "roll_phase_conclusion": Text(LONG_TEXT), "attack_modifiers": Text(words=("own_attacks", "any_attack")),
    "damage_total": Record({"order": Text(words=("add_then_multiply",)),
                            "multipliers": Text(words=("independent_on_subtotal",)),
                            "rounding": Text(words=("up", "down"))}, {"source": Text(LONG_TEXT)}),
    "dice_faces": Many(Int(1, 99), least=2, most=20),
})

_TABLE = Many(Text(), most=INDEX)
PAYLOAD = Record({
    "format": Int(0, 65_535),
    "sources": _TABLE, "damage_types": _TABLE, "phases": _TABLE, "symbols": _TABLE, "card_types": _TABLE,
    "rulesets": Many(RULESET, least=1, most=100),
    "dice": Many(Record({"name": Text(), "faces": Numbered(REF, least=1)}), most=100),
    "statuses": Many(STATUS),
    "status_sets": Many(Record({"name": Text(), "statuses": Many(REF)})),
    "heroes": Many(HERO),
    "card_sets": Many(Record({"name": Text(), "every_hero": Flag(), "cards": Many(CARD, most=1000)})),
    "chunks": Many(CHUNK),
}, {"valeria": Maybe(VALERIA), "minions": Many(MINION, least=1), "adventure": ADVENTURE,
    "loot": Many(Record({"name": Text(), "rarity": Text(words=("common", "rare", "epic", "legendary")),
                         "family": Text(), "level": Int(1, 3), "swaps": Maybe(Text())}), least=1, most=400)})
