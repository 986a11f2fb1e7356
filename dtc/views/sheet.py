"""The Kingdoms of Valeria player sheet as a self-contained HTML page (`dtc valeria sheet`): every
section's pips in the order they are marked, each reward pip with its mark and a legend of what the
rewards do, the roads with their Bridges, the Domains' powers and the Monster Lairs."""

from __future__ import annotations

from html import escape

from dtc.valeria.content import Rules, Sheet
from dtc.views.page import page

GUILD_COLOURS = {"Holy": "#d9b431", "Worker": "#3f7fbf", "Shadow": "#6b4c8c", "Soldier": "#b23b3b"}
REWARD_COLOURS = ("#2f6b2f", "#b8860b", "#7a5230", "#4a6fa5", "#9b1c1c", "#6b6b6b", "#c28f00", "#3b7b7b")

SHEET_STYLE = """
.pips { display: inline-flex; flex-wrap: wrap; gap: 3px; vertical-align: middle; }
.pip { width: 20px; height: 20px; border-radius: 50%; border: 1.5px solid var(--ink); background: #fff;
       display: inline-flex; align-items: center; justify-content: center; font-size: 11px; font-weight: bold;
       color: #fff; box-sizing: border-box; }
.pip.plain { color: transparent; } .pip.start { background: var(--ink); }
.pip.bridge { border-radius: 4px; border-width: 2.5px; }
.pip-row { margin: 2px 0; } .legend td:first-child { width: 30px; }
.citizen { display: inline-block; text-align: center; margin: 0 8px 10px 0; padding: 6px 8px;
           border-radius: 8px; background: #fff; border: 3px solid var(--line); min-width: 56px; }
.citizen .value { font-size: 20px; font-weight: bold; } .citizen .guild { font-size: 11px; }
.track h3 { margin: 8px 0 2px; font-size: 14px; }
"""


def sheet_html(sheet: Sheet, rules: Rules | None) -> str:
    """The page of one player sheet, drawn with the rules' reward marks."""
    rewards = rules.rewards if rules else []
    colours = {r.name: REWARD_COLOURS[k % len(REWARD_COLOURS)] for k, r in enumerate(rewards)}
    marks = {r.name: r.mark for r in rewards}

    def pip(reward: str | None, extra: str = "") -> str:
        if reward is None:
            return f'<span class="pip plain {extra}" title="a plain pip">·</span>'
        colour, mark = colours.get(reward, "#555"), marks.get(reward, reward[:1])
        return (f'<span class="pip {extra}" data-reward="{escape(reward)}" title="{escape(reward)} reward" '
                f'style="background:{colour}">{escape(mark)}</span>')

    def row(pips: list, starts: int = 0, bridge: int | None = None) -> str:
        cells = []
        for k, reward in enumerate(pips):
            extra = "start" if k < starts else ""
            if bridge is not None and bridge <= k < bridge + 3:
                extra += " bridge"
            cells.append(pip(reward, extra) if not (k < starts and reward is None) else
                         '<span class="pip start" title="marked at the start"></span>')
        return f'<span class="pips">{"".join(cells)}</span>'

    def rows(pips: list, widths: list[int]) -> str:
        out, at = [], 0
        for w in widths:
            out.append(f'<div class="pip-row">{row(pips[at:at + w])}</div>')
            at += w
        return "".join(out)

    data = sheet.doc.data
    out = [f'<h1 class="sheet-name">{escape(sheet.name)}</h1>',
           f'<p class="meta">Kingdoms of Valeria player sheet · from {escape(sheet.doc.path)}</p>']
    if data.get("authored"):
        out.append('<p class="meta">Authored (not printed in the rulebook): '
                   f'{escape(str(data["authored"]))}</p>')
    if rules is not None:
        legend = "".join(f"<tr><td>{pip(r.name)}</td><td><b>{escape(r.name)}</b></td><td>"
                         f"{escape(r.effect.text) if r.effect else ('1 VP at the end' if r.star else '')}"
                         "</td></tr>" for r in rules.rewards)
        out.append(f'<h2>Rewards</h2><table class="facts legend">{legend}</table>')
    citizens = "".join(
        f'<div class="citizen" data-citizen="{escape(c.label)}" '
        f'style="border-color:{GUILD_COLOURS.get(c.guild, "#999")}">'
        f'<div class="value">{escape(c.label)}</div>'
        f'<div class="guild">{escape(c.guild)}</div>{row(c.pips, c.start)}</div>'
        for c in sheet.citizens)
    out.append(f"<h2>Citizens</h2><div>{citizens}</div>")
    out.append("<h2>Guild Tracks</h2>")
    for guild, pips in sheet.tracks.items():
        width = sheet.track_rows.get(guild) or len(pips)
        out.append(f'<div class="track" data-track="{escape(guild)}"><h3 style="color:'
                   f'{GUILD_COLOURS.get(guild, "inherit")}">{escape(guild)}</h3>'
                   f'{rows(pips, [width] * (-(-len(pips) // width)))}</div>')
    out.append(f'<h2>Gold Chart</h2><div id="gold">{rows(sheet.gold, sheet.gold_rows)}</div>')
    out.append(f'<h2>The Wall</h2><div id="wall">{row(sheet.wall)}</div>')
    roads = "".join(f'<tr data-road="{escape(r.origin)}"><td>{escape(r.origin)}</td><td>'
                    f'{escape(r.to) if r.to else "(dead end)"}</td>'
                    f"<td>{row(r.pips, bridge=r.bridge)}</td></tr>" for r in sheet.roads)
    out.append(f'<h2>Roads</h2><p class="meta">Starting pips: {escape(", ".join(sheet.starts))}; a square '
               'pip is a Bridge.</p><table class="facts"><tr><th>from</th><th>to</th><th>pips</th></tr>'
               f"{roads}</table>")
    domains = "".join(f'<tr data-domain="{escape(d.name)}"><td><b>{escape(d.name)}</b></td>'
                      f"<td>{escape(d.power.text)}</td></tr>" for d in sheet.domains)
    out.append(f'<h2>Domains</h2><table class="facts">{domains}</table>')
    lairs = []
    for lair in sheet.lairs:
        blocks = " ".join(f'<span class="meta">{b.low}-{b.high}</span> {row(b.pips)}' for b in lair.blocks)
        access = "" if lair.access is None else (" · a Trailhead" if lair.access == "start"
                                                  else f" · opened by {escape(lair.access)}")
        lairs.append(f'<tr data-lair="{escape(lair.name)}"><td><b>{escape(lair.name)}</b>{access}</td>'
                     f"<td>{lair.vp[0]} / {lair.vp[1]} VP</td><td>{blocks}</td></tr>")
    out.append(f'<h2>Monster Lairs</h2><table class="facts"><tr><th>lair</th><th>first / others</th>'
               f'<th>range blocks</th></tr>{"".join(lairs)}</table>')
    return page(f"{sheet.name} — Kingdoms of Valeria sheet", "".join(out), SHEET_STYLE)
