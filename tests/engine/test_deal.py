from __future__ import annotations

import random

from engine.deal import Shuffler, shuffled_places, tile_draw
from engine.game import Game
from engine.rules import Rules
from engine.tiles import RANK, set_tiles


def test_the_seeded_shuffle_is_pinned() -> None:
    # A record that gives a seed must deal the same hands on every machine and version:
    # these values are the definition (SHAKE-128 keys, see engine/deal.py), not a snapshot
    # to regenerate.
    order = Shuffler(2026).shuffled(set_tiles(6))
    assert [str(t) for t in order[:7]] == PINNED_2026


PINNED_2026 = ["4-0", "4-2", "6-6", "3-1", "6-4", "4-4", "2-1"]


def test_shuffles_are_permutations_and_differ_by_seed_and_round() -> None:
    tiles = set_tiles(12)
    one = Shuffler(1)
    first, second = one.shuffled(tiles), one.shuffled(tiles)
    assert sorted(first) == tiles == sorted(second)
    assert first != second
    assert Shuffler(1).shuffled(tiles) == first


def test_redeals_follow_the_seed() -> None:
    rules = Rules.from_preset("partnership", redeal_doubles=4)
    redealt = 0
    for seed in range(300):
        game = Game(rules, 4)
        game.start_hand(seed=seed)
        log = game.logs[-1]
        assert all(sum(t.is_double for t in hand) < 4 for hand in log.deal)
        redealt += log.redeals > 0
        again = Game(rules, 4)
        again.start_hand(seed=seed)
        assert again.logs[-1].deal == log.deal
    assert redealt > 0


def test_the_tile_draw_is_the_first_tiles_of_the_shuffle() -> None:
    """RULES.md (tournament draw): each seat draws one tile of the shuffled set, the
    highest in tile order opens; the draw reads the smallest keys without a whole sort,
    and must be the very draw of the shuffle, equal keys included (stable: set order)."""
    for seed in range(300):
        for top, players in ((6, 4), (6, 2), (9, 3), (12, 8)):
            drawn = Shuffler(seed).shuffled(set_tiles(top))[:players]
            best = max(range(players), key=lambda seat: RANK[drawn[seat]])
            assert tile_draw(Shuffler(seed), top, players) == best

    class Ties(Shuffler):
        def keys(self, n: int) -> tuple[int, ...]:
            return tuple(7 if t in (27, 3, 12) else 100 + t for t in range(n))

    # tiles 3, 12 and 27 share the smallest key: the stable order deals 3, 12, 27, then 0
    drawn = [3, 12, 27, 0]
    assert tile_draw(Ties(1), 6, 4) == max(range(4), key=lambda seat: RANK[drawn[seat]])


def test_the_shuffle_is_a_stable_sort_by_key_on_every_set() -> None:
    """engine/deal.py's definition: the tiles in order of their keys, equal keys in set
    order, on sets of every size."""
    rng = random.Random(4)
    for top in (6, 9, 12, 15, 18):
        n = len(set_tiles(top))
        for _ in range(30):
            keys = tuple(rng.getrandbits(64) for _ in range(n))
            assert shuffled_places(keys) == sorted(range(n), key=lambda t: keys[t])
            tied = tuple(k if t % 7 else keys[0] for t, k in enumerate(keys))
            assert shuffled_places(tied) == sorted(range(n), key=lambda t: tied[t])
