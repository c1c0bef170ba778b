"""Timers firing: warnings, automatic moves and takeovers, next hands, expired lobbies
and idle games, the game clock."""

from __future__ import annotations

from typing import Any

from bot import texts
from bot.core import (
    SYSTEM,
    Context,
    Loaded,
    ServiceCore,
)
from bot.describe import move_words
from bot.model import Command, Effect, Place, Say
from lang import tr
from storage.timers import Timer


class Timed(ServiceCore):
    async def fire(self, timer: Timer, place: Any) -> list[Effect]:
        """Act on a due timer (already claimed by this process)."""
        return await self.handle(
            Command(
                place,
                SYSTEM,
                "timer",
                (timer.kind, str(timer.version if timer.version is not None else "")),
                game_id=timer.game_id,
            )
        )

    async def resume(self, platform: str) -> list[tuple[Place, list[Effect]]]:
        """After a restart: the board, and the hand of the person to move, of every game
        in play on ``platform`` whose board message does not show its latest move (the
        process stopped between saving a move and showing it). A board that shows it
        gets nothing: a second restart sends nothing again."""
        found: list[tuple[Place, list[Effect]]] = []
        for row in await self.store.games.playing_on(platform):
            post = await self.store.posts.find(row.room_id, "board")
            if post is not None and post.game_id == row.id and post.move_number == row.plies:
                continue
            place = await self.place_of_room(row.room_id)
            command = Command(place, SYSTEM, "timer", ("resume", ""), game_id=row.id)
            found.append((place, await self.handle(command)))
        return found

    async def _do_timer(self, ctx: Context) -> None:
        kind, version = ctx.command.args
        loaded = await self._active(ctx)
        if loaded is None or loaded.row.id != ctx.command.game_id:
            return  # the game ended meanwhile
        if kind == "resume" and loaded.game is not None:
            self._show_again(ctx, loaded)
        elif kind == "lobby" and loaded.game is None:
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
        elif kind in ("turn", "warning") and loaded.game is not None:
            if version != str(loaded.row.version):
                return  # a move was made since: this timer is stale
            if kind == "warning":
                self._warn(ctx, loaded)
            else:
                await self._timeout_move(ctx, loaded)

    def _show_again(self, ctx: Context, loaded: Loaded) -> None:
        game = loaded.game
        assert game is not None
        ctx.effects.append(self._board_as_it_is(ctx, loaded))
        if game.to_move is not None:
            self._hand_for(ctx, loaded, game.to_move)

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
        move = legal[0] if len(legal) == 1 else await self._computer_move(loaded, seat, "normal")
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
