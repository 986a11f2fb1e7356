"""`dtc adventure`: Dice Throne Adventures at the command line (thin over `dtc.adventures`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

RULESET_HELP = ("A compiled ruleset FILE.dtcb, or a content folder (or YAML file) compiled now; default: the "
                "built-in content.")


@click.group()
def adventure() -> None:
    """Dice Throne Adventures: Portal Crawls and Minion Battles, minions run by their printed rules."""


@adventure.command()
@click.argument("hero")
@click.argument("minion")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--health", type=click.IntRange(1, 999), default=18, show_default=True,
              help="The hero's starting Health (the Hero Setup of a 2-player game: 18).")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def battle(hero: str, minion: str, games: int, seed: int, health: int, ruleset_path: Path | None,
           fmt: str) -> None:
    """Simulate Minion Battles: HERO (played by the heuristic bot) against MINION (by the Minion Step)."""
    from dtc.adventures.battle import battles, minion_index
    from dtc.cli.main import EXIT_CLEAN, EXIT_USAGE, _ruleset

    loaded = _ruleset(ruleset_path)
    found = loaded.hero(hero)
    if found is None:
        known = ", ".join(h["name"] for h in loaded.heroes) or "none"
        click.echo(f"error: no hero `{hero}`; heroes here: {known}", err=True)
        sys.exit(EXIT_USAGE)
    enemy = minion_index(loaded, minion)
    if enemy is None:
        known = ", ".join(loaded.players[m]["name"] for m in loaded.indices_of("minion")) \
            or "none (the ruleset has no minion set)"
        click.echo(f"error: no minion `{minion}`; minions here: {known}", err=True)
        sys.exit(EXIT_USAGE)
    tally = battles(loaded, found[0], enemy, games, seed, health)
    report = tally.as_json(seed)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        low, high = report["interval"]
        click.echo(f"{tally.hero} vs {tally.minion} (level {loaded.players[enemy]['minion']['level']}), "
                   f"{games} battles, seed {seed}, hero Health {health}")
        click.echo(f"  {tally.hero} wins {report['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}); "
                   f"{report['mean_turns']:.1f} turns on average; "
                   f"{report['mean_health_left']:.1f} Health left after a win")
    sys.exit(EXIT_CLEAN)


@adventure.command()
@click.option("--heroes", "hero_names", required=True,
              help="1 to 4 heroes, comma-separated (as `dtc heroes` names them).")
@click.option("--scenario", type=int, default=1, show_default=True,
              help="The campaign scenario: a Portal Crawl, 1, 3, 5 or 7 (one of its Scenario cards at "
                   "random).")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; the numbers are the same for any count.")
@click.option("--difficulty", default="normal", show_default=True,
              help="A Difficulty Level card of the adventure.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def simulate(hero_names: str, scenario: int, games: int, seed: int, jobs: int, difficulty: str,
             ruleset_path: Path | None, fmt: str) -> None:
    """Simulate Portal Crawls of a team of bot heroes: win rate with its 95% interval, turns, Salves
    used, Gold and the Session Score."""
    from dtc import artifact as artifact_mod
    from dtc.adventures.crawl import simulate_crawls
    from dtc.cli.main import EXIT_CLEAN

    loaded, heroes, level = _crawl_options(hero_names, scenario, difficulty, ruleset_path)
    raw = artifact_mod.to_bytes(loaded.data)
    tally = simulate_crawls(loaded, raw, heroes, scenario, games, seed, jobs, level)
    team = [loaded.players[h]["name"] for h in heroes]
    report = {"heroes": team, "scenario": scenario, "difficulty": difficulty.casefold(), "seed": seed,
              **tally.as_json()}
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        low, high = report["interval"]
        kind = "Boss Battle" if scenario % 2 == 0 else "Portal Crawl"
        click.echo(f"{' + '.join(team)}: {kind}, scenario {scenario}, {games} games, seed {seed}")
        click.echo(f"  won {report['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}); "
                   f"{report['mean_turns']:.1f} turns; {report['mean_salves_used']:.2f} Salves used; "
                   f"{report['mean_gold']:.1f} Gold; Session Score {report['mean_score']:.1f} on average")
        endings = ", ".join(f"{k} {v}" for k, v in report["endings"].items())
        if scenario % 2 == 0:
            click.echo(f"  endings: {endings}")
        else:
            click.echo(f"  every tile explored in {report['explored_all_rate']:.1%}; endings: {endings}")
    sys.exit(EXIT_CLEAN)


@adventure.command()
@click.option("--heroes", "hero_names", required=True,
              help="1 to 4 heroes, comma-separated (as `dtc heroes` names them).")
@click.option("--scenario", type=int, default=1, show_default=True,
              help="The campaign scenario: a Portal Crawl, 1, 3, 5 or 7.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--difficulty", default="normal", show_default=True,
              help="A Difficulty Level card of the adventure.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def crawl(hero_names: str, scenario: int, seed: int, difficulty: str, ruleset_path: Path | None) -> None:
    """Watch one Portal Crawl played by bot heroes: each turn told, the map drawn after it."""
    from dtc.adventures.crawl import Crawl, scenario_cards
    from dtc.adventures.view import narrated_crawl
    from dtc.cli.main import EXIT_CLEAN

    loaded, heroes, level = _crawl_options(hero_names, scenario, difficulty, ruleset_path)
    if scenario % 2 == 0:
        _usage(f"--scenario {scenario} is a Boss Battle, not a Portal Crawl: `dtc adventure simulate "
               f"--scenario {scenario}` plays it", 2)
    cards = scenario_cards(loaded, scenario)
    game = Crawl(loaded, heroes, cards[seed % len(cards)], seed, level, record=True)
    narrated_crawl(game, click.echo)
    sys.exit(EXIT_CLEAN)


def _crawl_options(hero_names: str, scenario: int, difficulty: str, ruleset_path: Path | None):
    """The ruleset, the heroes' indices and the difficulty's, or a usage error that says what is wrong."""
    from dtc.adventures.crawl import scenario_cards
    from dtc.cli.main import EXIT_USAGE, _ruleset

    loaded = _ruleset(ruleset_path)
    if loaded.adventure is None:
        _usage("the ruleset has no adventure (compile content/adventures/ with it)", EXIT_USAGE)
    heroes = []
    for name in (n.strip() for n in hero_names.split(",")):
        found = loaded.hero(name)
        if found is None:
            known = ", ".join(h["name"] for h in loaded.heroes) or "none"
            _usage(f"--heroes: no hero `{name}`; heroes here: {known}", EXIT_USAGE)
        heroes.append(found[0])
    if not 1 <= len(heroes) <= 4:
        _usage(f"--heroes: a Portal Crawl is for 1 to 4 heroes, {len(heroes)} given", EXIT_USAGE)
    if not scenario_cards(loaded, scenario):
        crawls = {c["scenario"] for c in loaded.adventure["scenarios"]}
        crawls |= {loaded.players[b]["boss"]["scenario"] for b in loaded.indices_of("boss")}
        what = ("a Boss Battle with no Boss in this content" if scenario in (2, 4, 6, 8)
                else "not a scenario of the campaign")
        _usage(f"--scenario {scenario}: {what}; the scenarios here: "
               f"{', '.join(map(str, sorted(crawls)))}", EXIT_USAGE)
    levels = [d["name"].casefold() for d in loaded.adventure["difficulties"]]
    if difficulty.casefold() not in levels:
        _usage(f"--difficulty {difficulty}: the adventure has {', '.join(levels)}", EXIT_USAGE)
    return loaded, heroes, levels.index(difficulty.casefold())


def _usage(message: str, code: int) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)
