"""The content a view shows: a lint of some paths, and (when it has no errors) the ruleset compiled
from it, for the odds; with errors elsewhere, a board's odds come from the content less the entries
that have them (`dtc.focus`). One read serves every board of a `dtc print` or a `dtc serve` refresh."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dtc import artifact, focus, odds, project
from dtc.artifact import Artifact
from dtc.compiler import compile_content
from dtc.diagnostics import render_text
from dtc.model import Hero
from dtc.views.board import board_html, place
from dtc.views.page import error_page


@dataclass
class Read:
    """What a lint made of the paths, and the compiled ruleset when it compiles."""

    paths: list[Path]
    result: project.Result
    compiled: Artifact | None
    odds_by_player: dict[int, dict | None] = field(default_factory=dict, repr=False)  # by id(player)

    @property
    def heroes(self) -> list[Hero]:
        return list(self.result.content.heroes)

    def odds(self, player: Hero) -> dict | None:
        """The player's exact odds (`dtc odds`): from the compiled content, or when other entries
        have errors, from the content less them; None when the player or what it needs has errors."""
        if id(player) not in self.odds_by_player:
            compiled = self.compiled
            if compiled is None:
                content, errors = focus.runnable(self.result.content, self.result.errors, player)
                compiled = None if errors else artifact.load(artifact.to_bytes(compile_content(
                    content, project.artifact_names(self.result, self.paths))))
            self.odds_by_player[id(player)] = hero_odds(compiled, player)
        return self.odds_by_player[id(player)]

    def diagnostics_of(self, path: str) -> list:
        """Every diagnostic pointing into the file at `path`."""
        return [d for d in self.result.diagnostics
                if d.span is not None and d.span.path == path and d.suppressed is None]

    def text(self, d) -> str:
        return render_text(d, self.result.sources)


def read(paths: list[Path]) -> Read:
    """Lint `paths`; compile them too when nothing is wrong (a compile failure leaves no odds)."""
    result = project.run(paths)
    compiled = None
    if not result.errors and not result.usage_error:
        compiled = artifact.load(artifact.to_bytes(compile_content(result.content,
                                                                   project.artifact_names(result, paths))))
    return Read(paths, result, compiled)


def hero_odds(compiled: Artifact | None, hero: Hero) -> dict | None:
    """The exact odds (`dtc odds`) of a hero, a Minion or a Boss, or None without a compiled ruleset."""
    if compiled is None:
        return None
    from dtc.dicethrone.tables import rules_of

    players = compiled.players  # the heroes, then the Minions and Bosses: a name is looked for among its kind
    first = len(compiled.heroes) if hero.minion is not None or hero.boss is not None else 0
    index = next((i for i in range(first, len(players)) if players[i]["name"] == hero.name), None)
    if index is None:
        return None
    return odds.hero_report(compiled, index, rules_of(compiled).roll_attempts)


def render_board(found: Read, hero: Hero, inline: bool = False, live: str = "") -> tuple[str, list]:
    """The board page of `hero` (or of a Minion, a Boss) and the errors in its entry. With errors and
    not `inline`, the page is an error page naming them (what `dtc board` writes); `inline` (`dtc
    serve`): the board with every diagnostic at its entry."""
    mine = focus.own(found.diagnostics_of(hero.doc.path), found.result.content, hero)
    errors = [d for d in mine if str(d.severity) == "error"]
    if errors and not inline:
        return error_page(f"{hero.name}: {len(errors)} error(s)", [found.text(d) for d in errors],
                          f"{hero.doc.path} does not check; fix it (`dtc lint {hero.doc.path}`) "
                          "and render the board again."), errors
    remarks = place(hero, [(d.span.line, str(d.severity), found.text(d)) for d in mine])
    return board_html(hero, found.result.content, found.odds(hero), remarks, live), errors
