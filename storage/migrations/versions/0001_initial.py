"""The first schema: users, communities, rooms, games and their move log, timers,
results and ratings.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ACTIVE = sa.text("status IN ('lobby', 'playing')")


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("platform_id", sa.String(64)),
        sa.Column("name", sa.String(100)),
        sa.Column("locale", sa.String(8)),
        sa.Column("forgotten", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("platform", "platform_id", name="uq_users_platform"),
    )
    op.create_table(
        "communities",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("platform_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200)),
        sa.Column("locale", sa.String(8)),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_communities"),
        sa.UniqueConstraint("platform", "platform_id", name="uq_communities_platform"),
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("community_id", sa.Integer, nullable=False),
        sa.Column("platform_id", sa.String(128), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rooms"),
        sa.ForeignKeyConstraint(
            ["community_id"], ["communities.id"], name="fk_rooms_community_id_communities"
        ),
        sa.UniqueConstraint("community_id", "platform_id", name="uq_rooms_community_id"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("snapshot", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_games_room_id_rooms"),
    )
    op.create_index(
        "uq_games_room_active",
        "games",
        ["room_id"],
        unique=True,
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_seats"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_seats_game_id_games"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_game_seats_user_id_users"),
    )
    op.create_index("ix_game_seats_user", "game_seats", ["user_id"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("move", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "ply", name="pk_moves"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_moves_game_id_games"),
    )
    op.create_table(
        "timers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("due_at", sa.DateTime, nullable=False),
        sa.Column("version", sa.Integer),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("claimed_by", sa.String(64)),
        sa.Column("claimed_at", sa.DateTime),
        sa.Column("fired_at", sa.DateTime),
        sa.PrimaryKeyConstraint("id", name="pk_timers"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_timers_room_id_rooms"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_timers_game_id_games"),
    )
    op.create_index("ix_timers_due", "timers", ["fired_at", "due_at"])
    op.create_table(
        "hand_results",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "hand", "seat", name="pk_hand_results"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_hand_results_game_id_games"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_hand_results_user_id_users"),
    )
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer),
        sa.Column("bot", sa.String(16)),
        sa.Column("community_id", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("points_for", sa.Integer, nullable=False),
        sa.Column("points_against", sa.Integer, nullable=False),
        sa.Column("partner_id", sa.Integer),
        sa.Column("finished_at", sa.DateTime, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.text("true")),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_results"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_results_game_id_games"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_game_results_user_id_users"),
        sa.ForeignKeyConstraint(
            ["community_id"], ["communities.id"], name="fk_game_results_community_id_communities"
        ),
        sa.ForeignKeyConstraint(
            ["partner_id"], ["users.id"], name="fk_game_results_partner_id_users"
        ),
    )
    op.create_index("ix_game_results_board", "game_results", ["community_id", "finished_at"])
    op.create_index("ix_game_results_user", "game_results", ["user_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("community_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.PrimaryKeyConstraint("community_id", "user_id", "family", name="pk_ratings"),
        sa.ForeignKeyConstraint(
            ["community_id"], ["communities.id"], name="fk_ratings_community_id_communities"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_ratings_user_id_users"),
    )


def downgrade() -> None:
    for table in (
        "ratings",
        "game_results",
        "hand_results",
        "timers",
        "moves",
        "game_seats",
        "games",
        "rooms",
        "communities",
        "users",
    ):
        op.drop_table(table)
