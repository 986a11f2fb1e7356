"""The frame every designer view shares: a self-contained HTML page (inline CSS, inline SVG, no
font, script or image from the network), the card face, and the error page."""

from __future__ import annotations

from html import escape

from dtc.views.icons import Icons

STYLE = """
:root { --ink: #1d1b19; --paper: #fbf7ef; --line: #c9bfae; --accent: #7a3b12; --soft: #efe6d6;
        --good: #2f6b2f; --bad: #9b1c1c; font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }
body { margin: 0; background: var(--paper); color: var(--ink); line-height: 1.35; }
main { max-width: 1180px; margin: 0 auto; padding: 18px 24px 40px; }
h1 { margin: 0 0 2px; font-size: 28px; } h2 { font-size: 19px; margin: 22px 0 8px; color: var(--accent);
     border-bottom: 2px solid var(--line); padding-bottom: 3px; }
.tagline { font-style: italic; margin: 0 0 6px; } .meta { color: #5d554b; font-size: 13px; }
.icon { width: 1.25em; height: 1.25em; vertical-align: -0.28em; color: var(--accent); }
.sym { white-space: nowrap; } .req-text { font-size: 12px; font-weight: bold; }
.sym-name { position: absolute; font-size: 1px; color: transparent; white-space: nowrap; }
.dice-key { display: flex; gap: 10px; flex-wrap: wrap; }
.face { border: 2px solid var(--ink); border-radius: 9px; width: 64px; height: 64px; display: flex;
        flex-direction: column; align-items: center; justify-content: center; background: #fff; }
.face .icon { width: 34px; height: 34px; } .face .value { font-weight: bold; font-size: 13px; }
.die { display: inline-flex; align-items: center; justify-content: center; width: 26px; height: 26px;
       border: 1.5px solid var(--ink); border-radius: 5px; background: #fff; margin-right: 2px;
       font-size: 12px; font-weight: bold; vertical-align: middle; }
.die .icon { width: 20px; height: 20px; vertical-align: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 12px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.panel h3 { margin: 0 0 6px; font-size: 16px; } .kind { font-size: 11px; text-transform: uppercase;
  letter-spacing: .06em; color: #6b6257; margin-left: 6px; font-weight: normal; }
.tier { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center;
        border-top: 1px dashed var(--line); padding: 6px 0; } .tier > .effect { flex: 1 1 160px; }
.tier:first-of-type { border-top: 0; }
.odds { flex-basis: 100%; font-size: 12px; color: #4b443c; }
.odds b { font-variant-numeric: tabular-nums; }
.note { font-size: 12px; color: #6b6257; } .gap { font-size: 12px; color: var(--bad); }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { width: 63mm; height: 88mm; box-sizing: border-box; border: 1px solid var(--ink); border-radius: 3mm;
        background: #fff; padding: 3mm; display: flex; flex-direction: column; overflow: hidden;
        position: relative; break-inside: avoid; }
.card-head { display: flex; align-items: center; gap: 2mm; border-bottom: 1px solid var(--line);
             padding-bottom: 1.5mm; }
.card-cost { flex: none; width: 8mm; height: 8mm; border-radius: 50%; background: var(--accent); color: #fff;
             display: flex; align-items: center; justify-content: center; font-weight: bold; font-size: 4mm; }
.card-name { flex: 1; font-weight: bold; font-size: 3.6mm; line-height: 1.15; }
.card-timing .icon { width: 6mm; height: 6mm; vertical-align: 0; }
.card-kind { font-size: 2.6mm; text-transform: uppercase; letter-spacing: .05em; color: #6b6257;
             margin: 1.2mm 0; }
.card-text { flex: 1; font-size: 3.1mm; line-height: 1.3; overflow: hidden; }
.card-text p { margin: 0 0 1.5mm; }
.card-foot { font-size: 2.4mm; color: #6b6257; display: flex; justify-content: space-between;
             border-top: 1px solid var(--line); padding-top: 1mm; }
.diagnostic { white-space: pre-wrap; font: 12px/1.35 "DejaVu Sans Mono", monospace; background: #fdeaea;
              border-left: 4px solid var(--bad); padding: 6px 8px; margin: 6px 0; overflow-x: auto; }
.diagnostic.warning { background: #fff4d6; border-left-color: #a86b00; }
table.facts { border-collapse: collapse; font-size: 13px; }
table.facts td, table.facts th { border: 1px solid var(--line); padding: 3px 7px; text-align: left; }
"""

TIMING_NAMES = {"main": "Main Phase", "roll": "Roll Phase", "instant": "Instant"}


def page(title: str, body: str, extra_style: str = "", extra_head: str = "") -> str:
    """A whole HTML document, everything inline."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{STYLE}{extra_style}</style>{extra_head}</head>"
            f"<body><main>{body}</main></body></html>\n")


def error_page(title: str, diagnostics: list[str], hint: str) -> str:
    """What a view shows instead of content that does not check: every diagnostic as lint prints it."""
    items = "".join(f'<pre class="diagnostic">{escape(d)}</pre>' for d in diagnostics)
    return page(title, f'<h1>{escape(title)}</h1><p class="meta">{escape(hint)}</p>'
                       f'<section id="diagnostics">{items}</section>')


def card_face(card: dict, icons: Icons, upgrade_text: str | None = None) -> str:
    """One card as printed (63 × 88 mm): cost, name, timing symbol, kind, text, upgrade target."""
    timing = card.get("timing")
    timing_icon = (f'<span class="card-timing" title="{escape(TIMING_NAMES[timing])}">'
                   f'{icons.html(TIMING_NAMES[timing])}</span>') if timing in TIMING_NAMES else ""
    if card["kind"] == "upgrade":
        level = "II" if card.get("level") == 2 else "III"
        kind = f"Upgrade · {card.get('upgrades', '')} {level}"
        text = upgrade_text or ""
    elif card["kind"] == "action":
        kind = f"Action · {TIMING_NAMES.get(timing, timing or '')}"
        text = card.get("effect") or ""
    else:
        kind = f"{card.get('type', card['kind'])}".title() + (f" · [{card['symbol']}]" if card.get("symbol")
                                                              else "")
        text = card.get("effect") or ""
    paragraphs = "".join(f"<p>{icons.text(part)}</p>" for part in text.split("\n") if part.strip())
    foot_left = f"Upgrades {escape(card['upgrades'])}" if card["kind"] == "upgrade" else ""
    authored = "authored" if card.get("authored") else ""
    return (f'<article class="card" data-card="{escape(card["name"])}">'
            f'<div class="card-head"><span class="card-cost" title="cost in CP">{card["cost"]}</span>'
            f'<span class="card-name">{escape(card["name"])}</span>{timing_icon}</div>'
            f'<div class="card-kind">{icons.text(kind)}</div>'
            f'<div class="card-text">{paragraphs}</div>'
            f'<div class="card-foot"><span>{foot_left}</span><span>{authored}</span></div></article>')
