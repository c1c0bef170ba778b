"""What the organiser and the judges may do to a tournament (issue 22), and that nobody
else can: every refusal changes nothing; every judge's act is logged and told in the
tournament's room; the export holds the standings, the tables and the finished games."""

from __future__ import annotations

import csv
import io
import zipfile

from bot.core.model import File, Say
from bot.core.service import GameService
from bot.core.tournament.state import Event
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import Club


async def started(store: Store, teams: int = 4, **settings: str) -> Club:
    """A tournament of computer pairs, round 1 under way."""
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    extra = " ".join(f"{k}={v}" for k, v in settings.items())
    await club.say("Org", f"/tournament new Copa rounds=2 checkin=off {extra}", admin=True)
    for n in range(1, teams + 1):
        await club.say("Org", f"/tournament register Bots {n} computer computer", admin=True)
    await club.say("Org", "/tournament close", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    return club


async def snapshot(club: Club) -> tuple[object, ...]:
    event = await club.event()
    logs = await club.store.tournaments.logs(event.id)
    return (event.row.version, event.entries, event.tables, event.byes, len(logs))


def refused(effects: list) -> bool:
    return any(isinstance(e, Say) and e.private is not None for e in effects)


async def test_only_the_organiser_judges_and_admins_run_it(store: Store) -> None:
    club = await started(store)
    await club.say("Eva", "/help")
    before = await snapshot(club)
    for text in (
        "/tournament penalty Bots 1 20 noise", "/tournament forfeit 1 Bots 1",
        "/tournament void 1", "/tournament expel Bots 2", "/tournament correct 1 200-0",
        "/tournament pause", "/tournament extend 5", "/tournament cancel",
        "/tournament set rounds=5", "/tournament judge @eva", "/tournament new Otra",
        "/tournament next",
    ):  # fmt: skip
        assert refused(await club.say("Eva", text)), text
    assert await snapshot(club) == before
    # named a judge by the organiser, Eva may
    await club.say("Org", "/tournament judge Eva", admin=True)
    await club.say("Eva", "/tournament penalty Bots 1 5 late to the table")
    event = await club.event()
    bots = event.entry_named("Bots 1").id
    [table] = [t for t in event.round_tables() if bots in t.sides[0] + t.sides[1]]
    row = await club.store.games.load(table.game_id)
    game = club.service.desk.loaded(row).game
    assert game is not None
    assert [(a.points, a.reason) for a in game.adjustments] == [(-5, "late to the table")]
    # the judges' log says who did what: the judge named, the penalty given
    [said] = await club.say("Ana", "/tournament log")
    assert "judge · Eva · by Org" in said.text, said.text
    assert f"penalty · Bots 1 · r1 · t{table.number} · 5 · late to the table · by Eva" in said.text


async def test_bad_input_is_answered_and_changes_nothing(store: Store) -> None:
    club = await started(store)
    before = await snapshot(club)
    for text in (
        "/tournament frobnicate", "/tournament penalty Nobody 20", "/tournament forfeit 9 Bots 1",
        "/tournament forfeit x", "/tournament void", "/tournament correct 1 abc",
        "/tournament correct 1", "/tournament extend", "/tournament extend -3",
        "/tournament extend 100000", "/tournament set rounds=0", "/tournament set colour=red",
        "/tournament set format=knockout", "/tournament resume", "/tournament start",
        "/tournament register Bots 1 computer computer", "/tournament checkin",
        # numbers from outside, past anything storage holds (issue 32, 7)
        f"/tournament correct 1 {'9' * 30}-1", f"/tournament correct 1 1-{'7' * 4000}",
        f"/tournament correct {'9' * 30} 1-1", f"/tournament extend {'9' * 30}",
        f"/tournament penalty Bots 1 {'9' * 30}", f"/tournament forfeit {'9' * 30} Bots 1",
        f"/tournament substitute 1 {'9' * 30}", f"/tournament set target={'9' * 30}",
    ):  # fmt: skip
        effects = await club.say("Org", text, admin=True)
        assert refused(effects), text
        assert await snapshot(club) == before, text


async def test_forfeit_void_expel_and_correct(store: Store) -> None:
    club = await started(store, teams=6, minutes="0")
    event = await club.event()
    one, two, three = event.round_tables()
    a = event.entry(one.sides[0][0]).name
    await club.say("Org", f"/tournament forfeit 1 {a}", admin=True)
    await club.say("Org", "/tournament void 2", admin=True)
    loser = event.entry(three.sides[1][0]).name
    await club.say("Org", f"/tournament expel {loser} marked tiles", admin=True)
    event = await club.event()
    one, two, three = event.round_tables(1)
    assert (one.score, one.winner, one.ended_by) == ((200, 0), 0, "forfeit")
    assert (two.score, two.winner, two.ended_by) == ((0, 0), None, "judge")
    assert (three.score, three.winner, three.ended_by) == ((200, 0), 0, "forfeit")
    assert event.entry_named(loser).status == "expelled"
    # their games ended without a result
    for table in (one, two, three):
        assert (await store.games.load(table.game_id)).status == "cancelled"
    said = club.said()
    assert "marked tiles" in said and "forfeit" in said
    # the round was over: round 2 pairs only who is still in
    await club.tick(150)
    event = await club.event()
    assert event.round == 2
    assert all(
        event.entry_named(loser).id not in t.sides[0] + t.sides[1] for t in event.round_tables()
    )
    # a correction of round 1's table 2, kept in the log
    await club.say("Org", "/tournament correct 2 150-120 1", admin=True)
    event = await club.event()
    two = event.round_tables(1)[1]
    assert two.score == (150, 120) and two.winner == 0 and two.ended_by == "judge"
    actions = [g.action for g in await store.tournaments.logs(event.id)]
    for act in ("forfeit", "void", "expel", "correct"):
        assert act in actions


async def test_the_export_holds_standings_tables_log_and_finished_games(store: Store) -> None:
    club = await started(store, minutes="0")
    for _ in range(400):
        await club.tick(60)
        if (await club.event()).row.status == "finished":
            break
    event: Event = await club.event()
    assert event.row.status == "finished"
    effects = await club.say("Ana", "/tournament export")
    [file] = [e for e in effects if isinstance(e, File)]
    archive = zipfile.ZipFile(io.BytesIO(file.data))
    names = set(archive.namelist())
    assert {"standings.csv", "tables.csv", "log.csv"} <= names
    rows = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode())))
    assert len(rows) == 4
    assert sum(int(r["points_for"]) for r in rows) == sum(int(r["points_against"]) for r in rows)
    games = [n for n in names if n.startswith("round-")]
    assert len(games) == len(event.tables)


async def test_a_team_withdrawn_while_registering_stays_named_in_the_log(store: Store) -> None:
    """Its entry is gone (as if it never registered) but its log line stays: the export
    and ``/tournament log`` name it as it was, and neither fails."""
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    await club.say("Org", "/tournament new Copa rounds=2", admin=True)
    await club.say("Org", "/tournament register Los Primos computer computer", admin=True)
    await club.say("Org", "/tournament register Solo computer computer", admin=True)
    await club.say("Org", "/tournament leave Los Primos", admin=True)
    assert [e.name for e in (await club.event()).entries] == ["Solo"]
    effects = await club.say("Org", "/tournament export", admin=True)
    [file] = [e for e in effects if isinstance(e, File)]
    log = archive_csv(file, "log.csv")
    assert [(r["action"], r["entry"]) for r in log if r["action"] == "withdraw"] == [
        ("withdraw", "Los Primos")
    ]
    assert not refused(await club.say("Org", "/tournament log", admin=True))


def archive_csv(file: File, name: str) -> list[dict[str, str]]:
    archive = zipfile.ZipFile(io.BytesIO(file.data))
    return list(csv.DictReader(io.StringIO(archive.read(name).decode())))


async def test_registration_closes_by_itself_at_the_time_set(store: Store) -> None:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    await club.say("Org", "/tournament new Copa closes=30", admin=True)
    await club.say("Org", "/tournament register Bots 1 computer computer", admin=True)
    await club.tick(29 * 60)
    assert (await club.event()).row.status == "registration"
    await club.tick(2 * 60)
    assert (await club.event()).row.status == "checkin"
    assert "Registration is closed" in club.said()
    await club.say("Ana", "/help")
    assert refused(await club.say("Ana", "/tournament register Late"))


async def test_judges_rule_on_tables_not_their_own_and_do_not_run_the_event(
    store: Store,
) -> None:
    """Issue 31: judges rule on tables (penalty, forfeit, void, correct, expel) except one
    they sit at; the organiser and the community's admins run the event (its settings,
    its judges, its rounds, its clock, other people's entries)."""
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    await club.say("Eva", "/help")
    await club.say("Org", "/tournament new Copa rounds=2 checkin=off minutes=0", admin=True)
    await club.say("Org", "/tournament register Jueces @eva computer", admin=True)
    for n in range(1, 4):
        await club.say("Org", f"/tournament register Bots {n} computer computer", admin=True)
    await club.say("Org", "/tournament judge Eva", admin=True)
    await club.say("Org", "/tournament close", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    event = await club.event()
    mine = event.entry_named("Jueces")
    [own] = [t for t in event.round_tables() if any(mine.id in s for s in t.sides)]
    [other] = [t for t in event.round_tables() if t is not own]
    rival = event.entry(own.sides[1][0] if mine.id in own.sides[0] else own.sides[0][0])
    elsewhere = event.entry(other.sides[0][0])
    before = await snapshot(club)
    for text in (
        f"/tournament forfeit {own.number} Jueces", f"/tournament void {own.number}",
        f"/tournament correct {own.number} 200-0", "/tournament penalty Jueces 5",
        f"/tournament penalty {rival.name} 5", f"/tournament expel {rival.name}",
    ):  # fmt: skip
        effects = await club.say("Eva", text)
        assert refused(effects), text
        assert "You play at that table" in effects[0].text, text
    for text in (
        "/tournament set rounds=3", "/tournament judge @org", "/tournament pause",
        "/tournament extend 5", "/tournament next", "/tournament cancel",
        "/tournament register Otros computer computer", f"/tournament leave {elsewhere.name}",
    ):  # fmt: skip
        assert refused(await club.say("Eva", text)), text
    assert await snapshot(club) == before
    # another table is hers to rule on
    effects = await club.say("Eva", f"/tournament penalty {elsewhere.name} 5 noise")
    assert not refused(effects)
    event = await club.event()
    logs = await club.store.tournaments.logs(event.id)
    assert [(g.action, g.entry_id, g.points) for g in logs if g.action == "penalty"] == [
        ("penalty", elsewhere.id, 5)
    ]
