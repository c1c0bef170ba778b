"""A judge's penalty or award counts at the table (issue 31, 1; seed 001: «se restarán
veinte (-20) puntos al jugador (pareja) infractor», «la otra pareja recibe 20
puntos»): written into the table's game while it plays, into its result once done, the
winner following the sum; told in the tournament's room and at the table; in the log and
the export. A refusal changes nothing."""

from __future__ import annotations

import csv
import io
import zipfile

from bot.core.model import File, Say
from bot.core.tournament.rounds import current
from bot.core.tournament.state import Event
from engine.game import Game
from storage.store import Store
from tests.core.tournament.test_tournament_judges import refused, snapshot, started


async def game_of(club, table_game_id: int) -> Game:  # type: ignore[no-untyped-def]
    row = await club.store.games.load(table_game_id)
    game = club.service.desk.loaded(row).game
    assert game is not None
    return game


def team_at(event: Event, number: int, side: int) -> str:
    table = next(t for t in event.round_tables() if t.number == number)
    return event.entry(table.sides[side][0]).name


async def test_an_award_at_a_playing_table_goes_on_its_sheet_and_is_told(store: Store) -> None:
    club = await started(store, minutes="0")
    event = await club.event()
    table = event.round_tables()[0]
    before = list((await game_of(club, table.game_id)).scores)
    team = team_at(event, table.number, 1)
    effects = await club.say("Org", f"/tournament award {team} 15 la otra pareja", admin=True)
    assert not refused(effects)
    game = await game_of(club, table.game_id)
    assert game.scores == [before[0], before[1] + 15]
    [written] = game.adjustments
    assert (written.side, written.points, written.reason) == (1, 15, "la otra pareja")
    # told in the tournament's room and at the table, whose board shows the new total
    assert "Award at table" in club.said() and "+15" in club.said()
    room = club.tables[(1, table.number)].room
    assert "score sheet" in club.said(room)
    # the log names it, with the table
    logs = await store.tournaments.logs(event.id)
    assert [(g.action, g.table_number, g.points) for g in logs if g.action == "award"] == [
        ("award", table.number, 15)
    ]
    # the standings count it through the table, not apart
    assert all(s.penalties == 0 for s in current(await club.event()))


async def test_a_penalty_after_the_table_is_done_turns_its_winner(store: Store) -> None:
    """190-180 for the leader, then −20 for the leader: 170-180, the leader loses."""
    club = await started(store, minutes="0")
    event = await club.event()
    table = event.round_tables()[0]
    await club.say("Org", f"/tournament correct {table.number} 190-180", admin=True)
    leader = team_at(event, table.number, 0)
    await club.say("Org", f"/tournament penalty {leader} 20 señas", admin=True)
    done = (await club.event()).table(1, table.number)
    assert done.score == (170, 180) and done.winner == 1
    assert "170-180" in club.said()
    # an award to the other side afterwards: 170-200
    other = team_at(event, table.number, 1)
    await club.say("Org", f"/tournament award {other} 20", admin=True)
    done = (await club.event()).table(1, table.number)
    assert done.score == (170, 200) and done.winner == 1
    # in the export's log
    effects = await club.say("Org", "/tournament export", admin=True)
    [file] = [e for e in effects if isinstance(e, File)]
    log = zipfile.ZipFile(io.BytesIO(file.data)).read("log.csv").decode()
    rows = [r for r in csv.DictReader(io.StringIO(log)) if r["action"] in ("penalty", "award")]
    assert [(r["action"], r["entry"], r["points"], r["table"]) for r in rows] == [
        ("penalty", leader, "20", str(table.number)),
        ("award", other, "20", str(table.number)),
    ]


async def test_a_team_with_a_bye_has_it_in_the_standings(store: Store) -> None:
    club = await started(store, teams=5, minutes="0")
    event = await club.event()
    [bye] = event.byes
    name = event.entry(bye.entry).name
    await club.say("Org", f"/tournament penalty {name} 20 late", admin=True)
    await club.say("Org", f"/tournament award {name} 5", admin=True)
    [line] = [s for s in current(await club.event()) if s.entry == bye.entry]
    assert line.penalties == 15


async def test_bad_points_and_unknown_teams_change_nothing(store: Store) -> None:
    club = await started(store, minutes="0")
    before = await snapshot(club)
    event = await club.event()
    table = event.round_tables()[0]
    scores = list((await game_of(club, table.game_id)).scores)
    team = team_at(event, table.number, 0)
    for text in (
        f"/tournament award {team} 0", f"/tournament penalty {team} 5000",
        "/tournament award Nobody 20", "/tournament award",
    ):  # fmt: skip
        effects = await club.say("Org", text, admin=True)
        assert refused(effects), text
        assert await snapshot(club) == before, text
    assert (await game_of(club, table.game_id)).scores == scores
    # and nobody but the judges gives points
    await club.say("Eva", "/help")
    assert refused(await club.say("Eva", f"/tournament award {team} 20"))
    assert await snapshot(club) == before
    assert not any(isinstance(e, Say) and "Award" in e.text for e in club.rooms["hall"])
