"""Sample state: a small, honest `GameState` for tests, benchmarks and `dtc explain`.

It keeps each player's Health, CP, status tokens, components, hand, deck and
zones, collects incoming damage and prevention without resolving the Roll
Phase (that is the engine's job), and logs every change in words.  Scripted
answers and scripted dice make runs exact; `ScriptedRNG` replays given values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dtc.artifact import Artifact
from dtc.opcodes import ANY_CARD, side_after
from dtc.vm import (
    VM,
    ChooseDice,
    ChooseDirection,
    ChooseItems,
    ChooseOption,
    ChoosePlayer,
    ChoosePlayers,
    PickNumber,
    Request,
    RunContext,
    Window,
    YesNo,
)


@dataclass
class Token:
    side: int = 0
    tier: int = 0  # 0 = none, k = the status's tier k-1


@dataclass
class Player:
    seat: int
    hero: int | None
    health: int = 50
    cp: int = 2
    statuses: dict[int, list[Token]] = field(default_factory=dict)
    components: list[int] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)  # each dial's current side
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    zones: dict[int, list[str]] = field(default_factory=dict)
    found: list[str] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)


class ScriptedRNG:
    """Replays die faces in order (as 0-based picks of sorted faces), then falls back to a seed."""

    def __init__(self, faces: list[int], seed: int = 0):
        self.faces = list(faces)
        self.fallback = random.Random(seed)

    def randrange(self, n: int) -> int:
        if self.faces:
            value = self.faces.pop(0)
            return min(max(value - 1, 0), n - 1)
        return self.fallback.randrange(n)

    def shuffle(self, items: list) -> None:
        self.fallback.shuffle(items)


class SampleState:
    """Players 0..n-1 playing the given heroes; player 0's opponent is player 1."""

    def __init__(self, artifact: Artifact, heroes: list[int | None], max_cp: int = 15,
                 logging: bool = True):
        self.a = artifact
        self.logging = logging
        self.max_cp = max_cp
        self.seats = [self._player(i, h) for i, h in enumerate(heroes)]
        self.incoming: dict[int, int] = {i: 0 for i in range(len(heroes))}
        self.dealt: list[tuple[int, int, str, bool]] = []  # (target, amount, type, isolated)
        self.added = 0
        self.prevented: dict[int, int] = {i: 0 for i in range(len(heroes))}
        self.log: list[str] = []
        self.scheduled: list[tuple[dict, int]] = []
        self.raised: dict[tuple[int, int], int] = {}  # (player, status): stack limit raised by
        self.turn_counts: dict[tuple[int, int], int] = {}  # (player, TURN_COUNTS index): this turn
        self.attack_type: int | None = None
        self.failed: list[int] = []
        self.doubled: list[tuple[int, list[int]]] = []
        self.extra = 0

    def _player(self, seat: int, hero_index: int | None) -> Player:
        p = Player(seat, hero_index)
        if hero_index is None:
            return p
        hero = self.a.players[hero_index]
        for comp in hero["components"]:
            p.components.append(comp.get("start", 0) if comp["kind"] != "zone" else 0)
            p.sides.append(comp.get("start_side", 0))
        p.deck = [c["name"] for c in hero["cards"] for _ in range(c["copies"])]
        return p

    # -- naming
    def status_name(self, status: int) -> str:
        return self.a.statuses[status]["name"]

    def say(self, text: str) -> None:
        self.log.append(text)

    # -- players
    def players(self, ctx: RunContext, who: str) -> list[int]:
        if who == "self" or who == "self_or_chosen_teammate":
            return [ctx.owner]
        if who == "opponent":
            if ctx.defender is not None and ctx.defender != ctx.owner:
                return [ctx.defender]
            return [p.seat for p in self.seats if p.seat != ctx.owner][:1]
        if who == "attacker" and ctx.attacker is not None:
            return [ctx.attacker]
        if who == "defender" and ctx.defender is not None:
            return [ctx.defender]
        if who == "chosen":
            return [ctx.chosen] if ctx.chosen is not None else []  # no one could be chosen: no one
        if who == "chosen_player":
            return [p.seat for p in self.seats]
        if who == "each_player":
            n = len(self.seats)
            return [(ctx.owner + k) % n for k in range(n)]
        if who == "chosen_players":
            return list(ctx.chosen_many)
        if who == "another_player":
            other = ctx.chosen if ctx.chosen is not None else ctx.owner
            return [p.seat for p in self.seats if p.seat != other]
        if who == "chosen_teammate":
            return []
        if who == "leader":
            most = max(p.health for p in self.seats)
            return [p.seat for p in self.seats if p.health == most]
        return [p.seat for p in self.seats if p.seat != ctx.owner]

    # -- damage
    def deal(self, ctx, target, amount, dtype, isolated):
        self.incoming[target] += amount
        self.dealt.append((target, amount, self.a.damage_types[dtype], isolated))
        kind = self.a.damage_types[dtype]
        extra = " as an isolated instance" if isolated else ""
        if self.logging:
            self.say(f"player {ctx.owner + 1} deals {amount} {kind} dmg to player {target + 1}{extra}")

    def receive(self, ctx, player, amount, dtype):
        self.incoming[player] += amount
        if self.logging:
            self.say(f"player {player + 1} receives {amount} {self.a.damage_types[dtype]} dmg")

    def double_attack(self, ctx):
        self.doublings = getattr(self, "doublings", 0) + 1
        if self.logging:
            self.say("double the dmg of the Attack")

    def add_damage(self, ctx, amount):
        self.added += amount
        if self.logging:
            self.say(f"add {amount} dmg to the Attack")

    def prevent(self, ctx, player, amount):
        self.prevented[player] += amount
        if self.logging:
            self.say(f"player {player + 1} prevents {amount} dmg")

    def prevent_half(self, ctx, player, round_up):
        if self.logging:
            rounding = "up" if round_up else "down"
            self.say(f"player {player + 1} prevents half the incoming dmg (rounded {rounding})")

    def prevent_all(self, ctx, player):
        if self.logging:
            self.say(f"player {player + 1} prevents all incoming dmg")

    def attack_becomes(self, ctx, dtype):
        self.attack_type = dtype
        if self.logging:
            self.say(f"the Attack becomes {self.a.damage_types[dtype]}")

    def fail_phase(self, ctx, phase):
        self.failed.append(phase)
        if self.logging:
            self.say(f"{self.a.phases[phase]} fails")

    def skip_phase(self, player, phase, next_turn=False):
        self.seats[player].skipped.append(phase)
        if self.logging:
            self.say(f"player {player + 1} skips their {'next ' * next_turn}{self.a.phases[phase]}")

    def heal(self, player, amount, ctx=None):
        self.seats[player].health += amount
        if self.logging:
            self.say(f"player {player + 1} heals {amount}")

    def change_cp(self, player, delta, ctx=None):
        p = self.seats[player]
        new = min(self.max_cp, max(0, p.cp + delta))
        change = new - p.cp
        p.cp = new
        if self.logging:
            self.say(f"player {player + 1} {'gains' if change >= 0 else 'loses'} {abs(change)} CP")
        return change

    def cp(self, player):
        return self.seats[player].cp

    def health(self, player):
        return self.seats[player].health

    # -- statuses
    def gain_status(self, player, status, count, tier, by=None):
        entry = self.a.statuses[status]
        tokens = self.seats[player].statuses.setdefault(status, [])
        limit = self.stack_limit(player, status)
        added = 0
        for _ in range(count):
            if len(tokens) < limit:
                tokens.append(Token(0, tier))
                added += 1
        tier_name = ""
        if tier:
            tier_name = f" ({entry['tiers'][tier - 1]['tier']} {entry['tiers'][tier - 1]['slot']})"
        if self.logging:
            if by is not None and by != player:
                name = f"{entry['name']}{tier_name}"
                self.say(f"player {by + 1} inflicts {added} {name} on player {player + 1}")
            else:
                self.say(f"player {player + 1} gains {added} {entry['name']}{tier_name}")

    def stack_limit(self, player, status):
        return self.a.statuses[status].get("stack_limit", 99) + self.raised.get((player, status), 0)

    def raise_stack_limit(self, player, status, amount):
        self.raised[(player, status)] = self.raised.get((player, status), 0) + amount
        if self.logging:
            self.say(f"player {player + 1}'s stack limit of {self.status_name(status)} rises by {amount}")

    def turn_count(self, player, what):
        return self.turn_counts.get((player, what), 0)

    def add_roll_attempts(self, ctx, player, count):
        if self.logging:
            self.say(f"player {player + 1} may make {count} more Roll Attempt(s)")

    def remove_status(self, player, status, count, by=None):
        held = self.removable(player, status)
        if held is not None:
            self.remove_tokens(player, held[:count])
            return
        tokens = self.seats[player].statuses.get(status, [])
        removed = min(count, len(tokens))
        del tokens[:removed]
        if self.logging:
            self.say(f"player {player + 1} loses {removed} {self.status_name(status)}")

    def removable(self, player, status):
        cls = self.a.statuses[status].get("class")
        if cls is None:
            return None
        held = self.seats[player].statuses
        return [s for s in held if self.a.in_class(s, cls) for _ in held[s]]

    def remove_tokens(self, player, statuses):
        for s in dict.fromkeys(statuses):
            self.remove_status(player, s, statuses.count(s))

    def spend_status(self, player, status, count):
        self.remove_status(player, status, count)

    def status_count(self, player, status):
        held = self.removable(player, status)  # a class counts the tokens of its kind
        return len(held) if held is not None else len(self.seats[player].statuses.get(status, []))

    def tokens(self, player, status):
        entry = self.a.statuses[status]
        sides = entry.get("sides") or []
        return [f"{entry['name']}" + (f" ({sides[t.side]})" if sides else "")
                for t in self.seats[player].statuses.get(status, [])]

    def this_token(self, ctx, action, side=0):
        tokens = self.seats[ctx.owner].statuses.setdefault(ctx.status, [])
        name = self.status_name(ctx.status)
        index = ctx.token or 0
        if action == "gain":
            tokens.append(Token())
        elif action in ("remove", "spend") and index < len(tokens):
            tokens.pop(index)
        elif action == "flip" and index < len(tokens):
            tokens[index].side = side_after(tokens[index].side, side)
        if self.logging:
            self.say(f"player {ctx.owner + 1} {action}s this {name} token")

    def flip_token(self, player, status, token, side):
        held = self.seats[player].statuses[status][token]
        held.side = side_after(held.side, side)
        if self.logging:
            self.say(f"player {player + 1} flips a {self.status_name(status)} token")

    def undoubled(self, player, status):
        done = {i for s, picks in self.doubled if s == status for i in picks}
        return [i for i in range(len(self.tokens(player, status))) if i not in done]

    def double_effect(self, ctx, status, tokens):
        self.doubled.append((status, tokens))
        if self.logging:
            self.say(f"double the effect of {len(tokens)} {self.status_name(status)}")

    def craft_options(self, player, status, zone):
        return [f"{t['tier']} {t['slot']}" for t in self.a.statuses[status].get("tiers", [])]

    def craft(self, player, status, zone, option):
        self.gain_status(player, status, 1, option + 1)

    # -- cards
    def draw(self, player, count):
        p = self.seats[player]
        for _ in range(count):
            if p.deck:
                p.hand.append(p.deck.pop(0))
        if self.logging:
            self.say(f"player {player + 1} draws {count} card(s)")

    def hand(self, player):
        return list(self.seats[player].hand)

    def discard_pile(self, player):
        return list(self.seats[player].discard)

    def return_cards(self, player, picks):
        p = self.seats[player]
        for i in sorted(picks, reverse=True):
            p.hand.append(p.discard.pop(i))
        if self.logging:
            self.say(f"player {player + 1} returns {len(picks)} card(s) from the discard pile to the hand")

    def discard(self, player, cards):
        p = self.seats[player]
        for i in sorted(cards, reverse=True):
            p.discard.append(p.hand.pop(i))
        if self.logging:
            self.say(f"player {player + 1} discards {len(cards)} card(s)")

    def _type_of(self, player: int, card: str) -> int | None:
        hero = self.seats[player].hero
        for c in (self.a.players[hero]["cards"] if hero is not None else []):
            if c["name"] == card:
                return c.get("type")
        return None

    def _matches(self, player, card, ctype):
        return ctype == ANY_CARD or self._type_of(player, card) == ctype

    def search(self, player, top, ctype):
        deck = self.seats[player].deck
        looked = deck[:top] if top else deck
        return [c for c in looked if self._matches(player, c, ctype)]

    def take_found(self, player, picks):
        p = self.seats[player]
        wanted = self.search(player, 0, ANY_CARD)
        p.found = []
        for i in picks:
            card = wanted[i] if i < len(wanted) else None
            if card in p.deck:
                p.deck.remove(card)
                p.hand.append(card)
                p.found.append(card)
        if self.logging:
            self.say(f"player {player + 1} finds {', '.join(p.found) or 'nothing'}")

    def shuffle(self, player, rng):
        rng.shuffle(self.seats[player].deck)
        if self.logging:
            self.say(f"player {player + 1} shuffles their deck")

    def hand_cards(self, player, ctype):
        return [c for c in self.seats[player].hand if self._matches(player, c, ctype)]

    def found(self, player):
        p = self.seats[player]
        return [card for card in p.found if card in p.hand]

    def place_found(self, player, zone):
        p = self.seats[player]
        for card in p.found:
            if card in p.hand:
                p.hand.remove(card)
                p.zones.setdefault(zone, []).append(card)
        if self.logging:
            self.say(f"player {player + 1} places {len(p.found)} card(s) on a zone")

    def place(self, player, zone, ctype, picks):
        cards = self.hand_cards(player, ctype)
        p = self.seats[player]
        for i in picks:
            p.hand.remove(cards[i])
            p.zones.setdefault(zone, []).append(cards[i])
        if self.logging:
            self.say(f"player {player + 1} places {len(picks)} card(s)")

    def zone_cards(self, player, zone, ctype):
        return [c for c in self.seats[player].zones.get(zone, []) if self._matches(player, c, ctype)]

    def use_cards(self, player, zone, ctype, picks):
        cards = self.zone_cards(player, zone, ctype)
        p = self.seats[player]
        chunks = []
        hero = self.a.players[p.hero]
        for i in picks:
            card = cards[i]
            p.zones[zone].remove(card)
            p.discard.append(card)
            chunk = next(c["chunk"] for c in hero["cards"] if c["name"] == card)
            chunks.append(chunk)
        if self.logging:
            self.say(f"player {player + 1} uses {len(picks)} card(s)")
        return chunks

    # -- components
    def component(self, player, comp):
        return self.seats[player].components[comp]

    def side(self, player, comp):
        return self.seats[player].sides[comp]

    def attacking(self, player):
        return True  # a sample run is an Attack's: what it adds is shown

    def damage_coming(self, player):
        return True  # and what it prevents

    def only_option(self, player, source, option):
        if self.logging:
            self.say(f'player {player + 1} takes "{option}", the one option that can do anything now')

    def can_become(self, dtype):
        return True  # a sample run is an Attack's, of normal dmg

    def track_room(self, player, comp, up):
        p = self.seats[player]
        last = len(self.a.players[p.hero]["components"][comp]["values"]) - 1
        return p.components[comp] if up else last - p.components[comp]

    def change_component(self, ctx, player, comp, delta):
        p = self.seats[player]
        data = self.a.players[p.hero]["components"][comp]
        if data["kind"] == "track":
            new = max(0, min(len(data["values"]) - 1, p.components[comp] - delta))
        else:
            values = data["values"]
            new = max(values[0], min(values[-1], p.components[comp] + delta))
        p.components[comp] = new
        shown = data["values"][new] if data["kind"] == "track" else new
        if self.logging:
            self.say(f"player {player + 1}'s {data['name']} is now {shown}")

    def set_component(self, player, comp, value):
        p = self.seats[player]
        p.components[comp] = value
        data = self.a.players[p.hero]["components"][comp]
        if self.logging:
            self.say(f"player {player + 1}'s {data['name']} is now {data['values'][value]}")

    def dial_side(self, player, comp):
        return self.seats[player].sides[comp]

    def flip_dial(self, player, comp, side):
        p = self.seats[player]
        p.sides[comp] = side = side_after(p.sides[comp], side)
        data = self.a.players[p.hero]["components"][comp]
        if self.logging:
            self.say(f"player {player + 1}'s {data['name']} flips to {data['sides'][side]}")

    def extra_attempts(self, ctx):
        return self.extra

    def rolled(self, ctx, player, how="rolls", before=None):
        if self.logging:
            verb = "rolls" if how == "rolls" else f"{how} the dice to"
            self.say(f"player {player + 1} {verb} {' '.join(map(str, ctx.roll))}")

    def schedule(self, ctx, trigger, chunk):
        self.scheduled.append((trigger, chunk))
        if self.logging:
            self.say(f"later ({trigger['on'].replace('_', ' ')}): chunk {chunk}")


def first_answer(request: Request) -> Any:
    """A plain, deterministic answer to any request (the first option, yes, the most)."""
    if isinstance(request, Window):
        return None
    if isinstance(request, ChooseOption):
        return 0
    if isinstance(request, YesNo):
        return True
    if isinstance(request, PickNumber):
        return request.choices[-1]
    if isinstance(request, ChooseDice):
        if request.purpose == "change":
            dice = request.open_dice()
            return [(dice[0], request.allowed(dice[0])[-1])] if dice and request.most else []
        return list(range(min(request.most, len(request.roll))))
    if isinstance(request, ChoosePlayer):
        return request.players[0]
    if isinstance(request, ChoosePlayers):
        return list(request.players[:request.most])
    if isinstance(request, ChooseItems):
        return list(range(min(max(request.least, 1), request.most)))
    if isinstance(request, ChooseDirection):
        return "up"
    raise TypeError(f"no answer for {request!r}")


def run_to_end(vm: VM, chunk: int, ctx: RunContext, state: Any, rng: Any, answer=first_answer):
    """Drive a run with an answering function; returns (outcome, requests seen)."""
    asked = []
    run = vm.run(chunk, ctx, state, rng)
    try:
        request = next(run)
        while True:
            asked.append(request)
            request = run.send(answer(request))
    except StopIteration as stop:
        return stop.value, asked
