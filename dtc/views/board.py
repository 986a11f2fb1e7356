"""The hero board: a checked hero (and, when its content compiles, its exact odds) in, a
self-contained HTML page of the hero as a player sees it out (`dtc board`, `dtc serve`, `dtc print`).

The text on the board is the printed text of the YAML, `[Symbol]` drawn as its icon: what the
designer wrote is what the player reads. Every entry (ability, status, component, card) carries the
line of the YAML it comes from, so `dtc serve` can put each lint diagnostic at the entry it points to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape

from dtc import nodes as n
from dtc.model import Ability, Card, Component, Content, Hero, Site, Status
from dtc.render import render_test
from dtc.show import kind_of
from dtc.views.icons import Icons, hero_icons
from dtc.views.page import card_face, page

KIND_TITLES = (("offensive", "Offensive abilities"), ("ultimate", "Ultimate ability"),
               ("defensive", "Defensive abilities"), ("passive", "Passive abilities"))


@dataclass
class Remarks:
    """Lint diagnostics to show on a board, by the entry they point to (`entry_id`), as lint's text."""

    by_entry: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # id -> (severity, text)

    def html(self, entry: str) -> str:
        return "".join(f'<pre class="diagnostic {severity}">{escape(text)}</pre>'
                       for severity, text in self.by_entry.get(entry, []))


def entry_id(path: tuple) -> str:
    """The HTML id of the entry at a YAML path: `("offensive", 2)` -> `e-offensive-2`."""
    return "e-" + "-".join(str(p) for p in path)


def entry_lines(hero: Hero) -> list[tuple[int, str]]:
    """(first line in the YAML, entry id) of every entry a board shows, in line order."""
    doc = hero.doc
    paths: list[tuple] = [("hero",), ("dice",)]
    if hero.setup is not None:
        paths.append(("setup",))
    paths += [a.path for a in hero.abilities] + [s.path for s in hero.statuses]
    paths += [c.path for c in hero.components] + [c.path for c in hero.cards]
    found = []
    for path in paths:
        span = doc.key_span(path) if len(path) == 1 else doc.span(path)
        found.append((span.line, entry_id(path)))
    return sorted(found)


def place(hero: Hero, diagnostics: list[tuple[int, str, str]]) -> Remarks:
    """Put each (line, severity, text) of the hero's file at the last entry starting on or before it."""
    lines = entry_lines(hero)
    remarks = Remarks()
    for line, severity, text in diagnostics:
        where = lines[0][1]
        for start, eid in lines:
            if start <= line:
                where = eid
        remarks.by_entry.setdefault(where, []).append((severity, text))
    return remarks


def odds_rows(report: dict | None) -> dict[tuple[str, str], list[Fraction]]:
    """An odds report's chances by (ability name, requirement as printed)."""
    rows: dict[tuple[str, str], list[Fraction]] = {}
    for r in (report or {}).get("abilities", []):
        name = r["ability"].removesuffix(f" ({r['requirement']})")
        rows[(name, same_requirement(r["requirement"]))] = r["chances"]
    return rows


def odds_cells(chances: list[Fraction]) -> str:
    """`1 roll <b>50.0%</b> · 2 rolls ...`: the chance within each number of roll attempts."""
    return " · ".join(f'{k} roll{"s" * (k > 1)} <b>{float(c):.1%}</b>' for k, c in enumerate(chances, 1))


def shared_cards(hero: Hero, content: Content) -> list[Card]:
    """The cards every hero has, in a hero's deck (a Minion or a Boss draws none of them)."""
    if hero.minion is not None or hero.boss is not None:
        return []
    return [c for cs in content.card_sets if cs.every_hero for c in cs.cards]


def same_requirement(text: str) -> str:
    """A requirement's text with `1 [Claw]` and `[Claw]` alike (the odds and the renderer differ)."""
    return re.sub(r"(?<![\d-])1 (?=\[)", "", " ".join(text.split()))


# ------------------------------------------------------------------ the page


def board_html(hero: Hero, content: Content, report: dict | None = None, remarks: Remarks | None = None,
               live: str = "") -> str:
    """The whole page of one hero; `report`: its `odds.hero_report` (None: no odds, say why);
    `live`: markup `dtc serve` adds (its status line and script)."""
    return page(f"{hero.name} — {kind_of(hero)} board", live + board_body(hero, content, report, remarks))


def board_body(hero: Hero, content: Content, report: dict | None = None, remarks: Remarks | None = None,
               deck: bool = True) -> str:
    """The board's markup without the page around it (`dtc print` puts it on a sheet, no deck)."""
    icons = Icons(hero_icons(hero.doc.data, hero.doc.path))
    return Board(hero, content, icons, odds_rows(report), report, remarks or Remarks()).body(deck)


@dataclass
class Board:
    hero: Hero
    content: Content
    icons: Icons
    odds: dict
    report: dict | None
    remarks: Remarks

    def body(self, deck: bool = True) -> str:
        h = self.hero
        data = h.doc.data
        facts = [f"complexity {data['complexity']}" if data.get("complexity") else "",
                 f"Minion, level {h.minion.level}" if h.minion is not None else "",
                 f"Boss, scenario {h.boss.scenario}" if h.boss is not None else "",
                 f"{h.dice_count} dice", f"from {h.doc.path}"]
        out = [f'<header id="e-hero"><h1 class="hero-name">{escape(h.name)}</h1>']
        if data.get("tagline"):
            out.append(f'<p class="tagline">“{escape(str(data["tagline"]))}”</p>')
        out.append(f'<p class="meta">{" · ".join(escape(f) for f in facts if f)}</p>')
        if data.get("authored"):
            out.append('<p class="meta">Marked <b>authored</b> in its file: not the publisher\'s text.</p>')
        out.append(self.remarks.html("e-hero") + "</header>")
        out.append(self.dice_key())
        if h.minion is not None:
            out.append(self.minion_card())
        if h.boss is not None:
            out.append(self.boss_setup())
        if h.setup is not None:
            out.append(f'<section id="e-setup"><h2>Hero Setup</h2><p>{self.printed(h.setup)}</p>'
                       f'{self.remarks.html("e-setup")}</section>')
        for kind, title in KIND_TITLES:
            abilities = [a for a in h.abilities if a.kind == kind]
            if abilities:
                out.append(f'<section class="abilities {kind}"><h2>{title}</h2><div class="grid">'
                           + "".join(self.ability(a) for a in abilities) + "</div></section>")
        if self.report is None:
            out.append('<p class="meta" id="no-odds">No odds: this board, or what it needs (rules, status '
                       'effects), has errors, so it does not compile (the odds come from the compiled '
                       'dice).</p>')
        if h.statuses:
            out.append('<section><h2>Status effects</h2><div class="grid">'
                       + "".join(self.status(s) for s in h.statuses) + "</div></section>")
        if h.components:
            out.append('<section><h2>Components</h2><div class="grid">'
                       + "".join(self.component(c) for c in h.components) + "</div></section>")
        if deck:
            out.append(self.deck())
        return "".join(out)

    # -------------------------------------------------------------- parts

    def printed(self, site: Site | None) -> str:
        """A site's text as printed in the YAML, symbols as icons."""
        if site is None:
            return ""
        return self.icons.text(" ".join(str(site.text).split()))

    def minion_card(self) -> str:
        """A Minion card's callouts, and its Roll Objective (what its Minion Step re-rolls for) drawn
        as dice with its odds."""
        m = self.hero.minion
        reward = m.reward or {}
        rows = [("Health", m.health), ("CP", m.cp), ("King's Hand", m.kings_hand),
                ("First Strike", "yes" if m.first_strike else "no")]
        if "gold" in reward:
            rows.append(("Reward", f"{reward['gold']} Gold"))
        elif "chest" in reward:
            rows.append(("Reward", f"a level {reward['chest']} Loot Chest"))
        cells = "".join(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>" for k, v in rows)
        objective = (self.report or {}).get("objective")
        odds = (f'<div class="odds" data-odds="Roll Objective">{odds_cells(objective["chances"])}</div>'
                if objective else "")
        needs = self.requirement(m.objective)
        return (f'<section id="e-minion"><h2>Minion card</h2><table class="facts">{cells}</table>'
                f'<div class="tier"><b>Roll Objective:</b> {needs}</div>{odds}</section>')

    def boss_setup(self) -> str:
        """A Boss's setup by the number of heroes, its King's Hand table and Boss Loot, and each
        Action card's Roll Objective and Hero Bonus."""
        b = self.hero.boss
        keys = (("heroes", "heroes"), ("health", "Health"), ("cp", "CP"), ("upgrade_cp", "Upgrade CP"),
                ("kings_hand", "King's Hand"), ("hero_health", "each hero's Health"))
        head = "".join(f"<th>{escape(title)}</th>" for _, title in keys)
        rows = "".join("<tr>" + "".join(f"<td>{escape(str(row.get(k, '')))}</td>" for k, _ in keys) + "</tr>"
                       for row in b.setup)
        facts = [f"Boss Loot: {b.boss_loot} chest(s)"]
        if b.kings_hand:
            success = ", ".join(str(v) for v in b.kings_hand["success"])
            facts.append(f"King's Hand: {b.kings_hand['per_turn']} a turn, succeeds on {success}")
        actions = "".join(f"<tr><td>{escape(self.hero.cards[a.card].name)}</td>"
                          f"<td>{self.requirement(a.objective)}</td><td>{self.printed(a.bonus)}</td></tr>"
                          for a in b.actions)
        return (f'<section id="e-boss"><h2>Boss setup</h2><table class="facts"><tr>{head}</tr>{rows}</table>'
                f'<p class="meta">{escape(" · ".join(facts))}</p><h2>Action cards</h2><table class="facts">'
                f"<tr><th>card</th><th>Roll Objective</th><th>Hero Bonus</th></tr>{actions}</table>"
                "</section>")

    def dice_key(self) -> str:
        faces = "".join(f'<div class="face" data-face="{v}">{self.icons.html(s)}'
                        f'<span class="value">{v}</span><span class="sym-name">{escape(s)}</span></div>'
                        for v, s in sorted(self.hero.faces.items()))
        return (f'<section id="e-dice"><h2>Dice key</h2><div class="dice-key">{faces}</div>'
                f'{self.remarks.html("e-dice")}</section>')

    def requirement(self, site: Site) -> str:
        """The dice a requirement needs, drawn as dice (the text beside them, as printed)."""
        ast = site.ast
        text = render_test(ast) if isinstance(ast, n.Requirement) else (
            " ".join(f"[{s}]" for s in site.text) if isinstance(site.text, list) else str(site.text))
        dice: list[str] = []
        drawn = isinstance(ast, n.Requirement) and all(isinstance(i, n.SymbolNeed) for i in ast.items)
        if isinstance(ast, n.Requirement):
            for item in ast.items:
                if isinstance(item, n.SymbolNeed):
                    dice += [f'<span class="die">{self.icons.html(item.symbol)}</span>'] * item.count
                elif isinstance(item, n.OfAKind):
                    inner = self.icons.html(item.symbol) if item.symbol else "="
                    dice += [f'<span class="die">{inner}</span>'] * item.count
                elif isinstance(item, n.Straight):
                    run = range(1, 5) if item.size == "small" else range(1, 6)
                    dice += [f'<span class="die">{k}</span>' for k in run]
        return (f'<span class="requirement" data-requirement="{escape(text)}">{"".join(dice)} '
                f'<span class="{"sym-name" if drawn else "req-text"}">{self.icons.text(text)}</span></span>')

    def chances(self, ability: Ability, requirement: str) -> str:
        found = self.odds.get((ability.name, same_requirement(requirement)))
        if found is None:
            return ""
        return f'<div class="odds" data-odds="{escape(requirement)}">{odds_cells(found)}</div>'

    def ability(self, a: Ability) -> str:
        eid = entry_id(a.path)
        head = escape(a.name) + (f'<span class="kind">Defense Roll {a.dice}</span>' if a.dice else "")
        if a.attack_modifier:
            head += '<span class="kind">Attack Modifier</span>'
        parts = [f'<div class="panel ability" id="{eid}" data-ability="{escape(a.name)}"><h3>{head}</h3>']
        if a.shared is not None:
            parts.append(f"<p>{self.printed(a.shared)}</p>")
        for option in a.options:
            req = self.requirement(option.requires)
            text = render_test(option.requires.ast) if isinstance(option.requires.ast, n.Requirement) else ""
            parts.append(f'<div class="tier">{req}<span class="effect">{self.printed(option.effect)}</span>'
                         f"{self.chances(a, text)}</div>")
        if a.additionally is not None:
            parts.append(f"<p><b>Additionally:</b> {self.printed(a.additionally)}</p>")
        for site in a.effects:
            parts.append(f"<p>{self.printed(site)}</p>")
        if a.dice:
            parts.append(self.defense_odds(a))
        if a.note:
            parts.append(f'<p class="note">{escape(" ".join(a.note.split()))}</p>')
        if a.gap:
            parts.append(f'<p class="gap">Not in dtc: {escape(" ".join(a.gap.split()))}</p>')
        parts.append(self.remarks.html(eid) + "</div>")
        return "".join(parts)

    def defense_odds(self, a: Ability) -> str:
        """What the Defensive Roll does, each outcome with its exact chance (`dtc odds`)."""
        for d in (self.report or {}).get("defensive", []):
            if d["ability"] != a.name:
                continue
            rows = []
            for o in d["outcomes"]:
                chance = "" if o["chance"] is None else f"{float(o['chance']):.1%}"
                rows.append(f"<tr><td>{chance}</td><td>{escape(o['outcome'])}</td></tr>")
            return ('<table class="facts defense-odds"><tr><th>chance</th><th>the roll</th></tr>'
                    + "".join(rows) + "</table>")
        return ""

    def status(self, s: Status) -> str:
        eid = entry_id(s.path)
        facts = [s.polarity, f"stack limit {s.stack_limit}"]
        facts += [flag for flag in ("persistent", "transferable") if s.data.get(flag)]
        if s.data.get("removable") is False:
            facts.append("not removable")
        if s.sides:
            facts.append("sides " + " / ".join(s.sides))
        parts = [f'<div class="panel status" id="{eid}" data-status="{escape(s.name)}">'
                 f'<h3>{escape(s.name)}<span class="kind">{escape(" · ".join(facts))}</span></h3>']
        if s.spendable is not None:
            parts.append(f"<p><b>Spend:</b> {self.printed(s.spendable)}</p>")
        for site in s.written or s.effects:
            side = f"<b>{escape(site.side)}:</b> " if site.side else ""
            parts.append(f"<p>{side}{self.printed(site)}</p>")
        for slot in s.slots:
            for tier in slot.tiers:
                bp = f" ({self.requirement(tier.blueprint)})" if tier.blueprint else ""
                parts.append(f"<p><b>{escape(tier.name)} {escape(slot.name)}</b>{bp}: "
                             f"{self.printed(tier.effect)}</p>")
        parts.append(self.remarks.html(eid) + "</div>")
        return "".join(parts)

    def component(self, c: Component) -> str:
        eid = entry_id(c.path)
        d = c.data
        if c.kind == "dial":
            desc = f"dial {d['range'][0]}–{d['range'][1]}, starts at {d.get('start')}"
            if d.get("sides"):
                desc += f"; sides {' / '.join(d['sides'])}"
        elif c.kind == "track":
            positions = " › ".join(str(p) for p in d.get("positions", []))
            desc = f"track: {positions}; starts at {d.get('start')}"
        elif c.kind == "forms":
            desc = "forms: " + ", ".join(d.get("forms", [])) + f"; starts as {d.get('start')}"
        else:
            desc = f"card zone holding {d.get('holds', 'cards')}"
        parts = [f'<div class="panel component" id="{eid}" data-component="{escape(c.name)}">'
                 f'<h3>{escape(c.name)}<span class="kind">{escape(c.kind)}</span></h3>'
                 f'<p class="note">{escape(desc)}</p>']
        for site in c.effects:
            where = [site.side or "", f"at {site.position}" if site.position else ""]
            mark = f"<b>{escape(', '.join(w for w in where if w))}:</b> " if any(where) else ""
            parts.append(f"<p>{mark}{self.printed(site)}</p>")
        parts.append(self.remarks.html(eid) + "</div>")
        return "".join(parts)

    def deck(self) -> str:
        shared = shared_cards(self.hero, self.content)
        if not self.hero.cards and not shared:
            return ""  # a Minion: no deck
        own = "".join(self.card(c, entry_id(c.path)) for c in self.hero.cards)
        common = "".join(self.card(c, None) for c in shared)
        size = sum(c.copies for c in self.hero.cards) + sum(c.copies for c in shared)
        out = f'<section id="deck"><h2>Deck ({size} cards)</h2><div class="cards">{own}</div>'
        if common:
            out += f'<h2>Cards every hero has</h2><div class="cards">{common}</div>'
        return out + "</section>"

    def card(self, c: Card, eid: str | None) -> str:
        face = card_face(card_data(c), self.icons, upgrade_text(c.ability) if c.ability else None)
        copies = f'<div class="note">× {c.copies}</div>' if c.copies > 1 else ""
        ident = f' id="{eid}"' if eid else ""
        return f'<div class="card-slot"{ident}>{face}{copies}{self.remarks.html(eid) if eid else ""}</div>'


def deck_faces(hero: Hero, content: Content) -> list[str]:
    """Every card of the hero's deck as a face, each copy once (what print-and-play cuts out): the
    hero's own cards, then the cards every hero has."""
    icons = Icons(hero_icons(hero.doc.data, hero.doc.path))
    shared = shared_cards(hero, content)
    faces = []
    for c in list(hero.cards) + shared:
        face = card_face(card_data(c), icons, upgrade_text(c.ability) if c.ability else None)
        faces += [face] * c.copies
    return faces


def card_data(c: Card) -> dict:
    """What a card face shows, as printed in the YAML."""
    face = {"name": c.name, "kind": c.kind, "cost": c.cost, "authored": "authored" in c.data}
    for key in ("timing", "upgrades", "level", "type", "symbol"):
        if key in c.data:
            face[key] = c.data[key]
    if c.effect is not None:
        face["effect"] = " ".join(str(c.effect.text).split())
    return face


def upgrade_text(a: Ability) -> str:
    """An upgrade card's ability as printed: one line per tier, `4 [Claw]: Deal 6 dmg.`."""
    lines = []
    if a.dice:
        lines.append(f"Defense Roll {a.dice}")
    if a.shared is not None:
        lines.append(" ".join(str(a.shared.text).split()))
    for o in a.options:
        ast = o.requires.ast
        req = render_test(ast) if isinstance(ast, n.Requirement) else str(o.requires.text)
        lines.append(f"{req}: " + " ".join(str(o.effect.text).split()))
    if a.additionally is not None:
        lines.append("Additionally: " + " ".join(str(a.additionally.text).split()))
    lines += [" ".join(str(s.text).split()) for s in a.effects]
    return "\n".join(lines)
