"""Sends: what the bot sent each chat lately, counted by every process against the
platform's per-chat limit.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sends",
        sa.Column("chat", sa.String(64), nullable=False),
        sa.Column("stamps", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("chat", name="pk_sends"),
    )


def downgrade() -> None:
    op.drop_table("sends")
