"""Property tests for the engine: whatever the heroes, seed and players, the rules hold.

Each example plays a whole game between bots (random bots reach odd corners,
heuristic bots play the game as meant) and checks, at every request the game
makes, the limits the rulebook sets (000_eaa64e0770891241.txt, "Rules of
Play"): "Health" (at most 10 above the starting Health), "Combat Points" (0
to 15), "Stack Limits", "Hero Cards" (every card is in exactly one place) and
"Discard Phase" (at most 6 cards in hand after it).  Every game ends, and the
same seed plays the same game.

`DTC_FUZZ_EXAMPLES` raises the number of games for long runs; CI runs the
default, smaller slice.
"""

from __future__ import annotations

from fuzzing import BOUND, examples
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dtc.agents.base import play
from dtc.agents.bots import HeuristicBot, RandomBot
from dtc.dicethrone.engine import MAX_TURNS, Game
from dtc.dicethrone.requests import Act

GAMES = settings(max_examples=examples(40), deadline=BOUND, suppress_health_check=[HealthCheck.too_slow])
HEROES = st.integers(0, 3)
BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


class Watcher:
    """An agent wrapper that checks the game's invariants before every answer."""

    def __init__(self, inner, limits: dict[int, int], rules):
        self.inner = inner
        self.name = inner.name
        self.limits = limits
        self.rules = rules
        self.requests = 0
        self.turn_seen = 0

    def answer(self, game: Game, request):
        self.requests += 1
        check_invariants(game, self.limits, self.rules)
        return self.inner.answer(game, request)


def check_invariants(game: Game, limits: dict[int, int], rules) -> None:
    uids = []
    for p in game.seats:
        assert 0 <= p.health <= p.start_health + rules.heal_cap, (p.seat, p.health)
        assert 0 <= p.cp <= rules.cp_max, (p.seat, p.cp)
        for status, tokens in p.tokens.items():
            assert len(tokens) <= limits[status], (game.a.statuses[status]["name"], len(tokens))
        places = [p.deck, p.hand, p.discard, list(p.upgrades.values()), p.covered, p.resolving,
                  *p.zones.values()]
        uids += [card.uid for place in places for card in place]
        # (`found` only marks the cards the last search took into the hand: not a place)
    assert len(uids) == len(set(uids)), "a card is in two places"
    assert sorted(uids) == list(range(sum(len(p.table.deck) for p in game.seats))), "a card went missing"


def stack_limits(compiled) -> dict[int, int]:
    return {i: s.get("stack_limit") or 99 for i, s in enumerate(compiled.statuses)}


def played(compiled, heroes, seed, kinds):
    game = Game(compiled, heroes, seed)
    agents = [Watcher(BOTS[kind](seed * 2 + seat), stack_limits(compiled), game.rules)
              for seat, kind in enumerate(kinds)]
    result = play(game, agents)
    check_invariants(game, stack_limits(compiled), game.rules)
    return game, result


@GAMES
@given(first=HEROES, second=HEROES, seed=st.integers(0, 2**32 - 1),
       kinds=st.tuples(st.sampled_from(sorted(BOTS)), st.sampled_from(sorted(BOTS))))
def test_any_game_keeps_the_rules_and_ends(compiled, first, second, seed, kinds):
    game, result = played(compiled, [first, second], seed, kinds)
    assert result is not None and game.over is result
    assert result.reason in ("defeat", "draw", "turn limit") and result.turns <= MAX_TURNS
    alive = [p.seat for p in game.seats if p.alive]
    if result.reason == "defeat":
        assert alive == [result.winner]
    elif result.reason == "draw":
        assert alive == []
    assert game.events[-1]["e"] == "end"


@settings(max_examples=examples(10), deadline=BOUND)
@given(seed=st.integers(0, 2**32 - 1), heroes=st.tuples(HEROES, HEROES))
def test_same_seed_same_game(compiled, seed, heroes):
    first, _ = played(compiled, list(heroes), seed, ("random", "heuristic"))
    again, _ = played(compiled, list(heroes), seed, ("random", "heuristic"))
    assert first.events == again.events


def test_heuristic_games_end_in_a_defeat(compiled):
    """Sensible players finish the game: no heuristic game of a sample reaches the turn limit."""
    reasons = [played(compiled, [seed % 4, (seed // 4) % 4], seed, ("heuristic", "heuristic"))[1].reason
               for seed in range(16)]
    # a simultaneous defeat (a draw) is an end too ("Health"); most end with one hero standing
    assert reasons.count("turn limit") == 0 and set(reasons) <= {"defeat", "draw"}
    assert reasons.count("defeat") >= 12


class PassChecker:
    """A heuristic bot that, whenever it is asked to act, checks that its `passes` shortcut never
    says "pass" where `act` would do something."""

    name = "heuristic"

    def __init__(self, seed: int):
        self.inner = HeuristicBot(seed)
        self.shortcuts = 0

    def answer(self, game: Game, request):
        if isinstance(request, Act) and self.inner.passes(game, request.player, request.window):
            self.shortcuts += 1
            # `act` may note an effect as used: ask a copy of the player's record
            used = set(game.seats[request.player].used)
            assert self.inner.act(game, request) is None, (request.window, request.actions)
            game.seats[request.player].used = used
        return self.inner.answer(game, request)


def _passes_checked(compiled, seed: int, heroes) -> int:
    """A game of two PassCheckers, every request asked (a recorder); how often `passes` said pass."""
    game = Game(compiled, list(heroes), seed)
    agents = [PassChecker(seed + seat) for seat in range(2)]
    play(game, agents, recorder=lambda request, answer: None)
    return sum(a.shortcuts for a in agents)


@GAMES
@given(seed=st.integers(0, 2**32 - 1), heroes=st.tuples(HEROES, HEROES))
# found by `make fuzz` (its 21,382nd game): a 12-turn game in which no bot could pass unasked, which
# is no error; that the shortcut is taken at all is the test below
@example(seed=568, heroes=(3, 1))
def test_a_bot_that_says_it_passes_would_pass(compiled, seed, heroes):
    _passes_checked(compiled, seed, heroes)


def test_the_pass_shortcut_is_taken_in_most_games(compiled):
    """The property above checks something: in most games a bot passes unasked, often."""
    taken = [_passes_checked(compiled, seed, (seed % 4, (seed // 4) % 4)) for seed in range(10)]
    assert sum(1 for t in taken if t) >= 8 and sum(taken) >= 50, taken


@settings(max_examples=examples(10), deadline=BOUND)
@given(seed=st.integers(0, 2**32 - 1), heroes=st.tuples(HEROES, HEROES))
def test_skipping_the_bots_that_pass_plays_the_same_game(compiled, seed, heroes):
    """Simulations let heuristic bots pass without being asked (`passes`); the game is the same."""
    asked = Game(compiled, list(heroes), seed)
    requests = []
    play(asked, [HeuristicBot(seed), HeuristicBot(seed + 1)], recorder=lambda r, a: requests.append(r))
    skipped = Game(compiled, list(heroes), seed)
    play(skipped, [HeuristicBot(seed), HeuristicBot(seed + 1)])
    assert skipped.pass_hints is not None and asked.pass_hints is None
    assert skipped.events == asked.events and skipped.over == asked.over
    assert any(isinstance(r, Act) for r in requests)


# ------------------------------------------------------------ games of more than two
# "4 Player Games", "3 Player Games", "5-6 Player Games": the same limits, a shared Health Dial never
# above its cap and read alike by both teammates, turns in the mode's order (a hero out has none), the
# end when one side is left, and the same seed the same game.
MODES = {"2v2": 4, "king_of_the_hill": 3, "koth_5": 5, "3v3": 6, "2v2v2": 6}


def played_mode(compiled, mode, heroes, seed, kinds):
    game = Game(compiled, heroes, seed, mode=mode)
    agents = [Watcher(BOTS[kind](seed * 7 + seat), stack_limits(compiled), game.rules)
              for seat, kind in enumerate(kinds)]
    result = play(game, agents)
    check_invariants(game, stack_limits(compiled), game.rules)
    return game, result


def check_turn_order(game: Game) -> None:
    order = game.mode.turn_order
    last, out = None, set()
    for e in game.events:
        if e["e"] == "out":
            out.add(e["player"])
        elif e["e"] in ("turn", "turn_skipped"):
            if last is not None:
                k = order.index(last)
                expected = next(order[(k + j) % len(order)] for j in range(1, len(order) + 1)
                                if order[(k + j) % len(order)] not in out)
                assert e["player"] == expected, (game.mode.name, last, e["player"])
            else:
                assert e["player"] == game.start_player
            last = e["player"]


@settings(max_examples=examples(20), deadline=BOUND, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(sorted(MODES)), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_any_game_of_a_mode_keeps_the_rules_and_ends(compiled, mode, seed, data):
    players = MODES[mode]
    heroes = data.draw(st.lists(HEROES, min_size=players, max_size=players))
    kinds = data.draw(st.lists(st.sampled_from(sorted(BOTS)), min_size=players, max_size=players))
    game, result = played_mode(compiled, mode, heroes, seed, kinds)
    assert result.reason in ("defeat", "draw", "turn limit") and result.turns <= MAX_TURNS
    if game.mode.shared_health:
        for side in game.sides:
            assert len({game.seats[s].health for s in side}) == 1, "teammates read one dial"
    alive_sides = {game.team_of[p.seat] for p in game.seats if p.alive}
    if result.reason == "defeat":
        assert alive_sides == {game.team_of[result.winner]}
        side = game.team_of[result.winner]
        assert set(result.winners) == {s for s in range(players) if game.team_of[s] == side}
    elif result.reason == "draw":
        assert not alive_sides
    check_turn_order(game)
    assert game.events[-1]["e"] == "end"


@settings(max_examples=examples(5), deadline=BOUND)
@given(mode=st.sampled_from(sorted(MODES)), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game_in_every_mode(compiled, mode, seed):
    heroes = [k % 4 for k in range(MODES[mode])]
    kinds = ["heuristic", "random"] * 3
    first, _ = played_mode(compiled, mode, heroes, seed, kinds[:MODES[mode]])
    again, _ = played_mode(compiled, mode, heroes, seed, kinds[:MODES[mode]])
    assert first.events == again.events
