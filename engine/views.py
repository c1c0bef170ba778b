"""What one seat, or the room, may see of a game.

A view is built from the game and holds copies of public facts plus, for a seat, that
seat's own tiles and legal moves. Nothing in a view reaches back into the game, so a
computer player or a picture given a view cannot see another hand, even by accident.
Once a hand is over every hand is shown, as players do at a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Adjustment, Game
from engine.line import LineHand, OpenSide, Placement
from engine.moves import Move
from engine.outcome import CountScore, HandResult, Outcome
from engine.rules import Rules
from engine.tiles import Tile
from engine.train import TrainHand, TrainView


@dataclass(frozen=True, slots=True)
class View:
    rules: Rules
    players: int
    seat: int | None  # None: the room's view
    hand_number: int  # 0 before the first deal
    ply: int  # moves made in the whole game
    hand: tuple[Tile, ...]  # this seat's tiles (empty for the room)
    tile_counts: tuple[int, ...]
    placements: tuple[Placement, ...]
    open_sides: tuple[OpenSide, ...]
    count: int | None  # sum of the open ends in divisor games
    scored: tuple[int, ...]  # points made by counts in this hand (divisor games)
    last_score: CountScore | None  # what the last play scored by the count, and why
    boneyard: int  # tiles left to draw
    opener: int | None
    to_move: int | None
    legal_moves: tuple[Move, ...]  # only for the seat to move
    history: tuple[Move, ...]  # this hand's moves; a draw never names its tile
    scores: tuple[int, ...]
    revealed: tuple[tuple[Tile, ...], ...] | None  # every hand, once the hand is over
    result: HandResult | None  # of the hand shown
    outcome: Outcome | None
    time_up: bool
    # Mexican Train
    engine: Tile | None = None
    trains: tuple[TrainView, ...] = ()  # each seat's train, then the Mexican train
    unsatisfied: tuple[tuple[int, Tile], ...] = ()  # (train, double) in duty order
    first_round: bool = False
    # The score sheet's latest rows (at most SHEET_ROWS): each finished hand's points by
    # side, in the order played; ``sheet_first`` rows came before them.
    sheet: tuple[tuple[int, ...], ...] = ()
    sheet_first: int = 0
    # the judges' penalties and awards, in the order written (``hand`` places each on
    # the sheet: after that hand's row)
    adjustments: tuple[Adjustment, ...] = ()
    # the tile each seat drew for this hand's opener, in seat order (public: drawn face
    # up); empty where no draw chose the opener
    opening_draw: tuple[Tile, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move

    @property
    def draw_is_news(self) -> bool:
        """Whether the opening draw is still worth showing: this hand's opener was
        drawn, the hand goes on, and not every seat has had its first turn."""
        if not self.opening_draw or self.revealed is not None:
            return False
        return len({move.seat for move in self.history}) < self.players


def view_of(game: Game, seat: int | None = None) -> View:
    """The game as ``seat`` sees it (``None``: as the room sees it). Reading changes
    nothing: a hand ended by a push on ``game.hand`` and not yet settled
    (:meth:`~engine.game.Game.settle`) shows ended, its tiles revealed, with no result."""
    if seat is not None and not 0 <= seat < game.players:
        raise ValueError(f"seat {seat} is not at this table")
    log = game.logs[-1] if game.logs else None
    hand = log.state if log else None
    train = hand if isinstance(hand, TrainHand) else None
    line = hand if isinstance(hand, LineHand) else None
    in_play = log is not None and log.result is None and log.state.ended is None
    to_move = hand.to_move if hand is not None and in_play else None
    sheet = tuple(game.sheet())
    return View(
        rules=game.rules,
        players=game.players,
        seat=seat,
        hand_number=game.hand_number,
        ply=game.ply,
        hand=tuple(hand.hand(seat)) if hand is not None and seat is not None else (),
        tile_counts=tuple(h.bit_count() for h in hand.hands) if hand else (0,) * game.players,
        placements=tuple(line.placements) if line else (),
        open_sides=tuple(line.open_sides()) if line else (),
        count=hand.count if hand is not None and game.rules.divisor else None,
        scored=tuple(hand.scored) if hand else (0,) * game.players,
        last_score=line.last_score() if line else None,
        boneyard=hand.boneyard_left if hand else 0,
        opener=hand.opener if hand else None,
        to_move=to_move,
        legal_moves=tuple(hand.legal_moves()) if hand and in_play and seat == to_move else (),
        history=tuple(hand.moves) if hand else (),
        scores=tuple(game.live_scores),
        revealed=tuple(tuple(hand.hand(s)) for s in range(game.players))
        if hand is not None and not in_play
        else None,
        result=log.result if log else None,
        outcome=game.outcome,
        time_up=game.time_up,
        engine=train.engine if train is not None and train.engine_down else None,
        trains=tuple(train.trains()) if train is not None else (),
        unsatisfied=tuple(train.unsatisfied()) if train is not None else (),
        first_round=train.first_round if train is not None else False,
        sheet=sheet,
        sheet_first=game.hands_finished - len(sheet),
        adjustments=tuple(game.adjustments),
        opening_draw=(log.opening_draw or ()) if log else (),
    )
