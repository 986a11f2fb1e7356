"""Dice Throne Adventures Boss Battle (003_bd4cabbe7964005d.txt, "Boss Battle" to "End of Battle")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc import project
from dtc.adventures.battle import HeroBot
from dtc.adventures.boss import BossBattle, BossBot, boss_battle
from dtc.agents.base import drive
from dtc.cli.main import cli
from dtc.dicethrone.requests import Act

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def boss(compiled) -> int:
    return next(b for b in compiled.indices_of("boss") if compiled.players[b]["name"] == "Fallen Barbarian")


def battle(compiled, boss, heroes=(0, 3), seed=1, salves=None, **kw) -> BossBattle:
    return BossBattle(compiled, list(heroes), boss, seed, salves or [0] * len(heroes), **kw)


def set_up(game: BossBattle) -> None:
    agents = [HeroBot(1) for _ in range(game.enemy)] + [BossBot(2)]
    drive(game, agents, game.setup())


def test_the_printed_two_hero_setup_of_the_fallen_barbarian(compiled, boss):
    """"Hero Starting Health: Heroes share a Health dial, which starts at the value shown on the Boss
    Battle scenario card (50 in the printed example)"; "In a 2-player game, the Fallen Barbarian
    starts with 70 Health. He will receive 8 Upgrade CP"; "starts with 2 King's Hand tokens"."""
    game = battle(compiled, boss)
    assert [p.health for p in game.seats[:2]] == [50, 50]
    assert game.seats[2].health == 70
    assert game.setup_row.upgrade_cp == 8
    assert game.kings_hand == 2
    assert game.shared_health and game.team_of == (0, 0, 1)


def test_the_boss_deck_is_40_cards_split_into_upgrade_and_action_decks(compiled, boss):
    """"160 Boss cards: 40 cards per deck"; "Separate the Boss' cards into two decks"."""
    game = battle(compiled, boss)
    deck = game.seats[2].deck
    assert len(deck) == 40
    set_up(game)
    b = game.seats[2]
    assert b.deck and all(c.card.kind == "action" for c in b.deck)
    assert b.hand == []  # a Boss draws no starting hand: its cards come one an Income Phase


def test_upgrades_are_placed_with_the_upgrade_cp(compiled, boss):
    """"The Boss spends Upgrade CP according to the card's CP cost. When upgrading from a level 2
    card to a level 3 card, only spend the difference in CP cost. If it is a level 2 Upgrade card
    and the Boss already has the level 3 Upgrade card, discard it and draw another"."""
    game = battle(compiled, boss, record=True)
    b = game.seats[2]
    cards = {c.card.name: c for c in b.deck}
    order = [cards["Brutal Swing III"], cards["Brutal Swing II"], cards["Skull Crusher II"],
             cards["Headbutt II"]]
    game.place_upgrades(order)  # 4 + (II after III: discarded, free) + 3 = 7 of 8; Headbutt II costs 2
    assert b.upgrades["Brutal Swing"].card.name == "Brutal Swing III"
    assert b.upgrades["Skull Crusher"].card.name == "Skull Crusher II"
    assert "Headbutt" not in b.upgrades
    assert any(e["e"] == "upgrade_discarded" and e["card"] == "Brutal Swing II" for e in game.events)
    game2 = battle(compiled, boss)
    b2 = game2.seats[2]
    cards2 = {c.card.name: c for c in b2.deck}
    game2.place_upgrades([cards2["Brutal Swing II"], cards2["Brutal Swing III"], cards2["Rampage II"]])
    # 2, then the difference 4 - 2 = 2, then 2: all 6 of 8 paid
    assert b2.upgrades["Brutal Swing"].card.name == "Brutal Swing III"
    assert b2.upgrades["Rampage"].card.name == "Rampage II"
    assert cards2["Brutal Swing III"].card.ability in b2.abilities


def boss_step_events(compiled, boss, seed=3):
    game, result = boss_battle(compiled, [0, 3], boss, seed, [0, 0], record=True)
    return game, result


def test_the_boss_income_draws_an_action_card_and_the_active_hero_gains_its_bonus(compiled, boss):
    """"Increase the Boss CP dial by 1 CP"; "Draw a card from the Boss Action deck"; "The Active
    Player immediately gains the Hero Bonus shown in the top right corner of the card"."""
    game, _ = boss_step_events(compiled, boss)
    events = game.events
    turns = [i for i, e in enumerate(events) if e["e"] == "turn" and e["player"] == 2]
    assert turns
    first = turns[0]
    hero_turn = next(e["player"] for e in reversed(events[:first]) if e["e"] == "turn")
    step = events[first:turns[1] if len(turns) > 1 else len(events)]
    draw = next(e for e in step if e["e"] == "draw" and e["player"] == 2)
    bonus = next(e for e in step if e["e"] == "hero_bonus")
    assert bonus["card"] == draw["cards"][0] and bonus["player"] == hero_turn


def test_the_boss_plays_the_drawn_main_phase_card_or_sells_it(compiled, boss):
    """"If the card drawn during the Income Phase was a Main Phase Action card, the Boss plays it by
    spending CP equal to the card's CP cost"; "If the Boss cannot afford the CP cost of the card ...
    the card is sold (discarded), increasing the Boss CP dial by 1"."""
    game = battle(compiled, boss)
    set_up(game)
    b = game.seats[2]
    war_cry = next(c for c in b.deck if c.card.name == "Bloodlust")  # costs 2
    b.hand = [war_cry]
    game.drawn = war_cry
    game.phase = "Main Phase (1)"
    game.active = 2
    bot = BossBot(1)
    b.cp = 1
    actions = game.actions(2, "main")
    pick = bot.act(game, Act("Main Phase (1)", 2, "main", tuple(actions)))
    assert actions[pick].kind == "sell"
    b.cp = 5
    actions = game.actions(2, "main")
    pick = bot.act(game, Act("Main Phase (1)", 2, "main", tuple(actions)))
    assert actions[pick].kind == "play"
    game.phase = "Main Phase (2)"
    assert bot.act(game, Act("Main Phase (2)", 2, "main", tuple(game.actions(2, "main")))) is None


def test_the_boss_keeps_dice_by_the_last_drawn_cards_roll_objective(compiled, boss):
    """"Re-roll any dice that do not match the Roll Objective shown on the last drawn card"."""
    from dtc.dicethrone.requests import RollDice

    game = battle(compiled, boss)
    set_up(game)
    b = game.seats[2]
    game.drawn = next(c for c in b.deck if c.card.name == "Fury")  # objective 4-of-a-kind
    request = RollDice("Offensive Roll Phase", 2, (3, 3, 3, 1, 6), (), 1, 3)
    assert BossBot(1).reroll(game, request) == [3, 4]
    game.drawn = next(c for c in b.deck if c.card.name == "Bloodlust")  # Large Straight
    request = RollDice("Offensive Roll Phase", 2, (2, 2, 3, 4, 5), (), 1, 3)
    assert BossBot(1).reroll(game, request) == [1]


def test_the_boss_targets_the_active_hero_and_the_heroes_share_one_dial(compiled, boss):
    """"When you face a Boss, your team shares a common pool of Health"; the Boss Step's target is
    the hero whose turn it is."""
    game, _ = boss_step_events(compiled, boss, seed=5)
    targets = [e for e in game.events if e["e"] == "target" and e["player"] == 2]
    assert targets and all(t["how"] == "the active hero" for t in targets)
    for i, e in enumerate(game.events):
        if e is targets[0]:
            before = reversed(game.events[:i])
            hero_turn = next(x["player"] for x in before if x["e"] == "turn" and x["player"] != 2)
            assert e["defender"] == hero_turn
    assert game.seats[0].health == game.seats[1].health


def test_a_simultaneous_defeat_is_the_heroes_victory(compiled, boss):
    """"In the rare situation that you and the Boss are reduced to 0 Health at the same time, your
    team is victorious.\""""
    game = battle(compiled, boss)
    game.set_health(0, 0)
    game.seats[2].health = 0
    game.check_defeat()
    assert game.over is not None and game.over.winner == 0 and 1 in game.over.winners


def test_salves_heal_6_on_the_shared_dial_and_revive_nobody(compiled, boss):
    """"Spend Salves (optional): If desired, spend to Heal 6 on the shared Health dial"; "Salves may
    not be spent to revive fallen teammates in a Boss Battle"."""
    game = battle(compiled, boss, salves=[2, 0])
    game.set_health(0, 10)
    game.spend_salves(0)
    assert game.seats[0].health == game.seats[1].health == 22 and game.salves == [0, 0]
    assert not hasattr(game, "revive") or game.revive is None


def test_boss_battles_simulate_the_same_for_any_jobs():
    args = ["adventure", "simulate", "--heroes", "druid,sun_elf", "--scenario", "2", "--games", "30",
            "--seed", "2", "--format", "json"]
    one = CliRunner().invoke(cli, args + ["--jobs", "1"])
    two = CliRunner().invoke(cli, args + ["--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.output) == json.loads(two.output)
    report = json.loads(one.output)
    assert report["games"] == 30 and report["endings"].keys() <= {"boss", "defeat", "turn limit"}


def test_an_action_card_in_the_upgrade_deck_is_refused(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    shutil.copy(ROOT / "content/statuses/adventures.yaml", folder)
    text = (ROOT / "content/adventures/fallen-barbarian.yaml").read_text()
    text = text.replace("upgrade_deck:\n", "upgrade_deck:\n  - {name: Odd One, kind: action, timing: main, "
                        "cost: 0, effect: Gain 1 CP.}\n", 1)
    (folder / "boss.yaml").write_text(text)
    errors = [(d.code, d.message) for d in project.run([folder]).errors]
    assert ("C016", "`Odd One` in the Upgrade deck is not an upgrade card") in errors


def test_a_hero_bonus_is_checked_like_any_effect(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    shutil.copy(ROOT / "content/statuses/adventures.yaml", folder)
    text = (ROOT / "content/adventures/fallen-barbarian.yaml").read_text()
    bad = text.replace("hero_bonus: Draw 1 card.}", "hero_bonus: Frobnicate 1.}", 1)
    (folder / "boss.yaml").write_text(bad)
    errors = project.run([folder]).errors
    assert errors and all(d.span is not None and d.span.path.endswith("boss.yaml") for d in errors)
    assert any("Frobnicate" in d.message for d in errors)


def knocked_down_boss_step(compiled, boss, cp: int,
                           status: str = "Knockdown") -> tuple[BossBattle, list[dict]]:
    """A Boss Step with the Boss holding `status` and `cp` CP at its start."""
    game = battle(compiled, boss, record=True)
    set_up(game)
    held = next(i for i, s in enumerate(compiled.statuses) if s["name"] == status)
    b = game.seats[2]
    game.gain_status(2, held, 1, 0)
    b.cp = cp
    game.active, game.hero_turn = 2, 0
    told = len(game.events)
    drive(game, [HeroBot(1), HeroBot(2), BossBot(3)], game.turn())
    return game, game.events[told:]


def test_a_boss_short_of_cp_for_knockdown_sells_its_action_card_to_pay(compiled, boss):
    """003_bd4cabbe7964005d.txt, "Boss Battle" > "Special Situations": "Sometimes a status effect (such
    as Knockdown) threatens the Boss to lose their Offensive Roll Phase (due to not having enough CP to
    remove it). In these cases, they instead sell the card drawn from their Action deck in order to pay
    to remove Knockdown." (Knockdown's removal for 2 CP in its Upkeep Phase is authored:
    content/statuses/adventures.yaml.)"""
    game, step = knocked_down_boss_step(compiled, boss, cp=1)
    kinds = [e["e"] for e in step]
    situation = next(e for e in step if e["e"] == "special_situation")
    sold = next(e for e in step if e["e"] == "sell")
    assert sold["card"] == situation["card"]
    paid = next(i for i, e in enumerate(step) if e["e"] == "cp" and e["change"] == -2)
    assert kinds.index("special_situation") < kinds.index("sell") < paid < kinds.index("remove")
    knockdown = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Knockdown")
    assert not game.seats[2].tokens.get(knockdown)  # paid for and removed
    assert any(e["e"] == "roll" and e["player"] == 2 for e in step)  # its Offensive Roll Phase is kept
    assert not any(e["e"] == "phase_skipped" for e in step)
    # the sold card is this Step's card: one draw, its Hero Bonus, its Roll Objective
    assert [e for e in step if e["e"] == "draw" and e["player"] == 2] == [
        next(e for e in step if e["e"] == "draw" and e["player"] == 2)]
    assert next(e for e in step if e["e"] == "hero_bonus")["card"] == sold["card"]
    assert game.drawn.card.name == sold["card"]


def test_a_boss_that_can_pay_or_cannot_even_by_selling_keeps_its_card(compiled, boss):
    """"Special Situations" applies only when selling is what pays: with 2 CP the Boss pays and plays its
    card as usual; with 0 CP one sale is not enough, and Knockdown skips its Offensive Roll Phase."""
    game, step = knocked_down_boss_step(compiled, boss, cp=2)
    assert not any(e["e"] == "special_situation" for e in step)
    assert any(e["e"] == "roll" and e["player"] == 2 for e in step)
    game, step = knocked_down_boss_step(compiled, boss, cp=0)
    assert not any(e["e"] == "special_situation" for e in step)
    assert any(e["e"] == "phase_skipped" and e["phase"] == "Offensive Roll Phase" for e in step)
    assert not any(e["e"] == "roll" and e["player"] == 2 for e in step)


def test_a_boss_whose_income_phase_is_skipped_still_turns_over_a_card_for_its_roll_objective(compiled, boss):
    """"Special Situations": "If an effect (such as Concussion) would result in a Boss not having an
    active Roll Objective, you still need to turn over a card so that the Boss has a Roll Objective. All
    other parts of the card should be ignored (including the Hero Bonus)." (Concussion skipping the
    Income Phase is authored: content/statuses/adventures.yaml.)"""
    game, step = knocked_down_boss_step(compiled, boss, cp=3, status="Concussion")
    assert any(e["e"] == "income_skipped" and e["player"] == 2 for e in step)
    assert not [e for e in step if (e["e"] == "draw" and e["player"] == 2) or e["e"] == "hero_bonus"]
    turned = next(e for e in step if e["e"] == "objective_card")
    assert game.drawn.card.name == turned["card"] and game.drawn in game.seats[2].discard  # not played
    first_roll = next(i for i, e in enumerate(step) if e["e"] == "roll" and e["player"] == 2)
    assert step.index(turned) < first_roll  # the objective is there before the dice are
    assert game.objective() == game.boss_actions[turned["card"]]["objective"]
