""" "Forget me": a user's name, @handle and platform id are erased, from their user row and
from every game they sat in; their results stay, anonymous, so every total and every
other player's record still adds up."""

from __future__ import annotations

import json

from sqlalchemy import Connection, Text, cast, select, text, update

from storage.schema import game_seats, games, users
from storage.tournaments import forget_in_entries

FORGOTTEN_NAME = "—"  # what records show in a forgotten player's seat
IDENTITY = ("name", "pid", "locale")  # what a game's seat holds of who sat there


def forget(db: Connection, user_id: int) -> int:
    """Erase the user's identity, also from the records of the games they sat in; the
    number of game records changed. Work for :meth:`storage.database.Database.run`."""
    who = db.execute(select(users.c.name, users.c.platform_id).where(users.c.id == user_id)).first()
    db.execute(
        update(users)
        .where(users.c.id == user_id)
        .values(name=None, platform_id=None, handle=None, locale=None, forgotten=True)
    )
    changed = 0
    sat_in = select(game_seats.c.game_id).where(game_seats.c.user_id == user_id)
    # as stored text: a game that cannot be read (set aside, docs/storage.md) is scrubbed
    # as text instead of failing every "forget me" of its players
    found = list(
        db.execute(
            select(
                games.c.id,
                cast(games.c.seats, Text).label("seats"),
                cast(games.c.snapshot, Text).label("snapshot"),
            ).where(games.c.id.in_(sat_in))
        )
    )
    for row in found:
        try:
            written = _forgotten(json.loads(row.seats), json.loads(row.snapshot), user_id)
        except (ValueError, TypeError, LookupError, AttributeError):  # damaged
            identity = [t for t in (who.name, who.platform_id) if t] if who is not None else []
            written = _scrubbed(row.seats, identity), _scrubbed(row.snapshot, identity)
        if written is None:
            continue
        _write(db, row.id, *written)
        changed += 1
    forget_in_entries(db, user_id, FORGOTTEN_NAME)  # a tournament's entries name them too
    return changed


def _forgotten(seats: list[dict], snapshot: dict, user_id: int) -> tuple[str, str] | None:
    """A game's seats and snapshot, as JSON text, without the user's identity; None when
    they sat in none of its seats."""
    mine = [i for i, seat in enumerate(seats) if seat.get("user") == user_id]
    if not mine:
        return None
    renamed = _renamed(dict(snapshot), mine)
    new_seats = [
        {k: v for k, v in seat.items() if k not in IDENTITY} if i in mine else seat
        for i, seat in enumerate(seats)
    ]
    return json.dumps(new_seats), json.dumps(renamed)


def _scrubbed(stored: str, identity: list[str]) -> str:
    """Stored text that cannot be read, with each of ``identity`` where it stands as a
    whole JSON string replaced by the forgotten name: the rest kept for the operator."""
    for word in identity:
        stored = stored.replace(json.dumps(word), json.dumps(FORGOTTEN_NAME))
    return stored


def _write(db: Connection, game_id: int, seats: str, snapshot: str) -> None:
    """The game's seats and snapshot written as the text given (damaged text stays as
    damaged as it was, only scrubbed)."""
    placed = "CAST(:{} AS json)" if db.dialect.name == "postgresql" else ":{}"
    statement = text(
        f"UPDATE games SET seats = {placed.format('seats')},"
        f" snapshot = {placed.format('snapshot')}, version = version + 1 WHERE id = :id"
    )
    db.execute(statement, {"seats": seats, "snapshot": snapshot, "id": game_id})


def _renamed(snapshot: dict, seats: list[int]) -> dict:
    """The snapshot with the names of ``seats`` replaced: a record's "players", or the
    record kept under "record" with the service's own notes beside it."""
    if isinstance(snapshot.get("record"), dict):
        snapshot["record"] = _renamed(dict(snapshot["record"]), seats)
        return snapshot
    names = list(snapshot.get("players", []))
    for i in seats:
        if i < len(names):
            names[i] = FORGOTTEN_NAME
    snapshot["players"] = names
    return snapshot
