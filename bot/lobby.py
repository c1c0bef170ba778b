"""The lobby: opening a game, taking and leaving seats, computer players, beginning
and cancelling."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot import texts
from bot.core import (
    LOBBY_MINUTES,
    Context,
    Loaded,
    Refusal,
    ServiceCore,
)
from bot.model import Button, Say
from bot.seats import STRENGTHS, Seat, seat_of, seats_json
from engine.errors import DominoError
from engine.game import Game
from engine.rules import PRESETS, Rules
from lang import tr
from storage.timers import ALL, TimerPlan


class Lobby(ServiceCore):
    async def _do_new(self, ctx: Context) -> None:
        if await self._active(ctx) is not None:
            raise Refusal(texts.ALREADY_OPEN)
        settings = ctx.room.settings
        args = list(ctx.command.args)
        preset = settings.get("preset", "partnership")
        options: dict[str, Any] = dict(settings.get("options", {}))
        if args and not args[0].isdigit():
            preset = args.pop(0).lower()
        if preset not in PRESETS:
            raise Refusal(texts.UNKNOWN_PRESET, preset=preset, presets=", ".join(sorted(PRESETS)))
        if args:
            if not args[0].isdigit():
                raise Refusal(texts.BAD_TARGET, text=args[0])
            # Mexican Train has no target: its number is how many rounds to play
            trains = PRESETS[preset].get("family") == "train"
            options["rounds" if trains else "target"] = int(args[0])
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
