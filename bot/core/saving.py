"""Saving the room's game: its latest hands, checkpoint, seats and notes, written with
the version it was loaded at (a lost race is a Conflict, and the command runs again)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.seats import seats_json
from bot.core.session import Loaded, Session
from bot.core.showing import name_of
from engine.game import Game
from engine.record import checkpoint, export_hands, export_since
from storage.games import StoredHand, hands_stored
from storage.timers import TimerPlan


async def save(
    session: Session,
    loaded: Loaded,
    status: str | None = None,
    keep_game: bool = True,
    timers: TimerPlan | None = None,
) -> Loaded:
    """Write the game with the version it was loaded at; the moves made since go to the
    log, and the hands that leave the snapshot to the game's stored hands, once. What is
    written does not grow with the number of hands played. ``loaded`` is updated to the
    row saved, and the service remembers it for the room's next move."""
    game = loaded.game
    names = [name_of(s, i, session.lang) for i, s in enumerate(loaded.seats)]
    moves: list[tuple[int, str]] = []
    leaving: list[StoredHand] = []
    snapshot: dict[str, Any] = {"meta": loaded.notes.to_json()}
    if game is not None:
        start = game.keep_from()  # the last finished hand: the next deal reads it
        stored = hands_stored(loaded.row.snapshot)
        entries = export_hands(game, stored, start)
        for hand, entry in enumerate(entries, stored):
            result = game.logs[hand - game.hands_before].result
            assert result is not None  # a hand before the last finished one
            leaving.append(StoredHand(hand, entry, list(result.points), result.winner))
        loaded.record = export_since(game, start, names[: game.players])
        snapshot["checkpoint"] = checkpoint(game, start)
        moves = moves_after(game, loaded.row.plies)
    else:
        loaded.record = dict(loaded.record, players=names)
    snapshot["record"] = loaded.record
    seats = seats_json(loaded.seats)
    version = await session.store.games.save(
        loaded.row.id,
        loaded.row.version,
        snapshot,
        moves,
        session.now,
        status=status,
        seats=seats if seats != loaded.row.seats else None,  # unchanged: not rewritten
        timers=timers,
        hands=leaving,
    )
    if game is not None:
        game.forget_before(game.keep_from())  # stored now: memory stays as small
    row = replace(
        loaded.row,
        version=version,
        plies=loaded.row.plies + len(moves),
        status=status or loaded.row.status,
        seats=seats,
        snapshot=snapshot,
        updated_at=session.now,
    )
    desk = session.desk
    desk.remember(row.room_id, row)
    if game is not None and keep_game and row.status == "playing":
        desk.games[row.id] = (version, game)
    else:
        desk.games.pop(row.id, None)
    loaded.row = row
    return loaded


def moves_after(game: Game, plies: int) -> list[tuple[int, str]]:
    """The (hand, move) pairs of ``game`` after its first ``plies`` moves of the whole
    game, in order (hands counted in the whole game)."""
    found: list[tuple[int, str]] = []
    skip = plies - game.plies_before
    if skip < 0:
        raise ValueError(f"move {plies} is before the hands this game holds")
    for hand, log in enumerate(game.logs, game.hands_before):
        moves = log.state.moves
        if skip >= len(moves):
            skip -= len(moves)
            continue
        found += [(hand, str(m)) for m in moves[skip:]]
        skip = 0
    return found
