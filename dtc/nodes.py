"""Nodes: the typed AST of the effect language.

Every node is a frozen dataclass with its source position (`span`, offsets
into the effect text) last; spans never take part in equality, so tests can
build expected trees without positions.  `to_json` turns a tree into plain
data that `schemas/effect.schema.json` describes; the checker validates every
parsed effect against that schema.

Names (statuses, components, phases, damage types) are kept as written; the
checker resolves them against the content.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Offsets:
    """Character offsets [start, end) into the effect text."""

    start: int
    end: int


def _span() -> Any:
    return field(default=None, compare=False, repr=False)


# ------------------------------------------------------------------ amounts


@dataclass(frozen=True, slots=True)
class Number:
    """A fixed number: `3`."""

    value: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class UpTo:
    """The player picks 0..value: `up to 2`."""

    value: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Either:
    """The player picks one of the numbers: `1 or 2`."""

    options: tuple[int, ...]
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Times:
    """A number times the dice showing a symbol: `2 × [Claw]`."""

    each: int
    symbols: tuple[str, ...]
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Param:
    """A verb parameter inside a verb's `means` text: `{n}`."""

    name: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class SymbolsRolled:
    """Countable: dice of the current roll showing one of the symbols."""

    symbols: tuple[str, ...]
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class EveryNRolled:
    """Countable: whole groups of `n` dice showing the symbols: `1 CP for every 2 [Claw] rolled`."""

    n: int
    symbols: tuple[str, ...]
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Excess:
    """Countable: how far a component would have gone above `limit`."""

    limit: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ExtraRollAttempts:
    """Countable: Roll Attempts beyond the first this Offensive Roll Phase."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class TokensHeld:
    """Countable: the tokens of a status a player has: `per Fire Mastery token you have`, `for each
    Hex on your opponent` (`holder`: a target, `self` for you)."""

    status: str
    holder: str = "self"
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class CardsInHand:
    """Countable: the cards in the player's hand: `per card in your hand`."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Sum:
    """Amounts added up: `1 + 2 × [Heart]`."""

    terms: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class CPSpent:
    """Countable: the CP the last payment of the effect paid: `deal 1 dmg per CP spent`."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class TokensRemoved:
    """Countable: the tokens the last removal of the effect removed: `2 dmg per token removed`; or
    spent (`per Chi spent`: `status`, the status named, which must be the one spent)."""

    status: str | None = None
    span: Offsets | None = _span()


Countable = (SymbolsRolled | EveryNRolled | Excess | ExtraRollAttempts | TokensHeld | CardsInHand | CPSpent
             | TokensRemoved)


@dataclass(frozen=True, slots=True)
class Per:
    """`amount` for each `count`: `1 dmg per [Claw] rolled`."""

    amount: Amount
    count: Countable
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Capped:
    """An amount limited to `cap`: `... up to a maximum of 2 dmg`."""

    amount: Amount
    cap: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class TotalRoll:
    """The sum of the dice of the current roll."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ValueRolled:
    """The value of the single die just rolled; `highest`: the highest value of the dice rolled."""

    highest: bool = False
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ComponentValue:
    """The current value of a dial or track: `the Moon Dial value`."""

    component: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Half:
    """Half of a quantity, rounded as stated (the rulebooks round up)."""

    of: Amount
    rounding: str  # "up" | "down"
    span: Offsets | None = _span()


Amount = (
    Number | UpTo | Either | Times | Param | Per | Capped | TotalRoll | ValueRolled |
    ComponentValue | Half
)

# ----------------------------------------------------------- dice tests


@dataclass(frozen=True, slots=True)
class SymbolNeed:
    """At least `count` dice showing `symbol`."""

    symbol: str
    count: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class OfAKind:
    """`count` dice showing the same number; with `symbol`, a number on that symbol's faces."""

    count: int
    symbol: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Straight:
    """`small` (4 sequential values) or `large` (5)."""

    size: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ValueRange:
    """A die showing a value in [low, high]: `On 1-2`, `On 6`."""

    low: int
    high: int
    span: Offsets | None = _span()


ReqItem = SymbolNeed | OfAKind | Straight


@dataclass(frozen=True, slots=True)
class Requirement:
    """What dice must show: all items at once, each on its own dice."""

    items: tuple[ReqItem, ...]
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AnyOf:
    """`On 5 or 6`, `On [Claw] or [Paw]`, `On 1, 3 or 5`: any of the tests holds."""

    tests: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class OtherResult:
    """`On any other result`: none of the `On` tests before it (in the same sentence run) held."""

    tests: tuple
    span: Offsets | None = _span()


DiceTest = Requirement | ValueRange | AnyOf | OtherResult

# ------------------------------------------------------------- triggers


@dataclass(frozen=True, slots=True)
class During:
    """`During your Upkeep Phase`; `During your next Upkeep Phase` (`next`: once, so only where a
    trigger schedules its sentence, in a card or an ability)."""

    phase: str
    next: bool = False
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class TurnEdge:
    """`At the start/end/conclusion of your turn`; `whose`: `your` (every one of her turns), `next`
    (`of your next turn`: once), `this` (`At the end of this turn`: the turn under way, whoever's)."""

    edge: str
    whose: str = "your"
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class PhaseEdge:
    """`At the end of the Roll Phase`, `At the conclusion of your Offensive Roll Phase`."""

    edge: str
    phase: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Conclude:
    """`When you conclude your Offensive Roll Phase [with an Attack]`."""

    phase: str
    with_attack: bool
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Attacked:
    """`When Attacked [by an opponent] [with normal dmg | with any type of dmg except X]`."""

    by_opponent: bool
    damage_type: str | None
    except_type: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AttackLanded:
    """Once this Attack's dmg has landed: where `If this Attack deals at least 5 dmg, ...` is read
    (never written: the resolver puts the sentence there)."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Attacking:
    """`When Attacking`: your Offensive Ability is an Attack."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Spent:
    """`When spent`: a status token is spent."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class GainedAtLimit:
    """`If you gain this token while at Stack Limit`."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Reads:
    """`Whenever Moon Dial reads 5`."""

    component: str
    value: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class WouldExceed:
    """`If Moon Dial would be increased above 5`."""

    component: str
    limit: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AnyTime:
    """`At any time`."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class DamagedByPhase:
    """`When you receive dmg from an opponent's Offensive Roll Phase`."""

    phase: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Damaged:
    """`When you receive dmg` / `When you are dealt dmg` (from any source: when her Health falls by
    dmg), `When you receive dmg from a status effect` (a status effect's dmg among it)."""

    from_status: bool = False
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Gained:
    """`When you gain this token` (a status effect's own text)."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class SpendsStatus:
    """`When you spend Chi` / `Whenever you spend a Chi token`."""

    status: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Healed:
    """`When you heal`: when her Health rises."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class PlaysCard:
    """`When you play a card` (`kind`: `an Action card`, `a Roll Phase card`: a card type or a timing as
    the ruleset names it)."""

    kind: str | None = None
    span: Offsets | None = _span()


Trigger = (
    During | TurnEdge | PhaseEdge | Conclude | Attacked | Attacking | AttackLanded | Spent | GainedAtLimit |
    Reads | WouldExceed | AnyTime | DamagedByPhase | Damaged | Gained | SpendsStatus | Healed | PlaysCard
)

# ----------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class InForm:
    """`If in Wolf Form` / `While in Wolf Form`; `If not in Wolf Form` (negated)."""

    form: str
    negated: bool = False
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AtPosition:
    """`If <track> is at <position>`: a track's token is at a position."""

    component: str
    position: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class YouHave:
    """`If you have [more than] 2 Plating` (what: a status, or opponents, CP, cards); `If Heat is at
    least 4` (kind `component`: a dial's value); `If your opponent has Scorch` (`opponent_status`)."""

    compare: str  # at_least | more_than | fewer_than | exactly
    count: int
    what: str
    kind: str  # status | opponents | cp | cards | component | opponent_status | opponent_cp | opponent_cards
    # | roll_total (the dice rolled, added up) | dealt_this_turn (dmg) | attacked_this_turn (times)
    # | health (hers) | opponent_health (the holder's) | health_than (hers against the holder's)
    # whose they are, for the opponent_* kinds (`If the Defender has Hex`, `If they have Hex`): a target
    holder: str = "self"
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class YouDid:
    """`If you do` / `If you do not`: whether the last `you may` was taken."""

    negated: bool
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class OnSide:
    """`If Heat is on the Hot side`: which side of a two-sided dial is face up."""

    component: str
    side: str
    span: Offsets | None = _span()


Condition = InForm | AtPosition | YouHave | YouDid | OnSide

# ----------------------------------------------------------- references


@dataclass(frozen=True, slots=True)
class NamedStatus:
    """`2 Hex`, `Mend` (count is None when not written)."""

    name: str
    count: Amount | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ThisToken:
    """`this token` / `it` inside a status effect's own text."""

    span: Offsets | None = _span()


StatusRef = NamedStatus | ThisToken
THESE_TOKENS = "these tokens"  # `1 of these tokens` as parsed: the checker names the status whose text it is

# Targets are plain strings: self, opponent, chosen_opponent, chosen_player,
# chosen_teammate, self_or_chosen_teammate, attacker, defender, each_opponent.
TARGETS = (
    "self", "opponent", "chosen_opponent", "chosen_player", "chosen_teammate",
    "self_or_chosen_teammate", "attacker", "defender", "each_opponent",
    "chosen",  # the player a `chosen` target before it chose (the text's `them`, a list's later items)
    "them",  # as parsed: the player named last; the checker makes it that target, or `chosen`
    "another_player",  # a transfer's other player: one it does not come from
    "each_player",  # every player (`all players`, `each player`), the effect's owner first
    "chosen_players",  # the players a `ChooseUpTo` chose (`up to 2 chosen opponents`)
    "leader",  # the player(s) with the most Health (`the Leader`: "King of the Hill")
    "left_opponent",  # `the opponent on your left` ("5. Targeting Roll Phase": seats have a left)
    "right_opponent",  # `the opponent on your right`
)

# ----------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal damage: `deal 6 undefendable dmg [to a chosen opponent]`."""

    amount: Amount
    damage_type: str | None
    target: str | None
    isolated: bool
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Receive:
    """Damage to yourself: `receive 1 dmg`."""

    amount: Amount
    damage_type: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AddDamage:
    """Add to the current Attack's damage: `add 2 dmg`."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Heal:
    """`heal 7`."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class GainCP:
    """`gain 1 CP`."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class LoseCP:
    """`lose 1 CP`."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class StealCP:
    """`steal 1 CP` (as much as the opponent has)."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Gain:
    """`gain 2 Hex`."""

    status: StatusRef
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Inflict:
    """`inflict Venom [on a chosen opponent]`."""

    status: StatusRef
    target: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Remove:
    """`remove this token`, `remove 1 Venom [from a chosen player]`, `remove all Venom` (every)."""

    status: StatusRef
    target: str | None
    every: bool = False
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class TierEffects:
    """`they may activate the effects below based on the Plating that is on them`: a slotted status's
    moment for its tiers' effects, printed once above them (each tier's own line says what it does)."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Transfer:
    """`transfer 1 negative status effect to a chosen opponent`, `transfer 1 status effect token from a
    chosen player to another player`, `steal 1 positive status effect from a chosen opponent` (to you):
    tokens leave one player and the other gains them (within her stack limit)."""

    status: StatusRef
    source: str | None  # whose tokens they are (None: yours)
    dest: str  # who gains them (`another_player`: a player other than the one they come from)
    every: bool = False  # `transfer all X`: every token (of the status or class)
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Spend:
    """`spend this token`."""

    status: StatusRef
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Draw:
    """`draw 1 card`."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Discard:
    """`discard 1 card` (of the player's choice); `discard your hand` (WHOLE_HAND: every card)."""

    amount: Amount
    span: Offsets | None = _span()


WHOLE_HAND = 99  # `discard your hand`: more cards than any hand holds


@dataclass(frozen=True, slots=True)
class ReturnCards:
    """`Return 1 card from your discard pile to your hand` (the player picks which)."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class DrawUntil:
    """`Draw cards until you have 4 cards in hand` (none when she has that many already)."""

    count: int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Search:
    """`search your deck for any one Ore card` / `search the top 2 cards of your deck for all Ore
    cards` (count None: every one it finds)."""

    top: int | None
    count: int | None
    card_type: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Shuffle:
    """`shuffle your deck`."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class FoundCards:
    """`it` / `the found Ore cards`: the cards the last search found."""

    card_type: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class HandCards:
    """`1 Ore card from your hand`; amount None means `any number of`."""

    amount: Amount | None
    card_type: str | None
    span: Offsets | None = _span()


CardRef = FoundCards | HandCards


@dataclass(frozen=True, slots=True)
class Place:
    """`place it on The Kiln`."""

    cards: CardRef
    zone: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class UseCards:
    """`use 1 Ore card from The Kiln`: resolve the card's effect, then discard it."""

    amount: Amount
    card_type: str | None
    zone: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Craft:
    """`craft Plating from The Kiln`: pay a slot tier's blueprint with cards of a zone."""

    status: str
    zone: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Prevent:
    """`prevent 2 dmg`."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class PreventHalf:
    """`prevent half of the incoming dmg (rounded up)`."""

    rounding: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class PreventAll:
    """`prevent all incoming dmg`."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Roll:
    """`roll 1 die` / `roll 1 Storm die`: a new roll becomes the current roll."""

    amount: Amount
    die: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Reroll:
    """`re-roll one of these dice` / `re-roll up to 2 of your dice`."""

    amount: Amount
    own: bool = False  # `of your dice`: only the player's own dice, not an opponent's
    every: bool = False  # `re-roll all of your dice`: every die, no choice
    span: Offsets | None = _span()


ALL_DICE = 99  # `re-roll any number of your dice`: up to every die there is


@dataclass(frozen=True, slots=True)
class ChangeDice:
    """`change 1 die to any value` / `... to 6` / `change 1 of your dice to [Claw]`."""

    amount: Amount
    face: str | int | None  # None: any value; int: a value; str: a symbol
    own: bool = False  # `1 of your dice`: only the player's own dice, not an opponent's
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AdjustDice:
    """`increase or decrease 1 die by 1` / `increase 1 of your dice by 2` / `set 1 die to the value of
    another die`: each die changed has values of its own to take (a 6 cannot go up)."""

    amount: Amount
    how: str  # "up or down" | "up" | "down" | "copy" (to a value another die of the roll shows)
    by: int = 0  # how far it moves (0 for a copy)
    own: bool = False  # `1 of your dice`: only the player's own dice, not an opponent's
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Increase:
    """`increase Moon Dial by 2`."""

    component: str
    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Decrease:
    """`reduce Moon Dial by 4`."""

    component: str
    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class SetValue:
    """`set Form to Wolf Form`."""

    component: str
    value: str | int
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Flip:
    """Flip a dial or a token: `flip Moon Dial to the Night side`, `flip it to the "1" side`.

    what: this_token | a_token | status_token | component; name is the status or
    component for the last two.
    """

    what: str
    name: str | None
    side: str | None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Move:
    """`move Stance up 2`; no direction means the player chooses."""

    component: str
    direction: str | None
    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Skip:
    """`skip your Income Phase`."""

    phase: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class DoubleEffect:
    """`double the effect of up to 2 different Plating`."""

    status: str
    amount: Amount
    different: bool
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class AttackBecomes:
    """`the Attack becomes undefendable`."""

    damage_type: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class PhaseFails:
    """`your Offensive Roll Phase fails`: it has no effect of any kind."""

    phase: str
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class VerbCall:
    """A phrase to match against the hero's verbs: `take 1 Step`.

    The parser fills `text`; the checker fills `verb` (the matched pattern) and
    `body` (the expansion of its `means`).
    """

    text: str
    verb: str | None = None
    body: tuple = ()
    joined: bool = False  # right after `and`/`&`: may continue the verb before it
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Item:
    """`2 Hex` after `and`: continues the verb before it (resolved by the checker)."""

    count: int
    name: str
    joined: bool = False
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Actor:
    """A statement done by someone else: `the Attacker heals 7`."""

    target: str
    action: Stmt
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class DoubleAttack:
    """`Double the dmg of this Attack`: a multiplier on the Attack's incoming dmg ("Final DMG Total")."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ChooseUpTo:
    """`Deal 2 dmg to up to 2 chosen opponents`: up to `count` players of the kind `who`
    (`chosen_opponent` or `chosen_player`) are chosen once, and `body` aims at them
    (`chosen_players`)."""

    count: int
    who: str
    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class RaiseStackLimit:
    """`Increase your Evasive stack limit by 1`: for that player only, for the rest of the game (Marvel
    rulebook, "Increasing Stack Limit")."""

    status: str
    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ExtraRollAttempt:
    """`Perform 1 additional Roll Attempt`: one more this Offensive Roll Phase."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class DiscardRandom:
    """`Discard 1 random card` / `discard 1 card at random`: no choice."""

    amount: Amount
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class SpendAnyCP:
    """`Spend any amount of CP`: the player picks how many (none to all she has) and pays them."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class SpendAnyTokens:
    """`Spend any number of Chi [to ...]`: the player picks how many of her tokens (none to all) and
    spends them; `action` is what follows `to`; `per Chi spent` counts them."""

    status: str
    action: tuple = ()
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Cost:
    """`spend 3 CP to draw 1 card [and ...]`; `spend 1 Brew to add 2 dmg` (status: tokens, not CP).
    Every clause joined after the first is part of what the payment buys."""

    cp: Amount  # how many CP, or tokens of `status`
    action: tuple  # the statements done once paid
    status: str | None = None
    span: Offsets | None = _span()


# ---------------------------------------------------------- control flow


@dataclass(frozen=True, slots=True)
class Then:
    """`Then`: a window to spend statuses and play cards; what follows resolves after."""

    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class If:
    """`If in Wolf Form, ...`; `orelse` is what `Otherwise, ...` does when the condition fails."""

    condition: Condition
    body: tuple
    orelse: tuple = ()
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class On:
    """`On [Claw], ...`: once if the current dice pass the test."""

    test: DiceTest
    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class ForEach:
    """`For each [Boot] or [Pierce] rolled, ...`: repeat the body."""

    count: Countable
    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class May:
    """`You may ...`: the player decides."""

    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Must:
    """`You must ...`: written on the card for emphasis; resolves like plain text."""

    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Choose:
    """`Choose one: ..., or ...`: exactly one option resolves; `Choose two: ...`: `count` different
    options, one after the other, in the order chosen."""

    options: tuple
    count: int = 1
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Delayed:
    """A trigger inside an effect: `at the end of the Roll Phase, reduce Moon Dial by 4`."""

    trigger: Trigger
    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Instead:
    """`... instead`: replaces what would otherwise happen."""

    body: tuple
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Label:
    """What the text says the card or token is: `Attack Modifier.`, `Ultimate.`, `Persistent.`,
    `Stack Limit: 2.` (`value`); the checker holds it against the YAML fields the engine reads."""

    name: str  # attack modifier | ultimate | persistent | stack limit
    value: int | None = None
    span: Offsets | None = _span()


@dataclass(frozen=True, slots=True)
class Effect:
    """A whole effect text: an optional trigger and limit, then statements in order, and the labels
    the text gives itself."""

    trigger: Trigger | None
    once_per_turn: bool
    body: tuple
    labels: tuple = ()
    span: Offsets | None = _span()


Stmt = (
    Deal | Receive | AddDamage | Heal | GainCP | LoseCP | StealCP | Gain | Inflict | Remove |
    Transfer | TierEffects | Spend | Draw | Discard | Search | Shuffle | Place | UseCards | Craft |
    Prevent | PreventHalf | PreventAll | Roll | Reroll | ChangeDice | AdjustDice | Increase | Decrease |
    SetValue | Flip | Move |
    Skip | DoubleEffect | AttackBecomes | PhaseFails | VerbCall | Item | Actor | SpendAnyCP |
    RaiseStackLimit | ExtraRollAttempt | DiscardRandom | Cost | Then | If | On |
    ForEach | May | Must | Choose | Delayed | Instead | ChooseUpTo | DoubleAttack | SpendAnyTokens |
    DrawUntil | ReturnCards
)

# what no player does, or what joins the clause before it: a subject said before (`the Attacker
# adds 1 dmg to the Attack and ...`) is not carried onto these
NO_SUBJECT = (Item, VerbCall, AttackBecomes, PhaseFails, Instead)

NODE_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in [
        Number, UpTo, Either, Times, Param, SymbolsRolled, EveryNRolled, Excess, ExtraRollAttempts,
        TokensHeld,
        CardsInHand, CPSpent, TokensRemoved, Sum, Per, Capped, SpendAnyCP, RaiseStackLimit,
        ExtraRollAttempt, DiscardRandom,
        TotalRoll, ValueRolled, ComponentValue, Half, SymbolNeed, OfAKind, Straight, ValueRange, AnyOf,
        OtherResult,
        Requirement, During, TurnEdge, PhaseEdge, Conclude, Attacked, Attacking, AttackLanded, Spent,
        GainedAtLimit, Reads, WouldExceed, AnyTime, DamagedByPhase, Damaged, Gained, SpendsStatus,
        Healed, PlaysCard,
        InForm, AtPosition, YouHave, YouDid, OnSide,
        NamedStatus, ThisToken, Deal, Receive, AddDamage, Heal, GainCP, LoseCP, StealCP, Gain,
        Inflict, Remove, Transfer, TierEffects, Spend, Draw, Discard, Search, Shuffle, FoundCards,
        HandCards, Place,
        UseCards, Craft, Prevent, PreventHalf, PreventAll, Roll, Reroll, ChangeDice, AdjustDice,
        Increase,
        Decrease, SetValue, Flip, Move, Skip, DoubleEffect, AttackBecomes, PhaseFails, VerbCall,
        Item, Actor, Cost, Then, If, On, ForEach, May, Must, Choose, Delayed, Instead, Label, Effect,
        ChooseUpTo, DoubleAttack, SpendAnyTokens, DrawUntil, ReturnCards,
    ]
}


# ----------------------------------------------------------------- walking


def children(node: Any):
    """Every direct child node of `node` (inside fields, tuples and nested tuples)."""
    for f in fields(node):
        if f.name == "span":
            continue
        yield from _nodes_in(getattr(node, f.name))


def _nodes_in(value: Any):
    if is_dataclass(value) and not isinstance(value, Offsets):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


def walk(node: Any):
    """`node` and all nodes below it, parents first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


def respan(node: Any, span: Offsets | None) -> Any:
    """A copy of the tree with every span set to `span` (used for verb expansions)."""
    if isinstance(node, tuple):
        return tuple(respan(n, span) for n in node)
    if not is_dataclass(node) or isinstance(node, Offsets):
        return node
    changes = {
        f.name: respan(getattr(node, f.name), span) for f in fields(node) if f.name != "span"
    }
    return replace(node, span=span, **changes)


def remap(node: Any, where) -> Any:
    """A copy of the tree with each span moved by `where(start, end) -> (start, end)` (the phrasebook's
    map from the text as read back to the printed text)."""
    if isinstance(node, tuple):
        return tuple(remap(x, where) for x in node)
    if not is_dataclass(node) or isinstance(node, Offsets):
        return node
    changes = {f.name: remap(getattr(node, f.name), where) for f in fields(node) if f.name != "span"}
    span = getattr(node, "span", None)
    if span is not None:
        changes["span"] = Offsets(*where(span.start, span.end))
    return replace(node, **changes)


# ------------------------------------------------------------------ to JSON


def to_json(node: Any) -> Any:
    """Plain data for a tree: `{"node": "Deal", ...fields, "span": [start, end]}`."""
    if isinstance(node, tuple):
        return [to_json(n) for n in node]
    if not is_dataclass(node):
        return node
    out: dict[str, Any] = {"node": type(node).__name__}
    for f in fields(node):
        value = getattr(node, f.name)
        if f.name == "span":
            if value is not None:
                out["span"] = [value.start, value.end]
            continue
        out[f.name] = to_json(value)
    return out


# -------------------------------------------------------------------- dump

_BLOCK_FIELDS = ("body", "options", "orelse")


def dump(node: Any, indent: str = "") -> str:
    """A readable multi-line listing of a tree: nested bodies indented (like `ast.dump`)."""
    if isinstance(node, tuple):
        return "\n".join(dump(x, indent) for x in node)
    head = indent + _inline(node, skip_blocks=True)
    lines = [head]
    for f in fields(node):
        value = getattr(node, f.name)
        if f.name not in _BLOCK_FIELDS or not value:
            continue
        if f.name == "orelse":
            lines.append(f"{indent}  otherwise:")
            lines.append(dump(value, indent + "    "))
        elif f.name == "options":
            for i, option in enumerate(value, 1):
                lines.append(f"{indent}  option {i}:")
                lines.append(dump(option, indent + "    "))
        else:
            lines.append(dump(value, indent + "  "))
    if isinstance(node, (Actor, Cost)) or (isinstance(node, SpendAnyTokens) and node.action):
        lines.append(dump(node.action, indent + "  "))
    return "\n".join(lines)


_QUIET_WHEN_EMPTY = ("joined", "labels", "orelse", "negated", "highest")  # shown only when set


def _inline(node: Any, skip_blocks: bool = False) -> str:
    if isinstance(node, tuple):
        return "(" + ", ".join(_inline(x) for x in node) + ")"
    if not is_dataclass(node):
        return repr(node)
    parts = []
    for f in fields(node):
        if f.name == "span" or (skip_blocks and f.name in _BLOCK_FIELDS + ("action",)):
            continue
        value = getattr(node, f.name)
        if f.name in _QUIET_WHEN_EMPTY and not value:
            continue
        parts.append(f"{f.name}={_inline(value)}")
    return f"{type(node).__name__}(" + ", ".join(parts) + ")"
