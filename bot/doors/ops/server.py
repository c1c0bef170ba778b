"""The operator's listener: ``GET /healthz`` and ``GET /metrics`` (HEAD too), nothing
else (another path 404, another method 405). No answer carries a traceback: a failure
is logged by its kind and answered 500 with a line of JSON."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.doors.ops.health import Watch, health
from bot.doors.ops.metrics import Metrics

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class OpsServer:
    def __init__(self, watch: Watch, metrics: Metrics, host: str, port: int) -> None:
        self.watch = watch
        self.metrics = metrics
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_no_traceback])
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.scrape)
        return app

    async def start(self) -> bool:
        """Listen; False, with one WARNING line, when the address cannot be had (the port
        taken): the program goes on without its operator's view."""
        runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as error:
            await runner.cleanup()
            log.warning(
                "ops: cannot listen on %s:%d (%s); going on without /healthz and /metrics"
                " (OPS_PORT sets another port, OPS_PORT=off none)",
                self.host,
                self.port,
                error.strerror or type(error).__name__,
            )
            return False
        self._runner = runner
        return True

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, _request: web.Request) -> web.Response:
        healthy, said = await health(self.watch)
        return _json(said, 200 if healthy else 503)

    async def scrape(self, _request: web.Request) -> web.Response:
        body = await self.metrics.scrape(self.watch)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


@web.middleware
async def _no_traceback(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException:
        raise  # 404, 405: aiohttp's own short answers
    except Exception as error:
        log.warning("ops: %s failed: %s", request.path, type(error).__name__)
        return _json({"status": "error"}, 500)


def _json(said: dict[str, Any], status: int) -> web.Response:
    return web.Response(
        text=json.dumps(said) + "\n",
        status=status,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )
