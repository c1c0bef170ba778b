"""Posts: the platform messages the bot keeps editing (a game's board), by room and kind.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "posts",
        sa.Column("room_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer),
        sa.Column("message_id", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_posts_room_id_rooms"),
        sa.PrimaryKeyConstraint("room_id", "kind", name="pk_posts"),
    )


def downgrade() -> None:
    op.drop_table("posts")
