"""Playing: moves checked against legal_moves, forced and computer moves up to the
next person's turn, hand and game ends, results."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot import standings, texts
from bot.core import (
    IDLE_HOURS,
    MAX_HANDS,
    NEXT_HAND_SECONDS,
    NEXT_PAUSE_SECONDS,
    SYSTEM,
    WARNING_SHARE,
    Context,
    Loaded,
    Refusal,
    ServiceCore,
    log,
)
from bot.describe import describe_hand, move_words
from bot.model import Board, Button, Command, Hand, Person, Place, Say
from bot.seats import seat_of
from engine.errors import DominoError
from engine.limit import stop_at_limit
from engine.moves import Action, Move, parse_action
from engine.players import make_player
from engine.views import view_of
from lang import language, tr
from render.keys import move_keys
from storage.errors import StorageError
from storage.people import User
from storage.timers import ALL, TimerPlan


class Play(ServiceCore):
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
        if game.outcome is None and not any(s.human for s in loaded.seats[: game.players]):
            # nobody left to play for: computer players alone would play on forever
            await self._close(ctx, loaded, texts.NOBODY_LEFT)
            return
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
        tied_at_limit = False
        if hand_over and game.outcome is None and view_of(game).hand_number >= MAX_HANDS:
            tied_at_limit = not stop_at_limit(game)
        game_over = game.outcome is not None
        loaded.meta.pop("turn_due", None)
        new_status = "finished" if game_over else "cancelled" if tied_at_limit else status
        loaded.meta["last_ply"] = game.ply
        if hand_over:
            loaded.meta["hand_over_at"] = ctx.now.timestamp()
        else:
            self._turn_timers_meta(ctx, loaded)
        plan = self._timer_plan(ctx, loaded, hand_over, game_over or tied_at_limit, clock)
        await self._save(ctx, loaded, status=new_status, timers=plan)
        names = self._names(loaded, ctx.lang)
        said = [
            texts.move_line(ctx.lang, names[m.seat], move_words(ctx.lang, m, names), m)
            for m in made
        ]
        room_view = view_of(game)
        caption = "\n".join(said[-6:])
        buttons = self._board_buttons(ctx, loaded)
        ctx.effects.append(
            Board(
                loaded.row.id,
                game.ply,
                room_view,
                self._table(ctx, loaded),
                caption,
                buttons,
                final=game_over or tied_at_limit,
            )
        )
        if hand_over:
            ctx.effects.append(Say(self._hand_summary(ctx, loaded)))
        if game_over and game.outcome is not None and game.outcome.reason == "limit":
            ctx.say(texts.LIMIT_REACHED, hands=MAX_HANDS)
        if tied_at_limit:
            ctx.say(texts.LIMIT_TIED, hands=MAX_HANDS)
            return
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
            for key, m in move_keys(view.legal_moves)
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

    async def _computer_move(self, loaded: Loaded, seat: int, strength: str | None = None) -> Move:
        """The move of the seat's computer player (or one of ``strength``, playing for a
        person whose time ran out); a hard one thinks off the event loop."""
        game = loaded.game
        assert game is not None
        strength = strength or loaded.seats[seat].bot or "normal"
        player = make_player(strength, seed=game.ply * 8 + seat)
        view = view_of(game, seat)
        if strength == "hard":
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
        cancel = ["turn", "warning", "next_hand", "lobby"]
        sets: list[tuple[str, datetime, dict[str, Any]]] = []
        if ctx.person is not SYSTEM:
            # only people's actions keep a game alive: computer players and timers alone
            # leave its idle timer running
            cancel.append("idle")
            sets.append(("idle", ctx.now + timedelta(hours=IDLE_HOURS), {}))
        if clock is not None:
            sets.append(("clock", clock, {}))
        if hand_over:
            sets.append(("next_hand", ctx.now + timedelta(seconds=NEXT_HAND_SECONDS), {}))
            return TimerPlan(tuple(cancel), tuple(sets))
        game = loaded.game
        assert game is not None
        timeout = self._timeout(ctx, loaded)
        payload = {"seat": game.to_move}
        sets.append(("turn", ctx.now + timedelta(seconds=timeout), payload))
        warn = ctx.now + timedelta(seconds=timeout - timeout // WARNING_SHARE)
        sets.append(("warning", warn, payload))
        return TimerPlan(tuple(cancel), tuple(sets))

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
        if game.hand is None and game.outcome is None:
            # a hand's end stays on the table a moment: presses cannot deal hand after hand
            left = loaded.meta.get("hand_over_at", 0) + NEXT_PAUSE_SECONDS - ctx.now.timestamp()
            if left > 0:
                raise Refusal(texts.NEXT_TOO_SOON, seconds=max(1, round(left)))
        await self._next_hand(ctx, loaded)

    async def _next_hand(self, ctx: Context, loaded: Loaded) -> None:
        game = loaded.game
        assert game is not None
        if game.hand is not None:
            raise Refusal(texts.HAND_GOING)
        if game.outcome is not None:
            raise Refusal(texts.GAME_OVER)
        game.start_hand(seed=self.seeds())
        ctx.say(texts.NEW_HAND, number=game.hand_number)
        await self._progress(ctx, loaded, fresh_hand=True)

    async def _finish(self, ctx: Context, loaded: Loaded) -> None:
        """The game is over (and saved so): write its results and ratings, and say how
        it ended. Results that fail to be written now are written by :meth:`settle`."""
        game = loaded.game
        assert game is not None and game.outcome is not None
        changes: dict[int, tuple[float, float]] = {}
        counted = standings.counted(loaded.seats)
        if counted:
            try:
                changes = await standings.record_results(self.store, ctx, loaded, game)
            except StorageError as error:
                log.warning("results of game %s left for later: %s", loaded.row.id, error)
        names = self._names(loaded, ctx.lang)
        summary = texts.game_summary(ctx.lang, game, names, changes, loaded.seats)
        if not counted:
            summary += "\n" + tr(ctx.lang, texts.NOT_COUNTED)
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
            if not standings.counted(loaded.seats):
                continue
            ctx = Context(
                Command(
                    Place(community.platform, community.platform_id, room.platform_id),
                    SYSTEM,
                    "timer",
                ),
                community,
                room,
                User(0, community.platform, SYSTEM.platform_id, SYSTEM.name, None, False),
                "en",
                "en",
                row.finished_at or self.clock(),
            )
            await standings.record_results(self.store, ctx, loaded, loaded.game)
            done += 1
        return done
