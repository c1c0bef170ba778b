"""What a player typed, read as exactly one legal move of their seat, or the precise
reason it is not one.

A player types as little as is unambiguous: ``6-4`` when the tile fits in one place,
``6-4 on 6-6``, ``6-4 on train:2``, ``6-4 on mexican``, ``18-8 on 18-18 flank``; or
``pass``, ``draw``, ``end``; or a move's number as the hand lists the legal moves
(``2`` for "2) 6-5 on 6-6", engine/keys.py).

>>> from engine.game import Game
>>> from engine.rules import Rules
>>> game = Game(Rules.from_preset("partnership"), 4)
>>> hand = game.start_hand(seed=7)
>>> resolve(game, hand.opener, "6-6") == game.legal_moves()[0]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import (
    Ambiguous,
    CannotNow,
    DoesNotFit,
    EmptyMove,
    GameOver,
    NotYourTile,
    NotYourTurn,
    StaleAction,
)
from engine.keys import by_key
from engine.moves import Action, Move, parse_action

if TYPE_CHECKING:
    from engine.game import Game


def resolve(game: Game, seat: int, text: str, ply: int | None = None) -> Move:
    """The one legal move of ``seat`` that ``text`` names.

    ``ply`` is the game's :attr:`~engine.game.Game.ply` the player saw (a button's move
    number); a move typed against another position is refused as :class:`StaleAction`.
    Raises, in this order: StaleAction, GameOver, NotYourTurn, EmptyMove, NoSuchKey (a
    number that is no move's), InvalidMove (not a move), CannotNow (pass, draw or end not
    legal now), NotYourTile, DoesNotFit, Ambiguous. Changes nothing.
    """
    if ply is not None and ply != game.ply:
        raise StaleAction(f"this was move {ply}; the game is at move {game.ply}")
    hand = game.hand
    if hand is None:
        over = game.outcome is not None
        raise GameOver("the game is over" if over else "no hand is being played", over)
    if hand.to_move != seat:
        raise NotYourTurn(f"it is seat {hand.to_move}'s turn, not seat {seat}'s", hand.to_move)
    if not text.strip():
        raise EmptyMove("empty move; write a tile like 6-4, or pass, draw, end")
    legal = hand.legal_moves()
    key = text.strip()
    if key.isdecimal() and key.isascii():  # a move's number, as the hand lists them
        return by_key(legal, key)
    wanted = parse_action(text, seat)
    if wanted.action is not Action.PLAY:
        if wanted in legal:
            return wanted
        raise CannotNow(f"you cannot {wanted.action.value} now", wanted.action)
    tile = wanted.tile
    assert tile is not None
    if not hand.hands[seat] >> tile & 1:
        raise NotYourTile(f"you do not have {tile}", tile)
    fits = tuple(
        m
        for m in legal
        if m.tile == tile
        and (wanted.on is None or m.on == wanted.on)
        and (wanted.side is None or m.side == wanted.side)
        and (wanted.train is None or m.train == wanted.train)
    )
    if len(fits) == 1:
        return fits[0]
    if not fits:
        tile_moves = tuple(m for m in legal if m.tile is not None)
        options = ", ".join(m.action_text() for m in tile_moves) or "-"
        raise DoesNotFit(
            f"{wanted.action_text()} does not fit; you can play: {options}", tile, tile_moves
        )
    where = ", ".join(m.action_text() for m in fits)
    raise Ambiguous(f"{tile} fits in more than one place: {where}", tile, fits)


def confirm(game: Game, seat: int, move: Move) -> Move:
    """``move``, given whole (a button's, in RECORD.md notation), if ``seat`` may make it
    now: one of :meth:`~engine.game.Game.legal_moves`. Else the precise reason, as
    :func:`resolve` gives it for the same words (GameOver, NotYourTurn, CannotNow,
    NotYourTile, DoesNotFit). Changes nothing.

    >>> from engine.game import Game
    >>> from engine.rules import Rules
    >>> game = Game(Rules.from_preset("partnership"), 4)
    >>> hand = game.start_hand(seed=7)
    >>> move = game.legal_moves()[0]
    >>> confirm(game, move.seat, Move.parse(str(move))) == move
    True
    """
    hand = game.hand
    if hand is None:
        over = game.outcome is not None
        raise GameOver("the game is over" if over else "no hand is being played", over)
    if move.seat != seat or hand.to_move != seat:
        raise NotYourTurn(f"it is seat {hand.to_move}'s turn, not seat {seat}'s", hand.to_move)
    legal = hand.legal_moves()
    if move in legal:
        return move
    # not a move of now: the reason the same words typed would be refused for; words that
    # would name another move (an opening tile's, given on a table) name none given whole
    resolve(game, seat, move.action_text())
    assert move.tile is not None  # (a pass, draw or end that is not legal: CannotNow)
    tile_moves = tuple(m for m in legal if m.tile is not None)
    raise DoesNotFit(f"{move.action_text()} is not a move now", move.tile, tile_moves)
