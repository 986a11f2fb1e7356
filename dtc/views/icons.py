"""Symbol icons: the default set shipped with dtc (dtc/views/icons, authored), a hero's own files
(`dice: icons:` in its YAML), and a drawn fallback for a symbol that has neither.

Every icon becomes markup that needs nothing from the network: the default SVGs inline (drawn in
`currentColor`, so the page's CSS colours them), a hero's own files as data: URIs in an <img>.
"""

from __future__ import annotations

import base64
import re
from html import escape
from pathlib import Path

DEFAULT_DIR = Path(__file__).parent / "icons"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_ICON_BYTES = 2_000_000


def icon_file_name(symbol: str) -> str:
    """`Sun Power` -> `sun-power.svg`: the default icon's file name."""
    return re.sub(r"[^a-z0-9]+", "-", symbol.casefold()).strip("-") + ".svg"


def icon_problem(path: Path) -> str | None:
    """Why the file cannot be a symbol icon (missing, not SVG or PNG, too large), or None."""
    if not path.is_file():
        return "no such file" if not path.exists() else "not a file"
    if path.suffix.lower() not in (".svg", ".png"):
        return f"an icon is an SVG or PNG file, not {path.suffix or 'a file without a suffix'}"
    try:
        size = path.stat().st_size
        if size > MAX_ICON_BYTES:
            return f"{size:,} bytes: an icon is at most {MAX_ICON_BYTES:,}"
        head = path.read_bytes()[:4096]
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if path.suffix.lower() == ".png" and not head.startswith(PNG_SIGNATURE):
        return "not a PNG image (its first bytes are not PNG's)"
    if path.suffix.lower() == ".svg" and b"<svg" not in head:
        return "not an SVG image (no <svg> element at its start)"
    return None


class Icons:
    """The icons of one page: `icons.html("Claw")` is the markup for the symbol."""

    def __init__(self, own: dict[str, Path] | None = None):
        self.own = dict(own or {})
        self._cache: dict[str, str] = {}

    def html(self, symbol: str, css_class: str = "icon") -> str:
        """The symbol's icon as markup, titled with its name (the hero's own file, else the default
        icon, else its initials in a circle)."""
        key = f"{css_class}\0{symbol}"
        if key not in self._cache:
            self._cache[key] = self._make(symbol, css_class)
        return self._cache[key]

    def _make(self, symbol: str, css_class: str) -> str:
        label = escape(symbol)
        own = self.own.get(symbol)
        if own is not None and icon_problem(own) is None:
            kind = "image/png" if own.suffix.lower() == ".png" else "image/svg+xml"
            data = base64.b64encode(own.read_bytes()).decode()
            return f'<img class="{css_class}" alt="{label}" title="{label}" src="data:{kind};base64,{data}">'
        default = DEFAULT_DIR / icon_file_name(symbol)
        if default.is_file():
            svg = default.read_text(encoding="utf-8").strip()
            return svg.replace("<svg ", f'<svg class="{css_class}" role="img" aria-label="{label}" ', 1)
        initials = "".join(w[0] for w in symbol.split()[:2]).upper() or "?"
        return (f'<svg class="{css_class}" role="img" aria-label="{label}" viewBox="0 0 24 24" '
                f'xmlns="http://www.w3.org/2000/svg"><title>{label}</title>'
                '<circle cx="12" cy="12" r="11" fill="none" stroke="currentColor" stroke-width="2"/>'
                f'<text x="12" y="16.5" font-size="11" font-family="sans-serif" text-anchor="middle" '
                f'fill="currentColor">{escape(initials)}</text></svg>')

    def text(self, printed: str) -> str:
        """Printed card text, escaped, with each `[Symbol]` drawn as its icon (`[Claw]` ->
        the Claw icon; the name stays in the icon's title and alt text, so the text reads the
        same copied or spoken)."""
        out: list[str] = []
        last = 0
        for m in re.finditer(r"\[([A-Za-z][A-Za-z' -]*)\]", printed):
            out.append(escape(printed[last:m.start()]))
            out.append(f'<span class="sym" data-symbol="{escape(m.group(1))}">'
                       f'{self.html(m.group(1))}<span class="sym-name">[{escape(m.group(1))}]</span></span>')
            last = m.end()
        out.append(escape(printed[last:]))
        return "".join(out)


def hero_icons(hero_data: dict, yaml_path: str | Path) -> dict[str, Path]:
    """A hero's own icon files by symbol, resolved against its YAML file's folder."""
    dice = hero_data.get("dice")
    # a Minion set or a Boss names a status set's die (`dice: <die>`): no icons of its own
    named = (dice.get("icons") if isinstance(dice, dict) else None) or {}
    base = Path(yaml_path).parent
    return {str(symbol): base / str(path) for symbol, path in named.items()}
