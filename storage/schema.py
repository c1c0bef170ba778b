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
    Text,
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
# Telegram's limit together (bot/doors/telegram/limits.py).
sends = Table(
    "sends",
    metadata,
    Column("chat", String(64), primary_key=True),
    Column("stamps", JSON, nullable=False),
)

# A club tournament of a community (issue 22): its own room, the organiser's settings,
# the round in play and its clock (epoch seconds: started_at, ends_at, paused_at), and the
# version every save must name, as games have. One tournament at a time is open in a
# community (registration, check-in or running).
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("community_id", Integer, ForeignKey("communities.id"), nullable=False),
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("name", String(100), nullable=False),
    # registration, checkin, running, finished, cancelled
    Column("status", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("round", Integer, nullable=False),  # 0 before round 1
    Column("clock", JSON, nullable=False),
    Column("organiser", Integer, ForeignKey("users.id")),  # None: nobody (the simulator)
    Column("judges", JSON, nullable=False),  # user ids
    Column("created_at", DateTime, nullable=False),
    Column("finished_at", DateTime),
    Column("version", Integer, nullable=False),
)
Index(
    "uq_tournaments_community_open",
    tournaments.c.community_id,
    unique=True,
    sqlite_where=tournaments.c.status.in_(["registration", "checkin", "running"]),
    postgresql_where=tournaments.c.status.in_(["registration", "checkin", "running"]),
)
Index("ix_tournaments_room", tournaments.c.room_id)

# A pair (or one player) in a tournament: members are [{"name", "user", "bot"}]. A user is
# in at most one entry of a tournament (the repository sees to it).
tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("name", String(100), nullable=False),
    Column("members", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # registered, checked_in, dropped, expelled
    Column("late", Boolean, nullable=False, server_default=text("false")),
    Column("created_at", DateTime, nullable=False),
)
Index("ix_tournament_entries_tournament", tournament_entries.c.tournament_id)

# A table of a round: the entry ids of each side ([[ids], [ids]]), the room and game it
# plays in, and its result once done (winner: the side, 0 or 1).
tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("sides", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # waiting, playing, done
    Column("score_a", Integer, nullable=False),
    Column("score_b", Integer, nullable=False),
    Column("winner", Integer),
    Column("ended_by", String(16)),  # target, clock, forfeit, judge
    Column("hands", Integer, nullable=False),
    Column("room_id", Integer, ForeignKey("rooms.id")),
    Column("game_id", Integer, ForeignKey("games.id")),
    Column("updated_at", DateTime, nullable=False),
    # its result went out to the tournament's room (a restart tells those that did not)
    Column("told", Boolean, nullable=False, server_default=text("false")),
)
Index("ix_tournament_tables_game", tournament_tables.c.game_id)  # a game's table
Index("ix_tournament_tables_room", tournament_tables.c.room_id)  # a room's table

# The entries that sit a round out.
tournament_byes = Table(
    "tournament_byes",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("entry_id", Integer, ForeignKey("tournament_entries.id"), primary_key=True),
)

# What organiser and judges did (penalties, forfeits, voids, expulsions, corrections,
# pauses, extensions), append-only: nothing is changed or taken away. ``entry_id`` has no
# foreign key: the log outlives an entry withdrawn during registration.
tournament_log = Table(
    "tournament_log",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("at", DateTime, nullable=False),
    Column("by_user", Integer, ForeignKey("users.id")),
    Column("action", String(32), nullable=False),
    Column("round", Integer),
    Column("table_number", Integer),
    Column("entry_id", Integer),
    Column("points", Integer),
    Column("reason", Text),
    Column("data", JSON, nullable=False),
)
Index("ix_tournament_log_tournament", tournament_log.c.tournament_id, tournament_log.c.id)

# The addresses of the web pages (issue 34): a random key per game, tournament and
# community, made when one first needs a link. ``digest`` (SHA-256 of the key) is what a
# page's address is looked up by, so the database never compares the secret itself
# (docs/web.md). ``web new`` retires a community's keys (``retired_at``): they answer 404
# for ever, and the next link makes a new one. One live key per thing.
web_keys = Table(
    "web_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # game, tournament, community
    Column("target", Integer, nullable=False),  # the id of the row it names
    Column("community_id", Integer, ForeignKey("communities.id"), nullable=False),
    Column("key", String(64), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("retired_at", DateTime),
    UniqueConstraint("digest"),
)
Index(
    "uq_web_keys_live",
    web_keys.c.kind,
    web_keys.c.target,
    unique=True,
    sqlite_where=web_keys.c.retired_at.is_(None),
    postgresql_where=web_keys.c.retired_at.is_(None),
)
Index("ix_web_keys_community", web_keys.c.community_id)

# The communities whose pages an admin turned off (``settings web off``): every key of
# theirs answers 404 until ``settings web on``.
web_closed = Table(
    "web_closed",
    metadata,
    Column("community_id", Integer, ForeignKey("communities.id"), primary_key=True),
    Column("closed_at", DateTime, nullable=False),
)
