"""Valeria bots: a random one, and a greedy one that plays sensibly.

The greedy bot values a move by what it adds to its sheet now: a Citizen by
how often the black dice will activate it, a Lair pip by the share of the Lair's
VP it brings closer, a road by its pips and the Domain at its end, reward pips
by what they give.  It uses a Domain power when a die change makes a better move
possible, takes the Statue worth most on its sheet as it stands, and marks
where it is nearest to finishing something.
"""

from __future__ import annotations

import random
import re
from typing import Any

from dtc.valeria.engine import Game
from dtc.vm import ChoosePlace


def activation_chances() -> dict[int, float]:
    """For each value 1-12, the chance that one roll of the two black dice activates it."""
    chance = {}
    for v in range(1, 13):
        hits = sum(1 for a in range(1, 7) for b in range(1, 7) if v in (a, b, a + b))
        chance[v] = hits / 36
    return chance


CHANCE = activation_chances()
ACTIVATION: dict[str, float] = {}  # a Citizen section's label ("9/10") -> its chance per roll


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def answer(self, game: Game, request: ChoosePlace) -> int:
        return self.rng.randrange(len(request.options))

    def observe(self, game: Game, request: ChoosePlace, answer: Any) -> None:
        self.answer(game, request)


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._best: dict = {}
        self._roads: dict = {}
        self._values: dict = {}
        self._values_for: tuple = ()
        self._gains: dict[int, list[float]] = {}
        self._gains_for: tuple = ()
        self._statues: dict = {}

    def observe(self, game: Game, request: ChoosePlace, answer: Any) -> None:
        self.answer(game, request)

    def answer(self, game: Game, request: ChoosePlace) -> int:
        p = request.player
        purpose = request.purpose
        if purpose == "take an action":
            best, pick = -1.0, 0
            gains = self.road_gains(game, p)
            for i, m in enumerate(game.offered):  # the first of the best
                if m.action == "build":
                    gain = gains[m.target]
                    value = gain[min(m.value, len(gain) - 1)]
                else:
                    value = self.value_of(game, p, m.action, m.value, m.target)
                if value > best:
                    best, pick = value, i
            return pick
        if purpose == "use a Domain power":
            return self.power(game, p, len(request.options))
        if purpose == "change a die":
            return max(
                range(len(request.options)),
                key=lambda i: self.best_after(game, p, _change(request.options[i])),
            )
        if purpose == "mark a Citizen":
            sections = game._citizen_choices
            return max(range(len(sections)), key=lambda i: self.citizen_value(game, p, sections[i]))
        if purpose == "mark a Road pip":
            roads = game._road_choices
            return min(range(len(roads)), key=lambda i: self.road_left(game, p, roads[i]))
        if purpose == "mark a Lair pip":
            lairs = game._lair_choices
            return max(range(len(lairs)), key=lambda i: self.lair_share(game, p, lairs[i]))
        if purpose in ("mark a Guild Track pip", "mark 1 Guild Track pip"):
            tracks = [
                i for i, t in enumerate(game.sheet["tracks"]) if game.players[p].tracks[i] < len(t["pips"])
            ]
            return max(range(len(tracks)), key=lambda i: game.players[p].tracks[tracks[i]])
        if purpose == "take a Statue":
            numbers = [game.draft[i] for i in game._statue_choices]
            return max(range(len(numbers)), key=lambda i: self.statue_value(game, p, numbers[i]))
        return 0

    # -- values
    def move_value(self, game: Game, p: int, action: str, value: int, target: int) -> float:
        """What an action with this value at this target adds to the sheet now."""
        sheet = game.sheet
        marks = game.players[p]
        if action == "recruit":
            return self.citizen_value(game, p, target)
        if action == "slay":
            lair, block = divmod(target, 100)
            pip = sheet["lairs"][lair]["blocks"][block]["pips"][marks.lairs[lair][block]]
            return self.lair_share(game, p, lair) * 2 + self.pip_value(game, pip) + 0.5
        gain = self.road_gains(game, p)[target]
        return gain[min(value, len(gain) - 1)]

    def road_gains(self, game: Game, p: int) -> dict[int, list[float]]:
        """For each road the player may build on, what a Build marking k of its pips is worth,
        for each k (made once per turn: a Build's worth depends only on how many pips it marks)."""
        key = (game.turn_no, p)
        if self._gains_for != key:
            self._gains_for = key
            self._gains = {}
            marks = game.players[p]
            for r in game.buildable(p):
                road = game.sheet["roads"][r]
                done, size = marks.roads[r], len(road["pips"])
                worth = self.road_worth(game, r)  # of the first k pips, for each k
                gain = [0.4 * (end - done) + worth[end] - worth[done] for end in range(done, size + 1)]
                if road["to"] is not None:
                    gain[-1] += 3.0  # the road reaches its Domain
                self._gains[r] = gain
        return self._gains

    def road_worth(self, game: Game, road: int) -> list[float]:
        """The reward worth of a road's first k pips, for each k (a sheet never changes)."""
        key = (id(game.sheet), road)
        found = self._roads.get(key)
        if found is None:
            found = [0.0]
            for pip in game.sheet["roads"][road]["pips"]:
                found.append(found[-1] + self.pip_value(game, pip))
            self._roads[key] = found
        return found

    def citizen_value(self, game: Game, p: int, section: int) -> float:
        c = game.sheet["citizens"][section]
        marks = game.players[p]
        track = game.track_of(c["guild"])
        room = len(game.sheet["tracks"][track]["pips"]) - marks.tracks[track]
        activation = self.activation(c)
        pip = c["pips"][marks.citizens[section]] if marks.citizens[section] < len(c["pips"]) else -1
        turns_left = max(1.0, 30.0 - game.turn_no / max(1, len(game.players)))
        return min(room, activation * turns_left) * 0.5 + self.pip_value(game, pip)

    @staticmethod
    def activation(citizen: dict) -> float:
        found = ACTIVATION.get(citizen["label"])
        if found is None:
            found = ACTIVATION[citizen["label"]] = sum(CHANCE[v] for v in citizen["values"])
        return found

    def pip_value(self, game: Game, pip: int) -> float:
        reward = game.reward(pip)
        if reward is None:
            return 0.0
        return 1.0 if reward.get("star") else 1.2

    def lair_share(self, game: Game, p: int, lair: int) -> float:
        data = game.sheet["lairs"][lair]
        total = self._roads.get(("lair", id(game.sheet), lair))
        if total is None:
            total = self._roads[("lair", id(game.sheet), lair)] = sum(len(b["pips"]) for b in data["blocks"])
        done = sum(game.players[p].lairs[lair])
        vp = data["vp"][1] if lair in game.first_completer else data["vp"][0]
        return vp * (done + 1) / total / total

    def road_left(self, game: Game, p: int, road: int) -> int:
        return len(game.sheet["roads"][road]["pips"]) - game.players[p].roads[road]

    def statue_value(self, game: Game, p: int, number: int) -> float:
        key = (game.turn_no, game.phase, p, number)
        found = self._statues.get(key)
        if found is None:
            if len(self._statues) > 256:
                self._statues.clear()
            found = self._statues[key] = self._statue_value(game, p, number)
        return found

    def _statue_value(self, game: Game, p: int, number: int) -> float:
        card = next(c for c in game.statue_cards if c["number"] == number)
        if card["instant"]:
            return 5.0
        marks = game.players[p]
        kept = marks.vp
        marks.vp = 0
        game.run_scoring(card["chunk"], p)
        value, marks.vp = marks.vp, kept
        return value + 2.0

    # -- dice powers
    def best_after(self, game: Game, p: int, change: tuple[str, int] | None) -> float:
        """The value of the best move if the dice were changed so (from a table of the best target
        of each action at each value, made once per Action phase: an action's worth does not
        depend on the other dice)."""
        key = (game.turn_no, p)
        if self._best.get("key") != key:
            lairs = [i for i in range(len(game.sheet["lairs"])) if game.lair_open(p, i)]
            self._best = {"key": key, "open": (lairs, game.buildable(p))}
        dice = game.dice
        changed, to = change if change is not None else (None, 0)
        helper_color = game.rules["helper"]
        helper = to if changed == helper_color else dice[helper_color]
        best = 0.0
        for color, action in game.rules["actions"].items():
            value = to if changed == color else dice[color]
            best = max(
                best, self.best_of(game, p, action, value), self.best_of(game, p, action, value + helper)
            )
        return best

    def best_of(self, game: Game, p: int, action: str, value: int) -> float:
        """The worth of the best target an action with this value can reach (0: none)."""
        found = self._best.get((action, value))
        if found is None:
            if action == "build":
                found = self.best_build(game, p, value)
            elif action == "recruit":  # one section takes each value
                section = game.citizen_for(value)
                found = 0.0
                if section is not None and game.citizen_open(p, section):
                    found = self.value_of(game, p, action, value, section)
            else:
                lairs, roads = self._best["open"]
                targets = game.targets(p, action, value, lairs, roads)
                found = max((self.value_of(game, p, action, value, t) for t in targets), default=0.0)
            self._best[(action, value)] = found
        return found

    def best_build(self, game: Game, p: int, value: int) -> float:
        """The worth of the best Build with this value (0: no road to build on)."""
        return max((g[min(value, len(g) - 1)] for g in self.road_gains(game, p).values()), default=0.0)

    def value_of(self, game: Game, p: int, action: str, value: int, target: int) -> float:
        """`move_value` of a Recruit or a Slay, remembered for the turn (the sheet does not change while
        a player chooses, and their worth does not depend on the value that reached the target)."""
        if self._values_for != (game.turn_no, p):  # the worths hold for one player's turn
            self._values_for = (game.turn_no, p)
            self._values = {}
        key = (action, target)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self.move_value(game, p, action, value, target)
        return found

    def power(self, game: Game, p: int, options: int) -> int:
        """Use the power whose best die change makes the best move better (else: no more powers)."""
        best, pick = self.best_after(game, p, None), options - 1
        dice = game.dice
        helper_color = game.rules["helper"]
        actions = game.rules["actions"]
        blue = dice[helper_color]
        # the best move each die gives now; a change to one die only changes its own entry
        own = {
            c: max(self.best_of(game, p, a, dice[c]), self.best_of(game, p, a, dice[c] + blue))
            for c, a in actions.items()
        }
        plain = max(self.best_of(game, p, a, dice[c]) for c, a in actions.items())
        for i, (domain, _) in enumerate(game.power_options(p)):
            for color, to in self.changes(game, domain):
                # no value of this die can beat the best move: skip the search (most turns)
                if self.ceiling(game, p, None if color == helper_color else actions[color]) <= best + 1e-9:
                    continue
                if color == helper_color:  # Blue only changes the moves made with Blue
                    after = plain
                    for c, a in actions.items():
                        if self.ceiling(game, p, a) > max(best, after) + 1e-9:
                            after = max(after, self.best_of(game, p, a, dice[c] + to))
                else:
                    mine = max(
                        self.best_of(game, p, actions[color], to),
                        self.best_of(game, p, actions[color], to + blue),
                    )
                    after = max([mine] + [v for c, v in own.items() if c != color])
                if after > best + 1e-9:
                    best, pick = after, i
        return pick

    def ceiling(self, game: Game, p: int, action: str | None) -> float:
        """The most any target of the action (of every action for None) could be worth this turn,
        whatever the dice: a bound that lets most power searches stop at once."""
        key = ("ceiling", action)
        found = self._best.get(key)
        if found is None:
            if action is None:
                found = max(self.ceiling(game, p, a) for a in set(game.rules["actions"].values()))
            else:
                lairs, roads = self._best["open"]
                sheet = game.sheet
                if action == "recruit":  # at most its activation share of the turns left, and a reward
                    turns_left = max(1.0, 30.0 - game.turn_no / max(1, len(game.players)))
                    shares = [
                        self.activation(c) for i, c in enumerate(sheet["citizens"]) if game.citizen_open(p, i)
                    ]
                    found = 0.5 * turns_left * max(shares) + 1.2 if shares else 0.0
                elif action == "slay":  # its Lair's share, and a reward, and the Gold
                    found = max((self.lair_share(game, p, i) * 2 + 1.7 for i in lairs), default=0.0)
                else:  # a Build is worth most when it marks the whole road
                    found = self.best_build(game, p, 12)
            self._best[key] = found
        return found

    def changes(self, game: Game, domain: int) -> list[tuple[str, int]]:
        """The die changes a Domain's power could make (read from its text: flip, or +1/-1)."""
        key = ("power", id(game.sheet), domain)
        found = self._roads.get(key)
        if found is None:
            text = game.sheet["domains"][domain].get("power", "")
            colors = game.rules["colors"]
            named = [c for c in colors if re.search(rf"\b{c}\b", text, re.I)] or colors
            found = self._roads[key] = (named, "flip" in text.lower())
        named, flip = found
        out = []
        for color in named:
            value = game.dice[color]
            if flip:
                out.append((color, 7 - value))
            else:
                out += [(color, value + d) for d in (1, -1) if 1 <= value + d <= 6]
        return out


def _change(label: str) -> tuple[str, int] | None:
    m = re.match(r"(.+) \d+ -> (\d+)$", label)
    return (m.group(1), int(m.group(2))) if m else None


BOTS = {"greedy": GreedyBot, "random": RandomBot}
