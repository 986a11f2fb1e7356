"""Plots as inline SVG in self-contained HTML pages: no script, no font or style from the network."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44  # the margins around the plotting area


@dataclass(frozen=True)
class Estimate:
    """A rate at an x value, with its 95% interval (all rates from 0 to 1)."""

    x: int
    rate: float
    low: float
    high: float
    label: str = ""  # shown on hover


def rates_chart(points: list[Estimate], x_label: str, y_label: str = "win rate") -> str:
    """An SVG chart of rates against whole-number x values: each point with its interval as a bar, the
    line through them, and the even (50%) line dashed."""
    xs = [p.x for p in points] or [0]
    lo, hi = min(xs), max(xs)
    span = (hi - lo) or 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - lo) / span * inner_w if hi != lo else LEFT + inner_w / 2

    def py(rate: float) -> float:
        return TOP + (1 - rate) * inner_h

    label = escape(f"{y_label} by {x_label}")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}">',
             f'<rect x="{LEFT}" y="{TOP}" width="{inner_w}" height="{inner_h}" '
             'fill="#fafafa" stroke="#999"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        y = py(tick)
        parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{LEFT}" y2="{y:.1f}" stroke="#999"/>')
        parts.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{tick:.0%}</text>')
    even = py(0.5)
    parts.append(f'<line class="even" x1="{LEFT}" y1="{even:.1f}" x2="{LEFT + inner_w}" y2="{even:.1f}" '
                 'stroke="#c33" stroke-dasharray="5,4"/>')
    for p in points:
        parts.append(f'<text x="{px(p.x):.1f}" y="{HEIGHT - BOTTOM + 16}" font-size="11" '
                     f'text-anchor="middle">{p.x}</text>')
    if len(points) > 1:
        line = " ".join(f"{px(p.x):.1f},{py(p.rate):.1f}" for p in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="#36c" stroke-width="1.5"/>')
    for p in points:
        x = px(p.x)
        tip = escape(p.label or f"{p.x}: {p.rate:.1%} (95% interval {p.low:.1%}-{p.high:.1%})")
        parts.append(f'<g class="point" data-x="{p.x}" data-rate="{p.rate:.4f}"><title>{tip}</title>'
                     f'<line x1="{x:.1f}" y1="{py(p.high):.1f}" x2="{x:.1f}" y2="{py(p.low):.1f}" '
                     'stroke="#36c" stroke-width="2"/>'
                     f'<circle cx="{x:.1f}" cy="{py(p.rate):.1f}" r="4" fill="#36c"/></g>')
    parts.append(f'<text x="{LEFT + inner_w / 2}" y="{HEIGHT - 8}" font-size="12" '
                 f'text-anchor="middle">{escape(x_label)}</text>')
    parts.append(f'<text x="14" y="{TOP + inner_h / 2}" font-size="12" text-anchor="middle" '
                 f'transform="rotate(-90 14 {TOP + inner_h / 2})">{escape(y_label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def page(title: str, body: str) -> str:
    """A self-contained HTML page."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title>"
            "<style>body{font-family:sans-serif;margin:2em;max-width:60em}"
            "table{border-collapse:collapse}"
            "td,th{padding:.2em .8em;text-align:right;border-bottom:1px solid #ddd}"
            "</style></head>\n<body>\n" + body + "\n</body></html>\n")
