"""Game records (RECORD.md): export a game, import one by replaying it move by move.

A long game is also kept in two parts (the bot saves it so on every move): a
:func:`checkpoint` at the deal of its last finished hand, and the record of the hands
from there (:func:`export_since`); :func:`resume` replays at most those two hands.

>>> from engine.rules import Rules
>>> from engine.game import Game
>>> g = Game(Rules.from_preset("partnership"), 4)
>>> _ = g.start_hand(seed=1)
>>> g.apply(g.legal_moves()[0])
>>> again = load(export(g, ["Ana", "Beto", "Caro", "Dani"]))
>>> export(again, ["Ana", "Beto", "Caro", "Dani"]) == export(g, ["Ana", "Beto", "Caro", "Dani"])
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

from engine.errors import DominoError, RecordError
from engine.game import Adjustment, Checkpoint, Game, HandLog, OpenerPlan, Standing
from engine.moves import Move
from engine.outcome import Outcome
from engine.rules import Rules
from engine.tiles import Tile

FORMAT = "domino-record/1"
# ``unfinished``: a hand the game ended in the middle of, as its room saw it (its moves,
# no deal): kept for people to read, not replayed (docs/records.md)
_TOP_KEYS = {"format", "rules", "players", "hands", "unfinished"}
_HAND_KEYS = {
    "deal",
    "boneyard",
    "seed",
    "opener",
    "opening_draw",
    "engine",
    "moves",
    "time_up_at",
    "adjustments",
}


def new_record(rules: Rules, players: Sequence[str]) -> dict[str, Any]:
    """The record of a game not dealt yet: its rules and players, no hands."""
    return {
        "format": FORMAT,
        "rules": {"preset": rules.preset, "options": rules.options()},
        "players": list(players),
        "hands": [],
    }


def export(game: Game, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict; deals are always written out in full."""
    if game.hands_before:
        raise ValueError(
            f"this game holds its hands from hand {game.hands_before} only; "
            "the earlier ones are where it was checkpointed (export_since)"
        )
    return export_since(game, 0, names)


def export_since(
    game: Game, start: int | None = None, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The record of ``game`` with only its hands from hand ``start`` (counted from 0;
    by default its last finished hand): with :func:`checkpoint` at ``start``, what
    :func:`resume` takes."""
    start = game.keep_from() if start is None else start
    names = list(names) if names is not None else [f"Seat {i}" for i in range(game.players)]
    return {
        "format": FORMAT,
        "rules": {"preset": game.rules.preset, "options": game.rules.options()},
        "players": names,
        "hands": export_hands(game, start),
    }


def export_hands(game: Game, start: int, stop: int | None = None) -> list[dict[str, Any]]:
    """The record entries of hands ``start`` to ``stop`` (counted from 0, ``stop`` not
    included; by default to the last), which the game must hold."""
    stop = game.hand_number if stop is None else stop
    first = start - game.hands_before
    if first < 0 or stop > game.hand_number:
        raise ValueError(f"hands {start} to {stop} are not all held by this game")
    return [_hand_entry(log) for log in game.logs[first : stop - game.hands_before]]


def _hand_entry(log: HandLog) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "deal": [[str(t) for t in hand] for hand in log.deal],
        "boneyard": [str(t) for t in log.boneyard],
    }
    if log.engine is not None:
        entry["engine"] = str(log.engine)
    if log.opening_draw is not None:
        entry["opening_draw"] = [str(t) for t in log.opening_draw]
    if log.opener_is_choice:
        entry["opener"] = log.opener
    if log.time_up_at is not None:
        entry["time_up_at"] = log.time_up_at
    entry["moves"] = [str(m) for m in log.state.moves]
    if log.adjustments:
        entry["adjustments"] = [_written(a, hand=False) for a in log.adjustments]
    return entry


def _written(adjustment: Adjustment, hand: bool) -> dict[str, Any]:
    """A penalty or award as a record holds it (in a checkpoint, with its hand)."""
    data: dict[str, Any] = {"hand": adjustment.hand} if hand else {}
    data.update(
        at=adjustment.at,
        side=adjustment.side,
        points=adjustment.points,
        reason=adjustment.reason,
    )
    return data


def checkpoint(game: Game, at: int | None = None) -> dict[str, Any]:
    """The game at the deal of hand ``at`` (by default its last finished hand) as a
    JSON-ready dict, for :func:`resume`. It holds the totals and the score sheet's last
    rows, not the hands before it. ``outcome`` is written when the game is over, for an
    end its hands alone do not decide (a game stopped at its length limit)."""
    point = game.checkpoint(at)
    standing = point.standing
    opener = standing.opener
    data: dict[str, Any] = {
        "hands_before": point.hands_before,
        "plies_before": point.plies_before,
        "scores": list(standing.scores),
        "tiebreak": standing.tiebreak,
        "time_up": standing.time_up,
        "opener": None
        if opener is None
        else {
            "mode": opener.mode,
            "seat": opener.seat,
            "allowed": None if opener.allowed is None else sorted(opener.allowed),
        },
        "sheet": [list(row) for row in point.sheet],
    }
    if point.adjustments:
        data["adjustments"] = [_written(a, hand=True) for a in point.adjustments]
    if game.outcome is not None:
        outcome = game.outcome
        data["outcome"] = {
            "winner": outcome.winner,
            "reason": outcome.reason,
            "scores": list(outcome.scores),
        }
    return data


def resume(data: Any, point: Any) -> Game:
    """Replay the hands of record ``data`` (those dealt since the checkpoint) from
    checkpoint ``point``; raises :class:`RecordError` naming the first problem."""
    at = _read(point)
    game = _new_game(data, lambda rules, players: Game.resumed(rules, players, at))
    _replay_hands(game, data)
    ended = point.get("outcome")
    if game.outcome is None and ended is not None:
        game.outcome = _read_outcome(ended, len(game.scores))
    return game


def _read(point: Any) -> Checkpoint:
    if not isinstance(point, Mapping):
        raise RecordError("a checkpoint is a JSON object")
    hands, plies = point.get("hands_before"), point.get("plies_before")
    if not _count(hands) or not _count(plies):
        raise RecordError("checkpoint: hands_before and plies_before are counts (0 or more)")
    scores = _numbers(point.get("scores"), "checkpoint: scores")
    sheet = point.get("sheet", [])
    if not isinstance(sheet, list):
        raise RecordError("checkpoint: sheet must be a list of rows")
    rows = tuple(tuple(_numbers(row, "checkpoint: sheet")) for row in sheet)
    if len(rows) > hands or any(len(row) != len(scores) for row in rows):
        raise RecordError("checkpoint: the sheet's rows do not fit its hands and scores")
    flags = point.get("tiebreak", False), point.get("time_up", False)
    if not all(isinstance(flag, bool) for flag in flags):
        raise RecordError("checkpoint: tiebreak and time_up are true or false")
    standing = Standing(tuple(scores), flags[0], flags[1], _read_opener(point.get("opener")))
    written = point.get("adjustments", [])
    if not isinstance(written, list):
        raise RecordError("checkpoint: adjustments must be a list")
    adjustments = tuple(_read_adjustment(a, "checkpoint", len(scores), None) for a in written)
    if any(a.hand >= hands for a in adjustments):
        raise RecordError("checkpoint: an adjustment is of a hand after it")
    return Checkpoint(hands, plies, standing, rows, adjustments)


def _read_adjustment(value: Any, where: str, sides: int, hand: int | None) -> Adjustment:
    """A penalty or award of a record's hand ``hand`` (in a checkpoint: its own)."""
    if not isinstance(value, Mapping):
        raise RecordError(f"{where}: an adjustment is a JSON object")
    number = value.get("hand") if hand is None else hand
    at, side, points = value.get("at"), value.get("side"), value.get("points")
    reason = value.get("reason", "")
    if not (_count(number) and _count(at) and _count(side) and side < sides):
        raise RecordError(f"{where}: an adjustment names a move index (at) and a side")
    if isinstance(points, bool) or not isinstance(points, int) or points == 0:
        raise RecordError(f"{where}: an adjustment's points are a whole number, not 0")
    if not isinstance(reason, str):
        raise RecordError(f"{where}: an adjustment's reason is text")
    return Adjustment(side, points, reason, number, at)


def _read_opener(value: Any) -> OpenerPlan | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not isinstance(value.get("mode"), str):
        raise RecordError("checkpoint: opener is an object with a mode")
    seat, allowed = value.get("seat"), value.get("allowed")
    if seat is not None and not _count(seat):
        raise RecordError("checkpoint: the opener's seat is a seat number")
    seats = None if allowed is None else frozenset(_numbers(allowed, "checkpoint: allowed"))
    return OpenerPlan(value["mode"], seat, seats)


def _read_outcome(value: Any, sides: int) -> Outcome:
    if not isinstance(value, Mapping) or not _count(value.get("winner")):
        raise RecordError("checkpoint: outcome names a winning side")
    scores = _numbers(value.get("scores"), "checkpoint: outcome scores")
    if value["winner"] >= sides or len(scores) != sides or not isinstance(value.get("reason"), str):
        raise RecordError("checkpoint: the outcome does not fit this game")
    return Outcome(value["winner"], value["reason"], tuple(scores))


def _count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _numbers(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise RecordError(f"{where} must be a list of whole numbers")
    return list(value)


def load(data: Any, watch: Callable[[Game], None] | None = None) -> Game:
    """Replay a record into a game; raises :class:`RecordError` naming the first problem.
    ``watch``, if given, sees the game after each deal and after each move (a replay's
    positions, one by one)."""
    game = _new_game(data, Game)
    _replay_hands(game, data, watch)
    return game


def _new_game(data: Any, make: Callable[[Rules, int], Game]) -> Game:
    """The game (``make(rules, players)``) of record ``data``'s rules and players."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown record field {sorted(unknown)[0]!r}")
    unfinished = data.get("unfinished")
    if unfinished is not None and not (
        isinstance(unfinished, Mapping)
        and isinstance(unfinished.get("moves"), list)
        and not set(unfinished) & {"deal", "boneyard", "seed"}
    ):
        raise RecordError("unfinished is a hand's moves without its deal")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unsupported record format {data.get('format')!r}; expected {FORMAT}")
    try:
        rules = Rules.from_record(data.get("rules", {"preset": "partnership"}))
    except DominoError as error:
        raise RecordError(f"rules: {error}") from None
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    try:
        return make(rules, len(players))
    except DominoError as error:
        raise RecordError(f"players: {error}") from None


def _replay_hands(
    game: Game, data: Mapping[str, Any], watch: Callable[[Game], None] | None = None
) -> None:
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError("hands must be a list")
    for index, hand in enumerate(hands, game.hands_before):
        _replay_hand(game, index, hand, watch)


def _replay_hand(
    game: Game, index: int, hand: Any, watch: Callable[[Game], None] | None = None
) -> None:
    where = f"hand {index}"
    if not isinstance(hand, Mapping):
        raise RecordError(f"{where}: a hand is a JSON object")
    unknown = set(hand) - _HAND_KEYS
    if unknown:
        raise RecordError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    if game.over:
        raise RecordError(f"{where}: the game was already over")
    if game.hand is not None:
        raise RecordError(f"{where}: hand {index - 1} did not end")
    seed = hand.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"{where}: seed must be a whole number")
    opener = hand.get("opener")
    if opener is not None and (isinstance(opener, bool) or not isinstance(opener, int)):
        raise RecordError(f"{where}: opener must be a seat number")
    time_up_at = hand.get("time_up_at")
    if time_up_at is not None and (
        isinstance(time_up_at, bool) or not isinstance(time_up_at, int) or time_up_at < 0
    ):
        raise RecordError(f"{where}: time_up_at must be a move index (0 or more)")
    if time_up_at is not None and not game.rules.time_limit_minutes:
        raise RecordError(f"{where}: time_up_at given, but this game has no clock")
    moves = hand.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"{where}: moves must be a list of strings")
    deal = boneyard = None
    if "deal" in hand:  # a record with deals given never shuffles
        deal = _tiles_lists(hand["deal"], f"{where}: deal")
        boneyard = _tiles(hand.get("boneyard") or [], f"{where}: boneyard")
        seed = None
    elif seed is None:
        raise RecordError(f"{where}: give a deal or a seed")
    engine = None
    if hand.get("engine") is not None:
        if not isinstance(hand["engine"], str):
            raise RecordError(f'{where}: engine must be a tile like "12-12"')
        engine = _tiles([hand["engine"]], f"{where}: engine")[0]
    drawn = None
    if hand.get("opening_draw") is not None:
        drawn = _tiles(hand["opening_draw"], f"{where}: opening_draw")
    try:
        game.start_hand(
            seed=seed,
            deal=deal,
            boneyard=boneyard,
            opener=opener,
            engine=engine,
            opening_draw=drawn,
        )
    except DominoError as error:
        raise RecordError(f"{where}: {error}") from None
    if watch is not None:
        watch(game)
    written = hand.get("adjustments", [])
    if not isinstance(written, list):
        raise RecordError(f"{where}: adjustments must be a list")
    adjustments = [_read_adjustment(a, where, len(game.scores), index) for a in written]
    if any(a.at > len(moves) for a in adjustments):
        raise RecordError(f"{where}: an adjustment is past the last move")
    for i, text in enumerate(moves):
        if time_up_at == i:
            game.expire_clock()
        _adjust(game, where, [a for a in adjustments if a.at == i])
        try:
            move = Move.parse(text)
            if game.hand is None:
                raise RecordError("the hand is already over")
            game.apply(move)
        except DominoError as error:
            raise RecordError(f"{where}, move {i} ({text!r}): {error}") from None
        if watch is not None:
            watch(game)
    if time_up_at is not None and time_up_at >= len(moves):
        if time_up_at > len(moves):
            raise RecordError(f"{where}: time_up_at {time_up_at} is past the last move")
        game.expire_clock()
    _adjust(game, where, [a for a in adjustments if a.at == len(moves)])


def _adjust(game: Game, where: str, adjustments: list[Adjustment]) -> None:
    for adjustment in adjustments:
        try:
            game.adjust(adjustment.side, adjustment.points, adjustment.reason)
        except DominoError as error:
            raise RecordError(f"{where}, adjustment at move {adjustment.at}: {error}") from None


def _tiles(value: Any, where: str) -> list[Tile]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise RecordError(f'{where} must be a list of tiles like "6-4"')
    try:
        return [Tile.parse(t) for t in value]
    except DominoError as error:
        raise RecordError(f"{where}: {error}") from None


def _tiles_lists(value: Any, where: str) -> list[list[Tile]]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of hands")
    return [_tiles(hand, f"{where}[{i}]") for i, hand in enumerate(value)]


def summary(game: Game) -> dict[str, Any]:
    """The replay command's output (RECORD.md)."""
    hands = []
    for log in game.logs:
        result = log.result
        state = log.state
        hands.append(
            {
                "result": result.end if result else "in_progress",
                "pips": list(result.pips) if result else state.pips(),
                "points": list(result.points) if result else _so_far(game, state.scored),
                "count": state.count if game.rules.divisor else None,
                "to_move": None if result else state.to_move,
            }
        )
    return {
        "scores": game.live_scores,
        "game_over": game.over,
        "winner": game.outcome.winner if game.outcome else None,
        "hands": hands,
    }


def _so_far(game: Game, scored: list[int]) -> list[int]:
    """Points of a hand in progress: counts already made (divisor games), else none."""
    return list(scored) if game.rules.divisor else [0] * len(game.scores)
