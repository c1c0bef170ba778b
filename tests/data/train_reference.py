"""An independent reading of RULES.md's Mexican Train (seed 002), for build_train_records.py.

Nothing here imports the engine. A round is plain lists: hands of ``(high, low)`` tuples,
the boneyard in draw order, one train per seat plus the Mexican train (each a list of
tiles laid and a list of open ends), a set of marked seats. Unlike tests/data/reference.py
this model also says which moves are legal (``Round.legal``), so the builder can compare
it with the engine move by move and refuse a record the rules refuse.

The readings implemented (the lead's brief, on top of RULES.md):

- round r (0-based) uses engine double N-N, (N-1)-(N-1), ... 0-0, then cycles; with the
  engine on the table (default) the first player is seat r mod n; with
  ``engine_from = holder`` its holder plays it and then takes the first turn; if nobody
  holds it, the holder of the highest double dealt plays that one (this round's engine);
  if nobody holds any double, seats draw in turn from seat r mod n until one draws a
  double, which is the engine (RULES.md, Engine);
- own train first (RULES.md): until a seat's own train holds a tile (laid by anyone)
  the seat may only start it, no marked train, no Mexican train; a double due is still
  satisfied by "the next tile anyone plays", such a seat included;
- first round (unless ``first_turn_one_tile``): one turn each, in seat order from the
  first player, laying a chain on one's own train only; ``end`` closes it, ``pass`` (a
  marker, no draw) if the player cannot start; the round goes on until every first turn
  is taken, then ends at once if somebody has no tiles; with ``first_turn_one_tile``
  nobody starts the Mexican train during their own first turn;
- later turns: one tile on one's own train, a marked train or the Mexican train; a
  double obliges one more tile (not drawn for); a player who cannot play draws one and
  must play it if it fits, else passes and marks their train;
- an uncovered double laid in an earlier turn must be satisfied first (oldest first, or
  newest first), even on a private train; a player who cannot draws one; a pass marks
  the train unless ``no_marker_when_satisfying``;
- ``forked_doubles``: a double laid after the first round opens two ends; the extra tile
  goes on one of them and the other is a duty for the next players;
- the round is blocked once the boneyard is empty and nobody holds a tile for any open
  end (for the first due double, when one is due; for the engine's number alone, if the
  seat's own train has not left the station);
- the round's winner is the seat that went out (no tiles left), not a seat that holds
  only 0 pips (a lone 0-0); blocked: the fewest pips.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tests.data.reference import Tile, set_tiles, text, tile, value  # engine-free too


class Refused(Exception):
    """The reference refuses a record: ``move`` is the index of the refused move or None."""

    def __init__(self, hand: int, move: int | None, why: str) -> None:
        super().__init__(f"hand {hand}, move {move}: {why}")
        self.hand = hand
        self.move = move
        self.why = why


@dataclass(frozen=True)
class Config:
    set: int = 12
    hand_size: int | None = None
    rounds: int | None = None
    engine_from: str = "table"
    marker_removed_by: str = "owner"
    no_marker_when_satisfying: bool = False
    satisfy_doubles: bool = True
    satisfy_order: str = "oldest_first"
    one_double_per_turn: bool = False
    first_turn_one_tile: bool = False
    forked_doubles: bool = False
    positive_scoring: bool = False


_IGNORED = {"auto_pass", "turn_timeout", "max_timeouts"}


def config(rules: dict[str, Any]) -> Config:
    assert rules.get("preset") == "mexican_train", "reference: only Mexican Train"
    options = {k: v for k, v in (rules.get("options") or {}).items() if k not in _IGNORED}
    return replace(Config(), **options)


def hand_size(cfg: Config, players: int) -> int:
    """RULES.md's hand-size table for Mexican Train (``hand_size`` overrides it)."""
    if cfg.hand_size is not None:
        return cfg.hand_size
    table = {
        6: (5, 4, 3),
        9: (10, 8, 6),
        12: (15, 12, 11),
        15: (15, 15, 12),
        18: (15, 15, 12),
    }[cfg.set]
    return table[0] if players <= 4 else table[1] if players <= 6 else table[2]


def engine_of(cfg: Config, index: int) -> Tile:
    n = cfg.set - index % (cfg.set + 1)
    return (n, n)


# ----- one round -------------------------------------------------------------------------


@dataclass
class End:
    number: int
    double: Tile | None = None  # an uncovered double showing at this end
    laid: int = -1  # when that double was laid (a running count of tiles laid)
    fork: bool = False  # one side of a forked double


@dataclass
class Train:
    tiles: list[Tile] = field(default_factory=list)
    ends: list[End] = field(default_factory=list)


class Round:
    """One round, from the deal: ``legal()`` lists the moves allowed now, ``play`` makes one."""

    def __init__(
        self,
        cfg: Config,
        deal: list[list[Tile]],
        boneyard: list[Tile],
        engine: Tile,
        on_table: bool,
        first: int,
        seek: bool = False,
    ) -> None:
        self.cfg = cfg
        self.n = len(deal)
        self.hands = [list(h) for h in deal]
        self.bone = list(boneyard)
        self.engine = engine
        self.down = on_table
        self.trains = [Train(ends=[End(engine[0])]) for _ in range(self.n + 1)]
        self.marked: set[int] = set()
        self.to_move = first
        self.first_round = not cfg.first_turn_one_tile
        self.first_turns = 0  # first turns taken
        self.laid = 0  # tiles laid on the trains so far
        self.turn_start = 0  # self.laid when the turn began
        self.turn_tiles = 0
        self.owe: tuple[int, Tile] | None = None  # (train, double) that wants one more tile
        self.drawn: Tile | None = None
        self.turn_duty = False
        self.result = "in_progress"
        self.closer: int | None = None
        self.seek = seek  # nobody was dealt a double: the first double drawn is the engine
        self.had_turn: set[int] = set()  # seats whose first turn is over

    # ----- reading -----

    def name(self, train: int) -> str:
        return "mexican" if train == self.n else f"train:{train}"

    def duty(self, start: int | None = None) -> tuple[int, int] | None:
        """(train, end) of the double the player to move must satisfy, if one is due
        (doubles laid at or after ``start``, default this turn's start, are not due yet)."""
        if self.first_round:
            return None
        start = self.turn_start if start is None else start
        due = [
            (e.laid, t, i)
            for t, train in enumerate(self.trains)
            for i, e in enumerate(train.ends)
            if e.double is not None and e.laid < start and (self.cfg.satisfy_doubles or e.fork)
        ]
        if not due:
            return None
        if self.cfg.satisfy_order == "newest_first":
            top = max(d[0] for d in due)
        else:
            top = min(d[0] for d in due)
        _, t, i = next(d for d in due if d[0] == top)
        return t, i

    def allowed(self, seat: int) -> list[int]:
        if self.first_round or not self.trains[seat].tiles:
            return [seat]  # own train first: only starting it
        mexican = [self.n] if seat in self.had_turn or not self.cfg.first_turn_one_tile else []
        return [t for t in range(self.n) if t == seat or t in self.marked] + mexican

    def legal(self) -> list[str]:
        """Every legal move of the seat to play, as record text."""
        if self.result != "in_progress":
            return []
        s = self.to_move
        hand = self.hands[s]
        if not self.down:
            return [f"{s}: {text(self.engine)}"] if self.engine in hand else [f"{s}: draw"]
        options = [self.drawn] if self.drawn is not None else hand
        plays: set[str] = set()
        duty = self.duty() if self.turn_tiles == 0 else None
        if duty is not None:
            t, i = duty
            number = self.trains[t].ends[i].number
            plays = {f"{s}: {text(x)} on {self.name(t)}" for x in options if number in x}
        elif self.owe is not None and self.cfg.forked_doubles and not self.first_round:
            t, double = self.owe
            numbers = {e.number for e in self.trains[t].ends if e.double == double}
            plays = {f"{s}: {text(x)} on {self.name(t)}" for x in options if set(x) & numbers}
        else:
            if self.owe is not None and self.cfg.one_double_per_turn:
                options = [x for x in options if x[0] != x[1]]
            for t in self.allowed(s):
                numbers = {e.number for e in self.trains[t].ends}
                plays |= {f"{s}: {text(x)} on {self.name(t)}" for x in options if set(x) & numbers}
        out = sorted(plays)
        if self.first_round:
            if self.turn_tiles:
                out.append(f"{s}: end")
            return out or [f"{s}: pass"]
        if out:
            return out
        if self.owe is None and self.drawn is None and self.bone:
            return [f"{s}: draw"]
        return [f"{s}: pass"]

    def pips(self) -> list[int]:
        return [sum(map(value, h)) for h in self.hands]

    # ----- changing -----

    def play(self, move: str) -> None:
        """Make ``move``; raises ValueError if the reference does not allow it."""
        seat_text, _, rest = move.partition(":")
        words = rest.split()
        seat = int(seat_text)
        canon = move
        if words and words[0] not in ("draw", "pass", "end"):
            place = " ".join(words[1:])
            canon = f"{seat}: {text(tile(words[0]))}" + (f" {place}" if place else "")
        legal = self.legal()
        if canon not in legal:
            raise ValueError(f"{move!r} is not legal; legal: {legal}")
        s = seat
        if words[0] == "draw":
            got = self.bone.pop(0)
            self.hands[s].append(got)
            if not self.down:
                if self.seek and got[0] == got[1]:
                    self.seek = False
                    self.engine = got
                    self.trains = [Train(ends=[End(got[0])]) for _ in range(self.n + 1)]
                elif got != self.engine:
                    self.to_move = (s + 1) % self.n
                return
            self.drawn = got
            self.check_blocked()
            return
        if words[0] == "pass":
            if not (self.turn_duty and self.cfg.no_marker_when_satisfying):
                self.marked.add(s)
            self.next_turn(s)
            return
        if words[0] == "end":
            self.next_turn(s)
            return
        t_played = tile(words[0])
        self.hands[s].remove(t_played)
        if not self.down:  # the engine, played by whoever holds it
            self.down = True
            self.to_move = s
            return
        target = words[2]
        t = self.n if target == "mexican" else int(target.split(":")[1])
        self.lay(s, t_played, t)

    def lay(self, s: int, x: Tile, t: int) -> None:
        cfg = self.cfg
        train = self.trains[t]
        i = self.where(train, x)
        number = train.ends[i].number
        if x[0] == x[1]:
            fork = cfg.forked_doubles and not self.first_round
            train.ends[i] = End(number, x, self.laid, fork)
            if fork:
                train.ends.insert(i + 1, End(number, x, self.laid, True))
        else:
            train.ends[i] = End(x[1] if x[0] == number else x[0])
        train.tiles.append(x)
        self.laid += 1
        self.closer = s
        rule = cfg.marker_removed_by
        if rule == "owner" and t == s:
            self.marked.discard(s)
        elif rule == "anyone" and t < self.n:
            self.marked.discard(t)
        elif rule == "owner_plays_anywhere":
            self.marked.discard(s)
        self.drawn = None
        self.turn_tiles += 1
        if not self.hands[s]:
            if self.first_round:
                self.next_turn(s)
            else:
                self.result = "domino"
            return
        if self.first_round:
            return  # the chain goes on until the player says end
        if x[0] == x[1]:
            self.owe = (t, x)
            self.check_blocked()
            return
        self.next_turn(s)

    def where(self, train: Train, x: Tile) -> int:
        """The end of ``train`` that ``x`` goes on: the due double, the double just laid
        (forked), else the first end that fits."""
        duty = self.duty() if self.turn_tiles == 0 else None
        if duty is not None:
            return duty[1]
        if self.owe is not None and self.cfg.forked_doubles and not self.first_round:
            double = self.owe[1]
            return next(j for j, e in enumerate(train.ends) if e.double == double and e.number in x)
        return next(j for j, e in enumerate(train.ends) if e.number in x)

    def next_turn(self, s: int) -> None:
        self.had_turn.add(s)
        self.owe = None
        self.drawn = None
        self.turn_tiles = 0
        self.turn_start = self.laid
        self.to_move = (s + 1) % self.n
        if self.first_round:
            self.first_turns += 1
            if self.first_turns < self.n:
                return
            self.first_round = False
            if not all(self.hands):
                self.result = "domino"
                return
        self.turn_duty = self.duty() is not None
        self.check_blocked()

    def check_blocked(self) -> None:
        if self.bone or self.first_round:
            return
        if self.owe is not None:
            if any(m.split(": ", 1)[1] not in ("pass", "draw", "end") for m in self.legal()):
                return  # the player still lays the extra tile
            # The player must pass; then the double just laid is due for everyone after.
            duty = self.duty(start=10**9)
        else:
            duty = self.duty()
        if duty is not None:
            t, i = duty
            numbers = {self.trains[t].ends[i].number}
            start = numbers
        else:
            numbers = {e.number for train in self.trains for e in train.ends}
            start = {self.engine[0]}
        for s, h in enumerate(self.hands):
            mine = numbers if self.trains[s].tiles else start
            if any(set(x) & mine for x in h):
                return
        self.result = "blocked"


# ----- a record --------------------------------------------------------------------------


@dataclass
class RoundFacts:
    result: str
    pips: list[int]
    closer: int | None
    to_move: int | None
    out: list[int] = field(default_factory=list)  # seats with no tiles left


def start_round(
    cfg: Config, index: int, hand: dict[str, Any], players: int
) -> tuple[Round, list[list[Tile]]]:
    """Check a record's hand entry (deal, boneyard, engine field) and set the round up."""
    engine = engine_of(cfg, index)
    on_table = cfg.engine_from == "table"
    if "engine" in hand and hand["engine"] is not None:
        if not on_table:
            raise Refused(index, None, "with engine_from = holder the engine is not set out")
        if tile(hand["engine"]) != engine:
            raise Refused(index, None, f"round {index} uses engine {text(engine)}")
    deal = [[tile(x) for x in h] for h in hand["deal"]]
    bone = [tile(x) for x in hand.get("boneyard") or []]
    if len(deal) != players:
        raise Refused(index, None, "wrong number of hands")
    size = hand_size(cfg, players)
    if any(len(h) != size for h in deal):
        raise Refused(index, None, f"every hand holds {size} tiles")
    everything = [x for h in deal for x in h] + bone
    if on_table and engine in everything:
        raise Refused(index, None, f"{text(engine)} is the engine, on the table")
    want = sorted(x for x in set_tiles(cfg.set) if not (on_table and x == engine))
    if sorted(everything) != want:
        raise Refused(index, None, "deal and boneyard are not the whole set")
    first = index % players
    seek = False
    if not on_table:
        holders = [s for s, h in enumerate(deal) if engine in h]
        if not holders:
            doubles = [(x, s) for s, h in enumerate(deal) for x in h if x[0] == x[1]]
            if doubles:
                engine, seat = max(doubles)
                holders = [seat]
        if holders:
            first = holders[0]
        else:
            seek = True
    return Round(cfg, deal, bone, engine, on_table, first, seek), deal


def replay(record: dict[str, Any]) -> tuple[Config, list[RoundFacts]]:
    """Replay every hand of a record; raises :class:`Refused` at the first illegal thing."""
    cfg = config(record["rules"])
    players = len(record["players"])
    facts: list[RoundFacts] = []
    scores = [0] * players
    over = False
    for index, hand in enumerate(record["hands"]):
        if over:
            raise Refused(index, None, "the game was already over")
        if facts and facts[-1].result == "in_progress":
            raise Refused(index, None, "the previous round did not end")
        rnd, _ = start_round(cfg, index, hand, players)
        for m, move in enumerate(hand.get("moves", [])):
            if rnd.result != "in_progress":
                raise Refused(index, m, "the round is already over")
            try:
                rnd.play(move)
            except ValueError as error:
                raise Refused(index, m, str(error)) from None
        f = RoundFacts(
            rnd.result,
            rnd.pips(),
            rnd.closer,
            rnd.to_move if rnd.result == "in_progress" else None,
            [s for s, h in enumerate(rnd.hands) if not h],
        )
        facts.append(f)
        if f.result != "in_progress":
            scores = [a + b for a, b in zip(scores, points(cfg, f), strict=True)]
            over = game_over(cfg, scores, len(facts))[0]
    return cfg, facts


def points(cfg: Config, f: RoundFacts) -> list[int]:
    """Penalty: each seat's own pips. Positive: the winner(s) share the others' pips."""
    if not cfg.positive_scoring:
        return list(f.pips)
    if f.result == "domino":
        winners = f.out  # who went out, not a seat holding a lone 0-0
    else:
        fewest = min(f.pips)
        winners = [s for s, p in enumerate(f.pips) if p == fewest]
    others = sum(p for s, p in enumerate(f.pips) if s not in winners)
    return [others // len(winners) if s in winners else 0 for s in range(len(f.pips))]


def game_over(cfg: Config, scores: list[int], played: int) -> tuple[bool, int | None]:
    rounds = cfg.rounds if cfg.rounds is not None else cfg.set + 1
    if played < rounds:
        return False, None
    best = max(scores) if cfg.positive_scoring else min(scores)
    if scores.count(best) != 1:
        return False, None  # a tie for the lead: one more round
    return True, scores.index(best)


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """What ``python -m engine replay`` must print for the record."""
    cfg, facts = replay(record)
    players = len(record["players"])
    scores = [0] * players
    rows = []
    over, winner = False, None
    for played, f in enumerate(facts, start=1):
        if f.result == "in_progress":
            pts = [0] * players
        else:
            pts = points(cfg, f)
            scores = [a + b for a, b in zip(scores, pts, strict=True)]
            over, winner = game_over(cfg, scores, played)
        rows.append(
            {"result": f.result, "pips": f.pips, "points": pts, "count": None, "to_move": f.to_move}
        )
    return {"scores": scores, "game_over": over, "winner": winner, "hands": rows}
