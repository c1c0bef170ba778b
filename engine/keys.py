"""Short keys for legal moves: the label under a playable tile in a hand picture is the
label of the button that plays it, so a player can match the two at a glance."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import NoSuchKey
from engine.moves import Move
from engine.tiles import Tile

KEY_DIGITS = 3  # a move's key is a number of at most these digits (a hand lists fewer)


def move_keys(moves: Sequence[Move]) -> list[tuple[str, Move]]:
    """``(key, move)`` for every move, keys "1", "2", ... in the order given."""
    return [(str(i + 1), move) for i, move in enumerate(moves)]


def by_key(moves: Sequence[Move], key: str) -> Move:
    """The move whose key is ``key`` ("2", as :func:`move_keys` gives them); raises
    :class:`~engine.errors.NoSuchKey` when none has it."""
    number = int(key) if key.isdecimal() and len(key) <= KEY_DIGITS else 0
    if not 1 <= number <= len(moves):
        raise NoSuchKey(f"there is no move {key}; the moves are 1 to {len(moves)}", key, len(moves))
    return moves[number - 1]


def keys_by_tile(moves: Sequence[Move]) -> dict[Tile, list[str]]:
    """The keys of the moves that play each tile (a tile may fit in several places)."""
    found: dict[Tile, list[str]] = {}
    for key, move in move_keys(moves):
        if move.tile is not None:
            found.setdefault(move.tile, []).append(key)
    return found
