"""next_opener = choose (RULES.md, partnership later hands): the winning team's partners
may claim the opening; unclaimed, the winner rule's seat opens. Game.opener_choices,
Game.choose_opener, the record's ``opener`` and checkpoints; the computer partners'
judgement (claims_opening, opening_claim)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import CannotOpen, RecordError, RulesError
from engine.game import Game
from engine.moves import Move
from engine.players import claims_opening, make_player, opening_claim
from engine.record import checkpoint, export, export_since, load, resume, summary
from engine.rules import Rules
from engine.simulate import play_hand
from engine.tiles import Tile


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


def won_first_hand(seed: int = 0, **options: Any) -> Game:
    """A partnership game whose first hand (random moves) has a winning team."""
    for s in range(seed, seed + 200):
        game = Game(Rules.from_preset("partnership", **options), 4)
        game.start_hand(seed=s)
        rng = random.Random(s)
        while game.hand is not None:
            game.apply(rng.choice(game.legal_moves()))
        if game.logs[-1].result.winner is not None:  # type: ignore[union-attr]
            return game
    raise AssertionError("no hand with a winner")


def winners(game: Game) -> tuple[int, int]:
    result = game.logs[-1].result
    assert result is not None and result.winner is not None
    return (result.winner, result.winner + 2)


def fingerprint(game: Game) -> Any:
    return export(game), game.to_move, game.legal_moves(), game.opener_choices()


def test_partnership_chooses_by_default_and_the_tournament_keeps_its_rule() -> None:
    assert Rules.from_preset("partnership").next_opener == "choose"
    assert Rules.from_preset("tournament_pr").next_opener == "last_player"
    assert Rules.from_preset("partnership", next_opener="winner").options() == {
        "next_opener": "winner"
    }


@pytest.mark.parametrize("preset", ["block", "draw", "all_fives", "mexican_train"])
def test_choose_needs_teams(preset: str) -> None:
    with pytest.raises(RulesError, match=r"choose needs teams|next_opener does not apply"):
        Rules.from_preset(preset, next_opener="choose")


def test_the_first_hand_is_nobody_s_choice() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    assert game.opener_choices() == ()
    game.start_hand(seed=3)
    assert game.opener_choices() == ()
    before = fingerprint(game)
    with pytest.raises(CannotOpen, match="nobody chooses"):
        game.choose_opener((game.to_move + 2) % 4)  # type: ignore[operator]
    assert fingerprint(game) == before


def test_the_winning_team_may_claim_and_the_default_is_the_winner_rule() -> None:
    game = won_first_hand()
    team = winners(game)
    closer = game.logs[-1].state.closer
    game.start_hand(seed=11)
    assert game.opener_choices() == tuple(sorted(team))
    # the default: the winner rule's seat (who dominated, or fewer pips after a block)
    default = game.to_move
    assert default in team
    if game.logs[-2].result.end == "domino":  # type: ignore[union-attr]
        assert default == closer
    partner = (default + 2) % 4  # type: ignore[operator]
    deal = [list(game.logs[-1].state.hand(s)) for s in range(4)]
    game.choose_opener(partner)
    assert game.to_move == partner
    assert [list(game.logs[-1].state.hand(s)) for s in range(4)] == deal  # the same deal
    # any tile of the chosen seat opens (later hands open with any tile)
    assert {m.tile for m in game.legal_moves()} == set(deal[partner])
    record = export(game)
    assert record["hands"][1]["opener"] == partner
    again = load(record)
    assert summary(again) == summary(game) and again.to_move == partner
    game.apply(game.legal_moves()[0])
    assert game.opener_choices() == ()
    before = fingerprint(game)
    with pytest.raises(CannotOpen):
        game.choose_opener(default)  # type: ignore[arg-type]
    assert fingerprint(game) == before
    assert export(load(export(game))) == export(game)


def test_a_seat_of_the_losing_team_may_not_claim() -> None:
    game = won_first_hand(40)
    team = winners(game)
    game.start_hand(seed=5)
    before = fingerprint(game)
    for seat in {0, 1, 2, 3} - set(team):
        with pytest.raises(CannotOpen) as refused:
            game.choose_opener(seat)
        assert str(refused.value) == (
            f"seat {seat} may not open this hand; seats {min(team)}, {max(team)} may"
        )
        assert refused.value.choices == tuple(sorted(team))
        assert fingerprint(game) == before
    for seat in (-1, 4):
        with pytest.raises(CannotOpen):
            game.choose_opener(seat)
    assert fingerprint(game) == before


def test_choosing_the_seat_to_move_changes_nothing() -> None:
    game = won_first_hand(7)
    game.start_hand(seed=9)
    before = fingerprint(game)
    game.choose_opener(game.to_move)  # type: ignore[arg-type]
    assert fingerprint(game) == before


def test_choosing_back_and_forth_before_the_first_move() -> None:
    game = won_first_hand(13)
    game.start_hand(seed=21)
    default = game.to_move
    assert default is not None
    game.choose_opener((default + 2) % 4)
    assert game.opener_choices() == tuple(sorted((default, (default + 2) % 4)))
    game.choose_opener(default)
    assert game.to_move == default
    assert summary(load(export(game))) == summary(game)


def test_an_explicit_deal_is_kept_too() -> None:
    game = won_first_hand(17)
    record = export(game)
    again = load(record)
    again.start_hand(seed=4)
    deal = [list(again.logs[-1].state.hand(s)) for s in range(4)]
    game.start_hand(deal=deal, boneyard=[])
    partner = (game.to_move + 2) % 4  # type: ignore[operator]
    game.choose_opener(partner)
    assert game.logs[-1].seed is None and game.logs[-1].deal == deal
    assert game.to_move == partner
    assert load(export(game)).to_move == partner


def test_a_tie_to_nobody_leaves_no_choice() -> None:
    for seed in range(3000):
        game = Game(Rules.from_preset("partnership", blocked_tie="nobody"), 4)
        game.start_hand(seed=seed)
        rng = random.Random(seed)
        while game.hand is not None:
            game.apply(rng.choice(game.legal_moves()))
        if game.logs[-1].result.winner is None:  # type: ignore[union-attr]
            break
    else:
        raise AssertionError("no tied hand found")
    opener = game.logs[-1].opener
    game.start_hand(seed=1)
    assert game.opener_choices() == ()
    assert game.to_move == opener  # RULES.md: the same player opens again


def test_next_opener_winner_is_the_dominator_alone() -> None:
    game = won_first_hand(3, next_opener="winner")
    game.start_hand(seed=8)
    default = game.to_move
    assert default is not None
    assert game.opener_choices() == ()
    with pytest.raises(CannotOpen):
        game.choose_opener((default + 2) % 4)
    record = export(game)
    assert "opener" not in record["hands"][1]
    record["hands"][1]["opener"] = (default + 2) % 4
    with pytest.raises(RecordError, match=f"may not open this hand; seat {default} opens it"):
        load(record)


def test_must_open_with_double_only_partners_holding_a_double() -> None:
    found = 0
    for seed in range(400):
        game = won_first_hand(seed, must_open_with_double=True)
        team = winners(game)
        game.start_hand(seed=seed)
        hand = game.logs[-1].state
        holders = tuple(s for s in sorted(team) if any(t.is_double for t in hand.hand(s)))
        assert game.opener_choices() == holders
        assert holders and game.to_move in holders
        if len(holders) == 2:
            other = next(s for s in holders if s != game.to_move)
            game.choose_opener(other)
            assert game.to_move == other
            assert {m.tile for m in game.legal_moves()} == {
                t for t in hand.hand(other) if t.is_double
            }
            assert summary(load(export(game))) == summary(game)
            found |= 1
        else:
            lacking = next(s for s in team if s not in holders)
            before = fingerprint(game)
            with pytest.raises(CannotOpen) as refused:
                game.choose_opener(lacking)
            assert str(refused.value) == (
                f"seat {lacking} holds no double and may not open; seat {holders[0]} may"
            )
            assert fingerprint(game) == before
            found |= 2
        if found == 3:
            return
    raise AssertionError("not both situations found")


def test_a_checkpoint_after_a_choice_resumes() -> None:
    game = won_first_hand(23)
    game.start_hand(seed=31)
    partner = (game.to_move + 2) % 4  # type: ignore[operator]
    game.choose_opener(partner)
    game.apply(game.legal_moves()[0])
    # from the last finished hand (hand 0) and from the hand in play (hand 1)
    for at in (0, 1):
        again = resume(export_since(game, at), checkpoint(game, at))
        assert summary(again)["hands"] == summary(game)["hands"][at:]
        assert summary(again)["scores"] == summary(game)["scores"]
        assert again.to_move == game.to_move and again.legal_moves() == game.legal_moves()


def test_a_game_resumed_before_the_deal_still_chooses() -> None:
    game = won_first_hand(29)
    game.start_hand(seed=2)
    point = checkpoint(game, 1)
    fresh = resume({**export_since(game, 1), "hands": []}, point)
    fresh.start_hand(seed=2)
    assert fresh.opener_choices() == game.opener_choices()
    partner = (fresh.to_move + 2) % 4  # type: ignore[operator]
    fresh.choose_opener(partner)
    game.choose_opener(partner)
    assert fresh.to_move == partner
    assert export_since(fresh, 1)["hands"] == export_since(game, 1)["hands"]
    back = resume(export_since(fresh, 1), checkpoint(fresh, 1))
    assert back.to_move == partner


def test_mexican_train_and_divisor_games_never_choose() -> None:
    for preset, players in (("mexican_train", 3), ("all_fives", 2), ("draw", 3)):
        game = Game(Rules.from_preset(preset, hands=None, target=30), players)
        for seed in range(2):
            game.start_hand(seed=seed)
            assert game.opener_choices() == ()
            rng = random.Random(seed)
            while game.hand is not None:
                game.apply(rng.choice(game.legal_moves()))


# ----- the computer partners' judgement -------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "claims"),
    [
        (["6-6", "4-4", "5-1", "3-2", "6-0", "2-1", "4-3"], True),  # two doubles
        (["6-5", "6-4", "6-1", "6-0", "2-1", "5-3", "3-0"], True),  # four sixes
        (["5-5", "5-4", "5-1", "5-0", "2-1", "6-3", "3-0"], True),  # four fives, a double
        (["6-5", "4-1", "5-3", "3-2", "6-0", "2-0", "4-3"], False),  # three at most
        (["6-6", "6-5", "6-4", "5-3", "4-1", "2-0", "3-1"], False),  # 6-6 counts one six
    ],
)
def test_claims_opening_judges_its_own_hand(hand: list[str], claims: bool) -> None:
    assert claims_opening(Rules.from_preset("partnership"), tiles(*hand)) is claims


def test_no_claim_without_a_double_when_every_hand_opens_with_one() -> None:
    rules = Rules.from_preset("partnership", must_open_with_double=True)
    long_suit = tiles("6-5", "6-4", "6-1", "6-0", "2-1", "5-3", "3-0")
    assert not claims_opening(rules, long_suit)
    assert claims_opening(Rules.from_preset("partnership"), long_suit)


def test_opening_claim_is_a_computer_partner_of_the_winners_or_nobody() -> None:
    seen: set[str] = set()
    for seed in range(60):
        game = won_first_hand(seed)
        team = winners(game)
        game.start_hand(seed=seed)
        default = game.to_move
        hand = game.logs[-1].state
        claim = opening_claim(game, range(4))
        judged = [s for s in team if claims_opening(game.rules, hand.hand(s))]
        if claim is None:
            assert not judged
            seen.add("none")
        else:
            assert claim in team and claim in judged
            assert claim == default or default not in judged  # the default speaks first
            seen.add("default" if claim == default else "partner")
        # people's seats are never claimed for
        assert opening_claim(game, [s for s in range(4) if s not in team]) is None
    assert seen == {"none", "default", "partner"}


def test_simulated_games_claim_and_replay() -> None:
    rules = Rules.from_preset("partnership", target=60)
    seats = [make_player(name, seed) for seed, name in enumerate(["normal", "easy"] * 2)]
    named = 0
    for seed in range(6):
        game = Game(rules, 4)
        while not game.over:
            play_hand(game, seats, seed * 100 + game.hand_number)
        record = export(game)
        named += sum(
            1
            for entry, log in zip(record["hands"], game.logs, strict=True)
            if entry.get("opener", log.opener) != game.logs[0].opener
        )
        assert summary(load(record)) == summary(game)
    assert named


def test_a_move_before_choosing_closes_the_choice() -> None:
    game = won_first_hand(37)
    game.start_hand(seed=6)
    first: Move = game.legal_moves()[0]
    game.apply(first)
    assert game.opener_choices() == ()
