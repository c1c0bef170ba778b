"""Alembic's entry point: migrations run on the connection storage.migrate hands over
(programs never shell out to the alembic command)."""

from __future__ import annotations

from alembic import context

from storage.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only storage.migrate runs migrations
    raise RuntimeError("run migrations through storage.migrate")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
