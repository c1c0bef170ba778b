"""What tests/core/test_trust.py knows of the world: the rooms and people, how adapters
build commands, the true state of each game read from storage, what each audience may
see, and the stored state compared before and after a command."""

from __future__ import annotations

import dataclasses
import inspect
import io
import json
import re
import string
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from sqlalchemy import select

from bot.core.model import (
    Board,
    Button,
    Command,
    Effect,
    Elsewhere,
    Hand,
    OpenTables,
    Person,
    Picture,
    Place,
    TableTold,
)
from engine.rules import Rules
from engine.tiles import Tile, set_tiles
from lang import LANGUAGES, catalog, tr
from storage.games import ACTIVE, GameRow
from storage.schema import metadata
from storage.store import Store

# The people: platform id and name are the same word (no digit in a name, so that a name
# never reads as a tile); some speak Spanish or Portuguese.
PEOPLE = ("ana", "beto", "carla", "dani", "eva", "fede")
LOCALES: dict[str, str | None] = {"beto": "es", "carla": "pt"}
# The rooms: two in community A, one in community B; who the platform says administers which.
ROOMS = ("a1", "a2", "b1")
COMMUNITY = {"a1": "grupo-a", "a2": "grupo-a", "b1": "grupo-b"}
ADMINS = {("eva", "a1"), ("eva", "b1"), ("fede", "a2")}
# Tables of the adapters' bookkeeping (messages posted, sends counted), not of the game.
UNCOMPARED = frozenset({"sends", "posts"})


def person(name: str, room: str) -> Person:
    """``name`` as the platform describes them when they act in ``room``."""
    extra: dict[str, Any] = {}
    if "handle" in {f.name for f in dataclasses.fields(Person)}:
        extra["handle"] = name  # their @username (the model before issue 18 had none)
    return Person(name, name.capitalize(), LOCALES.get(name), (name, room) in ADMINS, **extra)


def make_command(
    place: Place,
    who: Person,
    action: str,
    args: Iterable[str] = (),
    move_number: int | None = None,
    game_id: int | None = None,
    private: bool = False,
    move: str | None = None,
) -> Command:
    """A command as an adapter builds it; ``private`` where the model has that field (the
    code before issue 18 had none: its adapters sent private presses as room commands),
    ``move`` (a pressed button's move, whole) where it has that one, and where a door's
    private answers are seen (Telegram's go to a private chat, not the room)."""
    extra: dict[str, Any] = {}
    fields = {f.name for f in dataclasses.fields(Command)}
    if private and "private" in fields:
        extra["private"] = True
    if move is not None and "move" in fields:
        extra["move"] = move
    if "private_in_room" in fields:
        extra["private_in_room"] = place.platform != "telegram"
    return Command(
        place, who, action, tuple(args), move_number=move_number, game_id=game_id, **extra
    )


def pressed(button: Button) -> tuple[str, tuple[str, ...], str | None]:
    """The action, words and move a door sends for a press of ``button``: a move's
    button sends its move whole (where buttons carry one), any other its words."""
    move = getattr(button, "move", None)
    if move is not None:
        return "play", (), move
    action, *words = button.command.split()
    return action, tuple(words), None


def is_private(command: Command) -> bool:
    return bool(getattr(command, "private", False))


def typed_text(command: Command) -> str:
    """Everything the person sent: the command, its words and a move given whole."""
    return " ".join((command.action, *command.args, getattr(command, "move", None) or ""))


def describe(command: Command, private: bool = False) -> str:
    words = " ".join((command.action, *command.args))
    extra = []
    if command.game_id is not None:
        extra.append(f"game {command.game_id}")
    if command.move_number is not None:
        extra.append(f"move {command.move_number}")
    if getattr(command, "move", None) is not None:
        extra.append(f"pressed {command.move!r}")
    where = f"{command.place.platform}:{command.place.room}"
    how = "privately for " if private or is_private(command) else "in "
    admin = " (admin)" if command.person.admin else ""
    more = f" [{', '.join(extra)}]" if extra else ""
    return f"{command.person.platform_id}{admin} {how}{where}: /{words}{more}"


# ----- the truth, from storage ----------------------------------------------------------


@dataclass
class Truth:
    """A game as stored: who sits where and, while a hand is in play, where every tile is."""

    row: GameRow
    ply: int | None = None  # moves made in the whole game (None in the lobby)
    in_play: bool = False
    to_move: int | None = None
    legal: tuple[Any, ...] = ()  # the legal moves of the seat to move
    hands: tuple[frozenset[Tile], ...] = ()
    deal: tuple[frozenset[Tile], ...] = ()
    boneyard: tuple[Tile, ...] = ()  # as dealt
    rest: frozenset[Tile] = frozenset()  # still to draw
    public: frozenset[Tile] = frozenset()  # on the table in this hand
    hidden: frozenset[Tile] = frozenset()  # from the room: every tile not on the table
    # the opening draw of the hand in play (public: drawn face up for the opener, then
    # put back and shuffled again before the deal, it tells nothing of any hand)
    drawn: tuple[Tile, ...] = ()
    all_tiles: frozenset[Tile] = frozenset()

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def active(self) -> bool:
        return self.row.status in ACTIVE

    def seat_of(self, user_id: int | None, pid: str | None = None) -> int | None:
        """The seat of the user ``user_id``, or of the platform account ``pid`` (a seat
        keeps the account it was taken by; after "forget me" that account may have a
        user of its own)."""
        for i, seat in enumerate(self.row.seats):
            if user_id is not None and seat.get("user") == user_id:
                return i
            if pid is not None and seat.get("pid") == pid:
                return i
        return None

    def hidden_from(self, seat: int | None) -> frozenset[Tile]:
        """What ``seat`` (None: the room, or someone not seated) may not see now."""
        if not self.in_play or not self.active:
            return frozenset()
        if seat is None or seat >= len(self.hands):
            return self.hidden
        return self.hidden - self.hands[seat]

    def human_to_move(self) -> int | None:
        """The user id of the person to move, if a person (not a computer) is to move."""
        if not self.in_play or not self.active or self.to_move is None:
            return None
        seat = self.row.seats[self.to_move]
        if seat.get("user") is None or seat.get("bot"):
            return None
        return int(seat["user"])


async def true_game(oracle: Any, row: GameRow) -> Any:
    """The game of ``row`` as stored, loaded afresh (an oracle service that has seen
    nothing: no cache of the service under test is trusted)."""
    loaded = oracle.desk.loaded(row, keep=False)
    if inspect.isawaitable(loaded):
        loaded = await loaded
    return loaded.game


async def truth_of(oracle: Any, row: GameRow) -> Truth:
    truth = Truth(row)
    if row.status != "playing":  # a lobby, or a game over: nothing hidden any more
        return truth
    game = await true_game(oracle, row)
    if game is None:
        return truth
    truth.ply = game.ply
    hand = game.hand
    if hand is None:
        return truth
    log = game.logs[-1]
    truth.in_play = True
    truth.to_move = hand.to_move
    truth.legal = tuple(hand.legal_moves())
    players = game.players
    truth.hands = tuple(frozenset(hand.hand(s)) for s in range(players))
    truth.deal = tuple(frozenset(d) for d in log.deal)
    truth.boneyard = tuple(log.boneyard)
    truth.rest = frozenset(log.boneyard[len(log.boneyard) - hand.boneyard_left :])
    played = {m.tile for m in hand.moves if m.tile is not None}
    if log.engine is not None:
        played.add(log.engine)
    truth.public = frozenset(played)
    truth.drawn = tuple(log.opening_draw or ())
    truth.all_tiles = frozenset(set_tiles(game.rules.set))
    truth.hidden = truth.all_tiles - truth.public
    return truth


def tiles_accounted(truth: Truth) -> str | None:
    """Why the tiles of the hand in play do not add up (None when they do): no tile in
    two places, every tile of the set."""
    if not truth.in_play:
        return None
    places = [*truth.hands, truth.rest, truth.public]
    seen: set[Tile] = set()
    for where in places:
        twice = seen & where
        if twice:
            return f"tiles in two places: {sorted(map(str, twice))}"
        seen |= where
    if not seen <= truth.all_tiles:
        return f"tiles not of the set: {sorted(map(str, seen - truth.all_tiles))}"
    return None


# ----- what an effect names -------------------------------------------------------------

TILE = re.compile(r"(?<![\d\-])(1[0-8]|[0-9])-(1[0-8]|[0-9])(?![\d\-])")


def _template_fragments() -> tuple[str, ...]:
    """The fixed parts of the bot's messages that name a tile as an example ("/play 6-4
    on 6-6"), in every language: text the bot always writes, naming nobody's tile."""
    found: set[str] = set()
    for lang in LANGUAGES:
        for message, translated in catalog(lang).items():
            for text in (message, translated):
                for literal, *_ in string.Formatter().parse(text):
                    if literal and TILE.search(literal):
                        found.add(literal)
    return tuple(sorted(found, key=len, reverse=True))


FRAGMENTS = _template_fragments()
NOTHING_CHANGED = frozenset(
    tr(lang, "Something went wrong on our side. Nothing was changed; try again.")
    for lang in LANGUAGES
)


def named_tiles(text: str) -> set[Tile]:
    """The tiles ``text`` names (a-b, in either order), leaving out the messages' examples."""
    for fragment in FRAGMENTS:
        text = text.replace(fragment, " ")
    return {Tile.of(int(a), int(b)) for a, b in TILE.findall(text)}


_DRAW_TOLD = (
    "Opening draw: {draws}. {name} drew the highest tile and opens.",
    "Opening draw: {draws}. {tile} and {other} have as many pips; {tile} has the higher"
    " number, so {name} opens.",
)
DRAW_HEADS = tuple(
    {(catalog(lang).get(m) or m).split("{draws}")[0] for lang in LANGUAGES for m in _DRAW_TOLD}
)


def draw_told(text: str, truth: Truth | None) -> set[Tile]:
    """The tiles of the hand's opening draw that ``text`` names on the lines telling it
    ("Opening draw: Ana 6-4, ..."): public, whoever holds them now."""
    if truth is None or not truth.drawn:
        return set()
    told: set[Tile] = set()
    for line in text.splitlines():
        if line.startswith(DRAW_HEADS):
            told |= named_tiles(line) & set(truth.drawn)
    return told


def view_shown(view: Any, truth: Truth | None) -> set[Tile]:
    """Every tile a view holds, its opening draw aside when it is the game's own."""
    if truth is not None and truth.drawn and tuple(view.opening_draw) == truth.drawn:
        view = dataclasses.replace(view, opening_draw=())
    return set(view_tiles(view))


def view_tiles(value: Any) -> Iterator[Tile]:
    """Every tile held anywhere in a view (its rules aside)."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, Rules | str | bytes | int | float | bool):
        return
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from view_tiles(getattr(value, f.name))
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from view_tiles(item)


def effect_texts(effect: Effect) -> list[str]:
    """Every text ``effect`` shows: its text and its buttons' labels and data; a
    picture's title and figures; the titles and lines of the tables a round opens."""
    texts: list[str] = []
    text = getattr(effect, "text", None)
    if isinstance(text, str) and isinstance(effect, Picture):
        # two figures of one row written with a dash between them (a team's points for
        # and against, "0-0") are figures, not a tile
        for row in effect.rows:
            for a, b in pairwise(row):
                if a.isdecimal() and b.isdecimal():
                    text = text.replace(f" {a}-{b} ", f" {a} {b} ")
    if isinstance(text, str):
        texts.append(text)
    buttons: tuple[Button, ...] = getattr(effect, "buttons", ())
    for button in buttons:
        texts += [button.label, button.command]
    if isinstance(effect, Picture):
        texts += [effect.title, *effect.header, *(cell for row in effect.rows for cell in row)]
        texts += [line.name for line in effect.lines]
    if isinstance(effect, OpenTables):
        for table in effect.tables:
            texts += [table.title, table.line, *(p.name for p in table.mention)]
    return texts


def audience(effect: Effect) -> Person | None:
    """Who alone sees ``effect`` (None: the room; the effects for another room are
    checked there)."""
    if isinstance(effect, Hand):
        return effect.person
    if isinstance(effect, Board | OpenTables | Elsewhere | TableTold):
        return None
    return effect.private


def file_leaks(data: bytes, truth: Truth, seat: int | None) -> list[str]:
    """What of the hand in play a record file shows to someone at ``seat`` (None: the
    room): a deal, a hand or the boneyard of the hand in play. Finished hands are public,
    and a record of another game holds other deals, so only the current ones count."""
    if not truth.in_play or not truth.active:
        return []
    if zipfile.is_zipfile(io.BytesIO(data)):  # an archive (a tournament's): each file in it
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            files = [archive.read(name) for name in archive.namelist()]
        return [leak for inner in files for leak in file_leaks(inner, truth, seat)]
    try:
        record = json.loads(data)
    except ValueError:
        hidden = truth.hidden_from(seat)
        named = named_tiles(data.decode("utf-8", "replace")) & hidden
        return [f"a file that is not JSON names {sorted(map(str, named))}"] if named else []
    hands = record.get("hands") if isinstance(record, dict) else None
    found: list[str] = []
    secret = [(k, d) for k, d in enumerate(truth.deal) if k != seat and d - truth.public] + [
        (k, h) for k, h in enumerate(truth.hands) if k != seat and len(h) >= 2
    ]
    for entry in hands if isinstance(hands, list) else []:
        if not isinstance(entry, dict):
            continue
        for listed in entry.get("deal") or []:
            tiles = _tiles(listed)
            for k, tiles_of_k in secret:
                if tiles and tiles == tiles_of_k:
                    found.append(f"the file shows seat {k + 1}'s tiles of the hand in play")
        boneyard = entry.get("boneyard") or []
        if truth.rest and (
            [str(t) for t in truth.boneyard] == boneyard
            or (len(truth.rest) >= 2 and _tiles(boneyard) == truth.rest)
        ):
            found.append("the file shows the boneyard of the hand in play")
    return found


def first_deal(record: Any) -> Any:
    """The deal of a record's first hand (of its JSON text, or of the record itself)."""
    if isinstance(record, bytes):
        try:
            record = json.loads(record)
        except ValueError:
            return None
    hands = record.get("hands") if isinstance(record, dict) else None
    if not isinstance(hands, list) or not hands or not isinstance(hands[0], dict):
        return None
    return hands[0].get("deal")


async def whole_record(store: Store, game_id: int) -> dict[str, Any]:
    """Game ``game_id``'s whole record as stored (in its snapshot, or, since saves hold
    only the latest hands, with the hands stored apart)."""
    record = getattr(store.games, "record", None)
    if record is not None:
        return dict(await record(game_id))
    row = await store.games.load(game_id)
    return dict(row.snapshot["record"])


def _tiles(listed: Any) -> frozenset[Tile]:
    if not isinstance(listed, list):
        return frozenset()
    out = set()
    for text in listed:
        try:
            out.add(Tile.parse(str(text)))
        except Exception:
            return frozenset()
    return frozenset(out)


# ----- the stored state -----------------------------------------------------------------

Dump = dict[str, dict[tuple[Any, ...], dict[str, Any]]]


async def dump(store: Store) -> Dump:
    """Every stored row of the game's tables, by primary key."""

    def work(db: Any) -> Dump:
        out: Dump = {}
        for table in metadata.sorted_tables:
            if table.name in UNCOMPARED:
                continue
            key = [c.name for c in table.primary_key.columns]
            rows = db.execute(select(table)).mappings().all()
            out[table.name] = {tuple(r[k] for k in key): dict(r) for r in rows}
        return out

    return await store.database.run(work)


def differences(before: Dump, after: Dump, newcomer: tuple[str, str] | None = None) -> list[str]:
    """What changed between two dumps; a user row created for ``newcomer`` (platform,
    platform id: a person seen for the first time, or again after "forget me") aside."""
    changed: list[str] = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, {}), after.get(name, {})
        for key in sorted(set(old) | set(new), key=repr):
            if old.get(key) == new.get(key):
                continue
            row = new.get(key)
            if (
                name == "users"
                and key not in old
                and row is not None
                and (row.get("platform"), row.get("platform_id")) == newcomer
            ):
                continue
            changed.append(f"{name}{list(key)}: {_short(old.get(key))} -> {_short(row)}")
    return changed


@dataclass(frozen=True)
class Owners:
    """Where stored rows belong, read from the rows themselves: each room's community,
    each game's room and each tournament's room."""

    communities: dict[int, int]  # room id: its community's id
    games: dict[int, int]  # game id: its room's id
    tournaments: dict[int, int]  # tournament id: its room's id

    def belongs(self, name: str, row: dict[str, Any]) -> tuple[int | None, int | None]:
        """The room and the community a row of table ``name`` belongs to: by its room,
        its game's or its tournament's (a tournament's table waiting for its room is the
        tournament's room's); a row of no room (a rating) by its community; (None, None):
        a person's row, or a community's own."""
        room: int | None = None
        if name == "rooms":
            room = row["id"]
        elif row.get("room_id") is not None:
            room = row["room_id"]
        elif row.get("game_id") is not None:
            room = self.games.get(row["game_id"])
        elif row.get("tournament_id") is not None:
            room = self.tournaments.get(row["tournament_id"])
        if room is not None:
            return room, self.communities.get(room)
        community = row.get("community_id") if name != "communities" else None
        return None, community


def owners(*states: Dump) -> Owners:
    found = Owners({}, {}, {})
    for state in states:
        for row in state.get("rooms", {}).values():
            found.communities[row["id"]] = row["community_id"]
        for row in state.get("games", {}).values():
            found.games[row["id"]] = row["room_id"]
        for row in state.get("tournaments", {}).values():
            found.tournaments[row["id"]] = row["room_id"]
    return found


def outside(state: Dump, rooms: set[int], community: int | None, where: Owners) -> Dump:
    """The rows of ``state`` that belong to none of ``rooms`` (by their room, or their
    game's or tournament's), nor, for a row of no room, to ``community``."""
    out: Dump = {}
    for name, rows in state.items():
        kept = {}
        for key, row in rows.items():
            room, owner = where.belongs(name, row)
            if (room is not None and room not in rooms) or (
                room is None and owner is not None and owner != community
            ):
                kept[key] = row
        out[name] = kept
    return out


def user_ids(state: Dump) -> dict[tuple[str, str], int]:
    return {
        (row["platform"], row["platform_id"]): row["id"]
        for row in state.get("users", {}).values()
        if row.get("platform_id") is not None
    }


def _short(row: Any) -> str:
    text = repr(row)
    return text if len(text) < 300 else text[:300] + "..."


@dataclass
class Seen:
    """A button as somebody saw it: where, and whether only one person saw it."""

    button: Button
    room: str
    to: Person | None  # None: the room saw it
    kind: str  # "board", "say", "hand"


@dataclass
class Tally:
    """What a run did: steps, and what happened in them (printed at the end)."""

    steps: int = 0
    commands: int = 0
    timers: int = 0
    begun: set[str] = field(default_factory=set)
    moves: int = 0
    finished: int = 0
    rules: dict[str, int] = field(default_factory=dict)
    changes: dict[str, int] = field(default_factory=dict)  # commands that changed storage

    def reset(self) -> None:
        self.__dict__.update(Tally().__dict__)

    def ran(self, rule: str) -> None:
        self.rules[rule] = self.rules.get(rule, 0) + 1

    def changed(self, what: str) -> None:
        self.changes[what] = self.changes.get(what, 0) + 1

    def line(self) -> str:
        return (
            f"{self.steps} steps: {self.commands} commands, {self.timers} timers fired, "
            f"{self.moves} moves applied; presets begun: {', '.join(sorted(self.begun))}; "
            f"{self.finished} games finished; rules run: "
            + ", ".join(f"{name} {n}" for name, n in sorted(self.rules.items()))
            + "; stored changes by: "
            + ", ".join(f"{name} {n}" for name, n in sorted(self.changes.items()))
        )
