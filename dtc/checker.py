"""Check: the content model in, diagnostics out (and every effect site's resolved AST).

Everything is reported in one pass: rulesets, heroes (dice, names, components,
verbs, statuses, abilities, cards), status sets and card sets.  Effect text is
parsed here, validated against `schemas/effect.schema.json`, and resolved
(`dtc.resolve`) in the context it runs in.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import replace
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

from dtc import dice, phrases
from dtc import nodes as n
from dtc.diagnostics import CODE_BY_NAME, CODES, Diagnostic, Severity, error, warning
from dtc.dicethrone.modes import ModeError, mode_from_data
from dtc.model import Ability, Card, Component, Content, Hero, Ruleset, Site, Status
from dtc.parser import Problem, parse_effect, parse_requirement, parse_trigger
from dtc.render import render_trigger
from dtc.resolve import Context, Scope, fold, parse_verb_body, resolve_effect, singular
from dtc.schema import validate_effect_ast
from dtc.source import Span
from dtc.verbs import compile_pattern, pattern_problems

# Warnings an author may `allow` with a reason; errors can never be allowed.
# the warnings an `allow:` may silence (every warning: an author who checked one says why)
ALLOWABLE = {"C007", "C027", "C028", "C029", "C030", "C031", "C032", "C033", "C034", "C035"}
NEEDS_TRIGGER = {"status", "passive", "component"}


class Checker:
    """Collects diagnostics over one `Content`."""

    def __init__(self, content: Content, hero_statuses: list[tuple[str, str, list[str]]] | None = None):
        self.content = content
        # every hero's (name, file, status names) in file order, for the heroes not in `content`
        # too (`project.run(keep_heroes=False)` checks them one at a time); None: content's heroes
        self.hero_statuses = hero_statuses
        self.hero_names: dict[str, Span] = {}  # each hero name (folded) checked so far, where it is
        self.rulesets: list[Ruleset] = []
        self.shared_statuses: list[Status] = []
        self.diags: list[Diagnostic] = []
        self.book = phrases.EMPTY  # every phrasebook of the content, checked (`check_phrasebooks`)
        self.status_book = phrases.EMPTY  # ... with the phrases for status effects' text
        self._phrases: list | None = None
        self._status_owners: dict | None = None
        self.moment_taken = False  # a line below a status's tiers' moment took it (`check_status`)

    # -- reporting
    def add(self, d: Diagnostic) -> None:
        self.diags.append(d)

    def warn(self, d: Diagnostic, doc, path: tuple) -> None:
        """Add a warning about the entry at `path` of `doc`, silenced by an `allow:` of that entry
        or of one holding it (`allow: {shadowed-status: ...}` on a status: designer QA could not)."""
        reason = _allowed(doc.data, path, d.code)
        self.add(replace(d, suppressed=reason) if reason is not None else d)

    def at_site(self, site: Site, p: Problem) -> None:
        p = p.narrowed(site.text)
        span = site.doc.text_span(site.path, p.start, p.end)
        severity = Severity(p.severity)
        d = Diagnostic(p.code, severity, p.message, span, p.hint, notes=p.notes)
        if severity == Severity.ERROR:
            site.broken = True
        if severity == Severity.WARNING:
            reason = site.allow.get(p.code) or site.allow.get(CODES[p.code].name)
            if reason is not None:
                d = replace(d, suppressed=reason)
        self.add(d)

    # -- entry
    def run(self) -> list[Diagnostic]:
        self.check_shared()
        for hero in self.content.heroes:
            self.check_one_hero(hero)
        self.check_rest()
        return self.diags

    def check_shared(self) -> None:
        """What every hero is checked against: rulesets, phrasebooks, the shared status effects."""
        self.check_allow_entries([s.doc for s in self.content.status_sets]
                                 + [c.doc for c in self.content.card_sets])
        self.rulesets = rulesets = self.check_rulesets()
        self.book = self.check_phrasebooks(for_status=False)
        self.status_book = self.check_phrasebooks()
        self.check_lexicons()
        self.shared_statuses = all_statuses = [s for ss in self.content.status_sets for s in ss.statuses]
        self.check_unique([(s.name, s.doc, s.path + ("name",)) for s in all_statuses], "status effect")
        for status_set in self.content.status_sets:
            scope = self.base_scope(self.ruleset_for(None, rulesets, status_set.doc), all_statuses)
            for die in status_set.dice:
                scope.dice_types[fold(die.name)] = die
            for status in status_set.statuses:
                self.check_status(status, scope)

    def check_one_hero(self, hero: Hero) -> None:
        """One hero, after `check_shared`, in file order (a second hero of a name is the one reported)."""
        self.check_allow_entries([hero.doc])
        span = hero.doc.span(("hero",))
        first = self.hero_names.setdefault(fold(hero.name), span)
        if first is not span:
            self.add(_named_twice(hero.name, "hero", first, span))
        self.check_hero(hero, self.rulesets, self.shared_statuses)

    def check_rest(self) -> None:
        """What comes after the heroes: minions, adventures, Loot, card sets."""
        rulesets, all_statuses = self.rulesets, self.shared_statuses
        self.check_unique([(m.name, m.doc, m.minion.objective.path[:2] + ("name",) if m.minion else ("boss",))
                           for m in self.content.minions], "minion")
        for minion in self.content.minions:
            self.check_minion(minion, rulesets, all_statuses)
        for adventure in self.content.adventures:
            self.check_adventure(adventure)
            scope = self.base_scope(self.ruleset_for(None, rulesets, adventure.doc), all_statuses)
            scope.player_kind = "Heroes"
            for site in adventure.effects.values():  # done by the exploring hero, outside any phase
                self.check_site(site, scope, Context("setup"))
        self.check_loot()
        for extra in self.content.adventures[1:]:
            self.add(error("C038", f"a second adventure (`{extra.name}`): one is played at a time",
                           extra.doc.span(("adventure",)), "lint one adventure file with the content"))
        for card_set in self.content.card_sets:
            scope = self.base_scope(self.ruleset_for(None, rulesets, card_set.doc), all_statuses)
            scope.player_kind = "Heroes"  # the cards of every hero's deck, and the Loot cards
            self.check_unique([(c.name, c.doc, c.path + ("name",)) for c in card_set.cards], "card")
            for card in card_set.cards:
                self.check_card(card, scope, None)

    # -- names
    def check_unique(self, items, what: str, report_from: int = 0) -> None:
        """Two items with the same name are an error at the second (items before `report_from` are
        only named: they were checked on their own)."""
        seen: dict[str, tuple] = {}
        for i, (name, doc, path) in enumerate(items):
            key = fold(name)
            if key in seen and i >= report_from:
                first_doc, first_path = seen[key]
                self.add(_named_twice(name, what, first_doc.span(first_path), doc.span(path)))
            else:
                seen[key] = (doc, path)

    def check_shadowing(self, hero: Hero, shared_statuses) -> None:
        """A hero's own status named like a shared one hides it from this hero's effects: said, since
        a designer who meant the shared one would otherwise never know."""
        shared = {fold(s.name): s for s in shared_statuses}
        for status in hero.statuses:
            other = shared.get(fold(status.name))
            if other is None:
                continue
            where = other.doc.span(other.path + ("name",))
            self.warn(warning("C027", f"{hero.name}'s status effect `{status.name}` has the name of a shared "
                              f"one ({where.path}:{where.line}); this hero's effects mean its own",
                              hero.doc.span(status.path + ("name",)),
                              "to use the shared one, delete this entry; if it is another status, rename it, "
                              "or `allow: {shadowed-status: <why>}` on it"), hero.doc, status.path)

    def check_allow_entries(self, docs: list) -> None:
        for doc in {id(d): d for d in docs}.values():  # a document once, however many sets it holds
            for path, allow in _allow_dicts(doc.data, ()):
                for key in allow:
                    code = CODES.get(key) or CODE_BY_NAME.get(key)
                    if code is None:
                        names = [CODES[c].name for c in sorted(ALLOWABLE)]
                        close = difflib.get_close_matches(key, names, n=1)
                        self.add(error("C023", f"`allow` names `{key}`, which is no diagnostic",
                                       doc.key_span(path + (key,)),
                                       f"did you mean `{close[0]}`?" if close else
                                       "warnings that can be allowed: " + ", ".join(names)))
                    elif code.code not in ALLOWABLE:
                        self.add(error("C023", f"`{key}` is an error; errors cannot be allowed",
                                       doc.key_span(path + (key,)), "fix the content instead"))

    # -- rulesets
    def check_rulesets(self) -> list[Ruleset]:
        rulesets = self.content.rulesets
        self.check_unique([(r.name, r.doc, ("ruleset",)) for r in rulesets]
                          + [(alias, r.doc, ("aliases", i)) for r in rulesets
                             for i, alias in enumerate(r.data.get("aliases", ()))], "ruleset")
        defaults = [r for r in rulesets if r.default]
        for extra in defaults[1:]:
            self.add(error("C008", f"`{extra.name}` and `{defaults[0].name}` are both the default "
                           "ruleset", extra.doc.span(("default",)), "mark only one `default: true`"))
        for r in rulesets:
            types = r.data["damage_types"]
            self.check_unique([(t["name"], r.doc, ("damage_types", i, "name"))
                               for i, t in enumerate(types)], "damage type")
            if "normal" not in [t["name"] for t in types]:
                self.add(error("C011", "the damage-type chart has no `normal` type, which plain "
                               "`dmg` means", r.doc.span(("damage_types",))))
            self.check_unique([(p["name"], r.doc, ("phases", i, "name"))
                               for i, p in enumerate(r.data["phases"])], "phase")
            self.check_modes(r)
        return rulesets

    def check_modes(self, r: Ruleset) -> None:
        """Every mode describes a table (`mode_from_data`: sides and turn order seat each player once,
        a shared dial has sides, the targeting die has two opponents to choose from); a name or an
        alias names one mode."""
        names = [(name, r.doc, ("modes", name)) for name in r.data["modes"]]
        names += [(alias, r.doc, ("modes", name, "aliases", i))
                  for name, mode in r.data["modes"].items()
                  for i, alias in enumerate(mode.get("aliases", ()))]
        self.check_unique(names, "mode")
        for name, mode in r.data["modes"].items():
            try:
                mode_from_data(name, mode)
            except ModeError as problem:
                path = ("modes", name) + ((problem.field,) if problem.field in mode else ())
                self.add(error("C037", str(problem), r.doc.span(path), problem.hint))

    def check_phrasebooks(self, for_status: bool = True) -> phrases.Phrasebook:
        """The phrases of every phrasebook, in file order (`for_status`: with those for status effects'
        text only); a phrase that cannot be used is reported, once, and left out."""
        if self._phrases is None:
            self._phrases = self.phrase_entries()
        return phrases.phrasebook([(say, means) for say, means, status_only in self._phrases
                                   if for_status or not status_only])

    def check_lexicons(self) -> None:
        """A lexicon document is the built-in one (content/rules/lexicon.yaml, linted with the rest of
        the content): the language reads only that one, so another would lint clean and not be read."""
        builtin = phrases.lexicon()
        for doc in self.content.lexicons:
            if phrases.lexicon_entries(doc.data) != (builtin.numbers, builtin.words):
                self.add(error("C041", "this lexicon is not read: the effect language's words are the "
                               "built-in lexicon's", doc.key_span(("lexicon",)),
                               "write the wording in a phrasebook (`phrasebook:`, `say:` and `means:`), "
                               "which the content's texts are read through"))

    def phrase_entries(self) -> list[tuple[str, str, bool]]:
        entries = []
        seen: dict[str, tuple] = {}
        for book in self.content.phrasebooks:
            for say, means, path, status_only in book.entries:
                problems = phrases.pattern_problems(say, means)
                where = book.doc.span(path + ("say",))
                if problems:
                    self.add(error("C020", f"phrase `{say}` cannot be used: {problems[0]}", where,
                                   "a phrase is words, with `{n}` for an amount or `{name}` for words"))
                    continue
                shape = " ".join(phrases.stem(w) if not w.startswith("{") else "{}" for w in say.split())
                if shape in seen:
                    self.add(error("C008", f"phrase `{say}` is in the phrasebook already as "
                                   f"`{seen[shape][0]}`",
                                   where, "keep one of them"))
                    continue
                seen[shape] = (say, means)
                entries.append((say, means, status_only))
        return entries

    def ruleset_for(self, name: str | None, rulesets: list[Ruleset], doc, path=("ruleset",)):
        if name is not None:
            for r in rulesets:
                if fold(r.name) == fold(name):
                    return r
            close = difflib.get_close_matches(name, [r.name for r in rulesets], n=1)
            self.add(error("C021", f"unknown ruleset `{name}`", doc.span(path),
                           f"did you mean `{close[0]}`?" if close else
                           "rulesets here: " + ", ".join(f"`{r.name}`" for r in rulesets)))
        # an unknown name falls back to the default, so one typo gives one error
        defaults = [r for r in rulesets if r.default] or rulesets[:1]
        return defaults[0] if defaults else None

    def base_scope(self, ruleset: Ruleset | None, statuses: list[Status]) -> Scope:
        scope = Scope(phrasebook=self.book, status_phrasebook=self.status_book)
        if ruleset is not None:
            scope.dice_count = ruleset.data["dice"]["per_hero"]
            scope.faces = {v: "" for v in ruleset.data.get("dice_faces", [])}
            for t in ruleset.damage_types:
                scope.damage_types[fold(t)] = t
            for phase in ruleset.phase_names():
                scope.phases[fold(phase)] = phase
            scope.phases.setdefault("turn", "turn")
        for status in statuses:
            _add_status(scope, status)
        return _shielded(scope)

    # -- heroes
    def hero_scope(self, hero: Hero, ruleset, shared_statuses) -> Scope:
        scope = self.base_scope(ruleset, [])
        scope.player_kind = "Bosses" if hero.boss else "Minions" if hero.minion else "Heroes"
        scope.faces = dict(hero.faces)
        scope.dice_count = hero.dice_count
        for symbol in hero.symbols:
            scope.symbols[fold(symbol)] = symbol
        for status in hero.statuses + shared_statuses:
            if fold(status.name) not in scope.statuses:
                _add_status(scope, status)
        for comp in hero.components:
            scope.components.setdefault(fold(comp.name), comp)
            if comp.kind == "forms":
                for form in comp.values:
                    scope.forms[fold(form)] = (comp, form)
            if comp.kind == "zone":
                scope.card_types[fold(comp.data["holds"])] = comp.data["holds"]
        for card in hero.cards:
            if card.kind == "unique":
                scope.card_types[fold(card.data["type"])] = card.data["type"]
        for ss in self.content.status_sets:
            for die in ss.dice:
                scope.dice_types[fold(die.name)] = die
        for name, owners in self.status_owners().items():
            owner = next((o for o in owners if o[1] != hero.doc.path), None)
            if owner is not None:
                scope.others.setdefault(name, owner)
        return _shielded(scope)

    def status_owners(self) -> dict[str, list[tuple[str, str]]]:
        """Each hero status name (folded) with its first two heroes (name, file), in file order: another
        hero's status named in an effect is reported with its owner. Built once: asked of every hero,
        going through every other hero's statuses made a folder of 2,000 heroes quadratic."""
        if self._status_owners is None:
            self._status_owners = {}
            heroes = self.hero_statuses
            if heroes is None:
                heroes = [(h.name, h.doc.path, [s.name for s in h.statuses]) for h in self.content.heroes]
            for hero_name, path, statuses in heroes:
                for status in statuses:
                    owners = self._status_owners.setdefault(fold(status), [])
                    if len(owners) < 2 and all(o[1] != path for o in owners):
                        owners.append((hero_name, path))
        return self._status_owners

    def check_hero(self, hero: Hero, rulesets, shared_statuses) -> None:
        ruleset = self.ruleset_for(hero.ruleset, rulesets, hero.doc, ("rules",))
        if ruleset is None and not rulesets:
            self.add(error("C021", "no ruleset to check this hero against", hero.doc.span(("hero",)),
                           "lint the hero together with a ruleset file, or keep the built-in one"))
        scope = self.hero_scope(hero, ruleset, shared_statuses)
        if ruleset is not None:
            self.check_faces(hero, ruleset)
        self.check_dice_size(hero)
        self.check_icons(hero)
        self.check_unique([(a.name, hero.doc, a.path + ("name",)) for a in hero.abilities], "ability")
        self.check_unique([(s.name, hero.doc, s.path + ("name",)) for s in hero.statuses],
                          "status effect")
        self.check_shadowing(hero, shared_statuses)
        self.check_unique([(c.name, hero.doc, c.path + ("name",)) for c in hero.components],
                          "component")
        shared_cards = [(c.name, cs.doc, c.path + ("name",))
                        for cs in self.content.card_sets if cs.every_hero for c in cs.cards]
        self.check_unique(shared_cards + [(c.name, hero.doc, c.path + ("name",)) for c in hero.cards],
                          "card", report_from=len(shared_cards))
        self.check_verbs(hero, scope)
        for comp in hero.components:
            self.check_component(comp, scope)
        for status in hero.statuses:
            self.check_status(status, scope)
        self.check_card_types(hero, scope)
        self.check_upgrade_costs(hero)
        for ability in hero.abilities:
            self.check_ability(ability, scope, hero.dice_count)
        for card in hero.cards:
            self.check_card(card, scope, hero)
        if hero.setup is not None:
            self.check_site(hero.setup, scope, Context("setup"))

    def check_adventure(self, adventure) -> None:
        """003_bd4cabbe7964005d.txt, "Building the Map" and "Your Objective": each map has the Crimson
        Sands and the Boss Portal once, every tile reachable from the Sands orthogonally, the 3 Portal
        Shards (and Salves, Chests) on Environment tiles; the decks hold enough Environments and
        Minions of each level for what the maps and tiles draw."""
        doc, data = adventure.doc, adventure.data
        seen: set[int] = set()
        for i, row in enumerate(data["hero_setup"]):
            if row["heroes"] in seen:
                self.add(error("C038", f"hero setup for {row['heroes']} heroes is given twice",
                               doc.span(("hero_setup", i, "heroes")), "give each team size once"))
            seen.add(row["heroes"])
        dice = {d.name.casefold(): d for ss in self.content.status_sets for d in ss.dice}
        die = dice.get(data["loot_die"].casefold())
        if die is None:
            known = ", ".join(d.name for d in dice.values()) or "none"
            self.add(error("C024", f"unknown die `{data['loot_die']}` for the Loot die; the status sets' "
                           f"dice: {known}", doc.span(("loot_die",)),
                           "name a die of a status set, and lint the file that defines it with this one"))
        elif sorted(die.faces) != list(range(1, max(die.faces) + 1)):
            self.add(error("C038", f"the Loot die `{die.name}` must have faces 1 to its highest",
                           doc.span(("loot_die",)), "give the die the faces 1, 2, 3, ..."))
        else:
            self.check_loot_table(doc, data["loot_table"], max(die.faces))
            ups = [row["upto"] for row in data["boss_loot"]["table"]]
            if ups != sorted(set(ups)) or ups[-1] != max(die.faces):
                self.add(error("C038", f"the Boss Loot table's rows must rise to {max(die.faces)}, the Loot "
                               f"die's highest face (they give {', '.join(map(str, ups))})",
                               doc.span(("boss_loot", "table")),
                               "give each row a higher `upto` than the one before, the last one the highest "
                               "face"))
        self.check_boss_vs(doc, data.get("boss_vs"))
        environments = Counter(e["level"] for e in data["environments"])
        minions = Counter(m.minion.level for m in self.content.minions if m.minion is not None)
        for i, env in enumerate(data["environments"]):
            if "minion" in env and not minions[env["minion"]]:
                self.add(error("C038", f"environment `{env['name']}` shows a level {env['minion']} minion, "
                               "and no minion of that level is loaded",
                               doc.span(("environments", i, "minion")),
                               "add minions of that level (lint their file with this one)"))
        for i, scenario in enumerate(data["scenarios"]):
            self.check_crawl_map(doc, ("scenarios", i), scenario, environments, minions)

    def check_boss_vs(self, doc, rules: dict | None) -> None:
        """"Other Game Modes": the King's Hand status is one of a status set, and each team size's
        targeting ranges rise (a Hero's range ends after the one before)."""
        if rules is None:
            return
        shared = {fold(s.name) for ss in self.content.status_sets for s in ss.statuses}
        if fold(rules["kings_hand"]) not in shared:
            self.add(error("C024", f"unknown status `{rules['kings_hand']}` for the Boss vs modes' "
                           "King's Hand", doc.span(("boss_vs", "kings_hand")),
                           "name a status of a status set (content/statuses/adventures.yaml), linted "
                           "with this file"))
        for size, tops in rules["targeting"].items():
            if tops != sorted(set(tops)) or len(tops) != int(size):
                self.add(error("C038", f"the targeting roll for {size} Heroes needs {size} rising "
                               f"values, one a Hero (it gives {', '.join(map(str, tops))})",
                               doc.span(("boss_vs", "targeting", size)),
                               "give the highest die value of each Hero's range, left to right"))

    def check_loot(self) -> None:
        """"Loot Cards": a family's levels are told apart (one card a level), and a Swap card names a
        non-Loot card every hero's deck holds ("Loot cards featuring a Swap icon indicate it replaces
        a non-Loot card")."""
        levels: dict[tuple[str, int], str] = {}
        shared = {fold(c.name) for cs in self.content.card_sets if cs.every_hero for c in cs.cards}
        for loot in self.content.loot:
            card = loot.card
            key = (fold(loot.family), loot.level)
            if key in levels:
                self.add(error("C038", f"`{card.name}` and `{levels[key]}` are both level {loot.level} of "
                               f"`{loot.family}`",
                               card.doc.span(card.path + (("level",) if "level" in card.data else ("name",))),
                               "give each level of a family one card"))
            levels[key] = card.name
            if loot.swaps is not None and fold(loot.swaps) not in shared:
                self.add(error("C024", f"`{card.name}` swaps `{loot.swaps}`, which is no card of every "
                               "hero's deck", card.doc.span(card.path + ("swaps",)),
                               "name a card of a card set `for: every hero` (content/cards/common.yaml)"))

    def check_loot_table(self, doc, table: dict, faces: int) -> None:
        """Each Chest's rows in rising order of `upto`, the last at the Loot die's highest face: every
        roll gets one reward."""
        for chest in ("1", "2", "3", "4"):
            ups = [row["upto"] for row in table[chest]]
            if ups != sorted(set(ups)) or ups[-1] != faces:
                self.add(error("C038", f"Chest {chest}'s rows must rise to {faces}, the Loot die's "
                               f"highest face (they give {', '.join(map(str, ups))})",
                               doc.span(("loot_table", chest)),
                               "give each row a higher `upto` than the one before, the last one the highest "
                               "face"))

    def check_crawl_map(self, doc, path: tuple, scenario: dict, environments: Counter,
                        minions: Counter) -> None:
        """One scenario card's map (see `check_adventure`)."""
        rows = [r.split() for r in scenario["map"]]
        name = scenario["name"]
        if len({len(r) for r in rows}) > 1:
            self.add(error("C038", f"the rows of scenario `{name}`'s map have different lengths",
                           doc.span(path + ("map",)),
                           "write every row with the same number of cells (`.` for none)"))
            return
        cells = {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row) if v != "."}
        for mark, what in (("S", "the Crimson Sands starting tile"), ("P", "the Boss Portal")):
            count = sum(v == mark for v in cells.values())
            if count != 1:
                self.add(error("C038", f"scenario `{name}`'s map has {count} `{mark}` ({what}); it needs one",
                               doc.span(path + ("map",)), f"mark {what} with one `{mark}`"))
                return
        start = next(p for p, v in cells.items() if v == "S")
        reached, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if step in cells and step not in reached:
                    reached.add(step)
                    todo.append(step)
        for place in sorted(set(cells) - reached):
            self.add(error("C038", f"scenario `{name}`: the tile at row {place[0]}, column {place[1]} "
                           "cannot be reached from the Crimson Sands", doc.span(path + ("map",)),
                           "\"You cannot move between Environment tiles diagonally\": join it to the others"))
        if len(scenario["shards"]) != 3:
            self.add(error("C038", f"scenario `{name}` places {len(scenario['shards'])} Portal Shards; "
                           "the Boss Portal opens with 3", doc.span(path + ("shards",)),
                           "place 3 Portal Shards"))
        placed = [(("shards", j), p) for j, p in enumerate(scenario["shards"])]
        placed += [(("salves", j), p) for j, p in enumerate(scenario.get("salves", []))]
        placed += [(("chests", j, "at"), c["at"]) for j, c in enumerate(scenario.get("chests", []))]
        for where, (r, c) in placed:
            if cells.get((r, c)) not in ("1", "2", "3"):
                self.add(error("C038", f"scenario `{name}`: row {r}, column {c} is not an Environment tile",
                               doc.span(path + where), "place it on a `1`, `2` or `3` cell of the map"))
        for level in (1, 2, 3):
            needed = sum(v == str(level) for v in cells.values())
            if needed > environments[level]:
                self.add(error("C038", f"scenario `{name}` has {needed} level {level} tiles and there are "
                               f"{environments[level]} level {level} environments", doc.span(path + ("map",)),
                               "add environments of that level, or fewer tiles"))
        if not minions[4]:
            self.add(error("C038", f"scenario `{name}`: the Boss Portal draws a level IV minion and none "
                           "is loaded",
                           doc.span(path + ("map",)), "add a level 4 minion (lint its file with this one)"))

    def check_minion(self, minion: Hero, rulesets, shared_statuses) -> None:
        """A minion is checked as a hero is (its abilities have a hero's shape), on the faces of the
        die it rolls; its Roll Objective is a requirement those dice can meet."""
        info = minion.minion or minion.boss
        if not minion.faces:
            known = ", ".join(f"`{d.name}`" for ss in self.content.status_sets for d in ss.dice) or "none"
            what = "minion" if minion.minion else "boss"
            self.add(error("C024", f"unknown die `{info.die}` for {what} `{minion.name}`; the status sets' "
                           f"dice: {known}", minion.doc.span(("dice",)),
                           "name a die of a status set, and lint the file that defines it with the minions"))
            return
        self.check_hero(minion, rulesets, shared_statuses)  # an unknown ruleset is reported there
        named = minion.ruleset if any(fold(r.name) == fold(minion.ruleset or "") for r in rulesets) else None
        ruleset = self.ruleset_for(named, rulesets, minion.doc, ("rules",))
        scope = self.hero_scope(minion, ruleset, shared_statuses)
        if minion.minion is not None:
            self.check_requirement(info.objective, scope, minion.dice_count)
            return
        for action in info.actions:  # "the Roll Objective shown on the last drawn card"
            self.check_requirement(action.objective, scope, minion.dice_count)
            self.check_site(action.bonus, scope, Context("setup"))  # performed outside any phase
        self.check_boss_setup(minion)

    def check_boss_setup(self, boss: Hero) -> None:
        """Each team size once; the Upgrade deck's cards are upgrades of the board's abilities (the
        card checks say which ability), and every Action card is an Action card."""
        seen: set[int] = set()
        for i, row in enumerate(boss.boss.setup):
            if row["heroes"] in seen:
                self.add(error("C038", f"boss setup for {row['heroes']} heroes is given twice",
                               boss.doc.span(("setup", i, "heroes")), "give each team size once"))
            seen.add(row["heroes"])
        for i, card in enumerate(boss.doc.data["upgrade_deck"]):
            if card["kind"] != "upgrade":
                self.add(error("C016", f"`{card['name']}` in the Upgrade deck is not an upgrade card",
                               boss.doc.span(("upgrade_deck", i, "kind")),
                               "\"Upgrade deck: Upgrade cards used only for Boss Setup\": move it to "
                               "the action_deck"))

    def check_faces(self, hero: Hero, ruleset: Ruleset) -> None:
        """The dice key names every face of the ruleset's die, and no other (a face left out made a
        die of 5 faces, silently)."""
        faces = ruleset.data.get("dice_faces")
        if not faces or sorted(hero.faces) == sorted(faces):
            return
        missing = [f for f in faces if f not in hero.faces]
        extra = [f for f in sorted(hero.faces) if f not in faces]
        said = ", ".join(str(f) for f in faces)
        parts = []
        if missing:
            parts.append(f"gives no symbol for face {', '.join(map(str, missing))}")
        if extra:
            parts.append(f"gives face {', '.join(map(str, extra))}, which the die does not have")
        message = "the dice key " + ", and ".join(parts)
        self.add(error("C010", f"{message}: a die of {ruleset.name} has faces {said}",
                       hero.doc.span(("dice", "faces")), f"give one symbol to each face: {said}"))

    def check_dice_size(self, hero: Hero) -> None:
        """`dtc odds`, the board and the bots weigh every way a hero's dice can fall (every multiset of
        them, and of fewer: C(faces + dice, dice)): 5 dice of 6 faces are 462 ways, 10 of 20 faces 30
        million (hours and gigabytes, found by an attacker's pass). A roll past MAX_DICE_STATES is
        refused where its number of dice is written."""
        faces = len(hero.faces)
        rolled = [(hero.dice_count, ("dice", "count"))] + [
            (a.dice, a.path + ("dice",)) for a in hero.abilities if a.kind == "defensive" and a.dice]
        for count, path in rolled:
            ways = dice.ways_to_fall(faces, count)
            if ways <= dice.MAX_DICE_STATES:
                continue
            most = max((d for d in range(1, count) if dice.ways_to_fall(faces, d) <= dice.MAX_DICE_STATES),
                       default=0)
            self.add(error("C040", f"{count} dice of {faces} faces fall in {ways:,} ways, more than the "
                           f"{dice.MAX_DICE_STATES:,} the exact odds and the bots can weigh",
                           hero.doc.span(path),
                           f"roll at most {most} dice of {faces} faces, or give the die fewer faces"
                           if most else "give the die fewer faces"))

    def check_icons(self, hero: Hero) -> None:
        """Issue 23, "Symbol icons": each icon a hero names is for a symbol of its dice key and is an SVG
        or PNG file that is there (a board drawn with a missing icon would fall back silently)."""
        from dtc.views.icons import icon_problem

        dice = hero.doc.data.get("dice") if hero.minion is None and hero.boss is None else None
        named = dice.get("icons") or {} if isinstance(dice, dict) else {}
        base = Path(hero.doc.path).parent
        for symbol, file in named.items():
            path = ("dice", "icons", symbol)
            if symbol not in hero.symbols:
                close = difflib.get_close_matches(str(symbol), hero.symbols, n=1)
                self.add(error("C039", f"an icon for {symbol!r}, which is not a symbol of {hero.name}'s dice",
                               hero.doc.key_span(path),
                               f"did you mean {close[0]!r}?" if close
                               else f"the dice show {', '.join(hero.symbols)}"))
                continue
            problem = icon_problem(base / str(file))
            if problem is not None:
                self.add(error("C039", f"the icon file {file!r} for [{symbol}]: {problem}",
                               hero.doc.span(path),
                               "give a path relative to this YAML file, of an SVG or PNG file"))

    def check_component(self, comp: Component, scope: Scope) -> None:
        data, doc, path = comp.data, comp.doc, comp.path
        if comp.kind == "dial":
            low, high = data["range"]
            if low > high:
                self.add(error("C010", f"{comp.name}'s range runs backwards: {low} to {high}",
                               doc.span(path + ("range",))))
            elif not low <= data["start"] <= high:
                self.add(error("C010", f"{comp.name} starts at {data['start']}, outside its range "
                               f"{low}-{high}", doc.span(path + ("start",))))
            if "start_side" in data:
                self.value_in(data["start_side"], comp.sides, doc, path + ("start_side",),
                              f"side of {comp.name}")
        elif comp.kind in ("track", "forms"):
            self.check_unique([(v, doc, path + (("positions" if comp.kind == "track" else "forms"), i))
                               for i, v in enumerate(comp.values)], "position")
            self.value_in(data["start"], comp.values, doc, path + ("start",), f"value of {comp.name}")
        self.check_sides(comp)
        for site in comp.effects:
            if site.side is not None:
                self.value_in(site.side, comp.sides, doc, site.path[:-1] + ("side",),
                              f"side of {comp.name}")
            if site.position is not None:
                self.value_in(site.position, comp.values, doc, site.path[:-1] + ("at",),
                              f"position of {comp.name}")
            self.check_site(site, scope, Context("component", component=comp))

    def check_sides(self, comp: Component) -> None:
        """A side with no effect of its own: flipping to it only stops the other side's effects,
        which is seldom what a designer meant (a QA hero's Night side did nothing, silently)."""
        used = {fold(str(site.side)) for site in comp.effects if site.side is not None}
        for i, side in enumerate(comp.sides):
            if used and fold(str(side)) not in used:
                self.warn(warning("C033", f"{comp.name}'s {side} side has no effect: while it is face up, "
                                  f"only {comp.name}'s effects without a `side:` act",
                                  comp.doc.span(comp.path + ("sides", i)),
                                  f"give it an effect with `side: {side}`, or drop the side"),
                          comp.doc, comp.path)

    def check_card_types(self, hero: Hero, scope: Scope) -> None:
        """What the hero's zones hold and blueprints need, against the cards of the hero's deck."""
        deck = [c for cs in self.content.card_sets if cs.every_hero for c in cs.cards] + hero.cards
        types = {singular(str(c.data["type"])) for c in deck if c.data.get("type")}
        for comp in hero.components:
            holds = comp.data.get("holds") if comp.kind == "zone" else None
            if holds and singular(str(holds)) not in types:
                known = ", ".join(f"`{t}`" for t in sorted({str(c.data["type"]) for c in deck
                                                            if c.data.get("type")}))
                self.warn(warning("C031", f"{comp.name} holds {holds} cards, and no card of the deck has "
                                  f"`type: {holds}`", comp.doc.span(comp.path + ("holds",)),
                                  f"give the cards it holds `type: {holds}`"
                                  + (f", or hold one of {known}" if known else "")), comp.doc, comp.path)
        copies: dict[str, int] = {}
        for card in deck:
            if card.data.get("symbol"):
                key = fold(str(card.data["symbol"]))
                copies[key] = copies.get(key, 0) + card.copies
        for status in hero.statuses:
            for slot in status.slots:
                for tier in slot.tiers:
                    self.check_blueprint(slot, tier, copies)

    def check_blueprint(self, slot, tier, copies: dict[str, int]) -> None:
        site = tier.blueprint
        if site is None or not isinstance(site.ast, n.Requirement):
            return
        for item in site.ast.items:
            if not isinstance(item, n.SymbolNeed) or item.symbol is None:
                continue
            have = copies.get(fold(item.symbol), 0)
            if item.count > have:
                self.warn(warning("C032", f"{tier.name} {slot.name} can never be crafted: its blueprint "
                                  f"needs {item.count} [{item.symbol}] cards, and the deck has {have}",
                                  site.span(),
                                  f"add cards with `symbol: {item.symbol}` (or more `copies:`), or lower the "
                                  "blueprint"), site.doc, site.path)

    def value_in(self, value, options, doc, path, what) -> bool:
        if any(fold(str(o)) == fold(str(value)) for o in options):
            return True
        close = difflib.get_close_matches(str(value), [str(o) for o in options], n=1)
        self.add(error("C017", f"unknown {what}: `{value}`", doc.span(path),
                       f"did you mean `{close[0]}`?" if close else
                       "it is one of " + ", ".join(f"`{o}`" for o in options)))
        return False

    # -- verbs
    def check_verbs(self, hero: Hero, scope: Scope) -> None:
        seen: dict[str, tuple] = {}
        parsed = []
        for verb in hero.verbs:
            patterns = []
            say_path = verb.path + ("say",)
            for i, text in enumerate(verb.patterns):
                path = say_path + ((i,) if isinstance(hero.doc.get(say_path), list) else ())
                problems = pattern_problems(text)
                for message in problems:
                    self.add(error("C020", message, hero.doc.span(path)))
                if problems:
                    continue
                key = " ".join(text.casefold().split())
                if key in seen:
                    self.add(error("C008", f"two verbs say `{text}`", hero.doc.span(path)))
                seen[key] = (verb, path)
                patterns.append(compile_pattern(_read_as(text, scope.phrasebook)))
            if patterns:
                scope.verbs.append((verb, patterns))
            body, problems = parse_verb_body(verb.means.text, scope.phrasebook)
            for p in problems:
                self.at_site(verb.means, p)
            if body is not None and not any(p.severity == "error" for p in problems):
                parsed.append((verb, patterns, body))
        clean = []
        for verb, patterns, body in parsed:
            used = _params_used(body)
            ok = True
            for pattern in patterns:
                missing = used - set(pattern.params)
                if missing:
                    ok = False
                    self.add(error("C020", f"`means` uses "
                                   f"{', '.join('{' + m + '}' for m in sorted(missing))}"
                                   f" but `{pattern.text}` does not say it",
                                   hero.doc.span(verb.means.path)))
            resolved, problems = resolve_effect(n.Effect(None, False, body), scope,
                                                Context("verb"), defining=True)
            for p in problems:
                self.at_site(verb.means, p)
            if ok and not any(p.severity == "error" for p in problems):
                clean.append((verb, body))
            verb.means.ast = resolved
        for verb, body in clean:
            scope.verb_bodies[id(verb)] = body

    # -- statuses
    def check_status(self, status: Status, scope: Scope) -> None:
        doc, path = status.doc, status.path
        self.check_unique([(s, doc, path + ("sides", i)) for i, s in enumerate(status.sides)], "side")
        ctx = Context("status", status=status)
        status.effects = list(status.written)  # as written: `read_as_printed` makes effects of them
        told = status.spendable is not None and status.spendable.ast is not None
        if told and "spendable" not in status.data:
            status.spendable = None  # said by the text in an earlier check: said again now
        status.tier_moment = None
        for site in [s for s in status.effects if s.side is None]:
            self.check_site(site, scope, ctx)
        below = self.tier_moment(status, ctx)  # the sides' and tiers' lines below it take its moment
        self.moment_taken = False
        for site in [s for s in status.effects if s.side is not None]:
            self.value_in(site.side, status.sides, doc, site.path[:-1] + ("side",), f"side of {status.name}")
            self.check_site(site, scope, below)
        self.read_as_printed(status)
        if status.spendable is not None and status.spendable.ast is None:
            self.check_trigger_site(status.spendable, scope, ctx)
            spent = [site for site in status.effects if isinstance(site.ast, n.Effect)
                     and isinstance(site.ast.trigger, n.Spent)]
            if not spent and not status.slots and all(site.ast is not None for site in status.effects):
                self.warn(warning("C029", f"`{status.name}` is spendable, and spending it does nothing: "
                                  "none of its effects begins `When spent`",
                                  doc.key_span(path + ("spendable",)),
                                  "say what a token does when spent: `When spent, prevent 2 dmg.`; or drop "
                                  "`spendable:` if its effects act on their own"), doc, path)
        elif status.spendable is None and any(_spent(site) for site in status.effects):
            # "Spendable Status Effects": "Unless otherwise specified, you may spend these status
            # effects at any time"; a `When spent` effect with no `spendable:` was never spent
            status.spendable = Site("at any time", doc, path + ("name",), status.owner, "trigger",
                                    status=status, ast=n.AnyTime())
        for slot in status.slots:
            for tier in slot.tiers:
                if tier.blueprint is not None:
                    self.check_requirement(tier.blueprint, scope, None)
                self.check_site(tier.effect, scope, below)
        moment = status.tier_moment
        if moment is not None and not self.moment_taken:
            self.at_site(moment, Problem(
                "C016", "no line below takes this moment: every tier and side line names its own, so this "
                "sentence would do nothing", 0, len(moment.text),
                "drop it, or drop the moment from the lines below it (`Prevent 2 dmg.`)"))

    def tier_moment(self, status: Status, ctx: Context) -> Context:
        """A slotted status as printed: "Whenever a player is Attacked with normal damage, they may
        activate the effects below based on the Plating that is on them", then each tier's own line (a
        status with sides: "During their Upkeep Phase, a player with this token does the following
        based on which side is face-up", then each side's line). That sentence is no effect of its own
        (it leaves `status.effects` for `status.tier_moment`): the lines below that name no moment take
        its moment and its `may`."""
        below = ctx
        for site in list(status.effects):
            moment = tier_moment_of(site.ast)
            if moment is not None and status.tier_moment is None:
                status.effects = [s for s in status.effects if s is not site]
                status.tier_moment = site
                below = replace(ctx, tier_moment=moment[0], tier_may=moment[1])
            elif moment is not None:
                self.at_site(site, Problem(
                    "C016", "the moment of the lines below is printed once, and this is a second one", 0,
                    len(site.text), "keep one `..., you may activate the effects below.` sentence"))
            else:
                self.misplaced_tier_effects(site)
        return below

    def misplaced_tier_effects(self, site: Site) -> None:
        """`activate the effects below` anywhere but alone after its moment would compile to nothing."""
        if site.ast is None or tier_moment_of(site.ast) is not None:
            return
        if any(isinstance(s, n.TierEffects) for s in n.walk(site.ast)):
            span = site.ast.span or n.Offsets(0, len(site.text))
            self.at_site(site, Problem(
                "C016", "`activate the effects below` is a sentence of its own: the moment, then it",
                span.start, span.end, "write `When you are Attacked, you may activate the effects below.`"))

    def read_as_printed(self, status: Status) -> None:
        """A status effect's printed description holds several effects: `When spent, ...` and `If you
        gain this token while at Stack Limit, ...` sentences are effects of their own, and `<when>, you
        may spend this token [and ...]` says when it is spent (its `spendable:`) and what spending does."""
        sites: list[Site] = []
        told = False  # the text said when it is spent already
        for site in status.effects:
            if not isinstance(site.ast, n.Effect):
                sites.append(site)
                continue
            for part in _own_effects(site.ast):
                if _spends_this_token(part):
                    if told:
                        span = part.span or n.Offsets(0, len(site.text))
                        self.at_site(site, Problem(
                            "C036", f"the text says twice when {status.name} is spent; a token has one "
                            "moment to be spent", span.start, span.end,
                            "say it once, and what spending does once (`When spent, ...` may list several "
                            "things, or `choose one`)"))
                    told = True
                    part = self.spend_window(status, site, part)
                if part is not None:
                    sites.append(replace(site, ast=part))
        status.effects = sites

    def spend_window(self, status: Status, site: Site, part: n.Effect) -> n.Effect | None:
        """`<when>, you may spend this token and <X>`: spendable then; spending it does X."""
        when = part.trigger or n.AnyTime()
        if "spendable" in status.data:
            self.add(error("C036", f"the text of {status.name} says when it is spent, and so does "
                           "`spendable:`", status.doc.key_span(status.path + ("spendable",)),
                           "drop `spendable:`: the printed text says it"))
        status.spendable = Site(render_trigger(when), site.doc, site.path, status.owner, "trigger",
                                status=status, ast=when)
        first, rest = part.body[0], part.body[1:]
        inner = first.body if isinstance(first, (n.May, n.Must)) else (first,)
        then = inner[1:] + rest
        while then and isinstance(then[0], n.Then):
            then = then[1:]
        return n.Effect(n.Spent(span=when.span), False, then, part.labels, span=part.span) if then else None

    def check_trigger_site(self, site: Site, scope: Scope, ctx: Context) -> None:
        trigger, problems = parse_trigger(site.text, scope.book_for(ctx.kind))
        for p in problems:
            self.at_site(site, p)
        if trigger is not None:
            wrapped = n.Effect(trigger, False, ())
            resolved, problems = resolve_effect(wrapped, scope, ctx)
            for p in problems:
                self.at_site(site, p)
            site.ast = resolved.trigger

    # -- abilities
    def check_ability(self, ability: Ability, scope: Scope, dice_count: int) -> None:
        doc, path = ability.doc, ability.path
        if ability.kind in ("offensive", "ultimate"):
            data = doc.get(path)
            if not ability.options:
                self.add(error("S004", f"offensive ability `{ability.name}` needs `requires` and "
                               "`effect`, or `tiers`, or `variants`", doc.key_span(path)))
            if "requires" in data and ("tiers" in data or "variants" in data):
                self.add(error("S001", f"`{ability.name}` has both `requires` and "
                               f"`{'tiers' if 'tiers' in data else 'variants'}`; keep one",
                               doc.key_span(path + ("requires",))))
            if "tiers" in data and "variants" in data:
                self.add(error("S001", f"`{ability.name}` has both `tiers` and `variants`; keep one",
                               doc.key_span(path + ("variants",))))
            if "requires" in data and "effect" not in data:
                self.add(error("S004", f"`{ability.name}` is missing `effect`", doc.key_span(path)))
        self.check_ability_sites(ability, scope, dice_count)

    def check_ability_sites(self, ability: Ability, scope: Scope, dice_count: int | None,
                            kind: str | None = None, defensive_dice: int | None = None,
                            inherited: list | None = None) -> None:
        kind = kind or ability.kind
        ultimate = kind == "ultimate"
        requirements = list(inherited or [])
        tiers = []
        for option in ability.options:
            req = self.check_requirement(option.requires, scope, dice_count)
            tiers.append(req)
            if req is not None:
                requirements.append(req)
                self.check_site(option.effect, scope, Context("offensive", dice=dice_count,
                                                              requirements=[req], ultimate=ultimate))
            else:
                self.check_site(option.effect, scope, Context("offensive", dice=dice_count,
                                                              ultimate=ultimate))
        for site in [s for s in (ability.shared, ability.additionally) if s is not None]:
            if kind in ("defensive", "passive"):
                dice_here = defensive_dice if kind == "defensive" else None
                self.check_site(site, scope, Context(kind, dice=dice_here))
            else:
                self.check_site(site, scope, Context("offensive", dice=dice_count,
                                                     requirements=requirements, ultimate=ultimate))
        for site in ability.effects:
            dice_here = ability.dice if kind == "defensive" else None
            self.check_site(site, scope, Context(kind, dice=dice_here))
        if ability.shape == "tiers" and dice_count and None not in tiers:
            self.check_tier_order(ability, tiers, dice_count, scope.faces)

    def check_tier_order(self, ability: Ability, tiers: list, dice_count: int, faces: dict) -> None:
        """Of the tiers a roll meets, the last listed is resolved ("3 [Claw]: Deal 4 dmg. 4 [Claw]:
        Deal 5 dmg."): a tier that every roll meeting it meets a later one too is never resolved."""
        values = sorted(faces)
        if not values or comb(len(values) + dice_count - 1, dice_count) > dice.ENUMERATION_LIMIT:
            return
        passing = [dice.rolls_passing(req, dice_count, faces) for req in tiers]
        if None in passing:  # too many rolls to keep: enumerate them
            rolls = list(combinations_with_replacement(values, dice_count))
            passing = [frozenset(roll for roll in rolls if dice.meets(req, roll, faces)) for req in tiers]
        for i in range(len(tiers) - 1):
            met = passing[i]
            later = next((j for j in range(i + 1, len(tiers)) if met and met <= passing[j]), None)
            if later is not None:
                site = ability.options[i].requires
                self.at_site(site, Problem(
                    "C007", f"tier {i + 1} of `{ability.name}` is never resolved: every roll that meets "
                    f"it meets tier {later + 1} (`{_req_text(ability.options[later].requires)}`) too, and "
                    "of the tiers met the last listed is resolved", 0, len(str(site.text)),
                    "list the tiers from the easiest to meet to the hardest", severity="warning"))

    def check_requirement(self, site: Site, scope: Scope, dice_count: int | None):
        if isinstance(site.text, list):
            items = {}
            for i, name in enumerate(site.text):
                folded = fold(name)
                if folded not in scope.symbols:
                    close = difflib.get_close_matches(name, list(scope.symbols.values()), n=1)
                    self.add(error("C001", f"unknown symbol `{name}`; the dice key has "
                                   + ", ".join(scope.symbols.values()), site.doc.span(site.path + (i,)),
                                   f"did you mean `{close[0]}`?" if close else None))
                    return None
                prev = items.get(folded)
                items[folded] = n.SymbolNeed(name, (prev.count if prev else 0) + 1)
            req = n.Requirement(tuple(items.values()))
            problems = []
        else:
            req, problems = parse_requirement(site.text)
        for p in problems:
            self.at_site(site, p)
        if req is None:
            return None
        resolved = []
        for item in req.items:
            if isinstance(item, (n.SymbolNeed, n.OfAKind)) and item.symbol is not None:
                canonical = scope.symbols.get(fold(item.symbol))
                if canonical is None:
                    options = list(scope.symbols.values())
                    close = difflib.get_close_matches(item.symbol, options, n=1, cutoff=0.6)
                    span = item.span or n.Offsets(0, len(str(site.text)))
                    self.at_site(site, Problem(
                        "C001", f"unknown symbol `[{item.symbol}]`; the dice key has "
                        + ", ".join(f"[{o}]" for o in options), span.start, span.end,
                        f"did you mean `[{close[0]}]`?" if close else None))
                    return None
                item = replace(item, symbol=canonical)
            resolved.append(item)
        req = replace(req, items=tuple(resolved))
        if dice_count is not None:
            why = dice.feasible(req, dice_count, scope.faces)
            if why:
                self.add(error("C006", f"no roll can meet `{_req_text(site)}`: {why}", site.span(),
                               "lower the counts, or give the hero more dice"))
                return None
        site.ast = req
        return req

    # -- cards
    def check_card(self, card: Card, scope: Scope, hero: Hero | None) -> None:
        if card.kind == "upgrade":
            self.check_upgrade(card, scope, hero)
        if card.kind == "equipment":  # "All effects of the card are active at all times"
            for site in card.ability.effects:
                self.check_site(site, scope, Context("passive"))
        if card.kind == "unique" and "symbol" in card.data and scope.symbols:
            symbol = card.data["symbol"]
            if fold(symbol) not in scope.symbols:
                self.add(error("C001", f"unknown symbol `[{symbol}]` on card `{card.name}`",
                               card.doc.span(card.path + ("symbol",))))
        if card.effect is not None:
            # Roll Phase and Instant cards may work on the dice of the roll in progress.
            in_roll = card.data.get("timing") in ("roll", "instant")
            dice_here = (hero.dice_count if hero else scope.dice_count) if in_roll else None
            self.check_site(card.effect, scope, Context("card", dice=dice_here))
            body = card.effect.ast.body if isinstance(card.effect.ast, n.Effect) else ()
            if card.data.get("timing") == "main" and any(isinstance(node, n.ExtraRollAttempt)
                                                        for stmt in body for node in n.walk(stmt)):
                self.add(error("C016", f"`{card.name}` gives a Roll Attempt, and is played in a Main Phase, "
                               "when no Roll Attempt is performed", card.doc.span(card.path + ("timing",)),
                               "give it `timing: roll`: it is played in the Offensive Roll Phase"))
            if card.data.get("timing") == "main" and not (body and isinstance(body[0], n.Choose)) \
                    and any(isinstance(node, n.AddDamage) for stmt in body for node in n.walk(stmt)):
                # "Attack Modifiers ... can only be used on Attacks": none is made in a Main Phase
                self.add(error("C016", f"`{card.name}` adds dmg, and is played in a Main Phase, where there "
                               "is no Attack to add to: it could never be played",
                               card.doc.span(card.path + ("timing",)),
                               "give it `timing: roll` (a Roll Phase card), or drop the added dmg"))

    def check_upgrade(self, card: Card, scope: Scope, hero: Hero | None) -> None:
        target_name = card.data.get("upgrades")
        path = card.path + ("upgrades",)
        if hero is None:
            self.add(error("C009", f"upgrade card `{card.name}` is not in a hero's deck",
                           card.doc.span(path), "put upgrade cards under `cards:` in the hero file"))
            return
        target = next((a for a in hero.abilities if fold(a.name) == fold(target_name)), None)
        if target is None:
            close = difflib.get_close_matches(target_name, [a.name for a in hero.abilities], n=1)
            self.add(error("C009", f"upgrade card `{card.name}` upgrades `{target_name}`, which "
                           f"{hero.name} does not have", card.doc.span(path),
                           f"did you mean `{close[0]}`?" if close else None))
            return
        if target.kind == "ultimate":
            self.add(error("C016", f"`{card.name}` upgrades the Ultimate `{target.name}`; "
                           "ultimates are not upgraded", card.doc.span(path)))
        ability = card.ability
        if ability is None or not self.upgrade_fits(card, target):
            return
        # An upgrade that prints only an effect keeps the board's requirement.
        inherited = [o.requires.ast for o in target.options if o.requires.ast is not None]
        self.check_ability_sites(ability, scope, hero.dice_count, kind=target.kind,
                                 defensive_dice=ability.dice or target.dice,
                                 inherited=inherited if not ability.options else [])

    def check_upgrade_costs(self, hero: Hero) -> None:
        """An upgrade from level II to III pays "only the difference in CP cost between the upgrades"
        ("Hero Cards" > "Hero Upgrades"): a level III costing less makes that upgrade free, seldom what
        was meant."""
        levels: dict[str, list[Card]] = {}
        for card in hero.cards:
            if card.kind == "upgrade" and card.data.get("upgrades"):
                levels.setdefault(fold(str(card.data["upgrades"])), []).append(card)
        for cards in levels.values():
            cards.sort(key=lambda c: c.data.get("level", 2))
            for lower, higher in zip(cards, cards[1:], strict=False):
                if higher.data.get("level", 2) > lower.data.get("level", 2) and higher.cost <= lower.cost:
                    self.warn(warning("C035", f"`{higher.name}` costs {higher.cost} CP, no more than "
                                      f"`{lower.name}` ({lower.cost} CP): upgrading from one to the other "
                                      "pays the difference, so it would be free",
                                      higher.doc.span(higher.path + ("cost",)),
                                      f"make `{higher.name}` cost more than {lower.cost} CP"),
                              higher.doc, higher.path)

    def upgrade_fits(self, card: Card, target: Ability) -> bool:
        """Whether the upgrade's ability has the shape of the one it replaces: a defensive or passive
        ability meets no requirement (one `effect:`, and `dice:` for a defence; a passive `effects:`
        as well); only a defence rolls its own `dice:`."""
        ability, written = card.ability, card.data["ability"]
        base = card.path + ("ability",)
        if "effects" in written and target.kind != "passive":
            self.add(error("C016", f"`{card.name}` upgrades `{target.name}`, which is not a passive ability: "
                           "`effects:` means nothing there", card.doc.span(base + ("effects",)),
                           "write its text as one `effect:`"))
            return False
        if target.kind in ("defensive", "passive"):
            shape = "defensive ability" if target.kind == "defensive" else "passive ability"
            fix = ("give it `dice:` (how many dice it rolls) and one `effect:`" if target.kind == "defensive"
                   else "give it one `effect:`, or `effects:` (a list, each with its trigger)")
            key = next((k for k in ("requires", "tiers", "variants") if k in written), None)
            if key is not None:
                self.add(error("C016", f"`{card.name}` upgrades the {shape} `{target.name}`, which has no "
                               f"requirement: `{key}:` means nothing there", card.doc.span(base + (key,)),
                               f"drop `{key}:` and {fix}"))
                return False
            if ability.shared is None and not ability.effects:
                self.add(error("C016", f"`{card.name}` upgrades the {shape} `{target.name}` but says "
                               "nothing it does", card.doc.span(base), fix))
                return False
        elif ability.dice is not None:
            self.add(error("C016", f"`{card.name}` upgrades `{target.name}`, which is not a defensive "
                           "ability: `dice:` means nothing there", card.doc.span(base + ("dice",)),
                           "drop `dice:`; write `requires:` for a new requirement, or leave it out to "
                           "keep the board's"))
            return False
        return True

    # -- one piece of effect text
    def check_site(self, site: Site, scope: Scope, ctx: Context) -> None:
        book = scope.book_for(ctx.kind)
        if ctx.kind == "status" and ctx.status is not None and book is not None:
            book = book.in_text_of(ctx.status.name)
        effect, problems = parse_effect(site.text, book)
        for p in problems:
            self.at_site(site, _named_hint(p, site.text, scope))
        if effect is None or any(p.severity == "error" for p in problems):
            return
        for message in validate_effect_ast(n.to_json(effect)):
            self.add(error("C019", f"parsed effect does not match the effect schema: {message}",
                           site.span(), "this is a dtc bug; please report it with the effect text"))
        for label in effect.labels:
            self.check_label(site, label, ctx)
        effect = self.fit_trigger(site, effect, ctx)
        resolved, problems = resolve_effect(effect, scope, ctx)
        for p in problems:
            self.at_site(site, p)
        for stmt in _idle_insteads(resolved, ctx):
            span = stmt.span or n.Offsets(0, len(site.text))
            self.at_site(site, Problem(
                "C016", "`instead` replaces nothing here: the game does nothing of its own at this moment",
                span.start, span.end, "drop `instead`; it replaces the Income Phase's card and CP "
                "(`During your Income Phase, ... instead`), a dial going past its top, a token gained at "
                "its Stack Limit, a Defensive Roll's dice, or the other case of an `If` / `you may`"))
        site.ast = resolved

    def check_label(self, site: Site, label: n.Label, ctx: Context) -> None:
        """`Attack Modifier.`, `Persistent.`, `Stack Limit: 2.` in the text: the YAML fields the engine
        reads must say the same, or the card would be played as something the text says it is not."""
        problem = _label_problem(label, site, ctx)
        if problem is not None:
            span = label.span or n.Offsets(0, len(site.text))
            self.at_site(site, Problem("C036", problem[0], span.start, span.end, problem[1]))

    def fit_trigger(self, site: Site, effect: n.Effect, ctx: Context) -> n.Effect:
        if ctx.kind in NEEDS_TRIGGER and not effect.body and effect.labels:
            return effect  # `Persistent.` alone: a label, nothing that happens
        if ctx.kind in NEEDS_TRIGGER:
            effect = _trigger_first(effect)
            once = effect.trigger
            if (isinstance(once, n.TurnEdge) and once.whose != "your") or (isinstance(once, n.During)
                                                                            and once.next):
                span = once.span or n.Offsets(0, len(site.text))
                self.at_site(site, Problem(
                    "C016", f"a {ctx.kind} effect acts every time its moment comes: `next` and `this turn` "
                    "happen once", span.start, span.end,
                    "write `At the start of your turn, ...` (each turn), or say it on a card or an ability, "
                    "where the sentence is scheduled once"))
            if effect.trigger is None and ctx.tier_moment is not None:
                # a tier's line under `<when>, they may activate the effects below`: that moment
                self.moment_taken = True
                body = (n.May(effect.body, span=effect.span),) if ctx.tier_may else effect.body
                return replace(effect, trigger=ctx.tier_moment, body=body)
            if effect.trigger is None:
                end = len(site.text)
                self.at_site(site, Problem(
                    "C022", f"this {ctx.kind} effect does not say when it happens", 0, end,
                    "start it with a trigger: `During your Upkeep Phase, ...`, `When spent, ...`, "
                    "`When Attacked, ...`, `At any time, ...`"))
            return effect
        if effect.once_per_turn:
            self.at_site(site, Problem("C016", "`once per turn` only limits triggered effects",
                                       0, len(site.text)))
        if effect.trigger is not None:
            # In an ability or a card, a leading trigger schedules its sentence, as one later in the
            # text does (`At the start of your turn, heal 1. At the end of your turn, gain 2 CP.`:
            # each at its own edge; the second was scheduled only when the first acted)
            span = effect.trigger.span
            later, rest = _first_sentence(effect.body, site.text, span.end if span else 0)
            return n.Effect(None, False, (n.Delayed(effect.trigger, later, span=span),) + rest,
                            effect.labels, span=effect.span)
        return effect


def _first_sentence(body: tuple, text: str, start: int) -> tuple[tuple, tuple]:
    """The statements of the sentence beginning at `start`, and those after it."""
    found = re.compile(r"\.\s").search(text, start)
    if found is None:
        return body, ()
    end = found.start()
    cut = next((i for i, s in enumerate(body)
                if i and getattr(s, "span", None) is not None and s.span.start > end), len(body))
    first, rest = body[:cut], body[cut:]
    if rest and isinstance(rest[0], n.Then):
        rest = rest[1:]  # `... . Then gain 1 CP.`: nothing before it now, it waits for nothing
    return first, rest


def _trigger_first(effect: n.Effect) -> n.Effect:
    """`If <condition>, when <trigger>, ...` read as `When <trigger>, if <condition>, ...`: in an
    effect that must say when it happens, a condition before the trigger can only be checked when
    the trigger comes."""
    body = effect.body
    if effect.trigger is not None or len(body) != 1 or not isinstance(body[0], n.If):
        return effect
    guard = body[0]
    if len(guard.body) != 1 or not isinstance(guard.body[0], n.Delayed):
        return effect
    delayed = guard.body[0]
    guarded = n.If(guard.condition, delayed.body, span=guard.span)
    return n.Effect(delayed.trigger, effect.once_per_turn, (guarded,), effect.labels, span=effect.span)


_OWN_TRIGGERS = (n.Spent, n.GainedAtLimit, n.Gained)


def _read_as(text: str, book) -> str:
    """A verb's `say` pattern as the phrasebook reads it, so a call written the same way matches it
    (`say: unleash two sparks` and `Unleash two sparks.`, read `unleash 2 sparks`)."""
    try:
        return phrases.read(text, book).text
    except phrases.Unsettled:
        return text  # the phrasebook's own problem, reported where a text uses it


def _idle_insteads(effect: n.Effect, ctx: Context) -> list:
    """The `instead`s of an effect that replace nothing: the engine acts on one in the Income Phase, at a
    dial's top, at a Stack Limit, for a Defensive Roll's dice, and inside an `If` / `you may` (the text's
    own other case); anywhere else it would lint clean and change nothing."""
    trigger = effect.trigger
    if isinstance(trigger, (n.GainedAtLimit, n.WouldExceed)) or ctx.kind == "defensive":
        return []
    if isinstance(trigger, n.During) and fold(trigger.phase) == "income phase":
        return []
    found = []
    stack = list(effect.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, n.Instead):
            found.append(stmt)
        elif isinstance(stmt, (n.Must, n.VerbCall)):  # these run as written: look inside
            stack.extend(stmt.body)
        elif isinstance(stmt, n.Delayed):
            inner = _idle_insteads(n.Effect(stmt.trigger, False, stmt.body), ctx)
            found.extend(inner)
    return found


def _spent(site: Site) -> bool:
    """Whether the site is a `When spent` effect."""
    return isinstance(site.ast, n.Effect) and isinstance(site.ast.trigger, n.Spent)


def _own_effects(effect: n.Effect) -> list[n.Effect]:
    """The effect, and each `When spent` or `If you gain this token while at Stack Limit` sentence in it
    with what follows it, as effects of their own (spending and gaining are moments of their own, not
    something the first effect schedules)."""
    parts: list[n.Effect] = []
    head: list = []
    current: n.Effect | None = None
    for stmt in effect.body:
        if isinstance(stmt, n.Delayed) and isinstance(stmt.trigger, _OWN_TRIGGERS):
            if current is not None:
                parts.append(current)
            current = n.Effect(stmt.trigger, False, stmt.body, span=stmt.span)
        elif current is not None:
            current = replace(current, body=current.body + (stmt,))
        else:
            head.append(stmt)
    first = replace(effect, body=tuple(head))
    rest = parts + ([current] if current is not None else [])
    return ([first] if head or first.trigger is not None or not rest else []) + rest


def _spends_this_token(effect: n.Effect) -> bool:
    """`<when>, you may spend this token ...` (or `spend this token and ...`)."""
    if not effect.body or isinstance(effect.trigger, n.Spent):
        return False
    first = effect.body[0]
    inner = first.body if isinstance(first, (n.May, n.Must)) else (first,)
    return bool(inner) and isinstance(inner[0], n.Spend) and isinstance(inner[0].status, n.ThisToken)


def _label_problem(label: n.Label, site: Site, ctx: Context) -> tuple[str, str] | None:
    """(message, hint) when the label and the YAML disagree."""
    status = ctx.status if ctx.kind == "status" else None
    owner = site.doc.get(site.path[:-1]) if site.path else None
    owner = owner if isinstance(owner, dict) else {}
    if label.name == "attack modifier":
        if ctx.kind == "card":
            if owner.get("timing") != "roll":
                return ("the text says `Attack Modifier`, and an Attack Modifier card is played in the Roll "
                        "Phase", "give the card `timing: roll`")
            return None
        marked = status.data.get("attack_modifier") if status is not None else (
            site.attack_modifier or owner.get("attack_modifier"))
        if not marked:
            return ("the text says `Attack Modifier`, and `attack_modifier:` is not set",
                    "add `attack_modifier: true` beside this effect (the engine reads that field)")
    elif label.name == "ultimate" and not ctx.ultimate:
        return ("the text says `Ultimate`, and this is no Ultimate Ability",
                "write the ability under `ultimate:`, or drop the label")
    elif label.name == "persistent" and (status is None or not status.data.get("persistent")):
        return ("the text says `Persistent`, and " + ("`persistent:` is not set" if status is not None
                                                      else "only a status effect is persistent"),
                "add `persistent: true` to the status effect" if status is not None else "drop the label")
    elif label.name == "stack limit" and (status is None or status.stack_limit != label.value):
        if status is None:
            return "the text says `Stack Limit`, and only a status effect has one", "drop the label"
        return (f"the text says `Stack Limit: {label.value}`, and `stack_limit:` is {status.stack_limit}",
                f"write `stack_limit: {label.value}` (the engine reads that field)")
    return None


def _shielded(scope: Scope) -> Scope:
    """The scope reading its text through the phrasebook without touching the content's own names
    (a status named `Heavy Damage` is no `Heavy dmg`)."""
    names = [*scope.status_names.values(), *(c.name for c in scope.components.values()),
             *(form for _, form in scope.forms.values()), *scope.card_types.values(),
             *(hero_status for hero_status in scope.others)]
    if scope.phrasebook is not None:
        scope.phrasebook = scope.phrasebook.shielding(names)
    if scope.status_phrasebook is not None:
        scope.status_phrasebook = scope.status_phrasebook.shielding(names)
    return scope


def _named_hint(problem, text: str, scope: Scope):
    """The parser's "write the dice symbol in brackets" for a word that is no symbol but a status
    effect or a component of the hero (`deal 1 dmg for each Shocked on ...`): say what it is."""
    if problem.code != "P001" or not (problem.hint or "").startswith("dice symbols are written in brackets"):
        return problem
    word = text[problem.start:problem.end]
    if fold(word) in scope.status_names:
        hint = (f"`{word}` is a status effect, not a dice symbol: `per` and `for each` count symbols rolled "
                f"(`per [Claw] rolled`); tokens are tested with `If you have 2 {word}, ...` (or `If your "
                f"opponent has 2 {word}, ...`)")
    elif fold(word) in scope.components:
        hint = (f"`{word}` is a component, not a dice symbol: its value is read as `dmg equal to the {word} "
                f"value` or tested with `If {word} is at least 3, ...`")
    else:
        return problem
    return replace(problem, hint=hint)


def check(content: Content) -> list[Diagnostic]:
    """Every problem in the content, in one pass."""
    return Checker(content).run()


def _add_status(scope: Scope, status: Status) -> None:
    scope.statuses[fold(status.name)] = status
    scope.status_names[fold(status.name)] = status.name
    for slot in status.slots:
        for tier in slot.tiers:
            tier_name = f"{tier.name} {slot.name}"
            scope.status_names[fold(tier_name)] = tier_name
            scope.statuses.setdefault(fold(tier_name), status)


def _params_used(body) -> set[str]:
    used = set()
    for node in n.walk(n.Effect(None, False, body)):
        if isinstance(node, n.Param):
            used.add(node.name)
        for value in (getattr(node, f, None) for f in getattr(node, "__dataclass_fields__", {})):
            if isinstance(value, str):
                used.update(re.findall(r"\{([a-z_][a-z0-9_]*)\}", value))
    return used


def _allowed(data, path: tuple, code: str) -> str | None:
    """The reason an `allow:` gives for `code` (or its name) on the entry at `path` or one holding it."""
    names = (code, CODES[code].name)
    nodes = [data]
    for key in path:
        try:
            nodes.append(nodes[-1][key])
        except (KeyError, IndexError, TypeError):
            break
    for node in reversed(nodes):
        allow = node.get("allow") if isinstance(node, dict) else None
        if isinstance(allow, dict):
            reason = next((allow[n] for n in names if n in allow), None)
            if reason is not None:
                return str(reason)
    return None


def _allow_dicts(data, path):
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "allow" and isinstance(value, dict):
                yield path + (key,), value
            else:
                yield from _allow_dicts(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _allow_dicts(value, path + (i,))


def _named_twice(name: str, what: str, first: Span, span: Span) -> Diagnostic:
    return error("C008", f"two {_plural(what)} are named `{name}` (the first at {first.path}:{first.line})",
                 span, "rename one of them")


def _plural(word: str) -> str:
    if word.endswith("y"):
        return word[:-1] + "ies"
    if word.endswith("o"):  # hero
        return word + "es"
    return word + "s"


def _req_text(site: Site) -> str:
    if isinstance(site.text, list):
        return " ".join(f"[{s}]" for s in site.text)
    return site.text


def tier_moment_of(effect) -> tuple | None:
    """(trigger, whether it says `may`) when the effect is only `<when>, [you may] activate the effects
    below`: the moment printed above a status's tiers or sides; None for any other effect."""
    if not isinstance(effect, n.Effect) or effect.trigger is None:
        return None
    body = effect.body
    may = len(body) == 1 and isinstance(body[0], n.May)
    inner = body[0].body if may else body
    if len(inner) == 1 and isinstance(inner[0], n.TierEffects):
        return effect.trigger, may
    return None
