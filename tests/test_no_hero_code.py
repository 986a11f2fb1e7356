"""The engine holds no hero-specific code: no hero, ability, status or component name
from the content appears anywhere in dtc/ (code, comments or docstrings)."""

from __future__ import annotations

import re

from conftest import ROOT


def content_names(compiled) -> set[str]:
    names = set()
    for hero in compiled.heroes:
        names.add(hero["name"])
        names.update(a["name"] for a in hero["abilities"])
        names.update(c["name"] for c in hero["components"])
        for comp in hero["components"]:
            names.update(str(v) for v in comp["values"] if isinstance(v, str))
            names.update(comp.get("sides", []))
    names.update(s["name"] for s in compiled.statuses if s.get("class") is None)
    return {n for n in names if len(n) > 2}


def test_no_content_name_in_the_engine(compiled):
    names = content_names(compiled)
    assert {"Druid", "Sun Dial", "Shape Shift", "Footwork", "Guard Break"} <= names
    found = []
    for path in sorted((ROOT / "dtc").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in names:
            pattern = r"(?<![\w-])" + r"[\s_-]+".join(map(re.escape, name.split())) + r"(?![\w-])"
            for m in re.finditer(pattern, text, flags=re.IGNORECASE):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r} ({name})")
    assert found == [], "\n".join(found)
