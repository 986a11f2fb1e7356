"""Minion Battle: one hero engaged with one minion, the minion run by its printed bot rules.

003_bd4cabbe7964005d.txt, "Portal Crawl: Minion Battle".  The hero performs "a complete Dice
Throne turn" (the Hero Step); the minion a turn with "Income Phase: Skip this phase." and "Main
Phase (1): Skip this phase." (the Minion Step), rolling its 5 minion dice by its Roll Objective
(`dtc.adventures.objective`) and performing "the best ability that it has fulfilled the Activation
Requirement for".  "Any Minion with First Strike will always Attack the Hero first."  Minion Setup:
"set the Health side to the indicated starting Health"; its Starting CP.  The hero's Health is
the hero setup's ("In a 2-player game each Hero will start with 18 Health").
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from dtc.adventures.objective import rerolls
from dtc.agents.base import play
from dtc.agents.bots import HeuristicBot
from dtc.artifact import Artifact
from dtc.dicethrone.damage import Incoming
from dtc.dicethrone.engine import Game, _distinct
from dtc.dicethrone.requests import Activate, RollDice
from dtc.dicethrone.simulate import game_seed, wilson
from dtc.dicethrone.state import Player
from dtc.vm import ChooseDice, Request

HERO_HEALTH = 18  # "Hero Setup": "In a 2-player game each Hero will start with 18 Health"
HERO, MINION = 0, 1  # the seats of a battle


@dataclass(frozen=True)
class KingsHandTable:
    """The Scenario card's King's Hand tokens table ("King's Hand"): how many tokens may be spent in
    one turn, and the minion die values that make a spent token activate. The rulebook prints the
    table's rows but no scenario's numbers: the default here is authored (a scenario file will
    carry each scenario's own)."""

    per_turn: int = 1
    success: tuple[int, ...] = (5, 6)


@dataclass
class Foe:
    """A minion in play: its seat's state and its King's Hand tokens. A Portal Crawl shares one Foe
    among the battles of every hero engaged with the minion ("Join a teammate who is currently
    engaged with a Minion"): its Health is one Enemy dial."""

    player: Player
    kings_hand: int


class KingsHandRules:
    """"King's Hand" for a Game with one enemy nobody plays (`self.enemy`, its seat, and `self.foe`,
    its tokens): "automatically spent by the Boss/Minion during two situations"."""

    enemy: int
    foe: Foe
    kings_hand_table: KingsHandTable
    kings_hand_spent: int
    activated: bool

    def turn(self) -> Generator[Request, Any, None]:
        self.kings_hand_spent = 0  # "Max tokens spent per turn"
        yield from super().turn()

    def roll_phases(self, a: int) -> Generator[Request, Any, None]:
        """"A. No Ability Activated: If the Boss/Minion fails to activate an Ability during their
        Offensive Roll Phase (for any reason)": roll 1 minion die; "a successful King's Hand roll
        gives the Boss/Minion another Offensive Roll Phase"."""
        while True:
            self.activated = False
            yield from super().roll_phases(a)
            if a != self.enemy or self.activated or self.over is not None or not self.spend_kings_hand():
                return

    def activate(self, a: int, ability_index: int, option_index: int) -> Generator[Request, Any, None]:
        self.activated = True
        yield from super().activate(a, ability_index, option_index)

    def announce(self, a: int) -> Generator[Request, Any, tuple[int, int] | str | None]:
        """"B. When Targeted with an Ultimate": roll 1 minion die; "a successful King's Hand roll forces
        you to re-roll 1 of your dice", and the hero activates what her dice then meet."""
        while True:
            chosen = yield from super().announce(a)
            if a == self.enemy or not isinstance(chosen, tuple) or self.over is not None:
                return chosen
            if self.seats[a].abilities[chosen[0]].kind != "ultimate" or not self.spend_kings_hand():
                return chosen
            answer = yield ChooseDice("King's Hand", a, tuple(self.roll), 1, "re-roll")
            [die] = _distinct(answer, len(self.roll), 1, 1)
            values = sorted(self.seats[a].table.faces)
            self.roll[die] = values[self.rng.randrange(len(values))]
            self.dice_rolled += 1
            self.event("reroll", player=a, dice=list(self.roll), which=[die], attempt=self.attempts)

    def spend_kings_hand(self) -> bool:
        """Spend a King's Hand token if the minion holds one and may spend one more this turn: roll 1
        minion die; True when it activates ("Successful roll values")."""
        table = self.kings_hand_table
        if self.kings_hand <= 0 or self.kings_hand_spent >= table.per_turn:
            return False
        self.foe.kings_hand -= 1
        self.kings_hand_spent += 1
        value = self.rng.randint(1, 6)
        success = value in table.success
        self.event("kings_hand", player=self.enemy, value=value, success=success, left=self.kings_hand)
        return success



class MinionBattle(KingsHandRules, Game):
    """A hero (seat 0) against a minion (seat 1); `hero` and `minion` index `artifact.players`.

    In a Portal Crawl the hero comes with her state (`hero_player`: Health, CP, cards, statuses
    carried from tile to tile), the minion may already be in play (`foe`), and `revive` is asked
    when her Health reaches 0 ("A teammate must immediately spend a Salve to restore you to 1
    Health"); the crawl drives the battle one turn at a time (`Game.turn`)."""

    def __init__(self, artifact: Artifact, hero: int, minion: int, seed: int,
                 hero_health: int = HERO_HEALTH, record: bool = True, ruleset: str | None = None,
                 kings_hand: KingsHandTable = KingsHandTable(), hero_player: Player | None = None,
                 foe: Foe | None = None, revive: Callable[[Player], bool] | None = None):
        if artifact.players[hero].get("minion") is not None:
            raise ValueError(f"{artifact.players[hero]['name']} is a minion, not a hero")
        info = artifact.players[minion].get("minion")
        if info is None:
            raise ValueError(f"{artifact.players[minion]['name']} is a hero, not a minion")
        super().__init__(artifact, [hero, minion], seed, record=record, ruleset=ruleset, mode="1v1")
        h, m = self.seats
        h.health = h.start_health = hero_health
        m.health = m.start_health = info["health"]  # "Starting Health: ... set on the Enemy dial"
        m.cp = info["cp"]  # "Starting CP: the CP value shown on the Minion card"
        self.carried = hero_player is not None
        if hero_player is not None:
            self.seats[HERO] = hero_player
        # "King's Hand": "Unique Status Effects that cannot be removed or transferred", spent
        # automatically ("Spending King's Hand tokens is not optional")
        self.foe = foe if foe is not None else Foe(m, info["kings_hand"])
        self.seats[MINION] = self.foe.player
        self.enemy = MINION
        self.first_strike = info["first_strike"]
        self.kings_hand_table = kings_hand
        self.revive = revive
        self.kings_hand_spent = 0  # this turn
        self.activated = False  # an ability was activated in this Offensive Roll Phase
        self.after_defeat = False  # the hero's full turn after a First Strike minion fell in its own
        self.reach: list[Player] = []  # the other minions in play, for one battle round (`reach_into`)
        self.own_teams = self.team_of

    @property
    def kings_hand(self) -> int:
        return self.foe.kings_hand

    def setup(self) -> Generator[Request, Any, None]:
        hero = self.seats[HERO]
        if self.carried:  # a crawl's hero was set up once, at "Player Setup"
            return
        self.rng.shuffle(hero.deck)
        self.draw(HERO, self.rules.starting_hand)  # "as per a normal Dice Throne match, gain 2 CP and draw 4"
        # "5. First Strike": "You and the Minion now each conduct 1 turn (Hero Step and Minion Step),
        # with you going first. The exception to this is if the Minion has First Strike."
        self.start_player = self.active = MINION if self.first_strike else HERO
        self.event("start", heroes=[p.table.name for p in self.seats], rolls=[],
                   start_player=self.start_player, seed=self.seed, first_strike=self.first_strike)
        if hero.table.setup is not None:
            yield from self.run(hero.table.setup, self.ctx(HERO, hero.table.index))

    def steps(self) -> Generator[Request, Any, None]:
        """Steps 5-7 of a round: the Hero Step and the Minion Step, the Minion Step first when the
        minion has First Strike ("First Strike (if applicable): Complete Minion Step before Hero
        Step"); they stop when either falls, but "If a Minion with First Strike is defeated during its
        turn, you still get your full turn afterwards. Even though there is no longer an enemy, you
        might still activate an ability which provides other benefits"."""
        for seat in (MINION, HERO) if self.first_strike else (HERO, MINION):
            self.active = seat
            yield from self.turn()
            if not self.seats[HERO].alive:
                return
            if self.over is not None:
                if seat == MINION and self.first_strike:
                    yield from self.turn_after_defeat()
                return

    def turn_after_defeat(self) -> Generator[Request, Any, None]:
        """The hero's full turn with the minion already defeated (the battle's end stands)."""
        over, self.over = self.over, None
        self.after_defeat = True
        self.active = HERO
        self.event("full_turn", player=HERO, reason="first strike minion defeated in its own turn")
        try:
            yield from self.turn()
        finally:
            self.after_defeat = False
            self.over = over

    def opponents(self, seat: int) -> list[int]:
        """The battle's own opponents: the hero's is her minion, a minion's (a minion in reach too) the
        hero. In the hero's turn after the minion fell, her Attack is made on the fallen minion: its
        dmg lands on no one living, what else her ability does is hers ("you might still activate an
        ability which provides other benefits")."""
        if seat == HERO:
            alive = self.seats[MINION].alive
            return [MINION] if alive or self.after_defeat else []
        return [HERO] if self.seats[HERO].alive else []

    # ------------------------------------------------------------------ other minions in reach
    def reach_into(self, minions: list[Player]) -> None:
        """"Cards and abilities that affect multiple opponents may be applied to multiple Minions,
        regardless of who the Minions are engaged with" ("Minion Battle"): for one battle round the
        other minions in play sit in this battle as seats 2, 3, ... (their own state, shared with
        their battles), reached only by what affects several opponents (`players_for`): never by
        what names one opponent, the Attack or the Targeting Roll Phase, and never taking a turn."""
        self.reach = [p for p in minions if p.alive]
        for p in self.reach:
            p.seat = len(self.seats)
            self.seats.append(p)
            self.incoming.append(Incoming())
            self.heals.append(0)
        self.team_of = self.own_teams + tuple(range(2, len(self.seats)))  # a side each, none the hero's

    def out_of_reach(self) -> None:
        """The round is over: the other minions go back to their own battles (seat 1 there)."""
        for p in self.reach:
            self._trigger_index.pop(p.seat, None)  # a seat's triggers are looked up once, by seat
            p.seat = MINION
        self._trigger_hits.clear()
        del self.seats[2:], self.incoming[2:], self.heals[2:]
        self.team_of = self.own_teams
        self.reach = []

    def players_for(self, ctx, who: str) -> list[int]:
        """The hero's `each opponent` and her `up to N chosen opponents` (`chosen_players`) reach the
        minions in reach as well; anything else stays in the battle."""
        found = super().players_for(ctx, who)
        if not self.reach:
            return found
        if who == "each_opponent" and ctx.owner == HERO:
            return found + [p.seat for p in self.reach if p.alive]
        if who in ("chosen_players", "self"):
            return found
        return [s for s in found if s < 2 or s == ctx.owner]

    def defensive_roll(self, attack) -> Generator[Request, Any, None]:
        if self.after_defeat:  # "there is no longer an enemy": no Defensive Roll
            return
        yield from super().defensive_roll(attack)

    def check_defeat(self) -> None:
        """A crawl's hero at 0 Health is revived by a teammate's Salve when one can (`revive`); in her
        turn after the minion fell (`turn_after_defeat`), the battle is over already: a hero who falls
        then and is not revived stops her turn, and the crawl sees her fallen."""
        hero = self.seats[HERO]
        if not hero.alive and self.revive is not None and (self.over is None or self.after_defeat) \
                and self.revive(hero):
            hero.health = 1
            self.event("revived", player=HERO, health=1)
        if self.after_defeat:
            return
        if self.reach:  # a minion in reach falling ends no battle of this one: the crawl sees it
            alive = [s for s in (HERO, MINION) if self.seats[s].alive]
            if self.over is None and len(alive) < 2:
                self.finish(alive[0] if alive else None, "defeat" if alive else "draw")
            return
        super().check_defeat()

    def halted(self, a: int) -> bool:
        return super().halted(a) or (self.after_defeat and not self.seats[HERO].alive)

    def pass_turn(self, a: int) -> None:
        if not self.after_defeat:  # after it, no one takes a turn: the battle is over
            super().pass_turn(a)

    def income(self, a: int) -> bool:
        """The minion skips its Income Phase; the hero has hers every Hero Step (the crawl is under
        way: there is no Start Player's first turn in a battle)."""
        self.phase = "Income Phase"
        if self.seats[a].table.minion is not None or self.turn_cut:
            return False
        return not self.skipping(a, self.phase)

    def main_phase(self, a: int, name: str) -> Generator[Request, Any, None]:
        if name == "Main Phase (1)" and self.seats[a].table.minion is not None:
            return  # "Main Phase (1): Skip this phase."
        yield from super().main_phase(a, name)

class MinionBot(HeuristicBot):
    """The Minion Step as printed: dice kept by the Roll Objective, the best ability met. Where the
    rulebook leaves a choice ("the Active Player should make the most effective decision for the
    Minion"), the heuristic bot's choice."""

    name = "minion"

    def reroll(self, game, request: RollDice) -> list[int]:
        table = game.seats[request.player].table
        return rerolls(table.minion["objective"], table.faces, list(request.dice))

    def activate(self, game, request: Activate) -> int | None:
        met = [i for i, c in enumerate(request.choices) if c.ability >= 0]
        return max(met, key=lambda i: request.choices[i].value) if met else None


class HeroBot(HeuristicBot):
    """The heuristic bot, answering King's Hand's forced re-roll with the die it would re-roll best."""

    def vm_answer(self, game, request: Request) -> Any:
        if isinstance(request, ChooseDice) and request.owner == "King's Hand" \
                and request.purpose == "re-roll":
            best = self.best_alteration(game, request.player, "re-roll", 1, ())[1]
            return best or [0]
        return super().vm_answer(game, request)


@dataclass
class BattleTally:
    """Many battles of one hero against one minion."""

    hero: str
    minion: str
    games: int = 0
    wins: int = 0
    turns: int = 0
    health_left: int = 0  # the hero's, summed over the battles she won

    def as_json(self, seed: int) -> dict:
        low, high = wilson(self.wins, self.games)
        return {"hero": self.hero, "minion": self.minion, "games": self.games, "seed": seed,
                "hero_wins": self.wins, "win_rate": self.wins / self.games if self.games else 0.0,
                "interval": [low, high], "mean_turns": self.turns / self.games if self.games else 0.0,
                "mean_health_left": self.health_left / self.wins if self.wins else 0.0}


def battles(artifact: Artifact, hero: int, minion: int, games: int, seed: int,
            hero_health: int = HERO_HEALTH) -> BattleTally:
    """`games` seeded battles (battle i has its own seed, from the run's seed and the names)."""
    names = f"{artifact.players[hero]['name']} vs {artifact.players[minion]['name']}"
    tally = BattleTally(artifact.players[hero]["name"], artifact.players[minion]["name"])
    for i in range(games):
        s = game_seed(seed, f"battle: {names}", i)
        game = MinionBattle(artifact, hero, minion, s, hero_health, record=False)
        result = play(game, [HeroBot(s), MinionBot(s + 1)])
        tally.games += 1
        tally.turns += result.turns
        if result.winner == HERO:
            tally.wins += 1
            tally.health_left += result.health[HERO]
    return tally


def minion_index(artifact: Artifact, name: str) -> int | None:
    """The players index of the minion called `name` (any case, `-`/`_` for spaces), or None."""
    wanted = _slug(name)
    for k in artifact.indices_of("minion"):
        if _slug(artifact.players[k]["name"]) == wanted:
            return k
    return None


def _slug(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())
