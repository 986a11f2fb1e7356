"""The balance report: `dtc simulate --all --format json` in (and, for the odds, the ruleset it was
played with), a self-contained HTML page out: the win-rate heatmap, each hero's overall rate, the
game lengths, the start player's advantage and each hero's odds, with what reproduces it."""

from __future__ import annotations

from html import escape

from dtc.dicethrone.engine import MAX_TURNS
from dtc.plot import Cell, heatmap, histogram, interval_bars, odds_chart
from dtc.views.page import page

REPORT_STYLE = """
.figure { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px; margin: 8px 0;
          overflow-x: auto; }
.repro code { background: var(--soft); padding: 1px 4px; border-radius: 3px; }
"""


class ReportError(ValueError):
    """The JSON is not what `dtc simulate --format json` writes: says what is missing and where."""


def check_results(data) -> None:
    """Refuse, in one line, a file that is not simulate's JSON of hero pairs."""
    if not isinstance(data, dict):
        raise ReportError("the file is not a JSON object (make one with `dtc simulate --all --format json`)")
    if "pairs" not in data and "tables" in data:
        raise ReportError("this is a --mode simulation (tables of several heroes); the report reads the 1v1 "
                          "pairs of `dtc simulate --all --format json`")
    for key in ("pairs", "seed", "ruleset", "games_per_pair"):
        if key not in data:
            raise ReportError(f"no {key!r} in it: not the JSON `dtc simulate --format json` writes")
    if not isinstance(data["pairs"], list) or not data["pairs"]:
        raise ReportError("'pairs' is empty: nothing to report")
    for k, pair in enumerate(data["pairs"]):
        for key in ("hero", "opponent", "games", "win_rate", "win_rate_ci95", "opponent_win_rate",
                    "opponent_win_rate_ci95"):
            if not isinstance(pair, dict) or key not in pair:
                raise ReportError(f"pairs[{k}] has no {key!r}: not the JSON `dtc simulate --format json` "
                                  "writes")
        if not isinstance(pair["games"], int) or pair["games"] < 0:
            raise ReportError(f"pairs[{k}].games is not a count of games")
        for key in ("win_rate", "opponent_win_rate"):
            if not _rate(pair[key]):
                raise ReportError(f"pairs[{k}].{key} is not a rate from 0 to 1")
            interval = pair[key + "_ci95"]
            if not isinstance(interval, list) or len(interval) != 2 or not all(map(_rate, interval)):
                raise ReportError(f"pairs[{k}].{key}_ci95 is not an interval [low, high] of rates")
        if not isinstance(pair["hero"], str) or not isinstance(pair["opponent"], str):
            raise ReportError(f"pairs[{k}]: 'hero' and 'opponent' are names")
        lengths = pair.get("game_lengths", {})
        if not isinstance(lengths, dict) or not all(
                _turns(t) and isinstance(g, int) and not isinstance(g, bool) and g >= 0
                for t, g in lengths.items()):
            raise ReportError(f"pairs[{k}].game_lengths is not turns -> games (turns a whole number from "
                              f"1 to {MAX_TURNS}, a game's most)")
    for k, hero in enumerate(data.get("heroes") or []):
        interval = hero.get("win_rate_ci95") if isinstance(hero, dict) else None
        if (not isinstance(hero, dict) or not _rate(hero.get("win_rate"))
                or not isinstance(hero.get("hero"), str) or not isinstance(interval, list)
                or len(interval) != 2 or not all(map(_rate, interval))):
            raise ReportError(f"heroes[{k}] is not a hero's name, win rate and interval")


def _turns(key) -> bool:
    """A game length as simulate writes it: the turns, in ASCII digits, of a game that can be played
    (`²` passes `isdigit`, and a length of 99,999,999 turns drew a histogram as long)."""
    return (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 4
            and 1 <= int(key) <= MAX_TURNS)


def _rate(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1


def matchup_cells(pairs: list[dict]) -> tuple[list[str], dict[tuple[str, str], Cell]]:
    """The heroes (in the order they first appear) and each (row, column) cell: a pair gives its own
    cell and, seen from the other seat, the mirrored one (unless that ordered pair was played too)."""
    names: list[str] = []
    cells: dict[tuple[str, str], Cell] = {}
    played = {(p["hero"], p["opponent"]) for p in pairs}
    for p in pairs:
        for name in (p["hero"], p["opponent"]):
            if name not in names:
                names.append(name)
        cells[(p["hero"], p["opponent"])] = Cell(p["hero"], p["opponent"], p["win_rate"],
                                                 *p["win_rate_ci95"], p["games"])
        if p["hero"] != p["opponent"] and (p["opponent"], p["hero"]) not in played:
            cells[(p["opponent"], p["hero"])] = Cell(p["opponent"], p["hero"], p["opponent_win_rate"],
                                                     *p["opponent_win_rate_ci95"], p["games"])
    return names, cells


def start_player(pairs: list[dict]) -> tuple[float, float, float, int] | None:
    """The start player's win rate over every decisive game of every pair, its 95% interval and games."""
    from dtc.dicethrone.simulate import wilson

    wins = decisive = 0
    for p in pairs:
        rate = p.get("start_player_win_rate")
        if rate is None:
            continue
        n = round(p["games"] * (1 - p.get("draw_rate", 0) - p.get("unfinished_rate", 0)))
        decisive += n
        wins += round(rate * n)
    if not decisive:
        return None
    low, high = wilson(wins, decisive)
    return wins / decisive, low, high, decisive


def report_html(data: dict, odds_reports: list[dict] | None, ruleset_note: str = "") -> str:
    """The report page; `odds_reports`: `odds.hero_report` of each hero (None: the ruleset simulated
    was not at hand, `ruleset_note` says why)."""
    check_results(data)
    pairs = data["pairs"]
    names, cells = matchup_cells(pairs)
    out = ["<h1>Balance report</h1>", _provenance(data)]
    out.append('<h2>Win rate of each hero (row) against each (column)</h2>'
               '<p class="meta">The rate and its 95% interval in each cell and on hover; green above 50%, '
               'red below. A mirror match is the first seat against the second.</p>'
               f'<div class="figure" id="heatmap">{heatmap(names, cells)}</div>')
    field = data.get("heroes")
    if field:
        rows = [(h["hero"], h["win_rate"], *h["win_rate_ci95"]) for h in field]
        out.append('<h2>Each hero against the others</h2><p class="meta">Mirror matches left out; the '
                   f'whisker is the 95% interval.</p><div class="figure" id="overall">'
                   f'{interval_bars(rows, "each hero overall")}</div>')
    lengths: dict[int, int] = {}
    for p in pairs:
        for turns, games in (p.get("game_lengths") or {}).items():
            lengths[int(turns)] = lengths.get(int(turns), 0) + games
    out.append("<h2>Game length</h2>")
    if lengths:
        total = sum(lengths.values())
        mean = sum(t * g for t, g in lengths.items()) / total
        out.append(f'<p class="meta">{total} games that ended, {mean:.1f} turns on average (the turns of '
                   f'both players).</p><div class="figure" id="lengths">{histogram(lengths, "turns")}</div>')
    else:
        out.append('<p class="meta" id="lengths">This file has no game lengths (made by an older dtc): '
                   'simulate again for them.</p>')
    out.append(_start_player_section(pairs))
    out.append("<h2>Odds of each hero's abilities</h2>")
    if odds_reports:
        out.append('<p class="meta">The exact chance of each offensive ability within 1, 2 and 3 roll '
                   'attempts, keeping the best dice for it (`dtc odds`).</p>')
        for report in odds_reports:
            rows = [(r["ability"], [float(c) for c in r["chances"]]) for r in report["abilities"]]
            out.append(f'<h3>{escape(report["hero"])}</h3><div class="figure">'
                       f'{odds_chart(report["hero"], rows)}</div>')
    else:
        out.append(f'<p class="meta" id="no-odds">{escape(ruleset_note or "No odds.")}</p>')
    return page("dtc balance report", "".join(out), REPORT_STYLE)


def _provenance(data: dict) -> str:
    bots = data.get("bot", "heuristic")
    vs = data.get("opponent_bot", bots)
    command = f"dtc simulate --all --games {data['games_per_pair']} --seed {data['seed']} --bot {bots}"
    if vs != bots:
        command += f" --vs-bot {vs}"
    if data.get("rules"):
        command += f" --rules {data['rules']!r}"
    facts = [f"{data['games_per_pair']} games per pair", f"seed {data['seed']}",
             f"bots: {bots}" + (f" against {vs}" if vs != bots else "")]
    if data.get("rules"):
        facts.append(f"rules: {data['rules']}")
    return (f'<p class="meta repro" id="provenance">{escape(" · ".join(facts))}<br>ruleset '
            f'<code id="ruleset-hash">{escape(str(data["ruleset"]))}</code><br>reproduce with '
            f'<code>{escape(command)} --format json</code> on that ruleset</p>')


def _start_player_section(pairs: list[dict]) -> str:
    found = start_player(pairs)
    head = "<h2>First-player advantage</h2>"
    if found is None:
        return head + '<p class="meta" id="start-player">No decisive game.</p>'
    rate, low, high, games = found
    rows = [(f"{p['hero']} v {p['opponent']}", p["start_player_win_rate"],
             *(p.get("start_player_win_rate_ci95") or [p["start_player_win_rate"]] * 2))
            for p in pairs if p.get("start_player_win_rate") is not None]
    verdict = ("no advantage either way that these games can tell" if low <= 0.5 <= high
               else "an advantage to the start player" if low > 0.5 else "an advantage to the second player")
    return (head + f'<p id="start-player">The start player won <b>{rate:.1%}</b> of {games} decisive games '
            f'(95% interval {low:.1%}-{high:.1%}): {verdict}.</p>'
            f'<div class="figure">{interval_bars(rows, "start player win rate by pair")}</div>')
