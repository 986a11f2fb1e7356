"""Boss Battle: 1-4 heroes sharing one Health dial against a Boss run by its printed rules.

003_bd4cabbe7964005d.txt, "Boss Battle" to "End of Battle". Each hero's turn is the Boss Battle Turn
Order card's: Spend Salves (Heal 6 on the shared dial each), the Hero Step (a complete Dice Throne
turn against the Boss), then the Boss Step: Income Phase +1 CP and an Action card drawn, the active
hero gaining its Hero Bonus; Main Phase (1) plays a Main Phase card it can afford or sells it;
the Offensive Roll Phase keeps dice by the Roll Objective of the last drawn card and performs the
best ability met, against the active hero. King's Hand as for minions (`KingsHandRules`).
"""

from __future__ import annotations

import itertools
from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import Any

from dtc.adventures.battle import Foe, HeroBot, KingsHandRules, KingsHandTable, MinionBot
from dtc.adventures.objective import rerolls
from dtc.agents.base import play
from dtc.artifact import Artifact
from dtc.dicethrone.engine import MAX_TURNS, Game, Result
from dtc.dicethrone.modes import Mode
from dtc.dicethrone.requests import Act, RollDice
from dtc.dicethrone.state import Card
from dtc.opcodes import Op
from dtc.vm import Request

SALVE_HEAL = 6  # "Spend Salves (optional): If desired, spend to Heal 6 on the shared Health dial"


@dataclass
class BossSetup:
    """The Boss Battle scenario card's row for the team's size."""

    hero_health: int
    health: int
    upgrade_cp: int
    cp: int
    kings_hand: int


def boss_setup(artifact: Artifact, boss: int, heroes: int) -> BossSetup:
    """The Boss's setup row for `heroes` heroes (ValueError when the Boss has none)."""
    rows = artifact.players[boss]["boss"]["setup"]
    row = next((r for r in rows if r["heroes"] == heroes), None)
    if row is None:
        sizes = ", ".join(str(r["heroes"]) for r in rows)
        name = artifact.players[boss]["name"]
        raise ValueError(f"{name} has no setup for {heroes} heroes (it has {sizes})")
    return BossSetup(row["hero_health"], row["health"], row["upgrade_cp"], row["cp"], row["kings_hand"])


class BossBattle(KingsHandRules, Game):
    """Heroes (seats 0..n-1, one side sharing one Health dial) against the Boss (seat n)."""

    def __init__(self, artifact: Artifact, heroes: list[int], boss: int, seed: int, salves: list[int],
                 record: bool = True, ruleset: str | None = None, humans: dict[int, Any] | None = None,
                 decks: list | None = None):
        info = artifact.players[boss].get("boss")
        if info is None:
            raise ValueError(f"{artifact.players[boss]['name']} is not a Boss")
        n = len(heroes)
        self.setup_row = boss_setup(artifact, boss, n)
        # "When you face a Boss, your team shares a common pool of Health"
        table = Mode("boss_battle", n + 1, self.setup_row.hero_health, (tuple(range(n)), (n,)),
                     tuple(range(n + 1)), n > 1, "choose", 0)
        super().__init__(artifact, heroes + [boss], seed, record=record, ruleset=ruleset, table=table)
        self.enemy = n
        b = self.seats[n]
        b.health = b.start_health = self.setup_row.health
        self.foe = Foe(b, self.setup_row.kings_hand)
        kh = info["kings_hand"] or {"per_turn": 1, "success": [5, 6]}
        self.kings_hand_table = KingsHandTable(kh["per_turn"], tuple(kh["success"]))
        self.kings_hand_spent = 0
        self.activated = False
        cards = artifact.players[boss]["cards"]
        self.boss_actions = {cards[a["card"]]["name"]: a for a in info["actions"]}  # by card name
        self.loot_faces = (artifact.adventure or {}).get("loot_die", 20)  # the Loot die's highest face
        self.salves = list(salves)
        self.humans = humans or {}  # the heroes played at the terminal, by seat
        self.decks = decks  # a campaign's `dtc.adventures.loot.Deck` per hero
        self.salves_used = 0
        self.hero_turn = 0  # the hero whose turn it is: the Boss Step's active player and target
        self.drawn: Card | None = None  # the Action card drawn in the Boss's last Income Phase
        self.upkeep_sold = False  # this Step's Action card was sold in its Upkeep Phase (`upkeep`)

    @property
    def kings_hand(self) -> int:
        return self.foe.kings_hand

    # ------------------------------------------------------------------ setup
    def setup(self) -> Generator[Request, Any, None]:
        """"Player Setup" for the heroes (gain 2 CP and draw 4); "Boss Battle Setup": the Upgrade and
        Action decks apart and shuffled, the Upgrade cards placed with the Upgrade CP."""
        boss = self.seats[self.enemy]
        if self.decks is not None:
            from dtc.adventures.loot import apply_deck

            for p, deck in zip(self.seats[:self.enemy], self.decks, strict=True):
                apply_deck(p, deck, 100_000 + 1_000 * p.seat)
        for p in self.seats[:self.enemy]:
            self.rng.shuffle(p.deck)
            self.draw(p.seat, self.rules.starting_hand)
        upgrades = [c for c in boss.deck if c.card.kind == "upgrade"]
        boss.deck = [c for c in boss.deck if c.card.kind != "upgrade"]
        self.rng.shuffle(upgrades)
        self.rng.shuffle(boss.deck)
        self.place_upgrades(upgrades)
        boss.cp = self.setup_row.cp  # "start the battle with the Starting CP value shown on the card"
        rolls: list[int] = []  # the start player: the Portal Crawl's way, by the Loot die (authored)
        while not rolls or rolls.count(max(rolls)) != 1:
            rolls = [self.rng.randint(1, self.loot_faces) for _ in range(self.enemy)]
        self.start_player = self.active = rolls.index(max(rolls))
        self.event("start", heroes=[p.table.name for p in self.seats], rolls=rolls,
                   start_player=self.start_player, seed=self.seed)
        for p in self.seats[:self.enemy]:
            if p.table.setup is not None:
                yield from self.run(p.table.setup, self.ctx(p.seat, p.table.index))

    def place_upgrades(self, upgrades: list[Card]) -> None:
        """"One by one, turn over the top card from the Boss' Upgrade deck": it spends Upgrade CP by
        the card's cost ("When upgrading from a level 2 card to a level 3 card, only spend the
        difference"); a card of a level it already has or passed is discarded and another drawn.
        The rulebook does not say when setup ends: here, at the first card the Upgrade CP left
        cannot pay for (authored)."""
        boss = self.seats[self.enemy]
        cp = self.setup_row.upgrade_cp
        for card in upgrades:
            placed = boss.upgrades.get(card.card.upgrades)
            if placed is not None and placed.card.level >= card.card.level:
                self.event("upgrade_discarded", player=self.enemy, card=card.card.name)
                continue
            cost = card.card.cost - (placed.card.cost if placed is not None else 0)
            if cost > cp:
                break
            cp -= cost
            if placed is not None:
                boss.covered.append(placed)
            boss.upgrades[card.card.upgrades] = card
            named = card.card.upgrades
            boss.abilities = [card.card.ability if a.name == named else a for a in boss.abilities]
            self.event("upgrade", player=self.enemy, ability=card.card.upgrades, level=card.card.level)
        self._trigger_index.pop(self.enemy, None)
        self._trigger_hits.clear()

    # ------------------------------------------------------------------ rounds
    def play(self) -> Generator[Request, Any, Result]:
        """"Players will take turns in clockwise order until the Boss or your team is defeated":
        each hero's turn is her Salves, her Hero Step, then the Boss Step."""
        yield from self.setup()
        k = self.start_player
        while self.over is None:
            self.spend_salves(k)
            self.hero_turn = self.active = k
            yield from self.turn()
            if self.over is None:
                self.active = self.enemy
                self.drawn = None  # this Boss Step's card, once drawn
                self.upkeep_sold = False
                yield from self.turn()
            if self.over is None and self.turn_no >= MAX_TURNS:
                self.finish(None, "turn limit")
            k = (k + 1) % self.enemy
        return self.over

    def spend_salves(self, k: int) -> None:
        """The bot spends her Salves on the shared dial when it is at a third of its start or less
        ("Salves may not be spent to revive fallen teammates in a Boss Battle")."""
        dial = self.seats[k]
        if k in self.humans:
            from dtc.adventures.view import ask_salves

            for _ in range(ask_salves(self.humans[k], "the team", dial.health, self.salves[k], SALVE_HEAL)):
                self.salves[k] -= 1
                self.salves_used += 1
                self.set_health(k, min(dial.health + SALVE_HEAL, dial.start_health + self.rules.heal_cap))
            return
        while self.salves[k] > 0 and dial.health <= dial.start_health // 3:
            self.salves[k] -= 1
            self.salves_used += 1
            self.set_health(k, min(dial.health + SALVE_HEAL, dial.start_health + self.rules.heal_cap))
            self.event("spend_salve", player=k, health=self.seats[k].health)

    def upkeep(self, a: int) -> Generator[Request, Any, None]:
        """"Special Situations": "Sometimes a status effect (such as Knockdown) threatens the Boss to
        lose their Offensive Roll Phase (due to not having enough CP to remove it). In these cases,
        they instead sell the card drawn from their Action deck in order to pay to remove
        Knockdown." Such a status is decided in the Upkeep Phase (content/statuses/adventures.yaml),
        before the Income Phase's draw: the Boss turns this Step's Action card over now and sells it
        when the 1 CP it brings is what the Boss lacks; the card is still this Step's card (its Hero
        Bonus in the Income Phase, its Roll Objective), and the Income Phase draws no other."""
        boss = self.seats[self.enemy]
        upkeep_skipped = self.turn_cut or self.a.phases.index("Upkeep Phase") in boss.skip
        told = len(boss.hand)
        if a == self.enemy and self.drawn is None and not upkeep_skipped \
                and any(boss.cp < cost <= boss.cp + self.rules.sell_value for cost in self.removal_costs()):
            self.draw(a, 1)
            if len(boss.hand) > told:
                self.drawn = boss.hand[-1]
                self.event("special_situation", player=a, card=self.drawn.card.name,
                           why="sold to pay for removing a status that would skip its Offensive Roll Phase")
                self.sell(a, len(boss.hand) - 1)
                self.upkeep_sold = True
        yield from super().upkeep(a)

    def removal_costs(self) -> list[int]:
        """The CP each status the Boss holds asks in its Upkeep Phase to be removed, when left unpaid
        it skips the Offensive Roll Phase (Knockdown's kind): the number paid by its PAY_CP."""
        roll_phase = self.a.phases.index("Offensive Roll Phase")
        costs = []
        for status, held in self.seats[self.enemy].tokens.items():
            for effect in self.status_on[status].get("during", ()) if held else ():
                if self.a.phases[effect["trigger"]["phase"]] != "Upkeep Phase":
                    continue
                program = self.a.chunks[effect["chunk"]].program
                if not any(ins.op == Op.SKIP and ins.operands[0] == roll_phase for ins in program):
                    continue
                costs += [before.operands[0] for before, ins in itertools.pairwise(program)
                          if ins.op == Op.PAY_CP and before.op == Op.PUSH]
        return costs

    def income_phase(self, a: int) -> Generator[Request, Any, None]:
        """The Boss's Income Phase: 1 CP and an Action card, "The Active Player immediately gains
        the Hero Bonus shown in the top right corner of the card" (the card sold in the Upkeep Phase
        to pay for a removal, when it was: `upkeep`)."""
        boss = self.seats[self.enemy]
        told = len(boss.hand)
        if a == self.enemy and self.upkeep_sold:
            self.upkeep_sold = False
            draw, self.rules = self.rules, replace(self.rules, income_draw=0)
            try:
                yield from super().income_phase(a)
            finally:
                self.rules = draw
        else:
            yield from super().income_phase(a)
            if a != self.enemy or len(boss.hand) == told:
                return
            self.drawn = boss.hand[-1]
        action = self.boss_actions.get(self.drawn.card.name)
        if action is not None:
            self.event("hero_bonus", player=self.hero_turn, card=self.drawn.card.name)
            yield from self.run(action["bonus"], self.ctx(self.hero_turn, boss.table.index))

    def roll_phases(self, a: int) -> Generator[Request, Any, None]:
        """"If an effect (such as Concussion) would result in a Boss not having an active Roll
        Objective, you still need to turn over a card so that the Boss has a Roll Objective. All
        other parts of the card should be ignored (including the Hero Bonus).\""""
        boss = self.seats[self.enemy]
        if a == self.enemy and self.drawn is None:
            if not boss.deck and boss.discard:
                boss.deck, boss.discard = boss.discard, []
                self.rng.shuffle(boss.deck)
            if boss.deck:
                self.drawn = boss.deck.pop()
                boss.discard.append(self.drawn)
                self.event("objective_card", player=self.enemy, card=self.drawn.card.name)
        yield from super().roll_phases(a)

    def objective(self) -> dict | None:
        """The Roll Objective of the last drawn card."""
        if self.drawn is None:
            return None
        action = self.boss_actions.get(self.drawn.card.name)
        return action["objective"] if action is not None else None

    def targeting(self, a: int, ultimate: bool) -> Generator[Request, Any, int]:
        """The Boss targets the hero whose turn it is (as "The Minion targets you")."""
        if a != self.enemy:
            return (yield from super().targeting(a, ultimate))
        target = self.hero_turn if self.seats[self.hero_turn].alive else self.opponents(a)[0]
        self.event("target", player=a, defender=target, how="the active hero")
        return target

    def check_defeat(self) -> None:
        """"In the rare situation that you and the Boss are reduced to 0 Health at the same time,
        your team is victorious.\""""
        if self.over is None and not self.seats[self.enemy].alive and not self.seats[0].alive:
            self.finish(0, "defeat")
            return
        super().check_defeat()


class BossBot(MinionBot):
    """The Boss Step as printed: Main Phase (1) plays the drawn Main Phase card when it can pay for
    it, else sells it; dice kept by the last drawn card's Roll Objective; the best ability met."""

    name = "boss"

    def reroll(self, game, request: RollDice) -> list[int]:
        objective = game.objective()
        if objective is None:
            return super().reroll(game, request)
        return rerolls(objective, game.seats[request.player].table.faces, list(request.dice))

    def act(self, game, request: Act) -> int | None:
        if request.window != "main":
            return super().act(game, request)  # Roll Phase cards: when they are worth it
        hand = game.seats[request.player].hand
        drawn = game.drawn
        if game.phase != "Main Phase (1)" or drawn is None or drawn not in hand:
            return None
        if drawn.card.timing != "main":  # "ignore it until the Offensive Roll Phase"
            return None
        index = hand.index(drawn)
        for kind in ("play", "sell"):  # "If the Boss cannot afford the CP cost of the card or the card
            # would have no effect, the card is sold (discarded), increasing the Boss CP dial by 1"
            for i, action in enumerate(request.actions):
                if action.kind == kind and action.ref == index and not action.idle:
                    return i
        return None


@dataclass
class BossResult:
    won: bool
    reason: str
    turns: int
    salves_used: int
    salves_left: int


def bosses_of(artifact: Artifact, scenario: int) -> list[int]:
    """The players indices of the Bosses of campaign scenario `scenario` (2, 4, 6 or 8)."""
    return [b for b in artifact.indices_of("boss") if artifact.players[b]["boss"]["scenario"] == scenario]


def play_boss_scenario(artifact: Artifact, heroes: list[int], boss: int, seed: int, difficulty: int = 0,
                       salves: int | None = None, humans: dict[int, Any] | None = None,
                       decks: list | None = None):
    """A Boss Battle scenario by bots, as a CrawlResult: the Starting Salves of the adventure's hero
    setup, the Session Score of "Recording a Win" (B. Remaining Salves, G. Scenario Score; no Boss
    Loot is built, so E is 0) or -10."""
    from dtc.adventures.crawl import CrawlResult, split_salves

    data = artifact.adventure
    row = next(r for r in data["hero_setup"] if r["heroes"] == len(heroes))
    _, result = boss_battle(artifact, heroes, boss, seed,
                            split_salves(row["salves"] if salves is None else salves, len(heroes)),
                            humans=humans, decks=decks)
    score = (result.salves_left + data["difficulties"][difficulty]["scenario_score"]) if result.won \
        else data["loss"]["score"]
    return CrawlResult(result.won, "boss" if result.won else result.reason, result.turns, result.salves_used,
                       result.salves_left, 0, False, 0, score)


def boss_battle(artifact: Artifact, heroes: list[int], boss: int, seed: int, salves: list[int],
                record: bool = False, humans: dict[int, Any] | None = None,
                decks: list | None = None) -> tuple[BossBattle, BossResult]:
    """One Boss Battle, the heroes not in `humans` (by seat) played by bots."""
    humans = humans or {}
    game = BossBattle(artifact, heroes, boss, seed, salves, record=record, humans=humans, decks=decks)
    agents = [humans.get(k, HeroBot(seed + k)) for k in range(len(heroes))] + [BossBot(seed + 99)]
    result = play(game, agents)
    won = result.winner is not None and result.winner < len(heroes)
    return game, BossResult(won, result.reason, result.turns, game.salves_used, sum(game.salves))
