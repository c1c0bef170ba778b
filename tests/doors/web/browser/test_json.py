"""The pages' JSON opened in Chromium (issue 34): each address the real program prints or
links answers in the browser with JSON, no console error, no failed request; an unknown
key is the same 404 as an address that is no page."""

from __future__ import annotations

import json

import pytest

from tests.doors.web.browser.conftest import Program, Watched

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_each_json_address_opens_in_the_browser(played: Program, watched: Watched) -> None:
    page = watched.page
    for path, kind in [
        (f"/c/{played.community}.json", "community"),
        (f"/g/{played.game}.json", "game"),
        (f"/t/{played.tournament}.json", "tournament"),
        (f"/g/{played.game}.json?lang=es", "game"),
    ]:
        response = await page.goto(played.base + path)
        assert response is not None and response.status == 200, path
        assert response.headers["content-type"].startswith("application/json"), path
        assert "set-cookie" not in response.headers
        data = json.loads(await response.text())
        assert data["kind"] == kind, path
    assert data["lang"] == "es"


async def test_an_unknown_key_is_the_same_404_as_no_page(played: Program, watched: Watched) -> None:
    request = watched.page.request
    unknown = await request.get(f"{played.base}/g/{'A' * 22}.json")
    nothing = await request.get(f"{played.base}/nothing/here")
    assert unknown.status == nothing.status == 404
    assert await unknown.body() == await nothing.body()


async def test_the_game_json_shows_the_finished_hands_and_not_the_hand_in_play(
    played: Program, watched: Watched
) -> None:
    game = await played.game_json()
    assert game["status"] == "playing" and len(game["hands"]) >= 2
    assert game["table"]["revealed"] is None  # a hand in play: no hand shown
    for hand in game["hands"]:
        # the replay: after the deal, then after each move
        replay = await played.json(hand["address"])
        assert len(replay["positions"]) == len(replay["moves"]) + 1 == hand["moves"] + 1
    ongoing = len(game["hands"]) + 1
    async with played.http.get(f"{played.base}/g/{played.game}/hands/{ongoing}.json") as answer:
        assert answer.status == 404  # the hand in play has no replay
