"""VM: a verified chunk, a game state and a seeded RNG in; requests out, an outcome back.

The VM is a generator.  It never asks anyone anything: every decision (an
option of `Choose one`, `you may`, `up to N`, which die to re-roll, which
player, which card) and every `Then` window is yielded as a `Request`; the
caller sends the answer back in.  Bots, a terminal player, tests and replays
all drive the same code:

    run = vm.run(chunk, ctx, state, rng)
    request = next(run)               # StopIteration.value is the Outcome
    while True:
        request = run.send(answer(request))

Effects and queries go to the `GameState` the caller passes (see its
docstring); dice come only from the RNG passed in; every run has an
instruction budget.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from dtc.artifact import Artifact
from dtc.dice import meets as dice_meets
from dtc.nodes import WHOLE_HAND, OfAKind, Requirement, Straight, SymbolNeed
from dtc.opcodes import (
    AFTER_EFFECT_ROLL,
    CHOSEN,
    COUNTABLES,
    OTHER_SIDE,
    PREVENTING,
    SECTIONS,
    SKIP_NEXT_TURN,
    TABLE,
    TARGETS,
    THEN_WINDOWS,
    VALERIA_OPS,
    VOID_KINDS,
    Op,
    aims_at_defender,
)

DEFAULT_BUDGET = 10_000
MAX_DICE = 99  # no effect rolls more; a crafted artifact asking for more is refused at run time
# The most frequent opcodes as plain ints: the dispatch loop compares against these.
_PUSH, _JUMP_IF_FALSE, _END, _DEAL = int(Op.PUSH), int(Op.JUMP_IF_FALSE), int(Op.END), int(Op.DEAL)
_HAS_SYMBOL, _HAS_VALUE, _GAIN, _THEN = int(Op.HAS_SYMBOL), int(Op.HAS_VALUE), int(Op.GAIN), int(Op.THEN)
_JUMP, _ROLL, _ADD_DMG, _HEAL = int(Op.JUMP), int(Op.ROLL), int(Op.ADD_DMG), int(Op.HEAL)
_INFLICT, _RAISE, _LOWER, _MAY = int(Op.INFLICT), int(Op.RAISE), int(Op.LOWER), int(Op.MAY)
_GAIN_CP, _INSTEAD, _CHOOSE = int(Op.GAIN_CP), int(Op.INSTEAD), int(Op.CHOOSE)
_ACTOR_NTH = int(Op.ACTOR_NTH)
_ASKS = frozenset(int(op) for op, info in TABLE.items() if info.asks)
# Valeria marks that ask where: (options method, mark method, what the player is choosing)
_SHEET_CHOICES = {
    Op.MARK_CITIZEN: ("citizen_options", "mark_citizen", "mark a Citizen"),
    Op.MARK_ROAD: ("road_options", "mark_road", "mark a Road pip"),
    Op.MARK_LAIR: ("lair_options", "mark_lair", "mark a Lair pip"),
    Op.MARK_TRACK: ("track_options", "mark_track", "mark a Guild Track pip"),
}
# `can_start`: the first steps it reads (alone; or after the number they take; or a condition)
_CHECKED_FIRST = frozenset(int(op) for op in (Op.MOVE, Op.SET_COMP, Op.FLIP_DIAL, Op.PLACE_ANY,
                                              Op.PLACE_FOUND, Op.CRAFT, Op.DOUBLE_DMG))
_CHECKED_AFTER = frozenset(int(op) for op in (Op.PAY_CP, Op.DISCARD, Op.USE_CARDS, Op.PLACE_N, Op.MOVE,
                                              Op.SPEND, Op.ADD_DMG, Op.REMOVE, Op.GAIN, Op.INFLICT,
                                              Op.STEAL_CP, Op.PREVENT, Op.PREVENT_HALF, Op.PREVENT_ALL,
                                              Op.RETURN_CARDS))
_YES = ("yes",)  # `_check_at`: nothing to read, it can
# steps that only read, roll, jump or break: an effect made of these and `the Attack becomes <type>` does
# that
_ONLY_READS = frozenset(int(op) for op in (Op.PUSH, Op.ROLL, Op.THEN, Op.HAS_VALUE, Op.HAS_SYMBOL,
                                           Op.JUMP, Op.JUMP_IF_FALSE, Op.END, Op.MAY))
_PREVENTS = frozenset(int(op) for op in PREVENTING)
_GUARD_READS = frozenset(int(op) for op in (Op.PUSH, Op.PICK, Op.PICK_FROM, Op.IN_FORM, Op.GET_COMP,
                                            Op.COUNT_STATUS, Op.GET_CP, Op.HAND_SIZE, Op.NOT, Op.COMPARE,
                                            Op.ACTOR))  # ACTOR: whose state a condition reads
MAX_CALL_DEPTH = 24  # cards within cards, and Valeria reward chains (a pip's reward marks a pip...)


def _last_step(steps: list, at: int) -> bool:
    """Whether the step at `at` is the last of its effect: nothing follows it before a `Then`, the
    end, or a jump out of the block it is in."""
    return at + 1 == len(steps) or steps[at + 1][0] in (_END, _JUMP, _THEN)


def compared(x: int, y: int, how: int) -> int:
    """COMPARE: 1 if `x` is at least / more than / fewer than / exactly `y` (COMPARISONS order)."""
    return int((x >= y, x > y, x < y, x == y)[how])


class VMError(Exception):
    """A run could not finish (budget exhausted, a bad answer); the message says why."""


# --------------------------------------------------------------- requests


@dataclass(slots=True)  # not frozen: frozen dataclasses are slow to make, and games make many
class Request:
    """Something the VM needs from the caller. `owner` names the effect asking;
    `player` is who decides (the player doing the action at that point)."""

    owner: str
    player: int


@dataclass(slots=True)
class Window(Request):
    """A break in play (`Then`, or after a Defensive Roll): statuses may be spent and
    cards played. Answer: anything (ignored)."""

    reason: str


@dataclass(slots=True)
class FindDefender(Request):
    """The Attack's effects reach the first one that needs a target ("5. Targeting Roll Phase"): the
    engine finds the Defender (sets the run's `defender`) before it resolves. Answer: anything."""


@dataclass(slots=True)
class ChooseOption(Request):
    """`Choose one`. Answer: the index of an option."""

    options: tuple[str, ...]
    question: str = "choose one"  # what is asked (`which resolves first` for an order)
    # the effect's chunk and where each option's steps are (`VM.option_steps`), for bots weighing
    # them; not part of the question (a log leaves it out)
    steps_at: tuple[int, tuple[int, ...]] | None = field(default=None, metadata={"log": False})
    # every option as printed, and which of them are offered (`options`): a player sees the same
    # numbers whichever could do nothing now; for the terminal, not part of the question either
    printed: tuple[str, ...] = field(default=(), metadata={"log": False})
    offered: tuple[int, ...] = field(default=(), metadata={"log": False})


@dataclass(slots=True)
class YesNo(Request):
    """`You may ...`. Answer: True or False."""

    prompt: str
    # the whole effect as written, for the terminal (what happens either way); not part of the question
    text: str = field(default="", metadata={"log": False})


@dataclass(slots=True)
class PickNumber(Request):
    """`up to N` / `1 or 2`. Answer: one of `choices`."""

    choices: tuple[int, ...]
    prompt: str


@dataclass(slots=True)
class ChooseDice(Request):
    """Which dice of `roll` (indices) to re-roll or change; at most `most`. For a change,
    answer (index, new value) pairs, the value one of `values`."""

    roll: tuple[int, ...]
    most: int
    purpose: str  # "re-roll" | "change"
    values: tuple[int, ...] = ()  # a change: every value some die may take
    options: tuple[tuple[int, ...], ...] = ()  # a change: the values each die may take (none: it stays)

    def allowed(self, die: int) -> tuple[int, ...]:
        """The values die `die` may be changed to (a request made without `options`: any of `values`)."""
        return self.options[die] if self.options else self.values

    def open_dice(self) -> list[int]:
        """The dice a change may change (every die for a re-roll)."""
        if self.purpose != "change":
            return list(range(len(self.roll)))
        return [i for i in range(len(self.roll)) if self.allowed(i)]


def change_options(roll, faces: dict[int, int] | None, mode: int, value: int) -> tuple[tuple[int, ...], ...]:
    """The values each die of `roll` may be changed to by a CHANGE_DICE of `mode` (see CHANGE_MODES)
    and `value`, among the faces of the dice (`faces`, value -> symbol; none: 1-6): a die never shows
    a value its faces lack, and one already showing the value is not changed to it."""
    faces = faces or {v: 0 for v in range(1, 7)}
    shown = sorted(faces)
    if mode < 3:
        same = tuple(shown) if mode == 0 else (value,) if mode == 1 else \
            tuple(v for v in shown if faces[v] == value)
        return (same,) * len(roll)
    out = []
    for i, die in enumerate(roll):
        if mode == 6:
            allowed = {v for j, v in enumerate(roll) if j != i}
        else:
            up, down = {die + value}, {die - value}
            allowed = up if mode == 4 else down if mode == 5 else up | down
        out.append(tuple(v for v in shown if v in allowed and v != die))
    return tuple(out)


@dataclass(slots=True)
class ChoosePlayer(Request):
    """A chosen player. Answer: one of `players`. `text` is what the choice is for (`Inflict Hex on a
    chosen player`); `hostile` whether what follows harms the player chosen (dmg, a status inflicted),
    helps (a status gained, a heal), or None when the VM cannot tell."""

    players: tuple[int, ...]
    purpose: str
    text: str = ""
    hostile: bool | None = None


@dataclass(slots=True)
class ChoosePlayers(Request):
    """Up to `most` of `players` (`up to 2 chosen opponents`). Answer: a list of distinct members of
    `players`, at most `most` long (none is an answer). `text` and `hostile` as for ChoosePlayer."""

    players: tuple[int, ...]
    most: int
    purpose: str
    text: str = ""
    hostile: bool | None = None


@dataclass(slots=True)
class ChooseItems(Request):
    """Cards, tokens or tiers to pick: answer a list of indices into `items`,
    between `least` and `most` long."""

    items: tuple[str, ...]
    least: int
    most: int
    purpose: str


@dataclass(slots=True)
class ChooseDirection(Request):
    """Up or down on a track. Answer: "up" or "down"."""

    component: str
    amount: int


@dataclass(slots=True)
class ChoosePlace(Request):
    """Where on a player sheet (a Citizen section, a road, a Lair, a Guild Track, a Statue of the
    draft line, a die and its new value). Answer: the index of an option."""

    options: tuple[str, ...]
    purpose: str


# --------------------------------------------------------------- interfaces


class GameState(Protocol):
    """What the VM reads and changes. A game engine implements it; so does
    `dtc.sample.SampleState` for tests and `dtc explain`.

    Players are ints. `ctx` is the RunContext of the running chunk. Amounts are
    never negative. Methods return None unless documented otherwise.
    """

    def deal(self, ctx: RunContext, target: int, amount: int, dtype: int, isolated: bool) -> None: ...
    def receive(self, ctx: RunContext, player: int, amount: int, dtype: int) -> None: ...
    def add_damage(self, ctx: RunContext, amount: int) -> None: ...
    def prevent(self, ctx: RunContext, player: int, amount: int) -> None: ...
    def prevent_half(self, ctx: RunContext, player: int, round_up: bool) -> None: ...
    def prevent_all(self, ctx: RunContext, player: int) -> None: ...
    def attack_becomes(self, ctx: RunContext, dtype: int) -> None: ...
    def fail_phase(self, ctx: RunContext, phase: int) -> None: ...
    def skip_phase(self, player: int, phase: int, next_turn: bool = False) -> None:
        """`player` skips the next such phase (or turn: `next_turn`, never the one under way)."""
    def heal(self, player: int, amount: int, ctx: RunContext | None = None) -> None:
        """`player` heals `amount` (within the cap); `ctx`: the effect healing, for narration."""
    def change_cp(self, player: int, delta: int, ctx: RunContext | None = None) -> int:
        """Apply the change within 0..max; return the change made; `ctx`: the effect making it."""
    def cp(self, player: int) -> int: ...
    def gain_status(self, player: int, status: int, count: int, tier: int, by: int | None = None) -> None:
        """`player` gains tokens (up to the stack limit); `by`: the player inflicting them."""
    def remove_status(self, player: int, status: int, count: int, by: int | None = None) -> None:
        """`player` loses tokens; `by`: the player whose effect removes them (one marked not
        removable goes only by its owner's own effects)."""
    def removable(self, player: int, status: int) -> list[int] | None:
        """For a class (`1 negative status effect`): the statuses of the tokens it could remove, one
        per token; None for a named status."""
    def remove_tokens(self, player: int, statuses: list[int]) -> None:
        """Remove one token of each status listed (a status twice: two tokens)."""
    def status_name(self, status: int) -> str: ...
    def only_option(self, player: int, source: str, option: str) -> None:
        """A `Choose one` had one option that could do anything now: it was taken unasked."""
    def spend_status(self, player: int, status: int, count: int) -> None: ...
    def status_count(self, player: int, status: int) -> int: ...
    def stack_limit(self, player: int, status: int) -> int:
        """How many tokens of the status the player may hold."""
    def raise_stack_limit(self, player: int, status: int, amount: int) -> None:
        """`Increase your <status> stack limit by N`: hers alone, for the rest of the game."""
    def turn_count(self, player: int, what: int) -> int:
        """TURN_COUNTS: the dmg her effects dealt or added this turn, the times she was Attacked."""
    def add_roll_attempts(self, ctx: RunContext, player: int, count: int) -> None:
        """More Roll Attempts for her Offensive Roll Phase under way (nothing outside it)."""
    def tokens(self, player: int, status: int) -> list[str]:
        """Descriptions of the player's tokens of a status (for choosing one)."""
    def this_token(self, ctx: RunContext, action: str, side: int = 0) -> None:
        """Act on the token whose effect is running: gain | remove | spend | flip."""
    def flip_token(self, player: int, status: int, token: int, side: int) -> None: ...
    def double_effect(self, ctx: RunContext, status: int, tokens: list[int]) -> None: ...
    def undoubled(self, player: int, status: int) -> list[int]:
        """The player's tokens of the status whose effect is not doubled yet (indices)."""
    def craft_options(self, player: int, status: int, zone: int) -> list[str]: ...
    def craft(self, player: int, status: int, zone: int, option: int) -> None: ...
    def draw(self, player: int, count: int) -> None: ...
    def hand(self, player: int) -> list[str]: ...
    def discard(self, player: int, cards: list[int]) -> None: ...
    def search(self, player: int, top: int, ctype: int) -> list[str]:
        """Matching cards of the deck (or its top cards; 0 = all) to choose from."""
    def take_found(self, player: int, picks: list[int]) -> None: ...
    def shuffle(self, player: int, rng: Any) -> None: ...
    def hand_cards(self, player: int, ctype: int) -> list[str]: ...
    def place_found(self, player: int, zone: int) -> None: ...
    def found(self, player: int) -> list[str]:
        """The cards the player's last search found that are still in hand."""
    def place(self, player: int, zone: int, ctype: int, picks: list[int]) -> None: ...
    def zone_cards(self, player: int, zone: int, ctype: int) -> list[str]: ...
    def use_cards(self, player: int, zone: int, ctype: int, picks: list[int]) -> list[int]:
        """Take the picked cards off the zone (discarding them); return their chunks."""
    def component(self, player: int, comp: int) -> int:
        """A dial's number, a track's position index (0 = top), a form's index."""
    def change_component(self, ctx: RunContext, player: int, comp: int, delta: int) -> None:
        """Increase a dial by delta, or move a track delta positions up (negative: down)."""
    def set_component(self, player: int, comp: int, value: int) -> None: ...
    def attacking(self, player: int) -> bool:
        """Whether an Attack of the player's is under way (dmg added to it counts)."""
    def damage_coming(self, player: int) -> bool:
        """Whether dmg is on its way to the player (there is something to prevent)."""
    def track_room(self, player: int, comp: int, up: bool) -> int:
        """How many positions the player's track has further up (or down) to move to."""
    def can_become(self, dtype: int) -> bool:
        """Whether an Attack is under way that making it that type would make harder to answer."""
    def flip_dial(self, player: int, comp: int, side: int) -> None: ...
    def dial_side(self, player: int, comp: int) -> int:
        """The side of the player's dial face up."""
    def players(self, ctx: RunContext, who: str) -> list[int]:
        """The players a target word means here (`opponent`, `attacker`, `chosen_player`...)."""
    def extra_attempts(self, ctx: RunContext) -> int: ...
    def rolled(self, ctx: RunContext, player: int, how: str = "rolls",
               before: dict[int, int] | None = None) -> None:
        """The current roll (`ctx.roll`) was rolled, re-rolled or changed by `player` (`how`: "rolls",
        "re-rolls" or "changes"; `before`: the dice re-rolled or changed, position: value before)."""
    def schedule(self, ctx: RunContext, trigger: dict, chunk: int) -> None: ...


class SheetState(Protocol):
    """What the Valeria opcodes read and change: a roll-and-write game's player sheets.

    Options are labels to show; `mark_*` take the index of the option chosen. `statue_options`
    returns None when taking must wait (Statues won in a Harvest are drafted after it)."""

    def citizen_options(self, player: int, guild: int | None) -> list[str]: ...
    def mark_citizen(self, player: int, option: int) -> None: ...
    def mark_next(self, player: int, section: str) -> None: ...
    def road_options(self, player: int) -> list[str]: ...
    def mark_road(self, player: int, option: int) -> None: ...
    def lair_options(self, player: int) -> list[str]: ...
    def mark_lair(self, player: int, option: int) -> None: ...
    def track_options(self, player: int) -> list[str]: ...
    def mark_track(self, player: int, option: int) -> None: ...
    def statue_options(self, player: int) -> list[str] | None: ...
    def take_statue(self, player: int, option: int) -> None: ...
    def sheet_count(self, player: int, what: str, guild: int | None) -> int: ...
    def reward_pips(self, player: int, reward: int, section: str | None = None) -> int:
        """How many pips of the reward (its index in the rules) the player has marked, in `section`
        (one of SECTIONS) or anywhere."""
    def score(self, player: int, vp: int) -> None: ...
    def add_stars(self, player: int, count: int) -> None: ...
    def dice_values(self) -> dict[str, int]:
        """The colored dice as they lie (color -> value)."""
    def set_die(self, color: str, value: int) -> None: ...
    def void(self, player: int, kind: str, name: str) -> None: ...
    def triggered(self, player: int) -> list[int]:
        """The chunks the player's last mark set off (and forget them): rewards, instant Statues,
        instant Domains."""


@dataclass(slots=True)  # made for every run: slots make it quicker to make and read
class RunContext:
    """What a running chunk is about: whose it is, who is involved, the current dice."""

    owner: int  # the player whose effect this is
    hero: int | None = None  # the hero (artifact index) whose components chunks name
    attacker: int | None = None
    defender: int | None = None
    roll: list[int] = field(default_factory=list)  # face values of the current roll
    faces: dict[int, int] = field(default_factory=dict)  # face value -> symbol index
    status: int | None = None  # the status whose token's effect this is
    token: int | None = None
    event_value: int = 0  # the number the trigger carried
    did: bool = False  # the last `you may` answer
    attack_run: bool = False  # this run is the activated Offensive Ability itself
    # its Defender is still to be found: the first step that needs a target asks for it (FindDefender)
    find_defender: bool = False
    accepted: bool = False  # the player chose to use this effect: its opening `you may` is answered
    # the hero whose dice `roll N dice` rolls, when not `hero`: a player always rolls her own dice,
    # also for a status another hero inflicted (its effect still names that hero's things)
    dice_hero: int | None = None
    # whose dice `roll` is, when not the owner's (a card altering another player's roll)
    dice_owner: int | None = None
    # what set the effect off, in players' words (a passive ability, a track's position), when a
    # trigger did: narration names it where nothing before says where dmg or prevention came from
    source: str = ""
    chosen: int | None = None  # the player CHOOSE_PLAYER chose (target `chosen`, the text's `them`)
    chosen_many: tuple[int, ...] = ()  # the players CHOOSE_PLAYERS chose (target `chosen_players`)
    paid: int = 0  # the CP paid last (`per CP spent`)
    removed: int = 0  # the tokens removed last (`per token removed`)


@dataclass
class Outcome:
    """What a finished run tells its caller."""

    instructions: int
    replaced: bool  # an `instead` ran


# ----------------------------------------------------------------------- VM


class VM:
    """Runs chunks of one verified artifact."""

    def __init__(self, artifact: Artifact, budget: int = DEFAULT_BUDGET):
        self.artifact = artifact
        self.budget = budget
        self.requirements: dict[tuple[int, int], Requirement] = {}
        self._decoded: dict[int, list[tuple]] = {}
        self._aimed_steps: dict[int, frozenset[int]] = {}
        self._always_starts: dict[tuple[int, int], bool] = {}  # (chunk, step): can_start needs no reading
        self._start_plans: dict[tuple[int, int], tuple] = {}  # (chunk, step): `_start_plan`
        self._checks: dict[tuple[int, int], tuple] = {}  # (chunk, step): `_check_at`
        # statuses for which something happens when gained at the limit (a token flipped instead)
        self._acts_at_limit = frozenset(
            i for i, s in enumerate(artifact.statuses)
            if any((e.get("trigger") or {}).get("on") == "gained_at_limit" for e in s.get("effects", ())))
        self._index_of_chunk = {id(c): i for i, c in enumerate(artifact.chunks)}
        self._faces: dict[tuple, dict[int, int]] = {}
        self.trace: Any = None  # a callable(chunk, instruction, stack) for `dtc explain`

    @classmethod
    def shared(cls, artifact: Artifact) -> VM:
        """One VM per artifact, kept on it: every game then shares its decoded chunks."""
        vm = getattr(artifact, "_shared_vm", None)
        if vm is None:
            vm = artifact._shared_vm = cls(artifact)  # derived data; the artifact is unchanged
        return vm

    def die_faces(self, ctx: RunContext, die: int) -> dict[int, int]:
        """Face value -> symbol of the die rolled (0: the hero's own dice); callers do not change it."""
        rolls = ctx.dice_hero if ctx.dice_hero is not None else ctx.hero
        key = (die, rolls if die == 0 else None)
        faces = self._faces.get(key)
        if faces is None:
            faces = self._faces[key] = self._die_faces(rolls, die)
        return faces

    def _die_faces(self, rolls: int | None, die: int) -> dict[int, int]:
        if die == 0:
            hero = self.artifact.players[rolls] if rolls is not None else None
            if hero is None:
                return {v: 0 for v in range(1, 7)}
            return {int(v): s for v, s in hero["dice"]["faces"].items()}
        return {int(v): s for v, s in self.artifact.dice[die - 1]["faces"].items()}

    def requirement(self, chunk_index: int, const: int) -> Requirement:
        key = (chunk_index, const)
        if key not in self.requirements:
            data = self.artifact.chunks[chunk_index].consts[const]
            names = self.artifact.symbols
            items = []
            for item in data["items"]:
                if "straight" in item:
                    items.append(Straight(item["straight"]))
                elif "of_a_kind" in item:
                    sym = item.get("symbol")
                    items.append(OfAKind(item["of_a_kind"], names[sym] if sym is not None else None))
                else:
                    items.append(SymbolNeed(names[item["symbol"]], item["count"]))
            self.requirements[key] = Requirement(tuple(items))
        return self.requirements[key]

    def run(self, chunk_index: int, ctx: RunContext, state: GameState, rng: Any
            ) -> Generator[Request, Any, Outcome]:
        """Run a chunk to its END, yielding requests; returns the Outcome."""
        if ctx.status is None:  # a status's own chunk: `this token` is a token of that status
            ctx.status = self.artifact.chunks[chunk_index].status
        counter = [0]
        replaced = yield from self._frame(chunk_index, ctx, state, rng, counter, 0)
        return Outcome(counter[0], replaced)

    def option_steps(self, chunk_index: int, at: int) -> list[tuple]:
        """The steps of the `Choose one` option beginning at step `at`, as (opcode, a, b, c): up to
        the jump past the other options, or (the last option) up to where the options meet."""
        steps = self._steps(chunk_index)
        choose = next(i for i in range(at - 1, -1, -1) if steps[i][0] == _CHOOSE)
        starts = sorted(steps[choose][1])
        later = [s for s in starts if s > at]
        if later:
            end = later[0] - 1  # the jump that ends this option
        else:
            end = steps[starts[1] - 1][1] if len(starts) > 1 else len(steps)  # where they meet
        return steps[at:end]

    def option_starts(self, chunk_index: int) -> tuple[int, ...]:
        """The steps where the options of the chunk's first `Choose one` begin (for `option_steps`)."""
        return next(step[1] for step in self._steps(chunk_index) if step[0] == _CHOOSE)

    def _steps(self, chunk_index: int) -> list[tuple]:
        """The chunk pre-decoded for speed: (opcode, a, b, c) with jumps as step indices."""
        steps = self._decoded.get(chunk_index)
        if steps is None:
            program = self.artifact.chunks[chunk_index].program
            at = {ins.offset: i for i, ins in enumerate(program)}
            steps = []
            for ins in program:
                args = list(ins.operands)
                if ins.op in (Op.JUMP, Op.JUMP_IF_FALSE):
                    args[0] = at[args[0]]
                elif ins.op == Op.CHOOSE:
                    args[0] = tuple(at[t] for t in args[0])
                args += [0] * (3 - len(args))
                steps.append((int(ins.op), args[0], args[1], args[2]))
            self._decoded[chunk_index] = steps
        return steps

    def _aimed(self, chunk_index: int) -> frozenset[int]:
        """The steps of the chunk that need the Attack's Defender (`aims_at_defender`)."""
        found = self._aimed_steps.get(chunk_index)
        if found is None:
            program = self.artifact.chunks[chunk_index].program
            found = self._aimed_steps[chunk_index] = frozenset(
                i for i, ins in enumerate(program) if aims_at_defender(ins.op, ins.operands))
        return found

    def _counts_none(self, chunk_index: int, chunk, at: int, ctx: RunContext) -> bool:
        """Whether the steps from `at` begin with an amount of 0 per the dice (`1 dmg per [X] rolled`,
        `for each [X] rolled`, none rolled): an option that would do nothing with these dice (it was
        offered, and bots took it: designer QA)."""
        steps = self._steps(chunk_index)
        if at < len(steps) and steps[at][0] == _PUSH:
            at += 1
        if at >= len(steps) or steps[at][0] != Op.COUNT_SYMBOLS:
            return False
        wanted, faces = chunk.consts[steps[at][1]], ctx.faces
        return not any(faces.get(v) in wanted for v in ctx.roll)

    def can_start(self, chunk_index: int, state: GameState, actor: int, at: int = 0,
                  alone: bool = False) -> bool:
        """Whether the steps from step `at` could do anything now, read from their first step: `spend
        3 CP` needs 3 CP (`spend 1 <status>` a token; `remove 1 <status>` from oneself, one too),
        `add 2 dmg` an Attack of the player's own, `prevent 2 dmg` (alone) dmg on its way,
        `gain 1 <status>` (alone) room in its stack, `steal 1 CP` an opponent with CP,
        `discard 1 card` a card in hand, `scrap a card` a card there, `place cards`
        a card of that type in hand (`place the found cards`: found ones), `craft` something to
        craft, `set a form` another form than its own, `take N Steps backward` a position below.
        (Only these; anything else can.) When that first part could do nothing, the part after its
        `Then` is read the same way (`Take 1 Step forward. Then add 1 dmg.` at the top of the
        track still adds the dmg); `alone` reads only the part at `at` (the body of a `you may`, an
        option of a `Choose one`)."""
        key = (chunk_index, at)
        always = self._always_starts.get(key)
        if always is None:
            always = self._always_starts[key] = self._starts_unchecked(chunk_index, at)
        return always or self.reads_start(chunk_index, state, actor, at, alone)

    def reads_start(self, chunk_index: int, state: GameState, actor: int, at: int = 0,
                    alone: bool = False) -> bool:
        """`can_start`, read from the state every time (no shortcut). What to read is worked out once
        per step (`_start_plan`); only a condition first makes where the effect begins depend on the
        state (`If in <a form>, prevent 3 dmg`)."""
        key = (chunk_index, at)
        plan = self._start_plans.get(key)
        if plan is None:
            plan = self._start_plans[key] = self._start_plan(chunk_index, at)
        begin, check, then_at = plan
        if check is None:
            steps = self._steps(chunk_index)
            begin = self._past_guards(steps, begin, state, actor)
            if begin is not None and begin >= len(steps):
                return True
            if begin is not None:
                check = self._check(chunk_index, begin)
        if check is not None and self._passes(check, state, actor):
            return True
        return then_at is not None and not alone and self.can_start(chunk_index, state, actor, then_at)

    def _start_plan(self, chunk_index: int, at: int) -> tuple[int, tuple | None, int | None]:
        """(the step the effect begins at, what to read there, where the part after its `Then`
        begins), past `you may` and the jump it makes; None to read when a condition comes first,
        and None when no `Then` part follows."""
        steps = self._steps(chunk_index)
        then_at = self._then_part(steps, at)
        while at < len(steps) and steps[at][0] in (_MAY, _JUMP_IF_FALSE):
            at += 1
        if at >= len(steps):
            return at, _YES, then_at
        if steps[at][0] in _GUARD_READS:
            after = at
            while after < len(steps) and steps[after][0] in _GUARD_READS:
                after += 1
            if after < len(steps) and steps[after][0] == _JUMP_IF_FALSE:
                return at, None, then_at
        return at, self._check(chunk_index, at), then_at

    @staticmethod
    def _then_part(steps: list[tuple], at: int) -> int | None:
        """The step after the first `Then` from `at` that every path from `at` reaches (no jump
        from before it lands past it); None when there is none or a `Choose one` comes first."""
        furthest = at
        for i in range(at, len(steps)):
            op, a, _, _ = steps[i]
            if op == _THEN and a != AFTER_EFFECT_ROLL and furthest <= i:
                return i + 1
            if op == _END or op == _CHOOSE:
                return None
            if op in (_JUMP, _JUMP_IF_FALSE):
                furthest = max(furthest, a)
        return None

    def _check(self, chunk_index: int, at: int) -> tuple:
        """`_check_at`, worked out once per step."""
        key = (chunk_index, at)
        check = self._checks.get(key)
        if check is None:
            check = self._checks[key] = self._check_at(chunk_index, at)
        return check

    def _check_at(self, chunk_index: int, at: int) -> tuple:
        """What the effect beginning at step `at` needs of the state, as (what, operands...)."""
        steps = self._steps(chunk_index)
        becomes = self._becomes_only(steps, at)
        if becomes is not None:
            return ("becomes", becomes)
        op, a, b, _ = steps[at]
        if op in (Op.PICK, Op.PICK_FROM, _PUSH) and at + 1 < len(steps) and steps[at + 1][0] == Op.MOVE:
            op, a, b, _ = steps[at + 1]  # `take 1 or 2 Steps backward`: the number, then the move
        if op == Op.MOVE:
            return _YES if b == 0 else ("move", a, b == 1)  # b: 0 asks, 1 up, 2 down
        if op == Op.SET_COMP:
            return ("other_form", a, b)  # not the form it is in already
        if op == Op.FLIP_DIAL and _last_step(steps, at):
            return ("other_side", a, b)  # a flip alone: not to the side up already (bot QA)
        if op == Op.PLACE_ANY:
            return ("hand_cards", b)
        if op == Op.PLACE_FOUND:
            return ("found",)
        if op == Op.CRAFT:
            return ("craft", a, b)
        acts = at
        while acts < len(steps) and steps[acts][0] in _GUARD_READS:
            acts += 1  # past the amount (`add dmg equal to the dial's value`)
        if acts < len(steps) and steps[acts][0] in (Op.ADD_DMG, Op.DOUBLE_DMG):
            return ("attacking",)  # dmg added (or doubled) counts only on an Attack of one's own
        if acts < len(steps) and steps[acts][0] in _PREVENTS and _last_step(steps, acts):
            return ("damage_coming",)  # preventing, and nothing else (before a `Then`): dmg on its way
        if op != _PUSH or at + 1 >= len(steps):
            return _YES
        then, x, y, _ = steps[at + 1]
        if then == Op.PAY_CP:
            return ("cp", a)
        if then == Op.SPEND:
            return ("tokens", x, a)
        if then == Op.REMOVE and y == 0:  # removing one's own tokens needs some (a class: any of it)
            return ("tokens", x, 1)
        if then == Op.DISCARD:
            return ("hand", 1 if a >= WHOLE_HAND else a)  # `discard your hand`: any card at all
        if then == Op.RETURN_CARDS:
            return ("discard_pile",)
        if then == Op.USE_CARDS:
            return ("zone_cards", x, y)
        if then in (Op.GAIN, Op.INFLICT) and at + 2 < len(steps) and steps[at + 2][0] in (_JUMP, _END, _THEN):
            return ("room", then, x, y)
        if then == Op.PLACE_N:
            return ("hand_cards", y)
        if then == Op.STEAL_CP:
            return ("steal",)  # an opponent with CP to take
        return _YES

    def _passes(self, check: tuple, state: GameState, actor: int) -> bool:
        """Whether the state has what `check` (from `_check_at`) needs."""
        what = check[0]
        if what == "yes":
            return True
        if what == "cp":
            return state.cp(actor) >= check[1]
        if what == "tokens":
            return state.status_count(actor, check[1]) >= check[2]
        if what == "attacking":
            return state.attacking(actor)
        if what == "damage_coming":
            return state.damage_coming(actor)
        if what == "room":
            return not self._gains_nothing(state, actor, check[1], check[2], check[3])
        if what == "hand":
            return len(state.hand(actor)) >= check[1]
        if what == "discard_pile":
            return bool(state.discard_pile(actor))
        if what == "hand_cards":
            return bool(state.hand_cards(actor, check[1]))
        if what == "zone_cards":
            return bool(state.zone_cards(actor, check[1], check[2]))
        if what == "move":
            return state.track_room(actor, check[1], check[2]) > 0
        if what == "other_form":
            return state.component(actor, check[1]) != check[2]
        if what == "other_side":
            return check[2] == OTHER_SIDE or state.dial_side(actor, check[1]) != check[2]
        if what == "found":
            return bool(state.found(actor))
        if what == "becomes":
            return state.can_become(check[1])
        if what == "steal":
            return any(state.cp(p) > 0 for p in state.players(RunContext(actor, None), "opponent"))
        return bool(state.craft_options(actor, check[1], check[2]))  # "craft"

    def _gains_nothing(self, state: GameState, actor: int, op: int, status: int, b: int) -> bool:
        """Whether gaining (or inflicting) the status, and nothing else, would be lost now: every
        player it goes to holds its stack limit, it is good for the one choosing (a positive or
        unique status gained, a negative one inflicted on others), and nothing happens at the limit
        (a token flipped instead). A gain that would only spare the chooser harm is never "nothing"."""
        entry = self.artifact.statuses[status]
        if entry.get("class") is not None or entry.get("tiers") or status in self._acts_at_limit:
            return False
        negative = entry.get("polarity") == "negative"
        if op == Op.GAIN:
            if negative or b:  # b: the tier gained
                return False
            targets = [actor]
        elif b == 0 or not negative:
            return False
        else:
            targets = state.players(RunContext(actor, None), "each_opponent")
        return all(state.status_count(p, status) >= state.stack_limit(p, status) for p in targets)

    @staticmethod
    def _becomes_only(steps: list[tuple], at: int) -> int | None:
        """The dmg type, when all the steps from `at` do is make the Attack that type (`roll 1 die:
        On 4-5, the Attack becomes undefendable`): nothing to do when it is that type already."""
        types = {a for op, a, _, _ in steps[at:] if op == Op.ATTACK_BECOMES}
        if len(types) != 1 or any(op not in _ONLY_READS and op != Op.ATTACK_BECOMES for op, *_ in steps[at:]):
            return None
        return types.pop()

    def _starts_unchecked(self, chunk_index: int, at: int) -> bool:
        """Whether `can_start` has nothing to read for these steps (it would say yes whatever the
        state): no condition first, and a first step that is not one of those it checks."""
        steps = self._steps(chunk_index)
        if self._becomes_only(steps, at) is not None:
            return False
        while at < len(steps) and steps[at][0] in (_MAY, _JUMP_IF_FALSE):
            at += 1
        if at >= len(steps):
            return True
        first = steps[at][0]
        if first in _CHECKED_FIRST:
            return False
        while at < len(steps) and steps[at][0] in _GUARD_READS:
            at += 1  # a condition read from the state, or the number an instruction takes
        return at == len(steps) or (steps[at][0] != _JUMP_IF_FALSE and steps[at][0] not in _CHECKED_AFTER)

    def _past_guards(self, steps: list[tuple], at: int, state: GameState, actor: int) -> int | None:
        """Where the steps from `at` really begin, past conditions read from the state alone (`If in
        <a form>, ...`, `If you have 1 <status>, ...`, `If your opponent has <status>, ...`); None
        when a condition fails and nothing else follows: the whole effect would do nothing now."""
        start, stack, reader = at, [], actor
        while at < len(steps):
            op, a, b, _ = steps[at]
            if op == Op.ACTOR and TARGETS[a] in ("self", "opponent"):  # whose state the condition reads
                found = state.players(RunContext(actor, None), TARGETS[a])
                if not found:
                    break
                reader = found[0]
                at += 1
                continue
            if op == _JUMP_IF_FALSE and len(stack) == 1:
                at = at + 1 if stack.pop() else a
                if steps[at][0] == _END:
                    return None
                start = at
                continue
            if op == _PUSH:
                stack.append(a)
            elif op == Op.IN_FORM:
                stack.append(int(state.component(reader, a) == b))
            elif op == Op.GET_COMP:
                stack.append(state.component(reader, a))
            elif op == Op.COUNT_STATUS:
                stack.append(state.status_count(reader, a))
            elif op == Op.GET_CP:
                stack.append(state.cp(reader))
            elif op == Op.HAND_SIZE:
                stack.append(len(state.hand(reader)))
            elif op == Op.NOT and stack:
                stack.append(int(not stack.pop()))
            elif op == Op.COMPARE and len(stack) >= 2:
                y, x = stack.pop(), stack.pop()
                stack.append(compared(x, y, a))
            else:
                break  # anything else acts or reads the dice: the effect starts here
            at += 1
        return start

    def _frame(self, chunk_index, ctx, state, rng, counter, depth) -> Generator[Request, Any, bool]:
        if depth > MAX_CALL_DEPTH:
            raise VMError("cards used within cards nest too deeply")
        chunk = self.artifact.chunks[chunk_index]
        program = chunk.program
        steps = self._steps(chunk_index)
        owner = chunk.owner
        stack: list[int] = []
        push, pop = stack.append, stack.pop
        actor = ctx.owner
        replaced = False
        budget = self.budget
        trace = self.trace
        count = counter[0]
        pc = 0
        aiming = ctx.find_defender
        aimed = self._aimed(chunk_index) if aiming else ()
        while True:
            if aiming and pc in aimed:
                counter[0] = count
                yield FindDefender(owner, actor)
                count = counter[0]
                aiming = ctx.find_defender
            op, a, b, c = steps[pc]
            pc += 1
            count += 1
            if count > budget:
                raise VMError(f"instruction budget of {budget} exhausted in {owner}")
            if trace is not None:
                trace(chunk_index, program[pc - 1], list(stack))
            if op == _PUSH:
                push(a)
            elif op == _JUMP_IF_FALSE:
                if not pop():
                    pc = a
            elif op == _END:
                counter[0] = count
                return replaced
            elif op == _DEAL:
                amount = pop()
                for target in (actor,) if b == 0 else state.players(ctx, TARGETS[b]):
                    state.deal(ctx, target, amount, a, bool(c))
            elif op == _HAS_SYMBOL:
                faces = ctx.faces
                push(int(sum(1 for v in ctx.roll if faces.get(v) == a) >= b))
            elif op == _HAS_VALUE:
                push(int(any(a <= v <= b for v in ctx.roll)))
            elif op == _GAIN:
                state.gain_status(actor, a, pop(), b)
            elif op == _THEN:
                counter[0] = count
                yield Window(owner, actor, THEN_WINDOWS[a])
                count = counter[0]
            elif op == _JUMP:
                pc = a
            elif op == _ROLL:
                n = pop()
                if n > MAX_DICE:
                    raise VMError(f"{owner}: cannot roll {n} dice")
                faces = self.die_faces(ctx, a)
                values = sorted(faces)
                ctx.roll = [values[rng.randrange(len(values))] for _ in range(n)]
                ctx.faces = faces
                state.rolled(ctx, actor)
            elif op == _ADD_DMG:
                state.add_damage(ctx, pop())
            elif op == _HEAL:
                state.heal(actor, pop(), ctx)
            elif op == _INFLICT:
                n = pop()
                for target in (actor,) if b == 0 else state.players(ctx, TARGETS[b]):
                    state.gain_status(target, a, n, 0, by=actor)
            elif op == _RAISE:
                state.change_component(ctx, actor, a, pop())
            elif op == _LOWER:
                state.change_component(ctx, actor, a, -pop())
            elif op == _MAY:
                if ctx.accepted and pc == 1:
                    ctx.did = True
                elif self.can_start(chunk_index, state, actor, pc, alone=True):
                    counter[0] = count
                    answer = yield YesNo(owner, actor, self._prompt(chunk, program[pc - 1])
                                         + self._one_way(steps, pc, state, actor), chunk.text)
                    count = counter[0]
                    ctx.did = bool(answer)
                else:  # "you may X" where X could do nothing: as if declined, unasked
                    ctx.did = False
                push(int(ctx.did))
            elif op == _GAIN_CP:
                state.change_cp(actor, pop(), ctx)
            elif op in _ASKS:
                counter[0] = count
                actor, jump = yield from self._ask(
                    op, a, b, c, chunk_index, chunk, program[pc - 1], ctx, state, rng, counter,
                    depth, stack, actor)
                count = counter[0]
                if jump is not None:
                    pc = jump
            elif op == _ACTOR_NTH:  # the k-th of several players does the statement (or none is left)
                players = state.players(ctx, TARGETS[a])
                if b < len(players):
                    actor = players[b]
                push(int(b < len(players)))
            elif op == _INSTEAD:
                replaced = True
            else:
                self._plain(op, a, b, c, chunk, ctx, state, rng, stack, actor)

    def _plain(self, op, a, b, c, chunk, ctx, state, rng, stack, actor) -> None:
        """The less frequent instructions that ask nothing."""
        push, pop = stack.append, stack.pop
        if op >= Op.MARK_CITIZEN and op != Op.DIV:  # DIV is arithmetic of either game
            self._sheet(op, a, b, chunk, state, stack, actor)
        elif op == Op.DUP:
            push(stack[-1])
        elif op == Op.POP:
            pop()
        elif op == Op.ADD:
            y = pop()
            push(pop() + y)
        elif op == Op.SUB:
            y = pop()
            push(max(0, pop() - y))
        elif op == Op.MUL:
            y = pop()
            push(pop() * y)
        elif op == Op.MIN:
            y = pop()
            push(min(pop(), y))
        elif op == Op.HALF:
            v = pop()
            push((v + 1) // 2 if a == 0 else v // 2)
        elif op == Op.DIV:
            y = pop()
            push(pop() // y if y else 0)
        elif op == Op.NOT:
            push(int(not pop()))
        elif op == Op.COMPARE:
            y = pop()
            x = pop()
            push(compared(x, y, a))
        elif op == Op.DID:
            push(int(ctx.did))
        elif op == Op.PAY_CP:
            amount = pop()
            if state.cp(actor) >= amount:
                state.change_cp(actor, -amount)
                ctx.paid = amount
                push(1)
            else:
                push(0)
        elif op == Op.SCHEDULE:
            state.schedule(ctx, chunk.consts[a], b)
        elif op == Op.MEETS:
            push(int(self._meets(ctx, chunk, a)))
        elif op == Op.COUNT_SYMBOLS:
            wanted = chunk.consts[a]
            faces = ctx.faces
            push(sum(1 for v in ctx.roll if faces.get(v) in wanted))
        elif op == Op.ROLL_TOTAL:
            push(sum(ctx.roll))
        elif op == Op.ROLL_VALUE:
            push(ctx.roll[0] if ctx.roll else 0)
        elif op == Op.ROLL_HIGHEST:
            push(max(ctx.roll, default=0))
        elif op == Op.PAID:
            push(ctx.paid)
        elif op == Op.TURN_COUNT:
            push(state.turn_count(actor, a))
        elif op == Op.EXTRA_ROLL:
            state.add_roll_attempts(ctx, actor, pop())
        elif op == Op.DISCARD_RANDOM:
            left = list(range(len(state.hand(actor))))
            count = min(pop(), len(left))
            picks = [left.pop(rng.randrange(len(left)) % len(left)) for _ in range(count)]
            state.discard(actor, sorted(picks))
        elif op == Op.RAISE_LIMIT:
            state.raise_stack_limit(actor, a, pop())
        elif op == Op.REMOVED:
            push(ctx.removed)
        elif op == Op.EXTRA_ATTEMPTS:
            push(state.extra_attempts(ctx))
        elif op == Op.EVENT_VALUE:
            push(ctx.event_value)
        elif op == Op.RECEIVE:
            state.receive(ctx, actor, pop(), a)
        elif op == Op.PREVENT:
            state.prevent(ctx, actor, pop())  # the actor's: `a chosen player prevents 6 dmg`
        elif op == Op.PREVENT_HALF:
            state.prevent_half(ctx, actor, a == 0)
        elif op == Op.PREVENT_ALL:
            state.prevent_all(ctx, actor)
        elif op == Op.ATTACK_BECOMES:
            state.attack_becomes(ctx, a)
        elif op == Op.DOUBLE_DMG:
            state.double_attack(ctx)
        elif op == Op.FAIL_PHASE:
            state.fail_phase(ctx, a)
        elif op == Op.SKIP:
            state.skip_phase(actor, a, b == SKIP_NEXT_TURN)
        elif op == Op.LOSE_CP:
            state.change_cp(actor, -pop(), ctx)
        elif op == Op.STEAL_CP:
            amount = pop()
            victims = state.players(ctx, "opponent")
            if victims:
                taken = -state.change_cp(victims[0], -amount, ctx)
                state.change_cp(actor, taken, ctx)
        elif op == Op.GET_CP:
            push(state.cp(actor))
        elif op == Op.GET_HEALTH:
            push(state.health(actor))
        elif op == Op.SPEND:
            state.spend_status(actor, a, pop())
        elif op == Op.GAIN_THIS:
            state.this_token(ctx, "gain")
        elif op == Op.REMOVE_THIS:
            state.this_token(ctx, "remove")
        elif op == Op.SPEND_THIS:
            state.this_token(ctx, "spend")
        elif op == Op.FLIP_THIS:
            state.this_token(ctx, "flip", a)
        elif op == Op.COUNT_STATUS:
            push(state.status_count(actor, a))
        elif op == Op.DRAW:
            state.draw(actor, pop())
        elif op == Op.SHUFFLE:
            state.shuffle(actor, rng)
        elif op == Op.PLACE_FOUND:
            state.place_found(actor, a)
        elif op == Op.HAND_SIZE:
            push(len(state.hand(actor)))
        elif op == Op.COUNT_OPPONENTS:
            push(len(state.players(ctx, "each_opponent")))
        elif op == Op.SET_COMP:
            state.set_component(actor, a, b)
        elif op == Op.FLIP_DIAL:
            state.flip_dial(actor, a, b)
        elif op == Op.GET_COMP:
            push(state.component(actor, a))
        elif op == Op.IN_FORM:
            push(int(state.component(actor, a) == b))
        elif op == Op.SIDE_IS:
            push(int(state.side(actor, a) == b))
        else:  # pragma: no cover - the verifier admits only known opcodes
            raise VMError(f"{chunk.owner}: no handler for {Op(op).name}")

    def _ask(self, op, a, b, c, chunk_index, chunk, ins, ctx, state, rng, counter, depth, stack,
             actor) -> Generator[Request, Any, tuple]:
        """The instructions that ask the caller; returns (actor, jump step or None)."""
        push, pop = stack.append, stack.pop
        owner = chunk.owner
        if op in VALERIA_OPS and not hasattr(state, "sheet_count"):
            raise VMError(f"{owner}: {Op(op).name} needs player sheets, and this game has none")
        if op in _SHEET_CHOICES:
            options_of, mark, purpose = _SHEET_CHOICES[op]
            for _ in range(pop()):
                options = (getattr(state, options_of)(actor, a - 1 if a else None) if op == Op.MARK_CITIZEN
                           else getattr(state, options_of)(actor))
                if not options:
                    break  # nothing open: "you simply do not mark anything"
                answer = yield ChoosePlace(owner, actor, tuple(options), purpose)
                getattr(state, mark)(actor, self._index(answer, len(options), purpose))
                yield from self._rewards(actor, state, rng, counter, depth)
            return actor, None
        if op == Op.MARK_NEXT:
            for _ in range(pop()):
                state.mark_next(actor, SECTIONS[a])
                yield from self._rewards(actor, state, rng, counter, depth)
            return actor, None
        if op == Op.TAKE_STATUE:
            options = state.statue_options(actor)
            if options:
                answer = yield ChoosePlace(owner, actor, tuple(options), "take a Statue")
                state.take_statue(actor, self._index(answer, len(options), "Statue"))
                yield from self._rewards(actor, state, rng, counter, depth)
            return actor, None
        if op == Op.ADJUST_DIE:
            colors = self.artifact.data["valeria"]["rules"]["colors"]
            values = state.dice_values()
            dice = [colors[a - 1]] if a else colors
            changes = [(color, values[color] + delta) for color in dice
                       for delta in (b, -c) if delta and 1 <= values[color] + delta <= 6]
            if changes:
                labels = tuple(f"{color} {values[color]} -> {value}" for color, value in changes)
                answer = yield ChoosePlace(owner, actor, labels, "change a die")
                state.set_die(*changes[self._index(answer, len(changes), "change")])
            return actor, None
        if op == Op.CHOOSE:
            labels = self._option_labels(chunk, ins)
            # "If they do not (or cannot)": an option that could do nothing is not offered; a
            # single option left is taken unasked
            open_ = [i for i, target in enumerate(a)
                     if self.can_start(chunk_index, state, actor, target, alone=True)
                     and not self._counts_none(chunk_index, chunk, target, ctx)]
            if len(open_) == 1 or not open_:
                if open_:
                    state.only_option(actor, owner, labels[open_[0]])
                return actor, a[open_[0] if open_ else 0]
            answer = yield ChooseOption(owner, actor, tuple(labels[i] for i in open_),
                                        steps_at=(chunk_index, tuple(a[i] for i in open_)),
                                        printed=tuple(labels), offered=tuple(open_))
            return actor, a[open_[self._index(answer, len(open_), "option")]]
        if op == Op.PICK or op == Op.PICK_FROM:
            choices = tuple(range(a, b + 1)) if op == Op.PICK else tuple(chunk.consts[a])
            choices = self._steps_that_fit(chunk_index, chunk, ins, state, actor, choices)
            if len(choices) == 1:
                push(choices[0])  # `take 1 or 2 Steps` one position from the end: 1, unasked
                return actor, None
            answer = yield PickNumber(owner, actor, choices, self._prompt(chunk, ins))
            push(self._member(answer, choices))
        elif op == Op.CHOOSE_PLAYERS:
            # `up to 2 chosen opponents` chooses among every opponent the effect may reach (in a
            # Portal Crawl, the other Minions in play too: `dtc.adventures.battle`)
            who = "each_opponent" if TARGETS[a] == "chosen_opponent" else TARGETS[a]
            players = tuple(state.players(ctx, who))
            opponents = set(state.players(ctx, "each_opponent"))
            if len(players) <= b and set(players) <= opponents:
                ctx.chosen_many = players  # all of them: no one spares an opponent what "up to" offers
            else:
                answer = yield ChoosePlayers(owner, ctx.owner, players, b, TARGETS[a],
                                             self._prompt(chunk, ins), self._hostile(chunk_index, ins.offset))
                ctx.chosen_many = self._some_players(answer, players, b)
        elif op == Op.CHOOSE_PLAYER and not state.players(ctx, TARGETS[a]):
            ctx.chosen = None
            stack.append(0)  # no one to choose (`a chosen teammate` in a 1v1 game): the part is skipped
        elif op == Op.ACTOR or op == Op.CHOOSE_PLAYER:
            chosen = self._one_player(ctx, state, a, owner)
            if isinstance(chosen, Request):
                chosen.text = self._prompt(chunk, ins)
                chosen.hostile = self._hostile(chunk_index, ins.offset)
                answer = yield chosen
                chosen = self._member(answer, chosen.players)
            if TARGETS[a] in CHOSEN:
                ctx.chosen = chosen  # `them` after it is this player
            if op == Op.ACTOR:
                actor = chosen
            else:
                stack.append(1)
        elif op == Op.REROLL:
            most = min(pop(), len(ctx.roll))
            if a & 1 and ctx.dice_owner not in (None, actor):
                return actor, None  # `of your dice` on another's roll
            if a & 2:  # `re-roll all of your dice`: no choice
                picks = list(range(len(ctx.roll)))
            else:
                answer = yield ChooseDice(owner, actor, tuple(ctx.roll), most, "re-roll")
                picks = self._picks(answer, len(ctx.roll), 0, most)
            values = sorted(ctx.faces) or list(range(1, 7))
            before = {i: ctx.roll[i] for i in picks}
            for i in picks:
                ctx.roll[i] = values[rng.randrange(len(values))]
            if picks:  # none re-rolled: the dice are as they were
                state.rolled(ctx, actor, "re-rolls", before)
        elif op == Op.CHANGE_DICE:
            most = min(pop(), len(ctx.roll))
            options = change_options(ctx.roll, ctx.faces, a, b)
            values = tuple(sorted(set().union(*options)))
            if not most or not values or (c and ctx.dice_owner not in (None, actor)):
                return actor, None  # no die can take such a value, or `1 of your dice` on another's roll
            answer = yield ChooseDice(owner, actor, tuple(ctx.roll), most, "change", values, options)
            changes = self._changes(answer, most, options)
            before = {i: ctx.roll[i] for i, _ in changes}
            for i, value in changes:
                ctx.roll[i] = value
            if changes:
                state.rolled(ctx, actor, "changes", before)
        elif op == Op.FLIP_TOKEN:
            tokens = state.tokens(actor, a)
            if tokens:
                answer = yield ChooseItems(owner, actor, tuple(tokens), 1, 1, "flip a token")
                (pick,) = self._picks(answer, len(tokens), 1, 1)
                state.flip_token(actor, a, pick, b)
        elif op == Op.DOUBLE:
            most = pop()
            tokens = state.tokens(actor, a)
            open_ = state.undoubled(actor, a)  # a token's effect is doubled once, not again
            if open_ and most:
                limit = min(most, len(open_))
                least = limit if b & 2 else 0  # b: 1 different tokens, 2 exactly N (not `up to N`)
                answer = yield ChooseItems(owner, actor, tuple(tokens[i] for i in open_), least, limit,
                                           "double the effect")
                state.double_effect(ctx, a, [open_[i] for i in self._picks(answer, len(open_), least, limit)])
        elif op == Op.CRAFT:
            options = state.craft_options(actor, a, b)
            if options:
                answer = yield ChooseItems(owner, actor, tuple(options), 0, 1, "craft")
                for pick in self._picks(answer, len(options), 0, 1):
                    state.craft(actor, a, b, pick)
        elif op == Op.DISCARD:
            n = pop()
            hand = state.hand(actor)
            if hand and n:
                need = min(n, len(hand))
                answer = yield ChooseItems(owner, actor, tuple(hand), need, need, "discard")
                state.discard(actor, self._picks(answer, len(hand), need, need))
        elif op == Op.SEARCH:
            found = state.search(actor, a, c)
            picks: list[int] = []
            if found:
                want = len(found) if b == 0 else min(b, len(found))
                answer = yield ChooseItems(owner, actor, tuple(found), want, want, "search")
                picks = self._picks(answer, len(found), want, want)
            state.take_found(actor, picks)
        elif op == Op.PLACE_ANY or op == Op.PLACE_N:
            most = pop() if op == Op.PLACE_N else None
            cards = state.hand_cards(actor, b)
            if cards:
                limit = len(cards) if most is None else min(most, len(cards))
                answer = yield ChooseItems(owner, actor, tuple(cards), 0, limit, "place")
                state.place(actor, a, b, self._picks(answer, len(cards), 0, limit))
        elif op == Op.USE_CARDS:
            most = pop()
            cards = state.zone_cards(actor, a, b)
            if cards and most:
                limit = min(most, len(cards))
                answer = yield ChooseItems(owner, actor, tuple(cards), 0, limit, "use")
                for card_chunk in state.use_cards(actor, a, b, self._picks(answer, len(cards), 0, limit)):
                    inner = RunContext(actor, ctx.hero, ctx.attacker, ctx.defender)
                    yield from self._frame(card_chunk, inner, state, rng, counter, depth + 1)
        elif op == Op.RETURN_CARDS:
            most = pop()
            pile = state.discard_pile(actor)
            if pile and most:
                limit = min(most, len(pile))
                answer = yield ChooseItems(owner, actor, tuple(pile), limit, limit, "return")
                state.return_cards(actor, self._picks(answer, len(pile), limit, limit))
        elif op == Op.SPEND_ANY:
            spent = yield from self._how_many(owner, actor, state.status_count(actor, a), chunk, ins)
            state.spend_status(actor, a, spent)
            ctx.removed = spent  # `per Chi spent`
        elif op == Op.PAY_ANY_CP:
            paid = yield from self._how_many(owner, actor, state.cp(actor), chunk, ins)
            state.change_cp(actor, -paid)
            ctx.paid = paid
        elif op == Op.REMOVE:
            n = pop()
            targets = self._targets(ctx, state, b, owner, actor)
            before = sum(state.status_count(t, a) for t in targets)
            yield from self._remove(ctx, state, targets, a, n, owner, actor)
            ctx.removed = before - sum(state.status_count(t, a) for t in targets)
        elif op == Op.TRANSFER:
            yield from self._transfer(ctx, state, chunk, ins, pop(), owner, actor)
        elif op == Op.MOVE:
            amount = pop()
            direction = b
            if direction == 0 and amount:  # at an end of the track, the one way open is taken unasked
                up, down = state.track_room(actor, a, True), state.track_room(actor, a, False)
                direction = 1 if up and not down else 2 if down and not up else 0
            if direction == 0 and amount:
                name = self.artifact.players[ctx.hero]["components"][a]["name"]
                answer = yield ChooseDirection(owner, actor, name, amount)
                if answer not in ("up", "down"):
                    raise VMError(f"{owner}: answer `up` or `down`, not {answer!r}")
                direction = 1 if answer == "up" else 2
            state.change_component(ctx, actor, a, amount if direction == 1 else -amount)
        return actor, None

    def _rewards(self, actor, state, rng, counter, depth) -> Generator[Request, Any, None]:
        """Run what the last mark set off (a reward pip's effect, an instant Statue or Domain),
        each to its end before the next: "follow the chain until it runs out"."""
        for chunk_index in state.triggered(actor):
            yield from self._frame(chunk_index, RunContext(actor), state, rng, counter, depth + 1)

    def _sheet(self, op, a, b, chunk, state, stack, actor) -> None:
        """The Valeria instructions that ask nothing."""
        push, pop = stack.append, stack.pop
        if not hasattr(state, "sheet_count"):
            raise VMError(f"{chunk.owner}: {Op(op).name} needs player sheets, and this game has none")
        if op == Op.COUNT_SHEET:
            push(state.sheet_count(actor, COUNTABLES[a], b - 1 if b else None))
        elif op == Op.COUNT_PIPS:
            push(state.reward_pips(actor, a, SECTIONS[b - 1] if b else None))
        elif op == Op.SCORE:
            state.score(actor, pop())
        elif op == Op.ADD_STARS:
            state.add_stars(actor, pop())
        elif op == Op.FLIP_DIE:
            color = self.artifact.data["valeria"]["rules"]["colors"][a - 1]
            state.set_die(color, 7 - state.dice_values()[color])
        elif op == Op.VOID:
            state.void(actor, VOID_KINDS[a], chunk.consts[b])
        else:
            raise VMError(f"{chunk.owner}: no handler for {Op(op).name}")

    def _meets(self, ctx, chunk_index_or_chunk, const) -> bool:
        req = self.requirement(self._chunk_index(chunk_index_or_chunk), const)
        names = self.artifact.symbols
        faces = {v: names[s] for v, s in ctx.faces.items()}
        return dice_meets(req, tuple(ctx.roll), faces)

    def _chunk_index(self, chunk) -> int:
        return self._index_of_chunk[id(chunk)]

    # -- helpers
    def _targets(self, ctx, state, target, owner, actor) -> list[int]:
        """The players a target operand means; a chosen one among several is asked for
        by `_frame` through `state.players` returning just the answer's player."""
        who = TARGETS[target]
        if who == "self":
            return [actor]
        return state.players(ctx, who)

    def _one_player(self, ctx, state, target, owner):
        who = TARGETS[target]
        if who == "self":
            return ctx.owner
        players = tuple(state.players(ctx, who))
        if not players:
            raise VMError(f"{owner}: no player is `{who}` here")
        if len(players) == 1 or not who.startswith(("chosen", "self_or")):
            return players[0]
        return ChoosePlayer(owner, ctx.owner, players, who)

    def _index(self, answer, count: int, what: str) -> int:
        if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < count:
            raise VMError(f"answer an {what} number from 0 to {count - 1}, not {answer!r}")
        return answer

    def _how_many(self, owner, actor, most: int, chunk, ins) -> Generator[Request, Any, int]:
        """`Spend any amount of ...`: how many, from none to `most` (asked only with a choice)."""
        if most <= 0:
            return 0
        choices = tuple(range(most + 1))
        answer = yield PickNumber(owner, actor, choices, self._prompt(chunk, ins))
        return self._member(answer, choices)

    def _some_players(self, answer, players: tuple[int, ...], most: int) -> tuple[int, ...]:
        if not isinstance(answer, (list, tuple)) or len(answer) > most or len(set(answer)) != len(answer) \
                or any(isinstance(p, bool) or p not in players for p in answer):
            raise VMError(f"answer up to {most} different players of {list(players)}, not {answer!r}")
        return tuple(p for p in players if p in answer)  # in turn order, whatever order they were named

    def _member(self, answer, choices) -> int:
        if answer not in choices or isinstance(answer, bool):
            raise VMError(f"answer one of {list(choices)}, not {answer!r}")
        return answer

    def _picks(self, answer, count: int, least: int, most: int) -> list[int]:
        picks = list(answer) if isinstance(answer, (list, tuple)) else None
        if (picks is None or not least <= len(picks) <= most or len(set(picks)) != len(picks)
                or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < count
                           for p in picks)):
            raise VMError(f"answer {least} to {most} different numbers from 0 to {count - 1}, "
                          f"not {answer!r}")
        return picks

    def _changes(self, answer, most: int, options) -> list[tuple[int, int]]:
        pairs = list(answer) if isinstance(answer, (list, tuple)) else None
        if pairs is None or len(pairs) > most:
            raise VMError(f"answer at most {most} (die, value) pairs, not {answer!r}")
        out = []
        for pair in pairs:
            if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[0], int)
                    or not 0 <= pair[0] < len(options) or pair[1] not in options[pair[0]]):
                raise VMError(f"a change is (die index, a value that die may take), not {pair!r}")
            if any(done == pair[0] for done, _ in out):
                raise VMError(f"one change per die, not {answer!r}")
            out.append((pair[0], pair[1]))
        return out

    def _steps_that_fit(self, chunk_index, chunk, ins, state, actor, choices: tuple) -> tuple:
        """The numbers of a pick that a track move right after it has room for (`take 1 or 2 Steps
        forward` one position from the top: 1); all of them for any other pick, or when none fits."""
        steps = self._steps(chunk_index)
        at = chunk.program.index(ins) + 1
        if at >= len(steps) or steps[at][0] != Op.MOVE:
            return choices
        _, comp, direction, _ = steps[at]
        if direction == 0:  # asked after the number: either way
            room = max(state.track_room(actor, comp, True), state.track_room(actor, comp, False))
        else:
            room = state.track_room(actor, comp, direction == 1)
        return tuple(n for n in choices if n <= room) or choices

    @staticmethod
    def _one_way(steps: list[tuple], pc: int, state: GameState, actor: int) -> str:
        """` (only down is open)` when what a `you may` offers is a move on a track that only one
        way has room for (`You may take 1 Step` at the top of the track: the Step is backward, taken
        unasked), so that a yes is not given for the other way; else ``."""
        at = pc + 1 if pc < len(steps) and steps[pc][0] == _JUMP_IF_FALSE else pc
        if at + 1 >= len(steps) or steps[at][0] not in (_PUSH, Op.PICK) or steps[at + 1][0] != Op.MOVE \
                or steps[at + 1][2] != 0:
            return ""
        comp = steps[at + 1][1]
        up, down = state.track_room(actor, comp, True), state.track_room(actor, comp, False)
        return " (only up is open)" if up and not down else " (only down is open)" if down and not up else ""

    def _remove(self, ctx, state, targets, status, n, owner, actor):
        """REMOVE: n tokens of the status from each target."""
        for target in targets:
            purpose = "remove" if target == actor else f"remove from P{target + 1}"
            yield from self._take_tokens(state, target, status, n, owner, actor, purpose)

    def _take_tokens(self, state, target, status, n, owner, actor, purpose, moving=False):
        """Remove n tokens of the status (or class) from `target`; return the statuses of the tokens
        that went, one per token (a token only its owner's effects remove stays; `moving`: a transfer,
        which moves no token marked `transferable: false`)."""
        held = state.removable(target, status)
        if moving:
            entry = self.artifact.statuses
            if held is None:  # a named status: all of its tokens move, or none
                movable = entry[status].get("transferable", True) and not entry[status].get("companion") \
                    and (entry[status].get("removable", True) or actor == target)
                held = [status] * state.status_count(target, status) if movable else []
            else:
                held = [s for s in held if entry[s].get("transferable", True)]
        kinds = sorted(set(held)) if held is not None else [status]
        before = [state.status_count(target, k) for k in kinds]
        # "remove that many tokens" ("Removing Status Effects"): which ones is the choice of the
        # player removing them, when there is a choice
        if moving and (len(set(held)) < 2 or not 0 < n < len(held)):
            state.remove_tokens(target, held[:n])
        elif held is None or len(set(held)) < 2 or not 0 < n < len(held):
            state.remove_status(target, status, n, by=actor)
        else:
            answer = yield ChooseItems(owner, actor, tuple(state.status_name(s) for s in held), n, n, purpose)
            state.remove_tokens(target, [held[i] for i in self._picks(answer, len(held), n, n)])
        return [k for k, was in zip(kinds, before, strict=True)
                for _ in range(was - state.status_count(target, k))]

    def _transfer(self, ctx, state, chunk, ins, n, owner, actor):
        """TRANSFER: n tokens leave the first target; the second target, never the same player, gains
        them (within her stack limit: "Stack Limits"); a choice of who gains them is asked."""
        status, source, dest = ins.operands
        sources = self._targets(ctx, state, source, owner, actor)
        who = TARGETS[dest]
        dests = [p for p in ([actor] if who == "self" else state.players(ctx, who)) if p not in sources[:1]]
        if not sources or not dests or not n:
            ctx.removed = 0
            return
        gainer = dests[0]
        if len(dests) > 1 and (who in CHOSEN or who == "another_player"):
            negative = (self.artifact.statuses[status].get("class")
                        or self.artifact.statuses[status].get("polarity")) == "negative"
            answer = yield ChoosePlayer(owner, actor, tuple(dests), who, self._prompt(chunk, ins), negative)
            gainer = self._member(answer, tuple(dests))
        if who in CHOSEN or who == "another_player":
            ctx.chosen = gainer  # `them` after it is the player who gained them
        purpose = f"transfer from P{sources[0] + 1} to P{gainer + 1}"
        moved = yield from self._take_tokens(state, sources[0], status, n, owner, actor, purpose, moving=True)
        ctx.removed = len(moved)  # `per token removed`
        for kind in moved:
            state.gain_status(gainer, kind, 1, 0, by=actor)

    def _hostile(self, chunk_index: int, offset: int) -> bool | None:
        """Whether the first thing done after a choice of player harms the one chosen."""
        program = self.artifact.chunks[chunk_index].program
        after = [ins for ins in program if ins.offset > offset]
        for ins in after:
            if ins.op in (Op.DEAL, Op.INFLICT, Op.STEAL_CP, Op.LOSE_CP, Op.DISCARD, Op.RECEIVE):
                return True
            if ins.op in (Op.GAIN, Op.HEAL, Op.GAIN_CP, Op.DRAW, Op.PREVENT, Op.PREVENT_HALF, Op.PREVENT_ALL):
                return False
            if ins.op in (Op.REMOVE, Op.TRANSFER):  # from the player chosen: taking bad tokens helps
                status = self.artifact.statuses[ins.operands[0]]
                return (status.get("class") or status.get("polarity")) != "negative"
            if ins.op in (Op.END, Op.JUMP, Op.CHOOSE, Op.THEN, Op.MAY):
                return None
        return None

    def _prompt(self, chunk, ins) -> str:
        text = chunk.prompts.get(ins.offset)
        return text if isinstance(text, str) else chunk.owner

    def _option_labels(self, chunk, ins) -> tuple[str, ...]:
        labels = chunk.prompts.get(ins.offset)
        count = len(ins.operands[0])
        if isinstance(labels, list) and len(labels) == count:
            return tuple(labels)
        return tuple(f"option {i + 1}" for i in range(count))

