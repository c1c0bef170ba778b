from __future__ import annotations

import os

# An unexpected exception inside the service's handle fails the test (bot/core/service.py STRICT),
# here and in the programs the end-to-end tests start (they inherit the environment).
os.environ["DOMINO_STRICT"] = "1"

from hypothesis import HealthCheck, settings

# No deadlines: CI machines are shared and slow at times; a test never asserts on speed.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def _own_postgres_database() -> None:
    """With several pytest workers (pytest-xdist), each gets a PostgreSQL database of its
    own beside TEST_DATABASE_URL's (``test_gw0``, ``test_gw1``...): the tests empty their
    database's schema as they begin, which must not pull it from under another worker.
    Set before any test module reads TEST_DATABASE_URL."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("TEST_DATABASE_URL")
    if not worker or not url:
        return
    import asyncio

    import asyncpg
    from sqlalchemy.engine import make_url

    server = make_url(url)
    own = f"{server.database or 'test'}_{worker}"

    async def create() -> None:
        connection = await asyncpg.connect(
            user=server.username,
            password=server.password,
            host=server.host,
            port=server.port or 5432,
            database=server.database,
        )
        try:
            await connection.execute(f'CREATE DATABASE "{own}"')
        except asyncpg.DuplicateDatabaseError:
            pass  # a run before this one made it
        finally:
            await connection.close()

    asyncio.run(create())
    os.environ["TEST_DATABASE_URL"] = server.set(database=own).render_as_string(hide_password=False)


_own_postgres_database()
