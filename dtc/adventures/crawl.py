"""Portal Crawl: 1-4 heroes cross a map of tiles, explore them and fight the minions they reveal.

003_bd4cabbe7964005d.txt, "Portal Crawl" to "Completing the Portal Crawl". A turn is the Portal
Crawl Turn Order card's: a hero not engaged spends Salves, Moves and Explores; an engaged one (or
one who has just become engaged) fights a round of her Minion Battle (`dtc.adventures.battle`):
the Hero Step and the Minion Step, the Minion Step first when the minion has First Strike. The
rules' numbers come from the adventure data (`content/adventures/portal-crawls.yaml`), compiled
into the artifact.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dtc.adventures.battle import HERO, Foe, HeroBot, KingsHandTable, MinionBattle, MinionBot
from dtc.agents.base import drive
from dtc.artifact import Artifact
from dtc.cluster import Cluster
from dtc.dicethrone.state import Player

MAX_CRAWL_TURNS = 400  # a crawl that has not ended by then is stopped (a loss, reason "turn limit")
HEAL_ABOVE_START = 10  # FAQ: "heroes heal up to 10 above their start"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # "You cannot: Move between Environment tiles diagonally"


@dataclass
class Tile:
    """One cell of the map: its level (`S`, `P`, `1`-`3`), what lies on it face down, and whether
    it has been explored (flipped)."""

    mark: str
    shard: bool = False
    salves: int = 0
    chest: int = 0  # the Loot Chest's level, 0 for none
    explored: bool = False
    environment: str = ""  # the Environment tile drawn when it was explored


@dataclass
class Engagement:
    """A minion in play on a tile and the battle of each hero engaged with it."""

    minion: int  # index into artifact.players
    foe: Foe | None  # None until its first battle sets the minion up
    place: tuple[int, int]
    portal: bool  # the level IV minion guarding the Boss Portal
    battles: dict[int, MinionBattle] = field(default_factory=dict)  # by hero (crawl seat)


@dataclass
class CrawlResult:
    """How a Portal Crawl ended, and the numbers the Campaign Scoring sheet records."""

    won: bool
    reason: str  # "portal" (won), "defeat" (a hero could not be revived), "turn limit"
    turns: int
    salves_used: int
    salves_left: int
    gold: int
    explored_all: bool
    minions_defeated: int
    score: int  # the Session Score ("H. Session Score"; a loss is -10)
    unidentified: list[list[str]] = field(default_factory=list)  # Unidentified Loot cards, by hero


class Crawl:
    """One Portal Crawl, played by bots: `heroes` index `artifact.players` (heroes, not minions)."""

    def __init__(self, artifact: Artifact, heroes: list[int], scenario: int, seed: int,
                 difficulty: int = 0, record: bool = False, salves: int | None = None,
                 humans: dict[int, Any] | None = None, decks: list | None = None):
        data = artifact.adventure
        if data is None:
            raise ValueError("the ruleset has no adventure: compile content/adventures/ with it")
        if not 1 <= len(heroes) <= 4:
            raise ValueError(f"a Portal Crawl is for 1 to 4 heroes: {len(heroes)} given")
        setup = next((row for row in data["hero_setup"] if row["heroes"] == len(heroes)), None)
        if setup is None:
            raise ValueError(f"the adventure's hero setup has no row for {len(heroes)} heroes")
        self.a = artifact
        self.data = data
        # the heroes played at the terminal (`dtc.agents.human.Human`, by crawl seat); bots play the rest
        self.humans = humans or {}
        self.decks = decks  # a campaign's `dtc.adventures.loot.Deck` per hero: Loot cards in, swaps out
        self._loot_decks = None
        self.unidentified: list[list[str]] = [[] for _ in heroes]  # Unidentified Loot cards, by hero
        self.card = data["scenarios"][scenario]
        self.heroes = heroes
        self.rng = random.Random(seed)
        self.record = record
        self.events: list[dict] = []
        self.difficulty = data["difficulties"][difficulty]
        self.kings_hand = KingsHandTable(self.card["kings_hand"]["per_turn"],
                                         tuple(self.card["kings_hand"]["success"]))
        self.start_health = setup["health"]
        self.gold = setup["gold"]  # "Set your team's Gold dial to the Starting Gold value"
        self.tiles = self._build_map()
        self.shards = 0  # Portal Shards on the Boss Portal
        start = next(p for p, t in self.tiles.items() if t.mark == "S")
        self.tiles[start].explored = True
        self.positions = [start for _ in heroes]  # "Place your Hero Standees on the Crimson Sands tile"
        # "for session one, distribute the Starting Salves indicated on the Scenario card. For all other
        # sessions, reference the Starting Salves indicated on the Campaign Scoring sheet" (`salves`)
        self.salves = split_salves(setup["salves"] if salves is None else salves, len(heroes))
        self.salves_used = 0
        self.engaged: list[Engagement | None] = [None for _ in heroes]
        self.engagements: list[Engagement] = []
        self.environments = self._decks([e for e in data["environments"]], lambda e: e["level"])
        minions = artifact.indices_of("minion")
        self.minion_decks = self._decks(minions, lambda m: artifact.players[m]["minion"]["level"])
        self.defeated: list[int] = []
        self.portal_defeated = False
        self.turn_no = 0
        self.homes: list[MinionBattle] = []  # each hero's setup battle: draws outside a battle use it
        self.players = [self._set_up_hero(h, k) for k, h in enumerate(heroes)]
        # "all Heroes must roll their Loot die. The player who rolls the highest number goes first"
        rolls: list[int] = []
        while not rolls or rolls.count(max(rolls)) != 1:  # a tie for highest rolls again
            rolls = [self.loot_roll() for _ in heroes]
        self.active = rolls.index(max(rolls))
        self.event("start", heroes=[artifact.players[h]["name"] for h in heroes], rolls=rolls,
                   start_player=self.active, scenario=self.card["name"])

    # ------------------------------------------------------------------ setup
    def _build_map(self) -> dict[tuple[int, int], Tile]:
        card = self.card
        tiles = {(r, c): Tile(mark) for r, row in enumerate(card["map"]) for c, mark in enumerate(row)
                 if mark != "."}
        for r, c in card["shards"]:
            tiles[(r, c)].shard = True
        for r, c in card["salves"]:
            tiles[(r, c)].salves += 1
        for chest in card["chests"]:
            tiles[tuple(chest["at"])].chest = chest["chest"]
        return tiles

    def _decks(self, items: list, level_of) -> dict[int, list]:
        """Each level's deck, shuffled ("each Level of Minion cards is separated into its own deck")."""
        decks: dict[int, list] = {}
        for item in items:
            decks.setdefault(level_of(item), []).append(item)
        for deck in decks.values():
            self.rng.shuffle(deck)
        return decks

    def _set_up_hero(self, hero: int, seat: int) -> Player:
        """"Player Setup": the Health of the hero setup; "as per a normal Dice Throne match, gain 2 CP
        and draw 4" (the hero's own setup effect runs then too)."""
        any_minion = self.a.indices_of("minion")[0]
        home = MinionBattle(self.a, hero, any_minion, self.rng.getrandbits(63), self.start_health,
                            record=False)
        if self.decks is not None:
            from dtc.adventures.loot import apply_deck

            apply_deck(home.seats[HERO], self.decks[seat], 100_000)
        bot = HeroBot(self.rng.getrandbits(32))
        drive(home, [self.humans.get(seat, bot), MinionBot(0)], home.setup())
        self.homes.append(home)
        return home.seats[HERO]

    def event(self, kind: str, **data: Any) -> None:
        if self.record:
            self.events.append({"e": kind, "turn": self.turn_no, **data})

    # ------------------------------------------------------------------ play
    def play(self, after_turn: Callable[[int], None] | None = None) -> CrawlResult:
        """The whole crawl, every hero played by the bots; its result. `after_turn(hero)` is told
        after each turn (the narration)."""
        while True:
            over = self.take_turn(self.active)
            if after_turn is not None:
                after_turn(self.active)
            if over is not None:
                return over
            self.active = (self.active + 1) % len(self.heroes)  # "clockwise order"

    def take_turn(self, k: int) -> CrawlResult | None:
        """One hero's turn of the Portal Crawl Turn Order card; the result when the crawl ends."""
        self.turn_no += 1
        if self.turn_no > MAX_CRAWL_TURNS:
            return self.finish(False, "turn limit")
        self.spend_salves(k)  # "Before you move. Before a battle begins"
        if self.engaged[k] is None:
            self.event("turn", player=k, engaged=False)
            target = self.choose_move(k)
            if target is None:  # every way out blocked by engaged teammates or unexplored-only walls
                self.event("no_move", player=k)
                return None
            self.move(k, target)
        else:
            self.event("turn", player=k, engaged=True)
        if self.engaged[k] is not None:
            return self.battle_round(k)
        return self.won_yet()

    # ------------------------------------------------------------------ move
    def destinations(self, k: int) -> list[tuple[int, int]]:
        """Where hero `k` may move ("2. Move"): through a chain of explored tiles, never through a
        teammate engaged with a minion, to an unexplored tile (the Boss Portal only once it holds
        the 3 Portal Shards) or to an explored tile where a teammate is engaged."""
        blocked = {self.positions[j] for j in range(len(self.heroes)) if j != k and self.engaged[j]}
        start = self.positions[k]
        seen, todo, found = {start}, [start], []
        while todo:
            r, c = todo.pop(0)
            for dr, dc in STEPS:
                step = (r + dr, c + dc)
                tile = self.tiles.get(step)
                if tile is None or step in seen:
                    continue
                seen.add(step)
                if not tile.explored:
                    if tile.mark != "P" or self.shards >= 3:
                        found.append(step)
                elif step in blocked:
                    found.append(step)  # "B. An ongoing Minion Battle": join, do not pass
                else:
                    todo.append(step)
        return found

    def choose_move(self, k: int) -> tuple[int, int] | None:
        """The bot's move: the nearest unexplored tile (the Boss Portal first when it is open, then
        tiles with a Portal Shard), else the nearest ongoing battle. A hero at the terminal chooses."""
        options = self.destinations(k)
        if not options:
            return None
        if k in self.humans:
            from dtc.adventures.view import ask_move

            return ask_move(self, k, sorted(options), self.humans[k])
        distance = self._distances(self.positions[k])

        def rank(place):
            tile = self.tiles[place]
            joining = tile.explored
            return (joining, tile.mark != "P", not tile.shard, distance.get(place, 99), place)

        return min(options, key=rank)

    def _distances(self, start: tuple[int, int]) -> dict[tuple[int, int], int]:
        out, todo = {start: 0}, [start]
        while todo:
            r, c = todo.pop(0)
            for dr, dc in STEPS:
                step = (r + dr, c + dc)
                if step in self.tiles and step not in out:
                    out[step] = out[(r, c)] + 1
                    todo.append(step)
        return out

    def move(self, k: int, place: tuple[int, int]) -> None:
        self.positions[k] = place
        tile = self.tiles[place]
        self.event("move", player=k, to=list(place))
        if tile.explored:
            engagement = next(e for e in self.engagements if e.place == place)
            self.engage(k, engagement)
        else:
            self.explore(k, place)

    # ------------------------------------------------------------------ explore
    def explore(self, k: int, place: tuple[int, int]) -> None:
        """"3. Explore": collect the Portal Shard, Salves and Loot Chest; flip the tile: Health, Gold,
        then the minion it shows (the Boss Portal's is a level IV minion)."""
        tile = self.tiles[place]
        if tile.shard:
            self.shards += 1  # "Place collected Portal Shards on the Boss Portal"
            self.event("shard", player=k, shards=self.shards)
        if tile.salves:
            self.salves[k] += tile.salves  # "Place collected Salves on your Hero board"
            self.event("salve", player=k, salves=tile.salves)
        if tile.chest:
            self.open_chest(tile.chest)
        tile.explored = True
        if tile.mark == "P":
            self.event("explore", player=k, at=list(place), environment="Boss Portal")
            self.reveal_minion(k, place, 4, portal=True)
            return
        env = self.draw(self.environments, int(tile.mark))
        tile.environment = env["name"]
        self.event("explore", player=k, at=list(place), environment=env["name"])
        if env["health"]:
            self.heal(self.players[k], env["health"])
        if env["gold"]:
            self.gold += env["gold"]
        if env.get("chunk") is not None:  # "Deal with mandatory actions or optional choices ... only you"
            self.event("tile_effect", player=k, environment=env["name"])
            home = self.homes[k]
            agents = [self.humans.get(k, HeroBot(self.rng.getrandbits(32))), MinionBot(0)]
            drive(home, agents, self._tile_effect(home, env["chunk"]))
        if env["minion"]:
            self.reveal_minion(k, place, env["minion"], portal=False)

    def _tile_effect(self, home: MinionBattle, chunk: int):
        """Run an environment tile's effect for its explorer (her setup battle holds her state)."""
        yield from home.run(chunk, home.ctx(HERO, home.seats[HERO].table.index))
        yield from home.land_damage(None)

    def draw(self, decks: dict[int, list], level: int) -> Any:
        """The top card of a level's deck. A deck that runs out is shuffled again from all its cards
        (authored: the rulebook does not say; its decks are larger than a crawl uses)."""
        deck = decks[level]
        if not deck:
            deck.extend(self._all_of(decks, level))
            self.rng.shuffle(deck)
        return deck.pop()

    def _all_of(self, decks: dict[int, list], level: int) -> list:
        if decks is self.environments:
            return [e for e in self.data["environments"] if e["level"] == level]
        return [m for m in self.a.indices_of("minion") if self.a.players[m]["minion"]["level"] == level]

    def open_chest(self, chest: int) -> None:
        """"Loot Chests": "all players rolling their Loot die to receive a reward"; the Loot die's
        result cannot be re-rolled or changed."""
        row = self.data["loot_table"][chest - 1]
        for k, player in enumerate(self.players):
            value = self.loot_roll()
            reward = next((r for r in row if value <= r["upto"]), row[-1])
            self.event("loot", player=k, chest=chest, value=value, reward=reward)
            if reward["kind"] == "gold":
                self.gold += reward["amount"]
            elif reward["kind"] == "health":
                self.heal(player, reward["amount"])
            elif reward["kind"] == "cp":
                player.cp = min(15, player.cp + reward["amount"])
            elif reward["kind"] == "loot":  # "tuck it face-down": identified or sold at the Shop
                from dtc.adventures.loot import RARITIES

                card = self.loot_decks().draw(RARITIES[reward["amount"] - 1])
                if card is not None:
                    self.unidentified[k].append(card)
            else:  # cards: "Draw the indicated number of cards from your deck"
                self.homes[k].draw(HERO, reward["amount"])

    def loot_decks(self):
        """The session's Loot decks (`dtc.adventures.loot.LootDecks`), made when first drawn from."""
        if self._loot_decks is None:
            from dtc.adventures.loot import Deck, LootDecks

            shuffle = random.Random(self.rng.getrandbits(32))
            self._loot_decks = LootDecks(self.a, self.decks or [Deck()], shuffle)
        return self._loot_decks

    def loot_roll(self) -> int:
        """A roll of the Loot die (the adventure's: 1 to its highest face)."""
        return self.rng.randint(1, self.data["loot_die"])

    def heal(self, player: Player, amount: int) -> None:
        player.health = min(player.health + amount, self.start_health + HEAL_ABOVE_START)

    def reveal_minion(self, k: int, place: tuple[int, int], level: int, portal: bool) -> None:
        """"Draw and reveal a new level I/II/III/IV Minion card from its deck, perform the Minion
        setup steps, and then engage it in battle!\""""
        minion = self.draw(self.minion_decks, level)
        info = self.a.players[minion]["minion"]
        engagement = Engagement(minion, None, place, portal)  # its Foe: made by its first battle
        self.engagements.append(engagement)
        self.event("minion", player=k, minion=self.a.players[minion]["name"], level=level,
                   health=info["health"])
        self.engage(k, engagement)

    def engage(self, k: int, engagement: Engagement) -> None:
        """Hero `k` joins the battle with the engagement's minion: her own battle, the minion's seat
        (its Health, tokens, King's Hand) shared with every other hero engaged with it."""
        self.engaged[k] = engagement
        battle = MinionBattle(
            self.a, self.heroes[k], engagement.minion, self.rng.getrandbits(63), self.start_health,
            record=self.record, kings_hand=self.kings_hand, hero_player=self.players[k],
            foe=engagement.foe, revive=lambda p, k=k: self.revive(k))
        engagement.battles[k] = battle
        engagement.foe = battle.foe  # "Take 1 Enemy dial and set the Health side to the indicated ..."
        self.event("engage", player=k, minion=self.a.players[engagement.minion]["name"])

    # ------------------------------------------------------------------ battle
    def battle_round(self, k: int) -> CrawlResult | None:
        """Steps 5-7: the Hero Step and the Minion Step ("First Strike (if applicable): Complete
        Minion Step before Hero Step"); the minion targets the hero whose turn it is."""
        engagement = self.engaged[k]
        battle = engagement.battles[k]
        bot = HeroBot(self.rng.getrandbits(32))  # drawn for a human too: the same crawl either way
        minion_seed = self.rng.getrandbits(32)
        # "Cards and abilities that affect multiple opponents may be applied to multiple Minions,
        # regardless of who the Minions are engaged with": the others sit in reach for this round
        others = [e for e in self.engagements if e is not engagement]
        battle.reach_into([e.foe.player for e in others])
        minions = [MinionBot(minion_seed + i) for i in range(len(battle.seats) - 1)]
        agents = [self.humans.get(k, bot)] + minions
        battle.pass_hints = [getattr(agent, "passes", None) for agent in agents]
        try:
            drive(battle, agents, battle.steps())
        finally:
            battle.out_of_reach()
        if not self.players[k].alive:  # and no teammate could revive her (`revive`)
            return self.finish(False, "defeat")
        for other in [engagement] + others:  # "only the Active Player receives the indicated reward"
            if not other.foe.player.alive:
                self.defeat_minion(k, other)
        return self.won_yet()

    def defeat_minion(self, k: int, engagement: Engagement) -> None:
        """The minion is defeated: every hero engaged with it is free ("unless another Hero defeats
        it before the start of your next turn")."""
        if engagement not in self.engagements:
            return
        self.engagements.remove(engagement)
        self.defeated.append(engagement.minion)
        for j in range(len(self.heroes)):
            if self.engaged[j] is engagement:
                self.engaged[j] = None
        if engagement.portal:
            self.portal_defeated = True
        self.event("defeated", player=k, minion=self.a.players[engagement.minion]["name"])
        reward = self.a.players[engagement.minion]["minion"].get("reward")
        if reward is not None:  # "only the Active Player receives the indicated reward"
            self.event("reward", player=k, reward=reward)
            if "chest" in reward:  # "Loot Chests always have something in them for all Heroes"
                self.open_chest(reward["chest"])
            self.gold += reward.get("gold", 0)

    def revive(self, k: int) -> bool:
        """"A teammate must immediately spend a Salve to restore you to 1 Health. You cannot revive
        yourself": the teammate with the most Salves spends one."""
        mates = [j for j in range(len(self.heroes)) if j != k and self.salves[j] > 0]
        if not mates:
            return False
        j = max(mates, key=lambda m: (self.salves[m], -m))
        self.salves[j] -= 1
        self.salves_used += 1
        self.event("revive", player=k, by=j)
        return True

    def spend_salves(self, k: int) -> None:
        """The bot spends a Salve on herself when a minion's hit could fell her: at most half her
        start Health left, keeping one for a teammate's revival when she has teammates."""
        player = self.players[k]
        keep = 1 if len(self.heroes) > 1 else 0
        heal = self.card["salve_heal"]
        if k in self.humans:
            from dtc.adventures.view import ask_salves

            asked = ask_salves(self.humans[k], player.table.name, player.health, self.salves[k], heal)
            for _ in range(asked):
                self.salves[k] -= 1
                self.salves_used += 1
                self.heal(player, heal)
                self.event("spend_salve", player=k, health=player.health)
            return
        while self.salves[k] > keep and player.health <= self.start_health // 2:
            self.salves[k] -= 1
            self.salves_used += 1
            self.heal(player, heal)
            self.event("spend_salve", player=k, health=player.health)

    # ------------------------------------------------------------------ end
    def won_yet(self) -> CrawlResult | None:
        """"Once you defeat the Level IV Minion revealed after exploring the Boss Portal tile and all
        Heroes are not engaged with a Minion, your team has won the scenario.\""""
        if self.portal_defeated and all(e is None for e in self.engaged):
            return self.finish(True, "portal")
        return None

    def finish(self, won: bool, reason: str) -> CrawlResult:
        explored_all = all(t.explored for t in self.tiles.values())
        left = sum(self.salves)
        if won:  # "Recording a Win": B. Remaining Salves, D. Unspent Gold, F. Explored All, G.
            score = left + self.gold // 5 + (5 if explored_all else 0) + self.difficulty["scenario_score"]
        else:  # "C. Session Score: Write "-10"" (the adventure's `loss`)
            score = self.data["loss"]["score"]
        self.event("end", won=won, reason=reason, score=score)
        return CrawlResult(won, reason, self.turn_no, self.salves_used, left, self.gold, explored_all,
                           len(self.defeated), score, [list(u) for u in self.unidentified])


# ------------------------------------------------------------------ simulation

CHUNK = 25  # crawls per piece of work: the pieces, not the workers, fix each crawl's seed


@dataclass
class CrawlTally:
    """Many crawls of one team in one scenario."""

    games: int = 0
    wins: int = 0
    turns: int = 0
    salves_used: int = 0
    gold: int = 0
    score: int = 0
    explored_all: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def add(self, other: CrawlTally) -> None:
        for name in ("games", "wins", "turns", "salves_used", "gold", "score", "explored_all"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for reason, n in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + n

    def count(self, result: CrawlResult) -> None:
        self.games += 1
        self.wins += result.won
        self.turns += result.turns
        self.salves_used += result.salves_used
        self.gold += result.gold
        self.score += result.score
        self.explored_all += result.explored_all
        self.reasons[result.reason] = self.reasons.get(result.reason, 0) + 1

    def as_json(self) -> dict:
        from dtc.dicethrone.simulate import wilson

        n = self.games or 1
        low, high = wilson(self.wins, self.games)
        return {"games": self.games, "wins": self.wins, "win_rate": self.wins / n, "interval": [low, high],
                "mean_turns": self.turns / n, "mean_salves_used": self.salves_used / n,
                "mean_gold": self.gold / n, "mean_score": self.score / n,
                "explored_all_rate": self.explored_all / n, "endings": dict(sorted(self.reasons.items()))}


def split_salves(salves: int, heroes: int) -> list[int]:
    """"You may distribute Salve tokens amongst your team in any fashion": in turn, one each."""
    return [salves // heroes + (k < salves % heroes) for k in range(heroes)]


def scenario_cards(artifact: Artifact, scenario: int) -> list[int]:
    """The Portal Crawl cards of campaign scenario `scenario` (1, 3, 5 or 7), by index; for a Boss
    Battle (2, 4, 6 or 8), its Bosses' players indices."""
    if scenario % 2 == 0:
        from dtc.adventures.boss import bosses_of

        return bosses_of(artifact, scenario)
    data = artifact.adventure or {"scenarios": []}
    return [i for i, card in enumerate(data["scenarios"]) if card["scenario"] == scenario]


def play_crawls(artifact: Artifact, heroes: list[int], scenario: int, seed: int, start: int, count: int,
                difficulty: int = 0) -> CrawlTally:
    """Crawls start..start+count-1: crawl i has its own seed (from the run's, the team, the scenario
    and i) and draws its Scenario card with it ("Randomly choose one")."""
    from dtc.dicethrone.simulate import game_seed

    cards = scenario_cards(artifact, scenario)
    team = ",".join(artifact.players[h]["name"] for h in heroes)
    tally = CrawlTally()
    for i in range(start, start + count):
        s = game_seed(seed, f"crawl: {team} / scenario {scenario}", i)
        card = cards[s % len(cards)]
        if scenario % 2 == 0:
            from dtc.adventures.boss import play_boss_scenario

            tally.count(play_boss_scenario(artifact, heroes, card, s, difficulty))
        else:
            tally.count(Crawl(artifact, heroes, card, s, difficulty).play())
    return tally


def simulate_crawls(artifact: Artifact, raw: bytes, heroes: list[int], scenario: int, games: int, seed: int,
                    jobs: int = 1, difficulty: int = 0, cluster: Cluster | None = None) -> CrawlTally:
    """`games` seeded crawls over `jobs` worker processes (or a Dask `cluster`): the same numbers for
    any `jobs`."""
    from dtc.adventures.pieces import run_pieces

    work = [(heroes, scenario, seed, start, min(CHUNK, games - start), difficulty)
            for start in range(0, games, CHUNK)]
    total = CrawlTally()
    for tally in run_pieces(artifact, raw, play_crawls, work, jobs, cluster):
        total.add(tally)
    return total
