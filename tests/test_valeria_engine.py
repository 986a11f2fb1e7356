"""The Kingdoms of Valeria engine against the rulebook (002_76d1292095cadf00.txt): every worked
example, the marking, reward, Statue, Domain, Lair and end rules, solo and Winter."""

from __future__ import annotations

import copy
import random

import pytest

from dtc import artifact
from dtc.opcodes import Op
from dtc.valeria.engine import Game, ValeriaError, count
from dtc.vm import ChoosePlace


def game(compiled, players=1, sheet=None, solo=False, seed=1) -> Game:
    g = Game(compiled, players, seed=seed, sheet=sheet, solo=solo)
    g.setup()
    g.active = 0
    return g


def drive(generator, *answers, default=0):
    """Run a phase; answer the requests in order (a callable or an option label or index)."""
    pending = list(answers)
    asked = []
    try:
        request = next(generator)
        while True:
            asked.append(request)
            answer = pending.pop(0) if pending else default
            if callable(answer):
                answer = answer(request)
            elif isinstance(answer, str):
                found = [i for i, o in enumerate(request.options) if answer in o]
                assert found, f"no option `{answer}` in {request.options}"
                answer = found[0]
            request = generator.send(answer)
    except StopIteration:
        pass
    return asked


def section(g, label):
    return next(i for i, c in enumerate(g.sheet["citizens"]) if c["label"] == label)


def track(g, guild):
    return next(i for i, t in enumerate(g.sheet["tracks"]) if g.rules["guilds"][t["guild"]] == guild)


def lair(g, name):
    return next(i for i, x in enumerate(g.sheet["lairs"]) if x["name"] == name)


def road(g, origin, to):
    return next(i for i, r in enumerate(g.sheet["roads"]) if r["from"] == origin and r["to"] == to)


def domain(g, name):
    return next(i for i, d in enumerate(g.sheet["domains"]) if d["name"] == name)


def set_dice(g, black=(1, 1), yellow=1, red=1, green=1, blue=1):
    g.dice = {"harvest 1": black[0], "harvest 2": black[1], "Yellow": yellow, "Red": red, "Green": green,
              "Blue": blue}


# ------------------------------------------------------------ worked examples


def test_davids_harvest(compiled):
    """"Harvest Phase": 4, 5 and sum 9; 1 pip on the 4 (Soldier), 2 on the 5 (Worker), none on 9/10."""
    g = game(compiled)
    me = g.players[0]
    me.citizens[section(g, "4")] = 1
    me.citizens[section(g, "5")] = 2
    me.citizens[section(g, "6")] = 0
    set_dice(g, black=(4, 5))
    drive(g.harvest())
    assert me.tracks[track(g, "Soldier")] == 1 and me.tracks[track(g, "Worker")] == 2
    assert me.tracks[track(g, "Holy")] == me.tracks[track(g, "Shadow")] == 0


def test_kiras_harvest_with_full_tracks_marks_one_pip_of_her_choice(compiled):
    """"Harvest Phase": 3, 3 and 6; Shadow and Soldier tracks full, so one Holy pip instead."""
    g = game(compiled)
    me = g.players[0]
    me.citizens[section(g, "3")] = 2
    me.citizens[section(g, "6")] = 2
    me.tracks[track(g, "Shadow")] = me.tracks[track(g, "Soldier")] = 24
    set_dice(g, black=(3, 3))
    asked = drive(g.harvest(), "Holy")
    assert asked[0].purpose == "mark 1 Guild Track pip"
    assert me.tracks[track(g, "Holy")] == 1 and me.tracks[track(g, "Worker")] == 0


def test_doubles_activate_a_citizen_twice(compiled):
    g = game(compiled)
    me = g.players[0]
    me.citizens = [0] * len(me.citizens)
    me.citizens[section(g, "3")] = 2
    set_dice(g, black=(3, 3))
    drive(g.harvest())
    assert me.tracks[track(g, "Shadow")] == 4  # "Rolling doubles ... activate each matching Citizen twice"


def test_kiras_recruit_choice(compiled):
    """"Yellow Die = Recruit Action": Yellow 2 and Blue 6: the 2 Citizen or the 8 Citizen."""
    g = game(compiled)
    set_dice(g, yellow=2, blue=6, red=6, green=6)
    recruits = [g.describe(0, m) for m in g.moves(0) if m.action == "recruit"]
    assert recruits == ["Recruit the 2 Citizen (Yellow 2)", "Recruit the 8 Citizen (Yellow 2 + Blue 6)"]
    drive(g.action(0), "Recruit the 2 Citizen")
    assert g.players[0].citizens[section(g, "2")] == 1


def test_levis_slay_with_the_blue_die_and_the_gold_reward(compiled):
    """"Red Die = Slay Action": Red 4, Blue 6: the second pip of the second Range Block, a Gold pip;
    and 1 Gold for slaying."""
    g = game(compiled)
    me = g.players[0]
    warren = lair(g, "Goblin Warren")
    me.lairs[warren][1] = 1
    set_dice(g, red=4, blue=6, yellow=6, green=6)
    slays = [g.describe(0, m) for m in g.moves(0) if m.action == "slay" and "Goblin" in g.describe(0, m)]
    assert slays == ["Slay Goblin Warren 1-6 (Red 4)", "Slay Goblin Warren 7-12 (Red 4 + Blue 6)"]
    drive(g.action(0), "Slay Goblin Warren 7-12")
    assert me.lairs[warren] == [0, 2]
    assert me.gold == 2  # the Gold Reward Pip, then the Slay action's own Gold


def test_levi_completes_a_lair_first_and_takes_the_high_vp(compiled):
    g = game(compiled, players=2)
    levi, other = g.players
    warren = lair(g, "Goblin Warren")
    levi.lairs[warren] = [2, 2]
    set_dice(g, red=6, blue=2)
    drive(g.action(0), "Slay Goblin Warren 7-12")
    assert levi.lair_vp[warren] == 5 and levi.gold == 1
    other.lairs[warren] = [2, 2]
    g.active = 1
    set_dice(g, red=6, blue=2)
    drive(g.action(1), "Slay Goblin Warren 7-12")
    assert other.lair_vp[warren] == 3  # "Other players can still finish that Monster Lair ... the lower VP"


def test_the_same_move_with_or_without_blue_is_offered_once(compiled):
    """A Build that marks the same pips, a Slay of the same Range Block, with or without Blue, are
    one move: offered once (the first way)."""
    g = game(compiled)
    me = g.players[0]
    first = road(g, "Start 1", "Willowmere")
    me.roads[first] = len(g.sheet["roads"][first]["pips"]) - 2  # 2 pips left
    set_dice(g, green=3, blue=2, red=2, yellow=6)
    labels = [g.describe(0, m) for m in g.moves(0)]
    assert [x for x in labels if x.startswith("Build Start 1 -> Willowmere")] == [
        "Build Start 1 -> Willowmere, 2 pip(s) (Green 3)"]
    goblin = [x for x in labels if x.startswith("Slay Goblin Warren 1-6")]
    assert goblin == ["Slay Goblin Warren 1-6 (Red 2)"]  # Red 2 + Blue 2 = 4 is the same block
    assert len(labels) == len(set(x.split(" (")[0] for x in labels))


def test_davids_build_stops_at_a_domain(compiled):
    """"Green Die = Build Action": Green 5 from the upper-left starting pip: 2 pips, the Domain, stop."""
    g = game(compiled)
    me = g.players[0]
    set_dice(g, green=5, blue=2, yellow=6, red=6)
    drive(g.action(0), "Build Start 1 -> Willowmere, 2 pip(s) (Green 5)")
    assert me.roads[road(g, "Start 1", "Willowmere")] == 2
    assert domain(g, "Willowmere") in me.domains
    assert sum(me.roads) == 2  # "The remaining value of the Green die is lost"


def test_kiras_domain_dice_manipulation(compiled):
    """"Domain Powers": Green 3, Blue 1; flip Green to 4, add 1 to 5; Green + Blue: 6 Road pips to
    the Domain that gives a Soldier Citizen; she marks the first pip on the 4."""
    g = game(compiled)
    me = g.players[0]
    me.domains |= {domain(g, "Willowmere"), domain(g, "Thornfield")}
    set_dice(g, green=3, blue=1, yellow=6, red=6)
    drive(g.action(0),
          "Willowmere",                     # (1) flip the Green die: 3 -> 4
          "Thornfield", "Green 4 -> 5",     # (2) add 1 (no power is left to offer)
          "Build Willowmere -> Ironwatch, 6 pip(s) (Green 5 + Blue 1)",  # (3) six Road pips
          "the 4 Citizen")
    assert me.roads[road(g, "Willowmere", "Ironwatch")] == 6
    assert domain(g, "Ironwatch") in me.domains
    assert me.citizens[section(g, "4")] == 1


def test_kiras_final_score_of_80(compiled):
    """"Scoring": 17 Star pips, 9 Domains, 21 VP of Lairs, Statues 2 (9), 5 (12), 10 (12), 13 (0)."""
    g = game(compiled)
    me = g.players[0]
    for guild in ("Holy", "Worker", "Shadow"):
        me.tracks[track(g, guild)] = 24  # 3 stars each
    me.citizens[section(g, "4")] = me.citizens[section(g, "6")] = 2
    me.citizens[section(g, "11/12")] = 2  # 6 Soldier pips, one of them a Star
    me.wall = 3  # one Star
    for name, vp in (("Goblin Warren", 5), ("Troll Bridge", 7), ("Wyvern Roost", 9)):
        i = lair(g, name)
        me.lairs[i] = [len(b["pips"]) for b in g.sheet["lairs"][i]["blocks"]]  # 2 Stars each
        me.lair_vp[i] = vp
    me.domains = set(range(9))
    me.statues = [2, 5, 10, 13]
    g.finish()
    score = g.over.scores[0]
    assert (score.stars, score.domains, score.lairs) == (17, 9, 21)
    assert score.statue_vp == {2: 9, 5: 12, 10: 12}
    assert score.statues == 33 and score.total == 80


def test_levis_winter_slay_needs_access(compiled):
    """"Winter Rules": a Lair can be slain only with access; the 5/3 VP Lair is open from the start,
    the others open by marking specific Domains; a Slay reward with nothing accessible is lost."""
    g = game(compiled, sheet="Winter")
    me = g.players[0]
    set_dice(g, red=3, blue=6, yellow=6, green=6)
    slays = {g.describe(0, m).split(" (")[0] for m in g.moves(0) if m.action == "slay"}
    assert slays == {"Slay Frost Hollow 1-6", "Slay Frost Hollow 7-12"}
    from dtc.valeria.narrate import sheet as draw

    assert "Ice Caves 6/4 (closed: claim Frostgate)" in draw(g, 0)  # the player sees what is shut
    me.domains.add(domain(g, "Frostgate"))
    assert "Ice Caves 6/4:" in draw(g, 0)
    slays = {g.describe(0, m).split(" (")[0] for m in g.moves(0) if m.action == "slay"}
    assert "Slay Ice Caves 1-8" in slays and "Slay Ice Caves 9-12" in slays
    # "Example: Levi's roll shows a 4 on the Red die and a 6 on the Blue die for a total of 10. He has
    # the Domain marked and has access to the 6/4 VP Monster Lair. He fills in the left-most pip in
    # the 9-12 Range Block, earning a Road Reward Pip ... he gains an additional 1 Gold"
    caves = lair(g, "Ice Caves")
    assert g.sheet["lairs"][caves]["vp"] == [6, 4]
    set_dice(g, red=4, blue=6, yellow=6, green=6)
    roads_before = sum(me.roads)
    drive(g.action(0), "no more powers", "Slay Ice Caves 9-12 (Red 4 + Blue 6)")
    assert me.lairs[caves] == [0, 1]  # the left-most pip of the 9-12 Range Block
    assert sum(me.roads) == roads_before + 1  # its Road Reward Pip
    assert me.gold == 1  # and the Slay action's Gold
    hollow = lair(g, "Frost Hollow")
    me.domains.clear()
    me.lairs[hollow] = [len(b["pips"]) for b in g.sheet["lairs"][hollow]["blocks"]]
    before = copy.deepcopy(me.lairs)
    assert g.lair_options(0) == []  # the Slay reward marks nothing
    assert me.lairs == before


# ----------------------------------------------------------------- the rules


def test_marking_never_skips_and_a_full_section_marks_nothing(compiled):
    """"Important Rules to Remember": left to right, no skipping; a completed section marks nothing."""
    g = game(compiled)
    me = g.players[0]
    for _ in range(len(g.sheet["wall"]) + 3):
        g.mark_next(0, "wall")
    assert me.wall == len(g.sheet["wall"])
    walls = [entry for entry in g.pip_log if entry[1] == "wall"]
    assert [entry[3] for entry in walls] == list(range(len(g.sheet["wall"])))


def test_a_road_reward_continues_a_road_or_leaves_a_claimed_domain(compiled):
    """"Reward Pips": "Road Reward Pip: Immediately mark a pip on your Forest sheet to continue a
    Road or start a Road leading away from a Domain you've claimed" (not from a starting pip, which
    only a Build may leave: "Green Die = Build Action")."""
    g = game(compiled)
    me = g.players[0]
    assert g.road_options(0) == []  # nothing begun, nothing claimed: the reward marks nothing
    assert len(g.buildable(0)) == len(g.sheet["starts"]) >= 4  # while a Build may start anywhere
    first = road(g, "Start 1", "Willowmere")
    me.roads[first] = 1
    assert g.road_options(0) == ["Start 1 -> Willowmere"]
    me.domains.add(domain(g, "Willowmere"))
    leaving = {g.sheet["roads"][r]["from"] for r in g._road_choices} if g.road_options(0) else set()
    assert leaving == {"Start 1", "Willowmere"}


def test_reward_chains_run_to_the_end(compiled):
    """"Reward Pips": marking one Reward Pip may cause a chain; follow it until it runs out."""
    g = game(compiled)
    g.phase = "action"
    me = g.players[0]
    # the 2 Citizen's second pip is a Gold reward; the Gold Chart's 3rd pip a Plinth
    me.citizens[section(g, "2")] = 1
    me.gold = 2
    g.mark_citizen_section(0, section(g, "2"))
    asked = drive(g.run_queue(0))
    assert me.gold == 3 and len(me.statues) == 1 and asked[0].purpose == "take a Statue"


def test_statues_in_the_harvest_wait_for_its_end_in_player_order(compiled):
    """"Important Timing Rules": Plinths filled in a Harvest are drafted after it, from the active
    player, and the line is refilled at the end of the phase."""
    g = game(compiled, players=2)
    for p in g.players:
        p.citizens = [0] * len(p.citizens)
        p.citizens[section(g, "2")] = 2  # Worker; the Worker track's 3rd pip is a Gold reward
        p.gold = 2  # the next Gold pip is a Plinth
        p.tracks[track(g, "Worker")] = 1
    set_dice(g, black=(2, 6))
    line = list(g.draft)
    asked = drive(g.harvest())
    takes = [r for r in asked if isinstance(r, ChoosePlace) and r.purpose == "take a Statue"]
    assert [r.player for r in takes] == [0, 1]
    assert [o.split(":")[0] for o in takes[1].options] == [f"Statue {n}" for n in line[1:]]  # not refilled
    assert len(g.draft) == 6 and all(len(p.statues) == 1 for p in g.players)


def test_at_most_four_statues_and_no_duplicates(compiled):
    g = game(compiled)
    me = g.players[0]
    g.draft = [1, 1, 2, 3, 4, 5]
    me.statues = [1]
    assert [o.split(":")[0] for o in g.statue_choices(0)] == ["Statue 2", "Statue 3", "Statue 4", "Statue 5"]
    assert g.statue_choices(0)[0] == "Statue 2: Gain 1 VP for every Domain."  # the card's text to choose by
    me.statues = [6, 7, 8, 9]
    assert g.statue_choices(0) == []


def test_instant_statues_act_when_taken(compiled):
    g = game(compiled)
    g.phase = "action"
    g.draft = [14, 1, 2, 3, 4, 5]
    me = g.players[0]
    g.statue_choices(0)
    g.take_statue(0, 0)
    drive(g.run_queue(0))
    assert me.gold == 3 and me.stars_bonus == 3 and 14 in me.statues


def test_performing_a_star_reward_counts_stars(tmp_path):
    """A Star pip gains 1 VP at the end ("Reward Pips"): performing Star Rewards counts as Stars
    (it used to compile to nothing)."""
    import shutil

    from conftest import ROOT

    from dtc import project
    from dtc.compiler import compile_content

    shutil.copytree(ROOT / "content" / "valeria", tmp_path / "valeria")
    statues = tmp_path / "valeria" / "statues.yaml"
    statues.write_text(statues.read_text().replace(
        "Immediately perform 3 Gold Rewards. Count this card as 3 Star pips.",
        "Immediately perform 3 Star Rewards."))
    front = project.run([tmp_path / "valeria"])
    assert front.errors == []
    loaded = artifact.load(artifact.to_bytes(compile_content(front.content, project.artifact_names(
        front, [tmp_path]))))
    g = game(loaded)
    g.phase = "action"
    g.draft = [14, 1, 2, 3, 4, 5]
    g.statue_choices(0)
    g.take_statue(0, 0)
    drive(g.run_queue(0))
    assert g.players[0].stars_bonus == 3 and g.players[0].gold == 0


def test_statue_7_counts_the_plinths_of_the_gold_chart_only(compiled):
    """002_76d1292095cadf00.txt, "Statue Cards" #7: "Gain 3 VPs for every Plinth Reward Pip you have
    marked in your Gold Chart". It counted the Plinths on the Guild Tracks and Citizens too (player
    QA: solo seed 11 scored 75, the sheet 72; a 3-player bot game named the wrong winner)."""
    g = game(compiled)
    me = g.players[0]
    plinth = next(i for i, r in enumerate(g.rules["rewards"]) if r["name"] == "Plinth")
    on_tracks = sum(pip == plinth for t in g.sheet["tracks"] for pip in t["pips"])
    assert on_tracks > 0  # the sheet has Plinths off the Gold Chart: the case that went wrong
    me.tracks = [len(t["pips"]) for t in g.sheet["tracks"]]  # every Guild Track full
    me.statues = [7]
    assert g.final_score(0).statue_vp[7] == 0
    me.gold = len(g.sheet["gold"])
    assert g.final_score(0).statue_vp[7] == 3 * g.sheet["gold"].count(plinth)


def test_a_road_leaving_a_voided_domain_cannot_be_begun(compiled):
    """"Event Phase": "Voided items cannot be gained or used — treat them as if they are not there".
    A road leading away from a claimed Domain that was then voided could still be built (player QA)."""
    g = game(compiled)
    me = g.players[0]
    road = next(r for r, (_, from_start, from_domain) in enumerate(g._road_opening)
                if from_domain is not None and not from_start)
    domain = g._road_opening[road][2]
    me.domains = {domain}
    assert road in g.buildable(0, from_starts=False)
    g.void(0, "domain", g.sheet["domains"][domain]["name"])
    assert road not in g.buildable(0, from_starts=False)


def test_the_sheet_shows_voided_domains_and_a_lair_value_taken(compiled):
    """A claimed Domain that was voided still showed as claimed while the tally left it out, and a
    Lair another player completed first still showed both values (player QA): "Voided items cannot
    be gained or used" ("Event Phase"); "The first player to complete a Monster Lair circles the
    higher VP value" ("Monster Lairs")."""
    from dtc.valeria.narrate import sheet as draw

    g = game(compiled, players=2)
    me = g.players[0]
    names = [d["name"] for d in g.sheet["domains"]]
    me.domains = {0, 1}
    g.void(0, "domain", names[1])
    g.void(0, "domain", names[2])
    shown = draw(g, 0)
    # the pip letters are explained under the sheet (they never were, player QA)
    assert shown.splitlines()[-1] == ("Pips      x marked  # void  . nothing  R Recruit  G Gold  D Road  "
                                      "K Knight  S Slay  P Plinth  * Star")
    domains = next(line for line in shown.splitlines() if line.startswith("Domains"))
    assert f"{names[1]} (void: not counted)" in domains and domains.endswith(f"{names[2]} (void)")
    assert names[0] in domains and f"{names[0]} (void" not in domains  # claimed, and counted
    roads = next(line for line in shown.splitlines() if line.startswith("Roads"))
    assert {names[0], names[1]} <= {r["from"] for r in g.sheet["roads"]}  # both open roads
    assert f" {names[0]}->" in f" {roads}"  # a claimed Domain's roads show
    assert f" {names[1]}->" not in f" {roads}"  # a voided one's do not: none can be begun from it
    caves = g.sheet["lairs"][0]
    g.first_completer[0] = 1
    assert f"{caves['name']} {caves['vp'][1]} (P2 took the {caves['vp'][0]})" in draw(g, 0)


def test_a_voided_domain_opens_no_winter_lair(compiled):
    """A Winter Lair opens with its Domain ("Winter Rules"); a voided Domain is "as if ... not there"
    ("Event Phase"), so the Lair it opened is closed again (code review)."""
    g = game(compiled, sheet="Winter")
    caves = lair(g, "Ice Caves")
    g.players[0].domains.add(domain(g, "Frostgate"))
    assert not g.lair_closed(0, caves)
    g.void(0, "domain", "Frostgate")
    assert g.lair_closed(0, caves)


def test_a_renamed_reward_is_counted_by_its_new_name(tmp_path):
    """Statue 7 counts the Plinth pips marked ("Gain 3 VPs for every Plinth pip"); the reward's
    name is content: renamed Pedestal in the rules and on the card, it scores the same."""
    import shutil

    from conftest import ROOT

    from dtc import project
    from dtc.compiler import compile_content

    def statue_7(folder):
        front = project.run([folder])
        assert front.errors == []
        loaded = artifact.load(artifact.to_bytes(compile_content(front.content, project.artifact_names(
            front, [folder.parent]))))
        g = game(loaded)
        g.players[0].gold = len(g.sheet["gold"])  # a full Gold Chart
        g.players[0].statues = [7]
        names = [g.rules["rewards"][pip]["name"] for pip in g.sheet["gold"] if pip >= 0]
        plinths = names.count("Plinth") + names.count("Pedestal")
        return g.final_score(0).statue_vp[7], plinths

    shutil.copytree(ROOT / "content" / "valeria", tmp_path / "valeria")
    standard, plinths = statue_7(tmp_path / "valeria")
    assert plinths > 0 and standard == 3 * plinths
    for name in ("rules.yaml", "statues.yaml", "castle-forest.yaml", "winter.yaml"):
        path = tmp_path / "valeria" / name
        path.write_text(path.read_text().replace("Plinth", "Pedestal"))
    assert statue_7(tmp_path / "valeria") == (standard, plinths)


def test_domain_powers_do_not_wrap_and_are_used_once(compiled):
    """"Important Manipulation Rules": no wrap-around; flip gives 7 - x; each power once per phase."""
    g = game(compiled)
    me = g.players[0]
    me.domains = {domain(g, "Thornfield"), domain(g, "Willowmere")}
    set_dice(g, green=6, red=1, yellow=1, blue=1)
    asked = drive(g.action(0), "Thornfield", lambda r: 0, "Willowmere", lambda r: 0)
    change = asked[1]
    assert change.options == ("Green 6 -> 5",)  # 6 cannot become 1
    assert g.dice["Green"] in (2,)  # 6 -> 5, then flipped to 2
    powers = [r for r in asked if r.purpose == "use a Domain power"]
    assert [len(r.options) for r in powers] == [3, 2]  # each power once, then no more asking


def test_the_end_comes_after_the_round_of_the_third_track(compiled):
    """"Game Flow": completing a 3rd Guild Track triggers the last round; everyone gets equal turns."""
    g = Game(compiled, 3, seed=2)
    g.setup()
    g.first = g.active = 0
    me = g.players[1]
    for guild in ("Holy", "Worker", "Shadow"):
        me.tracks[track(g, guild)] = 24
    g.check_end(1)
    assert g.end_triggered
    g.next_turn()  # 0 -> 1
    g.next_turn()  # 1 -> 2
    assert g.over is None
    g.next_turn()  # back to the first player: the round is over
    assert g.over is not None


def test_ties_go_to_the_most_stars(compiled):
    g = game(compiled, players=2)
    a, b = g.players
    a.domains = {0, 1, 2}
    b.domains = {0, 1}
    b.wall = 3  # one Star: 2 + 1 = 3 as well
    a.citizens = [0] * len(a.citizens)
    b.citizens = [0] * len(b.citizens)
    g.finish()
    assert [s.total for s in g.over.scores] == [3, 3] and g.over.winners == [1]


def test_voided_items_are_not_there(compiled):
    """"Solo Rules", "Event Phase": voided items cannot be gained or used."""
    g = game(compiled, solo=True)
    me = g.players[0]
    g.void(0, "citizen", "8")
    set_dice(g, yellow=2, blue=6)
    assert not any(m.action == "recruit" and m.value == 8 for m in g.moves(0))
    g.void(0, "lair", "Goblin Warren")
    assert "Goblin Warren" not in g.lair_options(0)
    me.citizens[section(g, "11/12")] = 2
    before = count(g.sheet, me, g.rules, "citizen_pips", None)
    g.void(0, "citizen", "11/12")
    assert count(g.sheet, me, g.rules, "citizen_pips", None) == before - 2


def test_solo_game_twenty_turns_events_second_harvest_and_band(compiled):
    g = Game(compiled, 1, seed=5, solo=True)
    requests = drive(g.play())
    assert g.over.turns == 20 and g.over.band is not None
    rolls = [e["dice"] for e in g.events if e["e"] == "turn"]
    doubled = sum(1 for d in rolls if d["harvest 1"] == d["harvest 2"])
    assert doubled and g.ships == min(6, doubled)  # an Event on each double, at most six
    assert any(e["e"] == "void" for e in g.events)
    doubles = [e for e in g.events if e["e"] == "solo_event"]
    assert len(doubles) == g.ships
    assert any(e["e"] == "roll" for e in g.events)  # the second Harvest's roll
    assert requests


def test_bad_setups_are_refused(compiled):
    with pytest.raises(ValeriaError, match="no sheet `Summer`"):
        Game(compiled, 2, seed=1, sheet="Summer")
    with pytest.raises(ValeriaError, match="a solo game has 1 player"):
        Game(compiled, 2, seed=1, solo=True)


# ------------------------------------------------------------- per opcode


def assemble(compiled, ops, consts=()):
    """A verified artifact with one extra Valeria chunk (registered as a Solo event)."""
    from dtc.chunk import Chunk

    image = copy.deepcopy(compiled.data)
    scratch = Chunk("test", 0, None)
    for op, *operands in ops:
        scratch.emit(op, *operands, line=1)
    image["chunks"].append({"owner": "test", "source": 0, "hero": None, "status": None,
                            "code": scratch.code.hex(), "consts": list(consts),
                            "lines": [[1, len(scratch.code)]], "prompts": {}})
    index = len(image["chunks"]) - 1
    image["valeria"]["events"][0]["cards"].append({"name": "test", "chunk": index})
    return artifact.load(artifact.to_bytes(image)), index


def run_ops(compiled, ops, consts=(), answers=(), prepare=None):
    loaded, index = assemble(compiled, ops, consts)
    g = game(loaded)
    g.phase = "action"
    set_dice(g, yellow=3, red=4, green=5, blue=6)
    if prepare:
        prepare(g)
    asked = drive(g.run(index, 0), *answers)
    return g, asked


def test_mark_track_asks_which_track(compiled):
    g, asked = run_ops(compiled, [(Op.PUSH, 2), (Op.MARK_TRACK,), (Op.END,)], answers=("Soldier", "Soldier"))
    assert asked[0].purpose == "mark a Guild Track pip" and g.players[0].tracks[track(g, "Soldier")] == 2


def test_mark_citizen_of_a_guild(compiled):
    g, asked = run_ops(compiled, [(Op.PUSH, 1), (Op.MARK_CITIZEN, 4), (Op.END,)])
    assert asked[0].options == ("the 4 Citizen", "the 6 Citizen", "the 11/12 Citizen")  # Soldier


def test_count_div_score(compiled):
    g, _ = run_ops(compiled, [(Op.COUNT_SHEET, 2, 0), (Op.PUSH, 3), (Op.DIV,), (Op.PUSH, 2), (Op.MUL,),
                              (Op.SCORE,), (Op.PUSH, 4), (Op.ADD_STARS,), (Op.END,)],
                   prepare=lambda g: setattr(g.players[0], "gold", 7))
    assert g.players[0].vp == 4 and g.players[0].stars_bonus == 4  # 7 Gold // 3 = 2, x 2 VP


def test_adjust_any_die_and_flip(compiled):
    g, asked = run_ops(compiled, [(Op.ADJUST_DIE, 0, 1, 1), (Op.FLIP_DIE, 2), (Op.END,)],
                       answers=("Blue 6 -> 5",))
    assert "Blue 6 -> 7" not in asked[0].options and len(asked[0].options) == 7
    assert g.dice["Blue"] == 5 and g.dice["Red"] == 3  # Red 4 flipped: 7 - 4


def test_void_and_mark_next(compiled):
    g, _ = run_ops(compiled, [(Op.VOID, 1, 0), (Op.PUSH, 2), (Op.MARK_NEXT, 1), (Op.END,)],
                   consts=("Mistral",))
    assert ("domain", "Mistral") in g.players[0].voided and g.players[0].wall == 2


def test_the_verifier_keeps_the_games_apart(compiled):
    image = copy.deepcopy(compiled.data)
    from dtc.chunk import Chunk

    scratch = Chunk("test", 0, None)
    scratch.emit(Op.PUSH, 1, line=1)
    scratch.emit(Op.DRAW, line=1)  # a Dice Throne instruction in a Valeria effect
    scratch.emit(Op.END, line=1)
    image["chunks"].append({"owner": "test", "source": 0, "hero": None, "status": None,
                            "code": scratch.code.hex(), "consts": [], "lines": [[1, len(scratch.code)]],
                            "prompts": {}})
    image["valeria"]["events"][0]["cards"].append({"name": "bad", "chunk": len(image["chunks"]) - 1})
    with pytest.raises(artifact.ArtifactError, match="DRAW at 0003 has no meaning in a Kingdoms of Valeria"):
        artifact.load(artifact.to_bytes(image))


def test_same_seed_same_game(compiled):
    def events(seed):
        g = Game(compiled, 3, seed=seed)
        r = random.Random(seed)
        drive(g.play(), default=lambda req: r.randrange(len(req.options)))
        return g.events
    assert events(4) == events(4) and events(4) != events(5)


def test_lairs_completed_together_in_a_harvest_go_by_turn_order_from_the_active_player(compiled):
    """"Monster Lairs": when Harvest rewards let several players complete the same Lair at once,
    priority follows turn order starting from the Active Player."""
    g = game(compiled, players=2)
    g.active = 1
    warren = lair(g, "Goblin Warren")
    for p in g.players:
        p.citizens = [0] * len(p.citizens)
        p.citizens[section(g, "1")] = 1  # Holy; the Holy track's 20th pip is a Slay reward
        p.tracks[track(g, "Holy")] = 19
        p.lairs[warren] = [2, 2]  # one pip left
    set_dice(g, black=(1, 5))
    asked = drive(g.harvest(), "Goblin Warren", "Goblin Warren")
    assert [r.player for r in asked if r.purpose == "mark a Lair pip"] == [1, 0]
    assert g.players[1].lair_vp[warren] == 5 and g.players[0].lair_vp[warren] == 3
