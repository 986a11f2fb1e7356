"""Print-and-play: the heroes' boards and cards laid out on A4 or Letter sheets (`dtc print`).

Each hero gets its board on a sheet of its own (scaled down to fit, by the browser, before it
prints), then its deck: every copy of every card at real size, 63 × 88 mm, nine to a sheet in a
3 × 3 grid centred on the page, with cut marks in the margin along every card edge. The sheets are
one HTML page (a browser prints it as it is); Chromium turns it into a PDF with vector text and the
icons as vector art.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtc.model import Content, Hero
from dtc.views.board import board_body, deck_faces
from dtc.views.page import page

CARD_W, CARD_H = 63.0, 88.0  # mm: the standard poker-size card
PER_ROW, PER_COLUMN = 3, 3
PER_SHEET = PER_ROW * PER_COLUMN
MARK, MARK_GAP = 5.0, 1.0  # mm: a cut mark's length, and its gap from the card grid


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm
    height: float


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}

PRINT_STYLE = """
@page { margin: 0; }
html, body { margin: 0; background: #fff; }
main { max-width: none; padding: 0; margin: 0; }
.sheet { position: relative; overflow: hidden; break-after: page; page-break-after: always; }
.sheet:last-child { break-after: auto; page-break-after: auto; }
.sheet .grid9 { position: absolute; display: grid; }
.sheet .card { border-radius: 0; border-color: #999; }
.mark { position: absolute; background: #000; }
.board-sheet .fit { position: absolute; }
"""

# the board is taller than a sheet: the browser measures it and shrinks it to fit before printing
FIT_SCRIPT = """<script>
function dtcFit() {
  for (const el of document.querySelectorAll('.fit')) el.style.zoom = 1;
  for (const el of document.querySelectorAll('.fit')) {
    const box = el.parentElement.getBoundingClientRect();
    const s = 0.98 * Math.min(1, box.width / el.scrollWidth, box.height / el.scrollHeight);
    el.style.zoom = s; el.dataset.scale = s.toFixed(3);
  }
  document.body.dataset.fitted = 'yes';
}
window.addEventListener('load', dtcFit);
window.addEventListener('beforeprint', dtcFit);
</script>"""


def print_html(heroes: list[tuple[Hero, dict | None]], content: Content, paper: Paper) -> str:
    """The sheets of every hero given (with its odds report, or None) as one printable page."""
    sheets: list[str] = []
    for hero, report in heroes:
        sheets.append(board_sheet(hero, content, report, paper))
        faces = deck_faces(hero, content)
        for start in range(0, len(faces), PER_SHEET):
            sheets.append(card_sheet(faces[start:start + PER_SHEET], paper, hero.name,
                                     start // PER_SHEET + 1, -(-len(faces) // PER_SHEET)))
    style = PRINT_STYLE + f"@page {{ size: {paper.width}mm {paper.height}mm; }}\n" \
        f".sheet {{ width: {paper.width}mm; height: {paper.height}mm; }}\n"
    names = ", ".join(h.name for h, _ in heroes)
    return page(f"{names} — print and play", "".join(sheets), style, FIT_SCRIPT)


def board_sheet(hero: Hero, content: Content, report: dict | None, paper: Paper) -> str:
    margin = 10.0
    box = (f"position:absolute;left:{margin}mm;top:{margin}mm;width:{paper.width - 2 * margin}mm;"
           f"height:{paper.height - 2 * margin}mm")
    return (f'<section class="sheet board-sheet" data-hero="{hero.name}">'
            f'<div style="{box}"><div class="fit" style="width:1100px">'
            f'{board_body(hero, content, report, deck=False)}</div></div></section>')


def card_sheet(faces: list[str], paper: Paper, hero: str, number: int, of: int) -> str:
    """Nine card slots (fewer on the last sheet) and the cut marks around the grid."""
    grid_w, grid_h = CARD_W * PER_ROW, CARD_H * PER_COLUMN
    left, top = (paper.width - grid_w) / 2, (paper.height - grid_h) / 2
    slots = "".join(f'<div class="slot" data-slot="{k + 1}">{face}</div>' for k, face in enumerate(faces))
    marks = cut_marks(left, top)
    return (f'<section class="sheet card-sheet" data-hero="{hero}" data-sheet="{number}/{of}">'
            f'<div class="grid9" style="left:{left}mm;top:{top}mm;width:{grid_w}mm;height:{grid_h}mm;'
            f'grid-template-columns:repeat({PER_ROW},{CARD_W}mm);grid-template-rows:repeat({PER_COLUMN},'
            f'{CARD_H}mm)">{slots}</div>{marks}</section>')


def cut_marks(left: float, top: float) -> str:
    """Short lines in the margin along each card edge: vertical ones above and below the grid at every
    column edge, horizontal ones left and right of it at every row edge (0.2 mm, black)."""
    grid_w, grid_h = CARD_W * PER_ROW, CARD_H * PER_COLUMN
    out = []
    for k in range(PER_ROW + 1):
        x = left + k * CARD_W - 0.1
        for y in (top - MARK_GAP - MARK, top + grid_h + MARK_GAP):
            out.append(_mark(x, y, 0.2, MARK))
    for k in range(PER_COLUMN + 1):
        y = top + k * CARD_H - 0.1
        for x in (left - MARK_GAP - MARK, left + grid_w + MARK_GAP):
            out.append(_mark(x, y, MARK, 0.2))
    return "".join(out)


def _mark(x: float, y: float, width: float, height: float) -> str:
    return f'<i class="mark" style="left:{x:.2f}mm;top:{y:.2f}mm;width:{width}mm;height:{height}mm"></i>'


def to_pdf(html: str, browser: str | None = None) -> bytes:
    """The sheets printed by a headless Chromium (`browser`: its path; else found on PATH)."""
    import tempfile
    from pathlib import Path

    from dtc.views.browser import Browser

    with tempfile.TemporaryDirectory(prefix="dtc-print-") as folder:
        source = Path(folder) / "sheets.html"
        source.write_text(html, encoding="utf-8")
        with Browser(browser) as b:
            tab = b.open(source.as_uri())
            tab.wait_for("document.body.dataset.fitted === 'yes'")
            return tab.pdf()
