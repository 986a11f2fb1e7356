"""Engine: a verified ruleset, heroes and a seed in; a played game (requests out, answers in).

The turn follows the Vanguard rulebook's "Turn Breakdown": Upkeep, Income
(skipped by the Start Player on the first turn), Main (1), Offensive Roll
(up to 3 Roll Attempts, activation, re-announcement after altered dice),
Targeting (skipped with one opponent; with more, the mode's targeting die or
choice, `targeting`), Defensive Roll, Main (2), Discard.  The table is the
mode's (`dtc.dicethrone.modes`): seats, sides, turn order, shared Health Dials;
a hero defeated in a game of more than two leaves it (`leave`).
Damage and healing wait in the Upkeep and Roll Phases and land together at
their conclusion, through `dtc.dicethrone.damage`.  All hero behaviour comes
from the artifact: triggers select chunks, the VM runs them.

`Game.play()` is a generator of requests (`dtc.vm` and `dtc.dicethrone.requests`);
send each answer back in.  One seeded RNG drives dice and shuffles, so a seed and
the answers describe a whole game.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import Any

from dtc.artifact import Artifact
from dtc.dicethrone.damage import final_total, isolated_total, uncounted
from dtc.dicethrone.modes import Mode
from dtc.dicethrone.requests import (
    Act,
    Action,
    Activate,
    AnswerError,
    Choice,
    ChooseDefense,
    RollDice,
    SellDown,
)
from dtc.dicethrone.state import Attack, GameState, Queued
from dtc.dicethrone.tables import (
    hero_tables,
    leveled,
    rules_of,
    spent_chunks,
    symbol_counts,
)
from dtc.opcodes import Op
from dtc.vm import VM, ChooseOption, ChoosePlayer, FindDefender, Request, RunContext, Window, change_options

MAX_TURNS = 400
# Effects one chain of triggers may set off before it is cut: content can make two triggers set each
# other off for ever (a dial's "reads 5: reduce it by 1" beside "reads 4: increase it by 1"), and the
# rules ("follow the chain until it runs out") never say what to do when it does not; no chain of
# the built-in content comes near it.
MAX_TRIGGER_CHAIN = 100
REROLL = "re-roll"  # `announce`: back to step 1 with the unused roll attempts
# Roll Phase action cards "may only be played during an Offensive Roll Phase, Defensive Roll Phase,
# or Targeting Roll Phase" ("Action Cards"): by the phase, not the window (a `Then` of an Upkeep
# effect is no Roll Phase); the very end of the Roll Phase is still part of it
ROLL_PHASES = {"Offensive Roll Phase", "Targeting Roll Phase", "Defensive Roll Phase", "Roll Phase end"}
# where `skip your turn` is not said in the middle of one's own turn: before the first turn, in the
# last phase (nothing of the turn is left to skip), after the turn's end
NOT_MID_TURN = {"", "Discard Phase", "end"}
# the engine's window for each break in play an effect makes (THEN's operand, as the VM names it)
WINDOW_OF = {"then": "then", "after defensive roll": "defensive", "after effect roll": "rolled"}


@dataclass
class Result:
    """How a game ended."""

    winner: int | None  # seat, or None for a draw
    turns: int
    start_player: int
    reason: str  # "defeat" | "draw" | "turn limit"
    health: tuple[int, ...]
    winners: tuple[int, ...] = ()  # every seat of the side that won (a team's both players)


class Game(GameState):
    """One game of Dice Throne between the given heroes (artifact indices)."""

    def __init__(self, artifact: Artifact, heroes: list[int], seed: int, record: bool = True,
                 ruleset: str | None = None, rng: Any = None, mode: str = "1v1", table: Mode | None = None):
        rules = rules_of(artifact, ruleset, mode)
        if table is not None:  # a table the rules do not list (a Dice Throne Adventures Boss Battle)
            rules = replace(rules, mode=table, start_health=table.start_health)
        if len(heroes) != rules.mode.players:
            raise ValueError(f"mode {rules.mode.name} seats {rules.mode.players} heroes: {len(heroes)} given")
        rng = rng if rng is not None else random.Random(seed)  # tests pass scripted dice
        super().__init__(artifact, rules, hero_tables(artifact), heroes, rng, record)
        self.seed = seed
        self.vm = VM.shared(artifact)
        self._phase_groups: dict[str, set[str]] = {}
        self.turn_no = 0
        self.phase = ""
        self.start_player = 0
        self.over: Result | None = None
        self.roll: list[int] = []  # the dice on the table: of the roll phase, or the latest effect roll
        self.dice_rolled = 0  # how many times dice were rolled or changed: new dice, even on the same faces
        self.roll_faces: dict[int, int] | None = None  # and what their faces show
        self.roll_owner: int | None = None  # and whose dice they are (the player who rolled them)
        # whether their results are still to be used: offensive dice until the ability is activated,
        # an effect's dice until the effect ends; cards that alter dice are offered only then
        self.dice_open = False
        self.ultimate_lock = False  # opponents may do nothing during an Ultimate
        self.ability_pending = False  # an Offensive Roll Phase's ability not yet chosen or resolved
        self.defense_step = "none"  # this Roll Phase's Defensive Roll: none, rolled, resolved
        self.defense_chunk: int | None = None  # the defensive ability's chunk, while it resolves
        self.turn_cut = False  # the rest of this turn is skipped (`skip your turn` said in it)
        self.starting = False  # the phase under way is at its start (`At the start of ...` runs)
        self.phase_cut = False  # ... and an effect there skipped it: it ends before anything else
        self._turn_mark = artifact.phases.index("turn") if "turn" in artifact.phases else -1
        self._skip_marks: dict[tuple[str, bool], tuple[int, ...]] = {}  # `skipping`
        self.window_depth = 0
        self.chain_left: int | None = None  # effects the chain of triggers now running may still set off
        # "Instant Action cards cannot be interrupted", nor Roll Phase ones by them, and "if a Status
        # Effect is spent, its effects cannot be interrupted": no windows while one resolves
        self.uninterruptible = 0
        self._trigger_index: dict[int, dict] = {}
        self._trigger_hits: dict[tuple, bool] = {}  # `has_trigger`, by (seat or -1-status, on, key)
        self.status_on = [_by_trigger(s.get("effects", [])) for s in artifact.statuses]
        self.tier_effects = [[t["effect"] for t in s.get("tiers", [])] for s in artifact.statuses]
        # the triggers any status of the ruleset has: a turn's edges skip those no status has
        self.status_triggers = {on for by_on in self.status_on for on in by_on} | {
            (t.get("trigger") or {}).get("on") for tiers in self.tier_effects for t in tiers}
        self.edges = _edges(artifact)
        # the triggers of the statuses' and heroes' own effects (a component's are queued by the state):
        # a dial's reading, a Defensive Roll Phase's dmg are looked into only for those that have them
        self.held_triggers = self.status_triggers | _ability_triggers(artifact)
        self.any_time_statuses = {i for i, by_on in enumerate(self.status_on) if "any_time" in by_on}
        # `When you receive dmg`: who was hurt (and whether a status effect's dmg was among it) since the
        # dmg last landed, looked after only when some effect of the ruleset has that moment
        moments = self.held_triggers | _component_triggers(artifact)
        self.watch_damage = "damaged" in moments
        self.hurt_now: list[int] = []
        self.status_dealt: set[int] = set()
        self.spend_watched = "spends_status" in moments
        self.watch_heal = "healed" in moments
        self.watch_play = "plays_card" in moments
        self.plays = 0  # cards played so far: a scheduled `When you play a card` waits for a later one
        self.healed_firing = 0  # a `When you heal` effect resolving: its own healing sets off none
        self.damaged_firing = 0  # `When you receive dmg` effects resolving: the dmg they deal sets off none
        self._replaces: dict[int, frozenset[str]] = {}  # `replaces`
        self._edges_named: dict[tuple[str, str], bool] = {}  # `edge_named`
        self.spendables = {i for i, s in enumerate(artifact.statuses) if s.get("spendable")}
        # per seat, an agent's `passes(game, seat, window)`: when it says so, the seat passes
        # without being asked (set by `dtc.agents.base.play` when no one records the requests)
        self.pass_hints: list[Any] | None = None
        # who acts first in a window: the active player, then in turn order (the mode's)
        order = self.mode.turn_order
        self._turn_orders = [tuple(order[(order.index(active) + k) % len(order)] for k in range(len(order)))
                             for active in range(len(self.seats))]
        self.many = len(self.seats) > 2  # a hero out of the game leaves it; windows pass her by
        self.out: set[int] = set()  # the seats defeated and gone
        self.finding = False  # the Targeting Roll Phase under way (`find_defender`)

    # =================================================================== game
    def play(self) -> Generator[Request, Any, Result]:
        """The whole game; returns its Result."""
        yield from self.setup()
        while self.over is None:
            yield from self.turn()
            if self.over is None and self.turn_no >= MAX_TURNS:
                self.finish(None, "turn limit")
        return self.over

    def setup(self) -> Generator[Request, Any, None]:
        for p in self.seats:
            self.rng.shuffle(p.deck)
            self.draw(p.seat, self.rules.starting_hand)
        rolls = [0] * len(self.seats)
        # "The player who rolls the highest number is considered the Start Player": all roll again
        # until one number is highest (with two players: until they differ)
        while max(rolls) == 0 or rolls.count(max(rolls)) > 1:
            rolls = [self.rng.randint(1, 6) for _ in self.seats]
        self.start_player = self.active = rolls.index(max(rolls))
        self.event("start", heroes=[p.table.name for p in self.seats], rolls=rolls,
                   start_player=self.start_player, seed=self.seed)
        for p in self.seats:
            if p.table.setup is not None:
                yield from self.run(p.table.setup, self.ctx(p.seat, p.table.index))

    def finish(self, winner: int | None, reason: str) -> None:
        winners = () if winner is None else tuple(
            s for s in range(len(self.seats)) if self.team_of[s] == self.team_of[winner])
        self.over = Result(winner, self.turn_no, self.start_player, reason,
                           tuple(p.health for p in self.seats), winners)
        if self.many:
            self.event("end", winner=winner, reason=reason, turns=self.turn_no, winners=list(winners))
        else:
            self.event("end", winner=winner, reason=reason, turns=self.turn_no)

    def check_defeat(self) -> None:
        """"The moment your health is reduced to 0, you have been defeated": with more than two players
        she is out of the game (`leave`); the last side standing wins, none left is a draw."""
        if self.over is not None:
            return
        alive = [p.seat for p in self.seats if p.alive]
        if self.many:
            for seat in range(len(self.seats)):
                if seat not in alive and seat not in self.out:
                    self.leave(seat)
            sides = {self.team_of[s] for s in alive}
            if len(sides) == 1:
                self.finish(alive[0], "defeat")
            elif not sides:
                self.finish(None, "draw")
        elif len(alive) == 1:
            self.finish(alive[0], "defeat")
        elif not alive:
            self.finish(None, "draw")

    def leave(self, seat: int) -> None:
        """A defeated hero leaves the game: her statuses, her hand and what she set to happen later go,
        and she has no more turns (`pass_turn`) nor a say in any window."""
        p = self.seats[seat]
        self.out.add(seat)
        p.tokens.clear()
        p.discard.extend(p.hand)
        p.hand.clear()
        self.scheduled = [(t, q) for t, q in self.scheduled if q.player != seat]
        self.queue = [q for q in self.queue if q.player != seat]
        self.event("out", player=seat)

    # =================================================================== turn
    def turn(self) -> Generator[Request, Any, None]:
        self.turn_no += 1
        a = self.active
        for p in self.seats:
            p.used.clear()
            p.dealt = p.attacked = 0  # "this turn" counts start again
        self.turn_cut = False
        marks = self.seats[a].skip
        if marks and self._turn_mark in marks:
            # a skipped turn does not happen at all (no edges, no phases): the next player's comes
            marks.discard(self._turn_mark)
            self.event("turn_skipped", turn=self.turn_no, player=a)
            self.pass_turn(a)
            return
        self.event("turn", turn=self.turn_no, player=a)
        self.phase = "start"
        yield from self.turn_edge(a, "start")
        if self.halted(a):
            return self.pass_turn(a)
        yield from self.upkeep(a)
        if self.halted(a):
            return self.pass_turn(a)
        if self.income(a):
            if self.scheduled or self.edge_named(self.phase, "start"):
                yield from self.phase_edge(a, "start")
            yield from self.income_phase(a)
            # instants and spendable statuses may be used "at any time, during any player's turn"
            # ("Action Cards", "Spendable Status Effects"): the Income Phase too
            yield from self.window("income")
            if self.scheduled or self.edge_named(self.phase, "end"):
                yield from self.phase_edge(a, "end")
            yield from self.land_damage(None)  # what was dealt and prevented in the phase lands at its end
            if self.halted(a):
                return self.pass_turn(a)
        yield from self.main_phase(a, "Main Phase (1)")
        if self.halted(a):
            return self.pass_turn(a)
        yield from self.roll_phases(a)
        if self.halted(a):
            return self.pass_turn(a)
        yield from self.main_phase(a, "Main Phase (2)")
        if self.halted(a):
            return self.pass_turn(a)
        yield from self.discard_phase(a)
        self.phase = "end"
        yield from self.turn_edge(a, "end")
        yield from self.land_damage(None)  # dmg dealt as the turn ends lands then, not in the next Upkeep
        self.pass_turn(a)

    def halted(self, a: int) -> bool:
        """Whether the turn of `a` stops here: the game is over, or she is out of it."""
        return self.over is not None or (self.many and not self.seats[a].alive)

    def pass_turn(self, a: int) -> None:
        """The next player in turn order still standing becomes the active player."""
        if self.over is None:
            order = self._turn_orders[a]
            self.active = next(s for s in order[1:] + order[:1] if self.seats[s].alive)

    def upkeep(self, a: int) -> Generator[Request, Any, None]:
        if self.skipping(a, "Upkeep Phase"):
            return
        self.phase = "Upkeep Phase"
        self.accumulate = True
        if (yield from self.phase_start(a)):
            self.accumulate = False
            yield from self.land_damage(None)
            return
        yield from self.fire_during(a, self.phase, chosen_order=True)
        yield from self.window("upkeep")
        if self.scheduled or self.edge_named(self.phase, "end"):
            yield from self.phase_edge(a, "end")
        self.accumulate = False
        yield from self.land_damage(None)

    def income(self, a: int) -> bool:
        """Whether the Income Phase happens (False: skipped, so it does not happen at all)."""
        self.phase = "Income Phase"
        if self.turn_cut:
            return False
        if self.turn_no == 1 and a == self.start_player:
            # the phase does not come at all: a skip waits for the next Income Phase that would
            self.event("income_skipped", player=a, reason="start player")
            return False
        return not self.skipping(a, self.phase)

    def income_phase(self, a: int) -> Generator[Request, Any, None]:
        """"Gain 1 CP & draw 1 card" ("Turn Phases"), and what acts during the phase. An effect that
        says `instead` (`During your Income Phase, draw 2 cards instead.`) acts first, and what it
        replaced is not done: the card if it draws, the CP if it gains CP, both if it does neither."""
        rest: list[Queued] = []
        replaced: set[str] = set()
        if self.scheduled or self.edge_named(self.phase, "during"):
            group = self._phase_names(self.phase)

            def matches(trigger: dict) -> bool:
                return self.a.phases[trigger["phase"]] in group

            for job in self.take_scheduled("during", matches, a) + self.collect(a, "during", matches):
                if not self.replaces(job.chunk):
                    rest.append(job)
                elif (yield from self.run_jobs([job], None, None)):
                    replaced |= self.replaces(job.chunk)
        if "cp" not in replaced:
            self.change_cp(a, self.rules.income_cp)
        if "draw" not in replaced:
            self.draw(a, self.rules.income_draw)
        yield from self.run_jobs(rest, None, None)

    def replaces(self, chunk: int) -> frozenset[str]:
        """What of the Income Phase's own the effect replaces when its `instead` runs (none: it has none)."""
        found = self._replaces.get(chunk)
        if found is None:
            ops = {ins.op for ins in self.a.chunks[chunk].program}
            found = frozenset()
            if Op.INSTEAD in ops:
                found = frozenset({"draw"} if Op.DRAW in ops else ()) | frozenset(
                    {"cp"} if Op.GAIN_CP in ops else ()) or frozenset({"cp", "draw"})
            self._replaces[chunk] = found
        return found

    def main_phase(self, a: int, name: str) -> Generator[Request, Any, None]:
        """Effects of the phase, then the player acts: "Perform any of the options below in any order,
        and as many times as you like" ("Turn Breakdown"); an effect that reads "During your Main
        Phase, you may ..." is one of those options (`main_options`), not a question at its start."""
        if self.skipping(a, name):
            return
        self.phase = name
        if (yield from self.phase_start(a)):
            yield from self.land_damage(None)
            return
        group = self._phase_names(name)
        yield from self.fire_scheduled("during", lambda t: self.a.phases[t["phase"]] in group, a)
        # its "you may" effects wait in `main_options`: collected here, a once-per-turn one would
        # count as used before it was ever offered
        jobs = self.collect(a, "during", lambda t: self.a.phases[t["phase"]] in group, options=False)
        yield from self.run_jobs(jobs, None, None)
        yield from self.window("main")
        if self.scheduled or self.edge_named(self.phase, "end"):
            yield from self.phase_edge(a, "end")
        # damage dealt and prevented in this phase land at its end; prevention lasts only "during
        # the phase in which they are played" ("Reducing Damage")
        yield from self.land_damage(None)

    def discard_phase(self, a: int) -> Generator[Request, Any, None]:
        if self.skipping(a, "Discard Phase"):
            return  # nothing is sold down to the hand limit
        self.phase = "Discard Phase"
        if (yield from self.phase_start(a)):
            return
        yield from self.fire_during(a, self.phase)
        yield from self.window("discard")  # an instant may be played rather than sold
        p = self.seats[a]
        excess = len(p.hand) - self.rules.hand_limit
        if excess > 0 and self.over is None:
            answer = yield SellDown("Discard Phase", a, tuple(c.card.name for c in p.hand), excess)
            picks = _distinct(answer, len(p.hand), excess, excess)
            for i in sorted(picks, reverse=True):
                self.sell(a, i)
        if self.scheduled or self.edge_named(self.phase, "end"):
            yield from self.phase_edge(a, "end")
        yield from self.land_damage(None)

    # ================================================================= skips
    def skip_phase(self, player: int, phase: int, next_turn: bool = False) -> None:
        """`skip your turn` said in one's own turn before its last phase skips what is left of it: a
        player reading "During your Upkeep Phase, skip your turn" expects no Income, Main, Roll or
        Discard Phase now (the phase under way ends as usual, and so does the turn), not to lose
        the turn after; what is left is every phase not yet begun (said as an Attack is made, the
        Defender's Defensive Roll Phase too). Said at any other time, or `skip your next turn`, it
        is the next turn; a phase is always the next one (said during it, the one after)."""
        if phase == self._turn_mark and not next_turn and player == self.active \
                and self.phase not in NOT_MID_TURN:
            if not self.turn_cut:
                self.turn_cut = True
                self.event("skip", player=player, phase="turn", rest=True)
            return
        if self.starting and not next_turn and player == self.active \
                and self.a.phases[phase] in self._phase_names(self.phase):
            # "At the start of your Offensive Roll Phase, ... skip your Offensive Roll Phase": the
            # phase only begun is the one skipped, not the next turn's
            self.phase_cut = True
            self.event("skip", player=player, phase=self.phase, rest=True)
            return
        super().skip_phase(player, phase, next_turn)

    def phase_start(self, a: int) -> Generator[Request, Any, bool]:
        """`At the start of` the phase now; True when an effect there skipped the phase itself."""
        if self.scheduled or self.edge_named(self.phase, "start"):
            self.starting = True
            try:
                yield from self.phase_edge(a, "start")
            finally:
                self.starting = False
        cut, self.phase_cut = self.phase_cut, False
        return cut

    def skipping(self, seat: int, phase: str, groups: bool = True) -> bool:
        """Whether the phase does not happen for `seat`: the rest of the turn is skipped, or a skip
        marks the phase (with `groups`, or a group it is part of: `Main Phase`). One mark is used
        up, the phase's own before a group's: two skips, two phases."""
        if self.turn_cut:
            return True  # told once, when it was said
        marks = self.seats[seat].skip
        if not marks:
            return False  # the usual case: one look per phase
        key = (phase, groups)
        wanted = self._skip_marks.get(key)
        if wanted is None:
            names = [phase] + (sorted(self._phase_names(phase) - {phase}) if groups else [])
            wanted = self._skip_marks[key] = tuple(self.a.phases.index(x) for x in names
                                                    if x in self.a.phases)
        for mark in wanted:
            if mark in marks:
                marks.discard(mark)
                if phase == "Income Phase":
                    self.event("income_skipped", player=seat)
                else:
                    self.event("phase_skipped", player=seat, phase=phase)
                return True
        return False

    # ============================================================ roll phases
    def roll_phases(self, a: int) -> Generator[Request, Any, None]:
        if self.skipping(a, "Offensive Roll Phase"):
            # no roll, no Attack: no Targeting or Defensive Roll Phase follows, nor the Roll Phase's end
            return
        self.phase = "Offensive Roll Phase"
        self.accumulate = True
        self.attack = None
        self.failed = False
        # set before the phase's start and `During` effects, which may give more (`At the start of your
        # Offensive Roll Phase, perform 1 additional Roll Attempt` was reset here and never performed)
        self.attempts = 1
        self.max_attempts = self.rules.roll_attempts
        self.waiting_added = 0
        if (yield from self.phase_start(a)):
            # skipped at its start: no roll, no Attack, no Targeting or Defensive Roll Phase
            self.accumulate = False
            yield from self.land_damage(None)
            return
        yield from self.fire_during(a, self.phase)
        p = self.seats[a]
        faces = p.table.faces
        values = sorted(faces)
        self.roll = [values[self.rng.randrange(len(values))] for _ in range(p.table.dice)]
        self.dice_rolled += 1
        self.roll_faces, self.roll_owner = faces, a
        self.dice_open = True
        self.ability_pending = True  # until the ability chosen has resolved (or none is)
        self.defense_step = "none"
        self.event("roll", player=a, dice=list(self.roll), attempt=1)
        yield from self.window("offensive")
        while True:
            yield from self.roll_attempts(a, values)
            chosen = yield from self.announce(a)
            if chosen != REROLL:
                break
        if chosen is not None and self.over is None:
            yield from self.activate(a, *chosen)
            # the Targeting Roll Phase: with one opponent it "is skipped" ("Turn Phases"); a skip of
            # it is used up all the same, and told
            self.skipping(a, "Targeting Roll Phase", groups=False)
        self.ability_pending = False
        if self.attack is not None and self.attack.dealt and self.over is None:
            yield from self.defend()
        if self.over is None:
            yield from self.window("roll_end")
        self.phase = "Roll Phase end"
        if self.scheduled or self.edge_named(self.phase, "end"):
            yield from self.phase_edge(a, "end", self._roll_phase_names())
        self.accumulate = False
        yield from self.land_damage(self.attack)
        self.waiting_added = 0  # no Attack was made to take it
        if self.scheduled and self.attack is not None and self.over is None:
            # `If this Attack deals at least 5 dmg, ...`: read now that its dmg has landed
            yield from self.fire_scheduled("attack_landed", owner=a)
            yield from self.land_damage(None)
        self.attack = None
        self.ultimate_lock = False
        self.roll, self.roll_faces = [], None  # no dice left to alter once the roll phases end
        self.dice_open = False
        self.check_defeat()

    def roll_attempts(self, a: int, values: list[int]) -> Generator[Request, Any, None]:
        """Step 1: the remaining roll attempts, re-rolling any dice, until the player keeps all."""
        while self.attempts < self.max_attempts and self.over is None:
            answer = yield RollDice("Offensive Roll Phase", a, tuple(self.roll), self.symbols_of(a),
                                    self.attempts, self.max_attempts)
            picks = _distinct(answer, len(self.roll), 0, len(self.roll))
            if not picks:
                break
            for i in picks:
                self.roll[i] = values[self.rng.randrange(len(values))]
            self.dice_rolled += 1
            self.attempts += 1
            self.event("roll", player=a, dice=list(self.roll), attempt=self.attempts, rerolled=sorted(picks))
            yield from self.window("offensive")

    def rolled(self, ctx, player, how="rolls", before=None) -> None:
        """An effect rolled dice: they are the dice on the table now, the ones cards alter (the
        defender changing her own defence die: "Timing Conflicts and Interrupting", example)."""
        if how == "rolls" or self.roll is not ctx.roll:
            self.roll_owner = player  # new dice: hers; a card altering dice leaves them whose they were
        super().rolled(ctx, player, how, before, owner=self.roll_owner)
        self.roll, self.roll_faces = ctx.roll, ctx.faces
        self.dice_rolled += 1
        self.dice_open = True

    def symbols_of(self, seat: int) -> tuple[str, ...]:
        faces = self.seats[seat].table.faces
        return tuple(self.a.symbols[faces[v]] if v in faces else "?" for v in self.roll)

    def choices(self, a: int) -> list[Choice]:
        """Every ability option the current dice meet; of a tiered ability, the highest tier met
        (five Blades activate `3 / 4 / 5 [Blade]` at its 5: a lower tier is no other ability)."""
        p = self.seats[a]
        memo = p.table.memo
        roll = tuple(sorted(self.roll))  # requirements are met by the dice as a multiset
        counts = None
        out = []
        for i, j, option, label, worth in p.offense():
            key = ("meets", id(option), roll)
            met = memo.get(key)
            if met is None:
                if counts is None:
                    counts = symbol_counts(self.roll, p.table.faces)
                met = memo[key] = option.check(self.roll, counts)
            if met:
                if out and out[-1].ability == i and p.abilities[i].tiered:
                    out.pop()  # a lower tier of the same ability, also met
                out.append(Choice(label, i, j, worth))
        return out

    def announce(self, a: int) -> Generator[Request, Any, tuple[int, int] | str | None]:
        """Choose the ability; if the dice are altered after, choose again (after every change: the
        rule sets no limit, and each change uses up a card), or go back to the unused roll attempts
        (REROLL): "Offensive Roll Phase", step 3."""
        altered = False
        while self.over is None:  # a card played at the roll can end the game before any ability
            options = self.choices(a)
            left = self.max_attempts - self.attempts
            if altered and left > 0:
                options.append(Choice(f"re-roll ({left} roll attempt{'s' * (left > 1)} left)", -1, -1, 0.0))
            if not options:
                self.event("no_ability", player=a)
                return None
            answer = yield Activate("Offensive Roll Phase", a, tuple(self.roll), tuple(options))
            if answer is None:
                self.event("no_ability", player=a)
                return None
            choice = options[_index(answer, len(options), "ability")]
            if choice.ability < 0:
                self.event("back_to_rolling", player=a)
                return REROLL
            before = list(self.roll)
            self.event("announce", player=a, ability=choice.label)
            yield from self.window("announced")
            if self.roll == before:
                return choice.ability, choice.option
            self.event("dice_altered", player=a, dice=list(self.roll))
            altered = True

    def activate(self, a: int, ability_index: int, option_index: int) -> Generator[Request, Any, None]:
        p = self.seats[a]
        ability = p.abilities[ability_index]
        defender = self.opponents(a)[0]
        self.attack = Attack(a, defender, ability, ability.kind == "ultimate", option=option_index)
        yield from self.fire_all(a, "conclude", lambda t: not t.get("with_attack"))
        if self.failed:
            self.event("activation_failed", player=a)
            self.attack = None
            return
        self.ultimate_lock = self.attack.ultimate
        self.event("activate", player=a, ability=ability.titled, option=option_index,
                   ultimate=self.attack.ultimate)
        # with more than one opponent the Defender is found when the first effect that needs a target
        # comes (`find_defender`): what needs none resolves before ("4. Offensive Roll Phase", step 4);
        # with one, King of the Hill's bonus card is still drawn then ("these rules still apply")
        self.attack.found = not (self.many and (len(self.opponents(a)) > 1 or self.mode.leader_bonus_draw))
        self.take_waiting_added()
        ctx = self.ctx(a, p.table.index, attacker=a, defender=defender, roll=self.roll)
        ctx.attack_run = True
        self.dice_open = False  # the offensive dice have done their work
        for chunk in (ability.shared, ability.options[option_index].chunk, ability.additionally):
            if chunk is not None and self.over is None:
                yield from self.run(chunk, ctx)
        if self.attack is not None:
            # what the ability does is done: what did not need a target leaves none to find
            self.attack.found = True
            defender = self.attack.defender
        if self.attack is not None and self.attack.dealt:
            # with the dmg it brings so far (what the narration told piece by piece, additions
            # before the dmg they add to among them: player QA)
            self.event("attack", attacker=a, defender=defender, type=self.a.damage_types[self.attack.dtype],
                       dmg=self.incoming[defender].total_before())
            # players act as the phase concludes (spend a token, change form...); then what
            # concluding it with an Attack does, in the form the hero is in by then
            yield from self.window("conclude")
            if self.attack is not None and self.over is None:
                yield from self.fire_all(a, "conclude", lambda t: t.get("with_attack"), a, defender)

    def find_defender(self) -> Generator[Request, Any, int]:
        """The first effect of the Attacker's that needs the Attack's Defender has come: the Targeting
        Roll Phase finds her (once), and what was added to the Attack by then is hers."""
        attack = self.attack
        if not attack.found:
            self.finding = True
            try:
                attack.defender = yield from self.targeting(attack.attacker, attack.ultimate)
            finally:
                self.finding = False
            attack.found = True
            incoming = self.incoming[attack.defender]
            incoming.added += attack.early_added
            incoming.doublings += attack.early_doublings
            attack.early_added = attack.early_doublings = 0
        return attack.defender

    def targeting(self, a: int, ultimate: bool) -> Generator[Request, Any, int]:
        """The Targeting Roll Phase with more than one opponent: in King of the Hill "simply choose an
        opponent to Attack"; in 2v2 roll 1 die, which cards may alter unless the Attack is an Ultimate:
        1 or 2 the opponent on your left, 3 or 4 the one on your right, 5 your opponents choose which
        of them, 6 you choose. A Leader targeted draws the bonus card at once ("King of the Hill"). A
        skipped Targeting Roll Phase rolls no die: the Attacker chooses (our reading; the rulebooks
        do not say)."""
        opponents = self.opponents(a)
        if len(opponents) == 1:  # "If you have only one opponent, this phase is skipped"
            self.event("target", player=a, defender=opponents[0], how="the only opponent")
            self.leader_bonus(a, opponents[0])
            return opponents[0]
        self.phase = "Targeting Roll Phase"
        how = "choose" if self.skipping(a, self.phase, groups=False) else self.mode.targeting
        if self.scheduled or self.edge_named(self.phase, "start"):
            yield from self.phase_edge(a, "start", {self.phase})
        chooser, why = a, "chosen"
        if how == "roll":
            value = yield from self.targeting_roll(a, ultimate)
            left, right = self.beside(a, 1), self.beside(a, -1)
            if value in (1, 2) and left is not None:
                opponents, why = [left], "the opponent on the left"
            elif value in (3, 4) and right is not None:
                opponents, why = [right], "the opponent on the right"
            elif value == 5:  # asked of the first of them in turn order from the Attacker
                chooser = next(s for s in self._turn_orders[a] if s in opponents)
                why = "the opponents chose"
            else:
                why = "the Attacker chose"
        defender = opponents[0]
        if len(opponents) > 1:
            answer = yield ChoosePlayer(self.phase, chooser, tuple(opponents), "attack target",
                                        f"the Defender of {self.attack.ability.titled}",
                                        chooser == a)
            defender = _member(answer, opponents, "player")
        self.event("target", player=a, defender=defender, how=why)
        self.leader_bonus(a, defender)
        if self.scheduled or self.edge_named(self.phase, "end"):
            yield from self.phase_edge(a, "end", {self.phase})
        self.phase = "Offensive Roll Phase"  # the ability's effects resolve as they would with one opponent
        return defender

    def leader_bonus(self, a: int, defender: int) -> None:
        """"If you target a Leader with an Attack, you draw 1 card from your deck. The card draw happens
        immediately after choosing your target (before any other effects occur)"; "If you are the only
        Leader ..., you cannot earn a bonus card": then no one she may target is a Leader."""
        if self.mode.leader_bonus_draw and defender in self.leaders():
            self.event("leader_bonus", player=a, leader=defender)
            self.draw(a, self.mode.leader_bonus_draw)

    def targeting_roll(self, a: int, ultimate: bool) -> Generator[Request, Any, int]:
        """The targeting die, rolled by the Attacker; any player may alter it (Roll Phase cards) before
        it counts, unless the Attack is an Ultimate. The offensive dice are on the table again after."""
        kept = (self.roll, self.roll_faces, self.roll_owner, self.dice_open)
        faces = self.seats[a].table.faces
        values = sorted(faces)
        self.roll = [values[self.rng.randrange(len(values))]]
        self.dice_rolled += 1
        self.roll_faces, self.roll_owner = faces, a
        self.dice_open = not ultimate
        self.event("targeting_roll", player=a, die=self.roll[0])
        if not ultimate:
            yield from self.window("targeting")
        value = self.roll[0]
        self.roll, self.roll_faces, self.roll_owner, self.dice_open = kept
        self.dice_rolled += 1
        return value

    def defend(self) -> Generator[Request, Any, None]:
        """The Defensive Roll Phase: "the Defender now begins the Defensive Roll Phase" ("Turn
        Breakdown"), so a skip of it is hers: she rolls no defence and has no window of its own (the
        Attack still is one: what being Attacked sets off acts, and its dmg lands)."""
        attack = self.attack
        d, a = attack.defender, attack.attacker
        skipped = self.skipping(d, "Defensive Roll Phase", groups=False)
        if not skipped:
            self.phase = "Defensive Roll Phase"
            # the phase is the Defender's: its start and `During your Defensive Roll Phase` are her
            # effects (not the Roll Phase's start, nor `During your Roll Phase`: those were the Attacker's)
            own = {self.phase}
            if self.scheduled or self.edge_named(self.phase, "start"):
                yield from self.phase_edge(d, "start", own)
            yield from self.fire_during(d, self.phase, names=own)
            if self.over is None:
                yield from self.defensive_roll(attack)
        yield from self.fire_all(a, "attacking", None, a, d)
        self.seats[d].attacked += 1  # `If you were Attacked this turn`
        yield from self.fire_all(d, "attacked", lambda t: self._attacked_matches(t, attack), a, d)
        if not skipped:
            yield from self.window("defensive")
        yield from self.damaged_by_attack()

    def damaged_by_attack(self) -> Generator[Request, Any, None]:
        """`When you receive dmg from an opponent's Offensive Roll Phase`: the Defender's effects (and
        what she scheduled), once, when the Attack's dmg would hurt her, with what she prevented by then
        (after her Defensive Roll Phase, before the Roll Phase ends and the dmg lands)."""
        attack = self.attack
        if attack is None or self.over is not None or (
                "damaged_by_phase" not in self.held_triggers and not self.scheduled):
            return
        d = attack.defender
        kind = self.rules.damage_types[attack.dtype] if attack.dtype is not None else None
        if final_total(self.incoming[d], kind, self.rules.round_up) <= 0:
            return
        offensive = self._phase_names("Offensive Roll Phase")
        yield from self.fire_all(d, "damaged_by_phase", lambda t: self.a.phases[t["phase"]] in offensive,
                                 attack.attacker, d)

    def defensive_roll(self, attack: Attack) -> Generator[Request, Any, None]:
        """The Defender's Defensive Ability, against a defendable Attack that is no Ultimate."""
        d, a = attack.defender, attack.attacker
        defenses = [x for x in self.seats[d].abilities if x.kind == "defensive"]
        if not defenses or attack.ultimate or not self.rules.damage_types[attack.dtype].defendable:
            return
        index = 0
        if len(defenses) > 1:
            answer = yield ChooseDefense("Defensive Roll Phase", d, tuple(x.titled for x in defenses))
            index = _index(answer, len(defenses), "defensive ability")
        defense = defenses[index]
        self.defense_step = "rolled"  # a window within it comes before it resolves
        self.event("defend", player=d, ability=defense.titled)
        ctx = self.ctx(d, self.seats[d].table.index, attacker=a, defender=d)
        self.defense_chunk = defense.chunk
        yield from self.run(defense.chunk, ctx)
        self.defense_chunk = None
        self.defense_step = "resolved"

    def _attacked_matches(self, trigger: dict, attack: Attack) -> bool:
        kind = self.a.damage_types[attack.dtype]
        wanted = trigger.get("damage_type")
        if attack.ultimate and (wanted not in (None, "any") or trigger.get("except") is not None):
            return False
        if wanted == "any":
            excluded = trigger.get("except")
            return excluded is None or kind != self.a.damage_types[excluded]
        return wanted is None or self.a.damage_types[wanted] == kind

    # ================================================================ damage
    def deal(self, ctx, target, amount, dtype, isolated):
        attack = self.attack
        if (attack is not None and attack.ultimate and getattr(ctx, "attack_run", False)
                and "ultimate" in self.a.damage_types):
            dtype = self.a.damage_types.index("ultimate")
        if ctx.status is not None and amount > 0:
            self.status_dealt.add(target)  # `When you receive dmg from a status effect`
        super().deal(ctx, target, amount, dtype, isolated)

    def receive(self, ctx, player, amount, dtype):
        if ctx.status is not None and amount > 0:
            self.status_dealt.add(player)
        super().receive(ctx, player, amount, dtype)

    def schedule(self, ctx, trigger, chunk):
        """As the state schedules it, stamped with what it must wait past: `When you play a card` the
        card being played (a later one sets it off), `At the end of your next turn` this turn."""
        if trigger["on"] == "plays_card":
            trigger = {**trigger, "plays": self.plays}
        elif trigger.get("next"):
            trigger = {**trigger, "after_turn": self.turn_no}
        super().schedule(ctx, trigger, chunk)

    def played(self, seat: int, card) -> Generator[Request, Any, None]:
        """`When you play a card` (`an Action card`, `a Roll Phase card`): after the card resolves."""
        if not (self.watch_play or self.scheduled) or self.over is not None:
            return

        def matches(trigger: dict) -> bool:
            return (trigger.get("kind", card.kind) == card.kind
                    and trigger.get("timing", card.timing) == card.timing
                    and trigger.get("plays", -1) < self.plays)

        yield from self.fire_all(seat, "plays_card", matches)

    def spend_token(self, player: int, status: int, index: int) -> None:
        """The token goes (its `When spent` queued), and what its holder has for spending one of the
        status (`When you spend Chi, ...`) is queued after it."""
        tokens = self.seats[player].tokens.get(status, [])
        held = len(tokens)
        super().spend_token(player, status, index)
        if len(tokens) == held or not (self.spend_watched or self.scheduled):
            return

        def matches(trigger: dict) -> bool:  # the status, or a class of them (`a positive status effect`)
            wanted = trigger["status"]
            cls = self.a.statuses[wanted].get("class")
            return wanted == status or (cls is not None and self.a.in_class(status, cls))

        self.queue.extend(self.take_scheduled("spends_status", matches, player)
                          + self.collect(player, "spends_status", matches))

    def damage_coming(self, seat: int) -> bool:
        """Whether a prevention would act on something: dmg on its way, or, while the active player's
        ability is still to be chosen or is resolving, the dmg it may deal ("Effects that reduce damage
        apply to the cumulative total of damage dealt during the phase in which they are played":
        "Reducing Damage")."""
        return self.incoming[seat].on_its_way() or (self.ability_pending and seat != self.active)

    def isolated_damage(self) -> Generator[Request, Any, None]:
        """Isolated damage is "dealt immediately and may only be prevented or avoided as a separate
        instance": each instance alone, with a window for its target to prevent it. (While an
        effect that cannot be interrupted resolves, the instances wait for its end.)"""
        while self.isolated and self.over is None and not self.uninterruptible:
            target, amount, dtype = self.isolated.pop(0)
            kind = self.rules.damage_types[dtype]
            taken = isolated_total(amount, kind)
            if kind.avoidable:
                kept = self.incoming[target]
                self.incoming[target] = alone = type(kept)(amounts=[(amount, kind)])
                try:
                    yield from self.window("isolated")
                finally:
                    self.incoming[target] = kept
                taken = final_total(alone, None, self.rules.round_up)
            self.hurt(target, taken, isolated=True)
            self.check_defeat()
            if self.hurt_now:
                yield from self.fire_damaged(reland=False)  # what it sets off lands with the phase

    def apply_isolated(self) -> None:
        if not self.isolated:
            return
        for target, amount, dtype in self.isolated:
            taken = isolated_total(amount, self.rules.damage_types[dtype])
            self.hurt(target, taken, isolated=True)
        self.isolated.clear()
        self.check_defeat()  # "The moment your health is reduced to 0, you have been defeated"

    def land_damage(self, attack: Attack | None) -> Generator[Request, Any, None]:
        """The phase's dmg, prevention and healing land (`resolve_damage`), a defeat is seen at once,
        and then what being hurt sets off acts (`fire_damaged`)."""
        self.resolve_damage(attack)
        self.check_defeat()
        if self.hurt_now:
            yield from self.fire_damaged()
        else:
            self.status_dealt.clear()  # prevented in full: no one was hurt by it
        if self.queue:  # `When you heal`, set off as the healing landed
            yield from self.drain()

    def fire_damaged(self, reland: bool = True) -> Generator[Request, Any, None]:
        """`When you receive dmg, ...`: the effects of each player whose Health fell by dmg, in turn
        order from the active player (`from a status effect`: when a status effect's dmg was among
        it); an Attack's Defender has her Attacker. With `reland`, what they deal or heal lands at
        once, with the conclusion that set them off, and does not set them off again: a "when you
        receive dmg, deal 1 dmg back" on both sides is one exchange, not a loop."""
        hurt, self.hurt_now = set(self.hurt_now), []
        from_status, self.status_dealt = self.status_dealt, set()
        if self.over is not None:
            return
        attack = self.attack
        for seat in self._turn_orders[self.active]:
            if seat not in hurt or not self.seats[seat].alive:
                continue
            attacker = attack.attacker if attack is not None and attack.defender == seat else None

            def matches(trigger: dict, by_status=seat in from_status) -> bool:
                return by_status or not trigger.get("from_status")

            defender = seat if attacker is not None else None
            self.damaged_firing += 1
            try:
                yield from self.fire_all(seat, "damaged", matches, attacker, defender)
            finally:
                self.damaged_firing -= 1
        if reland and self.over is None:
            self.resolve_damage(None)
            self.hurt_now.clear()
            self.check_defeat()

    def resolve_damage(self, attack: Attack | None) -> None:
        """Apply everything collected this phase at once: "all damage, prevention, and/or healing
        effects are accumulated and are applied simultaneously" (so healing can keep a hero alive
        only if it outweighs the damage: 2 Health, 4 dmg and 1 healing is a defeat)."""
        self.apply_isolated()
        for p in self.seats:
            incoming = self.incoming[p.seat]
            if incoming.empty() and not self.heals[p.seat]:
                continue
            attack_type = None
            if attack is not None and attack.dtype is not None and p.seat == attack.defender:
                attack_type = self.rules.damage_types[attack.dtype]
            total = final_total(incoming, attack_type, self.rules.round_up)
            if attack is not None and p.seat == attack.defender:
                attack.landed += total
            if incoming.amounts or incoming.added:
                ignored, untouched = uncounted(incoming, attack_type)
                self.event("damage_total", player=p.seat, incoming=incoming.total_before(),
                           prevented=incoming.prevented, halvings=incoming.halvings, total=total,
                           **({"doublings": incoming.doublings} if incoming.doublings else {}),
                           **({"not_added": ignored} if ignored else {}),
                           **({"unavoidable": untouched} if untouched else {}))
            healing, self.heals[p.seat] = self.heals[p.seat], 0
            if total > 0 or healing > 0:
                self.net_health(p.seat, total, healing)
            self.incoming[p.seat] = type(incoming)()
        for p in self.seats:
            for tokens in p.tokens.values():
                for t in tokens:
                    t.doubled = False

    def net_health(self, seat: int, damage: int, healing: int) -> None:
        """Damage and healing of one phase applied together (Health stays within 0 and the cap)."""
        p = self.seats[seat]
        cap = p.start_health + self.rules.heal_cap
        after = max(0, min(cap, p.health - damage + healing))
        if damage > 0 and healing > 0:  # one change, as the rule has it: not a fall, then a heal
            self.event("health", player=seat, change=after - p.health, health=after, isolated=False,
                       damage=damage, healing=healing)
        elif damage > 0:
            self.event("health", player=seat, change=-damage, health=after, isolated=False)
        else:
            self.event("heal", player=seat, amount=after - p.health, health=after)
        if after < p.health and (self.watch_damage or self.scheduled) and not self.damaged_firing:
            self.hurt_now.append(seat)
        rose = after > p.health
        self.set_health(seat, after)
        if rose:
            self.healed(seat)

    def apply_heal(self, player, amount, by=None):
        before = self.seats[player].health
        super().apply_heal(player, amount, by)
        if self.seats[player].health > before:
            self.healed(player)

    def healed(self, seat: int) -> None:
        """`When you heal`: her Health rose; what she has for it is queued (and runs once what healed
        her ends, or as the dmg and healing of the phase land). The healing such an effect does sets off
        none again."""
        if not (self.watch_heal or self.scheduled) or self.healed_firing:
            return
        jobs = self.take_scheduled("healed", None, seat) + self.collect(seat, "healed")
        self.queue.extend(replace(job, moment="healed") for job in jobs)

    def hurt(self, seat: int, amount: int, isolated: bool = False) -> None:
        if amount <= 0:
            return
        p = self.seats[seat]
        self.set_health(seat, max(0, p.health - amount))
        self.event("health", player=seat, change=-amount, health=p.health, isolated=isolated)
        if (self.watch_damage or self.scheduled) and not self.damaged_firing:
            self.hurt_now.append(seat)

    # ============================================================== triggers
    def ctx(self, owner: int, hero: int | None, **kw) -> RunContext:
        """A run context for `owner`; dice faces are those of the chunk's hero."""
        ctx = RunContext(owner, hero, **kw)
        attack = self.attack
        if attack is not None and not attack.found and owner == attack.attacker and not self.finding:
            ctx.find_defender = True  # what the Attacker does may be the first to need the Defender
        own = self.seats[owner].table
        table = self.tables[hero] if hero is not None else own
        ctx.faces = table.faces
        if table is not own:
            ctx.dice_hero = own.index  # what she rolls, she rolls with her own dice
        return ctx

    def run(self, chunk: int, ctx: RunContext) -> Generator[Request, Any, Any]:
        """Run a chunk; windows become engine windows, other requests go to the players."""
        run = self.vm.run(chunk, ctx, self, self.rng)
        given = ctx.roll  # the dice the effect was handed (a card altering the dice on the table)
        outcome = None
        # a status effect's own effect opens no window, its `Then`s included: cards "can interrupt
        # normal play, but not ... Status Effects (which are considered Instant Actions)" (Quick
        # Reference, "Instant Action card")
        shielded = self.a.chunks[chunk].status is not None
        self.uninterruptible += shielded
        try:
            request = next(run)
            while True:
                if isinstance(request, FindDefender):
                    ctx.find_defender = False
                    ctx.defender = yield from self.find_defender()
                    request = run.send(None)
                elif isinstance(request, Window):
                    if self.queue and request.reason == "then" and not self.uninterruptible:
                        # what the effect set off is "immediate": before its Then's break (not at the
                        # break after an effect's roll: a trigger rolling would take the table's dice)
                        yield from self.drain()
                    yield from self.window(WINDOW_OF[request.reason])
                    request = run.send(None)
                else:
                    request = run.send((yield request))
        except StopIteration as stop:
            outcome = stop.value
        finally:
            self.uninterruptible -= shielded
        if ctx.roll is not given and ctx.roll is self.roll:
            self.dice_open = False  # the effect that rolled them has used them
        if self.isolated:
            yield from self.isolated_damage()
        if self.queue:
            yield from self.drain()
        return outcome

    def drain(self) -> Generator[Request, Any, None]:
        """Run queued triggers (a dial reading 5, a status gained at its limit...); the triggers they
        set off run within (drain again), all of one chain at most MAX_TRIGGER_CHAIN."""
        outermost = self.chain_left is None
        if outermost:
            self.chain_left = MAX_TRIGGER_CHAIN
        guard = 0
        try:
            while self.queue and guard < 50:
                if not self.chain_left:
                    self.event("chain_cut", effects=MAX_TRIGGER_CHAIN, left=len(self.queue))
                    self.queue.clear()
                    return
                self.chain_left -= 1
                guard += 1
                q = self.queue.pop(0)
                ctx = self.ctx(q.player, q.hero, status=q.status, token=q.token, event_value=q.event_value,
                               attacker=self.attack.attacker if self.attack else None,
                               defender=self.attack.defender if self.attack else None, source=q.named)
                healing, gaining = q.moment == "healed", q.moment == "gained"
                self.healed_firing += healing
                self.gained_firing += gaining
                try:
                    yield from self.run(q.chunk, ctx)
                finally:
                    self.healed_firing -= healing
                    self.gained_firing -= gaining
        finally:
            if outermost:
                self.chain_left = None

    def in_chosen_order(self, a: int, jobs: list[Queued]) -> Generator[Request, Any, None]:
        """"If there are multiple effects, the Active Player may choose the order in which they are
        resolved" ("Turn Breakdown", Upkeep Phase): asked while effects of different sources wait. The
        tokens of one status resolve together, one after the other (asked again after each of two
        tokens of one status, the question changed nothing: player QA)."""
        while len({job.source for job in jobs}) > 1 and self.over is None:
            sources = list(dict.fromkeys(job.source for job in jobs))
            labels = tuple(self.status_name(x) if isinstance(x, int) else str(x) for x in sources)
            answer = yield ChooseOption(self.phase, a, labels, "which resolves first? (each of them will)")
            picked = sources[_index(answer, len(sources), "effect")]
            now = [j for j in jobs if j.source == picked]
            jobs = [j for j in jobs if j.source != picked]
            yield from self.run_jobs(now, None, None)
        if jobs:
            yield from self.run_jobs(jobs, None, None)

    def fire_during(self, seat: int, phase: str, chosen_order: bool = False,
                    names: set[str] | None = None) -> Generator[Request, Any, None]:
        """The effects of `seat` that act during the phase (in an order `seat` chooses, if asked);
        `names`: the phases they may name (by default the phase and those it is part of)."""
        if not self.scheduled and not self.edge_named(phase, "during"):
            return  # no effect of the ruleset acts during it
        group = names if names is not None else self._phase_names(phase)

        def matches(trigger: dict) -> bool:
            return self.a.phases[trigger["phase"]] in group

        yield from self.fire_scheduled("during", matches, seat)  # `During your Upkeep Phase, ...` in a card
        if not self.has_trigger(seat, "during", phase, matches):
            return
        if chosen_order:
            yield from self.in_chosen_order(seat, self.collect(seat, "during", matches))
        else:
            yield from self.fire(seat, "during", matches)

    def _phase_names(self, phase: str) -> set[str]:
        """The phase and the phases it is part of (Main Phase (1) is a Main Phase)."""
        names = self._phase_groups.get(phase)
        if names is None:
            names = self._phase_groups[phase] = {phase}
            for r in self.a.data["rulesets"]:
                for ph in r["phases"]:
                    if ph["name"] == phase and "part_of" in ph:
                        names.add(ph["part_of"])
        return names

    def fire(self, seat: int, on: str, matches=None, attacker: int | None = None,
             defender: int | None = None) -> Generator[Request, Any, None]:
        """Run every effect of `seat` whose trigger is `on` (and `matches`, if given)."""
        jobs = self.collect(seat, on, matches)
        if jobs:
            yield from self.run_jobs(jobs, attacker, defender)

    def fire_all(self, seat: int, on: str, matches=None, attacker: int | None = None,
                 defender: int | None = None) -> Generator[Request, Any, None]:
        """What `seat` scheduled for the moment (a card's `When Attacked, ...`), then her effects of it."""
        if self.scheduled:
            yield from self.fire_scheduled(on, matches, seat)
        yield from self.fire(seat, on, matches, attacker, defender)

    def collect(self, seat: int, on: str, matches=None, options: bool = True,
                components: bool = True) -> list[Queued]:
        """The effects of `seat` that trigger now: statuses (per token, by side or tier; a once-per-turn
        effect once a turn), passive abilities, components (by dial side and track position; not with
        `components` False); `options` False: not the abilities' and components' effects that begin
        "you may" (offered as options instead)."""
        if self.over is not None:
            return []
        p = self.seats[seat]
        jobs: list[Queued] = []
        for status, tokens in p.tokens.items():
            if not tokens:
                continue
            effects = self.status_on[status].get(on)
            tiered = self.tier_effects[status]
            if effects is None and not tiered:
                continue
            for index, token in enumerate(tokens):
                chosen = effects or ()
                if token.tier:
                    effect = tiered[token.tier - 1]
                    chosen = (effect,) if (effect.get("trigger") or {}).get("on") == on else ()
                for effect in chosen:
                    if matches is not None and not matches(effect["trigger"]):
                        continue
                    if index and effect.get("per") == "status":
                        continue  # it speaks of the whole stack: once, with the first token
                    if effect.get("side") is not None and effect["side"] != token.side:
                        continue
                    if effect.get("once_per_turn"):
                        key = ("status", status, effect["chunk"])
                        if key in p.used:
                            continue
                        p.used.add(key)
                    job = Queued(effect["chunk"], seat, self.a.chunks[effect["chunk"]].hero,
                                 status, index, 0, status, token)
                    jobs.append(job)
                    if token.doubled:
                        jobs.append(job)
        for kind, owner, effect in self.trigger_index(p).get(on, ()):
            if matches is not None and not matches(effect["trigger"]):
                continue
            if not options and self._optional(effect["chunk"]):
                continue
            if kind == "ability":
                if self._once(p, effect, ("ability", owner.name)):
                    jobs.append(Queued(effect["chunk"], seat, p.table.index, None, None, 0, owner.name,
                                       named=owner.name))
                continue
            if not components:
                continue
            c, e, comp = owner
            if effect.get("side") is not None and effect["side"] != p.sides[c]:
                continue
            if effect.get("at") is not None and effect["at"] != p.components[c]:
                continue
            if comp.get("once_per_turn") or effect.get("once_per_turn"):
                key = ("component", c) if comp.get("once_per_turn") else ("effect", c, e)
                if key in p.used:
                    continue
                p.used.add(key)
            jobs.append(Queued(effect["chunk"], seat, p.table.index, None, None, 0, comp["name"],
                               named=self.component_label(seat, c, effect)))
        return jobs

    def run_jobs(self, jobs: list[Queued], attacker: int | None,
                 defender: int | None) -> Generator[Request, Any, bool]:
        """Run the jobs in order; whether an `instead` of theirs ran."""
        replaced = False
        for job in jobs:
            if self.over is not None:
                return replaced
            token = job.token
            if job.held is not None:
                token = self._token_now(job)
                if token is None:
                    continue  # removed by an effect that ran before it
            ctx = self.ctx(job.player, job.hero, status=job.status, token=token,
                           attacker=attacker, defender=defender, source=job.named)
            if self.attack is not None:
                ctx.attacker = self.attack.attacker
                ctx.defender = self.attack.defender
            outcome = yield from self.run(job.chunk, ctx)
            replaced = replaced or bool(outcome is not None and outcome.replaced)
        return replaced

    def trigger_index(self, p) -> dict[str, list]:
        """A player's passive and component effects by trigger (rebuilt after upgrades)."""
        index = self._trigger_index.get(p.seat)
        if index is None:
            index = {}
            for ability in p.abilities:
                for effect in ability.effects:
                    if effect.get("trigger"):
                        index.setdefault(effect["trigger"]["on"], []).append(("ability", ability, effect))
            for c, comp in enumerate(p.table.components):
                for e, effect in enumerate(comp["effects"]):
                    if effect.get("trigger"):
                        index.setdefault(effect["trigger"]["on"], []).append(
                            ("component", (c, e, comp), effect))
            self._trigger_index[p.seat] = index
        return index

    def _token_now(self, job: Queued) -> int | None:
        """Where the job's token is in its stack now (None: gone), found by identity: a token
        removed before it moves the next one forward, and that one still resolves."""
        tokens = self.seats[job.player].tokens.get(job.status, [])
        for index, token in enumerate(tokens):
            if token is job.held:
                return index
        return None

    def _once(self, p, effect: dict, key) -> bool:
        if not effect.get("once_per_turn"):
            return True
        if key in p.used:
            return False
        p.used.add(key)
        return True

    def fire_scheduled(self, on: str, matches=None,
                       owner: int | None = None) -> Generator[Request, Any, None]:
        """Run what an ability or card scheduled for now (`take_scheduled`)."""
        due = self.take_scheduled(on, matches, owner)
        if due:
            yield from self.run_jobs(due, None, None)

    def take_scheduled(self, on: str, matches=None, owner: int | None = None) -> list[Queued]:
        """Take what an ability or card scheduled for now (`At the end of the Roll Phase, ...`,
        `When Attacked, ...`): a scheduled effect waits for the next time its moment comes and acts
        then, once; `owner`: only what that player scheduled (`At the end of your turn`, `When
        Attacked`: when she is)."""
        if not self.scheduled:
            return []
        due, kept = [], []
        for t, q in self.scheduled:
            now = t["on"] == on and (matches is None or matches(t)) and (owner is None or q.player == owner)
            (due if now else kept).append(q if now else (t, q))
        if due:
            self.scheduled = kept
        return due

    def queue_component_trigger(self, seat: int, comp: int, on: str, value: int) -> None:
        """A dial reads N or would go above its top: the component's effects (the state's), then the
        holder's statuses and passive abilities that name it, and what she scheduled for it."""
        super().queue_component_trigger(seat, comp, on, value)
        if on not in self.held_triggers and not self.scheduled:
            return
        p = self.seats[seat]

        def matches(trigger: dict) -> bool:
            return trigger["component"] == comp and (on != "reads" or trigger["value"] == p.components[comp])

        jobs = [q for q in self.collect(seat, on, matches, components=False)
                if q.hero is None or q.hero == p.table.index]  # a component index is of the chunk's hero
        for t, q in list(self.scheduled):
            if t["on"] == on and matches(t) and q.hero in (None, p.table.index) \
                    and self.component_holder(q.player, q.hero) == seat:
                self.scheduled.remove((t, q))
                jobs.append(q)
        for job in jobs:
            job.event_value = value
        self.queue.extend(jobs)

    def turn_edge(self, a: int, edge: str) -> Generator[Request, Any, None]:
        """`At the start of your turn` (before the Upkeep Phase) or `At the end (conclusion) of your
        turn` (after the Discard Phase): the active player's effects, and what she scheduled."""
        def matches(trigger: dict) -> bool:
            return (trigger["edge"] == "start") == (edge == "start") \
                and trigger.get("after_turn", -1) < self.turn_no  # `your next turn`: not this one

        if not self.scheduled and (("turn", edge == "start") not in self.edges
                                   or not self.has_trigger(a, "turn_edge", edge, matches)):
            return
        yield from self.fire_scheduled("turn_edge", matches, a)
        if self.scheduled and edge != "start":  # `At the end of this turn`, said in anyone's turn
            yield from self.fire_scheduled("turn_edge", lambda t: t.get("this", False) and matches(t))
        yield from self.fire(a, "turn_edge", matches)

    def edge_named(self, phase: str, edge: str) -> bool:
        """Whether an effect of the ruleset names this edge ("start", "end") of the phase, or acts
        "during" it (or a phase it is part of; "Roll Phase end": the Roll Phase and its parts): most
        edges are passed over at once."""
        key = (phase, edge)
        named = self._edges_named.get(key)
        if named is None:
            names = self._roll_phase_names() if phase == "Roll Phase end" else self._phase_names(phase)
            mark = "during" if edge == "during" else edge == "start"
            named = self._edges_named[key] = any((name, mark) in self.edges for name in names)
        return named

    def phase_edge(self, a: int, edge: str, names: set[str] | None = None) -> Generator[Request, Any, None]:
        """`At the start of` / `At the end (conclusion) of` the phase now (or of `names`; a Main
        Phase (1) is a Main Phase too): the active player's effects, and what anyone scheduled."""
        names = names if names is not None else self._phase_names(self.phase)

        def matches(trigger: dict) -> bool:
            return ((trigger["edge"] == "start") == (edge == "start")
                    and self.a.phases[trigger["phase"]] in names)

        if not self.scheduled and not self.has_trigger(a, "phase_edge", (self.phase, edge), matches):
            return
        yield from self.fire_scheduled("phase_edge", matches)
        yield from self.fire(a, "phase_edge", matches)

    def has_trigger(self, seat: int, on: str, key, matches) -> bool:
        """Whether an effect of the player (a passive, a component, a token she holds) has the
        trigger and `matches` it (`key` names what `matches` looks for: a phase, an edge), read once
        per ability set and per status: a turn's many edges are passed over quickly when none has.
        Side and position are not read: it may say yes where `collect` finds nothing."""
        p = self.seats[seat]
        hits = self._trigger_hits
        found = hits.get((seat, on, key))
        if found is None:
            found = hits[(seat, on, key)] = any(
                matches(effect["trigger"]) for _, _, effect in self.trigger_index(p).get(on, ()))
        if found:
            return True
        if on not in self.status_triggers:
            return False
        for status, tokens in p.tokens.items():
            if not tokens:
                continue
            found = hits.get((-1 - status, on, key))  # a status's: the same in every seat
            if found is None:
                effects = list(self.status_on[status].get(on, ())) + [
                    e for e in self.tier_effects[status] if (e.get("trigger") or {}).get("on") == on]
                found = hits[(-1 - status, on, key)] = any(matches(e["trigger"]) for e in effects)
            if found:
                return True
        return False

    def _roll_phase_names(self) -> set[str]:
        """The Roll Phase and the phases it is made of: they end together ("Offensive Roll Phase": the
        dmg is applied at the conclusion of the Roll Phase)."""
        names = self._phase_groups.get("Roll Phase end")
        if names is None:
            names = {"Roll Phase"}
            for r in self.a.data["rulesets"]:
                names.update(ph["name"] for ph in r["phases"] if ph.get("part_of") == "Roll Phase")
            self._phase_groups["Roll Phase end"] = names
        return names

    # =============================================================== windows
    def window(self, name: str) -> Generator[Request, Any, None]:
        """Players, the active one first, act until everyone passes."""
        if self.over is not None or self.window_depth > 3 or self.uninterruptible:
            return
        self.window_depth += 1
        try:
            order = self._turn_orders[self.active]
            passed = 0
            i = 0
            while passed < len(order) and self.over is None:
                seat = order[i % len(order)]
                i += 1
                if seat in self.out:
                    passed += 1
                    continue
                hint = self.pass_hints[seat] if self.pass_hints is not None else None
                if hint is not None and hint(self, seat, name):
                    passed += 1
                    continue
                actions = self.actions(seat, name)
                if not actions:
                    passed += 1
                    continue
                answer = yield Act(self.phase, seat, name, tuple(actions))
                if answer is None:
                    passed += 1
                    continue
                passed = 0
                yield from self.perform(seat, actions[_index(answer, len(actions), "action")])
                i -= 1  # the same player may act again
        finally:
            self.window_depth -= 1

    def actions(self, seat: int, window: str) -> list[Action]:
        """What `seat` may do now (cards, status spending, effects, selling)."""
        p = self.seats[seat]
        own = seat == self.active
        if self.ultimate_lock and self.team_of[seat] != self.team_of[self.active]:
            return []  # "Opponents may take no action of any kind" during an Ultimate
        main = own and window == "main"
        attacking = self.modifiable_attack(seat)
        out: list[Action] = []
        cp = p.cp
        for index, card in enumerate(p.hand):
            c = card.card
            if c.kind == "action":
                timing = c.timing
                if not (timing == "instant" or (timing == "main" and main)
                        or (timing == "roll" and self.phase in ROLL_PHASES)):
                    continue
                if c.cost > cp or (c.alters_dice and not self._alterable(seat, c)):
                    continue
                if c.attack_modifier and not attacking:
                    continue
                idle = c.chunk is not None and not self.vm.can_start(c.chunk, self, seat)
                out.append(Action("play", c.name, index, c.cost, c.value, idle))
            elif c.kind == "upgrade" and main:
                cost = self.upgrade_cost(seat, c)
                if cost is not None and cp >= cost:
                    out.append(Action("upgrade", leveled(c.upgrades, c.level), index, cost,
                                      3.0 + c.level))
            elif c.kind == "equipment" and main and cp >= c.cost:
                out.append(Action("equip", c.name, index, c.cost, 4.0))
        if p.tokens:
            for status, tokens in p.tokens.items():
                if tokens and status in self.spendables and self.spendable_now(seat, status, window):
                    entry = self.a.statuses[status]
                    worth = 2.0 if not entry.get("attack_modifier") or attacking else 0.0
                    out.append(Action("spend", entry["name"], status, 0, worth,
                                      self.spending_idle(seat, status)))
        for name, effect in self.usable_effects(seat, window):
            out.append(Action("use", self._effect_label(name, effect["chunk"]), effect["chunk"], 0, 0.5))
        if main:
            value = max(0, min(self.rules.sell_value, self.rules.cp_max - cp))  # what selling brings now
            for index, card in enumerate(p.hand):
                out.append(Action("sell", card.card.name, index, value, -1.0))
        return out

    def modifiable_attack(self, seat: int) -> bool:
        """Whether `seat` has an Attack Attack Modifiers may be used on: hers ("only on Attacks (i.e.
        an Offensive Ability that targets an opponent with at least 1 dmg)", "Attack Modifiers"), of
        a modifiable damage type (pure dmg is "Not Modifiable": "Damage Type Attributes"). Under
        rules that let Attack Modifiers go on any Attack (Season One's), any not against her."""
        attack = self.attack
        if attack is None or not attack.dealt:
            return False
        mine = attack.attacker == seat if self.rules.own_attacks_only else attack.defender != seat
        return mine and (attack.dtype is None or bool(self.rules.damage_types[attack.dtype].modifiable))

    def _alterable(self, seat: int, card) -> bool:
        """Whether the card's dice change can be made on the dice on the table: there are dice open
        to alter, and some die may take a value the change gives (a change `to [<symbol>]` needs a face
        showing it, and another hero's dice may have none; a die at 6 does not go up), `1 of your dice`
        only on the player's own."""
        if not (self.roll and self.dice_open):
            return False
        alteration = card.dice_alteration
        if alteration is None:
            return True
        kind, _, mode, value, own = alteration
        if own and self.roll_owner != seat:
            return False
        if kind != "change":
            return True
        return any(change_options(self.roll, self.roll_faces, mode, value))

    def spending_idle(self, seat: int, status: int) -> bool:
        """Whether spending the status's first token would do nothing now: it has `When spent`
        effects (for the token's side) and none of them could do anything."""
        side = self.seats[seat].tokens[status][0].side
        spent = spent_chunks(self.a.statuses[status], side)
        return bool(spent) and not any(self.vm.can_start(chunk, self, seat) for chunk in spent)

    def upgrade_cost(self, seat: int, card) -> int | None:
        p = self.seats[seat]
        current = p.upgrades.get(card.upgrades)
        if current is None and not any(a.name == card.upgrades for a in p.abilities):
            return None
        if current is None:
            return card.cost
        if current.card.level >= card.level:
            return None
        return max(0, card.cost - current.card.cost)  # II to III: pay the difference

    def spendable_now(self, seat: int, status: int, window: str) -> bool:
        entry = self.a.statuses[status]
        trigger = entry.get("spendable")
        if not trigger:
            return False
        if entry.get("attack_modifier") and not self.modifiable_attack(seat):
            return False
        on = trigger["on"]
        own = seat == self.active
        if on == "any_time":
            return True
        if on == "during":
            return own and self.a.phases[trigger["phase"]] in self._phase_names(self.phase) \
                and window in ("main", "upkeep", "income", "discard", "offensive", "then", "rolled",
                               "conclude")
        if on == "conclude":
            return own and window == "conclude" and self.attack is not None and self.attack.dealt
        if on == "damaged_by_phase":
            return (self.attack is not None and self.attack.defender == seat
                    and window in ("defensive", "roll_end") and bool(self.incoming[seat].amounts))
        return False

    def usable_effects(self, seat: int, window: str) -> list[tuple[str, dict]]:
        """(source name, effect) of what the player may use now: at-any-time effects in every window,
        and in her own Main Phase the options it gives."""
        out = self.any_time_effects(seat)
        if window == "main" and seat == self.active:
            out += self.main_options(seat)
        return out

    def main_options(self, seat: int) -> list[tuple[str, dict]]:
        """The player's "During your Main Phase, you may ..." effects that could do something now."""
        p = self.seats[seat]
        group = self._phase_names(self.phase)
        out = []
        for kind, owner, effect in self.trigger_index(p).get("during", ()):
            if self.a.phases[effect["trigger"]["phase"]] not in group or not self._optional(effect["chunk"]):
                continue
            name = owner.name if kind == "ability" else owner[2]["name"]
            if self._once_free(p, effect, ("ability", name)) \
                    and self.vm.can_start(effect["chunk"], self, seat):
                out.append((name, effect))
        return out

    def _optional(self, chunk: int) -> bool:
        """Whether the effect begins with "you may"."""
        program = self.a.chunks[chunk].program
        return bool(program) and program[0].op == Op.MAY

    def _effect_label(self, name: str, chunk: int) -> str:
        """The source and what its effect does: `<source>: spend 3 CP to draw 1 card`."""
        text = self.a.chunks[chunk].prompts.get(0)
        if not isinstance(text, str) or not text.startswith("You may "):
            return name
        return f"{name}: {text[len('You may '):]}"

    def any_time_effects(self, seat: int) -> list[tuple[str, dict]]:
        """Effects a player may use `at any time` (once-per-turn ones until used): her passive
        abilities' and components', her statuses' (one use for the status, with its first token:
        `At any time, you may remove this token and ...`), and what she scheduled for any time (a
        card's `At any time, gain 1 CP.`: used once, when she likes)."""
        p = self.seats[seat]
        out = []
        for kind, owner, effect in self.trigger_index(p).get("any_time", ()):
            name = owner.name if kind == "ability" else owner[2]["name"]
            if kind == "ability" and not self._once_free(p, effect, ("ability", name)):
                continue
            if not self.vm.can_start(effect["chunk"], self, seat):
                continue  # it could do nothing: offering it would only use up a once-per-turn
            out.append((name, effect))
        if self.any_time_statuses and p.tokens:
            for status, tokens in p.tokens.items():
                if not tokens or status not in self.any_time_statuses:
                    continue
                for effect in self.status_on[status]["any_time"]:
                    key = ("status", status, effect["chunk"])
                    if (effect.get("side") is not None and effect["side"] != tokens[0].side) \
                            or not self._once_free(p, effect, key) \
                            or not self.vm.can_start(effect["chunk"], self, seat):
                        continue
                    out.append((self.status_name(status), {**effect, "status": status, "used": key}))
        for entry in self.scheduled:
            t, q = entry
            if t["on"] == "any_time" and q.player == seat and self.vm.can_start(q.chunk, self, seat):
                out.append((_spoken(q.named), {"chunk": q.chunk, "scheduled": entry}))
        return out

    def _once_free(self, p, effect: dict, key) -> bool:
        return not effect.get("once_per_turn") or key not in p.used

    def perform(self, seat: int, action: Action) -> Generator[Request, Any, None]:
        p = self.seats[seat]
        if action.kind == "sell":
            self.sell(seat, action.ref)
        elif action.kind == "play":
            self.plays += 1  # what this card schedules waits for the cards after it
            card = p.hand.pop(action.ref)
            self.event("play", player=seat, card=card.card.name)  # told before the CP it costs
            self.change_cp(seat, -card.card.cost)
            ctx = self.ctx(seat, p.table.index, roll=self.roll,
                           attacker=self.attack.attacker if self.attack else None,
                           defender=self.attack.defender if self.attack else None)
            if self.roll and self.roll_faces is not None:
                ctx.faces = self.roll_faces  # the dice it alters may be another hero's
                ctx.dice_owner = self.roll_owner
            ctx.attack_run = False
            if card.card.chunk is not None:
                p.resolving.append(card)
                # Instant and Roll Phase Action cards "can interrupt normal play, but not another
                # Instant Action / Roll Phase Action card or Status Effects" (Quick Reference): no
                # window opens inside one, its `Then`s included
                shielded = card.card.timing in ("instant", "roll")
                self.uninterruptible += shielded
                try:
                    yield from self.run(card.card.chunk, ctx)
                finally:
                    self.uninterruptible -= shielded
                p.resolving.remove(card)
            p.discard.append(card)
            if card.card.chunk is not None and self.isolated:
                yield from self.isolated_damage()
            yield from self.played(seat, card.card)
        elif action.kind == "upgrade":
            self.plays += 1
            card = p.hand.pop(action.ref)
            self.event("upgrade", player=seat, ability=card.card.upgrades, level=card.card.level)
            self.change_cp(seat, -action.extra)
            old = p.upgrades.get(card.card.upgrades)
            if old is not None:  # "play the new card over the top of the previous Hero Upgrade"
                p.covered.append(old)
            p.upgrades[card.card.upgrades] = card
            # what she has for playing a card acts now, before the new ability is hers
            yield from self.played(seat, card.card)
            p.abilities = [card.card.ability if a.name == card.card.upgrades else a for a in p.abilities]
            self._trigger_index.pop(seat, None)
            self._trigger_hits.clear()
        elif action.kind == "equip":
            yield from self.equip(seat, action.ref)
        elif action.kind == "spend":
            told = len(self.events)
            self.spend_token(seat, action.ref, 0)
            self.uninterruptible += 1
            try:
                yield from self.drain()
            finally:
                self.uninterruptible -= 1
            if all(e["e"] in ("spend", "effect_roll") for e in self.events[told:]):
                # its roll missed (`on 4-5, ...` rolled a 2): say so, not just the die
                self.event("no_result", player=seat, status=action.name)
            if self.isolated:
                yield from self.isolated_damage()
        elif action.kind == "use":
            name, effect = next((name, effect) for name, effect in self.usable_effects(seat, "main")
                                if effect["chunk"] == action.ref)
            if effect.get("once_per_turn"):
                p.used.add(effect.get("used", ("ability", name)))
            hero, status = p.table.index, effect.get("status")
            entry = effect.get("scheduled")
            if entry is not None:  # used once
                self.scheduled.remove(entry)
                hero, status = entry[1].hero, entry[1].status
            elif status is not None:
                hero = self.a.chunks[effect["chunk"]].hero
            self.event("use_effect", player=seat, effect=name)
            told = len(self.events)
            token = 0 if effect.get("status") is not None else None  # a held status's: its first token
            ctx = self.ctx(seat, hero, roll=self.roll, accepted=True, status=status, token=token)
            yield from self.run(effect["chunk"], ctx)
            if self.record and len(self.events) == told:
                # she declined what it offered (`you may scrap 1 Ore card`: no): the narration said
                # she used it, and nothing followed (player QA)
                self.event("used_nothing", player=seat, effect=name)

    def equip(self, seat: int, index: int) -> Generator[Request, Any, None]:
        """Dice Throne Adventures, "Equipment Cards": "Pay its required CP and place it face-up next to
        your Hero board. All effects of the card are active at all times"; "If you wish to play an
        Equipment card, but already have 2 in play, you must first discard one (no CP is gained)": the
        one in play longest."""
        p = self.seats[seat]
        self.plays += 1
        card = p.hand.pop(index)
        self.event("equip", player=seat, card=card.card.name)
        self.change_cp(seat, -card.card.cost)
        if len(p.equipment) >= 2:
            old = p.equipment.pop(0)
            p.abilities = [a for a in p.abilities if a is not old.card.ability]
            p.discard.append(old)
            self.event("unequip", player=seat, card=old.card.name)
        p.equipment.append(card)
        p.abilities = p.abilities + [card.card.ability]
        self._trigger_index.pop(seat, None)
        self._trigger_hits.clear()
        yield from self.played(seat, card.card)

    def sell(self, seat: int, index: int) -> None:
        p = self.seats[seat]
        card = p.hand.pop(index)
        p.discard.append(card)
        self.event("sell", player=seat, card=card.card.name)  # told before the CP it brings
        self.change_cp(seat, self.rules.sell_value)


def _by_trigger(effects: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for effect in effects:
        if effect.get("trigger"):
            out.setdefault(effect["trigger"]["on"], []).append(effect)
    return out


def _ability_triggers(artifact: Artifact) -> set[str]:
    """The triggers of every hero's abilities' own effects (passives, upgrades), and of Equipment
    cards (Dice Throne Adventures Loot: effects in force while in play). Kept on the artifact: every
    game asks, and a simulation starts thousands."""
    cached = getattr(artifact, "_ability_triggers", None)
    if cached is not None:
        return cached
    out = set()
    equipment = [c["ability"] for cs in artifact.data["card_sets"] for c in cs["cards"]
                 if c["kind"] == "equipment"]
    for hero in artifact.players:
        upgrades = [c["ability"] for c in hero["cards"] if c.get("ability")]
        for ability in hero["abilities"] + upgrades + equipment:
            out.update((e.get("trigger") or {}).get("on") for e in ability.get("effects") or ())
    artifact._ability_triggers = frozenset(out)  # derived data; the artifact itself is never changed
    return artifact._ability_triggers


def _component_triggers(artifact: Artifact) -> set[str]:
    """The triggers of every hero's components' effects."""
    return {(e.get("trigger") or {}).get("on")
            for hero in artifact.heroes for c in hero["components"] for e in c.get("effects", ())}


def _spoken(owner: str) -> str:
    """A chunk's owner as players name it: the card or ability (`<hero> › card <card> › later`)."""
    parts = owner.split(" › ")
    return parts[1].removeprefix("card ") if len(parts) > 1 else owner


def _edges(artifact: Artifact) -> set[tuple[str, Any]]:
    """(phase name or "turn", whether the start) of every `At the start/end of ...` trigger of the
    ruleset (statuses, heroes' passives and components, upgrades), and (phase name, "during") of
    every `During your <phase>`: the moments worth stopping at."""
    effects = [e for s in artifact.statuses for e in s.get("effects", ())]
    effects += [t["effect"] for s in artifact.statuses for t in s.get("tiers", ())]
    for hero in artifact.heroes:
        abilities = hero["abilities"] + [c["ability"] for c in hero["cards"] if c.get("ability")]
        effects += [e for a in abilities for e in a.get("effects") or ()]
        effects += [e for c in hero["components"] for e in c.get("effects", ())]
    edges = set()
    for effect in effects:
        trigger = effect.get("trigger") or {}
        if trigger.get("on") == "turn_edge":
            edges.add(("turn", trigger["edge"] == "start"))
        elif trigger.get("on") == "phase_edge":
            edges.add((artifact.phases[trigger["phase"]], trigger["edge"] == "start"))
        elif trigger.get("on") == "during":
            edges.add((artifact.phases[trigger["phase"]], "during"))
    return edges


def _index(answer: Any, count: int, what: str) -> int:
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < count:
        article = "an" if what[:1] in "aeiou" else "a"
        raise AnswerError(f"answer {article} {what} number from 0 to {count - 1}, not {answer!r}")
    return answer


def _member(answer: Any, players: list[int], what: str) -> int:
    if isinstance(answer, bool) or answer not in players:
        raise AnswerError(f"answer a {what} of {players}, not {answer!r}")
    return answer


def _distinct(answer: Any, count: int, least: int, most: int) -> list[int]:
    picks = list(answer) if isinstance(answer, (list, tuple)) else None
    if (picks is None or not least <= len(picks) <= most or len(set(picks)) != len(picks)
            or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < count for x in picks)):
        raise AnswerError(f"answer {least} to {most} different numbers from 0 to {count - 1}, "
                          f"not {answer!r}")
    return picks

