"""Dice Throne Adventures Loot cards, the Shop and the Boss Loot (003_bd4cabbe7964005d.txt, "Loot
Cards", "Upgrading Loot Cards", "Deck Size Limit", "Shop", "Boss Loot", FAQ)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from dtc import project
from dtc.adventures import loot
from dtc.adventures.campaign import Campaign, play_session
from dtc.adventures.crawl import Crawl
from dtc.adventures.loot import Deck, LootDecks

ROOT = Path(__file__).resolve().parent.parent


def test_the_shop_rounds_the_gold_dial_up_for_every_hero():
    """"Example: If the Gold dial shows 27 Gold, increase this to 30, and all Heroes have 30 Gold to
    spend.\""""
    assert loot.gold_per_hero(27) == 30
    assert loot.gold_per_hero(30) == 30 and loot.gold_per_hero(0) == 0


DEAL = {"common": 2, "rare": 1}  # the built-in Portal Crawl cards' Shop cards


def test_prices_are_the_price_tag_and_a_higher_level_pays_the_difference(compiled):
    """"Price Tag for its cost: Common 10, Rare 15, Epic 20, Legendary 25"; "If you buy a Loot card of
    a higher level than one already in your deck ..., pay only the difference in the two card's
    costs".  """
    shop = compiled.adventure["shop"]
    assert loot.prices(compiled) == {"common": 10, "rare": 15, "epic": 20, "legendary": 25}
    assert (shop["identify"], shop["sell"]) == (10, 5)
    deck = Deck()
    assert loot.price(compiled, deck, "Mending Draught II") == 15
    loot.add(compiled, deck, "Mending Draught II", None)
    assert loot.price(compiled, deck, "Mending Draught III") == 20 - 15
    loot.add(compiled, deck, "Mending Draught III", None)
    assert deck.added == ["Mending Draught III"]  # "you must remove the lower level card from your deck"


def test_no_lower_level_and_no_second_card_of_a_name(compiled):
    """"You may not buy lower level versions of Loot cards already in your deck"; "You cannot have two
    Hero Action or Equipment cards of the same name in your deck".  """
    deck = Deck(added=["Sharpened Edge III"])
    assert loot.placement(compiled, deck, "Sharpened Edge II") == (False, "Sharpened Edge III")
    assert loot.placement(compiled, deck, "Sharpened Edge III")[0] is False


def test_a_swap_card_replaces_the_non_loot_card_in_the_deck(compiled):
    """"Loot cards featuring a Swap icon indicate it replaces a non-Loot card"; the non-Loot card "will
    not be used in any future session during this campaign".  """
    deck = Deck()
    loot.add(compiled, deck, "Second Wind II", None)
    assert deck.removed == ["Second Wind"]
    plain = Crawl(compiled, [0], 0, 1).players[0]
    before = [c.card.name for c in plain.deck + plain.hand]
    swapped = Crawl(compiled, [0], 0, 1, decks=[deck]).players[0]
    after = [c.card.name for c in swapped.deck + swapped.hand]
    assert "Second Wind II" in after and len(after) == len(before)
    assert after.count("Second Wind") == before.count("Second Wind") - 1  # one of its 2 copies


def test_loot_cards_bought_are_in_the_next_sessions_deck(compiled):
    deck = Deck(added=["Kingslayer", "Phoenix Tear"])
    game = Crawl(compiled, [0], 0, 1, decks=[deck])
    names = [c.card.name for c in game.players[0].deck + game.players[0].hand]
    assert names.count("Kingslayer") == 1 and names.count("Phoenix Tear") == 1
    assert len(names) == loot.deck_size(compiled, 0, deck)


def test_an_empty_loot_deck_draws_from_the_next_highest_rarity(compiled):
    """FAQ: "What happens if I run out of cards in a Loot deck? A: Draw from the next highest rarity
    Loot deck instead.\""""
    piles = LootDecks(compiled, [], random.Random(1))
    commons = len(piles.piles["common"])
    drawn = [piles.draw("common") for _ in range(commons + 1)]
    info = loot.facts(compiled)
    assert [info[n]["rarity"] for n in drawn[:commons]] == ["common"] * commons
    assert info[drawn[-1]]["rarity"] == "rare"


def test_the_deck_limit_removes_the_cheapest_loot_card(compiled, monkeypatch):
    """"You can have a maximum of 50 cards in your deck. If you go above this amount you must remove a
    Loot card from your deck". The built-in heroes' decks are too small for 20 Loot cards to pass 50,
    so the limit is lowered to show the rule.  """
    assert compiled.adventure["deck_limit"] == 50
    monkeypatch.setitem(compiled.adventure, "deck_limit", 40)
    names = [n for n in loot.facts(compiled) if loot.facts(compiled)[n]["swaps"] is None]
    deck = Deck()
    for name in names:
        if loot.placement(compiled, deck, name)[0]:
            loot.add(compiled, deck, name, None)
    base = loot.deck_size(compiled, 0, Deck())
    room = compiled.adventure["deck_limit"] - base
    assert len(deck.added) > room  # the test would prove nothing otherwise
    loot.keep_under_limit(compiled, 0, deck, None)
    assert loot.deck_size(compiled, 0, deck) == compiled.adventure["deck_limit"]
    assert "Kingslayer" in deck.added  # a Legendary stays, the Commons go first


def test_the_shop_buys_what_the_gold_pays_for(compiled):
    decks = [Deck(), Deck()]
    result = loot.shop(compiled, [0, 3], decks, 27, DEAL, random.Random(4))
    info = loot.facts(compiled)
    for bought, deck in zip(result.bought, decks, strict=True):
        assert sum(loot.prices(compiled)[info[n]["rarity"]] for n in bought) <= 30
        assert set(bought) <= set(deck.added)
    tag = loot.prices(compiled)
    assert result.unspent == 60 - sum(tag[info[n]["rarity"]] for b in result.bought for n in b)


def test_boss_loot_adds_cards_or_counts_them_unclaimed(compiled):
    """"Boss Loot": each player rolls the Loot die and takes the top card of the Loot deck the Boss
    Loot table names, adding it or discarding it for 1 Scenario Point.  """
    decks = [Deck(), Deck()]
    unclaimed = loot.boss_loot(compiled, [0, 3], decks, 2, 20, random.Random(2))
    assert unclaimed >= 0 and sum(len(d.added) for d in decks) + unclaimed <= 4
    assert sum(len(d.added) for d in decks) >= 1


def test_a_campaign_carries_its_decks_from_session_to_session(compiled):
    camp = Campaign(["Druid", "Sun Elf"], "Normal", 3)
    play_session(compiled, camp)  # a Portal Crawl, then the Shop
    assert len(camp.decks) == 2 and any(d.added for d in camp.decks)
    again = Campaign(["Druid", "Sun Elf"], "Normal", 3)
    play_session(compiled, again)
    assert [d.to_json() for d in again.decks] == [d.to_json() for d in camp.decks]  # seeded
    from dtc.adventures.campaign import from_json

    assert [d.to_json() for d in from_json(camp.to_json(), "x").decks] == [d.to_json() for d in camp.decks]


def test_loot_lint_names_a_doubled_level_and_an_unknown_swap(tmp_path):
    folder = tmp_path / "c"
    shutil.copytree(ROOT / "content", folder)
    path = folder / "adventures" / "loot.yaml"
    text = path.read_text()
    text = text.replace("family: Sharpened Edge, level: 3", "family: Sharpened Edge, level: 2", 1)
    text = text.replace("swaps: Focus,", "swaps: Focuss,", 1)
    path.write_text(text)
    errors = [(d.code, d.message) for d in project.run([folder]).errors]
    said = "`Sharpened Edge III` and `Sharpened Edge II` are both level 2 of `Sharpened Edge`"
    assert ("C038", said) in errors
    assert any(code == "C024" and "swaps `Focuss`" in m for code, m in errors)


def equip_game(compiled, name: str):
    """A Minion Battle whose hero holds the Equipment card `name` in hand with CP to play it."""
    from dtc.adventures.battle import MinionBattle

    minion = compiled.indices_of("minion")[0]
    game = MinionBattle(compiled, 0, minion, 3, record=True)
    p = game.seats[0]
    table = p.table
    from dtc.dicethrone.state import Card

    p.hand = [Card(90_000, table.loot[name])]
    p.cp = 5
    game.active = 0
    game.phase = "Main Phase (1)"
    return game, p


def test_an_equipment_card_stays_in_play_and_its_effects_act(compiled):
    """"Equipment Cards": "Pay its required CP and place it face-up next to your Hero board. All
    effects of the card are active at all times and the card remains in play for the duration of the
    scenario.\""""
    from dtc.agents.base import drive

    game, p = equip_game(compiled, "Lucky Charm")
    equip = next(a for a in game.actions(0, "main") if a.kind == "equip")
    assert equip.label == "equip Lucky Charm (2 CP)"
    drive(game, [None, None], game.perform(0, equip))
    assert p.cp == 3 and [c.card.name for c in p.equipment] == ["Lucky Charm"] and p.hand == []
    before = p.cp
    drive(game, [None, None], game.upkeep(0))  # "During your Upkeep Phase, gain 1 CP."
    assert p.cp == before + 1


def test_a_third_equipment_card_discards_the_first(compiled):
    """"If you wish to play an Equipment card, but already have 2 in play, you must first discard one
    (no CP is gained).\""""
    from dtc.agents.base import drive
    from dtc.dicethrone.state import Card

    game, p = equip_game(compiled, "Lucky Charm")
    def equip_first() -> None:
        action = next(a for a in game.actions(0, "main") if a.kind == "equip")
        drive(game, [None, None], game.perform(0, action))

    for uid, name in ((90_001, "Troll Hide Cloak"), (90_002, "Lucky Charm")):
        equip_first()
        p.hand = [Card(uid, p.table.loot[name])]
        p.cp = 5
    equip_first()
    assert [c.card.name for c in p.equipment] == ["Troll Hide Cloak", "Lucky Charm"]
    assert p.cp == 5 - 2 and any(e["e"] == "unequip" for e in game.events)
    assert sum(a.name == "Lucky Charm" for a in p.abilities) == 1


def test_an_equipment_card_reads_as_equipment_at_the_table(compiled):
    texts = {c["name"]: c["text"] for s in compiled.data["card_sets"] for c in s["cards"]}
    assert texts["Lucky Charm"] == "Equipment: During your Upkeep Phase, gain 1 CP."


def test_an_unidentified_loot_card_from_a_chest_is_identified_or_sold_at_the_shop(compiled):
    """Loot Table: "Gain Unidentified Loot Card: Take the top card from the Common/Rare/Epic/Legendary
    Loot deck. Without looking at it, tuck it face-down"; Shop: "IDENTIFY: Spend 10 Gold to Identify
    an Unidentified Loot card. The identified Loot card is instantly added to your deck"; "SELL:
    Unidentified Loot cards ... may be sold for 5 Gold each".  """
    row = compiled.adventure["loot_table"][3]
    assert any(r["kind"] == "loot" for r in row)
    game = Crawl(compiled, [0, 3], 0, 5, record=True)
    for _ in range(6):
        game.open_chest(4)
    got = [e for e in game.events if e["e"] == "loot" and e["reward"]["kind"] == "loot"]
    assert got and sum(len(u) for u in game.unidentified) == len(got)
    held = [list(u) for u in game.unidentified]
    decks = [Deck(), Deck()]
    result = loot.shop(compiled, [0, 3], decks, 10, DEAL, random.Random(1), held)  # 10 Gold: one Identify
    for k, names in enumerate(held):
        if names:
            assert names[0] in decks[k].added or result.bought[k]  # the first identified (or replaced)
    rich = [Deck(), Deck()]
    loot.shop(compiled, [0, 3], rich, 0, DEAL, random.Random(1), held)  # no Gold: every card is sold
    assert all(name not in d.added for d, names in zip(rich, held, strict=True) for name in names)


def test_the_shop_and_loss_rules_are_the_adventures_data(compiled, monkeypatch):
    """Rules as data: the Shop cards dealt are the Portal Crawl card's (`shop_deal`: "Deal each player a
    hand of Loot cards of the amount and type indicated in the Conclusion section of the Scenario
    card"), the Boss Loot chests the Boss's (`boss_loot`), the loss row the adventure's (`loss`).
    Changed in the data, the campaign plays by them."""
    from dtc.adventures.crawl import CrawlResult

    assert compiled.adventure["loss"] == {"score": -10, "salves": 3}  # "Write "-10""; "3 more"
    dealt = []
    real_shop = loot.shop
    monkeypatch.setattr(loot, "shop", lambda *a, **kw: dealt.append(a[4]) or real_shop(*a, **kw))
    card = compiled.adventure["scenarios"][0]
    monkeypatch.setitem(card, "shop_deal", {"common": 0, "rare": 0, "epic": 0, "legendary": 1})
    monkeypatch.setitem(compiled.adventure, "loss", {"score": -7, "salves": 1})
    monkeypatch.setattr(Crawl, "play", lambda self, after_turn=None: CrawlResult(
        False, "defeat", 10, 1, 0, 0, False, 3, self.data["loss"]["score"]))
    for k in range(4):
        monkeypatch.setitem(compiled.adventure["scenarios"][k], "shop_deal", card["shop_deal"])
    camp = Campaign(["Druid", "Sun Elf"], "Normal", 1, starting_salves=4)
    session = play_session(compiled, camp)
    assert session.score == -7 and camp.starting_salves == 5
    assert dealt == [{"common": 0, "rare": 0, "epic": 0, "legendary": 1}]


def test_boss_loot_is_rolled_once_a_chest_of_the_bosss_card(compiled, monkeypatch):
    """"perform the following steps a number of times equal to the quantity of chests shown under
    "Boss Loot" in the Conclusion section of the Boss Battle Scenario card\""""
    chests = []
    monkeypatch.setattr(loot, "boss_loot",
                        lambda artifact, heroes, decks, n, faces, rng: chests.append(n) or 0)
    boss = next(b for b in compiled.indices_of("boss") if compiled.players[b]["boss"]["scenario"] == 2)
    assert compiled.players[boss]["boss"]["boss_loot"] == 2
    monkeypatch.setitem(compiled.players[boss]["boss"], "boss_loot", 3)
    play_session(compiled, Campaign(["Druid", "Sun Elf"], "Normal", 1, scenario=2))
    assert chests == [3]
