"""What every kind of hand shares: the checked move, the end, the tiles left."""

from __future__ import annotations

from typing import Any

from engine.errors import GameOver, IllegalMove, NotYourTurn
from engine.moves import Action, Move
from engine.outcome import HandResult
from engine.tiles import Tile, pips_of, tiles_of


class Hand:
    """Base of :class:`~engine.line.LineHand` and :class:`~engine.train.TrainHand`.

    A subclass keeps ``hands`` (bitmasks), ``boneyard`` and ``_bone_at``, ``to_move``,
    ``ended`` and ``_legal``, and provides ``legal_moves``, ``push`` (which forgets
    ``_legal``), ``result`` and ``_why_not``.
    A hand knows nothing of its game: the game reads ``ended`` after a move and scores
    the hand with ``result``.
    """

    __slots__ = ("_legal",)  # the legal moves of this moment, once asked (push forgets)
    WORD = "hand"  # what players call one deal of this game ("round" in Mexican Train)
    YOU_CAN = "you can play"  # how a refusal introduces the legal moves

    hands: list[int]
    boneyard: list[Tile]
    _bone_at: int
    to_move: int
    ended: Any
    _legal: list[Move] | None

    def _copy_slots(self) -> Any:
        """A copy sharing every field, with its own hands and moves: a private what-if
        (no game holds it). Subclasses copy their other mutable fields."""
        cls = type(self)
        other: Any = cls.__new__(cls)  # the subclass's slots, unknown here
        names: tuple[str, ...] = cls.__slots__
        for name in names:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.moves = list(self.moves)  # type: ignore[attr-defined]
        other._legal = None  # (not among the subclass's slots) a what-if may get other hands
        return other

    def legal_moves(self) -> list[Move]:  # pragma: no cover - abstract
        """Every legal move of the seat to play, in a stable order; a new list each call.
        Empty once it ended."""
        raise NotImplementedError

    def kept_moves(self) -> list[Move]:
        """:meth:`legal_moves`, kept until the next move for :meth:`apply`: the checked
        path (Game.legal_moves, then Game.apply) computes them once, not twice (0.5 us a
        move). The list returned is the caller's own."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.legal_moves()
        return legal[:]

    def push(self, move: Move) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def result(self, scores: list[int]) -> HandResult:  # pragma: no cover - abstract
        """The ended hand scored by its rules, against the scores written before it."""
        raise NotImplementedError

    def _why_not(self, move: Move, legal: list[Move], options: str) -> str:  # pragma: no cover
        """Why ``move`` is refused, for what the shared checks do not cover."""
        raise NotImplementedError

    def _why_illegal(self, move: Move, legal: list[Move]) -> str:
        options = ", ".join(m.action_text() for m in legal)
        tile = move.tile
        if (
            move.action is Action.PLAY
            and tile is not None
            and not self.hands[move.seat] >> tile & 1
        ):
            return f"you do not have {tile}; {self.YOU_CAN}: {options}"
        if move.action is Action.PASS:
            return f"you cannot pass while you can play: {options}"
        return self._why_not(move, legal, options)

    @property
    def over(self) -> bool:
        return self.ended is not None

    @property
    def boneyard_left(self) -> int:
        return len(self.boneyard) - self._bone_at

    def hand(self, seat: int) -> list[Tile]:
        return tiles_of(self.hands[seat])

    def pips(self) -> list[int]:
        """Pips left in each seat's hand."""
        return [pips_of(h) for h in self.hands]

    def apply(self, move: Move) -> None:
        """Make ``move`` if it is legal now; otherwise raise and change nothing."""
        legal = self._legal
        if legal is None:
            legal = self.legal_moves()
        # the moves legal_moves gives are interned: found by identity first, which skips
        # comparing field by field (a move built elsewhere, parsed, is found by equality)
        for candidate in legal:
            if candidate is move:
                self.push(move)
                return
        if move in legal:
            self.push(move)
            return
        # refused: why, the plainest reason first (a legal move is never of another seat)
        if self.ended is not None:
            raise GameOver(f"this {self.WORD} is over")
        if move.seat != self.to_move:
            raise NotYourTurn(
                f"it is seat {self.to_move}'s turn, not seat {move.seat}'s", self.to_move
            )
        raise IllegalMove(self._why_illegal(move, legal))

    def _end(self, how: str) -> None:
        self.ended = how
