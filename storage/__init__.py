"""Persistence: async repositories over SQLAlchemy Core (SQLite by default, PostgreSQL to scale)."""
