"""Model: schema-valid documents in, a typed content model out.

The model is plain dataclasses over the documents: heroes with their dice,
abilities, statuses, components, verbs and cards; status and card sets;
rulesets.  Every piece of effect text becomes a `Site`, which knows its
document path (for positions), its owner (for messages) and the context it
runs in (for the checker and, later, the compiler).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dtc.loader import Document

MINION_DICE = 5  # "Take 5 ... dice" ("Minion Setup"): the set names the die


@dataclass
class Site:
    """One piece of effect text, where it is and what it belongs to."""

    text: str
    doc: Document
    path: tuple
    owner: str
    context: str  # offensive | defensive | passive | status | component | card | setup | verb
    allow: dict[str, str] = field(default_factory=dict)
    status: Status | None = None
    side: str | None = None
    position: str | None = None
    dice: int | None = None  # dice of the current roll when the effect starts
    requirement: Any = None  # the activation requirement (text site) this effect rides on
    attack_modifier: bool = False
    ast: Any = None
    broken: bool = False  # the checker found an error in it: what `ast` holds is not what runs

    def span(self):
        return self.doc.span(self.path)


@dataclass
class Option:
    """One tier or variant: a requirement and its effect."""

    requires: Site
    effect: Site


@dataclass
class Ability:
    """A hero board ability."""

    name: str
    kind: str  # offensive | defensive | passive | ultimate
    doc: Document
    path: tuple
    options: list[Option] = field(default_factory=list)
    shape: str = "single"  # single | tiers | variants
    shared: Site | None = None  # an `effect` beside tiers or variants, resolved first
    additionally: Site | None = None
    effects: list[Site] = field(default_factory=list)  # passives and defensive abilities
    dice: int | None = None
    gap: str | None = None
    note: str | None = None
    attack_modifier: bool = False
    allow: dict[str, str] = field(default_factory=dict)

    def sites(self) -> list[Site]:
        out = []
        if self.shared:
            out.append(self.shared)
        for option in self.options:
            out.append(option.effect)
        if self.additionally:
            out.append(self.additionally)
        out.extend(self.effects)
        return out


@dataclass
class Tier:
    name: str
    blueprint: Site | None
    effect: Site


@dataclass
class Slot:
    name: str
    limit: int
    tiers: list[Tier]


@dataclass
class Status:
    """A status effect, a hero's own or from a status set."""

    name: str
    polarity: str
    stack_limit: int
    doc: Document
    path: tuple
    owner: str
    data: dict
    effects: list[Site] = field(default_factory=list)  # as the engine runs them (`Checker.read_as_printed`)
    spendable: Site | None = None
    sides: list[str] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)
    written: list[Site] = field(default_factory=list)  # the effect texts as written in the YAML
    tier_moment: Site | None = None  # `<when>, they may activate the effects below` (its tiers' moment)


@dataclass
class Component:
    """A unique game element: dial, track, forms or zone."""

    name: str
    kind: str
    doc: Document
    path: tuple
    data: dict
    effects: list[Site] = field(default_factory=list)

    @property
    def values(self) -> list:
        """The values it can take: dial numbers, track positions, forms."""
        if self.kind == "dial":
            low, high = self.data["range"]
            return list(range(low, high + 1))
        if self.kind == "track":
            return list(self.data["positions"])
        if self.kind == "forms":
            return list(self.data["forms"])
        return []

    @property
    def sides(self) -> list[str]:
        return list(self.data.get("sides", []))


@dataclass
class Verb:
    """A hero's own phrase and its meaning over the core language."""

    patterns: list[str]
    means: Site
    doc: Document
    path: tuple


@dataclass
class Card:
    """One card of a deck or card set."""

    name: str
    kind: str
    cost: int
    copies: int
    doc: Document
    path: tuple
    data: dict
    effect: Site | None = None
    ability: Ability | None = None  # for upgrades: the replacement ability text


@dataclass
class Die:
    """A die type: face value to symbol."""

    name: str
    faces: dict[int, str]


@dataclass
class Minion:
    """What a Dice Throne Adventures minion card has beyond a hero's shape ("Minion card callouts")."""

    level: int
    health: int
    cp: int
    first_strike: bool
    kings_hand: int
    objective: Site  # the Roll Objective, written as a requirement
    die: str  # the die it rolls, by name: a die of a status set
    reward: dict | None = None  # "Minion Rewards": {"chest": level} or {"gold": amount}


@dataclass
class BossAction:
    """One card of a Boss's Action deck beyond its card's shape: its Roll Objective and Hero Bonus."""

    card: int  # index into the boss's cards
    objective: Site  # a requirement
    bonus: Site  # an effect the active hero performs


@dataclass
class Boss:
    """What a Boss has beyond a hero's shape ("Boss Battle Setup", "3. Boss Step")."""

    scenario: int
    setup: list[dict]  # by team size: hero_health, health, upgrade_cp, cp, kings_hand
    kings_hand: dict | None  # the scenario card's table: per_turn, success
    actions: list[BossAction]
    die: str
    boss_loot: int  # the scenario card's Conclusion: the Boss Loot chests


@dataclass
class Hero:
    name: str
    doc: Document
    dice_count: int
    faces: dict[int, str]
    ruleset: str | None
    components: list[Component] = field(default_factory=list)
    verbs: list[Verb] = field(default_factory=list)
    statuses: list[Status] = field(default_factory=list)
    abilities: list[Ability] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    setup: Site | None = None
    minion: Minion | None = None  # a minion: a player nobody plays, in a minion set
    boss: Boss | None = None  # a Dice Throne Adventures Boss: a player nobody plays

    @property
    def symbols(self) -> list[str]:
        seen: list[str] = []
        for symbol in self.faces.values():
            if symbol not in seen:
                seen.append(symbol)
        return seen


@dataclass
class StatusSet:
    name: str
    doc: Document
    statuses: list[Status]
    dice: list[Die]


@dataclass
class Phrasebook:
    """A phrasebook document: printed phrasings, each `say` pattern with the core text it `means`."""

    name: str
    doc: Document
    entries: list[tuple[str, str, tuple, bool]]  # (say, means, path of the phrase, status effects only)


@dataclass
class CardSet:
    name: str
    doc: Document
    cards: list[Card]
    every_hero: bool


@dataclass
class Loot:
    """What a Loot card has beyond an Action card's shape ("Loot Cards")."""

    card: Card
    rarity: str  # common, rare, epic, legendary: its Loot deck and its price
    family: str  # the card it is a level of (its own name for a card of no family)
    level: int
    swaps: str | None  # the Swap icon: the non-Loot card it replaces


@dataclass
class Ruleset:
    name: str
    doc: Document
    data: dict

    @property
    def default(self) -> bool:
        return bool(self.data.get("default"))

    @property
    def damage_types(self) -> list[str]:
        return [t["name"] for t in self.data["damage_types"]]

    def phase_names(self) -> dict[str, list[str]]:
        """Every name effects may use for phases, to the phases it covers."""
        names: dict[str, list[str]] = {}
        for phase in self.data["phases"]:
            names.setdefault(phase["name"], []).append(phase["name"])
            if "part_of" in phase:
                names.setdefault(phase["part_of"], []).append(phase["name"])
        return names


@dataclass
class Adventure:
    """Dice Throne Adventures rules as data: hero setup, Loot Table, difficulties, environment tiles,
    Portal Crawl scenario cards. Plain data: the checker checks it, the compiler copies it."""

    name: str
    doc: Document
    data: dict
    effects: dict[int, Site] = field(default_factory=dict)  # an environment tile's effect, by its index


@dataclass
class Content:
    """Everything loaded: what the checker checks and the compiler compiles."""

    heroes: list[Hero] = field(default_factory=list)
    status_sets: list[StatusSet] = field(default_factory=list)
    card_sets: list[CardSet] = field(default_factory=list)
    rulesets: list[Ruleset] = field(default_factory=list)
    phrasebooks: list[Phrasebook] = field(default_factory=list)
    lexicons: list[Document] = field(default_factory=list)  # checked to be the built-in one
    minions: list[Hero] = field(default_factory=list)  # Dice Throne Adventures minions, in file order
    adventures: list[Adventure] = field(default_factory=list)  # Dice Throne Adventures rules as data
    loot: list[Loot] = field(default_factory=list)  # Dice Throne Adventures Loot cards (in `card_sets` too)
    valeria: Any = None  # dtc.valeria.content.Valeria: the Kingdoms of Valeria documents


# ---------------------------------------------------------------- building


def build(documents: list[tuple[str, Document]]) -> Content:
    """The content model of schema-valid (kind, document) pairs."""
    content = Content()
    for kind, doc in documents:
        if kind == "hero":
            content.heroes.append(_hero(doc))
        elif kind == "status_set":
            content.status_sets.append(_status_set(doc))
        elif kind == "card_set":
            data = doc.data
            cards = [_card(doc, ("cards", i), c, data["card_set"]) for i, c in enumerate(data["cards"])]
            content.card_sets.append(CardSet(data["card_set"], doc, cards, data.get("for") == "every hero"))
        elif kind == "ruleset":
            content.rulesets.append(Ruleset(doc.data["ruleset"], doc, doc.data))
        elif kind == "phrasebook":
            content.phrasebooks.append(_phrasebook(doc))
        elif kind == "lexicon":
            content.lexicons.append(doc)
        elif kind == "minion_set":
            content.minions.extend(_minion(doc, i, m) for i, m in enumerate(doc.data["minions"]))
        elif kind == "loot_set":
            data = doc.data
            cards = [_card(doc, ("cards", i), {**c, "kind": "equipment" if c.get("equipment") else "action"},
                           data["loot_set"]) for i, c in enumerate(data["cards"])]
            content.card_sets.append(CardSet(data["loot_set"], doc, cards, False))
            content.loot.extend(Loot(card, c["rarity"], c.get("family", c["name"]), c.get("level", 1),
                                     c.get("swaps")) for card, c in zip(cards, data["cards"], strict=True))
        elif kind == "boss":
            content.minions.append(_boss(doc))
        elif kind == "adventure":
            effects = {i: _site(doc, ("environments", i, "effect"), f"environment {e['name']}", "card")
                       for i, e in enumerate(doc.data["environments"]) if "effect" in e}
            content.adventures.append(Adventure(doc.data["adventure"], doc, doc.data, effects))
    dice = {d.name.casefold(): d for ss in content.status_sets for d in ss.dice}
    for minion in content.minions:  # the die may be in a file read after the minions
        die = dice.get((minion.minion or minion.boss).die.casefold())
        minion.faces = dict(die.faces) if die else {}
    return content


def _minion(doc: Document, index: int, data: dict) -> Hero:
    """A minion card as a Hero (its abilities have a hero's shape) with its minion callouts."""
    path = ("minions", index)
    name = data["name"]
    die = doc.data["dice"]  # required by the minion schema
    hero = Hero(name, doc, MINION_DICE, {}, doc.data.get("rules"))
    objective = _site(doc, path + ("roll_objective",), f"{name} › Roll Objective", "requirement")
    hero.minion = Minion(data["level"], data["health"], data["cp"], bool(data.get("first_strike")),
                         data.get("kings_hand", 0), objective, die,
                         dict(data["reward"]) if "reward" in data else None)
    for i, a in enumerate(data["offensive"]):
        hero.abilities.append(_offensive(doc, path + ("offensive", i), a, name, "offensive", MINION_DICE))
    for i, a in enumerate(data["defensive"]):
        hero.abilities.append(_defensive(doc, path + ("defensive", i), a, name))
    for i, a in enumerate(data.get("passive", [])):
        hero.abilities.append(_passive(doc, path + ("passive", i), a, name))
    return hero


def _boss(doc: Document) -> Hero:
    """A Boss as a Hero: its board's abilities, its Upgrade deck's and Action deck's cards (the
    Action cards with their Roll Objectives and Hero Bonuses in `boss`)."""
    data = doc.data
    name = data["boss"]
    hero = Hero(name, doc, MINION_DICE, {}, data.get("rules"))
    for i, a in enumerate(data["offensive"]):
        hero.abilities.append(_offensive(doc, ("offensive", i), a, name, "offensive", MINION_DICE))
    if "ultimate" in data:
        hero.abilities.append(_offensive(doc, ("ultimate",), data["ultimate"], name, "ultimate", MINION_DICE))
    for i, a in enumerate(data["defensive"]):
        hero.abilities.append(_defensive(doc, ("defensive", i), a, name))
    for i, a in enumerate(data.get("passive", [])):
        hero.abilities.append(_passive(doc, ("passive", i), a, name))
    for i, c in enumerate(data["upgrade_deck"]):
        hero.cards.append(_card(doc, ("upgrade_deck", i), c, name))
    actions = []
    for i, c in enumerate(data["action_deck"]):
        path = ("action_deck", i)
        hero.cards.append(_card(doc, path, {**c, "kind": "action"}, name))
        owner = f"{name} › card {c['name']}"
        actions.append(BossAction(len(hero.cards) - 1, _site(doc, path + ("roll_objective",),
                                                             f"{owner} › Roll Objective", "requirement"),
                                  _site(doc, path + ("hero_bonus",), f"{owner} › Hero Bonus", "card")))
    hero.boss = Boss(data["scenario"], [dict(row) for row in data["setup"]], data.get("kings_hand"),
                     actions, data["dice"], data["boss_loot"])
    return hero


def _phrasebook(doc: Document) -> Phrasebook:
    entries = []
    for i, phrase in enumerate(doc.data["phrases"]):
        says = phrase["say"] if isinstance(phrase["say"], list) else [phrase["say"]]
        status_only = phrase.get("for") == "status effects"
        entries.extend((say, phrase["means"], ("phrases", i), status_only) for say in says)
    return Phrasebook(doc.data["phrasebook"], doc, entries)


def _site(doc, path, owner, context, allow=None, **extra) -> Site:
    return Site(doc.get(path), doc, path, owner, context, dict(allow or {}), **extra)


def _hero(doc: Document) -> Hero:
    data = doc.data
    name = data["hero"]
    dice = data["dice"]
    faces = {int(k): v for k, v in dice["faces"].items()}
    hero = Hero(name, doc, dice.get("count", 5), faces, data.get("rules"))
    for i, c in enumerate(data.get("components", [])):
        hero.components.append(_component(doc, ("components", i), c, name))
    for i, v in enumerate(data.get("verbs", [])):
        say = v["say"] if isinstance(v["say"], list) else [v["say"]]
        means = _site(doc, ("verbs", i, "means"), f"{name} › verb `{say[0]}`", "verb")
        hero.verbs.append(Verb(say, means, doc, ("verbs", i)))
    for i, s in enumerate(data.get("status_effects", [])):
        hero.statuses.append(_status(doc, ("status_effects", i), s, name))
    for i, a in enumerate(data.get("offensive", [])):
        hero.abilities.append(_offensive(doc, ("offensive", i), a, name, "offensive", hero.dice_count))
    if "ultimate" in data:
        hero.abilities.append(_offensive(doc, ("ultimate",), data["ultimate"], name, "ultimate",
                                         hero.dice_count))
    for i, a in enumerate(data.get("defensive", [])):
        hero.abilities.append(_defensive(doc, ("defensive", i), a, name))
    for i, a in enumerate(data.get("passive", [])):
        hero.abilities.append(_passive(doc, ("passive", i), a, name))
    for i, c in enumerate(data.get("cards", [])):
        hero.cards.append(_card(doc, ("cards", i), c, name))
    if "setup" in data:
        hero.setup = _site(doc, ("setup",), f"{name} › Hero Setup", "setup")
    return hero


def _offensive(doc, path, data, hero, kind, dice) -> Ability:
    owner = f"{hero} › {data.get('name', '?')}"
    allow = data.get("allow", {})
    ability = Ability(data.get("name", "?"), kind, doc, path, allow=dict(allow), gap=data.get("gap"),
                      note=data.get("note"))
    ability.attack_modifier = bool(data.get("attack_modifier"))
    _fill_offensive(ability, doc, path, data, owner, dice)
    return ability


def _fill_offensive(ability, doc, path, data, owner, dice) -> None:
    allow = data.get("allow", {})
    for shape in ("tiers", "variants"):
        for i, opt in enumerate(data.get(shape, [])):
            label = f"{owner} › {'tier' if shape == 'tiers' else 'variant'} {i + 1}"
            opt_allow = {**allow, **opt.get("allow", {})}
            req = _site(doc, path + (shape, i, "requires"), label, "requirement", opt_allow)
            eff = _site(doc, path + (shape, i, "effect"), label, "offensive", opt_allow,
                        dice=dice, requirement=req)
            ability.options.append(Option(req, eff))
            ability.shape = shape
    if "requires" in data:
        req = _site(doc, path + ("requires",), owner, "requirement", allow)
        eff_path = path + ("effect",)
        if "effect" in data:
            eff = _site(doc, eff_path, owner, "offensive", allow, dice=dice, requirement=req)
            ability.options.append(Option(req, eff))
    elif "effect" in data:
        ability.shared = _site(doc, path + ("effect",), owner, "offensive", allow, dice=dice)
    if "additionally" in data:
        ability.additionally = _site(doc, path + ("additionally",), f"{owner} › additionally",
                                     "offensive", allow, dice=dice)
    if "dice" in data:
        ability.dice = data["dice"]


def _defensive(doc, path, data, hero) -> Ability:
    owner = f"{hero} › {data['name']}"
    allow = data.get("allow", {})
    ability = Ability(data["name"], "defensive", doc, path, allow=dict(allow), gap=data.get("gap"),
                      note=data.get("note"), dice=data["dice"])
    ability.effects.append(_site(doc, path + ("effect",), owner, "defensive", allow,
                                 dice=data["dice"]))
    return ability


def _passive(doc, path, data, hero) -> Ability:
    owner = f"{hero} › {data['name']}"
    allow = data.get("allow", {})
    ability = Ability(data["name"], "passive", doc, path, allow=dict(allow), gap=data.get("gap"),
                      note=data.get("note"))
    ability.attack_modifier = bool(data.get("attack_modifier"))
    if "effect" in data:
        ability.effects.append(_site(doc, path + ("effect",), owner, "passive", allow))
    for i, _ in enumerate(data.get("effects", [])):
        ability.effects.append(_site(doc, path + ("effects", i), owner, "passive", allow))
    return ability


def _status(doc, path, data, owner_name) -> Status:
    name = data["name"]
    status = Status(name, data["polarity"], data["stack_limit"], doc, path, owner_name, data,
                    sides=list(data.get("sides", [])))
    allow = data.get("allow", {})
    owner = f"{owner_name} › {name}"
    for i, item in enumerate(data.get("effects", [])):
        if isinstance(item, str):
            status.effects.append(_site(doc, path + ("effects", i), owner, "status", allow,
                                        status=status))
        else:
            label = f"{owner} › side {item['side']}" if "side" in item else owner
            status.effects.append(
                _site(doc, path + ("effects", i, "effect"), label, "status",
                      {**allow, **item.get("allow", {})}, status=status, side=item.get("side"))
            )
    status.written = list(status.effects)
    if "spendable" in data:
        status.spendable = _site(doc, path + ("spendable",), owner, "trigger", allow, status=status)
    for i, slot in enumerate(data.get("slots", [])):
        tiers = []
        for j, tier in enumerate(slot["tiers"]):
            tpath = path + ("slots", i, "tiers", j)
            label = f"{owner} › {tier['name']} {slot['name']}"
            tallow = {**allow, **tier.get("allow", {})}
            blueprint = (_site(doc, tpath + ("blueprint",), label, "blueprint", tallow)
                         if "blueprint" in tier else None)
            effect = _site(doc, tpath + ("effect",), label, "status", tallow, status=status)
            tiers.append(Tier(tier["name"], blueprint, effect))
        status.slots.append(Slot(slot["name"], slot.get("limit", 1), tiers))
    return status


def _component(doc, path, data, hero) -> Component:
    comp = Component(data["name"], data["kind"], doc, path, data)
    owner = f"{hero} › {data['name']}"
    for i, item in enumerate(data.get("effects", [])):
        if isinstance(item, str):
            comp.effects.append(_site(doc, path + ("effects", i), owner, "component"))
        else:
            label = owner + (f" › at {item['at']}" if "at" in item else "") + (
                f" › {item['side']} side" if "side" in item else "")
            comp.effects.append(
                _site(doc, path + ("effects", i, "effect"), label, "component",
                      item.get("allow", {}), side=item.get("side"), position=item.get("at"),
                      attack_modifier=bool(item.get("attack_modifier")))
            )
    return comp


def _status_set(doc: Document) -> StatusSet:
    data = doc.data
    name = data["status_set"]
    statuses = [_status(doc, ("status_effects", i), s, name)
                for i, s in enumerate(data["status_effects"])]
    dice = [Die(d["name"], {int(k): v for k, v in d["faces"].items()}) for d in data.get("dice", [])]
    return StatusSet(name, doc, statuses, dice)


def _card(doc, path, data, owner_name) -> Card:
    card = Card(data["name"], data["kind"], data["cost"], data.get("copies", 1), doc, path, data)
    owner = f"{owner_name} › card {data['name']}"
    allow = data.get("allow", {})
    if "effect" in data:
        card.effect = _site(doc, path + ("effect",), owner, "card", allow)
    if data["kind"] == "equipment":  # its effects are a passive ability's while it is in play
        ability = Ability(data["name"], "passive", doc, path, allow=dict(allow))
        for i, _ in enumerate(data["effects"]):
            ability.effects.append(_site(doc, path + ("effects", i), owner, "passive", allow))
        card.ability = ability
    if data["kind"] == "upgrade" and "ability" in data:
        ability = Ability(data.get("upgrades", "?"), "upgrade", doc, path + ("ability",),
                          allow=dict(allow))
        _fill_offensive(ability, doc, path + ("ability",), data["ability"], owner, None)
        for i, _ in enumerate(data["ability"].get("effects", [])):  # a passive's upgrade
            ability.effects.append(_site(doc, path + ("ability", "effects", i), owner, "passive", allow))
        card.ability = ability
    return card
