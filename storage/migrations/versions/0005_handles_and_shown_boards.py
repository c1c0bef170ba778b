"""People's @handles (to find them by it) and the move number each board message shows
(a restarted bot sends what a crash kept from going out).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as table:
        table.add_column(sa.Column("handle", sa.String(64), nullable=True))
    with op.batch_alter_table("posts") as table:
        table.add_column(sa.Column("move_number", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("posts") as table:
        table.drop_column("move_number")
    with op.batch_alter_table("users") as table:
        table.drop_column("handle")
