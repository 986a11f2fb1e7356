"""Dice Throne Adventures Portal Crawl (003_bd4cabbe7964005d.txt, "Portal Crawl" to "Completing the
Portal Crawl", "2. Record Win / Loss")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc import artifact, project
from dtc.adventures.battle import HeroBot
from dtc.adventures.crawl import Crawl, Tile, play_crawls
from dtc.cli.main import cli
from dtc.compiler import compile_content
from dtc.dicethrone.requests import Act
from dtc.dicethrone.state import Card
from dtc.vm import ChoosePlayers

ROOT = Path(__file__).resolve().parent.parent


def crawl(compiled, heroes=(0,), card=0, seed=1, **kw) -> Crawl:
    return Crawl(compiled, list(heroes), card, seed, **kw)


def open_map(game: Crawl, rows: list[str]) -> None:
    """Replace the map: `S` start, `P` portal, `1` unexplored, `x` explored."""
    game.tiles = {}
    for r, row in enumerate(rows):
        for c, mark in enumerate(row.split()):
            if mark != ".":
                game.tiles[(r, c)] = Tile("1" if mark == "x" else mark, explored=mark in "Sx")


def test_hero_setup_comes_from_the_team_size_row(compiled):
    """"Hero Setup": "In a 2-player game each Hero will start with 18 Health and the Gold dial will
    be set to 10"; "as per a normal Dice Throne match, gain 2 CP and draw 4"."""
    game = crawl(compiled, heroes=(0, 3))
    assert [p.health for p in game.players] == [18, 18]
    assert game.gold == 10
    assert [p.cp for p in game.players] == [2, 2]
    assert all(len(p.hand) == 4 for p in game.players)
    assert sum(game.salves) == 3 and game.positions == [game.positions[0]] * 2
    assert game.tiles[game.positions[0]].mark == "S"  # "Place your Hero Standees on the Crimson Sands"


def test_moves_are_orthogonal_through_explored_tiles_to_an_unexplored_one(compiled):
    """"2. Move": "You cannot: Move between Environment tiles diagonally. Travel through unexplored
    Environment tiles.\""""
    game = crawl(compiled)
    open_map(game, ["S x 1",
                    "1 . 1",
                    "1 1 P"])
    game.positions = [(0, 0)]
    # (1, 0) is next to the start; (0, 2) past the explored (0, 1); (2, 0) only through (1, 0)
    assert sorted(game.destinations(0)) == [(0, 2), (1, 0)]


def test_the_boss_portal_opens_with_the_three_portal_shards(compiled):
    """"The Boss Portal may not be explored until all 3 Portal Shards have been collected"."""
    game = crawl(compiled)
    open_map(game, ["S x P"])
    game.positions = [(0, 0)]
    game.shards = 2
    assert game.destinations(0) == []
    game.shards = 3
    assert game.destinations(0) == [(0, 2)]


def test_an_engaged_teammate_is_joined_never_passed(compiled):
    """"B. An ongoing Minion Battle: Join a teammate who is currently engaged"; "You cannot: Travel
    through a teammate who is currently engaged with a Minion"; an explored tile is a destination
    only with an engaged teammate on it."""
    game = crawl(compiled, heroes=(0, 3))
    open_map(game, ["S x x 1"])
    game.positions = [(0, 0), (0, 2)]
    game.engaged = [None, object()]
    assert game.destinations(0) == [(0, 2)]  # the unexplored (0, 3) is behind her
    game.engaged = [None, None]
    assert game.destinations(0) == [(0, 3)]


def test_a_hero_not_engaged_must_move_and_explores_where_she_goes(compiled):
    """"You must move on your turn if you are not already engaged with a Minion"; "3. Explore":
    collect the Portal Shard and Salves, then flip the tile (Health, Gold, the minion)."""
    game = crawl(compiled, record=True)
    start = game.positions[0]
    gold = game.gold
    game.take_turn(0)
    assert game.positions[0] != start
    tile = game.tiles[game.positions[0]]
    assert tile.explored and tile.environment
    env = next(e for e in compiled.adventure["environments"] if e["name"] == tile.environment)
    assert game.gold >= gold + env["gold"]
    kinds = [e["e"] for e in game.events]
    assert kinds.index("move") < kinds.index("explore")
    if env["minion"]:
        assert "minion" in kinds and "engage" in kinds


def test_portal_shards_salves_and_chests_are_collected_on_exploring(compiled):
    """"Place collected Portal Shards on the Boss Portal. Place collected Salves on your Hero board.
    Open Loot Chests, with all players rolling their Loot die"."""
    game = crawl(compiled, heroes=(0, 3), record=True)
    place = (0, 1)
    game.tiles[place] = Tile("1", shard=True, salves=1, chest=1)
    before = list(game.salves)
    game.explore(0, place)
    assert game.shards == 1
    assert game.salves[0] == before[0] + 1 and game.salves[1] == before[1]
    loots = [e for e in game.events if e["e"] == "loot"]
    assert [e["player"] for e in loots] == [0, 1]  # every hero rolls for a chest
    row = compiled.adventure["loot_table"][0]
    for e in loots:  # the row of the die's value: the first whose `upto` reaches it
        assert 1 <= e["value"] <= 20
        assert e["reward"] == next(r for r in row if e["value"] <= r["upto"])


def test_the_loot_die_is_a_d20_of_the_ruleset(compiled):
    """"When a King's Hand token is spent, roll a Loot die: On 1-10, ... On 11-15, ... On 16-20"
    ("Boss vs Many Mode"): the Loot die runs 1 to 20; it is a die of the ruleset."""
    assert compiled.adventure["loot_die"] == 20
    loot = next(d for d in compiled.data["dice"] if d["name"] == "Loot")
    assert sorted(int(v) for v in loot["faces"]) == list(range(1, 21))
    game = crawl(compiled)
    rolls = {game.loot_roll() for _ in range(400)}
    assert rolls == set(range(1, 21))


def test_a_loot_table_that_leaves_rolls_without_a_reward_is_refused(tmp_path):
    errors = lint_adventure(tmp_path, lambda t: t.replace("{upto: 20, gold: 3}]", "{upto: 19, gold: 3}]", 1))
    assert any(code == "C038" and "Chest 1's rows must rise to 20" in m for code, m in errors), errors


@pytest.mark.parametrize("old, new, says", [
    ("table: [{upto: 8, loot: common}", "table: [{upto: 16, loot: common}",
     "the Boss Loot table's rows must rise to 20"),
    ("kings_hand: King's Hand      #", "kings_hand: Queen's Hand      #", "unknown status `Queen's Hand`"),
    ('targeting: {"2": [3, 6],', 'targeting: {"2": [6, 3],',
     "the targeting roll for 2 Heroes needs 2 rising"),
])
def test_boss_loot_and_boss_vs_rules_that_do_not_hold_are_refused(tmp_path, old, new, says):
    errors = lint_adventure(tmp_path, lambda t: t.replace(old, new, 1))
    assert any(says in m for _, m in errors), errors


def test_a_teammate_spends_a_salve_to_revive_and_no_hero_revives_herself(compiled):
    """"A teammate must immediately spend a Salve to restore you to 1 Health. You cannot revive
    yourself.\""""
    game = crawl(compiled, heroes=(0, 3))
    game.salves = [2, 0]
    assert not game.revive(0)  # her own Salves do not count
    game.salves = [0, 1]
    assert game.revive(0) and game.salves == [0, 0] and game.salves_used == 1
    solo = crawl(compiled)
    solo.salves = [5]
    assert not solo.revive(0)


def test_a_hero_who_cannot_be_revived_loses_the_crawl_for_the_team(compiled):
    """"If you cannot be revived, then the whole team loses the Portal Crawl"; "C. Session Score:
    Write "-10"."""
    for seed in range(40):
        game = crawl(compiled, card=3, seed=seed, record=True)
        result = game.play()
        if result.reason == "defeat":
            assert not result.won and result.score == -10
            assert game.players[0].health <= 0
            return
    pytest.fail("no seeded solo crawl of scenario 7 was lost")


def test_the_crawl_is_won_when_the_portal_minion_falls_and_no_hero_is_engaged(compiled):
    """"Once you defeat the Level IV Minion revealed after exploring the Boss Portal tile and all
    Heroes are not engaged with a Minion, your team has won the scenario.\""""
    game = crawl(compiled, heroes=(0, 3), record=True)
    result = game.play()
    assert result.won and result.reason == "portal"
    portal = next(e for e in game.events if e["e"] == "explore" and e["environment"] == "Boss Portal")
    minion = next(e for e in game.events if e["e"] == "minion" and e["turn"] == portal["turn"])
    assert minion["level"] == 4
    assert game.shards == 3 and all(e is None for e in game.engaged)


def test_a_won_session_is_scored_by_rows_b_d_f_g(compiled):
    """"B. Remaining Salves: 1 Scenario Point for each", "D. Unspent Gold: 1 Scenario Point for every
    5", "F. Explored All tiles: 5 Scenario Points", "G. Scenario Score"."""
    game = crawl(compiled)
    game.salves = [2]
    game.gold = 27
    for tile in game.tiles.values():
        tile.explored = True
    result = game.finish(True, "portal")
    assert result.score == 2 + 5 + 5 + compiled.adventure["difficulties"][0]["scenario_score"]


def test_seeded_crawls_keep_their_counts_sane_and_always_end(compiled):
    """Property over seeded bot crawls of every card and team size: Gold and Salves never negative,
    every crawl ends with a known reason."""
    for card in range(len(compiled.adventure["scenarios"])):
        for heroes in ((1,), (0, 2), (0, 1, 2, 3)):
            for seed in range(3):
                game = crawl(compiled, heroes, card, seed)
                result = game.play()
                assert result.reason in ("portal", "defeat")
                assert game.gold >= 0 and min(game.salves) >= 0
                assert result.salves_left == sum(game.salves)


def test_the_same_seed_gives_the_same_crawls(compiled):
    a = play_crawls(compiled, [0, 3], 1, 5, 0, 6)
    b = play_crawls(compiled, [0, 3], 1, 5, 0, 6)
    assert a == b and a.games == 6


def test_simulate_gives_the_same_numbers_for_any_number_of_jobs():
    """Issue "Dice Throne Adventures", Done when: `dtc adventure simulate --heroes druid,sun_elf
    --scenario 1 --games 200 --seed 1 --format json` gives the same numbers with --jobs 1 and 2."""
    args = ["adventure", "simulate", "--heroes", "druid,sun_elf", "--scenario", "1", "--games", "60",
            "--seed", "1", "--format", "json"]
    one = CliRunner().invoke(cli, args + ["--jobs", "1"])
    two = CliRunner().invoke(cli, args + ["--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.output) == json.loads(two.output)
    report = json.loads(one.output)
    assert report["games"] == 60 and 0 < report["win_rate"] <= 1
    assert report["endings"].keys() <= {"portal", "defeat", "turn limit"}


@pytest.mark.parametrize("args, says", [
    (["--heroes", "druid", "--scenario", "9"], "not a scenario of the campaign"),
    (["--heroes", "druid,nobody"], "no hero `nobody`"),
    (["--heroes", "druid,druid,druid,druid,druid"], "1 to 4 heroes"),
    (["--heroes", "druid", "--difficulty", "nightmare"], "--difficulty nightmare"),
])
def test_simulate_refuses_what_it_cannot_play(args, says):
    out = CliRunner().invoke(cli, ["adventure", "simulate", *args])
    assert out.exit_code == 2 and says in out.output and "Traceback" not in out.output


NEW_MINION = """\
minion_set: A designer's minion
authored: a test minion
dice: Chaos
minions:
  - name: Dust Wraith
    level: 1
    health: 6
    cp: 2
    roll_objective: 2 [Five]
    offensive:
      - name: Wail
        requires: 2 [Five]
        effect: Deal 3 dmg.
    defensive:
      - name: Fade
        dice: 1
        effect: On 6, prevent 2 dmg.
"""


def test_a_new_minion_added_as_yaml_alone_fights_in_a_simulated_crawl(tmp_path):
    """Issue "Dice Throne Adventures", Done when: "A new minion is added as YAML alone and fights in
    a simulated crawl"."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "adventures" / "dust-wraith.yaml").write_text(NEW_MINION)
    result = project.run([content])
    assert not result.errors, [d.message for d in result.errors]
    loaded = artifact.load(artifact.to_bytes(compile_content(result.content)))
    fought = 0
    for seed in range(20):
        game = Crawl(loaded, [0], 0, seed, record=True)
        game.play()
        fought += any(e["e"] == "minion" and e["minion"] == "Dust Wraith" for e in game.events)
    assert fought > 0


def lint_adventure(tmp_path, edit) -> list:
    text = (ROOT / "content/adventures/portal-crawls.yaml").read_text()
    folder = tmp_path / "c"
    folder.mkdir()
    shutil.copy(ROOT / "content/adventures/minions.yaml", folder)
    shutil.copy(ROOT / "content/statuses/adventures.yaml", folder / "statuses.yaml")
    (folder / "crawl.yaml").write_text(edit(text))
    return [(d.code, d.message) for d in project.run([folder]).errors]


@pytest.mark.parametrize("old, new, says", [
    ('      - ". 1 1 ."\n      - "S 1 1 P"', '      - ". 1 1 ."\n      - "S 1 1 1"', "has 0 `P`"),
    ('      - "S 1 1 P"\n      - ". 1 1 ."', '      - "S 1 1 P"\n      - ". 1 1"', "have different lengths"),
    ('shards: [[0, 1], [2, 2], [0, 2]]', 'shards: [[0, 1], [2, 2]]', "places 2 Portal Shards"),
    ('shards: [[0, 1], [2, 2], [0, 2]]', 'shards: [[0, 1], [2, 2], [1, 0]]',
     "row 1, column 0 is not an Environment"),
    ('      - ". 1 1 ."\n      - "S 1 1 P"\n      - ". 1 1 ."',
     '      - ". 1 1 . 1"\n      - "S 1 1 P ."\n      - ". 1 1 . ."', "cannot be reached"),
])
def test_a_map_that_cannot_be_played_is_refused(tmp_path, old, new, says):
    """"Building the Map": one Crimson Sands, one Boss Portal, the 3 Portal Shards on Environments,
    "You cannot: Move between Environment tiles diagonally" (every tile reachable)."""
    errors = lint_adventure(tmp_path, lambda t: t.replace(old, new, 1))
    assert any(code == "C038" and says in message for code, message in errors), errors


def test_environments_showing_a_minion_level_nobody_has_are_refused(tmp_path):
    """"Draw and reveal a new level I/II/III/IV Minion card from its deck": the deck must hold one."""
    assert lint_adventure(tmp_path, lambda t: t) == []
    # without the minion file, no minion of any level is loaded
    folder = tmp_path / "c"
    (folder / "minions.yaml").unlink()
    errors = [(d.code, d.message) for d in project.run([folder]).errors]
    assert any(code == "C038" and "no minion of that level" in m for code, m in errors)
    assert any(code == "C038" and "level IV minion" in m for code, m in errors)


def test_a_defeated_minion_rewards_the_active_player_and_its_chest_every_hero(compiled):
    """"Minion Rewards: When this Minion is defeated, only the Active Player receives the indicated
    reward. However, Loot Chests always have something in them for all Heroes. For example, when
    the Raging Berserker is defeated, the team is rewarded a Legendary Loot Chest"."""
    berserker = next(len(compiled.heroes) + i for i, m in enumerate(compiled.minions)
                     if m["name"] == "Raging Berserker")
    assert compiled.players[berserker]["minion"]["reward"] == {"chest": 4}
    game = crawl(compiled, heroes=(0, 3), record=True)
    game.reveal_minion(1, (0, 1), 3, portal=False)
    engagement = game.engaged[1]
    engagement.minion = berserker
    game.defeat_minion(1, engagement)
    loots = [e for e in game.events if e["e"] == "loot"]
    assert [(e["player"], e["chest"]) for e in loots] == [(0, 4), (1, 4)]
    assert game.engaged == [None, None]
    fairy = next(len(compiled.heroes) + i for i, m in enumerate(compiled.minions) if m["name"] == "Fairy")
    gold = game.gold
    game.reveal_minion(0, (0, 1), 1, portal=False)
    game.engaged[0].minion = fairy
    game.defeat_minion(0, game.engaged[0])
    assert game.gold == gold + compiled.players[fairy]["minion"]["reward"]["gold"]


def test_the_narrated_crawl_draws_the_map_heroes_minions_and_items():
    """Issue "Dice Throne Adventures", CLI: "The terminal draws the map (explored tiles, heroes,
    engaged minions, shards, chests), ... Gold and Salves"."""
    out = CliRunner().invoke(cli, ["adventure", "crawl", "--heroes", "druid,sun_elf", "--seed", "3"])
    assert out.exit_code == 0, out.output
    text = out.output
    first_map = text.split("-- turn 1")[0]
    assert "[S AB]" in first_map  # both standees on the Crimson Sands
    assert "1*" in first_map and "c" in first_map and "+" in first_map  # a shard, a chest, a salve face down
    assert "Gold 10, Portal Shards 0/3" in first_map and "18 Health" in first_map
    assert "!" in text and "fighting" in text  # an engaged minion on the map, and beside the team
    assert "#" in text  # explored tiles
    assert "P*" in text or "Portal Shards 3/3" in text  # the Boss Portal opens
    last_turn = text.split("-- turn ")[-1]
    assert any(f"   The team {end} the Portal Crawl" in last_turn for end in ("wins", "loses"))


def test_the_narrated_crawl_is_the_simulated_one():
    """The same seed and card give the same crawl whether watched or simulated."""
    out = CliRunner().invoke(cli, ["adventure", "crawl", "--heroes", "druid", "--seed", "5"])
    assert out.exit_code == 0, out.output
    from dtc import rulesets

    loaded = rulesets.builtin()
    result = Crawl(loaded, [loaded.hero("druid")[0]], 0, 5).play()
    assert f"Session Score {result.score}" in out.output
    assert out.output.count("-- turn ") == result.turns


def test_an_environment_tiles_action_is_done_by_the_hero_who_explores_it(compiled):
    """"3. Explore": "Deal with mandatory actions or optional choices. Unless otherwise specified,
    these only apply to you" (after the tile's Health and Gold).  """
    envs = compiled.adventure["environments"]
    well = next(i for i, e in enumerate(envs) if e["name"] == "Quiet Well")  # Gain 1 CP.
    assert envs[well]["chunk"] is not None
    game = crawl(compiled, heroes=(0, 3), record=True)
    game.environments[1] = [envs[well]]  # the next level I tile drawn is the Quiet Well
    place = next(p for p, t in game.tiles.items() if t.mark == "1" and not t.shard and not t.chest
                 and not t.salves)
    cp = [p.cp for p in game.players]
    game.explore(1, place)
    assert [p.cp for p in game.players] == [cp[0], cp[1] + 1]  # hers alone
    assert any(e["e"] == "tile_effect" and e["player"] == 1 for e in game.events)


def test_an_environment_action_is_checked_like_any_effect(tmp_path):
    errors = lint_adventure(tmp_path, lambda t: t.replace("effect: Gain 1 CP., authored: tile",
                                                          "effect: Frobnicate 1 CP., authored: tile", 1))
    assert errors and any("Frobnicate" in m for _, m in errors)


class PlaysCard(HeroBot):
    """The heuristic hero bot that plays `card` at its first chance in a Main Phase and, asked to choose
    players, keeps what it was offered and answers `choose` (or every player offered)."""

    def __init__(self, seed: int, card: str, choose=None):
        super().__init__(seed)
        self.card, self.choose = card, choose
        self.played = False
        self.offered: tuple[int, ...] | None = None

    def answer(self, game, request):
        if isinstance(request, Act) and request.window == "main" and not self.played:
            hand = game.seats[request.player].hand
            for i, action in enumerate(request.actions):
                if action.kind == "play" and hand[action.ref].card.name == self.card:
                    self.played = True
                    return i
        if isinstance(request, ChoosePlayers):
            self.offered = request.players
            return list(self.choose if self.choose is not None else request.players)
        return super().answer(game, request)


def engaged_crawl(compiled, heroes: tuple[int, ...], card: str) -> Crawl:
    """Each hero engaged with her own level I minion on its own tile, hero 0 holding the Loot card
    `card` and the CP to play it."""
    game = crawl(compiled, heroes=heroes, record=True)
    for k in range(len(heroes)):
        game.reveal_minion(k, (0, k + 1), 1, portal=False)
    hero = game.players[0]
    hero.hand.append(Card(10_000, hero.table.loot[card]))
    hero.cp = 5
    return game


def test_an_effect_on_each_opponent_reaches_the_minions_engaged_with_teammates(compiled):
    """003_bd4cabbe7964005d.txt, "Portal Crawl: Minion Battle": "Cards and abilities that affect multiple
    opponents may be applied to multiple Minions, regardless of who the Minions are engaged with."
    Chain Lightning (`Deal 2 dmg to each opponent.`) played in hero 0's battle hits her minion and her
    teammate's; her Attack stays on her own minion (the other loses exactly the 2)."""
    game = engaged_crawl(compiled, (0, 3), "Chain Lightning")
    mine, theirs = (game.engaged[k].foe.player for k in (0, 1))
    before = (mine.health, theirs.health)
    game.humans = {0: PlaysCard(1, "Chain Lightning")}
    game.battle_round(0)
    assert game.humans[0].played
    assert theirs.health == before[1] - 2
    assert mine.health <= before[0] - 2
    # the teammate's minion is back in its own battle, seat 1 there, and fights on
    assert theirs.seat == 1 and len(game.engaged[0].battles[0].seats) == 2
    game.battle_round(1)
    assert game.engaged[1] is None or game.engaged[1].foe.player is theirs


def test_up_to_two_chosen_opponents_may_be_minions_engaged_with_anyone(compiled):
    """The same rule for a choice: Volley (`Deal 3 dmg to up to 2 chosen opponents.`) offers every
    minion in play, and the two chosen, both engaged with teammates, take the 3."""
    game = engaged_crawl(compiled, (0, 1, 3), "Volley")
    foes = [game.engaged[k].foe.player for k in range(3)]
    before = [p.health for p in foes]
    game.humans = {0: PlaysCard(1, "Volley", choose=[2, 3])}
    game.battle_round(0)
    assert game.humans[0].offered == (1, 2, 3)
    assert [p.health for p in foes[1:]] == [before[1] - 3, before[2] - 3]


def test_a_minion_felled_from_another_battle_is_defeated_for_the_active_player(compiled):
    """A minion engaged with a teammate falls to hero 0's Chain Lightning: it is defeated ("only the
    Active Player receives the indicated reward"), and the teammate is free."""
    game = engaged_crawl(compiled, (0, 3), "Chain Lightning")
    theirs = game.engaged[1]
    theirs.foe.player.health = 2
    game.humans = {0: PlaysCard(1, "Chain Lightning")}
    game.battle_round(0)
    assert theirs.minion in game.defeated and game.engaged[1] is None
    assert next(e for e in game.events if e["e"] == "defeated")["player"] == 0


def test_an_effect_on_one_opponent_stays_in_its_battle(compiled):
    """Only what affects several opponents reaches further: Tripwire (`Inflict Knockdown.`) knocks
    down hero 0's own minion, never her teammate's."""
    game = engaged_crawl(compiled, (0, 3), "Tripwire")
    knockdown = next(i for i, s in enumerate(compiled.statuses) if s["name"] == "Knockdown")
    game.humans = {0: PlaysCard(1, "Tripwire")}
    game.battle_round(0)
    assert game.humans[0].played
    mine, theirs = (game.engaged[k].foe.player for k in (0, 1))
    assert not theirs.tokens.get(knockdown)
    assert mine.tokens.get(knockdown) or any(e["e"] == "remove" and e.get("status") == "Knockdown"
                                             for e in game.engaged[0].battles[0].events)
