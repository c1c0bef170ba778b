"""Who opens a later hand of a partnership game when the team that won the last one
chooses (``next_opener = choose``, RULES.md "Later hands").

While the engine offers the choice (``Game.opener_choices()``: more than one seat, no move
made yet), each partner of the winning team gets their new hand privately with an
"I open" button (the ``open`` command); they see their own tiles and nothing of each
other's. The first claim opens (``Game.choose_opener``). A computer partner judges from
its own hand (``engine.players.opening_claim``) and, when it does not claim, waits for its
human partner. With no claim in :data:`CHOICE_SECONDS` the seat dealt as opener (the
``winner`` rule's, ``game.to_move``) opens: the stored ``opening`` timer ends the choice,
so a restart during it still ends it. A person who opens by default may simply play a
tile; a computer that opens by default waits for the choice to end.

The choice is a note in the game's stored notes (``GameNotes.choosing``: the hand and when
it ends), so it outlives the process.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.core.model import Board, Button, Hand, Person, TurnCall
from bot.core.session import Loaded, Refusal, Session
from bot.core.showing import hand_for, name_of, names_of, person_of
from bot.core.texts import AWAY
from engine.players import opening_claim
from lang import N_, language, tr
from storage.notes import Choosing

CHOICE_SECONDS = 20  # RULES.md: with no claim in 20 s the winner rule decides
TIMER = "opening"  # the stored timer that ends the choice

I_OPEN = N_("I open")
CHOOSING = N_("Team {team} chooses who opens ({seconds} s)")
CHOOSING_CALL = N_(
    "{names}: your team chooses who opens. Press I open under your hand within {seconds} s;"
    " if nobody does, {name} opens."
)
CHOOSE_ASK = N_(
    "Your team chooses who opens this hand (your partner sees only their own tiles, as you"
    " do). Press I open to open; if nobody claims it within {seconds} s, {name} opens."
)
CHOOSE_DEFAULT = N_(
    "Your team chooses who opens this hand (your partner sees only their own tiles, as you"
    " do). If nobody claims it within {seconds} s, you open: play a tile now, or press I open."
)
OPENS = N_("{name} opens.")
OPENS_UNCLAIMED = N_("Nobody claimed the opening in time: {name} opens.")
OPEN_DECIDED = N_("Who opens this hand is already decided; nothing changed.")
OPEN_NOT_YOURS = N_("Only team {team} chooses who opens this hand.")
OPEN_FIRST = N_("Your team is choosing who opens: press I open (or /open) to open this hand.")


def choosing(loaded: Loaded) -> Choosing | None:
    """The choice under way in the hand in play (its note), or None: no choice now."""
    game = loaded.game
    mark = loaded.notes.choosing
    if mark is None or game is None or game.hand is None:
        return None
    if mark.hand != game.hand_number or len(game.opener_choices()) < 2:
        return None
    return mark


def seconds_left(session: Session, mark: Choosing) -> int:
    return max(0, round(mark.until - session.now.timestamp()))


def team_name(loaded: Loaded, seats: tuple[int, ...], lang: str) -> str:
    """The choosing team as the room calls it: "Ana / Carla"."""
    names = names_of(loaded, lang)
    return " / ".join(names[s] for s in seats)


def hold(session: Session, loaded: Loaded, fresh_hand: bool) -> bool:
    """Before any move of the hand in play is made for a computer: start the choice of a
    freshly dealt hand, let the computer partners judge, end a choice that is over. True
    while the team is choosing (nothing is to be played for anyone meanwhile)."""
    game = loaded.game
    assert game is not None
    notes = loaded.notes
    mark = notes.choosing
    if mark is not None and choosing(loaded) is None:
        notes.choosing = None  # over: a claim, the default opener's tile, or a new hand
        mark = None
    choices = game.opener_choices() if game.hand is not None else ()
    if mark is None and not (fresh_hand and len(choices) > 1):
        return False
    computers = [s for s in choices if not loaded.seats[s].human]
    claim = opening_claim(game, computers)
    if claim is not None or len(computers) == len(choices):
        # a computer claims first, or nobody is left to choose (two computers: no wait)
        if claim is not None:
            game.choose_opener(claim)
            session.say(OPENS, name=name_of(loaded.seats[claim], claim, session.lang))
        notes.choosing = None
        return False
    if mark is None:
        until = session.now + timedelta(seconds=CHOICE_SECONDS)
        notes.choosing = Choosing(game.hand_number, until.timestamp())
    return True


def ends_at(session: Session, mark: Choosing) -> datetime:
    """When the choice ``mark`` ends (the ``opening`` timer's time)."""
    return session.now + timedelta(seconds=mark.until - session.now.timestamp())


def notice(session: Session, loaded: Loaded, lang: str | None = None) -> str:
    """What the table waits for, in ``lang`` (the room's): "Team Ana / Carla chooses who
    opens (20 s)"; "" when nobody is choosing."""
    mark = choosing(loaded)
    if mark is None:
        return ""
    lang = lang or session.lang
    assert loaded.game is not None
    team = team_name(loaded, loaded.game.opener_choices(), lang)
    return tr(lang, CHOOSING, team=team, seconds=seconds_left(session, mark))


def noticed(session: Session, loaded: Loaded, board: Board) -> Board:
    """``board`` saying, in its picture, that the team is choosing who opens."""
    text = notice(session, loaded)
    return replace(board, table=replace(board.table, notice=text)) if text else board


def call(session: Session, loaded: Loaded) -> TurnCall:
    """The choosing partners called in the room (folded into the board's text when their
    hands reach them privately, as a turn call is)."""
    game = loaded.game
    mark = choosing(loaded)
    assert game is not None and mark is not None and game.to_move is not None
    seats = [s for s in game.opener_choices() if loaded.seats[s].human]
    lang = session.lang
    default = game.to_move
    text = tr(
        lang,
        CHOOSING_CALL,
        names=", ".join(name_of(loaded.seats[s], s, lang) for s in seats),
        seconds=seconds_left(session, mark),
        name=name_of(loaded.seats[default], default, lang),
    )
    mention = tuple(person_of(loaded.seats[s]) for s in seats)
    return TurnCall(text, mention=mention, game_id=loaded.row.id)


def hands(session: Session, loaded: Loaded, fresh_hand: bool = True) -> None:
    """Each person at the table their hand privately; the choosing partners' with the
    "I open" button and a word on the choice (``fresh_hand``: also the others')."""
    game = loaded.game
    assert game is not None
    choices = game.opener_choices()
    # the others first, the partners after, the one dealt the opening last (the newest
    # hand is the one to act on, as when a hand opens without a choice)
    last = sorted(range(game.players), key=lambda s: (s in choices, s == game.to_move))
    for seat in last:
        if not loaded.seats[seat].human:
            continue
        if seat in choices:
            chooser_hand(session, loaded, seat)
        elif fresh_hand:
            hand_for(session, loaded, seat)


def chooser_hand(session: Session, loaded: Loaded, seat: int, person: Person | None = None) -> None:
    """Seat ``seat``'s hand with the "I open" button first, to its person (or to
    ``person``, who asked for it)."""
    game = loaded.game
    mark = choosing(loaded)
    assert game is not None and mark is not None and game.to_move is not None
    hand_for(session, loaded, seat, person)
    shown = session.effects[-1]
    assert isinstance(shown, Hand)
    info = loaded.seats[seat]
    lang = language(info.locale or (session.own if person is not None else session.lang))
    seconds, default = seconds_left(session, mark), game.to_move
    if seat == default:
        words = tr(lang, CHOOSE_DEFAULT, seconds=seconds)
    else:
        name = name_of(loaded.seats[default], default, lang)
        words = tr(lang, CHOOSE_ASK, seconds=seconds, name=name)
    claim = Button(tr(lang, I_OPEN), "open", loaded.row.id, game.ply)
    session.effects[-1] = replace(
        shown, text=f"{words}\n{shown.text}", buttons=(claim, *shown.buttons)
    )


def hand_asked(session: Session, loaded: Loaded, seat: int) -> None:
    """``/hand`` (or "My hand"): during the choice a chooser's hand carries its button."""
    game = loaded.game
    if choosing(loaded) is not None and game is not None and seat in game.opener_choices():
        chooser_hand(session, loaded, seat, person=session.person)
    else:
        hand_for(session, loaded, seat, person=session.person)


def claim(session: Session) -> None:
    """The person claims the opening for their seat (the ``open`` command): the first
    claim opens. Refused, changing nothing, when nobody is choosing or the seat is not
    one of the choosing team's."""
    loaded, seat = session.loaded, session.my_seat
    game = session.game
    if choosing(loaded) is None:
        raise Refusal(OPEN_DECIDED)
    if loaded.seats[seat].away:
        raise Refusal(AWAY)
    choices = game.opener_choices()
    if seat not in choices:
        raise Refusal(OPEN_NOT_YOURS, team=team_name(loaded, choices, session.own))
    game.choose_opener(seat)
    loaded.notes.choosing = None
    session.say(OPENS, name=name_of(loaded.seats[seat], seat, session.lang))
    partners_told(session, loaded, choices)


def time_up(session: Session, loaded: Loaded) -> bool:
    """The ``opening`` timer fell due: nobody claimed, the seat dealt as opener opens.
    False when there is no choice to end (a claim or a tile ended it already)."""
    mark = choosing(loaded)
    game = loaded.game
    if mark is None or game is None or game.to_move is None:
        return False
    if session.now.timestamp() < mark.until - 1:
        return False  # not this choice's timer
    choices = game.opener_choices()
    loaded.notes.choosing = None
    seat = game.to_move
    session.say(OPENS_UNCLAIMED, name=name_of(loaded.seats[seat], seat, session.lang))
    partners_told(session, loaded, choices)
    return True


def partners_told(session: Session, loaded: Loaded, choices: tuple[int, ...]) -> None:
    """The choice is over: each partner who does not open gets their hand again, without
    "I open" (the opener's comes with its moves)."""
    game = loaded.game
    assert game is not None
    for seat in choices:
        if seat != game.to_move and loaded.seats[seat].human:
            hand_for(session, loaded, seat)


def first_claim(session: Session) -> str | None:
    """What to tell a choosing partner who tries to play out of turn: to claim the
    opening first (None when that is not why the move is refused)."""
    loaded, game = session.loaded, session.game
    if choosing(loaded) is not None and session.my_seat in game.opener_choices():
        return OPEN_FIRST
    return None
