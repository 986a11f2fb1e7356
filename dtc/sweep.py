"""Balance by search: one number of a hero's content varied over a range, each variant checked and
compiled as any content is, then simulated against the field (`dtc sweep`).

What varies is written as a designer says it, `HERO: WHAT = LOW..HIGH [step N]`:

* `barbarian: Smack tier 1 damage = 3..6`: the first `N dmg` of an ability's text (its tier's);
* `barbarian: card Rage cost = 0..3`: a card's CP cost;
* `barbarian: Mangled stack limit = 1..4`: a status effect's Stack Limit;
* `barbarian: cards.2.cost = 0..3`: any whole number of the hero's YAML by its path (keys and list
  positions, from 0, joined by dots).

A variant the schemas or the checker refuse is reported with its first diagnostic and skipped.
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

from dtc.resolve import fold

MAX_VALUES = 200  # variants in one sweep: each is compiled and simulated
_VARY = re.compile(r"^\s*(?P<hero>[^:=]+?)\s*:\s*(?P<what>[^=]+?)\s*=\s*(?P<low>-?\d{1,6})\s*\.\.\s*"
                   r"(?P<high>-?\d{1,6})(?:\s+step\s+(?P<step>\d{1,6}))?\s*$", re.IGNORECASE)
_TIER = re.compile(r"^(?P<name>.+?)\s+tier\s+(?P<tier>\d+)\s+damage$", re.IGNORECASE)
_DMG = re.compile(r"\b(\d+)(?=\s+(?:\w+\s+)?(?:dmg|damage)\b)", re.IGNORECASE)
ABILITY_LISTS = ("offensive", "defensive", "passive", "ultimate")
SYNTAX = ("write `HERO: WHAT = LOW..HIGH [step N]`, such as `barbarian: Smack tier 1 damage = 3..6`, "
          "`barbarian: card Rage cost = 0..3`, `barbarian: Mangled stack limit = 1..4` or "
          "`barbarian: cards.2.cost = 0..3`")


class SweepError(Exception):
    """What to vary cannot be found or changed; the message says where and how to write it."""


@dataclass(frozen=True)
class Vary:
    """One number of one hero's file, and the values it takes."""

    hero: str
    what: str
    values: tuple[int, ...]
    text: str = ""  # as written on the command line


def parse_vary(text: str) -> Vary:
    """`HERO: WHAT = LOW..HIGH [step N]` (SweepError with the syntax when it is not that)."""
    found = _VARY.match(text)
    if found is None:
        raise SweepError(f"--vary {text!r}: {SYNTAX}")
    low, high = int(found["low"]), int(found["high"])
    step = int(found["step"] or 1)
    if step < 1 or high < low:
        raise SweepError(f"--vary {text!r}: the range goes up from LOW to HIGH by a step of 1 or more")
    values = tuple(range(low, high + 1, step))
    if len(values) > MAX_VALUES:
        raise SweepError(f"--vary {text!r}: {len(values)} values; at most {MAX_VALUES} in one sweep "
                         "(a larger step)")
    return Vary(found["hero"].strip(), " ".join(found["what"].split()), values, text.strip())


def _yaml() -> YAML:
    yaml = YAML()  # round trip: the variant keeps the file's comments and layout
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)  # the content's layout: its line numbers hold
    return yaml


def hero_file(folder: Path, hero: str) -> Path:
    """The YAML file under `folder` whose `hero:` is `hero` (any case; `-`/`_` for spaces)."""
    wanted = _slug(hero)
    names = []
    for path in sorted(folder.rglob("*.y*ml")):
        try:
            head = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        found = re.search(r"(?m)^hero:[ \t]*[\"']?([^\"'#\n]+?)[\"']?[ \t]*(?:#.*)?$", head)
        if found is None:
            continue
        names.append(found[1])
        if _slug(found[1]) == wanted:
            return path
    raise SweepError(f"no hero `{hero}` in {folder}; its heroes: {', '.join(names) or 'none'}")


def _slug(name: str) -> str:
    return "".join(ch for ch in fold(name) if ch.isalnum())


def variant_text(text: str, vary: Vary, value: int, where: str = "the hero file") -> str:
    """The hero file's text with the varied number set to `value`."""
    yaml = _yaml()
    document = yaml.load(text)
    container, key, kind = _locate(document, vary, where)
    if kind == "dmg":
        container[key] = _DMG.sub(str(value), str(container[key]), count=1)
    else:
        container[key] = value
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


def _locate(document, vary: Vary, where: str):
    """(container, key, "dmg" | "number") of what `vary.what` names in the hero's document."""
    what = vary.what
    tier = _TIER.match(what)
    lowered = fold(what)
    if tier is not None or lowered.endswith(" damage"):
        name = tier["name"] if tier is not None else what[: -len(" damage")]
        return _ability_damage(document, name.strip(), int(tier["tier"]) if tier else None, vary, where)
    if lowered.startswith("card ") and lowered.endswith(" cost"):
        card = _named(document.get("cards") or [], what[5:-5].strip(), "card", where)
        return card, "cost", "number"
    if lowered.endswith(" stack limit"):
        status = _named(document.get("status_effects") or [], what[: -len(" stack limit")].strip(),
                        "status effect", where)
        return status, "stack_limit", "number"
    if "." in what or what in document:
        return _by_path(document, what, where)
    raise SweepError(f"--vary: `{what}` names nothing to vary; {SYNTAX}")


def _abilities(document) -> Iterator[dict]:
    for key in ABILITY_LISTS:
        found = document.get(key)
        if isinstance(found, dict):
            yield found
        elif isinstance(found, list):
            yield from (a for a in found if isinstance(a, dict))


def _named(items, name: str, what: str, where: str) -> dict:
    for item in items:
        if isinstance(item, dict) and fold(str(item.get("name", ""))) == fold(name):
            return item
    known = ", ".join(str(i.get("name")) for i in items if isinstance(i, dict)) or "none"
    plural = "abilities" if what == "ability" else f"{what}s"
    raise SweepError(f"--vary: no {what} `{name}` in {where}; its {plural}: {known}")


def _ability_damage(document, name: str, tier: int | None, vary: Vary, where: str):
    ability = _named(list(_abilities(document)), name, "ability", where)
    tiers = ability.get("tiers")
    if tier is not None:
        if not tiers or not 1 <= tier <= len(tiers):
            raise SweepError(f"--vary: `{ability['name']}` has {len(tiers or [])} tiers; no tier {tier}")
        holder = tiers[tier - 1]
    else:
        holder = ability if "effect" in ability else (tiers[0] if tiers else ability)
    if not isinstance(holder.get("effect"), str) or not _DMG.search(holder["effect"]):
        which = f"`{ability['name']}`" + (f" tier {tier}" if tier else "")
        raise SweepError(f"--vary: the effect of {which} deals no number of dmg to vary "
                         f"({holder.get('effect')!r})")
    return holder, "effect", "dmg"


def _by_path(document, path: str, where: str):
    node, parts = document, path.split(".")
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            key: int | str = int(part)
        elif isinstance(node, dict) and part in node:
            key = part
        elif isinstance(node, dict) and part.isdigit() and int(part) in node:  # `faces: {1: Claw}`
            key = int(part)
        else:
            raise SweepError(f"--vary: `{'.'.join(parts[:depth + 1])}` is not in {where} (keys and list "
                             "positions from 0, joined by dots)")
        if last:
            if isinstance(node[key], bool) or not isinstance(node[key], int):
                raise SweepError(f"--vary: `{path}` is {node[key]!r} in {where}, not a whole number")
            return node, key, "number"
        node = node[key]
    raise SweepError(f"--vary: `{path}` names nothing")


def _said(d, copy: Path) -> str:
    """A refused variant's first diagnostic in one line, at its place in the designer's folder."""
    where = ""
    if d.span is not None:
        path = d.span.path
        shown = Path(path).relative_to(copy) if path.startswith(str(copy)) else path
        where = f"{shown}:{d.span.line}:{d.span.col}: "
    return f"{where}error[{d.code}]: {d.message}"


# ------------------------------------------------------------------ running a sweep
@dataclass
class Point:
    """One value: its win rate against the field, or why the variant was refused."""

    value: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    interval: tuple[float, float] = (0.0, 0.0)
    refused: str | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class Sweep:
    vary: Vary
    hero: str  # as the content names the hero
    opponents: list[str]
    games: int
    seed: int
    points: list[Point] = field(default_factory=list)

    def closest(self) -> Point | None:
        """The value whose win rate is nearest 50% (the lower value on a tie)."""
        played = [p for p in self.points if p.refused is None]
        return min(played, key=lambda p: (abs(p.win_rate - 0.5), p.value)) if played else None

    def as_json(self) -> dict:
        best = self.closest()
        return {"vary": f"{self.vary.hero}: {self.vary.what}", "hero": self.hero, "opponents": self.opponents,
                "games_per_opponent": self.games, "seed": self.seed,
                "points": [{"value": p.value, "games": p.games, "win_rate": round(p.win_rate, 4),
                            "interval": [round(x, 4) for x in p.interval], "draws": p.draws,
                            **({"refused": p.refused} if p.refused else {})} for p in self.points],
                "closest_to_even": best.value if best is not None else None}


def run_sweep(folder: Path, vary: Vary, games: int, seed: int,
              simulate: Callable[[object, bytes, list[tuple[int, int]]], list], told: Callable[[Point], None]
              | None = None) -> Sweep:
    """Every variant of the content in `folder`: checked and compiled, then `simulate(artifact, raw,
    pairs)` (the hero in the first seat against every other hero) gives its tallies."""
    from dtc import artifact as artifact_mod
    from dtc import project
    from dtc.compiler import compile_content
    from dtc.dicethrone.simulate import wilson

    path = hero_file(folder, vary.hero)
    original = path.read_text(encoding="utf-8")
    relative = path.relative_to(folder)
    variant_text(original, vary, vary.values[0], str(relative))  # what it names is there, before any work
    sweep: Sweep | None = None
    with tempfile.TemporaryDirectory(prefix="dtc-sweep-") as scratch:
        copy = Path(scratch) / "content"
        shutil.copytree(folder, copy)
        for value in vary.values:
            (copy / relative).write_text(variant_text(original, vary, value, str(relative)), encoding="utf-8")
            result = project.run([copy])
            point = Point(value)
            if result.errors:
                point.refused = _said(result.errors[0], copy)
            else:
                names = project.artifact_names(result, [copy])
                raw = artifact_mod.to_bytes(compile_content(result.content, names))
                loaded = artifact_mod.load(raw)
                hero = next(i for i, h in enumerate(loaded.heroes) if _slug(h["name"]) == _slug(vary.hero))
                others = [i for i in range(len(loaded.heroes)) if i != hero]
                if not others:
                    raise SweepError(f"`{loaded.heroes[hero]['name']}` has no other hero to play against")
                if sweep is None:
                    sweep = Sweep(vary, loaded.heroes[hero]["name"],
                                  [loaded.heroes[i]["name"] for i in others], games, seed)
                for tally in simulate(loaded, raw, [(hero, o) for o in others]):
                    point.games += tally.games
                    point.wins += tally.wins[0]
                    point.draws += tally.draws
                point.interval = wilson(point.wins, point.games)
            if sweep is None:
                sweep = Sweep(vary, vary.hero, [], games, seed)
            sweep.points.append(point)
            if told is not None:
                told(point)
    return sweep
