"""The tables, one schema for SQLite and PostgreSQL (SQLAlchemy Core).

Migrations (storage/migrations/) build exactly this; a test compares the two.
Times are stored as UTC, without a zone, on both databases.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    text,
)

# Constraint names fixed by convention, so migrations name them the same everywhere.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

# A person on one platform. After "forget me" the name and platform id are gone and the
# row stays, so that their results still add up (anonymously).
users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("platform", String(16), nullable=False),
    Column("platform_id", String(64)),
    Column("name", String(100)),
    Column("handle", String(64)),  # the platform's @username, to find people by it
    Column("locale", String(8)),
    Column("forgotten", Boolean, nullable=False, server_default=text("false")),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("platform", "platform_id"),
)

# A Discord server, a Telegram group, the console: leaderboards belong to it.
communities = Table(
    "communities",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("platform", String(16), nullable=False),
    Column("platform_id", String(64), nullable=False),
    Column("name", String(200)),
    Column("locale", String(8)),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("platform", "platform_id"),
)

# A channel, thread, group or forum topic: one game at a time, its own settings.
rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("community_id", Integer, ForeignKey("communities.id"), nullable=False),
    Column("platform_id", String(128), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("community_id", "platform_id"),
)

# A game: its rules, who sits where, a snapshot (a domino-record/1 record of its latest
# hands and the checkpoint they are replayed from; the hands before are in game_hands)
# and the version every save must name.
games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("status", String(16), nullable=False),  # lobby, playing, finished, cancelled
    Column("seats", JSON, nullable=False),  # per seat: {"user": id} or {"bot": strength}
    Column("snapshot", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    Column("plies", Integer, nullable=False),  # moves in the log
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    Column("finished_at", DateTime),
)
# One game at a time per room: at most one game in the lobby or in play.
Index(
    "uq_games_room_active",
    games.c.room_id,
    unique=True,
    sqlite_where=games.c.status.in_(["lobby", "playing"]),
    postgresql_where=games.c.status.in_(["lobby", "playing"]),
)

# Who sits in which game: found by user (for "forget me"), kept in step with games.seats.
game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
)
Index("ix_game_seats_user", game_seats.c.user_id)

# The append-only move log: the record can always be rebuilt, the snapshot checked.
moves = Table(
    "moves",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("hand", Integer, nullable=False),
    Column("move", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False),
)

# A game's hands that no longer change, each written once, when it leaves the snapshot
# (the snapshot keeps a checkpoint and the hands from the last finished one): the whole
# record is these and the snapshot's, and a save's size does not grow with the game.
game_hands = Table(
    "game_hands",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),  # counted from 0
    Column("record", JSON, nullable=False),  # the hand as a domino-record/1 entry
    Column("points", JSON, nullable=False),  # what it wrote on the score sheet, by side
    Column("winner", Integer),  # the side that won it, if any
)

# Turn timers and the like, due at a time; a process claims one before firing it, so
# each fires once even with several processes.
timers = Table(
    "timers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("game_id", Integer, ForeignKey("games.id")),
    Column("kind", String(24), nullable=False),
    Column("due_at", DateTime, nullable=False),
    Column("version", Integer),  # the game version it was set at: later moves void it
    Column("payload", JSON, nullable=False),
    Column("claimed_by", String(64)),
    Column("claimed_at", DateTime),
    Column("fired_at", DateTime),
)
Index("ix_timers_due", timers.c.fired_at, timers.c.due_at)
Index("ix_timers_room", timers.c.room_id, timers.c.kind)  # each save replaces its room's

# Per hand and seat: the points written (by side, on each of its seats).
hand_results = Table(
    "hand_results",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id")),
    Column("points", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
)

# Per finished game and seat: what leaderboards and ratings are made of.
game_results = Table(
    "game_results",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id")),  # None: a computer player
    Column("bot", String(16)),  # the computer player's strength
    Column("community_id", Integer, ForeignKey("communities.id"), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("family", String(16), nullable=False),  # the rating family
    Column("team", Integer, nullable=False),  # the side: a team, or the seat
    Column("rank", Integer, nullable=False),  # 1 for the winners
    Column("won", Boolean, nullable=False),
    Column("points_for", Integer, nullable=False),
    Column("points_against", Integer, nullable=False),
    Column("partner_id", Integer, ForeignKey("users.id")),
    Column("finished_at", DateTime, nullable=False),
    Column("rated", Boolean, nullable=False, server_default=text("true")),  # still counts
)
Index("ix_game_results_board", game_results.c.community_id, game_results.c.finished_at)
Index("ix_game_results_user", game_results.c.user_id, game_results.c.finished_at)

# A player's skill per community and family (OpenSkill's mu and sigma).
ratings = Table(
    "ratings",
    metadata,
    Column("community_id", Integer, ForeignKey("communities.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("family", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime, nullable=False),
)

# Messages the bot keeps editing on a platform (a game's board, its lobby), so that after
# a restart it edits the same message instead of posting another.
posts = Table(
    "posts",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id"), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("game_id", Integer),
    Column("message_id", String(64), nullable=False),
    Column("updated_at", DateTime, nullable=False),
    Column("move_number", Integer),  # the move the board shows (a restart sends it again)
)

# What the bot sent each chat lately (wall-clock seconds, newest last), so that every
# process, and the one started after a crash, counts a group's messages against
# Telegram's limit together (bot/telegram/limits.py).
sends = Table(
    "sends",
    metadata,
    Column("chat", String(64), primary_key=True),
    Column("stamps", JSON, nullable=False),
)
