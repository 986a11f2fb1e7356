"""Agents: who answers a game's requests, and the loop that asks them.

An agent is anything with `answer(game, request)` (and, for agents with a
random state, `observe(game, request, answer)`: a resumed game gives saved
answers in their place, and they keep their state as if they had answered).  `play()` drives a game to
its end, asking each request's `player`'s agent; an optional recorder sees
every request and answer (that is what logs, saves and replays keep).  With no
recorder, an agent with `passes(game, seat, window)` that says it would pass in
a window is not asked there (simulations: the same game, fewer questions).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Protocol

from dtc.dicethrone.engine import Game, Result
from dtc.vm import Request


class Agent(Protocol):
    name: str

    def answer(self, game: Game, request: Request) -> Any: ...


def play(game: Game, agents: list[Agent],
         recorder: Callable[[Request, Any], None] | None = None) -> Result:
    """Play `game` to the end with one agent per seat."""
    if recorder is None:  # nothing keeps the requests: agents that know they would pass are not asked
        game.pass_hints = [getattr(agent, "passes", None) for agent in agents]
    return drive(game, agents, game.play(), recorder)


def drive(game: Any, agents: list, run: Generator[Request, Any, Any],
          recorder: Callable[[Request, Any], None] | None = None) -> Any:
    """Answer every request of `run` (a generator of `game`: a whole game, a turn, a setup) with the
    agent of its player; the generator's return value."""
    try:
        request = next(run)
        while True:
            answer = agents[request.player].answer(game, request)
            if recorder is not None:
                recorder(request, answer)
            request = run.send(answer)
    except StopIteration as stop:
        return stop.value
