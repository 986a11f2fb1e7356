"""Opcodes: the one table of the bytecode instruction set.

Every instruction is one opcode byte followed by fixed operands whose shapes
the table gives (only CHOOSE has a variable-length jump table).  The table is
the single source of truth for the compiler, the verifier, the disassembler
and docs/bytecode.md (a test checks the document against it).  Numbers are
explicit and append-only: an artifact's meaning never changes under it.

Operand shapes (size in bytes, what the value refers to):

  u8, u16   plain numbers                    jump    u16 code offset in the chunk
  table     u8 count + count × u16 offsets   const   u8 index into the chunk's constants
  status    u16 artifact status table        symbol  u16 artifact symbol table
  comp      u8 component of the chunk's hero value   u8 index into that component's values
  side      u8 index into a dial's or token's sides, 255 = turn it over (of two sides)
  phase     u8 artifact phase table          dtype   u8 artifact damage-type table
  target    u8 TARGETS index                 die     u8 0 = the hero's dice, k = die type k-1
  ctype     u8 artifact card-type table, 255 = any card
  chunk     u16 artifact chunk table         tier    u8 0 = none, k = the status's tier k-1
  cmp       u8 COMPARISONS index             mode    u8 0 up / 1 down (rounding), or
  dir       u8 0 the player chooses / 1 up / 2 down      a change-dice mode (see CHANGE_DICE),
                                                         or a skip's (see SKIP)

Kingdoms of Valeria shapes (u8 each):
  guild     0 = any, k = guild k-1 of the artifact's Valeria rules
  color     0 = any colored die, k = colored die k-1 (the action dice, then the helper)
  section   SECTIONS index                   what    COUNTABLES index
  voidkind  VOID_KINDS index                 reward  reward k of the artifact's Valeria rules
  where     0 = anywhere on the sheet, k = SECTIONS[k-1]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

# CHANGE_DICE's modes, by number (the artifact format): what a die changed may show after
CHANGE_MODES = ("to any value", "to a value", "to a symbol", "up or down by", "up by", "down by",
                "to another die's value")


class Op(IntEnum):
    """Opcodes; the numbers are part of the artifact format."""

    # stack and arithmetic
    PUSH = 1
    POP = 2
    DUP = 3
    ADD = 4
    SUB = 5
    MUL = 6
    MIN = 7
    HALF = 8
    NOT = 9
    COMPARE = 10
    # control
    JUMP = 11
    JUMP_IF_FALSE = 12
    CHOOSE = 13
    MAY = 14
    DID = 15
    PICK = 16
    PICK_FROM = 17
    THEN = 18
    END = 19
    ACTOR = 20
    PAY_CP = 21
    SCHEDULE = 22
    INSTEAD = 23
    CHOOSE_PLAYER = 24
    PAY_ANY_CP = 25
    CHOOSE_PLAYERS = 26
    ACTOR_NTH = 27
    # dice
    ROLL = 30
    REROLL = 31
    CHANGE_DICE = 32
    HAS_SYMBOL = 33
    HAS_VALUE = 34
    MEETS = 35
    COUNT_SYMBOLS = 36
    ROLL_TOTAL = 37
    ROLL_VALUE = 38
    EXTRA_ATTEMPTS = 39
    EVENT_VALUE = 40
    ROLL_HIGHEST = 41
    PAID = 42
    REMOVED = 43
    TURN_COUNT = 44
    EXTRA_ROLL = 45
    DISCARD_RANDOM = 46
    # damage
    DEAL = 50
    RECEIVE = 51
    ADD_DMG = 52
    PREVENT = 53
    PREVENT_HALF = 54
    PREVENT_ALL = 55
    ATTACK_BECOMES = 56
    FAIL_PHASE = 57
    SKIP = 58
    DOUBLE_DMG = 59
    # health and CP
    HEAL = 60
    GAIN_CP = 61
    LOSE_CP = 62
    STEAL_CP = 63
    GET_CP = 64
    GET_HEALTH = 65
    # statuses
    GAIN = 70
    INFLICT = 71
    REMOVE = 72
    SPEND = 73
    GAIN_THIS = 74
    REMOVE_THIS = 75
    SPEND_THIS = 76
    FLIP_THIS = 77
    FLIP_TOKEN = 78
    COUNT_STATUS = 79
    DOUBLE = 80
    CRAFT = 81
    RAISE_LIMIT = 82
    TRANSFER = 83
    SPEND_ANY = 84
    RETURN_CARDS = 89  # a card op: the cards' group (90-99) is full
    # cards
    DRAW = 90
    DISCARD = 91
    SEARCH = 92
    SHUFFLE = 93
    PLACE_FOUND = 94
    PLACE_ANY = 95
    PLACE_N = 96
    USE_CARDS = 97
    HAND_SIZE = 98
    COUNT_OPPONENTS = 99
    # components
    RAISE = 100
    LOWER = 101
    SET_COMP = 102
    FLIP_DIAL = 103
    MOVE = 104
    GET_COMP = 105
    IN_FORM = 106
    SIDE_IS = 107
    # Kingdoms of Valeria: player sheets, dice, scoring
    MARK_CITIZEN = 120
    MARK_NEXT = 121
    MARK_ROAD = 122
    MARK_LAIR = 123
    MARK_TRACK = 124
    TAKE_STATUE = 125
    COUNT_SHEET = 126
    DIV = 127
    SCORE = 128
    ADD_STARS = 129
    ADJUST_DIE = 130
    FLIP_DIE = 131
    VOID = 132
    COUNT_PIPS = 133


@dataclass(frozen=True)
class OpInfo:
    """One row of the table."""

    op: Op
    operands: tuple[str, ...]
    pops: int
    pushes: int
    asks: bool  # whether it hands a request to the caller
    doc: str


SHAPE_SIZE = {
    "u8": 1, "u16": 2, "jump": 2, "const": 1, "status": 2, "symbol": 2, "comp": 1, "value": 1,
    "side": 1, "phase": 1, "dtype": 1, "target": 1, "die": 1, "ctype": 1, "chunk": 2, "tier": 1,
    "cmp": 1, "mode": 1, "dir": 1, "guild": 1, "section": 1, "what": 1, "color": 1, "voidkind": 1,
    "reward": 1, "where": 1,
}  # "table" is variable: 1 + 2 × count

TARGETS = (
    "self", "opponent", "chosen_opponent", "chosen_player", "chosen_teammate",
    "self_or_chosen_teammate", "attacker", "defender", "each_opponent",
    "chosen",  # the player CHOOSE_PLAYER chose last in this run (`on a chosen opponent`, then `them`)
    "another_player",  # TRANSFER's second target: a player other than the one the tokens leave
    "each_player",  # every player still in the game, the effect's owner first (`Each player draws 1 card`)
    "chosen_players",  # the players CHOOSE_PLAYERS chose last in this run (`up to 2 chosen opponents`)
    "leader",  # the player(s) with the most Health ("King of the Hill": `the Leader`)
    "left_opponent",  # the first opponent clockwise from the owner (`the opponent on your left`)
    "right_opponent",  # the first opponent the other way round (`the opponent on your right`)
)
# the targets that mean several players: a statement done by them is done by each (ACTOR_NTH)
MANY = frozenset({"each_opponent", "each_player", "chosen_players", "leader"})
MAX_SEATS = 6  # "5-6 Player Games": the most players a Dice Throne game has
CHOSEN = frozenset({"chosen_opponent", "chosen_player", "chosen_teammate", "self_or_chosen_teammate"})
COMPARISONS = ("at_least", "more_than", "fewer_than", "exactly")
# TURN_COUNT's operand; `attack_dealt`: the dmg her Attack dealt, read once it has landed
TURN_COUNTS = ("dealt_this_turn", "attacked_this_turn", "attack_dealt")
# THEN's operand: which break in play its window is (a `Then`, after a Defensive Roll, after the dice an
# effect rolls, before they count)
THEN_WINDOWS = ("then", "after defensive roll", "after effect roll")
AT_A_THEN, AFTER_DEFENSIVE_ROLL, AFTER_EFFECT_ROLL = range(3)
SECTIONS = ("gold", "wall")  # MARK_NEXT: sections marked in order with no choice
COUNTABLES = ("bridges", "domains", "gold_pips", "wall_stars", "lairs", "star_pips", "citizen_pips")
VOID_KINDS = ("citizen", "domain", "lair")
ANY_CARD = 255
# SKIP's phase operand: the phases the Dice Throne engine plays ("Turn Phases"), the groups it plays
# them in (`part_of`), and the whole turn; a phase it does not play could be named but never skipped
SKIPPABLE = frozenset({
    "Upkeep Phase", "Income Phase", "Main Phase (1)", "Offensive Roll Phase", "Targeting Roll Phase",
    "Defensive Roll Phase", "Main Phase (2)", "Discard Phase", "Main Phase", "Roll Phase", "turn",
})
SKIP_NEXT_TURN = 1  # SKIP's mode for `skip your next turn`: never the turn under way (0: the next one)
OTHER_SIDE = 255  # a side operand: `Flip <dial> over`: to whichever of its two sides is down


def side_after(current: int, side: int) -> int:
    """The side a dial or token shows after a flip to `side` (OTHER_SIDE: the one not up now)."""
    return 1 - current if side == OTHER_SIDE else side
PREVENTING = frozenset((Op.PREVENT, Op.PREVENT_HALF, Op.PREVENT_ALL))  # the ways dmg is prevented

_ROWS = [
    # op, operands, pops, pushes, asks, doc
    (Op.PUSH, ("u16",), 0, 1, False, "push a number"),
    (Op.POP, (), 1, 0, False, "drop the top value"),
    (Op.DUP, (), 1, 2, False, "copy the top value"),
    (Op.ADD, (), 2, 1, False, "a + b"),
    (Op.SUB, (), 2, 1, False, "a - b, never below 0"),
    (Op.MUL, (), 2, 1, False, "a × b (`2 × [Claw]`, `1 dmg per [Claw] rolled`)"),
    (Op.MIN, (), 2, 1, False, "the smaller of a and b (`up to a maximum of N`)"),
    (Op.HALF, ("mode",), 1, 1, False, "half of the top value, rounded up (0) or down (1)"),
    (Op.NOT, (), 1, 1, False, "1 if the top value is 0, else 0"),
    (Op.COMPARE, ("cmp",), 2, 1, False, "1 if a compares to b as the operand says (`at_least`, ...)"),
    (Op.JUMP, ("jump",), 0, 0, False, "continue at the offset"),
    (Op.JUMP_IF_FALSE, ("jump",), 1, 0, False, "pop; continue at the offset when it was 0"),
    (Op.CHOOSE, ("table",), 0, 0, True,
     "ask which option (`Choose one`); continue at that option's offset"),
    (Op.MAY, (), 0, 1, True, "ask yes or no (`you may`); push 1 or 0 and remember it"),
    (Op.DID, (), 0, 1, False, "push the last `you may` answer (`if you do`)"),
    (Op.PICK, ("u8", "u8"), 0, 1, True, "ask for a number from low to high (`up to N`); push it"),
    (Op.PICK_FROM, ("const",), 0, 1, True, "ask for one of the listed numbers (`1 or 2`); push it"),
    (Op.THEN, ("u8",), 0, 0, True,
     "hand a window to the caller: statuses may be spent and cards played (0 `Then`, "
     "1 after the Defensive Roll, 2 after an effect's roll)"),
    (Op.END, (), 0, 0, False, "finish the chunk"),
    (Op.ACTOR, ("target",), 0, 0, True,
     "who does the following actions (`the Attacker heals 7`); asks when a player is chosen"),
    (Op.PAY_CP, (), 1, 1, False, "pay CP if the actor has it (`spend 3 CP to ...`); push 1 if paid"),
    (Op.SCHEDULE, ("const", "chunk"), 0, 0, False,
     "run a chunk later, when the trigger in the constant happens (`at the end of the Roll Phase`)"),
    (Op.INSTEAD, (), 0, 0, False, "mark that this effect replaces what would otherwise happen"),
    (Op.SPEND_ANY, ("status",), 0, 0, True,
     "ask how many tokens of the status the actor spends, from none to all she holds (`Spend any number "
     "of Chi`); spend them (their `When spent` too); what `per token spent` counts"),
    (Op.RETURN_CARDS, (), 1, 0, True,
     "ask which of up to N cards of the actor's discard pile go back to her hand; move them"),
    (Op.PAY_ANY_CP, (), 0, 0, True,
     "ask how many CP the actor spends, from none to all she has (`Spend any amount of CP`); pay them"),
    (Op.CHOOSE_PLAYER, ("target",), 0, 1, True,
     "ask which player the target means when several could be (`a chosen player`); what follows aims "
     "at target `chosen`, so a list aimed once (`Inflict Hex, Daze and Venom on a chosen opponent`) is "
     "one choice; push 1, or 0 when no player is it (no teammate in a 1v1 game)"),
    (Op.CHOOSE_PLAYERS, ("target", "u8"), 0, 0, True,
     "ask which players, up to the count, the target's kind means (`up to 2 chosen opponents`): what "
     "follows aims at target `chosen_players`; with no more players than the count and all of them "
     "opponents, all are chosen without a question"),
    (Op.ACTOR_NTH, ("target", "u8"), 0, 1, False,
     "the statement done by each of several players (`Each player draws 1 card`), one at a time: make "
     "the target's player number k (in turn order from the effect's owner) the actor and push 1, or "
     "push 0 when there are fewer"),
    (Op.ROLL, ("die",), 1, 0, False, "roll N dice with the seeded RNG; they become the current roll"),
    (Op.REROLL, ("u8",), 1, 0, True,
     "ask which of up to N dice of the current roll to re-roll; re-roll them; bit 1: only the player's "
     "own dice (nothing when they are another's); bit 2: every die, unasked (`re-roll all of your dice`)"),
    (Op.CHANGE_DICE, ("mode", "u16", "u8"), 1, 0, True,
     "ask for up to N dice to change: mode 0 to any value, 1 to the value, 2 to a face of the symbol, "
     "3 up or down by the value, 4 up by it, 5 down by it, 6 to a value another die of the roll shows "
     "(each die its own values, on its faces); 1 last: only the player's own dice (nothing when they are "
     "another's or no die can change)"),
    (Op.HAS_SYMBOL, ("symbol", "u8"), 0, 1, False, "push 1 if the current roll shows the symbol N times"),
    (Op.HAS_VALUE, ("u8", "u8"), 0, 1, False, "push 1 if a die of the current roll shows low..high"),
    (Op.MEETS, ("const",), 0, 1, False,
     "push 1 if the current roll meets the requirement constant (kinds, straights, several symbols)"),
    (Op.COUNT_SYMBOLS, ("const",), 0, 1, False,
     "push how many dice of the current roll show a symbol in the constant's list"),
    (Op.ROLL_TOTAL, (), 0, 1, False, "push the sum of the current roll"),
    (Op.ROLL_VALUE, (), 0, 1, False, "push the value of the first die of the current roll"),
    (Op.PAID, (), 0, 1, False, "push the CP paid last in this run (`per CP spent`)"),
    (Op.REMOVED, (), 0, 1, False, "push the tokens removed last in this run (`per token removed`)"),
    (Op.TURN_COUNT, ("u8",), 0, 1, False,
     "push what the actor did this turn: 0 the dmg her effects dealt or added, 1 the times she was Attacked, "
     "2 the dmg her Attack dealt (once it has landed)"),
    (Op.EXTRA_ROLL, (), 1, 0, False,
     "N more Roll Attempts for the actor's Offensive Roll Phase under way (none outside it)"),
    (Op.DISCARD_RANDOM, (), 1, 0, False, "the actor discards N cards at random (the seeded RNG)"),
    (Op.ROLL_HIGHEST, (), 0, 1, False,
     "push the highest value of the current roll (`the highest value rolled`)"),
    (Op.EXTRA_ATTEMPTS, (), 0, 1, False, "push the Roll Attempts beyond the first this turn"),
    (Op.EVENT_VALUE, (), 0, 1, False,
     "push the number the trigger carried (e.g. how far above a dial's max)"),
    (Op.DEAL, ("dtype", "target", "u8"), 1, 0, False,
     "deal N dmg of the type to the target; last operand 1 = an isolated instance"),
    (Op.RECEIVE, ("dtype",), 1, 0, False, "the actor receives N dmg of the type"),
    (Op.ADD_DMG, (), 1, 0, False, "add N dmg to the current Attack"),
    (Op.DOUBLE_DMG, (), 0, 0, False,
     "double the current Attack's dmg: a multiplier on the Defender's incoming dmg subtotal, counted "
     "independently of the others (\"Final DMG Total\", \"Multiply & Divide\")"),
    (Op.PREVENT, (), 1, 0, False, "prevent N incoming dmg"),
    (Op.PREVENT_HALF, ("mode",), 0, 0, False, "prevent half the incoming dmg, rounded up (0) or down (1)"),
    (Op.PREVENT_ALL, (), 0, 0, False, "prevent all incoming dmg"),
    (Op.ATTACK_BECOMES, ("dtype",), 0, 0, False, "the current Attack's damage becomes the type"),
    (Op.FAIL_PHASE, ("phase",), 0, 0, False, "the phase fails and has no effect"),
    (Op.SKIP, ("phase", "mode"), 0, 0, False,
     "the actor skips their next such phase; `turn`: the rest of the actor's own turn under way (mode 0, "
     "said before its last phase), else (or mode 1, `next turn`) their next turn"),
    (Op.HEAL, (), 1, 0, False, "the actor heals N"),
    (Op.GAIN_CP, (), 1, 0, False, "the actor gains N CP"),
    (Op.LOSE_CP, (), 1, 0, False, "the actor loses N CP"),
    (Op.STEAL_CP, (), 1, 0, False, "the actor takes up to N CP from their opponent"),
    (Op.GET_CP, (), 0, 1, False, "push the actor's CP"),
    (Op.GET_HEALTH, (), 0, 1, False, "push the actor's Health"),
    (Op.GAIN, ("status", "tier"), 1, 0, False, "the actor gains N tokens of the status (or the tier)"),
    (Op.INFLICT, ("status", "target"), 1, 0, False, "inflict N tokens of the status on the target"),
    (Op.REMOVE, ("status", "target"), 1, 0, True,
     "remove N tokens of the status (of a class: any, positive, negative) from the target; asks which "
     "when a class removal has tokens of several statuses to choose from"),
    (Op.SPEND, ("status",), 1, 0, False, "the actor spends N tokens of the status"),
    (Op.GAIN_THIS, (), 0, 0, False, "the actor gains the token whose effect this is"),
    (Op.REMOVE_THIS, (), 0, 0, False, "remove the token whose effect this is"),
    (Op.SPEND_THIS, (), 0, 0, False, "spend the token whose effect this is"),
    (Op.FLIP_THIS, ("side",), 0, 0, False, "flip the token whose effect this is to the side"),
    (Op.FLIP_TOKEN, ("status", "side"), 0, 0, True, "ask which token of the status; flip it to the side"),
    (Op.COUNT_STATUS, ("status",), 0, 1, False, "push how many tokens of the status the actor has"),
    (Op.DOUBLE, ("status", "u8"), 1, 0, True,
     "ask which N tokens of the status (flags: 1 different ones, 2 exactly N, not up to N); double "
     "their effect this time"),
    (Op.CRAFT, ("status", "comp"), 0, 0, True,
     "ask which tier's blueprint to pay with cards from the zone; gain that tier"),
    (Op.RAISE_LIMIT, ("status",), 1, 0, False,
     "raise the actor's Stack Limit of the status by N, for her alone, for the rest of the game"),
    (Op.TRANSFER, ("status", "target", "target"), 1, 0, True,
     "move N tokens of the status (of a class: any, positive, negative) from the first target to the "
     "second, which gains them within its stack limit; asks which tokens when a class has several "
     "statuses, and who gains them when the second is a choice (never the one they leave)"),
    (Op.DRAW, (), 1, 0, False, "the actor draws N cards"),
    (Op.DISCARD, (), 1, 0, True, "ask which N cards the actor discards"),
    (Op.SEARCH, ("u8", "u8", "ctype"), 0, 0, True,
     "search the deck (or its top u8 cards; 0 = all) for u8 cards of the type (0 = every one found); "
     "they go to the hand, the others looked at stay where they are"),
    (Op.SHUFFLE, (), 0, 0, False, "shuffle the actor's deck with the seeded RNG"),
    (Op.PLACE_FOUND, ("comp",), 0, 0, False, "place the cards the last search found on the zone"),
    (Op.PLACE_ANY, ("comp", "ctype"), 0, 0, True, "ask which cards of the type from hand go on the zone"),
    (Op.PLACE_N, ("comp", "ctype"), 1, 0, True, "ask which N cards of the type from hand go on the zone"),
    (Op.USE_CARDS, ("comp", "ctype"), 1, 0, True,
     "ask which N cards of the type on the zone to use; run each card's chunk, then discard it"),
    (Op.HAND_SIZE, (), 0, 1, False, "push how many cards the actor holds"),
    (Op.COUNT_OPPONENTS, (), 0, 1, False, "push how many opponents the actor has"),
    (Op.RAISE, ("comp",), 1, 0, False, "increase the dial or move the track up by N"),
    (Op.LOWER, ("comp",), 1, 0, False, "reduce the dial or move the track down by N"),
    (Op.SET_COMP, ("comp", "value"), 0, 0, False, "set the component to the value (a form, a position)"),
    (Op.FLIP_DIAL, ("comp", "side"), 0, 0, False, "turn the dial to the side"),
    (Op.MOVE, ("comp", "dir"), 1, 0, True, "move the track N (asking up or down when dir is 0)"),
    (Op.GET_COMP, ("comp",), 0, 1, False, "push the component's value (a dial's number, a track's index)"),
    (Op.IN_FORM, ("comp", "value"), 0, 1, False,
     "push 1 if the component (forms, or a track) is at the value"),
    (Op.SIDE_IS, ("comp", "side"), 0, 1, False, "push 1 if the dial's side is face up"),
    (Op.MARK_CITIZEN, ("guild",), 1, 0, True,
     "N times: ask which Citizen section (of the guild) gets its leftmost open pip; each marked "
     "pip's reward runs at once (a chain, depth first)"),
    (Op.MARK_NEXT, ("section",), 1, 0, True,
     "mark the next N pips of the Gold Chart or the Wall (their rewards may ask)"),
    (Op.MARK_ROAD, (), 1, 0, True, "N times: ask which road gets its next pip (one that may be built on)"),
    (Op.MARK_LAIR, (), 1, 0, True, "N times: ask which Monster Lair gets the leftmost open pip of its "
     "leftmost open Range Block"),
    (Op.MARK_TRACK, (), 1, 0, True, "N times: ask which Guild Track gets its next pip"),
    (Op.TAKE_STATUE, (), 0, 0, True, "ask which Statue of the draft line to take (or wait for the draft)"),
    (Op.COUNT_SHEET, ("what", "guild"), 0, 1, False, "push how many of the countable the actor's sheet has"),
    (Op.DIV, (), 2, 1, False, "a ÷ b rounded down (`for every 3 Gold pips`)"),
    (Op.SCORE, (), 1, 0, False, "the actor scores N VP"),
    (Op.ADD_STARS, (), 1, 0, False, "count N more Star pips for the actor"),
    (Op.ADJUST_DIE, ("color", "u8", "u8"), 0, 0, True,
     "ask which die (if any colored die) and whether to add the first u8 or subtract the second"),
    (Op.FLIP_DIE, ("color",), 0, 0, False, "turn the colored die to its opposite side (7 - x)"),
    (Op.VOID, ("voidkind", "const"), 0, 0, False, "void the named Citizen section, Domain or Lair"),
    (Op.COUNT_PIPS, ("reward", "where"), 0, 1, False,
     "push how many pips of the reward the actor has marked, anywhere (`for every Plinth pip`) or in a "
     "section (`in your Gold Chart`)"),
]

TABLE: dict[Op, OpInfo] = {row[0]: OpInfo(*row) for row in _ROWS}

# Which game's state an instruction needs: a Valeria chunk runs against player sheets, a
# Dice Throne chunk against heroes; the stack and control instructions run in both.
VALERIA_OPS = frozenset(op for op in Op if op >= Op.MARK_CITIZEN)
EITHER_GAME_OPS = frozenset({Op.PUSH, Op.POP, Op.DUP, Op.ADD, Op.SUB, Op.MUL, Op.MIN, Op.HALF, Op.NOT, Op.DIV,
                             Op.COMPARE, Op.JUMP, Op.JUMP_IF_FALSE, Op.CHOOSE, Op.MAY, Op.DID, Op.PICK,
                             Op.PICK_FROM, Op.END})

# The kinds of component each component operand accepts (the verifier holds code to them).
COMPONENT_KINDS: dict[Op, tuple[str, ...]] = {
    Op.CRAFT: ("zone",), Op.PLACE_FOUND: ("zone",), Op.PLACE_ANY: ("zone",), Op.PLACE_N: ("zone",),
    Op.USE_CARDS: ("zone",), Op.RAISE: ("dial", "track"), Op.LOWER: ("dial", "track"),
    Op.SET_COMP: ("forms", "dial", "track"), Op.FLIP_DIAL: ("dial",), Op.MOVE: ("track",),
    Op.GET_COMP: ("dial", "track", "forms"), Op.IN_FORM: ("forms", "track"), Op.SIDE_IS: ("dial",),
}


def instruction_size(code: bytes, offset: int) -> int:
    """Bytes taken by the instruction at `offset` (opcode included); -1 if it runs off the end."""
    info = TABLE.get(code[offset])  # type: ignore[call-overload]
    if info is None:
        return -1
    size = 1
    for shape in info.operands:
        if shape == "table":
            if offset + size >= len(code):
                return -1
            size += 1 + 2 * code[offset + size]
        else:
            size += SHAPE_SIZE[shape]
    return size if offset + size <= len(code) else -1


def markdown_table() -> str:
    """The table as Markdown, for docs/bytecode.md (a test keeps the two equal)."""
    rows = ["| # | opcode | operands | stack | asks | meaning |", "|---|---|---|---|---|---|"]
    for info in sorted(TABLE.values(), key=lambda i: i.op.value):
        operands = " ".join(info.operands) or "—"
        stack = f"{info.pops} → {info.pushes}" if info.pops or info.pushes else "—"
        rows.append(f"| {info.op.value} | `{info.op.name}` | {operands} | {stack} | "
                    f"{'yes' if info.asks else ''} | {info.doc.replace('|', '/')} |")
    return "\n".join(rows)


_AIMED = frozenset(TARGETS.index(who) for who in ("opponent", "defender"))


def aims_at_defender(op: Op, operands: tuple) -> bool:
    """Whether the instruction names the Attack's Defender (a target operand `opponent` or `the
    Defender`): what needs a target in a Targeting Roll Phase ("5. Targeting Roll Phase")."""
    shapes = TABLE[op].operands
    return any(shape == "target" and value in _AIMED
               for shape, value in zip(shapes, operands, strict=False))
