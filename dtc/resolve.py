"""Resolve: a parsed `Effect` and a `Scope` in, a resolved `Effect` and problems out.

Resolution gives every name its canonical spelling (or reports it unknown,
with a suggestion), expands the hero's verbs, joins elliptical items
(`Gain 1 CP and 2 Hex`), and checks that each dice test can ever pass
on the dice rolled at that point.  It walks the statements in order, because
what `On [Claw]` or `the value rolled` refers to is the latest roll.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from dtc import dice
from dtc import nodes as n
from dtc.opcodes import CHOSEN, MANY, MAX_SEATS
from dtc.parser import Problem, core_word_guess, not_an_effect, parse_effect
from dtc.phrases import Phrasebook, written_so
from dtc.render import render_test, render_trigger
from dtc.verbs import ArgumentError, match, substitute, suggest

# `When you play a <kind> card`: the kinds a card is told apart by (its `kind:`, or its `timing:`)
CARD_KINDS = {"action": ("kind", "action"), "upgrade": ("kind", "upgrade"),
              "hero upgrade": ("kind", "upgrade"), "main phase": ("timing", "main"),
              "roll phase": ("timing", "roll"), "instant": ("timing", "instant")}
MAX_CHOSEN_OPTIONS = 3  # `Choose three: ...`: each choice is compiled with the ones left after it
MAX_OPTIONS_CHOSEN_FROM = 6  # ... so `choose 3 of 6` is 120 copies of the options: no more
MAX_OPTIONS = 64  # CHOOSE holds its option count in a byte; no card lists this many
CHOSEN_TARGETS = CHOSEN | {"chosen"}  # a player chosen, or the one chosen before
GENERIC_STATUSES = {
    "status effect", "status effects", "positive status effect", "positive status effects",
    "negative status effect", "negative status effects",
}
MAX_VERB_DEPTH = 8
_PARAM = re.compile(r"\{[a-z_][a-z0-9_]*\}")


def fold(name: str) -> str:
    """The comparison form of a name: case-folded, single-spaced, without a leading `the`."""
    words = name.casefold().replace("’", "'").split()
    if words and words[0] == "the" and len(words) > 1:
        words = words[1:]
    return " ".join(words)


def singular(name: str) -> str:
    folded = fold(name)
    return folded[:-1] if folded.endswith("s") and len(folded) > 3 else folded


@dataclass
class Scope:
    """The names an effect may use, folded name to canonical thing."""

    symbols: dict[str, str] = field(default_factory=dict)
    faces: dict[int, str] = field(default_factory=dict)
    dice_count: int | None = None
    statuses: dict[str, Any] = field(default_factory=dict)
    status_names: dict[str, str] = field(default_factory=dict)  # incl. slot tiers
    components: dict[str, Any] = field(default_factory=dict)
    forms: dict[str, tuple[Any, str]] = field(default_factory=dict)
    verbs: list = field(default_factory=list)  # (Verb, [Pattern])
    verb_bodies: dict[int, tuple] = field(default_factory=dict)
    card_types: dict[str, str] = field(default_factory=dict)
    dice_types: dict[str, Any] = field(default_factory=dict)
    damage_types: dict[str, str] = field(default_factory=dict)
    phases: dict[str, str] = field(default_factory=dict)
    others: dict[str, tuple[str, str]] = field(default_factory=dict)  # another hero's status -> (hero, file)
    phrasebook: Phrasebook | None = None  # printed phrasings the text is read through
    status_phrasebook: Phrasebook | None = None  # ... in a status effect's text (its third person too)
    # who plays the text, as a status's `restricted_to:` names players: Heroes, Minions or Bosses
    # (None: a status's own text, held by whoever holds the status)
    player_kind: str | None = None

    def book_for(self, kind: str) -> Phrasebook | None:
        """The phrasebook a text of this kind is read through."""
        return self.status_phrasebook if kind == "status" and self.status_phrasebook else self.phrasebook


@dataclass
class Context:
    """Where an effect runs: what `this token` and the current dice are."""

    kind: str  # offensive | defensive | passive | status | component | card | setup | verb
    status: Any = None
    dice: int | None = None
    requirements: list = field(default_factory=list)  # activation requirements the dice meet
    ultimate: bool = False  # an Ultimate Ability's effect
    component: Any = None  # the component whose rule this is (`this dial`, `flip it over`)
    # a slotted status's tiers: the moment printed above them (`Whenever ..., they may activate the
    # effects below`), and whether it says `may`; a tier's line that says no moment has it
    tier_moment: Any = None
    tier_may: bool = False


class Resolver:
    """Walks one effect; collects problems with offsets into its text."""

    def __init__(self, scope: Scope, ctx: Context, defining: bool = False):
        self.scope = scope
        self.ctx = ctx
        self.defining = defining  # resolving a verb's own `means`: `{x}` stand-ins are fine
        self.problems: list[Problem] = []
        self.roll_dice: int | None = ctx.dice
        self.roll_faces: dict[int, str] = scope.faces
        self.final_dice = ctx.kind == "offensive"  # the current roll is the activating roll
        self.verb_stack: list[str] = []
        self.verb_span: n.Offsets | None = None
        self.last_target: str | None = None  # the player named last (what `them` means)
        self.later = False  # inside a sentence a trigger schedules (it runs later, on its own)
        self.paid = False  # a payment came before (what `per CP spent` counts)
        self.removed = False  # a removal came before (`per token removed`)
        self.spent: str | None = None  # the status `Spend any number of` spent (`per Chi spent`)
        self.moment: Any = None  # the trigger the statement runs at (None: when played or activated)

    # -- reporting
    def report(self, code, message, span, hint=None, severity="error", focus=None):
        where = self.verb_span or span or n.Offsets(0, 1)
        notes = (f"in the expansion of verb `{self.verb_stack[-1]}`",) if self.verb_stack else ()
        self.problems.append(Problem(code, message, where.start, where.end, hint, severity, notes, focus))

    def warn(self, code, message, span, hint=None):
        self.report(code, message, span, hint, "warning")

    # -- entry
    def effect(self, effect: n.Effect) -> n.Effect:
        trigger = self.trigger(effect.trigger) if effect.trigger is not None else None
        self.moment = trigger
        return replace(effect, trigger=trigger, body=self.body(effect.body))

    def body(self, body: tuple) -> tuple:
        out: list = []
        joined: list[bool] = []  # whether each statement continues the verb before it
        for stmt in body:
            resolved = self.stmt(stmt, out[-1] if out else None)
            joined.append(resolved is not stmt and getattr(stmt, "joined", False)
                          and not isinstance(resolved, (n.VerbCall, n.Item)))
            out.append(resolved)
        return tuple(_alterations_first(_share_targets(out, joined)))

    def stmt(self, s: Any, previous: Any) -> Any:
        method = getattr(self, "s_" + type(s).__name__, None)
        resolved = method(s, previous) if method is not None else self.generic(s)
        return self.aimed(resolved)

    def s_RaiseStackLimit(self, s, _):
        return replace(s, status=self.status(s.status, s.span), amount=self.expr(s.amount, s.span))

    def s_SpendAnyCP(self, s, _):
        self.paid = True
        return s

    def s_SpendAnyTokens(self, s, _):
        if fold(s.status) in GENERIC_STATUSES:
            self.report("C016", f"`spend any number of {s.status}` names no tokens to count: name the status",
                        s.span, "write `Spend any number of Chi ...`")
            return s
        status = self.status(s.status, s.span)
        self.removed = True  # `per Chi spent` counts them
        self.spent = status
        return replace(s, status=status, action=self.body(s.action))

    def s_Remove(self, s, _):
        self.removed = self.removed or not isinstance(s.status, n.ThisToken)  # REMOVE counts, REMOVE_THIS not
        return self.generic(s)

    def s_TierEffects(self, s, _):
        status = self.ctx.status
        if self.ctx.kind != "status" or status is None or not (status.slots or status.sides):
            self.report("C016", "`activate the effects below` introduces the tiers or sides of a status "
                        "effect; there are none below here", s.span,
                        "write it in the `effects:` of a status with `slots:`, with the moment: `When you "
                        "are Attacked, you may activate the effects below.`")
        return s

    def s_Transfer(self, s, _):
        if isinstance(s.status, n.ThisToken):
            self.report("C016", "a transfer moves tokens of a named status effect, not `this token`", s.span,
                        "name it: `Transfer 1 Hex to a chosen opponent.`")
            return s
        if {s.source, s.dest} & MANY:
            self.report("C016", "tokens move from one player to one other, not to or from several",
                        s.span, "name one: `to a chosen opponent`, `from your opponent`")
        elif (s.source or "self") == s.dest:
            self.report("C016", "the tokens would go to the player they come from", s.span,
                        "name the other player: `to a chosen opponent`, `to another player`")
        self.removed = True  # `per token removed` counts what left
        self.last_target = s.dest if s.dest != "another_player" else "chosen"
        return self.generic(s)

    def aimed(self, s: Any) -> Any:
        """`them` / `that player` is the player named last in the text: a fixed one stays itself, a
        chosen one is the player chosen (`chosen`: one choice, not a second)."""
        target = getattr(s, "target", None)
        if not isinstance(target, str) or isinstance(s, (n.Then,)):
            return s
        if target == "them":
            named = self.last_target
            if named is None and self.ctx.kind == "status":
                named = "self"  # a status effect's `they`, no one named before: the one with the token
            if named is None:
                self.report("C016", "`they` / `them` stands for a player named before it, and none is",
                            s.span, "name who: `on a chosen opponent`, `to the Attacker`, `on your opponent`")
                return s
            target = "chosen" if named in CHOSEN_TARGETS else named
            if target in ("chosen", "chosen_players") and self.later:
                self.report("C016", "`them` here runs later, on its own, and cannot name the player chosen "
                            "now", s.span, "name who again: `to a chosen opponent`, `to your opponent`")
            s = replace(s, target=target)
        self.last_target = target
        return s

    def generic(self, s: Any) -> Any:
        """Resolve the fields of a statement that needs no special handling."""
        changes = {}
        for f in fields(s):
            if f.name == "span":
                continue
            value = getattr(s, f.name)
            if f.name == "body":
                changes[f.name] = self.body(value)
            elif is_dataclass(value) and not isinstance(value, n.Offsets):
                changes[f.name] = self.expr(value, s.span)
        return replace(s, **changes)

    # -- expressions
    def expr(self, e: Any, span) -> Any:
        if isinstance(e, n.Times):
            self.need_roll(e.span, "counting symbols rolled")
            return replace(e, symbols=tuple(self.symbol(x, e.span) for x in e.symbols))
        if isinstance(e, (n.SymbolsRolled, n.EveryNRolled)):
            self.need_roll(e.span, "counting symbols rolled")
            return replace(e, symbols=tuple(self.symbol(x, e.span) for x in e.symbols))
        if isinstance(e, n.Sum):  # its terms are a tuple, which `generic` passes by
            return replace(e, terms=tuple(self.expr(t, span) for t in e.terms))
        if isinstance(e, (n.Per, n.Capped, n.Half)):
            return self.generic(e)
        if isinstance(e, n.TokensHeld):
            return replace(e, status=self.status(e.status, e.span))
        if isinstance(e, n.TokensRemoved) and e.status is not None:
            named = self.lookup_status(e.status)
            if self.spent is None and not self.removed:
                self.report("C016", f"`per {e.status} spent` counts the tokens spent before it, and nothing "
                            "before it spends any", e.span,
                            f"spend them first: `Spend any number of {e.status}: deal 1 dmg per {e.status} "
                            "spent.`")
                return replace(e, status=None)
            if self.spent is not None and named != self.spent:
                self.report("C016", f"`per {e.status} spent` counts the tokens spent before it, and they are "
                            f"{self.spent}", e.span, f"write `per {self.spent} spent` or `per token spent`")
            e = replace(e, status=None)
        if isinstance(e, (n.CPSpent, n.TokensRemoved)):
            done = self.paid if isinstance(e, n.CPSpent) else self.removed
            if not done:
                what, by = (("CP spent", "a payment") if isinstance(e, n.CPSpent)
                            else ("token removed", "a removal"))
                self.report("C016", f"`per {what}` counts what {by} before it did, and none comes "
                            "before it", e.span,
                            "spend or remove first: `Spend any amount of CP: deal 1 dmg per CP spent.`")
            return e
        if isinstance(e, (n.TotalRoll, n.ValueRolled)):
            self.need_roll(e.span, "the value rolled")
            return e
        if isinstance(e, n.ComponentValue):
            return replace(e, component=self.component(e.component, e.span, ("dial", "track")))
        if isinstance(e, n.NamedStatus):
            count = self.expr(e.count, e.span) if e.count is not None else None
            return replace(e, name=self.status(e.name, e.span), count=count)
        if isinstance(e, n.ThisToken):
            if self.ctx.status is None:
                self.report("C016", "`this token` only means something in a status effect's text",
                            e.span, "name the status instead")
            return e
        if isinstance(e, n.Param):
            if not self.verb_stack and not self.defining:
                self.report("C016", f"`{{{e.name}}}` is a verb parameter; it belongs in a verb's "
                            "`means`", e.span)
            return e
        if isinstance(e, (n.FoundCards, n.HandCards)):
            return replace(e, card_type=self.card_type(e.card_type, e.span))
        return e

    # -- statements with their own rules
    def s_Gain(self, s, _):
        s = self.generic(s)
        self.within_stack_limit(s.status, "gains")
        self.not_restricted(s.status)
        return s

    def not_restricted(self, ref) -> None:
        """A status only some players may use (its `restricted_to:`, as a Dice Throne Adventures token
        "Gained and spent by various Minions and Bosses ... Heroes may not use these tokens") gained
        by any other: the token would be held and do nothing, so the gain is refused."""
        kind = self.scope.player_kind
        if kind is None or not isinstance(ref, n.NamedStatus):
            return
        status = self.scope.statuses.get(fold(ref.name))
        allowed = status.data.get("restricted_to") if status is not None else None
        if allowed and kind not in allowed:
            who = " and ".join(allowed)
            whose = {"Heroes": "a hero's", "Minions": "a Minion's", "Bosses": "a Boss's"}[kind]
            self.report("C016", f"{status.name} may be used only by {who} (its `restricted_to:`), and this "
                        f"is {whose} effect", ref.span,
                        f"gain a status {kind} may use, or add {kind} to `restricted_to:` of {status.name}")

    def s_Inflict(self, s, _):
        s = self.generic(s)
        self.within_stack_limit(s.status, "inflicts")
        self.not_oneself(s.target, s.span)
        return s

    def not_oneself(self, target: str | None, span) -> None:
        """`inflict <status> on the Attacker` in an Offensive Ability: the Attacker is the hero herself
        (and the Defender in a Defensive Ability); a warning, as it is seldom what was meant."""
        own = {"offensive": "attacker", "defensive": "defender"}.get(self.ctx.kind)
        if target is not None and target == own:
            role = own.capitalize()
            kind = "an Offensive" if own == "attacker" else "a Defensive"
            self.warn("C034", f"in {kind} Ability the {role} is this hero herself", span,
                      "to aim at the other player, write `on your opponent` (`to your opponent` for dmg)")

    def within_stack_limit(self, ref, verb: str) -> None:
        """`Gain 5 <status>` with a Stack Limit of 3 can never hold the 5: "the maximum number of
        tokens ... on a single Hero Board" ("Stack Limits"); a warning, like an `On` that never holds."""
        if not isinstance(ref, n.NamedStatus) or not isinstance(ref.count, n.Number):
            return
        status = self.scope.statuses.get(fold(ref.name))
        if status is None or status.slots or ref.count.value <= status.stack_limit:
            return
        self.warn("C028", f"this {verb} {ref.count.value} {status.name} at once, and its stack limit is "
                  f"{status.stack_limit}: {ref.count.value - status.stack_limit} can never be held", ref.span,
                  f"{verb[:-1]} at most {status.stack_limit}, or raise `stack_limit:` of {status.name}")

    def s_Deal(self, s, _):
        self.not_oneself(s.target, s.span)
        dtype = self.damage_type(s.damage_type, s.span)
        if dtype is not None and fold(dtype) == "ultimate" and not self.ctx.ultimate:
            # "Ultimate Damage": "a special type of undefendable damage dealt by your Ultimate Ability"
            self.report("C016", "ultimate dmg is dealt only by an Ultimate Ability", s.span,
                        "write `undefendable dmg` or `pure dmg`, or make this the hero's `ultimate:`")
        return replace(self.generic(s), damage_type=dtype)

    def s_AddDamage(self, s, _):
        if self.ctx.kind == "defensive":
            # "Attack Modifiers": dmg is added only to an Attack one is activating in one's own turn
            self.report("C016", "a Defensive Ability's `add dmg` would add to the Attack against its own "
                        "hero: dmg is added only to an Attack of one's own", s.span,
                        "to hit back, write `deal 2 dmg to your Attacker`")
        return self.generic(s)

    def s_DoubleAttack(self, s, _):
        if self.ctx.kind == "defensive":
            self.report("C016", "a Defensive Ability's `double the dmg of this Attack` would double the "
                        "Attack against its own hero: only an Attack of one's own is doubled", s.span)
        return s

    def s_Receive(self, s, _):
        return replace(self.generic(s), damage_type=self.damage_type(s.damage_type, s.span))

    def s_AttackBecomes(self, s, _):
        return replace(s, damage_type=self.damage_type(s.damage_type, s.span))

    def s_Roll(self, s, _):
        s = self.generic(s)
        faces = self.scope.faces
        die = s.die
        if die is not None:
            found = self.scope.dice_types.get(singular(die)) or self.scope.dice_types.get(fold(die))
            if found is None:
                self.report("C017", f"unknown die `{die}`", s.span,
                            self.did_you_mean(die, [d.name for d in self.scope.dice_types.values()]))
            else:
                die, faces = found.name, found.faces
        self.roll_dice = _most(s.amount)
        self.roll_faces = faces or self.roll_faces
        self.final_dice = False
        return replace(s, die=die)

    def s_Reroll(self, s, _):
        self.need_roll(s.span, "re-rolling")
        return self.generic(s)

    def s_ChangeDice(self, s, _):
        s = self.generic(s)
        if isinstance(s.face, str):
            return replace(s, face=self.symbol(s.face, s.span))
        return s

    def s_AdjustDice(self, s, _):
        self.need_roll(s.span, "changing dice")
        values = sorted(self.roll_faces or range(1, 7))
        reach = values[-1] - values[0]
        if s.how != "copy" and not 1 <= s.by <= reach:
            self.report("C010", f"a die showing {values[0]}-{values[-1]} moves by 1 to {reach}, "
                        f"not by {s.by}", s.span, "write e.g. `Increase or decrease 1 die by 1.`")
        return self.generic(s)

    def s_Instead(self, s, previous):
        return replace(s, body=self.body(s.body))

    def s_On(self, s, _):
        if isinstance(s.test, n.OtherResult):
            # the tests were checked in their own sentences: resolved again, quietly
            heard, self.problems = self.problems, []
            tests = tuple(self.dice_test(t) for t in s.test.tests)
            self.problems = heard
            return replace(s, test=replace(s.test, tests=tests), body=self.body(s.body))
        test = self.dice_test(s.test)
        return replace(s, test=test, body=self.body(s.body))

    def s_ForEach(self, s, _):
        return replace(s, count=self.expr(s.count, s.span), body=self.body(s.body))

    def s_If(self, s, _):
        kind = getattr(s.condition, "kind", None)
        if kind == "dealt_this_turn" and self.ctx.kind == "offensive" and not self.later:
            self.report("C016", "`If you dealt ... dmg this turn` is read as the ability resolves, before "
                        "its Attack's dmg lands: this Attack's dmg is never counted there", s.span,
                        "to read what this Attack dealt, write `If this Attack deals at least 1 dmg, ...`")
        if kind != "attack_dealt":
            return replace(s, condition=self.condition(s.condition), body=self.body(s.body),
                           orelse=self.body(s.orelse))
        if self.ctx.kind != "offensive" or self.later:
            self.report("C016", "`If this Attack deals ... dmg` is read once an Attack's dmg has landed, "
                        "and this text is not an Attack's", s.span,
                        "it stands in an Offensive ability's effect (`Deal 5 dmg. If this Attack deals "
                        "at least 1 dmg, gain 1 CP.`)")
        outer, self.later = self.later, True
        try:  # what it does happens then, on its own (a scheduled effect)
            resolved = replace(s, body=self.body(s.body), orelse=self.body(s.orelse))
        finally:
            self.later = outer
        return n.Delayed(n.AttackLanded(span=s.span), (resolved,), span=s.span)

    def s_Choose(self, s, _):
        if len(s.options) > MAX_OPTIONS:
            self.report("C016", f"`choose` among {len(s.options)} options: at most {MAX_OPTIONS}", s.span,
                        "split the card, or group the options")
        elif not 1 <= s.count < len(s.options):
            self.report("C016", f"`choose {s.count}` of {len(s.options)} options: there must be more options "
                        "than are chosen", s.span, "to do them all, write them as one sentence: `Gain 1 CP "
                        "and draw 1 card.`")
        elif s.count > MAX_CHOSEN_OPTIONS:
            self.report("C016", f"`choose {s.count}`: at most {MAX_CHOSEN_OPTIONS} options are chosen",
                        s.span)
        elif s.count > 1 and len(s.options) > MAX_OPTIONS_CHOSEN_FROM:
            self.report("C016", f"`choose {s.count}` of {len(s.options)} options: at most "
                        f"{MAX_OPTIONS_CHOSEN_FROM} options when more than one is chosen", s.span)
        return replace(s, options=tuple(self.body(o) for o in s.options))

    def s_Delayed(self, s, _):
        outer, self.later, moment = self.later, True, self.moment
        try:
            self.moment = self.trigger(s.trigger)
            return replace(s, trigger=self.moment, body=self.body(s.body))
        finally:
            self.later, self.moment = outer, moment

    def s_Actor(self, s, previous):
        if isinstance(s.action, n.ExtraRollAttempt):
            self.report("C016", "an additional Roll Attempt is performed only by the player whose "
                        "Offensive Roll Phase it is: another player has none to perform", s.span,
                        "write `Perform 1 additional Roll Attempt.` on the roller's own card or status")
        return replace(s, action=self.stmt(s.action, None))

    def s_ExtraRollAttempt(self, s, _):
        if self.ctx.kind == "defensive":
            self.report("C016", "an additional Roll Attempt is performed in your own Offensive Roll "
                        "Phase, and a Defensive ability has none", s.span,
                        "give it to an offensive ability or a Roll Phase card")
        elif _never_rolling(self.moment):
            self.report("C016", "an additional Roll Attempt is performed in your own Offensive Roll "
                        f"Phase, before its ability is chosen, and `{render_trigger(self.moment)}` is "
                        "never then", s.span,
                        "say it `During your Offensive Roll Phase` or `At the start of your Offensive Roll "
                        "Phase` (or on a Roll Phase card)")
        return self.generic(s)

    def s_Cost(self, s, _):
        status = self.status(s.status, s.span) if s.status is not None else None
        self.paid = self.paid or status is None
        return replace(s, cp=self.expr(s.cp, s.span), action=self.body(s.action), status=status)

    def s_Increase(self, s, _):
        return replace(self.generic(s), component=self.component(s.component, s.span, ("dial", "track")))

    s_Decrease = s_Increase

    def s_Move(self, s, _):
        return replace(self.generic(s), component=self.component(s.component, s.span, ("track",)))

    def s_SetValue(self, s, _):
        comp_name = self.component(s.component, s.span, ("forms", "dial", "track"))
        comp = self.scope.components.get(fold(comp_name))
        value = s.value
        if comp is not None and not self.is_param(value):
            value = self.component_value(comp, value, s.span)
        return replace(s, component=comp_name, value=value)

    def s_Flip(self, s, _):
        if s.what == "this_token" and self.ctx.status is None and self.ctx.component is not None:
            s = replace(s, what="component", name=self.ctx.component.name)  # a dial's rule: `flip it over`
        every = s.name.split(" ", 1)[1] if s.what == "component" and fold(s.name).startswith("all ") else None
        if every is not None and self.lookup_status(every):
            side = f' to the "{s.side}" side' if s.side else ""
            self.report("C016", f"`{s.name}`: the language flips one token at a time", s.span,
                        f"write `Flip a {every} token{side}` (the player picks which)")
            return s
        if s.what == "component":
            name = self.component(s.name, s.span, ("dial",))
            comp = self.scope.components.get(fold(name))
            side = s.side
            if comp is not None:
                side = self.flipped_to(side, list(comp.sides), comp.name, f"{comp.name} has", s.span)
            return replace(s, name=name, side=side)
        status = self.ctx.status
        if s.what == "status_token":
            name = self.status(s.name, s.span)
            status = self.scope.statuses.get(fold(name))
            s = replace(s, name=name)
        elif s.what == "this_token" and status is None:
            self.report("C016", "`flip it` needs a token: use it in a status effect's text", s.span)
        if status is not None:
            sides, has = list(getattr(status, "sides", [])), f"{status.name} tokens have"
            s = replace(s, side=self.flipped_to(s.side, sides, status.name, has, s.span))
        return s

    def flipped_to(self, side: str | None, sides: list, owner: str, what_has: str, span) -> str | None:
        """The side a flip names, as the content spells it; with none (`Flip <dial> over`), it turns
        to its other side, which needs exactly two."""
        if not sides:
            self.report("C017", f"{what_has} no sides to flip to", span, "give it `sides:`")
        elif side is not None:
            return self.one_of(side, sides, span, f"side of {owner}")
        elif len(sides) != 2:
            named = ", ".join(f"`{o}`" for o in sides)
            self.report("C017", f"a flip with no side turns it over, but {what_has} {len(sides)} sides", span,
                        f"say which: `to the {sides[0]} side` (its sides are {named})")
        return side

    def s_Place(self, s, _):
        s = replace(s, cards=self.expr(s.cards, s.span), zone=self.zone(s.zone, s.span))
        self.zone_holds(s.zone, getattr(s.cards, "card_type", None), s.span)
        return s

    def s_UseCards(self, s, _):
        s = self.generic(s)
        s = replace(s, card_type=self.card_type(s.card_type, s.span), zone=self.zone(s.zone, s.span))
        self.zone_holds(s.zone, s.card_type, s.span)
        return s

    def zone_holds(self, zone: str, card_type: str | None, span) -> None:
        """A zone `holds:` one card type: cards of another placed on it or used from it say the
        content disagrees with itself (a warning: the engine moves them all the same)."""
        comp = self.scope.components.get(fold(zone))
        holds = comp.data.get("holds") if comp is not None and comp.kind == "zone" else None
        if not holds or card_type is None or self.is_param(card_type):
            return
        if singular(card_type) != singular(holds):
            self.warn("C030", f"{comp.name} holds {holds} cards (its `holds:`), and this moves {card_type} "
                      "cards there", span, f"write `holds: {card_type}` on {comp.name}, or move {holds} "
                      "cards")

    def s_Search(self, s, _):
        return replace(s, card_type=self.card_type(s.card_type, s.span))

    def s_Craft(self, s, _):
        name = self.status(s.status, s.span)
        status = self.scope.statuses.get(fold(name))
        if status is not None and not status.slots:
            self.report("C016", f"{status.name} has no slots with blueprints to craft", s.span)
        return replace(s, status=name, zone=self.zone(s.zone, s.span))

    def s_DoubleEffect(self, s, _):
        return replace(self.generic(s), status=self.status(s.status, s.span))

    def s_Skip(self, s, _):
        """`skip your <phase>` (or a group of phases, `Main Phase`), `skip your turn`, `skip your next
        turn`: only what the engine plays can be skipped; `next` is kept before `turn` alone (the turn
        after this one, where `skip your turn` in one's own turn is the rest of it), and is the same
        as nothing before a phase (the next one is the one skipped either way)."""
        from dtc.opcodes import SKIPPABLE  # (imported here: this method is all of the module it needs)

        words = s.phase.split()
        ahead = len(words) > 1 and words[0].casefold() == "next"
        phase = self.phase(" ".join(words[1:]) if ahead else s.phase, s.span)
        if self.is_param(phase):
            return replace(s, phase=phase)
        known = fold(phase) in self.scope.phases
        if known and phase not in SKIPPABLE:
            playable = sorted(p for p in set(self.scope.phases.values()) if p in SKIPPABLE and p != "turn")
            self.report("C016", f"`{phase}` cannot be skipped: the engine does not play it", s.span,
                        "skip one of " + ", ".join(f"`{p}`" for p in playable) + ", or `your turn`")
        return replace(s, phase=f"next {phase}" if ahead and phase == "turn" else phase)

    def s_PhaseFails(self, s, _):
        phase = self.phase(s.phase, s.span)
        if fold(phase) in self.scope.phases and fold(phase) != "offensive roll phase":
            # the rulebooks say what failing is for the Offensive Roll Phase alone (Adventures, the status
            # that blinds: "has no effect of any kind": no Attack); the engine fails no other phase
            self.report("C016", f"only the Offensive Roll Phase can fail (the engine fails no {phase})",
                        s.span, "write `your Offensive Roll Phase fails`, or skip the phase: "
                        f"`skip your {phase}`")
        return replace(s, phase=phase)

    def s_Item(self, s, previous):
        joined = self.join(previous, s.name, n.Number(s.count, span=s.span), s.span) if s.joined else None
        if joined is None:
            self.report("C016", f"`{s.count} {s.name}` needs a verb", s.span,
                        f"write `gain {s.count} {s.name}` (or inflict, remove, ...)")
            return s
        return joined

    def s_VerbCall(self, s, previous):
        if s.joined and previous is not None:
            joined = self.join(previous, s.text, None, s.span, quiet=True)
            if joined is not None:
                return joined
        return self.expand(s)

    # -- ellipsis: "Gain 1 CP and 2 Hex", "Gain Mend & Hex", "Inflict Hex, Daze, and Venom on ..."
    def join(self, previous, name, count, span, quiet=False):
        base = previous.action if isinstance(previous, n.Actor) else previous
        if isinstance(base, (n.Gain, n.GainCP)) and count is not None and fold(name) == "cp":
            stmt = n.GainCP(count, span=span)  # `gain Evasive & 2 CP`
            return replace(previous, action=stmt) if isinstance(previous, n.Actor) else stmt
        if count is None and isinstance(base, (n.Inflict, n.Remove)):
            aimed = self.aimed_item(base, name, span)
            if aimed is not None:
                return aimed
        if isinstance(base, (n.Gain, n.GainCP)):
            make = lambda st: n.Gain(st, span=span)  # noqa: E731
        elif isinstance(base, n.Inflict):
            make = lambda st: n.Inflict(st, base.target, span=span)  # noqa: E731
        elif isinstance(base, n.Remove):
            make = lambda st: n.Remove(st, base.target, span=span)  # noqa: E731
        else:
            return None
        if quiet and self.lookup_status(name) is None:
            return None
        stmt = make(n.NamedStatus(self.status(name, span), count, span=span))
        if isinstance(stmt, n.Gain):  # `Gain 1 CP and 1 <status>`: each item is a gain
            self.not_restricted(stmt.status)
        return replace(previous, action=stmt) if isinstance(previous, n.Actor) else stmt

    def aimed_item(self, base, text: str, span):
        """The last item of a list, with where it goes: `Poison on a chosen opponent` after an
        Inflict (`from ...` after a Remove); read as that verb with the item, or None."""
        word = "inflict" if isinstance(base, n.Inflict) else "remove"
        found = re.match(r"(?P<name>.+?)\s+(?:on|from)\s+\S", text, re.IGNORECASE)
        if found is None or self.lookup_status(found.group("name")) is None:
            return None
        effect, problems = parse_effect(f"{word} {text}.", self.scope.book_for(self.ctx.kind))
        if effect is None or problems or len(effect.body) != 1:
            return None
        stmt = effect.body[0]
        many = stmt if isinstance(stmt, n.ChooseUpTo) and len(stmt.body) == 1 else None
        if many is not None:  # `... and Venom on up to 2 chosen opponents`
            stmt = many.body[0]
        if type(stmt) is not type(base):
            return None
        name = self.status(stmt.status.name, span)
        stmt = replace(stmt, status=n.NamedStatus(name, None, span=span), span=span)
        return replace(many, body=(stmt,), span=span) if many is not None else stmt

    # -- verbs
    def unknown_verb(self, call: n.VerbCall) -> None:
        """A phrase no verb matches, named as what it is: a play restriction or a card label, a typo
        of a word of the language or of a verb (`did you mean`), a phrasing the phrasebook has
        nearby; only a phrase that reads like a verb of its own is sent to `verbs:`."""
        what = not_an_effect(call.text)
        if what is not None:
            self.report("C005", what[0], call.span, what[1])
            return
        first, _, rest = call.text.partition(" ")
        guess = suggest(call.text, self.scope.verbs) or core_word_guess(call.text)
        printed = written_so(self.scope.book_for(self.ctx.kind), call.text, rest)
        if first.casefold() in ("they", "their", "them"):
            printed = ("`they` names no one here: write who (`your opponent receives 2 dmg`, `the "
                       "Attacker ...`); in a status effect's text it is the one afflicted with the token")
        hint = (f"did you mean `{guess}`?" if guess else None) or printed or (
            "declare it under `verbs:` in the hero file, or use a core verb "
            "(see docs/effect-language.md)")
        self.report("C005", f"unknown verb: `{call.text}`", call.span, hint)

    def expand(self, call: n.VerbCall) -> n.VerbCall:
        matches = match(call.text, self.scope.verbs)
        if not matches:
            self.unknown_verb(call)
            return call
        best = matches[0]
        same = [m for m in matches if m.pattern.literal_length == best.pattern.literal_length
                and m.verb is not best.verb]
        if same:
            self.report("C005", f"`{call.text}` matches two verbs: `{best.pattern.text}` and "
                        f"`{same[0].pattern.text}`", call.span, "make one pattern more specific")
        if best.pattern.text in self.verb_stack or len(self.verb_stack) >= MAX_VERB_DEPTH:
            chain = " → ".join(self.verb_stack + [best.pattern.text])
            self.report("C014", f"verbs expand into each other without end: {chain}", call.span)
            return call
        body = self.scope.verb_bodies.get(id(best.verb))
        if body is None:  # the verb's own `means` is broken; reported at its definition
            return replace(call, verb=best.pattern.text)
        try:
            expanded = substitute(body, best.args)
        except ArgumentError as exc:
            self.report("C015", str(exc), call.span, f"the verb is `{best.pattern.text}`")
            return call
        outer_span = self.verb_span
        self.verb_span = outer_span or call.span
        self.verb_stack.append(best.pattern.text)
        try:
            resolved = self.body(n.respan(expanded, self.verb_span))
        finally:
            self.verb_stack.pop()
            self.verb_span = outer_span
        return replace(call, verb=best.pattern.text, body=resolved)

    # -- dice tests
    def need_roll(self, span, what: str) -> None:
        if self.roll_dice is None:
            self.report("C016", f"{what} needs dice, but nothing is rolled here", span,
                        "roll first: `Roll 1 die: On [Symbol], ...`")

    def dice_test(self, test):
        if isinstance(test, n.AnyOf):
            return replace(test, tests=tuple(self.dice_test(t) for t in test.tests))
        self.need_roll(test.span, f"`On {_show_test(test)}`")
        faces = self.roll_faces
        if isinstance(test, n.Requirement):
            test = self.requirement(test)
        if self.roll_dice is None or not faces:
            return test
        if isinstance(test, n.ValueRange):
            if not any(test.low <= v <= test.high for v in faces):
                self.warn("C007", f"`On {_show_test(test)}` can never hold: the die shows "
                          f"{min(faces)}-{max(faces)}", test.span)
            return test
        why = dice.feasible(test, self.roll_dice, faces)
        if why:
            self.warn("C007", f"`On {_show_test(test)}` can never hold: {why}", test.span)
        elif self.final_dice and self.ctx.requirements:
            if all(dice.satisfiable_together([r, test], self.roll_dice, faces) is False
                   for r in self.ctx.requirements):
                reqs = " / ".join(f"`{_show_test(r)}`" for r in self.ctx.requirements)
                self.warn("C007", f"`On {_show_test(test)}` can never hold together with the "
                          f"ability's requirement {reqs} on {self.roll_dice} dice", test.span,
                          "check the printed text; `allow` this warning if it is printed so")
        return test

    def requirement(self, req: n.Requirement) -> n.Requirement:
        items = []
        for item in req.items:
            if isinstance(item, (n.SymbolNeed, n.OfAKind)) and item.symbol is not None:
                item = replace(item, symbol=self.symbol(item.symbol, item.span))
            items.append(item)
        return replace(req, items=tuple(items))

    # -- conditions and triggers
    def condition(self, c):
        if isinstance(c, n.InForm) and self.is_param(c.form):
            return c
        if isinstance(c, n.InForm):
            found = self.scope.forms.get(fold(c.form))
            if found is None and self.lookup_status(c.form) is not None:
                # `If in Shadows` where Shadows is a status: holding it, as `If you have Shadows`
                held = n.YouHave("fewer_than" if c.negated else "at_least", 1, c.form, "status", span=c.span)
                return self.condition(held)
            if found is None:
                self.report("C017", f"unknown form `{c.form}`", c.span,
                            self.did_you_mean(c.form, [f for _, f in self.scope.forms.values()]))
                return c
            return replace(c, form=found[1])
        if isinstance(c, n.OnSide) and not self.is_param(c.component):
            name = self.component(c.component, c.span, ("dial",))
            comp = self.scope.components.get(fold(name))
            sides = (comp.data.get("sides") or []) if comp is not None else []
            if comp is not None and not sides:
                self.report("C017", f"{comp.name} has no sides: it is never on one", c.span,
                            "give the dial `sides:` in the hero file, or test its value: "
                            f"`If {comp.name} is at least 3, ...`")
                return replace(c, component=name)
            if not sides or self.is_param(c.side):
                return replace(c, component=name)
            return replace(c, component=name, side=self.one_of(c.side, sides, c.span, f"side of {comp.name}"))
        if isinstance(c, n.AtPosition) and not self.is_param(c.component):
            name = self.component(c.component, c.span, ("track",))
            comp = self.scope.components.get(fold(name))
            if comp is None or comp.kind != "track" or self.is_param(c.position):
                return replace(c, component=name)
            return replace(c, component=name, position=self.one_of(c.position, comp.values, c.span,
                                                                    f"position of {comp.name}"))
        if isinstance(c, n.YouHave) and (c.kind.startswith("opponent") or c.kind == "health_than"):
            c = self.holder(c)
            self.last_target = c.holder  # `If your opponent has Hex, inflict Daze on them`
        if isinstance(c, n.YouHave) and c.kind in ("status", "opponent_status"):
            resolved = replace(c, what=self.status(c.what, c.span))
            self.stack_reach(resolved)
            return resolved
        if isinstance(c, n.YouHave) and c.kind == "roll_total":
            self.need_roll(c.span, "`the total`")
            return c
        if isinstance(c, n.YouHave) and c.kind == "component":
            if fold(c.what) not in self.scope.components and self.lookup_status(c.what):
                self.report("C003", f"`{c.what}` is a status effect, not a dial", c.span,
                            f"count its tokens: `If you have {max(c.count, 1)} {c.what}, ...`")
                return c
            resolved = replace(c, what=self.component(c.what, c.span, ("dial",)))
            self.dial_reach(resolved)
            return resolved
        return c

    def holder(self, c: n.YouHave) -> n.YouHave:
        """`If they have Hex`: `they` is the player named before (the one chosen, if chosen)."""
        if c.holder != "them":
            return c
        named = self.last_target
        if named is None and self.ctx.kind == "status":
            return replace(c, holder="self", kind=c.kind.removeprefix("opponent_"))  # the one with the token
        if named is None or named == "self":
            self.report("C016", "`they` / `that player` stands for a player named before it, and none is",
                        c.span, "name who: `If your opponent has ...`, `If the Defender has ...`")
            return replace(c, holder="opponent")
        holder = "chosen" if named in CHOSEN_TARGETS else named
        if holder in MANY:
            self.report("C016", "`they` here is several players: a condition reads one", c.span,
                        "name one: `If your opponent has ...`")
            holder = "opponent"
        elif holder == "chosen" and self.later:
            self.report("C016", "`they` here is read later, on its own, and cannot name the player "
                        "chosen now", c.span, "name who again: `If your opponent has ...`")
        return replace(c, holder=holder)

    def stack_reach(self, c: n.YouHave) -> None:
        """`If you have at least 2 Toxin` where its stack limit is 1 can never hold ("Stack Limits":
        no more tokens than the limit on a player): a warning, as for a dial."""
        status = self.scope.statuses.get(fold(c.what))
        limit = getattr(status, "stack_limit", None)
        if not isinstance(limit, int) or getattr(status, "slots", None):
            return
        never = {"at_least": c.count > limit, "exactly": c.count > limit, "more_than": c.count >= limit,
                 "fewer_than": c.count <= 0}[c.compare]
        if never:
            self.warn("C007", f"{status.name}'s stack limit is {limit}: this condition can never hold",
                      c.span, f"raise `stack_limit:` of {status.name}, or test at most {limit}")

    def dial_reach(self, c: n.YouHave) -> None:
        """`If Heat is 9` on a dial that runs 0 to 5 can never hold: a warning, like `On`s."""
        comp = self.scope.components.get(fold(c.what))
        if comp is None or comp.kind != "dial" or "range" not in comp.data:
            return
        low, high = comp.data["range"]
        never = {"at_least": c.count > high, "exactly": not low <= c.count <= high,
                 "more_than": c.count >= high, "fewer_than": c.count <= low}[c.compare]
        if never:
            self.warn("C007", f"{comp.name} runs from {low} to {high}: this condition can never hold", c.span)

    def trigger(self, t):
        if isinstance(t, n.TurnEdge) and t.whose == "this" and t.edge == "start":
            self.report("C016", "this turn has begun already: its start is past", t.span,
                        "write `At the start of your next turn, ...` or `At the end of this turn, ...`")
        if isinstance(t, (n.During, n.Conclude, n.DamagedByPhase)):
            return replace(t, phase=self.phase(t.phase, t.span))
        if isinstance(t, n.PhaseEdge):
            return replace(t, phase=self.phase(t.phase, t.span))
        if isinstance(t, (n.Reads, n.WouldExceed)):
            return replace(t, component=self.component(t.component, t.span, ("dial", "track")))
        if isinstance(t, n.Attacked):
            dt = t.damage_type if t.damage_type in (None, "any") else self.damage_type(t.damage_type, t.span)
            et = self.damage_type(t.except_type, t.span) if t.except_type else None
            return replace(t, damage_type=dt, except_type=et)
        if isinstance(t, n.SpendsStatus):
            return replace(t, status=self.status(t.status, t.span))
        if isinstance(t, n.PlaysCard) and t.kind is not None and fold(t.kind) not in CARD_KINDS:
            self.report("C016", f"`{t.kind} card` is no kind of card the engine tells apart", t.span,
                        "write `When you play a card`, or name its kind: " + ", ".join(
                            f"`an {k.title()} card`" if k[0] in "aeiou" else f"`a {k.title()} card`"
                            for k in CARD_KINDS))
        if isinstance(t, (n.Spent, n.GainedAtLimit, n.Gained)) and self.ctx.status is None:
            self.report("C016", "this trigger only means something in a status effect's text", t.span)
        return t

    # -- names
    def is_param(self, name) -> bool:
        return self.defining and isinstance(name, str) and _PARAM.fullmatch(name) is not None

    def did_you_mean(self, name: str, options) -> str | None:
        folded = {fold(o): o for o in options}
        close = difflib.get_close_matches(fold(name), list(folded), n=1, cutoff=0.6)
        return f"did you mean `{folded[close[0]]}`?" if close else None

    def symbol(self, name: str, span) -> str:
        if self.is_param(name):
            return name
        found = self.scope.symbols.get(fold(name))
        if found is None:
            options = list(self.scope.symbols.values())
            where = f"the dice key has {', '.join(f'[{o}]' for o in options)}" if options else \
                "no dice key is in scope here"
            folded = {fold(o): o for o in options}
            close = difflib.get_close_matches(fold(name), list(folded), n=1, cutoff=0.6)
            hint = f"did you mean `[{folded[close[0]]}]`?" if close else None
            self.report("C001", f"unknown symbol `[{name}]`; {where}", span, hint)
            return name
        return found

    def lookup_status(self, name: str) -> str | None:
        f = fold(name)
        if f in GENERIC_STATUSES:
            return f
        return self.scope.status_names.get(f) or self.scope.status_names.get(singular(name))

    def status(self, name: str, span) -> str:
        if self.is_param(name):
            return name
        if name == n.THESE_TOKENS:  # `remove 1 of these tokens`, printed in a status effect's own text
            if self.ctx.status is None:
                self.report("C016", "`these tokens` only means something in a status effect's text", span,
                            "name the status instead: `Remove 1 Venom.`")
                return name
            return self.ctx.status.name
        found = self.lookup_status(name)
        if found is None:
            owner = self.scope.others.get(fold(name))
            hint = self.did_you_mean(name, self.scope.status_names.values())
            if owner is not None:
                hint = (f"`{name}` is {owner[0]}'s own status effect (in {owner[1]}); a hero's effects "
                        "name its own and the shared ones: copy it into this hero's `status_effects`")
            comp = self.scope.components.get(fold(name))
            if comp is not None:  # `spend 2 <dial>` (designer QA: "unknown status effect")
                hint = f"`{comp.name}` is this hero's {comp.kind}, not a status effect" + (
                    f": a dial is moved with `increase {comp.name} by 2` or `reduce {comp.name} by 2`, "
                    f"and read with `If {comp.name} is at least 2, ...`" if comp.kind == "dial" else "")
            self.report("C002", f"unknown status effect `{name}`", span, hint)
            return name
        return found

    def component(self, name: str, span, kinds) -> str:
        if self.is_param(name):
            return name
        if fold(name) in ("this dial", "this track", "this component") and self.ctx.component is not None:
            return self.ctx.component.name  # printed on the component itself ("Whenever this dial reads 5")
        comp = self.scope.components.get(fold(name))
        if comp is None:
            self.report("C003", f"unknown component `{name}`", span,
                        self.did_you_mean(name, [c.name for c in self.scope.components.values()]), focus=name)
            return name
        if comp.kind not in kinds:
            kind = "set of forms" if comp.kind == "forms" else comp.kind
            hint = f"a form is a condition of its own: `If in {comp.values[0]}, ...`" \
                if comp.kind == "forms" and comp.values else None
            self.report("C016", f"{comp.name} is a {kind}; this needs a {' or '.join(kinds)}", span, hint,
                        focus=name)
        return comp.name

    def component_value(self, comp, value, span):
        values = comp.values
        if comp.kind == "dial":
            if not isinstance(value, int) or value not in values:
                self.report("C017", f"{comp.name} runs {values[0]}-{values[-1]}; `{value}` is not on it",
                            span)
            return value
        return self.one_of(str(value), values, span, f"value of {comp.name}")

    def one_of(self, value: str, options: list, span, what: str) -> str:
        for o in options:
            if fold(str(o)) == fold(value):
                return o
        self.report("C017", f"unknown {what}: `{value}`", span,
                    self.did_you_mean(value, [str(o) for o in options]) or
                    "it is one of " + ", ".join(f"`{o}`" for o in options))
        return value

    def zone(self, name: str, span) -> str:
        return self.component(name, span, ("zone",))

    def card_type(self, name: str | None, span) -> str | None:
        if self.is_param(name):
            return name
        if name is None:
            return None
        found = self.scope.card_types.get(fold(name)) or self.scope.card_types.get(singular(name))
        if found is None:
            self.report("C018", f"unknown card type `{name}`", span,
                        self.did_you_mean(name, self.scope.card_types.values()))
            return name
        return found

    def damage_type(self, name: str | None, span) -> str | None:
        if self.is_param(name):
            return name
        if name is None:
            return None
        found = self.scope.damage_types.get(fold(name))
        if found is None:
            more = fold(name) in ("more", "extra", "additional", "bonus")
            self.report("C011", f"unknown damage type `{name}`", span,
                        ("dmg added to an Attack is written `add 3 dmg`" if more else None) or
                        self.did_you_mean(name, self.scope.damage_types.values()) or
                        "the ruleset's chart has " + ", ".join(self.scope.damage_types.values()))
            return name
        return found

    def phase(self, name: str, span) -> str:
        if self.is_param(name):
            return name
        found = self.scope.phases.get(fold(name))
        if found is None:
            self.report("C012", f"unknown phase `{name}`", span,
                        self.did_you_mean(name, self.scope.phases.values()))
            return name
        return found


ROLLING_PHASES = ("Offensive Roll Phase", "Roll Phase")  # where a Roll Attempt may be given


def _never_rolling(moment: Any) -> bool:
    """Whether a trigger never comes while its player's Offensive Roll Phase still has Roll Attempts
    to perform: another phase, a turn's edge, being Attacked, an Attack made or landed."""
    if isinstance(moment, n.During):
        return moment.phase not in ROLLING_PHASES
    if isinstance(moment, n.PhaseEdge):
        return moment.edge != "start" or moment.phase not in ROLLING_PHASES
    return isinstance(moment, (n.TurnEdge, n.Attacked, n.Attacking, n.AttackLanded, n.Conclude,
                               n.Damaged, n.DamagedByPhase))


def _most(amount: Any) -> int | None:
    if isinstance(amount, n.Number):
        return amount.value
    if isinstance(amount, n.UpTo):
        return amount.value
    if isinstance(amount, n.Either):
        return max(amount.options)
    return None


def _show_test(test) -> str:
    return render_test(test)


_READ_FROM_DICE = (n.TotalRoll, n.ValueRolled, n.SymbolsRolled, n.EveryNRolled, n.Times)
_ALTERING = (n.Reroll, n.ChangeDice, n.AdjustDice)


def _reads_dice(node: Any) -> bool:
    """Whether a statement's amount is read from the dice of the current roll (not a nested body's)."""
    if isinstance(node, _READ_FROM_DICE):
        return True
    if not is_dataclass(node) or isinstance(node, n.Offsets):
        return False
    return any(_reads_dice(getattr(node, f.name)) for f in fields(node) if f.name not in ("body", "orelse"))


def _alters_dice(stmt: Any) -> bool:
    """A re-roll or change of dice, possibly under a condition or `you may` (and nothing else)."""
    if isinstance(stmt, _ALTERING):
        return True
    if isinstance(stmt, (n.If, n.May)) and stmt.body and not getattr(stmt, "orelse", ()):
        return all(_alters_dice(s) for s in stmt.body)
    return False


def _alterations_first(body: list) -> list:
    """`Roll 2 dice and deal dmg equal to the total roll value. If in Wolf Form, you may re-roll one of
    these dice.`: with no `Then` between them, effects are not in an order ("Resolving Text", "Then":
    only what follows a Then comes after), and the dmg counts the dice the re-roll leaves. An
    alteration of the dice is moved before an amount read from them, within the same roll."""
    out = list(body)
    i = 0
    while i < len(out):
        if isinstance(out[i], (n.Then, n.Roll, n.On, n.If, n.May, n.Choose)) or not _reads_dice(out[i]):
            i += 1
            continue
        j = i + 1
        while j < len(out) and not isinstance(out[j], (n.Then, n.Roll)):
            if _alters_dice(out[j]):
                out.insert(i, out.pop(j))
                i += 1
            j += 1
        i += 1
    return out


def _share_targets(out: list, joined: list[bool]) -> list:
    """`Inflict Hex, Daze, and Venom on a chosen opponent`: where the list's last item goes, every
    item before it in the list goes too; a chosen player is chosen once, by the first item, and the
    others go to the one chosen (`A chosen player gains Protect & Evasive`: one question); a list
    ending `on up to 2 chosen opponents` is one choice of players, and every item goes to them."""
    end = len(out) - 1
    while end > 0:
        last = out[end]
        if isinstance(last, n.ChooseUpTo) and joined[end]:
            inner, at = last.body[0], end
            while at > 0 and joined[at] and type(out[at - 1]) is type(inner) \
                    and _aimed_at(out[at - 1]) is None:
                at -= 1
            items = tuple(_aim(s, "chosen_players") for s in out[at:end])
            out[at:end + 1] = [replace(last, body=items + last.body)]
            joined[at:end + 1] = [joined[at]]
            end = at - 1
            continue
        end -= 1
    for end in range(len(out) - 1, 0, -1):
        last = out[end]
        who = _aimed_at(last)
        if not joined[end] or who is None:
            continue
        at = end
        while at > 0 and joined[at]:
            at -= 1
            if type(out[at]) is type(last) and _aimed_at(out[at]) in (None, who):
                out[at] = _aim(out[at], who)
        if who in CHOSEN_TARGETS:
            for i in range(at + 1, end + 1):
                if type(out[i]) is type(last):
                    out[i] = _aim(out[i], "chosen")
    return out


def _aimed_at(s: Any) -> str | None:
    if isinstance(s, n.Actor):
        return s.target
    return s.target if isinstance(s, (n.Inflict, n.Remove)) else None


def _aim(s: Any, who: str) -> Any:
    return replace(s, target=who)


def resolve_effect(effect: n.Effect, scope: Scope, ctx: Context,
                   defining: bool = False) -> tuple[n.Effect, list[Problem]]:
    """Resolve names, expand verbs and check dice tests in one effect."""
    r = Resolver(scope, ctx, defining)
    resolved = r.effect(effect)
    _numbers_that_fit(resolved, effect.span, r)
    return resolved, r.problems


MAX_NUMBER = 999  # the largest number an effect may say: every amount, count and value fits the bytecode
MAX_FACE = 99  # a die's faces are numbered 1 to 99 (the hero schema's Dice Key)
MAX_DICE_COUNTED = 99  # `On 3 [Claw]`, `4-of-a-kind`: the dice a test counts (an operand of one byte)


def _numbers_that_fit(node: Any, span, r: Resolver) -> None:
    """Every number the effect says is at most MAX_NUMBER (70,000 dmg failed to compile: a u16), and
    `up to N chosen` names no more players than a game has."""
    kind = type(node)
    if kind is tuple:
        for x in node:
            _numbers_that_fit(x, span, r)
        return
    if kind is int:
        if node > MAX_NUMBER:
            r.report("C016", f"`{node}` is more than an effect can count: numbers go up to {MAX_NUMBER}",
                     span or n.Offsets(0, 1))
        return
    names = _NODE_FIELDS.get(kind)
    if names is None:  # the first node of its class: which of its fields can hold numbers
        located = is_dataclass(node) and kind is not n.Offsets
        names = tuple(f.name for f in fields(node) if f.name != "span") if located else ()
        _NODE_FIELDS[kind] = names
    if not names:
        return
    here = getattr(node, "span", None) or span
    if kind is n.ValueRange and node.high > MAX_FACE:
        said = node.high if node.low == node.high else f"{node.low}-{node.high}"
        r.report("C016", f"`On {said}`: a die's faces are numbered 1 to {MAX_FACE}", here,
                 "name the faces the die has")
        return
    if (kind is n.SymbolNeed or kind is n.OfAKind) and node.count > MAX_DICE_COUNTED:
        r.report("C016", f"a dice test of {node.count} dice: a test counts at most {MAX_DICE_COUNTED}", here,
                 "count the dice the roll has")
        return
    if kind is n.ChooseUpTo and node.count > MAX_SEATS:
        r.report("C016", f"`up to {node.count} chosen ...`: a game has at most {MAX_SEATS} players",
                 here, f"write `up to {MAX_SEATS - 1} chosen opponents` or `each opponent`")
    for name in names:
        _numbers_that_fit(getattr(node, name), here, r)


_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


def parse_verb_body(text: str, book: Phrasebook | None = None) -> tuple[tuple | None, list[Problem]]:
    """A verb's `means`, parsed once: its statements, with parameters left in place."""
    effect, problems = parse_effect(text, book)
    if effect is None:
        return None, problems
    if effect.trigger is not None:
        span = effect.trigger.span or n.Offsets(0, 1)
        problems = problems + [Problem("C020", "a verb's `means` cannot have a trigger; put the "
                                       "trigger where the verb is used", span.start, span.end)]
    return effect.body, problems
