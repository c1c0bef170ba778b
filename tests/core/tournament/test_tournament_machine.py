"""A club tournament as its members, its judges and a hostile member use it (issue 31): a
hypothesis state machine drives the service through registrations, invitations and their
answers, withdrawals, check-in, the start, players taking or leaving their seats, the
clock running (computers play, people time out and walk out), the judges' rulings
(penalties, awards, forfeits, voids, corrections, substitutes, pauses, extensions) and
restarts; every command is tried by the one it is for and by those it is not.

After every step:
1. the standings add up from the tables: each entry's points for and against are its
   sides' scores at the tables done, its wins those tables won plus its byes;
2. nobody is in an event they did not accept: a person is a member (not an invitation)
   of a team only if they registered it, accepted it, or the organiser put them there;
3. a refused command changes nothing stored;
4. a penalty or an award changes exactly the table it names (its game, or its result
   once done), or with no table that team's penalties alone;
5. every result is told: each table done is told in the tournament's room, once, and
   again only when a judge changed it.

``TOURNAMENT_EXAMPLES`` and ``TOURNAMENT_STEPS`` run it longer.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
from collections import Counter
from typing import Any

from hypothesis import note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bot.core.model import Effect, Say, TableTold
from bot.core.posts import Posts
from bot.core.service import GameService
from bot.core.tournament.rounds import current
from bot.core.tournament.state import Event
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import HALL, Club

EXAMPLES = int(os.environ.get("TOURNAMENT_EXAMPLES", "6"))
STEPS = int(os.environ.get("TOURNAMENT_STEPS", "40"))
PEOPLE = ("Ana", "Beto", "Carla", "Dani")  # members of the club
ORG, JUDGE, TROLL = "Org", "Jue", "Troll"
ANYONE = st.sampled_from((*PEOPLE, ORG, JUDGE, TROLL))
# who tries a ruling: mostly those who may, often enough those who may not
RULERS = st.sampled_from((ORG, JUDGE, JUDGE, ORG, TROLL, "Ana"))
TEAMS = ("Primos", "Primas", "Trolls", "Tardíos")
TABLE_DONE = re.compile(r"Table (\d+) \(round (\d+)\): ")
TALLY: Counter[str] = Counter()  # what the steps did, printed at the end


def refused(effects: list[Effect]) -> bool:
    """Answered to the one who asked alone: a refusal (a private answer that is no
    refusal, such as a list, never comes from the commands tried here alone)."""
    return bool(effects) and all(isinstance(e, Say) and e.private is not None for e in effects)


class TournamentMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.mkdtemp(prefix="tournament-")
        self.store: Store = self.run(Store.open(f"sqlite:///{self.folder}/bot.sqlite3"))
        self.clock = Clock()
        self.club = Club(self.new_service(), self.clock, self.store)
        self.told: Counter[tuple[int, int]] = Counter()  # (round, table): results said
        self.ruled: Counter[tuple[int, int]] = Counter()  # (round, table): rulings on it
        self.consented: set[tuple[str, str]] = set()  # (team, person) who chose it
        self.noted: set[int] = set()  # the TableTold effects noted (by id)

    # ----- plumbing ---------------------------------------------------------------------

    def run(self, work: Any) -> Any:
        return self.loop.run_until_complete(work)

    def new_service(self) -> GameService:
        return GameService(self.store, clock=self.clock, seeds=seeded(11))

    def teardown(self) -> None:
        try:
            self.run(self.store.close())
            self.run(self.loop.shutdown_default_executor())
        finally:
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    def event(self) -> Event:
        return self.run(self.club.event())

    def snapshot(self) -> tuple[Any, ...]:
        event = self.event()
        logs = self.run(self.store.tournaments.logs(event.id))
        games = [
            (g.id, g.version, g.status)
            for t in event.tables
            if t.game_id is not None
            for g in [self.run(self.store.games.load(t.game_id))]
        ]
        return (event.row.version, event.row.status, event.entries, event.tables, event.byes,
                event.penalties, len(logs), games)  # fmt: skip

    def say(self, name: str, text: str, place: Any = HALL) -> list[Effect]:
        before = len(self.hall_results())
        effects = self.run(self.club.say(name, text, place, admin=name == ORG))
        answers = [getattr(e, "text", type(e).__name__) for e in effects][:3]
        note(f"{name}@{place.room}: {text} -> {answers}")
        self.count_told(before)
        return effects

    def hall_results(self) -> list[tuple[int, int]]:
        return [(int(r), int(t)) for t, r in TABLE_DONE.findall(self.club.said())]

    def count_told(self, before: int) -> None:
        for key in self.hall_results()[before:]:
            self.told[key] += 1
        self.mark_told()

    def mark_told(self) -> None:
        """What a door's delivery does once a result's message is out: note it told."""
        for effects in self.club.rooms.values():
            for effect in effects:
                if isinstance(effect, TableTold) and id(effect) not in self.noted:
                    self.noted.add(id(effect))
                    self.run(Posts(self.store, clock=self.clock).table_told(effect))

    def tick(self, seconds: float) -> None:
        TALLY["ticks"] += 1
        before = len(self.hall_results())
        self.run(self.club.tick(seconds))
        self.count_told(before)

    def checked(self, name: str, text: str, place: Any = HALL) -> list[Effect]:
        """``text`` said; when refused, nothing stored changed."""
        before = self.snapshot()
        effects = self.say(name, text, place)
        what = text.split()[1] if text.startswith("/tournament ") and " " in text else text
        if refused(effects):
            TALLY[f"{what} refused"] += 1
            assert self.snapshot() == before, f"refused, yet changed: {name}: {text}"
        else:
            TALLY[f"{what} done"] += 1
        return effects

    def team_of(self, event: Event, team: str) -> Any:
        return event.entry_named(team)

    # ----- the world --------------------------------------------------------------------

    @initialize(substitutes=st.booleans(), computers=st.integers(1, 3), pairs=st.integers(0, 2))
    def open_event(self, substitutes: bool, computers: int, pairs: int) -> None:
        for name in (*PEOPLE, JUDGE, TROLL):  # people write in the group first
            self.say(name, "/help")
        flag = "on" if substitutes else "off"
        self.say(ORG, f"/tournament new Copa rounds=3 target=1 minutes=1 grace=1 "
                      f"substitutes={flag} checkin=off")  # fmt: skip
        self.say(ORG, f"/tournament judge @{JUDGE}")
        for n in range(max(computers, 2 - pairs)):  # two entries at least: it can start
            self.say(ORG, f"/tournament register Bots{n} computer computer")
        # pairs of people, each registered by one and accepted by the other: their tables
        # wait for their moves (they time out, walk out, are substituted)
        for team, (one, two) in [("Primos", PEOPLE[:2]), ("Primas", PEOPLE[2:])][:pairs]:
            self.register(one, team, two)
            self.accept(two, "")

    @rule(who=ANYONE, team=st.sampled_from(TEAMS), partner=st.sampled_from((*PEOPLE, TROLL)))
    def register(self, who: str, team: str, partner: str) -> None:
        effects = self.checked(who, f"/tournament register {team} @{partner}")
        if refused(effects):
            return
        # who registers is in it (the organiser too, naming one partner); the partner the
        # organiser names is put there by the organiser's authority, anyone else's is asked
        self.consented |= {(team, who)} | ({(team, partner)} if who == ORG else set())

    @rule(who=ANYONE, team=st.sampled_from(("", *TEAMS)))
    def accept(self, who: str, team: str) -> None:
        event = self.event()
        asked = [e.name for e in event.invitations_of(self.user(who))]
        effects = self.checked(who, f"/tournament accept {team}".strip())
        if not refused(effects):
            chosen = team or (asked[0] if len(asked) == 1 else "")
            self.consented |= {(chosen, who)}

    @rule(who=ANYONE, mine=st.booleans(), data=st.data())
    def withdraw(self, who: str, mine: bool, data: st.DataObject) -> None:
        team = "" if mine else self.some_team(data)
        event = self.event()
        entry = self.team_of(event, team) if team else event.entry_of_user(self.user(who))
        table = None if entry is None else self.table_of(event, entry.id)
        effects = self.checked(who, f"/tournament leave {team}".strip())
        if not refused(effects) and table is not None:
            self.ruled[table] += 1

    @rule(who=ANYONE, what=st.sampled_from(("close", "start", "pause", "resume", "extend 2",
                                             "next", "checkin", "set rounds=2")))  # fmt: skip
    def run_the_event(self, who: str, what: str) -> None:
        self.checked(who, f"/tournament {what}")

    @rule(during=st.sampled_from(("next", "pause", "extend 3", "resume")))
    def the_organiser_moves_on(self, during: str) -> None:
        """Registration closes, the event starts; during a round, the clock is paused,
        extended or resumed, and the next round opened: as a club goes."""
        status = self.event().row.status
        step = {"registration": "close", "checkin": "start", "running": during}.get(status)
        if step is not None:
            self.checked(ORG, f"/tournament {step}")

    @rule(who=ANYONE)
    def join_my_table(self, who: str) -> None:
        event = self.event()
        entry = event.entry_of_user(self.user(who))
        if entry is None or event.row.status != "running":
            return
        key = self.table_of(event, entry.id)
        if key is None or key not in self.club.tables:
            return
        self.checked(who, "/join", self.club.tables[key])

    @rule(seconds=st.sampled_from((5, 20, 60, 150)))
    def time_passes(self, seconds: int) -> None:
        for _ in range(4):
            self.tick(seconds / 4)

    def some_team(self, data: st.DataObject) -> str:
        """A team of the event, now and then one that is not."""
        names = [e.name for e in self.event().entries]
        return data.draw(st.sampled_from([*names, *names, "Nadie"]), label="team")

    @rule(who=RULERS, award=st.booleans(), points=st.sampled_from(("", "5", "20", "0", "x")),
          data=st.data())  # fmt: skip
    def penalty_or_award(self, who: str, award: bool, points: str, data: st.DataObject) -> None:
        team = self.some_team(data)
        event = self.event()
        entry = self.team_of(event, team)
        key = None if entry is None else self.table_of(event, entry.id)
        games_before = self.table_games(event)
        what = "award" if award else "penalty"
        typed = " ".join(w for w in ("/tournament", what, team, points, "noise") if w)
        effects = self.checked(who, typed)
        if refused(effects):
            return
        after = self.event()
        assert entry is not None
        tables = {(t.round, t.number) for t in after.tables if t not in event.tables}
        games = {k for k, v in self.table_games(after).items() if games_before.get(k) != v}
        if key is None:  # no table this round: that team's penalties alone
            assert not tables and not games, (tables, games)
            added = Counter(after.penalties) - Counter(event.penalties)
            assert [p.entry for p in added.elements()] == [entry.id], added
        else:
            self.ruled[key] += 1
            assert tables | games == {key}, (key, tables, games)
            assert after.penalties == event.penalties

    @rule(who=RULERS, what=st.sampled_from(("forfeit {table} {team}", "void {table}",
                                             "correct {table} 3-1", "substitute {table} 1",
                                             "expel {team} rude")),
          data=st.data())  # fmt: skip
    def judges_rule(self, who: str, what: str, data: st.DataObject) -> None:
        event = self.event()
        numbers = [t.number for t in event.round_tables()] or [1]
        table = data.draw(st.sampled_from(numbers), label="table")
        team = self.some_team(data)
        effects = self.checked(who, "/tournament " + what.format(table=table, team=team))
        if refused(effects) or event.row.status != "running":
            return
        if what.startswith(("forfeit", "void", "correct")):
            self.ruled[(event.round, table)] += 1
        elif what.startswith("expel") and (entry := self.team_of(event, team)) is not None:
            key = self.table_of(event, entry.id)
            if key is not None:
                self.ruled[key] += 1

    @precondition(lambda self: self.event().row.status == "running")
    @rule(now=st.integers(0, 3))
    def restart(self, now: int) -> None:
        """The process stops and starts again (now and then): a new service on the same
        database, which first shows what the last one left unshown."""
        if now:
            return
        TALLY["restarts"] += 1
        self.club.service = self.new_service()
        before = len(self.hall_results())
        for place, effects in self.run(self.club.service.resume("console")):
            self.run(self.club.deliver(place, effects))
        self.count_told(before)

    # ----- helpers ----------------------------------------------------------------------

    def user(self, name: str) -> int:
        found = self.run(self.store.people.find("console", name.lower()))
        return -1 if found is None else found.id

    def table_of(self, event: Event, entry: int) -> tuple[int, int] | None:
        for table in event.round_tables():
            if entry in table.sides[0] + table.sides[1]:
                return (table.round, table.number)
        return None

    def table_games(self, event: Event) -> dict[tuple[int, int], Any]:
        found = {}
        for table in event.tables:
            if table.game_id is not None:
                row = self.run(self.store.games.load(table.game_id))
                found[(table.round, table.number)] = (row.version, row.status)
        return found

    # ----- the promises -----------------------------------------------------------------

    @invariant()
    def the_standings_add_up_from_the_tables(self) -> None:
        event = self.event()
        for line in current(event):
            done = [t for t in event.tables if t.status == "done"]
            mine = [(t, side) for t in done for side in (0, 1) if line.entry in t.sides[side]]
            assert line.points_for == sum(t.score[s] for t, s in mine)
            assert line.points_against == sum(t.score[1 - s] for t, s in mine)
            byes = sum(1 for b in event.byes if b.entry == line.entry)
            assert line.won == sum(1 for t, s in mine if t.winner == s) + byes

    @invariant()
    def nobody_is_in_a_team_they_did_not_choose(self) -> None:
        event = self.event()
        for entry in event.entries:
            for member in entry.members:
                if member.user is None or member.pending:
                    continue
                assert (entry.name, member.name) in self.consented, (entry.name, member.name)

    @invariant()
    def every_result_is_told_once_unless_ruled_again(self) -> None:
        event = self.event()
        for table in event.tables:
            key = (table.round, table.number)
            if table.status == "done":
                assert self.told[key] >= 1, f"table {key} done, never told"
            assert self.told[key] <= 1 + self.ruled[key], (key, self.told[key], self.ruled[key])


def test_a_tournament_keeps_its_promises_to_everyone() -> None:
    TALLY.clear()
    try:
        run_state_machine_as_test(
            TournamentMachine,
            settings=settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None),
        )
    finally:
        print("\ntournament:", ", ".join(f"{k} {v}" for k, v in sorted(TALLY.items())))
