from __future__ import annotations

import os

# An unexpected exception inside the service's handle fails the test (bot/core/service.py STRICT),
# here and in the programs the end-to-end tests start (they inherit the environment).
os.environ["DOMINO_STRICT"] = "1"
# The programs the tests start serve no operator's view unless a test asks for one on a
# port it chose (OPS_PORT): dozens at once would all want 9090 (tests/doors/test_ops.py).
os.environ.setdefault("OPS_PORT", "off")
# the programs the tests start serve no web pages unless a test gives them a free port
# (several at once would fight for 8080)
os.environ.setdefault("WEB_PORT", "off")

from hypothesis import HealthCheck, settings

# No deadlines: CI machines are shared and slow at times; a test never asserts on speed.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
# CI: the same examples every run (derandomized), so fewer of them buy the same coverage
# run after run; a developer's runs draw new ones each time (``--hypothesis-seed``).
settings.register_profile(
    "ci", parent=settings.get_profile("default"), derandomize=True, max_examples=50
)
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


# The tests that take longest (a minute of real time each, by design: a load with faults,
# a tournament through a kill) go first, so the workers (pytest-xdist) run them beside the
# many short ones, instead of one worker finishing them alone at the end.
LONG_FIRST = (
    "tests/doors/telegram/test_load.py::test_a_short_load_with_faults",
    "tests/doors/telegram/test_tournament.py::test_a_club_tournament_in_a_forum_survives_a_kill",
    "tests/core/test_trust.py::",
    "tests/doors/discord/test_tournament.py::test_eight_pairs_play_three_rounds",
    "tests/engine/test_properties.py::",
    "tests/doors/telegram/test_bot.py::test_killed_and_started_again",
    "tests/doors/discord/test_bot.py::test_killed_and_started_again",
    "tests/doors/telegram/test_workers.py::",
    "tests/doors/discord/test_with_telegram.py::",
)


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    def rank(item: object) -> int:
        nodeid = getattr(item, "nodeid", "")
        found = [i for i, prefix in enumerate(LONG_FIRST) if nodeid.startswith(prefix)]
        return found[0] if found else len(LONG_FIRST)

    items.sort(key=rank)  # stable: the rest keep their order
