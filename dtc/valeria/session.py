"""Valeria sessions: the setup of a game and how to start it (the rest is `dtc.session`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dtc.artifact import Artifact
from dtc.session import Kind, SessionError
from dtc.valeria.engine import Game, ValeriaError
from dtc.vm import VMError


@dataclass
class Setup:
    """Everything that, with the answers, determines a game."""

    ruleset: str  # the artifact's content hash
    seed: int
    sheet: str
    players: int
    solo: bool
    agents: list[str]

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(data: dict) -> Setup:
        return Setup(data["ruleset"], int(data["seed"]), str(data["sheet"]), int(data["players"]),
                     bool(data["solo"]), list(data["agents"]))


def new_game(artifact: Artifact, setup: Setup) -> Game:
    try:
        return Game(artifact, setup.players, setup.seed, setup.sheet, setup.solo)
    except ValeriaError as exc:
        raise SessionError(str(exc)) from None


VALERIA = Kind("dtc-valeria-save", "dtc-valeria-log", Setup.from_json, new_game, (VMError,))
