"""Narrate: game events in, lines a person reads out; and the table view of a game.

Used by `dtc play` (narration of bot games, the terminal player's view) and by
`dtc replay`.
"""

from __future__ import annotations

from dtc.dicethrone.engine import Game
from dtc.dicethrone.tables import leveled
from dtc.disasm import requirement_text

# what a skipped phase leaves out, where its name alone does not say
SKIPPED = {"Offensive Roll Phase": ": no roll, no Attack",
           "Defensive Roll Phase": ": no defence against the Attack",
           "Discard Phase": ": no selling down to the hand limit"}


def who(game: Game, seat: int) -> str:
    return f"P{seat + 1} {game.seats[seat].table.name}"


def symbols(game: Game, seat: int, dice: list[int]) -> str:
    faces = game.seats[seat].table.faces
    return " ".join(f"{v}:{game.a.symbols[faces[v]]}" if v in faces else str(v) for v in dice)


def spoken(owner: str) -> str:
    """Where a question comes from, as a player names it: `<hero> › card <card> › tier 1` is the
    card, `<hero> › <status>` the status, `<hero> › <status> › <tier>` the status with its tier in
    brackets (the hero, the tier or variant number and `additionally` are left out)."""
    parts = owner.split(" › ")
    if len(parts) < 2:
        return owner  # a phase, or a rule's own name
    name = parts[1][len("card "):] if parts[1].startswith("card ") else parts[1]
    rest = [part for part in parts[2:] if part not in ("additionally", "later")
            and not part.startswith(("tier ", "variant ", "side "))]
    return f"{name} ({', '.join(rest)})" if rest else name


def line(game: Game, e: dict) -> str | None:
    """One event as a sentence (None for events not worth telling)."""
    kind = e["e"]
    p = e.get("player")
    if kind == "start":
        heroes = " vs ".join(f"P{i + 1} {h}" for i, h in enumerate(e["heroes"]))
        rolls = ", ".join(str(r) for r in e["rolls"])
        start = f"Start player: P{e['start_player'] + 1} (rolled {rolls})."
        if len(game.sides) < len(game.seats):  # teams: who plays with whom
            heroes = " vs ".join(" & ".join(f"P{i + 1} {e['heroes'][i]}" for i in side)
                                 for side in game.sides)
            order = ", ".join(f"P{s + 1}" for s in game.mode.turn_order)
            return f"{game.mode.name}: {heroes}; turn order {order}. {start}"
        if len(game.seats) > 2:
            return f"{game.mode.name}: {heroes}. {start}"
        return f"{heroes}. {start}"
    if kind == "turn":
        return f"\n== Turn {e['turn']}: {who(game, p)} =="
    if kind == "turn_skipped":
        return f"\n== Turn {e['turn']}: {who(game, p)} skips the turn =="
    if kind == "roll":
        rerolled = e.get("rerolled")
        if rerolled:  # which dice: one re-rolled to its old face looked as if nothing happened (player QA)
            which = "die" if len(rerolled) == 1 else "dice"
            positions = " ".join(f"#{i + 1}" for i in rerolled)
            return (f"{who(game, p)} re-rolls {which} {positions}: {symbols(game, p, e['dice'])} "
                    f"(attempt {e['attempt']})")
        return f"{who(game, p)} rolls {symbols(game, p, e['dice'])} (attempt {e['attempt']})"
    if kind == "effect_roll":
        shown = " ".join(f"{v}:{s}" for v, s in zip(e["dice"], e["symbols"], strict=True))
        how = e.get("how", "rolls")
        if how == "rolls":
            return f"{who(game, p)} rolls {shown}"
        altered = e.get("altered")
        if not altered:  # a log from before the dice altered were told
            return f"{who(game, p)} {how} the dice: {shown}"
        was = ", ".join(f"{v}:{s} -> {e['dice'][i]}:{e['symbols'][i]}" for i, v, s in altered)
        whose = f"{who(game, e['owner'])}'s " if e.get("owner") is not None else ""
        if len(e["dice"]) == 1:
            return f"{who(game, p)} {how} {whose}die ({was})" if whose else f"{who(game, p)} {how} {was}"
        positions = [str(i + 1) for i, _, _ in altered]
        dice = f"die {positions[0]}" if len(positions) == 1 else \
            f"dice {', '.join(positions[:-1])} and {positions[-1]}"
        return f"{who(game, p)} {how} {whose}{dice} ({was}): {shown}"
    if kind == "announce":
        return f"{who(game, p)} announces {e['ability']}"
    if kind == "activate":
        extra = " (Ultimate!)" if e.get("ultimate") else ""
        return f"{who(game, p)} activates {e['ability']}{extra}"
    if kind == "no_ability":
        return f"{who(game, p)} activates no ability"
    if kind == "attack":
        so_far = f": {e['dmg']} dmg so far" if e.get("dmg") is not None else ""  # older logs have none
        return f"{who(game, e['attacker'])} attacks {who(game, e['defender'])} ({e['type']} dmg){so_far}"
    if kind == "defend":
        return f"{who(game, p)} defends with {e['ability']}"
    if kind == "deal":
        typed = "" if e["type"] == "normal" else f" {e['type']}"
        if e.get("isolated"):
            return (f"{who(game, e['source'])} deals {e['amount']}{typed} dmg to {who(game, e['target'])} "
                    "(isolated: it lands at once, on its own)")
        # dmg waits for the end of its phase: "all damage, prevention, and/or healing effects are
        # accumulated and are applied simultaneously at the conclusion of the Roll Phase"
        by = _from(e)  # a token's effect, with nothing before to tell
        target = who(game, e["target"])
        return f"{who(game, e['source'])}: {e['amount']}{typed} dmg on its way to {target}{by}"
    if kind == "receive":
        return f"{who(game, p)} receives {e['amount']} dmg"
    if kind == "add":
        return f"{who(game, p)} adds {e['amount']} dmg to the Attack{_from(e)}"
    if kind == "add_none":
        return f"{who(game, p)} adds no dmg{_from(e)}: dmg is added only to an Attack of one's own"
    if kind == "double":
        return f"{who(game, p)} doubles the dmg of the Attack{_from(e)}"
    if kind == "double_none":
        return (f"{who(game, p)} doubles no dmg{_from(e)}: only an Attack of one's own whose dmg may be "
                "increased is doubled")
    if kind == "prevent":
        return f"{who(game, p)} prevents {e['amount']} dmg{_from(e)}"
    if kind == "prevent_half":
        return f"{who(game, p)} prevents half the incoming dmg"
    if kind == "damage_total":
        # what changed it, in the order it applies: "0 prevented, halved 1x -> takes 3" read as if a
        # halving prevented nothing (player QA)
        changes = [f"{e['prevented']} prevented"] if e["prevented"] else []
        changes += [_times("halved", e["halvings"])] if e["halvings"] else []
        changes += [_times("doubled", e["doublings"])] if e.get("doublings") else []
        return (f"{who(game, p)}: {e['incoming']} dmg came" + "".join(
                    f", {'then ' if i else ''}{change}" for i, change in enumerate(changes))
                + (f"; the {e['not_added']} added dmg does not count (not modifiable)" if e.get("not_added")
                   else "")
                + (f"; {e['unavoidable']} of it cannot be prevented" if e.get("unavoidable") else "")
                + f" -> takes {e['total']}")
    if kind == "health" and e.get("healing"):
        return f"{who(game, p)} heals {e['healing']} as the dmg lands -> health {e['health']}"
    if kind == "health":
        return f"{who(game, p)} health {e['health']}"
    if kind == "heal":
        if not e["amount"]:
            return None
        return f"{who(game, p)} heals {e['amount']}{_from(e)}" + (f" -> health {e['health']}" if "health" in e
                                                                  else "")
    if kind == "heal_coming":
        return f"{who(game, p)}: heal {e['amount']} on its way{_from(e)}"
    if kind == "cp":
        sign = "+" if e["change"] > 0 else ""
        return f"{who(game, p)} {sign}{e['change']} CP{_from(e)}"
    if kind == "gain" and e.get("by") is not None:
        return f"{who(game, e['by'])} inflicts {e['count']} {e['status']} on {who(game, p)}"
    if kind in ("gain", "remove"):
        verb = "gains" if kind == "gain" else "loses"
        return f"{who(game, p)} {verb} {e['count']} {e['status']}"
    if kind == "spend":
        return f"{who(game, p)} spends {e['status']}"
    if kind == "only_option":
        return (f"{who(game, p)}: {spoken(e['source'])} takes \"{e['option']}\", "
                "the one option that can do anything now")
    if kind == "no_result":
        return f"{who(game, p)}: nothing comes of the {e['status']}"
    if kind == "flip":
        return f"{who(game, p)} flips {e['status']} to \"{e['side']}\""
    if kind == "component":
        return f"{who(game, p)}: {e['name']} is {e['value']}{_moved_by(game, p, e)}"
    if kind == "chain_cut":
        return (f"The chain of triggered effects is cut after {e['effects']}: they set each other off for "
                f"ever ({e['left']} more left undone).")
    if kind == "dial_side":
        return f"{who(game, p)}: {e['name']} turns to {e['side']}"
    if kind in ("play", "sell", "discard", "use"):
        verb = {"play": "plays", "sell": "sells", "discard": "discards", "use": "uses"}[kind]
        return f"{who(game, p)} {verb} {e['card']}"
    if kind == "upgrade":
        return f"{who(game, p)} upgrades {e['ability']} to level {'I' * e['level']}"
    if kind == "reshuffle":
        return f"{who(game, p)} shuffles the discard pile into an empty deck"
    if kind == "shuffle":
        return f"{who(game, p)} shuffles the deck"
    if kind == "draw":
        return f"{who(game, p)} draws {e['count']}"
    if kind == "search":
        found = ", ".join(e["found"]) + " (to the hand)" if e["found"] else "nothing"
        where = "the deck" if e.get("top") is None else \
            f"the top {e['top']} card{'s' * (e['top'] != 1)} of the deck"
        wanted = f" for {e['card_type']} cards" if e.get("card_type") else ""
        rest = len(e.get("rest", ()))
        bottom = ("; 1 card stays" if rest == 1 else f"; {rest} cards stay") + " on top of the deck" \
            if rest else ""
        return f"{who(game, p)} searches {where}{wanted} and finds {found}{bottom}"
    if kind == "place":
        on = f" on {e['zone']}" if e.get("zone") else ""  # older logs do not say where
        return f"{who(game, p)} places {', '.join(e['cards'])}{on}"
    if kind == "craft":
        replaces = f" in place of the {e['replaces']}" if e.get("replaces") else ""  # a slot holds one
        return f"{who(game, p)} crafts {e['tier']}{replaces}"
    if kind == "attack_becomes":
        if p is None:  # a log from before the Attack's owner was told
            return f"the Attack becomes {e['type']}"
        return f"{who(game, p)}'s Attack becomes {e['type']}{_from(e)}"
    if kind == "skip":
        if e.get("rest"):
            return f"{who(game, p)} skips the rest of their turn"
        return f"{who(game, p)} will skip their next {e['phase']}"
    if kind == "income_skipped":
        return f"{who(game, p)} skips the Income Phase"
    if kind == "stack_limit":
        return f"{who(game, p)}'s Stack Limit of {e['status']} is {e['limit']} now (for the rest of the game)"
    if kind == "roll_attempts":
        return f"{who(game, p)} may make {e['more']} more Roll Attempt(s): {e['attempts']} in all"
    if kind == "phase_skipped":
        return f"{who(game, p)} skips the {e['phase']}{SKIPPED.get(e['phase'], '')}"
    if kind == "phase_fails":
        return f"{who(game, p)}'s {e['phase']} fails"
    if kind == "use_effect":
        return f"{who(game, p)} uses {e['effect']}"
    if kind == "used_nothing":
        return f"{who(game, p)} does nothing with {e['effect']} after all"
    if kind == "dice_altered":
        return f"{who(game, p)}'s dice were altered: {symbols(game, p, e['dice'])}"
    if kind == "targeting_roll":
        return f"{who(game, p)} rolls the targeting die: {e['die']}"
    if kind == "target":
        return f"{who(game, p)} targets {who(game, e['defender'])} ({e['how']})"
    if kind == "leader_bonus":
        return f"{who(game, p)} attacks a Leader, {who(game, e['leader'])}: a bonus card"
    if kind == "out":
        return f"{who(game, p)} is defeated and leaves the game"
    if kind == "end":
        if e.get("winners") and len(e["winners"]) > 1:
            team = " & ".join(who(game, s) for s in e["winners"])
            return f"\nThe team {team} wins after {e['turns']} turns."
        if e["reason"] == "turn limit":
            return (f"\nThe game stops at the turn limit after {e['turns']} turns, with no winner "
                    "(neither hero could defeat the other).")
        if e["winner"] is None:
            return f"\nThe game is a draw: the heroes fell together after {e['turns']} turns."
        return f"\n{who(game, e['winner'])} wins after {e['turns']} turns."
    return None


def _moved_by(game: Game, seat: int, e: dict) -> str:
    """What moved a dial or track: its own side or position is told as such ("<dial> is 4 (from
    <dial> (<side>))" read as if the dial moved itself: player QA)."""
    by, name = e.get("by") or "", e["name"]
    if not (by.startswith(name + " (") and by.endswith(")")):
        return _from(e)
    kind = next((c["kind"] for c in game.seats[seat].table.components if c["name"] == name), "")
    return f" (by its {by[len(name) + 2:-1]} {'side' if kind == 'dial' else 'position'})"


def _from(e: dict) -> str:
    """` (from <what set it off>)` when the event says (a token, a passive, a track's position)."""
    return f" (from {spoken(e['by'])})" if e.get("by") else ""  # `<hero> › card <card>`: the card


def table(game: Game, viewer: int | None = None, width: int = 100) -> str:
    """Every hero's Health, CP, statuses and components; the viewer's hand with costs (its lines at
    most `width` wide). With more than two players, also the sides, whose turn it is, the Leader(s)
    (a mode with the Leader's bonus card) and who is out of the game."""
    rows = []
    many = len(game.seats) > 2
    if many:
        rows.append(_table_head(game, viewer))
    for p in game.seats:
        if many and p.seat in game.out:
            rows.append(f"{who(game, p.seat)}: out of the game")
            continue
        statuses = ", ".join(
            _tokens(game.a.statuses[s], t) for s, t in p.tokens.items() if t) or "no statuses"
        comps = []
        for c, comp in enumerate(p.table.components):
            if comp["kind"] == "zone":
                cards = ", ".join(card.card.name for card in p.zones.get(c, [])) or "empty"
                comps.append(f"{comp['name']}: {cards}")
            else:
                value = game.shown(p.seat, c)
                side = f" ({comp['sides'][p.sides[c]]})" if comp.get("sides") else ""
                comps.append(f"{comp['name']}: {value}{side}")
        upgrades = ", ".join(leveled(k, v.card.level) for k, v in p.upgrades.items())
        cards = f"{len(p.hand)} card{'s' * (len(p.hand) != 1)}"
        mark = ("> " if p.seat == game.active else "  ") if many else ""
        rows.append(f"{mark}{who(game, p.seat)}: health {p.health}, {p.cp} CP, {cards}; "
                    f"{statuses}" + (f"; {'; '.join(comps)}" if comps else "")
                    + (f"; upgrades: {upgrades}" if upgrades else ""))
    if viewer is not None:
        hand = game.seats[viewer].hand
        # unnumbered: the menu's numbers pick, and a hand numbered beside it had `[4] Second Look`
        # over the menu's `[4] sell Shed the Shape` (player QA)
        cards = [f"{c.card.name} ({_price(game, viewer, c.card)}, {_when(game, c.card)})" for c in hand]
        rows.append(_wrapped("your hand: ", cards or ["empty"], width))
    return "\n".join(rows)


def _table_head(game: Game, viewer: int | None) -> str:
    """The mode's line: the teams (a shared dial said so), the Leader(s), whose turn, the viewer's side."""
    mode = game.mode
    parts = [mode.name]
    if len(game.sides) < len(game.seats):
        dial = " (one Health Dial each)" if mode.shared_health else ""
        teams = " vs ".join("+".join(f"P{s + 1}" for s in side) for side in game.sides)
        parts.append(f"teams {teams}{dial}")
    if mode.leader_bonus_draw:
        parts.append("Leader: " + ", ".join(f"P{s + 1}" for s in game.leaders()))
    parts.append(f"turn: P{game.active + 1}")
    if viewer is not None:
        foes = ", ".join(f"P{s + 1}" for s in game.opponents(viewer))
        parts.append(f"you are P{viewer + 1}; you may Attack {foes or 'no one'}")
    return "; ".join(parts)


def _price(game: Game, seat: int, card) -> str:
    """What a card costs her now: an upgrade over a lower level pays the difference, and one over
    the same level or a higher one cannot be played (the hand showed the printed price: player QA)."""
    if card.kind != "upgrade":
        return f"{card.cost} CP"
    current = game.seats[seat].upgrades.get(card.upgrades)
    if current is None:
        return f"{card.cost} CP"
    up = leveled(card.upgrades, current.card.level)
    now = game.upgrade_cost(seat, card)
    if now is None:
        return f"{card.cost} CP, but {up} is played already"
    return f"{now} CP over {up}"


def _wrapped(head: str, entries: list[str], width: int = 100) -> str:
    """`head` and the entries two spaces apart, a line broken only between entries."""
    lines, line, empty = [], head, True
    for entry in entries:
        if not empty and len(line) + 2 + len(entry) > width:
            lines.append(line)
            line, empty = " " * len(head), True
        line += ("" if empty else "  ") + entry
        empty = False
    return "\n".join([*lines, line])


def card_texts(game: Game, seat: int) -> str:
    """The player's hand with what each card says (asked for with `?` at the table)."""
    hand = game.seats[seat].hand
    if not hand:
        return "your hand is empty"
    return "\n".join(f"  - {c.card.name} ({_price(game, seat, c.card)}, {_when(game, c.card)}): "
                     f"{_used_from(game, seat, c.card)}{c.card.text or '(no text)'}"
                     for c in hand)  # unnumbered: the menu's numbers pick


def _used_from(game: Game, seat: int, card) -> str:
    """How a card of its hero's own type does what it says: used from the zones that hold its type
    (an Ore card's "Heal 2" read as if it could be played: player QA)."""
    if card.kind != "unique" or card.ctype is None or card.timing is not None:
        return ""
    zones = [c["name"] for c in game.seats[seat].table.components
             if c["kind"] == "zone" and c.get("holds") == card.ctype]
    return f"used from {' or '.join(zones)}: " if zones else ""


def ability_texts(game: Game, seat: int) -> str:
    """A hero's abilities as she has them now (upgrades in place), each option with what it needs
    and does as written (asked for with `a` at a window)."""
    p = game.seats[seat]

    def text(chunk: int | None) -> str:
        return game.a.chunks[chunk].text if chunk is not None else ""

    lines = [f"{who(game, seat)}'s abilities:"]
    for ability in p.abilities:
        dice = f", {ability.dice} {'die' if ability.dice == 1 else 'dice'}" if ability.dice else ""
        head = f"  - {ability.titled} ({ability.kind}{dice})"
        shared = " ".join(t for t in (text(ability.shared), text(ability.additionally)) if t)
        if ability.kind in ("offensive", "ultimate"):
            lines.append(head + (f": {shared}" if shared else ""))
            for option in ability.options:
                lines.append(f"      {requirement_text(game.a, option.requirement)}: "
                             f"{text(option.chunk) or '(no text)'}")
        else:
            said = [text(ability.chunk)] + [text(e["chunk"]) for e in ability.effects]
            lines.append(head + ": " + (" ".join(t for t in said if t) or ability.note or "(no text)"))
    return "\n".join(lines)


def element_texts(game: Game, seat: int) -> str:
    """A hero's unique elements (dials, tracks, zones) and status effects, as the rules say them,
    with where each stands now (asked for with `s` at a window): the status effects of her own set
    and any she holds."""
    p = game.seats[seat]
    a = game.a
    lines = [f"{who(game, seat)}:"]
    for c, comp in enumerate(p.table.components):
        if comp["kind"] == "zone":
            now = "holds " + (", ".join(card.card.name for card in p.zones.get(c, [])) or "no card")
        else:
            side = f" on {comp['sides'][p.sides[c]]}" if comp.get("sides") else ""
            now = f"now {game.shown(seat, c)}{side}"
        lines.append(f"  - {comp['name']} ({comp['kind']}, {now})")
        if comp["kind"] == "forms":  # each form with its passive ability, as the board has them
            passives = {x.name: x for x in p.abilities if x.kind == "passive"}
            for form in comp["values"]:
                said = ""
                if form in passives:
                    x = passives[form]
                    said = " ".join(a.chunks[e["chunk"]].text for e in x.effects) or x.note
                lines.append(f"      {form}: {said or '(no passive of its own)'}")
        for effect in comp["effects"]:
            at = (f"at {comp['values'][effect['at']]}: " if effect.get("at") is not None
                  else f"{comp['sides'][effect['side']]}: " if effect.get("side") is not None else "")
            lines.append(f"      {at}{a.chunks[effect['chunk']].text}")
    held = [s for s, tokens in p.tokens.items() if tokens]
    own = [s for s, entry in enumerate(a.statuses) if entry.get("owner") == p.table.name]
    for s in dict.fromkeys(own + held):
        entry = a.statuses[s]
        tokens = p.tokens.get(s)
        lines.append(f"  - {entry['name']} ({_status_facts(game, entry)})"
                     + (f": holds {len(tokens)}" if tokens else ""))
        sides = entry.get("sides") or []
        for effect in entry.get("effects") or []:
            side = f"\"{sides[effect['side']]}\" side: " if effect.get("side") is not None and sides else ""
            lines.append(f"      {side}{a.chunks[effect['chunk']].text}")
        for tier in entry.get("tiers") or []:
            name = " ".join(str(tier[k]) for k in ("tier", "slot") if tier.get(k))
            blueprint = tier.get("blueprint")
            blueprint = f" (blueprint {requirement_text(a, blueprint)})" if blueprint else ""
            lines.append(f"      {name}{blueprint}: {a.chunks[tier['effect']['chunk']].text}")
    return "\n".join(lines)


def _status_facts(game: Game, entry: dict) -> str:
    """`stack limit 2, spendable at any time, persistent, not removable`."""
    facts = [f"stack limit {entry['stack_limit']}"] if entry.get("stack_limit") else []
    spendable = entry.get("spendable")
    if spendable:
        on = spendable["on"]
        phase = game.a.phases[spendable["phase"]] if "phase" in spendable else ""
        facts.append("spendable " + {
            "any_time": "at any time",
            "during": f"during your {phase}",
            "conclude": f"as you conclude your {phase} with an Attack",
            "damaged_by_phase": f"when you receive dmg from an opponent's {phase}",
        }.get(on, on))
    if entry.get("persistent"):
        facts.append("persistent")
    if entry.get("companion"):
        facts.append("a Companion, not a status effect")
    elif entry.get("removable") is False:
        facts.append("not removable")
    return ", ".join(facts) or entry.get("polarity") or "status effect"


def _tokens(status: dict, tokens: list) -> str:
    """How many tokens, and each one's side or tier when the status has them: `2 X (2, 1)`."""
    sides, tiers = status.get("sides") or [], status.get("tiers") or []
    detail = []
    for t in tokens:
        if t.tier and tiers:
            tier = tiers[t.tier - 1]
            slot = f" {tier['slot']}" if tier.get("slot") else ""
            detail.append(f"{tier.get('tier', t.tier)}{slot}")  # `Gold Helmet`
        elif sides:
            detail.append(sides[t.side])
    return f"{len(tokens)} {status['name']}" + (f" ({', '.join(detail)})" if detail else "")


def _times(done: str, count: int) -> str:
    return done if count == 1 else f"{done} {count} times"


def _when(game: Game, card) -> str:
    """When a card can be played: an upgrade in your Main Phase, an action card by its timing."""
    if card.kind == "upgrade":
        return f"upgrade {card.upgrades}"
    if card.kind == "unique" and card.ctype is not None:  # a card of its hero's own type
        symbol = f" [{game.a.symbols[card.symbol]}]" if card.symbol is not None else ""  # a blueprint's
        return game.a.card_types[card.ctype] + symbol
    return {"instant": "instant", "roll": "roll phase", "main": "main phase"}.get(card.timing, card.kind)
