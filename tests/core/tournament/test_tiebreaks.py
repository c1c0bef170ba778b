"""Tie-breaks the organiser chooses (issue 31, 10): ``tiebreaks=`` at ``new`` or ``set``,
in order, from the seven docs/tournaments.md defines; the standings ordered by them, each
shown as its own column (picture, text, file), bad choices refused changing nothing."""

from __future__ import annotations

import csv
import io
import zipfile

from bot.core.model import File, Picture, Say
from bot.core.service import GameService
from bot.core.tournament.rounds import current
from bot.core.tournament.standings import TIEBREAKS
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import Club
from tests.core.tournament.test_tournament_judges import refused, snapshot, started


async def played_out(store: Store, **settings: str) -> Club:
    club = await started(store, teams=6, minutes="0", **settings)
    for _ in range(400):
        await club.tick(60)
        if (await club.event()).row.status == "finished":
            return club
    raise AssertionError("the tournament never finished")


async def test_the_organisers_tiebreaks_order_the_standings_and_are_its_columns(
    store: Store,
) -> None:
    club = await played_out(store, tiebreaks="sb,median_buchholz,difference,top")
    event = await club.event()
    chosen = ("sonneborn_berger", "median_buchholz", "difference", "top_wins")
    assert event.settings.tiebreaks == chosen
    lines = current(event)
    expelled = {e.id for e in event.entries if e.status == "expelled"}
    keys = [
        (s.entry in expelled, -s.won, *(-s.tiebreaks[t] for t in chosen), s.entry) for s in lines
    ]
    assert keys == sorted(keys)
    effects = await club.say("Ana", "/tournament standings")
    [picture] = [e for e in effects if isinstance(e, Picture)]
    # difference has its column always; the others chosen follow, in the chosen order
    assert picture.header[-3:] == ("S-B", "Median B.", "Top wins")
    assert "Buchholz" not in picture.header and "H2H" not in picture.header
    for row, line in zip(picture.rows, lines, strict=True):
        assert row[-3:] == tuple(
            f"{line.tiebreaks[t]:g}" for t in ("sonneborn_berger", "median_buchholz", "top_wins")
        )
    first = picture.text.splitlines()[1]
    assert first.endswith(
        tuple(f" · SB {row[-3]} · MB {row[-2]} · TW {row[-1]}" for row in picture.rows[:1])
    )
    # the export's standings.csv holds every tie-break, and which ordered them
    [file] = [e for e in await club.say("Ana", "/tournament export") if isinstance(e, File)]
    archive = zipfile.ZipFile(io.BytesIO(file.data))
    rows = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode())))
    assert set(TIEBREAKS) <= set(rows[0])
    assert {r["tiebreaks"] for r in rows} == {",".join(chosen)}
    assert [r["team"] for r in rows] == [event.entry(s.entry).name for s in lines]


async def test_the_default_order_is_buchholz_head_to_head_difference_points_for(
    store: Store,
) -> None:
    club = await started(store)
    event = await club.event()
    assert event.settings.tiebreaks == ("buchholz", "head_to_head", "difference", "points_for")


async def test_bad_tiebreaks_are_refused_and_change_nothing(store: Store) -> None:
    club = await started(store, rounds="2")
    before = await snapshot(club)
    for typed in ("tiebreaks=colour", "tiebreaks=sb,sb", "tiebreaks=", "tiebreaks=buchholz,,"):
        effects = await club.say("Org", f"/tournament set {typed}", admin=True)
        assert refused(effects), typed
        assert await snapshot(club) == before, typed


async def test_tiebreaks_are_set_before_round_one_and_told(store: Store) -> None:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    await club.say("Org", "/tournament new Copa tiebreaks=h2h,b", admin=True)
    assert (await club.event()).settings.tiebreaks == ("head_to_head", "buchholz")
    said = await club.say("Org", "/tournament set tiebreaks=none", admin=True)
    assert "tiebreaks=none" in "\n".join(e.text for e in said if isinstance(e, Say))
    assert (await club.event()).settings.tiebreaks == ()
    said = await club.say("Eva", "/tournament set tiebreaks=sb")  # not the organiser
    assert refused(said) and (await club.event()).settings.tiebreaks == ()
