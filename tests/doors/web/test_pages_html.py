"""The web pages as people see them (issue 34): ``/g``, ``/t`` and ``/c`` in every
language, under a strict Content-Security-Policy, readable by a screen reader (one h1,
headings in order, pictures with a text, table headers with their scope); the room's
board picture and every step of a finished hand's replay; never a tile of a hand in play
or the boneyard in any page, picture or JSON; the same 404 for every key that names
nothing; the standings as CSV that no spreadsheet runs as a formula; hall mode."""

from __future__ import annotations

import csv
import io
import logging
import random
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from bot.core.session import game_of
from bot.core.simulator import HALL, Plan, Simulator
from bot.doors.pictures import board_png
from bot.doors.web import WebDoor, words
from bot.doors.web.html import PAGE_POLICY, TEMPLATES
from engine.views import view_of
from lang import LANGUAGES, catalog, tr
from storage.store import Store
from tests.core.driver import Room
from tests.core.test_pages import open_game, pair, step, tiles_named
from tests.doors.web.test_app import Client, fetch, free_port

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

UNKNOWN = "AAAAAAAAAAAAAAAAAAAAAA"


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Room, Store, Client]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    room = await Room.open(store)
    door = WebDoor(room.service.pages, "127.0.0.1", free_port())
    assert await door.start()
    client = Client(f"http://127.0.0.1:{door.port}")
    try:
        yield room, store, client
    finally:
        await client.close()
        await door.stop()
        await store.close()


async def play(room: Room, presses: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(presses):
        if not await step(room, rng):
            break


async def until_a_hand_is_over(room: Room, store: Store, seed: int = 3) -> None:
    """Press on until the first hand is over and the second is in play."""
    rng = random.Random(seed)
    for _ in range(3000):
        game = game_of(await store.games.load(1))
        assert game is not None
        if game.hands_finished >= 1 and game.hand is not None:
            return
        if not await step(room, rng):
            return


def well_made(html: str, lang: str) -> None:
    """What every page promises: its language, no inline script or style, one h1 and
    headings in order, a text for every picture, every table header's scope."""
    assert f'<html lang="{lang}">' in html
    assert " style=" not in html and "<style" not in html
    for script in re.findall(r"<script[^>]*>", html):
        assert ' src="/static/' in script or 'type="application/json"' in script, script
    assert "javascript:" not in html and "<form" not in html
    levels = [int(n) for n in re.findall(r"<h([1-6])[\s>]", html)]
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(b <= a + 1 for a, b in pairwise(levels)), levels
    for img in re.findall(r"<img[^>]*>", html):
        alt = re.search(r'alt="([^"]*)"', img)
        assert alt and alt.group(1).strip(), img
    for th in re.findall(r"<th[\s>][^>]*>|<th>", html):
        assert "scope=" in th, th
    for address in re.findall(r'(?:src|href)="([^"]*)"', html):  # nothing of another site
        assert address[:1] in ("/", "?", "#") and not address.startswith("//"), address


async def text_of(client: Client, path: str) -> tuple[int, dict[str, str], str]:
    status, headers, body = await fetch(client, path)
    return status, headers, body.decode()


async def test_a_game_page_in_each_language(served: tuple[Room, Store, Client]) -> None:
    room, store, client = served
    await open_game(room, "partnership")
    await until_a_hand_is_over(room, store)
    key = await room.service.pages.key("game", 1)
    for lang in LANGUAGES:
        status, headers, html = await text_of(client, f"/g/{key}?lang={lang}")
        assert status == 200, html
        assert headers["Content-Type"].startswith("text/html")
        assert headers["Content-Security-Policy"] == PAGE_POLICY
        assert headers["X-Content-Type-Options"] == "nosniff" and "Set-Cookie" not in headers
        well_made(html, lang)
        for words_said in ("The table", "Score sheet", "Finished hands"):
            assert tr(lang, words_said) in html
        assert f'src="/g/{key}/board.png?v=' in html and 'id="board"' in html
        assert f'href="?hand=1&amp;lang={lang}#replay"' in html  # a finished hand, linked
        # a replay of it, server-drawn, its buttons links (no form), the keys said
        status, _headers, replay = await text_of(client, f"/g/{key}?hand=1&step=2&lang={lang}")
        assert status == 200
        well_made(replay, lang)
        assert f'src="/g/{key}/hands/1/2.png?lang={lang}"' in replay
        for control in ("replay-first", "replay-prev", "replay-next", "replay-last"):
            assert f'id="{control}"' in replay
        assert 'href="?hand=1&amp;step=1' in replay and 'href="?hand=1&amp;step=3' in replay
        assert tr(lang, "The ← and → keys step through the hand.") in replay
    status, headers, png = await fetch(client, f"/g/{key}/board.png")
    assert status == 200 and headers["Content-Type"] == "image/png" and png[:4] == b"\x89PNG"
    status, headers, png = await fetch(client, f"/g/{key}/hands/1/0.png")
    assert status == 200 and png[:4] == b"\x89PNG"
    status, headers, _body = await fetch(client, f"/g/{key}", "HEAD")
    assert status == 200
    status, headers, _body = await fetch(client, f"/g/{key}", "POST")
    assert status == 405 and headers["Allow"] == "GET, HEAD"


async def test_the_board_picture_is_the_rooms(served: tuple[Room, Store, Client]) -> None:
    """The page's picture is the very picture the room was sent: drawn from the room's
    view with the room's names, look and clocks."""
    room, store, client = served
    await open_game(room, "draw")
    await play(room, 3)
    key = await room.service.pages.key("game", 1)
    game = game_of(await store.games.load(1))
    assert game is not None
    await room.say("Ana", "/board")  # the room's board as it stands
    sent = [e for e in room.log if type(e).__name__ == "Board"][-1]
    assert sent.view == view_of(game)
    status, _headers, png = await fetch(client, f"/g/{key}/board.png?lang=en")
    assert status == 200
    assert png == await board_png(sent)


async def test_no_hidden_tile_in_any_page_picture_or_json(
    served: tuple[Room, Store, Client],
) -> None:
    """Real games, move by move: while a hand is in play, no page, no JSON and no
    picture's data holds a tile of a hand or of the boneyard; the hand in play has no
    replay and no picture of a step."""
    room, store, client = served
    await open_game(room, "draw")
    key = await room.service.pages.key("game", 1)
    rng = random.Random(11)
    checked = 0
    for _ in range(80):
        game = game_of(await store.games.load(1))
        assert game is not None
        hand = game.hand
        if hand is not None:
            hidden = {pair(t) for seat in range(game.players) for t in hand.hand(seat)}
            hidden |= {pair(t) for t in hand.boneyard[len(hand.boneyard) - hand.boneyard_left :]}
            hidden -= {pair(t) for t in game.logs[-1].opening_draw or ()}
            for path in (f"/g/{key}", f"/g/{key}.json", f"/g/{key}?lang=es"):
                status, _headers, body = await text_of(client, path)
                assert status == 200
                assert not tiles_named(body) & hidden, path
            for finished in range(1, game.hands_finished + 1):
                status, _h, body = await text_of(client, f"/g/{key}/hands/{finished}.json")
                assert status == 200  # a finished hand: all of it is the room's now
            current = game.hand_number
            for path in (
                f"/g/{key}/hands/{current}.json",
                f"/g/{key}/hands/{current}/0.png",
                f"/g/{key}?hand={current}",
            ):
                status, _headers, body = await text_of(client, path)
                assert not tiles_named(body) & hidden, path
                if path.endswith((".json", ".png")):
                    assert status == 404
            checked += 1
        if not await step(room, rng):
            break
    assert checked > 10


async def test_every_key_that_names_nothing_gets_the_same_404(
    served: tuple[Room, Store, Client], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    room, store, client = served
    await open_game(room, "draw")
    await until_a_hand_is_over(room, store)
    game = await room.service.pages.key("game", 1)
    community = await room.service.pages.key_of(room.place)
    assert game and community
    html = await fetch(client, f"/g/{UNKNOWN}")
    data = await fetch(client, f"/g/{UNKNOWN}.json")
    assert html[0] == 404 and data[0] == 404
    assert html[1]["Content-Type"].startswith("text/html")
    for path in ("/g/short", f"/t/{game}", f"/c/{game}", f"/g/{community}", f"/t/{UNKNOWN}"):
        assert await fetch(client, path) == html, path
    elsewhere = (
        f"/g/{UNKNOWN}/board.png",
        f"/g/{UNKNOWN}/hands/1.json",
        f"/g/{UNKNOWN}/hands/1/0.png",
        f"/t/{UNKNOWN}.csv",
        f"/t/{game}.csv",
        f"/g/{community}/board.png",
        f"/g/{game}/hands/99.json",
        f"/g/{game}/hands/1/9999.png",
        f"/g/{game}/hands/0.json",
        "/static/nothing.js",
        "/static/../app.py",
    )
    for path in elsewhere:
        assert await fetch(client, path) == data, path
    await room.say("Ana", "/settings web off", admin=True)
    for path in (f"/g/{game}", f"/c/{community}"):
        assert await fetch(client, path) == html, path
    for path in (f"/g/{game}/board.png", f"/g/{game}/hands/1.json", f"/g/{game}/hands/1/0.png"):
        assert await fetch(client, path) == data, path
    await room.say("Ana", "/settings web on", admin=True)
    assert (await fetch(client, f"/g/{game}"))[0] == 200
    assert (await fetch(client, f"/g/{game}/hands/1.json"))[0] == 200
    logged = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    assert game not in logged and community not in logged


async def test_the_hands_json_replays_the_record(served: tuple[Room, Store, Client]) -> None:
    room, store, client = served
    await open_game(room, "draw 1")
    await play(room, 3000, seed=5)
    key = await room.service.pages.key("game", 1)
    record = await store.games.record(1)
    status, _headers, body = await fetch(client, f"/g/{key}.json")
    page = __import__("json").loads(body)
    assert status == 200 and len(page["hands"]) == len(record["hands"]) >= 1
    for line, kept in zip(page["hands"], record["hands"], strict=True):
        response = await client.get(line["address"])
        assert response.status == 200
        replayed: dict[str, Any] = await response.json()
        assert replayed["moves"] == kept["moves"]
        assert len(replayed["positions"]) == len(kept["moves"]) + 1
        assert [p["ply"] for p in replayed["positions"]] == list(
            range(replayed["positions"][0]["ply"], replayed["positions"][-1]["ply"] + 1)
        )
        assert replayed["positions"][-1]["revealed"] == replayed["revealed"] is not None
        last = len(replayed["positions"]) - 1
        status, _h, png = await fetch(client, f"/g/{key}/hands/{line['hand']}/{last}.png")
        assert status == 200 and png[:4] == b"\x89PNG"
        assert (await fetch(client, f"/g/{key}/hands/{line['hand']}/{last + 1}.png"))[0] == 404


async def tournament(store: Store, teams: tuple[str, ...]) -> tuple[Simulator, str]:
    sim = Simulator(Plan(teams=len(teams), rounds=2, minutes=40, hand_minutes=4.0), store)
    await sim.command("new", "Copa", "rounds=2", "format=swiss", "checkin=off")
    for name in teams:
        await sim.command("register", name, "normal", "normal")
    await sim.command("close")
    await sim.command("start")
    for _ in range(3):
        sim.now += timedelta(minutes=4)
        await sim.fire()
    event = await sim.event()
    key = await sim.service.pages.key("tournament", event.id)
    assert key is not None
    return sim, key


@pytest.fixture
async def hall(tmp_path: Path) -> AsyncIterator[tuple[Simulator, str, Client]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'hall.sqlite3'}")
    teams = ("Los Primos", "Las Fieras", '=HYPERLINK("http://x.example";"y")', "+Dos", "Cinco")
    sim, key = await tournament(store, teams)
    door = WebDoor(sim.service.pages, "127.0.0.1", free_port())
    assert await door.start()
    client = Client(f"http://127.0.0.1:{door.port}")
    try:
        yield sim, key, client
    finally:
        await client.close()
        await door.stop()
        await store.close()


async def test_a_tournament_page_in_each_language(
    hall: tuple[Simulator, str, Client],
) -> None:
    sim, key, client = hall
    for lang in LANGUAGES:
        status, headers, html = await text_of(client, f"/t/{key}?lang={lang}")
        assert status == 200 and headers["Content-Security-Policy"] == PAGE_POLICY
        well_made(html, lang)
        for said in ("Standings", "Rounds and tables", "Crosstable", "Judges' log"):
            assert str(escape(tr(lang, said))) in html
        # every tie-break's column, the tables with their status and their game's page
        for code in words.TIEBREAK_HEADERS:
            assert f'data-tiebreak="{code}"' in html
        assert 'id="table-1-1"' in html and 'class="game-link" href="/g/' in html
        assert f'href="/t/{key}.csv"' in html
        # a team's name is text, never markup
        assert "=HYPERLINK(&#34;http://x.example&#34;;&#34;y&#34;)" in html
    community = await sim.service.pages.key_of(HALL)
    for lang in LANGUAGES:
        status, _headers, html = await text_of(client, f"/c/{community}?lang={lang}")
        assert status == 200
        well_made(html, lang)
        assert tr(lang, "Recent games") in html and f'href="/t/{key}?lang={lang}"' in html
        assert 'class="game-link" href="/g/' in html


async def test_hall_mode_and_print(hall: tuple[Simulator, str, Client]) -> None:
    _sim, key, client = hall
    status, _headers, html = await text_of(client, f"/t/{key}?tv=1")
    assert status == 200
    body = re.search(r"<body[^>]*>", html)
    assert body and re.search(r'class="[^"]*\btv\b', body.group(0))
    assert 'data-tv-seconds="15"' in body.group(0)
    slides = re.findall(r'<section id="(\w+)" class="slide"', html)
    assert slides == ["standings", "rounds"]
    assert 'id="crosstable"' not in html  # the hall sees standings and tables only
    status, headers, css = await text_of(
        client, re.findall(r'href="(/static/site\.css[^"]*)"', html)[0]
    )
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert "@media print" in css and "body.tv" in css
    script = re.findall(r'src="(/static/pages\.js[^"]*)"', html)[0]
    status, headers, js = await text_of(client, script)
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert "EventSource" in js and "ArrowRight" in js and "innerHTML" not in js


async def test_the_standings_csv_runs_no_formula(hall: tuple[Simulator, str, Client]) -> None:
    sim, key, client = hall
    status, headers, body = await fetch(client, f"/t/{key}.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert rows[0][:2] == ["place", "team"]
    teams = [row[1] for row in rows[1:]]
    assert '\'=HYPERLINK("http://x.example";"y")' in teams
    assert "'+Dos" in teams and "Cinco" in teams
    for row in rows:
        for value in row:
            if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
                assert re.fullmatch(r"-?\d+(\.\d+)?", value), value
    event = await sim.event()
    assert len(rows) == len(event.entries) + 1


def test_every_word_of_the_templates_is_marked_and_translated() -> None:
    said: set[str] = set()
    for path in TEMPLATES.glob("*.html"):
        text = path.read_text()
        said |= set(re.findall(r'_\(\s*"([^"]+)"', text))
        said |= set(re.findall(r"_\(\s*'([^']+)'", text))
    marked = set(words.TEMPLATES) | {"There is nothing at this address."}
    assert said and said <= marked, said - marked
    everything = said | set(words.SCRIPT.values()) | {
        w for table in (words.STATUS, words.TABLE_STATUS, words.ENDED, words.RESULT,
                        words.LOG_ACTIONS, words.PERIODS, words.TIEBREAK_NAMES,
                        words.HAND_END) for w in table.values()
    }  # fmt: skip
    for lang in LANGUAGES:
        assert not {w for w in everything if not catalog(lang).get(w)}, lang
