"""The web pages' keys (issue 34): a random key per game, tournament and community, and
the communities whose pages are turned off.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

LIVE = "retired_at IS NULL"


def upgrade() -> None:
    op.create_table(
        "web_keys",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("community_id", sa.Integer, nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("retired_at", sa.DateTime),
        sa.ForeignKeyConstraint(
            ["community_id"], ["communities.id"], name="fk_web_keys_community_id_communities"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_web_keys"),
        sa.UniqueConstraint("digest", name="uq_web_keys_digest"),
    )
    op.create_index(
        "uq_web_keys_live",
        "web_keys",
        ["kind", "target"],
        unique=True,
        sqlite_where=sa.text(LIVE),
        postgresql_where=sa.text(LIVE),
    )
    op.create_index("ix_web_keys_community", "web_keys", ["community_id"])
    op.create_table(
        "web_closed",
        sa.Column("community_id", sa.Integer, nullable=False),
        sa.Column("closed_at", sa.DateTime, nullable=False),
        sa.ForeignKeyConstraint(
            ["community_id"], ["communities.id"], name="fk_web_closed_community_id_communities"
        ),
        sa.PrimaryKeyConstraint("community_id", name="pk_web_closed"),
    )


def downgrade() -> None:
    op.drop_table("web_closed")
    op.drop_index("ix_web_keys_community", table_name="web_keys")
    op.drop_index("uq_web_keys_live", table_name="web_keys")
    op.drop_table("web_keys")
