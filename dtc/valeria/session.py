"""Valeria sessions: the setup of a game and how to start it (the rest is `dtc.session`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dtc.artifact import Artifact
from dtc.session import Kind, SessionError, agent_names, integer
from dtc.valeria.bots import BOTS
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
        players = integer(data["players"], "players")
        if not 1 <= players <= 6:
            raise ValueError(f"{players} players (1 to 6)")
        if not isinstance(data["ruleset"], str) or not isinstance(data["sheet"], str) \
                or not isinstance(data["solo"], bool):
            raise ValueError("ruleset and sheet are text, solo is true or false")
        if data["solo"] != (players == 1):
            raise ValueError("a solo game has one player, and a one-player game is solo")
        agents = agent_names(data["agents"], players, {"human", *BOTS})
        return Setup(data["ruleset"], integer(data["seed"], "seed"), data["sheet"], players, data["solo"],
                     agents)


def new_game(artifact: Artifact, setup: Setup) -> Game:
    try:
        return Game(artifact, setup.players, setup.seed, setup.sheet, setup.solo)
    except ValeriaError as exc:
        raise SessionError(str(exc)) from None


VALERIA = Kind("dtc-valeria-save", "dtc-valeria-log", Setup.from_json, new_game, (VMError,))
