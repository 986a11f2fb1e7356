"""State: the Dice Throne game state, and the `GameState` the VM acts on.

Players, their Health, CP, tokens, components, cards and upgrades; damage
collected per phase for the damage pipeline; triggers queued by what effects
do (a dial reaching a number, a status gained at its Stack Limit), for the
engine to run between chunks.  Every change is also an event in `events`
(when recording), which is what narration, replays and tests read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dtc.artifact import Artifact
from dtc.dicethrone.damage import Incoming
from dtc.dicethrone.tables import AbilityDef, CardDef, HeroTable, Rules
from dtc.disasm import requirement_text
from dtc.opcodes import ANY_CARD, side_after
from dtc.vm import RunContext


@dataclass
class Token:
    side: int = 0
    tier: int = 0  # 0 = none, k = tier k-1 of the status
    doubled: bool = False


@dataclass(eq=False)
class Card:
    """One physical card (definitions are shared; cards are not)."""

    uid: int
    card: CardDef


@dataclass
class Player:
    seat: int
    table: HeroTable
    health: int
    start_health: int
    cp: int
    abilities: list[AbilityDef]
    tokens: dict[int, list[Token]] = field(default_factory=dict)
    components: list[int] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    zones: dict[int, list[Card]] = field(default_factory=dict)
    upgrades: dict[str, Card] = field(default_factory=dict)
    covered: list[Card] = field(default_factory=list)  # upgrades with a higher level played over them
    equipment: list[Card] = field(default_factory=list)  # Dice Throne Adventures Equipment cards in play
    # action cards being played: "perform the described action and then place the card onto your
    # Discard Pile" ("To Play an Action Card"), so a draw it makes cannot reshuffle it back in
    resolving: list[Card] = field(default_factory=list)
    found: list[Card] = field(default_factory=list)
    skip: set[int] = field(default_factory=set)  # phases (and "turn") to skip next time: one each
    used: set = field(default_factory=set)  # once-per-turn things used this turn
    raised: dict = field(default_factory=dict)  # status: how far her Stack Limit of it was raised
    dealt: int = 0  # dmg her effects dealt or added this turn (`If you dealt 8 dmg or more this turn`)
    attacked: int = 0  # times she was Attacked this turn
    _offense: tuple | None = field(default=None, repr=False, compare=False)

    def offense(self) -> tuple[tuple[int, int, Any, str, float], ...]:
        """(ability index, option index, option, label, worth) of every offensive and ultimate option
        the player has now; worth is the option's value, and 100 more for an ultimate."""
        cached = self._offense
        if cached is None or cached[0] is not self.abilities:  # upgrades replace the list
            out = []
            for i, ability in enumerate(self.abilities):
                if ability.kind not in ("offensive", "ultimate"):
                    continue
                bonus = 100.0 if ability.kind == "ultimate" else 0.0
                for j, option in enumerate(ability.options):
                    out.append((i, j, option, option.label, option.value + bonus))
            cached = self._offense = (self.abilities, tuple(out))
        return cached[1]

    @property
    def alive(self) -> bool:
        return self.health > 0


@dataclass
class Attack:
    """The Attack of the current turn, once an ability has been activated."""

    attacker: int
    defender: int
    ability: AbilityDef
    ultimate: bool
    dtype: int | None = None  # index into the damage types
    dealt: bool = False  # at least 1 non-collateral dmg to an opponent
    option: int = 0  # which of the ability's options (tiers, variants) was activated
    # with more than one opponent: whether the Defender has been found yet ("5. Targeting Roll Phase");
    # until then what is added to the Attack (or doubles it) waits here for her
    found: bool = True
    early_added: int = 0
    early_doublings: int = 0
    landed: int = 0  # the dmg the Defender took as the Attack landed (`If this Attack deals ...`)


@dataclass(slots=True)
class Queued:
    """A triggered effect waiting to run: chunk, context fields."""

    chunk: int
    player: int
    hero: int | None
    status: int | None = None
    token: int | None = None
    event_value: int = 0
    source: str = ""
    held: Token | None = None  # the token itself: tokens before it may go first and move it
    named: str = ""  # what set it off in players' words: a passive ability, `<track> (<position>)`
    moment: str = ""  # `healed`, `gained`: the moment that set it off (what it heals or gains sets off none)


class GameState:
    """What the VM changes: the GameState protocol of `dtc.vm`, for Dice Throne."""

    def __init__(self, artifact: Artifact, rules: Rules, tables: list[HeroTable], heroes: list[int],
                 rng: random.Random, record: bool):
        self.a = artifact
        self.rules = rules
        self.rng = rng
        self.record = record
        self.tables = tables  # every hero's, by artifact index
        self.events: list[dict] = []
        self.seats: list[Player] = []
        uid = 0
        for seat, hero in enumerate(heroes):
            table = tables[hero]
            p = Player(seat, table, rules.start_health, rules.start_health, rules.cp_start,
                       list(table.abilities))
            for comp in table.components:
                p.components.append(comp.get("start", 0) if comp["kind"] != "zone" else 0)
                p.sides.append(comp.get("start_side", 0))
            for definition in table.deck:
                p.deck.append(Card(uid, definition))
                uid += 1
            self.seats.append(p)
        self.mode = rules.mode
        self.team_of = rules.mode.team_of  # each seat's side
        self.shared_health = rules.mode.shared_health  # a side's seats read one Health Dial
        self.sides = rules.mode.teams
        self.incoming: list[Incoming] = [Incoming() for _ in heroes]
        self.isolated: list[tuple[int, int, int]] = []  # (target, amount, dtype) dealt now
        self.heals = [0] * len(heroes)
        self.accumulate = False  # in upkeep and roll phases damage and healing wait
        self.attack: Attack | None = None
        self.active = 0
        self.queue: list[Queued] = []
        self.scheduled: list[tuple[dict, Queued]] = []
        self.gained_firing = 0  # a `When you gain this token` effect resolving: its gains set off none
        # the statuses with a `When you gain this token` effect
        self.gain_triggered = frozenset(
            i for i, s in enumerate(artifact.statuses)
            if any((e.get("trigger") or {}).get("on") == "gained" for e in s.get("effects", ())))
        self.failed = False
        self.attempts = 0
        self.max_attempts = rules.roll_attempts
        # dmg added in one's own Offensive Roll Phase before its Attack is made (`During your Offensive
        # Roll Phase, add 2 dmg`): the Attack, once activated, takes it (`take_waiting_added`)
        self.waiting_added = 0

    # ------------------------------------------------------------ events
    def event(self, kind: str, **data: Any) -> None:
        if self.record:
            self.events.append({"e": kind, **data})

    def only_option(self, player, source, option):
        self.event("only_option", player=player, source=source, option=option)

    def status_name(self, status: int) -> str:
        return self.a.statuses[status]["name"]

    # --------------------------------------------------------- targeting
    def opponents(self, seat: int) -> list[int]:
        """The players still in the game on other sides, in seat order."""
        team = self.team_of
        return [p.seat for p in self.seats if team[p.seat] != team[seat] and p.alive]

    def teammates(self, seat: int) -> list[int]:
        """The other players of the seat's side still in the game."""
        team = self.team_of
        return [p.seat for p in self.seats if p.seat != seat and team[p.seat] == team[seat] and p.alive]

    def leaders(self) -> list[int]:
        """"The player(s) with the most Health remaining are considered the Leader(s)" ("King of the
        Hill")."""
        alive = [p for p in self.seats if p.alive]
        most = max((p.health for p in alive), default=0)
        return [p.seat for p in alive if p.health == most]

    def beside(self, seat: int, step: int) -> int | None:
        """The first opponent going round the table from `seat`: clockwise (`step` 1) the opponent on
        her left, the other way (-1) the one on her right ("5. Targeting Roll Phase")."""
        n = len(self.seats)
        for k in range(1, n):
            other = (seat + step * k) % n
            if self.team_of[other] != self.team_of[seat] and self.seats[other].alive:
                return other
        return None

    def set_health(self, seat: int, value: int) -> None:
        """The seat's Health Dial reads `value` (a side's shared dial: every seat of the side)."""
        if self.shared_health:
            side = self.team_of[seat]
            for p in self.seats:
                if self.team_of[p.seat] == side:
                    p.health = value
        else:
            self.seats[seat].health = value

    def players_for(self, ctx: RunContext, who: str) -> list[int]:
        if who == "self":
            return [ctx.owner]
        if who == "self_or_chosen_teammate":
            return [ctx.owner] + self.teammates(ctx.owner)
        if who == "attacker":
            return [ctx.attacker] if ctx.attacker is not None else self.opponents(ctx.owner)[:1]
        if who == "defender":
            return [ctx.defender] if ctx.defender is not None else self.opponents(ctx.owner)[:1]
        if who == "opponent":
            if ctx.defender is not None and ctx.defender != ctx.owner:
                return [ctx.defender]
            if ctx.attacker is not None and ctx.attacker != ctx.owner:
                return [ctx.attacker]
            return self.opponents(ctx.owner)[:1]
        if who == "chosen":  # the one CHOOSE_PLAYER chose
            return [ctx.chosen] if ctx.chosen is not None else []  # no one could be chosen: no one
        if who == "chosen_player":
            return [p.seat for p in self.seats if p.alive]
        if who == "each_player":  # the owner first, then in turn order
            n = len(self.seats)
            return [s for s in ((ctx.owner + k) % n for k in range(n)) if self.seats[s].alive]
        if who == "chosen_players":  # those CHOOSE_PLAYERS chose
            return [s for s in ctx.chosen_many if self.seats[s].alive]
        if who == "another_player":  # not the one chosen before (where tokens leave), else not oneself
            other = ctx.chosen if ctx.chosen is not None else ctx.owner
            return [p.seat for p in self.seats if p.alive and p.seat != other]
        if who == "chosen_teammate":
            return self.teammates(ctx.owner)
        if who == "leader":
            return self.leaders()
        if who in ("left_opponent", "right_opponent"):
            found = self.beside(ctx.owner, 1 if who == "left_opponent" else -1)
            return [found] if found is not None else []
        return self.opponents(ctx.owner)  # chosen_opponent, each_opponent

    # ------------------------------------------------------------ damage
    def deal(self, ctx, target, amount, dtype, isolated):
        if amount <= 0:
            return
        if target != ctx.owner:
            self.seats[ctx.owner].dealt += amount
        attack = self.attack
        if isolated:
            self.isolated.append((target, amount, dtype))
        else:
            self.incoming[target].amounts.append((amount, self.rules.damage_types[dtype]))
        if attack is not None and ctx.owner == attack.attacker and target == attack.defender \
                and getattr(ctx, "attack_run", False):
            if self.rules.damage_types[dtype].attack and not isolated:
                attack.dealt = True
                if attack.dtype is None:
                    attack.dtype = dtype
        self.event("deal", source=ctx.owner, target=target, amount=amount,
                   type=self.a.damage_types[dtype], isolated=bool(isolated), **self._by(ctx))

    def _by(self, ctx) -> dict:
        """`{"by": <what set the effect off>}` for narration, when it was a token or a trigger (an
        ability's own effects, cards and spent tokens are told before they act)."""
        if ctx.attack_run:
            return {}
        if ctx.status is not None:
            return {"by": self._token_name(ctx)}
        return {"by": ctx.source} if ctx.source else {}

    def component_label(self, seat: int, comp: int, effect: dict) -> str:
        """A component as a player names the part of it whose effect acts: `<track> (<position>)`,
        `<dial> (<side>)`, or the component's name."""
        p = self.seats[seat]
        data = p.table.components[comp]
        if effect.get("side") is not None and data.get("sides"):
            return f"{data['name']} ({data['sides'][effect['side']]})"
        at = effect.get("at")
        if at is None and (effect.get("trigger") or {}).get("on") == "reads":
            at = p.components[comp]
        if at is not None and data.get("values") and 0 <= at < len(data["values"]):
            return f"{data['name']} ({data['values'][at]})"
        return data["name"]

    def _token_name(self, ctx) -> str:
        """The status whose token's effect this is, or the token's tier (`Ultimanium Helmet`)."""
        entry = self.a.statuses[ctx.status]
        tokens = self.seats[ctx.owner].tokens.get(ctx.status, [])
        token = tokens[ctx.token] if ctx.token is not None and ctx.token < len(tokens) else None
        if token is not None and token.tier and entry.get("tiers"):
            tier = entry["tiers"][token.tier - 1]
            return f"{tier['tier']} {tier['slot']}"
        return entry["name"]

    def receive(self, ctx, player, amount, dtype):
        """`Receive 3 dmg`: a status effect's dmg to its holder lands with the phase's other dmg;
        an ability's or card's dmg to its own player (`you take 4 dmg`) is a source of its own, never
        summed with what an opponent deals her, so what she prevents of that does not touch it."""
        if amount > 0:
            if ctx is None or ctx.status is None:
                self.isolated.append((player, amount, dtype))
            else:
                self.incoming[player].amounts.append((amount, self.rules.damage_types[dtype]))
            self.event("receive", player=player, amount=amount, type=self.a.damage_types[dtype])

    def attacking(self, player):
        return self.attack is not None and self.attack.attacker == player

    def add_damage(self, ctx, amount):
        attack = self.attack
        before_the_attack = self.phase == "Offensive Roll Phase" and ctx.owner == self.active
        if attack is None and amount > 0 and before_the_attack:
            self.waiting_added += amount  # her Attack is not made yet: it waits for it
            self.event("add", player=ctx.owner, amount=amount, waiting=True, **self._by(ctx))
            return
        if attack is None or amount <= 0:
            return
        self.seats[attack.attacker].dealt += amount
        if not self._may_modify(ctx, attack):
            self.event("add_none", player=ctx.owner, amount=amount, **self._by(ctx))
            return
        if attack.found:
            self.incoming[attack.defender].added += amount
        else:
            attack.early_added += amount
        self.event("add", player=ctx.owner, amount=amount, **self._by(ctx))

    def take_waiting_added(self) -> None:
        """The Attack just activated takes the dmg added for it before it was made."""
        waiting, self.waiting_added = self.waiting_added, 0
        attack = self.attack
        if not waiting or attack is None:
            return
        self.seats[attack.attacker].dealt += waiting
        if attack.found:
            self.incoming[attack.defender].added += waiting
        else:
            attack.early_added += waiting

    def _may_modify(self, ctx, attack) -> bool:
        """"Attack Modifiers": only on an Attack one is activating, never on one against oneself; a
        status on the defender may add to it all the same (`When Attacked ..., add 1 dmg`)."""
        return ctx.status is not None or not (
            ctx.owner == attack.defender or (self.rules.own_attacks_only and ctx.owner != attack.attacker))

    def double_attack(self, ctx):
        """`Double the dmg of this Attack`: a multiplier of the Defender's incoming dmg ("Final DMG
        Total", "3. Multiply & Divide": each on the subtotal, independently), an Attack Modifier as
        `add` is (`_may_modify`), and only on one whose dmg may be increased."""
        attack = self.attack
        if attack is None or not self._may_modify(ctx, attack):
            self.event("double_none", player=ctx.owner, **self._by(ctx))
            return
        kind = self.rules.damage_types[attack.dtype if attack.dtype is not None else 0]
        if not kind.modifiable:
            self.event("double_none", player=ctx.owner, **self._by(ctx))
            return
        if attack.found:
            self.incoming[attack.defender].doublings += 1
        else:
            attack.early_doublings += 1
        self.event("double", player=ctx.owner, **self._by(ctx))

    def prevent(self, ctx, player, amount):
        if amount > 0:
            self.incoming[player].prevented += amount
            self.event("prevent", player=player, amount=amount, **self._by(ctx))

    def prevent_half(self, ctx, player, round_up):
        incoming = self.incoming[player]
        incoming.halvings += 1
        incoming.halvings_down += 0 if round_up else 1
        self.event("prevent_half", player=player)

    def prevent_all(self, ctx, player):
        self.incoming[player].prevent_all = True
        self.event("prevent_all", player=player)

    def can_become(self, dtype):
        """Whether making the Attack that type would make it harder to answer: no longer
        defendable, or no longer avoidable, and easier in neither (the Damage Type Chart: an
        Ultimate is neither already; undefendable adds nothing to pure dmg)."""
        attack = self.attack
        if attack is None or attack.ultimate:
            return False
        now = self.rules.damage_types[attack.dtype if attack.dtype is not None else 0]
        new = self.rules.damage_types[dtype]
        if (new.defendable and not now.defendable) or (new.avoidable and not now.avoidable):
            return False
        return (now.defendable and not new.defendable) or (now.avoidable and not new.avoidable)

    def attack_becomes(self, ctx, dtype):
        if self.attack is not None:
            self.attack.dtype = dtype
            self.event("attack_becomes", player=self.attack.attacker, type=self.a.damage_types[dtype],
                       **self._by(ctx))

    def fail_phase(self, ctx, phase):
        self.failed = True
        self.event("phase_fails", player=ctx.owner, phase=self.a.phases[phase])

    def skip_phase(self, player, phase, next_turn=False):
        """Mark the player's next such phase (`turn`: her next turn) to be skipped; the engine
        decides when a `skip your turn` is the rest of the one under way instead."""
        self.seats[player].skip.add(phase)
        self.event("skip", player=player, phase=self.a.phases[phase])

    # ------------------------------------------------------ health and CP
    def heal(self, player, amount, ctx=None):
        if amount <= 0:
            return
        by = self._by(ctx) if ctx is not None else {}
        if self.accumulate:
            # told now with its source: it lands with the phase's dmg, summed with other heals
            self.heals[player] += amount
            self.event("heal_coming", player=player, amount=amount, **by)
        else:
            self.apply_heal(player, amount, by)

    def apply_heal(self, player, amount, by: dict | None = None):
        p = self.seats[player]
        before = p.health
        self.set_health(player, min(p.start_health + self.rules.heal_cap, p.health + amount))
        self.event("heal", player=player, amount=p.health - before, health=p.health, **(by or {}))

    def change_cp(self, player, delta, ctx=None):
        p = self.seats[player]
        new = max(0, min(self.rules.cp_max, p.cp + delta))
        change = new - p.cp
        p.cp = new
        if change:
            self.event("cp", player=player, change=change, **(self._by(ctx) if ctx is not None else {}))
        return change

    def cp(self, player):
        return self.seats[player].cp

    def health(self, player):
        return self.seats[player].health

    # ------------------------------------------------------------ statuses
    def stack_limit(self, player: int, status: int) -> int:
        raised = self.seats[player].raised
        return self.a.statuses[status].get("stack_limit", 99) + (raised.get(status, 0) if raised else 0)

    def raise_stack_limit(self, player, status, amount):
        """"If a player increases the Stack Limit of a Status Effect, the increase only applies to that
        player, and lasts for the duration of the game" (Marvel rulebook, "Increasing Stack Limit")."""
        if amount <= 0:
            return
        raised = self.seats[player].raised
        raised[status] = raised.get(status, 0) + amount
        self.event("stack_limit", player=player, status=self.status_name(status),
                   limit=self.stack_limit(player, status))

    def turn_count(self, player, what):
        p = self.seats[player]
        if what == 2:  # `If this Attack deals ...`: read once it has landed, by its attacker
            attack = self.attack
            return attack.landed if attack is not None and attack.attacker == player else 0
        return p.dealt if what == 0 else p.attacked

    def gain_status(self, player, status, count, tier, by=None):
        entry = self.a.statuses[status]
        if entry.get("class") is not None:
            return
        tokens = self.seats[player].tokens.setdefault(status, [])
        limit = self.stack_limit(player, status)
        gained = 0
        for _ in range(count):
            if tier and entry.get("tiers"):
                slot = entry["tiers"][tier - 1]["slot"]
                same = [t for t in tokens if t.tier and entry["tiers"][t.tier - 1]["slot"] == slot]
                for old in same:  # a slot holds one: the new tier replaces the old
                    tokens.remove(old)
            if len(tokens) < limit:
                tokens.append(Token(0, tier))
                gained += 1
                if status in self.gain_triggered and not self.gained_firing:
                    self.queue_status_trigger(player, status, "gained", len(tokens) - 1)
            else:
                self.queue_status_trigger(player, status, "gained_at_limit")
        if gained and by is not None and by != player:
            self.event("gain", player=player, status=entry["name"], count=gained, by=by)
        elif gained:
            self.event("gain", player=player, status=entry["name"], count=gained)

    def queue_status_trigger(self, player: int, status: int, on: str, token: int | None = None):
        for effect in self.a.statuses[status].get("effects", []):
            if (effect.get("trigger") or {}).get("on") == on:
                self.queue.append(Queued(effect["chunk"], player, self.a.chunks[effect["chunk"]].hero,
                                         status, token, 0, on, moment=on))

    def remove_status(self, player, status, count, by=None):
        held = self.removable(player, status)
        if held is not None:  # "remove that many tokens" ("Removing Status Effects")
            self.remove_tokens(player, held[:count])
        elif self.a.statuses[status].get("removable", True) or by == player:
            # one marked not removable goes only by its owner's own effects (Unique Status Effects
            # follow their description: "may not be removed ... except as a result of this Hero's
            # effects"), whoever's turn it is
            self._remove(player, status, count)

    def removable(self, player, status):
        cls = self.a.statuses[status].get("class")
        if cls is None:
            return None
        tokens = self.seats[player].tokens
        return [s for s in tokens if self.a.in_class(s, cls) for _ in tokens[s]]

    def remove_tokens(self, player, statuses):
        for s in dict.fromkeys(statuses):  # one event per status, in the order chosen
            self._remove(player, s, statuses.count(s))

    def _remove(self, player, status, count):
        tokens = self.seats[player].tokens.get(status, [])
        removed = min(count, len(tokens))
        del tokens[:removed]
        if removed:
            self.event("remove", player=player, status=self.status_name(status), count=removed)

    def spend_status(self, player, status, count):
        tokens = self.seats[player].tokens.get(status, [])
        for _ in range(min(count, len(tokens))):
            self.spend_token(player, status, 0)

    def spend_token(self, player: int, status: int, index: int) -> None:
        """Remove the token and queue its `When spent` effect."""
        tokens = self.seats[player].tokens.get(status, [])
        if index >= len(tokens):
            return
        token = tokens.pop(index)
        self.event("spend", player=player, status=self.status_name(status))
        for effect in self.a.statuses[status].get("effects", []):
            trigger = effect.get("trigger") or {}
            side = effect.get("side")
            if trigger.get("on") == "spent" and (side is None or side == token.side):
                job = Queued(effect["chunk"], player, self.a.chunks[effect["chunk"]].hero, status, None, 0,
                             "spent")
                # a doubled token's effect is its `When spent`: it acts twice
                self.queue.extend((job, job) if token.doubled else (job,))

    def status_count(self, player, status):
        held = self.removable(player, status)  # a class counts the tokens of its kind
        return len(held) if held is not None else len(self.seats[player].tokens.get(status, []))

    def tokens(self, player, status):
        entry = self.a.statuses[status]
        sides = entry.get("sides") or []
        out = []
        for t in self.seats[player].tokens.get(status, []):
            label = entry["name"]
            if t.tier:
                tier = entry["tiers"][t.tier - 1]
                label = f"{tier['tier']} {tier['slot']}"
            elif sides:
                label += f' ("{sides[t.side]}")'
            out.append(label)
        return out

    def this_token(self, ctx, action, side=0):
        p = self.seats[ctx.owner]
        tokens = p.tokens.setdefault(ctx.status, [])
        index = ctx.token if ctx.token is not None else 0
        if action == "gain":
            self.gain_status(ctx.owner, ctx.status, 1, 0)
        elif action == "remove" and index < len(tokens):
            tokens.pop(index)
            ctx.token = None  # later `this token` refers to nothing
            self.event("remove", player=ctx.owner, status=self.status_name(ctx.status), count=1)
        elif action == "spend" and index < len(tokens):
            self.spend_token(ctx.owner, ctx.status, index)
            ctx.token = None
        elif action == "flip" and index < len(tokens):
            tokens[index].side = side = side_after(tokens[index].side, side)
            self.event("flip", player=ctx.owner, status=self.status_name(ctx.status),
                       side=self.a.statuses[ctx.status]["sides"][side])

    def flip_token(self, player, status, token, side):
        tokens = self.seats[player].tokens.get(status, [])
        if token < len(tokens):
            tokens[token].side = side = side_after(tokens[token].side, side)
            self.event("flip", player=player, status=self.status_name(status),
                       side=self.a.statuses[status]["sides"][side])

    def undoubled(self, player, status):
        return [i for i, token in enumerate(self.seats[player].tokens.get(status, [])) if not token.doubled]

    def double_effect(self, ctx, status, tokens):
        held = self.seats[ctx.owner].tokens.get(status, [])
        for i in tokens:
            if i < len(held):
                held[i].doubled = True
        self.event("double", player=ctx.owner, status=self.status_name(status), count=len(tokens))

    def craft_options(self, player, status, zone):
        """The tiers the player can pay for with the cards on the zone and that would improve a
        slot: none that holds that tier or a later one of the slot already (tiers are listed from
        the least; crafting it would only spend cards for a worse or the same one). An empty slot's
        tiers come last, the best last of all (the heuristic bot crafts the last)."""
        entry = self.a.statuses[status]
        tiers = entry.get("tiers", [])
        cards = self.seats[player].zones.get(zone, [])
        symbols: dict[int, int] = {}
        for card in cards:
            if card.card.symbol is not None:
                symbols[card.card.symbol] = symbols.get(card.card.symbol, 0) + 1
        held = {tiers[t.tier - 1]["slot"]: t.tier - 1 for t in self.seats[player].tokens.get(status, ())
                if t.tier}
        ranked = []
        for i, tier in enumerate(tiers):
            needs = (tier.get("blueprint") or {}).get("items", [])
            if not needs or not all(symbols.get(n.get("symbol"), 0) >= n.get("count", 99) for n in needs):
                continue
            now = held.get(tier["slot"])
            if now is not None and now >= i:
                continue
            rank = i - next(j for j, t in enumerate(tiers) if t["slot"] == tier["slot"])
            ranked.append((now is None, rank, i))
        ranked.sort()
        self._craftable = [i for *_, i in ranked]
        return [self._tier_label(tiers[i]) for i in self._craftable]

    def _tier_label(self, tier: dict) -> str:
        """`<tier> <slot> (costs <blueprint>: <effect>)`: what crafting it takes and gives."""
        effect = tier.get("says") or (
            self.a.chunks[tier["effect"]["chunk"]].text if tier.get("effect") else "")
        return f"{tier['tier']} {tier['slot']} (costs {requirement_text(self.a, tier['blueprint'])}" \
            + (f": {effect})" if effect else ")")

    def craft(self, player, status, zone, option):
        entry = self.a.statuses[status]
        tier_index = self._craftable[option]
        tier = entry["tiers"][tier_index]
        cards = self.seats[player].zones.get(zone, [])
        for need in tier["blueprint"]["items"]:
            for _ in range(need["count"]):
                card = next(c for c in cards if c.card.symbol == need["symbol"])
                cards.remove(card)
                self.seats[player].discard.append(card)
        replaced = [entry["tiers"][t.tier - 1] for t in self.seats[player].tokens.get(status, ())
                    if t.tier and entry["tiers"][t.tier - 1]["slot"] == tier["slot"]]
        self.event("craft", player=player, tier=f"{tier['tier']} {tier['slot']}",
                   **({"replaces": f"{replaced[0]['tier']} {tier['slot']}"} if replaced else {}))
        self.gain_status(player, status, 1, tier_index + 1)

    # --------------------------------------------------------------- cards
    def draw(self, player, count):
        p = self.seats[player]
        drawn = []
        for _ in range(count):
            if not p.deck and p.discard:
                p.deck, p.discard = p.discard, []
                self.rng.shuffle(p.deck)
                self.event("reshuffle", player=player)
            if p.deck:
                p.hand.append(p.deck.pop())
                drawn.append(p.hand[-1].card.name)
        if drawn:  # the cards: for the narration of the player's own draws (not the opponent's)
            self.event("draw", player=player, count=len(drawn), cards=drawn)

    def hand(self, player):
        return [c.card.name for c in self.seats[player].hand]

    def discard(self, player, cards):
        p = self.seats[player]
        for i in sorted(cards, reverse=True):
            card = p.hand.pop(i)
            p.discard.append(card)
            self.event("discard", player=player, card=card.card.name)

    def discard_pile(self, player):
        return [c.card.name for c in self.seats[player].discard]

    def return_cards(self, player, picks):
        """Cards of her discard pile back to her hand (`Return 1 card from your discard pile ...`)."""
        p = self.seats[player]
        for i in sorted(picks, reverse=True):
            card = p.discard.pop(i)
            p.hand.append(card)
            self.event("return", player=player, card=card.card.name)

    def _matches(self, card: Card, ctype: int) -> bool:
        return ctype == ANY_CARD or card.card.ctype == ctype

    def search(self, player, top, ctype):
        p = self.seats[player]
        looked = p.deck[-top:] if top else p.deck
        self._searchable = [c for c in looked if self._matches(c, ctype)]
        self._searched = (len(looked) if top else None, ctype)  # for the event telling what was found
        return [c.card.name for c in self._searchable]

    def take_found(self, player, picks):
        p = self.seats[player]
        p.found = [self._searchable[i] for i in picks]
        top, ctype = self._searched
        # the top cards looked at and not taken stay where they are (the next search sees them
        # again): told to their owner, so that it does not look like a fault (player QA). Sending
        # them to the bottom made every Mine see new cards: its hero then won 80% of its games (Mining)
        rest = [c for c in p.deck[-top:] if c not in p.found] if top else []
        for card in p.found:
            p.deck.remove(card)
            p.hand.append(card)
        self.event("search", player=player, found=[c.card.name for c in p.found], top=top,
                   card_type=self.a.card_types[ctype] if ctype is not None else None,
                   rest=[c.card.name for c in rest])

    def shuffle(self, player, rng):
        self.rng.shuffle(self.seats[player].deck)
        self.event("shuffle", player=player)

    def hand_cards(self, player, ctype):
        return [c.card.name for c in self.seats[player].hand if self._matches(c, ctype)]

    def found(self, player):
        p = self.seats[player]
        return [c.card.name for c in p.found if c in p.hand]

    def place_found(self, player, zone):
        p = self.seats[player]
        placed = [c for c in p.found if c in p.hand]
        for card in placed:
            p.hand.remove(card)
            p.zones.setdefault(zone, []).append(card)
        p.found = []
        if placed:
            self.event("place", player=player, cards=[c.card.name for c in placed],
                       zone=p.table.components[zone]["name"])

    def place(self, player, zone, ctype, picks):
        p = self.seats[player]
        cards = [c for c in p.hand if self._matches(c, ctype)]
        for i in picks:
            p.hand.remove(cards[i])
            p.zones.setdefault(zone, []).append(cards[i])
        if picks:
            self.event("place", player=player, cards=[cards[i].card.name for i in picks],
                       zone=p.table.components[zone]["name"])

    def zone_cards(self, player, zone, ctype):
        return [c.card.name for c in self.seats[player].zones.get(zone, []) if self._matches(c, ctype)]

    def use_cards(self, player, zone, ctype, picks):
        p = self.seats[player]
        cards = [c for c in p.zones.get(zone, []) if self._matches(c, ctype)]
        chunks = []
        for i in picks:
            card = cards[i]
            p.zones[zone].remove(card)
            p.discard.append(card)
            self.event("use", player=player, card=card.card.name)
            if card.card.chunk is not None:
                chunks.append(card.card.chunk)
        return chunks

    # ---------------------------------------------------------- components
    def component_holder(self, player: int, hero: int | None) -> int:
        """Components named in a hero's chunk belong to whoever plays that hero."""
        if hero is None or self.seats[player].table.index == hero:
            return player
        for p in self.seats:
            if p.table.index == hero:
                return p.seat
        return player

    def component(self, player, comp):
        return self.seats[player].components[comp]

    def side(self, player, comp):
        """The index of the dial's side face up."""
        return self.seats[player].sides[comp]

    def track_room(self, player, comp, up):
        p = self.seats[player]
        at, last = p.components[comp], len(p.table.components[comp]["values"]) - 1
        return at if up else last - at  # position 0 is the top of the track

    def change_component(self, ctx, player, comp, delta):
        seat = self.component_holder(player, ctx.hero)
        p = self.seats[seat]
        data = p.table.components[comp]
        before = p.components[comp]
        if data["kind"] == "track":
            p.components[comp] = max(0, min(len(data["values"]) - 1, before - delta))
        else:
            low, high = data["values"][0], data["values"][-1]
            wanted = before + delta
            p.components[comp] = max(low, min(high, wanted))
            if wanted > high:
                self.queue_component_trigger(seat, comp, "would_exceed", wanted - high)
        if p.components[comp] != before:
            self.event("component", player=seat, name=data["name"], value=self.shown(seat, comp),
                       **self._by(ctx))
            self.queue_component_trigger(seat, comp, "reads", 0)

    def shown(self, seat: int, comp: int):
        p = self.seats[seat]
        data = p.table.components[comp]
        if data["kind"] in ("track", "forms"):
            return data["values"][p.components[comp]]
        return p.components[comp]

    def set_component(self, player, comp, value):
        p = self.seats[player]
        before = p.components[comp]
        p.components[comp] = value
        if before != value:
            self.event("component", player=player, name=p.table.components[comp]["name"],
                       value=self.shown(player, comp))
            self.queue_component_trigger(player, comp, "reads", 0)

    def dial_side(self, player, comp):
        return self.seats[player].sides[comp]

    def flip_dial(self, player, comp, side):
        p = self.seats[player]
        side = side_after(p.sides[comp], side)
        if p.sides[comp] != side:
            p.sides[comp] = side
            data = p.table.components[comp]
            self.event("dial_side", player=player, name=data["name"], side=data["sides"][side])
            # the new side's "whenever it reads N" holds at once if it reads N already (flipped to
            # the side that turns over at 0 while at 0: it would never turn over otherwise)
            self.queue_component_trigger(player, comp, "reads", 0)

    def queue_component_trigger(self, seat: int, comp: int, on: str, value: int) -> None:
        p = self.seats[seat]
        data = p.table.components[comp]
        for effect in data["effects"]:
            trigger = effect.get("trigger") or {}
            if trigger.get("on") != on or trigger.get("component") != comp:
                continue
            if effect.get("side") is not None and effect["side"] != p.sides[comp]:
                continue
            if on == "reads" and trigger.get("value") != p.components[comp]:
                continue
            self.queue.append(Queued(effect["chunk"], seat, p.table.index, None, None, value, on,
                                     named=self.component_label(seat, comp, effect)))

    # --------------------------------------------------------------- misc
    def players(self, ctx, who):
        return self.players_for(ctx, who)

    def extra_attempts(self, ctx):
        return max(0, self.attempts - 1)

    def add_roll_attempts(self, ctx, player, count):
        """"Perform 1 additional Roll Attempt": in her own Offensive Roll Phase, before its ability is
        chosen; at any other time there is no Roll Attempt to perform."""
        if count <= 0 or self.phase != "Offensive Roll Phase" or player != self.active:
            return
        self.max_attempts += count
        self.event("roll_attempts", player=player, more=count, attempts=self.max_attempts)

    def rolled(self, ctx, player, how="rolls", before=None, owner=None):
        # the symbols of the dice rolled, which may be another hero's (a card re-rolling her die)
        names = self.a.symbols
        symbol = lambda v: names[ctx.faces[v]] if v in ctx.faces else "?"  # noqa: E731
        extra = {}
        if before:  # the dice re-rolled or changed: [position, value before, its symbol]
            extra["altered"] = [[i, v, symbol(v)] for i, v in sorted(before.items())]
        if owner is not None and owner != player:  # another player's dice (an opponent's card)
            extra["owner"] = owner
        self.event("effect_roll", player=player, dice=list(ctx.roll), how=how,
                   symbols=[symbol(v) for v in ctx.roll], **extra)

    def schedule(self, ctx, trigger, chunk):
        named = ctx.source or self.a.chunks[chunk].owner  # the card or ability that scheduled it
        self.scheduled.append((trigger, Queued(chunk, ctx.owner, ctx.hero, ctx.status, None, 0,
                                               "scheduled", named=named)))
        self.event("schedule", player=ctx.owner, on=trigger["on"])
