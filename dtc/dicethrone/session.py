"""Dice Throne sessions: the setup of a game and how to start it (the rest is `dtc.session`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dtc.agents.bots import BOTS
from dtc.artifact import Artifact
from dtc.dicethrone.engine import Game
from dtc.dicethrone.modes import MAX_PLAYERS
from dtc.dicethrone.requests import AnswerError
from dtc.dicethrone.tables import rules_named, rules_of
from dtc.session import Kind, SessionError, agent_names, integer
from dtc.vm import VMError


@dataclass
class Setup:
    """Everything that, with the answers, determines a game."""

    ruleset: str  # the artifact's content hash
    seed: int
    heroes: list[str]
    agents: list[str]
    rules: str | None = None  # the rules played, by name (`--rules`); None: the content's default
    mode: str | None = None  # the mode played (`--mode`: `2v2`, `king_of_the_hill`); None: 1v1

    def to_json(self) -> dict:
        data = dataclasses.asdict(self)
        for key in ("rules", "mode"):
            if data[key] is None:
                del data[key]  # as saves and logs were before `--rules` and `--mode`
        return data

    @staticmethod
    def from_json(data: dict) -> Setup:
        heroes = data["heroes"]
        if not isinstance(heroes, list) or not 2 <= len(heroes) <= MAX_PLAYERS \
                or not all(isinstance(h, str) for h in heroes):
            raise ValueError(f"heroes {heroes!r} is not a list of 2 to {MAX_PLAYERS} hero names")
        if not isinstance(data["ruleset"], str):
            raise ValueError("the ruleset is not text")
        agents = agent_names(data["agents"], len(heroes), {"human", *BOTS})
        rules = data.get("rules")
        if rules is not None and not isinstance(rules, str):
            raise ValueError("the rules are not a name")
        mode = data.get("mode")
        if mode is not None and not isinstance(mode, str):
            raise ValueError("the mode is not a name")
        if mode is None and len(heroes) != 2:
            raise ValueError(f"{len(heroes)} heroes and no mode: a game of more than two names its mode")
        return Setup(data["ruleset"], integer(data["seed"], "seed"), list(heroes), agents, rules, mode)


def new_game(artifact: Artifact, setup: Setup) -> Game:
    indices = []
    for name in setup.heroes:
        found = artifact.hero(name)
        if found is None:
            raise SessionError(f"the ruleset has no hero `{name}`")
        indices.append(found[0])
    if setup.rules is not None and rules_named(artifact, setup.rules) is None:
        raise SessionError(f"the ruleset has no rules called `{setup.rules}`")
    mode = setup.mode or "1v1"
    try:
        rules_of(artifact, setup.rules, mode)
    except KeyError:
        raise SessionError(f"the rules have no mode `{mode}`") from None
    try:
        return Game(artifact, indices, setup.seed, ruleset=setup.rules, mode=mode)
    except ValueError as exc:
        raise SessionError(str(exc)) from None


DICE_THRONE = Kind("dtc-dicethrone-save", "dtc-dicethrone-log", Setup.from_json, new_game,
                   (AnswerError, VMError))
