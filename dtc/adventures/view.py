"""The Portal Crawl at the terminal: the map, the team, and a narrated bot crawl.

003_bd4cabbe7964005d.txt, "Building the Map": the map shows explored and face-down tiles, the heroes'
standees, engaged minions, Portal Shards, Loot Chests and Salves; the team's Gold dial and each
hero's Health and Salves sit beside it.
"""

from __future__ import annotations

from dtc.adventures.crawl import Crawl

LEGEND = ("S Crimson Sands  P Boss Portal (P* open)  1-3 face-down tile of that level  "
          "# explored  A-D heroes  ! engaged minion  * shard  c chest  + salve")


def cell(game: Crawl, place: tuple[int, int]) -> str:
    """Four characters for one tile of the map."""
    tile = game.tiles.get(place)
    if tile is None:
        return "    "
    if tile.mark == "P" and not tile.explored:
        mark = "P*" if game.shards >= 3 else "P "
    elif tile.mark == "S":
        mark = "S "
    elif not tile.explored:
        items = ("*" if tile.shard else "") + ("c" if tile.chest else "") + ("+" if tile.salves else "")
        mark = (tile.mark + items)[:2].ljust(2)
    else:
        mark = "# "
    heroes = "".join("ABCD"[k] for k, at in enumerate(game.positions) if at == place)
    fight = "!" if any(e.place == place for e in game.engagements) else ""
    return (mark + (fight + heroes)[:2]).ljust(4)


def draw_map(game: Crawl) -> str:
    """The map as rows of cells in brackets, then the team."""
    rows = max(r for r, _ in game.tiles) + 1
    cols = max(c for _, c in game.tiles) + 1
    lines = []
    for r in range(rows):
        lines.append(" ".join(f"[{cell(game, (r, c))}]" if (r, c) in game.tiles else "      "
                              for c in range(cols)).rstrip())
    lines.append(team_line(game))
    return "\n".join(lines)


def team_line(game: Crawl) -> str:
    parts = []
    for k, player in enumerate(game.players):
        engaged = game.engaged[k]
        foe = (f", fighting {game.a.players[engaged.minion]['name']} ({engaged.foe.player.health} Health)"
               if engaged else "")
        parts.append(f"{'ABCD'[k]} {player.table.name}: {player.health} Health, {player.cp} CP, "
                     f"{game.salves[k]} Salves{foe}")
    return f"Gold {game.gold}, Portal Shards {game.shards}/3 | " + " | ".join(parts)


def narrate(event: dict, game: Crawl) -> str | None:
    """One line for a crawl event, or None for those the map already shows."""
    who = "ABCD"[event["player"]] if "player" in event else ""
    kind = event["e"]
    if kind == "move":
        return f"{who} moves to row {event['to'][0]}, column {event['to'][1]}"
    if kind == "explore":
        return f"{who} explores: {event['environment']}"
    if kind == "minion":
        return f"{who} reveals {event['minion']} (level {event['level']}, {event['health']} Health)"
    if kind == "engage":
        return f"{who} is engaged with {event['minion']}"
    if kind == "defeated":
        return f"{who} defeats {event['minion']}"
    if kind == "shard":
        return f"{who} collects a Portal Shard ({event['shards']}/3)"
    if kind == "salve":
        return f"{who} collects {event['salves']} Salve(s)"
    if kind == "loot":
        reward = event["reward"]
        return (f"{who} rolls {event['value']} on the Loot die for Chest {event['chest']}: "
                f"{reward['kind']} +{reward['amount']}")
    if kind == "reward":
        reward = event["reward"]
        what = [f"a Chest {reward['chest']} for every hero"] if "chest" in reward else []
        what += [f"{reward['gold']} Gold"] if "gold" in reward else []
        return f"{who} is rewarded " + " and ".join(what)
    if kind == "spend_salve":
        return f"{who} spends a Salve: {event['health']} Health"
    if kind == "revive":
        return f"{who} falls and is revived to 1 Health by {'ABCD'[event['by']]}'s Salve"
    if kind == "no_move":
        return f"{who} has nowhere to move"
    if kind == "end":
        ending = "wins" if event["won"] else "loses"
        return f"The team {ending} the Portal Crawl ({event['reason']}): Session Score {event['score']}"
    return None


def narrated_crawl(game: Crawl, echo) -> None:
    """Play `game` to its end with bots, telling each turn and drawing the map after it."""
    echo(f"Portal Crawl: {game.card['name']}  ({LEGEND})")
    echo(draw_map(game))
    told = len(game.events)

    def after_turn(k: int) -> None:
        nonlocal told
        echo(f"-- turn {game.turn_no}: {'ABCD'[k]} {game.players[k].table.name}")
        for event in game.events[told:]:
            line = narrate(event, game)
            if line:
                echo("   " + line)
        told = len(game.events)
        echo(draw_map(game))

    game.play(after_turn)
