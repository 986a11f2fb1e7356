"""Dice: whether a roll meets a requirement, and whether any roll can.

Rules (Vanguard rulebook, "Your Hero Board" and "Quick Reference"):
* a symbol count needs that many dice showing the symbol;
* N-of-a-kind is N dice showing the same *number* (not symbol);
* a Small Straight is 4 sequential numbers, a Large Straight 5.
Items of one requirement each use their own dice (`[Claw] 2 [Paw]` needs four
dice).  These functions serve the checker now and the engine and odds later.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

from dtc import nodes as n

STRAIGHT_LENGTH = {"small": 4, "large": 5}
ENUMERATION_LIMIT = 200_000
# the ways a hero's dice may fall that the exact odds, the board and the bots weigh (lint's C040): 5
# dice of 6 faces are 462; 60,000 keeps `dtc odds` of the largest dice allowed to seconds
MAX_DICE_STATES = 60_000


def ways_to_fall(faces: int, dice: int) -> int:
    """Every multiset of `dice` dice of `faces` faces, and of fewer dice: C(faces + dice, dice)."""
    return comb(faces + dice, dice)


def dice_needed(req: n.Requirement) -> int:
    """How many dice the requirement's items use between them."""
    total = 0
    for item in req.items:
        if isinstance(item, n.SymbolNeed):
            total += item.count
        elif isinstance(item, n.OfAKind):
            total += item.count
        elif isinstance(item, n.Straight):
            total += STRAIGHT_LENGTH[item.size]
    return total


def has_run(values: set[int], length: int) -> bool:
    """Whether `values` hold `length` consecutive numbers."""
    return any(all(v + k in values for k in range(length)) for v in values)


def meets(req: n.Requirement | n.ValueRange, roll: tuple[int, ...], faces: dict[int, str]) -> bool:
    """Whether the dice `roll` (face values) meet the requirement or value range."""
    if isinstance(req, n.ValueRange):
        return any(req.low <= v <= req.high for v in roll)
    return _assign(list(req.items), Counter(roll), faces)


def _assign(items: list, pool: Counter, faces: dict[int, str]) -> bool:
    """Give each item its own dice from `pool`; symbol counts go last (they are greedy-safe)."""
    structured = [i for i in items if not isinstance(i, n.SymbolNeed)]
    if not structured:
        return _symbols_fit([i for i in items if isinstance(i, n.SymbolNeed)], pool, faces)
    first, rest = structured[0], [i for i in items if i is not structured[0]]
    for used in _choices(first, pool, faces):
        remaining = pool - used
        if _assign(rest, remaining, faces):
            return True
    return False


def _choices(item, pool: Counter, faces: dict[int, str]):
    if isinstance(item, n.OfAKind):
        for value, have in pool.items():
            if have >= item.count and (item.symbol is None or _same(faces.get(value), item.symbol)):
                yield Counter({value: item.count})
    elif isinstance(item, n.Straight):
        length = STRAIGHT_LENGTH[item.size]
        for low in sorted(pool):
            run = range(low, low + length)
            if all(pool[v] > 0 for v in run):
                yield Counter(run)


def _symbols_fit(needs: list[n.SymbolNeed], pool: Counter, faces: dict[int, str]) -> bool:
    for need in needs:
        have = sum(c for v, c in pool.items() if _same(faces.get(v), need.symbol))
        if have < need.count:
            return False
    return True


def _same(symbol: str | None, wanted: str) -> bool:
    return symbol is not None and symbol.casefold() == wanted.casefold()


def feasible(req: n.Requirement, dice: int, faces: dict[int, str]) -> str | None:
    """None when some roll of `dice` dice meets `req`; otherwise why not."""
    needed = dice_needed(req)
    if needed > dice:
        return f"it needs {needed} dice and only {dice} {'is' if dice == 1 else 'are'} rolled"
    values = set(faces)
    for item in req.items:
        if isinstance(item, n.Straight):
            length = STRAIGHT_LENGTH[item.size]
            if not has_run(values, length):
                shown = ", ".join(str(v) for v in sorted(values))
                return f"a {item.size} straight needs {length} sequential numbers; the faces are {shown}"
        if isinstance(item, n.OfAKind) and item.symbol is not None:
            if not any(_same(s, item.symbol) for s in faces.values()):
                return f"no face shows [{item.symbol}]"
    return None


def satisfiable_together(tests: list, dice: int, faces: dict[int, str]) -> bool | None:
    """Whether one roll of `dice` dice can pass every test at once (None: too many to try)."""
    values = sorted(faces)
    if comb(len(values) + dice - 1, dice) > ENUMERATION_LIMIT:
        return None
    passing = [rolls_passing(t, dice, faces) for t in tests]
    if None not in passing:
        return bool(frozenset.intersection(*passing))
    for roll in combinations_with_replacement(values, dice):
        if all(meets(t, roll, faces) for t in tests):
            return True
    return False


CACHED_ROLLS = 5_000  # the rolls of 5 six-sided dice are 252; of 10 dice, 3,003


def _faces_key(faces: dict[int, str]) -> tuple:
    return tuple(sorted(faces.items()))


@lru_cache(maxsize=4096)
def passing_rolls(test, dice: int, faces: tuple) -> frozenset:
    """The rolls (sorted face values) of `dice` dice that pass `test`, over faces given as sorted
    (value, symbol) pairs. Kept: the checker asks of the same requirement on the same dice many
    times (each ability's tiers against each other, each `On` clause against its ability's
    requirement), and a folder of many heroes repeats them."""
    face_map = dict(faces)
    return frozenset(roll for roll in combinations_with_replacement(sorted(face_map), dice)
                     if meets(test, roll, face_map))


def rolls_passing(test, dice: int, faces: dict[int, str]) -> frozenset | None:
    """`passing_rolls` for a faces mapping; None when there are too many rolls to keep."""
    if comb(len(faces) + dice - 1, dice) > CACHED_ROLLS:
        return None
    return passing_rolls(test, dice, _faces_key(faces))
