"""Game records (RECORD.md): export a game, import one by replaying it move by move.

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

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import DominoError, RecordError
from engine.game import Game
from engine.moves import Move
from engine.rules import Rules
from engine.tiles import Tile

FORMAT = "domino-record/1"
_TOP_KEYS = {"format", "rules", "players", "hands"}
_HAND_KEYS = {"deal", "boneyard", "seed", "opener", "engine", "moves", "time_up_at"}


def export(game: Game, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``game`` as a JSON-ready dict; deals are always written out in full."""
    names = list(names) if names is not None else [f"Seat {i}" for i in range(game.players)]
    hands = []
    for log in game.logs:
        entry: dict[str, Any] = {
            "deal": [[str(t) for t in hand] for hand in log.deal],
            "boneyard": [str(t) for t in log.boneyard],
        }
        if log.engine is not None:
            entry["engine"] = str(log.engine)
        if log.opener_is_choice:
            entry["opener"] = log.opener
        if log.time_up_at is not None:
            entry["time_up_at"] = log.time_up_at
        entry["moves"] = [str(m) for m in log.state.moves]
        hands.append(entry)
    return {
        "format": FORMAT,
        "rules": {"preset": game.rules.preset, "options": game.rules.options()},
        "players": names,
        "hands": hands,
    }


def load(data: Any) -> Game:
    """Replay a record into a game; raises :class:`RecordError` naming the first problem."""
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown record field {sorted(unknown)[0]!r}")
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
        game = Game(rules, len(players))
    except DominoError as error:
        raise RecordError(f"players: {error}") from None
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError("hands must be a list")
    for index, hand in enumerate(hands):
        _replay_hand(game, index, hand)
    return game


def _replay_hand(game: Game, index: int, hand: Any) -> None:
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
    try:
        game.start_hand(seed=seed, deal=deal, boneyard=boneyard, opener=opener, engine=engine)
    except DominoError as error:
        raise RecordError(f"{where}: {error}") from None
    for i, text in enumerate(moves):
        if time_up_at == i:
            game.expire_clock()
        try:
            move = Move.parse(text)
            if game.hand is None:
                raise RecordError("the hand is already over")
            game.apply(move)
        except DominoError as error:
            raise RecordError(f"{where}, move {i} ({text!r}): {error}") from None
    if time_up_at is not None and time_up_at >= len(moves):
        if time_up_at > len(moves):
            raise RecordError(f"{where}: time_up_at {time_up_at} is past the last move")
        game.expire_clock()


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
