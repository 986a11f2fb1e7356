"""Boss vs Many and Boss vs Boss: the Dice Throne Adventures modes in which a Boss is played, by a
player (at the terminal) or by the heuristic bot, as a hero is, under the standard Dice Throne rules.

003_bd4cabbe7964005d.txt, "Other Game Modes": Boss vs Many ("Heroes Setup Changes", "Boss Setup
Changes", "Start Player", "Turn Order", "King's Hand", "Targeting Phase"), Boss vs Boss ("Setup
Changes", "King's Hand") and "Rule Changes for Both Boss vs Modes". A Boss's Upgrade and Action decks
are one deck, drawn and played as a hero's; the Action cards' Hero Bonuses and Roll Objectives are
not read; the King's Hand status (`content/statuses/adventures.yaml`) is spent as any spendable
status, and the rules here give it: a token at every Upkeep Phase, one bought for 3 CP at any time.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from dtc.adventures.battle import HeroBot
from dtc.artifact import Artifact
from dtc.cluster import Cluster
from dtc.dicethrone.engine import Game, _distinct
from dtc.dicethrone.modes import Mode
from dtc.dicethrone.requests import Act, Action, AnswerError
from dtc.session import Kind
from dtc.vm import ChooseDice, ChooseOption, Request, VMError, change_options

FORCE_REROLL = "force your opponent to re-roll one of their dice"
EXTRA_ATTEMPT = "gain 1 additional Roll Attempt"
MANY_HEROES = (2, 3, 4)  # "a 3-5 player alternate game mode": one Boss and 2 to 4 Heroes
# The modes' numbers (the King's Hand status and its price, the Bosses' Health, the targeting roll)
# are the adventure's `boss_vs` data.


class ModeError(ValueError):
    """A Boss vs game that cannot be set up (one line saying why)."""


def vs_rules(artifact: Artifact) -> dict:
    """The adventure's `boss_vs` rules (ModeError when the ruleset has none)."""
    rules = (artifact.adventure or {}).get("boss_vs")
    if rules is None:
        raise ModeError("the ruleset has no Boss vs rules (compile content/adventures/ with it: its "
                        "`boss_vs:`)")
    return rules


def kings_hand_status(artifact: Artifact) -> int:
    """The index of the status the modes' King's Hand tokens are."""
    return vs_rules(artifact)["kings_hand"]


class BossVs(Game):
    """A Boss vs game: `bosses` (seats) are Bosses; in Boss vs Many seat 0 is the Boss and seats 1..n
    the Heroes clockwise from the Boss' Left, sharing one Health dial."""

    def __init__(self, artifact: Artifact, players: list[int], table: Mode, bosses: tuple[int, ...],
                 seed: int, record: bool = False):
        super().__init__(artifact, players, seed, record=record, table=table)
        self.bosses = bosses
        self.vs = vs_rules(artifact)
        self.kings_hand = self.vs["kings_hand"]
        self.kings_hand_name = artifact.statuses[self.kings_hand]["name"]
        self.kings_hand_cost = self.vs["kings_hand_cost"]
        self.kings_hand_bought = self.kings_hand_spent = 0
        self.loot_faces = (artifact.adventure or {}).get("loot_die", 20)  # the Loot die's highest face

    # "King's Hand": "Boss gains a King's Hand token during every player's Upkeep Phase (his own and
    # every Heroes)"; Boss vs Boss: "Gain a King's Hand token during every Upkeep Phase" (each Boss,
    # at every Upkeep Phase: the same words, said to both players)
    def upkeep(self, a: int) -> Generator[Request, Any, None]:
        for b in self.bosses:
            if self.seats[b].alive:
                self.gain_status(b, self.kings_hand, 1, 0)
        yield from super().upkeep(a)

    def actions(self, seat: int, window: str) -> list[Action]:
        """What the player may do now; a Boss may also spend a King's Hand token, or buy one, "at
        anytime"."""
        out = super().actions(seat, window)
        locked = self.ultimate_lock and self.team_of[seat] != self.team_of[self.active]
        if seat in self.bosses and not locked:
            p = self.seats[seat]
            held = len(p.tokens.get(self.kings_hand, ()))
            if held:
                out.append(Action("spend", self.kings_hand_name, self.kings_hand, 0, 0.0))
            if p.cp >= self.kings_hand_cost and held < self.stack_limit(seat, self.kings_hand):
                out.append(Action("buy", self.kings_hand_name, self.kings_hand, self.kings_hand_cost, 0.0))
        return out

    def perform(self, seat: int, action: Action) -> Generator[Request, Any, None]:
        if action.kind == "buy":
            self.kings_hand_bought += 1
            self.event("buy", player=seat, status=self.kings_hand_name, cp=self.kings_hand_cost)
            self.change_cp(seat, -self.kings_hand_cost)
            self.gain_status(seat, self.kings_hand, 1, 0)
        elif action.kind == "spend" and action.ref == self.kings_hand:
            yield from self.spend_kings_hand(seat)
        else:
            yield from super().perform(seat, action)

    def spend_kings_hand(self, seat: int) -> Generator[Request, Any, None]:
        """"When a King's Hand token is spent, roll a Loot die: On 1-10, gain 1 CP. On 11-15, do one of
        the following: Force your opponent to re-roll one of their dice. Gain 1 additional Roll
        Attempt. On 16-20, change the value of any one die." What cannot be done now is not offered
        (no opponent's dice on the table, not her own Offensive Roll Phase)."""
        self.seats[seat].tokens[self.kings_hand].pop()
        self.kings_hand_spent += 1
        value = self.rng.randint(1, self.loot_faces)
        self.event("spend", player=seat, status=self.kings_hand_name)
        self.event("kings_hand_roll", player=seat, value=value)
        if value <= 10:
            self.change_cp(seat, 1)
            return
        owner = self.active if self.roll_owner is None else self.roll_owner
        open_dice = bool(self.roll) and self.dice_open
        if value <= 15:
            options = [FORCE_REROLL] if open_dice and self.team_of[owner] != self.team_of[seat] else []
            if self.active == seat and self.phase == "Offensive Roll Phase":
                options.append(EXTRA_ATTEMPT)
            if not options:
                self.event("no_result", player=seat, status=self.kings_hand_name)
                return
            picked = 0
            if len(options) > 1:
                answer = yield ChooseOption(self.kings_hand_name, seat, tuple(options))
                picked = _distinct([answer], len(options), 1, 1)[0]
            if options[picked] == EXTRA_ATTEMPT:
                self.max_attempts += 1
                self.event("extra_attempt", player=seat, attempts=self.max_attempts)
                return
            answer = yield ChooseDice(self.kings_hand_name, seat, tuple(self.roll), 1, "re-roll")
            [die] = _distinct(answer, len(self.roll), 1, 1)
            faces = sorted(self.roll_faces or {}) or list(range(1, 7))
            self.roll[die] = faces[self.rng.randrange(len(faces))]
            self.event("reroll", player=owner, dice=list(self.roll), which=[die], attempt=self.attempts)
            return
        if not open_dice:
            self.event("no_result", player=seat, status=self.kings_hand_name)
            return
        options = change_options(self.roll, self.roll_faces, 0, 0)
        values = tuple(sorted(set().union(*options)))
        answer = yield ChooseDice(self.kings_hand_name, seat, tuple(self.roll), 1, "change", values, options)
        changes = list(answer) if isinstance(answer, (list, tuple)) else None
        if changes is None or len(changes) > 1 or not all(
                isinstance(c, (list, tuple)) and len(c) == 2 and isinstance(c[0], int)
                and 0 <= c[0] < len(self.roll) and c[1] in options[c[0]] for c in changes):
            raise AnswerError(f"answer at most one [die, value] pair, the value one its die may take, not "
                              f"{answer!r}")
        for die, new in changes:
            self.roll[die] = new
            self.event("dice_altered", player=seat, die=die, value=new, dice=list(self.roll))


class BossVsMany(BossVs):
    """Boss vs Many: the Boss (seat 0) is the Start Player and does not skip his first Income Phase;
    the Heroes always target the Boss, the Boss rolls one of his dice for his target."""

    def setup(self) -> Generator[Request, Any, None]:
        for p in self.seats:
            self.rng.shuffle(p.deck)
            self.draw(p.seat, self.rules.starting_hand)  # "Boss starts with 4 cards & 2 CP"
        self.start_player = self.active = 0  # "Boss is always the Start Player"
        self.event("start", heroes=[p.table.name for p in self.seats], rolls=[], start_player=0,
                   seed=self.seed)
        for p in self.seats:
            if p.table.setup is not None:
                yield from self.run(p.table.setup, self.ctx(p.seat, p.table.index))

    def income(self, a: int) -> bool:
        if self.turn_no == 1 and a == self.start_player:  # "Boss does not skip his Income Phase"
            self.phase = "Income Phase"
            return not self.turn_cut and not self.skipping(a, self.phase)
        return super().income(a)

    def targeting(self, a: int, ultimate: bool) -> Generator[Request, Any, int]:
        """"The Heroes always target the Boss. The Boss, however, must roll for the Targeting Phase"."""
        heroes = len(self.seats) - 1
        if a != 0:
            self.event("target", player=a, defender=0, how="the Boss")
            return 0
        tops = self.vs["targeting"][heroes - 2]
        while True:
            value = self.rng.randint(1, 6)
            hero = next((k for k, top in enumerate(tops) if value <= top), None)
            self.event("targeting_roll", player=a, value=value, defender=None if hero is None else hero + 1)
            if hero is not None:
                break
        yield from ()
        return hero + 1


class BossVsBot(HeroBot):
    """A Boss played by the heuristic bot: it spends King's Hand in its own Offensive Roll Phase
    before its last roll attempt (an extra attempt, a re-roll or a die changed serve it there; 1 CP
    at worst), and buys a token with CP it has no card to spend on."""

    name = "boss-vs"

    def act(self, game, request: Act) -> int | None:
        seat = request.player
        chosen = super().act(game, request)
        if chosen is not None and self._kings_hand(game, request.actions[chosen]):
            chosen = None  # the heuristic's moment for a token is not this policy's
        if chosen is not None and request.actions[chosen].kind != "sell":
            return chosen
        for i, action in enumerate(request.actions):
            if self._kings_hand(game, action) and self._spend_now(game, seat):
                return i
        if request.window == "main" and game.phase == "Main Phase (2)" and game.active == seat:
            buy = next((i for i, a in enumerate(request.actions) if a.kind == "buy"), None)
            if buy is not None and not any(a.kind in ("play", "upgrade") for a in request.actions):
                return buy
        return chosen

    def passes(self, game, seat: int, window: str) -> bool:
        """Not in its own Offensive Roll Phase while it holds a King's Hand token to spend there."""
        if game.active == seat and game.phase == "Offensive Roll Phase" and game.roll \
                and game.seats[seat].tokens.get(game.kings_hand) \
                and ("bot_kings_hand", game.turn_no) not in game.seats[seat].used:
            return False
        return super().passes(game, seat, window)

    @staticmethod
    def _kings_hand(game, action: Action) -> bool:
        return action.kind == "spend" and action.ref == game.kings_hand

    @staticmethod
    def _spend_now(game, seat: int) -> bool:
        """Once a turn, in its own Offensive Roll Phase with dice on the table."""
        used = game.seats[seat].used
        if game.active != seat or game.phase != "Offensive Roll Phase" or not game.roll \
                or ("bot_kings_hand", game.turn_no) in used:
            return False
        used.add(("bot_kings_hand", game.turn_no))
        return True


# ------------------------------------------------------------------ games and their tally

def many_table(artifact: Artifact, boss: int, heroes: int) -> Mode:
    """The table of Boss vs Many: "Heroes share a Health dial, which starts at the Health value shown
    on the printed page" (that page is not in the rulebook's text: the dial starts at the Boss
    Battle setup row's shared Health for the team's size, authored)."""
    from dtc.adventures.boss import boss_setup

    if heroes not in MANY_HEROES:
        raise ModeError(f"Boss vs Many is for 3 to 5 players: one Boss and 2 to 4 Heroes, not {heroes}")
    try:
        row = boss_setup(artifact, boss, heroes)
    except ValueError as exc:
        raise ModeError(str(exc)) from None
    seats = tuple(range(heroes + 1))
    return Mode("Boss vs Many", heroes + 1, row.hero_health, ((0,), seats[1:]), seats, True, "choose", 0,
                authored="the Heroes' shared Health: the Boss Battle setup row's")


def boss_vs_many(artifact: Artifact, boss: int, heroes: list[int], seed: int,
                 record: bool = False) -> BossVsMany:
    """A Boss vs Many game, not yet played: the Boss (seat 0) at 10 Health + 20 per Hero."""
    game = BossVsMany(artifact, [boss, *heroes], many_table(artifact, boss, len(heroes)), (0,), seed, record)
    b = game.seats[0]
    rules = game.vs
    b.health = b.start_health = rules["boss_health"] + rules["boss_health_per_hero"] * len(heroes)
    return game


def boss_vs_boss(artifact: Artifact, first: int, second: int, seed: int, record: bool = False) -> BossVs:
    """A Boss vs Boss duel, not yet played: "Start with 70 Health"; "Draw 4 and gain 2 CP"."""
    table = Mode("Boss vs Boss", 2, vs_rules(artifact)["duel_health"], ((0,), (1,)), (0, 1), False, "none", 0)
    return BossVs(artifact, [first, second], table, (0, 1), seed, record)


@dataclass
class VsTally:
    """Many Boss vs games: how often seat 0's side (the Boss, or the first Boss) won."""

    games: int = 0
    wins: int = 0  # seat 0's side
    losses: int = 0
    draws: int = 0
    turns: int = 0
    bought: int = 0  # King's Hand tokens bought
    spent: int = 0  # and spent

    def add(self, other: VsTally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.draws += other.draws
        self.turns += other.turns
        self.bought += other.bought
        self.spent += other.spent

    def as_json(self) -> dict:
        from dtc.dicethrone.simulate import wilson

        n = self.games or 1
        low, high = wilson(self.wins, self.games)
        return {"games": self.games, "first_side_wins": self.wins, "win_rate": self.wins / n,
                "interval": [low, high], "other_side_wins": self.losses, "draws": self.draws,
                "mean_turns": self.turns / n, "kings_hand_bought": self.bought / n,
                "kings_hand_spent": self.spent / n}


def play_vs(artifact: Artifact, players: list[int], many: bool, seed: int, start: int, count: int) -> VsTally:
    """Games start..start+count-1 of a Boss vs run (`players`: the Boss then the Heroes, or two
    Bosses), every seat by a bot."""
    from dtc.agents.base import play
    from dtc.dicethrone.simulate import game_seed

    tally = VsTally()
    for i in range(start, start + count):
        s = game_seed(seed, ["boss-vs", *players], i)
        game = (boss_vs_many(artifact, players[0], players[1:], s) if many
                else boss_vs_boss(artifact, players[0], players[1], s))
        result = play(game, vs_bots(many, s, len(players)))
        tally.games += 1
        tally.turns += result.turns
        if result.winner is None:
            tally.draws += 1
        elif game.team_of[result.winner] == 0:
            tally.wins += 1
        else:
            tally.losses += 1
        tally.bought += game.kings_hand_bought
        tally.spent += game.kings_hand_spent
    return tally


CHUNK = 20  # games per piece of work

def simulate_vs(artifact: Artifact, raw: bytes, players: list[int], many: bool, games: int, seed: int,
                jobs: int = 1, cluster: Cluster | None = None) -> VsTally:
    """`games` seeded bot games over `jobs` worker processes: the same numbers for any `jobs`."""
    from dtc.adventures.pieces import run_pieces

    if many:
        many_table(artifact, players[0], len(players) - 1)  # a ModeError before any worker starts
    kings_hand_status(artifact)
    work = [(players, many, seed, start, min(CHUNK, games - start)) for start in range(0, games, CHUNK)]
    total = VsTally()
    for part in run_pieces(artifact, raw, play_vs, work, jobs, cluster):
        total.add(part)
    return total


def vs_line(game, event: dict) -> str | None:
    """One event as a sentence: the modes' own (King's Hand, the Boss's targeting roll), then the
    game's (`dtc.dicethrone.narrate.line`)."""
    from dtc.dicethrone.narrate import line, who

    kind = event["e"]
    if kind == "start" and not event["rolls"]:  # Boss vs Many: no roll for the Start Player
        heroes = " & ".join(f"P{i + 1} {h}" for i, h in enumerate(event["heroes"]) if i)
        return (f"Boss vs Many: P1 {event['heroes'][0]} vs {heroes}; the Boss is always the Start Player "
                f"and does not skip his Income Phase")
    if kind == "buy":
        return f"{who(game, event['player'])} pays {event['cp']} CP for a {event['status']} token"
    if kind == "kings_hand_roll":
        return (f"{who(game, event['player'])} rolls {event['value']} on the Loot die for "
                f"{game.kings_hand_name}")
    if kind == "extra_attempt":
        return f"{who(game, event['player'])} gains 1 additional Roll Attempt ({event['attempts']} in all)"
    if kind == "targeting_roll":
        target = "roll again" if event["defender"] is None else f"targets {who(game, event['defender'])}"
        return f"{who(game, event['player'])} rolls {event['value']} for his target: {target}"
    return line(game, event)


# ------------------------------------------------------------------ a game at the terminal: saves, logs

@dataclass
class VsSetup:
    """Everything that, with the answers, determines a Boss vs game (for `dtc.session`)."""

    ruleset: str  # the artifact's content hash
    seed: int  # the game's
    players: list[str]  # the Boss, then the Heroes (Boss vs Many); or the two Bosses
    many: bool
    agents: list[str]  # "human" or "bot", by seat

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "seed": self.seed, "players": list(self.players),
                "many": self.many, "agents": list(self.agents)}

    @staticmethod
    def from_json(data: dict) -> VsSetup:
        from dtc.session import agent_names, integer

        players, many = data["players"], data["many"]
        if not isinstance(many, bool):
            raise ValueError("`many` is not true or false")
        sizes = (3, 4, 5) if many else (2,)
        if not isinstance(players, list) or len(players) not in sizes \
                or not all(isinstance(p, str) for p in players):
            raise ValueError(f"players {players!r} is not a list of {' or '.join(map(str, sizes))} names")
        if not isinstance(data["ruleset"], str):
            raise ValueError("the ruleset is not text")
        agents = agent_names(data["agents"], len(players), {"human", "bot"})
        return VsSetup(data["ruleset"], integer(data["seed"], "seed"), list(players), many, agents)


def boss_named(artifact: Artifact, name: str) -> int | None:
    """The players index of the Boss called `name` (any case, `-`/`_` for spaces), or None."""
    from dtc.adventures.battle import _slug

    return next((b for b in artifact.indices_of("boss")
                 if _slug(artifact.players[b]["name"]) == _slug(name)), None)


def player_indices(artifact: Artifact, setup: VsSetup) -> list[int]:
    """The players indices of a setup's names (SessionError naming one the ruleset lacks)."""
    from dtc.session import SessionError

    out = []
    for k, name in enumerate(setup.players):
        boss = k == 0 or not setup.many
        found = boss_named(artifact, name) if boss else (artifact.hero(name) or (None,))[0]
        if found is None:
            raise SessionError(f"the ruleset has no {'Boss' if boss else 'hero'} `{name}`")
        out.append(found)
    return out


def new_vs_game(artifact: Artifact, setup: VsSetup) -> BossVs:
    from dtc.session import SessionError

    players = player_indices(artifact, setup)
    try:
        if setup.many:
            return boss_vs_many(artifact, players[0], players[1:], setup.seed, record=True)
        return boss_vs_boss(artifact, players[0], players[1], setup.seed, record=True)
    except ModeError as exc:
        raise SessionError(str(exc)) from None


def vs_bots(many: bool, seed: int, seats: int) -> list:
    """The bots of a Boss vs game of `seed`: each Boss's `BossVsBot`, each Hero's `HeroBot`."""
    bosses = (0,) if many else (0, 1)
    return [BossVsBot(seed + k) if k in bosses else HeroBot(seed + k) for k in range(seats)]


def vs_agents(setup: VsSetup, human_factory) -> list:
    """The agents of a setup's seats: `human_factory()` for "human", `vs_bots`'s else (so a game
    watched or played is the one a simulation of the same seed plays, bots and all)."""
    bots = vs_bots(setup.many, setup.seed, len(setup.agents))
    return [human_factory() if kind == "human" else bots[k] for k, kind in enumerate(setup.agents)]


BOSS_VS = Kind("dtc-bossvs-save", "dtc-bossvs-log", VsSetup.from_json, new_vs_game, (AnswerError, VMError))
