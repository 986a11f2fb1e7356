"""`dtc adventure`: Dice Throne Adventures at the command line (thin over `dtc.adventures`)."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from dtc.cli.workers import cluster_options

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
@click.option("--campaign", "whole_campaign", is_flag=True,
              help="Play whole bot campaigns of 8 scenarios instead: the Campaign Score's distribution.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@cluster_options
def simulate(hero_names: str, scenario: int, games: int, seed: int, jobs: int, difficulty: str,
             whole_campaign: bool, ruleset_path: Path | None, fmt: str, cluster=None) -> None:
    """Simulate a scenario with a team of bot heroes (a Portal Crawl or a Boss Battle): win rate with
    its 95% interval, turns, Salves used, Gold and the Session Score; or, with --campaign, whole
    campaigns."""
    from dtc import artifact as artifact_mod
    from dtc.adventures.crawl import simulate_crawls
    from dtc.cli.main import EXIT_CLEAN

    loaded, heroes, level = _crawl_options(hero_names, 1 if whole_campaign else scenario, difficulty,
                                           ruleset_path)
    raw = artifact_mod.to_bytes(loaded.data)
    if whole_campaign:
        _simulate_campaigns(loaded, raw, heroes, level, games, seed, jobs, fmt, cluster)
    tally = simulate_crawls(loaded, raw, heroes, scenario, games, seed, jobs, level, cluster)
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


@adventure.command()
@click.option("--heroes", "hero_names", required=True,
              help="1 to 4 heroes, comma-separated (as `dtc heroes` names them).")
@click.option("--difficulty", default="normal", show_default=True,
              help="A Difficulty Level card of the adventure.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--save", "save_path", type=click.Path(path_type=Path), required=True,
              help="The campaign file to write.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def new(hero_names: str, difficulty: str, seed: int, save_path: Path, ruleset_path: Path | None) -> None:
    """Start a campaign: its heroes and Difficulty Level, written to a campaign file."""
    from dtc.adventures.campaign import MARKER, Campaign, write
    from dtc.cli.main import EXIT_CLEAN, EXIT_USAGE
    from dtc.session import SessionError, check_writable

    loaded, heroes, level = _crawl_options(hero_names, 1, difficulty, ruleset_path)
    try:
        check_writable(save_path, MARKER)
    except SessionError as exc:
        _usage(str(exc), EXIT_USAGE)
    names = [loaded.players[h]["name"] for h in heroes]
    campaign = Campaign(names, loaded.adventure["difficulties"][level]["name"], seed)
    try:
        write(save_path, campaign)
    except OSError as exc:
        _usage(f"cannot write {save_path}: {exc.strerror or exc}", 1)
    click.echo(f"campaign of {' + '.join(names)} ({campaign.difficulty}) written to {save_path}; "
               f"play its first session with `dtc adventure play {save_path} --auto`")
    sys.exit(EXIT_CLEAN)


@adventure.command(name="play")
@click.argument("campaign_path", type=click.Path(path_type=Path))
@click.option("--auto", is_flag=True,
              help="Bots play every hero (without it, you play them all at the terminal).")
@click.option("--all", "all_sessions", is_flag=True, help="Play sessions until the campaign is over.")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def play_campaign_command(campaign_path: Path, auto: bool, all_sessions: bool,
                          ruleset_path: Path | None) -> None:
    """Play the campaign's next session (a Portal Crawl or a Boss Battle), record it on the Campaign
    Scoring sheet and save the campaign file."""
    from dtc.adventures.campaign import MAX_SESSIONS, CampaignError, play_session, read, write
    from dtc.agents.human import Human
    from dtc.cli.main import EXIT_CLEAN, EXIT_USAGE, _ruleset
    from dtc.session import Quit

    try:
        campaign = read(campaign_path)
    except CampaignError as exc:
        _usage(str(exc), EXIT_USAGE)
    loaded = _ruleset(ruleset_path)
    if loaded.adventure is None:
        _usage("the ruleset has no adventure (compile content/adventures/ with it)", EXIT_USAGE)
    if campaign.finished:
        click.echo(_sheet(campaign))
        _usage("the campaign is over: all 8 scenarios are won", EXIT_USAGE)
    humans = None if auto else {k: Human() for k in range(len(campaign.heroes))}
    echo = None if auto else click.echo
    if campaign.in_progress and auto:
        _usage(f"{campaign_path} holds a session left at the terminal: play it on without --auto", EXIT_USAGE)
    if campaign.in_progress:
        click.echo(f"going on with the session left after {len(campaign.in_progress)} answers")
    log = None
    try:
        while True:
            log = _session_log(loaded, campaign, campaign_path, humans)
            session = play_session(loaded, campaign, humans, echo, lambda: write(campaign_path, campaign),
                                   log)
            write(campaign_path, campaign)  # saved after every session
            log.ended(session)
            kind = "Boss Battle" if session.scenario % 2 == 0 else "Portal Crawl"
            click.echo(f"scenario {session.scenario} ({kind}): {'won' if session.won else 'lost'}, "
                       f"Session Score {session.score}, {session.turns} turns; logged in {log.path} "
                       f"(`dtc adventure replay {log.path}` plays it again)")
            log = None
            if not all_sessions or campaign.finished or len(campaign.sessions) >= MAX_SESSIONS:
                break
    except CampaignError as exc:
        _usage(str(exc), EXIT_USAGE)
    except OSError as exc:
        _usage(f"cannot write {exc.filename or campaign_path}: {exc.strerror or exc}", 1)
    except (Quit, KeyboardInterrupt) as left:  # Ctrl-C may come between prompts, while the bots play
        kept = len(campaign.in_progress)
        if log is not None:
            with contextlib.suppress(OSError):  # the log of the answers so far is on disk already
                log.left()
        click.echo(f"\nleft the session; {campaign_path} keeps its {kept} answers so far (go on with "
                   f"`dtc adventure play {campaign_path}`)" if kept else
                   f"\nleft the session; {campaign_path} holds the campaign as it was before it "
                   f"(play it again with `dtc adventure play {campaign_path}`)")
        interrupted = isinstance(left, KeyboardInterrupt) or left.interrupted
        sys.exit(130 if interrupted else EXIT_CLEAN)
    click.echo(_sheet(campaign))
    sys.exit(EXIT_CLEAN)


def _session_log(loaded, campaign, campaign_path: Path, humans):
    """The log of the session about to be played, beside the campaign file; a usage error when that
    file holds anything but this session's log."""
    from dtc.adventures.log import LOG_MARKER, SessionLog, log_path, setup_of
    from dtc.cli.main import EXIT_USAGE
    from dtc.session import SessionError, check_writable

    path = log_path(campaign_path, len(campaign.sessions) + 1)
    try:
        check_writable(path, LOG_MARKER, setup_of(campaign))
    except SessionError as exc:
        _usage(f"{exc} (the session's log goes there)", EXIT_USAGE)
    return SessionLog(path, loaded, campaign, list(humans or {}))


@adventure.command(name="replay")
@click.argument("log_file", type=click.Path(path_type=Path))
@click.option("--narrate", is_flag=True, help="Tell the session as it went (once it replays the same).")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def replay_command(log_file: Path, narrate: bool, ruleset_path: Path | None) -> None:
    """Play a logged campaign session again (`dtc adventure play` logs each one beside the campaign
    file) and check that it goes exactly as the log says."""
    from dtc.adventures.log import LogError, replay
    from dtc.cli.main import EXIT_CLEAN, EXIT_PROBLEMS, _ruleset

    loaded = _ruleset(ruleset_path)
    try:
        session, answers = replay(loaded, log_file, click.echo if narrate else None)
    except LogError as exc:
        _usage(str(exc), EXIT_PROBLEMS)
    if session is None:
        click.echo(f"replay matches: {answers} answers, as far as the session went (it was left before "
                   f"its end)")
    else:
        kind = "Boss Battle" if session.scenario % 2 == 0 else "Portal Crawl"
        click.echo(f"replay matches: {answers} answers; scenario {session.scenario} ({kind}): "
                   f"{'won' if session.won else 'lost'}, Session Score {session.score}, "
                   f"{session.turns} turns")
    sys.exit(EXIT_CLEAN)


VS_OPTIONS = [
    click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True),
    click.option("--seed", type=int, default=1, show_default=True),
    click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
                 help="Worker processes; the numbers are the same for any count."),
    click.option("--watch", is_flag=True, help="Play one game (seed --seed) and tell it, instead."),
    click.option("--play", "seat", type=click.IntRange(1, 5),
                 help="Play one game at the terminal as player N (1: the Boss, or the first Boss), bots "
                      "playing the others."),
    click.option("--save", "save_path", type=click.Path(path_type=Path),
                 help="With --play: save the game after every turn (`dtc adventure resume-vs FILE`)."),
    click.option("--log", "log_path", type=click.Path(path_type=Path),
                 help="With --play: write the game as JSON lines (`dtc adventure replay-vs FILE`)."),
    click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP),
    click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True),
]


def _vs_options(command):
    for option in reversed(VS_OPTIONS):
        command = option(command)
    return command


@adventure.command(name="boss-vs-many")
@click.argument("boss")
@click.option("--heroes", "hero_names", required=True,
              help="2 to 4 heroes against the Boss, comma-separated, from the Boss' Left clockwise.")
@_vs_options
@cluster_options
def boss_vs_many_command(boss: str, hero_names: str, games: int, seed: int, jobs: int, watch: bool,
                         seat: int | None, save_path: Path | None, log_path: Path | None,
                         ruleset_path: Path | None, fmt: str, cluster=None) -> None:
    """Boss vs Many (3-5 players): BOSS, played by the heuristic bot as a hero is, against 2 to 4 bot
    heroes sharing one Health dial; the Boss's win rate with its 95% interval."""
    loaded = _ruleset_with_adventure(ruleset_path)
    found = _boss(loaded, boss)
    heroes = [_hero(loaded, name) for name in hero_names.split(",")]
    if not 2 <= len(heroes) <= 4:
        _usage(f"--heroes: Boss vs Many is for 3 to 5 players, one Boss and 2 to 4 heroes; {len(heroes)} "
               f"given", 2)
    _run_vs(loaded, [found, *heroes], True, games, seed, jobs, watch, seat, fmt,
            (save_path, log_path, ruleset_path), cluster)


@adventure.command(name="boss-vs-boss")
@click.argument("first")
@click.argument("second")
@_vs_options
@cluster_options
def boss_vs_boss_command(first: str, second: str, games: int, seed: int, jobs: int, watch: bool,
                         seat: int | None, save_path: Path | None, log_path: Path | None,
                         ruleset_path: Path | None, fmt: str, cluster=None) -> None:
    """Boss vs Boss: a 1v1 duel of two Bosses (70 Health each), both played by the heuristic bot; the
    first Boss's win rate with its 95% interval."""
    loaded = _ruleset_with_adventure(ruleset_path)
    _run_vs(loaded, [_boss(loaded, first), _boss(loaded, second)], False, games, seed, jobs, watch, seat,
            fmt, (save_path, log_path, ruleset_path), cluster)


def _run_vs(loaded, players: list[int], many: bool, games: int, seed: int, jobs: int, watch: bool,
            seat: int | None, fmt: str, files: tuple = (None, None, None), cluster=None) -> None:
    from dtc import artifact as artifact_mod
    from dtc.adventures.bossvs import ModeError, simulate_vs
    from dtc.cli.main import EXIT_CLEAN, EXIT_USAGE

    names = [loaded.players[k]["name"] for k in players]
    mode = "Boss vs Many" if many else "Boss vs Boss"
    if seat is not None and seat > len(players):
        _usage(f"--play {seat}: the game has players 1 to {len(players)} ({', '.join(names)})", EXIT_USAGE)
    if (files[0] or files[1]) and seat is None:
        _usage("--save and --log are for a game played at the terminal: give --play N too", EXIT_USAGE)
    try:
        if seat is not None or watch:
            _play_vs(loaded, players, many, seed, seat, *files)
        tally = simulate_vs(loaded, artifact_mod.to_bytes(loaded.data), players, many, games, seed, jobs,
                            cluster)
    except ModeError as exc:
        _usage(str(exc), EXIT_USAGE)
    report = {"mode": mode, "players": names, "seed": seed, **tally.as_json()}
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
        sys.exit(EXIT_CLEAN)
    side = names[0]
    others = " + ".join(names[1:])
    low, high = report["interval"]
    click.echo(f"{mode}: {side} vs {others}, {games} games, seed {seed}")
    click.echo(f"  {side} wins {report['win_rate']:.1%} (95% interval {low:.1%}-{high:.1%}); {others} "
               f"{report['other_side_wins']}, draws {report['draws']}; {report['mean_turns']:.1f} turns; "
               f"King's Hand tokens bought {report['kings_hand_bought']:.2f}, spent "
               f"{report['kings_hand_spent']:.2f} a game")
    sys.exit(EXIT_CLEAN)


def _play_vs(loaded, players: list[int], many: bool, seed: int, seat: int | None, save_path: Path | None,
             log_path: Path | None, ruleset_path: Path | None) -> None:
    """One game told at the terminal, played there as player `seat` (from 1; None: bots play every
    seat, `--watch`), saved and logged when asked; exit."""
    from dtc.adventures.bossvs import VsSetup
    from dtc.dicethrone.simulate import game_seed

    s = game_seed(seed, ["boss-vs", *players], 0)  # the game `--watch` shows, bots and all
    names = [loaded.players[k]["name"] for k in players]
    agents = ["human" if seat is not None and k == seat - 1 else "bot" for k in range(len(players))]
    _vs_session(loaded, VsSetup(loaded.content_hash, s, names, many, agents), [], None, save_path, log_path,
                ruleset_path)


def _vs_session(loaded, setup, recorded: list, made_by, save_path, log_path, ruleset_path) -> None:
    from dtc.adventures.bossvs import BOSS_VS, vs_agents, vs_line
    from dtc.agents.human import Human
    from dtc.cli.main import EXIT_CLEAN, _narrator, _ruleset_file, _run
    from dtc.session import Session

    own = {k for k, kind in enumerate(setup.agents) if kind == "human"}
    session = Session(loaded, BOSS_VS, setup, vs_agents(setup, Human), log_path, save_path,
                      _narrator(vs_line, own), made_by=made_by, ruleset_file=_ruleset_file(ruleset_path))
    result = _run(session, recorded, save_path, "dtc adventure resume-vs", "")
    click.echo(_vs_result(setup.players, setup.many, result))
    sys.exit(EXIT_CLEAN)


def _vs_result(names: list[str], many: bool, result) -> str:
    if result.winner is None:
        return f"the game ends in a draw after {result.turns} turns ({result.reason})"
    side = names[0] if result.winner == 0 else " + ".join(names[1:]) if many else names[1]
    return f"{side} win{'s' if result.winner == 0 or not many else ''} after {result.turns} turns"


@adventure.command(name="resume-vs")
@click.argument("save_file", type=click.Path(path_type=Path))
@click.option("--log", "log_path", type=click.Path(path_type=Path),
              help="Write the game as JSON lines (default: the log it was written to, if any).")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def resume_vs_command(save_file: Path, log_path: Path | None, ruleset_path: Path | None) -> None:
    """Go on with a Boss vs game saved with `--play N --save FILE`."""
    from dtc.adventures.bossvs import BOSS_VS
    from dtc.cli.main import _resume, _ruleset, _saved_log, _saved_ruleset

    given = ruleset_path
    ruleset_path = ruleset_path or _saved_ruleset(save_file)
    loaded = _ruleset(ruleset_path)
    setup, recorded, made_by = _resume(BOSS_VS, loaded, save_file, given)
    click.echo(f"{' vs '.join(setup.players)}; resuming after {len(recorded)} answers")
    _vs_session(loaded, setup, recorded, made_by, save_file, log_path or _saved_log(save_file), ruleset_path)


@adventure.command(name="replay-vs")
@click.argument("log_file", type=click.Path(path_type=Path))
@click.option("--narrate", is_flag=True, help="Tell the game as it went (once it replays the same).")
@click.option("--ruleset", "ruleset_path", type=click.Path(path_type=Path), help=RULESET_HELP)
def replay_vs_command(log_file: Path, narrate: bool, ruleset_path: Path | None) -> None:
    """Re-run a Boss vs game log (`--play N --log FILE`) and check every request and event is the same."""
    from dtc.adventures.bossvs import BOSS_VS, vs_line
    from dtc.cli.main import EXIT_CLEAN, _replay

    result, steps = _replay(BOSS_VS, log_file, ruleset_path, vs_line if narrate else None)
    if result is None:
        click.echo(f"replay matches: {steps} answers, as far as the game went (it was left before its end)")
    else:
        click.echo(f"replay matches: {steps} answers, {result.turns} turns")
    sys.exit(EXIT_CLEAN)


def _ruleset_with_adventure(ruleset_path: Path | None):
    from dtc.cli.main import EXIT_USAGE, _ruleset

    loaded = _ruleset(ruleset_path)
    if not loaded.indices_of("boss"):
        _usage("the ruleset has no Boss (compile content/adventures/ with it)", EXIT_USAGE)
    return loaded


def _boss(loaded, name: str) -> int:
    from dtc.adventures.bossvs import boss_named

    found = boss_named(loaded, name)
    if found is None:
        known = ", ".join(loaded.players[k]["name"] for k in loaded.indices_of("boss"))
        _usage(f"no Boss `{name}`; Bosses here: {known}", 2)
    return found


def _hero(loaded, name: str) -> int:
    found = loaded.hero(name.strip())
    if found is None:
        known = ", ".join(h["name"] for h in loaded.heroes) or "none"
        _usage(f"--heroes: no hero `{name.strip()}`; heroes here: {known}", 2)
    return found[0]


def _simulate_campaigns(loaded, raw: bytes, heroes: list[int], level: int, games: int, seed: int, jobs: int,
                        fmt: str, cluster=None) -> None:
    from dtc.adventures.campaign import simulate_campaigns
    from dtc.adventures.crawl import scenario_cards
    from dtc.cli.main import EXIT_CLEAN, EXIT_USAGE

    missing = [s for s in range(1, 9) if not scenario_cards(loaded, s)]
    if missing:
        _usage(f"--campaign: scenario {missing[0]} has no "
               f"{'Boss' if missing[0] % 2 == 0 else 'Portal Crawl card'} in this ruleset", EXIT_USAGE)
    names = [loaded.players[h]["name"] for h in heroes]
    difficulty = loaded.adventure["difficulties"][level]["name"]
    report = {"heroes": names, "difficulty": difficulty, "seed": seed,
              **simulate_campaigns(loaded, raw, names, difficulty, games, seed, jobs, cluster)}
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(f"{' + '.join(names)}: {games} bot campaigns ({difficulty}), seed {seed}")
        click.echo(f"  Campaign Score {report['mean_score']:.1f} on average (min {report['min']}, 10% "
                   f"{report['p10']}, median {report['median']}, 90% {report['p90']}, max {report['max']}); "
                   f"{report['mean_sessions']:.1f} sessions; {report['finished_rate']:.0%} ended")
    sys.exit(EXIT_CLEAN)


def _sheet(campaign) -> str:
    """The Campaign Scoring sheet: a row per session, then the Campaign Score."""
    lines = [f"Campaign Scoring sheet: {' + '.join(campaign.heroes)} ({campaign.difficulty})",
             "  session  scenario  result  Session Score  Starting Salves next"]
    for k, s in enumerate(campaign.sessions, 1):
        lines.append(f"  {k:7}  {s.scenario:8}  {'win' if s.won else 'loss':6}  {s.score:13}  "
                     f"{s.starting_salves_next:20}")
    state = "over" if campaign.finished else f"next: scenario {campaign.scenario}"
    lines.append(f"  Campaign Score {campaign.score} ({state})")
    return "\n".join(lines)


def _crawl_options(hero_names: str, scenario: int, difficulty: str, ruleset_path: Path | None):
    """The ruleset, the heroes' indices and the difficulty's, or a usage error that says what is wrong."""
    from dtc.adventures.crawl import scenario_cards
    from dtc.cli.main import EXIT_USAGE, _ruleset

    loaded = _ruleset(ruleset_path)
    if loaded.adventure is None:
        _usage("the ruleset has no adventure (compile content/adventures/ with it)", EXIT_USAGE)
    heroes = [_hero(loaded, name) for name in hero_names.split(",")]
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
