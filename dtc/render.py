"""Render: an AST back to effect text, in the language's canonical wording.

`dtc show` prints abilities this way, so a designer sees what dtc understood;
parsing the rendered text gives the same tree back (tested for all content).
"""

from __future__ import annotations

import re
from typing import Any

from dtc import nodes as n

_TARGETS = {
    "self": "yourself",
    "opponent": "your opponent",
    "chosen_opponent": "a chosen opponent",
    "chosen_player": "a chosen player",
    "chosen_teammate": "a chosen teammate",
    "attacker": "the Attacker",
    "defender": "the Defender",
    "each_opponent": "each opponent",
    "each_player": "each player",
    "chosen_players": "the players chosen",
    "leader": "the Leader",
    "left_opponent": "the opponent on your left",
    "right_opponent": "the opponent on your right",
    "chosen": "them",  # the player chosen before
    "another_player": "another player",
    "them": "them",
}
_SUBJECTS = {**_TARGETS, "self": "you", "self_or_chosen_teammate": "you or a chosen teammate",
             "chosen": "they", "them": "they"}


def render_effect(effect: n.Effect) -> str:
    """The whole effect as sentences."""
    lead = []
    if effect.once_per_turn:
        lead.append("once per turn")
    if effect.trigger is not None:
        lead.append(render_trigger(effect.trigger))
    sentences = _sentences(effect.body)
    if lead and sentences:
        sentences[0] = ", ".join(lead) + ", " + sentences[0]
    elif lead:
        sentences = [", ".join(lead)]
    labels = [_label(label) for label in effect.labels]
    return " ".join(_cap(s) + "." for s in labels + sentences)


def _label(label: n.Label) -> str:
    if label.name == "stack limit":
        return f"Stack Limit: {label.value}"
    return label.name.title()


def _sentences(body: tuple) -> list[str]:
    out: list[str] = []
    then = False
    for stmt in body:
        if isinstance(stmt, n.Then):
            then = True
            continue
        text = render_stmt(stmt)
        if getattr(stmt, "joined", False) and out and not then:
            out[-1] += " and " + text  # an elliptical item continues its sentence
            continue
        if then:
            guarded = text.split(" ", 1)[0] in ("if", "on", "for", "while", "when", "during", "at")
            text = ("then, " if guarded else "then ") + text
        out.append(text)
        then = False
    return out


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def render_body(body: tuple) -> str:
    """A nested body: clauses joined with `and`; after another player's clause, `you` is said (a
    subject carries to the clauses joined after it: `they lose 1 CP and you gain 1 CP`)."""
    texts = _sentences(body)
    stmts = [s for s in body if not isinstance(s, n.Then) and not getattr(s, "joined", False)]
    if len(stmts) == len(texts):
        carried = False  # another player's subject carries to this clause
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, n.Actor):
                carried = True
            elif not isinstance(stmt, n.NO_SUBJECT):
                if carried and not texts[i].startswith(("then", "if ", "on ", "for ", "while ", "when ",
                                                        "during ", "at ", "you ")):
                    texts[i] = "you " + texts[i]
                carried = False
    return " and ".join(texts)



def render_stmt(s: Any) -> str:
    """One statement, lowercase first word."""
    fn = _STMT.get(type(s))
    if fn is None:
        raise TypeError(f"cannot render {type(s).__name__}")
    return fn(s)


# -------------------------------------------------------------- amounts


def render_amount(a: Any) -> str:
    """A plain amount: `3`, `up to 2`, `1 or 2`, `2 × [Claw]`, `{n}`."""
    if isinstance(a, n.Number):
        return str(a.value)
    if isinstance(a, n.UpTo):
        return f"up to {a.value}"
    if isinstance(a, n.Either):
        return " or ".join(str(o) for o in a.options)
    if isinstance(a, n.Times):
        return f"{a.each} × {_symbols(a.symbols)}"
    if isinstance(a, n.Param):
        return "{" + a.name + "}"
    if isinstance(a, n.Sum):
        return " + ".join(render_amount(t) for t in a.terms)
    raise TypeError(f"not a plain amount: {type(a).__name__}")


def _parts(a: Any) -> tuple[str | None, str]:
    """(number before the unit, words after it) for amounts with suffixes."""
    if isinstance(a, n.Per):
        number, suffix = _parts(a.amount)
        return number, f"{suffix} for each {render_countable(a.count)}"
    if isinstance(a, n.Capped):
        number, suffix = _parts(a.amount)
        return number, f"{suffix} up to a maximum of {a.cap}"
    if isinstance(a, (n.TotalRoll, n.ValueRolled, n.ComponentValue, n.Half)) or _twice(a):
        return None, f" equal to {render_quantity(a)}"
    plain = (n.Number, n.Times)
    if isinstance(a, n.Sum) and all(isinstance(t, plain) for t in a.terms[:-1]) \
            and isinstance(a.terms[-1], n.Per) and isinstance(a.terms[-1].amount, plain):
        # `4 + 1 dmg per <status> token you have`: the `per` takes the last term, as printed
        number, suffix = _parts(a.terms[-1])
        return " + ".join([render_amount(t) for t in a.terms[:-1]] + [number]), suffix
    if isinstance(a, n.Sum) and not all(isinstance(t, plain) for t in a.terms):
        first, rest = a.terms[0], a.terms[1:]
        number, suffix = _parts(first)
        if number is None:  # `dmg equal to the Heat value plus 2`
            return None, suffix + "".join(f" plus {render_amount(t)}" for t in rest)
        for term in rest:  # `3 dmg plus 1 dmg for each [Claw] rolled` (only dmg is added up so)
            more, words = _parts(term)
            suffix += f" plus {more} dmg{words}"
        return number, suffix
    return render_amount(a), ""


def render_quantity(q: Any) -> str:
    if isinstance(q, n.TotalRoll):
        return "the total roll value"
    if isinstance(q, n.ValueRolled):
        return "the highest value rolled" if q.highest else "the value rolled"
    if isinstance(q, n.ComponentValue):
        return f"the {q.component} value"
    if isinstance(q, n.Half):
        return f"half {render_quantity(q.of)} (rounded {q.rounding})"
    if _twice(q):
        return f"twice {render_quantity(q.terms[0])}"
    if isinstance(q, n.Times) and q.each == 1:
        return f"the number of {_symbols(q.symbols)} rolled"
    raise TypeError(type(q).__name__)


def _twice(a: Any) -> bool:
    """`twice the value rolled`: a quantity added to itself."""
    return isinstance(a, n.Sum) and len(a.terms) == 2 and a.terms[0] == a.terms[1] and isinstance(
        a.terms[0], (n.TotalRoll, n.ValueRolled, n.ComponentValue))


def render_countable(c: Any) -> str:
    if isinstance(c, n.SymbolsRolled):
        return f"{_symbols(c.symbols)} rolled"
    if isinstance(c, n.EveryNRolled):
        return f"{c.n} {_symbols(c.symbols)} rolled"
    if isinstance(c, n.Excess):
        return f"increase above {c.limit}"
    if isinstance(c, n.ExtraRollAttempts):
        return "Roll Attempt beyond the first"
    if isinstance(c, n.TokensHeld) and c.status == n.THESE_TOKENS:
        return "token"
    if isinstance(c, n.TokensHeld) and c.holder != "self":
        return f"{c.status} token on {_TARGETS[c.holder]}"
    if isinstance(c, n.TokensHeld):
        return f"{c.status} token you have"
    if isinstance(c, n.CardsInHand):
        return "card in your hand"
    if isinstance(c, n.CPSpent):
        return "CP spent"
    if isinstance(c, n.TokensRemoved):
        return f"{c.status} spent" if c.status else "token removed"
    raise TypeError(type(c).__name__)


def _symbols(symbols: tuple) -> str:
    return " or ".join(f"[{s}]" for s in symbols)


def _dmg(verb: str, amount: Any, damage_type: str | None) -> str:
    number, suffix = _parts(amount)
    kind = f"{damage_type} " if damage_type and damage_type != "normal" else ""
    if number is None:
        return f"{verb} {kind}dmg{suffix}"
    return f"{verb} {number} {kind}dmg{suffix}"


def _plural(amount: Any, one: str, many: str) -> str:
    return one if isinstance(amount, n.Number) and amount.value == 1 else many


# ------------------------------------------------------------ statements


def _deal(s: n.Deal) -> str:
    if s.isolated:
        kind = f"{s.damage_type} " if s.damage_type and s.damage_type != "normal" else ""
        text = f"deal {render_amount(s.amount)} dmg as an isolated source of {kind}dmg"
    else:
        text = _dmg("deal", s.amount, s.damage_type)
    return text + (f" to {_TARGETS[s.target]}" if s.target else "")


def _status(ref: Any) -> str:
    if isinstance(ref, n.ThisToken):
        return "this token"
    if ref.name == n.THESE_TOKENS:
        return "all of these tokens" if ref.count is None else f"{render_amount(ref.count)} of these tokens"
    if ref.count is None:
        return ref.name
    return f"{render_amount(ref.count)} {ref.name}"


def _cards(ref: Any) -> str:
    kind = f"{ref.card_type} " if ref.card_type else ""
    if isinstance(ref, n.FoundCards):
        return f"the found {kind}cards"
    if ref.amount is None:
        return f"any number of {kind}cards from your hand"
    word = _plural(ref.amount, "card", "cards")
    return f"{render_amount(ref.amount)} {kind}{word} from your hand"


def _search(s: n.Search) -> str:
    where = "your deck" if s.top is None else f"the top {s.top} cards of your deck"
    kind = f"{s.card_type} " if s.card_type else ""
    word = "card" if s.count == 1 else "cards"
    return f"search {where} for {'all' if s.count is None else s.count} {kind}{word}"


def _side(side: str) -> str:
    if re.fullmatch(r"[A-Za-z][A-Za-z'’!-]*( [A-Za-z][A-Za-z'’!-]*)*", side):
        return f" to the {side} side"
    return f' to the "{side}" side'


def _flip(s: n.Flip) -> str:
    what = {"this_token": "it", "a_token": "a token"}.get(s.what)
    if what is None:
        what = f"a {s.name} token" if s.what == "status_token" else s.name
    return f"flip {what}" + (_side(s.side) if s.side is not None else " over")


def _move(s: n.Move) -> str:
    direction = f" {s.direction}" if s.direction else ""
    return f"move {s.component}{direction} {render_amount(s.amount)}"


def _adjust_dice(s: n.AdjustDice) -> str:
    dice = f"{render_amount(s.amount)} {'of your dice' if s.own else _plural(s.amount, 'die', 'dice')}"
    if s.how == "copy":
        return f"set {dice} to the value of another die"
    verb = {"up or down": "increase or decrease", "up": "increase", "down": "reduce"}[s.how]
    return f"{verb} {dice} by {s.by}"


def _face(face: Any) -> str:
    if face is None:
        return "any value"
    if isinstance(face, int):
        return str(face)
    return f"[{face}]"


def _actor(s: n.Actor) -> str:
    text = render_stmt(s.action)
    verb, _, rest = text.partition(" ")
    third = verb + ("es" if verb.endswith(("sh", "ch")) else "s")
    return f"{_SUBJECTS[s.target]} {third} {rest}".rstrip()


def _unit(verb: str, amount: Any, one: str, many: str) -> str:
    """`draw 2 cards`, `prevent 1 dmg for each [Shell] rolled`."""
    number, suffix = _parts(amount)
    if number is None:  # `gain CP equal to the value rolled`
        return f"{verb} {many}{suffix}"
    base = amount.amount if isinstance(amount, n.Per) else amount
    return f"{verb} {number} {_plural(base, one, many)}{suffix}"


def _heal(s: n.Heal) -> str:
    number, suffix = _parts(s.amount)
    return f"heal {number}{suffix}" if number is not None else f"heal{suffix}"


def _reroll(s: n.Reroll) -> str:
    whose = "of your dice" if s.own else "dice"
    if s.every:
        return f"re-roll all {whose}"
    if isinstance(s.amount, n.UpTo) and s.amount.value == n.ALL_DICE:
        return f"re-roll any number {'of your dice' if s.own else 'of these dice'}"
    dice = "of your dice" if s.own else _plural(s.amount, "die", "dice")
    return f"re-roll {render_amount(s.amount)} {dice}"


def _choose(s: n.Choose) -> str:
    how_many = "one" if s.count == 1 else str(s.count)
    return f"choose {how_many}: " + ", or ".join(render_body(o) for o in s.options)


_STMT = {
    n.Deal: _deal,
    n.Receive: lambda s: _dmg("receive", s.amount, s.damage_type),
    n.AddDamage: lambda s: _dmg("add", s.amount, None),
    n.Heal: _heal,
    n.GainCP: lambda s: _unit("gain", s.amount, "CP", "CP"),
    n.LoseCP: lambda s: f"lose {render_amount(s.amount)} CP",
    n.StealCP: lambda s: f"steal {render_amount(s.amount)} CP",
    n.Gain: lambda s: f"gain {_status(s.status)}",
    n.Inflict: lambda s: f"inflict {_status(s.status)}" + (f" on {_TARGETS[s.target]}" if s.target else ""),
    n.Remove: lambda s: f"remove {'all ' * (s.every and s.status.name != n.THESE_TOKENS)}{_status(s.status)}"
    + (f" from {_TARGETS[s.target]}" if s.target else ""),
    n.Transfer: lambda s: f"transfer {'all ' * s.every}{_status(s.status)}"
    + (f" from {_TARGETS[s.source]}" if s.source else "") + f" to {_TARGETS[s.dest]}",
    n.TierEffects: lambda s: "activate the effects below",
    n.Spend: lambda s: f"spend {_status(s.status)}",
    n.Draw: lambda s: _unit("draw", s.amount, "card", "cards"),
    n.Discard: lambda s: "discard your hand" if s.amount == n.Number(n.WHOLE_HAND) else (
        f"discard {render_amount(s.amount)} {_plural(s.amount, 'card', 'cards')}"),
    n.DrawUntil: lambda s: f"draw cards until you have {s.count} cards in hand",
    n.ReturnCards: lambda s: (f"draw {render_amount(s.amount)} {_plural(s.amount, 'card', 'cards')} "
                              "from your discard pile"),
    n.Search: _search,
    n.Shuffle: lambda s: "shuffle your deck",
    n.Place: lambda s: f"place {_cards(s.cards)} on {s.zone}",
    n.UseCards: lambda s: (f"use {render_amount(s.amount)} "
                           f"{(s.card_type + ' ') if s.card_type else ''}"
                           f"{_plural(s.amount, 'card', 'cards')} from {s.zone}"),
    n.Craft: lambda s: f"craft {s.status} from {s.zone}",
    n.Prevent: lambda s: _unit("prevent", s.amount, "dmg", "dmg"),
    n.PreventHalf: lambda s: f"prevent half of the incoming dmg (rounded {s.rounding})",
    n.PreventAll: lambda s: "prevent all incoming dmg",
    n.Roll: lambda s: (f"roll {render_amount(s.amount)} {(s.die + ' ') if s.die else ''}"
                       f"{_plural(s.amount, 'die', 'dice')}"),
    n.Reroll: lambda s: _reroll(s),
    n.ChangeDice: lambda s: (f"change {render_amount(s.amount)} "
                             f"{'of your dice' if s.own else _plural(s.amount, 'die', 'dice')} "
                             f"to {_face(s.face)}"),
    n.AdjustDice: lambda s: _adjust_dice(s),
    n.Increase: lambda s: f"increase {s.component} by " + "".join(x for x in _parts(s.amount) if x),
    n.Decrease: lambda s: f"reduce {s.component} by " + "".join(x for x in _parts(s.amount) if x),
    n.SetValue: lambda s: f"set {s.component} to {s.value}",
    n.Flip: _flip,
    n.Move: _move,
    n.Skip: lambda s: f"skip your {s.phase}",
    n.DoubleEffect: lambda s: (f"double the effect of {render_amount(s.amount)} "
                               f"{'different ' if s.different else ''}{s.status}"),
    n.AttackBecomes: lambda s: f"the Attack becomes {s.damage_type}",
    n.PhaseFails: lambda s: f"your {s.phase} fails",
    n.VerbCall: lambda s: s.text,
    n.Item: lambda s: f"{s.count} {s.name}",
    n.Actor: _actor,
    n.SpendAnyCP: lambda s: "spend any amount of CP",
    n.RaiseStackLimit: lambda s: f"increase your {s.status} stack limit by {render_amount(s.amount)}",
    n.ExtraRollAttempt: lambda s: f"perform {render_amount(s.amount)} additional "
    + ("Roll Attempt" if s.amount == n.Number(1) else "Roll Attempts"),
    n.DiscardRandom: lambda s: _unit("discard", s.amount, "random card", "random cards"),
    n.Cost: lambda s: f"spend {render_amount(s.cp)} {s.status or 'CP'} to "
    + " and ".join(render_stmt(a) for a in s.action),
    n.If: lambda s: f"{render_condition(s.condition)}, {render_body(s.body)}" + (
        f". Otherwise, {render_body(s.orelse)}" if s.orelse else ""),
    n.On: lambda s: f"on {render_test(s.test)}, {render_body(s.body)}",
    n.DoubleAttack: lambda s: "double the dmg of this Attack",
    n.SpendAnyTokens: lambda s: f"spend any number of {s.status}" + (
        f" to {render_body(s.action)}" if s.action else ""),
    n.ForEach: lambda s: f"for each {render_countable(s.count)}, {render_body(s.body)}",
    n.ChooseUpTo: lambda s: render_body(s.body).replace(
        "the players chosen", f"up to {s.count} chosen {s.who.removeprefix('chosen_')}s", 1),
    n.May: lambda s: f"you may {render_body(s.body)}",
    n.Must: lambda s: f"you must {render_body(s.body)}",
    n.Choose: _choose,
    # `If this Attack deals ...` says its moment itself: the resolver put it after the Attack lands
    n.Delayed: lambda s: (render_body(s.body) if isinstance(s.trigger, n.AttackLanded)
                          else f"{render_trigger(s.trigger)}, {render_body(s.body)}"),
    n.Instead: lambda s: f"{render_body(s.body)} instead",
}


# ----------------------------------------------------- tests and triggers


def render_test(t: Any) -> str:
    """A dice test or requirement: `2 [Paw]`, `4-of-a-kind [Paw]`, `Small Straight`, `1-2`."""
    if isinstance(t, n.ValueRange):
        return str(t.low) if t.low == t.high else f"{t.low}-{t.high}"
    if isinstance(t, n.OtherResult):
        return "any other result"
    if isinstance(t, n.AnyOf):  # `1, 3 or 5`; symbols each with `or`: `[Claw] or [Paw]`
        shown = [render_test(x) for x in t.tests]
        if not all(isinstance(x, n.ValueRange) for x in t.tests):
            return " or ".join(shown)
        return ", ".join(shown[:-1]) + " or " + shown[-1]
    parts = []
    for i, item in enumerate(t.items):
        if isinstance(item, n.SymbolNeed):
            # `4-of-a-kind [Claw]` would read as four Claws: a single symbol after any N-of-a-kind
            # keeps its count
            after_any_kind = i > 0 and isinstance(t.items[i - 1], n.OfAKind) and not t.items[i - 1].symbol
            bare = item.count == 1 and not after_any_kind
            parts.append(f"[{item.symbol}]" if bare else f"{item.count} [{item.symbol}]")
        elif isinstance(item, n.OfAKind):
            parts.append(f"{item.count}-of-a-kind" + (f" [{item.symbol}]" if item.symbol else ""))
        else:
            parts.append(f"{item.size.title()} Straight")
    return " ".join(parts)


_HAVE_WORDS = {"at_least": "", "more_than": "more than ", "fewer_than": "fewer than ", "exactly": "exactly "}


_PLAIN_POSITION = re.compile(r"[A-Za-z][A-Za-z'’!-]*( [A-Za-z][A-Za-z'’!-]*)*( \d+)?")


def _position(name: str) -> str:
    """A track position as written: plain words (a number may end them), else in quotes (`"1"`,
    one whose first word is a comparison's)."""
    first = name.split(" ", 1)[0].casefold()
    plain = _PLAIN_POSITION.fullmatch(name) and first not in ("least", "most")
    return name if plain else f'"{name}"'


def render_condition(c: Any) -> str:
    if isinstance(c, n.InForm):
        return f"if {'not ' if c.negated else ''}in {c.form}"
    if isinstance(c, n.OnSide):
        side = c.side if re.fullmatch(r"[A-Za-z][A-Za-z ]*", c.side) else f'"{c.side}"'
        return f"if {c.component} is on the {side} side"
    if isinstance(c, n.AtPosition):
        return f"if {c.component} is at {_position(c.position)}"
    if isinstance(c, n.YouDid):
        return "if you do not" if c.negated else "if you do"
    if c.kind == "component":  # a dial's value: `is 3` is exactly 3
        words = {**_HAVE_WORDS, "at_least": "at least ", "exactly": ""}[c.compare]
        return f"if {c.what} is {words}{c.count}"
    compare = _HAVE_WORDS[c.compare]  # a count: `have 2` is at least 2
    if c.compare == "fewer_than" and c.count == 1 and not c.what.startswith("{") \
            and c.kind in ("status", "opponent_status", "cp", "opponent_cp"):
        what = "CP" if c.kind.endswith("cp") else c.what
        who = "you have"
        if c.kind.startswith("opponent"):
            who = f"{_HOLDER_WORDS.get(c.holder, 'your opponent')} has"
        return f"if {who} no {what}"
    if c.kind == "roll_total":
        words = {**_HAVE_WORDS, "at_least": "at least ", "exactly": ""}[c.compare]
        return f"if the total rolled is {words}{c.count}"
    if c.kind == "dealt_this_turn":
        return f"if you dealt {compare}{c.count} dmg this turn"
    if c.kind == "attacked_this_turn":
        return "if you were Attacked this turn"
    if c.kind == "attack_dealt":
        return f"if this Attack deals {compare}{c.count} dmg"
    if c.kind == "health":
        return f"if you have {compare}{c.count} Health"
    if c.kind == "opponent_health":
        return f"if {_HOLDER_WORDS.get(c.holder, 'your opponent')} has {compare}{c.count} Health"
    if c.kind == "health_than":
        more = "more" if c.compare == "more_than" else "less"
        return f"if you have {more} Health than {_HOLDER_WORDS.get(c.holder, 'your opponent')}"
    holder = _HOLDER_WORDS.get(c.holder, "your opponent")
    if c.kind == "opponent_cards":
        return f"if {holder} has {compare}{c.count} cards in hand"
    if c.kind in ("opponent_status", "opponent_cp"):
        return f"if {holder} has {compare}{c.count} {c.what}"
    what = {"opponents": "opponent" if c.count == 1 else "opponents", "cp": "CP",
            "cards": "cards in hand"}.get(c.kind, c.what)
    return f"if you have {compare}{c.count} {what}"


_HOLDER_WORDS = {"opponent": "your opponent", "attacker": "the Attacker", "defender": "the Defender",
                 "chosen": "that player", "them": "they"}


def render_trigger(t: Any) -> str:
    """A trigger, lowercase first word."""
    if isinstance(t, n.During):
        return f"during your {'next ' if t.next else ''}{t.phase}"
    if isinstance(t, n.TurnEdge):
        whose = {"your": "your turn", "next": "your next turn", "this": "this turn"}[t.whose]
        return f"at the {t.edge} of {whose}"
    if isinstance(t, n.PhaseEdge):
        return f"at the {t.edge} of the {t.phase}"
    if isinstance(t, n.Conclude):
        return f"when you conclude your {t.phase}" + (" with an Attack" if t.with_attack else "")
    if isinstance(t, n.Attacked):
        text = "when Attacked" + (" by an opponent" if t.by_opponent else "")
        if t.damage_type == "any":
            text += " with any type of dmg" + (f" except {t.except_type}" if t.except_type else "")
        elif t.damage_type:
            text += f" with {t.damage_type} dmg"
        return text
    if isinstance(t, n.DamagedByPhase):
        return f"when you receive dmg from an opponent's {t.phase}"
    if isinstance(t, n.Damaged):
        return "when you receive dmg" + (" from a status effect" if t.from_status else "")
    if isinstance(t, n.SpendsStatus):
        return f"when you spend {t.status}"
    if isinstance(t, n.PlaysCard):
        if t.kind is None:
            return "when you play a card"
        return f"when you play {'an' if t.kind[0].lower() in 'aeiou' else 'a'} {t.kind} card"
    fixed = {
        n.Attacking: "when Attacking",
        n.AttackLanded: "once this Attack's dmg has landed",
        n.Spent: "when spent",
        n.GainedAtLimit: "if you gain this token while at Stack Limit",
        n.Gained: "when you gain this token",
        n.Healed: "when you heal",
        n.AnyTime: "at any time",
    }
    if type(t) in fixed:
        return fixed[type(t)]
    if isinstance(t, n.Reads):
        return f"whenever {t.component} reads {t.value}"
    if isinstance(t, n.WouldExceed):
        return f"if {t.component} would be increased above {t.limit}"
    raise TypeError(type(t).__name__)
