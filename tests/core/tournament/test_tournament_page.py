"""A tournament's page (issue 34, ``/t/<key>.json``): the standings with every tie-break
column, each round's tables with their status, live score and the key of their game's
page, the byes, the crosstable and the judges' log; as the tournament's room knows them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.core.simulator import HALL, Plan, Simulator
from bot.core.tournament.rounds import current
from bot.core.tournament.standings import TIEBREAKS
from storage.store import Store


async def page_of(sim: Simulator) -> dict[str, Any]:
    event = await sim.event()
    key = await sim.service.pages.key("tournament", event.id)
    assert key is not None
    page = await sim.service.pages.tournament(key, "en")
    assert page is not None
    return page


async def test_the_tournament_page_follows_the_event(store: Store) -> None:
    sim = Simulator(Plan(teams=5, rounds=2, minutes=40, hand_minutes=4.0), store)
    await sim.command("new", "Copa", "rounds=2", "format=swiss", "checkin=off")
    for n in range(1, 6):
        await sim.command("register", f"Team {n}", "normal", "normal")
    await sim.command("close")
    await sim.command("start")
    await sim.command("penalty", "Team 1", "5", "late")  # the judges' log has a line
    sim.now += timedelta(minutes=4)
    await sim.fire()
    page = await page_of(sim)
    assert page["kind"] == "tournament" and page["name"] == "Copa" and page["round"] == 1
    first = page["rounds_played"][0]
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1
    for table in first["tables"]:
        assert table["status"] in ("waiting", "playing", "done")
        assert table["game"] is not None  # each table's game has its page
        game = await sim.service.pages.game(table["game"], "en")
        assert game is not None and game["kind"] == "game"
        if table["status"] == "playing":
            assert table["score"] == game["scores"]  # the live score
    assert any(line["action"] == "penalty" for line in page["log"])
    assert page["clock"]["seconds_left"] is not None
    for _ in range(2000):  # to the end
        if (await sim.event()).row.status in ("finished", "cancelled"):
            break
        sim.now += timedelta(minutes=4)
        await sim.fire()
    page = await page_of(sim)
    event = await sim.event()
    assert page["status"] == "finished"
    lines = current(event)
    assert [s["entry"] for s in page["standings"]] == [s.entry for s in lines]
    for shown, line in zip(page["standings"], lines, strict=True):
        assert set(shown["tiebreaks"]) == set(TIEBREAKS)
        assert shown["won"] == line.won and shown["difference"] == line.difference
    assert all(t["status"] == "done" for r in page["rounds_played"] for t in r["tables"])
    # the crosstable agrees with the tables: each entry's points for add up
    for row in page["crosstable"]:
        standing = next(s for s in page["standings"] if s["entry"] == row["entry"])
        played = [r for r in row["rounds"] if r["result"] != "bye"]
        assert sum(r["for"] for r in played) == standing["points_for"]
        assert len(played) == standing["played"]
    # the hall's community page lists the tournament with the same key
    community = await sim.service.pages.key_of(HALL)
    assert community is not None
    listed = await sim.service.pages.community(community)
    assert listed is not None
    key = await sim.service.pages.key("tournament", event.id)
    assert [t["key"] for t in listed["tournaments"]] == [key]


async def test_the_page_is_built_once_until_something_changes(store: Store) -> None:
    """Two hundred viewers cost one build per change (issue 34, Speed): read again with
    nothing changed, the page is the one built; a judge's act, or a move at a table, is
    on the very next read, though no time passed; its round clock runs meanwhile."""
    sim = Simulator(Plan(teams=4, rounds=2, minutes=40, hand_minutes=4.0), store)
    await sim.command("new", "Copa", "rounds=2", "format=swiss", "checkin=off")
    for n in range(1, 5):
        await sim.command("register", f"Team {n}", "normal", "normal")
    await sim.command("close")
    await sim.command("start")
    first = await page_of(sim)
    assert await page_of(sim) is first  # kept
    await sim.command("penalty", "Team 1", "5", "late")  # same moment: no time passed
    judged = await page_of(sim)
    assert judged is not first and any(line["action"] == "penalty" for line in judged["log"])
    sim.now += timedelta(seconds=10)
    later = await page_of(sim)
    assert later["log"] == judged["log"]
    left = judged["clock"]["seconds_left"]
    assert left is not None and later["clock"]["seconds_left"] == left - 10
    played = False
    for _ in range(50):  # the tables' computers play: the page follows each save
        before = await page_of(sim)
        sim.now += timedelta(minutes=4)
        await sim.fire()
        after = await page_of(sim)
        scores = [t["score"] for r in after["rounds_played"] for t in r["tables"]]
        if scores != [t["score"] for r in before["rounds_played"] for t in r["tables"]]:
            played = True
            break
    assert played
