"""Valeria at the terminal: a player's sheets drawn in text, the game told line by line, and the
Score Tally as the sheet prints it."""

from __future__ import annotations

from dtc.valeria.engine import Game, Result, live_domains

MARKED = "x"
VOID = "#"


def _pips(game: Game, pips: list[int], marked: int) -> str:
    marks = [game.rules["rewards"][p]["mark"] if p >= 0 else "." for p in pips]
    return MARKED * marked + "".join(marks[marked:])


def dice_line(game: Game) -> str:
    black = " ".join(str(v) for v in game.black()) if game.dice else ""
    colors = "  ".join(f"{c} {game.dice[c]}" for c in game.rules["colors"] if c in game.dice)
    return f"dice: Black {black} | {colors}"


def sheet(game: Game, p: int) -> str:
    """Player p's sheets: every section with marked pips as `x`, the rest as their reward marks."""
    s, m = game.sheet, game.players[p]
    guilds = game.rules["guilds"]
    lines = [f"== P{p + 1}'s {s['name']} sheets (turn {game.turn_no}) ==  {dice_line(game)}"]
    citizens = []
    for i, c in enumerate(s["citizens"]):
        void = ("citizen", c["label"]) in m.voided
        pips = VOID * len(c["pips"]) if void else _pips(game, c["pips"], m.citizens[i])
        citizens.append(f"{c['label']}:{guilds[c['guild']][:2]}[{pips}]")
    lines.append("Citizens  " + " ".join(citizens))
    for i, t in enumerate(s["tracks"]):
        text = _pips(game, t["pips"], m.tracks[i])
        rows = " ".join(text[k:k + t["row"]] for k in range(0, len(text), t["row"]))
        lines.append(f"{guilds[t['guild']]:<9} {rows}  ({m.tracks[i]}/{len(t['pips'])})")
    gold = _pips(game, s["gold"], m.gold)
    cut, rows = 0, []
    for n in game.sheet["gold_rows"]:
        rows.append(gold[cut:cut + n])
        cut += n
    lines.append(f"Gold      {' '.join(rows)}   Wall {_pips(game, s['wall'], m.wall)}")
    claimed = {s["domains"][d]["name"] for d in m.domains}
    live = {s["domains"][d]["name"] for d in live_domains(s, m)}  # a voided Domain opens no road
    roads = []
    for i, r in enumerate(s["roads"]):
        if m.roads[i] or r["from"] in s["starts"] or r["from"] in live:
            roads.append(f"{r['from']}->{r['to'] or 'end'}[{_pips(game, r['pips'], m.roads[i])}]")
    lines.append("Roads     " + "  ".join(roads))
    voided = {name for kind, name in m.voided if kind == "domain"}
    domains = [name + (" (void: not counted)" if name in voided else "") for name in sorted(claimed)]
    domains += [f"{name} (void)" for name in sorted(voided - claimed)]  # one never to be claimed
    lines.append("Domains   " + (", ".join(domains) or "none"))
    lairs = []
    for i, lair in enumerate(s["lairs"]):
        if ("lair", lair["name"]) in m.voided:
            lairs.append(f"{lair['name']} (void)")
            continue
        blocks = " ".join(f"{b['low']}-{b['high']}[{_pips(game, b['pips'], m.lairs[i][j])}]"
                          for j, b in enumerate(lair["blocks"]))
        first = game.first_completer.get(i)
        if i in m.lair_vp:
            vp = f"won {m.lair_vp[i]}"
        elif first is not None:  # "The first player to complete a Monster Lair circles the higher VP value"
            vp = f"{lair['vp'][1]} (P{first + 1} took the {lair['vp'][0]})"
        else:
            vp = f"{lair['vp'][0]}/{lair['vp'][1]}"
        closed = f" (closed: claim {lair['access']})" if game.lair_closed(p, i) else ""
        lairs.append(f"{lair['name']} {vp}{closed}: {blocks}")
    lines.append("Lairs     " + " | ".join(lairs))
    lines.append(f"Statues   {', '.join(map(str, m.statues)) or 'none'}   draft line: "
                 f"{' '.join(map(str, game.draft))}")
    legend = "  ".join(f"{r['mark']} {r['name']}" for r in game.rules["rewards"])  # what a pip gives
    lines.append(f"Pips      {MARKED} marked  {VOID} void  . nothing  {legend}")
    return "\n".join(lines)


def line(game: Game, event: dict) -> str | None:
    """One event in words (None for the ones not worth a line)."""
    e = event["e"]
    who = f"P{event.get('player', 0) + 1}"
    if e == "start":
        mode = "solo" if event["solo"] else f"{event['players']} players"
        return f"Kingdoms of Valeria, {mode}, {event['sheet']} sheets; P{event['first'] + 1} starts"
    if e == "turn":
        return f"\n== Turn {event['turn']}: P{event['player'] + 1} ==  {dice_line(game)}"
    if e == "roll":  # solo: "Roll the Black dice again and perform a second Harvest"
        return f"Second Harvest: the Black dice show {' and '.join(map(str, event['dice']))}"
    if e == "harvested":
        *dice, total = event["dice"]
        gained = ", ".join(f"{guild} Guild Track +{n}" for guild, n in event["tracks"].items())
        return f"{who} harvests {' '.join(map(str, dice))} (sum {total}): {gained or 'no Citizen answers'}"
    if e == "solo_event":
        return f"Event ({event['ships']}/6 ships): {event['name']}"
    if e == "void":
        return f"{who} voids the {event['name']} {event['what']}"
    if e == "action":
        return f"{who}: {event['label']}"
    if e == "power":
        return f"{who} uses {event['domain']}"
    if e == "claim":
        return f"{who} claims {event['domain']}"
    if e == "statue":
        return f"{who} takes Statue {event['number']}"
    if e == "lair_complete":
        return f"{who} completes {event['lair']} ({event['vp']} VP)"
    if e == "end_triggered":
        return f"{who} completes a third Guild Track: the last round"
    if e == "no_action":
        return f"{who} has no action"
    return None


def tally(game: Game, result: Result) -> str:
    """The Score Tally, as on the Castle sheet: Stars, Domains, Monsters, Statues, total."""
    lines = ["Score Tally      " + "".join(f"   P{p + 1}" for p in range(len(result.scores)))]
    for label, key in (("Star pips", "stars"), ("Domains", "domains"), ("Monster Lairs", "lairs"),
                       ("Statues", "statues")):
        lines.append(f"{label:<16} " + "".join(f"{getattr(s, key):>5}" for s in result.scores))
    lines.append(f"{'Total':<16} " + "".join(f"{s.total:>5}" for s in result.scores))
    for p, s in enumerate(result.scores):
        if s.statue_vp:
            parts = ", ".join(f"Statue {n}: {vp}" for n, vp in s.statue_vp.items())
            lines.append(f"P{p + 1} statues: {parts}")
    if result.band is not None:
        lines.append(f"{result.scores[0].total} VP: {result.band}")
    else:
        names = " and ".join(f"P{w + 1}" for w in result.winners)
        best = max(s.total for s in result.scores)
        tied = [p for p, s in enumerate(result.scores) if s.total == best]
        # "In case of a tie, the player with the most Star pips is the winner" ("Scoring")
        why = " (tied on VP; most Star pips)" if len(tied) > len(result.winners) else ""
        lines.append(f"winner: {names}" + (" (shared)" if len(result.winners) > 1 else why))
    return "\n".join(lines)
