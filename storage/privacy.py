""" "Forget me": a user's name, @handle and platform id are erased, from their user row and
from every game they sat in; their results stay, anonymous, so every total and every
other player's record still adds up."""

from __future__ import annotations

from sqlalchemy import Connection, select, update

from storage.schema import game_seats, games, users
from storage.tournaments import forget_in_entries

FORGOTTEN_NAME = "—"  # what records show in a forgotten player's seat
IDENTITY = ("name", "pid", "locale")  # what a game's seat holds of who sat there


def forget(db: Connection, user_id: int) -> int:
    """Erase the user's identity, also from the records of the games they sat in; the
    number of game records changed. Work for :meth:`storage.database.Database.run`."""
    db.execute(
        update(users)
        .where(users.c.id == user_id)
        .values(name=None, platform_id=None, handle=None, locale=None, forgotten=True)
    )
    changed = 0
    sat_in = select(game_seats.c.game_id).where(game_seats.c.user_id == user_id)
    found = list(
        db.execute(
            select(games.c.id, games.c.seats, games.c.snapshot).where(games.c.id.in_(sat_in))
        )
    )
    for row in found:
        seats = [i for i, seat in enumerate(row.seats) if seat.get("user") == user_id]
        if not seats:
            continue
        snapshot = _renamed(dict(row.snapshot), seats)
        new_seats = [
            {k: v for k, v in seat.items() if k not in IDENTITY} if i in seats else seat
            for i, seat in enumerate(row.seats)
        ]
        db.execute(
            update(games)
            .where(games.c.id == row.id)
            .values(snapshot=snapshot, seats=new_seats, version=games.c.version + 1)
        )
        changed += 1
    forget_in_entries(db, user_id, FORGOTTEN_NAME)  # a tournament's entries name them too
    return changed


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
