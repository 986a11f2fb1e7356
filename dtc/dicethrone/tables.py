"""Tables: a verified artifact in; per-hero data the engine and bots read fast, out.

Everything here is derived once per artifact (and cached): each ability's
options with a compiled requirement check, a rough value for bots, the cards
of each hero's deck, the damage-type chart, the ruleset constants.  Nothing
here names a hero, ability, status or component: it is all read from content.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from dtc.artifact import Artifact
from dtc.dice import STRAIGHT_LENGTH
from dtc.dicethrone.damage import DamageType
from dtc.dicethrone.modes import Mode, mode_from_data, mode_named
from dtc.disasm import instructions, option_label
from dtc.opcodes import PREVENTING, TARGETS, Op


@dataclass(frozen=True)
class Rules:
    """The ruleset constants the engine plays by."""

    name: str
    start_health: int
    cp_start: int
    cp_max: int
    income_cp: int
    income_draw: int
    sell_value: int
    starting_hand: int
    hand_limit: int
    heal_cap: int
    dice: int
    roll_attempts: int
    round_up: bool
    own_attacks_only: bool
    damage_types: tuple[DamageType, ...]
    mode: Mode


def leveled(name: str, level: int) -> str:
    """An ability's name with its level as the upgrade cards print it: `<name> III`."""
    return f"{name} {'I' * level}"


def rules_named(artifact: Artifact, wanted: str) -> str | None:
    """The name of the rules `wanted` names: a ruleset's name (`Dice Throne v2.0`), its version
    (`v2.0`, `2.0`) or an alias (`marvel`), in any case; None when none does."""
    folded = wanted.strip().lower().removeprefix("v")
    for data in artifact.data["rulesets"]:
        name = data["ruleset"]
        if folded in (name.lower(), name.lower().rsplit(" ", 1)[-1].removeprefix("v")) \
                or wanted.strip().lower() in data.get("aliases", ()):
            return name
    return None


def rules_of(artifact: Artifact, name: str | None = None, mode: str = "1v1") -> Rules:
    """The ruleset called `name` (or the default one) as engine constants, for the mode called `mode`
    (its name or an alias: KeyError when it has none of that name)."""
    rulesets = artifact.data["rulesets"]
    data = next((r for r in rulesets if r["ruleset"] == name), None) if name else None
    if data is None:
        data = next((r for r in rulesets if r.get("default")), rulesets[0])
    chart = {t["name"]: t for t in data["damage_types"]}
    types = tuple(
        DamageType(n, chart[n]["defendable"], chart[n]["avoidable"], chart[n]["modifiable"],
                   chart[n]["special_targeting"], chart[n]["attack"])
        if n in chart else DamageType(n, True, True, True, False, True)
        for n in artifact.damage_types
    )
    total = data.get("damage_total", {})
    named = mode_named(data["modes"], mode)
    if named is None:
        raise KeyError(mode)
    table = mode_from_data(named, data["modes"][named])
    return Rules(
        name=data["ruleset"], start_health=table.start_health,
        cp_start=data["cp"]["start"], cp_max=data["cp"]["max"], income_cp=data["cp"]["income"],
        income_draw=data["cards"]["income_draw"], sell_value=data["cp"]["sell_value"],
        starting_hand=data["cards"]["starting_hand"], hand_limit=data["cards"]["hand_limit"],
        heal_cap=data["heal_cap_above_start"], dice=data["dice"]["per_hero"],
        roll_attempts=data["dice"]["roll_attempts"], round_up=total.get("rounding", "up") == "up",
        own_attacks_only=data.get("attack_modifiers", "own_attacks") == "own_attacks",
        damage_types=types, mode=table,
    )


# ------------------------------------------------------------- requirements


class Check:
    """A requirement compiled for one hero's dice: `check(values)` says if a roll meets it."""

    def __init__(self, requirement: dict, faces: dict[int, int]):
        self.requirement = requirement
        self.items = requirement["items"]
        self.faces = faces
        self.symbol_only = all("count" in i for i in self.items)
        self.needs = [(i["symbol"], i["count"]) for i in self.items if "count" in i]
        self.dice_needed = sum(i.get("count", i.get("of_a_kind", STRAIGHT_LENGTH.get(i.get("straight"), 0)))
                               for i in self.items)

    def __call__(self, values: list[int], counts: dict[int, int] | None = None) -> bool:
        """Whether `values` meet the requirement; `counts` (symbol -> dice) saves recounting."""
        if self.symbol_only:
            if counts is None:
                counts = symbol_counts(values, self.faces)
            for symbol, need in self.needs:
                if counts.get(symbol, 0) < need:
                    return False
            return True
        return _assign(list(self.items), Counter(values), self.faces)


def symbol_counts(values: list[int], faces: dict[int, int]) -> dict[int, int]:
    """How many dice show each symbol."""
    counts: dict[int, int] = {}
    for v in values:
        s = faces.get(v)
        counts[s] = counts.get(s, 0) + 1
    return counts


def _assign(items: list, pool: Counter, faces: dict[int, int]) -> bool:
    structured = [i for i in items if "count" not in i]
    if not structured:
        counts = Counter()
        for v, c in pool.items():
            counts[faces.get(v)] += c
        return all(counts[i["symbol"]] >= i["count"] for i in items)
    first = structured[0]
    rest = [i for i in items if i is not first]
    if "of_a_kind" in first:
        for value, have in pool.items():
            wanted = first.get("symbol")
            if have >= first["of_a_kind"] and (wanted is None or faces.get(value) == wanted):
                if _assign(rest, pool - Counter({value: first["of_a_kind"]}), faces):
                    return True
        return False
    length = STRAIGHT_LENGTH[first["straight"]]
    for low in sorted(pool):
        run = range(low, low + length)
        if all(pool[v] > 0 for v in run) and _assign(rest, pool - Counter(run), faces):
            return True
    return False


# ------------------------------------------------------------------ values


def chunk_value(artifact: Artifact, chunk: int | None) -> float:
    """A rough worth of running a chunk, for bots: damage dealt, statuses (gained, inflicted, or
    removed where that helps: a negative one from oneself, a positive one from others), healing,
    CP, cards. What only happens under a condition (`If you have 2 <status>, add 2 dmg`) counts
    half; an amount rolled counts its mean (a die's value 3.5, a roll's total 3.5 a die); what it
    schedules for later counts as if done now."""
    if chunk is None:
        return 0.0
    value = 0.0
    last_push = rolled = 1.0
    ends: list[int] = []  # where the conditional parts being read end
    previous = None
    for ins in instructions(artifact.chunks[chunk].code):
        op, args = ins.op, ins.operands
        while ends and ins.offset >= ends[-1]:
            ends.pop()
        weight = 0.5 ** len(ends)
        if op in (Op.JUMP_IF_FALSE, Op.JUMP):
            _conditional_parts(ends, ins, previous)
        elif op == Op.PUSH:
            last_push = args[0]
        elif op == Op.ROLL:
            rolled = last_push
        elif op == Op.ROLL_VALUE:
            last_push = 3.5
        elif op == Op.ROLL_TOTAL:
            last_push = 3.5 * rolled
        elif op == Op.DEAL:
            target = TARGETS[args[1]]
            value += weight * last_push * (1.0 if target != "self" else -1.0)
        elif op == Op.ADD_DMG:
            value += weight * last_push
        elif op in (Op.GAIN, Op.INFLICT):
            value += weight * 1.5 * last_push
        elif op == Op.REMOVE:
            status = artifact.statuses[args[0]]
            negative = (status.get("class") or status.get("polarity")) == "negative"
            if negative == (TARGETS[args[1]] == "self"):
                value += weight * 1.5 * last_push
        elif op in (Op.HEAL, Op.PREVENT):
            value += weight * 0.6 * last_push
        elif op == Op.PREVENT_HALF:  # of an Attack's dmg, some 8 to 10: about 4 prevented
            value += weight * 0.6 * 4
        elif op == Op.PREVENT_ALL:
            value += weight * 0.6 * 8
        elif op == Op.STEAL_CP:  # a CP gained and one the opponent loses
            value += weight * 2 * 0.8 * last_push
        elif op in (Op.GAIN_CP, Op.DRAW):
            value += weight * 0.8 * last_push
        elif op == Op.COUNT_SYMBOLS:
            value += weight * 1.5
        elif op == Op.RAISE:  # a dial or track of one's own, towards what its positions give
            value += weight * 0.5 * last_push
        elif op == Op.FLIP_DIAL:
            value += weight * 1.0
        elif op == Op.SCHEDULE:  # what happens later (`At the end of your turn, gain 2 CP`) counts too
            value += weight * chunk_value(artifact, args[1])
        previous = op
    return value


def _conditional_parts(ends: list[int], jump, previous) -> None:
    """Where the conditional parts being read end, after a jump: a JUMP_IF_FALSE starts one (not the
    one after a CHOOSE_PLAYER, skipped only when no one can be chosen); a forward JUMP ending one
    jumps over its `Otherwise` part, conditional too."""
    target = jump.operands[0]
    if jump.op == Op.JUMP_IF_FALSE:
        if previous != Op.CHOOSE_PLAYER:
            ends.append(target)
    elif ends and ends[-1] == jump.offset + 3 and target > ends[-1]:
        ends[-1] = target


def sure_dmg(artifact: Artifact, chunk: int | None) -> int:
    """The dmg a chunk deals to another player whatever happens: its unconditional `Deal N dmg` and
    `add N dmg` of a fixed N (what depends on dice, choices or conditions is not sure)."""
    if chunk is None:
        return 0
    code = artifact.chunks[chunk].code
    program = list(instructions(code))
    at = {ins.offset: ins for ins in program}
    dmg, before = 0, None
    ends: list[int] = []  # where the conditional parts being read end
    for ins in program:
        while ends and ins.offset >= ends[-1]:
            ends.pop()
        if ins.op in (Op.JUMP_IF_FALSE, Op.JUMP):
            _conditional_parts(ends, ins, before.op if before is not None else None)
        elif ins.op == Op.CHOOSE:
            # each option its own, to the choice's end: where the first option's last step (a JUMP
            # just before the second option) goes
            options = ins.operands[0]
            last = at.get(options[1] - 3) if len(options) > 1 else None
            ends.append(last.operands[0] if last is not None and last.op == Op.JUMP else len(code))
        fixed = not ends and before is not None and before.op == Op.PUSH
        if fixed and ins.op == Op.DEAL and TARGETS[ins.operands[1]] != "self":
            dmg += before.operands[0]
        elif fixed and ins.op == Op.ADD_DMG:
            dmg += before.operands[0]
        before = ins
    return dmg


# ------------------------------------------------------------------- heroes


@dataclass
class Option:
    """One activatable way of an ability (a tier, a variant)."""

    requirement: dict
    check: Check
    chunk: int
    value: float
    label: str  # `<ability> (4 [<symbol>])`: what players see it called
    sure_dmg: int = 0  # the dmg it deals whatever its dice, choices or conditions (`sure_dmg`)


@dataclass
class AbilityDef:
    """An ability as a player has it now (the board's, or an upgrade's)."""

    name: str
    kind: str  # offensive | ultimate | defensive | passive
    level: int
    options: list[Option] = field(default_factory=list)
    shared: int | None = None
    additionally: int | None = None
    chunk: int | None = None  # defensive
    dice: int | None = None
    effects: list[dict] = field(default_factory=list)  # passive triggered effects
    tiered: bool = False  # its options are tiers: the highest the dice meet is the one resolved
    note: str = ""  # what the hero board says of it, when it has no effect of its own to run

    @property
    def titled(self) -> str:
        """Its name as the card played over the board says it: `<name> II` from level II on."""
        return leveled(self.name, self.level) if self.level > 1 else self.name


@dataclass(frozen=True)
class CardDef:
    """A card's printed facts."""

    name: str
    kind: str
    cost: int
    timing: str | None
    upgrades: str | None
    level: int
    ctype: int | None
    symbol: int | None
    chunk: int | None
    ability: Any  # AbilityDef for upgrades
    value: float
    attack_modifier: bool  # its effect adds to an Attack
    alters_dice: bool
    # how it alters dice: ("change", most, values mode, value, only her own dice) or ("re-roll", most,
    # 0, 0, only her own dice), a fixed count pushed just before; None for any other card
    dice_alteration: tuple | None = None
    prevents: bool = False  # its effect prevents incoming damage (worth playing only when some comes)
    # how much: ("amount", N), ("half", 1 rounded up / 0 down), ("all", 0) or ("some", 0) (an amount
    # chosen or worked out), from its first prevention; None: none
    prevention: tuple[str, int] | None = None
    # its prevention is for a chosen player (`A chosen player prevents 6 dmg`): a teammate's dmg too
    # ("2v2 Team Game": only cards that say "a chosen player" reduce a teammate's incoming damage)
    for_anyone: bool = False
    sets_form: bool = False  # its effect changes its hero's form (worth playing at a moment a form serves)
    counts_own: frozenset[int] = frozenset()  # statuses whose tokens on its player its effect counts
    text: str = ""  # what the card says (its effect; an upgrade: its ability)


@dataclass
class HeroTable:
    index: int
    name: str
    faces: dict[int, int]
    symbols: list[int]
    abilities: list[AbilityDef]
    deck: list[CardDef]
    components: list[dict]
    statuses: list[int]
    setup: int | None
    dice: int = 5  # the dice the hero rolls (its board's `dice: count:`, as lint and the odds count them)
    minion: dict | None = None  # a Dice Throne Adventures minion's callouts (Health, CP, Roll Objective, ...)
    loot: dict[str, CardDef] = field(default_factory=dict)  # Dice Throne Adventures Loot cards, by name
    # Results of pure functions of one ability option and a roll (whether the roll meets it, a
    # bot's re-roll plan), shared by every game with this table. Keys hold option ids: they are
    # stable because the table keeps its options, board and upgrade ones, alive.
    memo: dict = field(default_factory=dict)


def _ability(artifact: Artifact, data: dict, faces: dict[int, int], level: int) -> AbilityDef:
    a = AbilityDef(data.get("name", "?"), data["kind"], level, tiered=data.get("shape") == "tiers")
    options = data.get("options", [])
    for j, option in enumerate(options):
        check = Check(option["requirement"], faces)
        value = chunk_value(artifact, option["chunk"]) + chunk_value(artifact, data.get("shared"))
        label = option_label(artifact, a.titled, options, j)
        parts = (option["chunk"], data.get("shared"), data.get("additionally"))
        dmg = sum(sure_dmg(artifact, c) for c in parts)
        a.options.append(Option(option["requirement"], check, option["chunk"], value, label, dmg))
    a.shared = data.get("shared")
    a.additionally = data.get("additionally")
    a.chunk = data.get("chunk")
    a.dice = data.get("dice")
    a.effects = list(data.get("effects", []))
    a.note = data.get("note") or ""
    return a


def uses(artifact: Artifact, chunk: int | None, ops: set[Op] | frozenset[Op]) -> bool:
    """Whether the chunk has one of the instructions `ops`."""
    if chunk is None:
        return False
    return any(ins.op in ops for ins in instructions(artifact.chunks[chunk].code))


def chooses_player(artifact: Artifact, chunk: int | None) -> bool:
    """Whether the chunk chooses among every player (`a chosen player`): herself, a teammate or not."""
    if chunk is None:
        return False
    anyone = TARGETS.index("chosen_player")
    return any(ins.op in (Op.CHOOSE_PLAYER, Op.ACTOR) and ins.operands[0] == anyone
               for ins in artifact.chunks[chunk].program)


def prevention(artifact: Artifact, chunk: int | None) -> tuple[str, int] | None:
    """How much the chunk's first prevention prevents: ("amount", N) for `prevent N dmg` (N pushed
    just before), ("some", 0) for an amount chosen or worked out (`up to 4`, `1 per [X]`),
    ("half", 1 rounded up or 0 down), ("all", 0); None when it prevents nothing."""
    if chunk is None:
        return None
    before = None
    for ins in instructions(artifact.chunks[chunk].code):
        if ins.op == Op.PREVENT:
            pushed = before is not None and before.op == Op.PUSH  # `prevent 2 dmg`, not `up to 2`
            return ("amount", before.operands[0]) if pushed else ("some", 0)
        if ins.op == Op.PREVENT_HALF:
            return ("half", int(ins.operands[0] == 0))
        if ins.op == Op.PREVENT_ALL:
            return ("all", 0)
        before = ins
    return None


def chooses_first(artifact: Artifact, chunk: int | None) -> bool:
    """Whether the chunk begins with `Choose one`."""
    program = artifact.chunks[chunk].program if chunk is not None else []
    return bool(program) and program[0].op == Op.CHOOSE


def spent_chunks(status: dict, side: int | None = None) -> list[int]:
    """The chunks of a status's `When spent` effects (those of a token's `side`, if given)."""
    return [e["chunk"] for e in status.get("effects", ()) if (e.get("trigger") or {}).get("on") == "spent"
            and (side is None or e.get("side") in (None, side))]


def sets_form(artifact: Artifact, chunk: int | None) -> bool:
    """Whether the chunk sets a component of kind `forms` (`transform into <form>`)."""
    if chunk is None or artifact.chunks[chunk].hero is None:
        return False
    components = artifact.players[artifact.chunks[chunk].hero]["components"]
    return any(ins.op == Op.SET_COMP and components[ins.operands[0]].get("kind") == "forms"
               for ins in instructions(artifact.chunks[chunk].code))


def counts_own(artifact: Artifact, chunk: int | None) -> frozenset[int]:
    """The statuses whose tokens on the effect's own player it counts (`If you have 1 <status>, ...`),
    not those it counts on another player."""
    if chunk is None:
        return frozenset()
    counted, own = set(), True
    for ins in instructions(artifact.chunks[chunk].code):
        if ins.op == Op.ACTOR:
            own = ins.operands[0] == 0  # TARGETS[0]: "self"
        elif ins.op == Op.COUNT_STATUS and own:
            counted.add(ins.operands[0])
    return frozenset(counted)


def _dice_alteration(artifact: Artifact, chunk: int | None) -> tuple | None:
    """`CardDef.dice_alteration`, read from the card's first `change`/`re-roll` step."""
    if chunk is None:
        return None
    for before, ins in pairwise(instructions(artifact.chunks[chunk].code)):
        if before.op == Op.PUSH and ins.op == Op.CHANGE_DICE:
            mode, value, own = ins.operands
            return ("change", before.operands[0], mode, value, bool(own))
        if before.op == Op.PUSH and ins.op == Op.REROLL:
            if ins.operands[0] & 2:
                return None  # every die, unasked: no choice of dice for a bot to weigh
            return ("re-roll", before.operands[0], 0, 0, bool(ins.operands[0] & 1))
    return None


def _card(artifact: Artifact, data: dict, faces: dict[int, int], board: dict[str, AbilityDef]) -> CardDef:
    ability = None
    if data["kind"] == "equipment":  # "All effects of the card are active at all times" once in play
        ability = _ability(artifact, dict(data["ability"], name=data["name"], options=[], shared=None),
                           faces, 1)
    elif data.get("ability") is not None:
        target = board.get(data["upgrades"])
        upgraded = dict(data["ability"], name=data["upgrades"])
        upgraded.setdefault("kind", target.kind if target else "offensive")
        if target is not None and not upgraded.get("options") and target.kind in ("offensive", "ultimate"):
            # an artifact compiled before upgrades carried the board's requirements themselves
            upgraded["options"] = [{"requirement": o.requirement, "chunk": upgraded.get("shared")}
                                   for o in target.options]
            upgraded["shared"] = None
        ability = _ability(artifact, upgraded, faces, data.get("level", 2))
    chunk = data.get("chunk")
    return CardDef(
        name=data["name"], kind=data["kind"], cost=data["cost"], timing=data.get("timing"),
        text=data.get("text", ""),
        upgrades=data.get("upgrades"), level=data.get("level", 1), ctype=data.get("type"),
        symbol=data.get("symbol"), chunk=chunk, ability=ability,
        value=chunk_value(artifact, chunk),
        # a `Choose one` card adds dmg only when that option is taken, which the VM offers only on an
        # Attack of one's own: its other options may serve at any time
        attack_modifier=uses(artifact, chunk, {Op.ADD_DMG, Op.DOUBLE_DMG})
        and not chooses_first(artifact, chunk),
        alters_dice=uses(artifact, chunk, {Op.CHANGE_DICE, Op.REROLL}),
        dice_alteration=_dice_alteration(artifact, chunk),
        prevents=uses(artifact, chunk, PREVENTING),
        prevention=prevention(artifact, chunk),
        for_anyone=uses(artifact, chunk, PREVENTING) and chooses_player(artifact, chunk),
        sets_form=sets_form(artifact, chunk),
        counts_own=counts_own(artifact, chunk),
    )


def hero_tables(artifact: Artifact) -> list[HeroTable]:
    """Every hero of the artifact, derived once and kept on the artifact."""
    tables = getattr(artifact, "_hero_tables", None)
    if tables is None:
        tables = [_hero(artifact, i, h) for i, h in enumerate(artifact.players)]
        artifact._hero_tables = tables  # derived data; the artifact itself is never changed
    return tables


def _hero(artifact: Artifact, index: int, data: dict) -> HeroTable:
    faces = {int(v): s for v, s in data["dice"]["faces"].items()}
    abilities = [_ability(artifact, a, faces, 1) for a in data["abilities"]]
    board = {a.name: a for a in abilities}
    # a minion has no deck ("Most Minions do not actively spend or gain CP", and none plays cards);
    # a Boss's is its own Upgrade and Action decks
    nobody = "minion" in data or "boss" in data
    every = [c for cs in artifact.data["card_sets"] if cs["every_hero"] for c in cs["cards"]]
    shared = [] if nobody else every
    deck = []
    for card in data["cards"] + shared:
        definition = _card(artifact, card, faces, board)
        deck += [definition] * card["copies"]
    loot_names = {x["name"] for x in artifact.data.get("loot", ())}
    loot = {} if nobody or not loot_names else {
        c["name"]: _card(artifact, c, faces, board) for cs in artifact.data["card_sets"] for c in cs["cards"]
        if c["name"] in loot_names}
    return HeroTable(index, data["name"], faces, list(data["symbols"]), abilities, deck,
                     data["components"], list(data["statuses"]), data.get("setup"), data["dice"]["count"],
                     minion=data.get("minion"), loot=loot)
