"""What the bot says: message ids (English, translated in lang/locales/) and the longer
texts made of them (summaries, help, rules, settings)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.core.ratings import shown_rating
from engine.game import Game
from engine.outcome import HandResult
from engine.presets import preset_names
from lang import N_, NP_, tr
from render.words import goal_text

DATABASE_DOWN = N_("The database is not answering. Nothing was changed; try again in a moment.")
NOTHING_CHANGED = N_("Something went wrong on our side. Nothing was changed; try again.")
BUSY = N_("The table is busy. Try again in a moment.")
GAME_SET_ASIDE = N_(
    "Game #{number} could not be read from storage, so it was set aside for the operator"
    " to look into. The room is free: /new opens another game."
)
SET_ASIDE_GAME = N_("Game #{number} was set aside: it could not be read from storage.")
SETTINGS_SET_ASIDE = N_(
    "This room's settings could not be read from storage; they were set aside for the"
    " operator, and the default settings apply. Admins can choose them again with /settings."
)
ROOM_ONLY = N_("That is done in the room where the game is played, not here.")
UNKNOWN_COMMAND = N_("I do not know the command '{command}'. Try /help.")
NO_GAME = N_("There is no game in this room. Open one with /new.")
NOT_BEGUN = N_("The game has not begun yet. Join with /join; the creator starts with /begin.")
STALE = N_("That button belongs to an earlier moment of the game. Here is how things are now.")
ALREADY_OPEN = N_("A game is already open here. Join it with /join, or end it with /cancel.")
BAD_TARGET = N_("'{text}' is not a number of points.")
UNKNOWN_PRESET = N_("There is no game called '{preset}'. The games are: {presets}.")
BAD_OPTIONS = N_("The room's options do not fit {preset}; change them with /settings.")
LOBBY_OPEN = N_("New game of {preset}. Who plays?")
LOBBY = N_("Game of {preset}:")
LOBBY_NEEDS = N_("It takes {least} to {most} players. Join, or add computers.")
LOBBY_NEEDS_EXACTLY = N_("It takes {n} players. Join, or add computers.")
LOBBY_READY = N_("Ready: the creator can begin.")
BACK = N_("{name} is back at the table.")
ALREADY_BEGUN = N_("The game has already begun.")
ALREADY_SEATED = N_("You already sit in seat {seat}.")
TABLE_FULL = N_("Every seat is taken.")
SEAT_TAKEN = N_("Seat {seat} is taken.")
BAD_SEAT = N_("'{text}' is not a seat; choose from 1 to {most}.")
NOT_SEATED = N_("You have no seat in this game.")
LOBBY_CLOSED = N_("Everybody left; the game is closed.")
LEFT = N_("{name} left the table; a computer player takes the seat until they /join again.")
BAD_STRENGTH = N_("'{text}' is not a computer player; choose easy, normal or hard.")
KICK_WHICH = N_("Which seat? For example: /kick 3")
KICK_ONLY_COMPUTERS = N_("Seat {seat} is not a computer player; only those can be removed.")
CREATOR_ONLY = N_("Only the player who opened the game can do that.")
CANNOT_DEAL = N_(
    "{players} players cannot be dealt this game: {each} tiles each take {needed}, and the "
    "set has {tiles}. Begin with fewer players, or change hand_size with /rule."
)
NEED_PLAYERS = N_(
    "It takes at least {least} players. Add computers, or begin with empty seats filled: /begin fill"
)
BEGUN = N_("The game of {preset} begins. Good luck!")
LONG_GAME = N_(
    "This game may never end: simulated games of {preset} to {target} with {players} players "
    "took more than {longest} hands on average. To end sooner: /cancel, then {ways}"
)
LONG_GAME_LOWER = N_(
    "This game may never end: simulated games of {preset} to {target} with {players} players "
    "took more than {longest} hands on average. To end sooner: /cancel, then open it with a "
    "lower target."
)
CANCELLED = N_("{name} cancelled the game. It counts for nobody.")
CANNOT_DRAW = N_("You cannot draw now.")
CANNOT_PASS = N_("You cannot pass: you have a tile to play.")
CANNOT_END = N_("There is no turn to end now.")
AWAY = N_("A computer player has your seat after your timeouts. Use /join to take it back.")
BETWEEN_HANDS = N_("The hand is over; the next one starts in a moment (or press Next hand).")
GAME_OVER = N_("The game is over.")
NOT_YOUR_TURN = N_("It is {name}'s turn, not yours.")
PLAY_WHAT = N_("Which tile? For example: /play 6-4, or /play 6-4 on 6-6")
BAD_MOVE = N_("'{text}' is not a move. Write a tile like 6-4, or 6-4 on 6-6.")
# a move's number typed (alone, or after /play) that is none of the listed moves'
NO_SUCH_MOVE = N_("There is no move {number} in your list. /hand shows your moves, numbered.")
CANNOT_DO = N_("You cannot do '{text}' now.")
NOT_YOUR_TILE = N_("You do not have {tile}.")
DOES_NOT_FIT = N_("{tile} does not go there. You can play: {moves}")
WHERE = N_("Where does {tile} go?")
CHOOSE_ONE = N_("Choose one of the places above.")
YOUR_TURN = N_("{name}, your turn ({seconds} s).")
YOUR_TURN_UNTIMED = N_("{name}, your turn.")  # the room gives turns no timer
NO_TURN_TIMER = N_("none, each turn waits for its player (/settings turn_timeout 60 gives one)")
NO_TURN_TIMER_SHORT = N_("no timer")
# ----- between hands: Next pressed (bot/core/between_hands.py) -----------------------------
NO_HAND_OVER = N_("No hand has ended yet: Next hand deals the next one once this hand is over.")
ALREADY_DEALT = N_("Hand {number} is already dealt: it is being played.")
NEXT_HAND_IN = N_("Next hand in {seconds} s, or as soon as everyone presses Next hand.")
READY = N_("{name} is ready for the next hand ({ready}/{people}).")
READY_ALREADY = N_(
    "You are ready already ({ready}/{people}); the next hand comes in {seconds} s at the most."
)
ALL_READY = N_("Everyone is ready: the next hand comes in {seconds} s.")
NOBODY_LEFT = N_("Nobody is left at the table; the game ends without a result.")
LIMIT_REACHED = N_("That was hand {hands}, the most a game lasts: it ends with the score as it is.")
LIMIT_TIED = N_(
    "That was hand {hands}, the most a game lasts, and the lead is tied: the game ends without a result."
)
NEW_HAND = N_("Hand {number}.")
EXPORTED = N_("The game record (python -m engine replay reads it).")
EXPORTED_SO_FAR = N_(
    "The record of the hands finished so far; the hand in play is added once it is over."
)
NOTHING_TO_EXPORT = N_("The game has not begun: there is nothing to export yet.")
BAD_GAME_NUMBER = N_("'{text}' is not a game number.")
NO_SUCH_GAME_HERE = N_("There is no game {number} in this room.")
ROOM_ADMINS_ONLY = N_("Only room admins can change the settings.")
SETTINGS_HOW = N_("Write the setting and its value, for example: /settings language en")
SETTING_CHANGED = N_("Setting {name} is now {value}.")
# each setting's change in words (issue 33, 13: "Ahora language es es")
SETTINGS_CHANGED = {
    "language": N_("This room speaks {value} now."),
    "preset": N_("New games here are {value} now."),
    "theme": N_("The pictures are drawn in the {value} theme now."),
    "turn_timeout": N_("Each turn has {value} seconds now."),
    "turn_timeout:off": N_("Turns have no timer now: each waits for its player."),
    "hand_pause": N_("A hand's end stays {value} seconds now, or until everyone presses Next."),
    "numerals:on": N_("Tiles show numbers instead of pips now."),
    "numerals:off": N_("Tiles show pips now."),
}
# each language by its own name, as its speakers look for it in a list
LANGUAGE_NAMES = {"es": "español", "en": "English", "pt": "português"}
BAD_LANGUAGE = N_("The languages are: {languages}.")
BAD_THEME = N_("The themes are: {themes}.")
ON_OR_OFF = N_("{name} is on or off.")
# the community's web pages (issue 34: ``/settings web on|off|new``)
WEB_HOW = N_(
    "The web pages: /settings web on, /settings web off, or /settings web new"
    " (new addresses; the old ones stop working)."
)
WEB_CHANGED = {
    "on": N_("This community's web pages are on."),
    "off": N_(
        "This community's web pages are off: their addresses show nothing until /settings web on."
    ),
    "new": N_("This community's web pages have new addresses: the old ones show nothing now."),
}
# the links to the web pages (issue 34), with a game's board, its summary, a tournament's
# messages (bot/core/links.py)
WATCH = N_("Watch")
REPLAY = N_("Replay")
STANDINGS_PAGE = N_("Standings")
BAD_TIMEOUT = N_(
    "The turn timeout is a number of seconds from 15 to 86400, or off (turns wait for their player)."
)
BAD_HAND_PAUSE = N_(
    "The hand pause is how many seconds a hand's end stays before the next deal: a whole "
    "number from {low} to {high} (everyone pressing Next hand deals sooner)."
)
UNKNOWN_SETTING = N_("There is no setting '{name}'. Settings: {names}.")
FORGET_ASK = N_(
    "This erases your name from this bot: leaderboards will show your results without it. Are you sure?"
)
FORGET_PLAYING = N_("You sit in a game that is not over yet: ask again once it has ended.")
FORGOTTEN = N_("Done: your name is gone. Your results stay, anonymous.")
LOBBY_EXPIRED = N_("Nobody began the game in time; it is closed.")
IDLE_ENDED = N_("The game was left idle for too long; it is closed without a result.")
CLOCK_UP = N_("Time is up on the game clock.")
HURRY = N_("{name}, {seconds} seconds left to play.")
TIMED_OUT = N_("{name} ran out of time: {move} was played for them.")
TAKEN_OVER = N_("{name} timed out too often; a computer player takes the seat. /join to come back.")
DEFAULTS = N_("This room uses the defaults. Admins change them with /settings <name> <value>.")
NO_RESULTS = N_("No games finished here yet.")
NOT_COUNTED = N_("This game does not count on the leaderboard: it takes two people or more.")
BAD_PERIOD = N_("The periods are: week, month, all.")
BAD_TOP = N_(
    "/top takes a kind of game (partnership, individual, divisor, train), a game (a preset's"
    " name), pairs, and a period (week, month, all)."
)
NO_PAIRS = N_("No partnership games of two pairs of people finished here yet.")
PAIRS_LEADERBOARD = N_("Leaderboard · pairs in partnership games")
RATINGS_EXPLAINED = N_(
    "Ratings start at {start}: wins raise them, more against stronger players, and they"
    " settle as you play more games."
)
OTHER_BOARDS = N_("Also: /top partnership · individual · divisor · train · pairs · week · month")
UNKNOWN_PLAYER = N_("I do not know {name} here.")
NO_GAMES_YET = N_("{name} has no finished games here yet.")
# ----- house rules (bot/core/house_rules.py) -----------------------------------------------
UNKNOWN_OPTION = N_("There is no option '{name}' in {preset}. Its options: {names}.")
BAD_VALUE = N_("'{text}' is not a value of {name}. Its values: {values}.")
BAD_NUMBER_VALUE = N_("'{text}' is not a value of {name}: a whole number from {low} to {high}.")
BAD_NUMBER_OR_OFF = N_(
    "'{text}' is not a value of {name}: a whole number from {low} to {high}, or off."
)
NOT_AN_ASSIGNMENT = N_(
    "'{text}' is not an option: write name=value, for example blocked_tie=nobody."
)
OPTION_DOES_NOT_FIT = N_(
    "{option} does not fit {preset} with these rules. {name} can be: {values}."
)
DO_NOT_GO_TOGETHER = N_(
    "These options do not go together in {preset}: {options}. Change one of them."
)
TWO_NUMBERS = N_("Write one number after the game: '{text}' is a second one.")

COUNT_ROUNDS_LOW = NP_("{n} round; the lowest total wins.", "{n} rounds; the lowest total wins.")
COUNT_ROUNDS_HIGH = NP_("{n} round; the highest total wins.", "{n} rounds; the highest total wins.")

COUNT_ONE_HAND = N_("One hand decides the game.")
COUNT_HANDS = N_("Hands to play: {n}; the highest score wins.")
COUNT_TARGET_HIGHEST = N_(
    "To {target} points: hands are played until someone reaches them; the highest score wins."
)
COUNT_TARGET_TEAM_LOSES = N_(
    "To {target} points: the losing team writes its own pips, and the team that reaches {target} loses."
)
COUNT_TARGET_LOSES = N_(
    "To {target} points: each loser writes their own pips, and whoever reaches {target} loses."
)
COUNT_TARGET_WINS = N_("To {target} points: the first to reach them wins.")
COUNT_CLOCK = NP_("Game clock: {minutes} minute.", "Game clock: {minutes} minutes.")
SET_OF = N_("double-{n} set")
HOUSE_MARK = N_("✱ a house rule of this game (the preset says otherwise).")
HOUSE_RULES = N_("House rules:")
RULE_MENU = N_("Rules of this game: press one to change it (or type /rule <option> <value>).")
RULE_VALUES = N_("{title}: {about}\nNow: {value}. Choose:")
RULE_TYPE_NUMBER = N_("Or type /rule {name} <number> (from {low} to {high}).")
RULE_SEAT_TAKEN = N_("With {option} the table has {n} seats, and seat {seat} is taken.")
ROOM_HOUSE_RULES = N_("New games of {preset} here start with:")
SETTINGS_OPTIONS_HOW = N_(
    "Write the game and its options, for example: /settings options partnership blocked_tie=nobody (or reset)."
)
SETTINGS_OPTIONS_SET = N_("New games of {preset} here start with: {options}.")
SETTINGS_OPTIONS_RESET = N_("New games of {preset} here start with the preset's own rules.")
_FAMILY_NAMES = (N_("partnership"), N_("line"), N_("divisor"), N_("train"))

_HELP = {
    "none": N_(
        "No game here. /new [game] [points] [option=value ...] opens one; /rules explains a game; /top shows the leaderboard; /stats your record; /settings the room's defaults."
    ),
    "lobby": N_(
        "A game is waiting for players: /join [seat] to sit, /leave to stand up, /add_ai [easy|normal|hard] and /kick <seat> for computer players, /rule to change the rules, /begin (or /begin fill) to start, /cancel to close it."
    ),
    "playing": N_(
        "A game is on: /hand shows your tiles and moves, /play <tile> [on <tile>] plays, /draw and /pass when you must, /open when your team chooses who opens, /board and /score show the table and the sheet, /export the record, /cancel ends it."
    ),
}


# a tournament's table in its lobby: the seats are kept for its players (issue 22)
TABLE_WAITS = N_("The seats are kept for this table's players. Waiting for {names}: press Join.")
# the leaderboard's title when it has a rating column, by the family the ratings are of
# (bot/core/standings.py FAMILIES)
RATED_LEADERBOARD = {
    "partnership": N_("Leaderboard · ratings in partnership games"),
    "line": N_("Leaderboard · ratings in individual games"),
    "divisor": N_("Leaderboard · ratings in counting games"),
    "train": N_("Leaderboard · ratings in Mexican Train"),
}


def preset_name(lang: str, preset: str) -> str:
    return tr(lang, preset_names().get(preset, preset))


def side_names(game: Game, names: Sequence[str]) -> list[str]:
    """Each side's name: a player's, or partners' together ("Ana / Carla")."""
    return [" / ".join(names[s] for s in side) for side in game.rules.side_seats(game.players)]


def hand_summary(lang: str, game: Game, result: HandResult | None, names: Sequence[str]) -> str:
    if result is None:
        return ""
    sides = side_names(game, names)
    if result.end == "void":
        head = tr(lang, "The hand is void: the game clock ran out.")
    elif result.winner is None:
        head = tr(lang, "Blocked hand, tied: nobody scores.")
    elif result.end == "domino":
        head = tr(lang, "Domino! {side} wins the hand.", side=sides[result.winner])
    else:
        head = tr(lang, "Blocked! {side} wins the hand.", side=sides[result.winner])
    lines = [head]
    for side, points in enumerate(result.points):
        if points:
            lines.append(tr(lang, "{side}: {points} points", side=sides[side], points=points))
    lines.append(score_text(lang, game, names))
    return "\n".join(lines)


def score_text(lang: str, game: Game, names: Sequence[str]) -> str:
    sides = side_names(game, names)
    scores = ", ".join(f"{sides[i]} {s}" for i, s in enumerate(game.live_scores))
    goal = goal_text(game.rules, game.hand_number, lang)
    return tr(lang, "Score: {scores} ({goal}).", scores=scores, goal=goal)


def game_summary(
    lang: str,
    game: Game,
    names: Sequence[str],
    changes: dict[int, tuple[float, float]],
    seats: Sequence[Any],
) -> str:
    outcome = game.outcome
    assert outcome is not None
    sides = side_names(game, names)
    lines = [tr(lang, "Game over: {side} wins!", side=sides[outcome.winner])]
    lines.append(score_text(lang, game, names))
    for seat, info in enumerate(seats[: game.players]):
        if info.user in changes:
            before, after = changes[info.user]
            lines.append(
                tr(
                    lang,
                    "{name}: rating {before} → {after}",
                    name=names[seat],
                    before=shown_rating(before),
                    after=shown_rating(after),
                )
            )
    return "\n".join(lines)


def record_bytes(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


# said after the help of a game in play: a move's number is a move (issue 33)
HELP_NUMBER = N_("On your turn, typing a move's number as your hand lists it plays that move.")


def help_text(lang: str, state: str) -> str:
    """What can be done now (its commands named in ``lang``, as tr() names them)."""
    text = tr(lang, _HELP.get(state, _HELP["none"]))
    return f"{text}\n{tr(lang, HELP_NUMBER)}" if state == "playing" else text


def settings_text(lang: str, settings: dict[str, Any], house: dict[str, list[str]]) -> str:
    """The room's settings, and its house rules per preset (``house``: each preset's
    options already in words)."""
    shown = ", ".join(f"{k}={v}" for k, v in sorted(settings.items()) if k != "options")
    if not shown and not house:
        return tr(lang, DEFAULTS)
    lines = [tr(lang, "Room settings: {settings}", settings=shown)] if shown else []
    for preset, options in house.items():
        lines.append(tr(lang, ROOM_HOUSE_RULES, preset=preset_name(lang, preset)))
        lines += [f"• {option}" for option in options]
    return "\n".join(lines)
