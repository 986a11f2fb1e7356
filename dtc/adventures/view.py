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


def narrated_crawl(game: Crawl, echo):
    """Play `game` to its end, telling each turn and drawing the map after it; its result."""
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

    return game.play(after_turn)


# ------------------------------------------------------------------ at the terminal

def describe(game: Crawl, place: tuple[int, int]) -> str:
    """A destination in players' words."""
    tile = game.tiles[place]
    where = f"row {place[0]}, column {place[1]}"
    if tile.explored:
        engagement = next(e for e in game.engagements if e.place == place)
        name = game.a.players[engagement.minion]["name"]
        return f"{where}: join the battle with {name} ({engagement.foe.player.health} Health)"
    if tile.mark == "P":
        return f"{where}: the Boss Portal"
    items = [what for what, there in (("a Portal Shard", tile.shard), ("a Loot Chest", tile.chest),
                                      ("a Salve", tile.salves)) if there]
    return f"{where}: a face-down level {tile.mark} tile" + (f" ({', '.join(items)})" if items else "")


def ask_move(game: Crawl, k: int, options: list[tuple[int, int]], human) -> tuple[int, int]:
    """"2. Move": the hero at the terminal picks her destination (she must move)."""
    human.say("")
    human.say(draw_map(game))
    human.say(f"{'ABCD'[k]} {game.players[k].table.name}, move to:")
    for i, place in enumerate(options, 1):
        human.say(f"  {i}) {describe(game, place)}")
    n = len(options)
    pick = human.ask(f"move where? (1-{n}) > ",
                     lambda t: int(t) if t.isdigit() and 1 <= int(t) <= n else None,
                     f"type a number from 1 to {n} (you must move when you are not engaged)")
    return options[pick - 1]


def ask_salves(human, name: str, health: int, salves: int, heal: int) -> int:
    """"1. Spend Salves": how many the hero at the terminal spends on herself now."""
    if salves <= 0:
        return 0
    return human.ask(f"{name}: {health} Health, {salves} Salve(s); spend how many (Heal {heal} each)? "
                     f"(0-{salves}, Enter: none) > ",
                     lambda t: 0 if t == "" else (int(t) if t.isdigit() and int(t) <= salves else None),
                     f"type a number from 0 to {salves}, or press Enter")
