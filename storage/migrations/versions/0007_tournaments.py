"""Tournaments (issue 22): a community's tournament, its entries, each round's tables and
byes, and the append-only log of what its organiser and judges did.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

OPEN = "status IN ('registration', 'checkin', 'running')"


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("community_id", sa.Integer, nullable=False),
        sa.Column("room_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("organiser", sa.Integer),
        sa.Column("judges", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime),
        sa.Column("version", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["community_id"], ["communities.id"], name="fk_tournaments_community_id_communities"
        ),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_tournaments_room_id_rooms"),
        sa.ForeignKeyConstraint(["organiser"], ["users.id"], name="fk_tournaments_organiser_users"),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index(
        "uq_tournaments_community_open",
        "tournaments",
        ["community_id"],
        unique=True,
        sqlite_where=sa.text(OPEN),
        postgresql_where=sa.text(OPEN),
    )
    op.create_index("ix_tournaments_room", "tournaments", ["room_id"])

    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("members", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("late", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_entries_tournament_id_tournaments",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_entries"),
    )
    op.create_index("ix_tournament_entries_tournament", "tournament_entries", ["tournament_id"])

    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("sides", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score_a", sa.Integer, nullable=False),
        sa.Column("score_b", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer),
        sa.Column("ended_by", sa.String(16)),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("room_id", sa.Integer),
        sa.Column("game_id", sa.Integer),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.Column("told", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_tables_tournament_id_tournaments",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_tournament_tables_room_id_rooms"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_tournament_tables_game_id_games"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "number", name="pk_tournament_tables"),
    )
    op.create_index("ix_tournament_tables_game", "tournament_tables", ["game_id"])
    op.create_index("ix_tournament_tables_room", "tournament_tables", ["room_id"])

    op.create_table(
        "tournament_byes",
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("entry_id", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_byes_tournament_id_tournaments",
        ),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["tournament_entries.id"],
            name="fk_tournament_byes_entry_id_tournament_entries",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "entry_id", name="pk_tournament_byes"),
    )

    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("by_user", sa.Integer),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer),
        sa.Column("table_number", sa.Integer),
        sa.Column("entry_id", sa.Integer),
        sa.Column("points", sa.Integer),
        sa.Column("reason", sa.Text),
        sa.Column("data", sa.JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_log_tournament_id_tournaments",
        ),
        sa.ForeignKeyConstraint(["by_user"], ["users.id"], name="fk_tournament_log_by_user_users"),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_log"),
    )
    op.create_index("ix_tournament_log_tournament", "tournament_log", ["tournament_id", "id"])


def downgrade() -> None:
    op.drop_table("tournament_log")
    op.drop_table("tournament_byes")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
