"""Hand results and points: every scoring rule of the line games in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.outcome import HandResult
from engine.rules import Rules

if TYPE_CHECKING:  # the hands score themselves with these functions
    from engine.line import LineHand
    from engine.train import TrainHand


def side_of(rules: Rules, seat: int) -> int:
    """The score-sheet column of a seat: its team in partnership games, else itself."""
    return rules.side_of(seat)


def sides(rules: Rules, players: int) -> int:
    return len(rules.side_seats(players))


def side_pips(rules: Rules, pips: list[int]) -> list[int]:
    if rules.partners:
        # the sides of Rules.side_seats, even seats and odd seats, as slices (a generator
        # over each side's seats took 1 us of a simulated hand's 60)
        return [sum(pips[0::2]), sum(pips[1::2])]
    return list(pips)


def hand_winner(rules: Rules, hand: LineHand, pips: list[int]) -> int | None:
    """The side that won the hand, or None when a blocked tie goes to nobody."""
    if hand.ended == "domino":
        assert hand.closer is not None
        return side_of(rules, hand.closer)
    by_side = side_pips(rules, pips)
    fewest = min(by_side)
    tied = [s for s, p in enumerate(by_side) if p == fewest]
    if len(tied) == 1:
        return tied[0]
    closer = side_of(rules, hand.closer) if hand.closer is not None else None
    rule = rules.blocked_tie
    if rule == "closer_wins":
        return closer if closer in tied else None
    if rule == "closer_loses":
        return None if closer is None else 1 - closer
    if rule == "opener_team_wins":
        return side_of(rules, hand.opener)
    return None


def score_hand(rules: Rules, hand: LineHand, scores: list[int]) -> HandResult:
    """Score a finished hand against the scores written before it."""
    pips = hand.pips()
    count = hand.count if rules.divisor else None
    if rules.family == "divisor":
        # Counts made during play, less each player's own remaining pips (zero for the
        # one who went out): the same sum for a domino and a blocked hand.
        points = tuple(hand.scored[s] - pips[s] for s in range(hand.players))
        winner = hand.closer if hand.ended == "domino" else None
        return HandResult(hand.ended or "blocked", tuple(pips), winner, points, hand.closer, count)
    by_side = side_pips(rules, pips)
    winner = hand_winner(rules, hand, pips)
    written = [0] * len(by_side)
    if hand.ended == "blocked" and rules.blocked_both_score:
        written = list(by_side)
    elif winner is not None:
        value = sum(pips) if rules.points == "all" else sum(by_side) - by_side[winner]
        if rules.winner_subtracts_own:
            value = max(0, value - by_side[winner])
        if rules.score_to == "winner":
            if scores[winner] == 0 and value < rules.min_opening_score:
                value = 0  # the player has not "opened" their score yet
            written[winner] = value
        elif rules.partners:
            written[1 - winner] = value if rules.points == "all" else by_side[1 - winner]
        else:
            for s in range(len(by_side)):
                if s != winner:
                    written[s] = by_side[s]
    if rules.tens_scoring:
        written = [-(-p // 10) for p in written]
    return HandResult(hand.ended or "blocked", tuple(pips), winner, tuple(written), hand.closer)


def void_result(hand: LineHand | TrainHand, sides_count: int) -> HandResult:
    """A hand cut short by the game clock (time_limit_ends = immediately)."""
    return HandResult("void", tuple(hand.pips()), None, (0,) * sides_count, hand.closer)


def score_round(rules: Rules, hand: TrainHand) -> HandResult:
    """A Mexican Train round: penalty pips, or with positive_scoring the winners' take."""
    pips = hand.pips()
    if hand.ended == "domino":
        # whoever went out (no tiles left), not a seat holding only 0-0
        winners = [s for s, tiles in enumerate(hand.hands) if not tiles]
    else:
        fewest = min(pips)
        winners = [s for s, p in enumerate(pips) if p == fewest]
    winner = winners[0] if len(winners) == 1 else None
    if not rules.positive_scoring:
        points = tuple(pips)
    else:
        # The player who went out, or who holds fewest pips in a blocked round, scores the
        # pips of every other hand; tied winners share them (rounded down).
        losers = sum(p for s, p in enumerate(pips) if s not in winners)
        share = losers // len(winners)
        points = tuple(share if s in winners else 0 for s in range(len(pips)))
    return HandResult(hand.ended or "blocked", tuple(pips), winner, points, hand.closer)
