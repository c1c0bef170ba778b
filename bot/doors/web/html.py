"""The web pages as people see them (issue 34): ``/g/<key>`` (a game), ``/t/<key>`` (a
tournament), ``/c/<key>`` (a community), rendered from the pages' JSON (``WebPages``) with
Jinja2, in the room's language or ``?lang=``; beside them the pictures (the room's board
now, each position of a finished hand's replay), a finished hand's replay as JSON, the
tournament's standings as CSV, and the pages' own script and style (``/static/``).

Everything a page shows comes from the core's read-only questions, which build every
position from the room's view: no tile of a hand in play, nor of the boneyard, can reach a
page or a picture. The HTML loads nothing but this door's own files (the
Content-Security-Policy says so: no inline script or style, no other site). An address
that names nothing answers the same 404 whatever its key: the HTML pages one page of
their own, the pictures, JSON and CSV the door's JSON 404.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import web
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from bot.core import Board, Bounded, WebPages
from bot.doors.pictures import board_png
from bot.doors.web import words
from lang import LANGUAGES, tr

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
KEY = "{key:[A-Za-z0-9_-]{1,64}}"
HAND = "{hand:[0-9]{1,4}}"
STEP = "{step:[0-9]{1,5}}"
# The pages load this door's files and nothing else: no inline script or style, no
# other site, no form, not framed.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
PICTURES_KEPT = 256  # pictures drawn, kept by what they show
TV_SECONDS = 15  # hall mode: how long each view stays on the screen
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def add_pages(app: web.Application, pages: WebPages) -> None:
    """Serve the HTML pages, their pictures, a hand's replay, the standings' CSV and the
    static files on ``app`` (the door's, beside the JSON)."""
    site = Site(pages)
    add = app.router.add_get
    add(f"/g/{KEY}", site.game)
    add(f"/g/{KEY}/board.png", site.board)
    add(f"/g/{KEY}/hands/{HAND}.json", site.hand)
    add(f"/g/{KEY}/hands/{HAND}/{STEP}.png", site.step)
    add(f"/t/{KEY}", site.tournament)
    add(f"/t/{KEY}.csv", site.standings)
    add(f"/c/{KEY}", site.community)
    add("/static/{name:[a-z0-9_-]{1,40}\\.(?:css|js|svg)}", site.static)


class Static:
    """The pages' own files, read once, each addressed with its digest (a new version is
    a new address, so a browser may keep each for a day)."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[bytes, str]] = {}
        self.versions: dict[str, str] = {}
        for path in sorted(STATIC.iterdir()):
            if path.suffix in (".css", ".js", ".svg"):
                body = path.read_bytes()
                kind = mimetypes.types_map.get(path.suffix, "application/octet-stream")
                kind = "text/javascript" if path.suffix == ".js" else kind
                self.files[path.name] = (body, kind)
                self.versions[path.name] = hashlib.sha256(body).hexdigest()[:12]

    def url(self, name: str) -> str:
        return f"/static/{name}?v={self.versions[name]}"


class Site:
    def __init__(self, pages: WebPages) -> None:
        self.pages = pages
        self.files = Static()
        self.pictures: Bounded[tuple[Any, ...], bytes] = Bounded(PICTURES_KEPT)
        self.templates = Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(default=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.templates.globals.update(
            static=self.files.url,
            say_in=tr,
            status_words=words.STATUS,
            tournament_status=words.TOURNAMENT_STATUS,
            table_status=words.TABLE_STATUS,
            ended_words=words.ENDED,
            result_words=words.RESULT,
            log_words=words.LOG_ACTIONS,
            period_words=words.PERIODS,
            hand_end=words.HAND_END,
        )
        self.missing = self._render("missing.html", "es", {"page": None})

    # ----- the pages ---------------------------------------------------------------------

    async def game(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        chosen = _lang(request)
        data = await self.pages.game(key, chosen)
        if data is None:
            return self._missing()
        replay = None
        hand, step = _number(request.query.get("hand")), _number(request.query.get("step"))
        if hand is not None:
            replay = await self.pages.hand(key, hand, chosen)
            if replay is not None:
                last = len(replay["positions"]) - 1
                step = last if step is None else min(step, last)
                replay["step"] = step
                board = await self.pages.step(key, hand, step, chosen)
                replay["text"] = board.text if board is not None else ""
        context = {
            "page": data,
            "replay": replay,
            "base": f"/g/{key}",
            "query": _query(chosen),
            "tv": False,
        }
        return self._page("game.html", data["lang"], context)

    async def tournament(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        chosen = _lang(request)
        data = await self.pages.tournament(key, chosen)
        if data is None:
            return self._missing()
        tv = request.query.get("tv") == "1"
        names = {e["id"]: e["name"] for e in data["entries"]}
        lang = data["lang"]
        context = {
            "entry_names": lambda ids: ", ".join(names.get(i, "?") for i in ids),
            "tiebreak_names": lambda codes: ", ".join(
                tr(lang, words.TIEBREAK_NAMES.get(c, c)) for c in codes
            ),
            "page": data,
            "base": f"/t/{key}",
            "query": _query(chosen),
            "tv": tv,
            "tv_seconds": TV_SECONDS,
            "names": names,
            "columns": [(t, words.TIEBREAK_HEADERS[t]) for t in words.TIEBREAK_HEADERS],
        }
        return self._page("tournament.html", data["lang"], context)

    async def community(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        chosen = _lang(request)
        data = await self.pages.community(key, chosen)
        if data is None:
            return self._missing()
        context = {"page": data, "base": f"/c/{key}", "query": _query(chosen), "tv": False}
        return self._page("community.html", data["lang"], context)

    # ----- beside them -------------------------------------------------------------------

    async def board(self, request: web.Request) -> web.StreamResponse:
        board = await self.pages.board(request.match_info["key"], _lang(request))
        if board is None:
            raise web.HTTPNotFound()
        # kept by what it shows: the table at this move, its look and names (the turn's
        # seconds are drawn as they were at the first asking after the move, as the
        # room's board shows them as they were when it was sent)
        shown = replace(board.table, turn_seconds=None, clock_seconds=None)
        kept = (
            "now",
            board.game_id,
            board.move_number,
            board.view.scores,
            len(board.view.adjustments),
            board.view.time_up,
            shown,
        )
        return await self._picture(kept, board)

    async def step(self, request: web.Request) -> web.StreamResponse:
        key, hand, step = (
            request.match_info["key"],
            int(request.match_info["hand"]),
            int(request.match_info["step"]),
        )
        board = await self.pages.step(key, hand, step, _lang(request))
        if board is None:
            raise web.HTTPNotFound()
        kept = ("step", board.game_id, hand, step, board.table)
        return await self._picture(kept, board)

    async def hand(self, request: web.Request) -> web.StreamResponse:
        key, hand = request.match_info["key"], int(request.match_info["hand"])
        data = await self.pages.hand(key, hand, _lang(request))
        if data is None:
            raise web.HTTPNotFound()
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        return web.Response(body=body, content_type="application/json", charset="utf-8")

    async def standings(self, request: web.Request) -> web.StreamResponse:
        text = await self.pages.standings_csv(request.match_info["key"])
        if text is None:
            raise web.HTTPNotFound()
        response = web.Response(body=text.encode(), content_type="text/csv", charset="utf-8")
        response.headers["Content-Disposition"] = 'attachment; filename="standings.csv"'
        return response

    async def static(self, request: web.Request) -> web.StreamResponse:
        found = self.files.files.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, kind = found
        response = web.Response(body=body, content_type=kind, charset="utf-8")
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response

    # ----- helpers -----------------------------------------------------------------------

    async def _picture(self, kept: tuple[Any, ...], board: Board) -> web.StreamResponse:
        png = self.pictures.get(kept)
        if png is None:
            png = await board_png(board)
            self.pictures.put(kept, png)
        return web.Response(body=png, content_type="image/png")

    def _render(self, name: str, lang: str, context: dict[str, Any]) -> bytes:
        def say(message: str, **params: object) -> str:
            return tr(lang, message, **params)

        template = self.templates.get_template(name)
        words_for_script = {k: tr(lang, v) for k, v in words.SCRIPT.items()}
        return template.render(
            _=say,
            lang=lang,
            languages=LANGUAGES,
            language_names=words.LANGUAGE_NAMES,
            script_words=words_for_script,
            **{"tv": False, **context},
        ).encode()

    def _page(self, name: str, lang: str, context: dict[str, Any]) -> web.Response:
        return _html(200, self._render(name, lang, context))

    def _missing(self) -> web.Response:
        return _html(404, self.missing)


def _html(status: int, body: bytes) -> web.Response:
    response = web.Response(status=status, body=body, content_type="text/html", charset="utf-8")
    response.headers["Content-Security-Policy"] = PAGE_POLICY
    return response


def _lang(request: web.Request) -> str | None:
    asked = request.query.get("lang")
    return asked if asked in LANGUAGES else None


def _query(lang: str | None) -> str:
    """What the page's own links carry on: the language asked for, if any."""
    return "?" + urlencode({"lang": lang}) if lang else ""


def _number(text: str | None) -> int | None:
    if text is None or not text.isdigit() or len(text) > 5:
        return None
    return int(text)
