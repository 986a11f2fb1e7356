"""Modes: the table a game is played at, read from a ruleset's `modes` data.

A mode says how many heroes play, the sides they are on, the order of turns,
starting Health, whether a side shares one Health Dial, how a Defender is
found when there is more than one opponent ("5. Targeting Roll Phase") and the
Leader's bonus card ("King of the Hill").  Seats are numbered in the order the
heroes are given, clockwise around the table; the engine reads only a `Mode`.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_PLAYERS = 6  # "5-6 Player Games": "Dice Throne can be played with up to 6 players"


class ModeError(ValueError):
    """A mode's data does not describe a table (one line saying why; `field`: the key at fault, and
    `hint` how to fix it)."""

    def __init__(self, message: str, field: str, hint: str):
        super().__init__(message)
        self.field = field
        self.hint = hint


@dataclass(frozen=True)
class Mode:
    """One way to play, as the engine needs it (seats from 0)."""

    name: str
    players: int
    start_health: int
    teams: tuple[tuple[int, ...], ...]  # the sides; a player alone is a side of one
    turn_order: tuple[int, ...]  # the seats in the order they take turns
    shared_health: bool  # each side has one Health Dial
    targeting: str  # "none" (one opponent at most), "roll" (the targeting die), "choose"
    leader_bonus_draw: int  # cards drawn for attacking a Leader
    authored: str | None = None  # what the mode chooses where the rulebooks are silent

    @property
    def team_of(self) -> tuple[int, ...]:
        """The side of each seat."""
        out = [0] * self.players
        for t, team in enumerate(self.teams):
            for seat in team:
                out[seat] = t
        return tuple(out)


def mode_from_data(name: str, data: dict) -> Mode:
    """The Mode a ruleset's `modes.<name>` entry describes (ModeError when it describes no table:
    lint refuses such content, the artifact verifier such an artifact)."""
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= MAX_PLAYERS:
        raise ModeError(f"mode `{name}`: players must be a whole number from 2 to {MAX_PLAYERS}", "players",
                        "write the number of heroes at the table")
    health = data.get("starting_health")
    if not isinstance(health, int) or isinstance(health, bool) or not 1 <= health <= 999:
        raise ModeError(f"mode `{name}`: starting_health must be a whole number from 1 to 999",
                        "starting_health", "write the Health each dial starts at")
    seats = list(range(1, players + 1))
    teams = data.get("teams")
    if teams is None:
        sides = tuple((s - 1,) for s in seats)
    elif (not isinstance(teams, list) or not all(isinstance(t, list) and t for t in teams)
          or sorted(s for t in teams for s in t) != seats):
        raise ModeError(f"mode `{name}`: the teams must seat each of the {players} players once", "teams",
                        f"list every seat from 1 to {players} in exactly one team")
    else:
        sides = tuple(tuple(s - 1 for s in t) for t in teams)
    order = data.get("turn_order", "clockwise")
    if order == "clockwise":
        turn_order = tuple(s - 1 for s in seats)
    elif isinstance(order, list) and sorted(order) == seats:
        turn_order = tuple(s - 1 for s in order)
    else:
        raise ModeError(f"mode `{name}`: the turn order must give each of the {players} players one turn",
                        "turn_order", f"list every seat from 1 to {players} once, or write `clockwise`")
    shared = data.get("shared_health", False)
    if shared not in (True, False) or (shared and teams is None):
        raise ModeError(f"mode `{name}`: a shared Health Dial needs teams", "shared_health",
                        "give the teams (`teams: [[1, 2], [3, 4]]`) or drop `shared_health`")
    most_opponents = players - min(len(t) for t in sides)
    targeting = data.get("targeting", "none" if most_opponents <= 1 else None)
    if targeting not in ("none", "roll", "choose") or (targeting == "none" and most_opponents > 1):
        raise ModeError(f"mode `{name}`: with more than one opponent, targeting must be `roll` or `choose`",
                        "targeting", "add `targeting: roll` (two opponents each) or `targeting: choose`")
    if targeting == "roll" and any(players - len(t) != 2 for t in sides):
        raise ModeError(f"mode `{name}`: the targeting die needs exactly two opponents for every player",
                        "targeting", "write `targeting: choose` for this table")
    bonus = data.get("leader_bonus_draw", 0)
    if not isinstance(bonus, int) or isinstance(bonus, bool) or not 0 <= bonus <= 9:
        raise ModeError(f"mode `{name}`: leader_bonus_draw must be a whole number from 0 to 9",
                        "leader_bonus_draw", "write how many cards the bonus draws")
    authored = data.get("authored")
    return Mode(name, players, health, sides, turn_order, bool(shared), targeting, bonus,
                authored if isinstance(authored, str) else None)


def mode_named(modes: dict, wanted: str) -> str | None:
    """The name of the mode `wanted` names (its name or an alias, any case; `-` for `_`), or None."""
    folded = wanted.strip().lower().replace("-", "_")
    for name, data in modes.items():
        if folded == name.lower() or folded in [a.lower() for a in data.get("aliases", ())]:
            return name
    return None


def one_line_modes(modes: dict) -> str:
    """The modes as a list for a message: `1v1, 2v2, king_of_the_hill (koth)`."""
    return ", ".join(name + (f" ({', '.join(d['aliases'])})" if d.get("aliases") else "")
                     for name, d in modes.items())
