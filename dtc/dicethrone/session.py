"""Dice Throne sessions: the setup of a game and how to start it (the rest is `dtc.session`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dtc.agents.bots import BOTS
from dtc.artifact import Artifact
from dtc.dicethrone.engine import Game
from dtc.dicethrone.requests import AnswerError
from dtc.session import Kind, SessionError, agent_names, integer
from dtc.vm import VMError


@dataclass
class Setup:
    """Everything that, with the answers, determines a game."""

    ruleset: str  # the artifact's content hash
    seed: int
    heroes: list[str]
    agents: list[str]

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(data: dict) -> Setup:
        heroes = data["heroes"]
        if not isinstance(heroes, list) or len(heroes) != 2 or not all(isinstance(h, str) for h in heroes):
            raise ValueError(f"heroes {heroes!r} is not a list of two hero names")
        if not isinstance(data["ruleset"], str):
            raise ValueError("the ruleset is not text")
        agents = agent_names(data["agents"], len(heroes), {"human", *BOTS})
        return Setup(data["ruleset"], integer(data["seed"], "seed"), list(heroes), agents)


def new_game(artifact: Artifact, setup: Setup) -> Game:
    indices = []
    for name in setup.heroes:
        found = artifact.hero(name)
        if found is None:
            raise SessionError(f"the ruleset has no hero `{name}`")
        indices.append(found[0])
    return Game(artifact, indices, setup.seed)


DICE_THRONE = Kind("dtc-dicethrone-save", "dtc-dicethrone-log", Setup.from_json, new_game,
                   (AnswerError, VMError))
