"""Trust (issue 18), as a crowd and an attacker would test it: a hypothesis state machine
drives the game service (no platform) in three rooms of two communities with six people,
seated and not, admins of some rooms, and their private chats. Every command of BOT.md
is typed by anyone, in any room, with current, stale and future move numbers and game
ids; every button any effect offered is pressed by its person and by anyone else, where
it was shown and elsewhere, then and later; private presses are forged for any game;
the clock runs and the timers fire; the process restarts.

After every command and every timer (the invariants, numbered as in the failures):
1. ``handle`` returned, and did not answer "something went wrong";
2. nothing any audience sees (text, caption, button label and data, file, the views
   pictures are drawn from) names a tile hidden from it at that moment: the room sees
   no hand and no boneyard while a hand is in play, a seated person only their own;
3. a refused command (answered privately only) or one that must be refused (a private
   command other than the person's own seat action, another game's id, a stale move
   number, looking) changes nothing stored;
4. nothing changes a game of a room other than the one acted in (nor shows it there);
5. the tiles of each hand in play add up.

``TRUST_EXAMPLES`` and ``TRUST_STEPS`` run it longer; ``TRUST_SHRINK=0`` stops at the first
failure, unshrunk. The test prints the steps it ran.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import tempfile
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

from bot.core.model import Board, Command, Effect, File, Hand, Person, Place, Say
from bot.core.posts import Posts
from bot.core.service import GameService
from engine.ai.hard import HardPlayer
from engine.moves import Action
from engine.rules import PRESETS
from engine.tiles import Tile
from storage.errors import NotFound
from storage.store import Store
from tests.core.driver import Clock
from tests.core.trust_model import (
    COMMUNITY,
    GAME_ACTIONS,
    KNOWN,
    LOOKING,
    MOVE_ACTIONS,
    NOTHING_CHANGED,
    PEOPLE,
    PRIVATE_ACTIONS,
    ROOMS,
    Dump,
    Seen,
    Tally,
    Truth,
    audience,
    describe,
    differences,
    dump,
    effect_texts,
    file_leaks,
    first_deal,
    games_rooms,
    make_command,
    named_tiles,
    outside_room,
    person,
    tiles_accounted,
    truth_of,
    user_ids,
    view_tiles,
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
UNKNOWN = ["fly", "timer", "start", "PLAY", "new@dominobot", "setting", "6-4", ""]
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
    "tournament": [
        (),
        ("new", "Copa", "rounds=2"),
        ("register", "Los", "Primos", "@beto"),
        ("register", "Solo"),
        ("list",),
        ("standings",),
        ("checkin",),
        ("leave",),
        ("close",),
        ("start",),
        ("penalty", "Los", "Primos", "20", "noise"),
        ("export",),
        ("forfeit", "1", "Solo"),
        ("log",),
        ("set", "minutes=x"),
        ("frob",),
        ("cancel",),
    ],
}
TYPED = [
    "play", "play", "draw", "pass", "hand", "board", "score", "join", "leave", "add_ai",
    "kick", "begin", "new", "end", "next", "cancel", "export", "export", "top", "stats",
    "rules", "settings", "help", "forget", "unknown", "open", "tournament",
]  # fmt: skip
# Forged private presses: every command, those a private chat must not carry more often.
ROOM_COMMANDS = ["join", "begin", "cancel", "export", "new", "add_ai", "kick", "leave", "next"]
FORGED = ROOM_COMMANDS * 2 + sorted({*KNOWN, "timer", "fly"})
LOOKS = ["export", "export", "board", "score", "hand", "hand", "rules", "help", "stats", "top"]
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
        for key in ROOMS:
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
            place = Place(platform, COMMUNITY[key], key, COMMUNITY[key].upper(), "en")
            self.places[key] = place
            room_id = self.run(Posts(self.store).room_id(place))
            self.room_ids[key] = room_id
            self.room_keys[room_id] = key
        # everybody known from the start (they asked for help once): a command's first
        # sight of a person creates their user, which is not what a refused command is
        # checked for
        for key in ("a1", "b1"):
            for name in PEOPLE:
                self.run(
                    self.service.handle(make_command(self.places[key], person(name, key), "help"))
                )
        self.refresh()

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

    def check_effects(
        self, effects: list[Effect], room: str, command: Command | None, private: bool = False
    ) -> None:
        actor = command.person if command is not None else None
        typed: set[Tile] = set()
        if command is not None:
            typed = named_tiles(" ".join((command.action, *command.args)))
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
            or (who is None and command is not None and command.action == "settings")
        ):
            echoed = typed
        kind = type(effect).__name__
        for text in effect_texts(effect):
            self.no_hidden(named_tiles(text) - echoed, truth, seat, f"{kind} text {text!r}", what)

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
        self.no_hidden(set(view_tiles(view)), truth, None, "the board's view", what)
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
        self.no_hidden(set(view_tiles(hand.view)), truth, seat, "a hand's view", what)
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
        """Why ``command`` must leave everything stored as it was (None: it may change)."""
        action, args = command.action, command.args
        room = self.room_of_place(command.place)
        active = self.truths[room]
        if action == "forget":
            return None if args == ("confirm",) else "asking to forget"
        if private:
            if action not in PRIVATE_ACTIONS or command.game_id is None:
                return "a private command that is not a seat's own action"
            named = self.truth_of_game(command.game_id)
            if named is None or not named.active or active is None or named.id != active.id:
                return "a private command for a game that is not in play there"
            uid = self.user_id(command.place.platform, command.person.platform_id)
            if named.seat_of(uid, command.person.platform_id) is None:
                return "a private command by someone not seated in that game"
            if action == "hand":
                return "looking at one's hand"
            if command.move_number is not None and command.move_number != named.ply:
                return "a private command with a stale move number"
            return None
        if action not in KNOWN:
            return "an unknown command"
        if action in LOOKING:
            return "a command that only looks"
        if action == "settings" and (not args or not command.person.admin):
            return "settings not changed by an admin"
        if (
            command.game_id is not None
            and action in GAME_ACTIONS
            and (active is None or command.game_id != active.id)
        ):
            return f"a command naming game {command.game_id}, not this room's game"
        if (
            command.move_number is not None
            and action in MOVE_ACTIONS
            and (active is None or active.ply is None or command.move_number != active.ply)
        ):
            return f"a command made at move {command.move_number}, not the game's"
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
        forgetting = command.action == "forget" and command.args == ("confirm",)
        if (refused and not forgetting) or keep:
            changed = differences(before, after, (command.place.platform, actor.platform_id))
            why = keep or "refused (answered privately only)"
            assert not changed, (
                f"invariant 3: {describe(command, private)} is {why}, yet it changed "
                f"{changed[:3]}; answered {[getattr(e, 'text', '') for e in effects][:2]}"
            )
        if not forgetting:  # "forget me" erases the person from every game they sat in
            self.check_other_rooms(room, before, describe(command, private))

    def check_other_rooms(self, room: str, before: Dump, what: str) -> None:
        rooms = games_rooms(before, self.state)
        room_id = self.room_ids[room]
        old, new = outside_room(before, room_id, rooms), outside_room(self.state, room_id, rooms)
        if old != new:
            changed = differences(old, new)
            raise AssertionError(
                f"invariant 4: {what} in room {room} changed other rooms: {changed[:3]}"
            )

    def learn(self, effects: list[Effect], room: str, truths_before: dict[str, Any]) -> None:
        """Keep the buttons shown and the hands sent, for later presses."""
        for effect in effects:
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
            for key in ROOMS
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
                words = button.command.split()
                number, game_id = button.move_number, button.game_id
            else:  # typed in the room (or the hand was not seen: after a restart, say)
                move = data.draw(st.sampled_from(truth.legal), label="move")
                words = [move.action.value, *move.action_text().split()[1:]]
                if move.action is Action.PLAY:
                    words = ["play", *move.action_text().split()]
                number, game_id, private = None, None, False
            command = make_command(
                self.places[room], who, words[0], words[1:], number, game_id, private=private
            )
            self.act(command, private)

    @rule(data=st.data())
    def type_command(self, data: st.DataObject) -> None:
        """Anyone types any command in any room, sometimes with a move number or game id."""
        TALLY.ran("type_command")
        busy = [key for key in ROOMS if self.truths.get(key) is not None]
        playing = [key for key in ROOMS if (t := self.truths.get(key)) is not None and t.in_play]
        room = data.draw(st.sampled_from(playing * 3 + busy + list(ROOMS)), label="room")
        if room in playing:
            TALLY.ran("type_command during a hand")
        name = data.draw(st.sampled_from(PEOPLE), label="who")
        action = data.draw(st.sampled_from(TYPED), label="action")
        truth = self.truths[room]
        args = self.draw_args(data, action, truth, room)
        if action == "unknown":
            action = data.draw(st.sampled_from(UNKNOWN), label="unknown")
            if action == "timer":
                args = data.draw(st.sampled_from(ARGS["timer"]), label="args")
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
        busy = [key for key in ROOMS if self.truths.get(key) is not None]
        playing = [key for key in busy if (t := self.truths[key]) is not None and t.in_play]
        room = data.draw(st.sampled_from(playing * 2 + busy), label="room")
        name = data.draw(st.sampled_from(PEOPLE), label="who")
        action = data.draw(st.sampled_from(LOOKS), label="action")
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
        if action == "new":
            preset = data.draw(st.sampled_from([None, *PRESET_NAMES, "chess"]), label="preset")
            target = data.draw(
                st.sampled_from([None, "10", "2", "x", "99999999999"]), label="target"
            )
            return tuple(a for a in (preset, target) if a is not None)
        if action == "play":
            return self.draw_tile_args(data, truth)
        if action == "export":  # the latest game, or one by number: this room's or not
            number = data.draw(st.integers(0, self.max_game_id() + 1), label="game number")
            return data.draw(st.sampled_from([(), (str(number),), ("x",)]), label="args")
        if action in ARGS:
            return data.draw(st.sampled_from(ARGS[action]), label="args")
        if action in ("draw", "pass", "end", "next", "hand", "board", "score", "cancel", "help"):
            return data.draw(st.sampled_from([(), (), ("x",)]), label="args")
        return ()

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
            room = data.draw(st.sampled_from([r for r in ROOMS if r != seen.room]), label="room")
        elif where == "privately" or (where == "as shown" and seen.to is not None):
            private = True
        place = self.places[room]
        if private and button.game_id is not None:
            found = self.run(self.service.place_of_game(button.game_id))
            if found is None:
                return  # the adapter answers "that game is over or gone" itself
            place = self.places[self.room_of_place(found)]
            room = self.room_of_place(found)
        words = button.command.split()
        self.act(
            make_command(
                place,
                person(name, room),
                words[0],
                words[1:],
                button.move_number,
                button.game_id,
                private=private,
            ),
            private,
        )

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
        found = self.run(self.service.place_of_game(game_id))
        assert found is not None
        room = self.room_of_place(found)
        name = data.draw(st.sampled_from(PEOPLE), label="who")
        action = data.draw(st.sampled_from(FORGED), label="action")
        truth = self.truths[room]
        args = self.draw_args(data, action, truth, room)
        move_number = self.draw_move_number(data, truth)
        self.act(
            make_command(
                self.places[room], person(name, room), action, args, move_number, game_id,
                private=True,
            ),
            private=True,
        )  # fmt: skip

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


def test_the_service_keeps_every_secret_and_every_room_to_itself() -> None:
    TALLY.reset()
    try:
        run_state_machine_as_test(
            TrustMachine,
            settings=settings(max_examples=EXAMPLES, stateful_step_count=STEPS, phases=PHASES),
        )
    finally:  # shrinking included, when something failed
        print(f"\ntrust: {EXAMPLES} examples at most, {TALLY.line()}")
