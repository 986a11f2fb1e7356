"""Valeria content: schema-valid Valeria documents in, a typed model and its diagnostics out.

The rules (guilds, dice, reward pips and what they do), player sheets (every
section as a list of pips, the road network, Domains, Monster Lairs), Statue
cards and Solo events.  Every effect text is parsed with the Valeria grammar
and its names (guilds, dice, rewards, Domains, Lairs, Citizen values) are
checked against the rules and the sheet, reported like any other diagnostic.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from dtc.diagnostics import Diagnostic, Severity, error, warning
from dtc.loader import Document
from dtc.opcodes import SECTIONS
from dtc.parser import Problem
from dtc.valeria import language as lang

DOING = {
    "Mark": "marking a pip",
    "TakeStatue": "taking a Statue",
    "Score": "scoring VP",
    "CountStars": "counting Star pips",
    "Perform": "performing a reward",
    "Adjust": "changing a die",
    "Flip": "flipping a die",
    "Void": "voiding",
}


@dataclass
class Text:
    """One effect text and where it is."""

    text: str
    doc: Document
    path: tuple
    owner: str
    statements: tuple | None = None


@dataclass
class Reward:
    name: str
    mark: str
    effect: Text | None
    star: bool


@dataclass
class Rules:
    name: str
    doc: Document
    guilds: list[str]
    harvest_dice: list[str]
    action_dice: dict[str, str]  # color -> recruit | slay | build
    helper: str
    plain: str
    rewards: list[Reward]
    end_tracks: int
    slay_gold: int
    draft: int
    most_statues: int
    solo_turns: int
    solo_events: int
    bands: list[tuple[int, str]]

    def reward_by_mark(self) -> dict[str, Reward]:
        return {r.mark: r for r in self.rewards}

    def reward(self, name: str) -> Reward | None:
        return next((r for r in self.rewards if r.name.lower() == name.lower()), None)


@dataclass
class Citizen:
    values: tuple[int, ...]
    label: str
    guild: str
    pips: list[str | None]  # reward name per pip (None: plain)
    start: int


@dataclass
class Road:
    origin: str
    to: str | None
    pips: list[str | None]
    bridge: int | None  # index of the first of its 3 bridge pips


@dataclass
class Domain:
    name: str
    power: Text
    when: str = "action"  # action: a dice power used in the Action phase | claim: once, when claimed


@dataclass
class Block:
    low: int
    high: int
    pips: list[str | None]


@dataclass
class Lair:
    name: str
    vp: tuple[int, int]
    access: str | None  # None: always; "start": a Trailhead open from the start; else a Domain
    blocks: list[Block]


@dataclass
class Sheet:
    name: str
    doc: Document
    citizens: list[Citizen] = field(default_factory=list)
    tracks: dict[str, list[str | None]] = field(default_factory=dict)
    track_rows: dict[str, int] = field(default_factory=dict)
    gold: list[str | None] = field(default_factory=list)
    gold_rows: list[int] = field(default_factory=list)
    wall: list[str | None] = field(default_factory=list)
    starts: list[str] = field(default_factory=list)
    roads: list[Road] = field(default_factory=list)
    domains: list[Domain] = field(default_factory=list)
    lairs: list[Lair] = field(default_factory=list)


@dataclass
class Statue:
    number: int
    effect: Text
    instant: bool


@dataclass
class Statues:
    name: str
    doc: Document
    copies: list[str]
    cards: list[Statue]


@dataclass
class Event:
    name: str
    effect: Text


@dataclass
class Events:
    name: str
    doc: Document
    sheet: str
    cards: list[Event]


@dataclass
class Valeria:
    """Every Valeria document loaded."""

    rules: list[Rules] = field(default_factory=list)
    sheets: list[Sheet] = field(default_factory=list)
    statues: list[Statues] = field(default_factory=list)
    events: list[Events] = field(default_factory=list)
    fallback_rules: Rules | None = None  # the built-in rules, when none were given

    @property
    def the_rules(self) -> Rules | None:
        return self.rules[0] if self.rules else self.fallback_rules

    def __bool__(self) -> bool:
        return bool(self.rules or self.sheets or self.statues or self.events)


# ---------------------------------------------------------------- building


def build(documents: list[tuple[str, Document]], builtin_rules: Document | None = None) -> Valeria:
    """The Valeria model of schema-valid documents (other kinds are ignored); `builtin_rules`
    stands in when the documents hold no rules (a sheet linted on its own)."""
    out = Valeria()
    for doc in [d for k, d in documents if k == "valeria_rules"]:
        out.rules.append(_rules(doc))
    rules = out.rules[0] if out.rules else (_rules(builtin_rules) if builtin_rules is not None else None)
    out.fallback_rules = rules if not out.rules else None
    for kind, doc in documents:
        if kind == "valeria_sheet":
            out.sheets.append(_sheet(doc, rules))
        elif kind == "valeria_statues":
            d = doc.data
            cards = [
                Statue(
                    s["number"],
                    Text(s["effect"], doc, ("statues", i, "effect"), f"Valeria › Statue {s['number']}"),
                    bool(s.get("instant")),
                )
                for i, s in enumerate(d["statues"])
            ]
            out.statues.append(Statues(d["valeria_statues"], doc, list(d["copies"]), cards))
        elif kind == "valeria_events":
            d = doc.data
            cards = [
                Event(
                    e["name"],
                    Text(e["effect"], doc, ("events", i, "effect"), f"{d['valeria_events']} › {e['name']}"),
                )
                for i, e in enumerate(d["events"])
            ]
            out.events.append(Events(d["valeria_events"], doc, d["sheet"], cards))
    return out


def _rules(doc: Document) -> Rules:
    d = doc.data
    rewards = []
    for i, r in enumerate(d["rewards"]):
        effect = None
        if "effect" in r:
            effect = Text(r["effect"], doc, ("rewards", i, "effect"), f"Valeria › {r['name']} Reward")
        rewards.append(Reward(r["name"], r["mark"], effect, bool(r.get("star"))))
    return Rules(
        d["valeria_rules"],
        doc,
        list(d["guilds"]),
        list(d["dice"]["harvest"]),
        dict(d["dice"]["actions"]),
        d["dice"]["helper"],
        d["plain_pip"],
        rewards,
        d["end_after_complete_tracks"],
        d["slay_gold"],
        d["statues"]["draft"],
        d["statues"]["most"],
        d["solo"]["turns"],
        d["solo"]["events"],
        [(b["least"], b["title"]) for b in d["solo"]["bands"]],
    )


def _pips(text: str, rules: Rules | None) -> list[str | None]:
    marks = rules.reward_by_mark() if rules else {}
    return [marks[c].name if c in marks else None for c in text]


def _range(value) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    low, _, high = str(value).partition("-")
    return int(low), int(high or low)


def _sheet(doc: Document, rules: Rules | None) -> Sheet:
    d = doc.data
    sheet = Sheet(d["valeria_sheet"], doc)
    for c in d["citizens"]:
        values = tuple(int(v) for v in c["value"].split("/"))
        pips = _pips(c["pips"], rules)
        sheet.citizens.append(Citizen(values, c["value"], c["guild"], pips, c.get("start", 0)))
    for guild, rows in d["guild_tracks"].items():
        sheet.tracks[guild] = _pips("".join(rows), rules)
        sheet.track_rows[guild] = len(rows[0])
    sheet.gold = _pips("".join(d["gold_chart"]), rules)
    sheet.gold_rows = [len(r) for r in d["gold_chart"]]
    sheet.wall = _pips(d["wall"], rules)
    sheet.starts = list(d["roads"]["starts"])
    for r in d["roads"]["list"]:
        bridge = r["bridge"] - 1 if "bridge" in r else None
        sheet.roads.append(Road(r["from"], r.get("to"), _pips(r["pips"], rules), bridge))
    for i, dom in enumerate(d["domains"]):
        power = Text(dom["power"], doc, ("domains", i, "power"), f"{d['valeria_sheet']} › {dom['name']}")
        sheet.domains.append(Domain(dom["name"], power))
    for lair in d["lairs"]:
        blocks = [Block(*_range(b["range"]), _pips(b["pips"], rules)) for b in lair["blocks"]]
        sheet.lairs.append(Lair(lair["name"], (lair["vp"][0], lair["vp"][1]), lair.get("access"), blocks))
    return sheet


# ---------------------------------------------------------------- checking


class Check:
    """All diagnostics of the Valeria content, in one pass."""

    def __init__(self, content: Valeria, complete: bool = True):
        self.content = content
        self.complete = complete
        self.rules = content.the_rules
        self.diags: list[Diagnostic] = []

    def run(self) -> list[Diagnostic]:
        if not self.content:
            return []
        if self.rules is None:
            doc = (self.content.sheets or self.content.statues or self.content.events)[0].doc
            self.error(
                "C021",
                "no Valeria rules to check against",
                doc.span(()),
                "lint the sheet together with a `valeria_rules:` file",
            )
            return self.diags
        for rules in self.content.rules:
            self.check_rules(rules)
        self.unique([(s.name, s.doc, ("valeria_sheet",)) for s in self.content.sheets], "sheet")
        for sheet in self.content.sheets:
            self.check_sheet(sheet)
        for statues in self.content.statues:
            self.check_statues(statues)
        for events in self.content.events:
            self.check_events(events)
        return self.diags

    # -- helpers
    def error(self, code: str, message: str, span, hint: str | None = None) -> None:
        self.diags.append(error(code, message, span, hint))

    def warn(self, code: str, message: str, span, hint: str | None = None) -> None:
        self.diags.append(warning(code, message, span, hint))

    def parse(self, text: Text) -> tuple | None:
        statements, problems = lang.parse(text.text)
        for p in problems:
            self.at(text, p)
        text.statements = statements
        return statements

    def at(self, text: Text, p: Problem) -> None:
        span = text.doc.text_span(text.path, p.start, p.end)
        self.diags.append(Diagnostic(p.code, Severity(p.severity), p.message, span, p.hint))

    def name_error(self, text: Text, span: lang.Span | None, what: str, name: str, known: list[str]) -> None:
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = (
            f"did you mean `{close[0]}`?"
            if close
            else ("it is one of " + ", ".join(f"`{k}`" for k in known) if known else None)
        )
        self.error("C024", f"unknown {what} `{name}`", self.spot(text, span), hint)

    @staticmethod
    def spot(text: Text, span: lang.Span | None):
        """Where in the file a part of an effect text is (the whole text when no part is known)."""
        return text.doc.text_span(text.path, span.start, span.end) if span else text.doc.span(text.path)

    def misplaced(self, text: Text, statement, why: str, hint: str) -> None:
        self.error("C016", why, self.spot(text, statement.span), hint)

    def unique(self, items, what: str) -> None:
        seen: dict[str, tuple] = {}
        for name, doc, path in items:
            key = str(name).lower()
            if key in seen:
                self.error(
                    "C008", f"two {what}s are called `{name}`", doc.span(path), "give each its own name"
                )
            else:
                seen[key] = (doc, path)

    def guild(self, text: Text, name: str | None, span) -> None:
        if name is not None and name.lower() not in {g.lower() for g in self.rules.guilds}:
            self.name_error(text, span, "guild", name, self.rules.guilds)

    def statements(
        self, text: Text, allowed: tuple[type, ...], context: str, hint: str, sheet: Sheet | None = None
    ) -> tuple:
        statements = self.parse(text) or ()
        for s in statements:
            if not isinstance(s, allowed):
                self.misplaced(text, s, f"{DOING[type(s).__name__]} has no meaning in {context}", hint)
            self.names(text, s, sheet)
        return statements

    def names(self, text: Text, s, sheet: Sheet | None) -> None:
        for field_name in ("count", "per", "vp"):
            if getattr(s, field_name, None) == 0:
                where = self.spot(text, s.span)
                self.error("C010", f"a {field_name} of 0 does nothing", where, "write a number from 1")
        if isinstance(s, lang.Mark) and s.target == "guild_citizen":
            self.guild(text, s.name, s.name_span)
        elif isinstance(s, lang.Score) and s.what == "citizen_pips":
            self.guild(text, s.name, s.name_span)
        elif isinstance(s, lang.Score) and s.what == "reward_pips" and self.rules.reward(s.name) is None:
            self.name_error(text, s.name_span, "reward", s.name, [r.name for r in self.rules.rewards])
        elif isinstance(s, lang.Score) and s.section is not None and s.section not in SECTIONS:
            self.error("C024", f"pips are counted in your Gold Chart or on your Wall, not on a {s.section}",
                       self.spot(text, s.span), "write `in your Gold Chart` or `in your Wall`")
        elif isinstance(s, lang.Perform) and self.rules.reward(s.reward) is None:
            self.name_error(text, s.name_span, "reward", s.reward, [r.name for r in self.rules.rewards])
        elif isinstance(s, lang.Adjust | lang.Flip) and s.die is not None:
            colors = list(self.rules.action_dice) + [self.rules.helper]
            if s.die.lower() not in {c.lower() for c in colors}:
                self.name_error(text, s.name_span, "colored die", s.die, colors)
        elif isinstance(s, lang.Void) and sheet is not None:
            if s.kind == "citizen" and s.name not in [c.label for c in sheet.citizens]:
                labels = [c.label for c in sheet.citizens]
                self.name_error(text, s.name_span, "Citizen section", s.name, labels)
            elif s.kind == "domain" and s.name.lower() not in {d.name.lower() for d in sheet.domains}:
                self.name_error(text, s.name_span, "Domain", s.name, [d.name for d in sheet.domains])
            elif s.kind == "lair" and s.name.lower() not in {lair.name.lower() for lair in sheet.lairs}:
                names = [lair.name for lair in sheet.lairs]
                self.name_error(text, s.name_span, "Monster Lair", s.name, names)

    # -- rules
    def check_rules(self, rules: Rules) -> None:
        doc = rules.doc
        marks = [r.mark for r in rules.rewards]
        for i, r in enumerate(rules.rewards):
            if r.mark == rules.plain or marks.count(r.mark) > 1:
                self.error(
                    "C008",
                    f"the mark `{r.mark}` of {r.name} is used twice",
                    doc.span(("rewards", i, "mark")),
                    "give each reward pip its own mark",
                )
            if r.effect is not None:
                self.statements(
                    r.effect,
                    (lang.Mark, lang.TakeStatue, lang.Perform),
                    "a reward pip",
                    "a reward marks pips or takes a Statue: `Mark a Gold pip.`",
                )
            elif not r.star:
                self.warn(
                    "C016",
                    f"the {r.name} reward neither does anything nor scores",
                    doc.span(("rewards", i)),
                    "give it an `effect` or `star: true`",
                )
        for r in rules.rewards:  # once every reward's text is read
            loop = self.reward_loop(rules, r)
            if loop:
                self.error(
                    "C014",
                    f"the {r.name} reward performs itself"
                    if len(loop) == 2
                    else f"rewards perform each other in a loop: {' -> '.join(loop)}",
                    doc.span(r.effect.path),
                    "a reward cannot lead back to itself: end the chain with a reward that marks a pip",
                )
        self.unique([(r.name, doc, ("rewards", i, "name")) for i, r in enumerate(rules.rewards)], "reward")
        if rules.end_tracks > len(rules.guilds):
            self.error(
                "C010",
                f"the end needs {rules.end_tracks} complete Guild Tracks, but there are {len(rules.guilds)}",
                doc.span(("end_after_complete_tracks",)),
                f"at most {len(rules.guilds)}, one per guild (the rulebook ends the game on the 3rd)",
            )
        if rules is not self.content.rules[0]:
            first = self.content.rules[0]
            self.error(
                "C008",
                f"a second set of Valeria rules (`{rules.name}`); `{first.name}` is the one used",
                doc.span(("valeria_rules",)),
                "keep one `valeria_rules:` file",
            )
        least = [b[0] for b in rules.bands]
        if least != sorted(least) or (least and least[0] != 0):
            self.error(
                "C010",
                "the solo score bands must rise from 0",
                doc.span(("solo", "bands")),
                "list the bands from the lowest, the first with `least: 0`",
            )

    def reward_loop(self, rules: Rules, start: Reward) -> list[str]:
        """The names along a chain of `Perform` that leads from `start` back to it ([] if none)."""
        def performed(r: Reward) -> list[Reward]:
            found = []
            for s in (r.effect.statements or ()) if r.effect is not None else ():
                if isinstance(s, lang.Perform) and rules.reward(s.reward) is not None:
                    found.append(rules.reward(s.reward))
            return found

        path, seen = [start], set()

        def walk(r: Reward) -> bool:
            for nxt in performed(r):
                if nxt is start:
                    path.append(nxt)
                    return True
                if nxt.name not in seen:
                    seen.add(nxt.name)
                    path.append(nxt)
                    if walk(nxt):
                        return True
                    path.pop()
            return False

        return [r.name for r in path] if walk(start) else []

    # -- sheets
    def pips(self, sheet: Sheet, path: tuple, text: str) -> None:
        known = {self.rules.plain} | {r.mark for r in self.rules.rewards}
        for i, c in enumerate(text):
            if c not in known:
                span = sheet.doc.text_span(path, i, i + 1)
                marks = ", ".join(f"`{r.mark}` {r.name}" for r in self.rules.rewards)
                self.error(
                    "C025",
                    f"`{c}` is not a pip mark",
                    span,
                    f"pips are `{self.rules.plain}` (plain) or a reward's mark: {marks}",
                )

    def check_sheet(self, sheet: Sheet) -> None:
        d, doc = sheet.doc.data, sheet.doc
        guilds = {g.lower() for g in self.rules.guilds}
        covered: dict[int, str] = {}
        for i, c in enumerate(d["citizens"]):
            self.pips(sheet, ("citizens", i, "pips"), c["pips"])
            if c["guild"].lower() not in guilds:
                self.error(
                    "C024",
                    f"unknown guild `{c['guild']}`",
                    doc.span(("citizens", i, "guild")),
                    "it is one of " + ", ".join(f"`{g}`" for g in self.rules.guilds),
                )
            if c.get("start", 0) > len(c["pips"]):
                self.error(
                    "C010",
                    f"{c.get('start')} starting pips, but the section has {len(c['pips'])}",
                    doc.span(("citizens", i, "start")),
                )
            for v in sheet.citizens[i].values:
                if v in covered:
                    self.error(
                        "C008",
                        f"the value {v} is in the {covered[v]} and the {c['value']} Citizen sections",
                        doc.span(("citizens", i, "value")),
                        "each die value activates one section",
                    )
                covered.setdefault(v, c["value"])
        missing = [v for v in range(2, 13) if v not in covered]
        if missing:
            self.warn(
                "C007",
                f"no Citizen section takes {', '.join(map(str, missing))}: "
                "those Harvest sums and Recruits do nothing",
                doc.span(("citizens",)),
            )
        for guild, rows in d["guild_tracks"].items():
            if guild.lower() not in guilds:
                self.error(
                    "C024",
                    f"unknown guild `{guild}`",
                    doc.key_span(("guild_tracks", guild)),
                    "it is one of " + ", ".join(f"`{g}`" for g in self.rules.guilds),
                )
            for j, row in enumerate(rows):
                self.pips(sheet, ("guild_tracks", guild, j), row)
        for g in self.rules.guilds:
            if g.lower() not in {k.lower() for k in d["guild_tracks"]}:
                self.error(
                    "S004",
                    f"the {g} guild has no Guild Track",
                    doc.key_span(("guild_tracks",)),
                    f"add `{g}: [...]` under `guild_tracks`",
                )
        for j, row in enumerate(d["gold_chart"]):
            self.pips(sheet, ("gold_chart", j), row)
        self.pips(sheet, ("wall",), d["wall"])
        self.check_roads(sheet)
        lairs = [(lair.name, doc, ("lairs", i, "name")) for i, lair in enumerate(sheet.lairs)]
        self.unique(lairs, "Monster Lair")
        for i, lair in enumerate(sheet.lairs):
            self.check_lair(sheet, i, lair)

    def check_roads(self, sheet: Sheet) -> None:
        doc = sheet.doc
        domains = {dom.name.lower(): dom for dom in sheet.domains}
        self.unique(
            [(dom.name, doc, ("domains", i, "name")) for i, dom in enumerate(sheet.domains)], "Domain"
        )
        origins = {s.lower() for s in sheet.starts} | set(domains)
        reached: set[str] = set()
        for i, road in enumerate(sheet.roads):
            path = ("roads", "list", i)
            self.pips(sheet, path + ("pips",), doc.get(path + ("pips",)))
            if road.origin.lower() not in origins:
                self.error(
                    "C024",
                    f"a road starts at `{road.origin}`, which is neither a starting pip nor a Domain",
                    doc.span(path + ("from",)),
                    "name one of `roads.starts` or a Domain",
                )
            if road.to is not None:
                if road.to.lower() not in domains:
                    close = difflib.get_close_matches(road.to, [dom.name for dom in sheet.domains], n=1)
                    self.error(
                        "C024",
                        f"a road leads to `{road.to}`, which is not a Domain",
                        doc.span(path + ("to",)),
                        f"did you mean `{close[0]}`?" if close else "add it under `domains` or fix the name",
                    )
                reached.add(road.to.lower())
                if road.to.lower() == road.origin.lower():
                    self.error(
                        "C010",
                        f"a road leads from `{road.origin}` back to itself",
                        doc.span(path + ("to",)),
                        "a road joins two places: a starting pip or Domain, and another Domain",
                    )
            if road.bridge is not None and road.bridge + 3 > len(road.pips):
                self.error(
                    "C010",
                    f"the Bridge's 3 pips from pip {road.bridge + 1} do not fit a "
                    f"road of {len(road.pips)} pips",
                    doc.span(path + ("bridge",)),
                )
        for i, dom in enumerate(sheet.domains):
            if dom.name.lower() not in reached:
                self.warn(
                    "C026",
                    f"no road reaches the {dom.name} Domain",
                    doc.span(("domains", i)),
                    "add a road `to:` it, or remove it",
                )
            statements = self.statements(
                dom.power,
                (lang.Adjust, lang.Flip, lang.Mark),
                "a Domain power",
                "a Domain power changes a die (`You may flip the Green die.`) or "
                "gives a Citizen (`Immediately mark 1 Worker Citizen.`)",
            )
            kinds = {isinstance(s, lang.Mark) for s in statements}
            dom.when = "claim" if kinds == {True} else "action"
            if kinds == {True, False}:
                self.misplaced(
                    dom.power,
                    statements[0],
                    "a Domain power is either a dice power or an instant Citizen, not both",
                    "split it into two Domains",
                )
        used = {r.origin.lower() for r in sheet.roads}
        for s in sheet.starts:
            if s.lower() not in used:
                self.warn("C026", f"no road leaves the starting pip `{s}`", doc.span(("roads", "starts")))

    def check_lair(self, sheet: Sheet, i: int, lair: Lair) -> None:
        doc = sheet.doc
        high, low = lair.vp
        if high < low:
            self.error(
                "C010",
                f"{lair.name}: the first VP ({high}) is for the first to complete it "
                f"and must not be below the second ({low})",
                doc.span(("lairs", i, "vp")),
            )
        for j, block in enumerate(lair.blocks):
            path = ("lairs", i, "blocks", j)
            self.pips(sheet, path + ("pips",), doc.get(path + ("pips",)))
            if block.low > block.high or not (1 <= block.low and block.high <= 12):
                self.error(
                    "C010",
                    f"the range {block.low}-{block.high} is not within 1-12",
                    doc.span(path + ("range",)),
                    "a die with the Blue die shows 1 to 12",
                )
        domains = {d.name.lower() for d in sheet.domains}
        if lair.access not in (None, "start") and lair.access.lower() not in domains:
            self.error(
                "C024",
                f"`{lair.access}` opens {lair.name}, but it is not a Domain",
                doc.span(("lairs", i, "access")),
                "write `start` or a Domain's name",
            )

    # -- cards
    def check_statues(self, statues: Statues) -> None:
        self.unique(
            [(s.number, statues.doc, ("statues", i, "number")) for i, s in enumerate(statues.cards)],
            "Statue numbered",
        )
        for s in statues.cards:
            if s.instant:
                self.statements(
                    s.effect,
                    (lang.Mark, lang.Perform, lang.TakeStatue, lang.CountStars),
                    "an instant Statue",
                    "an instant Statue acts when taken: `Immediately perform 3 Recruit Rewards.`",
                )
            else:
                self.statements(
                    s.effect,
                    (lang.Score, lang.CountStars),
                    "a scoring Statue",
                    "a scoring Statue counts at the end: `Gain 1 VP for every Domain.` "
                    "(mark it `instant: true` if it acts when taken)",
                )

    def check_events(self, events: Events) -> None:
        sheet = next((s for s in self.content.sheets if s.name.lower() == events.sheet.lower()), None)
        if sheet is None and self.content.sheets and self.complete:
            self.error(
                "C024",
                f"unknown sheet `{events.sheet}`",
                events.doc.span(("sheet",)),
                "it is one of " + ", ".join(f"`{s.name}`" for s in self.content.sheets),
            )
        for e in events.cards:
            self.statements(
                e.effect,
                (lang.Void,),
                "a Solo event",
                "an event voids something: `Void the 9/10 Citizen.`",
                sheet,
            )


def check(content: Valeria, complete: bool = True) -> list[Diagnostic]:
    """Every diagnostic of the Valeria content (`complete`: every file given was read)."""
    return Check(content, complete).run()
