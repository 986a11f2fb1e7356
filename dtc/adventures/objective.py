"""The Minion Step's Offensive Roll: which dice a minion re-rolls to meet its Roll Objective.

003_bd4cabbe7964005d.txt, "7. Minion Step": roll the 5 minion dice, "re-roll any dice that do not
match the Minion's Roll Objective or which exceed the required quantity of a symbol", a second
time "if the Roll Objective has still not been met"; for Straights, "keep exactly one of each 2,
3, 4, and 5 result" and "only keep a 1 or 6 value if it is already part of a Small or Large
Straight".  A Roll Objective is written as a requirement (`3 [Six]`, `3-of-a-kind`, `Large
Straight`) and compiled like one: `{"items": [...]}` over the minion's face values.
"""

from __future__ import annotations

from collections import Counter

STRAIGHT_RUNS = {"small": ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
                 "large": ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))}
MIDDLE = (2, 3, 4, 5)  # "keep exactly one of each 2, 3, 4, and 5 result"


def met(objective: dict, faces: dict[int, int], dice: list[int]) -> bool:
    """Whether the dice meet the Roll Objective (every item at once, each die used once)."""
    return _complete(objective, faces, dice)


def rerolls(objective: dict, faces: dict[int, int], dice: list[int], stop_when_met: bool = True) -> list[int]:
    """The indices of the dice to re-roll: none once the objective is met; else every die the
    objective does not keep (symbols past the count needed, a second of a straight's number, ...)."""
    if stop_when_met and _complete(objective, faces, dice):
        return []
    keep = _kept(objective, faces, dice)
    return [i for i in range(len(dice)) if i not in keep]


def _kept(objective: dict, faces: dict[int, int], dice: list[int]) -> set[int]:
    items = objective["items"]
    keep: set[int] = set()
    # symbols first: "exceed the required quantity of a symbol" is the one limit the rulebook names
    needed = Counter()
    for item in items:
        if "count" in item:
            needed[item["symbol"]] += item["count"]
    for i, value in enumerate(dice):
        symbol = faces[value]
        if needed[symbol] > 0:
            needed[symbol] -= 1
            keep.add(i)
    # then the kinds, the largest first, each from the largest group of one number left (ties: the
    # higher number; the rulebook leaves it to "the most effective decision", and it is no worse)
    for item in sorted((i for i in items if "of_a_kind" in i), key=lambda i: -i["of_a_kind"]):
        groups: dict[int, list[int]] = {}
        for i, value in enumerate(dice):
            if i not in keep and (item.get("symbol") is None or faces[value] == item["symbol"]):
                groups.setdefault(value, []).append(i)
        if groups:
            value = max(groups, key=lambda v: (len(groups[v]), v))
            keep.update(groups[value][:item["of_a_kind"]])
    for item in items:
        if "straight" in item:
            keep |= _straight_keeps(dice, keep, item["straight"])
    return keep


def _straight_keeps(dice: list[int], taken: set[int], size: str) -> set[int]:
    """One die of each 2, 3, 4 and 5; a 1 or a 6 only when it is already part of a straight."""
    first: dict[int, int] = {}
    for i, value in enumerate(dice):
        if i not in taken and value not in first:
            first[value] = i
    keep = {first[v] for v in MIDDLE if v in first}
    present = set(first)
    for end in (1, 6):
        if end in first and any(end in run and set(run) <= present
                                for runs in STRAIGHT_RUNS.values() for run in runs):
            keep.add(first[end])
    return keep


def _complete(objective: dict, faces: dict[int, int], dice: list[int]) -> bool:
    """Every item of the objective is met by the dice, each die counted once."""
    left = list(range(len(dice)))
    for item in objective["items"]:
        if "count" in item:
            mine = [i for i in left if faces[dice[i]] == item["symbol"]][:item["count"]]
            if len(mine) < item["count"]:
                return False
        elif "of_a_kind" in item:
            groups: dict[int, list[int]] = {}
            for i in left:
                if item.get("symbol") is None or faces[dice[i]] == item["symbol"]:
                    groups.setdefault(dice[i], []).append(i)
            best = max(groups.values(), key=len, default=[])
            if len(best) < item["of_a_kind"]:
                return False
            mine = best[:item["of_a_kind"]]
        else:
            values = {dice[i] for i in left}
            run = next((r for r in STRAIGHT_RUNS[item["straight"]] if set(r) <= values), None)
            if run is None:
                return False
            mine = [next(i for i in left if dice[i] == v) for v in run]
        left = [i for i in left if i not in mine]
    return True
