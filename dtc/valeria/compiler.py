"""Compile Valeria: checked Valeria content in, the artifact's `valeria` section and its chunks out.

Each reward pip's effect, Domain power, Statue card and Solo event becomes a
chunk of the same bytecode the Dice Throne effects use (the Valeria opcodes are
rows of `dtc.opcodes`); sheets become plain data with each pip written as the
index of its reward (-1 for a plain pip).  `Perform N <Reward> Rewards` is the
reward's statements N times, inlined.
"""

from __future__ import annotations

from typing import Any

from dtc.chunk import Chunk
from dtc.opcodes import COUNTABLES, SECTIONS, VOID_KINDS, Op
from dtc.valeria import language as lang
from dtc.valeria.content import Rules, Sheet, Text, Valeria

MAX_INLINE = 4  # rewards performing rewards: deeper than this is a content loop


class ValeriaCompileError(Exception):
    """Content the checker passed that cannot be compiled (a reward loop)."""


class ValeriaCompiler:
    """Adds the Valeria section to an image being built by `dtc.compiler.Compiler`."""

    def __init__(self, base: Any, valeria: Valeria):
        self.base = base  # the Dice Throne compiler: its chunk list and source table are shared
        self.valeria = valeria
        self.rules: Rules = valeria.the_rules  # type: ignore[assignment]
        self.colors = list(self.rules.action_dice) + [self.rules.helper]

    def compile(self) -> dict:
        rules = self.rules
        out: dict[str, Any] = {
            "rules": {
                "name": rules.name,
                "guilds": rules.guilds,
                "harvest": rules.harvest_dice,
                "actions": rules.action_dice,
                "helper": rules.helper,
                "colors": self.colors,
                "rewards": [
                    {
                        "name": r.name,
                        "mark": r.mark,
                        "star": r.star,
                        "chunk": self.chunk(r.effect) if r.effect else None,
                    }
                    for r in rules.rewards
                ],
                "end_tracks": rules.end_tracks,
                "slay_gold": rules.slay_gold,
                "draft": rules.draft,
                "most_statues": rules.most_statues,
                "solo_turns": rules.solo_turns,
                "solo_events": rules.solo_events,
                "bands": [list(b) for b in rules.bands],
            },
            "sheets": [self.sheet(s) for s in self.valeria.sheets],
            "statues": None,
            "events": [
                {
                    "name": e.name,
                    "sheet": e.sheet,
                    "cards": [{"name": c.name, "chunk": self.chunk(c.effect)} for c in e.cards],
                }
                for e in self.valeria.events
            ],
        }
        if self.valeria.statues:
            statues = self.valeria.statues[0]
            cards = [
                {"number": s.number, "instant": s.instant, "text": s.effect.text,
                 "chunk": self.chunk(s.effect)}
                for s in statues.cards
            ]
            out["statues"] = {"name": statues.name, "copies": statues.copies, "cards": cards}
        return out

    # -- sheets
    def pips(self, pips: list[str | None]) -> list[int]:
        names = [r.name for r in self.rules.rewards]
        return [-1 if p is None else names.index(p) for p in pips]

    def sheet(self, sheet: Sheet) -> dict:
        guild = {g.lower(): i for i, g in enumerate(self.rules.guilds)}
        return {
            "name": sheet.name,
            "source": self.base.source_index(sheet.doc.path),
            "citizens": [
                {
                    "values": list(c.values),
                    "label": c.label,
                    "guild": guild[c.guild.lower()],
                    "pips": self.pips(c.pips),
                    "start": c.start,
                }
                for c in sheet.citizens
            ],
            "tracks": [
                {"guild": guild[g.lower()], "pips": self.pips(p), "row": sheet.track_rows[g]}
                for g, p in sheet.tracks.items()
            ],
            "gold": self.pips(sheet.gold),
            "gold_rows": sheet.gold_rows,
            "wall": self.pips(sheet.wall),
            "starts": sheet.starts,
            "roads": [
                {"from": r.origin, "to": r.to, "pips": self.pips(r.pips), "bridge": r.bridge}
                for r in sheet.roads
            ],
            "domains": [
                {"name": d.name, "when": d.when, "power": d.power.text, "chunk": self.chunk(d.power)}
                for d in sheet.domains
            ],
            "lairs": [
                {
                    "name": lair.name,
                    "vp": list(lair.vp),
                    "access": lair.access,
                    "blocks": [
                        {"low": b.low, "high": b.high, "pips": self.pips(b.pips)} for b in lair.blocks
                    ],
                }
                for lair in sheet.lairs
            ],
        }

    # -- effects
    def chunk(self, text: Text) -> int:
        chunk = Chunk(text.owner, self.base.source_index(text.doc.path), None)
        statements = text.statements
        if statements is None:
            statements, problems = lang.parse(text.text)
            if problems:
                raise ValeriaCompileError(f"{text.owner}: {problems[0].message}")
        line = text.doc.span(text.path).line
        for s in statements:
            self.statement(chunk, s, text, 0)
        chunk.emit(Op.END, line=line)
        self.base.chunks.append(chunk)
        return len(self.base.chunks) - 1

    def line(self, text: Text, s) -> int:
        if s.span is None:
            return text.doc.span(text.path).line
        return text.doc.text_span(text.path, s.span.start, s.span.end).line

    def statement(self, chunk: Chunk, s, text: Text, depth: int, line: int | None = None) -> None:
        line = self.line(text, s) if line is None else line  # inlined rewards keep the caller's line
        if isinstance(s, lang.Mark):
            chunk.emit(Op.PUSH, s.count, line=line)
            if s.target in ("citizen_choice", "guild_citizen"):
                chunk.emit(Op.MARK_CITIZEN, self.guild(s.name), line=line)
            elif s.target in SECTIONS:
                chunk.emit(Op.MARK_NEXT, SECTIONS.index(s.target), line=line)
            else:
                ops = {"road": Op.MARK_ROAD, "lair_choice": Op.MARK_LAIR, "track_choice": Op.MARK_TRACK}
                chunk.emit(ops[s.target], line=line)
        elif isinstance(s, lang.TakeStatue):
            chunk.emit(Op.TAKE_STATUE, line=line)
        elif isinstance(s, lang.Score):
            if s.what == "reward_pips":
                where = SECTIONS.index(s.section) + 1 if s.section else 0  # 0: anywhere on the sheet
                chunk.emit(Op.COUNT_PIPS, self.rules.rewards.index(self.rules.reward(s.name)), where,
                           line=line)
            else:
                chunk.emit(Op.COUNT_SHEET, COUNTABLES.index(s.what), self.guild(s.name), line=line)
            chunk.emit(Op.PUSH, s.per, line=line)
            chunk.emit(Op.DIV, line=line)
            chunk.emit(Op.PUSH, s.vp, line=line)
            chunk.emit(Op.MUL, line=line)
            chunk.emit(Op.SCORE, line=line)
        elif isinstance(s, lang.CountStars):
            chunk.emit(Op.PUSH, s.count, line=line)
            chunk.emit(Op.ADD_STARS, line=line)
        elif isinstance(s, lang.Perform):
            reward = self.rules.reward(s.reward)
            if reward is not None and reward.effect is None and reward.star:  # a Star pip's worth: a Star
                chunk.emit(Op.PUSH, s.count, line=line)
                chunk.emit(Op.ADD_STARS, line=line)
                return
            if reward is None or reward.effect is None:
                return
            if depth >= MAX_INLINE:
                raise ValeriaCompileError(f"{text.owner}: rewards perform each other in a loop")
            inner = reward.effect.statements or lang.parse(reward.effect.text)[0] or ()
            for _ in range(s.count):
                for t in inner:
                    self.statement(chunk, t, reward.effect, depth + 1, line)
        elif isinstance(s, lang.Adjust):
            chunk.emit(Op.ADJUST_DIE, self.color(s.die), s.up, s.down, line=line)
        elif isinstance(s, lang.Flip):
            chunk.emit(Op.FLIP_DIE, self.color(s.die), line=line)
        elif isinstance(s, lang.Void):
            chunk.emit(Op.VOID, VOID_KINDS.index(s.kind), chunk.const(s.name), line=line)

    def guild(self, name: str | None) -> int:
        if name is None:
            return 0
        return 1 + [g.lower() for g in self.rules.guilds].index(name.lower())

    def color(self, name: str | None) -> int:
        if name is None:
            return 0
        return 1 + [c.lower() for c in self.colors].index(name.lower())
