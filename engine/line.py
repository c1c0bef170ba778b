"""One hand of a line game: the plain line of two ends, or the divisor family's layout
where every double lies crosswise with two halves and two flanks (RULES.md). With
``doubles_in_line`` a divisor game keeps the plain line: a double laid at an end shows
the same number, so it adds nothing to the count; an opening double counts both ends.

The state is mutable and kept in plain ints and tuples for speed: a hand is a bitmask
of tile ids and an open side is ``(number, tile, kind)``. :meth:`LineHand.push` is the
unchecked path that computer players and simulations use; :meth:`LineHand.apply` is the
checked one with precise errors. Views turn the internals into public values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import IllegalMove
from engine.hand import Hand
from engine.moves import KEEP_ROWS_UP_TO, Action, Move, Side, interned_row
from engine.outcome import CountScore, HandResult
from engine.rules import Rules
from engine.scoring import score_hand
from engine.tiles import HI, LO, NUMBER_MASK, TILES, Tile, tiles_of

# Kinds of open side. An END or a HALF counts in divisor games; a FLANK is a free long
# side of a crosswise double that counts nothing until a tile is played on it.
END, HALF, FLANK = 0, 1, 2
_LABEL = (None, Side.HALF, Side.FLANK)
_PLAY, _PASS, _DRAW = Action.PLAY, Action.PASS, Action.DRAW

HandEnd = Literal["domino", "blocked"]
# An open side: (number, tile id, kind, the tiles that fit there, by seat a cache of the
# plays there keyed by the seat's fitting tiles). One interned tuple per place (see
# side_of): legal_moves reads a side's moves without building any key of its own.
RawSide = tuple[int, int, int, int, "SeatRows"]


class SeatRows(list[dict[int, list[Move]]]):
    """A side's plays by seat; hashed by identity, as the sides holding it are interned
    (the hand merges equal sides with dict.fromkeys)."""

    __hash__ = object.__hash__  # type: ignore[assignment]


_MOVES: dict[int, Move] = {}


def play_move(seat: int, tile: int, on: int, kind: int) -> Move:
    """The interned play of ``tile`` on the ``kind`` side of ``on`` (-1: the opening)."""
    key = ((seat * 3 + kind) * 256 + on + 1) * 256 + tile
    move = _MOVES.get(key)
    if move is None:
        move = Move(seat, _PLAY, TILES[tile], None if on < 0 else TILES[on], _LABEL[kind])
        _MOVES[key] = move
    return move


MAX_SEATS = 8

# The plays of a seat's fitting tiles on one side are the same few lists over and over
# (a cache of whole tables and hands missed 40% of the time). Kept by side, then seat,
# then the fitting tiles (a small int, not one key of all four built from big ints: a
# random partnership hand took 638k instructions, now 585k with the _open mask).
_SIDES: dict[int, RawSide] = {}
_ROWS_MAX = 200_000  # rows kept over every side: a long-lived process with big sets
_rows_kept = 0  # cannot grow them without end


def side_of(number: int, tile: int, kind: int) -> RawSide:
    """The open side showing ``number`` against ``tile``, of ``kind`` (interned)."""
    key = (tile * 3 + kind) * 32 + number
    side = _SIDES.get(key)
    if side is None:
        side = (number, tile, kind, NUMBER_MASK[number], SeatRows({} for _ in range(MAX_SEATS)))
        # setdefault: two computer players' threads making the same side keep one of them
        # (crosswise plays find a side by identity)
        side = _SIDES.setdefault(key, side)
    return side


def _new_row(rows: dict[int, list[Move]], seat: int, fit: int, on: int, kind: int) -> list[Move]:
    """The plays of the tiles in ``fit`` by ``seat`` against ``on``, kept in ``rows``."""
    global _rows_kept
    if _rows_kept >= _ROWS_MAX:
        for side in _SIDES.values():
            for kept in side[4]:
                kept.clear()
        _rows_kept = 0
    _rows_kept += 1
    base = ((seat * 3 + kind) * 256 + on + 1) * 256  # play_move's key, less the tile
    row = interned_row(fit, base, _MOVES, play_move, seat, on, kind)
    rows[fit] = row  # kept once whole: a computer player's thread may read it meanwhile
    return row


# OPENING_MOVES[seat][tile]: an opening can be any subset of a hand, too many to cache.
OPENING_MOVES = [[play_move(seat, t, -1, END) for t in range(len(TILES))] for seat in range(8)]
PASS_MOVES = [Move(seat, _PASS) for seat in range(MAX_SEATS)]
DRAW_MOVES = [Move(seat, _DRAW) for seat in range(MAX_SEATS)]


def count_after(count: int, sides: Iterable[tuple[Any, ...]], move: Move, crosswise: bool) -> int:
    """The sum of the open ends once the play ``move`` is made on a table whose open ends
    add up to ``count`` and whose open ``sides`` are (number, tile, kind): the one
    statement of that rule, for the hand and for players who only see its public sides."""
    tile = move.tile
    assert tile is not None
    hi, lo = HI[tile], LO[tile]
    if move.on is None:
        return 2 * hi if crosswise and hi == lo else hi + lo
    kind = END if move.side is None else HALF if move.side is Side.HALF else FLANK
    # (sides as the hand keeps them, or as (number, tile, kind) from a view)
    number = next(s[0] for s in sides if s[1] == move.on and s[2] == kind and s[0] in (hi, lo))
    if kind != FLANK:
        count -= number
    if crosswise and hi == lo:
        return count + 2 * number
    return count + (lo if number == hi else hi)


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on the table: what it was played on and where (for pictures and records)."""

    tile: Tile
    on: Tile | None
    kind: int  # END, HALF or FLANK of ``on`` it was laid against
    number: int  # the number it touches (for the opening tile: its high end)


@dataclass(frozen=True, slots=True)
class OpenSide:
    """A place where a tile showing ``number`` can go, against ``tile``."""

    number: int
    tile: Tile
    kind: int

    @property
    def counts(self) -> bool:
        return self.kind != FLANK


class LineHand(Hand):
    """A line-game hand from its deal to its end."""

    __slots__ = (
        "_bone_at",
        "_build_rows",
        "_count",
        "_crosswise",
        "_divisor",
        "_drawn",
        "_draws",
        "_fits",
        "_held",
        "_open",
        "_opening",
        "_targets",
        "_twins",
        "boneyard",
        "closer",
        "ended",
        "hands",
        "moves",
        "opener",
        "placed",
        "players",
        "rules",
        "scored",
        "sides",
        "to_move",
    )

    def __init__(
        self,
        rules: Rules,
        hands: list[int],
        boneyard: list[Tile],
        opener: int,
        opening: int | None = None,
    ) -> None:
        """``hands`` are bitmasks; ``opening`` masks the tiles the opener may open with."""
        self._setup(rules, hands, boneyard, opener, opening)
        if not self._opening:
            raise IllegalMove(f"seat {opener} holds no tile it may open with")

    def _setup(
        self,
        rules: Rules,
        hands: list[int],
        boneyard: list[Tile],
        opener: int,
        opening: int | None,
    ) -> None:
        self.rules = rules
        self.players = len(hands)
        self.hands = list(hands)
        self.boneyard = list(boneyard)
        self._bone_at = 0
        self.sides: list[RawSide] = []
        self.placed: list[tuple[int, int, int, int]] = []  # (tile, on or -1, kind, number)
        self.to_move = opener
        self.opener = opener
        self._opening = self.hands[opener] if opening is None else opening & self.hands[opener]
        self.moves: list[Move] = []
        self.scored = [0] * self.players
        self.ended: HandEnd | None = None
        self.closer: int | None = None
        self._drawn = -1  # the tile drawn this turn under one_then_pass
        self._targets: list[RawSide] = []
        self._fits = 0  # tiles (of any set) that fit somewhere on the table
        # the tiles the seat to move may play if it holds them: _fits, or only the tile
        # it drew (one_then_pass); 0 before the opening and once ended. legal_moves' one
        # test for "a play is possible" (its other cases cost 0.1 us a move otherwise)
        self._open = 0
        self._count = 0  # the open ends' sum, kept by crosswise plays (see count)
        # sides open twice (a crosswise double's two halves, the opening double's flanks):
        # with none, the sides are the targets as they are, not merged (half of a fido18
        # play's merging)
        self._twins = 0
        # every tile in a hand: the hand is blocked when none fits (hands change by push
        # alone, which keeps this; a what-if with other hands is made by from_public or
        # with_hands)
        self._held = 0
        for mask in self.hands:
            self._held |= mask
        self._legal = None
        self._crosswise = rules.crosswise_doubles
        self._divisor = rules.divisor or 0
        self._draws = rules.draw_rule != "none"
        self._build_rows = rules.set > KEEP_ROWS_UP_TO

    @classmethod
    def from_public(
        cls,
        rules: Rules,
        hands: list[int],
        boneyard: list[Tile],
        placements: Sequence[Placement],
        moves: Sequence[Move],
        to_move: int,
        opener: int,
        scored: Sequence[int],
    ) -> LineHand:
        """A what-if position for search: the public table rebuilt from its placements,
        the hidden hands and boneyard as a computer player imagines them."""
        state = cls.__new__(cls)
        state._setup(rules, hands, boneyard, opener, None)
        for placement in placements:
            side = _LABEL[placement.kind] if placement.on is not None else None
            state._place(placement.tile, placement.on, side)
        if placements:
            state.closer = next((m.seat for m in reversed(moves) if m.action is _PLAY), opener)
        state.moves = list(moves)
        state.scored = list(scored)
        state.to_move = to_move
        return state

    # ----- reading -------------------------------------------------------------------

    @property
    def count(self) -> int:
        """Sum of the open ends (each open half of a double once)."""
        if self._crosswise:  # kept play by play: a dozen sides are not summed each time
            return self._count
        return sum(s[0] for s in self.sides if s[2] != FLANK)

    @property
    def placements(self) -> list[Placement]:
        return [
            Placement(TILES[t], None if on < 0 else TILES[on], kind, number)
            for t, on, kind, number in self.placed
        ]

    def open_sides(self) -> list[OpenSide]:
        """The distinct places a tile can go now (the first play of a hand: none)."""
        return [OpenSide(s[0], TILES[s[1]], s[2]) for s in self._targets]

    def result(self, scores: list[int]) -> HandResult:
        return score_hand(self.rules, self, scores)

    def last_score(self) -> CountScore | None:
        """What the last play scored, if it scored (divisor games): the count stays as
        it left it until the next play, whatever passes and draws come between."""
        if not self._divisor:
            return None
        count = self.count
        if not count or count % self._divisor:
            return None
        last = next((m for m in reversed(self.moves) if m.action is _PLAY), None)
        if last is None:
            return None
        return CountScore(last.seat, count // self._divisor, count, self._divisor)

    def count_after(self, move: Move) -> int:
        """The sum of the open ends if ``move`` (a legal play) were made; nothing changes."""
        return count_after(self.count, self.sides, move, self._crosswise)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to play, in a stable order; a new list each call.
        Empty once the hand ended."""
        seat = self.to_move
        hand = self.hands[seat] & self._open
        if not hand:
            return self._no_play_moves(seat)
        moves: list[Move] = []
        if self._build_rows:  # big sets (see KEEP_ROWS_UP_TO)
            for _, on, kind, mask, _seats in self._targets:
                fit = hand & mask
                if fit:
                    base = ((seat * 3 + kind) * 256 + on + 1) * 256  # play_move's key
                    moves += interned_row(fit, base, _MOVES, play_move, seat, on, kind)
            return moves
        for _, on, kind, mask, by_seat in self._targets:
            fit = hand & mask
            if fit:
                rows = by_seat[seat]
                row = rows.get(fit)
                moves += row if row is not None else _new_row(rows, seat, fit, on, kind)
        return moves

    def _no_play_moves(self, seat: int) -> list[Move]:
        """The moves when no tile of the seat's can go on the table as it lies: none once
        the hand ended, the opening, a pass or a draw."""
        if self.ended is not None:
            return []
        if not self.placed:
            opens = OPENING_MOVES[seat]
            return [opens[t] for t in tiles_of(self._opening)]
        if not self._draws or self._drawn >= 0 or self._bone_at >= len(self.boneyard):
            return [PASS_MOVES[seat]]
        return [DRAW_MOVES[seat]]

    # ----- changing ------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Make a move known to be legal (from :meth:`legal_moves`), without checks."""
        seat = move.seat
        self.moves.append(move)
        self._legal = None
        action = move.action
        if action is _PLAY:
            tile: int = move.tile  # type: ignore[assignment]
            bit = 1 << tile
            hands = self.hands
            left = hands[seat] ^ bit
            hands[seat] = left
            held = self._held = self._held ^ bit
            self._drawn = -1
            self.closer = seat
            on = move.on
            if on is not None and not self._crosswise:
                self._lay_on_line(tile, on)
            else:
                self._place(tile, on, move.side)
            if self._divisor:  # divisor games, doubles crosswise or in line
                # (the count property's own test, without its call: 1% of a fido18 move)
                count = self._count if self._crosswise else self.count
                if count and count % self._divisor == 0:
                    self.scored[seat] += count // self._divisor
            if not left:
                self._end("domino")
                return
            self.to_move = seat + 1 if seat + 1 < self.players else 0
            if not held & self._fits:  # (most plays leave a tile that fits: no call)
                self._check_blocked()
            return
        if action is _DRAW:
            drawn = self.boneyard[self._bone_at]
            self._bone_at += 1
            self.hands[seat] |= 1 << drawn
            self._held |= 1 << drawn
            rule = self.rules.draw_rule
            if rule != "one_ends_turn":
                if rule == "one_then_pass":
                    self._drawn = drawn  # now play it if it fits, else pass
                    self._open = self._fits & 1 << drawn
                self._check_blocked()
                return  # the same seat goes on
        else:
            # A pass changes neither the hands nor the table: it cannot block the hand.
            if self._drawn >= 0:
                self._drawn = -1
                self._open = self._fits
            self.to_move = (seat + 1) % self.players
            return
        self.to_move = (seat + 1) % self.players  # a draw that ends the turn
        self._check_blocked()

    def _lay_on_line(self, tile: int, on: int) -> None:
        """The plain line (no crosswise doubles): the tile replaces the open end it was
        laid against. Most of every simulation, so kept lean."""
        hi = HI[tile]
        lo = LO[tile]
        sides = self.sides
        end = sides[0]
        if end[1] != on or (end[0] != hi and end[0] != lo):
            end = sides[1]
            i = 1
        else:
            i = 0
        number = end[0]
        other = lo if number == hi else hi
        # side_of(other, tile, END), its key written out (a call less a move)
        sides[i] = _SIDES.get(tile * 96 + other) or side_of(other, tile, END)
        self.placed.append((tile, on, END, number))
        self._targets = sides  # two ends on two different tiles: nothing to merge
        self._fits = self._open = sides[0][3] | sides[1][3]

    def _place(self, tile: int, on: int | None, side: Side | None) -> None:
        """Any play: the opening, a crosswise layout's sides, or the plain line."""
        if on is not None and not self._crosswise:
            self._lay_on_line(tile, on)
            return
        hi, lo = HI[tile], LO[tile]
        sides = self.sides
        if on is None:
            if self._crosswise and hi == lo:
                sides[:] = [side_of(hi, tile, HALF)] * 2 + [side_of(hi, tile, FLANK)] * 2
                self._twins = 2
            else:
                sides[:] = [side_of(hi, tile, END), side_of(lo, tile, END)]
                self._twins = 1 if hi == lo else 0
            self._count = hi + lo
            self.placed.append((tile, -1, END, hi))
            self._refresh_targets()
            return
        kind = END if side is None else HALF if side is Side.HALF else FLANK
        # The side is the first against ``on``, of ``kind``, showing the number the two
        # tiles share (one: two tiles sharing both are one tile). Sides are interned, so
        # it is found by identity in C (a loop over a dozen sides took 1 us of a fido18
        # play's 5).
        shared = HI[on] if HI[on] == hi or HI[on] == lo else LO[on]
        try:
            i = sides.index(_SIDES[(on * 3 + kind) * 32 + shared])
        except (KeyError, ValueError):  # pragma: no cover - push() is given legal moves
            raise IllegalMove(f"{TILES[tile]} has nowhere to go on {on}") from None
        covered = sides[i]
        number = covered[0]
        twinned = kind != END and sides.count(covered) > 1
        if twinned:
            self._twins -= 1  # its twin stays open, alone now
        if kind != FLANK:
            self._count -= number
        if hi == lo:
            new = side_of(number, tile, HALF)
            flank = side_of(number, tile, FLANK)
            sides[i] = new
            sides.append(new)
            sides.append(flank)
            self._count += 2 * number
            self._twins += 1
        else:
            other = lo if number == hi else hi
            # side_of(other, tile, END), its key written out as in _lay_on_line
            new = sides[i] = _SIDES.get(tile * 96 + other) or side_of(other, tile, END)
            self._count += other
        self.placed.append((tile, on, kind, number))
        if twinned:
            self._refresh_targets()
            return
        # The covered side was open once, and the sides against the new tile are new: the
        # distinct sides are the old ones with the new side where the covered one stood
        # (and a double's flank last), found without merging every side again (a fido18
        # play cost 0.4 us less). A new list: a copy of this hand may share the old one.
        targets = self._targets
        if targets is not sides:
            targets = targets[:]
            targets[targets.index(covered)] = new
        if hi == lo:
            if targets is sides:  # no twins before this double: its second half is one
                targets = sides[:-2]
            targets.append(flank)
        self._refresh_targets(targets)

    def _refresh_targets(self, targets: list[RawSide] | None = None) -> None:
        """The distinct open sides (``targets``, when the play found them) and the tiles
        that fit one of them."""
        if targets is None:
            if self._crosswise and len(self.placed) == 1:
                # the second tile of a divisor hand goes on a flank of the opening double
                targets = list(dict.fromkeys(s for s in self.sides if s[2] != HALF))
            elif self._twins:
                targets = list(dict.fromkeys(self.sides))
            else:  # (changed by _place alone, which always comes back here)
                targets = self.sides
        self._targets = targets
        fits = 0
        for side in targets:
            fits |= side[3]
        self._fits = self._open = fits

    def _end(self, how: str) -> None:
        self.ended = how  # type: ignore[assignment]
        self._open = 0

    def _check_blocked(self) -> None:
        """End the hand if nobody can play: no tile held fits and none can be drawn."""
        if self._draws and self._bone_at < len(self.boneyard):
            return
        if not self._held & self._fits:
            self._end("blocked")

    def with_hands(self, hands: list[int], boneyard: list[Tile]) -> LineHand:
        """A copy with other hands and boneyard: a computer player's imagined deal on the
        table as it lies (rebuilt once by :meth:`from_public`, not for every deal)."""
        other = self.copy()
        other.hands = list(hands)
        other.boneyard = list(boneyard)
        other._bone_at = 0
        held = 0
        for mask in hands:
            held |= mask
        other._held = held
        if not self.placed:
            other._opening = hands[self.opener]
        return other

    def copy(self) -> LineHand:
        other: LineHand = self._copy_slots()
        other.sides = list(self.sides)
        if self._targets is self.sides:
            other._targets = other.sides
        other.placed = list(self.placed)
        other.scored = list(self.scored)
        return other

    # ----- explaining ----------------------------------------------------------------

    def _why_not(self, move: Move, legal: list[Move], options: str) -> str:
        if move.action is _PLAY:
            tile = move.tile
            assert tile is not None
            if not self.placed:
                if move.on is not None or move.train is not None:
                    return f"the table is empty: open with a tile alone ({options})"
                return f"this hand must open with {options}"
            if self._drawn >= 0 and tile != self._drawn:
                return f"after drawing you may only play the tile you drew: {options}"
            if move.train is not None:
                return f"there are no trains in this game; you can play: {options}"
            here = [m for m in legal if m.tile == tile]
            if move.on is None:
                if here:
                    return f"say where {tile} goes: " + ", ".join(m.action_text() for m in here)
                return f"{tile} fits nowhere now; you can play: {options}"
            if not any(s[1] == move.on for s in self.sides):
                return f"{move.on} is not an open end of the table; you can play: {options}"
            if here:
                return f"{tile} cannot go there; it can go: " + ", ".join(
                    m.action_text() for m in here
                )
            return f"{tile} does not fit on {move.on}; you can play: {options}"
        if move.action is _DRAW:
            if not self._draws:
                return f"there is nothing to draw in this game; you can play: {options}"
            if self._bone_at >= len(self.boneyard):
                return f"the boneyard is empty; you can: {options}"
            return f"you cannot draw now; you can: {options}"
        return f"'{move.action.value}' is not a move of this game; you can: {options}"
