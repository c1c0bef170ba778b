"""The pages' live stream (issue 34): Server-Sent Events at ``/g/<key>/events`` and
``/t/<key>/events`` (docs/web.md).

The first event is sent at once, then one each time the page may have changed (a move,
a deal, a result, a table's score), each ``event: change`` with ``data: {"version": n}``:
the page reads its JSON again. A comment every :data:`HEARTBEAT` seconds keeps proxies
from closing a quiet stream. The stream ends when the key stops naming a page (its
community's pages turned off or given new keys), when the viewer goes, or when the door
stops. An unknown key answers the JSON's very 404.

Viewers cost no query per change: the core (``WebPages.watch``) hears each change once
per process and fans it out. At most ``max_viewers`` streams are open at once in a
process (``WEB_MAX_VIEWERS``); more are answered 503.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import aclosing, suppress
from typing import Any, Literal

from aiohttp import web

from bot.core import WebPages
from bot.doors.web.app import HEADERS, KEY, NOT_FOUND, Handler, answer

HEARTBEAT = 15.0  # seconds between comments on a quiet stream
CHECK = 1.0  # seconds between looks at whether the viewers are still there
RETRY_MS = 2000  # how soon a browser tries again after the stream broke
MAX_VIEWERS = 2000
BUSY = {"error": "too many viewers, try again shortly"}
STREAM_HEADERS = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Accel-Buffering": "no",  # nginx: pass each event on at once
}


def event(version: int) -> bytes:
    return f"event: change\ndata: {json.dumps({'version': version})}\n\n".encode()


class Events:
    """The streams of one application, and how many are open (``domino_web_viewers``)."""

    def __init__(
        self, pages: WebPages, max_viewers: int = MAX_VIEWERS, heartbeat: float = HEARTBEAT
    ) -> None:
        self.pages = pages
        self.max_viewers = max_viewers
        self.heartbeat = heartbeat
        self.viewers = 0
        self._stopping = False
        # what ends each open stream (its viewer gone, the door stopping), and its request
        self._open: dict[asyncio.Future[None], web.Request] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def add_to(self, app: web.Application) -> None:
        app[EVENTS] = self
        app.router.add_get(f"/g/{KEY}/events", self._serve("game"))
        app.router.add_get(f"/t/{KEY}/events", self._serve("tournament"))
        app.on_shutdown.append(self._stop)

    async def _stop(self, _app: web.Application) -> None:
        self._stopping = True
        for gone in self._open:
            if not gone.done():
                gone.set_result(None)
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweep(self) -> None:
        """Every CHECK seconds, end the streams whose viewer went (one look for them all,
        rather than each stream waking to look)."""
        while self._open:
            await asyncio.sleep(CHECK)
            for gone, request in list(self._open.items()):
                if request.transport is None and not gone.done():
                    gone.set_result(None)
        self._sweeper = None

    def _serve(self, kind: Literal["game", "tournament"]) -> Handler:
        async def serve(request: web.Request) -> web.StreamResponse:
            if self.viewers >= self.max_viewers or self._stopping:
                busy = answer(503, BUSY)
                busy.headers["Retry-After"] = "10"
                return busy
            self.viewers += 1
            try:
                async with aclosing(self.pages.watch(kind, key(request))) as versions:
                    first = await anext(versions, None)
                    if first is None:
                        return answer(404, NOT_FOUND)
                    response = web.StreamResponse(headers={**HEADERS, **STREAM_HEADERS})
                    if request.method == "HEAD":
                        return response
                    await response.prepare(request)
                    with suppress(ConnectionError):  # the viewer went as it was written to
                        await self._stream(request, response, versions, first)
                    return response
            finally:
                self.viewers -= 1

        return serve

    async def _stream(
        self,
        request: web.Request,
        response: web.StreamResponse,
        versions: AsyncIterator[int],
        first: int,
    ) -> None:
        loop = asyncio.get_running_loop()
        await response.write(f"retry: {RETRY_MS}\n".encode() + event(first))
        beat = loop.time() + self.heartbeat
        pending = asyncio.ensure_future(anext(versions))
        gone: asyncio.Future[None] = loop.create_future()
        self._open[gone] = request
        if self._sweeper is None:
            self._sweeper = loop.create_task(self._sweep())
        try:
            while True:
                waiting: set[asyncio.Future[Any]] = {pending, gone}
                await asyncio.wait(
                    waiting,
                    timeout=max(0.0, beat - loop.time()),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if gone.done() or request.transport is None:
                    return
                if pending.done():
                    try:
                        version = pending.result()
                    except StopAsyncIteration:  # the key names no page now
                        return
                    await response.write(event(version))
                    pending = asyncio.ensure_future(anext(versions))
                    beat = loop.time() + self.heartbeat
                elif loop.time() >= beat:
                    await response.write(b": still here\n\n")
                    beat = loop.time() + self.heartbeat
        finally:
            del self._open[gone]
            if not pending.done():
                pending.cancel()
                await asyncio.wait({pending})
            if not pending.cancelled():
                pending.exception()  # (the page's end, if it ended meanwhile: seen)


def key(request: web.Request) -> str:
    return request.match_info["key"]


EVENTS = web.AppKey("events", Events)
