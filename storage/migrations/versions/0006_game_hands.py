"""Game hands: the finished hands of a game, written once, so that a save writes only
the latest hands and a checkpoint instead of the whole record.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_hands",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("points", sa.JSON, nullable=False),
        sa.Column("winner", sa.Integer),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_hands_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", "hand", name="pk_game_hands"),
    )


def downgrade() -> None:
    op.drop_table("game_hands")
