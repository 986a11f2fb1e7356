"""Requests: the engine's own questions, beside the VM's (`dtc.vm.Request`).

Every question a game asks has a `player` who answers it; agents (bots, the
terminal, replays) answer any request of either kind.  Answers:

* `RollDice`: the indices of the dice to re-roll; [] keeps them all.
* `Activate`: an index into `choices`, or None for no ability.
* `Act`: an index into `actions`, or None to pass.
* `SellDown`: exactly `count` hand indices to sell.
* `ChooseDefense`: an index into `options`.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtc.vm import Request


@dataclass(slots=True)
class Choice:
    """An activatable option: which ability, which tier or variant."""

    label: str
    ability: int
    option: int
    value: float


@dataclass(slots=True)  # not frozen: made by the thousand per game, and frozen ones are slow to make
class Action:
    """Something a player may do in a window."""

    kind: str  # play | upgrade | sell | spend | use
    name: str  # the card, status or effect
    ref: int  # hand index, status id, or effect number
    extra: int = 0  # CP it costs (upgrades: what is actually paid; sells: what it gives)
    value: float = 0.0
    idle: bool = False  # a card (or token) that may be played but would do nothing now (`If in <form>, ...`)

    @property
    def label(self) -> str:
        if self.kind == "sell":
            return f"sell {self.name} (+{self.extra} CP" + (")" if self.extra else ": at the CP cap)")
        if self.kind in ("play", "upgrade", "equip"):
            return f"{self.kind} {self.name} ({self.extra} CP)" + (" - no effect now" if self.idle else "")
        return f"{self.kind} {self.name}" + (" - no effect now" if self.idle else "")


@dataclass(slots=True)
class RollDice(Request):
    dice: tuple[int, ...]
    symbols: tuple[str, ...]
    attempt: int
    attempts: int


@dataclass(slots=True)
class Activate(Request):
    dice: tuple[int, ...]
    choices: tuple[Choice, ...]


@dataclass(slots=True)
class Act(Request):
    window: str
    actions: tuple[Action, ...]


@dataclass(slots=True)
class SellDown(Request):
    hand: tuple[str, ...]
    count: int


@dataclass(slots=True)
class ChooseDefense(Request):
    options: tuple[str, ...]


class AnswerError(Exception):
    """An answer that does not fit its request; the message says what would."""
