"""Cuban dominoes (issue 33; seed 000: "hasta el 9 (dominó cubano)"): the `cuban` preset
as docs/rules-decisions.md ("Cuban dominoes") reads it: double-9, four players in two
teams, ten tiles each, the other fifteen out of play; the highest double dealt opens the
first hand with it; the winners write the losers' pips and win at the target."""

from __future__ import annotations

import json
import subprocess
import sys

from engine.game import Game
from engine.players import make_player
from engine.record import export, load, summary
from engine.rules import Rules
from engine.simulate import play_hand
from engine.tiles import Tile, set_tiles


def test_the_preset_is_partnership_on_the_double_9_set() -> None:
    rules = Rules.from_preset("cuban")
    assert rules.partners and rules.set == 9
    assert (rules.min_players, rules.max_players, rules.hand_size_for(4)) == (4, 4, 10)
    assert not rules.has_boneyard  # the fifteen left over sleep: nobody draws
    assert (rules.score_to, rules.target, rules.points) == ("winner", 100, "losers")
    assert (rules.first_opener, rules.opener_plays_double) == ("highest_double", True)
    assert rules.next_opener == "choose"


def test_ten_tiles_each_and_fifteen_out_of_play() -> None:
    for seed in range(50):
        game = Game(Rules.from_preset("cuban"), 4)
        game.start_hand(seed=seed)
        dealt = [tile for hand in game.logs[-1].deal for tile in hand]
        assert [len(hand) for hand in game.logs[-1].deal] == [10] * 4
        assert len(set(dealt)) == 40 and set(dealt) <= set(set_tiles(9))
        assert game.logs[-1].boneyard == []
        assert view_boneyard(game) == 0


def view_boneyard(game: Game) -> int:
    hand = game.hand
    assert hand is not None
    return hand.boneyard_left


def highest_double(hands: list[list[Tile]]) -> tuple[int, Tile]:
    """The seat holding the highest double dealt, and that double."""
    doubles = [(tile.hi, seat, tile) for seat, hand in enumerate(hands) for tile in hand]
    _, seat, tile = max(found for found in doubles if found[2].is_double)
    return seat, tile


def test_the_highest_double_dealt_opens_the_first_hand_with_it() -> None:
    """The 9-9 when it is dealt; when it sleeps, the next highest double dealt."""
    asleep = 0
    for seed in range(200):
        game = Game(Rules.from_preset("cuban"), 4)
        game.start_hand(seed=seed)
        seat, double = highest_double(game.logs[-1].deal)
        asleep += str(double) != "9-9"
        assert game.to_move == seat
        assert [str(m.tile) for m in game.legal_moves()] == [str(double)]
    assert asleep > 20  # the 9-9 sleeps in about 15 deals of 55: both cases were seen


def test_a_whole_game_ends_with_the_first_team_to_100_winning() -> None:
    for seed in range(5):
        game = Game(Rules.from_preset("cuban"), 4)
        seats = [make_player("normal", seed * 10 + s) for s in range(4)]
        hands = 0
        while not game.over:
            play_hand(game, seats, seed * 1000 + hands)
            hands += 1
            assert hands < 60
        outcome = game.outcome
        assert outcome is not None
        assert game.scores[outcome.winner] >= 100 > game.scores[1 - outcome.winner]
        # a record of it replays to the same scores (RECORD.md), here and on the CLI
        data = export(game)
        assert summary(load(json.loads(json.dumps(data)))) == summary(game)
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(run.stdout)["scores"] == game.scores


def test_the_engine_cli_simulates_and_shows_it() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--preset", "cuban", "--games", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    stats = json.loads(run.stdout)
    assert stats["games"] == 3 and sum(stats["game_wins"]) == 3
    shown = subprocess.run(
        [sys.executable, "-m", "engine", "demo", "--preset", "cuban", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert shown.startswith("cuban:") and "9-9" in shown


def test_nobody_holding_a_double_the_highest_tile_opens_with_it() -> None:
    """Every double asleep (a deal only a record can force): the highest tile dealt, in
    tile order (the higher total, then the higher end), opens with it."""
    singles = [tile for tile in set_tiles(9) if not tile.is_double]
    singles.sort(key=lambda tile: (tile.hi + tile.lo, tile.hi))
    deal = [[str(tile) for tile in singles[i * 10 : (i + 1) * 10]] for i in range(4)]
    highest = str(singles[39])  # the five highest singles sleep with the doubles
    holder = 3
    record = {
        "format": "domino-record/1",
        "rules": {"preset": "cuban", "options": {}},
        "players": ["Ana", "Beto", "Caro", "Dani"],
        "hands": [{"deal": deal, "moves": []}],
    }
    game = load(record)
    assert game.to_move == holder
    assert [str(m.tile) for m in game.legal_moves()] == [highest]
