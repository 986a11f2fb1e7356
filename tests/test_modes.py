"""Games of more than two heroes: the modes as ruleset data, the 2v2 Team Game, King of the Hill,
5-6 players, the Targeting Roll Phase and the wording of cards for many players.

Rules cite 000_eaa64e0770891241.txt (Vanguard, v2.4.3 "Rules of Play"): "4 Player Games" /
"2v2 Team Game", "3 Player Games" / "King of the Hill", "5-6 Player Games", "Turn Breakdown" /
"5. Targeting Roll Phase" and "6. Defensive Roll Phase", "Health".
"""

from __future__ import annotations

import pytest

from dtc import artifact as artifact_mod
from dtc.agents.base import play
from dtc.agents.bots import HeuristicBot
from dtc.dicethrone.engine import Game
from dtc.dicethrone.modes import ModeError, mode_from_data
from dtc.dicethrone.state import Attack
from dtc.vm import ChoosePlayer
from tests.test_engine import Dice, answers, drive, events, give_card

DRUID, DUELIST, SUN_ELF, FORGEMASTER = "druid", "duelist", "sun_elf", "forgemaster"
TEAMS = [DRUID, DUELIST, SUN_ELF, FORGEMASTER]  # P1+P2 against P3+P4


def table(compiled, heroes, mode, dice=(), seed=0):
    indices = [compiled.hero(h)[0] for h in heroes]
    return Game(compiled, indices, seed, rng=Dice(dice, seed), mode=mode)


def bots_game(compiled, heroes, mode, seed):
    game = Game(compiled, [compiled.hero(h)[0] for h in heroes], seed, mode=mode)
    result = play(game, [HeuristicBot(seed * 7 + k) for k in range(len(heroes))])
    return game, result


def attacking(game, seat, ultimate=False):
    """An Attack of `seat`'s first offensive ability, its Defender not found yet."""
    ability = next(a for a in game.seats[seat].abilities if a.kind == "offensive")
    game.attack = Attack(seat, game.opponents(seat)[0], ability, ultimate)
    return game.attack


# ------------------------------------------------------------------ the modes are data


def test_the_modes_are_ruleset_data(compiled):
    """"2v2 Team Game": teams of two, zigzag turns, one shared dial of 50; "King of the Hill": 35
    Health, clockwise, choose the target, the Leader's bonus card; "5-6 Player Games" sends the
    reader to a web page, so those modes are marked authored."""
    from dtc.dicethrone.tables import rules_of

    team = rules_of(compiled, None, "2v2").mode
    assert team.players == 4 and team.start_health == 50 and team.shared_health
    assert team.teams == ((0, 1), (2, 3)) and team.turn_order == (0, 2, 1, 3)
    assert team.targeting == "roll" and team.authored is None
    hill = rules_of(compiled, None, "koth").mode  # the alias
    assert hill.name == "king_of_the_hill" and hill.start_health == 35 and hill.targeting == "choose"
    assert hill.leader_bonus_draw == 1 and hill.turn_order == (0, 1, 2) and not hill.shared_health
    for name in ("koth_5", "koth_6", "3v3", "2v2v2"):
        assert rules_of(compiled, None, name).mode.authored, name
    assert rules_of(compiled, "Dice Throne v2.0", "2v2").mode.targeting == "roll"  # Season One's too


@pytest.mark.parametrize("data, wrong", [
    ({"players": 4, "starting_health": 50, "teams": [[1, 2], [3, 3]], "targeting": "roll"}, "teams"),
    ({"players": 3, "starting_health": 35, "turn_order": [1, 2]}, "turn_order"),
    ({"players": 3, "starting_health": 35, "shared_health": True, "targeting": "choose"}, "shared_health"),
    ({"players": 4, "starting_health": 35, "targeting": "roll"}, "targeting"),  # three opponents each
    ({"players": 3, "starting_health": 35}, "targeting"),  # two opponents, no rule to find one
])
def test_a_mode_that_seats_no_table_is_refused(data, wrong):
    with pytest.raises(ModeError) as problem:
        mode_from_data("odd", data)
    assert problem.value.field == wrong


def test_lint_refuses_a_mode_and_says_where(tmp_path):
    """C037 at the key at fault, with how to fix it."""
    import shutil

    from dtc import project

    root = tmp_path / "content"
    shutil.copytree("content", root)
    rules = root / "rules" / "vanguard-2.4.3.yaml"
    rules.write_text(rules.read_text().replace("turn_order: [1, 3, 2, 4]", "turn_order: [1, 3, 2, 2]", 1))
    result = project.run([root])
    found = [d for d in result.diagnostics if d.code == "C037"]
    assert len(found) == 1 and found[0].message.startswith("mode `2v2`: ")
    assert "give each of the 4 players one turn" in found[0].message
    line = next(i for i, text in enumerate(rules.read_text().splitlines(), 1)
                if text.startswith("    turn_order: [1, 3, 2, 2]"))
    assert found[0].span.path.endswith("vanguard-2.4.3.yaml") and found[0].span.line == line
    assert "clockwise" in found[0].hint


def test_an_edited_artifact_mode_is_refused(compiled):
    """The verifier reads every mode as the engine will: an edited table is refused in one line."""
    data = artifact_mod.load(artifact_mod.to_bytes(compiled.data)).data
    data["rulesets"][0]["modes"]["2v2"]["teams"] = [[1, 2], [2, 3]]
    with pytest.raises(artifact_mod.ArtifactError, match="teams must seat"):
        artifact_mod.load(artifact_mod.to_bytes(data))


def test_a_table_of_the_wrong_size_is_refused(compiled):
    with pytest.raises(ValueError, match="mode 2v2 seats 4 heroes: 3 given"):
        table(compiled, [DRUID, DUELIST, SUN_ELF], "2v2")


# --------------------------------------------------------------------------- 2v2


def test_2v2_turn_order_zigzags_between_the_teams(compiled):
    """"Turn order alternates between teams in a zigzag pattern": P1, P3, P2, P4 (teammates sit next
    to each other: P1+P2 and P3+P4), from the Start Player on."""
    for seed in range(6):
        game, _ = bots_game(compiled, TEAMS, "2v2", seed)
        turns = [e["player"] for e in events(game, "turn")]
        order = [0, 2, 1, 3]
        k = order.index(game.start_player)
        assert turns[:8] == [order[(k + i) % 4] for i in range(len(turns[:8]))]


def test_2v2_the_start_player_alone_skips_her_first_income_phase(compiled):
    """"The Start Player skips the Income Phase of their first turn"."""
    game, _ = bots_game(compiled, TEAMS, "2v2", 4)
    skipped = [e["player"] for e in events(game, "income_skipped")]
    assert skipped == [game.start_player]


def test_2v2_teammates_share_one_health_dial(compiled):
    """"Teammates share one Health Dial beginning with 50 health"; "If both teammates take damage at
    the same time, reduce the Health Dial by the combined total of damage taken by both teammates"."""
    game = table(compiled, TEAMS, "2v2")
    assert [p.health for p in game.seats] == [50, 50, 50, 50]
    normal = game.rules.damage_types[0]
    game.incoming[2].amounts.append((5, normal))
    game.resolve_damage(None)
    assert [p.health for p in game.seats] == [50, 50, 45, 45]
    game.incoming[2].amounts.append((4, normal))
    game.incoming[3].amounts.append((6, normal))
    game.resolve_damage(None)
    assert game.seats[2].health == game.seats[3].health == 35
    game.apply_heal(3, 30)  # "heal a maximum of 10 points above your starting health": the dial's
    assert game.seats[2].health == game.seats[3].health == 60


def test_2v2_cp_stays_each_players_own(compiled):
    """"Teammates still have their own individual CP Dials"."""
    game = table(compiled, TEAMS, "2v2")
    game.change_cp(0, 5)
    assert [p.cp for p in game.seats] == [7, 2, 2, 2]


def test_2v2_a_team_at_zero_loses_both_its_heroes(compiled):
    """"The moment your health is reduced to 0, you have been defeated": the shared dial at 0 is both
    teammates; the other team wins."""
    game = table(compiled, TEAMS, "2v2")
    game.hurt(1, 50)
    game.check_defeat()
    assert game.over is not None and game.over.winners == (2, 3) and game.over.reason == "defeat"
    assert not game.seats[0].alive and not game.seats[1].alive


def test_2v2_dmg_to_both_teams_at_zero_together_is_a_draw(compiled):
    """"If all remaining players are simultaneously reduced to 0 health, the game is a draw"."""
    game = table(compiled, TEAMS, "2v2")
    normal = game.rules.damage_types[0]
    game.incoming[0].amounts.append((50, normal))
    game.incoming[3].amounts.append((50, normal))
    game.resolve_damage(None)
    game.check_defeat()
    assert game.over.winner is None and game.over.reason == "draw"


def test_2v2_opponents_and_teammates(compiled):
    game = table(compiled, TEAMS, "2v2")
    assert game.opponents(0) == [2, 3] and game.teammates(0) == [1]
    assert game.opponents(3) == [0, 1] and game.teammates(3) == [2]


def test_a_teammate_prevents_dmg_to_another_only_with_a_chosen_player_card(compiled, tmp_path):
    """"Players cannot intervene to reduce their teammate's incoming damage unless specified by a
    card/status effect (e.g. the Roll Phase Action card 'Not This Time!' can be played on teammates
    because it refers to "a chosen player")". `Prevent 2 dmg.` prevents the player's own; `A chosen
    player prevents 6 dmg.` (a test card: the rulebook prints no text for it) the teammate's, and a
    bot plays it for the teammate the dmg is coming to."""
    from tests.test_engine import compiled_with_cards

    game = table(compiled, TEAMS, "2v2")
    normal = game.rules.damage_types[0]
    game.incoming[0].amounts.append((8, normal))
    shrug = give_card(game, 1, "Shrug It Off")  # `Prevent 2 dmg.`, played by the teammate
    drive(game.run(shrug.card.chunk, game.ctx(1, game.seats[1].table.index)), answers())
    assert game.incoming[0].prevented == 0 and game.incoming[1].prevented == 2

    extra = compiled_with_cards(tmp_path, "duelist.yaml", CHOSEN_PLAYER_CARD)
    game = table(extra, TEAMS, "2v2")
    game.incoming[0].amounts.append((8, normal))
    card = give_card(game, 1, "Cover Me")
    assert card.card.for_anyone and not shrug.card.for_anyone
    bot = HeuristicBot(1)
    assert bot.play_score(game, 1, "defensive", card.card) > 0  # her teammate's dmg is worth it
    asked = []

    def answer(request):
        asked.append(request)
        return bot.answer(game, request)

    drive(game.run(card.card.chunk, game.ctx(1, game.seats[1].table.index)), answer)
    assert isinstance(asked[0], ChoosePlayer) and asked[0].players == (0, 1, 2, 3)
    assert game.incoming[0].prevented == 6 and game.incoming[1].prevented == 0
    game.resolve_damage(None)
    assert game.seats[0].health == game.seats[1].health == 48


CHOSEN_PLAYER_CARD = """  - name: Cover Me
    kind: action
    authored: a test card
    timing: roll
    cost: 0
    effect: A chosen player prevents 6 dmg.
"""


def test_any_player_may_alter_the_targeting_die_unless_it_is_an_ultimate(compiled):
    """"5. Targeting Roll Phase": "This die may be manipulated with cards, unless the Attack is an
    Ultimate Ability"; and "Players may alter dice ... to improve their dice outcome" (a teammate's)."""
    game = table(compiled, TEAMS, "2v2", dice=[1])
    attacking(game, 0)
    give_card(game, 1, "Fine Tuning")  # `Change 1 die to any value.`, the teammate's
    game.seats[1].cp = 5
    played = []

    def act(request):
        if request.player == 1 and not played:
            played.append(request.window)
            return next(i for i, a in enumerate(request.actions) if a.name == "Fine Tuning")
        return None

    defender, seen = drive(game.targeting(0, False),
                           answers(Act=act, ChooseDice=lambda r: [(0, 3)]))
    assert played == ["targeting"]
    assert defender == game.beside(0, -1) == 3  # the die changed from 1 to 3: the opponent on the right
    game = table(compiled, TEAMS, "2v2", dice=[1])
    attacking(game, 0, ultimate=True)
    give_card(game, 1, "Fine Tuning")
    game.seats[1].cp = 5
    defender, seen = drive(game.targeting(0, True), answers())
    assert defender == 2 and not [r for r in seen if type(r).__name__ == "Act"]


# ------------------------------------------------------- the Targeting Roll Phase


@pytest.mark.parametrize("attacker, die, defender, chooser", [
    (0, 1, 2, None), (0, 2, 2, None),  # "1 or 2 - Target the opponent on your left"
    (0, 3, 3, None), (0, 4, 3, None),  # "3 or 4 - Target the opponent on your right"
    # "5 - Your opponents choose which of them you target": asked of the first of them in turn order
    # from the Attacker (P1: P3 plays before P4; P2: P4 plays right after her)
    (0, 5, 3, 2), (1, 5, 3, 3),
    (0, 6, 3, 0),  # "6 - Choose either opponent as your target"
])
def test_the_targeting_die(compiled, attacker, die, defender, chooser):
    game = table(compiled, TEAMS, "2v2", dice=[die])
    attacking(game, attacker)
    found, seen = drive(game.targeting(attacker, False), answers(ChoosePlayer=lambda r: r.players[-1]))
    asked = [r for r in seen if isinstance(r, ChoosePlayer)]
    assert found == defender
    assert [r.player for r in asked] == ([chooser] if chooser is not None else [])
    assert events(game, "targeting_roll")[0]["die"] == die
    assert game.roll == [] and game.phase == "Offensive Roll Phase"  # the offensive dice are back


def test_seats_have_a_left_and_a_right(compiled):
    """Round the table clockwise P1, P2 (teammates), P3, P4: P1's left opponent is P3, her right P4."""
    game = table(compiled, TEAMS, "2v2")
    assert (game.beside(0, 1), game.beside(0, -1)) == (2, 3)
    assert (game.beside(2, 1), game.beside(2, -1)) == (0, 1)


def test_the_targeting_roll_phase_is_skipped_with_one_opponent(compiled):
    """"If you have only one opponent, this phase is skipped": no die, no choice in 1v1."""
    game = Game(compiled, [0, 1], 5)
    result = play(game, [HeuristicBot(1), HeuristicBot(2)])
    assert result.reason in ("defeat", "draw")
    assert not events(game, "targeting_roll") and not events(game, "target")


def test_an_ability_that_deals_no_damage_still_targets(compiled):
    """"Targeting an opponent still applies even if you have activated an ability that does no damage,
    but has effects that must be reconciled"; one that does nothing to an opponent needs no target."""
    from dtc.opcodes import aims_at_defender

    game = table(compiled, TEAMS, "2v2")
    aims = {}
    for hero in game.tables:
        for ability in hero.abilities:
            for option in ability.options:
                program = compiled.chunks[option.chunk].program
                aims[option.label] = any(aims_at_defender(ins.op, ins.operands) for ins in program)
    assert any(aims.values()) and not all(aims.values())


def test_what_needs_no_target_resolves_before_the_targeting_roll(compiled):
    """"4. Offensive Roll Phase", step 4: "Resolve any effects that do not require a target (e.g. gain
    Evasive, gain Back Strike, Heal 5, etc)"; then "5. Targeting Roll Phase"; then the effects that
    need the target. Nothing reaches an opponent before the Defender is found, and what was added to
    the Attack before is the Defender's."""
    before = 0
    for seed in range(12):
        game, _ = bots_game(compiled, TEAMS, "2v2", seed)
        evs = game.events
        for i, e in enumerate(evs):
            if e["e"] != "activate":
                continue
            span = []
            for later in evs[i + 1:]:
                if later["e"] in ("target", "turn"):
                    break
                span.append(later)
            else:
                continue
            target = next((x for x in evs[i + 1:] if x["e"] in ("target", "turn")), None)
            if target is None or target["e"] != "target":
                continue
            assert not [x for x in span if x["e"] in ("deal", "inflict") and x.get("target") != e["player"]]
            before += sum(1 for x in span
                          if x["e"] in ("gain", "heal_coming", "cp") and x["player"] == e["player"])
            added = sum(x["amount"] for x in span if x["e"] == "add")
            attack = next((x for x in evs[i + 1:] if x["e"] in ("attack", "turn")), None)
            if added and attack is not None and attack["e"] == "attack":
                assert attack["defender"] == target["defender"] and attack["dmg"] >= added
    assert before > 0


def test_every_effect_aimed_at_the_defender_reaches_the_one_targeted(compiled):
    """With more than one opponent, an Attack's dmg goes to the Defender the targeting found."""
    for seed in range(8):
        game, _ = bots_game(compiled, TEAMS, "2v2", seed)
        target = None
        for e in game.events:
            if e["e"] == "target":
                target = (e["player"], e["defender"])
            elif e["e"] == "turn":
                target = None
            elif e["e"] == "attack" and target is not None:
                assert (e["attacker"], e["defender"]) == target


# ------------------------------------------------------------------ King of the Hill


def test_koth_health_and_clockwise_turns(compiled):
    """"Each player begins the game with 35 Health"; "Players take turns in a clockwise order" (a
    hero out of the game has no more turns: the next one still standing plays)."""
    assert [p.health for p in table(compiled, [DRUID, DUELIST, SUN_ELF], "koth").seats] == [35, 35, 35]
    for seed in range(6):
        game, _ = bots_game(compiled, [DRUID, DUELIST, SUN_ELF], "koth", seed)
        last, out = None, set()
        for e in game.events:
            if e["e"] == "out":
                out.add(e["player"])
            elif e["e"] in ("turn", "turn_skipped"):
                expected = game.start_player if last is None else next(
                    s for s in ((last + k) % 3 for k in (1, 2, 3)) if s not in out)
                assert e["player"] == expected
                last = e["player"]


def test_koth_the_attacker_chooses_any_opponent(compiled):
    """"When Attacking, you may target any player desired"; "In King of the Hill variants, simply
    choose an opponent to Attack"."""
    game = table(compiled, [DRUID, DUELIST, SUN_ELF], "koth")
    attacking(game, 1)
    found, seen = drive(game.targeting(1, False), answers(ChoosePlayer=lambda r: r.players[0]))
    assert [r.players for r in seen if isinstance(r, ChoosePlayer)] == [(0, 2)]
    assert found == 0 and not events(game, "targeting_roll")


@pytest.mark.parametrize("health, attacker, defender, bonus", [
    ([30, 20, 20], 1, 0, True),  # the Leader (alone in the lead) attacked: a bonus card
    ([30, 30, 20], 1, 0, True),  # "If you Attack an opponent who is tied with you for the lead ... you
                                 # still draw 1 bonus card"
    ([30, 20, 20], 0, 1, False),  # "If you are the only Leader ..., you cannot earn a bonus card"
    ([20, 30, 30], 0, 2, True),  # two Leaders, neither the attacker: either gives it
    ([25, 20, 25], 1, 2, True),
])
def test_koth_the_leaders_bonus_card(compiled, health, attacker, defender, bonus):
    """"If you target a Leader with an Attack, you draw 1 card from your deck. The card draw happens
    immediately after choosing your target (before any other effects occur)"."""
    game = table(compiled, [DRUID, DUELIST, SUN_ELF], "koth")
    for p, h in zip(game.seats, health, strict=True):
        p.health = h
    attacking(game, attacker)
    hand = len(game.seats[attacker].hand)
    drive(game.targeting(attacker, False), answers(ChoosePlayer=lambda r: defender))
    assert len(game.seats[attacker].hand) == hand + bonus
    if bonus:
        kinds = [e["e"] for e in game.events]
        assert kinds[kinds.index("target") + 1:kinds.index("target") + 3] == ["leader_bonus", "draw"]


def test_koth_still_applies_at_two_players_left(compiled):
    """"When the game is down to 2 players, these rules still apply": the Leader's bonus card too, drawn
    as the Attack's first effect that needs its Defender comes (there is no one else to target)."""
    game = table(compiled, [DRUID, DUELIST, SUN_ELF], "koth", dice=[3] * 20)
    game.hurt(2, 35)
    game.check_defeat()
    assert game.over is None and game.out == {2}
    game.seats[0].health, game.seats[1].health = 20, 25
    assert game.opponents(0) == [1] and game.leaders() == [1]
    p = game.seats[0]
    index = next(i for i, a in enumerate(p.abilities) if a.kind == "offensive"
                 and any(game.vm._aimed(o.chunk) for o in a.options))
    game.phase, game.roll = "Offensive Roll Phase", [1, 2, 3, 4, 5]
    hand = len(p.hand)
    drive(game.activate(0, index, 0), answers(ChoosePlayer=lambda r: r.players[0]))
    assert [e["e"] for e in game.events if e["e"] in ("target", "leader_bonus")] == ["target", "leader_bonus"]
    assert events(game, "target")[0]["defender"] == 1 and not events(game, "targeting_roll")
    assert len(p.hand) == hand + 1
    game.seats[0].health = 30  # now she alone leads: no bonus card for attacking the other
    hand = len(p.hand)
    drive(game.activate(0, index, 0), answers(ChoosePlayer=lambda r: r.players[0]))
    assert len(events(game, "leader_bonus")) == 1 and len(p.hand) == hand


def test_a_defeated_hero_leaves_the_game(compiled):
    """"The moment your health is reduced to 0, you have been defeated": with three players she is out
    (her statuses and cards leave, she has no more turns) and the others play on to the last one."""
    for seed in range(10):
        game, result = bots_game(compiled, [DRUID, DUELIST, SUN_ELF], "koth", seed)
        out = [e["player"] for e in events(game, "out")]
        if result.reason != "defeat" or not out:
            continue
        first = out[0]
        gone = next(i for i, e in enumerate(game.events) if e["e"] == "out")
        later = game.events[gone + 1:]
        assert not [e for e in later if e["e"] == "turn" and e["player"] == first]
        assert not [e for e in later if e.get("player") == first and e["e"] in ("play", "spend", "roll")]
        assert result.winners == (result.winner,) and result.winner not in out
        assert not game.seats[first].tokens and not game.seats[first].hand
        return
    pytest.fail("no seeded game had a hero defeated before the end")


# -------------------------------------------------------------------- 5-6 players


@pytest.mark.parametrize("mode, heroes", [
    ("koth_5", [DRUID, DUELIST, SUN_ELF, FORGEMASTER, DRUID]),
    ("koth_6", [DRUID, DUELIST, SUN_ELF, FORGEMASTER, DRUID, DUELIST]),
    ("3v3", [DRUID, DUELIST, SUN_ELF, FORGEMASTER, DRUID, DUELIST]),
    ("2v2v2", [DRUID, DUELIST, SUN_ELF, FORGEMASTER, DRUID, DUELIST]),
])
def test_five_and_six_player_games_end(compiled, mode, heroes):
    """"Dice Throne can be played with up to 6 players, using King of the Hill or Team Game rules"."""
    game, result = bots_game(compiled, heroes, mode, 2)
    assert result.reason in ("defeat", "draw")
    if result.winner is not None:
        side = game.team_of[result.winner]
        assert set(result.winners) == {s for s in range(len(heroes)) if game.team_of[s] == side}


# ------------------------------------------------------------- the words for many players


def test_the_words_for_many_players(compiled):
    """`a chosen teammate`, `you or a chosen teammate`, `the Leader`, `the opponent on your left`."""
    from dtc.vm import RunContext

    game = table(compiled, TEAMS, "2v2")
    ctx = RunContext(0, None)
    assert game.players_for(ctx, "chosen_teammate") == [1]
    assert game.players_for(ctx, "self_or_chosen_teammate") == [0, 1]
    assert game.players_for(ctx, "left_opponent") == [2]
    assert game.players_for(ctx, "right_opponent") == [3]
    assert game.players_for(ctx, "each_opponent") == [2, 3]
    hill = table(compiled, [DRUID, DUELIST, SUN_ELF], "koth")
    hill.seats[1].health = 40
    assert hill.players_for(ctx, "leader") == [1]
    assert hill.players_for(ctx, "chosen_teammate") == []


def test_a_druid_gives_regenerate_to_a_teammate(compiled):
    """Druid Form: "at the conclusion of your turn, you or a chosen teammate gains Regenerate" (with a
    teammate there is a choice, and the teammate may be the one)."""
    from dtc.vm import RunContext

    game = table(compiled, TEAMS, "2v2")
    druid = game.seats[0].table
    chunk = next(i for i, c in enumerate(compiled.chunks)
                 if c.hero == druid.index and "chosen teammate gains Regenerate" in c.text)
    asked = []
    drive(game.vm.run(chunk, RunContext(0, druid.index), game, game.rng),
          lambda r: asked.append(r) or 1)
    regenerate = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Regenerate")
    assert asked and asked[0].players == (0, 1)
    assert len(game.seats[1].tokens.get(regenerate, [])) == 1


WORDS_CARDS = """  - name: Topple
    kind: action
    authored: a test card
    timing: instant
    cost: 0
    effect: Deal 2 dmg to the Leader.

  - name: Both Ways
    kind: action
    authored: a test card
    timing: instant
    cost: 0
    effect: Deal 1 dmg to the opponent on your left. Deal 3 dmg to the opponent on your right.
"""


def test_cards_with_the_words_for_many_players_do_what_they_say(compiled, tmp_path):
    """The new targets lint clean and the engine does them: `the Leader` (each of them, if several),
    `the opponent on your left` / `on your right` (P2's in 2v2: P3 clockwise, and P4 the other way
    round past her teammate P1); printed as cards say it, through the phrasebook."""
    from tests.test_engine import compiled_with_cards

    extra = compiled_with_cards(tmp_path, "duelist.yaml", WORDS_CARDS)
    hill = table(extra, [DRUID, DUELIST, SUN_ELF], "koth")
    hill.seats[1].health = hill.seats[2].health = 40
    card = give_card(hill, 1, "Topple")
    drive(hill.run(card.card.chunk, hill.ctx(1, hill.seats[1].table.index)), answers())
    assert [(e["target"], e["amount"]) for e in events(hill, "deal")] == [(1, 2), (2, 2)]
    team = table(extra, TEAMS, "2v2")
    card = give_card(team, 1, "Both Ways")
    drive(team.run(card.card.chunk, team.ctx(1, team.seats[1].table.index)), answers())
    assert [(e["target"], e["amount"]) for e in events(team, "deal")] == [(2, 1), (3, 3)]


def test_a_mode_of_sides_of_different_sizes_is_simulated(tmp_path):
    """A mode lint accepts plays in `dtc simulate --mode` too (issue "Hardening": "Lint accepts ⇒
    compile and run succeed"): sides of 2 and 1 heroes raised a ValueError (exit 3) in the seat
    rotation, and `--all` counted every side as the first one's size. Such sides keep their seats."""
    import json
    import shutil

    from click.testing import CliRunner

    from dtc.cli.main import cli

    root = tmp_path / "content"
    shutil.copytree("content", root)
    rules = root / "rules" / "vanguard-2.4.3.yaml"
    rules.write_text(rules.read_text().replace("modes:\n", "modes:\n  uneven:\n    players: 3\n"
                                               "    starting_health: 30\n    teams: [[1, 2], [3]]\n"
                                               "    turn_order: clockwise\n    targeting: choose\n", 1))
    runner = CliRunner()
    one = runner.invoke(cli, ["simulate", "--mode", "uneven", "--heroes", "druid,duelist,sun_elf", "--games",
                              "4", "--seed", "1", "--format", "json", "--ruleset", str(root)])
    assert one.exit_code == 0, one.output
    [played] = json.loads(one.output)["tables"]
    assert [side["heroes"] for side in played["sides"]] == [["Druid", "Duelist"], ["Sun Elf"]]
    assert played["games"] == 4
    every = runner.invoke(cli, ["simulate", "--mode", "uneven", "--all", "--games", "1", "--format", "json",
                                "--ruleset", str(root)])
    assert every.exit_code == 0, every.output
    tables = [[side["heroes"] for side in t["sides"]] for t in json.loads(every.output)["tables"]]
    # 4 heroes: a team of two (6 ways) against one of the two left (2 ways), each table once
    assert len(tables) == 12 and all(len(pair) == 2 and len(lone) == 1 for pair, lone in tables)
    assert all(len({*pair, *lone}) == 3 for pair, lone in tables)
    assert len({(tuple(pair), tuple(lone)) for pair, lone in tables}) == 12


def test_a_ruleset_without_the_1v1_game_is_refused_at_its_modes(tmp_path):
    """Every command plays 1v1 unless told another mode ("Game Setup": "for a 1v1 game"): a ruleset
    without it, or with a 1v1 of three players, is refused by lint where the modes are written."""
    import shutil

    from dtc import project

    root = tmp_path / "content"
    shutil.copytree("content", root)
    rules = root / "rules" / "vanguard-2.4.3.yaml"
    rules.write_text(rules.read_text().replace("  1v1:\n    players: 2\n", "  duel:\n    players: 2\n", 1))
    marvel = root / "rules" / "marvel.yaml"
    marvel.write_text(marvel.read_text().replace("  1v1:\n    players: 2\n", "  1v1:\n    players: 3\n", 1))
    errors = project.run([root]).errors
    assert sorted((d.code, d.span.path.rsplit("/", 1)[-1], d.message) for d in errors) == [
        ("S001", "marvel.yaml", "`players` must be one of `2`; got `3`"),
        ("S004", "vanguard-2.4.3.yaml", "`modes` is missing `1v1`")]
