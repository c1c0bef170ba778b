"""One round of Mexican Train (RULES.md, seed 002).

Trains are numbered 0..n-1 (each seat's personal train) and n (the Mexican train; moves
write it ``on mexican``). A train is a list of open ends ``(number, tile)`` whose tile is
-1 for the engine: one end normally, two after a forked double. A double at an open end
with nothing on it is *unsatisfied*; a tile laid on it satisfies it.

Turns: during the first round (unless ``first_turn_one_tile``) each player in turn lays
a chain on their own train and closes it with ``end``, or passes and gets a marker.
After that a turn is one tile; a double obliges one more tile; a player who cannot play
draws one and plays it if it fits, else passes and marks their train.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.hand import Hand
from engine.moves import KEEP_ROWS_UP_TO, MEXICAN, Action, Move, interned_row
from engine.outcome import HandResult
from engine.rules import Rules
from engine.scoring import score_round
from engine.tiles import HI, LO, NUMBER_MASK, TILES, Tile

_PLAY, _PASS, _DRAW, _END = Action.PLAY, Action.PASS, Action.DRAW, Action.END

RoundEnd = Literal["domino", "blocked"]

_MOVES: dict[int, Move] = {}
# The plays of a seat's fitting tiles on one train, kept by seat, then train (index 0:
# the Mexican train, 1 + t: train t), then the fitting tiles: a small key of its own,
# not one number of all three (on a double-12 set the tiles alone are a big int; an
# eight-player round took 4.14M instructions, now 3.91M).
_ROWS: list[list[dict[int, list[Move]]]] = [[{} for _ in range(10)] for _ in range(8)]
_ROWS_MAX = 200_000  # rows kept over every seat and train: a long-lived process
_rows_kept = 0  # cannot grow them without end


def train_move(seat: int, tile: int, train: int) -> Move:
    """The interned play of ``tile`` on ``train`` (``MEXICAN`` for the Mexican train)."""
    key = (seat * 10 + train + 1) * 256 + tile
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(seat, _PLAY, TILES[tile], train=train)
    return move


def _row(seat: int, fit: int, train: int, keep: bool) -> list[Move]:
    """The plays of the tiles in ``fit`` by ``seat`` on ``train`` (``MEXICAN``, or a seat);
    looked up and kept only when ``keep`` (sets up to KEEP_ROWS_UP_TO)."""
    if not keep:
        base = (seat * 10 + train + 1) * 256  # train_move's key, less the tile
        return interned_row(fit, base, _MOVES, train_move, seat, train)
    rows = _ROWS[seat][train + 1]
    row = rows.get(fit)
    return row if row is not None else _new_row(rows, seat, fit, train)


def _new_row(rows: dict[int, list[Move]], seat: int, fit: int, train: int) -> list[Move]:
    global _rows_kept
    if _rows_kept >= _ROWS_MAX:
        for by_train in _ROWS:
            for kept in by_train:
                kept.clear()
        _rows_kept = 0
    _rows_kept += 1
    # most rows are new with eight players: no call a tile (an eight-player round took
    # 3.66M instructions, now 3.56M)
    base = (seat * 10 + train + 1) * 256  # train_move's key, less the tile
    row = interned_row(fit, base, _MOVES, train_move, seat, train)
    rows[fit] = row  # kept once whole: a computer player's thread may read it meanwhile
    return row


_ALLOWED: dict[int, list[int]] = {}  # (players, seat, markers) -> trains open to the seat
_OWN = [[seat] for seat in range(8)]  # a seat whose train has not left the station

_SIMPLE = {
    (seat, action): Move(seat, action) for seat in range(8) for action in (_PASS, _DRAW, _END)
}


@dataclass(frozen=True, slots=True)
class TrainView:
    """One train as everyone sees it."""

    owner: int | None  # None: the Mexican train
    tiles: tuple[Tile, ...]  # in the order they were laid
    ends: tuple[int, ...]  # numbers open at its end(s)
    marked: bool  # open to everyone (always true of the Mexican train)


class TrainHand(Hand):
    """A Mexican Train round from its deal to its end."""

    WORD = "round"
    YOU_CAN = "you can"

    __slots__ = (
        "_bone_at",
        "_drawn",
        "_due",
        "_ends_fit",
        "_first_left",
        "_forked",
        "_keep_rows",
        "_open_doubles",
        "_owe",
        "_seek",
        "_started",
        "_turn_duty",
        "_turn_start",
        "_turn_tiles",
        "boneyard",
        "closer",
        "ended",
        "ends",
        "engine",
        "engine_down",
        "first_seat",
        "hands",
        "laid",
        "marked",
        "moves",
        "opener",
        "players",
        "rules",
        "stamps",
        "to_move",
    )

    def __init__(
        self,
        rules: Rules,
        hands: list[int],
        boneyard: list[Tile],
        first_seat: int,
        engine: Tile,
        engine_on_table: bool,
        seek_double: bool = False,
    ) -> None:
        n = len(hands)
        self.rules = rules
        self.players = n
        self.hands = list(hands)
        self.boneyard = list(boneyard)
        self._bone_at = 0
        self.engine = engine
        self.engine_down = engine_on_table
        self.first_seat = first_seat  # whose first turn comes first
        self.opener = first_seat
        self.to_move = first_seat
        self.ends: list[list[tuple[int, int]]] = [[(engine.hi, -1)] for _ in range(n + 1)]
        self.laid: list[list[Tile]] = [[] for _ in range(n + 1)]
        self.marked = 0  # bit i: seat i's train carries a marker
        self.stamps: dict[int, int] = {}  # double -> the move that laid it
        self.moves: list[Move] = []
        self.ended: RoundEnd | None = None
        self.closer: int | None = None
        self._first_left = 0 if rules.first_turn_one_tile else n  # first turns still to come
        self._started = False  # the player to move has laid a tile this turn
        self._turn_start = 0
        self._turn_tiles = 0
        self._turn_duty = False  # the turn began with a double to satisfy
        self._owe = -1  # train of the double that obliges one more tile, or -1
        self._drawn = -1
        self._forked: set[int] = set()  # doubles laid forked: their free side is always due
        self._open_doubles: dict[int, int] = {}  # double -> open ends showing it
        self._due: tuple[int, int] | None = None  # the duty of this turn, fixed at its start
        # the tiles that fit an open end of any train, -1 until asked again after a tile
        # is laid: a round's late turns are mostly passes, each asking whether the round
        # is blocked (5% of an eight-player round's cost)
        self._ends_fit = -1
        # engine_from = holder and nobody dealt a double: seats draw until one draws a
        # double, which becomes the engine
        self._seek = seek_double
        self._keep_rows = rules.set <= KEEP_ROWS_UP_TO
        self._legal = None

    # ----- reading -------------------------------------------------------------------

    @property
    def first_round(self) -> bool:
        """Players are still taking the first turns that lay a chain on their own train."""
        return self._first_left > 0

    @property
    def count(self) -> int:
        return 0

    @property
    def scored(self) -> list[int]:
        return [0] * self.players

    def unsatisfied(self) -> list[tuple[int, Tile]]:
        """(train, double) of every double still waiting for its tile, in duty order."""
        found = [
            (self.stamps[tile], train, TILES[tile])
            for train, ends in enumerate(self.ends)
            for _, tile in ends
            if tile >= 0 and HI[tile] == LO[tile]
        ]
        found.sort(reverse=self.rules.satisfy_order == "newest_first")
        return [(self._name(train), double) for _, train, double in found]

    def trains(self) -> list[TrainView]:
        n = self.players
        return [
            TrainView(
                None if t == n else t,
                tuple(self.laid[t]),
                tuple(number for number, _ in self.ends[t]),
                t == n or bool(self.marked >> t & 1),
            )
            for t in range(n + 1)
        ]

    def _name(self, train: int) -> int:
        return MEXICAN if train == self.players else train

    def _duty(self, start: int | None = None) -> tuple[int, int] | None:
        """(train, end index) of the double the player to move must satisfy, if any.

        Doubles laid at or after the move ``start`` (default: this turn's first move) are
        not due yet: a player's extra tile after a double may go anywhere.
        """
        rules = self.rules
        if not self._open_doubles or self._first_left:
            return None
        if not rules.satisfy_doubles and not self._forked:
            return None
        best: tuple[int, int, int] | None = None
        newest = rules.satisfy_order == "newest_first"
        start = self._turn_start if start is None else start
        for train, ends in enumerate(self.ends):
            for i, (_, tile) in enumerate(ends):
                if tile < 0 or HI[tile] != LO[tile]:
                    continue
                if not rules.satisfy_doubles and tile not in self._forked:
                    continue
                stamp = self.stamps[tile]
                if stamp >= start:
                    continue  # laid in this very turn: its duty starts with the next one
                if best is None or (stamp > best[0] if newest else stamp < best[0]):
                    best = (stamp, train, i)
        return None if best is None else (best[1], best[2])

    def _allowed(self, seat: int) -> list[int]:
        """Trains the seat may play on now (never mutate: lists are shared).

        Until the seat's own train has left the station (holds a tile, laid by anyone),
        the seat may only start it: no marked train, no Mexican train.
        """
        if not self.laid[seat] or (self._first_left and not self.rules.first_turn_one_tile):
            return _OWN[seat]
        key = (self.players * 8 + seat) * 256 + self.marked
        trains = _ALLOWED.get(key)
        if trains is None:
            n = self.players
            marked = self.marked
            trains = [t for t in range(n) if t == seat or marked >> t & 1] + [n]
            _ALLOWED[key] = trains
        return trains

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to play; a new list each call. Empty once the
        round ended."""
        if self.ended is not None:
            return []
        seat = self.to_move
        hand = self.hands[seat]
        if not self.engine_down:
            if hand >> self.engine & 1:
                return [Move(seat, _PLAY, self.engine)]
            return [_SIMPLE[(seat, _DRAW)]]
        if self._drawn >= 0:
            hand = 1 << self._drawn
        moves = self._plays(seat, hand)
        if moves:
            if self._first_left and self._started:
                moves.append(_SIMPLE[(seat, _END)])
            return moves
        if self._first_left and self._started:
            return [_SIMPLE[(seat, _END)]]
        if self._may_draw():
            return [_SIMPLE[(seat, _DRAW)]]
        return [_SIMPLE[(seat, _PASS)]]

    def _may_draw(self) -> bool:
        if self._first_left and not self.rules.first_turn_one_tile:
            return False  # a first turn never draws
        if self._owe >= 0 or self._drawn >= 0:
            return False  # the extra tile after a double is never drawn for
        return self._bone_at < len(self.boneyard)

    def _plays(self, seat: int, hand: int) -> list[Move]:
        duty = self._due if self._turn_tiles == 0 else None
        if duty is not None:
            train, i = duty
            fit = hand & NUMBER_MASK[self.ends[train][i][0]]
            return list(_row(seat, fit, self._name(train), self._keep_rows)) if fit else []
        owe_fork = False
        if self._owe >= 0:
            if self.rules.one_double_per_turn:
                hand &= ~_DOUBLES_OF_SET
            owe_fork = self.rules.forked_doubles
        # the extra tile after a forked double goes on that double
        trains = [self._owe] if owe_fork else self._allowed(seat)
        moves: list[Move] = []
        all_ends = self.ends
        n = self.players
        rows = _ROWS[seat]
        keep = self._keep_rows
        for train in trains:
            ends = all_ends[train]
            if len(ends) == 1 and not owe_fork:
                fit = hand & NUMBER_MASK[ends[0][0]]
                if fit:  # _row's lookup, written out: a call less on most trains
                    row = rows[0 if train == n else train + 1].get(fit) if keep else None
                    moves += row if row is not None else _row(seat, fit, self._name(train), keep)
                continue
            if owe_fork:
                fit = 0
                for number, tile in ends:
                    if tile >= 0 and HI[tile] == LO[tile] and self.stamps[tile] >= self._turn_start:
                        fit |= hand & NUMBER_MASK[number]
            else:
                fit = 0
                for number, _ in ends:
                    fit |= hand & NUMBER_MASK[number]
            if fit:
                moves += _row(seat, fit, MEXICAN if train == n else train, keep)
        return moves

    # ----- changing ------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Make a move known to be legal (from :meth:`legal_moves`), without checks."""
        seat = move.seat
        action = move.action
        self.moves.append(move)
        self._legal = None
        if action is _PLAY:
            tile: int = move.tile  # type: ignore[assignment]
            self.hands[seat] ^= 1 << tile
            if move.train is None:  # the engine, found in a hand
                self.engine_down = True
                self.first_seat = self.opener = seat
                self._turn_start = len(self.moves)
                return
            self._lay(seat, tile, self.players if move.train == MEXICAN else move.train)
        elif action is _DRAW:
            drawn = self.boneyard[self._bone_at]
            self._bone_at += 1
            self.hands[seat] |= 1 << drawn
            if not self.engine_down:
                if self._seek and HI[drawn] == LO[drawn]:
                    self._seek = False  # the first double drawn is the engine
                    self.engine = TILES[drawn]
                    self.ends = [[(HI[drawn], -1)] for _ in range(self.players + 1)]
                    self._ends_fit = -1
                elif drawn != self.engine:
                    self._next_turn(seat)
                return
            # It must be played at once if it fits anywhere the seat may play; if not,
            # the seat's only move is to pass.
            self._drawn = drawn
            if not self._first_left:
                self._check_blocked()
        elif action is _PASS:
            marker = not (self._turn_duty and self.rules.no_marker_when_satisfying)
            if marker:
                self.marked |= 1 << seat
            self._next_turn(seat)
        else:  # END of a first turn
            self._next_turn(seat)

    def _lay(self, seat: int, tile: int, train: int) -> None:
        rules = self.rules
        ends = self.ends[train]
        hi, lo = HI[tile], LO[tile]
        duty = self._due if self._turn_tiles == 0 else None
        if duty is not None:
            i = duty[1]  # the tile that satisfies a double goes on that double
        elif self._owe >= 0 and rules.forked_doubles:
            i = next(
                j
                for j, (number, at) in enumerate(ends)
                if at >= 0
                and HI[at] == LO[at]
                and number in (hi, lo)
                and self.stamps[at] >= self._turn_start
            )
        elif len(ends) == 1:
            i = 0
        else:
            i = next(j for j, (number, _) in enumerate(ends) if number in (hi, lo))
        number, covered = ends[i]
        self._ends_fit = -1
        if covered >= 0 and HI[covered] == LO[covered]:
            left = self._open_doubles[covered] - 1
            if left:
                self._open_doubles[covered] = left
            else:
                del self._open_doubles[covered]
        if hi == lo:
            self.stamps[tile] = len(self.moves) - 1
            ends[i] = (number, tile)
            self._open_doubles[tile] = 1
            if rules.forked_doubles and not self._first_left:
                ends.insert(i + 1, (number, tile))
                self._forked.add(tile)
                self._open_doubles[tile] = 2
        else:
            ends[i] = (lo if number == hi else hi, tile)
        self.laid[train].append(TILES[tile])
        self.closer = seat
        if self.marked:
            self._remove_markers(seat, train)
        self._drawn = -1
        self._turn_tiles += 1
        self._started = True
        if not self.hands[seat]:
            if self._first_left:
                self._next_turn(seat)  # the round goes on until every first turn is taken
            else:
                self._end("domino")
            return
        if self._first_left and not rules.first_turn_one_tile:
            return  # the first turn goes on until the player says end
        if hi == lo:
            self._owe = train  # a double obliges one more tile
            if self._bone_at >= len(self.boneyard) and not self._plays(seat, self.hands[seat]):
                # The player will have to pass; the round may be over already.
                self._check_blocked(len(self.moves))
            return
        self._next_turn(seat)

    def _remove_markers(self, seat: int, train: int) -> None:
        rule = self.rules.marker_removed_by
        if rule == "owner":
            if train == seat:
                self.marked &= ~(1 << seat)
        elif rule == "anyone":
            if train < self.players:
                self.marked &= ~(1 << train)
        else:  # owner_plays_anywhere
            self.marked &= ~(1 << seat)

    def _next_turn(self, seat: int) -> None:
        n = self.players
        self._owe = -1
        self._drawn = -1
        self._turn_tiles = 0
        self._started = False
        self._turn_start = len(self.moves)
        self.to_move = (seat + 1) % n
        if self._first_left and self.engine_down:
            self._first_left -= 1
            if self._first_left == 0 and not all(self.hands):
                self._end("domino")
                return
        if not self.engine_down:
            return
        due = self._due = self._duty() if self._open_doubles and not self._first_left else None
        self._turn_duty = due is not None
        if not self._first_left and self._bone_at >= len(self.boneyard):
            self._blocked_by(due)  # (the duty just found: searching it again cost 9%)

    def _check_blocked(self, start: int | None = None) -> None:
        """End the round if nobody can ever play again (``start`` as in :meth:`_duty`)."""
        if self._bone_at < len(self.boneyard):
            return
        self._blocked_by(self._duty(start))

    def _blocked_by(self, duty: tuple[int, int] | None) -> None:
        """End the round (boneyard empty) if nobody can play again, ``duty`` the double due."""
        if duty is not None:
            train, i = duty
            fits = start_only = NUMBER_MASK[self.ends[train][i][0]]
        else:
            fits = self._ends_fit
            if fits < 0:
                fits = 0
                for ends in self.ends:
                    for number, _ in ends:
                        fits |= NUMBER_MASK[number]
                self._ends_fit = fits
            start_only = NUMBER_MASK[self.engine.hi]  # a train yet to leave the station
        laid = self.laid
        for seat, h in enumerate(self.hands):
            if h & (fits if laid[seat] else start_only):
                return
        self._end("blocked")

    def result(self, scores: list[int]) -> HandResult:
        return score_round(self.rules, self)

    def copy(self) -> TrainHand:
        other: TrainHand = self._copy_slots()
        other.ends = [list(e) for e in self.ends]
        other.laid = [list(t) for t in self.laid]
        other.stamps = dict(self.stamps)
        other._forked = set(self._forked)
        other._open_doubles = dict(self._open_doubles)
        return other

    # ----- explaining ----------------------------------------------------------------

    def _why_not(self, move: Move, legal: list[Move], options: str) -> str:
        seat = move.seat
        if move.action is _PLAY:
            tile = move.tile
            assert tile is not None
            if not self.engine_down:
                return f"the engine {self.engine} has to be set out first; you can: {options}"
            if move.on is not None or move.train is None:
                return (
                    f"say which train {tile} goes on ({tile} on train:{seat}); you can: {options}"
                )
            if move.train != MEXICAN and not 0 <= move.train < self.players:
                return f"there is no train {move.train}; you can: {options}"
            if self._drawn >= 0 and tile != self._drawn:
                return f"after drawing you may only play the tile you drew: {options}"
            duty = self._due if self._turn_tiles == 0 else None
            if duty is not None:
                train, i = duty
                return (
                    f"the double {TILES[self.ends[train][i][1]]} must be satisfied first; "
                    f"you can: {options}"
                )
            train = self.players if move.train == MEXICAN else move.train
            if train not in self._allowed(seat):
                where = "the Mexican train" if train == self.players else f"train {train}"
                if self._first_left:
                    return f"a first turn builds only your own train; you can: {options}"
                if not self.laid[seat]:
                    return (
                        f"your train has not left the station: you may only start it; "
                        f"you can: {options}"
                    )
                return f"{where} has no marker: you may not play there; you can: {options}"
            return f"{tile} does not fit there; you can: {options}"
        if move.action is _DRAW:
            return f"you cannot draw now; you can: {options}"
        return f"you cannot end a turn now; you can: {options}"


_DOUBLES_OF_SET = sum(1 << (n * (n + 1) // 2 + n) for n in range(22))
