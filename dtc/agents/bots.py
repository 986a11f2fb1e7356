"""Bots: a random agent, and a heuristic one that plays sensibly.

The heuristic bot keeps dice towards the ability with the best expected worth
(its value times the exact chance of reaching it in the rolls left, with the
best keep for it, from `dtc.odds`; the `estimate` bot is the earlier version,
which guessed the chance, kept for comparison), activates
the best ability it meets, buys upgrades, plays and spends what helps now
(damage when attacking, prevention when hit, a card that changes or re-rolls
its final dice toward a better ability or an opponent's away from hers, one
that removes a negative status), changes form when a form's effects are read
(as its Attack concludes, before its Defensive Roll, as its turn ends), sells
what it cannot use, and defends.  It
reads abilities, cards and values from the compiled content, so it plays any
hero.  Each bot's own choices use an RNG seeded from the game.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product
from math import comb
from typing import Any

from dtc import odds
from dtc.dice import MAX_DICE_STATES, STRAIGHT_LENGTH, ways_to_fall
from dtc.dicethrone.requests import Act, Activate, ChooseDefense, RollDice, SellDown
from dtc.dicethrone.tables import chooses_first, sets_form, spent_chunks, uses
from dtc.opcodes import PREVENTING, TARGETS, Op
from dtc.vm import (
    ChooseDice,
    ChooseDirection,
    ChooseItems,
    ChooseOption,
    ChoosePlayer,
    ChoosePlayers,
    PickNumber,
    Request,
    YesNo,
    change_options,
)

PLANS_PER_HERO = 64  # worth plans a hero table keeps at hand (the odds book keeps more)
DEFENCE_ALTERATIONS = 256  # best Defensive Roll alterations a hero table keeps at hand
DEFENCE_SETTINGS = 64  # defensive abilities' outcome tables a hero table keeps (per form, track position...)
FORM_SWITCH_GAIN = 1.0  # what a change of form must be worth at its moment to spend a token on it
CHOICE_SPEND_WORTH = 2.0  # what a token's best `choose one` option must be worth now to spend it (2 dmg)
FRIENDLY = frozenset(TARGETS.index(t) for t in ("self", "chosen_teammate", "self_or_chosen_teammate"))
CHOSEN_TARGET = TARGETS.index("chosen")


class RandomBot:
    """Answers every request with a uniformly random legal answer."""

    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def answer(self, game, request: Request) -> Any:
        r = self.rng
        if isinstance(request, RollDice):
            return [i for i in range(len(request.dice)) if r.random() < 0.5]
        if isinstance(request, Activate):
            return r.randrange(len(request.choices))
        if isinstance(request, Act):
            return r.randrange(len(request.actions)) if r.random() < 0.3 else None
        if isinstance(request, SellDown):
            return r.sample(range(len(request.hand)), request.count)
        if isinstance(request, ChooseDefense):
            return r.randrange(len(request.options))
        return random_vm_answer(r, request)

    def observe(self, game, request: Request, answer: Any) -> None:
        """A saved answer was given in this bot's place: answer anyway (and drop it), so the bot's
        random choices stay where they would be and a resumed game plays on the same."""
        self.answer(game, request)


def random_vm_answer(r: random.Random, request: Request) -> Any:
    if isinstance(request, ChooseOption):
        return r.randrange(len(request.options))
    if isinstance(request, YesNo):
        return r.random() < 0.5
    if isinstance(request, PickNumber):
        return r.choice(request.choices)
    if isinstance(request, ChooseDice):
        dice = request.open_dice()
        count = r.randint(0, min(request.most, len(dice)))
        picks = r.sample(dice, count)
        if request.purpose == "change":
            return [(i, r.choice(request.allowed(i))) for i in picks]
        return picks
    if isinstance(request, ChoosePlayer):
        return r.choice(request.players)
    if isinstance(request, ChoosePlayers):
        return r.sample(request.players, r.randint(0, min(request.most, len(request.players))))
    if isinstance(request, ChooseItems):
        count = r.randint(request.least, request.most)
        return r.sample(range(len(request.items)), count)
    if isinstance(request, ChooseDirection):
        return r.choice(["up", "down"])
    raise TypeError(f"no answer for {type(request).__name__}")


# --------------------------------------------------------------- heuristic


def _tail(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) >= k)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def plan(table, option, values: tuple[int, ...], rolls_left: int) -> tuple[float, frozenset[int]]:
    """(chance of meeting `option`'s requirement in the rolls left, indices of dice to keep), for
    dice `values` in sorted order. Memoized on the hero's table: the same roll recurs across games."""
    key = ("plan", id(option), values, rolls_left)
    found = table.memo.get(key)
    if found is None:
        chance, keep = _plan(list(values), table.faces, option.requirement, rolls_left)
        found = table.memo[key] = (chance, frozenset(keep))
    return found


def _plan(values: list[int], faces: dict[int, int], requirement: dict, rolls_left: int
          ) -> tuple[float, set[int]]:
    n = len(values)
    items = requirement["items"]
    if all("count" in i for i in items):
        keep: set[int] = set()
        missing = 0
        share = 0.0
        for item in items:
            have = [i for i, v in enumerate(values) if faces.get(v) == item["symbol"] and i not in keep]
            keep.update(have[:item["count"]])
            short = max(0, item["count"] - len(have))
            missing += short
            if short:
                share += short * sum(1 for s in faces.values() if s == item["symbol"]) / len(faces)
        if not missing:
            return 1.0, keep
        q = share / missing
        return _tail(n - len(keep), 1 - (1 - q) ** rolls_left, missing), keep
    if len(items) == 1 and "of_a_kind" in items[0]:
        want = items[0]["of_a_kind"]
        allowed = [v for v in values if items[0].get("symbol") in (None, faces.get(v))]
        if not allowed:
            return 0.0, set()
        best, have = Counter(allowed).most_common(1)[0]
        keep = {i for i, v in enumerate(values) if v == best}
        q = 1 / len(faces)
        return _tail(n - len(keep), 1 - (1 - q) ** rolls_left, want - have), keep
    if len(items) == 1 and "straight" in items[0]:
        length = STRAIGHT_LENGTH[items[0]["straight"]]
        best_keep: set[int] = set()
        for low in sorted(faces):
            window = set(range(low, low + length))
            if not window <= set(faces):
                continue
            keep = {}
            for i, v in enumerate(values):
                if v in window and v not in keep:
                    keep[v] = i
            if len(keep) > len(best_keep):
                best_keep = set(keep.values())
        missing = length - len(best_keep)
        q = missing / len(faces) / max(missing, 1)
        return _tail(n - len(best_keep), 1 - (1 - q) ** rolls_left, missing), best_keep
    return 0.05, set()


def _best_alteration(worth, roll: tuple[int, ...], purpose: str, most: int, options: list,
                     die_values: list[int]) -> tuple[float, list]:
    """The best alteration of a sorted roll, as positions in it: every set of up to `most` dice
    changed to every value each may take (`options`, per position), or re-rolled (the mean over
    every face they could show), by `worth(dice)` (higher is better for the one altering them)."""
    now = worth(roll)
    best, picks = 0.0, []
    for m in range(1, most + 1):
        seen = set()
        for dice in combinations(range(len(roll)), m):
            shown = tuple(roll[i] for i in dice)
            if shown in seen:
                continue  # the same values at other positions: the same outcomes
            seen.add(shown)
            if purpose == "change":
                outcomes = list(product(*(options[i] for i in dice)))
            else:
                outcomes = list(product(die_values, repeat=m))
            if not outcomes:
                continue  # a die among them may take no value
            total, top, top_values = 0.0, -1e9, ()
            for new in outcomes:
                changed = list(roll)
                for i, v in zip(dice, new, strict=True):
                    changed[i] = v
                w = worth(tuple(changed))
                total += w
                if w > top:
                    top, top_values = w, new
            after = top if purpose == "change" else total / len(outcomes)
            if after - now > best + 1e-9:
                best = after - now
                picks = list(zip(dice, top_values, strict=True)) if purpose == "change" else list(dice)
    return best, picks


def prevention_worth_it(incoming, card, health: int) -> bool:
    """Whether the prevention card would prevent enough of the dmg coming now: 2 or more, or all a
    card prevents, or any of dmg that would defeat her (prevention acts on avoidable dmg only)."""
    coming = max(0, sum(a for a, t in incoming.amounts if t.avoidable) + incoming.added - incoming.prevented)
    kind, amount = card.prevention or ("some", 0)
    if kind == "amount":
        prevented = min(amount, coming)
        enough = prevented >= min(2, amount)
    else:
        prevented = (coming + amount) // 2 if kind == "half" else coming
        enough = prevented >= 2
    return prevented > 0 and (enough or incoming.total_before() >= health)


def _moment(effect: dict) -> str | None:
    """When a triggered effect is read: as its hero's Attack concludes ("attack"), as her turn ends
    ("turn_end"), or another time (None)."""
    trigger = effect.get("trigger") or {}
    if trigger.get("on") == "conclude" and trigger.get("with_attack"):
        return "attack"
    return "turn_end" if trigger.get("on") == "turn_edge" else None


def _options_of(request: ChooseDice) -> tuple:
    """A change's values per die of the request (all alike for a re-roll, which takes none)."""
    return tuple(request.allowed(i) for i in range(len(request.roll)))


def _in_order(found: tuple[float, list], order: list[int], purpose: str) -> tuple[float, list]:
    """An alteration worked out on the sorted roll, with positions in the roll as it lies."""
    gain, picks = found
    if purpose == "change":
        return gain, [(order[i], v) for i, v in picks]
    return gain, [order[i] for i in picks]


class HeuristicBot:
    """Plays sensibly from content alone (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._last_plan: tuple | None = None  # (player, offensive options, their worth plan)
        self._spend_uses: dict[int, str] = {}
        self._form_moment: str | None = None  # the moment a token changing form is spent for

    def answer(self, game, request: Request) -> Any:
        if isinstance(request, RollDice):
            return self.reroll(game, request)
        if isinstance(request, Activate):
            return self.activate(game, request)
        if isinstance(request, Act):
            return self.act(game, request)
        if isinstance(request, SellDown):
            hand = game.seats[request.player].hand
            order = sorted(range(len(hand)), key=lambda i: self.card_worth(game, request.player, hand[i]))
            return order[:request.count]
        if isinstance(request, ChooseDefense):
            # the one worth most against the Attack coming (the first listed, always: designer QA)
            seat = request.player
            p = game.seats[seat]
            defences = [x for x in p.abilities if x.kind == "defensive"]
            worths = [self.defence_worth(game, seat, list(p.components), x) for x in defences]
            return max(range(len(request.options)), key=lambda i: (worths[i] if i < len(worths) else 0.0, -i))
        return self.vm_answer(game, request)

    def observe(self, game, request: Request, answer: Any) -> None:
        """A saved answer was given in this bot's place: answer anyway (and drop it), so the bot's
        random choices stay where they would be and a resumed game plays on the same."""
        self.answer(game, request)

    # -- dice
    def reroll(self, game, request: RollDice) -> list[int]:
        """Keep the dice that make the worth of the ability finally activated the highest it can be
        in expectation (from the odds tables: each option's requirement, weighed by its worth)."""
        _, keep = self.plan_for(game, game.seats[request.player]).keep(
            request.dice, request.attempts - request.attempt)
        return [i for i in range(len(request.dice)) if i not in keep]

    def activate(self, game, request: Activate) -> int:
        """The ability worth most; after dice were altered, going back to the roll attempts left
        ("Offensive Roll Phase", step 3) when that is worth more in expectation."""
        choices = request.choices
        finishing = self.finishing(game, request)
        if finishing is not None:
            return finishing
        best = max(range(len(choices)), key=lambda i: choices[i].value)
        back = next((i for i, c in enumerate(choices) if c.ability < 0), None)
        if back is not None:
            left = game.rules.roll_attempts - game.attempts
            plan_ = self.plan_for(game, game.seats[request.player])
            if plan_.keep(request.dice, left)[0] > plan_.worth(request.dice) + 1e-9:
                return back
        return best

    @staticmethod
    def finishing(game, request: Activate) -> int | None:
        """The option whose sure dmg is the most, when it is enough to defeat the opponent (an Ultimate
        first: it cannot be defended); None when none is. The worth of statuses and cards counts for
        nothing once the game can be won (the bot took a richer option over a finishing blow)."""
        p = game.seats[request.player]
        opponents = game.opponents(request.player)
        if not opponents:
            return None  # none left standing: nothing to finish
        health = game.seats[opponents[0]].health
        best, top = None, (0, 0)
        for i, c in enumerate(request.choices):
            if c.ability < 0:
                continue
            ability = p.abilities[c.ability]
            dmg = ability.options[c.option].sure_dmg
            key = (int(ability.kind == "ultimate"), dmg)
            if dmg >= health and key > top:
                best, top = i, key
        return best

    def plan_for(self, game, p):
        """The worth plan for the player's offensive options now."""
        offense = p.offense()
        last = self._last_plan  # the player's abilities change only with upgrades: mostly the same plan
        if last is not None and last[0] is p and last[1] is offense:
            return last[2]
        plan_ = self.worth_plan(game, p, offense)
        self._last_plan = (p, offense, plan_)
        return plan_

    def worth_plan(self, game, p, offense):
        """The odds book's plan for the player's offensive options, kept at hand on the hero's table."""
        plans = p.table.memo.setdefault("worth plans", {})
        key = tuple((id(o[2]), o[4]) for o in offense)
        plan_ = plans.get(key)
        if plan_ is None:
            if len(plans) >= PLANS_PER_HERO:
                plans.clear()  # remade on demand from the book: memory stays flat over any run
            book = odds.book(game.a, game.rules.roll_attempts)
            plan_ = plans[key] = book.worth_plan(
                p.table.index, [(option.requirement, self.worth(p, i, option))
                                for i, _, option, _, _ in offense])
        return plan_

    @staticmethod
    def worth(p, ability: int, option) -> float:
        """What activating the option is worth: its value, half again for an Ultimate (it cannot be
        defended, reduced or answered)."""
        return option.value * (1.5 if p.abilities[ability].kind == "ultimate" else 1.0)

    # -- windows
    def act(self, game, request: Act) -> int | None:
        seat = request.player
        p = game.seats[seat]
        window = request.window
        self._form_moment = None
        best, best_score = None, 0.0
        scores = []
        for i, action in enumerate(request.actions):
            score = 0.0
            if action.kind in ("upgrade", "equip"):
                score = 5.0 + action.value - 0.2 * action.extra
            elif action.kind == "play" and not action.idle:
                card = p.hand[action.ref].card
                if card.alters_dice:
                    found = self.alteration(game, seat, window, card)
                    score = 0.0 if found is None else found[0] - 0.5 * card.cost
                    score = score if score > 0.5 else 0.0
                elif card.sets_form and self.form_moment(game, seat, window) is not None:
                    score = self.form_card_score(game, seat, window, card)
                else:
                    score = self.play_score(game, seat, window, card)
            elif action.kind == "spend" and not action.idle and (
                    ("bot_spent", action.ref, game.phase) not in p.used):
                score = self.spend_score(game, seat, window, action.ref)
            elif action.kind == "use" and window == "main" and (
                    ("bot_used", action.name, game.phase) not in p.used):
                # its Main Phase options (placing, crafting) in both Main Phases, before anything used
                # at any time, which waits for Main Phase (2); each once a phase, so nothing loops
                option = game.active == seat and any(
                    e["chunk"] == action.ref for _, e in game.main_options(seat))
                spends = self.spends_zone_cards(game, action.ref)
                later = game.phase == "Main Phase (2)" and not spends
                # cards kept for crafting are used up (scrapped) once nothing better can be crafted:
                # they were left on the zone for good (bot QA: ~2.4 Ore a game)
                done = game.phase == "Main Phase (2)" and spends and self.crafted_all(game, seat)
                if option or later or done:
                    score = 0.6 if option else 0.4
            elif action.kind == "sell" and game.phase == "Main Phase (2)":
                if len(p.hand) > game.rules.hand_limit - 2 and p.cp < game.rules.cp_max:  # at 15: nothing
                    worth = self.card_worth(game, seat, p.hand[action.ref])
                    score = 0.1 if worth <= 1.0 else 0.0
            scores.append(score)
            if score > best_score:
                best, best_score = i, score
        if best is not None and request.actions[best].kind == "spend":
            best = self.card_before_token(p, request.actions, scores, best)
        chosen = request.actions[best] if best is not None else None
        if chosen is not None and chosen.kind == "play" and p.hand[chosen.ref].card.sets_form:
            self._form_moment = self.form_moment(game, seat, window)  # its choice of form serves that
        if best is not None and request.actions[best].kind == "use":
            p.used.add(("bot_used", request.actions[best].name, game.phase))
        if best is not None and request.actions[best].kind == "spend" and \
                self.spend_use(game, request.actions[best].ref) in ("other", "form"):
            if self.spend_use(game, request.actions[best].ref) == "form":
                self._form_moment = self.form_moment(game, seat, window)
            # one token of a kind a phase: a second would undo the first (a form taken, then another)
            p.used.add(("bot_spent", request.actions[best].ref, game.phase))
        return best

    @staticmethod
    def card_before_token(p, actions, scores: list[float], spend: int) -> int:
        """A card worth playing now whose effect counts the tokens about to be spent (`If you have 1
        <status>, add 2 dmg`) is played first: spent, the token would leave the card nothing. The
        token can still be spent after it, in the same window."""
        status = actions[spend].ref
        return next((i for i, action in enumerate(actions) if action.kind == "play" and scores[i] > 0
                     and status in p.hand[action.ref].card.counts_own), spend)

    @staticmethod
    def crafted_all(game, seat: int) -> bool:
        """Whether every slot of her hero's crafted status effects holds its best (last) tier: no
        card kept on a zone can craft anything better."""
        p = game.seats[seat]
        crafted = False
        for status, entry in enumerate(game.a.statuses):
            tiers = entry.get("tiers") or []
            if not tiers or entry.get("owner") != p.table.name:
                continue
            crafted = True
            best = {tier["slot"]: i + 1 for i, tier in enumerate(tiers)}
            held = {tiers[t.tier - 1]["slot"]: t.tier for t in p.tokens.get(status, ()) if t.tier}
            if any(held.get(slot) != i for slot, i in best.items()):
                return False
        return crafted

    @staticmethod
    def spends_zone_cards(game, chunk: int) -> bool:
        """Whether the effect uses up cards kept on a component (scrapped off a zone, which a
        craft would have paid with)."""
        return any(ins.op == Op.USE_CARDS for ins in game.a.chunks[chunk].program)

    @staticmethod
    def play_score(game, seat: int, window: str, card) -> float:
        """How much playing the action card helps now (0: not at all)."""
        attack = game.attack
        score = 0.0
        if card.attack_modifier:
            score = card.value if attack is not None and attack.attacker == seat else 0.0
        elif card.prevents:  # prevention lasts its phase: only against damage on its way
            # to her, or (a card for `a chosen player`) to a teammate ("2v2 Team Game")
            helped = [seat] + (game.teammates(seat) if card.for_anyone else [])
            # and enough of it: Brace paid to halve 1 dmg, a third of the time (bot QA)
            worth = any(game.incoming[s].on_its_way()
                        and prevention_worth_it(game.incoming[s], card, game.seats[s].health) for s in helped)
            score = card.value if worth else 0.0
        elif card.alters_dice:
            score = 0.0
        elif window in ("defensive", "roll_end") and attack is not None and attack.defender == seat:
            score = card.value
        elif window == "main" and game.active == seat:  # not instants in their turn
            score = card.value - 0.3 * card.cost
        return score if game.seats[seat].cp >= card.cost else 0.0

    def form_card_score(self, game, seat: int, window: str, card) -> float:
        """A card that changes form, at a moment a form serves (her Attack concluding, her Defensive
        Roll, her turn's end): what the best form gains then, as a token changing form is spent for
        it (`FORM_SWITCH_GAIN`), with the rest of what the card does, less its cost; 0 when no form
        is worth that much more."""
        gain = self.form_choice(game, seat, self.form_moment(game, seat, window))[0]
        return gain + card.value - 0.3 * card.cost if gain >= FORM_SWITCH_GAIN else 0.0

    def spend_score(self, game, seat: int, window: str, status: int) -> float:
        """How much spending a token of the status helps now (0: not at all)."""
        use = self.spend_use(game, status)
        if use == "attack":
            attack = game.attack
            return 3.0 if attack is not None and attack.attacker == seat else 0.0
        if use == "damaged":
            return 2.0
        if use == "prevent":  # prevention lasts its phase ("Reducing Damage"): only against dmg coming
            return 2.0 if game.incoming[seat].on_its_way() else 0.0
        if use == "choose":
            worth = self.choice_worth(game, seat, status)
            return worth if worth >= CHOICE_SPEND_WORTH else 0.0
        if use == "form":
            moment = self.form_moment(game, seat, window)
            gain = 0.0 if moment is None else self.form_choice(game, seat, moment)[0]
            return gain if gain >= FORM_SWITCH_GAIN else 0.0
        if window == "main" and game.phase.startswith("Main Phase (1)"):
            return 1.0
        return 0.0

    def choice_worth(self, game, seat: int, status: int) -> float:
        """What the best option of a token's `When spent, choose one: ...` is worth now."""
        chunk = spent_chunks(game.a.statuses[status])[0]
        starts = game.vm.option_starts(chunk)
        return max(self.option_worth(game, seat, game.vm.option_steps(chunk, at)) for at in starts)

    def spend_use(self, game, status: int) -> str:
        """What a token of the status is spent for: "attack" (a modifier, or spent as an Attack
        concludes), "damaged" (spendable only when damaged), "choose" (it gives a choice of things:
        spent when one of them is worth it now), "prevent" (what it does when spent
        prevents dmg, or may: spent while dmg comes at her), "form" (to change a hero's form: see
        `form_moment`), or "other"; read once per status."""
        use = self._spend_uses.get(status)
        if use is None:
            entry = game.a.statuses[status]
            on = (entry.get("spendable") or {}).get("on")
            spent = spent_chunks(entry)
            use = "attack" if entry.get("attack_modifier") or on == "conclude" else \
                "damaged" if on == "damaged_by_phase" else \
                "form" if any(sets_form(game.a, c) for c in spent) else \
                "choose" if spent and all(chooses_first(game.a, c) for c in spent) else \
                "prevent" if any(uses(game.a, c, PREVENTING) for c in spent) else "other"
            self._spend_uses[status] = use
        return use

    # -- forms
    @staticmethod
    def form_moment(game, seat: int, window: str) -> str | None:
        """The moment of the turn whose effects a change of form would serve now: "attack" (her
        Attack concludes: what a form adds to it is read next), "defence" (she is about to make a
        Defensive Roll), "turn_end" (the last window of her turn); None otherwise."""
        attack = game.attack
        if window == "conclude" and attack is not None:
            if attack.attacker == seat:
                return "attack"
            if attack.defender == seat and not attack.ultimate and attack.dtype is not None \
                    and game.rules.damage_types[attack.dtype].defendable:
                return "defence"
            return None
        return "turn_end" if window == "discard" and game.active == seat else None

    def form_choice(self, game, seat: int, moment: str) -> tuple[float, int, int]:
        """(gain, component, form): the form worth the most more than the one she is in, at
        `moment`; gain 0 when none is better."""
        p = game.seats[seat]
        best = (0.0, -1, -1)
        for c, component in enumerate(p.table.components):
            if component.get("kind") != "forms":
                continue
            here = self.form_worth(game, seat, c, p.components[c], moment)
            for form in range(len(component["values"])):
                gain = self.form_worth(game, seat, c, form, moment) - here
                if gain > best[0] + 1e-9:
                    best = (gain, c, form)
        return best

    def form_worth(self, game, seat: int, component: int, form: int, moment: str | None) -> float:
        """What being in `form` is worth to `seat` at `moment` (None: at any, summed over the hero's
        effects): for a Defensive Roll, what her defence does in it on average."""
        p = game.seats[seat]
        if moment == "defence":
            components = list(p.components)
            components[component] = form
            return self.defence_worth(game, seat, components)
        if moment is None:
            return self.form_worths(game, p).get((component, form), 0.0)
        worth = 0.0
        for ability in p.abilities:  # the effects she has now, not those of upgrades she lacks
            for effect in ability.effects:
                if _moment(effect) == moment:
                    worth += self.chunk_form_worths(game, p, effect["chunk"]).get((component, form), 0.0)
        return worth

    def defence_worth(self, game, seat: int, components: list[int], defence=None) -> float:
        """The mean worth of her Defensive Roll with `components` against the Attack coming (dmg
        dealt, dmg prevented up to what comes, the rest), over every way her dice can fall; with
        `defence` (one of her defensive abilities), of that one, else of her first."""
        p = game.seats[seat]
        if defence is None:
            defence = next((x for x in p.abilities if x.kind == "defensive"), None)
        if defence is None or defence.chunk is None:
            return 0.0
        counts = p.table.memo.setdefault("defence dice", {})
        key = (defence.chunk, tuple(components), tuple(p.sides))
        dice = counts.get(key)
        if dice is None:
            if len(counts) >= DEFENCE_SETTINGS:
                counts.clear()
            dice = odds.defence_dice(game.a, p.table.index, defence.chunk, components, p.sides)
            if ways_to_fall(len(p.table.faces), dice) > MAX_DICE_STATES:
                dice = 0  # more ways to fall than can be weighed (`roll 7 dice instead` of 20 faces)
            counts[key] = dice
        if not dice:
            return 0.0
        setting = (defence.chunk, tuple(components), tuple(p.sides), dice)
        outcomes = self.defence_outcomes(game, seat, setting)
        incoming = game.incoming[seat]
        coming = max(0, incoming.total_before() - incoming.prevented)
        total = 0.0
        for rolled, (dealt, prevented, rest) in outcomes.items():
            total += odds.orderings(rolled) * (dealt + min(prevented, coming) + rest)
        return total / len(p.table.faces) ** dice

    def passes(self, game, seat: int, window: str) -> bool:
        """Whether `act` would pass in this window whatever it is offered: nothing in hand or in
        tokens would score (upgrades, sales and effects to use are scored when offered)."""
        if window == "main" and (seat == game.active or game.phase == "Main Phase (2)"):
            return False
        p = game.seats[seat]
        if (self._final_dice(game, seat, window) or self._defence_dice(game, seat, window)) and any(
                held.card.alters_dice and held.card.cost <= p.cp for held in p.hand):
            return False
        attack = game.attack
        incoming = game.incoming[seat]
        # `play_score`, read the other way round: a card scores only for the attacker, for the
        # defender after her roll, or against damage on its way
        attacking = attack is not None and attack.attacker == seat
        defending = (attack is not None and attack.defender == seat
                     and window in ("defensive", "roll_end"))
        threatened = incoming.on_its_way() or (game.many and any(
            game.incoming[s].on_its_way() for s in game.teammates(seat)))
        if attacking or defending or threatened:
            cp = p.cp
            for held in p.hand:
                card = held.card
                if card.kind != "action" or card.cost > cp or card.value <= 0:
                    continue
                if card.attack_modifier:
                    if attacking:
                        return False
                elif card.prevents:
                    if threatened:
                        return False
                elif defending and not card.alters_dice:
                    return False
        if window in ("conclude", "discard") and self.form_moment(game, seat, window) is not None \
                and any(held.card.sets_form and held.card.cost <= p.cp for held in p.hand):
            return False
        first_main = window == "main" and game.phase.startswith("Main Phase (1)")
        for status, tokens in p.tokens.items():
            if tokens:
                use = self.spend_use(game, status)
                if use == "damaged" or (use == "attack" and attacking) or (use == "other" and first_main) \
                        or (use == "prevent" and threatened) \
                        or (use == "choose" and self.choice_worth(game, seat, status) >= CHOICE_SPEND_WORTH) \
                        or (use == "form" and self.form_moment(game, seat, window) is not None):
                    return False
        return True

    # -- cards that alter dice
    @staticmethod
    def _final_dice(game, seat: int, window: str | None) -> bool:
        """Whether the dice on the table are the active player's offensive dice, kept for good, no
        ability activated yet: her own after her last roll attempt, an opponent's once she has
        announced (window None: whichever window a card was played in)."""
        if game.phase != "Offensive Roll Phase" or game.attack is not None or not game.ability_pending \
                or not game.roll or game.roll_faces is not game.seats[game.active].table.faces:
            return False
        if game.active == seat and game.attempts < game.rules.roll_attempts:
            return False  # her own dice, with roll attempts left: re-rolling is free, a card is not
        return window in (None, "announced") or (game.active == seat and window == "offensive")

    @staticmethod
    def _defence_dice(game, seat: int, window: str | None) -> bool:
        """Whether the dice on the table are a Defensive Roll made and not yet resolved, and `seat`
        the defender or her attacker: "Timing Conflicts and Interrupting" (the defender changing her
        own die before her ability resolves); window None: whichever window a card was played in."""
        attack = game.attack
        return attack is not None and game.defense_step == "rolled" and game.defense_chunk is not None \
            and bool(game.roll) and game.roll_owner == attack.defender \
            and seat in (attack.attacker, attack.defender) and window in (None, "defensive")

    def alteration(self, game, seat: int, window: str, card) -> tuple[float, list] | None:
        """(how much the card improves things for `seat`, the answer that does it) for a card that
        changes or re-rolls dice: on the active player's final offensive dice, the worth of the
        ability finally activated, more for her own ("Offensive Roll Phase": cards "after any step"),
        less for an opponent's ("Dice may be altered to prevent an Ultimate"); on a Defensive Roll
        before it resolves, what it does, more for the defender, less for her attacker. A re-roll in
        expectation. None when it cannot help now."""
        offence = self._final_dice(game, seat, window)
        if not offence and not self._defence_dice(game, seat, window):
            return None
        if card.dice_alteration is None:
            return None
        purpose, most, mode, value, _ = card.dice_alteration
        options = change_options(game.roll, game.roll_faces, mode, value)
        most = min(most, len(game.roll))
        if offence:
            return self.best_alteration(game, seat, purpose, most, options)
        return self.best_defence_alteration(game, seat, purpose, most, options)

    def best_alteration(self, game, seat: int, purpose: str, most: int,
                        options: tuple) -> tuple[float, list]:
        """(gain in worth, answer) of the best use by `seat` of up to `most` changes (each die to a
        value of its `options`) or re-rolls on the active player's offensive dice, under her worth
        plan: what her best play from the dice is worth with the roll attempts she has left
        (`WorthPlan.alteration`). The answer is (die, value) pairs for a change, dice for a re-roll."""
        plan_ = self.plan_for(game, game.seats[game.active])
        left = max(0, game.rules.roll_attempts - game.attempts)
        against = game.team_of[seat] != game.team_of[game.active]  # a teammate's dice she helps
        if purpose != "change" or len(set(options)) <= 1:  # every die alike: the plan's own search
            values = list(options[0]) if options else []
            return plan_.alteration(game.roll, purpose, most, values, left, against)
        sign = -1.0 if against else 1.0
        roll = game.roll
        order = sorted(range(len(roll)), key=roll.__getitem__)
        found = _best_alteration(lambda dice: sign * plan_.keep(dice, left)[0], tuple(roll[i] for i in order),
                                 purpose, most, [options[i] for i in order], [])
        return _in_order(found, order, purpose)

    def best_defence_alteration(self, game, seat: int, purpose: str, most: int,
                                options: tuple) -> tuple[float, list]:
        """`best_alteration` for a Defensive Roll: by what the defensive ability does with the dice
        (`defence_outcomes`), prevention counted up to the dmg coming; kept on the defender's table."""
        d = game.attack.defender
        p = game.seats[d]
        incoming = game.incoming[d]
        coming = max(0, incoming.total_before() - incoming.prevented)
        sign = -1.0 if seat != d else 1.0
        setting = (game.defense_chunk, tuple(p.components), tuple(p.sides), len(game.roll))
        outcomes = self.defence_outcomes(game, d, setting)
        roll = game.roll
        order = sorted(range(len(roll)), key=roll.__getitem__)
        ordered = tuple(roll[i] for i in order)
        memo = p.table.memo.setdefault("defence alterations", {})
        ordered_options = tuple(options[i] for i in order) if purpose == "change" else ()
        key = (setting, ordered, purpose, most, ordered_options, sign, coming)
        found = memo.get(key)
        if found is None:
            if len(memo) >= DEFENCE_ALTERATIONS:
                memo.clear()

            def worth(dice) -> float:
                dealt, prevented, rest = outcomes[tuple(sorted(dice))]
                return sign * (dealt + min(prevented, coming) + rest)

            found = memo[key] = _best_alteration(worth, ordered, purpose, most, ordered_options,
                                                 sorted(p.table.faces))
        return _in_order(found, order, purpose)

    @staticmethod
    def defence_outcomes(game, defender: int,
                         setting: tuple) -> dict[tuple[int, ...], tuple[int, int, float]]:
        """For every multiset of the dice the defender's defensive ability rolls: (dmg dealt to the
        attacker, dmg prevented, the worth of the rest: healing, CP, statuses), run through the VM
        against a sample state with her components (and her hero as the attacker: what it does to
        the attacker is told by numbers alone); worked out once per setting, kept on her table."""
        chunk, components, sides, count = setting
        table = game.seats[defender].table
        memo = table.memo.setdefault("defence outcomes", {})
        found = memo.get(setting)
        if found is not None:
            return found
        if len(memo) >= DEFENCE_SETTINGS:
            memo.clear()  # memory stays flat over any run
        found = memo[setting] = {}
        negative = {s for s, entry in enumerate(game.a.statuses) if entry.get("polarity") == "negative"}
        for dice, state, _ in odds.defence_runs(game.a, table.index, chunk, count, table.index, components,
                                                sides, logging=False):
            me, them = state.seats
            gained = sum(1.5 * len(held) * (-1 if s in negative else 1) for s, held in me.statuses.items())
            inflicted = sum(1.5 * len(held) for s, held in them.statuses.items() if s in negative)
            rest = 0.7 * (me.health - 50) + (me.cp - 2) + gained + inflicted - state.incoming[0]
            found[dice] = (state.incoming[1], state.prevented[0], rest)
        return found

    def card_worth(self, game, seat: int, card) -> float:
        c = card.card
        if c.kind == "upgrade":
            cost = game.upgrade_cost(seat, c)
            return 0.5 if cost is None else 6.0 - 0.3 * cost
        return c.value

    # -- questions inside effects
    def choose_option(self, game, request: ChooseOption) -> int:
        """The option worth the most now (`option_worth`); among equals, one at random."""
        if request.steps_at is None or not hasattr(game, "vm"):  # the order of Upkeep effects
            return self.rng.randrange(len(request.options))
        chunk, starts = request.steps_at
        worths = [self.option_worth(game, request.player, game.vm.option_steps(chunk, at)) for at in starts]
        best = max(worths)
        return self.rng.choice([i for i, w in enumerate(worths) if w >= best - 1e-9])

    def option_worth(self, game, seat: int, steps: list[tuple], now: bool = True) -> float:
        """A rough worth of an option's steps for `seat`: dmg dealt or added, dmg prevented, healing,
        CP, cards, statuses (good ones gained, bad ones inflicted), a skipped phase, a track moved
        the way the turn wants (forward in one's own turn), a form by what its hero's effects do in
        it. `now`: read from the state (no dmg added outside an Attack, no status past its limit);
        otherwise what the steps would do at best."""
        worth, amount, mine = 0.0, 1, True
        me = game.seats[seat]
        other = (seat + 1) % len(game.seats)  # one versus one
        chosen = TARGETS.index("opponent")  # what a `chosen` target is: what CHOOSE_PLAYER chose from
        for op, a, b, _ in steps:
            sign = 1.0 if mine else -1.0
            if op == Op.PUSH:
                amount = a
            elif op == Op.CHOOSE_PLAYER:
                chosen = a
            elif op == Op.ACTOR:
                a = chosen if a == CHOSEN_TARGET else a
                mine = self._on_side_of(game, seat, a) if now else a in FRIENDLY
            elif op == Op.DEAL:  # b: 0 the one acting, else her opponent
                hurts_me = mine if b == 0 else not mine
                worth += amount * (-1.0 if hurts_me else 1.0)
            elif op == Op.ADD_DMG:
                worth += amount * (not now or game.attacking(seat))
            elif op in PREVENTING:
                worth += (amount if op == Op.PREVENT else 3) * (not now or game.damage_coming(seat))
            elif op == Op.HEAL:
                worth += sign * 0.7 * amount * (not now or me.health < me.start_health + game.rules.heal_cap)
            elif op in (Op.GAIN, Op.INFLICT):
                holder = seat if mine else other
                target = holder if op == Op.GAIN or b == 0 else (other if holder == seat else seat)
                if not now or game.status_count(target, a) < game.stack_limit(target, a):
                    good = game.a.statuses[a].get("polarity") != "negative"
                    worth += 1.5 * (1.0 if good == (target == seat) else -1.0)
            elif op == Op.GAIN_CP:
                worth += sign * amount * (not now or me.cp < game.rules.cp_max)
            elif op == Op.LOSE_CP:
                worth -= sign * amount
            elif op == Op.STEAL_CP:
                worth += 2.0 * amount
            elif op == Op.DRAW:
                worth += sign * 1.5 * amount
            elif op == Op.DISCARD:
                worth -= sign * 1.5 * amount
            elif op == Op.SKIP:
                worth -= sign * 2.5  # an Income Phase is a card and a CP
            elif op == Op.MOVE:
                worth += (1.0 if (b == 1) == (game.active == seat) else 0.0) if now else 0.5
            elif op == Op.SET_COMP and now:
                worth += self.form_worth(game, seat, a, b, self._form_moment)
        return worth

    @staticmethod
    def _on_side_of(game, seat: int, target: int) -> bool:
        """Whether the players a step names (`ACTOR`) are `seat` or her teammates now (read at best,
        `option_worth` does not look at the game: what it finds is kept for every game)."""
        if target in FRIENDLY:
            return True
        name = TARGETS[target]
        attack = game.attack
        if name in ("attacker", "defender") and attack is not None:
            return (attack.attacker if name == "attacker" else attack.defender) == seat
        return False

    def form_worths(self, game, p) -> dict[tuple[int, int], float]:
        """What the hero's effects do only in a form, summed over all of them by (component, form)
        (`chunk_form_worths`); read once per hero."""
        worths = p.table.memo.get("form worths")
        if worths is None:
            worths = {}
            for index, chunk in enumerate(game.a.chunks):
                if chunk.hero == p.table.index:
                    for key, worth in self.chunk_form_worths(game, p, index).items():
                        worths[key] = worths.get(key, 0.0) + worth
            p.table.memo["form worths"] = worths
        return worths

    def chunk_form_worths(self, game, p, chunk: int) -> dict[tuple[int, int], float]:
        """What a chunk does only in a form (`If in <form>, add 2 dmg`), by (component, form), with
        `option_worth` at best; read once per chunk."""
        memo = p.table.memo.setdefault("chunk form worths", {})
        worths = memo.get(chunk)
        if worths is None:
            worths = memo[chunk] = {}
            program = game.a.chunks[chunk].program
            for i, ins in enumerate(program[:-1]):
                if ins.op != Op.IN_FORM or program[i + 1].op != Op.JUMP_IF_FALSE:
                    continue
                end = program[i + 1].operands[0]
                body = [(int(x.op), *x.operands, 0, 0, 0)[:4] for x in program[i + 2:] if x.offset < end]
                key = (ins.operands[0], ins.operands[1])
                worths[key] = worths.get(key, 0.0) + self.option_worth(game, p.seat, body, now=False)
        return worths

    def vm_answer(self, game, request: Request) -> Any:
        if isinstance(request, ChooseOption):
            return self.choose_option(game, request)
        if isinstance(request, YesNo):
            return True
        if isinstance(request, PickNumber):
            return request.choices[-1]
        if isinstance(request, ChooseDice):
            roll = request.roll
            if not roll or not request.most:
                return []
            if list(roll) == game.roll and self._final_dice(game, request.player, None):
                # a card altering the active player's offensive dice, hers or an opponent's
                return self.best_alteration(game, request.player, request.purpose, request.most,
                                            _options_of(request))[1]
            if list(roll) == game.roll and self._defence_dice(game, request.player, None):
                return self.best_defence_alteration(game, request.player, request.purpose, request.most,
                                                    _options_of(request))[1]
            dice = request.open_dice()
            if not dice:
                return []
            low = min(dice, key=lambda i: roll[i])
            if request.purpose == "change":
                return [(low, max(request.allowed(low)))]
            return [low]
        if isinstance(request, ChoosePlayer):  # harm an opponent, help herself (or a teammate)
            if request.purpose == "attack target":
                return self.attack_target(game, request)
            side = game.team_of[request.player]
            others = [p for p in request.players if game.team_of[p] != side]
            if request.hostile and others:
                return min(others, key=lambda p: game.seats[p].health)
            mine = [p for p in request.players if game.team_of[p] == side]
            if request.hostile is False and mine:
                # the one of her side with the most dmg coming (herself, when none has more)
                return max(mine, key=lambda p: (game.incoming[p].total_before(), p == request.player))
            return request.players[0]
        if isinstance(request, ChoosePlayers):  # harm opponents (the weakest first), help herself
            side = game.team_of[request.player]
            others = sorted((p for p in request.players if game.team_of[p] != side),
                            key=lambda p: game.seats[p].health)
            if request.hostile:
                return others[:request.most]
            if request.player in request.players:
                return [request.player]
            return list(request.players[:request.most]) if request.hostile is None else []
        if isinstance(request, ChooseItems):
            if request.purpose in ("place", "double the effect"):
                return list(range(request.most))
            if request.purpose == "craft":
                return [len(request.items) - 1] if request.most else []
            return list(range(request.least or min(1, request.most)))
        if isinstance(request, ChooseDirection):
            return "up" if game.active == request.player else "down"
        raise TypeError(f"no answer for {type(request).__name__}")


    @staticmethod
    def attack_target(game, request: ChoosePlayer) -> int:
        """The Defender, with intent. Choosing for her own Attack: an opponent the Attack may defeat
        (its best dmg against their Health), else a Leader when that draws the bonus card ("King of
        the Hill"), else the side closest to losing (the least Health). Choosing which of her side is
        Attacked (a targeting die's 5): the one with the most answers to it (cards and CP)."""
        players = request.players
        if request.player != game.active:
            return max(players, key=lambda p: (len(game.seats[p].hand) + game.seats[p].cp, -p))
        attack = game.attack
        dmg = attack.ability.options[attack.option].sure_dmg if attack is not None else 0
        weakest = min(players, key=lambda p: (game.seats[p].health, p))
        if game.seats[weakest].health <= dmg:
            return weakest
        if game.mode.leader_bonus_draw:
            leaders = [p for p in players if p in game.leaders()]
            if leaders:
                return min(leaders, key=lambda p: (game.seats[p].health, p))
        return weakest


class EstimateBot(HeuristicBot):
    """The heuristic bot as it was before exact odds: it guesses each option's chance."""

    name = "estimate"

    def reroll(self, game, request: RollDice) -> list[int]:
        seat = request.player
        p = game.seats[seat]
        values = request.dice
        left = request.attempts - request.attempt
        ordered = sorted(range(len(values)), key=values.__getitem__)
        in_order = tuple(values[i] for i in ordered)
        best_now = max((c.value for c in game.choices(seat)), default=0.0)
        target_ev, target_keep = best_now, None
        for _, _, option, _, worth in p.offense():
            chance, keep = plan(p.table, option, in_order, left)
            ev = chance * worth
            if ev > target_ev * 1.15 and chance < 1.0:
                target_ev, target_keep = ev, keep
        if target_keep is None:
            return []
        kept = {ordered[i] for i in target_keep}
        return [i for i in range(len(values)) if i not in kept]


BOTS = {"heuristic": HeuristicBot, "estimate": EstimateBot, "random": RandomBot}
