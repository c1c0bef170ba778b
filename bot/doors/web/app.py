"""The web door's application: ``GET /g/<key>.json``, ``/t/<key>.json``, ``/c/<key>.json``
(and HEAD), each a page's JSON from the core's read-only ``WebPages`` (docs/web.md), and
its listener.

Read-only and anonymous: no cookie is set or read, no form or command is taken, any
method but GET and HEAD is refused. Every key that names no page now (unknown, retired,
of another kind of page, its community's pages off) gets the very same 404: the answer
says nothing of whether a key ever existed. Keys never reach a log: aiohttp's access log
is off (it would write each address), and an error is logged by its type only.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.core import Unavailable, WebPages
from bot.doors.web.html import add_pages
from lang import LANGUAGES

log = logging.getLogger(__name__)

KEY = "{key:[A-Za-z0-9_-]{1,64}}"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",  # live pages: always asked afresh, never kept by a proxy
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Server": "domino",  # not aiohttp's name and version
}
Page = Callable[[str, str | None], Awaitable[dict[str, Any] | None]]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def answer(status: int, data: dict[str, Any]) -> web.Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return web.Response(status=status, body=body, content_type="application/json", charset="utf-8")


NOT_FOUND = {"error": "not found"}
REFUSED = {"error": "only GET and HEAD"}
UNAVAILABLE = {"error": "unavailable, try again shortly"}
FAILED = {"error": "something went wrong"}


def make_app(pages: WebPages, max_viewers: int = 2000) -> web.Application:
    """The pages' application over the core's read-only questions (``GameService.pages``);
    at most ``max_viewers`` live streams open at once (WEB_MAX_VIEWERS)."""
    from bot.doors.web.events import Events  # it builds on this module's answers

    app = web.Application(middlewares=[_guard])
    Events(pages, max_viewers).add_to(app)
    served: dict[str, Page] = {
        "g": pages.game,
        "t": pages.tournament,
        "c": pages.community,
    }
    for letter, page in served.items():
        app.router.add_get(f"/{letter}/{KEY}.json", _serve(page))
    add_pages(app, pages)  # the HTML pages, their pictures and CSV (bot/doors/web/html.py)
    return app


def _serve(page: Page) -> Handler:
    async def serve(request: web.Request) -> web.StreamResponse:
        lang = request.query.get("lang")
        data = await page(request.match_info["key"], lang if lang in LANGUAGES else None)
        if data is None:
            return answer(404, NOT_FOUND)
        return answer(200, data)

    return serve


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer with the security headers; every failure as JSON, the same bytes for
    the same failure (a 404 of an address that is no page, of any kind)."""
    if request.method not in ("GET", "HEAD"):
        response: web.StreamResponse = answer(405, REFUSED)
        response.headers["Allow"] = "GET, HEAD"
    else:
        try:
            response = await handler(request)
        except web.HTTPException as error:  # no such route: the same 404 as a key
            response = (
                answer(404, NOT_FOUND)
                if error.status == 404
                else answer(error.status, {"error": error.reason.lower()})
            )
            if error.status == 405:
                response.headers["Allow"] = "GET, HEAD"
        except Unavailable:
            response = answer(503, UNAVAILABLE)
        except Exception as error:  # its type only: a message may hold a key or a tile
            log.error("web: a page failed: %s", type(error).__name__)
            response = answer(500, FAILED)
    for name, value in HEADERS.items():  # (an HTML page says its own policy and caching)
        response.headers.setdefault(name, value)
    return response


class WebDoor:
    """The pages' listener, beside the other doors."""

    def __init__(self, pages: WebPages, host: str, port: int, max_viewers: int = 2000) -> None:
        self.host, self.port = host, port
        self._app = make_app(pages, max_viewers)
        # access_log None: aiohttp would write every address asked for, keys and all
        self._runner = web.AppRunner(self._app, access_log=None, handle_signals=False)
        self._started = False

    def viewers(self) -> int:
        """Live streams open now (the operator's ``domino_web_viewers``)."""
        from bot.doors.web.events import EVENTS

        return self._app[EVENTS].viewers

    async def start(self) -> bool:
        """Listen; False (and one WARNING line) when the address cannot be had (the port
        taken): the bot goes on without its pages."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            log.warning(
                "web pages off: %s:%s cannot be listened on (%s); set WEB_PORT to a free port",
                self.host,
                self.port,
                error.strerror or type(error).__name__,
            )
            await self._runner.cleanup()
            return False
        self._started = True
        return True

    async def stop(self) -> None:
        if self._started:
            self._started = False
            await self._runner.cleanup()
