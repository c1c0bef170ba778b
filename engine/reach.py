"""Whether a game played to a target ends: a short, seeded simulation of the rules
(issue 33: all fives to 100 with three players took 438 hands of normal players, since
the others subtract their own pips and scores drift down as often as up).

The estimate plays whole games of normal computer players from a fixed seed, each
stopped at :data:`CAP` hands, and averages the hands they took (a stopped game counts as
``CAP``): more than :data:`LONGEST` is too long. It stops as soon as the answer is
certain, so ordinary rules cost one game. The same rules and number of players always
give the same answer, in bounded time: at most ``GAMES * CAP`` hands, and as many again
for each lower target it tries (measured in tests/engine/test_reach.py).

>>> from engine.rules import Rules
>>> reach = hands_to_end(Rules.from_preset("all_fives", target=100), 3)
>>> reach.ends, reach.played
(False, (31, 31, 31, 31))
>>> hands_to_end(Rules.from_preset("partnership"), 4).ends
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from engine.game import Game
from engine.players import Player, make_player
from engine.rules import Rules
from engine.simulate import play_hand

LONGEST = 30  # hands: a game that takes more on average does not end at a table
CAP = LONGEST + 1  # a simulated game is stopped here: it has already said "too long"
GAMES = 4  # simulated games an estimate plays at most
SEED = 33  # the estimate's own seed: the same rules always give the same answer
PLAYERS = "normal"  # the computer players' usual strength (the issue measured with it)


@dataclass(frozen=True)
class Reach:
    """What a simulation of the rules says about how a game of them ends."""

    bounded: bool  # the game ends by itself (hands, rounds, a clock, one hand): not simulated
    played: tuple[int, ...] = ()  # hands each simulated game took (CAP: stopped there)
    target: int | None = None  # a lower target that ends within LONGEST hands, if any
    hands: int | None = None  # a number of hands to play instead, where the rules take one

    @property
    def ends(self) -> bool:
        """The game ends by itself, or the simulated games took LONGEST hands or fewer on
        average (a stopped game counted as CAP)."""
        return self.bounded or _ends(self.played)


def _ends(played: tuple[int, ...]) -> bool:
    """Whether GAMES simulated games average LONGEST hands or fewer, whatever the ones
    not played (yet) take: the stopped games count as CAP, those not played as 1 or CAP."""
    return sum(played) + CAP * (GAMES - len(played)) <= LONGEST * GAMES


def _too_long(played: tuple[int, ...]) -> bool:
    return sum(played) + (GAMES - len(played)) > LONGEST * GAMES


def bounded(rules: Rules) -> bool:
    """Whether the rules end a game whatever the scores: a number of hands or rounds, one
    hand, or a game clock. Only a game played to a target alone can go on and on."""
    if rules.target is None or rules.single_hand or rules.time_limit_minutes:
        return True
    return rules.family == "train" or (rules.family == "divisor" and rules.hands is not None)


def hands_to_end(rules: Rules, players: int) -> Reach:
    """Whether a game of ``rules`` between ``players`` ends within :data:`LONGEST` hands
    on average, and, when it does not, what ends sooner: a lower target (simulated the
    same way) and, in games that take one (divisor games), a number of hands."""
    return _hands_to_end(rules, players)


@lru_cache(maxsize=256)  # a lobby asks again for the same rules and table
def _hands_to_end(rules: Rules, players: int) -> Reach:
    rules.check_players(players)
    if bounded(rules):
        return Reach(bounded=True)
    played, best = _simulated(rules, players)
    if _ends(played):
        return Reach(bounded=False, played=played)
    hands = LONGEST // 3 if rules.family == "divisor" else None
    target = _lower_target(rules, players, best)
    return Reach(bounded=False, played=played, target=target, hands=hands)


@lru_cache(maxsize=256)
def _simulated(rules: Rules, players: int) -> tuple[tuple[int, ...], int]:
    """The hands each simulated game took (CAP for a stopped one), game after game until
    the answer is certain (a game of ordinary rules decides it alone); and the lowest of
    the best scores a side held after LONGEST // 2 hands (or at the game's end if
    sooner): a target every simulated game reached by then."""
    source = random.Random(SEED)
    seats: list[Player] = [make_player(PLAYERS, source.randrange(1 << 30)) for _ in range(players)]
    played: tuple[int, ...] = ()
    best: list[int] = []
    while not (_ends(played) or _too_long(played)):
        game = Game(rules, players)
        hands = 0
        while not game.over and hands < CAP:
            play_hand(game, seats, source.randrange(1 << 62))
            hands += 1
            if hands == LONGEST // 2:
                best.append(max(game.scores))
        if hands < LONGEST // 2:
            best.append(max(game.scores))
        played += (hands,)
    return played, min(best)


def _lower_target(rules: Rules, players: int, best: int) -> int | None:
    """A round target below the rules' that simulated games reach within LONGEST hands:
    the best score every simulated game held at half-way, rounded down, else half of it
    and so on (a few simulations at most), or None when the scores do not grow."""
    assert rules.target is not None
    step = 10 if best >= 20 else 5
    target = min(best, rules.target - 1) // step * step
    while target >= step:
        if _ends(_simulated(rules.with_options(target=target), players)[0]):
            return target
        target = target // 2 // step * step
    return None
