"""The operator's view: ``/healthz`` and ``/metrics`` on a listener of their own
(``OPS_HOST``, ``OPS_PORT``), for a supervisor and Prometheus, never for the public.

- :class:`Metrics` (metrics.py): this process's counters, in a Prometheus registry of its
  own; the service tells it each command through its ``observe`` hook.
- :func:`health` (health.py): whether the database answers and each door is connected.
- :class:`OpsServer` (server.py): aiohttp's server answering the two paths, GET and HEAD
  only.

The core knows none of it: it calls a plain function it is given.
"""

from __future__ import annotations

from bot.doors.ops.health import Door, Watch, health
from bot.doors.ops.metrics import OUTCOMES, Metrics
from bot.doors.ops.server import OpsServer

__all__ = ["OUTCOMES", "Door", "Metrics", "OpsServer", "Watch", "health"]
