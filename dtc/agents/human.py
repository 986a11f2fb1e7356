"""Human: the terminal player. Shows the table, asks, checks the answer, asks again with a hint.

`q`, Ctrl-C or end of input raise `Quit`, which `dtc play` turns into a clean exit
(after saving, when asked to save; exit 130 after Ctrl-C).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sys
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import Any

from dtc.dicethrone.engine import Game
from dtc.dicethrone.narrate import ability_texts, card_texts, element_texts, spoken, symbols, table, who
from dtc.dicethrone.requests import Act, Activate, ChooseDefense, RollDice, SellDown
from dtc.dicethrone.tables import chooses_first, spent_chunks, uses
from dtc.disasm import requirement_text
from dtc.opcodes import PREVENTING
from dtc.session import Quit

try:
    import termios  # POSIX terminals: keys typed ahead can be thrown away
except ImportError:  # pragma: no cover - Windows
    termios = None
from dtc.vm import (
    ChooseDice,
    ChooseDirection,
    ChooseItems,
    ChooseOption,
    ChoosePlace,
    ChoosePlayer,
    ChoosePlayers,
    PickNumber,
    Request,
    YesNo,
)

# When in its phase a window opens, in players' words (a phase that has one window needs none)
WINDOW_MOMENTS = {
    "offensive": "(after the roll)",
    "announced": "(the ability announced)",
    "conclude": "(as it concludes with an Attack)",
    "defensive": "(after the Defensive Roll resolved)",
    "roll_end": "(at the end of the Roll Phase)",
    "targeting": "(the targeting die rolled, before it counts)",
    "then": "(at a Then)",
    "rolled": "(dice rolled by an effect, before they count)",
    "isolated": "(isolated dmg about to land)",
}
HELP = ("?", "help", "h")  # at a window: what the cards in hand say
ABILITIES = ("a",)  # at a window or a roll: what every hero's abilities do now
ELEMENTS = ("s",)  # at a window or a roll: every hero's status effects, dials and tracks, as the rules say
QUIT = ("q", "quit", "exit")  # at any prompt: leave the game, as Ctrl-C does
DEFENSE_MOMENTS = {  # the "defensive" window by how far the Defensive Roll has come
    "none": "(the Attack made, with no Defensive Roll against it)",
    "rolled": "(the Defensive Roll made, before it resolves)",
}


def read_fresh(prompt: str) -> str:
    """`input`, with what was typed before the question was shown thrown away: an Enter pressed for
    a question that never came (nothing to play in a window) must not answer the next one (it
    skipped Main Phases and stopped rolls: player QA). Piped answers are all read, in order. A
    prompt wider than the terminal is wrapped, the answer typed after its last line."""
    lines = fitted(prompt).split("\n")
    for line in lines[:-1]:
        print(line)
    if termios is not None and sys.stdin.isatty():
        # dropping keys typed ahead is a courtesy: a terminal that refuses it is read as it is
        with contextlib.suppress(termios.error, OSError, ValueError):
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
        # not `input`: at a terminal it reads a C string, and a line with a NUL byte in it looked
        # unfinished, so it was answered only after the next Enter (issue "Hardening")
        sys.stdout.write(lines[-1])
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")
    return input(lines[-1])


def say_fitted(text: str) -> None:
    """`print`, lines wrapped at word ends to the terminal's width (the terminal cut words in two)."""
    print(fitted(text))


def terminal_width() -> int | None:
    """The width to write lines at: the terminal's (at least 40); None when not writing to one."""
    return max(40, shutil.get_terminal_size().columns - 1) if sys.stdout.isatty() else None


def fitted(text: str) -> str:
    """The text with each line wider than the terminal wrapped at word ends, its continuation
    indented under it; as it is when not writing to a terminal (logs and pipes keep whole lines)."""
    width = terminal_width()
    if width is None:
        return text
    return "\n".join(line if len(line) <= width else _wrapped(line, width) for line in text.split("\n"))


def _wrapped(line: str, width: int) -> str:
    """One line wrapped, its continuation indented under it. A line of items set apart by two
    spaces or ` | ` (a sheet's Lairs, the dice, a legend) breaks only between items (`Troll Bridge`
    was cut in two: code review)."""
    indent = " " * (len(line) - len(line.lstrip()))
    body = line.lstrip()
    if "  " in body or " | " in body:
        parts = _ITEM_GAPS.split(body)
        room = width - len(indent) - 4  # an item wider than a line breaks at its own spaces
        body = "".join(part if i % 2 or len(part) > room else part.replace(" ", "\u00a0")
                       for i, part in enumerate(parts))
    wrapped = textwrap.fill(body, width, initial_indent=indent, subsequent_indent=indent + "    ",
                            break_long_words=False, break_on_hyphens=False, replace_whitespace=False)
    return wrapped.replace("\u00a0", " ") + (" " if line.endswith(" ") else "")


_ITEM_GAPS = re.compile(r"(\s{2,}| \| )")


class Human:
    name = "human"

    def __init__(self, read: Callable[[str], str] = read_fresh, say: Callable[[str], None] = say_fitted,
                 show: Callable[[Any, Request], str | None] | None = None):
        self.read = read
        self.say = say
        self.show = show  # what to draw before a question (a game's sheets), if anything
        self.asked = False  # nothing asked yet: the first question comes with the table
        # `w` answered: windows pass unasked until her turn ("turn", said in another's turn) or her
        # next Main Phase ("main", said in her own), or until dmg comes at her
        self.waiting: str | None = None
        self.threat_seen: tuple | None = None  # the dmg coming at her when last asked while waiting
        self.passed: tuple | None = None  # the situation she last let pass (`_situation`): not asked again
        self.table_shown: str | None = None  # the table as last shown to her

    def ask(self, prompt: str, parse, hint: str) -> Any:
        """Ask until `parse` accepts the text (it returns None to refuse)."""
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                raise Quit() from None
            except KeyboardInterrupt:
                raise Quit(interrupted=True) from None
            if text.strip().lower() in QUIT:
                raise Quit()
            value = parse(text.strip())
            if value is not None:
                return value
            self.say(f"  ? {hint}")

    def ask_or_read(self, game, player: int, prompt: str, parse, hint: str, reads: bool = True) -> Any:
        """`ask`, where (with `reads`) `?`, `a` and `s` show the cards, abilities or status effects
        and ask again; `parse` gives anything but a string for an answer."""
        while True:
            answer = self.ask(prompt, lambda t: (reads and _reading(t)) or parse(t), hint)
            if not (reads and isinstance(answer, str)):
                return answer
            self.say(_read_out(game, player, answer))

    def show_table(self, game, player: int, again: bool = True) -> None:
        """Both heroes and her hand; with `again` False, not when she was just shown the same (the
        table came twice a turn, at the Main Phase and again at each roll: player QA)."""
        shown = table(game, player, terminal_width() or 100)
        if again or shown != self.table_shown:
            self.say(shown)
        self.table_shown = shown

    # ------------------------------------------------------------- requests
    def answer(self, game, request: Request) -> Any:
        handler = getattr(self, "on_" + type(request).__name__)
        if not self.asked and isinstance(game, Game) and not _draws_the_table(request):
            self.show_table(game, request.player)  # a new or resumed game: see it before deciding
        self.asked = True
        return handler(game, request)

    def on_RollDice(self, game, r: RollDice):
        self.say("")
        self.show_table(game, r.player, again=False)
        self.say(f"dice: {_numbered(game, r.player, r.dice)}   (roll attempt {r.attempt} of {r.attempts})")
        met = [c.label for c in game.choices(r.player)]
        self.say(f"these dice meet: {', '.join(met) or 'nothing yet'}")
        n = len(r.dice)
        while True:
            picked = self.ask_or_read(game, r.player, f"re-roll which dice? (positions 1-{n}, e.g. `1 3`; "
                                      "Enter keeps all and stops rolling; ?: your cards, a: abilities, s: "
                                      "statuses) > ", lambda t: _positions(t, n),
                                      f"give different dice positions from 1 to {n} (the #number before a "
                                      "die, not its value), or press Enter")
            if picked or met or r.attempt >= r.attempts or self.ask(
                    f"these dice meet nothing and {r.attempts - r.attempt} roll attempt(s) are left: "
                    "stop rolling anyway? [y/n] > ", _yes_no, "answer y or n"):
                return picked

    def on_Activate(self, game, r: Activate):
        self.say(f"final dice: {symbols(game, r.player, list(r.dice))}")
        for i, c in enumerate(r.choices, 1):
            self.say(f"  [{i}] {c.label}{_needs(game, r.player, c)}{_does(game, r.player, c)}")
        self.say("  [0] no ability")
        count = len(r.choices)
        back = any(c.ability < 0 for c in r.choices)  # back to the roll attempts left
        what = "the ability to activate" + (" (or to re-roll)" if back else "")
        picked = self.ask("activate which? > ", lambda t: _number(t, 0, count),
                          f"{_type_number(1, count)}: {what}, or 0 for none")
        return None if picked == 0 else picked - 1

    def on_Act(self, game, r: Act):
        own_turn = getattr(game, "active", r.player) == r.player
        incoming = getattr(game, "incoming", None)
        threatened = incoming is not None and game.accumulate and incoming[r.player].on_its_way()
        if self.waiting:
            if own_turn and (self.waiting == "turn" or r.window == "main"):
                self.waiting = None
            elif not threatened:
                return None  # `w`: passing until your turn, or until dmg comes at you
            else:
                threat = threat_of(incoming, r.player)
                if threat == self.threat_seen:
                    return None  # the same dmg she was asked about and let come: not again
                self.threat_seen = threat
        later = not threatened and not (own_turn and r.window == "main")  # an any-time effect waits
        if r.actions and all(action.idle or _early(game, r.player, action) or (later and action.kind == "use")
                             for action in r.actions):
            # nothing offered could do anything now, or only prevent dmg not yet coming: she is
            # asked again in a window after dmg comes at her, which is when it serves; an effect
            # usable at any time alone (use a card from a zone) is offered in her Main Phase and when
            # dmg comes at her, not at every step of every turn (player QA: 7 stops an Attack)
            return None
        if not own_turn and r.window == "offensive" and not threatened:
            # another hero is still rolling: her dice are altered to better effect once she stops
            # (the window after she announces her ability, when she chooses again)
            return None
        situation = _situation(game, r, _dmg_on_its_way(game))
        # isolated dmg is each time its own instance, and her Main Phase always asks
        if r.actions and _seen(situation, self.passed) and not (own_turn and r.window == "main") \
                and r.window != "isolated":
            # she let this pass already: the same turn, the same dmg on its way, no new offers or dice
            # (a player holding an instant card was stopped ~115 times a game, 3 times over the
            # same dmg: player QA); anything new asks again, and her Main Phase always does
            return None
        moment = WINDOW_MOMENTS.get(r.window, "")
        if r.window == "defensive":  # none: undefendable, an Ultimate, or no defensive ability
            moment = DEFENSE_MOMENTS.get(getattr(game, "defense_step", ""), moment)
        turn = "" if own_turn else f", {who(game, game.active)}'s turn"  # her Main Phase is not yours
        self.say(f"-- {game.phase}{' ' + moment if moment else ''}{turn}: you may act --")
        if r.window == "main":
            self.show_table(game, r.player)
        if incoming is not None and game.accumulate and incoming[r.player].total_before():
            mine = incoming[r.player]  # what a prevention card would act on
            self.say(f"incoming for you so far: {mine.total_before()} dmg, {mine.prevented} prevented"
                     + (f", halved {mine.halvings}x" if mine.halvings else ""))
        for i, action in enumerate(r.actions, 1):
            self.say(f"  [{i}] {action.label}{_early(game, r.player, action)}")
        count = len(r.actions)
        # `w` passes the windows to come: in another's turn until hers, in hers until her next Main
        # Phase (none in a Main Phase: it comes next to nothing)
        until = "your turn" if not own_turn else None if r.window == "main" else "your next Main Phase"
        waits = f"w: pass until {until}; " if until else ""
        while True:
            picked = self.ask(f"do what? (Enter passes; {waits}?: your cards; a: abilities; s: statuses) > ",
                              lambda t: 0 if t == "" else _reading(t) or ("w" if until and t.lower() == "w"
                                                                         else _number(t, 1, count)),
                              f"{_type_number(1, count)}, or press Enter to pass ("
                              + (f"{waits}you are asked again if dmg comes at you; " if until else "")
                              + "?: read your cards; a: every hero's abilities; s: their status effects, "
                                "dials and tracks)")
            if picked in ("?", "a", "s"):
                self.say(_read_out(game, r.player, picked))
            elif isinstance(picked, int) and picked > 0 and r.actions[picked - 1].idle:
                chosen = r.actions[picked - 1]  # a card (or token) that would be used up for nothing
                if self.ask(f"{chosen.name} would do nothing now: {chosen.kind} it anyway? [y/n] > ",
                            _yes_no, "answer y or n"):
                    break
            else:
                break
        if picked == "w":
            # dmg coming later is asked about afresh; what comes now, which she lets come, is not
            # (pressing `w` again at it asked her about the same 9 dmg three times: player QA)
            threat = threat_of(incoming, r.player) if threatened else None
            self.waiting, self.threat_seen = ("main" if own_turn else "turn"), threat
            self.say(f"  (passing until {until}, unless dmg comes at you)")
            return None
        if picked and self.waiting:
            self.threat_seen = None  # she acts: the window asks her again (she lost it: player QA)
        self.passed = situation if picked == 0 else None
        return None if picked == 0 else picked - 1

    def on_SellDown(self, game, r: SellDown):
        cards = "1 card" if r.count == 1 else f"{r.count} cards"
        self.say(f"your hand is over the limit: sell {cards}")
        for i, name in enumerate(r.hand, 1):
            self.say(f"  [{i}] {name}")
        n = len(r.hand)
        while True:
            picked = self.ask(f"sell which {r.count}? (?: what the cards say) > ",
                              lambda t: "?" if _reading(t) == "?" else _exactly(t, n, r.count),
                              ("give 1 number" if r.count == 1 else f"give {r.count} different numbers")
                              + f" from 1 to {n} (?: read the cards)")
            if picked != "?":
                return picked
            self.say(card_texts(game, r.player))

    def on_ChooseDefense(self, game, r: ChooseDefense):
        # each with its dice and what it does, as the activation menu says (designer QA: names alone)
        defences = [x for x in game.seats[r.player].abilities if x.kind == "defensive"]
        for i, name in enumerate(r.options, 1):
            x = defences[i - 1] if i <= len(defences) else None
            said = game.a.chunks[x.chunk].text if x is not None and x.chunk is not None else ""
            dice = f" ({x.dice} {'die' if x.dice == 1 else 'dice'})" if x is not None and x.dice else ""
            self.say(f"  [{i}] {name}{dice}" + (f": {said}" if said else ""))
        n = len(r.options)
        return self.ask_or_read(game, r.player, "defend with? (?: your cards, a: abilities, s: statuses) > ",
                                lambda t: _number(t, 1, n), f"{_type_number(1, n)}: the defensive ability to "
                                "roll for") - 1

    def on_ChooseOption(self, game, r: ChooseOption):
        self.say(f"{spoken(r.owner)}: {r.question}")
        if r.printed and len(r.offered) == len(r.options):  # the printed numbers, shut ones shown
            for i, label in enumerate(r.printed):
                self.say(f"  [{i + 1}] {label}" if i in r.offered else f"  [-] {label} (nothing to do now)")
            numbers = ", ".join(str(i + 1) for i in r.offered)
            return self.ask("choose > ", lambda t: r.offered.index(int(t) - 1) if _digits(t)
                            and int(t) - 1 in r.offered else None,
                            f"type one of {numbers}: the option to take")
        for i, label in enumerate(r.options, 1):
            self.say(f"  [{i}] {label}")
        n = len(r.options)
        if r.question.startswith("which resolves first"):  # an order: Enter keeps the one listed
            return self.ask("choose (Enter: in the order listed) > ",
                            lambda t: 1 if t == "" else _number(t, 1, n),
                            f"{_type_number(1, n)}: the effect to resolve first, or Enter for [1]") - 1
        return self.ask("choose > ", lambda t: _number(t, 1, n),
                        f"{_type_number(1, n)}: the option to take") - 1

    def on_YesNo(self, game, r: YesNo):
        if _says_more(r.text, r.prompt):
            self.say(f"  ({spoken(r.owner)}: {r.text})")
        reads = isinstance(game, Game)  # `?`, `a`, `s` read the Dice Throne table first (player QA)
        hint = "answer y or n" + (" (?: your cards, a: abilities, s: statuses)" if reads else "")
        prompt = f"{_from(r.owner, r.prompt)}{r.prompt}{_named_values(game, r)}? [y/n] > "
        return self.ask_or_read(game, r.player, prompt, _yes_no, hint, reads)

    def on_PickNumber(self, game, r: PickNumber):
        choices = r.choices
        return self.ask(f"{_from(r.owner, r.prompt)}{r.prompt}{_named_values(game, r)}: how many? "
                        f"({', '.join(map(str, choices))}) > ",
                        lambda t: int(t) if _digits(t) and int(t) in choices else None,
                        f"type one of {', '.join(map(str, choices))}")

    def on_ChooseDice(self, game, r: ChooseDice):
        faces = getattr(game, "roll_faces", None) or {}  # the dice on the table may be another hero's
        self.say(f"{spoken(r.owner)}: dice " + "  ".join(  # with the positions an answer names
            f"#{i} {v}:{game.a.symbols[faces[v]]}" if v in faces else f"#{i} {v}"
            for i, v in enumerate(r.roll, 1)))
        n = len(r.roll)
        dice = "1 die" if r.most == 1 else f"up to {r.most} dice"
        if r.purpose == "change":
            return self._change(game, r, dice)
        if n == 1:
            return self.ask("re-roll the die? (1 re-rolls it; Enter for none) > ",
                            lambda t: _positions(t, 1, 1), "type 1 to re-roll the die, or press Enter")
        return self.ask(f"re-roll {dice} of these (positions; Enter for none) > ",
                        lambda t: _positions(t, n, r.most),
                        f"give {'one position' if r.most == 1 else f'at most {r.most} different positions'} "
                        f"from 1 to {n}{'' if r.most == 1 else ', e.g. `1 3`'}, or Enter for none")

    def _change(self, game, r: ChooseDice, dice: str) -> list[list[int]]:
        """`die=value` pairs, the value as a number or a symbol name (`3=Claw`, `3=[Claw]`) when the
        symbol is on one face only; Enter changes nothing after a yes, as the card is spent all the same."""
        n, values = len(r.roll), ", ".join(map(str, r.values))
        options = [r.allowed(i) for i in range(n)]
        alike = len(set(options)) == 1
        names = _symbol_faces(game, r.values) if alike else {}
        pairs = "a `die=value` pair" if r.most == 1 else "`die=value` pairs"
        shown = sorted({game.a.symbols[game.roll_faces[v]] for v in names.values()}) if names else []
        named = f" or a symbol ({', '.join(shown)})" if shown else ""
        if alike:
            offered = f"values {values}"
            among = f"a die from 1 to {n}, a value among {values}{named}"
            example = f"{n}={r.values[-1]}"
        else:  # each die its own values (up or down by 1, to another die's value)
            offered = "; ".join(f"#{i} to {' or '.join(map(str, o))}" for i, o in enumerate(options, 1) if o)
            among = f"a die and a value it may take ({offered})"
            first = next(i for i, o in enumerate(options) if o)
            example = f"{first + 1}={options[first][-1]}"
        hint = (f"write e.g. `{example}`: {among}"
                f"{'' if r.most == 1 else f'; at most {r.most} pairs'}; or Enter for none")
        spent = spoken(r.owner) if " › card " in r.owner else ""  # a card's CP are paid: say so
        while True:
            picked = self.ask(f"change {dice}: {pairs} ({offered}; Enter for none) > ",
                              lambda t: _changes(t, n, r.most, options, names), hint)
            if picked or not spent or self.ask(f"change no die? ({spent} is spent all the same) [y/n] > ",
                                               _yes_no, "answer y or n"):
                return picked

    def on_ChoosePlayer(self, game, r: ChoosePlayer):
        names = ", ".join(f"P{p + 1}" for p in r.players)
        if r.purpose == "attack target":  # the Targeting Roll Phase: who they are, and how they stand
            standing = "; ".join(f"P{p + 1} {game.seats[p].table.name} (health {game.seats[p].health})"
                                 + (", a Leader" if game.mode.leader_bonus_draw and p in game.leaders()
                                    else "")
                                 for p in r.players)
            self.say(f"{r.owner}: choose {r.text}: {standing}")
        elif r.text and r.text != r.owner:
            self.say(f"{spoken(r.owner)}: {r.text}")
        return self.ask(f"choose a player ({names}) > ",
                        lambda t: int(t[1:]) - 1 if t.upper().startswith("P") and _digits(t[1:])
                        and int(t[1:]) - 1 in r.players else None, f"type one of {names}")

    def on_ChoosePlayers(self, game, r: ChoosePlayers):
        names = ", ".join(f"P{p + 1}" for p in r.players)
        if r.text and r.text != r.owner:
            self.say(f"{spoken(r.owner)}: {r.text}")
        # who they are: in a Portal Crawl some are Minions engaged with teammates
        self.say("  " + "; ".join(f"P{p + 1} {game.seats[p].table.name} (health {game.seats[p].health})"
                                  for p in r.players))

        def players(t: str):
            if t in ("", "0", "none"):
                return []
            picked = [int(w[1:]) - 1 if w.upper().startswith("P") and _digits(w[1:]) else None
                      for w in t.replace(",", " ").split()]
            if None in picked or len(set(picked)) != len(picked) or len(picked) > r.most \
                    or any(p not in r.players for p in picked):
                return None
            return picked

        return self.ask(f"choose up to {r.most} of {names} (Enter: none) > ", players,
                        f"type up to {r.most} different players of {names}, such as `P2`, or press Enter")

    def on_ChooseItems(self, game, r: ChooseItems):
        self.say(f"{spoken(r.owner)}: {r.purpose}")
        said = _card_says(game, r) if r.purpose == "use" else {}
        for i, item in enumerate(r.items, 1):
            self.say(f"  [{i}] {item}" + (f": {said[item]}" if said.get(item) else ""))
        n = len(r.items)
        if r.least == n:  # every item must be taken: nothing to choose, not worth a question
            self.say(f"  (the only choice: taking {'it' if n == 1 else f'all {n}'})")
            return list(range(n))
        if r.least == r.most and len(set(r.items)) == 1:  # alike: whichever is picked, it is the same
            self.say(f"  (all alike: taking {'it' if r.least == 1 else r.least})")
            return list(range(r.least))
        numbers = "number" if r.most == 1 else "different numbers"
        if r.least == 0:  # none is an answer too
            return self.ask(f"pick up to {r.most} (Enter: none) > ",
                            lambda t: [] if t in ("", "0") else _some(t, n, 0, r.most),
                            f"give up to {r.most} {numbers} from 1 to {n}, or press Enter for none")
        span = f"{r.least}" if r.least == r.most else f"{r.least} to {r.most}"
        return self.ask(f"pick {span} > ", lambda t: _some(t, n, r.least, r.most),
                        f"give {span} {numbers} from 1 to {n}")

    def on_ChoosePlace(self, game, r: ChoosePlace):
        shown = self.show(game, r) if self.show else None
        if shown:
            self.say(shown)
        self.say(f"-- {spoken(r.owner)}: {r.purpose} --")
        n = len(r.options)
        if n == 1:  # one place to choose: not worth a question
            self.say(f"  (the only choice: {r.options[0]})")
            return 0
        for i, label in enumerate(r.options, 1):
            self.say(f"  [{i}] {label}")
        if r.options[-1].startswith("no more"):  # declining is the usual answer: Enter gives it
            return self.ask(f"{r.purpose}: which? (1-{n}, Enter: {r.options[-1]}) > ",
                            lambda t: n if t == "" else _number(t, 1, n),
                            f"{_type_number(1, n)}, or Enter for {r.options[-1]}") - 1
        return self.ask(f"{r.purpose}: which? (1-{n}) > ", lambda t: _number(t, 1, n),
                        f"{_type_number(1, n)}") - 1

    def on_ChooseDirection(self, game, r: ChooseDirection):
        ends = _track_ends(game, r)
        ways = {"up": "up", "u": "up", "down": "down", "d": "down"}
        hint = "answer up or down"
        if ends and ends[1].casefold() != ends[2].casefold():  # where a way leads names it too
            ways.update({ends[1].casefold(): "up", ends[2].casefold(): "down"})
            hint += f" (or where to: {ends[1]} or {ends[2]})"
        return self.ask(f"move {r.component} {r.amount}{ends[0] if ends else ''} up or down? > ",
                        lambda t: ways.get(t.casefold()), hint)


# ------------------------------------------------------------------ parsing


def threat_of(incoming, player: int) -> tuple[int, int, int]:
    """The dmg coming at the player as she would weigh it: total, prevented, halvings."""
    mine = incoming[player]
    return mine.total_before(), mine.prevented, mine.halvings


def _dmg_on_its_way(game) -> tuple | None:
    """The dmg on its way to every player, as they would weigh it (dmg her Attack brings that the
    defender prevents is news to her too: she may answer it, code review); None when none is."""
    incoming = getattr(game, "incoming", None)
    if incoming is None or not game.accumulate:
        return None
    coming = tuple((seat, *threat_of(incoming, seat)) for seat in range(len(incoming))
                   if incoming[seat].on_its_way())
    return coming or None


def _situation(game, r: Act, threat: tuple | None) -> tuple:
    """What a window offers her, as far as she can tell one from another: the turn, the dmg on its way
    (`_dmg_on_its_way`), what she could do (worth doing now), and, when she could alter dice, which
    dice these are and the moment (new dice on the same faces are new: a re-rolled die that showed its
    old value hid her last chance to change her dice, player QA)."""
    actions = [a for a in r.actions if not a.idle and not _early(game, r.player, a)]
    offers = frozenset((a.kind, a.name) for a in actions)
    hand = game.seats[r.player].hand
    alters = any(a.kind == "play" and a.ref < len(hand) and hand[a.ref].card.alters_dice for a in actions)
    dice = (game.dice_rolled, tuple(game.roll), r.window) if alters else None
    return game.turn_no, threat, dice, offers


def _seen(situation: tuple, passed: tuple | None) -> bool:
    """Whether she let this pass already: the same turn, nothing offered that she was not offered
    then (a Main Phase passed covers the Discard Phase after it), and no new dmg on its way nor new
    dice she could alter (dmg landed or dice used up are nothing new)."""
    if passed is None:
        return False
    turn, threat, dice, offers = situation
    return (turn == passed[0] and offers <= passed[3] and threat in (None, passed[1])
            and dice in (None, passed[2]))


def _card_says(game, r: ChooseItems) -> dict[str, str]:
    """What the cards she may use from a zone do, by name (the picker named them alone: player QA)."""
    seats = getattr(game, "seats", None)
    if seats is None:
        return {}
    return {card.card.name: card.card.text for cards in seats[r.player].zones.values() for card in cards}


def _reading(text: str) -> str | None:
    """`?` (the cards in hand), `a` (the abilities) or `s` (the status effects and unique elements)
    asked for instead of an answer."""
    folded = text.lower()
    return "?" if folded in HELP else "a" if folded in ABILITIES else "s" if folded in ELEMENTS else None


def _read_out(game, player: int, what: str) -> str:
    """What `?`, `a` or `s` shows: the player's cards; or every hero's abilities, or status effects
    and unique elements, as they are now, the player's first."""
    if what == "?":
        return card_texts(game, player)
    seats = sorted(range(len(game.seats)), key=lambda s: s != player)
    texts = ability_texts if what == "a" else element_texts
    return "\n".join(texts(game, s) for s in seats)


def _digits(text: str) -> bool:
    """A plain number of at most 9 digits 0-9 (`str.isdigit` also takes ² and ①, which `int`
    refuses, and `int` refuses a number of thousands of digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _track_ends(game, r: ChooseDirection) -> tuple[str, str, str] | None:
    """(` (now <position>; up: <position>, down: <position>):`, the position up, the one down):
    where each way leads on the track (position 0 is its top); None when the track is not the
    player's."""
    if not isinstance(game, Game):
        return None
    p = game.seats[r.player]
    comp = next((i for i, c in enumerate(p.table.components) if c["name"] == r.component), None)
    if comp is None or not p.table.components[comp].get("values"):
        return None
    values, at = p.table.components[comp]["values"], p.components[comp]
    up, down = values[max(0, at - r.amount)], values[min(len(values) - 1, at + r.amount)]
    return f" (now {values[at]}; up: {up}, down: {down}):", str(up), str(down)


def _numbered(game, seat: int, dice) -> str:
    """The dice with their positions, which a re-roll answer names: `#1 4:Paw  #2 1:Claw`."""
    return "  ".join(f"#{i} {symbols(game, seat, [v])}" for i, v in enumerate(dice, 1))


def _from(owner: str, prompt: str) -> str:
    """`<source>: ` before a question that does not say where it comes from (`You may prevent 1
    dmg?` from one of two <status> tiers)."""
    source = spoken(owner)
    named = source.split(" (")[0].casefold() in prompt.casefold()
    return f"{source}: " if " › " in owner and not named else ""


def _says_more(text: str, prompt: str) -> bool:
    """Whether the effect goes on after its `you may` sentence (`..., you may add dmg. At the end of
    the Roll Phase, reduce <dial> by 4.`): the question alone would hide what happens either way."""
    asked = prompt.split(" (")[0].casefold()  # without ` (only up is open)` and the like
    at = text.casefold().find(asked)
    if at < 0:  # printed otherwise than dtc words the question (`you may choose to add ...`)
        return ". " in " ".join(text.split()).strip(" .")
    return bool(text[at + len(asked):].strip(" ."))


def _needs(game, player: int, choice) -> str:
    """`  (met: 3 [Paw])`: what an ability of one option asks of the dice, which they meet (a tier's
    label says it already); nothing for the re-roll choice."""
    if choice.ability < 0:
        return ""
    options = game.seats[player].abilities[choice.ability].options
    if len(options) > 1:
        return ""
    return f"  (met: {requirement_text(game.a, options[0].requirement)})"


def _early(game, player: int, action) -> str:
    """` - no dmg coming at you yet`: a prevention card or token offered before any dmg is on its
    way (it counts against dmg dealt later in the same Roll Phase, "Reducing Damage", but a player
    may not know that, or mean to wait)."""
    if action.idle or not isinstance(game, Game) or game.incoming[player].on_its_way():
        return ""
    if action.kind == "play":
        hand = game.seats[player].hand
        prevents = action.ref < len(hand) and hand[action.ref].card.prevents
    elif action.kind == "spend":
        # as the bots read a token: for prevention when a `When spent` effect prevents, and offers no
        # choice (`choose one: add 2 dmg, or prevent 2 dmg` serves an Attack of one's own too)
        spent = spent_chunks(game.a.statuses[action.ref])
        prevents = any(uses(game.a, chunk, PREVENTING) for chunk in spent) \
            and not any(chooses_first(game.a, chunk) for chunk in spent)
    else:
        prevents = False
    return " - no dmg coming at you yet" if prevents else ""


def _does(game, player: int, choice) -> str:
    """`: Deal 7 dmg. On 4-of-a-kind [Forge], gain 1 CP.`: what activating the option does, as
    written (the option's effect, then the ability's own); nothing when the ruleset keeps no text."""
    if choice.ability < 0 or not isinstance(game, Game):
        return ""
    ability = game.seats[player].abilities[choice.ability]
    chunks = [ability.options[choice.option].chunk, ability.shared, ability.additionally]
    texts = [game.a.chunks[c].text for c in dict.fromkeys(chunks) if c is not None]
    said = " ".join(t for t in texts if t)
    return f": {said}" if said else ""


def _named_values(game, r: Request) -> str:
    """` (<dial>: 4)`: where a question names one of the player's components, its value now (`you
    may add dmg equal to the <dial> value?` is asked without the dial in sight)."""
    if not isinstance(game, Game):
        return ""
    prompt = r.prompt.casefold()
    shown = [f"{c['name']}: {game.shown(r.player, i)}"
             for i, c in enumerate(game.seats[r.player].table.components) if c["name"].casefold() in prompt]
    return f" ({', '.join(shown)})" if shown else ""


def _number(text: str, low: int, high: int) -> int | None:
    return int(text) if _digits(text) and low <= int(text) <= high else None


def _yes_no(text: str) -> bool | None:
    return {"y": True, "yes": True, "n": False, "no": False}.get(text.lower())


def _type_number(low: int, high: int) -> str:
    return f"type {low}" if low == high else f"type a number from {low} to {high}"


def _draws_the_table(request: Request) -> bool:
    """Whether the question shows the Dice Throne table itself."""
    return isinstance(request, RollDice) or (isinstance(request, Act) and request.window == "main")


def _positions(text: str, n: int, most: int | None = None) -> list[int] | None:
    if text == "":
        return []
    parts = text.replace(",", " ").split()
    if not all(_digits(p) and 1 <= int(p) <= n for p in parts):
        return None
    picks = sorted({int(p) - 1 for p in parts})
    if len(picks) != len(parts):
        return None  # "1 1": the same die twice is a slip, not a choice
    if most is not None and len(picks) > most:
        return None
    return picks


def _exactly(text: str, n: int, count: int) -> list[int] | None:
    picks = _positions(text, n)
    return picks if picks is not None and len(picks) == count else None


def _some(text: str, n: int, least: int, most: int) -> list[int] | None:
    picks = _positions(text, n)
    return picks if picks is not None and least <= len(picks) <= most else None


def _symbol_faces(game, values) -> dict[str, int]:
    """Symbol name (folded) -> the one value among `values` showing it, for the dice on the table;
    a symbol on several faces is left out (`Pick` could be 1, 2 or 3: the value says which)."""
    faces = getattr(game, "roll_faces", None) or {}
    showing = Counter(faces[v] for v in values if v in faces)
    return {game.a.symbols[faces[v]].casefold(): v for v in values if v in faces and showing[faces[v]] == 1}


def _symbol_key(text: str) -> str:
    """A symbol as typed, compared without case, brackets, quotes, spaces or underscores."""
    return "".join(ch for ch in text.casefold() if ch not in "[]\"' _")


def _changes(text: str, n: int, most: int, options, names: dict[str, int] | None = None
             ) -> list[list[int]] | None:
    """`die=value` pairs typed, each value one its die may take (`options`, per die), or None."""
    if text == "":
        return []
    out = []
    parts: list[str] = []
    for word in text.replace(",", " ").split():
        if "=" not in word and parts and "=" in parts[-1]:
            parts[-1] += " " + word  # a symbol of two words: `2=Sun Power`
        else:
            parts.append(word)
    known = {_symbol_key(name): face for name, face in (names or {}).items()}
    for part in parts:
        die, _, value = part.partition("=")
        value = str(known.get(_symbol_key(value), value.strip()))
        if not (_digits(die) and _digits(value) and 1 <= int(die) <= n
                and int(value) in options[int(die) - 1]):
            return None
        if any(done[0] == int(die) - 1 for done in out):
            return None  # one change per die
        out.append([int(die) - 1, int(value)])
    return out if len(out) <= most else None
