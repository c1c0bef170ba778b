"""The game service: commands in, effects out, no platform library in sight.

One room's commands run one at a time (a lock per room in this process; across
processes the stored game's version refuses a lost race, and the command is tried again
on the fresh game). Every answer is text already in the reader's language.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from bot import standings, texts
from bot.describe import describe_hand, describe_table, move_words
from bot.i18n import LANGUAGES, language, tr
from bot.model import Board, Button, Command, Effect, File, Hand, Person, Place, Say
from bot.seats import STRENGTHS, Seat, seat_of, seats_from, seats_json
from engine.errors import DominoError
from engine.game import Game
from engine.moves import Action, Move, parse_action
from engine.players import make_player
from engine.record import export, load
from engine.rules import PRESETS, Rules
from engine.views import view_of
from render.board import Table
from render.theme import THEMES
from storage.database import utcnow
from storage.errors import Conflict, StorageError, Unavailable
from storage.games import GameRow
from storage.people import Community, Room, User
from storage.store import Store
from storage.timers import ALL, Timer, TimerPlan

log = logging.getLogger(__name__)

LOBBY_MINUTES = 15  # a lobby nobody begins closes itself
IDLE_HOURS = 24  # a game nobody touches ends itself
NEXT_HAND_SECONDS = 8  # the pause between hands, unless someone presses "next"
WARNING_SHARE = 3  # the warning comes when a third of the turn is left
TRIES = 3  # attempts at a command that lost a race with another process
ROOM_SECONDS = 30  # how long a room's settings are trusted from memory
# Words players type in Spanish or Portuguese, read as the commands' own words.
ALIASES = {
    "en": "on", "em": "on", "sobre": "on", "mexicano": "mexican",
    "facil": "easy", "fácil": "easy", "dificil": "hard", "difícil": "hard",
    "semana": "week", "mes": "month", "mês": "month", "todo": "all", "tudo": "all",
    "paso": "pass", "pase": "pass", "passo": "pass", "robo": "draw", "robar": "draw",
    "comprar": "draw", "mitad": "half", "metade": "half", "costado": "flank", "flanco": "flank",
    "llenar": "fill", "preencher": "fill",
}  # fmt: skip


@dataclass
class Context:
    """One command on its way through the service."""

    command: Command
    community: Community
    room: Room
    user: User
    lang: str  # the room's language
    own: str  # the person's language (private messages)
    now: datetime
    effects: list[Effect] = field(default_factory=list)

    @property
    def person(self) -> Person:
        return self.command.person

    def say(self, message: str, **params: Any) -> None:
        self.effects.append(Say(tr(self.lang, message, **params)))

    def tell(self, message: str, **params: Any) -> None:
        """Only the person who sent the command sees it, in their language."""
        self.effects.append(Say(tr(self.own, message, **params), private=self.person))


class Refusal(Exception):
    """A command that cannot be done: its message (an English id) goes back privately."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


@dataclass
class Loaded:
    row: GameRow
    seats: list[Seat]
    record: dict[str, Any]
    meta: dict[str, Any]
    game: Game | None  # None in the lobby

    @property
    def rules(self) -> Rules:
        return Rules.from_record(self.record["rules"])


class GameService:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        holder: str | None = None,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
    ) -> None:
        self.store = store
        self.clock = clock
        self.seeds = seeds  # each hand's deal (tests pass a seeded source)
        self.holder = holder or f"pid-{os.getpid()}-{secrets.token_hex(3)}"
        self._locks: dict[int, asyncio.Lock] = {}
        # who and where, kept in memory: three fewer queries a command. Rooms are read
        # again after ROOM_SECONDS, since another process may change their settings.
        self._communities: dict[tuple[str, str], Community] = {}
        self._rooms: dict[tuple[int, str], tuple[Room, datetime]] = {}
        self._users: dict[tuple[str, str], User] = {}
        self._games: dict[int, tuple[int, Game]] = {}  # game id: (version, game)

    # ----- the door --------------------------------------------------------------------

    async def handle(self, command: Command) -> list[Effect]:
        """Answer ``command``; never raises: every failure becomes a private answer."""
        own = language(command.person.locale or command.place.locale)
        try:
            ctx = await self._context(command)
        except Unavailable:
            return [Say(tr(own, texts.DATABASE_DOWN), private=command.person)]
        lock = self._locks.setdefault(ctx.room.id, asyncio.Lock())
        async with lock:
            for _ in range(TRIES):
                ctx.effects = []
                try:
                    await self._dispatch(ctx)
                    return ctx.effects
                except Refusal as refusal:
                    return [
                        *ctx.effects,
                        Say(tr(ctx.own, refusal.message, **refusal.params), private=ctx.person),
                    ]
                except Conflict:
                    self._games.clear()  # another process moved: read the game again
                    continue
                except Unavailable:
                    return [Say(tr(ctx.own, texts.DATABASE_DOWN), private=ctx.person)]
                except (DominoError, StorageError, ValueError) as error:
                    log.warning("command %s refused: %s", command.action, error)
                    return [Say(tr(ctx.own, texts.NOTHING_CHANGED), private=ctx.person)]
                except Exception:
                    log.exception("command %s failed", command.action)
                    return [Say(tr(ctx.own, texts.NOTHING_CHANGED), private=ctx.person)]
        return [Say(tr(ctx.own, texts.BUSY), private=ctx.person)]

    async def _context(self, command: Command) -> Context:
        now = self.clock()
        place, person = command.place, command.person
        people = self.store.people
        key = (place.platform, place.community)
        community = self._communities.get(key)
        if community is None:
            community = await people.community(
                place.platform, place.community, now, place.community_name, place.locale
            )
            self._communities[key] = community
        cached = self._rooms.get((community.id, place.room))
        if cached is None or now - cached[1] > timedelta(seconds=ROOM_SECONDS):
            room = await people.room(community.id, place.room, now)
            self._rooms[(community.id, place.room)] = (room, now)
        else:
            room = cached[0]
        user = self._users.get((place.platform, person.platform_id))
        if user is None or user.name != person.name:
            user = await people.user(place.platform, person.platform_id, person.name, now)
            self._users[(place.platform, person.platform_id)] = user
        lang = language(room.settings.get("language") or community.locale or place.locale)
        own = language(user.locale or person.locale or lang)
        return Context(command, community, room, user, lang, own, now)

    async def _dispatch(self, ctx: Context) -> None:
        args = tuple(ALIASES.get(a.lower(), a) for a in ctx.command.args)
        if args != ctx.command.args:
            ctx.command = replace(ctx.command, args=args)
        action = ctx.command.action
        handler = getattr(self, f"_do_{action}", None)
        if handler is None or action not in texts.COMMANDS:
            raise Refusal(texts.UNKNOWN_COMMAND, command=action)
        await handler(ctx)

    # ----- loading and saving ----------------------------------------------------------

    async def _active(self, ctx: Context) -> Loaded | None:
        row = await self.store.games.active_in(ctx.room.id)
        return self._loaded(row) if row is not None else None

    def _loaded(self, row: GameRow) -> Loaded:
        snapshot = row.snapshot
        record, meta = snapshot["record"], snapshot.get("meta", {})
        game: Game | None = None
        if row.status != "lobby":
            cached = self._games.get(row.id)
            if cached is not None and cached[0] == row.version:
                game = cached[1]
            else:
                game = load(record)
                game.started_at = meta.get("started_at")
                self._games[row.id] = (row.version, game)
        return Loaded(row, seats_from(row.seats), record, meta, game)

    async def _require(self, ctx: Context, playing: bool = True) -> Loaded:
        loaded = await self._active(ctx)
        if loaded is None:
            raise Refusal(texts.NO_GAME)
        if ctx.command.game_id is not None and ctx.command.game_id != loaded.row.id:
            raise Refusal(texts.STALE)
        if playing and loaded.game is None:
            raise Refusal(texts.NOT_BEGUN)
        return loaded

    async def _save(
        self,
        ctx: Context,
        loaded: Loaded,
        status: str | None = None,
        keep_game: bool = True,
        timers: TimerPlan | None = None,
    ) -> Loaded:
        """Write the game (its record, seats and notes) with the version it was loaded at;
        the moves made since go to the log."""
        game = loaded.game
        names = [self._name(s, i, ctx.lang) for i, s in enumerate(loaded.seats)]
        if game is not None:
            loaded.record = export(game, names[: game.players])
        else:
            loaded.record = dict(loaded.record, players=names)
        moves: list[tuple[int, str]] = []
        if game is not None:
            all_moves = [(h, str(m)) for h, log in enumerate(game.logs) for m in log.state.moves]
            moves = all_moves[loaded.row.plies :]
        seats = seats_json(loaded.seats)
        version = await self.store.games.save(
            loaded.row.id,
            loaded.row.version,
            {"record": loaded.record, "meta": loaded.meta},
            moves,
            ctx.now,
            status=status,
            seats=seats if seats != loaded.row.seats else None,  # unchanged: not rewritten
            timers=timers,
        )
        row = replace(
            loaded.row,
            version=version,
            plies=loaded.row.plies + len(moves),
            status=status or loaded.row.status,
            seats=seats,
        )
        if game is not None and keep_game and row.status == "playing":
            self._games[row.id] = (version, game)
        else:
            self._games.pop(row.id, None)
        loaded.row = row
        return loaded

    # ----- names and views -------------------------------------------------------------

    def _name(self, seat: Seat, index: int, lang: str) -> str:
        if seat.name:
            return seat.name
        if seat.bot:
            return tr(lang, "Computer {n} ({strength})", n=index + 1, strength=tr(lang, seat.bot))
        return tr(lang, "Seat {n}", n=index + 1)

    def _names(self, loaded: Loaded, lang: str) -> tuple[str, ...]:
        count = loaded.game.players if loaded.game is not None else len(loaded.seats)
        return tuple(self._name(s, i, lang) for i, s in enumerate(loaded.seats[:count]))

    def _table(self, ctx: Context, loaded: Loaded, lang: str | None = None) -> Table:
        lang = lang or ctx.lang
        game = loaded.game
        clock = None
        if game is not None and game.rules.time_limit_minutes and game.started_at is not None:
            clock = game.seconds_left(ctx.now.timestamp())
        turn = None
        due = loaded.meta.get("turn_due")
        if due is not None:
            turn = max(0.0, due - ctx.now.timestamp())
        settings = ctx.room.settings
        return Table(
            self._names(loaded, lang),
            turn_seconds=turn,
            clock_seconds=clock,
            lang=lang,
            theme=settings.get("theme", "classic"),
            numerals=bool(settings.get("numerals", False)),
        )

    def _person(self, seat: Seat) -> Person:
        return Person(seat.pid or "", seat.name or "", seat.locale)

    # ----- lobby -----------------------------------------------------------------------

    async def _do_new(self, ctx: Context) -> None:
        if await self._active(ctx) is not None:
            raise Refusal(texts.ALREADY_OPEN)
        settings = ctx.room.settings
        args = list(ctx.command.args)
        preset = settings.get("preset", "partnership")
        options: dict[str, Any] = dict(settings.get("options", {}))
        if args and not args[0].isdigit():
            preset = args.pop(0).lower()
        if args:
            if not args[0].isdigit():
                raise Refusal(texts.BAD_TARGET, text=args[0])
            options["target"] = int(args[0])
        if preset not in PRESETS:
            raise Refusal(texts.UNKNOWN_PRESET, preset=preset, presets=", ".join(sorted(PRESETS)))
        try:
            rules = Rules.from_preset(preset, **options)
        except DominoError:
            raise Refusal(texts.BAD_OPTIONS, preset=preset) from None
        seats = [Seat() for _ in range(rules.max_players)]
        seats[0] = self._seat_for(ctx)
        record = {
            "format": "domino-record/1",
            "rules": {"preset": rules.preset, "options": rules.options()},
            "players": [],
            "hands": [],
        }
        meta = {"creator": ctx.user.id}
        row = await self.store.games.create(
            ctx.room.id, preset, seats_json(seats), {"record": record, "meta": meta}, ctx.now
        )
        await self.store.timers.set(
            ctx.room.id, "lobby", ctx.now + timedelta(minutes=LOBBY_MINUTES), game_id=row.id
        )
        self._lobby_effects(ctx, self._loaded(row), opened=True)

    def _seat_for(self, ctx: Context) -> Seat:
        return Seat(
            user=ctx.user.id,
            pid=ctx.person.platform_id,
            name=ctx.person.name,
            locale=ctx.user.locale or ctx.person.locale,
        )

    def _lobby_effects(self, ctx: Context, loaded: Loaded, opened: bool = False) -> None:
        rules = loaded.rules
        lines = [
            tr(ctx.lang, texts.LOBBY_OPEN, preset=texts.preset_name(ctx.lang, rules.preset))
            if opened
            else tr(ctx.lang, texts.LOBBY, preset=texts.preset_name(ctx.lang, rules.preset))
        ]
        for i, seat in enumerate(loaded.seats):
            who = self._name(seat, i, ctx.lang) if not seat.empty else tr(ctx.lang, "free")
            team = ""
            if rules.teams:
                team = " · " + tr(ctx.lang, "team {team}", team="A" if i % 2 == 0 else "B")
            lines.append(f"{i + 1}. {who}{team}")
        seated = sum(1 for s in loaded.seats if not s.empty)
        lines.append(
            tr(ctx.lang, texts.LOBBY_NEEDS, least=rules.min_players, most=rules.max_players)
            if seated < rules.min_players
            else tr(ctx.lang, texts.LOBBY_READY)
        )
        game_id = loaded.row.id
        buttons = (
            Button(tr(ctx.lang, "Join"), "join", game_id),
            Button(tr(ctx.lang, "Add computer"), "add_ai normal", game_id),
            Button(tr(ctx.lang, "Begin"), "begin fill", game_id),
            Button(tr(ctx.lang, "Cancel"), "cancel", game_id),
        )
        ctx.effects.append(Say("\n".join(lines), buttons=buttons))

    async def _do_join(self, ctx: Context) -> None:
        loaded = await self._require(ctx, playing=False)
        seats = loaded.seats
        mine = seat_of(seats, ctx.user.id)
        if loaded.game is not None:
            if mine is not None and seats[mine].away:
                seats[mine].bot = None
                seats[mine].timeouts = 0
                await self._save(ctx, loaded)
                ctx.say(texts.BACK, name=self._name(seats[mine], mine, ctx.lang))
                self._hand_for(ctx, loaded, mine)
                return
            raise Refusal(texts.ALREADY_BEGUN)
        if mine is not None:
            raise Refusal(texts.ALREADY_SEATED, seat=mine + 1)
        wanted = self._seat_arg(ctx, len(seats))
        if wanted is None:
            wanted = next((i for i, s in enumerate(seats) if s.empty), None)
            if wanted is None:
                raise Refusal(texts.TABLE_FULL)
        elif not seats[wanted].empty:
            raise Refusal(texts.SEAT_TAKEN, seat=wanted + 1)
        seats[wanted] = self._seat_for(ctx)
        await self._save(ctx, loaded)
        self._lobby_effects(ctx, loaded)

    def _seat_arg(self, ctx: Context, count: int) -> int | None:
        if not ctx.command.args:
            return None
        text = ctx.command.args[0]
        if not text.isdigit() or not 1 <= int(text) <= count:
            raise Refusal(texts.BAD_SEAT, text=text, most=count)
        return int(text) - 1

    async def _do_leave(self, ctx: Context) -> None:
        loaded = await self._require(ctx, playing=False)
        mine = seat_of(loaded.seats, ctx.user.id)
        if mine is None:
            raise Refusal(texts.NOT_SEATED)
        seat = loaded.seats[mine]
        if loaded.game is None:
            loaded.seats[mine] = Seat()
            if all(s.user is None for s in loaded.seats):
                await self._close(ctx, loaded, texts.LOBBY_CLOSED)
                return
            if loaded.meta.get("creator") == ctx.user.id:
                heir = next(s for s in loaded.seats if s.user is not None)
                loaded.meta["creator"] = heir.user
            await self._save(ctx, loaded)
            self._lobby_effects(ctx, loaded)
            return
        seat.bot = "normal"  # a computer player sits in for them; /join brings them back
        await self._save(ctx, loaded)
        ctx.say(texts.LEFT, name=self._name(seat, mine, ctx.lang))
        await self._progress(ctx, loaded)

    async def _do_add_ai(self, ctx: Context) -> None:
        loaded = await self._require(ctx, playing=False)
        self._creator_only(ctx, loaded)
        if loaded.game is not None:
            raise Refusal(texts.ALREADY_BEGUN)
        strength = (ctx.command.args[0] if ctx.command.args else "normal").lower()
        if strength not in STRENGTHS:
            raise Refusal(texts.BAD_STRENGTH, text=strength)
        free = next((i for i, s in enumerate(loaded.seats) if s.empty), None)
        if free is None:
            raise Refusal(texts.TABLE_FULL)
        loaded.seats[free] = Seat(bot=strength)
        await self._save(ctx, loaded)
        self._lobby_effects(ctx, loaded)

    async def _do_kick(self, ctx: Context) -> None:
        loaded = await self._require(ctx, playing=False)
        self._creator_only(ctx, loaded)
        if loaded.game is not None:
            raise Refusal(texts.ALREADY_BEGUN)
        if not ctx.command.args:
            raise Refusal(texts.KICK_WHICH)
        seat = self._seat_arg(ctx, len(loaded.seats))
        assert seat is not None
        if loaded.seats[seat].bot is None:
            raise Refusal(texts.KICK_ONLY_COMPUTERS, seat=seat + 1)
        loaded.seats[seat] = Seat()
        await self._save(ctx, loaded)
        self._lobby_effects(ctx, loaded)

    def _creator_only(self, ctx: Context, loaded: Loaded) -> None:
        if loaded.meta.get("creator") != ctx.user.id and not ctx.person.admin:
            raise Refusal(texts.CREATOR_ONLY)

    async def _do_begin(self, ctx: Context) -> None:
        loaded = await self._require(ctx, playing=False)
        self._creator_only(ctx, loaded)
        if loaded.game is not None:
            raise Refusal(texts.ALREADY_BEGUN)
        rules = loaded.rules
        fill = any(a.lower() in ("fill", "ai", "computers") for a in ctx.command.args)
        seated = [s for s in loaded.seats if not s.empty]
        if len(seated) < rules.min_players:
            if not fill:
                raise Refusal(texts.NEED_PLAYERS, least=rules.min_players)
            seats = list(loaded.seats)
            for i, seat in enumerate(seats):
                if seat.empty and sum(not s.empty for s in seats) < rules.min_players:
                    seats[i] = Seat(bot="normal")
            seated = [s for s in seats if not s.empty]
        if rules.teams:
            seated = [s if not s.empty else Seat(bot="normal") for s in loaded.seats]
        if sum(1 for s in seated if s.user is not None) == 0:
            raise Refusal(texts.NEED_PLAYERS, least=rules.min_players)
        loaded.seats = seated
        game = Game(rules, len(seated))
        game.started_at = ctx.now.timestamp()
        game.start_hand(seed=self.seeds())
        loaded.game = game
        loaded.meta["started_at"] = game.started_at
        clock = None
        if rules.time_limit_minutes:
            clock = ctx.now + timedelta(minutes=rules.time_limit_minutes)
        ctx.say(texts.BEGUN, preset=texts.preset_name(ctx.lang, rules.preset))
        await self._progress(ctx, loaded, status="playing", fresh_hand=True, clock=clock)

    async def _do_cancel(self, ctx: Context) -> None:
        loaded = await self._require(ctx, playing=False)
        if loaded.meta.get("creator") != ctx.user.id and not ctx.person.admin:
            raise Refusal(texts.CANCEL_WHO)
        await self._close(ctx, loaded, texts.CANCELLED, name=ctx.person.name)

    async def _close(self, ctx: Context, loaded: Loaded, message: str, **params: Any) -> None:
        await self._save(
            ctx, loaded, status="cancelled", keep_game=False, timers=TimerPlan(cancel=(ALL,))
        )
        ctx.say(message, **params)

    # ----- playing ---------------------------------------------------------------------

    async def _do_play(self, ctx: Context) -> None:
        loaded, seat = await self._my_turn(ctx)
        game = loaded.game
        assert game is not None
        move = self._chosen_move(ctx, loaded, seat, " ".join(ctx.command.args))
        await self._apply_human(ctx, loaded, seat, move)

    async def _do_draw(self, ctx: Context) -> None:
        await self._simple(ctx, Action.DRAW, texts.CANNOT_DRAW)

    async def _do_pass(self, ctx: Context) -> None:
        await self._simple(ctx, Action.PASS, texts.CANNOT_PASS)

    async def _do_end(self, ctx: Context) -> None:
        await self._simple(ctx, Action.END, texts.CANNOT_END)

    async def _simple(self, ctx: Context, action: Action, refusal: str) -> None:
        loaded, seat = await self._my_turn(ctx)
        assert loaded.game is not None
        move = Move(seat, action)
        if move not in loaded.game.legal_moves():
            raise Refusal(refusal)
        await self._apply_human(ctx, loaded, seat, move)

    async def _my_turn(self, ctx: Context) -> tuple[Loaded, int]:
        loaded = await self._require(ctx)
        game = loaded.game
        assert game is not None
        number = ctx.command.move_number
        if number is not None and number != game.ply:
            raise Refusal(texts.STALE)
        seat = seat_of(loaded.seats, ctx.user.id)
        if seat is None:
            raise Refusal(texts.NOT_SEATED)
        if loaded.seats[seat].away:
            raise Refusal(texts.AWAY)
        if game.hand is None:
            raise Refusal(texts.BETWEEN_HANDS if game.outcome is None else texts.GAME_OVER)
        if game.to_move != seat:
            to_move = game.to_move if game.to_move is not None else 0
            name = self._name(loaded.seats[to_move], to_move, ctx.lang)
            raise Refusal(texts.NOT_YOUR_TURN, name=name)
        return loaded, seat

    def _chosen_move(self, ctx: Context, loaded: Loaded, seat: int, text: str) -> Move:
        game = loaded.game
        assert game is not None
        if not text.strip():
            raise Refusal(texts.PLAY_WHAT)
        try:
            wanted = parse_action(text, seat)
        except DominoError:
            raise Refusal(texts.BAD_MOVE, text=text.strip()) from None
        legal = game.legal_moves()
        if wanted.action is not Action.PLAY:
            if wanted in legal:
                return wanted
            raise Refusal(texts.CANNOT_DO, text=text.strip())
        hand = game.hand
        assert hand is not None
        if wanted.tile not in hand.hand(seat):
            raise Refusal(texts.NOT_YOUR_TILE, tile=wanted.tile)
        fits = [
            m
            for m in legal
            if m.tile == wanted.tile
            and (wanted.on is None or m.on == wanted.on)
            and (wanted.side is None or m.side == wanted.side)
            and (wanted.train is None or m.train == wanted.train)
        ]
        names = self._names(loaded, ctx.own)
        if len(fits) == 1:
            return fits[0]
        choices = [m for m in legal if m.tile is not None]
        if not fits:
            options = ", ".join(move_words(ctx.own, m, names) for m in choices) or "-"
            raise Refusal(texts.DOES_NOT_FIT, tile=wanted.tile, moves=options)
        buttons = tuple(
            Button(
                move_words(ctx.own, m, names), f"play {m.action_text()}", loaded.row.id, game.ply
            )
            for m in fits
        )
        ctx.effects.append(
            Say(tr(ctx.own, texts.WHERE, tile=wanted.tile), private=ctx.person, buttons=buttons)
        )
        raise Refusal(texts.CHOOSE_ONE)

    async def _apply_human(self, ctx: Context, loaded: Loaded, seat: int, move: Move) -> None:
        game = loaded.game
        assert game is not None
        game.apply(move)
        loaded.seats[seat].timeouts = 0
        await self._progress(ctx, loaded, made=[move])

    async def _progress(
        self,
        ctx: Context,
        loaded: Loaded,
        made: list[Move] | None = None,
        status: str | None = None,
        fresh_hand: bool = False,
        clock: datetime | None = None,
    ) -> None:
        """Make the forced moves and the computer players' moves up to the next person's
        turn (or the end of the hand), save, and tell everyone."""
        game = loaded.game
        assert game is not None
        made = list(made or [])
        while game.hand is not None:
            forced = game.forced_move()
            if forced is not None:
                game.apply(forced)
                made.append(forced)
                continue
            seat = game.to_move
            assert seat is not None
            if not loaded.seats[seat].bot:
                break
            move = await self._computer_move(loaded, seat)
            game.apply(move)
            made.append(move)
        hand_over = game.hand is None
        game_over = game.outcome is not None
        loaded.meta.pop("turn_due", None)
        new_status = "finished" if game_over else status
        loaded.meta["last_ply"] = game.ply
        if not hand_over:
            self._turn_timers_meta(ctx, loaded)
        plan = self._timer_plan(ctx, loaded, hand_over, game_over, clock)
        await self._save(ctx, loaded, status=new_status, timers=plan)
        names = self._names(loaded, ctx.lang)
        said = [
            texts.move_line(ctx.lang, names[m.seat], move_words(ctx.lang, m, names), m)
            for m in made
        ]
        room_view = view_of(game)
        caption = "\n".join(said[-6:])
        buttons = ()
        if not hand_over:
            buttons = (
                Button(tr(ctx.lang, "My hand"), "hand", loaded.row.id),
                Button(tr(ctx.lang, "Board"), "board", loaded.row.id),
            )
        elif not game_over:
            buttons = (Button(tr(ctx.lang, "Next hand"), "next", loaded.row.id, game.ply),)
        ctx.effects.append(
            Board(
                loaded.row.id,
                game.ply,
                room_view,
                self._table(ctx, loaded),
                caption,
                buttons,
                final=game_over,
            )
        )
        if hand_over:
            ctx.effects.append(Say(self._hand_summary(ctx, loaded)))
        if game_over:
            await self._finish(ctx, loaded)
            return
        if fresh_hand:
            for s, seat_info in enumerate(loaded.seats):
                if seat_info.human and s != game.to_move:
                    self._hand_for(ctx, loaded, s)
        if not hand_over:
            to_move = game.to_move
            assert to_move is not None
            self._hand_for(ctx, loaded, to_move)
            seat_info = loaded.seats[to_move]
            timeout = self._timeout(ctx, loaded)
            ctx.effects.append(
                Say(
                    tr(
                        ctx.lang,
                        texts.YOUR_TURN,
                        name=self._name(seat_info, to_move, ctx.lang),
                        seconds=timeout,
                    ),
                    mention=(self._person(seat_info),),
                )
            )

    def _hand_for(
        self, ctx: Context, loaded: Loaded, seat: int, person: Person | None = None
    ) -> None:
        """Seat ``seat``'s hand and move buttons, privately to its person (or to
        ``person``, who asked for it)."""
        game = loaded.game
        assert game is not None
        info = loaded.seats[seat]
        if game.hand is None or (person is None and not info.human):
            return
        lang = language(info.locale or (ctx.own if person is not None else ctx.lang))
        view = view_of(game, seat)
        names = self._names(loaded, lang)
        buttons = tuple(
            Button(
                f"{key}) {move_words(lang, m, names)}",
                self._command_for(m),
                loaded.row.id,
                game.ply,
            )
            for key, m in texts.keyed(view.legal_moves)
        )
        ctx.effects.append(
            Hand(
                person or self._person(info),
                loaded.row.id,
                game.ply,
                view,
                self._table(ctx, loaded, lang),
                describe_hand(view, names, lang),
                buttons,
            )
        )

    @staticmethod
    def _command_for(move: Move) -> str:
        if move.action is Action.PLAY:
            return f"play {move.action_text()}"
        return move.action.value

    async def _computer_move(self, loaded: Loaded, seat: int) -> Move:
        """A computer player's move, thought out off the event loop."""
        game = loaded.game
        assert game is not None
        info = loaded.seats[seat]
        player = make_player(info.bot or "normal", seed=game.ply * 8 + seat)
        view = view_of(game, seat)
        if info.bot == "hard":
            # a search of up to its budget: off the event loop, so other rooms go on
            return await asyncio.to_thread(player.choose, view)
        return player.choose(view)  # easy and normal decide in well under a millisecond

    def _timeout(self, ctx: Context, loaded: Loaded) -> int:
        setting = ctx.room.settings.get("turn_timeout")
        return int(setting) if setting else loaded.rules.turn_timeout

    def _turn_timers_meta(self, ctx: Context, loaded: Loaded) -> None:
        loaded.meta["turn_due"] = ctx.now.timestamp() + self._timeout(ctx, loaded)

    def _timer_plan(
        self,
        ctx: Context,
        loaded: Loaded,
        hand_over: bool,
        game_over: bool,
        clock: datetime | None,
    ) -> TimerPlan:
        """The room's timers after this save (stamped with the version it creates)."""
        if game_over:
            return TimerPlan(cancel=(ALL,))
        cancel = ("turn", "warning", "next_hand", "idle", "lobby")
        sets: list[tuple[str, datetime, dict[str, Any]]] = []
        if clock is not None:
            sets.append(("clock", clock, {}))
        if hand_over:
            sets.append(("next_hand", ctx.now + timedelta(seconds=NEXT_HAND_SECONDS), {}))
            return TimerPlan(cancel, tuple(sets))
        game = loaded.game
        assert game is not None
        timeout = self._timeout(ctx, loaded)
        payload = {"seat": game.to_move}
        sets.append(("turn", ctx.now + timedelta(seconds=timeout), payload))
        warn = ctx.now + timedelta(seconds=timeout - timeout // WARNING_SHARE)
        sets.append(("warning", warn, payload))
        sets.append(("idle", ctx.now + timedelta(hours=IDLE_HOURS), {}))
        return TimerPlan(cancel, tuple(sets))

    def _hand_summary(self, ctx: Context, loaded: Loaded) -> str:
        game = loaded.game
        assert game is not None
        result = game.logs[-1].result
        names = self._names(loaded, ctx.lang)
        return texts.hand_summary(ctx.lang, game, result, names)

    async def _do_next(self, ctx: Context) -> None:
        loaded = await self._require(ctx)
        game = loaded.game
        assert game is not None
        if seat_of(loaded.seats, ctx.user.id) is None:
            raise Refusal(texts.NOT_SEATED)
        await self._next_hand(ctx, loaded)

    async def _next_hand(self, ctx: Context, loaded: Loaded) -> None:
        game = loaded.game
        assert game is not None
        if game.hand is not None:
            raise Refusal(texts.HAND_GOING)
        if game.outcome is not None:
            raise Refusal(texts.GAME_OVER)
        game.start_hand(seed=self.seeds())
        ctx.say(texts.NEW_HAND, number=len(game.logs))
        await self._progress(ctx, loaded, fresh_hand=True)

    async def _finish(self, ctx: Context, loaded: Loaded) -> None:
        """The game is over (and saved so): write its results and ratings, and say how
        it ended. Results that fail to be written now are written by :meth:`settle`."""
        game = loaded.game
        assert game is not None and game.outcome is not None
        changes: dict[int, tuple[float, float]] = {}
        try:
            changes = await standings.record_results(self.store, ctx, loaded, game)
        except StorageError as error:
            log.warning("results of game %s left for later: %s", loaded.row.id, error)
        names = self._names(loaded, ctx.lang)
        summary = texts.game_summary(ctx.lang, game, names, changes, loaded.seats)
        ctx.effects.append(Say(summary))

    async def settle(self) -> int:
        """Write the results of finished games that have none yet (a process stopped
        between saving the last move and writing them); how many."""
        done = 0
        for game_id in await self.store.results.unrecorded(limit=20):
            row = await self.store.games.load(game_id)
            room = await self.store.people.room_by_id(row.room_id)
            community = await self.store.people.community_by_id(room.community_id)
            loaded = self._loaded(replace(row, status="playing"))
            if loaded.game is None or loaded.game.outcome is None:
                continue
            ctx = Context(
                Command(
                    Place(community.platform, community.platform_id, room.platform_id),
                    Person("~system", "system"),
                    "timer",
                ),
                community,
                room,
                await self.store.people.user(community.platform, "~system", "system", self.clock()),
                "en",
                "en",
                row.finished_at or self.clock(),
            )
            await standings.record_results(self.store, ctx, loaded, loaded.game)
            done += 1
        return done

    # ----- looking ---------------------------------------------------------------------

    async def _do_hand(self, ctx: Context) -> None:
        loaded = await self._require(ctx)
        seat = seat_of(loaded.seats, ctx.user.id)
        if seat is None:
            raise Refusal(texts.NOT_SEATED)
        game = loaded.game
        assert game is not None
        if game.hand is None:
            raise Refusal(texts.BETWEEN_HANDS if game.outcome is None else texts.GAME_OVER)
        self._hand_for(ctx, loaded, seat, person=ctx.person)

    async def _do_board(self, ctx: Context) -> None:
        loaded = await self._require(ctx)
        game = loaded.game
        assert game is not None
        names = self._names(loaded, ctx.lang)
        view = view_of(game)
        ctx.effects.append(
            Board(
                loaded.row.id,
                game.ply,
                view,
                self._table(ctx, loaded),
                describe_table(view, names, ctx.lang),
                final=game.outcome is not None,
            )
        )

    async def _do_score(self, ctx: Context) -> None:
        loaded = await self._require(ctx)
        game = loaded.game
        assert game is not None
        ctx.say(texts.score_text(ctx.lang, game, self._names(loaded, ctx.lang)))

    async def _do_export(self, ctx: Context) -> None:
        row = await self.store.games.active_in(ctx.room.id)
        if row is None:
            raise Refusal(texts.NO_GAME)
        data = texts.record_bytes(row.snapshot["record"])
        ctx.effects.append(File(f"domino-{row.id}.json", data, tr(ctx.lang, texts.EXPORTED)))

    async def _do_rules(self, ctx: Context) -> None:
        preset = (ctx.command.args[0] if ctx.command.args else None) or ctx.room.settings.get(
            "preset", "partnership"
        )
        if preset not in PRESETS:
            raise Refusal(texts.UNKNOWN_PRESET, preset=preset, presets=", ".join(sorted(PRESETS)))
        ctx.say(texts.rules_text(ctx.lang, preset))

    async def _do_help(self, ctx: Context) -> None:
        loaded = await self._active(ctx)
        state = "none" if loaded is None else loaded.row.status
        ctx.effects.append(Say(texts.help_text(ctx.own, state), private=ctx.person))

    async def _do_settings(self, ctx: Context) -> None:
        args = list(ctx.command.args)
        if not args:
            ctx.tell(texts.settings_text(ctx.own, ctx.room.settings))
            return
        if not ctx.person.admin:
            raise Refusal(texts.ADMINS_ONLY)
        if len(args) < 2:
            raise Refusal(texts.SETTINGS_HOW)
        name, value = args[0].lower(), " ".join(args[1:])
        change = self._setting(name, value)
        settings = await self.store.people.change_settings(ctx.room.id, change)
        ctx.room = replace(ctx.room, settings=settings)
        self._rooms[(ctx.community.id, ctx.room.platform_id)] = (ctx.room, ctx.now)
        if name == "language":
            ctx.lang = language(value)
        ctx.say(texts.SETTING_CHANGED, name=name, value=value)

    def _setting(self, name: str, value: str) -> dict[str, Any]:
        if name == "language":
            if value not in LANGUAGES:
                raise Refusal(texts.BAD_LANGUAGE, languages=", ".join(LANGUAGES))
            return {"language": value}
        if name == "preset":
            if value not in PRESETS:
                raise Refusal(
                    texts.UNKNOWN_PRESET, preset=value, presets=", ".join(sorted(PRESETS))
                )
            return {"preset": value}
        if name == "theme":
            if value not in THEMES:
                raise Refusal(texts.BAD_THEME, themes=", ".join(THEMES))
            return {"theme": value}
        if name == "turn_timeout":
            if not value.isdigit() or not 15 <= int(value) <= 24 * 3600:
                raise Refusal(texts.BAD_TIMEOUT)
            return {"turn_timeout": int(value)}
        if name == "numerals":
            return {"numerals": value.lower() in ("on", "yes", "true", "1", "si", "sí", "sim")}
        raise Refusal(texts.UNKNOWN_SETTING, name=name)

    async def _do_top(self, ctx: Context) -> None:
        await standings.leaderboard(self.store, ctx)

    async def _do_stats(self, ctx: Context) -> None:
        await standings.player_stats(self.store, ctx)

    async def _do_forget(self, ctx: Context) -> None:
        if ctx.command.args != ("confirm",):
            ctx.effects.append(
                Say(
                    tr(ctx.own, texts.FORGET_ASK),
                    private=ctx.person,
                    buttons=(Button(tr(ctx.own, "Forget me"), "forget confirm"),),
                )
            )
            return
        await self.store.forget(ctx.user.id)
        self._users.pop((ctx.command.place.platform, ctx.person.platform_id), None)
        ctx.tell(texts.FORGOTTEN)

    # ----- timers ----------------------------------------------------------------------

    async def fire(self, timer: Timer, place: Any) -> list[Effect]:
        """Act on a due timer (already claimed by this process)."""
        return await self.handle(
            Command(
                place,
                Person("~system", "system", admin=True),
                "timer",
                (str(timer.id), timer.kind),
                game_id=timer.game_id,
            )
        )

    async def _do_timer(self, ctx: Context) -> None:
        timer_id, kind = ctx.command.args
        loaded = await self._active(ctx)
        if loaded is None or loaded.row.id != ctx.command.game_id:
            return  # the game ended meanwhile
        timers = {t.id: t for t in await self.store.timers.pending(ctx.room.id)}
        timer = timers.get(int(timer_id))
        if kind == "lobby" and loaded.game is None:
            await self._close(ctx, loaded, texts.LOBBY_EXPIRED)
        elif kind == "idle":
            await self._close(ctx, loaded, texts.IDLE_ENDED)
        elif kind == "next_hand" and loaded.game is not None and loaded.game.hand is None:
            await self._next_hand(ctx, loaded)
        elif kind == "clock" and loaded.game is not None:
            game = loaded.game
            game.expire_clock()
            ctx.say(texts.CLOCK_UP)
            await self._progress(ctx, loaded)
        elif kind in ("turn", "warning") and loaded.game is not None and timer is not None:
            if timer.version != loaded.row.version:
                return  # a move was made since: this timer is stale
            if kind == "warning":
                self._warn(ctx, loaded)
            else:
                await self._timeout_move(ctx, loaded)

    def _warn(self, ctx: Context, loaded: Loaded) -> None:
        game = loaded.game
        assert game is not None and game.to_move is not None
        seat = loaded.seats[game.to_move]
        left = max(0, round(loaded.meta.get("turn_due", ctx.now.timestamp()) - ctx.now.timestamp()))
        ctx.effects.append(
            Say(
                tr(
                    ctx.lang,
                    texts.HURRY,
                    name=self._name(seat, game.to_move, ctx.lang),
                    seconds=left,
                ),
                mention=(self._person(seat),),
            )
        )

    async def _timeout_move(self, ctx: Context, loaded: Loaded) -> None:
        game = loaded.game
        assert game is not None
        seat = game.to_move
        if seat is None or game.hand is None:
            return
        info = loaded.seats[seat]
        legal = game.legal_moves()
        move = (
            legal[0]
            if len(legal) == 1
            else await self._computer_move(
                replace(loaded, seats=[replace(s, bot=s.bot or "normal") for s in loaded.seats]),
                seat,
            )
        )
        info.timeouts += 1
        name = self._name(info, seat, ctx.lang)
        ctx.say(
            texts.TIMED_OUT,
            name=name,
            move=move_words(ctx.lang, move, self._names(loaded, ctx.lang)),
        )
        if info.timeouts >= loaded.rules.max_timeouts and info.user is not None:
            info.bot = "normal"
            ctx.say(texts.TAKEN_OVER, name=name)
        game.apply(move)
        await self._progress(ctx, loaded, made=[move])
