"""Plots as inline SVG for self-contained HTML pages (dtc/views/page.py): no script, no font or style
from the network."""

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


def rate_colour(rate: float) -> str:
    """Red below even, white at 50%, green above (a win-rate cell's fill)."""
    t = max(-1.0, min(1.0, (rate - 0.5) * 2))
    if t < 0:
        r, g, b = 255, int(255 + t * 150), int(255 + t * 150)
    else:
        r, g, b = int(255 - t * 170), int(255 - t * 75), int(255 - t * 170)
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True)
class Cell:
    """One matchup of a heatmap: the row hero's win rate against the column hero."""

    hero: str
    opponent: str
    rate: float
    low: float
    high: float
    games: int


def heatmap(names: list[str], cells: dict[tuple[str, str], Cell]) -> str:
    """A hero × hero grid of win rates (row against column): colour by rate, the rate and its 95%
    interval in the cell and on hover; a pair not played is left grey."""
    size, label_w, head_h = 92, 130, 60
    width, height = label_w + size * len(names) + 8, head_h + size * len(names) + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="win rate of each hero against each">']
    for j, name in enumerate(names):
        x = label_w + j * size + size / 2
        parts.append(f'<text x="{x:.0f}" y="{head_h - 10}" font-size="12" text-anchor="middle">'
                     f'vs {escape(name)}</text>')
    for i, hero in enumerate(names):
        y = head_h + i * size
        parts.append(f'<text x="{label_w - 8}" y="{y + size / 2 + 4:.0f}" font-size="12" '
                     f'text-anchor="end">{escape(hero)}</text>')
        for j, opponent in enumerate(names):
            x = label_w + j * size
            c = cells.get((hero, opponent))
            if c is None:
                parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#ddd" '
                             'stroke="#fff"><title>not played</title></rect>')
                continue
            tip = escape(f"{hero} vs {opponent}: {c.rate:.1%} (95% interval {c.low:.1%}-{c.high:.1%}, "
                         f"{c.games} games)")
            parts.append(f'<g class="cell" data-hero="{escape(hero)}" data-opponent="{escape(opponent)}" '
                         f'data-rate="{c.rate:.4f}"><title>{tip}</title>'
                         f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{rate_colour(c.rate)}" '
                         'stroke="#fff"/>'
                         f'<text x="{x + size / 2}" y="{y + size / 2 - 2}" font-size="17" font-weight="bold" '
                         f'text-anchor="middle">{c.rate:.0%}</text>'
                         f'<text x="{x + size / 2}" y="{y + size / 2 + 16}" font-size="10" '
                         f'text-anchor="middle">{c.low:.0%}–{c.high:.0%}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def interval_bars(rows: list[tuple[str, float, float, float]], title: str) -> str:
    """Horizontal bars of rates (label, rate, low, high), each with its 95% interval as a whisker and
    the even line dashed."""
    bar_h, label_w, plot_w = 26, 140, 420
    height = 30 + bar_h * len(rows) + 24
    width = label_w + plot_w + 80
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bars" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = label_w + tick * plot_w
        parts.append(f'<line x1="{x}" y1="22" x2="{x}" y2="{height - 20}" stroke="#ddd"/>'
                     f'<text x="{x}" y="{height - 6}" font-size="11" text-anchor="middle">{tick:.0%}</text>')
    for k, (label, rate, low, high) in enumerate(rows):
        y = 26 + k * bar_h
        tip = escape(f"{label}: {rate:.1%} (95% interval {low:.1%}-{high:.1%})")
        parts.append(f'<g class="bar" data-label="{escape(label)}" data-rate="{rate:.4f}">'
                     f'<title>{tip}</title><text x="{label_w - 8}" y="{y + 15}" font-size="12" '
                     f'text-anchor="end">{escape(label)}</text>'
                     f'<rect x="{label_w}" y="{y + 3}" width="{rate * plot_w:.1f}" height="{bar_h - 8}" '
                     f'fill="{rate_colour(rate)}" stroke="#888"/>'
                     f'<line x1="{label_w + low * plot_w:.1f}" y1="{y + bar_h / 2 - 1}" '
                     f'x2="{label_w + high * plot_w:.1f}" y2="{y + bar_h / 2 - 1}" stroke="#222" '
                     'stroke-width="2"/>'
                     f'<text x="{label_w + plot_w + 8}" y="{y + 15}" font-size="12">{rate:.1%}</text></g>')
    even = label_w + 0.5 * plot_w
    parts.append(f'<line class="even" x1="{even}" y1="22" x2="{even}" y2="{height - 20}" stroke="#c33" '
                 'stroke-dasharray="5,4"/></svg>')
    return "".join(parts)


def histogram(counts: dict[int, int], x_label: str) -> str:
    """Columns of how many games ended after each number of turns."""
    if not counts:
        return '<p class="meta">No game ended.</p>'
    lo, hi = min(counts), max(counts)
    top = max(counts.values())
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / (hi - lo + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="histogram" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="games by {escape(x_label)}">',
             f'<line x1="{LEFT}" y1="{TOP + inner_h}" x2="{LEFT + inner_w}" y2="{TOP + inner_h}" '
             'stroke="#999"/>']
    for value in range(lo, hi + 1):
        games = counts.get(value, 0)
        h = games / top * inner_h
        x = LEFT + (value - lo) * step
        parts.append(f'<g class="column" data-x="{value}" data-games="{games}"><title>{value}: {games} games'
                     f'</title><rect x="{x + 1:.1f}" y="{TOP + inner_h - h:.1f}" '
                     f'width="{max(step - 2, 1):.1f}" '
                     f'height="{h:.1f}" fill="#6a8fbf"/></g>')
        if (value - lo) % max(1, (hi - lo) // 12 + 1) == 0:
            parts.append(f'<text x="{x + step / 2:.1f}" y="{TOP + inner_h + 16}" font-size="11" '
                         f'text-anchor="middle">{value}</text>')
    parts.append(f'<text x="{LEFT - 8}" y="{TOP + 10}" font-size="11" text-anchor="end">{top}</text>'
                 f'<text x="{LEFT + inner_w / 2}" y="{HEIGHT - 8}" font-size="12" text-anchor="middle">'
                 f'{escape(x_label)}</text></svg>')
    return "".join(parts)


def odds_chart(hero: str, rows: list[tuple[str, list[float]]]) -> str:
    """Each ability's chance within 1, 2, 3 roll attempts as three stacked shades on one bar."""
    bar_h, label_w, plot_w = 22, 260, 360
    height = 24 + bar_h * len(rows) + 22
    width = label_w + plot_w + 70
    shades = ("#2f5f8f", "#6a8fbf", "#b8cbe2")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="odds-chart" data-hero="{escape(hero)}" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(hero)}: the chance of each ability">']
    for k, (label, chances) in enumerate(rows):
        y = 20 + k * bar_h
        tip = escape(f"{label}: " + ", ".join(f"{a} roll{'s' * (a > 1)} {c:.1%}"
                                             for a, c in enumerate(chances, 1)))
        parts.append(f'<g class="ability-odds" data-ability="{escape(label)}"><title>{tip}</title>'
                     f'<text x="{label_w - 8}" y="{y + 14}" font-size="11" '
                     f'text-anchor="end">{escape(label)}</text>')
        for attempt in range(len(chances) - 1, -1, -1):  # the widest (most attempts) underneath
            parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{chances[attempt] * plot_w:.1f}" '
                         f'height="{bar_h - 6}" fill="{shades[min(attempt, 2)]}"/>')
        parts.append(f'<text x="{label_w + plot_w + 6}" y="{y + 14}" font-size="11">'
                     f'{chances[-1]:.0%}</text></g>')
    legend = " ".join(f'<tspan fill="{shades[min(a, 2)]}">■ {a + 1} roll{"s" * (a > 0)}</tspan>'
                      for a in range(len(rows[0][1]) if rows else 0))
    parts.append(f'<text x="{label_w}" y="12" font-size="11">{legend}</text></svg>')
    return "".join(parts)
