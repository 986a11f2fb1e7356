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
    """Dice Throne Adventures: minions fought by their printed bot rules."""


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
        known = ", ".join(m["name"] for m in loaded.minions) or "none (the ruleset has no minion set)"
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
