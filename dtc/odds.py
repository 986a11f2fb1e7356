"""Odds: the exact chance of meeting an ability's requirement with the best re-rolls.

For one requirement over a hero's dice the Offensive Roll Phase is a small
Markov decision problem: after each roll the player keeps some dice and
re-rolls the rest, up to the last attempt.  Backward induction over the
multisets of dice (as optimal Yahtzee solvers do) gives, for every roll and
every number of attempts left, the best chance and a keep that reaches it.

Three things keep it fast and exact:

* dice are grouped into classes of interchangeable faces: when a requirement
  counts only symbols, the faces showing the same symbol are one class (five
  dice over three symbols are 21 states instead of 252);
* rolling m dice is rolling one die m times, W_j(S) = sum_i w_i W_{j-1}(S+i),
  and the best keep among all sub-multisets of a roll follows from removing one
  die at a time; a level costs a few thousand integer operations;
* the weights w_i are face counts, so every value is an integer over a power
  of the number of faces: the chances are exact fractions.

Whether a roll meets a requirement is `dtc.dicethrone.tables.Check`, the
engine's own test.  Tables are computed once per hero and requirement, kept in
memory on the artifact and in a cache file next to the compiled built-in
content (`~/.cache/dtc/odds-<hash>.json`), so a simulation never recomputes one.
"""

from __future__ import annotations

import json
import os
from array import array
from contextlib import suppress
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path
from typing import Any

from dtc.artifact import Artifact
from dtc.dice import STRAIGHT_LENGTH, has_run
from dtc.dicethrone.tables import Check, leveled
from dtc.resources import cache_dir

FORMAT = 1  # of the cache file
MAX_PLANS = 256  # worth plans kept in memory (a few ms each to make again)
MAX_ALTERATIONS = 64  # best dice alterations a plan keeps at hand (quick to work out again)


# ------------------------------------------------------------------ states


@dataclass
class Shape:
    """Every multiset of at most `dice` dice over `classes` classes, as count vectors, indexed."""

    classes: int
    dice: int
    states: list[tuple[int, ...]]
    index: dict[tuple[int, ...], int]
    size: list[int]
    add: list[list[int]]  # add[s][i]: s with one more die of class i (only below `dice` dice)
    remove: list[list[int]]  # remove[s]: s with one die fewer, for each class it has
    by_size: list[list[int]]

    @property
    def full(self) -> list[int]:
        return self.by_size[self.dice]


_SHAPES: dict[tuple[int, int], Shape] = {}


def shape(classes: int, dice: int) -> Shape:
    """The (shared) state space of `dice` dice over `classes` classes."""
    found = _SHAPES.get((classes, dice))
    if found is not None:
        return found
    states, by_size = [], []
    for k in range(dice + 1):
        layer = []
        for combo in combinations_with_replacement(range(classes), k):
            counts = [0] * classes
            for c in combo:
                counts[c] += 1
            layer.append(len(states))
            states.append(tuple(counts))
        by_size.append(layer)
    index = {s: i for i, s in enumerate(states)}
    size = [sum(s) for s in states]
    add, remove = [], []
    for s in states:
        add.append([index[s[:i] + (s[i] + 1,) + s[i + 1:]] for i in range(classes)]
                   if sum(s) < dice else [])
        remove.append([index[s[:i] + (s[i] - 1,) + s[i + 1:]] for i in range(classes) if s[i]])
    found = _SHAPES[(classes, dice)] = Shape(classes, dice, states, index, size, add, remove, by_size)
    return found


def _positions(roll, class_of: dict[int, int], want: tuple[int, ...]) -> tuple[int, ...]:
    """The positions of dice in `roll` that make up the multiset `want` (counts per class)."""
    left = list(want)
    kept = []
    for position, v in enumerate(roll):
        c = class_of[v]
        if left[c]:
            left[c] -= 1
            kept.append(position)
    return tuple(kept)


# ------------------------------------------------------------- the solver


@dataclass
class Table:
    """One requirement over one hero's dice, solved for every roll and number of attempts left.

    `values[r][s]` is the chance (numerator over `faces ** (dice * r)`) of meeting the requirement
    from full roll `s` with `r` re-rolls left, under the best keeps; `keeps[r][s]` is the state (a
    multiset of classes) to keep for it. `chances[a - 1]` is the chance within `a` attempts from
    nothing, over `faces ** (dice * a)`."""

    class_of: dict[int, int]  # face value -> class
    weights: list[int]  # faces per class
    dice: int
    attempts: int
    values: list[list[int]]
    keeps: list[list[int]]
    chances: list[int]

    @property
    def faces(self) -> int:
        return sum(self.weights)

    @property
    def shape(self) -> Shape:
        return shape(len(self.weights), self.dice)

    def chance(self, attempts: int) -> Fraction:
        """The exact chance of meeting the requirement within `attempts` roll attempts."""
        return Fraction(self.chances[attempts - 1], self.faces ** (self.dice * attempts))

    def state_of(self, roll: list[int] | tuple[int, ...]) -> int:
        counts = [0] * len(self.weights)
        for v in roll:
            counts[self.class_of[v]] += 1
        return self.shape.index[tuple(counts)]

    def best(self, roll: list[int] | tuple[int, ...], rerolls_left: int) -> tuple[Fraction, list[int]]:
        """(chance, positions of the dice to keep) for the current roll with `rerolls_left`."""
        s = self.state_of(roll)
        r = min(rerolls_left, self.attempts - 1)
        chance = Fraction(self.values[r][s], self.faces ** (self.dice * r))
        if r == 0:
            return chance, list(range(len(roll)))
        return chance, list(_positions(roll, self.class_of, self.shape.states[self.keeps[r][s]]))

    def to_json(self) -> dict:
        return {"class_of": {str(v): c for v, c in self.class_of.items()}, "weights": self.weights,
                "dice": self.dice, "attempts": self.attempts, "values": self.values,
                "keeps": self.keeps, "chances": self.chances}

    @staticmethod
    def from_json(data: dict) -> Table:
        return Table({int(v): c for v, c in data["class_of"].items()}, list(data["weights"]),
                     data["dice"], data["attempts"], data["values"], data["keeps"], data["chances"])


def solve(met: list[bool], weights: list[int], dice: int, attempts: int,
          class_of: dict[int, int]) -> Table:
    """Backward induction for a requirement given as `met` over the full states of the shape."""
    sh = shape(len(weights), dice)
    f = sum(weights)
    power = f ** dice
    full = sh.full
    value = [0] * len(sh.states)  # V_r on full states, at scale f ** (dice * r); 0 elsewhere
    for s, ok in zip(full, met, strict=True):
        value[s] = int(ok)
    values = [value]
    keeps: list[list[int]] = [list(range(len(sh.states)))]  # no re-rolls left: keep what you have
    chances = []
    scale = 1
    lift = [f ** k for k in range(dice + 1)]
    for r in range(1, attempts + 1):
        w = value[:]  # W over all states: the expected V_{r-1} once the missing dice are rolled
        for k in range(dice - 1, -1, -1):
            for s in sh.by_size[k]:
                nxt = sh.add[s]
                total = 0
                for i, weight in enumerate(weights):
                    total += weight * w[nxt[i]]
                w[s] = total
        chances.append(w[sh.by_size[0][0]])
        if r == attempts:
            break
        best = [0] * len(sh.states)  # the best keep among each state's sub-multisets, at scale * power
        arg = [0] * len(sh.states)
        for k in range(dice + 1):
            for s in sh.by_size[k]:
                b, a = w[s] * lift[k], s  # ties keep the larger keep
                for t in sh.remove[s]:
                    if best[t] > b:
                        b, a = best[t], arg[t]
                best[s], arg[s] = b, a
        scale *= power
        value = [0] * len(sh.states)
        keep = list(range(len(sh.states)))
        for s, ok in zip(full, met, strict=True):
            if ok:
                value[s] = scale
            else:
                value[s], keep[s] = best[s], arg[s]
        values.append(value)
        keeps.append(keep)
    return Table(class_of, list(weights), dice, attempts, values, keeps, chances)


# ------------------------------------------------------ requirements, classes


def classes_for(requirement: dict | None, faces: dict[int, int]) -> tuple[dict[int, int], list[int]]:
    """Face value -> class, and faces per class: faces the requirement cannot tell apart share one."""
    items = requirement["items"] if requirement else []
    values = sorted(faces)
    if requirement is not None and all("count" in i for i in items):
        key = faces.get  # only symbols matter
    elif len(items) == 1 and "of_a_kind" in items[0] and items[0].get("symbol") is not None:
        wanted = items[0]["symbol"]
        key = lambda v: v if faces.get(v) == wanted else None  # noqa: E731 - other faces never count
    else:
        key = lambda v: v  # noqa: E731 - numbers matter (straights, N of a kind, mixed)
    class_of: dict[int, int] = {}
    groups: dict[Any, int] = {}
    weights: list[int] = []
    for v in values:
        k = key(v)
        if k not in groups:
            groups[k] = len(weights)
            weights.append(0)
        class_of[v] = groups[k]
        weights[groups[k]] += 1
    return class_of, weights


def met_list(checks: list[Check], class_of: dict[int, int], weights: list[int], dice: int) -> list[bool]:
    """Whether each full state meets any of the checks (one face stands for its class)."""
    sh = shape(len(weights), dice)
    representative = {}
    for v, c in sorted(class_of.items(), reverse=True):
        representative[c] = v
    out = []
    for s in sh.full:
        roll = [representative[c] for c, n in enumerate(sh.states[s]) for _ in range(n)]
        out.append(any(_meets(check, roll) for check in checks))
    return out


def _meets(check: Check, roll: list[int]) -> bool:
    items = check.items
    if len(items) == 1 and "straight" in items[0]:
        return has_run(set(roll), STRAIGHT_LENGTH[items[0]["straight"]])
    return check(roll)


def table_for(requirements: list[dict], faces: dict[int, int], dice: int, attempts: int) -> Table:
    """The table of meeting any one of `requirements` (one, for an ability option)."""
    single = requirements[0] if len(requirements) == 1 else None
    class_of, weights = classes_for(single, faces)
    checks = [Check(r, faces) for r in requirements]
    return solve(met_list(checks, class_of, weights, dice), weights, dice, attempts, class_of)


# ------------------------------------------------------------ best worth


@dataclass
class WorthPlan:
    """The keeps that make the expected worth of the ability finally activated as high as it can be.

    The requirements of several options, each with its worth (the bot's estimate of its damage and
    effects): after the last roll the best option met is activated, so a roll is worth the most any
    met option is worth, and `keeps[r][s]` is the best keep from roll `s` with `r` re-rolls left."""

    class_of: dict[int, int]
    dice: int
    expected: list[array]  # per re-rolls left, per state: compact, as simulations keep many plans
    keeps: list[array]
    chances: list[float] = field(default_factory=list)  # of each class on one die
    alterations: dict = field(default_factory=dict)  # the bot's best dice alterations, by roll
    fills: dict = field(default_factory=dict)  # `fill`, by re-rolls left

    def fill(self, rerolls_left: int) -> array:
        """Per state of any number of dice: the expected worth once the missing dice are rolled,
        with `rerolls_left` re-rolls after that (the dice of a full state are all there)."""
        r = min(rerolls_left, len(self.expected) - 1)
        found = self.fills.get(r)
        if found is None:
            sh = shape(len(self.chances), self.dice)
            found = list(self.expected[r])
            for k in range(self.dice - 1, -1, -1):
                for s in sh.by_size[k]:
                    nxt = sh.add[s]
                    found[s] = sum(p * found[nxt[i]] for i, p in enumerate(self.chances))
            found = self.fills[r] = array("d", found)  # compact: a simulation keeps many plans
        return found

    def alteration(self, roll: list[int], purpose: str, most: int, values: list[int], rerolls_left: int,
                   against: bool) -> tuple[float, list]:
        """The best use of up to `most` changes (to one of `values`) or re-rolls of `roll`, for the
        roller (`against`: for an opponent, who wants her worth as low as it can be): (how much it
        improves the worth of the roller's best play from the dice, with `rerolls_left` re-rolls
        after, in expectation for a re-roll; the answer: (die, value) pairs for a change, dice for
        a re-roll). Worked out on the multisets of dice (faces of a class are alike to the plan)."""
        sh = shape(len(self.chances), self.dice)
        class_of = self.class_of
        counts = [0] * sh.classes
        for v in roll:
            counts[class_of[v]] += 1
        start = sh.index[tuple(counts)]
        r = min(rerolls_left, len(self.expected) - 1)
        key = (start, purpose, most, tuple(values), r, against)
        found = self.alterations.get(key)
        if found is None:
            if len(self.alterations) >= MAX_ALTERATIONS:
                self.alterations.clear()  # memory stays flat over any run
            found = self._best_alteration(sh, start, purpose, most, values, r, against)
            self.alterations[key] = found
        gain, removed, added = found
        positions = list(_positions(roll, class_of, removed))
        if purpose != "change":
            return gain, positions
        value_of = {}
        for v in values:
            value_of.setdefault(class_of[v], v)
        return gain, [(i, value_of[c]) for i, c in zip(positions, added, strict=True)]

    def _best_alteration(self, sh: Shape, start: int, purpose: str, most: int, values: list[int], r: int,
                         against: bool) -> tuple[float, tuple[int, ...], tuple[int, ...]]:
        """(gain, classes removed as counts, classes put in their place in order) for `alteration`."""
        sign = -1.0 if against else 1.0
        full = self.expected[r]
        after = full if purpose == "change" else self.fill(r)
        targets = sorted({self.class_of[v] for v in values})
        best, removed, added = 0.0, (0,) * sh.classes, ()
        now = sign * full[start]
        layer = {start: ()}  # state with some dice taken out -> the classes taken out
        for _ in range(most):
            nxt = {}
            for t, out in layer.items():
                here = sh.states[t]
                for c in range(sh.classes):
                    if here[c] and (not out or c >= out[-1]):  # each multiset taken out once
                        nxt.setdefault(sh.index[here[:c] + (here[c] - 1,) + here[c + 1:]], out + (c,))
            layer = nxt
            for t, out in layer.items():
                if purpose == "change":
                    for put in combinations_with_replacement(targets, len(out)):
                        s = t
                        for c in put:
                            s = sh.add[s][c]
                        gain = sign * full[s] - now
                        if gain > best + 1e-9:
                            best, removed, added = gain, tuple(out.count(c) for c in range(sh.classes)), put
                else:
                    gain = sign * after[t] - now
                    if gain > best + 1e-9:
                        best, removed, added = gain, tuple(out.count(c) for c in range(sh.classes)), ()
        return best, removed, added

    def worth(self, roll: list[int] | tuple[int, ...]) -> float:
        """What the roll is worth as it stands: the most any option it meets is worth."""
        sh = shape(max(self.class_of.values()) + 1, self.dice)
        counts = [0] * sh.classes
        for v in roll:
            counts[self.class_of[v]] += 1
        return self.expected[0][sh.index[tuple(counts)]]

    def keep(self, roll: list[int] | tuple[int, ...], rerolls_left: int) -> tuple[float, tuple[int, ...]]:
        """(expected worth, positions of the dice to keep) for the roll with `rerolls_left`."""
        sh = shape(max(self.class_of.values()) + 1, self.dice)
        counts = [0] * sh.classes
        for v in roll:
            counts[self.class_of[v]] += 1
        s = sh.index[tuple(counts)]
        r = min(rerolls_left, len(self.keeps) - 1)
        return self.expected[r][s], _positions(roll, self.class_of, sh.states[self.keeps[r][s]])


def solve_worth(rewards: list[float], weights: list[int], dice: int, attempts: int,
                class_of: dict[int, int]) -> WorthPlan:
    """Backward induction for the expected final worth (rewards over the full states)."""
    sh = shape(len(weights), dice)
    f = sum(weights)
    chances = [w / f for w in weights]
    value = [0.0] * len(sh.states)
    for s, reward in zip(sh.full, rewards, strict=True):
        value[s] = reward
    expected, keeps = [value], [list(range(len(sh.states)))]
    for _ in range(1, attempts):
        w = value[:]
        for k in range(dice - 1, -1, -1):
            for s in sh.by_size[k]:
                nxt = sh.add[s]
                w[s] = sum(p * w[nxt[i]] for i, p in enumerate(chances))
        best, arg = [0.0] * len(sh.states), [0] * len(sh.states)
        for k in range(dice + 1):
            for s in sh.by_size[k]:
                b, a = w[s], s
                for t in sh.remove[s]:
                    if best[t] > b + 1e-12:
                        b, a = best[t], arg[t]
                best[s], arg[s] = b, a
        value = [0.0] * len(sh.states)
        keep = list(range(len(sh.states)))
        for s in sh.full:
            value[s], keep[s] = best[s], arg[s]
        expected.append(value)
        keeps.append(keep)
    return WorthPlan(class_of, dice, [array("d", e) for e in expected], [array("I", k) for k in keeps],
                     chances)


# ------------------------------------------------------------- the book


def requirement_key(requirement: dict) -> str:
    return json.dumps(requirement, sort_keys=True, separators=(",", ":"))


class Book:
    """Every table of an artifact's heroes: computed on first use, kept in memory and in a file."""

    def __init__(self, artifact: Artifact, attempts: int, path: Path | None):
        self.artifact = artifact
        self.attempts = attempts
        self.path = path
        self.tables: dict[str, Table] = {}
        self.plans: dict[tuple, WorthPlan] = {}
        self.met_lists: dict[tuple, list[bool]] = {}
        self.dirty = False
        self._loaded = False

    def table(self, hero: int, requirements: list[dict]) -> Table:
        """The table for meeting any of `requirements` with hero `hero`'s dice."""
        key = f"{hero}|" + "|".join(sorted(requirement_key(r) for r in requirements))
        found = self.tables.get(key)
        if found is None:
            self._load()
            found = self.tables.get(key)
        if found is None:
            data = self.artifact.players[hero]
            faces = {int(v): s for v, s in data["dice"]["faces"].items()}
            found = table_for(requirements, faces, data["dice"]["count"], self.attempts)
            self.tables[key] = found
            self.dirty = True
        return found

    def worth_plan(self, hero: int, options: list[tuple[dict, float]]) -> WorthPlan:
        """The best keeps for the most worth among `options` (requirement, worth), kept in memory."""
        key = (hero, tuple((requirement_key(r), round(w, 6)) for r, w in options))
        found = self.plans.get(key)
        if found is None:
            data = self.artifact.players[hero]
            faces = {int(v): s for v, s in data["dice"]["faces"].items()}
            dice = data["dice"]["count"]
            class_of, weights = classes_for(None, faces)
            rewards = [0.0] * len(shape(len(weights), dice).full)
            for requirement, worth in options:
                for j, ok in enumerate(self.met(hero, requirement, class_of, weights, dice)):
                    if ok and worth > rewards[j]:
                        rewards[j] = worth
            if len(self.plans) >= MAX_PLANS:
                self.plans.clear()  # upgrades make many ability sets: keep memory flat over any run
            found = self.plans[key] = solve_worth(rewards, weights, dice, self.attempts, class_of)
        return found

    def met(self, hero: int, requirement: dict, class_of, weights, dice) -> list[bool]:
        key = (hero, requirement_key(requirement))
        found = self.met_lists.get(key)
        if found is None:
            faces = {int(v): s for v, s in self.artifact.players[hero]["dice"]["faces"].items()}
            found = self.met_lists[key] = met_list([Check(requirement, faces)], class_of, weights, dice)
        return found

    def hero_requirements(self, hero: int) -> list[dict]:
        """Every offensive and ultimate requirement of the hero, its upgrades' too."""
        data = self.artifact.players[hero]
        abilities = list(data["abilities"]) + [c["ability"] for c in data["cards"] if c.get("ability")]
        out, seen = [], set()
        for ability in abilities:
            if ability.get("kind") not in ("offensive", "ultimate"):
                continue
            for option in ability.get("options", []):
                key = requirement_key(option["requirement"])
                if key not in seen:
                    seen.add(key)
                    out.append(option["requirement"])
        return out

    def warm(self, heroes: list[int]) -> None:
        """Have every table the heroes' abilities need (then save them)."""
        for hero in heroes:
            for requirement in self.hero_requirements(hero):
                self.table(hero, [requirement])
        self.save()

    def _load(self) -> None:
        if self._loaded or self.path is None:
            return
        self._loaded = True
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or data.get("ruleset") != self.artifact.content_hash:
                return
            for key, table in data["tables"].items():
                self.tables.setdefault(key, Table.from_json(table))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return  # a missing or damaged cache is recomputed

    def save(self) -> None:
        if not self.dirty or self.path is None:
            return
        self._load()
        data = {"format": FORMAT, "ruleset": self.artifact.content_hash,
                "tables": {k: t.to_json() for k, t in sorted(self.tables.items())}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.path)
            self.dirty = False
        except OSError:
            pass  # a cache that cannot be written only costs time


def book(artifact: Artifact, attempts: int = 3) -> Book:
    """The artifact's book of tables (one per artifact and attempt count, kept on the artifact)."""
    books = getattr(artifact, "_odds_books", None)
    if books is None:
        books = artifact._odds_books = {}  # derived data; the artifact itself is never changed
    found = books.get(attempts)
    if found is None:
        folder = cache_dir()
        path = folder / f"odds-{artifact.content_hash[:32]}-{attempts}.json" if folder else None
        found = books[attempts] = Book(artifact, attempts, path)
    return found


# ---------------------------------------------------------------- reports


def hero_report(artifact: Artifact, hero: int, attempts: int = 3, upgrades: bool = False) -> dict:
    """Every offensive and ultimate option of the hero with its chance in 1..attempts attempts
    (best first), the chance of meeting at least one, and each defensive roll's outcomes."""
    from dtc.disasm import option_label, requirement_text

    data = artifact.players[hero]
    b = book(artifact, attempts)
    rows = []
    abilities = [(a, 1) for a in data["abilities"]]
    if upgrades:
        abilities += [({"name": c["upgrades"], **c["ability"]}, c.get("level", 2))
                      for c in data["cards"] if c.get("ability")]
    every = []
    for ability, level in abilities:
        if ability.get("kind") not in ("offensive", "ultimate"):
            continue
        options = ability.get("options", [])
        for j, option in enumerate(options):
            name = leveled(ability["name"], level) if upgrades else ability["name"]
            label = option_label(artifact, name, options, j)
            table = b.table(hero, [option["requirement"]])
            chances = [table.chance(k) for k in range(1, attempts + 1)]
            rows.append({"ability": label, "kind": ability["kind"],
                         "requirement": requirement_text(artifact, option["requirement"]),
                         "chances": chances})
            every.append(option["requirement"])
    rows.sort(key=lambda r: (-r["chances"][-1], r["ability"]))
    report = {"hero": data["name"], "dice": data["dice"]["count"], "faces": len(data["dice"]["faces"]),
              "attempts": attempts, "abilities": rows}
    if every:
        union = b.table(hero, every)
        report["any"] = [union.chance(k) for k in range(1, attempts + 1)]
    if "minion" in data:  # "7. Minion Step": a Minion re-rolls for its Roll Objective, not an ability
        objective = b.table(hero, [data["minion"]["objective"]])
        report["objective"] = {"requirement": requirement_text(artifact, data["minion"]["objective"]),
                               "chances": [objective.chance(k) for k in range(1, attempts + 1)]}
    report["defensive"] = [{"ability": leveled(a["name"], level) if upgrades else a["name"],
                            "dice": a.get("dice") or 0, "outcomes": defense_outcomes(artifact, hero, a)}
                           for a, level in abilities if a.get("kind") == "defensive"]
    # the defences are run with the hero as the game starts: a form, a track, a dial may change them
    report["setup"] = [f"{c['name']} {c['values'][c['start']] if c['kind'] != 'dial' else c['start']}"
                       + (f" ({c['sides'][c.get('start_side', 0)]})" if c.get("sides") else "")
                       for c in data["components"] if c["kind"] in ("forms", "track", "dial")]
    b.save()
    return report


def roll_report(artifact: Artifact, hero: int, roll: list[int], rerolls_left: int,
                attempts: int = 3) -> list[dict]:
    """For the dice showing `roll` with `rerolls_left`: each option's chance under its best keep,
    and the dice to keep for it (best first)."""
    from dtc.disasm import option_label, requirement_text

    data = artifact.players[hero]
    b = book(artifact, attempts)
    rows = []
    for ability in data["abilities"]:
        if ability.get("kind") not in ("offensive", "ultimate"):
            continue
        options = ability.get("options", [])
        for j, option in enumerate(options):
            table = b.table(hero, [option["requirement"]])
            chance, keep = table.best(roll, rerolls_left)
            rows.append({"ability": option_label(artifact, ability["name"], options, j),
                         "requirement": requirement_text(artifact, option["requirement"]),
                         "chance": chance, "keep": keep})
    rows.sort(key=lambda r: (-r["chance"], r["ability"]))
    b.save()
    return rows


class _Faces:
    """Dice that show the given face values in order (then fall back to a seeded RNG)."""

    def __init__(self, faces: list[int], values: list[int]):
        import random

        self.sorted = sorted(faces)
        self.values = list(values)
        self.fallback = random.Random(0)
        self.sampled = False

    def randrange(self, n: int) -> int:
        if self.values:
            return self.sorted.index(self.values.pop(0))
        self.sampled = True
        return self.fallback.randrange(n)

    def shuffle(self, items: list) -> None:
        self.fallback.shuffle(items)

    def random(self) -> float:
        self.sampled = True
        return self.fallback.random()


def orderings(dice: tuple[int, ...]) -> int:
    """In how many orders a multiset of dice can fall (its share of all rolls, times faces ** dice)."""
    ways = factorial(len(dice))
    for v in set(dice):
        ways //= factorial(dice.count(v))
    return ways


def _defence_run(artifact: Artifact, hero: int, chunk: int, attacker: int, values: list[int],
                 components: list[int] | None, sides: list[int] | None, logging: bool):
    """One run of a defensive ability's chunk through the VM against a sample state (the hero as
    player 0, with `components` and `sides` if given; `attacker`'s hero as player 1), its dice
    showing `values` in order: (the state after, the dice source)."""
    from dtc.sample import SampleState, run_to_end
    from dtc.vm import VM, RunContext, VMError

    faces = {int(v): s for v, s in artifact.players[hero]["dice"]["faces"].items()}
    state = SampleState(artifact, [hero, attacker], logging=logging)
    if components is not None:
        state.seats[0].components, state.seats[0].sides = list(components), list(sides or [])
    rng = _Faces(list(faces), list(values))
    ctx = RunContext(0, hero, attacker=1, defender=0, faces=faces)
    with suppress(VMError):  # an effect that cannot finish on a sample state: what ran counts
        run_to_end(VM.shared(artifact), chunk, ctx, state, rng)
    return state, rng


def defence_runs(artifact: Artifact, hero: int, chunk: int, dice: int, attacker: int,
                 components: list[int] | None = None, sides: list[int] | None = None,
                 logging: bool = True):
    """Every multiset of `dice` of the hero's dice, rolled by her defensive ability's chunk
    (`_defence_run`): yields (the dice, the state after, the dice source)."""
    faces = sorted(int(v) for v in artifact.players[hero]["dice"]["faces"])
    for combo in combinations_with_replacement(faces, dice):
        yield (combo, *_defence_run(artifact, hero, chunk, attacker, list(combo), components, sides, logging))


def defence_dice(artifact: Artifact, hero: int, chunk: int, components: list[int] | None = None,
                 sides: list[int] | None = None) -> int:
    """How many dice a defensive ability's chunk rolls for the hero with `components` and `sides`
    (`If in <form>, roll 4 dice instead`): counted on one run against a sample state."""
    plenty = 32
    lowest = min(int(v) for v in artifact.players[hero]["dice"]["faces"])
    _, rng = _defence_run(artifact, hero, chunk, hero, [lowest] * plenty, components, sides, False)
    return plenty - len(rng.values)


def defense_outcomes(artifact: Artifact, hero: int, ability: dict) -> list[dict]:
    """The distribution of what a defensive roll does: every outcome of its dice, run through the
    VM against a sample state, grouped by what happened (with exact chances)."""
    from collections import Counter

    dice = ability.get("dice") or 0
    total = len(artifact.players[hero]["dice"]["faces"]) ** dice  # at most MAX_DICE_STATES ways (C040)
    outcomes: Counter = Counter()
    sampled = False
    for combo, state, rng in defence_runs(artifact, hero, ability["chunk"], dice,
                                          (hero + 1) % len(artifact.heroes)):
        sampled = sampled or rng.sampled
        outcomes[_summary(state.log)] += Fraction(orderings(combo), total)
    rows = [{"outcome": text, "chance": chance} for text, chance in outcomes.items()]
    rows.sort(key=lambda r: (-r["chance"], r["outcome"]))
    if sampled:
        rows.append({"outcome": "(later dice in the effect were sampled, not enumerated)", "chance": None})
    return rows


def _summary(log: list[str]) -> str:
    """One line for a run's log: totals of damage, healing and prevention, a component's final
    value, the rest as said; the defender is "you"."""
    import re

    amounts: dict[str, int] = {}
    order: list[str] = []
    for line in log:
        if re.match(r"player \d+ rolls", line):
            continue
        amount = re.match(r"(player \d+ (?:deals|heals|prevents) )(\d+)( .*)?$", line)
        component = re.match(r"(player \d+'s .+ is now )(.+)$", line)
        if amount:
            key = amount.group(1) + "#" + (amount.group(3) or "")
            add = int(amount.group(2))
        elif component:
            key = component.group(1) + "#"
            add = 0
            amounts[key + "value"] = component.group(2)  # type: ignore[assignment]
        else:
            key, add = line, 0
        if key not in amounts:
            order.append(key)
            amounts[key] = 0
        amounts[key] += add
    parts = []
    for key in order:
        if "#" not in key:
            parts.append(key)
        elif key + "value" in amounts:
            parts.append(key.replace("#", str(amounts[key + "value"])))
        elif amounts[key]:
            parts.append(key.replace("#", str(amounts[key])))
    text = "; ".join(parts).replace("player 1's", "your").replace("player 2", "the attacker")
    text = re.sub(r"\bplayer 1 (\w+?)s\b", r"you \1", text)
    return text or "nothing"
