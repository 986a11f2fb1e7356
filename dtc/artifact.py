"""Artifact: a compiled image to bytes (write), and bytes to a verified `Artifact` (read).

Layout of a `.dtcb` file:

    offset  size  field
         0     4  magic "DTCB"
         4     2  format version (big-endian)
         6     2  header size (64)
         8    32  SHA-256 of the rest of the file (header bytes 0-7 and 40-63, then the payload)
        40     4  payload length (big-endian)
        44    16  dtc version that wrote it (ASCII, NUL padded)
        60     4  zero
        64     …  payload: the image as canonical JSON (UTF-8, sorted keys, no spaces)

Writing is deterministic (same content, same bytes) and atomic.  Reading
verifies everything before anything runs: the header, the hash, the payload's
shape, every reference between tables, and every chunk's bytecode (known
opcodes, operands in range, jumps onto instruction starts, a consistent stack
depth on every path, END with an empty stack).  Only this module, `chunk`,
`opcodes`, `disasm` and `vm` are needed to load and run: no YAML, grammar or
schema files.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from dtc import __version__, payload
from dtc.chunk import expand_lines
from dtc.dice import MAX_DICE_STATES, ways_to_fall
from dtc.dicethrone.modes import ModeError, mode_from_data
from dtc.disasm import DecodeError, Instruction, instructions
from dtc.opcodes import (
    ANY_CARD,
    CHANGE_MODES,
    COMPARISONS,
    COMPONENT_KINDS,
    COUNTABLES,
    EITHER_GAME_OPS,
    OTHER_SIDE,
    SECTIONS,
    SKIP_NEXT_TURN,
    SKIPPABLE,
    TABLE,
    TARGETS,
    THEN_WINDOWS,
    VALERIA_OPS,
    VOID_KINDS,
    Op,
)
from dtc.source import read_bounded

MAGIC = b"DTCB"
FORMAT_VERSION = 11  # 2: CHANGE_DICE takes a third operand (only the player's own dice); 3: REROLL one;
# 4: COUNT_PIPS a second (the section counted); 5: THEN 2, the window after an effect's roll; 6: SKIP a
# second (`next turn`), and only phases the engine plays; 7: CHOOSE_PLAYER and the target `chosen`; 8:
# CHANGE_DICE modes 3-6 (a die up or down, to another die's value); 9: the triggers `damaged`, `gained`,
# `spends_status`, CHOOSE_PLAYERS, ACTOR_NTH, DOUBLE_DMG, the targets `each_player` and `chosen_players`,
# REROLL's bit 2 (every die); 10: modes as tables (teams, turn order, targeting), the targets `leader`,
# `left_opponent`, `right_opponent`; 11: the hash covers the whole header, the payload is checked field
# by field (`dtc.payload`)
HEADER_SIZE = 64
MAX_PAYLOAD = 64 * 1024 * 1024
MAX_STACK = 64


class ArtifactError(Exception):
    """The artifact cannot be trusted; the message is one line saying why."""


@dataclass
class LoadedChunk:
    owner: str
    source: int
    hero: int | None
    status: int | None
    code: bytes
    consts: list
    lines: list[int]
    prompts: dict[int, Any] = field(default_factory=dict)
    program: list[Instruction] = field(default_factory=list)
    text: str = ""  # the effect as written (none in an artifact compiled before texts were kept)


@dataclass
class Artifact:
    """A verified ruleset: tables, content data and chunks (read-only: the tables below are read
    once, then kept)."""

    version: str
    content_hash: str
    data: dict = field(repr=False)  # a ruleset is hundreds of kB: a report naming it says its hash
    chunks: list[LoadedChunk] = field(repr=False)

    def _repr_pretty_(self, printer, cycle) -> None:
        """How a test report (Hypothesis's pretty printer, IPython) shows it: as `repr` does, without
        the hundreds of kB of its data."""
        printer.text(repr(self))

    @cached_property
    def sources(self) -> list[str]:
        return self.data["sources"]

    @cached_property
    def heroes(self) -> list[dict]:
        return self.data["heroes"]

    @cached_property
    def minions(self) -> list[dict]:
        """Dice Throne Adventures minions and Bosses, the players nobody plays, after the heroes (a
        chunk's `hero` counts both); a record has `minion` or `boss` callouts."""
        return self.data.get("minions", [])

    def indices_of(self, kind: str) -> list[int]:
        """The players indices of the minions (`kind` "minion") or Bosses ("boss")."""
        return [len(self.heroes) + k for k, m in enumerate(self.minions) if kind in m]

    @cached_property
    def adventure(self) -> dict | None:
        """Dice Throne Adventures rules as data (hero setup, Loot Table, scenarios), when compiled in."""
        return self.data.get("adventure")

    @cached_property
    def players(self) -> list[dict]:
        """The heroes, then the minions: what a chunk's `hero` and a game's hero index count."""
        return self.heroes + self.minions

    @cached_property
    def statuses(self) -> list[dict]:
        return self.data["statuses"]

    @cached_property
    def symbols(self) -> list[str]:
        return self.data["symbols"]

    @cached_property
    def damage_types(self) -> list[str]:
        return self.data["damage_types"]

    @cached_property
    def phases(self) -> list[str]:
        return self.data["phases"]

    @cached_property
    def card_types(self) -> list[str]:
        return self.data["card_types"]

    @cached_property
    def dice(self) -> list[dict]:
        return self.data["dice"]

    def in_class(self, status: int, cls: str) -> bool:
        """Whether `1 <cls> status effect` (any, positive, negative) covers the status: one of that
        polarity that may be removed (not Armor-like or unique tokens marked `removable: false`)."""
        entry = self.statuses[status]
        if entry.get("companion"):  # "Companions are not Status Effects" (Marvel rulebook, "Companions")
            return False
        return entry.get("removable", True) and (cls == "any" or entry.get("polarity") == cls)

    def hero(self, name: str) -> tuple[int, dict] | None:
        """The hero whose name or slug is `name`."""
        wanted = _slug(name)
        for i, hero in enumerate(self.heroes):
            if _slug(hero["name"]) == wanted:
                return i, hero
        return None


def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.casefold()).split())


# ------------------------------------------------------------------ write


def to_bytes(image: dict) -> bytes:
    """The artifact bytes of a compiled image (deterministic)."""
    payload = json.dumps(image, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    version = __version__.encode("ascii")[:16].ljust(16, b"\0")
    before = MAGIC + FORMAT_VERSION.to_bytes(2, "big") + HEADER_SIZE.to_bytes(2, "big")
    after = len(payload).to_bytes(4, "big") + version + b"\0" * 4
    header = before + _digest(before, after, payload) + after
    assert len(header) == HEADER_SIZE
    return header + payload


def _digest(before: bytes, after: bytes, payload: bytes) -> bytes:
    """The hash of the whole file but the hash field: every header byte is covered (the writer's
    version too), so no byte of an artifact can change unnoticed."""
    return hashlib.sha256(before + after + payload).digest()


def write(path: Path, data: bytes) -> None:
    """Write atomically: a failure leaves no file (and never a half-written one). A symbolic link is
    followed: the file it names is replaced, the link stays."""
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _file_mode(path))  # mkstemp makes it 0600: a later CI step could not read it
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _file_mode(path: Path) -> int:
    """The permissions the written file gets: those of the file it replaces, or a new file's (0666
    less the umask), as a plain `open` would give."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# ------------------------------------------------------------------- read


def read(path: Path) -> Artifact:
    """Load and verify an artifact file; raises ArtifactError with a one-line reason."""
    try:
        size = os.stat(path).st_size
        if size > HEADER_SIZE + MAX_PAYLOAD:
            raise ArtifactError(f"{path}: {size} bytes is too large for a ruleset artifact")
        raw = read_bounded(path, HEADER_SIZE + MAX_PAYLOAD)
    except OSError as exc:
        raise ArtifactError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a device, a pipe, a file that grew
        raise ArtifactError(f"not a ruleset artifact: {exc}") from None
    return load(raw)


def load(raw: bytes) -> Artifact:
    """Verify artifact bytes and return the loaded artifact."""
    if raw[:len(MAGIC)] != MAGIC[:len(raw)] or not raw:  # a short text file is no artifact cut short
        raise ArtifactError("not a dtc ruleset artifact (bad magic number)")
    if len(raw) < HEADER_SIZE:
        raise ArtifactError(f"truncated: {len(raw)} bytes is shorter than the {HEADER_SIZE}-byte header")
    version = int.from_bytes(raw[4:6], "big")
    if version != FORMAT_VERSION:
        raise ArtifactError(f"artifact format version {version} is not supported "
                            f"(this dtc reads version {FORMAT_VERSION}); recompile it")
    if int.from_bytes(raw[6:8], "big") != HEADER_SIZE or raw[60:64] != b"\0" * 4:
        raise ArtifactError("damaged header")
    length = int.from_bytes(raw[40:44], "big")
    payload = raw[HEADER_SIZE:]
    if len(payload) < length:
        raise ArtifactError(f"truncated: the payload should be {length} bytes, found {len(payload)}")
    if len(payload) > length:
        raise ArtifactError(f"{len(payload) - length} unexpected bytes after the payload")
    if _digest(raw[:8], raw[40:HEADER_SIZE], payload) != raw[8:40]:
        raise ArtifactError("content hash mismatch: the artifact was changed or damaged")
    writer = raw[44:60].rstrip(b"\0")
    if not writer or not all(0x21 <= b < 0x7F for b in writer):
        raise ArtifactError("damaged header: the writer's version is not printable")
    try:
        writer = writer.decode("ascii")
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArtifactError(f"payload is not readable: {exc}") from None
    return verify(data, writer, raw[8:40].hex())


# ----------------------------------------------------------------- verify


def verify(data: Any, writer: str = "?", content_hash: str = "") -> Artifact:
    """Check an image's shape, references and bytecode; returns it loaded."""
    v = _Verifier(data)
    chunks = v.run()
    return Artifact(writer, content_hash, data, chunks)


class _Verifier:
    def __init__(self, data: Any):
        self.data = data
        self.valeria_chunks: set[int] = set()  # chunks the Valeria section runs (sheet instructions)
        self.dice_throne_refs: dict[int, str] = {}  # chunks Dice Throne records run, and from where

    def fail(self, where: str, message: str):
        raise ArtifactError(f"{where}: {message}")

    # -- shapes
    def obj(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            self.fail(where, "expected an object")
        return value

    def arr(self, value: Any, where: str) -> list:
        if not isinstance(value, list):
            self.fail(where, "expected a list")
        return value

    def key(self, obj: dict, name: str, kind: type | tuple, where: str) -> Any:
        if name not in obj:
            self.fail(where, f"missing `{name}`")
        value = obj[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int,))):
            self.fail(f"{where}.{name}", "has the wrong type")
        return value

    def index(self, value: Any, table: list, where: str, what: str, optional: bool = False) -> None:
        if value is None and optional:
            return
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(table):
            self.fail(where, f"dangling reference to {what} {value!r}")

    # -- the whole image
    def run(self) -> list[LoadedChunk]:
        d = self.obj(self.data, "payload")
        if d.get("format") != FORMAT_VERSION:
            self.fail("payload", f"image format {d.get('format')!r} is not {FORMAT_VERSION}")
        try:
            payload.check(payload.PAYLOAD, d, "payload")
        except payload.ShapeError as problem:
            raise ArtifactError(str(problem)) from None
        # from here on every field has its shape: what follows checks what a shape cannot say
        self.chunks = [self.chunk(c, i) for i, c in enumerate(d["chunks"])]
        for i, die in enumerate(d["dice"]):
            die = self.obj(die, f"dice[{i}]")
            self.key(die, "name", str, f"dice[{i}]")
            faces = self.key(die, "faces", dict, f"dice[{i}]")
            for value, symbol in faces.items():
                if not (value.isascii() and value.isdigit()):
                    self.fail(f"dice[{i}].faces", f"face {value!r} is not a number")
                self.index(symbol, d["symbols"], f"dice[{i}].faces", "symbol")
        for i, status in enumerate(d["statuses"]):
            self.status(self.obj(status, f"statuses[{i}]"), f"statuses[{i}]")
        for i, hero in enumerate(d["heroes"]):
            self.hero(self.obj(hero, f"heroes[{i}]"), i)
        for i, minion in enumerate(d.get("minions", [])):
            self.hero(minion, i, "minions")
            if ("minion" in minion) == ("boss" in minion):
                self.fail(f"minions[{i}]", "a player nobody plays has either `minion` or `boss` callouts")
            for j, action in enumerate((minion.get("boss") or {}).get("actions", [])):
                self.index(action["card"], minion["cards"], f"minions[{i}].boss.actions[{j}].card", "card")
        for i, env in enumerate((d.get("adventure") or {}).get("environments", [])):
            self.chunk_ref(env.get("chunk"), f"adventure.environments[{i}]", optional=True)
        boss_vs = (d.get("adventure") or {}).get("boss_vs")
        if boss_vs is not None:
            self.index(boss_vs["kings_hand"], d["statuses"], "adventure.boss_vs.kings_hand", "status")
        card_names = {c.get("name") for cs in d["card_sets"] for c in cs.get("cards", [])}
        for i, loot in enumerate(d.get("loot", [])):
            if loot["name"] not in card_names:
                self.fail(f"loot[{i}]", f"dangling reference to card {loot['name']!r}")
        for i, card_set in enumerate(d["card_sets"]):
            card_set = self.obj(card_set, f"card_sets[{i}]")
            for j, card in enumerate(self.key(card_set, "cards", list, f"card_sets[{i}]")):
                self.card(self.obj(card, f"card_sets[{i}].cards[{j}]"), None, f"card_sets[{i}].cards[{j}]")
        ruleset_names = [self.key(self.obj(r, f"rulesets[{i}]"), "ruleset", str, f"rulesets[{i}]")
                         for i, r in enumerate(d["rulesets"])]
        for i, r in enumerate(d["rulesets"]):
            self.ruleset(r, f"rulesets[{i}]")
        defaults = sum(bool(r.get("default")) for r in d["rulesets"])
        if len(set(ruleset_names)) != len(ruleset_names) or defaults > 1:
            self.fail("rulesets", "two rulesets of one name, or two defaults")
        for i, r in enumerate(d["rulesets"]):
            modes = self.key(r, "modes", dict, f"rulesets[{i}]")
            one_on_one = modes.get("1v1")
            if not isinstance(one_on_one, dict) or one_on_one.get("players") != 2 or "teams" in one_on_one:
                self.fail(f"rulesets[{i}].modes", "needs `1v1`, two players each alone (the game played "
                          "unless another mode is named)")
            for name, mode in modes.items():
                try:
                    mode_from_data(name, self.obj(mode, f"rulesets[{i}].modes.{name}"))
                except ModeError as problem:
                    self.fail(f"rulesets[{i}].modes.{name}", str(problem))
        hero_names = [h["name"] for h in d["heroes"]]
        for i, hero in enumerate(d["heroes"]):
            if hero.get("rules") is not None and hero["rules"] not in ruleset_names:
                self.fail(f"heroes[{i}]", f"dangling reference to ruleset {hero['rules']!r}")
        for i, status in enumerate(d["statuses"]):
            if status.get("owner") is not None and status["owner"] not in hero_names:
                self.fail(f"statuses[{i}]", f"dangling reference to hero {status['owner']!r}")
        for i, status_set in enumerate(d["status_sets"]):
            for s in self.key(self.obj(status_set, f"status_sets[{i}]"), "statuses", list, "status_sets"):
                self.index(s, d["statuses"], f"status_sets[{i}]", "status")
        if d.get("valeria") is not None:
            self.valeria(self.obj(d["valeria"], "valeria"))
        for index, where in self.dice_throne_refs.items():  # a Valeria chunk run in a Dice Throne game
            if index in self.valeria_chunks:
                self.fail(where, f"chunk {index} is a Kingdoms of Valeria effect, not one a Dice Throne game "
                                 "runs")
        for i, chunk in enumerate(self.chunks):
            self.bytecode(chunk, i)
        return self.chunks

    def ruleset(self, r: dict, where: str) -> None:
        """The checker's rules on a ruleset that its shape (`payload.RULESET`) cannot say: `normal`
        dmg, one name per damage type and phase."""
        types = [t["name"] for t in r["damage_types"]]
        phases = [p["name"] for p in r["phases"]]
        if "normal" not in types or len(set(types)) != len(types) or len(set(phases)) != len(phases):
            self.fail(where, "the damage-type chart needs `normal`, and each damage type and phase one name")

    # -- Kingdoms of Valeria
    def valeria(self, v: dict) -> None:
        rules = self.obj(v.get("rules"), "valeria.rules")
        for name in ("guilds", "harvest", "colors"):
            for item in self.key(rules, name, list, "valeria.rules"):
                if not isinstance(item, str):
                    self.fail(f"valeria.rules.{name}", "expected text")
        for name in ("end_tracks", "slay_gold", "draft", "most_statues", "solo_turns", "solo_events"):
            if self.key(rules, name, int, "valeria.rules") < 0:
                self.fail(f"valeria.rules.{name}", "is negative")
        if rules["draft"] < 1 or rules["most_statues"] < 1 or rules["solo_turns"] > 1000:
            self.fail("valeria.rules", "a draft line, a Statue limit and at most 1000 solo turns are needed")
        rewards = self.key(rules, "rewards", list, "valeria.rules")
        for i, r in enumerate(rewards):
            r = self.obj(r, f"valeria.rules.rewards[{i}]")
            self.key(r, "name", str, f"valeria.rules.rewards[{i}]")
            self.valeria_chunk(r.get("chunk"), f"valeria.rules.rewards[{i}]", optional=True)
        for i, band in enumerate(self.key(rules, "bands", list, "valeria.rules")):
            if not (isinstance(band, list) and len(band) == 2 and type(band[0]) is int
                    and isinstance(band[1], str)):
                self.fail(f"valeria.rules.bands[{i}]", "expected [least, title]")
        actions = rules["actions"]
        if rules["helper"] in actions or set(actions) | {rules["helper"]} != set(rules["colors"]):
            self.fail("valeria.rules", "the action dice and the helper die are the colours, once each")
        guilds = rules["guilds"]
        for i, sheet in enumerate(self.key(v, "sheets", list, "valeria")):
            self.sheet(self.obj(sheet, f"valeria.sheets[{i}]"), f"valeria.sheets[{i}]", guilds, rewards)
        statues = v.get("statues")
        if statues is not None:
            statues = self.obj(statues, "valeria.statues")
            self.key(statues, "copies", list, "valeria.statues")
            for i, card in enumerate(self.key(statues, "cards", list, "valeria.statues")):
                card = self.obj(card, f"valeria.statues.cards[{i}]")
                self.key(card, "number", int, f"valeria.statues.cards[{i}]")
                self.key(card, "text", str, f"valeria.statues.cards[{i}]")
                self.valeria_chunk(card.get("chunk"), f"valeria.statues.cards[{i}]")
        for i, events in enumerate(self.key(v, "events", list, "valeria")):
            events = self.obj(events, f"valeria.events[{i}]")
            self.key(events, "sheet", str, f"valeria.events[{i}]")
            for j, card in enumerate(self.key(events, "cards", list, f"valeria.events[{i}]")):
                self.valeria_chunk(self.obj(card, "event").get("chunk"), f"valeria.events[{i}].cards[{j}]")

    def valeria_chunk(self, value: Any, where: str, optional: bool = False) -> None:
        self.chunk_ref(value, where, optional, game="valeria")
        if value is not None:
            self.valeria_chunks.add(value)

    def pips(self, pips: Any, where: str, rewards: list) -> None:
        for p in self.arr(pips, where):
            if not isinstance(p, int) or isinstance(p, bool) or not -1 <= p < len(rewards):
                self.fail(where, f"a pip names reward {p!r}")

    def sheet(self, sheet: dict, where: str, guilds: list, rewards: list) -> None:
        self.key(sheet, "name", str, where)
        for i, c in enumerate(self.key(sheet, "citizens", list, where)):
            c = self.obj(c, f"{where}.citizens[{i}]")
            self.index(c.get("guild"), guilds, f"{where}.citizens[{i}]", "guild")
            self.pips(c.get("pips"), f"{where}.citizens[{i}]", rewards)
            values = self.key(c, "values", list, f"{where}.citizens[{i}]")
            if not values or not all(isinstance(x, int) and 1 <= x <= 12 for x in values):
                self.fail(f"{where}.citizens[{i}]", "citizen values are 1 to 12")
            if not isinstance(c.get("start"), int) or not 0 <= c["start"] <= len(c["pips"]):
                self.fail(f"{where}.citizens[{i}]", "bad starting pips")
        for i, t in enumerate(self.key(sheet, "tracks", list, where)):
            t = self.obj(t, f"{where}.tracks[{i}]")
            self.index(t.get("guild"), guilds, f"{where}.tracks[{i}]", "guild")
            self.pips(t.get("pips"), f"{where}.tracks[{i}]", rewards)
        track_guilds = [t["guild"] for t in sheet["tracks"]]
        if len(set(track_guilds)) != len(track_guilds) or not {c["guild"] for c in sheet["citizens"]} <= set(
                track_guilds):
            self.fail(f"{where}.tracks", "each guild has one track, and every Citizen's guild a track")
        self.pips(sheet.get("gold"), f"{where}.gold", rewards)
        self.pips(sheet.get("wall"), f"{where}.wall", rewards)
        starts = self.key(sheet, "starts", list, where)
        domains = self.key(sheet, "domains", list, where)
        names = [self.key(self.obj(dom, f"{where}.domains"), "name", str, f"{where}.domains")
                 for dom in domains]
        for i, dom in enumerate(domains):
            self.valeria_chunk(dom.get("chunk"), f"{where}.domains[{i}]")
            if dom.get("when") not in ("action", "claim"):
                self.fail(f"{where}.domains[{i}]", "a Domain power is used in the action or on claiming")
        for i, road in enumerate(self.key(sheet, "roads", list, where)):
            road = self.obj(road, f"{where}.roads[{i}]")
            self.pips(road.get("pips"), f"{where}.roads[{i}]", rewards)
            if road.get("from") not in starts + names or road.get("to") not in names + [None]:
                self.fail(f"{where}.roads[{i}]", "a road joins unknown places")
            bridge = road.get("bridge")
            if bridge is not None and (not isinstance(bridge, int)
                                       or not 0 <= bridge <= len(road["pips"]) - 3):
                self.fail(f"{where}.roads[{i}]", "a Bridge outside its road")
        for i, lair in enumerate(self.key(sheet, "lairs", list, where)):
            lair = self.obj(lair, f"{where}.lairs[{i}]")
            vp = self.key(lair, "vp", list, f"{where}.lairs[{i}]")
            if len(vp) != 2 or not all(isinstance(x, int) and x >= 0 for x in vp):
                self.fail(f"{where}.lairs[{i}]", "VP is [high, low]")
            if lair.get("access") not in [None, "start"] + names:
                self.fail(f"{where}.lairs[{i}]", "a Lair opened by an unknown Domain")
            blocks = self.key(lair, "blocks", list, f"{where}.lairs[{i}]")
            if not blocks:
                self.fail(f"{where}.lairs[{i}]", "a Lair without Range Blocks")
            for j, block in enumerate(blocks):
                block = self.obj(block, f"{where}.lairs[{i}].blocks[{j}]")
                low, high = block.get("low"), block.get("high")
                if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= 12):
                    self.fail(f"{where}.lairs[{i}].blocks[{j}]", "a range outside 1-12")
                self.pips(block.get("pips"), f"{where}.lairs[{i}].blocks[{j}]", rewards)

    def chunk(self, c: Any, i: int) -> LoadedChunk:
        where = f"chunk {i}"
        c = self.obj(c, where)
        owner = self.key(c, "owner", str, where)
        source = self.key(c, "source", int, where)
        self.index(source, self.data["sources"], where, "source")
        hero = c.get("hero")
        self.index(hero, self.data["heroes"] + self.data.get("minions", []), where, "hero", optional=True)
        status = c.get("status")
        self.index(status, self.data["statuses"], where, "status", optional=True)
        try:
            code = bytes.fromhex(self.key(c, "code", str, where))
        except ValueError:
            self.fail(where, "code is not hex")
        consts = self.key(c, "consts", list, where)
        runs = self.key(c, "lines", list, where)
        for run in runs:
            if (not isinstance(run, list) or len(run) != 2
                    or not all(isinstance(x, int) and x >= 0 for x in run)):
                self.fail(where, "damaged line table")
        if sum(r[1] for r in runs) != len(code):
            self.fail(where, "the line table does not cover the code")
        prompts = {}
        for key, text in self.key(c, "prompts", dict, where).items():
            ok = isinstance(text, str) or (isinstance(text, list) and all(isinstance(t, str) for t in text))
            if not (key.isascii() and key.isdigit()) or not ok:
                self.fail(where, "damaged prompts")
            prompts[int(key)] = text
        text = c.get("text", "")
        if not isinstance(text, str):
            self.fail(where, "text is not a string")
        return LoadedChunk(owner, source, hero, status, code, consts, expand_lines(runs), prompts, text=text)

    def trigger(self, t: Any, where: str, hero: dict | None) -> None:
        if t is None:
            return
        t = self.obj(t, where)
        on = self.key(t, "on", str, where)
        known = {"during", "turn_edge", "phase_edge", "conclude", "attacked", "attacking", "attack_landed",
                 "spent",
                 "gained_at_limit", "reads", "would_exceed", "any_time", "damaged_by_phase",
                 "damaged", "gained", "spends_status", "healed", "plays_card"}
        if on not in known:
            self.fail(where, f"unknown trigger {on!r}")
        if "phase" in t:
            self.index(t["phase"], self.data["phases"], where, "phase")
        if "component" in t:
            self.index(t["component"], (hero or {}).get("components", []), where, "component")
        if on == "spends_status" and "status" not in t:
            self.fail(where, "a spending trigger names no status")
        if "status" in t:
            self.index(t["status"], self.data["statuses"], where, "status")
        for key in ("damage_type", "except"):
            if t.get(key) not in (None, "any"):
                self.index(t[key], self.data["damage_types"], where, "damage type")

    def requirement(self, req: Any, where: str) -> None:
        req = self.obj(req, where)
        items = self.key(req, "items", list, where)
        if not items:
            self.fail(where, "an empty requirement")
        for item in items:
            item = self.obj(item, where)
            if "straight" in item:
                if item["straight"] not in ("small", "large"):
                    self.fail(where, "unknown straight")
            elif "of_a_kind" in item:
                if not isinstance(item["of_a_kind"], int) or not 2 <= item["of_a_kind"] <= 20:
                    self.fail(where, "bad N-of-a-kind")
                self.index(item.get("symbol"), self.data["symbols"], where, "symbol", optional=True)
            else:
                self.index(item.get("symbol"), self.data["symbols"], where, "symbol")
                if not isinstance(item.get("count"), int) or not 1 <= item["count"] <= 20:
                    self.fail(where, "bad symbol count")

    def chunk_ref(self, value: Any, where: str, optional: bool = False, game: str = "dice throne") -> None:
        self.index(value, self.data["chunks"], where, "chunk", optional)
        if value is not None and game == "dice throne":
            self.dice_throne_refs.setdefault(value, where)

    def triggered(self, entry: Any, where: str, hero: dict | None) -> None:
        entry = self.obj(entry, where)
        self.trigger(entry.get("trigger"), where, hero)
        self.chunk_ref(entry.get("chunk"), where)

    def status(self, s: dict, where: str) -> None:
        self.key(s, "name", str, where)
        if s.get("class") is not None:
            return
        limit = self.key(s, "stack_limit", int, where)
        if limit < 1:
            self.fail(where, "stack limit below 1")
        self.trigger(s.get("spendable"), where, None)
        for j, e in enumerate(self.key(s, "effects", list, where)):
            self.triggered(e, f"{where}.effects[{j}]", self._owner_hero(s))
        for j, tier in enumerate(self.key(s, "tiers", list, where)):
            tier = self.obj(tier, f"{where}.tiers[{j}]")
            if tier.get("blueprint") is not None:
                self.requirement(tier["blueprint"], f"{where}.tiers[{j}]")
            self.triggered(tier.get("effect"), f"{where}.tiers[{j}]", self._owner_hero(s))

    def _owner_hero(self, s: dict) -> dict | None:
        return next((h for h in self.data["heroes"] if h.get("name") == s.get("owner")), None)

    def hero(self, h: dict, i: int, table: str = "heroes") -> None:
        where = f"{table}[{i}]"
        self.key(h, "name", str, where)
        dice = self.key(h, "dice", dict, where)
        if not isinstance(dice.get("count"), int) or not 1 <= dice["count"] <= 10:
            self.fail(where, "bad dice count")
        for value, symbol in self.key(dice, "faces", dict, where).items():
            if not (value.isascii() and value.isdigit()):
                self.fail(where, f"face {value!r} is not a number")
            self.index(symbol, self.data["symbols"], where, "symbol")
        abilities = [a for a in h.get("abilities") or [] if isinstance(a, dict)]
        rolled = [dice["count"], *(a.get("dice") or 0 for a in abilities)]
        if max(ways_to_fall(len(dice["faces"]), n) for n in rolled) > MAX_DICE_STATES:
            self.fail(where, f"its dice fall in more ways than the {MAX_DICE_STATES:,} the odds weigh "
                      "(lint: C040)")
        for j, comp in enumerate(self.key(h, "components", list, where)):
            self.component(self.obj(comp, f"{where}.components[{j}]"), f"{where}.components[{j}]", h)
            for k, e in enumerate(self.key(comp, "effects", list, f"{where}.components[{j}]")):
                self.triggered(e, f"{where}.components[{j}].effects[{k}]", h)
        for s in self.key(h, "statuses", list, where):
            self.index(s, self.data["statuses"], where, "status")
        for j, a in enumerate(self.key(h, "abilities", list, where)):
            self.ability(self.obj(a, f"{where}.abilities[{j}]"), f"{where}.abilities[{j}]", h)
        for j, card in enumerate(self.key(h, "cards", list, where)):
            self.card(self.obj(card, f"{where}.cards[{j}]"), h, f"{where}.cards[{j}]")
        self.chunk_ref(h.get("setup"), where, optional=True)

    def component(self, comp: dict, where: str, hero: dict) -> None:
        kind = comp.get("kind")
        values = self.key(comp, "values", list, where)
        if kind == "dial":
            if not values or not all(type(v) is int for v in values) or values != sorted(values):
                self.fail(where, "a dial's values are rising whole numbers")
        elif kind in ("track", "forms"):
            if not values or not all(isinstance(v, str) for v in values):
                self.fail(where, f"a {kind}'s values are names")
        elif kind != "zone":
            self.fail(where, f"unknown component kind {kind!r}")
        for k, e in enumerate(self.key(comp, "effects", list, where)):
            self.triggered(e, f"{where}.effects[{k}]", hero)

    def ability(self, a: dict, where: str, hero: dict) -> None:
        for j, o in enumerate(a.get("options", [])):
            o = self.obj(o, f"{where}.options[{j}]")
            self.requirement(o.get("requirement"), f"{where}.options[{j}]")
            self.chunk_ref(o.get("chunk"), f"{where}.options[{j}]")
        for key in ("shared", "additionally", "chunk"):
            self.chunk_ref(a.get(key), where, optional=True)
        for j, e in enumerate(a.get("effects", [])):
            self.triggered(e, f"{where}.effects[{j}]", hero)

    def card(self, c: dict, hero: dict | None, where: str) -> None:
        self.key(c, "name", str, where)
        if not isinstance(c.get("text", ""), str):
            self.fail(where, "a card's text is not text")
        cost = self.key(c, "cost", int, where)
        if cost < 0:
            self.fail(where, "negative cost")
        self.chunk_ref(c.get("chunk"), where, optional=True)
        if c.get("type") is not None:
            self.index(c["type"], self.data["card_types"], where, "card type")
        if c.get("ability") is not None:
            if hero is None and c["kind"] != "equipment":
                self.fail(where, "an upgrade outside a hero")
            self.ability(self.obj(c["ability"], where), where, hero)
        if hero is not None and c["kind"] == "upgrade":
            target = next((a for a in hero["abilities"] if a["name"] == c["upgrades"]), None)
            if target is None or c.get("ability") is None or c["ability"]["kind"] != target["kind"]:
                self.fail(where, "an upgrade names an ability of its hero and upgrades it to one of its kind")

    # -- bytecode
    def bytecode(self, chunk: LoadedChunk, index: int) -> None:
        where = f"chunk {index} ({chunk.owner})"
        if not chunk.code:
            self.fail(where, "empty code")
        try:
            program = instructions(chunk.code)
        except DecodeError as exc:
            self.fail(where, str(exc))
        starts = {ins.offset for ins in program}
        valeria = index in self.valeria_chunks
        for ins in program:
            if (ins.op in VALERIA_OPS) != valeria and ins.op not in EITHER_GAME_OPS:
                game = "a Kingdoms of Valeria" if valeria else "a Dice Throne"
                self.fail(where, f"{ins.op.name} at {ins.offset:04} has no meaning in {game} effect")
            self.operands(chunk, ins, starts, where, index)
        self.stack(program, where)
        chunk.program = program

    def operands(self, chunk: LoadedChunk, ins: Instruction, starts: set[int], where: str,
                 index: int) -> None:
        info = TABLE[ins.op]
        d = self.data
        hero = (d["heroes"] + d.get("minions", []))[chunk.hero] if chunk.hero is not None else None
        comp = status = None
        at = f"{where}: offset {ins.offset:04} {ins.op.name}"
        for shape, value in zip(info.operands, ins.operands, strict=True):
            if shape == "jump" and value not in starts:
                self.fail(at, f"jump to {value:04} is not the start of an instruction in the chunk")
            elif shape == "table":
                if not value:
                    self.fail(at, "a choice with no options")
                for target in value:
                    if target not in starts:
                        self.fail(at, f"option at {target:04} is not an instruction in the chunk")
            elif shape == "status":
                self.index(value, d["statuses"], at, "status")
                status = d["statuses"][value]
            elif shape == "symbol":
                self.index(value, d["symbols"], at, "symbol")
            elif shape == "comp":
                if hero is None:
                    self.fail(at, "names a component outside a hero")
                self.index(value, hero["components"], at, "component")
                comp = hero["components"][value]
                if comp.get("kind") not in COMPONENT_KINDS[ins.op]:
                    self.fail(at, f"needs a {' or '.join(COMPONENT_KINDS[ins.op])}; component {value} "
                                  f"is a {comp.get('kind')}")
            elif shape == "value":
                self.index(value, comp["values"], at, "component value")
            elif shape == "side":
                owner = comp if comp is not None else (
                    status if status is not None else
                    (d["statuses"][chunk.status] if chunk.status is not None else None))
                if owner is None:
                    self.fail(at, "a side of nothing")
                if value == OTHER_SIDE:
                    if len(owner.get("sides", [])) != 2:
                        self.fail(at, "turns over something that has not two sides")
                else:
                    self.index(value, owner.get("sides", []), at, "side")
            elif shape == "phase":
                self.index(value, d["phases"], at, "phase")
            elif shape == "dtype":
                self.index(value, d["damage_types"], at, "damage type")
            elif shape == "target":
                self.index(value, TARGETS, at, "target")
            elif shape == "ctype" and value != ANY_CARD:
                self.index(value, d["card_types"], at, "card type")
            elif shape == "die" and value > len(d["dice"]):
                self.fail(at, f"dangling reference to die {value}")
            elif shape == "chunk":
                self.chunk_ref(value, at, game="bytecode")
                if (value in self.valeria_chunks) != (index in self.valeria_chunks):
                    self.fail(at, f"chunk {value} is an effect of the other game")
            elif shape == "tier" and value and (status is None or value > len(status.get("tiers", []))):
                self.fail(at, f"dangling reference to tier {value}")
            elif shape == "cmp":
                self.index(value, COMPARISONS, at, "comparison")
            elif shape == "mode" and value >= (len(CHANGE_MODES) if ins.op == Op.CHANGE_DICE else 2):
                self.fail(at, f"unknown mode {value}")
            elif shape == "dir" and value > 2:
                self.fail(at, f"unknown direction {value}")
            elif shape in ("guild", "color"):
                rules = (d.get("valeria") or {}).get("rules") or {}
                if value > len(rules.get("guilds" if shape == "guild" else "colors", [])):
                    self.fail(at, f"dangling reference to {shape} {value}")
            elif shape == "reward":
                rules = (d.get("valeria") or {}).get("rules") or {}
                self.index(value, rules.get("rewards", []), at, "reward")
            elif shape == "where" and value > len(SECTIONS):
                self.fail(at, f"unknown section {value}")
            elif shape in ("section", "what", "voidkind"):
                if value >= len({"section": SECTIONS, "what": COUNTABLES, "voidkind": VOID_KINDS}[shape]):
                    self.fail(at, f"unknown {shape} {value}")
            elif shape == "const":
                self.index(value, chunk.consts, at, "constant")
                self.constant(ins.op, chunk.consts[value], at, hero)
        if ins.op in (Op.GAIN_THIS, Op.REMOVE_THIS, Op.SPEND_THIS, Op.FLIP_THIS) and chunk.status is None:
            self.fail(at, "`this token` outside a status effect")
        if ins.op == Op.THEN and ins.operands[0] >= len(THEN_WINDOWS):
            self.fail(at, f"unknown window {ins.operands[0]}")
        if ins.op == Op.PICK and not ins.operands[0] <= ins.operands[1]:
            self.fail(at, "an empty range to pick from")
        if ins.op == Op.CHANGE_DICE and ins.operands[0] == 2:
            self.index(ins.operands[1], d["symbols"], at, "symbol")
        if ins.op == Op.SKIP:
            self.skip(ins.operands, at)

    def skip(self, operands: tuple, at: str) -> None:
        """What SKIP names is a phase the engine plays (or the turn), as the checker allows: one it
        does not play would be skipped by no one."""
        phase, mode = operands
        name = self.data["phases"][phase]
        if name not in SKIPPABLE:
            self.fail(at, f"skips {name}, a phase the engine does not play")
        if mode == SKIP_NEXT_TURN and name != "turn":
            self.fail(at, f"`next turn` mode on {name}, not the turn")

    def constant(self, op: Op, value: Any, at: str, hero: dict | None) -> None:
        if op == Op.COUNT_SYMBOLS:
            for s in self.arr(value, at):
                self.index(s, self.data["symbols"], at, "symbol")
        elif op == Op.PICK_FROM:
            if not value or not all(type(x) is int and 0 <= x < 1000 for x in self.arr(value, at)):
                self.fail(at, "bad number list")
        elif op == Op.MEETS:
            self.requirement(value, at)
        elif op == Op.SCHEDULE:
            self.trigger(value, at, hero)
        elif op == Op.VOID and not isinstance(value, str):
            self.fail(at, "a void names nothing")

    def stack(self, program: list[Instruction], where: str) -> None:
        """Every path keeps one stack depth at each instruction and ends empty."""
        by_offset = {ins.offset: i for i, ins in enumerate(program)}
        depth: dict[int, int] = {0: 0}
        work = [0]
        while work:
            i = work.pop()
            ins = program[i]
            info = TABLE[ins.op]
            now = depth[i]
            at = f"{where}: offset {ins.offset:04} {ins.op.name}"
            if now < info.pops:
                self.fail(at, "stack underflow")
            after = now - info.pops + info.pushes
            if after > MAX_STACK:
                self.fail(at, "stack too deep")
            if ins.op == Op.END:
                if after != 0:
                    self.fail(at, f"unbalanced stack: the chunk ends with {after} value(s) left")
                continue
            if ins.op == Op.CHOOSE:
                nexts = [by_offset[t] for t in ins.operands[0]]
            elif ins.op == Op.JUMP:
                nexts = [by_offset[ins.operands[0]]]
            else:
                if i + 1 >= len(program):
                    self.fail(at, "the code runs off the end of the chunk")
                nexts = [i + 1]
                if ins.op == Op.JUMP_IF_FALSE:
                    nexts.append(by_offset[ins.operands[0]])
            for j in nexts:
                if j in depth:
                    if depth[j] != after:
                        self.fail(f"{where}: offset {program[j].offset:04}",
                                  f"unbalanced stack: {depth[j]} value(s) on one path, {after} on another")
                else:
                    depth[j] = after
                    work.append(j)
