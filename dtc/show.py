"""Show: a checked hero in, a view of it out (plain data, then text).

The view is what `dtc show` prints: the dice key, every ability with its
requirement and its effect rendered back from the parsed AST (so a designer
sees what dtc understood), status effects, components, verbs and the deck.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from dtc import nodes as n
from dtc.model import Ability, Card, Content, Hero, Site, Status
from dtc.render import render_effect, render_test, render_trigger


def slug(name: str) -> str:
    """`Tide Caller` -> `tide-caller`: how heroes are named on the command line."""
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def find_hero(content: Content, wanted: str) -> tuple[Hero | None, str | None]:
    """The hero called `wanted` (name or slug), or None and a suggestion."""
    key = slug(wanted)
    for hero in content.heroes:
        if slug(hero.name) == key:
            return hero, None
    names = {slug(h.name): h.name for h in content.heroes}
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.5)
    return None, names[close[0]] if close else None


def kind_of(player: Hero) -> str:
    """What a player is, in the game's words: `hero`, `Minion` or `Boss`."""
    return "Boss" if player.boss is not None else "Minion" if player.minion is not None else "hero"


UNCHECKED = "[does not check: `dtc lint` says why]"


def _effect_text(site: Site | None) -> str | None:
    """The effect as dtc read it; a text that did not check (an error in it, maybe in another file
    than the hero's: a shared card) is marked so, never shown as if it worked."""
    if site is None:
        return None
    if isinstance(site.ast, n.Effect) and not site.broken:
        return render_effect(site.ast)
    return " ".join(str(site.text).split()) + f" {UNCHECKED}"


def _requirement_text(site: Site) -> str:
    if isinstance(site.ast, n.Requirement):
        return render_test(site.ast)
    if isinstance(site.text, list):
        return " ".join(f"[{s}]" for s in site.text)
    return str(site.text)


def _ast(site: Site | None) -> Any:
    if site is None or site.ast is None:
        return None
    return n.to_json(site.ast)


def ability_view(a: Ability) -> dict:
    view: dict[str, Any] = {"name": a.name, "kind": a.kind}
    if a.dice is not None:
        view["dice"] = a.dice
    if a.options:
        view["shape"] = a.shape
        view["options"] = [
            {"requires": _requirement_text(o.requires), "effect": _effect_text(o.effect),
             "ast": _ast(o.effect)}
            for o in a.options
        ]
    if a.shared is not None:
        view["effect"] = _effect_text(a.shared)
        view["effect_ast"] = _ast(a.shared)
    if a.additionally is not None:
        view["additionally"] = _effect_text(a.additionally)
        view["additionally_ast"] = _ast(a.additionally)
    if a.effects:
        view["effects"] = [_effect_text(s) for s in a.effects]
        view["effects_ast"] = [_ast(s) for s in a.effects]
    for key in ("gap", "note"):
        if getattr(a, key):
            view[key] = " ".join(getattr(a, key).split())
    if a.attack_modifier:
        view["attack_modifier"] = True
    return view


def status_view(s: Status) -> dict:
    view: dict[str, Any] = {
        "name": s.name, "polarity": s.polarity, "stack_limit": s.stack_limit,
    }
    for flag in ("persistent", "removable", "transferable", "attack_modifier", "companion"):
        if flag in s.data:
            view[flag] = s.data[flag]
    if s.spendable is not None:
        view["spendable"] = render_trigger(s.spendable.ast) if s.spendable.ast else s.spendable.text
    if s.sides:
        view["sides"] = s.sides
    view["effects"] = [
        {"side": e.side, "effect": _effect_text(e)} if e.side else {"effect": _effect_text(e)}
        for e in s.effects
    ]
    if s.slots:
        view["slots"] = [
            {"name": slot.name, "limit": slot.limit, "tiers": [
                {"name": t.name,
                 "blueprint": _requirement_text(t.blueprint) if t.blueprint else None,
                 "effect": _effect_text(t.effect)} for t in slot.tiers]}
            for slot in s.slots
        ]
    for key in ("summary", "note", "gap"):
        if key in s.data:
            view[key] = " ".join(s.data[key].split())
    return view


def card_view(c: Card) -> dict:
    view: dict[str, Any] = {"name": c.name, "kind": c.kind, "cost": c.cost, "copies": c.copies}
    for key in ("timing", "upgrades", "level", "type", "symbol", "roll_objective", "hero_bonus"):
        if key in c.data:
            view[key] = c.data[key]
    if c.effect is not None:
        view["effect"] = _effect_text(c.effect)
    if c.ability is not None:
        view["ability"] = ability_view(c.ability)
    view["authored"] = "authored" in c.data
    return view


def _component_effect(site: Site) -> dict:
    """A component's effect, with the side or position it belongs to (it acts only there)."""
    view: dict[str, Any] = {"effect": _effect_text(site)}
    if site.side is not None:
        view["side"] = site.side
    if site.position is not None:
        view["at"] = site.position
    if site.attack_modifier:
        view["attack_modifier"] = True
    return view


def hero_view(hero: Hero, content: Content) -> dict:
    """Plain data describing a checked hero, Minion or Boss (`kind`; a Minion's card callouts in
    `minion`, a Boss's setup in `boss`)."""
    view = _player_view(hero, content)
    if hero.minion is not None:
        view["minion"] = minion_view(hero)
    if hero.boss is not None:
        view["boss"] = boss_view(hero)
    return view


def minion_view(minion: Hero) -> dict:
    """A Minion card's callouts: level, Health, CP, First Strike, King's Hand, Roll Objective, reward."""
    info = minion.minion
    view: dict[str, Any] = {"level": info.level, "health": info.health, "cp": info.cp,
                            "first_strike": info.first_strike, "kings_hand": info.kings_hand,
                            "die": info.die, "roll_objective": _requirement_text(info.objective)}
    if info.reward is not None:
        view["reward"] = dict(info.reward)
    return view


def boss_view(boss: Hero) -> dict:
    """A Boss's scenario, its setup by team size, King's Hand table and Boss Loot."""
    info = boss.boss
    return {"scenario": info.scenario, "die": info.die, "boss_loot": info.boss_loot,
            "setup": [{k: v for k, v in row.items() if k != "authored"} for row in info.setup],
            "kings_hand": dict(info.kings_hand) if info.kings_hand else None}


def _player_view(hero: Hero, content: Content) -> dict:
    # a Minion or a Boss draws no cards every hero has: its deck is its own (or none)
    shared = [c for cs in content.card_sets if cs.every_hero for c in cs.cards] \
        if hero.minion is None and hero.boss is None else []
    by_kind = {k: [a for a in hero.abilities if a.kind == k]
               for k in ("offensive", "ultimate", "defensive", "passive")}
    return {
        "hero": hero.name,
        "kind": kind_of(hero),
        "file": hero.doc.path,
        "complexity": hero.doc.data.get("complexity"),
        "tagline": hero.doc.data.get("tagline"),
        "dice": {"count": hero.dice_count, "faces": {str(k): v for k, v in sorted(hero.faces.items())}},
        "setup": _effect_text(hero.setup),
        "offensive": [ability_view(a) for a in by_kind["offensive"]],
        "ultimate": [ability_view(a) for a in by_kind["ultimate"]],
        "defensive": [ability_view(a) for a in by_kind["defensive"]],
        "passive": [ability_view(a) for a in by_kind["passive"]],
        "status_effects": [status_view(s) for s in hero.statuses],
        "components": [
            {"name": c.name, "kind": c.kind, **{k: v for k, v in c.data.items()
                                                  if k not in ("name", "kind", "effects")},
             "effects": [_component_effect(e) for e in c.effects]}
            for c in hero.components
        ],
        "verbs": [{"say": v.patterns, "means": _effect_text(v.means)} for v in hero.verbs],
        "deck": [card_view(c) for c in hero.cards],
        "shared_cards": [card_view(c) for c in shared],
        "deck_size": sum(c.copies for c in hero.cards) + sum(c.copies for c in shared),
    }


# ------------------------------------------------------------------- text


def format_hero(view: dict) -> str:
    """The view as text for a terminal."""
    out: list[str] = []
    title = view["hero"] + (f"  (complexity {view['complexity']})" if view["complexity"] else "")
    if "minion" in view:
        title = f"{view['hero']}  (Minion, level {view['minion']['level']})"
    elif "boss" in view:
        title = f"{view['hero']}  (Boss, scenario {view['boss']['scenario']})"
    out += [title, "=" * len(title), f"file: {view['file']}"]
    if view["tagline"]:
        out.append(f'"{view["tagline"]}"')
    faces = " · ".join(f"{k} {v}" for k, v in view["dice"]["faces"].items())
    die = view.get("minion", view.get("boss", {})).get("die")
    out += ["", f"Dice ({view['dice']['count']}{' ' + die if die else ''}): {faces}"]
    out += _format_minion(view["minion"]) if "minion" in view else []
    out += _format_boss(view["boss"]) if "boss" in view else []
    if view["setup"]:
        out.append(f"Hero Setup: {view['setup']}")
    for key, title in (("offensive", "Offensive abilities"), ("ultimate", "Ultimate"),
                       ("defensive", "Defensive abilities"), ("passive", "Passive abilities")):
        if view[key]:
            out += ["", title]
            for a in view[key]:
                out += _format_ability(a, "  ")
    if view["status_effects"]:
        out += ["", "Status effects"]
        for s in view["status_effects"]:
            out += _format_status(s)
    if view["components"]:
        out += ["", "Components"]
        for c in view["components"]:
            out += _format_component(c)
    if view["verbs"]:
        out += ["", "Verbs"]
        for v in view["verbs"]:
            out.append(f"  {' / '.join(v['say'])}  means  {v['means']}")
    if view["deck_size"] or view["kind"] == "hero":  # a Minion has no deck
        out += ["", f"Deck ({view['deck_size']} cards)"]
    for c in view["deck"] + view["shared_cards"]:
        out.append("  " + _format_card(c))
    return "\n".join(out)


def _format_minion(m: dict) -> list[str]:
    facts = [f"Health {m['health']}", f"CP {m['cp']}", f"King's Hand {m['kings_hand']}"]
    facts += ["First Strike"] if m["first_strike"] else []
    reward = m.get("reward") or {}
    if "gold" in reward:
        facts.append(f"reward {reward['gold']} Gold")
    elif "chest" in reward:
        facts.append(f"reward a level {reward['chest']} Loot Chest")
    return [" · ".join(facts), f"Roll Objective: {m['roll_objective']}"]


def _format_boss(b: dict) -> list[str]:
    lines = [f"Boss Loot: {b['boss_loot']} chest(s)"]
    if b["kings_hand"]:
        success = ", ".join(str(v) for v in b["kings_hand"]["success"])
        lines.append(f"King's Hand: {b['kings_hand']['per_turn']} a turn, succeeds on {success}")
    lines.append("Setup by heroes:")
    for row in b["setup"]:
        lines.append(f"  {row['heroes']}: Health {row['health']}, CP {row['cp']}, Upgrade CP "
                     f"{row['upgrade_cp']}, King's Hand {row['kings_hand']}; each hero's Health "
                     f"{row['hero_health']}")
    return lines


def _format_ability(a: dict, indent: str) -> list[str]:
    head = a["name"]
    if a.get("dice"):
        head += f" (Defense Roll {a['dice']})"
    if a.get("attack_modifier"):
        head += " [Attack Modifier]"
    lines = [indent + head]
    inner = indent + "    "
    if a.get("effect"):
        lines.append(f"{inner}{a['effect']}")
    width = max((len(o["requires"]) for o in a.get("options", [])), default=0)
    for o in a.get("options", []):
        lines.append(f"{inner}{o['requires'].ljust(width)}  {o['effect']}")
    if a.get("additionally"):
        lines.append(f"{inner}Additionally: {a['additionally']}")
    for e in a.get("effects", []):
        lines.append(f"{inner}{e}")
    if a.get("note"):
        lines.append(f"{inner}note: {a['note']}")
    if a.get("gap"):
        lines.append(f"{inner}GAP (not in dtc): {a['gap']}")
    return lines


def _format_status(s: dict) -> list[str]:
    facts = [s["polarity"], f"stack limit {s['stack_limit']}"]
    if s.get("persistent"):
        facts.append("persistent")
    if s.get("spendable"):
        facts.append(f"spendable {s['spendable']}")
    if "sides" in s:
        facts.append("sides " + "/".join(s["sides"]))
    lines = [f"  {s['name']} — {', '.join(facts)}"]
    for e in s["effects"]:
        side = f"[{e['side']}] " if e.get("side") else ""
        lines.append(f"      {side}{e['effect']}")
    for slot in s.get("slots", []):
        for t in slot["tiers"]:
            bp = f" (blueprint {t['blueprint']})" if t["blueprint"] else ""
            lines.append(f"      {t['name']} {slot['name']}{bp}: {t['effect']}")
    for key in ("note", "gap"):
        if s.get(key):
            lines.append(f"      {'GAP (not in dtc)' if key == 'gap' else key}: {s[key]}")
    return lines


def _format_component(c: dict) -> list[str]:
    if c["kind"] == "dial":
        desc = f"dial {c['range'][0]}-{c['range'][1]}, starts at {c['start']}"
        if c.get("sides"):
            desc += f", sides {'/'.join(c['sides'])} (starts {c.get('start_side', c['sides'][0])})"
    elif c["kind"] == "track":
        desc = "track " + " > ".join(c["positions"]) + f", starts at {c['start']}"
    elif c["kind"] == "forms":
        desc = "forms " + ", ".join(c["forms"]) + f", starts as {c['start']}"
    else:
        desc = f"card zone holding {c['holds']}"
    lines = [f"  {c['name']} — {desc}"]
    for e in c["effects"]:
        where = [f"{e['side']} side" if "side" in e else "", f"at {e['at']}" if "at" in e else "",
                 "Attack Modifier" if e.get("attack_modifier") else ""]
        mark = f"[{', '.join(w for w in where if w)}] " if any(where) else ""
        lines.append(f"      {mark}{e['effect']}")
    return lines


def _format_card(c: dict) -> str:
    copies = f"{c['copies']}× " if c["copies"] > 1 else ""
    if c["kind"] == "upgrade":
        level = "II" if c["level"] == 2 else "III"
        what = f"upgrade {c['upgrades']} to {level}: {_upgraded_text(c['ability'])}"
    elif c["kind"] == "action":
        what = f"{c['timing']} action: {c['effect']}"
    else:
        what = f"{c['type']} [{c.get('symbol', '')}]: {c['effect']}"
    if "roll_objective" in c:  # a Boss's Action card
        what += f" (Roll Objective {c['roll_objective']}; Hero Bonus: {c['hero_bonus']})"
    mark = " (authored)" if c["authored"] else ""
    return f"{copies}{c['name']} — {c['cost']} CP — {what}{mark}"


def _upgraded_text(a: dict) -> str:
    """What an upgrade's ability does, on one line: `4 [Claw]: Deal 6 dmg. / 5 [Claw]: Deal 8 dmg.`"""
    parts = [f"{o['requires']}: {o['effect']}" for o in a.get("options", [])]
    parts += [a["effect"]] if a.get("effect") else []
    parts += [f"Additionally: {a['additionally']}"] if a.get("additionally") else []
    parts += list(a.get("effects", []))
    dice = f"(Defense Roll {a['dice']}) " if a.get("dice") else ""
    return dice + " / ".join(parts)


def hero_names(content: Content) -> list[str]:
    return sorted(h.name for h in content.heroes)

