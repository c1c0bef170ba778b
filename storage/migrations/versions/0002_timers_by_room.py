"""Timers found by room: every save cancels and sets its room's timers, and without this
index each one read every pending timer of every room.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_timers_room", "timers", ["room_id", "kind"])


def downgrade() -> None:
    op.drop_index("ix_timers_room", "timers")
