"""Looking and the rest: hand, board, score, export, rules, help, settings,
leaderboards and records, forget me."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import standings, texts
from bot.core import (
    Context,
    Refusal,
    ServiceCore,
)
from bot.model import Button, File, Say
from bot.seats import seat_of
from engine.rules import PRESETS
from lang import LANGUAGES, language, tr
from render.theme import THEMES
from storage.errors import NotFound
from storage.games import GameRow


class Looking(ServiceCore):
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
        ctx.effects.append(self._board_as_it_is(ctx, loaded, repost=True))

    async def _do_score(self, ctx: Context) -> None:
        loaded = await self._require(ctx)
        game = loaded.game
        assert game is not None
        ctx.say(texts.score_text(ctx.lang, game, self._names(loaded, ctx.lang)))

    async def _do_export(self, ctx: Context) -> None:
        """The record of a game of this room: the one in play or the latest over, or the
        one named by its id. Of a game in play, only what the room has seen: the hands
        already finished, whole, and nothing of the hand in play (RECORD.md)."""
        row = await self._exported_row(ctx)
        if row.status == "lobby":
            raise Refusal(texts.NOTHING_TO_EXPORT)
        record = await self.store.games.record(row.id)
        message = texts.EXPORTED
        if row.status == "playing":
            game = self._loaded(row).game
            if game is not None and game.hand is not None:  # the hand in play stays hidden
                record = dict(record, hands=record["hands"][:-1])
            message = texts.EXPORTED_SO_FAR
        data = texts.record_bytes(record)
        ctx.effects.append(File(f"domino-{row.id}.json", data, tr(ctx.lang, message)))

    async def _exported_row(self, ctx: Context) -> GameRow:
        args = ctx.command.args
        if not args:
            row = await self.store.games.active_in(ctx.room.id)
            row = row or await self.store.games.latest_over_in(ctx.room.id)
            if row is None:
                raise Refusal(texts.NO_GAME)
            return row
        text = args[0].lstrip("#")
        if not text.isdigit() or len(text) > 12:
            raise Refusal(texts.BAD_GAME_NUMBER, text=args[0])
        try:
            row = await self.store.games.load(int(text))
        except NotFound:
            row = None
        if row is None or row.room_id != ctx.room.id:  # another room's games stay theirs
            raise Refusal(texts.NO_SUCH_GAME_HERE, number=text)
        return row

    async def _do_rules(self, ctx: Context) -> None:
        preset = ctx.command.args[0] if ctx.command.args else None
        if preset is None:  # the game on the table, else the room's default
            loaded = await self._active(ctx)
            default = ctx.room.settings.get("preset", "partnership")
            preset = loaded.rules.preset if loaded is not None else default
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
        if await self.store.people.playing(ctx.user.id):
            # a seat must keep who sits in it until the game is over
            raise Refusal(texts.FORGET_PLAYING)
        await self.store.forget(ctx.user.id)
        self._users.pop((ctx.command.place.platform, ctx.person.platform_id), None)
        ctx.tell(texts.FORGOTTEN)
