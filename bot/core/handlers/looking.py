"""Looking: a seat's hand, the board, the score, the record, the rules, help."""

from __future__ import annotations

from bot.core import house_rules, opening, texts
from bot.core.handlers.lobby import DEFAULT_PRESET, unknown_preset
from bot.core.model import File, Reply
from bot.core.progress import turn_time
from bot.core.records_seen import record_as_seen
from bot.core.registry import handles
from bot.core.session import Refusal, Session
from bot.core.showing import board_as_it_is, names_of
from engine.presets import preset_names
from lang import tr
from storage.errors import NotFound
from storage.games import GameRow

LONGEST_GAME_NUMBER = 12  # digits: more is not a game number


@handles("hand")
async def hand(session: Session) -> None:
    """The person's tiles and moves, to them alone."""
    game = session.game
    if game.hand is None:
        raise Refusal(texts.BETWEEN_HANDS if game.outcome is None else texts.GAME_OVER)
    opening.hand_asked(session, session.loaded, session.my_seat)  # "I open" while choosing


@handles("board")
async def board(session: Session) -> None:
    """The board posted again, at the bottom of the room."""
    loaded = session.loaded
    session.effects.append(opening.noticed(session, loaded, board_as_it_is(session, loaded, True)))


@handles("score")
async def score(session: Session) -> None:
    """The score of each side, and the target."""
    session.say(
        texts.score_text(session.lang, session.game, names_of(session.loaded, session.lang))
    )


@handles("export")
async def export(session: Session) -> None:
    """The record of a game of this room: the one in play or the latest over, or the
    one named by its id. Of a game in play, only what the room has seen: the hands
    already finished, whole, and nothing of the hand in play; of a game over in the
    middle of a hand, that hand's moves (RECORD.md, docs/records.md)."""
    found = await exported_row(session)
    # read again with its record, at once: another process may deal or move meanwhile
    row, record = await record_as_seen(session.store, session.desk, found.id)
    if row.status == "lobby":
        raise Refusal(texts.NOTHING_TO_EXPORT)
    message = texts.EXPORTED_SO_FAR if row.status == "playing" else texts.EXPORTED
    data = texts.record_bytes(record)
    session.effects.append(File(f"domino-{row.id}.json", data, tr(session.lang, message)))


async def exported_row(session: Session) -> GameRow:
    games = session.store.games
    if not session.args:
        row = await games.active_in(session.room.id)
        row = row or await games.latest_over_in(session.room.id)
        if row is None:
            raise Refusal(texts.NO_GAME)
        return row
    typed = session.args[0]
    text = typed.lstrip("#")
    if not text.isdecimal() or len(text) > LONGEST_GAME_NUMBER:
        raise Refusal(texts.BAD_GAME_NUMBER, text=typed)
    try:
        found: GameRow | None = await games.load(int(text))
    except NotFound:
        found = None
    if found is None or found.room_id != session.room.id:  # another room's games stay theirs
        raise Refusal(texts.NO_SUCH_GAME_HERE, number=text)
    return found


@handles("rules")
async def rules(session: Session) -> None:
    """The rules in force, generated from the engine's options (bot/core/house_rules.py): of
    the game on the table, or of the preset named (the table's game when it is that
    preset), with the room's house rules for it."""
    named = session.args[0].lower() if session.args else None
    loaded = await session.active()
    if loaded is not None and named in (None, loaded.rules.preset):
        in_force = loaded.rules
    else:
        preset = named or session.room.settings.preset or DEFAULT_PRESET
        if preset not in preset_names():
            raise unknown_preset(preset)
        in_force = house_rules.room_rules(session.room.settings, preset)
    untimed = turn_time(session, in_force) is None  # (the console's rooms, or off)
    session.say(house_rules.rules_text(session.lang, in_force, untimed))


@handles("help")
async def help_(session: Session) -> None:
    """What can be done now, to the person alone."""
    loaded = await session.active()
    state = "none" if loaded is None else loaded.row.status
    session.effects.append(Reply(texts.help_text(session.own, state), private=session.person))
