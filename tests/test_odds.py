"""Odds: exact chances with the best re-rolls, against closed forms, a brute-force solver, and the
engine's own dice; `dtc odds`; the bot that uses them."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from math import comb

import pytest
from click.testing import CliRunner

from dtc import odds
from dtc.cli.main import cli
from dtc.dicethrone.engine import Game
from dtc.dicethrone.requests import Act, Activate, RollDice
from dtc.dicethrone.simulate import play_games
from dtc.dicethrone.tables import Check

SIX = {v: v for v in range(1, 7)}  # every face its own symbol
SMALL = {"items": [{"straight": "small"}]}
LARGE = {"items": [{"straight": "large"}]}


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def symbol_faces(s: int) -> dict[int, int]:
    """Six faces, `s` of them showing symbol 0 and the rest symbol 1."""
    return {v: 0 if v <= s else 1 for v in range(1, 7)}


# ------------------------------------------------------------ closed forms


@pytest.mark.parametrize("dice, need, s", [(5, 3, 3), (5, 4, 3), (5, 5, 1), (4, 2, 2), (5, 1, 1), (3, 3, 5)])
def test_n_of_one_symbol_is_binomial(dice, need, s):
    """N of one symbol on s of six faces, 3 attempts: P(Binomial(dice, q) >= N), q = 1 - (1 - s/6)^3
    (keeping every die that shows the symbol is optimal)."""
    table = odds.table_for([{"items": [{"symbol": 0, "count": need}]}], symbol_faces(s), dice, 3)
    q = 1 - (1 - Fraction(s, 6)) ** 3
    expected = sum(comb(dice, i) * q ** i * (1 - q) ** (dice - i) for i in range(need, dice + 1))
    assert table.chance(3) == expected


def test_single_roll_straights():
    assert odds.table_for([SMALL], SIX, 5, 3).chance(1) == Fraction(25, 162)
    assert odds.table_for([LARGE], SIX, 5, 3).chance(1) == Fraction(5, 162)


def test_five_of_a_kind_within_three_attempts():
    """The classic Yahtzee figure: 2783176 / 60466176."""
    table = odds.table_for([{"items": [{"of_a_kind": 5}]}], SIX, 5, 3)
    assert table.chance(3) == Fraction(2783176, 60466176)


def test_any_number_of_faces_and_dice():
    """An eight-sided die, one face showing the symbol: the chance grows with attempts as 1-(7/8)^k."""
    faces = {v: 0 if v == 8 else 1 for v in range(1, 9)}
    table = odds.table_for([{"items": [{"symbol": 0, "count": 1}]}], faces, 1, 4)
    assert [table.chance(k) for k in range(1, 5)] == [1 - Fraction(7, 8) ** k for k in range(1, 5)]


# -------------------------------------------------------------- brute force


def brute_force(requirement: dict, faces: dict[int, int], dice: int, attempts: int) -> Fraction:
    """Every keep of every roll (by position) and every ordered outcome: slow, obviously right."""
    check = Check(requirement, faces)
    values = sorted(faces)

    @cache
    def best(roll: tuple[int, ...], left: int) -> Fraction:
        if check(list(roll)):
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        top = Fraction(0)
        for k in range(len(roll) + 1):
            for kept in combinations(range(len(roll)), k):
                keep = [roll[i] for i in kept]
                outcomes = list(product(values, repeat=len(roll) - k))
                total = sum(best(tuple(sorted(keep + list(o))), left - 1) for o in outcomes)
                top = max(top, total / len(outcomes))
        return top

    rolls = list(product(values, repeat=dice))
    return sum(best(tuple(sorted(r)), attempts - 1) for r in rolls) / len(rolls)


UNEVEN = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}  # three symbols on 3, 2 and 1 faces
SAMPLE = [
    ({"items": [{"symbol": 0, "count": 2}, {"symbol": 1, "count": 1}]}, UNEVEN, 3, 3),
    ({"items": [{"symbol": 2, "count": 2}]}, UNEVEN, 4, 2),
    ({"items": [{"of_a_kind": 3}]}, UNEVEN, 3, 3),
    ({"items": [{"of_a_kind": 2, "symbol": 0}]}, UNEVEN, 3, 3),
    ({"items": [{"straight": "small"}]}, SIX, 4, 2),
    ({"items": [{"of_a_kind": 2}, {"symbol": 2, "count": 1}]}, UNEVEN, 3, 3),
    ({"items": [{"symbol": 0, "count": 1}, {"symbol": 1, "count": 1}, {"symbol": 2, "count": 1}]},
     UNEVEN, 3, 3),
    ({"items": [{"symbol": 1, "count": 2}]}, {1: 0, 2: 0, 3: 1, 4: 1, 5: 2}, 3, 3),  # five faces
]


@pytest.mark.parametrize("requirement, faces, dice, attempts", SAMPLE)
def test_fast_solver_agrees_with_brute_force(requirement, faces, dice, attempts):
    fast = odds.table_for([requirement], faces, dice, attempts)
    slow = brute_force(requirement, faces, dice, attempts)
    assert fast.chance(attempts) == slow  # exact fractions: closer than any 1e-12
    assert abs(float(fast.chance(attempts)) - float(slow)) < 1e-12


def test_best_keep_is_what_the_brute_force_would_keep():
    """From 1,1,4,6,6 with two re-rolls, aiming at 3 of symbol 0 on faces 1-3: keep both 1s."""
    faces = {v: 0 if v <= 3 else 1 for v in range(1, 7)}
    table = odds.table_for([{"items": [{"symbol": 0, "count": 3}]}], faces, 5, 3)
    chance, keep = table.best([1, 1, 4, 6, 6], 2)
    assert keep == [0, 1]
    assert chance == 1 - Fraction(1, 4) ** 3  # one more Claw from 3 dice, each missing twice: 1/4
    met, everything = table.best([1, 2, 3, 6, 6], 1)
    assert met == 1 and everything == [0, 1, 2, 3, 4]


# ------------------------------------------------------ the engine's own dice


def test_monte_carlo_of_the_engine_rolls_agrees(compiled):
    """The engine's Offensive Roll Phase, played by the computed keeps for Ferocity (4 [Claw]), meets
    it as often as the table says (within a 99.9% interval)."""
    druid = compiled.hero("druid")[0]
    option = next(a for a in compiled.heroes[druid]["abilities"] if a["name"] == "Ferocity")["options"][1]
    table = odds.book(compiled).table(druid, [option["requirement"]])
    game = Game(compiled, [druid, compiled.hero("duelist")[0]], seed=0, rng=random.Random(5))
    game.turn_no = 2
    trials, hits = 3000, 0
    for _ in range(trials):
        met: list[bool] = []

        def answer(request, met=met):
            if isinstance(request, RollDice):
                _, keep = table.best(list(request.dice), request.attempts - request.attempt)
                return [i for i in range(len(request.dice)) if i not in keep]
            if isinstance(request, Activate):
                # four Claws or five: the menu offers the highest tier met
                wanted = ("Ferocity (4 [Claw])", "Ferocity (5 [Claw])")
                met.append(any(c.label in wanted for c in request.choices))
                return None
            assert isinstance(request, Act)
            return None

        run_ = game.roll_phases(0)
        try:
            request = next(run_)
            while True:
                request = run_.send(answer(request))
        except StopIteration:
            pass
        hits += bool(met and met[0])
    p = float(table.chance(3))
    assert 0.87 < p < 0.89  # Ferocity (4 [Claw]) in the table of `dtc odds druid`: 87.9%
    sigma = (p * (1 - p) / trials) ** 0.5
    assert abs(hits / trials - p) < 3.3 * sigma


# ----------------------------------------------------------------- the book


def test_tables_are_cached_in_memory_and_in_a_file(compiled, tmp_path, monkeypatch):
    druid = compiled.hero("druid")[0]
    first = odds.Book(compiled, 3, tmp_path / "odds.json")
    first.warm([druid])
    assert (tmp_path / "odds.json").exists()

    def no_solving(*args, **kwargs):
        raise AssertionError("a table was computed again")

    monkeypatch.setattr(odds, "solve", no_solving)
    again = odds.Book(compiled, 3, tmp_path / "odds.json")
    requirement = again.hero_requirements(druid)[0]
    assert again.table(druid, [requirement]).chances == first.table(druid, [requirement]).chances


def test_a_damaged_cache_file_is_recomputed(compiled, tmp_path):
    (tmp_path / "odds.json").write_text("{not json")
    book = odds.Book(compiled, 3, tmp_path / "odds.json")
    druid = compiled.hero("druid")[0]
    assert book.table(druid, [SMALL]).chance(1) == Fraction(25, 162)
    book.save()
    assert json.loads((tmp_path / "odds.json").read_text())["ruleset"] == compiled.content_hash


def test_a_simulation_never_solves_per_roll(compiled, monkeypatch):
    play_games(compiled, [0, 1], 5, 0, 3, "heuristic")  # tables and plans made here, once
    calls = []
    original = odds.solve_worth
    monkeypatch.setattr(odds, "solve_worth", lambda *a, **k: calls.append(1) or original(*a, **k))
    monkeypatch.setattr(odds, "solve", lambda *a, **k: pytest.fail("a requirement table was recomputed"))
    play_games(compiled, [0, 1], 5, 0, 3, "heuristic")
    assert calls == []


def test_the_best_dice_alteration_is_what_trying_every_one_finds(compiled):
    """`WorthPlan.alteration` works on multisets of dice; trying every set of dice and every new face
    (the mean over the faces a re-roll could show) finds the same gain, for the roller and against
    her, with and without roll attempts left, and its answer makes that gain."""
    from dtc.agents.bots import HeuristicBot

    rng = random.Random(5)
    for hero in range(len(compiled.heroes)):
        game = Game(compiled, [hero, (hero + 1) % len(compiled.heroes)], 1)
        plan = HeuristicBot(1).plan_for(game, game.seats[0])
        faces = sorted(game.seats[0].table.faces)
        for _ in range(40):
            roll = [rng.choice(faces) for _ in range(5)]
            purpose, most, left = rng.choice(["change", "re-roll"]), rng.choice([1, 2]), rng.choice([0, 1, 2])
            against, values = rng.random() < 0.5, faces if rng.random() < 0.7 else [faces[-1]]
            sign = -1.0 if against else 1.0

            def worth(dice):
                return sign * (plan.worth(dice) if left == 0 else plan.keep(dice, left)[0])  # noqa: B023

            best = 0.0
            for m in (1, 2)[:most]:
                for dice in combinations(range(5), m):
                    outcomes = []
                    for new in product(values if purpose == "change" else faces, repeat=m):
                        changed = list(roll)
                        for i, v in zip(dice, new, strict=True):
                            changed[i] = v
                        outcomes.append(worth(changed))
                    after = max(outcomes) if purpose == "change" else sum(outcomes) / len(outcomes)
                    best = max(best, after - worth(roll))
            gain, answer = plan.alteration(roll, purpose, most, values, left, against)
            assert gain == pytest.approx(best), (hero, roll, purpose, most, left, against)
            if purpose == "change" and answer:
                changed = list(roll)
                for i, v in answer:
                    changed[i] = v
                assert worth(changed) - worth(roll) == pytest.approx(gain)


# --------------------------------------------------------------- the bots


def test_the_odds_bot_beats_the_estimating_bot_it_replaced(compiled):
    """Mirror matches, the odds-driven heuristic bot against the earlier estimating one."""
    for hero in ("druid", "duelist"):
        index = compiled.hero(hero)[0]
        tally = play_games(compiled, [index, index], 3, 0, 300, "heuristic", "estimate")
        from dtc.dicethrone.simulate import wilson

        low, _ = wilson(tally.wins[0], tally.games)
        assert low > 0.55, (hero, tally)


# -------------------------------------------------------------------- CLI


def test_odds_command_lists_every_offensive_ability_best_first():
    result = run("odds", "druid")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("Druid: 5 dice of 6 faces")
    assert "1 roll" in lines[1] and "3 rolls" in lines[1]
    rows = lines[2:next(i for i, line in enumerate(lines) if "at least one ability" in line)]
    names = [line.split("  ")[1].strip() for line in rows]
    assert names[0] == "Ferocity (3 [Claw])" and "Wrath of Nature!" in names and len(names) == 10
    thirds = [float(line.split()[-1].rstrip("%")) for line in rows]
    assert thirds == sorted(thirds, reverse=True)
    assert re_line(result.output, "Forest's Call").split() == ["Forest's", "Call", "Small", "Straight",
                                                               "15.4%", "41.2%", "61.5%"]
    # the defence's outcomes are those of the hero as the game starts, and the heading says so (QA)
    assert "Thick Hide (defensive, 2 dice): what the roll does, with Active Form Druid Form as the game " \
        "starts" in result.output
    assert "50.0%  you deal 1 normal dmg to the attacker" in result.output


def test_odds_with_upgrades_shows_the_upgraded_defences_too():
    """`--upgrades` listed the upgrade cards' offensive abilities only: Masterwork II (2 dice) was
    missing beside Masterwork (1 die)."""
    result = run("odds", "forgemaster", "--upgrades")
    assert result.exit_code == 0
    assert "Masterwork I (defensive, 1 die): what the roll does" in result.output
    assert "Masterwork II (defensive, 2 dice): what the roll does" in result.output
    assert "75.0%  you find Pick Ore" in result.output  # a [Pick] on either of two dice: 1 - 1/4


def test_odds_exact_and_json():
    exact = run("odds", "druid", "--exact")
    assert exact.exit_code == 0 and "25/162" in exact.output and "16121/16384" in exact.output
    data = json.loads(run("odds", "sun-elf", "--format", "json").output)
    flare = next(r for r in data["abilities"] if r["ability"] == "Solar Flare!")
    assert flare["requirement"] == "5 [Sun Power]" and flare["kind"] == "ultimate"
    assert flare["chances"][0]["exact"] == "1/7776"


def test_odds_for_the_dice_on_the_table():
    result = run("odds", "druid", "--roll", "1,1,4,6,6", "--attempts-left", "2")
    assert result.exit_code == 0
    assert result.output.startswith("Druid: dice 1:Claw 1:Claw 4:Paw 6:Leaf 6:Leaf; 2 re-roll(s) left")
    assert re_line(result.output, "Ferocity (3 [Claw])").endswith("keep 1 1")
    met = run("odds", "druid", "--roll", "1,2,3,4,5", "--attempts-left", "0")
    assert re_line(met.output, "Ferocity (3 [Claw])").endswith("met")


def re_line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(start))


@pytest.mark.parametrize("args, message", [
    (["--roll", "1,2,3"], "takes the 5 face values of Druid's dice"),
    (["--roll", "1,2,3,4,9"], "takes the 5 face values"),
    (["--roll", "a,b"], "takes the 5 face values"),
    (["--roll", "1,2,3,4,5", "--attempts-left", "5"], "--attempts-left is 0 to 2"),
    (["--attempts-left", "1"], "--attempts-left goes with --roll"),
])
def test_odds_bad_input(args, message):
    result = run("odds", "druid", *args)
    assert result.exit_code == 2 and message in result.stderr
