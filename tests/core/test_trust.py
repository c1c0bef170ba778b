"""Trust (issue 18), as a crowd and an attacker would test it: a hypothesis state machine
drives the game service (no platform) in three rooms of two communities with six people,
seated and not, admins of some rooms, and their private chats. Every command of the
registry (tests/core/trust_commands.py reads it) is typed by anyone, in any room, with
words drawn from its options, with current, stale and future move numbers and game ids;
every button any effect offered is pressed by its person and by anyone else, where it
was shown and elsewhere, then and later; private presses are forged for any game; a
community runs a tournament, whose round's tables get rooms of their own as a door
gives them; the clock runs and the timers fire; the process restarts.

After every command and every timer (the invariants, numbered as in the failures):
1. ``handle`` returned, and did not answer "something went wrong";
2. nothing any audience sees (text, caption, button label and data, file, picture, the
   views pictures are drawn from) names a tile hidden from it at that moment: the room
   sees no hand and no boneyard while a hand is in play, a seated person only their own
   (an opening draw's tiles, drawn face up and put back before the deal, are no one's);
3. a refused command (answered privately only) or one that must be refused by its
   registry entry (from a private chat, other than the person's own seat action; with no
   game, another game's id, a game not begun, a stale move number; by someone its entry
   does not allow) or by what the model knows beyond the entry (looking, asking first;
   a tournament's action by someone it is not for, or out of its time) changes nothing
   stored;
4. nothing changes a game, a timer or a tournament of a room other than the one acted in
   (nor shows it there), nor a rating of another community; but a tournament's command
   reaches its community's tournament rooms and its tables' rooms (a judge ends a
   table's game), and a table's game its tournament's room (its result, the round);
5. the tiles of each hand in play add up.

``TRUST_EXAMPLES`` and ``TRUST_STEPS`` run it longer; ``TRUST_SHRINK=0`` stops at the first
failure, unshrunk. The test prints the steps it ran.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import tempfile
from dataclasses import replace
from typing import Any
from unittest import mock

from hypothesis import Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bot.core.model import (
    Board,
    Command,
    Effect,
    Elsewhere,
    File,
    Hand,
    OpenTables,
    Person,
    Place,
    Say,
)
from bot.core.posts import Posts
from bot.core.registry import Needs, Where, Who
from bot.core.service import GameService
from engine.ai.hard import HardPlayer
from engine.moves import Action
from engine.rules import PRESETS, Rules
from engine.tiles import Tile
from storage.errors import NotFound
from storage.store import Store
from tests.core.driver import Clock
from tests.core.trust_commands import (
    COMMUNITY_WIDE,
    CONFIRMED_BY,
    ECHOED_TO_ROOM,
    LOOKING,
    NOT_AN_ACTION,
    PERSON_WIDE,
    Entry,
    Scene,
    Seating,
    draw_words,
    forged_commands,
    internal,
    looks,
    not_commands,
    open_tournament,
    public,
    tournament_actions,
    tournament_details,
    tournament_step,
    tournament_unchanged,
    tournament_words,
    tournaments,
    typed_commands,
)
from tests.core.trust_model import (
    ADMINS,
    COMMUNITY,
    NOTHING_CHANGED,
    PEOPLE,
    ROOMS,
    Dump,
    Seen,
    Tally,
    Truth,
    audience,
    describe,
    differences,
    draw_told,
    dump,
    effect_texts,
    file_leaks,
    first_deal,
    make_command,
    named_tiles,
    outside,
    owners,
    person,
    pressed,
    tiles_accounted,
    truth_of,
    typed_text,
    user_ids,
    view_shown,
    whole_record,
)

EXAMPLES = int(os.environ.get("TRUST_EXAMPLES", "80"))
STEPS = int(os.environ.get("TRUST_STEPS", "40"))
# TRUST_SHRINK=0 reports failures as found, unshrunk: a long run finds more of them sooner
PHASES = tuple(
    p for p in Phase if p is not Phase.shrink or os.environ.get("TRUST_SHRINK", "1") != "0"
)
PRESET_NAMES = sorted(PRESETS)
# Short games, so that hands and games end within a run.
TARGETS: dict[str, list[str | None]] = {
    "mexican_train": ["1", "2"],
    "all_fives": [None, "10"],
    "fido12": [None],
    "fido18": [None],
}
SHORT = ["10", "20", None]
# Words worth typing after some commands, beside those drawn from their registry entries
# (trust_commands.draw_words): the service's readings of them, and near misses.
ARGS: dict[str, list[tuple[str, ...]]] = {
    "join": [(), ("1",), ("2",), ("3",), ("4",), ("9",), ("x",), ("0",)],
    "add_ai": [(), ("easy",), ("normal",), ("hard",), ("genius",), ("6-4",)],
    "kick": [(), ("1",), ("2",), ("3",), ("4",), ("x",)],
    "begin": [("fill",), (), ("ai",)],
    "top": [(), ("draw",), ("week",), ("mexican_train", "month"), ("forever",)],
    "stats": [(), ("ana",), ("@beto",), ("Carla",), ("nobody",), ("user:dani",), ("6-4",)],
    "rules": [(), *[(p,) for p in PRESET_NAMES], ("chess",)],
    "settings": [
        (),
        ("language", "en"),
        ("language", "es"),
        ("language", "xx"),
        ("preset", "mexican_train"),
        ("preset", "fido18"),
        ("preset", "chess"),
        ("theme", "dark"),
        ("theme", "x"),
        ("turn_timeout", "30"),
        ("turn_timeout", "5"),
        ("numerals", "on"),
        ("numerals", "6-4"),
        ("colour", "red"),
        ("language",),
    ],
    "forget": [(), ("confirm",)],
    "timer": [("idle", ""), ("lobby", ""), ("turn", "1")],
}
SECONDS = [8, 30, 60, 95, 300, 901, 3600, 86401]
TALLY = Tally()


class TrustMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.mkdtemp(prefix="trust-")
        self.store: Store = self.run(Store.open(f"sqlite:///{self.folder}/bot.sqlite3"))
        self.clock = Clock()
        self.deals = random.Random(0)
        self.web_seen: dict[str, int] = {}  # the web pages' keys given out: their community
        # what the web invariant last checked, by game and by community: a page is read
        # again when what it is built from changed (each page of every game after every
        # step cost the suite 80 s)
        self.web_checked: dict[object, object] = {}
        self.service = self.new_service()
        # the hard computer player thinks for a while, and how far it gets depends on the
        # machine's speed: here it plays as the normal one, the same every run
        self.hard = mock.patch.object(
            HardPlayer, "choose", lambda player, view: player._normal.choose(view)
        )
        self.hard.start()
        self.places: dict[str, Place] = {}
        self.room_ids: dict[str, int] = {}
        self.room_keys: dict[int, str] = {}
        self.seen: list[Seen] = []
        self.hands: dict[tuple[int, str], Hand] = {}
        self.truths: dict[str, Truth | None] = {}
        self.state: Dump = {}
        self.acts_since_restart = 0  # a restart comes after some life, not one after another

    # ----- plumbing ---------------------------------------------------------------------

    def run(self, work: Any) -> Any:
        return self.loop.run_until_complete(work)

    def new_service(self) -> GameService:
        return GameService(
            self.store, clock=self.clock, seeds=lambda: self.deals.randrange(1 << 62)
        )

    def teardown(self) -> None:
        self.hard.stop()
        try:
            self.run(self.store.close())
            self.run(self.loop.shutdown_default_executor())
        finally:
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    def refresh(self) -> None:
        """Read the stored state and each room's game afresh."""
        self.state = self.run(dump(self.store))
        oracle = self.new_service()
        for key in self.places:
            row = self.run(self.store.games.active_in(self.room_ids[key]))
            self.truths[key] = None if row is None else self.run(truth_of(oracle, row))

    def truth_of_game(self, game_id: int) -> Truth | None:
        for truth in self.truths.values():
            if truth is not None and truth.id == game_id:
                return truth
        try:
            row = self.run(self.store.games.load(game_id))
        except NotFound:
            return None
        return self.run(truth_of(self.new_service(), row))

    def user_id(self, platform: str, pid: str) -> int | None:
        return user_ids(self.state).get((platform, pid))

    def platform_of_room(self, room_id: int) -> str:
        return self.places[self.room_keys[room_id]].platform

    def room_of_place(self, place: Place) -> str:
        for key, known in self.places.items():
            if (known.platform, known.community, known.room) == (
                place.platform,
                place.community,
                place.room,
            ):
                return key
        raise AssertionError(f"a place the test did not make: {place}")

    def max_game_id(self) -> int:
        return max((row["id"] for row in self.state.get("games", {}).values()), default=0)

    # ----- the world --------------------------------------------------------------------

    @initialize(
        platforms=st.sampled_from(
            [("telegram", "telegram"), ("telegram", "console"), ("console", "telegram")]
        )
    )
    def world(self, platforms: tuple[str, str]) -> None:
        for key in ROOMS:
            platform = platforms[0] if COMMUNITY[key] == "grupo-a" else platforms[1]
            self.add_place(key, Place(platform, COMMUNITY[key], key, COMMUNITY[key].upper(), "en"))
        # everybody known from the start (they asked for help once): a command's first
        # sight of a person creates their user, which is not what a refused command is
        # checked for
        for key in ("a1", "b1"):
            for name in PEOPLE:
                self.run(
                    self.service.handle(make_command(self.places[key], person(name, key), "help"))
                )
        self.refresh()

    def add_place(self, key: str, place: Place) -> None:
        self.places[key] = place
        room_id = self.run(Posts(self.store, clock=self.clock).room_id(place))
        self.room_ids[key] = room_id
        self.room_keys[room_id] = key

    def deliver(self, effects: list[Effect]) -> bool:
        """What a door does beyond showing (which the invariants check): each table of a
        round gets a room of its own beside the tournament's, noted for the service
        (Posts.table_opened: its timer makes the table's game there); effects for another
        room are delivered there. Whether a room was opened."""
        opened = False
        for effect in effects:
            if isinstance(effect, Elsewhere):
                opened |= self.deliver(list(effect.effects))
            elif isinstance(effect, OpenTables):
                row = self.state["tournaments"][(effect.tournament_id,)]
                home = self.room_keys[row["room_id"]]
                for table in effect.tables:
                    key = f"{home}-r{effect.round}t{table.number}"
                    place = replace(self.places[home], room=key)
                    if key not in self.places:
                        self.add_place(key, place)
                    posts = Posts(self.store, clock=self.clock)
                    self.run(
                        posts.table_opened(place, effect.tournament_id, effect.round, table.number)
                    )
                    TALLY.ran("a table's room opened")
                opened = True
        return opened

    # ----- acting, and the invariants after each act ------------------------------------

    def act(self, command: Command, private: bool = False) -> list[Effect]:
        """``command`` handled and checked; ``private``: it came from a private chat (the
        code before issue 18 had no way to say so: its adapters sent it as a room command
        in the room of the game the press named)."""
        note(describe(command, private))
        TALLY.steps += 1
        TALLY.commands += 1
        self.acts_since_restart += 1
        room = self.room_of_place(command.place)
        before, truths_before = self.state, dict(self.truths)
        keep = self.must_not_change(command, private)
        try:
            effects = self.run(self.service.handle(command))
        except Exception as error:
            raise AssertionError(
                f"invariant 1: handle raised {type(error).__name__}: {error} on "
                f"{describe(command, private)}"
            ) from error
        self.refresh()
        self.check_effects(effects, room, command, private)
        self.check_storage(command, room, before, keep, effects, private)
        self.learn(effects, room, truths_before)
        if self.deliver(effects):  # the tables' games are made at once
            self.refresh()
            self.fire_due()
        return effects

    def fire_due(self) -> None:
        """Fire the timers due now, one at a time, as bot/doors/timer_loop.py does (the
        state read before each)."""
        for _ in range(20):
            if not self.run(self.store.timers.due(self.clock())):
                return
            firing = self.service.fire_due()
            while True:
                before, truths_before = self.state, dict(self.truths)
                try:
                    fired = self.run(anext(firing, None))
                except Exception as error:
                    raise AssertionError(
                        f"invariant 1: a timer raised {type(error).__name__}: {error}"
                    ) from error
                if fired is None:  # (then the service tidied up: a day's fired timers go)
                    self.refresh()
                    break
                place, effects = fired
                room = self.room_of_place(place)
                note(f"a timer fires in {room}")
                TALLY.steps += 1
                TALLY.timers += 1
                self.refresh()
                self.check_effects(effects, room, None)
                self.check_other_rooms(room, before, "a timer")
                self.learn(effects, room, truths_before)
                if self.deliver(effects):  # (their timers fire in the next turn of the loop)
                    self.refresh()

    def check_effects(
        self, effects: list[Effect], room: str, command: Command | None, private: bool = False
    ) -> None:
        actor = command.person if command is not None else None
        typed: set[Tile] = set()
        if command is not None:
            typed = named_tiles(typed_text(command))
        what = describe(command, private) if command is not None else "a timer"
        for effect in effects:
            self.check_effect(effect, room, actor, typed, what, command)

    def check_effect(
        self,
        effect: Effect,
        room: str,
        actor: Person | None,
        typed: set[Tile],
        what: str,
        command: Command | None,
    ) -> None:
        if isinstance(effect, Say) and effect.text in NOTHING_CHANGED:
            raise AssertionError(f"invariant 1: 'something went wrong' answered {what}")
        if isinstance(effect, Elsewhere):
            there = self.elsewhere(effect, room, what)
            for inner in effect.effects:
                self.check_effect(inner, there, actor, typed, what, command)
            return
        who = audience(effect)
        truth = self.truths[room]  # what the room and its people see is of its game
        if isinstance(effect, Board):
            truth = self.check_board(effect, room, what)
        elif isinstance(effect, Hand):
            truth = self.check_hand(effect, what)
        if isinstance(effect, File):
            self.check_file(effect, what)
            self.file_of_this_room(effect, room, what)
        if truth is None:
            return
        seat = None if who is None else self.seat_in(truth, who.platform_id)
        # what the person typed, echoed back to them (or, for a setting's value, to the
        # room where they typed it), shows nothing they did not show themselves
        echoed: set[Tile] = set()
        if actor is not None and (
            (who is not None and who.platform_id == actor.platform_id)
            or (who is None and command is not None and command.action in ECHOED_TO_ROOM)
        ):
            echoed = typed
        kind = type(effect).__name__
        for text in effect_texts(effect):
            named = named_tiles(text) - echoed - draw_told(text, truth)
            self.no_hidden(named, truth, seat, f"{kind} text {text!r}", what)

    def elsewhere(self, effect: Elsewhere, room: str, what: str) -> str:
        """Effects for another room go to a room of the same community: the tournament's
        room, told of its tables (never a room of another community)."""
        there = self.room_of_place(effect.place)
        assert self.places[there].community == self.places[room].community, (
            f"invariant 4: room {room} sent effects to room {there} of another community"
            f" after {what}"
        )
        return there

    def seat_in(self, truth: Truth, pid: str) -> int | None:
        platform = self.platform_of_room(truth.row.room_id)
        return truth.seat_of(self.user_id(platform, pid), pid)

    def check_board(self, board: Board, room: str, what: str) -> Truth:
        """A board is the room's view of its own game."""
        truth = self.truth_of_game(board.game_id)
        assert truth is not None, f"a board of no game ({board.game_id}) after {what}"
        assert truth.row.room_id == self.room_ids[room], (
            f"invariant 4: room {room} shown the board of game {truth.id} of another room"
            f" after {what}"
        )
        view = board.view
        if truth.in_play and truth.active:
            assert view.seat is None and view.hand == () and view.legal_moves == (), (
                f"invariant 2: the board's view is seat {view.seat}'s after {what}"
            )
            assert view.revealed is None, f"invariant 2: the board reveals hands after {what}"
        self.no_hidden(view_shown(view, truth), truth, None, "the board's view", what)
        return truth

    def check_hand(self, hand: Hand, what: str) -> Truth:
        """A hand goes only to the person who sits at its seat, and shows only theirs."""
        truth = self.truth_of_game(hand.game_id)
        assert truth is not None, f"a hand of no game ({hand.game_id}) after {what}"
        seat = self.seat_in(truth, hand.person.platform_id)
        if truth.in_play and truth.active:
            assert seat is not None and hand.view.seat == seat, (
                f"invariant 2: {hand.person.platform_id} (seat {seat}) was sent the hand"
                f" of seat {hand.view.seat} of game {truth.id} after {what}"
            )
        self.no_hidden(view_shown(hand.view, truth), truth, seat, "a hand's view", what)
        return truth

    def check_file(self, file: File, what: str) -> None:
        """No record shows the hand in play of any game, whichever room it is in."""
        for game in self.truths.values():
            if game is None:
                continue
            seat = None if file.private is None else self.seat_in(game, file.private.platform_id)
            leaks = file_leaks(file.data, game, seat)
            to = file.private.platform_id if file.private is not None else "the room"
            assert not leaks, f"invariant 2: {leaks[0]} of game {game.id} (to {to}) after {what}"

    def file_of_this_room(self, file: File, room: str, what: str) -> None:
        """A room gets records of its own games only (one of another room's games names
        the same first deal)."""
        first = first_deal(file.data)
        if first is None:
            return
        for row in self.state["games"].values():
            if row["room_id"] == self.room_ids[room] or row["status"] == "lobby":
                continue
            if first == first_deal(self.run(whole_record(self.store, row["id"]))):
                raise AssertionError(
                    f"invariant 4: room {room} was given the record of game {row['id']} of"
                    f" another room after {what}"
                )

    def no_hidden(
        self, tiles: set[Tile], truth: Truth | None, seat: int | None, where: str, what: str
    ) -> None:
        if truth is None:
            return
        shown = tiles & truth.hidden_from(seat)
        audience_name = "the room" if seat is None else f"seat {seat + 1}"
        assert not shown, (
            f"invariant 2: {where} names {sorted(map(str, shown))}, hidden from {audience_name}"
            f" in game {truth.id}, after {what}"
        )

    def must_not_change(self, command: Command, private: bool) -> str | None:
        """Why ``command`` must leave everything stored as it was (None: it may change):
        by its registry entry (where it may come from, what it needs on the table, whether
        it is a move, who may use it), and by what the model knows beyond the entry (the
        commands that only look, or ask first, and the tournament's actions)."""
        action, args = command.action, command.args
        spec = public().get(action)
        if spec is None:
            return "a command of the service's own" if action in internal() else "no command"
        room = self.room_of_place(command.place)
        active = self.truths[room]
        pid = command.person.platform_id
        uid = self.user_id(command.place.platform, pid)
        if private and (spec.where is not Where.SEAT or command.game_id is None):
            return "a private command that is not a seat's own action"
        if spec.needs is not Needs.NOTHING:
            if active is None:
                return "a command for the room's game, with none there"
            if command.game_id is not None and command.game_id != active.id:
                return f"a command naming game {command.game_id}, not this room's game"
            if spec.needs is Needs.PLAYING and active.row.status == "lobby":
                return "a command for a game in play, in the lobby"
            number = command.move_number
            if spec.move and number is not None and active.ply is not None and number != active.ply:
                return f"a command made at move {number}, not the game's"
        if spec.who is Who.ADMIN and not args:
            return "a look at what admins change"
        if spec.who is Who.ADMIN and not command.person.admin:
            return "a change for admins, by someone who is not"
        if spec.who is Who.CREATOR and active is not None and not command.person.admin:
            creator = (active.row.snapshot.get("meta") or {}).get("creator")
            if uid is None or uid != creator:
                return "a command for the game's creator or an admin, by someone else"
        if spec.who is Who.SEATED and active is not None and active.seat_of(uid, pid) is None:
            return "a command for a seat, by someone not seated"
        if action in LOOKING:
            return "a command that only looks"
        confirm = CONFIRMED_BY.get(action)
        if confirm is not None and args != (confirm,):
            return f"/{action} without '{confirm}'"
        if action == "tournament":
            community = self.community_id(room)
            tournament = open_tournament(self.state, community)
            return tournament_unchanged(args, command.person.admin, uid, tournament)
        return None

    def check_storage(
        self,
        command: Command,
        room: str,
        before: Dump,
        keep: str | None,
        effects: list[Effect],
        private: bool,
    ) -> None:
        after = self.state
        actor = command.person
        refused = bool(effects) and all(
            isinstance(e, Say)
            and e.private is not None
            and e.private.platform_id == actor.platform_id
            and not e.buttons
            for e in effects
        )
        forgetting = command.action in PERSON_WIDE and not keep
        if (refused and not forgetting) or keep:
            changed = differences(before, after, (command.place.platform, actor.platform_id))
            why = keep or "refused (answered privately only)"
            assert not changed, (
                f"invariant 3: {describe(command, private)} is {why}, yet it changed "
                f"{changed[:3]}; answered {[getattr(e, 'text', '') for e in effects][:2]}"
            )
        if before != after:
            tournament = command.action == "tournament" and command.args
            TALLY.changed(f"tournament {command.args[0]}" if tournament else command.action)
        if not forgetting:  # "forget me" erases the person from every game they sat in
            self.check_other_rooms(room, before, describe(command, private), command.action)

    def community_id(self, room: str) -> int:
        return int(self.state["rooms"][(self.room_ids[room],)]["community_id"])

    def reach(self, room: str, action: str | None, *states: Dump) -> set[int]:
        """The rooms a command (``action``; None: a timer) in ``room`` may change: its
        own; for a command of the whole community (a tournament's), also the rooms of its
        community's tournaments and of their tables (a judge's act ends a table's game);
        for anything in a tournament table's room, also its tournament's room (a table's
        result, the round it closes)."""
        here = self.room_ids[room]
        community = self.community_id(room)
        rooms = {here}
        ours = {t for state in states for t in tournaments(state) if t.community == community}
        for tournament in ours:
            tables = {
                row["room_id"]
                for state in states
                for row in state.get("tournament_tables", {}).values()
                if row["tournament_id"] == tournament.id and row["room_id"] is not None
            }
            if action in COMMUNITY_WIDE:
                rooms |= {tournament.room, *tables}
            elif here in tables:
                rooms.add(tournament.room)
        return rooms

    def check_other_rooms(
        self, room: str, before: Dump, what: str, action: str | None = None
    ) -> None:
        """Nothing outside the rooms ``action`` in ``room`` may reach changed: no game,
        timer or tournament of another room, no rating of another community."""
        where = owners(before, self.state)
        rooms = self.reach(room, action, before, self.state)
        community = self.community_id(room)
        old = outside(before, rooms, community, where)
        new = outside(self.state, rooms, community, where)
        if old != new:
            changed = differences(old, new)
            raise AssertionError(
                f"invariant 4: {what} in room {room} changed other rooms: {changed[:3]}"
            )

    def learn(self, effects: list[Effect], room: str, truths_before: dict[str, Any]) -> None:
        """Keep the buttons shown and the hands sent, for later presses."""
        for effect in effects:
            if isinstance(effect, Elsewhere):
                self.learn(list(effect.effects), self.room_of_place(effect.place), {})
                continue
            if isinstance(effect, Hand):
                self.hands[(effect.game_id, effect.person.platform_id)] = effect
            buttons = getattr(effect, "buttons", ())
            kind = (
                "hand"
                if isinstance(effect, Hand)
                else "board"
                if isinstance(effect, Board)
                else "say"
            )
            for button in buttons:
                self.seen.append(Seen(button, room, audience(effect), kind))
        del self.seen[:-120]
        for key, truth in self.truths.items():
            old = truths_before.get(key)
            if truth is not None and truth.row.status == "playing":
                TALLY.begun.add(truth.row.preset)
            if old is not None and truth is not None and old.id == truth.id:
                TALLY.moves += max(0, (truth.ply or 0) - (old.ply or 0))
            if old is not None and (truth is None or truth.id != old.id):
                status = self.run(self.store.games.load(old.id)).status
                TALLY.finished += status == "finished"

    @invariant()
    def web_pages_show_the_room_only(self) -> None:
        """Issue 34: the web page of each game names no tile hidden from the room (its
        replays are of hands over); a community's page lists its own games only; every
        key of a community whose pages are off shows nothing."""
        service, web = self.service, self.store.web
        communities: dict[int, bool] = {}
        for key, truth in self.truths.items():
            community = self.community_id(key)
            if community not in communities:
                communities[community] = self.run(web.is_open(community))
            if truth is None or truth.row.status == "lobby":
                continue
            seen = (truth.row.version, truth.row.status, communities[community])
            if self.web_checked.get(("game", truth.id)) == seen:
                continue  # its page is built from the same row as when last read
            self.web_checked[("game", truth.id)] = seen
            found = self.run(service.pages.key("game", truth.id))
            if found is None:
                assert not communities[community], f"no page for game {truth.id}"
                continue
            self.web_seen[found] = community
            page = self.run(service.pages.game(found))
            assert page is not None, f"game {truth.id}'s key shows nothing"
            now = {k: v for k, v in page.items() if k != "hands"}
            drawn = now["table"]["opening_draw"]
            if drawn and tuple(Tile.parse(t) for t in drawn) == truth.drawn:
                now["table"] = {**now["table"], "opening_draw": []}  # the game's own: public
            text = json.dumps(now)
            named = named_tiles(text) - draw_told(now["text"], truth)
            self.no_hidden(named, truth, None, "the game's web page", "the last step")
            in_play = page["table"]["revealed"] is None
            for past in page["hands"]:
                assert not in_play or past["hand"] < page["table"]["hand"], (
                    "a hand in play replayed"
                )
        games = sorted((k, v) for k, v in self.web_checked.items() if k[0] == "game")
        for community, open_ in communities.items():
            if self.web_checked.get(("community", community)) == (open_, games):
                continue  # no game changed, nor whether its pages are open
            self.web_checked[("community", community)] = (open_, games)
            found = self.run(web.key_for("community", community, community, self.clock()))
            self.web_seen[found] = community
            page = self.run(service.pages.community(found))
            if not open_:
                continue
            assert page is not None
            for game in page["games"]:
                named = self.run(web.find("game", game["key"]))
                assert named is not None and named.community_id == community, (
                    f"community {community}'s page lists a game of another community"
                )
        for found, community in self.web_seen.items():
            if not self.run(web.is_open(community)):
                assert self.run(service.pages.game(found)) is None
                assert self.run(service.pages.community(found)) is None
        # the keys made here are made as a door's link would make them: not a command's
        self.state["web_keys"] = self.run(dump(self.store))["web_keys"]

    @invariant()
    def tiles_add_up(self) -> None:
        for key, truth in self.truths.items():
            if truth is not None:
                problem = tiles_accounted(truth)
                assert problem is None, f"invariant 5: room {key}, game {truth.id}: {problem}"

    # ----- what people do ---------------------------------------------------------------

    def idle_rooms(self) -> list[str]:
        return [key for key in ROOMS if self.truths.get(key) is None]

    def rooms_to_move(self) -> list[str]:
        return [
            key
            for key in self.places
            if (t := self.truths.get(key)) is not None and t.human_to_move() is not None
        ]

    @precondition(lambda self: bool(self.idle_rooms()))
    @rule(data=st.data())
    def open_and_begin(self, data: st.DataObject) -> None:
        """Someone opens a game of any preset, others join, and it begins."""
        TALLY.ran("open_and_begin")
        room = data.draw(st.sampled_from(self.idle_rooms()), label="room")
        creator = data.draw(st.sampled_from(PEOPLE), label="creator")
        preset = data.draw(st.sampled_from(PRESET_NAMES), label="preset")
        target = data.draw(st.sampled_from(TARGETS.get(preset, SHORT)), label="target")
        place = self.places[room]
        self.act(
            make_command(place, person(creator, room), "new", (preset, *filter(None, [target])))
        )
        others = data.draw(
            st.lists(st.sampled_from(PEOPLE), max_size=3, unique=True), label="joining"
        )
        for other in others:
            self.act(make_command(place, person(other, room), "join"))
        if data.draw(st.booleans(), label="a computer"):
            strength = data.draw(st.sampled_from(["normal", "easy", "hard"]), label="strength")
            self.act(make_command(place, person(creator, room), "add_ai", (strength,)))
        if data.draw(st.booleans(), label="begins now"):
            self.act(make_command(place, person(creator, room), "begin", ("fill",)))

    @precondition(lambda self: bool(self.rooms_to_move()))
    @rule(data=st.data())
    def play_turns(self, data: st.DataObject) -> None:
        """The people to move make legal moves: a button of their hand, or typed."""
        TALLY.ran("play_turns")
        for _ in range(data.draw(st.integers(1, 20), label="turns")):
            rooms = self.rooms_to_move()
            if not rooms:
                return
            room = data.draw(st.sampled_from(rooms), label="room")
            truth = self.truths[room]
            assert truth is not None
            uid = truth.human_to_move()
            pid = next((p for (plat, p), i in user_ids(self.state).items() if i == uid), None)
            if pid is None or pid not in PEOPLE:
                return  # a forgotten person: the timers play for them
            who = person(pid, room)
            hand = self.hands.get((truth.id, pid))
            how = data.draw(
                st.sampled_from(["private button", "private button", "typed", "room button"]),
                label="how",
            )
            private = how == "private button"
            if (
                hand is not None
                and hand.move_number == truth.ply
                and hand.buttons
                and how != "typed"
            ):
                button = data.draw(st.sampled_from(hand.buttons), label="button")
                action, words, whole = pressed(button)
                number, game_id = button.move_number, button.game_id
            else:  # typed in the room (or the hand was not seen: after a restart, say)
                move = data.draw(st.sampled_from(truth.legal), label="move")
                action, *typed = move.action.value, *move.action_text().split()[1:]
                if move.action is Action.PLAY:
                    action, typed = "play", move.action_text().split()
                words, whole = tuple(typed), None
                number, game_id, private = None, None, False
            command = make_command(
                self.places[room], who, action, words, number, game_id, private, whole
            )
            self.act(command, private)

    @rule(data=st.data())
    def type_command(self, data: st.DataObject) -> None:
        """Anyone types any command in any room, sometimes with a move number or game id."""
        TALLY.ran("type_command")
        busy = [key for key in self.places if self.truths.get(key) is not None]
        playing = [key for key in busy if (t := self.truths[key]) is not None and t.in_play]
        room = data.draw(st.sampled_from(playing * 3 + busy + list(ROOMS)), label="room")
        if room in playing:
            TALLY.ran("type_command during a hand")
        name = data.draw(st.sampled_from(PEOPLE), label="who")
        action = data.draw(st.sampled_from(typed_commands()), label="action")
        truth = self.truths[room]
        if action == "unknown":
            action = data.draw(st.sampled_from(not_commands()), label="unknown")
        args = self.draw_args(data, action, truth, room)
        move_number = self.draw_move_number(data, truth)
        game_id = self.draw_game_id(data, room)
        self.act(
            make_command(self.places[room], person(name, room), action, args, move_number, game_id)
        )

    @precondition(lambda self: any(t is not None for t in self.truths.values()))
    @rule(data=st.data())
    def look(self, data: st.DataObject) -> None:
        """Anyone looks at a game: its board, score or record, their hand, the rules."""
        TALLY.ran("look")
        busy = [key for key in self.places if self.truths.get(key) is not None]
        playing = [key for key in busy if (t := self.truths[key]) is not None and t.in_play]
        room = data.draw(st.sampled_from(playing * 2 + busy), label="room")
        name = data.draw(st.sampled_from(PEOPLE), label="who")
        action = data.draw(st.sampled_from(looks()), label="action")
        args: tuple[str, ...] = ()
        if action == "export":  # this game, the latest, one played (or on) elsewhere
            here = self.room_ids[room]
            games = sorted(
                row["id"]
                for row in self.state["games"].values()
                if row["room_id"] == here or row["status"] != "lobby"
            )
            number = data.draw(st.sampled_from(games), label="game number")
            args = data.draw(st.sampled_from([(), (str(number),), (f"#{number}",)]), label="args")
        self.act(make_command(self.places[room], person(name, room), action, args))

    def draw_args(
        self, data: st.DataObject, action: str, truth: Truth | None, room: str
    ) -> tuple[str, ...]:
        """The words after ``action``: drawn from its registry entry (its options), or,
        for some commands, words chosen here (short games, legal tiles, game numbers, a
        tournament's teams and tables, the near misses of ``ARGS``)."""
        spec = public().get(action)
        if action == "new" and data.draw(st.booleans(), label="a short game"):
            preset = data.draw(st.sampled_from([None, *PRESET_NAMES, "chess"]), label="preset")
            target = data.draw(
                st.sampled_from([None, "10", "2", "x", "99999999999"]), label="target"
            )
            return tuple(a for a in (preset, target) if a is not None)
        if action == "play" and data.draw(st.integers(0, 3), label="a tile of the game") > 0:
            return self.draw_tile_args(data, truth)
        if action == "export":  # the latest game, or one by number: this room's or not
            number = data.draw(st.integers(0, self.max_game_id() + 1), label="game number")
            return data.draw(st.sampled_from([(), (str(number),), ("x",)]), label="args")
        if action == "tournament":
            return tournament_words(data, self.scene(room))
        if action in ARGS and (spec is None or data.draw(st.booleans(), label="near miss")):
            return data.draw(st.sampled_from(ARGS[action]), label="args")
        if spec is None:
            return data.draw(st.sampled_from([(), ("x",)]), label="args")
        return draw_words(data, spec, self.scene(room))

    def scene(self, room: str) -> Scene:
        """What words typed in ``room`` may name: its game's rules, the people, and the
        teams and tables of the community's latest tournament."""
        truth = self.truths[room]
        rules = None
        if truth is not None:
            rules = Rules.from_record(truth.row.snapshot["record"]["rules"])
        community = self.community_id(room)
        latest = [e for e in tournaments(self.state) if e.community == community][-1:]
        entries: list[Entry] = []
        seatings: list[Seating] = []
        people = {uid: pid for (_, pid), uid in user_ids(self.state).items()}
        for tournament in latest:
            found = sorted(
                (row["id"], row)
                for row in self.state.get("tournament_entries", {}).values()
                if row["tournament_id"] == tournament.id
            )
            names = {key: row["name"] for key, row in found}
            for _, row in found:
                members = [people.get(m.get("user")) for m in row["members"]]
                entries.append(Entry(row["name"], tuple(filter(None, members)), row["status"]))
            rounds = [
                row
                for row in self.state.get("tournament_tables", {}).values()
                if row["tournament_id"] == tournament.id
            ]
            last = max((row["round"] for row in rounds), default=0)
            for row in sorted(rounds, key=lambda r: r["number"]):
                if row["round"] == last:
                    teams = tuple(names.get(e, "?") for side in row["sides"] for e in side)
                    seatings.append(Seating(row["number"], teams, row["status"]))
        return Scene(rules, PEOPLE, tuple(entries), tuple(seatings))

    def draw_tile_args(self, data: st.DataObject, truth: Truth | None) -> tuple[str, ...]:
        kinds = ["garbage", "any tile"]
        if truth is not None and truth.in_play:
            kinds += ["legal", "legal", "someone's tile", "on a hidden tile"]
        kind = data.draw(st.sampled_from(kinds), label="tile kind")
        if kind == "garbage":
            return data.draw(
                st.sampled_from(
                    [(), ("banana",), ("6-4", "on"), ("6-4", "on", "6-6", "half"), ("99-99",),
                     ("6-",), ("6-4", "sobre", "mexicano"), ("5-5", "on", "train:9")]
                ),
                label="garbage",
            )  # fmt: skip
        if kind == "any tile":
            a, b = (
                data.draw(st.integers(0, 18), label="a"),
                data.draw(st.integers(0, 18), label="b"),
            )
            return (f"{a}-{b}",)
        assert truth is not None
        if kind == "legal" and truth.legal:
            move = data.draw(st.sampled_from(truth.legal), label="legal")
            return (
                tuple(move.action_text().split())
                if move.tile is not None
                else (str(move.action.value),)
            )
        tiles = sorted(truth.hidden)
        if not tiles:
            return ("6-6",)
        tile = data.draw(st.sampled_from(tiles), label="tile")
        if kind == "on a hidden tile":
            return ("6-6", "on", str(tile))
        return (str(tile),)

    def draw_move_number(self, data: st.DataObject, truth: Truth | None) -> int | None:
        ply = truth.ply if truth is not None and truth.ply is not None else 0
        return data.draw(
            st.sampled_from([None, None, None, ply, ply - 1, ply + 1, 0]), label="move number"
        )

    def draw_game_id(self, data: st.DataObject, room: str) -> int | None:
        here = self.truths[room]
        others = [t.id for k, t in self.truths.items() if t is not None and k != room]
        top = self.max_game_id()
        choices: list[int | None] = [None, None, None, top + 1, 0]
        if here is not None:
            choices += [here.id, here.id]
        choices += others
        if top > 1:
            choices.append(top - 1)
        return data.draw(st.sampled_from(choices), label="game id")

    @precondition(lambda self: bool(self.seen))
    @rule(data=st.data())
    def press(self, data: st.DataObject) -> None:
        """A button shown to someone is pressed: by them or anyone, where it was shown or
        in another room or in a private chat, now or much later."""
        TALLY.ran("press")
        seen = data.draw(st.sampled_from(self.seen[::-1]), label="button")
        button = seen.button
        intended = seen.to.platform_id if seen.to is not None else None
        name = data.draw(
            st.sampled_from([intended] * 3 + list(PEOPLE) if intended else list(PEOPLE)),
            label="presser",
        )
        where = data.draw(
            st.sampled_from(["as shown", "as shown", "in the room", "another room", "privately"]),
            label="where",
        )
        room, private = seen.room, False
        if where == "another room":
            others = [r for r in self.places if r != seen.room]
            room = data.draw(st.sampled_from(others), label="room")
        elif where == "privately" or (where == "as shown" and seen.to is not None):
            private = True
        place = self.places[room]
        if private and button.game_id is not None:
            # the door of the platform the person is on (where they saw the button) asks
            door = self.places[seen.room].platform
            found = self.run(self.service.place_of_game(button.game_id, door))
            if found is None:
                return  # the adapter answers "that game is over or gone" itself
            place = self.places[self.room_of_place(found)]
            room = self.room_of_place(found)
        action, words, whole = pressed(button)
        if whole is not None and data.draw(st.booleans(), label="as typed"):
            action, *typed = button.command.split()  # (a door that sends the words)
            words, whole = tuple(typed), None
        self.act(
            make_command(
                place,
                person(name, room),
                action,
                words,
                button.move_number,
                button.game_id,
                private,
                whole,
            ),
            private,
        )

    @rule(data=st.data())
    def run_tournament(self, data: st.DataObject) -> None:
        """Someone acts in the community's tournament, most often as it asks now: an admin
        opens one, people register in pairs and check in, the organiser closes the
        registration and starts the round, judges act on its tables."""
        TALLY.ran("run_tournament")
        room = data.draw(st.sampled_from(list(self.places)), label="room")
        tournament = open_tournament(self.state, self.community_id(room))
        waiting = self.kept_seats()
        if tournament is not None and waiting and data.draw(st.booleans(), label="to a table"):
            key, pid = data.draw(st.sampled_from(waiting), label="arrives")
            self.act(make_command(self.places[key], person(pid, key), "join"))
            return
        runs = [p for p in PEOPLE if (p, room) in ADMINS]
        if tournament is not None:
            users = {uid: pid for (_, pid), uid in user_ids(self.state).items()}
            runs += [users[u] for u in (tournament.organiser, *tournament.judges) if u in users]
        scene = self.scene(room)
        if data.draw(st.integers(0, 4), label="any action") > 0:
            status = tournament.status if tournament is not None else None
            name, words = tournament_step(data, status, scene, runs)
        else:
            what = data.draw(st.sampled_from([*tournament_actions(), NOT_AN_ACTION]), label="what")
            name = data.draw(st.sampled_from(runs * 3 + list(PEOPLE)), label="who")
            words = (what, *tournament_details(data, what, scene))
        self.act(make_command(self.places[room], person(name, room), "tournament", words))

    def kept_seats(self) -> list[tuple[str, str]]:
        """The tables' rooms whose game waits for its players, and who it waits for."""
        return [
            (key, seat["pid"])
            for key, truth in self.truths.items()
            if truth is not None and truth.row.status == "lobby"
            if (truth.row.snapshot.get("meta") or {}).get("tournament")
            for seat in truth.row.seats
            if seat.get("pid") in PEOPLE and not seat.get("bot")
        ]

    @precondition(lambda self: self.max_game_id() > 0)
    @rule(data=st.data())
    def forge_private(self, data: st.DataObject) -> None:
        """A press made up in a private chat: any game id, any command, any move number."""
        TALLY.ran("forge_private")
        active = [t.id for t in self.truths.values() if t is not None]
        game_id = data.draw(
            st.sampled_from(active * 2) | st.integers(1, self.max_game_id())
            if active
            else st.integers(1, self.max_game_id()),
            label="game id",
        )
        platforms = sorted({p.platform for p in self.places.values()})
        door = data.draw(st.sampled_from(platforms), label="the door pressed at")
        found = self.run(self.service.place_of_game(game_id, door))
        if found is None:  # another platform's game: the door answers "over or gone"
            return
        room = self.room_of_place(found)
        name = data.draw(st.sampled_from(PEOPLE), label="who")
        action = data.draw(st.sampled_from(forged_commands()), label="action")
        truth = self.truths[room]
        args = self.draw_args(data, action, truth, room)
        whole = None
        if data.draw(st.integers(0, 2), label="a move given whole") == 0:
            action, args, whole = "play", (), self.draw_whole_move(data, truth, name, room)
        move_number = self.draw_move_number(data, truth)
        self.act(
            make_command(
                self.places[room], person(name, room), action, args, move_number, game_id,
                private=True, move=whole,
            ),
            private=True,
        )  # fmt: skip

    def draw_whole_move(
        self, data: st.DataObject, truth: Truth | None, name: str, room: str
    ) -> str:
        """A move as a button carries it (RECORD.md notation), made up: one legal now
        (the seat to move's), it or another for the forger's seat or another, a hidden
        tile, or no move at all."""
        moves = [str(m) for m in truth.legal] if truth is not None else []
        seat = None if truth is None else self.seat_in(truth, name)
        seats = sorted({0, 1, *([seat] if seat is not None else [])})
        tiles = sorted(truth.hidden) if truth is not None else []
        made_up = [
            f"{s}: {text}"
            for s in seats
            for text in ("pass", "draw", "end", "6-4", "6-4 on 6-6", "0-0 on train:1", "banana")
        ]
        if moves:
            legal = data.draw(st.sampled_from(moves), label="a legal move")
            made_up += [legal, legal, f"{seats[-1]}: {legal.partition(':')[2].strip()}"]
        if tiles:
            tile = data.draw(st.sampled_from(tiles), label="a hidden tile")
            made_up += [f"{s}: {tile}" for s in seats] + [f"{seats[-1]}: 6-6 on {tile}"]
        made_up += ["", "1:", "x: pass", "1: 99-99", "1: 6-4 on", "999: pass"]
        return data.draw(st.sampled_from(made_up), label="move given whole")

    @rule(seconds=st.sampled_from(SECONDS))
    def time_passes(self, seconds: int) -> None:
        TALLY.ran("time_passes")
        note(f"{seconds} s pass")
        self.clock.advance(seconds)
        self.fire_due()

    @precondition(lambda self: self.acts_since_restart >= 5)
    @rule()
    def restart(self) -> None:
        """The process restarts: a new service on the same database, nothing in memory."""
        TALLY.ran("restart")
        self.acts_since_restart = 0
        note("restart")
        self.service = self.new_service()
        self.run(self.service.settle())
        self.refresh()
        resume = getattr(self.service, "resume", None)  # the games in play shown again
        if resume is None:
            return
        for platform in sorted({place.platform for place in self.places.values()}):
            TALLY.steps += 1
            before, truths_before = self.state, dict(self.truths)
            try:
                shown = self.run(resume(platform))
            except Exception as error:
                raise AssertionError(
                    f"invariant 1: resuming raised {type(error).__name__}: {error}"
                ) from error
            self.refresh()
            for place, effects in shown:
                room = self.room_of_place(place)
                self.check_effects(effects, room, None)
                self.learn(effects, room, truths_before)
            changed = differences(before, self.state, (platform, "~system"))
            assert not changed, f"invariant 3: showing the games again changed {changed[:3]}"
            if self.deliver([e for _, effects in shown for e in effects]):
                self.refresh()
                self.fire_due()


def test_the_service_keeps_every_secret_and_every_room_to_itself() -> None:
    TALLY.reset()
    try:
        run_state_machine_as_test(
            TrustMachine,
            settings=settings(max_examples=EXAMPLES, stateful_step_count=STEPS, phases=PHASES),
        )
    finally:  # shrinking included, when something failed
        print(f"\ntrust: {EXAMPLES} examples at most, {TALLY.line()}")
