from __future__ import annotations

import os

# An unexpected exception inside the service's handle fails the test (bot/core.py STRICT),
# here and in the programs the end-to-end tests start (they inherit the environment).
os.environ["DOMINO_STRICT"] = "1"

from hypothesis import HealthCheck, settings

# No deadlines: CI machines are shared and slow at times; a test never asserts on speed.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
