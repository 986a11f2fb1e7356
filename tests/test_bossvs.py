"""Boss vs Many and Boss vs Boss (003_bd4cabbe7964005d.txt, "Other Game Modes": "Boss vs Many Mode",
"Boss vs Boss Mode", "Rule Changes for Both Boss vs Modes")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dtc.adventures import bossvs
from dtc.adventures.battle import HeroBot
from dtc.adventures.bossvs import (
    EXTRA_ATTEMPT,
    FORCE_REROLL,
    BossVsBot,
    boss_vs_boss,
    boss_vs_many,
    kings_hand_status,
)
from dtc.agents.base import drive, play
from dtc.cli.main import cli
from dtc.vm import ChooseDice, ChooseOption


@pytest.fixture(scope="module")
def barbarian(compiled) -> int:
    return next(b for b in compiled.indices_of("boss") if compiled.players[b]["name"] == "Fallen Barbarian")


@pytest.fixture(scope="module")
def mad_king(compiled) -> int:
    return next(b for b in compiled.indices_of("boss") if compiled.players[b]["name"] == "Mad King")


def heroes(compiled, *names):
    return [compiled.hero(n)[0] for n in names]


def set_up(game):
    drive(game, [BossVsBot(1)] + [HeroBot(k) for k in range(1, len(game.seats))], game.setup())


class Loot:
    """A game's rng whose next `randint` calls give `values` (the Loot die, the Chaos die), then the
    real rng's."""

    def __init__(self, rng, values):
        self.rng, self.values = rng, list(values)

    def randint(self, low, high):
        return self.values.pop(0) if self.values else self.rng.randint(low, high)

    def __getattr__(self, name):
        return getattr(self.rng, name)


def test_boss_vs_many_setup(compiled, barbarian):
    """"Heroes share a Health dial"; "Boss starts with 10 Health + 20 Health per Hero"; "You shuffle
    together both the Boss' Upgrade deck and the Action deck"; "Boss starts with 4 cards & 2 CP";
    "Boss is always the Start Player"."""
    for names, boss_health in ((("druid", "sun elf"), 50), (("druid", "sun elf", "duelist"), 70),
                               (("druid", "sun elf", "duelist", "forgemaster"), 90)):
        game = boss_vs_many(compiled, barbarian, heroes(compiled, *names), 3)
        set_up(game)
        boss = game.seats[0]
        assert boss.health == boss.start_health == boss_health
        assert game.shared_health and game.team_of == (0,) + (1,) * len(names)
        row = bossvs.many_table(compiled, barbarian, len(names))
        assert {p.health for p in game.seats[1:]} == {row.start_health}
        assert len(boss.hand) == 4 and boss.cp == 2
        cards = boss.hand + boss.deck
        assert len(cards) == 40 and {c.card.kind for c in cards} == {"upgrade", "action"}
        assert game.start_player == game.active == 0


def test_the_boss_does_not_skip_his_first_income_phase(compiled, barbarian):
    """"Boss does not skip his Income Phase" (the Start Player's first one, in standard Dice Throne)."""
    game = boss_vs_many(compiled, barbarian, heroes(compiled, "druid", "sun elf"), 4, record=True)
    set_up(game)
    drive(game, [BossVsBot(1), HeroBot(2), HeroBot(3)], game.turn())
    turn_one = game.events[next(i for i, e in enumerate(game.events) if e["e"] == "turn"):]
    assert not any(e["e"] == "income_skipped" for e in turn_one)
    assert any(e["e"] == "draw" and e["player"] == 0 for e in turn_one)


def test_the_boss_gains_a_kings_hand_token_in_every_players_upkeep_up_to_5(compiled, barbarian):
    """"Boss gains a King's Hand token during every player's Upkeep Phase (his own and every Heroes)";
    "King's Hand tokens are a Unique Status Effect (Stack Limit: 5): Cannot be removed or transferred
    by any means"."""
    game = boss_vs_many(compiled, barbarian, heroes(compiled, "druid", "sun elf"), 5)
    set_up(game)
    kh = kings_hand_status(compiled)
    agents = [BossVsBot(1), HeroBot(2), HeroBot(3)]
    for k, seat in enumerate([0, 1, 2, 0, 1, 2, 0]):
        game.active = seat
        drive(game, agents, game.upkeep(seat))
        assert len(game.seats[0].tokens.get(kh, [])) == min(5, k + 1)
        assert not game.seats[1].tokens.get(kh) and not game.seats[2].tokens.get(kh)
    game.remove_status(0, kh, 2, by=1)  # an opponent's effect removes none
    assert len(game.seats[0].tokens[kh]) == 5


def test_a_boss_buys_a_kings_hand_token_for_3_cp_at_any_time(compiled, barbarian):
    """"Boss may spend 3 CP at anytime to gain a King's Hand token (Stack Limit: 5)"."""
    game = boss_vs_many(compiled, barbarian, heroes(compiled, "druid", "sun elf"), 6)
    set_up(game)
    kh = kings_hand_status(compiled)
    boss = game.seats[0]
    boss.cp = 2
    assert not any(a.kind == "buy" for a in game.actions(0, "upkeep"))
    boss.cp = 7
    game.active = 1  # a hero's turn: "at anytime"
    buy = next(a for a in game.actions(0, "upkeep") if a.kind == "buy")
    drive(game, [BossVsBot(1)] * 3, game.perform(0, buy))
    assert boss.cp == 4 and len(boss.tokens[kh]) == 1
    assert not any(a.kind == "buy" for a in game.actions(1, "upkeep"))  # a Hero buys none
    boss.tokens[kh] = boss.tokens[kh] * 5
    assert not any(a.kind == "buy" for a in game.actions(0, "upkeep"))  # at the Stack Limit


class Scripted:
    """A player giving `answers` in order, keeping what she was asked."""

    def __init__(self, answers):
        self.answers, self.asked = list(answers), []

    def answer(self, game, request):
        self.asked.append(request)
        return self.answers.pop(0)


def spend(game, values, answers=()):
    """Spend one of the Boss's King's Hand tokens with the Loot die giving `values`; the requests."""
    game.gain_status(0, kings_hand_status(game.a), 1, 0)
    game.rng = Loot(game.rng, values)
    boss = Scripted(answers)
    drive(game, [boss], game.spend_kings_hand(0))
    assert boss.answers == []  # every scripted answer was asked for
    return boss.asked


def test_a_spent_kings_hand_rolls_the_loot_die(compiled, barbarian):
    """"When a King's Hand token is spent, roll a Loot die: On 1-10, gain 1 CP. On 11-15, do one of the
    following: Force your opponent to re-roll one of their dice. Gain 1 additional Roll Attempt. On
    16-20, change the value of any one die.\""""
    game = boss_vs_many(compiled, barbarian, heroes(compiled, "druid", "sun elf"), 7)
    set_up(game)
    boss = game.seats[0]
    cp = boss.cp
    assert spend(game, [10]) == [] and boss.cp == cp + 1
    # the Boss's own Offensive Roll Phase, his dice on the table: an extra attempt (no opponent's
    # dice to force a re-roll of)
    game.active, game.phase = 0, "Offensive Roll Phase"
    game.roll, game.roll_owner, game.roll_faces, game.dice_open = [1, 2, 3, 4, 5], 0, boss.table.faces, True
    attempts = game.max_attempts
    assert spend(game, [15]) == [] and game.max_attempts == attempts + 1
    [change] = spend(game, [16], [[[0, 6]]])
    assert isinstance(change, ChooseDice) and change.purpose == "change" and game.roll[0] == 6
    # a Hero's roll on the table in her turn: the Boss forces her to re-roll one of her dice
    game.active, game.roll_owner = 1, 1
    game.roll, game.roll_faces = [6, 6, 6, 6, 1], game.seats[1].table.faces
    [reroll] = spend(game, [11, 2], [[0]])
    assert isinstance(reroll, ChooseDice) and reroll.purpose == "re-roll" and reroll.player == 0
    assert game.roll[1:] == [6, 6, 6, 1]
    # both can be done (his own roll, a Hero's dice on the table would be another's): he chooses
    game.active, game.roll_owner = 0, 1
    [option, _] = spend(game, [12], [0, [4]])
    assert isinstance(option, ChooseOption) and option.options == (FORCE_REROLL, EXTRA_ATTEMPT)


def test_the_boss_rolls_a_chaos_die_for_his_target(compiled, barbarian):
    """"The Heroes always target the Boss. The Boss, however, must roll for the Targeting Phase ...
    2 Heroes vs Boss: 1-3, Hero on Boss' Left; 4-6, Hero on Boss' Right. 3 Heroes vs Boss: 1-2, Hero on
    Boss' Left; 3-4, Hero in the Center; 5-6, Hero on Boss' Right. 4 Heroes vs Boss: 1-4, 1 being Hero
    on Boss' left and continuing clockwise; 5-6, roll again.\""""
    names = ["druid", "sun elf", "duelist", "forgemaster"]
    cases = {2: {1: 1, 3: 1, 4: 2, 6: 2}, 3: {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3},
             4: {1: 1, 2: 2, 3: 3, 4: 4}}
    for n, expected in cases.items():
        game = boss_vs_many(compiled, barbarian, heroes(compiled, *names[:n]), 8)
        for value, seat in expected.items():
            game.rng = Loot(game.rng, [value])
            assert drive(game, [], game.targeting(0, False)) == seat, (n, value)
        assert drive(game, [], game.targeting(2, False)) == 0  # a Hero: the Boss
    game.rng = Loot(game.rng, [5, 6, 3])  # 4 Heroes: 5 and 6 roll again
    assert drive(game, [], game.targeting(0, False)) == 3


def test_boss_vs_boss_setup_and_kings_hand(compiled, barbarian, mad_king):
    """Boss vs Boss: "Start with 70 Health"; "You shuffle together both the Boss' Upgrade deck and the
    Action deck"; "Draw 4 and gain 2 CP"; "Gain a King's Hand token during every Upkeep Phase";
    "Either Boss may spend 3 CP at anytime to gain 1 King's Hand token"."""
    game = boss_vs_boss(compiled, barbarian, mad_king, 9)
    set_up(game)
    kh = kings_hand_status(compiled)
    for p in game.seats:
        assert p.health == 70 and len(p.hand) == 4 and p.cp == 2 and len(p.hand + p.deck) == 40
    drive(game, [BossVsBot(1), BossVsBot(2)], game.upkeep(game.active))
    assert [len(p.tokens.get(kh, [])) for p in game.seats] == [1, 1]
    for seat in (0, 1):
        game.seats[seat].cp = 3
        assert any(a.kind == "buy" for a in game.actions(seat, "upkeep"))


def test_hero_bonuses_and_roll_objectives_are_ignored(compiled, barbarian):
    """"Ignore the Hero Bonuses in the top right corner of the Action cards. Ignore the Roll Objectives
    on the bottom of the Action cards"; "All Action cards that say "Active Player" instead refer to your
    opponent" (no Action card of the built-in Bosses says it)."""
    game = boss_vs_many(compiled, barbarian, heroes(compiled, "druid", "sun elf"), 10, record=True)
    result = play(game, [BossVsBot(1), HeroBot(2), HeroBot(3)])
    assert result.reason in ("defeat", "draw")
    assert not any(e["e"] in ("hero_bonus", "objective_card") for e in game.events)
    for b in compiled.indices_of("boss"):
        texts = [c.get("text", "") for c in compiled.players[b]["cards"]]
        assert not any("active player" in t.casefold() for t in texts)


def test_simulated_boss_vs_games_are_the_same_for_any_jobs():
    args = ["adventure", "boss-vs-many", "mad king", "--heroes", "druid,sun_elf", "--games", "50",
            "--seed", "3", "--format", "json"]
    one = CliRunner().invoke(cli, args + ["--jobs", "1"])
    two = CliRunner().invoke(cli, args + ["--jobs", "2"])
    assert one.exit_code == 0 and one.output == two.output
    report = json.loads(one.output)
    assert report["games"] == 50 == report["first_side_wins"] + report["other_side_wins"] + report["draws"]
    assert report["kings_hand_spent"] > 0
    duel = CliRunner().invoke(cli, ["adventure", "boss-vs-boss", "fallen barbarian", "mad king", "--games",
                                    "30", "--format", "json"])
    assert duel.exit_code == 0 and json.loads(duel.output)["games"] == 30


def test_watching_a_boss_vs_many_game(compiled):
    out = CliRunner().invoke(cli, ["adventure", "boss-vs-many", "fallen barbarian", "--heroes",
                                   "druid,sun_elf", "--watch", "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("P1 Fallen Barbarian draws 4")
    assert "Boss vs Many: P1 Fallen Barbarian vs P2 Druid & P3 Sun Elf" in out.output
    assert "on the Loot die for King's Hand" in out.output and "for his target: targets P" in out.output


@pytest.mark.parametrize("args, says", [
    (["boss-vs-many", "fallen barbarian", "--heroes", "druid"], "one Boss and 2 to 4 heroes; 1 given"),
    (["boss-vs-many", "fallen barbarian", "--heroes", "druid,sun_elf,duelist,forgemaster,druid"],
     "5 given"),
    (["boss-vs-many", "lich", "--heroes", "druid,sun_elf"], "no Boss `lich`; Bosses here: "),
    (["boss-vs-many", "mad king", "--heroes", "druid,nobody"], "no hero `nobody`"),
    (["boss-vs-boss", "mad king", "nobody"], "no Boss `nobody`"),
    (["boss-vs-many", "mad king", "--heroes", "druid,sun_elf", "--save", "x.json"], "give --play N too"),
    (["boss-vs-boss", "mad king", "ash queen", "--play", "3"], "--play 3: the game has players 1 to 2"),
])
def test_boss_vs_usage_errors_are_one_line(args, says):
    out = CliRunner().invoke(cli, ["adventure", *args])
    assert out.exit_code == 2 and says in out.output and "Traceback" not in out.output
