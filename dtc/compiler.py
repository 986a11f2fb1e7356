"""Compile: checked content in, a linked ruleset image (plain data + chunks) out.

Every effect site becomes a chunk; names become indices into the image's
tables (symbols, statuses, phases, damage types, card types, dice, chunks) or
into the owning hero's components.  Triggers, requirements and the rest of the
content the engines need (rulesets, heroes, cards) become plain data beside
the chunks.  `dtc.artifact` writes the image to bytes.

The compiler is a visitor over the resolved AST: one `s_<Node>` method per
statement, one `a_<Node>` per amount.  Verbs were expanded by the checker, so
a `VerbCall` compiles to its body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dtc import nodes as n
from dtc.artifact import FORMAT_VERSION
from dtc.chunk import Chunk
from dtc.model import Ability, Card, Component, Content, Hero, Site, Status
from dtc.opcodes import (
    AFTER_DEFENSIVE_ROLL,
    AFTER_EFFECT_ROLL,
    ANY_CARD,
    AT_A_THEN,
    CHOSEN,
    COMPARISONS,
    MANY,
    MAX_SEATS,
    OTHER_SIDE,
    TARGETS,
    TURN_COUNTS,
    Op,
)
from dtc.render import render_body, render_effect, render_stmt
from dtc.resolve import CARD_KINDS, GENERIC_STATUSES, fold, singular

STATUS_CLASSES = [("status effect", "any"), ("positive status effect", "positive"),
                  ("negative status effect", "negative")]
ALL_TOKENS = 99  # `remove all X`: a count no stack reaches
REROLL_EVERY = 2  # REROLL's operand bit: every die, no choice (`re-roll all of your dice`)
DEFAULT_TARGET = {"Deal": "opponent", "Inflict": "opponent", "Remove": "self"}


class CompileError(Exception):
    """Content the checker passed but the compiler cannot express (a dtc bug)."""


@dataclass
class _Scope:
    """What the chunk being compiled may name."""

    hero: Hero | None
    hero_index: int | None
    status: Status | None  # the status whose effect this is


class Compiler:
    """Builds one image from checked content."""

    def __init__(self, content: Content, names: dict[str, str] | None = None):
        self.content = content
        self.names = names or {}
        self.sources: list[str] = []
        self.chunks: list[Chunk] = []
        self.symbols: list[str] = []
        self.damage_types: list[str] = []
        self.phases: list[str] = []
        self.card_types: list[str] = []
        self.dice: list[dict] = []
        self.statuses: list[dict] = []
        self._status_index: dict[tuple, int] = {}
        self._line_maps: dict[int, Any] = {}

    # ---------------------------------------------------------------- tables
    def build_tables(self) -> None:
        for ruleset in self.content.rulesets:
            for name in ruleset.damage_types:
                _add(self.damage_types, name)
            for name, _ in ruleset.phase_names().items():
                _add(self.phases, name)
        _add(self.phases, "turn")
        for hero in self.content.heroes:
            for symbol in hero.symbols:
                _add(self.symbols, symbol)
            for comp in hero.components:
                if comp.kind == "zone":
                    _add(self.card_types, comp.data["holds"])
            for card in hero.cards:
                if card.kind == "unique":
                    _add(self.card_types, card.data["type"])
        for status_set in self.content.status_sets:
            for die in status_set.dice:
                for symbol in die.faces.values():
                    _add(self.symbols, symbol)
                self.dice.append({"name": die.name, "faces": {
                    str(v): self.symbols.index(s) for v, s in sorted(die.faces.items())}})
        for name, kind in STATUS_CLASSES:
            self._status_index[(None, fold(name))] = len(self.statuses)
            self.statuses.append({"name": name, "class": kind, "owner": None})
        for hero in self.content.heroes:
            for status in hero.statuses:
                self._register_status(status, hero.name)
        for status_set in self.content.status_sets:
            for status in status_set.statuses:
                self._register_status(status, None)

    def _register_status(self, status: Status, hero: str | None) -> None:
        self._status_index[(hero, fold(status.name))] = len(self.statuses)
        self.statuses.append({"name": status.name, "owner": hero,
                              "set": None if hero else status.owner})

    def source_index(self, path: str) -> int:
        return _add(self.sources, self.names.get(path, path))

    # ------------------------------------------------------------- the image
    def compile(self) -> dict:
        """The whole image as plain data."""
        self.build_tables()
        heroes = [self.hero(h, i) for i, h in enumerate(self.content.heroes)]
        # minions are players after the heroes: a chunk's `hero` counts heroes, then minions
        minions = [self.minion(m, len(heroes) + i) for i, m in enumerate(self.content.minions)]
        for status_set in self.content.status_sets:
            scope = _Scope(None, None, None)
            for status in status_set.statuses:
                self.status(status, scope)
        card_sets = [
            {"name": cs.name, "every_hero": cs.every_hero,
             "cards": [self.card(c, _Scope(None, None, None), None) for c in cs.cards]}
            for cs in self.content.card_sets
        ]
        image = {
            "format": FORMAT_VERSION,
            "sources": self.sources,
            "rulesets": [r.data for r in self.content.rulesets],
            "damage_types": self.damage_types,
            "phases": self.phases,
            "symbols": self.symbols,
            "card_types": self.card_types,
            "dice": self.dice,
            "statuses": self.statuses,
            "status_sets": [{"name": ss.name, "statuses": [
                self._status_index[(None, fold(s.name))] for s in ss.statuses]}
                for ss in self.content.status_sets],
            "heroes": heroes,
            "card_sets": card_sets,
        }
        if minions:
            image["minions"] = minions
        if self.content.loot:  # the Loot cards' own facts; the cards themselves are in `card_sets`
            image["loot"] = [{"name": x.card.name, "rarity": x.rarity, "family": x.family, "level": x.level,
                              "swaps": x.swaps} for x in self.content.loot]
        if self.content.adventures:
            adventure = self.content.adventures[0]
            dice = {d.name.casefold(): d for ss in self.content.status_sets for d in ss.dice}
            loot = dice[adventure.data["loot_die"].casefold()]
            image["adventure"] = adventure_image(adventure.data, max(loot.faces))
            rules = adventure.data.get("boss_vs")
            if rules is not None:  # the status the Boss vs modes' King's Hand is
                image["adventure"]["boss_vs"]["kings_hand"] = \
                    self._status_index[(None, fold(rules["kings_hand"]))]
            for i, site in adventure.effects.items():  # "mandatory actions or optional choices"
                chunk = self.effect_chunk(site, _Scope(None, None, None))
                image["adventure"]["environments"][i]["chunk"] = chunk
        if self.content.valeria:
            from dtc.valeria.compiler import ValeriaCompiler

            image["valeria"] = ValeriaCompiler(self, self.content.valeria).compile()
        image["chunks"] = [c.to_json() for c in self.chunks]
        return image

    def hero(self, hero: Hero, index: int) -> dict:
        scope = _Scope(hero, index, None)
        data: dict[str, Any] = {
            "name": hero.name,
            "source": self.source_index(hero.doc.path),
            "rules": hero.ruleset,
            "dice": {"count": hero.dice_count,
                     "faces": {str(v): self.symbols.index(s) for v, s in sorted(hero.faces.items())}},
            "symbols": [self.symbols.index(s) for s in hero.symbols],
            "complexity": hero.doc.data.get("complexity"),
        }
        data["components"] = [self.component(c, scope) for c in hero.components]
        data["statuses"] = [self.status(s, scope) for s in hero.statuses]
        data["abilities"] = [self.ability(a, scope, hero) for a in hero.abilities]
        data["cards"] = [self.card(c, scope, hero) for c in hero.cards]
        data["setup"] = self.effect_chunk(hero.setup, scope) if hero.setup else None
        if hero.boss is not None:  # "Boss Battle Setup", "3. Boss Step"
            info = hero.boss
            data["boss"] = {
                "scenario": info.scenario, "boss_loot": info.boss_loot,
                "setup": [dict(row) for row in info.setup],
                "kings_hand": {"per_turn": info.kings_hand["per_turn"],
                               "success": sorted(info.kings_hand["success"])} if info.kings_hand else None,
                "actions": [{"card": a.card, "objective": self.requirement(a.objective.ast),
                             "bonus": self.effect_chunk(a.bonus, scope)} for a in info.actions]}
            for row in data["boss"]["setup"]:
                row.pop("authored", None)
        return data

    def minion(self, minion: Hero, index: int) -> dict:
        """A minion: a hero's record (its dice are its die's) and the callouts of its card."""
        data = self.hero(minion, index)
        info = minion.minion
        if info is None:  # a Boss: its callouts are in its hero record's `boss`
            return data
        data["minion"] = {"level": info.level, "health": info.health, "cp": info.cp,
                          "first_strike": info.first_strike, "kings_hand": info.kings_hand,
                          "objective": self.requirement(info.objective.ast)}
        if info.reward is not None:  # "Minion Rewards"
            data["minion"]["reward"] = dict(info.reward)
        return data

    def component(self, comp: Component, scope: _Scope) -> dict:
        d = comp.data
        out: dict[str, Any] = {"name": comp.name, "kind": comp.kind, "values": comp.values}
        if comp.kind == "dial":
            out["start"] = d["start"]
            out["sides"] = list(d.get("sides", []))
            out["start_side"] = out["sides"].index(d["start_side"]) if "start_side" in d else 0
        elif comp.kind in ("track", "forms"):
            out["start"] = comp.values.index(_canonical(d["start"], comp.values))
            out["once_per_turn"] = bool(d.get("once_per_turn"))
        else:
            out["holds"] = self.card_types.index(d["holds"])
        out["effects"] = []
        for site in comp.effects:
            entry = self.triggered(site, scope)
            entry["side"] = (out["sides"].index(_canonical(site.side, out["sides"]))
                             if site.side is not None else None)
            entry["at"] = (comp.values.index(_canonical(site.position, comp.values))
                           if site.position is not None else None)
            entry["attack_modifier"] = site.attack_modifier
            out["effects"].append(entry)
        return out

    def status(self, status: Status, scope: _Scope) -> int:
        index = self._status_index[(scope.hero.name if scope.hero else None, fold(status.name))]
        inner = _Scope(scope.hero, scope.hero_index, status)
        d = status.data
        entry = self.statuses[index]
        entry.update({
            "class": None,
            "polarity": status.polarity,
            "stack_limit": status.stack_limit,
            "persistent": bool(d.get("persistent")),
            # a Companion "cannot be removed, transferred, or destroyed, unless otherwise specified in the
            # Companion's ruleset" (Marvel rulebook, "Companions"): removed by its owner's effects alone
            "removable": d.get("removable", not d.get("companion")),
            "transferable": d.get("transferable", not d.get("companion")),
            "companion": bool(d.get("companion")),
            "attack_modifier": bool(d.get("attack_modifier")),
            "sides": list(status.sides),
            "restricted_to": list(d.get("restricted_to", [])),
            "spendable": (self.trigger(status.spendable.ast, scope)
                          if status.spendable is not None and status.spendable.ast else None),
        })
        entry["effects"] = []
        for site in status.effects:
            item = self.triggered(site, inner)
            if _speaks_of_the_stack(site.ast, status.name):
                item["per"] = "status"  # once for the whole stack, not once per token
            item["side"] = status.sides.index(_canonical(site.side, status.sides)) \
                if site.side is not None else None
            entry["effects"].append(item)
        entry["tiers"] = [
            {"slot": slot.name, "tier": tier.name, "limit": slot.limit,
             "blueprint": self.requirement(tier.blueprint.ast) if tier.blueprint else None,
             "effect": self.triggered(tier.effect, inner),
             # a tier's line under the moment printed above the tiers says no moment: say it with it
             **({"says": _cap(render_effect(tier.effect.ast))} if status.tier_moment else {})}
            for slot in status.slots for tier in slot.tiers
        ]
        return index

    def ability(self, ability: Ability, scope: _Scope, hero: Hero | None) -> dict:
        out: dict[str, Any] = {"name": ability.name, "kind": ability.kind, "shape": ability.shape,
                               "dice": ability.dice, "attack_modifier": ability.attack_modifier,
                               "gap": ability.gap}
        if ability.note:  # what a player reads of an ability with no effect to compile (`a` at the table)
            out["note"] = " ".join(ability.note.split())
        out["options"] = [{"requirement": self.requirement(o.requires.ast),
                           "chunk": self.effect_chunk(o.effect, scope)} for o in ability.options]
        out["shared"] = self.effect_chunk(ability.shared, scope) if ability.shared else None
        out["additionally"] = (self.effect_chunk(ability.additionally, scope)
                               if ability.additionally else None)
        if ability.kind == "defensive":
            (site,) = ability.effects
            out["chunk"] = self.effect_chunk(site, scope, defensive_dice=ability.dice)
        else:
            out["effects"] = [self.triggered(s, scope) for s in ability.effects]
        return out

    def card(self, card: Card, scope: _Scope, hero: Hero | None) -> dict:
        d = card.data
        out: dict[str, Any] = {"name": card.name, "kind": card.kind, "cost": card.cost,
                               "copies": card.copies, "authored": "authored" in d, "text": card_text(d)}
        for key in ("timing", "upgrades", "level"):
            if key in d:
                out[key] = d[key]
        if card.kind == "unique":
            out["type"] = self.card_types.index(d["type"])
            out["symbol"] = self.symbols.index(d["symbol"]) if "symbol" in d else None
        out["chunk"] = self.effect_chunk(card.effect, scope) if card.effect else None
        if card.kind == "equipment":  # a passive ability's effects, in force while it is in play
            effects = [self.triggered(s, scope) for s in card.ability.effects]
            out["ability"] = {"kind": "passive", "effects": effects}
        elif card.ability is not None and hero is not None:
            target = next(a for a in hero.abilities if fold(a.name) == fold(d["upgrades"]))
            out["upgrades"] = target.name  # as the board prints it: the engine matches names exactly
            if target.kind == "defensive":
                dice = card.ability.dice or target.dice
                site = card.ability.shared
                out["ability"] = {"kind": "defensive", "dice": dice,
                                  "chunk": self.effect_chunk(site, scope, defensive_dice=dice)}
            elif target.kind == "passive":
                sites = [card.ability.shared] if card.ability.shared is not None else []
                out["ability"] = {"kind": "passive",
                                  "effects": [self.triggered(s, scope) for s in sites + card.ability.effects]}
            else:
                out["ability"] = upgraded = self.ability(card.ability, scope, hero)
                upgraded["kind"] = target.kind
                if not upgraded["options"]:  # it prints only an effect: it keeps the board's requirements
                    upgraded["options"] = [{"requirement": self.requirement(o.requires.ast),
                                            "chunk": upgraded["shared"]} for o in target.options]
                    upgraded["shared"] = None
        return out

    # --------------------------------------------------------------- data
    def triggered(self, site: Site, scope: _Scope) -> dict:
        effect = site.ast
        return {"trigger": self.trigger(effect.trigger, scope) if effect.trigger else None,
                "once_per_turn": effect.once_per_turn,
                "chunk": self.effect_chunk(site, scope)}

    def trigger(self, t: Any, scope: _Scope) -> dict:
        if isinstance(t, n.During):
            return {"on": "during", "phase": self.phase(t.phase)}
        if isinstance(t, n.TurnEdge):
            # `this turn`: the turn under way, whoever's (scheduled for no one's own turn edge)
            return {"on": "turn_edge", "edge": t.edge, **({"this": True} if t.whose == "this" else {}),
                    **({"next": True} if t.whose == "next" else {})}
        if isinstance(t, n.PhaseEdge):
            return {"on": "phase_edge", "edge": t.edge, "phase": self.phase(t.phase)}
        if isinstance(t, n.Conclude):
            return {"on": "conclude", "phase": self.phase(t.phase), "with_attack": t.with_attack}
        if isinstance(t, n.Attacked):
            dt = t.damage_type
            return {"on": "attacked", "by_opponent": t.by_opponent,
                    "damage_type": "any" if dt == "any" else (self.dtype(dt) if dt else None),
                    "except": self.dtype(t.except_type) if t.except_type else None}
        if isinstance(t, (n.Reads, n.WouldExceed)):
            comp = self.component_index(t.component, scope)
            key = "value" if isinstance(t, n.Reads) else "limit"
            return {"on": "reads" if isinstance(t, n.Reads) else "would_exceed",
                    "component": comp, key: getattr(t, key)}
        if isinstance(t, n.DamagedByPhase):
            return {"on": "damaged_by_phase", "phase": self.phase(t.phase)}
        if isinstance(t, n.Damaged):
            return {"on": "damaged", "from_status": t.from_status}
        if isinstance(t, n.SpendsStatus):
            return {"on": "spends_status", "status": self.status_index(t.status, scope)[0]}
        if isinstance(t, n.PlaysCard):
            if t.kind is None:
                return {"on": "plays_card"}
            key, value = CARD_KINDS[fold(t.kind)]
            return {"on": "plays_card", key: value}
        simple = {n.Attacking: "attacking", n.AttackLanded: "attack_landed", n.Spent: "spent",
                  n.GainedAtLimit: "gained_at_limit",
                  n.Gained: "gained", n.AnyTime: "any_time", n.Healed: "healed"}
        return {"on": simple[type(t)]}

    def requirement(self, req: n.Requirement) -> dict:
        items = []
        for item in req.items:
            if isinstance(item, n.SymbolNeed):
                items.append({"symbol": self.symbol(item.symbol), "count": item.count})
            elif isinstance(item, n.OfAKind):
                items.append({"of_a_kind": item.count,
                              "symbol": self.symbol(item.symbol) if item.symbol else None})
            else:
                items.append({"straight": item.size})
        return {"items": items}

    # -------------------------------------------------------------- names
    def symbol(self, name: str) -> int:
        return self.symbols.index(name)

    def phase(self, name: str) -> int:
        return self.phases.index(name)

    def dtype(self, name: str | None) -> int:
        return self.damage_types.index(name or "normal")

    def ctype(self, name: str | None) -> int:
        if name is None:
            return ANY_CARD
        for i, t in enumerate(self.card_types):
            if fold(t) in (fold(name), singular(name)):
                return i
        raise CompileError(f"unknown card type {name}")

    def status_index(self, name: str, scope: _Scope) -> tuple[int, int]:
        """(status index, tier + 1 or 0) for a status or slot-tier name."""
        key = fold(name)
        if key in GENERIC_STATUSES:
            return self._status_index[(None, key.removesuffix("s"))], 0
        status, owner, tier = self.find_status(name, scope)
        return self._status_index[(owner, fold(status.name))], tier

    def find_status(self, name: str, scope: _Scope) -> tuple[Status, str | None, int]:
        """The status model a name means: (status, its owning hero or None, tier + 1 or 0)."""
        key = fold(name)
        groups = [(scope.hero.name, scope.hero.statuses)] if scope.hero else []
        groups.append((None, [s for ss in self.content.status_sets for s in ss.statuses]))
        for owner, statuses in groups:
            for status in statuses:
                if fold(status.name) in (key, singular(name)):
                    return status, owner, 0
                tiers = [f"{t.name} {slot.name}" for slot in status.slots for t in slot.tiers]
                for i, tier_name in enumerate(tiers):
                    if fold(tier_name) == key:
                        return status, owner, i + 1
        raise CompileError(f"unknown status {name}")

    def component_index(self, name: str, scope: _Scope) -> int:
        comps = scope.hero.components if scope.hero else []
        for i, c in enumerate(comps):
            if fold(c.name) == fold(name):
                return i
        raise CompileError(f"unknown component {name}")

    def component_of(self, name: str, scope: _Scope) -> Component:
        return scope.hero.components[self.component_index(name, scope)]

    # ------------------------------------------------------------ chunks
    def effect_chunk(self, site: Site, scope: _Scope, defensive_dice: int | None = None) -> int:
        """Compile one site's body into a new chunk; returns its index."""
        effect = site.ast
        if not isinstance(effect, n.Effect):
            raise CompileError(f"{site.owner}: no checked effect to compile")
        chunk = Chunk(site.owner, self.source_index(site.doc.path), scope.hero_index,
                      text=" ".join(site.text.split()))
        if scope.status is not None:
            chunk.status, _ = self.status_index(scope.status.name, scope)
        emitter = _Emitter(self, chunk, scope, self._lines_for(site))
        body = effect.body
        if defensive_dice is not None:
            body = emitter.defense_roll(defensive_dice, body)
        emitter.block(body)
        chunk.emit(Op.END, line=emitter.last_line)
        self.chunks.append(chunk)
        return len(self.chunks) - 1

    def _lines_for(self, site: Site):
        tmap = site.doc.text_map(site.path)
        fallback = site.span().line
        if tmap is None:
            return lambda offset: fallback
        return lambda offset: tmap.position(offset)[0]

    def new_chunk(self, owner: str, source: int, hero: int | None) -> Chunk:
        chunk = Chunk(owner, source, hero)
        self.chunks.append(chunk)
        return chunk


class _Emitter:
    """Emits the code of one chunk (and of the chunks its delayed effects need)."""

    def __init__(self, compiler: Compiler, chunk: Chunk, scope: _Scope, line_of):
        self.c = compiler
        self.chunk = chunk
        self.scope = scope
        self.line_of = line_of
        self.last_line = line_of(0)
        self.current: Any = None
        self.following: Any = None  # the statement after the one being compiled (or its block's)
        self.verb_text: str | None = None

    def line(self, node: Any) -> int:
        span = getattr(node, "span", None)
        if span is not None:
            self.last_line = self.line_of(span.start)
        return self.last_line

    def emit(self, op: Op, *operands: int, node: Any = None) -> int:
        return self.chunk.emit(op, *operands, line=self.line(node))

    def block(self, body: tuple) -> None:
        after = self.following  # what follows the statement holding this block (`If ...`, an option)
        for i, stmt in enumerate(body):
            self.following = body[i + 1] if i + 1 < len(body) else after
            method = getattr(self, "s_" + type(stmt).__name__, None)
            if method is None:
                raise CompileError(f"cannot compile {type(stmt).__name__}")
            self.current = stmt
            method(stmt)

    def prompt(self, at: int, text: Any) -> None:
        """Record what the player is asked at offset `at` (the effect's own words)."""
        if self.verb_text and isinstance(text, str):
            text = _cap(self.verb_text)
        self.chunk.prompts[at] = text

    # -- jumps
    def jump_if_false(self, node) -> int:
        return self.emit(Op.JUMP_IF_FALSE, 0, node=node) + 1

    def jump(self, node) -> int:
        return self.emit(Op.JUMP, 0, node=node) + 1

    def land(self, operand_at: int) -> None:
        self.chunk.patch_u16(operand_at, self.chunk.here)

    # -- defensive abilities roll their dice first
    def defense_roll(self, dice: int, body: tuple) -> tuple:
        """`PUSH dice`, the `roll N dice instead` overrides, ROLL, a window; returns the rest."""
        self.emit(Op.PUSH, dice)
        rest = list(body)
        while rest and _is_roll_instead(rest[0]):
            stmt = rest.pop(0)
            cond, roll = _roll_instead_parts(stmt)
            if cond is not None:
                self.condition(cond)
                skip = self.jump_if_false(stmt)
            self.emit(Op.POP, node=stmt)
            self.amount(roll.amount)
            if cond is not None:
                self.land(skip)
        self.emit(Op.ROLL, 0)
        self.emit(Op.THEN, AFTER_DEFENSIVE_ROLL)
        return tuple(rest)

    # -- amounts (each pushes one number)
    def amount(self, a: Any) -> None:
        method = getattr(self, "a_" + type(a).__name__, None)
        if method is None:
            raise CompileError(f"cannot compile amount {type(a).__name__}")
        method(a)

    def a_Number(self, a: n.Number) -> None:
        self.emit(Op.PUSH, a.value, node=a)

    def a_UpTo(self, a: n.UpTo) -> None:
        self.prompt(self.emit(Op.PICK, 0, a.value, node=a), _cap(render_stmt(self.current)))

    def a_Either(self, a: n.Either) -> None:
        at = self.emit(Op.PICK_FROM, self.chunk.const(list(a.options)), node=a)
        self.prompt(at, _cap(render_stmt(self.current)))

    def a_Times(self, a: n.Times) -> None:
        self.emit(Op.COUNT_SYMBOLS, self.chunk.const([self.c.symbol(s) for s in a.symbols]), node=a)
        self.emit(Op.PUSH, a.each, node=a)
        self.emit(Op.MUL, node=a)

    def a_Per(self, a: n.Per) -> None:
        self.amount(a.amount)
        self.countable(a.count)
        self.emit(Op.MUL, node=a)

    def a_Sum(self, a: n.Sum) -> None:
        for i, term in enumerate(a.terms):
            self.amount(term)
            if i:
                self.emit(Op.ADD, node=a)

    def a_Capped(self, a: n.Capped) -> None:
        self.amount(a.amount)
        self.emit(Op.PUSH, a.cap, node=a)
        self.emit(Op.MIN, node=a)

    def a_TotalRoll(self, a) -> None:
        self.emit(Op.ROLL_TOTAL, node=a)

    def a_ValueRolled(self, a) -> None:
        self.emit(Op.ROLL_HIGHEST if a.highest else Op.ROLL_VALUE, node=a)

    def a_ComponentValue(self, a: n.ComponentValue) -> None:
        self.emit(Op.GET_COMP, self.c.component_index(a.component, self.scope), node=a)

    def a_Half(self, a: n.Half) -> None:
        self.amount(a.of)
        self.emit(Op.HALF, 0 if a.rounding == "up" else 1, node=a)

    def countable(self, c: Any) -> None:
        if isinstance(c, n.SymbolsRolled):
            self.emit(Op.COUNT_SYMBOLS, self.chunk.const([self.c.symbol(s) for s in c.symbols]), node=c)
        elif isinstance(c, n.EveryNRolled):  # whole groups: the count divided, rounded down
            self.emit(Op.COUNT_SYMBOLS, self.chunk.const([self.c.symbol(s) for s in c.symbols]), node=c)
            self.emit(Op.PUSH, c.n, node=c)
            self.emit(Op.DIV, node=c)
        elif isinstance(c, n.Excess):
            self.emit(Op.EVENT_VALUE, node=c)
        elif isinstance(c, n.TokensHeld):  # another's tokens: read as that player, then back
            if c.holder != "self":
                self.emit(Op.ACTOR, TARGETS.index(c.holder), node=c)
            self.emit(Op.COUNT_STATUS, self.c.status_index(c.status, self.scope)[0], node=c)
            if c.holder != "self":
                self.emit(Op.ACTOR, TARGETS.index("self"), node=c)
        elif isinstance(c, n.CardsInHand):
            self.emit(Op.HAND_SIZE, node=c)
        elif isinstance(c, n.CPSpent):
            self.emit(Op.PAID, node=c)
        elif isinstance(c, n.TokensRemoved):
            self.emit(Op.REMOVED, node=c)
        else:
            self.emit(Op.EXTRA_ATTEMPTS, node=c)

    def count_of(self, ref: Any) -> None:
        if ref.count is None:
            self.emit(Op.PUSH, 1, node=ref)
        else:
            self.amount(ref.count)

    # -- tests and conditions (each pushes 1 or 0)
    def test(self, t: Any) -> None:
        if isinstance(t, n.AnyOf):  # any of them: t1 + t2 + ... is not 0
            for i, each in enumerate(t.tests):
                self.test(each)
                if i:
                    self.emit(Op.ADD, node=t)
        elif isinstance(t, n.OtherResult):  # none of the tests before it: not (t1 + t2 + ...)
            for i, each in enumerate(t.tests):
                self.test(each)
                if i:
                    self.emit(Op.ADD, node=t)
            self.emit(Op.NOT, node=t)
        elif isinstance(t, n.ValueRange):
            self.emit(Op.HAS_VALUE, t.low, t.high, node=t)
        elif len(t.items) == 1 and isinstance(t.items[0], n.SymbolNeed):
            item = t.items[0]
            self.emit(Op.HAS_SYMBOL, self.c.symbol(item.symbol), item.count, node=t)
        else:
            self.emit(Op.MEETS, self.chunk.const(self.c.requirement(t)), node=t)

    def condition(self, c: Any) -> None:
        if isinstance(c, n.InForm):
            comp_index, value = self.form(c.form)
            self.emit(Op.IN_FORM, comp_index, value, node=c)
            if c.negated:
                self.emit(Op.NOT, node=c)
        elif isinstance(c, n.OnSide):
            comp_index = self.c.component_index(c.component, self.scope)
            sides = self.scope.hero.components[comp_index].data["sides"]
            self.emit(Op.SIDE_IS, comp_index, next(i for i, s in enumerate(sides) if fold(s) == fold(c.side)),
                      node=c)
        elif isinstance(c, n.AtPosition):  # a track's position, as a form: the component reads that value
            comp_index = self.c.component_index(c.component, self.scope)
            comp = self.scope.hero.components[comp_index]
            value = next((j for j, v in enumerate(comp.values) if fold(str(v)) == fold(c.position)), None)
            if value is None:
                raise CompileError(f"unknown position {c.position} of {comp.name}")
            self.emit(Op.IN_FORM, comp_index, value, node=c)
        elif isinstance(c, n.YouDid):
            self.emit(Op.DID, node=c)
            if c.negated:
                self.emit(Op.NOT, node=c)
        else:
            if c.kind == "status":
                status, _ = self.c.status_index(c.what, self.scope)
                self.emit(Op.COUNT_STATUS, status, node=c)
            elif c.kind == "component":
                self.emit(Op.GET_COMP, self.c.component_index(c.what, self.scope), node=c)
            elif c.kind == "roll_total":
                self.emit(Op.ROLL_TOTAL, node=c)
            elif c.kind in TURN_COUNTS:
                self.emit(Op.TURN_COUNT, TURN_COUNTS.index(c.kind), node=c)
            elif c.kind in ("opponent_status", "opponent_cp", "opponent_cards", "opponent_health",
                            "health_than"):  # read as the holder
                self.holder_condition(c)
                return
            elif c.kind == "health":
                self.emit(Op.GET_HEALTH, node=c)
            else:
                op = {"opponents": Op.COUNT_OPPONENTS, "cp": Op.GET_CP, "cards": Op.HAND_SIZE}[c.kind]
                self.emit(op, node=c)
            self.emit(Op.PUSH, c.count, node=c)
            self.emit(Op.COMPARE, COMPARISONS.index(c.compare), node=c)

    def holder_condition(self, c: n.YouHave) -> None:
        """Another player's tokens, CP or cards compared, read as that player; `they` after a chosen
        player is the one chosen, and when no one was (no teammate to choose) the condition is false."""
        nobody = None
        if c.holder == "chosen":
            self.emit(Op.CHOOSE_PLAYER, TARGETS.index("chosen"), node=c)
            nobody = self.jump_if_false(c)
        if c.kind == "health_than":  # hers, then the holder's: `less Health than your opponent`
            self.emit(Op.GET_HEALTH, node=c)
        self.emit(Op.ACTOR, TARGETS.index(c.holder), node=c)
        if c.kind in ("opponent_health", "health_than"):
            self.emit(Op.GET_HEALTH, node=c)
        elif c.kind == "opponent_cp":
            self.emit(Op.GET_CP, node=c)
        elif c.kind == "opponent_cards":
            self.emit(Op.HAND_SIZE, node=c)
        else:
            self.emit(Op.COUNT_STATUS, self.c.status_index(c.what, self.scope)[0], node=c)
        self.emit(Op.ACTOR, TARGETS.index("self"), node=c)
        if c.kind != "health_than":
            self.emit(Op.PUSH, c.count, node=c)
        self.emit(Op.COMPARE, COMPARISONS.index(c.compare), node=c)
        if nobody is not None:
            done = self.jump(c)
            self.land(nobody)
            self.emit(Op.PUSH, 0, node=c)
            self.land(done)

    def form(self, name: str) -> tuple[int, int]:
        for i, comp in enumerate(self.scope.hero.components if self.scope.hero else []):
            if comp.kind == "forms":
                for j, value in enumerate(comp.values):
                    if fold(value) == fold(name):
                        return i, j
        raise CompileError(f"unknown form {name}")

    def guarded(self, cond_emit, body: tuple, node) -> None:
        cond_emit()
        skip = self.jump_if_false(node)
        self.block(body)
        self.land(skip)

    # -- statements
    def s_Then(self, s) -> None:
        self.emit(Op.THEN, AT_A_THEN, node=s)

    def s_If(self, s: n.If) -> None:
        if not s.orelse:
            self.guarded(lambda: self.condition(s.condition), s.body, s)
            return
        self.condition(s.condition)
        otherwise = self.jump_if_false(s)
        self.block(s.body)
        done = self.jump(s)
        self.land(otherwise)
        self.block(s.orelse)
        self.land(done)

    def s_On(self, s: n.On) -> None:
        self.guarded(lambda: self.test(s.test), s.body, s)

    def s_May(self, s: n.May) -> None:
        def ask():
            self.prompt(self.emit(Op.MAY, node=s), _cap(render_stmt(s)))
        self.guarded(ask, s.body, s)

    def s_Must(self, s: n.Must) -> None:
        self.block(s.body)

    def s_VerbCall(self, s: n.VerbCall) -> None:
        if s.verb is None:
            raise CompileError(f"unexpanded verb {s.text!r}")
        outer = self.verb_text
        self.verb_text = outer or s.text  # ask in the words the card uses
        self.block(s.body)
        self.verb_text = outer

    def s_ChooseUpTo(self, s: n.ChooseUpTo) -> None:
        at = self.emit(Op.CHOOSE_PLAYERS, TARGETS.index(s.who), s.count, node=s)
        self.prompt(at, _cap(render_stmt(s)))
        self.block(s.body)

    def s_ForEach(self, s: n.ForEach) -> None:
        self.countable(s.count)
        top = self.chunk.here
        self.emit(Op.DUP, node=s)
        done = self.jump_if_false(s)
        self.block(s.body)
        self.emit(Op.PUSH, 1, node=s)
        self.emit(Op.SUB, node=s)
        self.emit(Op.JUMP, top, node=s)
        self.land(done)
        self.emit(Op.POP, node=s)

    def s_Choose(self, s: n.Choose) -> None:
        self.choose_of(s, s.options, s.count)

    def choose_of(self, s: n.Choose, options: tuple, count: int) -> None:
        """One CHOOSE among `options`; after each, with more to choose, a CHOOSE among the others
        (`Choose two`: two different options, in the order chosen)."""
        at = self.chunk.emit_choose(len(options), self.line(s))
        self.prompt(at, [_cap(render_body(o)) for o in options])
        ends = []
        for i, option in enumerate(options):
            self.chunk.patch_u16(at + 2 + 2 * i, self.chunk.here)
            self.block(option)
            if count > 1:
                self.choose_of(s, options[:i] + options[i + 1:], count - 1)
            ends.append(self.jump(s))
        for end in ends:
            self.land(end)

    def s_Delayed(self, s: n.Delayed) -> None:
        later = self.c.new_chunk(self.chunk.owner + " › later", self.chunk.source, self.chunk.hero)
        later.status = self.chunk.status
        index = len(self.c.chunks) - 1
        inner = _Emitter(self.c, later, self.scope, self.line_of)
        inner.last_line = self.line(s)
        inner.block(s.body)
        later.emit(Op.END, line=inner.last_line)
        trigger = self.c.trigger(s.trigger, self.scope)
        self.emit(Op.SCHEDULE, self.chunk.const(trigger), index, node=s)

    def s_Instead(self, s: n.Instead) -> None:
        self.emit(Op.INSTEAD, node=s)
        self.block(s.body)

    def s_RaiseStackLimit(self, s: n.RaiseStackLimit) -> None:
        self.amount(s.amount)
        self.emit(Op.RAISE_LIMIT, self.c.status_index(s.status, self.scope)[0], node=s)

    def s_ExtraRollAttempt(self, s: n.ExtraRollAttempt) -> None:
        self._amount_then(Op.EXTRA_ROLL, s)

    def s_DiscardRandom(self, s: n.DiscardRandom) -> None:
        self._amount_then(Op.DISCARD_RANDOM, s)

    def s_SpendAnyTokens(self, s: n.SpendAnyTokens) -> None:
        status, _ = self.c.status_index(s.status, self.scope)
        self.prompt(self.emit(Op.SPEND_ANY, status, node=s), f"Spend how many {s.status}?")
        self.block(s.action)

    def s_SpendAnyCP(self, s: n.SpendAnyCP) -> None:
        self.prompt(self.emit(Op.PAY_ANY_CP, node=s), "Spend how many CP?")

    def s_Actor(self, s: n.Actor) -> None:
        if s.target in MANY:  # `Each player draws 1 card`: done by each of them, in turn order from hers
            for k in range(MAX_SEATS):
                self.emit(Op.ACTOR_NTH, TARGETS.index(s.target), k, node=s)
                skip = self.jump_if_false(s)
                self.block((s.action,))
                self.emit(Op.ACTOR, TARGETS.index("self"), node=s)
                self.land(skip)
            return
        target, skip = self.aim(s.target, s)
        self.emit(Op.ACTOR, target, node=s)
        self.block((s.action,))
        self.emit(Op.ACTOR, TARGETS.index("self"), node=s)
        self.landing(skip)

    def s_Cost(self, s: n.Cost) -> None:
        if s.status is None:
            self.amount(s.cp)
            self.emit(Op.PAY_CP, node=s)
        else:  # tokens: only with enough of them, spent (their `When spent` too), then the action
            status, _ = self.c.status_index(s.status, self.scope)
            self.emit(Op.COUNT_STATUS, status, node=s)
            self.amount(s.cp)
            self.emit(Op.COMPARE, COMPARISONS.index("at_least"), node=s)
            skip_spend = self.jump_if_false(s)
            self.amount(s.cp)
            self.emit(Op.SPEND, status, node=s)
            self.block(s.action)
            self.land(skip_spend)
            return
        skip = self.jump_if_false(s)
        self.block(s.action)
        self.land(skip)

    def aim(self, target: str, node) -> tuple[int, int | None]:
        """The target operand for `target`, and the jump to land after the statement: a player chosen
        among several is asked for first (CHOOSE_PLAYER), the statement aims at the one chosen, and
        when no one can be (no teammate) it is skipped."""
        if target in CHOSEN or target == "chosen":  # `chosen`: whom the first of a list chose, if anyone
            at = self.emit(Op.CHOOSE_PLAYER, TARGETS.index(target), node=node)
            self.prompt(at, _cap(render_stmt(node)))
            return TARGETS.index("chosen"), self.jump_if_false(node)
        return TARGETS.index(target), None

    def landing(self, skip: int | None) -> None:
        if skip is not None:
            self.land(skip)

    def s_Deal(self, s: n.Deal) -> None:
        target, skip = self.aim(s.target or DEFAULT_TARGET["Deal"], s)
        self.amount(s.amount)
        self.emit(Op.DEAL, self.c.dtype(s.damage_type), target, int(s.isolated), node=s)
        self.landing(skip)

    def s_Receive(self, s: n.Receive) -> None:
        self.amount(s.amount)
        self.emit(Op.RECEIVE, self.c.dtype(s.damage_type), node=s)

    def _amount_then(self, op: Op, s) -> None:
        self.amount(s.amount)
        self.emit(op, node=s)

    def s_AddDamage(self, s) -> None:
        self._amount_then(Op.ADD_DMG, s)

    def s_DoubleAttack(self, s) -> None:
        self.emit(Op.DOUBLE_DMG, node=s)

    def s_Heal(self, s) -> None:
        self._amount_then(Op.HEAL, s)

    def s_GainCP(self, s) -> None:
        self._amount_then(Op.GAIN_CP, s)

    def s_LoseCP(self, s) -> None:
        self._amount_then(Op.LOSE_CP, s)

    def s_StealCP(self, s) -> None:
        self._amount_then(Op.STEAL_CP, s)

    def s_Prevent(self, s) -> None:
        self._amount_then(Op.PREVENT, s)

    def s_Draw(self, s) -> None:
        self._amount_then(Op.DRAW, s)

    def s_Discard(self, s) -> None:
        self._amount_then(Op.DISCARD, s)

    def s_ReturnCards(self, s: n.ReturnCards) -> None:
        self.push_most(s.amount)
        self.emit(Op.RETURN_CARDS, node=s)

    def s_DrawUntil(self, s: n.DrawUntil) -> None:
        self.emit(Op.PUSH, s.count, node=s)  # as many as she lacks: SUB stops at 0
        self.emit(Op.HAND_SIZE, node=s)
        self.emit(Op.SUB, node=s)
        self.emit(Op.DRAW, node=s)

    def s_Reroll(self, s) -> None:
        self.push_most(s.amount)
        self.emit(Op.REROLL, int(s.own) | (REROLL_EVERY if s.every else 0), node=s)

    def push_most(self, amount) -> None:
        """The most a choice of dice, tokens or cards may take: `up to 2` pushes 2, as the player
        picks the items themselves (no separate "how many?" question)."""
        if isinstance(amount, n.UpTo):
            self.emit(Op.PUSH, amount.value, node=amount)
        else:
            self.amount(amount)

    def s_PreventHalf(self, s: n.PreventHalf) -> None:
        self.emit(Op.PREVENT_HALF, 0 if s.rounding == "up" else 1, node=s)

    def s_PreventAll(self, s) -> None:
        self.emit(Op.PREVENT_ALL, node=s)

    def s_Gain(self, s: n.Gain) -> None:
        if isinstance(s.status, n.ThisToken):
            self.emit(Op.GAIN_THIS, node=s)
            return
        status, tier = self.c.status_index(s.status.name, self.scope)
        self.count_of(s.status)
        self.emit(Op.GAIN, status, tier, node=s)

    def s_Inflict(self, s: n.Inflict) -> None:
        status, _ = self.c.status_index(s.status.name, self.scope)
        target, skip = self.aim(s.target or DEFAULT_TARGET["Inflict"], s)
        self.count_of(s.status)
        self.emit(Op.INFLICT, status, target, node=s)
        self.landing(skip)

    def s_Remove(self, s: n.Remove) -> None:
        if isinstance(s.status, n.ThisToken):
            self.emit(Op.REMOVE_THIS, node=s)
            return
        status, _ = self.c.status_index(s.status.name, self.scope)
        target, skip = self.aim(s.target or DEFAULT_TARGET["Remove"], s)
        if s.every:
            self.emit(Op.PUSH, ALL_TOKENS, node=s)  # more than any stack holds
        else:
            self.count_of(s.status)
        self.emit(Op.REMOVE, status, target, node=s)
        self.landing(skip)

    def s_Transfer(self, s: n.Transfer) -> None:
        status, _ = self.c.status_index(s.status.name, self.scope)
        # the player they leave is chosen first (`them` after it); the one gaining them is asked for by
        # TRANSFER itself, among the players they do not come from
        source, skip = self.aim(s.source or "self", s)
        if s.every:
            self.emit(Op.PUSH, ALL_TOKENS, node=s)
        else:
            self.count_of(s.status)
        self.emit(Op.TRANSFER, status, source, TARGETS.index(s.dest), node=s)
        self.landing(skip)

    def s_Spend(self, s: n.Spend) -> None:
        if isinstance(s.status, n.ThisToken):
            self.emit(Op.SPEND_THIS, node=s)
            return
        status, _ = self.c.status_index(s.status.name, self.scope)
        self.count_of(s.status)
        self.emit(Op.SPEND, status, node=s)

    def s_Flip(self, s: n.Flip) -> None:
        if s.what == "component":
            comp = self.c.component_of(s.name, self.scope)
            side = comp.sides.index(_canonical(s.side, comp.sides)) if s.side else OTHER_SIDE
            self.emit(Op.FLIP_DIAL, self.c.component_index(s.name, self.scope), side, node=s)
            return
        if s.what == "status_token":
            status, _, _ = self.c.find_status(s.name, self.scope)
        else:
            status = self.scope.status
        side = status.sides.index(_canonical(s.side, status.sides)) if s.side else OTHER_SIDE
        if s.what == "this_token":
            self.emit(Op.FLIP_THIS, side, node=s)
        else:
            index, _ = self.c.status_index(status.name, self.scope)
            self.emit(Op.FLIP_TOKEN, index, side, node=s)

    def s_DoubleEffect(self, s: n.DoubleEffect) -> None:
        status, _ = self.c.status_index(s.status, self.scope)
        self.push_most(s.amount)
        exactly = not isinstance(s.amount, n.UpTo)  # "double the effect of 1 <status>": no choice to skip
        self.emit(Op.DOUBLE, status, int(s.different) | (2 * exactly), node=s)

    def s_Craft(self, s: n.Craft) -> None:
        status, _ = self.c.status_index(s.status, self.scope)
        self.emit(Op.CRAFT, status, self.c.component_index(s.zone, self.scope), node=s)

    def s_Search(self, s: n.Search) -> None:
        self.emit(Op.SEARCH, s.top or 0, s.count or 0, self.c.ctype(s.card_type), node=s)

    def s_Shuffle(self, s) -> None:
        self.emit(Op.SHUFFLE, node=s)

    def s_Place(self, s: n.Place) -> None:
        zone = self.c.component_index(s.zone, self.scope)
        cards = s.cards
        if isinstance(cards, n.FoundCards):
            self.emit(Op.PLACE_FOUND, zone, node=s)
        elif cards.amount is None:
            self.emit(Op.PLACE_ANY, zone, self.c.ctype(cards.card_type), node=s)
        else:
            self.push_most(cards.amount)
            self.emit(Op.PLACE_N, zone, self.c.ctype(cards.card_type), node=s)

    def s_UseCards(self, s: n.UseCards) -> None:
        self.push_most(s.amount)
        self.emit(Op.USE_CARDS, self.c.component_index(s.zone, self.scope),
                  self.c.ctype(s.card_type), node=s)

    def s_Roll(self, s: n.Roll) -> None:
        self.amount(s.amount)
        die = 0
        if s.die is not None:
            die = 1 + next(i for i, d in enumerate(self.c.dice) if fold(d["name"]) == fold(s.die))
        self.emit(Op.ROLL, die, node=s)
        # a break before the dice count: any player may change them ("Offensive Roll Phase": Roll Phase
        # cards "after any step", its variable effects among them; "Instant Action Cards": they
        # interrupt abilities). The engine opens none inside what cannot be interrupted; a `Then`
        # next is that break already.
        if not isinstance(self.following, n.Then):
            self.emit(Op.THEN, AFTER_EFFECT_ROLL, node=s)

    def s_ChangeDice(self, s: n.ChangeDice) -> None:
        self.push_most(s.amount)
        own = int(s.own)
        if s.face is None:
            self.emit(Op.CHANGE_DICE, 0, 0, own, node=s)
        elif isinstance(s.face, int):
            self.emit(Op.CHANGE_DICE, 1, s.face, own, node=s)
        else:
            self.emit(Op.CHANGE_DICE, 2, self.c.symbol(s.face), own, node=s)

    def s_AdjustDice(self, s: n.AdjustDice) -> None:
        self.push_most(s.amount)
        mode = {"up or down": 3, "up": 4, "down": 5, "copy": 6}[s.how]
        self.emit(Op.CHANGE_DICE, mode, s.by, int(s.own), node=s)

    def s_Increase(self, s: n.Increase) -> None:
        self.amount(s.amount)
        self.emit(Op.RAISE, self.c.component_index(s.component, self.scope), node=s)

    def s_Decrease(self, s: n.Decrease) -> None:
        self.amount(s.amount)
        self.emit(Op.LOWER, self.c.component_index(s.component, self.scope), node=s)

    def s_SetValue(self, s: n.SetValue) -> None:
        index = self.c.component_index(s.component, self.scope)
        comp = self.scope.hero.components[index]
        value = comp.values.index(_canonical(s.value, comp.values))
        self.emit(Op.SET_COMP, index, value, node=s)

    def s_Move(self, s: n.Move) -> None:
        self.amount(s.amount)
        direction = {None: 0, "up": 1, "down": 2}[s.direction]
        self.emit(Op.MOVE, self.c.component_index(s.component, self.scope), direction, node=s)

    def s_Skip(self, s: n.Skip) -> None:
        from dtc.opcodes import SKIP_NEXT_TURN  # (imported here: this method is all of the module it needs)

        # the checker leaves `next` only before `turn`: `skip your next turn` is never the turn under way
        ahead = s.phase.startswith("next ")
        phase = s.phase[len("next "):] if ahead else s.phase
        self.emit(Op.SKIP, self.c.phase(phase), SKIP_NEXT_TURN if ahead else 0, node=s)

    def s_PhaseFails(self, s: n.PhaseFails) -> None:
        self.emit(Op.FAIL_PHASE, self.c.phase(s.phase), node=s)

    def s_AttackBecomes(self, s: n.AttackBecomes) -> None:
        self.emit(Op.ATTACK_BECOMES, self.c.dtype(s.damage_type), node=s)


def _speaks_of_the_stack(effect: n.Effect, name: str) -> bool:
    """A status effect's text that names its own tokens (`for each of these tokens`, `remove 1 of
    these tokens`, `per Venom token you have`) speaks of the stack: it runs once for all of them,
    where one that says `this token` (or no token at all) runs once per token held."""
    for node in n.walk(effect):
        if isinstance(node, n.TokensHeld) and node.status == name and node.holder == "self":
            return True
        if isinstance(node, n.NamedStatus) and node.name == name:
            return True
    return False


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is_roll_instead(stmt: Any) -> bool:
    return _roll_instead_parts(stmt) is not None


def _roll_instead_parts(stmt: Any):
    """(condition or None, Roll) for `[If ..., ] roll N dice instead`, else None."""
    cond = None
    if isinstance(stmt, n.If) and len(stmt.body) == 1:
        cond, stmt = stmt.condition, stmt.body[0]
    if isinstance(stmt, n.Instead) and len(stmt.body) == 1 and isinstance(stmt.body[0], n.Roll):
        return cond, stmt.body[0]
    return None


def _canonical(value: Any, options: list) -> Any:
    for o in options:
        if fold(str(o)) == fold(str(value)):
            return o
    raise CompileError(f"{value!r} is not one of {options!r}")


def _add(table: list, value: Any) -> int:
    if value not in table:
        table.append(value)
    return table.index(value)


def compile_content(content: Content, names: dict[str, str] | None = None) -> dict:
    """The linked image of checked content (plain data, ready for `dtc.artifact`);
    `names` renames source files as the artifact should record them."""
    return Compiler(content, names).compile()


def card_text(data: dict) -> str:
    """What the card says, for players at the table: its effect, or for an upgrade what the
    upgraded ability needs and does (`<requirement>: <effect>`, each tier or variant)."""
    if isinstance(data.get("effect"), str):
        return " ".join(data["effect"].split())
    if data.get("equipment") and isinstance(data.get("effects"), list):  # in play: its effects act
        return "Equipment: " + " / ".join(" ".join(str(e).split()) for e in data["effects"])
    ability = data.get("ability")
    if not isinstance(ability, dict):
        return ""
    parts = [f"Defensive Roll {ability['dice']}"] if ability.get("dice") else []
    for tier in ability.get("tiers") or ability.get("variants") or [ability]:
        effect = " ".join(str(tier.get("effect", "")).split())
        needs = tier.get("requires")
        parts.append(f"{needs}: {effect}" if needs else effect)
    for key in ("shared", "additionally"):
        if ability.get(key):
            parts.append(" ".join(str(ability[key]).split()))
    return " / ".join(p for p in parts if p)


RARITIES = ("common", "rare", "epic", "legendary")  # "Loot Cards": the four Loot decks, rarest last


def adventure_image(data: dict, loot_faces: int) -> dict:
    """Dice Throne Adventures rules as the artifact carries them: plain data, maps as rows of cells,
    each Loot Table reward as a kind and an amount (`dtc.adventures.crawl` reads it)."""
    def reward(r: dict) -> dict:
        [(kind, amount)] = ((k, v) for k, v in r.items() if k != "upto")
        if kind == "loot":  # an Unidentified Loot card of a rarity: its place among the four
            amount = RARITIES.index(amount) + 1
        return {"upto": r["upto"], "kind": kind, "amount": amount}

    return {
        "name": data["adventure"],
        "loot_die": loot_faces,
        "hero_setup": [{k: row[k] for k in ("heroes", "health", "gold", "salves")}
                       for row in data["hero_setup"]],
        "loot_table": [[reward(r) for r in data["loot_table"][str(chest)]] for chest in (1, 2, 3, 4)],
        "shop": {"prices": {r: data["shop"]["prices"][r] for r in RARITIES},
                 "identify": data["shop"]["identify"], "sell": data["shop"]["sell"]},
        "deck_limit": data["deck_limit"],
        "boss_loot": [{"upto": r["upto"], "rarity": r["loot"]} for r in data["boss_loot"]["table"]],
        "loss": {"score": data["loss"]["score"], "salves": data["loss"]["salves"]},
        "boss_vs": None if "boss_vs" not in data else {
            **{k: data["boss_vs"][k] for k in ("kings_hand_cost", "boss_health", "boss_health_per_hero",
                                                "duel_health")},
            "kings_hand": None,  # the status's index, set by the compiler
            "targeting": [list(data["boss_vs"]["targeting"][str(n)]) for n in (2, 3, 4)]},
        "difficulties": [{"name": d["name"], "scenario_score": d["scenario_score"]}
                         for d in data["difficulties"]],
        "environments": [{"name": e["name"], "level": e["level"], "health": e.get("health", 0),
                          "gold": e.get("gold", 0), "minion": e.get("minion"), "chunk": None}
                         for e in data["environments"]],
        "scenarios": [{
            "name": s["name"], "scenario": s["scenario"], "salve_heal": s["salve_heal"],
            "shop_deal": {r: s["shop_deal"].get(r, 0) for r in RARITIES},
            "kings_hand": {"per_turn": s["kings_hand"]["per_turn"],
                           "success": sorted(s["kings_hand"]["success"])},
            "map": [row.split() for row in s["map"]],
            "shards": [list(p) for p in s["shards"]], "salves": [list(p) for p in s.get("salves", [])],
            "chests": [{"at": list(c["at"]), "chest": c["chest"]} for c in s.get("chests", [])],
        } for s in data["scenarios"]],
    }
