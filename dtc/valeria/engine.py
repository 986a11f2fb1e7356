"""The Kingdoms of Valeria engine: player sheets, the Roll, Harvest and Action phases, scoring.

Driven by the artifact's `valeria` section and the VM: every reward pip,
Domain power, Statue card and Solo event is a chunk; the engine marks pips,
queues what a marked pip sets off, and hands every choice to the players as a
request (the same generator protocol as the Dice Throne engine).  Rules cite
002_76d1292095cadf00.txt.

Marking always takes the next pip of a section, left to right and top to
bottom ("Important Rules to Remember"); a full or voided section marks
nothing.  A player's marks are plain counts per section, so "no pip is ever
skipped or marked out of order" holds by construction and is checked by the
property tests through `pip_log`.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from dtc.artifact import Artifact
from dtc.vm import VM, ChoosePlace, Request, RunContext, VMError

MAX_ROUNDS = 60  # a multiplayer game whose end never triggers (it cannot with bots) stops here


class ValeriaError(Exception):
    """A game that cannot be set up (an unknown sheet, a bad player count)."""


@dataclass
class Marks:
    """One player's sheets as marked so far (counts of marked pips per section)."""

    citizens: list[int]
    tracks: list[int]
    gold: int = 0
    wall: int = 0
    roads: list[int] = field(default_factory=list)
    domains: set[int] = field(default_factory=set)
    lairs: list[list[int]] = field(default_factory=list)
    lair_vp: dict[int, int] = field(default_factory=dict)  # completed lair -> the VP circled
    statues: list[int] = field(default_factory=list)  # numbers held
    stars_bonus: int = 0
    voided: set[tuple[str, str]] = field(default_factory=set)
    queue: list[int] = field(default_factory=list)  # chunks set off by the last marks
    plinths_waiting: int = 0  # Plinth pips marked in a Harvest, drafted after it
    harvested: int = 0  # pips marked in the current Harvest
    used_powers: set[int] = field(default_factory=set)  # Domains used this Action phase
    vp: int = 0  # scored by Statue cards at the end


@dataclass(slots=True)  # not frozen: made by the dozen every turn, and frozen ones are slow to make
class Move:
    """An action the active player may take: the die (and Blue), the action and its target."""

    action: str  # recruit | slay | build
    color: str
    blue: bool
    value: int
    target: int  # citizen section, lair * 100 + Range Block, or road


@dataclass
class Score:
    stars: int
    domains: int
    lairs: int
    statues: int
    statue_vp: dict[int, int]

    @property
    def total(self) -> int:
        return self.stars + self.domains + self.lairs + self.statues


@dataclass
class Result:
    scores: list[Score]
    winners: list[int]
    turns: int
    band: str | None = None  # solo


class Game:
    """A game of Kingdoms of Valeria for 1 (solo) to N players on one sheet layout."""

    def __init__(
        self,
        artifact: Artifact,
        players: int,
        seed: int,
        sheet: str | None = None,
        solo: bool = False,
        rng: Any = None,
        record: bool = True,
    ):
        data = artifact.data.get("valeria")
        if not data or not data["sheets"]:
            raise ValeriaError("the ruleset has no Kingdoms of Valeria sheets")
        sheets = data["sheets"]
        chosen = next((s for s in sheets if sheet is None or s["name"].lower() == sheet.lower()), None)
        if chosen is None:
            names = ", ".join(s["name"] for s in sheets)
            raise ValeriaError(f"no sheet `{sheet}`; the sheets are {names}")
        if solo and players != 1:
            raise ValeriaError("a solo game has 1 player")
        if not 1 <= players <= 6:
            raise ValeriaError("Kingdoms of Valeria is for 1 to 6 players")
        self.a = artifact
        self.rules = data["rules"]
        self.sheet = chosen
        self.statue_cards = data["statues"]["cards"] if data.get("statues") else []
        self._statue_text = {c["number"]: c["text"] for c in self.statue_cards}  # how choices name them
        self.event_cards = next(
            (e["cards"] for e in data["events"] if e["sheet"].lower() == chosen["name"].lower()), []
        )
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        self.vm = VM.shared(artifact)
        self.solo = solo
        self.record = record
        self.events: list[dict] = []
        self.pip_log: list[tuple[int, str, int, int]] = []  # (player, section, index, pip) in order
        self.players = [self._new_marks() for _ in range(players)]
        self._section_of = {v: i for i, c in enumerate(chosen["citizens"]) for v in c["values"]}
        self._track_of = {t["guild"]: i for i, t in enumerate(chosen["tracks"])}
        # how moves name their targets (a sheet never changes)
        self._names = {("citizen", i): f"the {c['label']} Citizen" for i, c in enumerate(chosen["citizens"])}
        self._names.update(
            {("road", i): f"{r['from']} -> {r['to'] or 'dead end'}" for i, r in enumerate(chosen["roads"])}
        )
        self._names.update(
            {
                ("block", i * 100 + j): f"{lair['name']} {b['low']}-{b['high']}"
                for i, lair in enumerate(chosen["lairs"])
                for j, b in enumerate(lair["blocks"])
            }
        )
        # where each road begins: a starting pip (always open), or the Domain that opens it
        domain_index = {d["name"]: i for i, d in enumerate(chosen["domains"])}
        self._road_opening = [
            (len(r["pips"]), r["from"] in chosen["starts"], domain_index.get(r["from"]))
            for r in chosen["roads"]
        ]
        # each Lair: how a void names it, the Domain that opens it (None: open from the start; -1: a
        # Domain the sheet lacks), its Range Blocks' sizes
        self._lair_gates = [
            (
                ("lair", lair["name"]),
                None if lair.get("access") in (None, "start") else domain_index.get(lair["access"], -1),
                [len(b["pips"]) for b in lair["blocks"]],
            )
            for lair in chosen["lairs"]
        ]
        # a harvested value -> (its Citizen section, that guild's track, the section as a void names it)
        self._harvests = {
            v: (i, self._track_of[c["guild"]], ("citizen", c["label"]))
            for v, i in self._section_of.items()
            for c in [chosen["citizens"][i]]
        }
        self.dice: dict[str, int] = {}
        self.active = 0
        self.first = 0
        self.turn_no = 0
        self.phase = "setup"
        self.end_triggered = False
        self.first_completer: dict[int, int] = {}  # lair -> the player who completed it first
        self.draft: list[int] = []  # statue numbers in the draft line
        self.deck: list[int] = []
        self.event_deck: list[int] = []
        self.ships = 0
        self.over: Result | None = None
        self.offered: list[Move] = []

    def _new_marks(self) -> Marks:
        s = self.sheet
        return Marks(
            [c["start"] for c in s["citizens"]],
            [0] * len(s["tracks"]),
            roads=[0] * len(s["roads"]),
            lairs=[[0] * len(lair["blocks"]) for lair in s["lairs"]],
        )

    # ================================================================= names
    def event(self, kind: str, **data: Any) -> None:
        if self.record:
            self.events.append({"e": kind, **data})

    def reward(self, index: int) -> dict | None:
        return None if index < 0 else self.rules["rewards"][index]

    def guild_name(self, index: int) -> str:
        return self.rules["guilds"][index]

    # ================================================================= setup
    def setup(self) -> None:
        numbers = [c["number"] for c in self.statue_cards]
        copies = len(self.a.data["valeria"]["statues"]["copies"]) if self.statue_cards else 0
        stacks = []
        for _ in range(copies):  # "Shuffle each stack individually then place the Day stack on top"
            stack = list(numbers)
            self.rng.shuffle(stack)
            stacks.append(stack)
        self.deck = [n for stack in reversed(stacks) for n in stack]  # the end of the list is the top
        self.refill()
        self.first = self.active = self.rng.randrange(len(self.players))
        if self.solo:
            self.event_deck = list(range(len(self.event_cards)))
            self.rng.shuffle(self.event_deck)
        self.event(
            "start",
            players=len(self.players),
            sheet=self.sheet["name"],
            first=self.first,
            seed=self.seed,
            draft=list(self.draft),
            solo=self.solo,
        )

    def refill(self) -> None:
        while len(self.draft) < self.rules["draft"] and self.deck:
            self.draft.append(self.deck.pop())

    # ================================================================= the game
    def play(self) -> Generator[Request, Any, Result]:
        """The whole game; yields every request; returns the result."""
        self.setup()
        while self.over is None:
            yield from self.turn()
            if self.over is None:
                self.next_turn()
        return self.over

    def next_turn(self) -> None:
        if self.solo:
            if self.turn_no >= self.rules["solo_turns"]:
                self.finish()
            return
        self.active = (self.active + 1) % len(self.players)
        if self.active == self.first and (
            self.end_triggered or self.turn_no >= MAX_ROUNDS * len(self.players)
        ):
            self.finish()  # "Finish the current round so that all players have an equal number of turns"

    def turn(self) -> Generator[Request, Any, None]:
        self.turn_no += 1
        a = self.active
        self.phase = "roll"
        self.roll_all()
        self.event("turn", turn=self.turn_no, player=a, dice=dict(self.dice))
        if self.solo:
            yield from self.event_phase()
        yield from self.harvest()
        self.phase = "action"
        yield from self.action(a)
        if self.solo:
            self.phase = "second harvest"  # "Roll the Black dice again and perform a second Harvest"
            self.roll_black()
            self.event("roll", dice=self.black())
            yield from self.harvest()

    def roll_all(self) -> None:
        self.dice = {}
        self.roll_black()
        for color in list(self.rules["actions"]) + [self.rules["helper"]]:
            self.dice[color] = self.rng.randint(1, 6)

    def roll_black(self) -> None:
        for i, _ in enumerate(self.rules["harvest"]):
            self.dice[f"harvest {i + 1}"] = self.rng.randint(1, 6)

    def black(self) -> list[int]:
        return [self.dice[f"harvest {i + 1}"] for i in range(len(self.rules["harvest"]))]

    # ============================================================== events
    def event_phase(self) -> Generator[Request, Any, None]:
        """Solo: black doubles mark off a ship and draw an Event (at most six)."""
        black = self.black()
        if len(set(black)) != 1 or self.ships >= self.rules["solo_events"] or not self.event_deck:
            return
        self.ships += 1
        card = self.event_cards[self.event_deck.pop()]
        self.event("solo_event", name=card["name"], ships=self.ships)
        yield from self.run(card["chunk"], 0)

    # ============================================================= harvest
    def harvest(self) -> Generator[Request, Any, None]:
        """All players, from the active one: each black die and their sum activate Citizens."""
        self.phase = "harvest" if self.phase != "second harvest" else self.phase
        black = self.black()
        values = black + [sum(black)]
        order = [(self.active + k) % len(self.players) for k in range(len(self.players))]
        for p in order:
            marks = self.players[p]
            marks.harvested = 0
            before = list(marks.tracks)
            for value in values:
                found = self._harvests.get(value)
                if found is None or found[2] in marks.voided:
                    continue
                section, track, _ = found
                for _ in range(marks.citizens[section]):
                    if self.mark_track_pip(p, track):
                        if self.players[p].queue:
                            yield from self.run_queue(p)
            if self.record:  # told as one line: what the dice gave each Guild Track
                gained = {self.guild_name(t["guild"]): marks.tracks[i] - before[i]
                          for i, t in enumerate(self.sheet["tracks"]) if marks.tracks[i] > before[i]}
                self.event("harvested", player=p, dice=values, tracks=gained)
            if marks.harvested == 0:  # "If you mark no pips at all in the Harvest phase"
                open_tracks = self.track_options(p)
                if open_tracks:
                    answer = yield ChoosePlace("Harvest", p, tuple(open_tracks), "mark 1 Guild Track pip")
                    self.mark_track(p, _index(answer, len(open_tracks)))
                    if self.players[p].queue:
                        yield from self.run_queue(p)
            self.check_end(p)
        # "players who filled in a Plinth Reward Pip during the Harvest take a Statue card from the draft
        # line in player order ... The draft line is refilled ... at the end of the phase"
        for p in order:
            while self.players[p].plinths_waiting:
                self.players[p].plinths_waiting -= 1
                options = self.statue_choices(p)
                if options:
                    answer = yield ChoosePlace("Harvest", p, tuple(options), "take a Statue")
                    self.take_statue(p, _index(answer, len(options)), refill=False)
                    if self.players[p].queue:
                        yield from self.run_queue(p)
        self.refill()

    def citizen_for(self, value: int) -> int | None:
        """The Citizen section a die value activates or recruits (None: no section takes it)."""
        return self._section_of.get(value)

    def track_of(self, guild: int) -> int:
        return self._track_of[guild]

    # ============================================================== action
    def action(self, a: int) -> Generator[Request, Any, None]:
        """Domain dice powers (each once), then one colored die's action with or without Blue."""
        marks = self.players[a]
        marks.used_powers = set()
        while True:
            powers = self.power_options(a)
            if not powers:
                break
            labels = tuple(label for _, label in powers) + ("no more powers",)
            answer = yield ChoosePlace("Action phase", a, labels, "use a Domain power")
            pick = _index(answer, len(labels))
            if pick == len(powers):
                break
            domain = powers[pick][0]
            marks.used_powers.add(domain)
            before = dict(self.dice)
            yield from self.run(self.sheet["domains"][domain]["chunk"], a)
            self.event(
                "power",
                player=a,
                domain=self.sheet["domains"][domain]["name"],
                before=before,
                after=dict(self.dice),
            )
        moves = self.offered = self.moves(a)  # bots read the moves offered rather than make them again
        if not moves:
            self.event("no_action", player=a)
            return
        hows = self.hows()
        labels = tuple(self.describe(a, m, hows) for m in moves)
        answer = yield ChoosePlace("Action phase", a, labels, "take an action")
        pick = _index(answer, len(moves))
        move = moves[pick]
        self.event(
            "action",
            player=a,
            action=move.action,
            color=move.color,
            blue=move.blue,
            value=move.value,
            label=labels[pick],
        )
        yield from self.perform(a, move)
        self.check_end(a)

    def power_options(self, a: int) -> list[tuple[int, str]]:
        marks = self.players[a]
        out = []
        for d in sorted(live_domains(self.sheet, marks)):
            domain = self.sheet["domains"][d]
            if domain["when"] == "action" and d not in marks.used_powers:
                out.append((d, f"{domain['name']}: {domain.get('power', 'power')}"))
        return out

    def moves(self, a: int, dice: dict[str, int] | None = None) -> list[Move]:
        """Every legal action for the dice (the current ones by default)."""
        dice = dice or self.dice
        out = []
        helper = dice[self.rules["helper"]]
        lairs = [i for i in range(len(self.sheet["lairs"])) if self.lair_open(a, i)]
        roads = self.buildable(a)
        done = self.players[a].roads
        seen = set()
        for color, action in self.rules["actions"].items():
            for blue in (False, True):
                value = dice[color] + (helper if blue else 0)
                for target in self.targets(a, action, value, lairs, roads):
                    # with or without Blue, the same pips marked are the same move: offered once
                    marked = 0
                    if action == "build":
                        marked = min(value, self._road_opening[target][0] - done[target])
                    if (action, target, marked) not in seen:
                        seen.add((action, target, marked))
                        out.append(Move(action, color, blue, value, target))
        return out

    def targets(self, a: int, action: str, value: int, lairs: list[int], roads: list[int]) -> list[int]:
        """Where an action with this value may go (`lairs`, `roads`: the ones open to the player)."""
        marks = self.players[a]
        if action == "recruit":
            section = self.citizen_for(value)
            return [section] if section is not None and self.citizen_open(a, section) else []
        if action == "slay":
            out = []
            for i in lairs:
                for j, block in enumerate(self.sheet["lairs"][i]["blocks"]):
                    if block["low"] <= value <= block["high"] and marks.lairs[i][j] < len(block["pips"]):
                        out.append(i * 100 + j)
            return out
        return roads

    def hows(self) -> dict[tuple[str, bool], str]:
        """How each die (alone or with Blue) reads in a move's label, for the dice as they lie."""
        helper = self.rules["helper"]
        blue = self.dice[helper]
        out = {}
        for color in self.rules["actions"]:
            out[(color, False)] = f"{color} {self.dice[color]}"
            out[(color, True)] = f"{color} {self.dice[color]} + {helper} {blue}"
        return out

    def describe(self, a: int, move: Move, hows: dict | None = None) -> str:
        """A move as the player reads it: `Recruit the 7 Citizen (Yellow 3 + Blue 4)`."""
        how = (hows or self.hows())[(move.color, move.blue)]
        if move.action == "recruit":
            return f"Recruit {self._names[('citizen', move.target)]} ({how})"
        if move.action == "slay":
            return f"Slay {self._names[('block', move.target)]} ({how})"
        left = len(self.sheet["roads"][move.target]["pips"]) - self.players[a].roads[move.target]
        return f"Build {self._names[('road', move.target)]}, {min(move.value, left)} pip(s) ({how})"

    def perform(self, a: int, move: Move) -> Generator[Request, Any, None]:
        marks = self.players[a]
        if move.action == "recruit":
            self.mark_citizen_section(a, move.target)
            if self.players[a].queue:
                yield from self.run_queue(a)
        elif move.action == "slay":
            lair, block = divmod(move.target, 100)
            self.mark_lair_pip(a, lair, block)
            if self.players[a].queue:
                yield from self.run_queue(a)
            for _ in range(self.rules["slay_gold"]):  # "then gain 1 Gold by marking 1 pip in the Gold Chart"
                self.mark_next(a, "gold")
                if self.players[a].queue:
                    yield from self.run_queue(a)
        else:
            road = self.sheet["roads"][move.target]
            for _ in range(move.value):  # "You must stop when the Road reaches a Domain or a dead end"
                if marks.roads[move.target] >= len(road["pips"]):
                    break
                self.mark_road_pip(a, move.target)
                if self.players[a].queue:
                    yield from self.run_queue(a)

    # ============================================================== marking
    def _mark(self, player: int, section: str, index: int, position: int, pip: int) -> None:
        self.pip_log.append((player, section, index, position))
        reward = self.reward(pip)
        if self.phase in ("harvest", "second harvest"):
            self.players[player].harvested += 1
        if reward is None or reward.get("star"):
            return
        if reward.get("chunk") is not None:
            self.players[player].queue.append(reward["chunk"])

    def citizen_open(self, p: int, section: int) -> bool:
        c = self.sheet["citizens"][section]
        return (
            self.players[p].citizens[section] < len(c["pips"])
            and ("citizen", c["label"]) not in self.players[p].voided
        )

    def mark_citizen_section(self, p: int, section: int) -> None:
        marks = self.players[p]
        c = self.sheet["citizens"][section]
        if not self.citizen_open(p, section):
            return
        position = marks.citizens[section]
        marks.citizens[section] += 1
        if self.record:
            self.event("mark", player=p, section="citizen", name=c["label"], pip=position)
        self._mark(p, "citizen", section, position, c["pips"][position])

    def mark_track_pip(self, p: int, track: int) -> bool:
        marks = self.players[p]
        pips = self.sheet["tracks"][track]["pips"]
        if marks.tracks[track] >= len(pips):
            return False  # a completed section marks nothing
        position = marks.tracks[track]
        marks.tracks[track] += 1
        if self.record:
            self.event(
                "mark",
                player=p,
                section="track",
                name=self.guild_name(self.sheet["tracks"][track]["guild"]),
                pip=position,
            )
        self._mark(p, "track", track, position, pips[position])
        return True

    def mark_lair_pip(self, p: int, lair: int, block: int) -> None:
        marks = self.players[p]
        pips = self.sheet["lairs"][lair]["blocks"][block]["pips"]
        if marks.lairs[lair][block] >= len(pips):
            return
        position = marks.lairs[lair][block]
        marks.lairs[lair][block] += 1
        if self.record:
            self.event(
                "mark",
                player=p,
                section="lair",
                name=self.sheet["lairs"][lair]["name"],
                block=block,
                pip=position,
            )
        self._mark(p, "lair", lair * 100 + block, position, pips[position])
        self.check_lair(p, lair)

    def check_lair(self, p: int, lair: int) -> None:
        marks = self.players[p]
        data = self.sheet["lairs"][lair]
        if lair in marks.lair_vp or any(
            m < len(b["pips"]) for m, b in zip(marks.lairs[lair], data["blocks"], strict=True)
        ):
            return
        # "The first player to complete a Monster Lair circles the higher VP value"
        first = lair not in self.first_completer
        if first:
            self.first_completer[lair] = p
        marks.lair_vp[lair] = data["vp"][0] if first else data["vp"][1]
        self.event("lair_complete", player=p, lair=data["name"], vp=marks.lair_vp[lair])

    def mark_road_pip(self, p: int, road: int) -> None:
        marks = self.players[p]
        data = self.sheet["roads"][road]
        if marks.roads[road] >= len(data["pips"]):
            return
        position = marks.roads[road]
        marks.roads[road] += 1
        if self.record:
            self.event(
                "mark",
                player=p,
                section="road",
                name=f"{data['from']} -> {data['to'] or 'dead end'}",
                pip=position,
            )
        self._mark(p, "road", road, position, data["pips"][position])
        if marks.roads[road] == len(data["pips"]) and data["to"] is not None:
            self.claim(p, data["to"])

    def claim(self, p: int, name: str) -> None:
        marks = self.players[p]
        index = next(i for i, d in enumerate(self.sheet["domains"]) if d["name"] == name)
        if index in marks.domains or ("domain", name) in marks.voided:
            return
        marks.domains.add(index)
        domain = self.sheet["domains"][index]
        self.event("claim", player=p, domain=name)
        if domain["when"] == "claim":  # "must be used as soon as you claim the Domain"
            marks.queue.append(domain["chunk"])

    def buildable(self, p: int, from_starts: bool = True) -> list[int]:
        """Roads the player may build on: from a starting pip (unless `from_starts` is false) or a
        claimed Domain not voided ("Voided items cannot be gained or used — treat them as if they are
        not there", "Event Phase"), or already begun."""
        marks = self.players[p]
        live = live_domains(self.sheet, marks)
        out = []
        for r, (size, from_start, from_domain) in enumerate(self._road_opening):
            done = marks.roads[r]
            if done < size and (done > 0 or (from_start and from_starts) or from_domain in live):
                out.append(r)
        return out

    def lair_open(self, p: int, lair: int) -> bool:
        """Whether the player may mark in the Lair: not voided, reachable, not yet full."""
        void_key, _, sizes = self._lair_gates[lair]
        marks = self.players[p]
        if void_key in marks.voided or self.lair_closed(p, lair):
            return False
        return any(m < size for m, size in zip(marks.lairs[lair], sizes, strict=True))

    def lair_closed(self, p: int, lair: int) -> bool:
        """Winter: "marking specific Domains grants access to specific Monster Lairs" (not yet; a
        Domain voided grants nothing: it is "as if ... not there")."""
        gate = self._lair_gates[lair][1]
        return gate is not None and gate not in live_domains(self.sheet, self.players[p])

    # ======================================================= the VM's sheet
    def citizen_options(self, player: int, guild: int | None) -> list[str]:
        self._citizen_choices = [
            i
            for i, c in enumerate(self.sheet["citizens"])
            if (guild is None or c["guild"] == guild) and self.citizen_open(player, i)
        ]
        return [f"the {self.sheet['citizens'][i]['label']} Citizen" for i in self._citizen_choices]

    def mark_citizen(self, player: int, option: int) -> None:
        self.mark_citizen_section(player, self._citizen_choices[option])

    def mark_next(self, player: int, section: str) -> None:
        marks = self.players[player]
        pips = self.sheet[section]
        count = marks.gold if section == "gold" else marks.wall
        if count >= len(pips):
            return
        if section == "gold":
            marks.gold += 1
        else:
            marks.wall += 1
        if self.record:
            self.event("mark", player=player, section=section, name=section, pip=count)
        self._mark(player, section, 0, count, pips[count])

    def road_options(self, player: int) -> list[str]:
        # "Road Reward Pip: ... continue a Road or start a Road leading away from a Domain you've
        # claimed" (a Build may also start at a starting pip; a reward may not)
        self._road_choices = self.buildable(player, from_starts=False)
        return [
            f"{self.sheet['roads'][r]['from']} -> {self.sheet['roads'][r]['to'] or 'dead end'}"
            for r in self._road_choices
        ]

    def mark_road(self, player: int, option: int) -> None:
        self.mark_road_pip(player, self._road_choices[option])

    def lair_options(self, player: int) -> list[str]:
        self._lair_choices = [i for i in range(len(self.sheet["lairs"])) if self.lair_open(player, i)]
        return [self.sheet["lairs"][i]["name"] for i in self._lair_choices]

    def mark_lair(self, player: int, option: int) -> None:
        lair = self._lair_choices[option]
        marks = self.players[player]
        # "mark the next available pip in the leftmost incomplete Range Block in that Monster Lair"
        block = next(
            j
            for j, b in enumerate(self.sheet["lairs"][lair]["blocks"])
            if marks.lairs[lair][j] < len(b["pips"])
        )
        self.mark_lair_pip(player, lair, block)

    def track_options(self, player: int) -> list[str]:
        marks = self.players[player]
        self._track_choices = [
            i for i, t in enumerate(self.sheet["tracks"]) if marks.tracks[i] < len(t["pips"])
        ]
        return [
            f"{self.guild_name(self.sheet['tracks'][i]['guild'])} Guild Track" for i in self._track_choices
        ]

    def mark_track(self, player: int, option: int) -> None:
        self.mark_track_pip(player, self._track_choices[option])

    def statue_choices(self, player: int) -> list[str]:
        marks = self.players[player]
        if len(marks.statues) >= self.rules["most_statues"]:
            return []  # "You may never have more than 4 Statue cards"
        self._statue_choices = [
            i for i, n in enumerate(self.draft) if n not in marks.statues
        ]  # no duplicates
        return [f"Statue {self.draft[i]}: {self._statue_text[self.draft[i]]}" for i in self._statue_choices]

    def statue_options(self, player: int) -> list[str] | None:
        if self.phase in ("harvest", "second harvest"):
            self.players[player].plinths_waiting += 1
            return None
        return self.statue_choices(player)

    def take_statue(self, player: int, option: int, refill: bool = True) -> None:
        marks = self.players[player]
        number = self.draft.pop(self._statue_choices[option])
        marks.statues.append(number)
        self.event("statue", player=player, number=number)
        card = next(c for c in self.statue_cards if c["number"] == number)
        if card["instant"]:
            marks.queue.append(card["chunk"])
        if refill:  # "During the Action phase ... immediately take a Statue card then refill the draft line"
            self.refill()

    def sheet_count(self, player: int, what: str, guild: int | None) -> int:
        return count(self.sheet, self.players[player], self.rules, what, guild)

    def reward_pips(self, player: int, reward: int, section: str | None = None) -> int:
        marks = self.players[player]
        if section is None:
            marked = marked_pips(self.sheet, marks)
        else:  # "in your Gold Chart": that section's pips marked so far
            marked = [self.sheet[section][: getattr(marks, section)]]
        return sum(1 for pips in marked for pip in pips if pip == reward)

    def score(self, player: int, vp: int) -> None:
        self.players[player].vp += vp

    def add_stars(self, player: int, n: int) -> None:
        self.players[player].stars_bonus += n

    def dice_values(self) -> dict[str, int]:
        return {c: self.dice[c] for c in self.rules["colors"]}

    def set_die(self, color: str, value: int) -> None:
        self.dice[color] = value

    def void(self, player: int, kind: str, name: str) -> None:
        self.players[player].voided.add((kind, name))
        self.event("void", player=player, what=kind, name=name)

    def triggered(self, player: int) -> list[int]:
        queue = self.players[player].queue
        self.players[player].queue = []
        return queue

    # ================================================================ running
    def run(self, chunk: int, player: int) -> Generator[Request, Any, None]:
        """Run a chunk for a player (its requests go to that player)."""
        yield from self.vm.run(chunk, RunContext(player), self, self.rng)
        if self.players[player].queue:
            yield from self.run_queue(player)

    def run_scoring(self, chunk: int, player: int) -> None:
        """A scoring effect runs to its end at once: it may not ask anything."""
        run = self.vm.run(chunk, RunContext(player), self, self.rng)
        try:
            request = next(run)
        except StopIteration:
            return
        raise VMError(f"{self.a.chunks[chunk].owner}: a scoring effect asks {type(request).__name__}")

    def run_queue(self, player: int) -> Generator[Request, Any, None]:
        while self.players[player].queue:
            yield from self.run(self.players[player].queue.pop(0), player)

    # ================================================================= the end
    def check_end(self, p: int) -> None:
        if self.solo or self.end_triggered:
            return
        complete = sum(
            1 for i, t in enumerate(self.sheet["tracks"]) if self.players[p].tracks[i] >= len(t["pips"])
        )
        if complete >= self.rules["end_tracks"]:
            self.end_triggered = True  # "whether it is their turn or not"
            self.event("end_triggered", player=p)

    def finish(self) -> None:
        scores = [self.final_score(p) for p in range(len(self.players))]
        best = max(s.total for s in scores)
        leaders = [p for p, s in enumerate(scores) if s.total == best]
        most_stars = max(scores[p].stars for p in leaders)  # "the player with the most Star pips"
        winners = [p for p in leaders if scores[p].stars == most_stars]
        band = None
        if self.solo:
            band = [title for least, title in self.rules["bands"] if scores[0].total >= least][-1]
        self.over = Result(scores, winners, self.turn_no, band)
        self.event("end", scores=[s.total for s in scores], winners=winners)

    def final_score(self, p: int) -> Score:
        marks = self.players[p]
        statue_vp = {}
        for number in marks.statues:
            card = next(c for c in self.statue_cards if c["number"] == number)
            if card["instant"]:
                continue
            marks.vp = 0
            self.run_scoring(card["chunk"], p)
            statue_vp[number] = marks.vp
        stars = count(self.sheet, marks, self.rules, "star_pips", None) + marks.stars_bonus
        domains = count(self.sheet, marks, self.rules, "domains", None)
        lairs = sum(
            vp
            for lair, vp in marks.lair_vp.items()
            if ("lair", self.sheet["lairs"][lair]["name"]) not in marks.voided
        )
        return Score(stars, domains, lairs, sum(statue_vp.values()), statue_vp)


def count(sheet: dict, marks: Marks, rules: dict, what: str, guild: int | None) -> int:
    """How many of a countable a player's sheet has (voided items are not there)."""
    rewards = rules["rewards"]
    star = {i for i, r in enumerate(rewards) if r.get("star")}
    live_citizens = [
        i for i, c in enumerate(sheet["citizens"]) if ("citizen", c["label"]) not in marks.voided
    ]
    if what == "bridges":
        return sum(
            1
            for r, road in enumerate(sheet["roads"])
            if road["bridge"] is not None and marks.roads[r] >= road["bridge"] + 3
        )
    if what == "domains":
        return len(live_domains(sheet, marks))
    if what == "gold_pips":
        return marks.gold
    if what == "wall_stars":
        return sum(1 for pip in sheet["wall"][: marks.wall] if pip in star)
    if what == "lairs":
        return sum(1 for lair in marks.lair_vp if ("lair", sheet["lairs"][lair]["name"]) not in marks.voided)
    if what == "citizen_pips":
        return sum(
            marks.citizens[i]
            for i in live_citizens
            if guild is None or sheet["citizens"][i]["guild"] == guild
        )
    if what == "star_pips":
        return sum(1 for pips in marked_pips(sheet, marks) for pip in pips if pip in star)
    raise VMError(f"nothing to count called {what!r}")


def live_domains(sheet: dict, marks: Marks) -> set[int]:
    """The Domains a player has claimed and that are not voided: "Voided items cannot be gained or
    used — treat them as if they are not there" ("Event Phase")."""
    return {d for d in marks.domains if ("domain", sheet["domains"][d]["name"]) not in marks.voided}


def marked_pips(sheet: dict, marks: Marks) -> list[list[int]]:
    """The pips a player has marked, section by section (voided sections are not there)."""
    voided = marks.voided
    live_citizens = [i for i, c in enumerate(sheet["citizens"]) if ("citizen", c["label"]) not in voided]
    marked = [sheet["citizens"][i]["pips"][: marks.citizens[i]] for i in live_citizens]
    marked += [t["pips"][: marks.tracks[i]] for i, t in enumerate(sheet["tracks"])]
    marked += [sheet["gold"][: marks.gold], sheet["wall"][: marks.wall]]
    marked += [road["pips"][: marks.roads[r]] for r, road in enumerate(sheet["roads"])]
    for i, lair in enumerate(sheet["lairs"]):
        if ("lair", lair["name"]) not in voided:
            marked += [b["pips"][: marks.lairs[i][j]] for j, b in enumerate(lair["blocks"])]
    return marked


def _index(answer: Any, count_: int) -> int:
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < count_:
        raise VMError(f"answer a number from 0 to {count_ - 1}, not {answer!r}")
    return answer
