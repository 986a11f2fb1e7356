"""Loot cards in a campaign: the heroes' decks between sessions, the Shop and the Boss Loot.

003_bd4cabbe7964005d.txt, "Loot Cards", "Upgrading Loot Cards", "Deck Size Limit", "Shop",
"Boss Loot", FAQ ("What happens if I run out of cards in a Loot deck? A: Draw from the next highest
rarity Loot deck instead").
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from dtc.artifact import Artifact
from dtc.dicethrone.state import Card, Player

RARITIES = ("common", "rare", "epic", "legendary")
# The prices, Identify and Sell, the deck limit and the Boss Loot table are the adventure's data
# (`shop`, `deck_limit`, `boss_loot`); the Shop cards dealt, each Portal Crawl card's (`shop_deal`);
# the Boss Loot chests, each Boss's (`boss_loot`).


def prices(artifact: Artifact) -> dict[str, int]:
    """The Shopkeeper leaflet's Price Tag, by rarity."""
    return artifact.adventure["shop"]["prices"]


@dataclass
class Deck:
    """What a hero's deck holds beyond her own cards: the Loot cards added, the cards swapped out."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"added": list(self.added), "removed": list(self.removed)}


def facts(artifact: Artifact) -> dict[str, dict]:
    """Each Loot card's rarity, family, level and swap, by name."""
    return {x["name"]: x for x in artifact.data.get("loot", ())}


def apply_deck(player: Player, deck: Deck, uid: int) -> None:
    """Put a campaign's Loot cards in a hero's deck and take out what they swapped (before the deck
    is shuffled): new cards are numbered from `uid`."""
    for name in deck.removed:
        found = next((i for i, c in enumerate(player.deck) if c.card.name == name), None)
        if found is not None:
            player.deck.pop(found)
    for k, name in enumerate(deck.added):
        definition = player.table.loot.get(name)
        if definition is not None:
            player.deck.append(Card(uid + k, definition))


def deck_size(artifact: Artifact, hero: int, deck: Deck) -> int:
    from dtc.dicethrone.tables import hero_tables

    return len(hero_tables(artifact)[hero].deck) + len(deck.added) - len(deck.removed)


class LootDecks:
    """The four Loot decks of a session: every Loot card no hero's deck holds, shuffled."""

    def __init__(self, artifact: Artifact, decks: list[Deck], rng: random.Random):
        taken = {name for d in decks for name in d.added}
        self.rng = rng
        self.piles = {r: [n for n, x in facts(artifact).items() if x["rarity"] == r and n not in taken]
                      for r in RARITIES}
        for pile in self.piles.values():
            rng.shuffle(pile)

    def draw(self, rarity: str) -> str | None:
        """The top card of the rarity's deck; an empty deck gives the next highest rarity's (FAQ)."""
        for r in RARITIES[RARITIES.index(rarity):]:
            if self.piles[r]:
                return self.piles[r].pop()
        return None

    def bottom(self, name: str, rarity: str) -> None:
        """"place it at the bottom of its Loot deck\""""
        self.piles[rarity].insert(0, name)


def placement(artifact: Artifact, deck: Deck, name: str) -> tuple[bool, str | None]:
    """Whether the Loot card `name` may join the deck, and the card it replaces: a lower level of its
    family (or, with the Swap icon, the non-Loot card it swaps). "You cannot have two Hero Action or
    Equipment cards of the same name"; "You may not buy lower level versions of Loot cards already in
    your deck"."""
    info = facts(artifact)
    new = info[name]
    if name in deck.added:
        return False, None
    for held in deck.added:
        other = info.get(held)
        if other is not None and other["family"] == new["family"]:
            return (new["level"] > other["level"]), held
    if new["swaps"] is not None:
        return new["swaps"] not in deck.removed, new["swaps"]
    return True, None


def add(artifact: Artifact, deck: Deck, name: str, piles: LootDecks | None) -> None:
    """Put the card in the deck, taking out what it replaces ("Any time you would like to add a Loot
    card of a higher level ... you must remove the lower level card from your deck": a Loot card to
    the bottom of its Loot deck, a non-Loot card out of the campaign)."""
    ok, replaces = placement(artifact, deck, name)
    if not ok:
        raise ValueError(f"{name} cannot join this deck")
    info = facts(artifact)
    if replaces is not None and replaces in deck.added:
        deck.added.remove(replaces)
        if piles is not None:
            piles.bottom(replaces, info[replaces]["rarity"])
    elif replaces is not None:
        deck.removed.append(replaces)
    deck.added.append(name)


def price(artifact: Artifact, deck: Deck, name: str) -> int:
    """Its price, or only the difference when it replaces a lower level Loot card ("pay only the
    difference in the two card's costs")."""
    info = facts(artifact)
    _, replaces = placement(artifact, deck, name)
    tag = prices(artifact)
    full = tag[info[name]["rarity"]]
    if replaces is not None and replaces in deck.added:
        return max(0, full - tag[info[replaces]["rarity"]])
    return full


def keep_under_limit(artifact: Artifact, hero: int, deck: Deck, piles: LootDecks | None) -> None:
    """"If you go above this amount you must remove a Loot card from your deck": the cheapest first."""
    info = facts(artifact)
    tag = prices(artifact)
    while deck_size(artifact, hero, deck) > artifact.adventure["deck_limit"] and deck.added:
        cheapest = min(deck.added, key=lambda n: tag[info[n]["rarity"]])
        deck.added.remove(cheapest)
        if piles is not None:
            piles.bottom(cheapest, info[cheapest]["rarity"])


@dataclass
class ShopResult:
    bought: list[list[str]]  # by hero
    unspent: int  # the team's Gold left after the Shop (summed over the heroes)


def shop(artifact: Artifact, heroes: list[int], decks: list[Deck], gold: int, deal: dict[str, int],
         rng: random.Random, unidentified: list[list[str]] | None = None) -> ShopResult:
    """"Shop": every hero gets the Gold dial rounded up to the nearest 10 ("If the Gold dial shows 27
    Gold, increase this to 30, and all Heroes have 30 Gold to spend"), is dealt Loot cards, and (a bot)
    first Identifies her Unidentified Loot cards she can place (10 Gold; "If you Identify a Loot card
    of a lower level than one already in your deck, place the lower level card on the bottom of its
    Loot deck and draw a replacement") or Sells them (5 Gold), then buys the rarest dealt card she can
    pay for and place, then the next; cards dealt (`deal`: how many of each rarity, the Scenario
    card's) and not bought go back."""
    held = {name for u in unidentified or [] for name in u}
    piles = LootDecks(artifact, [*decks, Deck(added=sorted(held))], rng)
    each = gold_per_hero(gold)
    bought: list[list[str]] = []
    unspent = 0
    info = facts(artifact)
    identify, sell = artifact.adventure["shop"]["identify"], artifact.adventure["shop"]["sell"]
    for k, (hero, deck) in enumerate(zip(heroes, decks, strict=True)):
        purse = each
        mine = []
        for name in (unidentified[k] if unidentified else []):
            card, tries = name, 0
            while card is not None and not placement(artifact, deck, card)[0] and tries < 50:
                piles.bottom(card, info[card]["rarity"])
                card, tries = piles.draw(info[name]["rarity"]), tries + 1
            if card is not None and purse >= identify and placement(artifact, deck, card)[0]:
                purse -= identify  # "The identified Loot card is instantly added to your deck"
                add(artifact, deck, card, piles)
                mine.append(card)
            elif card is not None:
                purse += sell  # "may be sold for 5 Gold each. ... place it at the bottom of its Loot deck"
                piles.bottom(card, info[card]["rarity"])
        dealt = [name for rarity in RARITIES for _ in range(deal.get(rarity, 0))
                 if (name := piles.draw(rarity)) is not None]
        for name in sorted(dealt, key=lambda n: -RARITIES.index(info[n]["rarity"])):
            cost = price(artifact, deck, name)
            if placement(artifact, deck, name)[0] and cost <= purse:
                add(artifact, deck, name, piles)
                purse -= cost
                mine.append(name)
            else:  # "These cards do not belong to you": back to the bottom of its deck
                piles.bottom(name, info[name]["rarity"])
        keep_under_limit(artifact, hero, deck, piles)
        bought.append(mine)
        unspent += purse
    return ShopResult(bought, unspent)


def gold_per_hero(gold: int) -> int:
    """"Round the amount on the Gold dial up to the nearest Gold": 27 -> 30."""
    return int(math.ceil(gold / 10) * 10)


def boss_loot(artifact: Artifact, heroes: list[int], decks: list[Deck], chests: int, loot_faces: int,
              rng: random.Random) -> int:
    """"Boss Loot", once per chest: each player rolls the Loot die, takes the top card of the Loot deck
    the Boss Loot table names and adds it to her deck, or discards it for 1 Scenario Point (returned,
    "Unclaimed Boss Loot"). A card she could not place (a lower level) goes to the bottom and another
    is drawn. The bot keeps every card it can place."""
    piles = LootDecks(artifact, decks, rng)
    info = facts(artifact)
    table = artifact.adventure["boss_loot"]
    unclaimed = 0
    for _ in range(chests):
        for hero, deck in zip(heroes, decks, strict=True):
            value = rng.randint(1, loot_faces)
            rarity = next(r["rarity"] for r in table if value <= r["upto"])
            name = piles.draw(rarity)
            tries = 0
            while name is not None and not placement(artifact, deck, name)[0] and tries < 50:
                piles.bottom(name, info[name]["rarity"])
                name, tries = piles.draw(rarity), tries + 1
            if name is None or not placement(artifact, deck, name)[0]:
                unclaimed += name is not None
                continue
            add(artifact, deck, name, piles)
            keep_under_limit(artifact, hero, deck, piles)
    return unclaimed
