"""Option ``teams`` (RULES.md, partnership: "de común acuerdo o al azar"): teams agreed by
seat, or drawn by tiles (the two highest together, or the highest with the lowest). The
record cannot name a draw (its players are the seating after it), so the draw is checked
here against the definition in engine/teams.py, computed independently."""

from __future__ import annotations

import hashlib
import struct
from collections import Counter

import pytest

from engine.errors import RulesError
from engine.game import Game
from engine.record import load, new_record
from engine.rules import Rules, option_choices
from engine.teams import DrawnTeams, draw_teams

Plain = tuple[int, int]


def set_tiles(top: int) -> list[Plain]:
    return [(hi, lo) for hi in range(top + 1) for lo in range(hi + 1)]


def rank(t: Plain) -> tuple[int, int]:
    """RULES.md's tile order: the higher total, then the higher end."""
    return (t[0] + t[1], t[0])


def reference_draw(seed: int, top: int) -> list[Plain]:
    """Shuffle 0 of "domino-teams:<seed>", 8 little-endian bytes of SHAKE-128 per tile as
    sort keys over the set in set order; seat i draws the i-th tile."""
    tiles = set_tiles(top)
    digest = hashlib.shake_128(f"domino-teams:{seed}:0".encode("ascii")).digest(8 * len(tiles))
    keys = struct.unpack(f"<{len(tiles)}Q", digest)
    return [tiles[i] for i in sorted(range(len(tiles)), key=keys.__getitem__)][:4]


def plain(drawn: DrawnTeams) -> list[Plain]:
    return [(t.hi, t.lo) for t in drawn.tiles]


def test_the_option_takes_three_values_agreed_by_default() -> None:
    assert option_choices("teams") == ("agreed", "drawn_high", "drawn_high_low")
    for preset in ("partnership", "tournament_pr", "cuban"):
        assert Rules.from_preset(preset).teams == "agreed"
        rules = Rules.from_preset(preset, teams="drawn_high_low")
        assert rules.options()["teams"] == "drawn_high_low"
        record = new_record(rules, ["A", "B", "C", "D"])
        assert load(record).rules.teams == "drawn_high_low"


@pytest.mark.parametrize("preset", ["block", "draw", "all_fives", "fido12", "mexican_train"])
@pytest.mark.parametrize("value", ["drawn_high", "drawn_high_low"])
def test_drawn_teams_belong_to_partnership_games(preset: str, value: str) -> None:
    assert Rules.from_preset(preset, teams="agreed").teams == "agreed"
    with pytest.raises(RulesError, match=f"teams {value} needs teams"):
        Rules.from_preset(preset, teams=value)


def test_a_wrong_value_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(RulesError) as refused:
        Rules.from_preset("partnership", teams="random")
    assert str(refused.value) == (
        "option teams cannot be 'random'; choose one of agreed, drawn_high, drawn_high_low"
    )


@pytest.mark.parametrize("mode", ["drawn_high", "drawn_high_low"])
@pytest.mark.parametrize("top", [6, 9])
def test_the_draw_follows_its_definition(mode: str, top: int) -> None:
    rules = Rules.from_preset("partnership", teams=mode, set=top)
    firsts: Counter[int] = Counter()
    for seed in range(300):
        drawn = draw_teams(seed, rules, 4)
        assert draw_teams(seed, rules, 4) == drawn  # deterministic from the seed
        assert plain(drawn) == reference_draw(seed, top)
        assert len(set(drawn.tiles)) == 4
        assert sorted(drawn.order) == [0, 1, 2, 3]
        by_rank = sorted(range(4), key=lambda s: rank(reference_draw(seed, top)[s]), reverse=True)
        high, second, _, low = by_rank
        order = drawn.order
        assert order[0] == high  # the highest drawer takes seat 0
        # partners sit opposite: new seats 0 and 2, 1 and 3
        if mode == "drawn_high":
            assert {order[0], order[2]} == {high, second}
        else:
            assert {order[0], order[2]} == {high, low}
        # of the other team, the higher drawer takes seat 1
        assert rank(reference_draw(seed, top)[order[1]]) > rank(reference_draw(seed, top)[order[3]])
        for new_seat, old_seat in enumerate(order):
            assert drawn.new_seat_of(old_seat) == new_seat
        firsts[order[0]] += 1
    assert set(firsts) == {0, 1, 2, 3}  # any player may draw the highest tile


def test_tile_order_ranks_by_total_first() -> None:
    """A seed where 5-4 and 6-0 are drawn: 5-4 (9) outranks 6-0 (6)."""
    rules = Rules.from_preset("partnership", teams="drawn_high")
    for seed in range(5000):
        drawn = plain(draw_teams(seed, rules, 4))
        if (5, 4) in drawn and (6, 0) in drawn:
            order = draw_teams(seed, rules, 4).order
            place = {old: new for new, old in enumerate(order)}
            five_four, six_zero = drawn.index((5, 4)), drawn.index((6, 0))
            ranked = sorted(range(4), key=lambda s: rank(drawn[s]), reverse=True)
            assert ranked.index(five_four) < ranked.index(six_zero)
            assert place[five_four] in (0, 1, 2)
            return
    raise AssertionError("no such seed")


def test_the_draw_tells_nothing_of_the_deal_of_the_same_seed() -> None:
    rules = Rules.from_preset("partnership", teams="drawn_high")
    same = 0
    for seed in range(50):
        game = Game(rules, 4)
        game.start_hand(seed=seed)
        first_tiles = [game.logs[-1].deal[0][i] for i in range(4)]
        same += list(draw_teams(seed, rules, 4).tiles) == first_tiles
    assert same == 0


def test_agreed_teams_and_other_tables_are_not_drawn() -> None:
    with pytest.raises(RulesError):
        draw_teams(1, Rules.from_preset("partnership"), 4)
    with pytest.raises(RulesError):
        draw_teams(1, Rules.from_preset("partnership", teams="drawn_high"), 3)
