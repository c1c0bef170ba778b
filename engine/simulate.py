"""Play many hands or games between computer players and count what happened."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from engine.game import Game
from engine.players import Player, make_player, make_timed_player, opening_claim
from engine.rules import Rules
from engine.views import View, view_of


def decisions(game: Game) -> Iterator[View]:
    """The views of the current hand's decisions: forced moves (a pass, a draw) are made
    here; at each real decision the seat's view is yielded and the caller applies its move
    before asking for the next."""
    while game.hand is not None:
        forced = game.forced_move()
        if forced is not None:
            game.apply(forced)
            continue
        seat = game.to_move
        assert seat is not None
        yield view_of(game, seat)


def play_hand(game: Game, seats: Sequence[Player], seed: int) -> None:
    """Deal a hand from ``seed`` and let the seats play it to its end. Where the winning
    team chooses who opens (``next_opener = choose``), its partners claim by their own
    judgement (:func:`~engine.players.opening_claim`); unclaimed, the default seat opens.
    A seat's view is built only for a player that reads it (not for one that reads its
    legal moves alone: :class:`~engine.players.MovesOnlyPlayer`)."""
    game.start_hand(seed=seed)
    claim = opening_claim(game, range(game.players))
    if claim is not None:
        game.choose_opener(claim)
    among = [getattr(player, "choose_among", None) for player in seats]
    hand = game.hand
    assert hand is not None
    # on the hand itself, as Game.push advises simulations: one call less a move
    legal, push = hand.legal_moves, hand.push
    while hand.ended is None:
        moves = legal()
        seat = hand.to_move
        chooser = among[seat]
        if len(moves) == 1 and (chooser is not None or game.forced_move() is not None):
            push(moves[0])  # no choice: nobody is asked
        elif chooser is not None:  # its move is one of those given: no check needed
            push(chooser(moves))
        else:
            hand.apply(seats[seat].choose(view_of(game, seat)))
    game.settle()


def simulate(
    preset: str,
    players: int,
    *,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    seats: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    clock: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """``hands`` single hands (each the first of a new game) or ``games`` whole games.

    ``clock`` is the caller's (the command line's ``time.perf_counter``): it times the
    run (``seconds``, ``hands_per_second``) and gives each decision of a ``hard`` seat
    the bot's time (:func:`~engine.ai.hard.decision_seconds`). Without it those two
    figures are None and hard seats have no time limit: the run follows from ``seed``.
    """
    if (hands is None) == (games is None):
        raise ValueError("give either a number of hands or a number of games")
    rules = Rules.from_preset(preset, **(options or {}))
    rules.check_players(players)
    names = list(seats) if seats else ["random"] * players
    if len(names) != players:
        raise ValueError(f"--seats names {len(names)} players for a {players}-player game")
    source = random.Random(seed)
    seeds = [source.randrange(1 << 62) for _ in names]
    table = [
        make_player(name, own) if clock is None else make_timed_player(name, own, clock)
        for name, own in zip(names, seeds, strict=True)
    ]
    sides = 2 if rules.partners else players
    stats: dict[str, Any] = {
        "preset": preset,
        "players": players,
        "seats": names,
        "seed": seed,
        "games": 0,
        "hands": 0,
        "moves": 0,
        "results": {"domino": 0, "blocked": 0, "void": 0},
        "hand_wins": [0] * sides,
        "hand_ties": 0,
        "points": [0] * sides,
        "game_wins": [0] * sides,
    }
    started = clock() if clock is not None else 0.0

    def account(game: Game) -> None:
        log = game.logs[-1]
        assert log.result is not None
        stats["hands"] += 1
        stats["moves"] += len(log.state.moves)
        stats["results"][log.result.end] += 1
        if log.result.winner is None:
            stats["hand_ties"] += 1
        else:
            stats["hand_wins"][log.result.winner] += 1
        for side, points in enumerate(log.result.points):
            stats["points"][side] += points

    if hands is not None:
        for _ in range(hands):
            game = Game(rules, players)
            play_hand(game, table, source.randrange(1 << 62))
            account(game)
    else:
        for _ in range(games or 0):
            game = Game(rules, players)
            while not game.over:
                if game.hand is None and game.time_up:
                    break  # pragma: no cover - simulations have no clock
                play_hand(game, table, source.randrange(1 << 62))
                account(game)
            stats["games"] += 1
            assert game.outcome is not None
            stats["game_wins"][game.outcome.winner] += 1
    seconds = clock() - started if clock is not None else None
    stats["seconds"] = None if seconds is None else round(seconds, 3)
    stats["moves_per_hand"] = round(stats["moves"] / max(1, stats["hands"]), 2)
    stats["hands_per_second"] = round(stats["hands"] / seconds, 1) if seconds else None
    if rules.partners:
        stats["teams"] = {"0+2": stats["hand_wins"][0], "1+3": stats["hand_wins"][1]}
    return stats
