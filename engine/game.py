"""A game: hands until a target, a hand count, a single hand or the clock ends it.

>>> from engine.rules import Rules
>>> g = Game(Rules.from_preset("partnership"), 4)
>>> hand = g.start_hand(seed=7)
>>> g.to_move == hand.opener, len(g.legal_moves()) == 1
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from engine.deal import (
    Deal,
    Shuffler,
    doubles_held,
    draw_winner,
    drawn_tiles,
    highest_double_holder,
    highest_tile_holder,
)
from engine.errors import CannotOpen, DominoError, GameOver, IllegalMove, RecordError
from engine.line import LineHand
from engine.moves import Action, Move
from engine.outcome import GameEndReason, HandResult, Outcome
from engine.rules import Rules
from engine.scoring import side_of, sides, void_result
from engine.tiles import BIT, DOUBLES_MASK, Tile, double, set_mask, set_tiles, tiles_of
from engine.train import TrainHand

HandState: TypeAlias = LineHand | TrainHand
"""A hand in play: a line game's hand or a round of Mexican Train."""

MAX_REDEALS = 10_000
_NOT_DRAWN = "opening_draw given, but this hand's opener is not drawn (first_opener = draw)"
SHEET_ROWS = 20  # the score sheet's rows a view holds: the latest hands


@dataclass(frozen=True)
class OpenerPlan:
    """Who opens the next hand, as far as the rules say before the deal."""

    mode: str
    seat: int | None = None  # known before the deal
    allowed: frozenset[int] | None = None  # seats a record may name instead


@dataclass(frozen=True)
class Adjustment:
    """Points a judge wrote on the score sheet for one side, with the reason: a penalty
    (negative) or an award. Made during hand ``hand`` (counted from 0) when ``at`` of its
    moves had been made (all of them: after the hand, before the next deal)."""

    side: int
    points: int
    reason: str
    hand: int
    at: int


@dataclass(frozen=True)
class Standing:
    """The game as it stood when a hand was dealt: what resuming there needs besides
    the hands dealt since (their deals and moves)."""

    scores: tuple[int, ...]
    tiebreak: bool
    time_up: bool
    opener: OpenerPlan | None  # line games; a round of Mexican Train follows its number


@dataclass(frozen=True)
class Checkpoint:
    """A game's state at the deal of hand ``hands_before`` (counted from 0): a game
    resumed from it and the hands dealt since is the game replayed from its first hand."""

    hands_before: int  # hands dealt (and finished) before it
    plies_before: int  # moves made in them
    standing: Standing
    sheet: tuple[tuple[int, ...], ...]  # the score sheet's last rows (at most SHEET_ROWS)
    adjustments: tuple[Adjustment, ...] = ()  # written during the hands before it


@dataclass(slots=True)
class HandLog:
    """Everything a record needs to replay one hand, plus its state and result."""

    seed: int | None
    deal: list[list[Tile]]
    boneyard: list[Tile]
    opener: int
    opener_is_choice: bool
    state: HandState
    redeals: int = 0
    time_up_at: int | None = None
    result: HandResult | None = None
    engine: Tile | None = None  # Mexican Train: the engine double set out on the table
    start: Standing | None = None  # the game when this hand was dealt
    adjustments: list[Adjustment] = field(default_factory=list)  # written during it
    # the tiles each seat drew for the opener (first_opener = draw), in seat order; None
    # where no draw chose the opener, or a record named the opener without its draw
    opening_draw: tuple[Tile, ...] | None = None


@dataclass
class Game:
    """A game; ``logs`` hold its hands, or with ``hands_before`` only the latest of them
    (a game resumed from a :class:`Checkpoint`, or one that forgot its older hands)."""

    rules: Rules
    players: int
    started_at: float | None = None
    scores: list[int] = field(default_factory=list)
    logs: list[HandLog] = field(default_factory=list)
    outcome: Outcome | None = None
    time_up: bool = False
    hands_before: int = 0  # hands dealt before logs[0], all finished
    plies_before: int = 0  # moves made in them
    sheet_before: list[tuple[int, ...]] = field(default_factory=list)  # their last rows
    adjustments_before: list[Adjustment] = field(default_factory=list)  # written in them
    _tiebreak: bool = False
    _opener_before: OpenerPlan | None = field(default=None, repr=False)  # of logs[0]
    _tiles: list[Tile] = field(default_factory=list, repr=False)
    # the hand dealt and not yet scored (logs[-1].state), kept apart: reading it is most
    # of what a checked move costs the game (3 reads a move; 0.4 us a move less)
    _playing: HandState | None = field(default=None, repr=False, compare=False)
    _hand_size: int = field(default=0, repr=False)
    _seats_of: list[frozenset[int]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        seats = self.rules.side_seats(self.players)
        if not self.scores:
            self.scores = [0] * len(seats)
        self._tiles = set_tiles(self.rules.set)
        self._hand_size = self.rules.hand_size_for(self.players)
        self._seats_of = [frozenset(side) for side in seats]

    # ----- reading -------------------------------------------------------------------

    # Every read is pure: a hand ended by a push on the hand itself waits, unscored, for
    # settle(); a read that scored it would change the game under whoever was reading.

    @property
    def hand(self) -> HandState | None:
        """The hand being played: None between hands, after the game, and once the hand
        has ended, scored or not (a hand ended by a push on ``game.hand`` itself is
        scored by :meth:`settle`; until then nobody is to move and nothing is legal)."""
        state = self._playing
        return None if state is None or state.ended is not None else state

    @property
    def over(self) -> bool:
        """Whether the game has ended (once its last hand is scored: see :meth:`settle`)."""
        return self.outcome is not None

    def settle(self) -> None:
        """Score the hand in play if it has ended. :meth:`apply` and :meth:`push` do it
        after every move; a caller that pushes on ``game.hand`` itself (the fastest
        path, for simulations) must call it before it reads the game again."""
        state = self._playing
        if state is not None and state.ended is not None:
            self._finish_hand()

    @property
    def to_move(self) -> int | None:
        hand = self.hand
        return None if hand is None else hand.to_move

    @property
    def ply(self) -> int:
        """Moves made in the whole game: what a button press names to be refused when stale."""
        return self.plies_before + sum(len(log.state.moves) for log in self.logs)

    @property
    def hand_number(self) -> int:
        """Hands dealt in the whole game: the number of the hand in play or last played
        (1 for the first), 0 before the first deal."""
        return self.hands_before + len(self.logs)

    @property
    def hands_finished(self) -> int:
        return self.hands_before + sum(1 for log in self.logs if log.result is not None)

    @property
    def adjustments(self) -> list[Adjustment]:
        """Every penalty and award written on the sheet, in the order written."""
        return [*self.adjustments_before, *(a for log in self.logs for a in log.adjustments)]

    def sheet(self, rows: int = SHEET_ROWS) -> list[tuple[int, ...]]:
        """The score sheet's last ``rows`` rows: each finished hand's points by side."""
        recent = [log.result.points for log in self.logs if log.result is not None]
        return [*self.sheet_before, *recent][-rows:] if rows else []

    def opener_choices(self) -> tuple[int, ...]:
        """The seats that may still claim the opening of the hand in play, in seat order.

        Non-empty only when the rules leave the opener to the winning team's choice
        (``next_opener = choose``, a hand after one with a winner) and no move of the hand
        has been made; with ``must_open_with_double`` only the partners holding a double.
        The seat dealt as opener (the winner rule's, the default) is :attr:`to_move`.
        """
        if not self.logs:
            return ()
        log = self.logs[-1]
        plan = log.start.opener if log.start is not None else None
        if (
            log.result is not None
            or log.state.moves
            or plan is None
            or plan.mode != "choose"
            or plan.allowed is None
            or not isinstance(log.state, LineHand)
        ):
            return ()
        hands = log.state.hands
        return tuple(
            seat
            for seat in sorted(plan.allowed)
            if not self.rules.must_open_with_double or hands[seat] & DOUBLES_MASK
        )

    def choose_opener(self, seat: int) -> None:
        """The hand in play (no move made yet) opens with ``seat`` instead: the same deal,
        ``seat`` to move; the record names the hand's ``opener``. Raises
        :class:`~engine.errors.CannotOpen` and changes nothing when ``seat`` is not one
        of :meth:`opener_choices`. Choosing the seat already to move changes nothing."""
        choices = self.opener_choices()
        if seat not in choices:
            raise CannotOpen(self._why_not_opener(seat, choices), seat, choices)
        log = self.logs[-1]
        if log.state.to_move == seat:
            return
        # Deal the hand again from the same seed or deal, with ``seat`` named: exactly
        # what replaying the record (which now names the opener) does.
        self.logs.pop()
        self._playing = None
        try:
            if log.seed is not None:
                self._start_line(log.seed, None, None, seat)
            else:
                self._start_line(None, log.deal, log.boneyard, seat)
        except DominoError:  # pragma: no cover - the seat was checked above
            self.logs.append(log)  # nothing was dealt: the hand stays as it was
            self._playing = log.state
            raise
        self.logs[-1].time_up_at = log.time_up_at

    def _why_not_opener(self, seat: int, choices: tuple[int, ...]) -> str:
        if not choices:
            return "nobody chooses who opens now"
        may = ", ".join(str(s) for s in choices)
        log = self.logs[-1]
        plan = log.start.opener if log.start is not None else None
        team = plan.allowed if plan is not None and plan.allowed is not None else frozenset()
        if seat in team:
            return f"seat {seat} holds no double and may not open; seat {may} may"
        seats = "seats" if len(choices) > 1 else "seat"
        return f"seat {seat} may not open this hand; {seats} {may} may"

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move (kept for :meth:`apply`)."""
        state = self._playing
        if state is None or state.ended is not None:
            return []
        return state.kept_moves()

    def forced_move(self) -> Move | None:
        """The pass, draw or end of a first turn (Mexican Train) that the engine makes by
        itself when the rules leave no choice (option ``auto_pass``)."""
        if not self.rules.auto_pass:
            return None
        moves = self.legal_moves()
        if len(moves) == 1 and moves[0].action in (Action.PASS, Action.DRAW, Action.END):
            return moves[0]
        return None

    def side_of(self, seat: int) -> int:
        return side_of(self.rules, seat)

    @property
    def live_scores(self) -> list[int]:
        """The score sheet plus what divisor counts have scored in the hand in progress."""
        hand = self.hand
        if hand is None or not self.rules.divisor:
            return list(self.scores)
        return [s + c for s, c in zip(self.scores, hand.scored, strict=True)]

    # ----- checkpoints ---------------------------------------------------------------

    @classmethod
    def resumed(cls, rules: Rules, players: int, at: Checkpoint) -> Game:
        """The game as it stood at checkpoint ``at``, ready for the hands dealt since."""
        game = cls(rules, players, scores=list(at.standing.scores))
        if len(game.scores) != sides(rules, players):
            raise RecordError(
                f"the checkpoint has {len(game.scores)} scores, not {sides(rules, players)}"
            )
        game.hands_before = at.hands_before
        game.plies_before = at.plies_before
        game.sheet_before = list(at.sheet[-SHEET_ROWS:])
        game.adjustments_before = list(at.adjustments)
        game.time_up = at.standing.time_up
        game._tiebreak = at.standing.tiebreak
        game._opener_before = at.standing.opener
        return game

    def keep_from(self) -> int:
        """The first hand a compact copy of this game keeps: the last one finished (the
        next deal's opener and the pictures between hands read it), or the first held."""
        for index in range(len(self.logs) - 1, -1, -1):
            if self.logs[index].result is not None:
                return self.hands_before + index
        return self.hands_before

    def checkpoint(self, at: int | None = None) -> Checkpoint:
        """The game at the deal of hand ``at`` (counted from 0; by default
        :meth:`keep_from`), one of the hands this game holds."""
        at = self.keep_from() if at is None else at
        index = at - self.hands_before
        if not self.logs and index == 0:  # nothing dealt since it was resumed or made
            standing = Standing(
                tuple(self.scores), self._tiebreak, self.time_up, self._opener_before
            )
            return Checkpoint(
                at, self.plies_before, standing, tuple(self.sheet_before), tuple(self.adjustments)
            )
        if not 0 <= index < len(self.logs):
            raise ValueError(f"hand {at} is not one of the hands this game holds")
        earlier = self.logs[:index]
        start = self.logs[index].start
        assert start is not None
        plies = self.plies_before + sum(len(log.state.moves) for log in earlier)
        rows = [*self.sheet_before, *(log.result.points for log in earlier if log.result)]
        written = [*self.adjustments_before, *(a for log in earlier for a in log.adjustments)]
        return Checkpoint(at, plies, start, tuple(rows[-SHEET_ROWS:]), tuple(written))

    def forget_before(self, at: int) -> None:
        """Let go of the hands before hand ``at`` (kept elsewhere, in storage): the game
        plays on exactly as before. ``at`` is at most :meth:`keep_from`."""
        index = at - self.hands_before
        if index <= 0:
            return
        if at > self.keep_from():
            raise ValueError(f"hand {at} is past the last finished hand")
        dropped, self.logs = self.logs[:index], self.logs[index:]
        self.plies_before += sum(len(log.state.moves) for log in dropped)
        rows = [log.result.points for log in dropped if log.result is not None]
        self.sheet_before = [*self.sheet_before, *rows][-SHEET_ROWS:]
        self.adjustments_before += [a for log in dropped for a in log.adjustments]
        self.hands_before = at
        self._opener_before = self.logs[0].start.opener if self.logs[0].start else None

    # ----- hands ---------------------------------------------------------------------

    def start_hand(
        self,
        *,
        seed: int | None = None,
        deal: list[list[Tile]] | None = None,
        boneyard: list[Tile] | None = None,
        opener: int | None = None,
        engine: Tile | None = None,
        opening_draw: Sequence[Tile] | None = None,
    ) -> HandState:
        """Deal the next hand (a round in Mexican Train) from a seed or an explicit deal.

        ``opener`` names the seat that opens where the rules leave it to chance or to a
        choice; elsewhere it must be the seat the rules name. ``engine`` (Mexican Train,
        engine on the table) must be the round's engine double when given.
        ``opening_draw`` (a record's): the tile each seat drew where the rules draw for
        the opener; the highest opens, and ``opener``, when given too, must be that seat.
        """
        self.settle()
        if self.outcome is not None:
            raise GameOver("the game is over", finished=True)
        if self.logs and self.logs[-1].result is None:
            raise IllegalMove("a hand is still being played")
        if (seed is None) == (deal is None):
            raise RecordError("a hand needs either a seed or an explicit deal")
        if opener is not None and not 0 <= opener < self.players:
            raise RecordError(f"opener {opener} is not a seat (0 to {self.players - 1})")
        if self.rules.family == "train":
            if opening_draw is not None:
                raise RecordError(_NOT_DRAWN)
            return self._start_round(seed, deal, boneyard, opener, engine)
        if engine is not None:
            raise RecordError("only Mexican Train sets out an engine")
        given = None if opening_draw is None else tuple(opening_draw)
        return self._start_line(seed, deal, boneyard, opener, given)

    def _start_line(
        self,
        seed: int | None,
        deal: list[list[Tile]] | None,
        boneyard: list[Tile] | None,
        opener: int | None,
        given_draw: tuple[Tile, ...] | None = None,
    ) -> LineHand:
        planned = plan = self._plan_opener()
        shuffler = Shuffler(seed) if seed is not None else None
        drawn: tuple[Tile, ...] | None = None
        if plan.mode == "draw":
            drawn, highest = self._opening_draw(shuffler, given_draw, opener)
            seats = frozenset(range(self.players))
            plan = OpenerPlan(plan.mode, highest if opener is None else opener, seats)
        elif given_draw is not None:
            raise RecordError(_NOT_DRAWN)
        named = False  # the plan's seat is one the record named (a choice), not the rules'
        if opener is not None and plan.seat is not None:
            if plan.allowed is not None and opener in plan.allowed:
                plan = replace(plan, seat=opener)
                named = True
            elif opener != plan.seat and not self.rules.must_open_with_double:
                raise RecordError(self._opener_refusal(plan, opener))
            # else: checked against the seat the deal gives (a partner may open with a
            # double the seat the rules named lacks)
        redeals = 0
        while True:
            if shuffler is not None:
                dealt = shuffler.deal(
                    self._tiles, self.players, self._hand_size, self.rules.has_boneyard
                )
            else:
                assert deal is not None
                dealt = self._checked_deal(deal, boneyard or [])
            masks = [sum(map(BIT.__getitem__, h)) for h in dealt.hands]
            seat, opening, why = self._opener_for(plan, masks, named=named)
            if why is None:
                break
            if shuffler is None:
                raise RecordError(f"this deal would be dealt again: {why}")
            redeals += 1
            if redeals > MAX_REDEALS:
                raise RecordError("no valid deal found; the redeal options are too strict")
        assert seat is not None
        if opener is not None and not named and opener != seat:
            raise RecordError(self._opener_refusal(plan, opener, seat))
        state = LineHand(self.rules, masks, dealt.boneyard, seat, opening)
        self._begin(
            state,
            seed,
            dealt,
            plan.allowed is not None,
            planned,
            redeals=redeals,
            opening_draw=drawn,
        )
        return state

    def _opening_draw(
        self, shuffler: Shuffler | None, given: tuple[Tile, ...] | None, opener: int | None
    ) -> tuple[tuple[Tile, ...] | None, int]:
        """The opening draw (RULES.md: each seat draws a tile, the highest in tile order
        opens) and the seat it names. A seed's draw is its shuffle 0 (the deal follows);
        an explicit deal's, the record's ``given`` draw, else shuffle 0 of seed 0. The draw
        is kept where it chose the opener or agrees with the one named; a deal whose
        record names its opener without a draw (an older record) keeps none."""
        made = drawn_tiles(shuffler or Shuffler(0), self.rules.set, self.players)
        if given is not None:
            self._check_draw(given)
            if shuffler is not None and given != made:
                words = " ".join(map(str, made))
                raise RecordError(f"opening_draw: seed {shuffler.seed} draws {words}")
            seat = draw_winner(given)
            if opener is not None and opener != seat:
                raise RecordError(
                    f"the opening draw ({' '.join(map(str, given))}) names seat {seat} "
                    f"to open (the highest tile, {given[seat]}), not seat {opener}"
                )
            return given, seat
        seat = draw_winner(made)
        if opener is not None and (shuffler is None or opener != seat):
            return None, seat
        return made, seat

    def _check_draw(self, drawn: tuple[Tile, ...]) -> None:
        """One tile of the game's set per seat, all different."""
        if len(drawn) != self.players:
            raise RecordError(
                f"opening_draw: {len(drawn)} tiles for {self.players} seats (one a seat)"
            )
        for tile in drawn:
            if tile.hi > self.rules.set:
                raise RecordError(f"opening_draw: {tile} is not in the double-{self.rules.set} set")
        twice = next((t for i, t in enumerate(drawn) if t in drawn[:i]), None)
        if twice is not None:
            raise RecordError(f"opening_draw: {twice} is drawn twice")

    def _begin(
        self,
        state: HandState,
        seed: int | None,
        dealt: Deal,
        choice: bool,
        opener: OpenerPlan | None,
        **more: Any,
    ) -> None:
        """Log a new hand."""
        start = Standing(tuple(self.scores), self._tiebreak, self.time_up, opener)
        self.logs.append(
            HandLog(
                seed=seed,
                deal=dealt.hands,
                boneyard=dealt.boneyard,
                opener=state.opener,
                opener_is_choice=choice,
                state=state,
                start=start,
                **more,
            )
        )
        self._playing = state

    def _start_round(
        self,
        seed: int | None,
        deal: list[list[Tile]] | None,
        boneyard: list[Tile] | None,
        opener: int | None,
        engine: Tile | None,
    ) -> TrainHand:
        rules = self.rules
        index = self.hand_number
        expected = double(rules.set - index % (rules.set + 1))
        if engine is not None and engine != expected:
            raise RecordError(f"round {index + 1} is played with engine {expected}, not {engine}")
        on_table = rules.engine_from == "table"
        if engine is not None and not on_table:
            raise RecordError("with engine_from = holder the engine is found in a hand")
        tiles = [t for t in self._tiles if t != expected] if on_table else self._tiles
        if seed is not None:
            dealt = Shuffler(seed).deal(tiles, self.players, self._hand_size, True)
        else:
            assert deal is not None
            dealt = self._checked_deal(deal, boneyard or [], expected if on_table else None)
        masks = [sum(map(BIT.__getitem__, h)) for h in dealt.hands]
        first = index % self.players  # the first player rotates round by round
        engine_tile, seek = expected, False
        if not on_table:
            # The round's double, else the highest double dealt (it is this round's
            # engine), else seats draw in turn until one draws a double.
            held = [
                (d, s)
                for d in map(double, range(rules.set, -1, -1))
                for s, m in enumerate(masks)
                if m >> d & 1
            ]
            holder = next((s for s, m in enumerate(masks) if m >> expected & 1), None)
            if holder is None and held:
                engine_tile, holder = held[0]
            first = first if holder is None else holder
            seek = holder is None
        if opener is not None and opener != first:
            raise RecordError(f"seat {opener} may not open this round; seat {first} does")
        state = TrainHand(rules, masks, dealt.boneyard, first, engine_tile, on_table, seek)
        self._begin(state, seed, dealt, False, None, engine=expected if on_table else None)
        return state

    def _plan_opener(self) -> OpenerPlan:
        rules = self.rules
        if not self.logs:
            return self._opener_before or OpenerPlan(rules.first_opener)
        previous = self.logs[-1]
        assert previous.result is not None
        rule = rules.next_opener
        if rule == "first_rule":
            return OpenerPlan(rules.first_opener)
        if previous.result.winner is None:
            return OpenerPlan("same", previous.opener)
        if rule == "rotate":
            return OpenerPlan("rotate", (previous.opener + 1) % self.players)
        if rule == "last_player":
            return OpenerPlan("last_player", previous.state.closer)
        if rule == "holder_of_highest_double":
            return OpenerPlan("holder")
        team = self._seats_of[previous.result.winner]
        if rule == "choose":
            # the winning partners choose; unclaimed, the winner rule's seat opens
            return OpenerPlan("choose", self._dominator(previous, team), team)
        return OpenerPlan("winner", self._dominator(previous, team))

    def _dominator(self, previous: HandLog, team: frozenset[int]) -> int:
        """The winning side's player who opens by default (RULES.md, next_opener = winner)."""
        hand = previous.state
        closer = hand.closer if hand.closer is not None else previous.opener
        if hand.ended == "domino":
            return closer
        pips = hand.pips()
        # fewer pips first; then the closer; then the earliest seat after the closer
        return min(
            team,
            key=lambda s: (pips[s], s != closer, (s - closer - 1) % self.players),
        )

    def _opener_for(
        self, plan: OpenerPlan, hands: list[int], named: bool = False
    ) -> tuple[int | None, int | None, str | None]:
        """(opener, bitmask of allowed opening tiles or None for any, why to redeal or None).
        ``named``: the plan's seat was named by a record, not chosen by the rules."""
        rules = self.rules
        if rules.redeal_doubles is not None:
            for held, hand in enumerate(hands):
                if doubles_held(hand) >= rules.redeal_doubles:
                    return None, None, f"seat {held} holds {doubles_held(hand)} doubles"
        seat = plan.seat
        opening: int | None = None
        if seat is None:
            best = highest_double_holder(hands)
            if best is None:
                if rules.no_double == "redeal":
                    return None, None, "nobody holds a double"
                best = highest_tile_holder(hands)
            seat = best[0]
            if plan.mode == "highest_double" and (
                rules.opener_plays_double or rules.must_open_with_double
            ):
                return seat, 1 << best[1], None  # the first hand's highest double (6-6)
        if rules.must_open_with_double:
            # RULES.md: the opening TEAM opens with any double either partner holds; the
            # seat next_opener names opens if it holds one, else its partner does.
            holders = [s for s in self._seats_of[self.side_of(seat)] if hands[s] & DOUBLES_MASK]
            if not holders:
                return None, None, f"the opening side (seat {seat}) holds no double"
            if seat not in holders:
                if named:
                    raise RecordError(
                        f"seat {seat} holds no double and may not open; seat {holders[0]} may"
                    )
                chosen = seat
                seat = min(holders, key=lambda s: (s - chosen) % self.players)
            opening = hands[seat] & DOUBLES_MASK
        return seat, opening, None

    def _opener_refusal(self, plan: OpenerPlan, opener: int, derived: int | None = None) -> str:
        who = derived if derived is not None else plan.seat
        if plan.allowed:
            seats = ", ".join(str(s) for s in sorted(plan.allowed))
            return f"seat {opener} may not open this hand; seats {seats} may"
        return f"seat {opener} may not open this hand; seat {who} opens it"

    def _checked_deal(
        self, deal: list[list[Tile]], boneyard: list[Tile], engine: Tile | None = None
    ) -> Deal:
        rules = self.rules
        size = rules.hand_size_for(self.players)
        if len(deal) != self.players:
            raise RecordError(f"the deal has {len(deal)} hands for {self.players} players")
        seen = 0 if engine is None else 1 << engine
        full = set_mask(rules.set)
        places = [*((f"seat {i}", h) for i, h in enumerate(deal)), ("boneyard", boneyard)]
        for where, tiles in places:
            if where != "boneyard" and len(tiles) != size:
                raise RecordError(f"{where} is dealt {len(tiles)} tiles; this game deals {size}")
            for tile in tiles:
                if not full >> tile & 1:
                    raise RecordError(f"{tile} ({where}) is not in a double-{rules.set} set")
                if seen >> tile & 1:
                    if tile == engine:
                        raise RecordError(f"{tile} is the engine, set out on the table")
                    raise RecordError(f"{tile} is dealt twice")
                seen |= 1 << tile
        if rules.has_boneyard and seen != full:
            missing = ", ".join(str(t) for t in tiles_of(full & ~seen))
            raise RecordError(f"deal and boneyard must hold the whole set; missing {missing}")
        if not rules.has_boneyard and boneyard:
            raise RecordError("this game has no boneyard to draw from")
        return Deal([list(h) for h in deal], list(boneyard))

    # ----- moves ---------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Make a move if it is legal now; otherwise raise and change nothing."""
        state = self._playing
        if state is None or state.ended is not None:
            self.settle()
            over = self.outcome is not None
            raise GameOver("the game is over" if over else "no hand is being played", over)
        state.apply(move)
        if state.ended is not None:
            self._finish_hand()

    def push(self, move: Move) -> None:
        """Make a move known to be legal, without checks (simulations, computer players).

        Pushing on ``game.hand`` itself is one call shorter (simulations do): the caller
        then scores the ended hand with :meth:`settle` before it reads the game again.
        """
        hand = self.logs[-1].state
        hand.push(move)
        if hand.ended is not None:
            self._finish_hand()

    def adjust(self, side: int, points: int, reason: str = "") -> Adjustment:
        """Write a judge's penalty (negative ``points``) or award for ``side`` on the
        sheet: its total changes at once. Between hands the end is checked as after a
        hand (an award may reach the target); during one, when the hand is scored."""
        if not 0 <= side < len(self.scores):
            raise IllegalMove(f"there is no side {side} in this game")
        if points == 0:
            raise IllegalMove("a penalty or an award is some points, not 0")
        self.settle()
        if self.outcome is not None:
            raise GameOver("the game is over", finished=True)
        if not self.logs:
            raise IllegalMove("no hand has been dealt yet: there is no sheet to write on")
        log = self.logs[-1]
        written = Adjustment(side, points, reason, self.hand_number - 1, len(log.state.moves))
        log.adjustments.append(written)
        self.scores[side] += points
        if self.hand is None:
            self._check_end(None)
        return written

    def expire_clock(self) -> None:
        """The game clock ran out (the caller read the clock; the engine never does)."""
        if not self.rules.time_limit_minutes:
            raise IllegalMove("this game has no clock (time_limit_minutes is 0)")
        if self.time_up or self.outcome is not None:
            return
        self.time_up = True
        if self.logs:
            log = self.logs[-1]
            log.time_up_at = len(log.state.moves)
        self.settle()  # a hand ended by a push on it is scored, as it always was here
        hand = self.hand
        if hand is None:
            self._check_end(None)
        elif self.rules.time_limit_ends == "immediately":
            self.logs[-1].result = void_result(hand, len(self.scores))
            self._playing = None
            self._check_end(self.logs[-1].result)

    def seconds_left(self, now: float) -> float | None:
        limit = self.rules.time_limit_minutes
        if not limit or self.started_at is None:
            return None
        return max(0.0, self.started_at + limit * 60 - now)

    def _finish_hand(self) -> None:
        log = self.logs[-1]
        result = log.state.result(self.scores)
        log.result = result
        self._playing = None
        for s, p in enumerate(result.points):
            self.scores[s] += p
        self._check_end(result)

    def _check_end(self, result: HandResult | None) -> None:
        """Decide whether the game is over, after a hand (``result``) or when time is up."""
        end = self._game_end(result)
        if end is None and self.time_up and self.hand is None:
            leader = self._leader()
            end = None if leader is None else (leader, "time")
        if end is not None:
            self.outcome = Outcome(end[0], end[1], tuple(self.scores))

    def _game_end(self, result: HandResult | None) -> tuple[int, GameEndReason] | None:
        """(winning side, reason) if the hand just scored ends the game, else None."""
        rules = self.rules
        scores = self.scores
        family = rules.family
        if family == "train" or family == "divisor":
            played = self.hands_finished
            reached = rules.target is not None and max(scores) >= rules.target
            enough = rules.rounds or rules.set + 1 if family == "train" else rules.hands
            if reached or (enough and played >= enough):
                leader = self._leader()
                if leader is not None:
                    reason: GameEndReason = (
                        "target" if reached else "rounds" if family == "train" else "hands"
                    )
                    return leader, reason
            return None
        winner = None if result is None else result.winner
        if winner is not None:
            if self._tiebreak:
                return winner, "tiebreak"
            if rules.single_hand:
                return winner, "single_hand"
            instant = rules.instant_win_hand_points
            if instant is not None and result is not None and result.points[winner] >= instant:
                return winner, "instant_win"
        target = rules.target
        if target is None or self._tiebreak or max(scores) < target:
            return None
        past = [s for s, v in enumerate(scores) if v >= target]
        if rules.score_to == "loser" and rules.partners:
            if len(past) == 1:
                return 1 - past[0], "target"
            self._tiebreak = True  # both teams past the target: a deciding hand
            return None
        leader = self._leader()
        return None if leader is None else (leader, "target")

    def places(self) -> list[int]:
        """Each side's place on the score sheet (1 first; equal scores share a place), the
        way the rules count: highest first when points are written on the winner, fewest
        first otherwise. The game's winner is always first."""
        scores = self.scores
        better = (lambda a, b: a > b) if self.rules.score_to == "winner" else (lambda a, b: a < b)
        places = [1 + sum(1 for other in scores if better(other, mine)) for mine in scores]
        if self.outcome is not None:
            winner = self.outcome.winner
            places = [1 if s == winner else max(2, p) for s, p in enumerate(places)]
        return places

    def _leader(self) -> int | None:
        """The side ahead on the score sheet, or None when tied for the lead."""
        scores = self.scores
        best = max(scores) if self.rules.score_to == "winner" else min(scores)
        return scores.index(best) if scores.count(best) == 1 else None
