"""A finished hand's replay in Chromium (issue 34): it steps with the → and ← keys (and
Home, End) without reloading, and each position it shows is the record's: the game's
record as the room exports it (``/export`` in the console, RECORD.md) says which move
each step is, and how many tiles each seat and the boneyard hold after it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.doors.web.browser.conftest import Program, Watched, until

pytestmark = pytest.mark.asyncio(loop_scope="package")

SHOWN = """() => {
  const section = document.getElementById('replay');
  const picture = document.getElementById('replay-board');
  return {
    step: +section.dataset.step,
    steps: +section.dataset.steps,
    move: document.getElementById('replay-move').textContent.trim(),
    counter: document.getElementById('replay-step').textContent.trim(),
    picture: picture.getAttribute('src'),
    alt: picture.getAttribute('alt'),
    current: Array.from(document.querySelectorAll('#replay-moves [aria-current="step"]'))
      .map(a => +a.dataset.step),
    address: location.search,
    kept: window.__kept === 34,
  };
}"""


def tile(text: str) -> str:
    """A tile as the pages write it, high end first ("4-6" and "6-4": "6-4")."""
    a, b = (int(n) for n in text.split("-"))
    return f"{max(a, b)}-{min(a, b)}"


async def exported(played: Program) -> dict[str, Any]:
    """The game's record, as the room exports it (the hands already over, whole)."""
    said = await played.console.type("/export")
    assert "domino-" in said or "export" in said.lower(), said
    [path] = sorted((played.home / "data" / "console").glob("domino-*.json"), key=_newest)
    record: dict[str, Any] = json.loads(path.read_text())
    assert record["format"] == "domino-record/1"
    return record


def _newest(path: Path) -> float:
    return path.stat().st_mtime


def counts_after(hand: dict[str, Any], steps: int) -> tuple[list[int], int, str | None]:
    """Tiles in each seat's hand and in the boneyard after the record's first ``steps``
    moves of ``hand``; the tile laid by the last of them (None: a draw or a pass)."""
    counts = [len(tiles) for tiles in hand["deal"]]
    boneyard = len(hand.get("boneyard") or [])
    laid = None
    for move in hand["moves"][:steps]:
        seat, action = move.split(": ", 1)
        laid = None
        if action == "draw":
            counts[int(seat)] += 1
            boneyard -= 1
        elif action not in ("pass", "end"):
            counts[int(seat)] -= 1
            laid = tile(action.split()[0])
    return counts, boneyard, laid


async def test_the_replay_steps_with_the_keys_and_matches_the_record(
    played: Program, watched: Watched
) -> None:
    page = watched.page
    record = await exported(played)
    game = await played.game_json()
    number = 1
    hand = record["hands"][number - 1]
    replay = await played.json(f"/g/{played.game}/hands/{number}.json")
    assert [tile_moves(m) for m in replay["moves"]] == [tile_moves(m) for m in hand["moves"]]
    steps = len(hand["moves"])
    await page.goto(f"{played.base}/g/{played.game}?hand={number}&step=0")
    await page.evaluate("() => { window.__kept = 34; }")
    shown = await page.evaluate(SHOWN)
    assert shown["step"] == 0 and shown["steps"] == steps
    assert shown["current"] == [0]
    for step in [*range(1, steps + 1), steps]:  # → to the end, and once more: stays there
        await page.keyboard.press("ArrowRight")
        shown = await until(page, f"() => ({SHOWN})().step === {step} && ({SHOWN})()", "→")
        check_step(shown, step, hand, replay, game["players"])
    for step in range(steps - 1, steps - 6, -1):  # ← back a few
        await page.keyboard.press("ArrowLeft")
        shown = await until(page, f"() => ({SHOWN})().step === {step} && ({SHOWN})()", "←")
        check_step(shown, step, hand, replay, game["players"])
    await page.keyboard.press("Home")
    shown = await until(page, f"() => ({SHOWN})().step === 0 && ({SHOWN})()", "Home")
    check_step(shown, 0, hand, replay, game["players"])
    await page.keyboard.press("ArrowLeft")  # before the first: stays there
    shown = await page.evaluate(SHOWN)
    check_step(shown, 0, hand, replay, game["players"])
    await page.keyboard.press("End")
    shown = await until(page, f"() => ({SHOWN})().step === {steps} && ({SHOWN})()", "End")
    check_step(shown, steps, hand, replay, game["players"])
    # the position the page shows is the picture the server draws for that step, loaded
    await until(
        page,
        "() => { const i = document.getElementById('replay-board');"
        " return i.complete && i.naturalWidth > 0; }",
        "the last step's picture",
    )
    # the address follows the step: opened again, the page shows the same position
    await page.reload()
    again = await page.evaluate(SHOWN)
    assert again["step"] == steps and again["move"] == shown["move"]


def tile_moves(move: str) -> str:
    """A move with its tiles written high end first (the record may write either)."""
    return re.sub(r"\d+-\d+", lambda m: tile(m.group(0)), move)


def check_step(
    shown: dict[str, Any],
    step: int,
    hand: dict[str, Any],
    replay: dict[str, Any],
    players: list[dict[str, Any]],
) -> None:
    assert shown["kept"], "the page was reloaded"
    assert shown["current"] == [step], shown
    assert shown["picture"].split("?")[0].endswith(f"/hands/{replay['hand']}/{step}.png")
    assert f"step={step}" in shown["address"], shown["address"]
    assert shown["alt"], shown
    assert str(step) in shown["counter"], shown
    counts, boneyard, laid = counts_after(hand, step)
    position = replay["positions"][step]
    assert position["tile_counts"] == counts, (step, position, counts)
    assert position["boneyard"] == boneyard, (step, position)
    if step == 0:
        return
    move = hand["moves"][step - 1]
    seat = int(move.split(":")[0])
    # the words of the move name who made it and, for a tile laid, the tile
    assert players[seat]["name"] in shown["move"], (step, move, shown["move"])
    if laid is not None:
        assert laid in shown["move"], (step, move, shown["move"])
        placed = replay["placements"][: position["placed"]]
        assert tile(placed[-1]["tile"]) == laid, (step, placed[-1], laid)  # the last laid
