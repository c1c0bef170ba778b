"""Write the scripted game records of tests/data/records/ (a developer tool; pytest does
not run it).

    .venv/bin/python -m tests.data.build_records          # check and (re)write every case
    .venv/bin/python -m tests.data.build_records --check  # only compare, write nothing

The engine is used to search seeds and deals for a wanted situation and to export the
record with explicit deals. The expectation of every case comes from
``tests/data/reference.py``, an independent reading of RULES.md that never imports the
engine; a few (seed 004's worked examples) are constants from RULES.md itself. A case
where the engine's summary differs from the reference is reported; once the engine is
judged wrong there, the case keeps the reference's numbers and gets ``known_bug``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import DominoError
from engine.game import Game
from engine.moves import Move
from engine.record import export, load, summary
from engine.rules import Rules
from engine.tiles import Tile
from tests.data import reference as ref

RECORDS = Path(__file__).parent / "records"
NAMES = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede", "Gabi", "Hugo"]
SEARCH = 200_000

Prefer = Callable[[Game, list[Move]], list[Move]]


@dataclass
class Case:
    name: str
    about: str
    record: Any
    expect: dict[str, Any] | None = None
    error: str | None = None
    known_bug: str | None = None

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"about": self.about}
        if self.known_bug:
            out["known_bug"] = self.known_bug
        out["record"] = self.record
        if self.error is not None:
            out["expect_error"] = self.error
        else:
            out["expect"] = self.expect
        return out


BUILDERS: list[Callable[[], Iterable[Case]]] = []


def builder(fn: Callable[[], Iterable[Case]]) -> Callable[[], Iterable[Case]]:
    BUILDERS.append(fn)
    return fn


# ----- playing -----------------------------------------------------------------------


def new_game(preset: str, players: int = 4, **options: Any) -> Game:
    return Game(Rules.from_preset(preset, **options), players)


def play(game: Game, rng: random.Random, prefer: Prefer | None = None, stop: int = 10**9) -> None:
    """Play the hand in progress with random legal moves (``prefer`` narrows the choice),
    to its end or until it has ``stop`` moves."""
    hand = game.hand
    while game.hand is not None and hand is not None and len(hand.moves) < stop:
        moves = game.legal_moves()
        liked = prefer(game, moves) if prefer else []
        game.apply(rng.choice(liked or moves))


def open_with(pick: Callable[[Tile], bool]) -> Prefer:
    """Prefer opening tiles that satisfy ``pick`` (the rest of the hand is random)."""

    def prefer(game: Game, moves: list[Move]) -> list[Move]:
        hand = game.hand
        if hand is None or hand.placed:
            return []
        return [m for m in moves if m.tile is not None and pick(m.tile)]

    return prefer


def not_double(t: Tile) -> bool:
    return not t.is_double


def search(build: Callable[[int], Game | None], start: int = 0, tries: int = SEARCH) -> Game:
    for seed in range(start, start + tries):
        try:
            game = build(seed)
        except DominoError:
            continue
        if game is not None:
            return game
    raise RuntimeError(f"{build.__qualname__}: nothing found in {tries} seeds")


def last(game: Game) -> Any:
    return game.logs[-1]


def team_pips(pips: list[int]) -> list[int]:
    return [pips[0] + pips[2], pips[1] + pips[3]]


def record_of(game: Game) -> dict[str, Any]:
    return export(game, NAMES[: game.players])


def with_options(record: dict[str, Any], **options: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(record))
    out["rules"]["options"] = {**out["rules"]["options"], **options}
    return out


def copy(record: Any) -> Any:
    return json.loads(json.dumps(record))


# ----- expectations --------------------------------------------------------------------


def ref_tiles(texts: list[str]) -> list[ref.Tile]:
    return [ref.tile(t) for t in texts]


def seed_deal(
    cfg: ref.Config, players: int, seed: int, previous: ref.HandFacts | None
) -> tuple[list[list[ref.Tile]], list[ref.Tile]]:
    """The deal a seeded hand comes to, redeals included (the reference's reading)."""
    size = ref.hand_size(cfg.family, cfg.set, players)
    drawn = drawing(cfg, previous)  # shuffle 0 was the tile draw for the opener
    for k in range(int(drawn), 1000):
        order = ref.shuffled(seed, k, ref.set_tiles(cfg.set))
        deal = ref.deal_of(order, players, size)
        bone = order[players * size :] if cfg.draws != "none" else []
        if cfg.redeal_doubles and any(len(ref.doubles(h)) >= cfg.redeal_doubles for h in deal):
            continue
        if cfg.family == "divisor" and ref.highest_double_holder(deal) is None:
            continue
        if cfg.must_open_with_double:
            opener = must_open(cfg, previous, deal, seed, None)
            if opener is None:
                continue
        return deal, bone
    raise RuntimeError("no deal")


def drawing(cfg: ref.Config, previous: ref.HandFacts | None) -> bool:
    """The opener of this hand is found by the tournament's tile draw."""
    return cfg.first_opener == "draw" and (previous is None or cfg.next_opener == "first_rule")


def must_open(
    cfg: ref.Config,
    previous: ref.HandFacts | None,
    deal: list[list[ref.Tile]],
    seed: int | None,
    named: int | None,
) -> int | None:
    """The seat that opens when the record names none (the draw: the seed's, or seed 0's
    for a dealt hand), moved to a partner by must_open_with_double; None: redeal."""
    must = ref.next_opener(cfg, previous, deal)
    if must is None:
        must = named if named is not None else ref.tile_draw(seed or 0, cfg.set, len(deal))
    if cfg.must_open_with_double:
        return ref.double_opener(cfg, must, deal)
    return must


def reference(record: dict[str, Any]) -> dict[str, Any]:
    """The expected summary, from the record alone."""
    cfg = ref.config(record["rules"])
    players = len(record["players"])
    facts: list[ref.HandFacts] = []
    for hand in record["hands"]:
        previous = facts[-1] if facts else None
        if "deal" in hand:
            deal = [ref_tiles(h) for h in hand["deal"]]
            bone = ref_tiles(hand.get("boneyard") or [])
        else:
            deal, bone = seed_deal(cfg, players, hand["seed"], previous)
        moves = hand["moves"]
        f = ref.replay_hand(cfg, deal, bone, moves, hand.get("time_up_at"))
        named = hand.get("opener")
        must = must_open(cfg, previous, deal, hand.get("seed"), None)
        if not moves:
            f.opener = f.to_move = named if named is not None else must  # type: ignore[assignment]
        if moves and named is None:
            assert f.opener == must, f"reference: seat {must} should open, not {f.opener}"
        if moves and named is not None:
            assert f.opener == named, "reference: the named opener did not open"
            if cfg.must_open_with_double:
                assert ref.doubles(deal[named]), "reference: the named opener holds no double"
            allowed = ref.may_open(cfg, previous, deal)
            if not drawing(cfg, previous) and allowed is not None:
                assert named in allowed, f"reference: seat {named} may not open, {allowed} may"
        facts.append(f)
    return ref.summary(cfg, facts)


def expected(record: dict[str, Any], keys: Iterable[str] | None = None) -> dict[str, Any]:
    full = reference(record)
    if keys is None:
        return full
    return {k: full[k] for k in keys}


def case(name: str, about: str, record: dict[str, Any], **expect_override: Any) -> Case:
    """A case whose expectation is the reference summary (plus constants from RULES.md)."""
    expect = expected(record)
    for key, value in expect_override.items():
        expect[key] = value
    return Case(name, about, record, expect=expect)


def refused(name: str, about: str, record: Any, error: str) -> Case:
    return Case(name, about, record, error=error)


# ----- checking and writing -----------------------------------------------------------


def engine_answer(case: Case) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return summary(load(case.record)), None
    except DominoError as error:
        return None, str(error)


def differences(case: Case) -> list[str]:
    got, error = engine_answer(case)
    if case.error is not None:
        if error is None:
            return [f"accepted; expected an error containing {case.error!r}"]
        if case.error not in error:
            return [f"error {error!r} lacks {case.error!r}"]
        return []
    if error is not None:
        return [f"refused: {error}"]
    assert got is not None and case.expect is not None
    return compare(case.expect, got)


def compare(expect: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """What differs between an expected summary and the engine's (hands item by item)."""
    out = []
    for key, want in expect.items():
        if key == "hands":
            for i, (w, g) in enumerate(zip(want, got["hands"], strict=False)):
                out += [
                    f"hands[{i}].{k}: want {v!r} got {g[k]!r}" for k, v in w.items() if g[k] != v
                ]
            if len(want) != len(got["hands"]):
                out.append(f"hands: want {len(want)} got {len(got['hands'])}")
        elif got[key] != want:
            out.append(f"{key}: want {want!r} got {got[key]!r}")
    return out


def dumps(value: Any, level: int = 0) -> str:
    """JSON with short lists of strings or numbers kept on one line (wrapped at 100)."""
    pad = "  " * level
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}  {json.dumps(k)}: {dumps(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(not isinstance(v, dict | list) for v in value):
            one = json.dumps(value)
            if len(one) + len(pad) + 16 <= 130:
                return one
            lines: list[str] = []
            row: list[str] = []
            for item in map(json.dumps, value):
                if row and len(pad) + 4 + len(", ".join([*row, item])) > 110:
                    lines.append(", ".join(row))
                    row = []
                row.append(item)
            lines.append(", ".join(row))
            return "[\n" + ",\n".join(f"{pad}  {line}" for line in lines) + "\n" + pad + "]"
        items = [f"{pad}  {dumps(v, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    parser.add_argument("only", nargs="*", help="builder names to run (default: all)")
    args = parser.parse_args(argv)
    # mexican_*.json belong to build_train_records.py
    return run_cases(
        BUILDERS, differences, args.check, args.only, lambda p: not p.name.startswith("mexican_")
    )


def run_cases(
    builders: Iterable[Callable[[], Iterable[Case]]],
    differences: Callable[[Case], list[str]],
    check: bool,
    only: list[str],
    owns: Callable[[Path], bool],
) -> int:
    """Build the cases, compare engine and reference, write the files (unless ``check``)
    and remove the stale ones this builder ``owns``; 1 if anything differs unexpectedly."""
    cases: list[Case] = []
    for build in builders:
        if only and build.__name__ not in only:
            continue
        cases += list(build())
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "two cases share a name"
    bad = 0
    for c in cases:
        diff = differences(c)
        if diff and not c.known_bug:
            bad += 1
            print(f"ENGINE DIFFERS {c.name}:", *diff, sep="\n  ")
        elif not diff and c.known_bug:
            bad += 1
            print(f"KNOWN BUG NOW PASSES {c.name}")
        if not check:
            RECORDS.mkdir(parents=True, exist_ok=True)
            (RECORDS / f"{c.name}.json").write_text(dumps(c.data()) + "\n", encoding="utf-8")
    if not check and not only:
        ours = {p for p in RECORDS.glob("*.json") if owns(p)}
        for stale in ours - {RECORDS / f"{n}.json" for n in names}:
            print(f"removing {stale.name}")
            stale.unlink()
    bugs = sum(1 for c in cases if c.known_bug)
    print(f"{len(cases)} cases ({bugs} known engine bugs), {bad} differing unexpectedly")
    return 1 if bad else 0


# ======================================================================================
# The cases
# ======================================================================================

# CASES-START


def one_hand(
    preset: str,
    players: int,
    pred: Callable[[Game], bool],
    prefer: Prefer | None = None,
    start: int = 0,
    opener: Callable[[int], int | None] | None = None,
    **options: Any,
) -> Game:
    """The first seed whose randomly played first hand satisfies ``pred``."""

    def build(seed: int) -> Game | None:
        game = new_game(preset, players, **options)
        game.start_hand(seed=seed, opener=opener(seed) if opener else None)
        play(game, random.Random(seed), prefer)
        return game if pred(game) else None

    return search(build, start)


def next_hand(
    game: Game,
    pred: Callable[[Game], bool],
    prefer: Prefer | None = None,
    start: int = 1000,
    opener: int | None = None,
    stop: int = 10**9,
) -> Game:
    """Add to a copy of ``game`` the first seeded hand that satisfies ``pred``."""
    base = record_of(game)

    def build(seed: int) -> Game | None:
        again = load(base)
        again.start_hand(seed=seed, opener=opener)
        play(again, random.Random(seed), prefer, stop)
        return again if pred(again) else None

    return search(build, start)


def ended(kind: str) -> Callable[[Game], bool]:
    return lambda g: last(g).result is not None and last(g).result.end == kind


def blocked_teams(cond: Callable[[list[int], Any], bool]) -> Callable[[Game], bool]:
    """A blocked hand whose team pips (and log) satisfy ``cond``."""

    def pred(g: Game) -> bool:
        log = last(g)
        if log.result is None or log.result.end != "blocked":
            return False
        return cond(team_pips(list(log.result.pips)), log)

    return pred


# ----- partnership: ways a hand ends, blocked ties ------------------------------------


@builder
def partnership_hands() -> Iterable[Case]:
    g = one_hand("partnership", 4, ended("domino"))
    yield case(
        "partnership_domino",
        "First hand: the 6-6 holder opens with it; a player goes out and the LOSING team "
        "writes its own remaining pips (score_to = loser).",
        record_of(g),
    )
    g = one_hand("partnership", 4, blocked_teams(lambda tp, log: tp[0] != tp[1]))
    yield case(
        "partnership_blocked",
        "Blocked hand: the team with fewer pips wins; the other team writes its own pips.",
        record_of(g),
    )
    # A blocked tie closed by the team that did not open, so every tie rule differs
    # from at least one other.
    tie = one_hand(
        "partnership",
        4,
        blocked_teams(lambda tp, log: tp[0] == tp[1] and log.state.closer % 2 != log.opener % 2),
    )
    rec = record_of(tie)
    log = last(tie)
    closer, opener = log.state.closer, log.opener
    tp = team_pips(list(log.result.pips))[0]
    yield case(
        "partnership_blocked_tie_closer_wins",
        f"Blocked with both teams on {tp} pips: by default the closer's team (seat {closer}, "
        f"team {closer % 2}) wins, so team {1 - closer % 2} writes its {tp}.",
        rec,
    )
    yield case(
        "partnership_blocked_tie_closer_loses",
        f"The same blocked tie with blocked_tie = closer_loses: team {closer % 2} (closer "
        f"seat {closer}) loses and writes its {tp}.",
        with_options(rec, blocked_tie="closer_loses"),
    )
    yield case(
        "partnership_blocked_tie_opener_team_wins",
        f"The same blocked tie with blocked_tie = opener_team_wins: the opener seat {opener} "
        f"'had the hand', team {opener % 2} wins, team {1 - opener % 2} writes {tp}.",
        with_options(rec, blocked_tie="opener_team_wins"),
    )
    nobody = with_options(rec, blocked_tie="nobody")
    yield case(
        "partnership_blocked_tie_nobody",
        "The same blocked tie with blocked_tie = nobody: nobody wins and nothing is written.",
        nobody,
    )
    # the next hand is opened by the same player (not the 6-6 holder of the new deal)
    again = next_hand(
        load(nobody),
        lambda g: (
            ended("domino")(g) and not any(t == Tile.parse("6-6") for t in last(g).deal[opener])
        ),
    )
    two = record_of(again)
    yield case(
        "partnership_tie_nobody_same_opener_next_hand",
        f"After a blocked tie that nobody won, seat {opener}, who opened it, opens the next "
        "hand again (with any tile), though another seat holds the 6-6.",
        two,
    )
    bad = copy(two)
    bad["hands"][1]["opener"] = (opener + 1) % 4
    yield refused(
        "partnership_tie_nobody_other_opener_refused",
        "After a tie that nobody won only the same opener may open: naming another seat "
        "is refused.",
        bad,
        f"hand 1: seat {(opener + 1) % 4} may not open this hand; seat {opener} opens it",
    )


# ----- redeals ----------------------------------------------------------------------------


def first_shuffle(preset: str, seed: int, players: int = 4) -> list[list[ref.Tile]]:
    cfg = ref.config({"preset": preset})
    size = ref.hand_size(cfg.family, cfg.set, players)
    return ref.deal_of(ref.shuffled(seed, 0, ref.set_tiles(cfg.set)), players, size)


def holder(deal: list[list[ref.Tile]], t: ref.Tile) -> int:
    return next(s for s, h in enumerate(deal) if t in h)


def seeded(game: Game, index: int, seed: int) -> dict[str, Any]:
    """The record of ``game`` with hand ``index`` given by its seed instead of its deal."""
    rec = record_of(game)
    rec["hands"][index] = {"seed": seed, "moves": rec["hands"][index]["moves"]}
    return rec


def played(rec: dict[str, Any], seed: int, prefer: Prefer | None = None) -> dict[str, Any]:
    """``rec`` with its last hand (given by its deal) played out with random moves."""
    game = load(rec)
    play(game, random.Random(seed), prefer)
    return record_of(game)


def deal_texts(deal: list[list[ref.Tile]]) -> list[list[str]]:
    return [[ref.text(t) for t in sorted(h, reverse=True)] for h in deal]


@builder
def redeals() -> Iterable[Case]:
    six = (6, 6)
    for limit, options in ((5, {}), (4, {"redeal_doubles": 4})):

        def first_bad(
            seed: int, limit: int = limit, options: dict[str, Any] = options
        ) -> Game | None:
            deal = first_shuffle("partnership", seed)
            most = max(len(ref.doubles(h)) for h in deal)
            if most != limit:
                return None
            game = new_game("partnership", 4, **options)
            game.start_hand(seed=seed)
            if holder([[ref.tile(str(t)) for t in h] for h in last(game).deal], six) == holder(
                deal, six
            ):
                return None
            play(game, random.Random(seed))
            return game

        g = search(first_bad)
        seed = last(g).seed
        rec = seeded(g, 0, seed)
        deal = first_shuffle("partnership", seed)
        seat = next(s for s, h in enumerate(deal) if len(ref.doubles(h)) >= limit)
        label = "default 5" if limit == 5 else "option 4"
        yield case(
            f"partnership_redeal_doubles_{limit}_seed",
            f"Seed {seed}'s first shuffle gives seat {seat} {limit} doubles (redeal_doubles "
            f"{label}), so the hand is dealt again; the moves fit only the redealt deal.",
            rec,
        )
        bad = copy(rec)
        bad["hands"][0] = {"deal": deal_texts(deal), "moves": []}
        yield refused(
            f"partnership_redeal_doubles_{limit}_deal_refused",
            f"An explicit deal giving seat {seat} {limit} doubles breaks redeal_doubles "
            f"{label}: it is refused.",
            bad,
            f"hand 0: this deal would be dealt again: seat {seat} holds {limit} doubles",
        )
        if limit == 5:
            off = played(with_options(bad, redeal_doubles=None), seed)
            yield case(
                "partnership_redeal_off_five_doubles_played",
                "With redeal_doubles off (null) a hand with five doubles is played as dealt.",
                off,
            )
        if limit == 4:
            four = copy(bad)
            four["rules"]["options"] = {}
            four = played(four, seed)
            yield case(
                "partnership_four_doubles_played_by_default",
                "Four doubles in one hand do not reach the default redeal_doubles 5: the "
                "deal is played as dealt.",
                four,
            )


def holds(g: Game, seat: int, text: str) -> bool:
    return Tile.parse(text) in last(g).deal[seat]


def doubles_of(g: Game, seat: int) -> list[Tile]:
    return sorted((t for t in last(g).deal[seat] if t.is_double), reverse=True)


@builder
def must_open_with_double() -> Iterable[Case]:
    opts = {"must_open_with_double": True}
    g1 = one_hand("partnership", 4, ended("domino"), **opts)
    op = last(g1).state.closer
    mate = (op + 2) % 4
    g = next_hand(
        g1,
        lambda g: (
            len(doubles_of(g, op)) >= 2
            and not holds(g, op, "6-6")
            and last(g).state.moves[0].tile == doubles_of(g, op)[1]
        ),
        stop=6,
    )
    rec = record_of(g)
    top, low = doubles_of(g, op)[:2]
    yield case(
        "partnership_must_open_with_double",
        f"must_open_with_double: seat {op} went out, so opens hand 1, with any double it "
        f"holds: here {low}, not its highest {top} (in progress after six moves).",
        rec,
    )
    plain = next(t for t in last(g).deal[op] if not t.is_double)
    options = ", ".join(str(t) for t in sorted(doubles_of(g, op)))
    bad = copy(rec)
    bad["hands"][1]["moves"] = [f"{op}: {plain}"]
    yield refused(
        "partnership_must_open_with_double_not_double_refused",
        f"must_open_with_double: opening with {plain}, not a double, is refused.",
        bad,
        f"hand 1, move 0 ('{op}: {plain}'): this hand must open with {options}",
    )
    g = next_hand(g1, lambda g: not doubles_of(g, op) and bool(doubles_of(g, mate)), stop=6)
    yield case(
        "partnership_must_open_with_double_partner_opens",
        f"must_open_with_double: seat {op} went out but holds no double in hand 1, so its "
        f"partner (seat {mate}) opens with one of its doubles: the opening TEAM opens.",
        record_of(g),
    )
    bad = record_of(g)
    bad["hands"][1]["opener"] = op
    bad["hands"][1]["moves"] = []
    yield refused(
        "partnership_must_open_with_double_named_without_double_refused",
        f"must_open_with_double: seat {op} holds no double, so a record may not name it to "
        "open hand 1 (its partner may).",
        bad,
        f"hand 1: seat {op} holds no double and may not open; seat {mate} may",
    )

    def no_double(seed: int) -> bool:
        deal = first_shuffle("partnership", seed)
        return not ref.doubles(deal[op] + deal[mate]) and max(len(ref.doubles(h)) for h in deal) < 5

    seed = next(s for s in range(SEARCH) if no_double(s))
    bad = copy(rec)
    bad["hands"][1] = {"deal": deal_texts(first_shuffle("partnership", seed)), "moves": []}
    yield refused(
        "partnership_must_open_with_double_no_double_deal_refused",
        f"must_open_with_double: a deal where neither seat {op} nor its partner holds a "
        "double must be dealt again, so an explicit one is refused.",
        bad,
        f"hand 1: this deal would be dealt again: the opening side (seat {op}) holds no double",
    )
    again = load(record_of(g1))
    again.start_hand(seed=seed)
    play(again, random.Random(seed))
    assert last(again).redeals >= 1
    yield case(
        "partnership_must_open_with_double_redeal_seed",
        f"must_open_with_double: seed {seed}'s first shuffle leaves the opening team (seats "
        f"{op} and {mate}) without a double, so hand 1 is dealt again; the moves fit the "
        "redealt deal.",
        seeded(again, 1, seed),
    )


@builder
def partnership_openers() -> Iterable[Case]:
    g1 = one_hand("partnership", 4, ended("domino"))
    rec1 = record_of(g1)
    h = last(g1).opener
    x = (h + 1) % 4
    other = str(last(g1).deal[x][0])
    bad = copy(rec1)
    bad["hands"][0]["moves"] = [f"{x}: {other}"]
    yield refused(
        "partnership_first_hand_other_seat_refused",
        f"First hand: seat {h} holds the 6-6 and opens; seat {x} opening is refused.",
        bad,
        f"hand 0, move 0 ('{x}: {other}'): it is seat {h}'s turn, not seat {x}'s",
    )
    mine = str(next(t for t in last(g1).deal[h] if str(t) != "6-6"))
    bad = copy(rec1)
    bad["hands"][0]["moves"] = [f"{h}: {mine}"]
    yield refused(
        "partnership_first_hand_other_tile_refused",
        f"First hand: the 6-6 holder (seat {h}) must open with the 6-6, not {mine}.",
        bad,
        f"hand 0, move 0 ('{h}: {mine}'): this hand must open with 6-6",
    )
    bad = copy(rec1)
    bad["hands"][0]["opener"] = x
    yield refused(
        "partnership_first_hand_opener_field_refused",
        f"First hand: an 'opener' naming seat {x} instead of the 6-6 holder is refused.",
        bad,
        f"hand 0: seat {x} may not open this hand; seat {h} opens it",
    )

    w = last(g1).state.closer
    g = next_hand(g1, lambda g: not holds(g, w, "6-6"), open_with(not_double))
    yield case(
        "partnership_next_opener_domino_winner",
        f"Seat {w} went out in hand 0, so seat {w} opens hand 1 (next_opener = winner), with "
        "a tile that is not a double, though it does not hold the 6-6.",
        record_of(g),
    )
    partner = (w + 2) % 4
    g = next_hand(g1, ended("domino"), opener=partner)
    yield case(
        "partnership_opener_partner_allowed",
        f"Seat {w} went out; its partner seat {partner} is named as opener of hand 1 (the "
        "winning team's choice), which is allowed.",
        record_of(g),
    )
    bad = record_of(g)
    bad["hands"][1]["opener"] = (w + 1) % 4
    team = sorted((w, partner))
    yield refused(
        "partnership_opener_opponent_refused",
        f"Seat {w}'s team won hand 0; naming opponent seat {(w + 1) % 4} as opener is refused.",
        bad,
        f"hand 1: seat {(w + 1) % 4} may not open this hand; seats {team[0]}, {team[1]} may",
    )

    def winners(log: Any) -> list[int]:
        tp = team_pips(list(log.result.pips))
        won = 0 if tp[0] < tp[1] else 1
        return [won, won + 2]

    def fewer_not_closer(tp: list[int], log: Any) -> bool:
        if tp[0] == tp[1]:
            return False
        a, b = winners(log)
        p = log.result.pips
        return p[a] != p[b] and log.state.closer != (a if p[a] < p[b] else b)

    g1 = one_hand("partnership", 4, blocked_teams(fewer_not_closer))
    a, b = winners(last(g1))
    p = last(g1).result.pips
    fewer = a if p[a] < p[b] else b
    g = next_hand(g1, ended("domino"))
    yield case(
        "partnership_next_opener_blocked_fewer_pips",
        f"Hand 0 is blocked and won by seats {a} and {b} ({p[a]} and {p[b]} pips): seat "
        f"{fewer}, with fewer pips, opens hand 1 (not the closer, seat {last(g1).state.closer}).",
        record_of(g),
    )

    def pips_tie(closer_wins_team: bool) -> Callable[[list[int], Any], bool]:
        def cond(tp: list[int], log: Any) -> bool:
            if tp[0] == tp[1]:
                return False
            a, b = winners(log)
            p = log.result.pips
            return p[a] == p[b] and (log.state.closer in (a, b)) == closer_wins_team

        return cond

    g1 = one_hand("partnership", 4, blocked_teams(pips_tie(True)))
    a, b = winners(last(g1))
    c = last(g1).state.closer
    g = next_hand(g1, ended("domino"))
    yield case(
        "partnership_next_opener_blocked_pips_tie_closer",
        f"Hand 0 is blocked; the winners, seats {a} and {b}, hold the same pips: the one who "
        f"closed, seat {c}, opens hand 1.",
        record_of(g),
    )
    g1 = one_hand("partnership", 4, blocked_teams(pips_tie(False)))
    a, b = winners(last(g1))
    c = last(g1).state.closer
    g = next_hand(g1, ended("domino"))
    yield case(
        "partnership_next_opener_blocked_pips_tie_after_closer",
        f"Hand 0 is blocked and closed by seat {c}, whose team lost; the winners, seats {a} "
        f"and {b}, hold the same pips: seat {(c + 1) % 4}, the first after the closer, opens.",
        record_of(g),
    )

    rot = one_hand(
        "partnership",
        4,
        lambda g: ended("domino")(g) and (last(g).opener + 1) % 2 != last(g).state.closer % 2,
        next_opener="rotate",
    )
    o = last(rot).opener
    g = next_hand(rot, ended("domino"))
    yield case(
        "partnership_next_opener_rotate",
        f"next_opener = rotate: seat {o} opened hand 0, so seat {(o + 1) % 4} opens hand 1 "
        "although its team lost hand 0.",
        record_of(g),
    )
    hd = one_hand("partnership", 4, ended("domino"), next_opener="holder_of_highest_double")
    lost = 1 - last(hd).state.closer % 2
    g = next_hand(
        hd,
        lambda g: any(holds(g, s, "6-6") for s in (lost, lost + 2)),
        open_with(not_double),
    )
    six = next(s for s in range(4) if holds(g, s, "6-6"))
    yield case(
        "partnership_next_opener_holder_of_highest_double",
        f"next_opener = holder_of_highest_double: seat {six} holds the 6-6 of hand 1 and "
        "opens it (with any tile, as every later hand), although its team lost hand 0.",
        record_of(g),
    )


# ----- scoring -----------------------------------------------------------------------------


def whole_game(
    preset: str,
    players: int,
    pred: Callable[[Game], bool] = lambda g: True,
    start: int = 0,
    max_hands: int = 40,
    **options: Any,
) -> Game:
    """The first seed whose randomly played game ends and satisfies ``pred``."""

    def build(seed: int) -> Game | None:
        game = new_game(preset, players, **options)
        for i in range(max_hands):
            hand_seed = seed * 1000 + i
            game.start_hand(seed=hand_seed)
            play(game, random.Random(hand_seed))
            if game.over:
                return game if pred(game) else None
        return None

    return search(build, start, 5000)


def scores_line(g: Game) -> str:
    return f"{len(g.logs)} hands, final scores {g.scores}"


@builder
def partnership_scoring() -> Iterable[Case]:
    g = whole_game("partnership", 4)
    yield case(
        "partnership_game_to_100",
        "A whole game, score_to = loser, target 100: each hand the losing team writes its "
        f"own pips; the team that reaches 100 LOSES ({scores_line(g)}).",
        record_of(g),
    )
    g = whole_game("partnership", 4, target=50)
    yield case(
        "partnership_game_target_50",
        f"Target 50 (score_to = loser): the team reaching 50 loses ({scores_line(g)}).",
        record_of(g),
    )
    g = whole_game("partnership", 4, lambda g: max(g.scores) >= 150, target=200)
    yield case(
        "partnership_game_target_200",
        "Target 200 (score_to = loser): the game goes on past 100 and ends when a team "
        f"reaches 200, which loses ({scores_line(g)}).",
        record_of(g),
    )
    g = whole_game("partnership", 4, score_to="winner")
    yield case(
        "partnership_score_to_winner_game_to_100",
        "score_to = winner: the winning team writes the losing team's pips and WINS on "
        f"reaching 100 ({scores_line(g)}).",
        record_of(g),
    )
    g = whole_game("partnership", 4, score_to="winner", target=50)
    yield case(
        "partnership_score_to_winner_target_50",
        f"score_to = winner, target 50: the first team to 50 wins ({scores_line(g)}).",
        record_of(g),
    )
    g = one_hand(
        "partnership",
        4,
        lambda g: ended("domino")(g) and max(last(g).result.points) % 10 not in (0, 1),
        tens_scoring=True,
    )
    yield case(
        "partnership_tens_scoring_hand",
        "tens_scoring: the losing team's pips are divided by 10 rounding up.",
        record_of(g),
    )
    g = whole_game("partnership", 4, lambda g: len(g.logs) <= 20, tens_scoring=True)
    yield case(
        "partnership_tens_scoring_game_to_40",
        "tens_scoring without a target: the target becomes 40 (tens); the team reaching "
        f"it loses ({scores_line(g)}).",
        record_of(g),
    )
    g = whole_game("partnership", 4, tens_scoring=True, target=10)
    yield case(
        "partnership_tens_scoring_target_10",
        f"tens_scoring with target 10 given: the given target stands ({scores_line(g)}).",
        record_of(g),
    )


@builder
def blocked_both_score() -> Iterable[Case]:
    g1 = one_hand(
        "partnership",
        4,
        blocked_teams(lambda tp, log: tp[0] != tp[1] and min(tp) >= 10),
        blocked_both_score=True,
    )
    rec = record_of(g1)
    tp = team_pips(list(last(g1).result.pips))
    yield case(
        "partnership_blocked_both_score",
        f"blocked_both_score: on a blocked hand both teams write their own pips ({tp}).",
        rec,
    )
    high = 0 if tp[0] > tp[1] else 1
    yield case(
        "partnership_blocked_both_score_one_reaches_target",
        f"blocked_both_score with target {max(tp)}: only team {high} reaches it and loses.",
        with_options(rec, target=max(tp)),
    )
    both = load(with_options(rec, target=min(tp)))
    assert not both.over

    def won_by_leader(g: Game) -> bool:
        res = last(g).result
        return (
            res is not None
            and res.winner is not None
            and res.winner == (0 if g.scores[0] > g.scores[1] else 1)
        )

    g = next_hand(both, won_by_leader)
    yield case(
        "partnership_blocked_both_score_deciding_hand",
        f"blocked_both_score with target {min(tp)}: both teams reach it in the same blocked "
        "hand, so one more hand is played; its winner (by the usual hand rules) wins the game, "
        "even with more points on the sheet.",
        record_of(g),
    )


# ----- tournament_pr -------------------------------------------------------------------------


def with_clock(rec: dict[str, Any], hand: int, at: int) -> dict[str, Any]:
    out = copy(rec)
    out["hands"][hand]["time_up_at"] = at
    return out


@builder
def tournament() -> Iterable[Case]:
    t = "tournament_pr"
    g = one_hand(t, 4, ended("domino"), opener=lambda s: s % 4)
    yield case(
        "tournament_pr_domino",
        "Tournament domino: the winning team scores the pips left in ALL hands (both teams').",
        record_of(g),
    )
    g = one_hand(
        t,
        4,
        lambda g: not holds(g, last(g).opener, "6-6") and ended("domino")(g),
        open_with(not_double),
        opener=lambda s: s % 4,
    )
    o = last(g).opener
    yield case(
        "tournament_pr_first_hand_opener_any_seat",
        f"Tournament first hand: the tile draw is recorded as 'opener' = {o}; any seat may be "
        "named, and it opens with any tile (here not a double, and it lacks the 6-6).",
        record_of(g),
    )
    g = one_hand(t, 4, blocked_teams(lambda tp, log: tp[0] != tp[1]), opener=lambda s: s % 4)
    yield case(
        "tournament_pr_blocked",
        "Tournament blocked hand: the team with fewer pips scores the pips of all hands.",
        record_of(g),
    )
    tie = one_hand(
        t,
        4,
        blocked_teams(lambda tp, log: tp[0] == tp[1] and log.state.closer != log.opener),
        opener=lambda s: s % 4,
    )
    o, c = last(tie).opener, last(tie).state.closer
    g = next_hand(tie, ended("domino"))
    yield case(
        "tournament_pr_blocked_tie_same_opener",
        f"Tournament blocked tie: nothing is scored and seat {o}, who opened it, opens the "
        f"next hand again (not seat {c}, who placed the last tile).",
        record_of(g),
    )
    lp = one_hand(
        t,
        4,
        blocked_teams(lambda tp, log: tp[log.state.closer % 2] > tp[1 - log.state.closer % 2]),
        opener=lambda s: s % 4,
    )
    c = last(lp).state.closer
    g = next_hand(lp, ended("domino"))
    rec = record_of(g)
    yield case(
        "tournament_pr_next_opener_last_player",
        f"Tournament: seat {c} placed the last tile of a blocked hand its team lost; it opens "
        "the next hand (next_opener = last_player).",
        rec,
    )
    bad = copy(rec)
    bad["hands"][1]["opener"] = (c + 1) % 4
    yield refused(
        "tournament_pr_next_opener_winner_refused",
        f"Tournament: after hand 0 only seat {c} (who placed the last tile) may open; "
        f"naming seat {(c + 1) % 4} of the winning team is refused.",
        bad,
        f"hand 1: seat {(c + 1) % 4} may not open this hand; seat {c} opens it",
    )
    g = whole_game(t, 4)
    yield case(
        "tournament_pr_game_to_200",
        f"A whole tournament game: the first team to 200 WINS ({scores_line(g)}).",
        record_of(g),
    )


@builder
def tournament_clock() -> Iterable[Case]:
    t = "tournament_pr"
    g1 = one_hand(t, 4, ended("domino"), opener=lambda s: s % 4)
    w = last(g1).state.closer % 2

    def clocked(game: Game, at: int, pred: Callable[[Game], bool], start: int = 1000) -> Game:
        base = record_of(game)

        def build(seed: int) -> Game | None:
            again = load(base)
            again.start_hand(seed=seed)
            rng = random.Random(seed)
            play(again, rng, stop=at)
            again.expire_clock()
            play(again, rng)
            return again if pred(again) else None

        return search(build, start)

    g = clocked(g1, 5, lambda g: ended("domino")(g) and g.scores[0] != g.scores[1])
    yield case(
        "tournament_pr_time_up_finish_hand",
        "The 40-minute clock runs out after move 5 of hand 1; the hand is played to its end, "
        "then the team with more points wins.",
        record_of(g),
    )
    tie = one_hand(t, 4, blocked_teams(lambda tp, log: tp[0] == tp[1]), opener=lambda s: s % 4)
    rec = with_clock(record_of(tie), 0, 7)
    yield case(
        "tournament_pr_time_up_tie_not_over",
        "The clock runs out during hand 0, which ends in a blocked tie (0-0): the game is "
        "not over, one more hand must be played.",
        rec,
    )
    g = next_hand(load(rec), ended("domino"))
    yield case(
        "tournament_pr_time_up_tie_one_more_hand",
        "Clock out in a hand that ends tied 0-0; the one more hand decides: its winners win.",
        record_of(g),
    )
    imm = with_options(record_of(g1), time_limit_ends="immediately")
    g = clocked(load(imm), 6, lambda g: True)
    rec = record_of(g)
    yield case(
        "tournament_pr_time_up_immediately_void",
        f"time_limit_ends = immediately: the clock runs out after move 6 of hand 1, which is "
        f"void (no points); team {w}, ahead from hand 0, wins.",
        rec,
    )
    bad = copy(rec)
    nxt = load(record_of(g1))
    nxt.start_hand(seed=1000)
    play(nxt, random.Random(1000), stop=8)
    bad["hands"][1]["moves"] = [str(m) for m in last(nxt).state.moves]
    yield refused(
        "tournament_pr_time_up_immediately_moves_after_refused",
        "time_limit_ends = immediately: the hand is void from time_up_at on; a move after it "
        "is refused.",
        bad,
        f"hand 1, move 6 ({bad['hands'][1]['moves'][6]!r}): the hand is already over",
    )
    bad = with_clock(record_of(g1), 0, len(record_of(g1)["hands"][0]["moves"]) + 1)
    yield refused(
        "error_time_up_at_past_last_move",
        "time_up_at counts the moves of its hand; one past the last move is refused.",
        bad,
        f"hand 0: time_up_at {bad['hands'][0]['time_up_at']} is past the last move",
    )
    bad = with_clock(record_of(g1), 0, -1)
    yield Case(
        "error_time_up_at_negative",
        "time_up_at is a move index; a negative one is malformed and must be refused.",
        bad,
        error="time_up_at",
    )
    p1 = one_hand("partnership", 4, ended("domino"))
    yield Case(
        "partnership_time_up_without_clock_refused",
        "Partnership has no game clock (time_limit_minutes 0 = none), so a record saying the "
        "clock ran out (time_up_at) is malformed.",
        with_clock(record_of(p1), 0, 3),
        error="time_up_at",
    )
    g0 = new_game(t, 4, time_limit_ends="immediately")
    g0.start_hand(seed=5, opener=1)
    play(g0, random.Random(5), stop=9)
    g0.expire_clock()
    g = next_hand(g0, ended("domino"))
    yield case(
        "tournament_pr_time_up_immediately_tie_one_more_hand",
        "time_limit_ends = immediately during hand 0: it is void, the score is 0-0, so one "
        "more hand is played and its winners win.",
        record_of(g),
    )


# ----- block and draw ------------------------------------------------------------------------


def solo_blocked(cond: Callable[[list[int]], bool]) -> Callable[[Game], bool]:
    def pred(g: Game) -> bool:
        res = last(g).result
        return res is not None and res.end == "blocked" and cond(list(res.pips))

    return pred


def unique_min(p: list[int]) -> bool:
    return p.count(min(p)) == 1


def explicit_hand(
    preset: str,
    players: int,
    deal: list[list[str]],
    seed: int,
    boneyard: list[str] | None = None,
    **options: Any,
) -> Game:
    rec = {
        "format": "domino-record/1",
        "rules": {"preset": preset, "options": options},
        "players": NAMES[:players],
        "hands": [{"deal": deal, "boneyard": boneyard or [], "moves": []}],
    }
    game = load(rec)
    play(game, random.Random(seed))
    return game


@builder
def block() -> Iterable[Case]:
    for n in (2, 3, 4):
        g = one_hand("block", n, ended("domino"))
        yield case(
            f"block_{n}p_domino",
            f"Block, {n} players: the player who goes out scores all opponents' pips.",
            record_of(g),
        )
        g = one_hand("block", n, solo_blocked(lambda p: unique_min(p) and min(p) > 0))
        yield case(
            f"block_{n}p_blocked",
            f"Block, {n} players, blocked: the player with fewest pips scores every other "
            "player's pips.",
            record_of(g),
        )
    tie = one_hand("block", 3, solo_blocked(lambda p: not unique_min(p)))
    o = last(tie).opener

    def other_opener(g: Game) -> bool:
        return ended("domino")(g) and last(g).opener != o

    g = next_hand(tie, other_opener)
    yield case(
        "block_3p_blocked_tie_next_hand",
        "Block, 3 players: a blocked hand tied for fewest pips scores nothing; the next hand "
        "is opened by its own highest-double holder as always (not the same opener).",
        record_of(g),
    )
    g = one_hand("block", 2, ended("domino"), open_with(not_double))
    o = last(g).opener
    rec = record_of(g)
    top = max(t for h in last(g).deal for t in h if t.is_double)
    yield case(
        "block_opener_highest_double_any_tile",
        f"Block: seat {o} holds the highest double dealt ({top}) and opens, with a tile that "
        "is not a double (any tile is allowed).",
        rec,
    )
    bad = copy(rec)
    x = 1 - o
    first = str(last(g).deal[x][0])
    bad["hands"][0]["moves"] = [f"{x}: {first}"]
    yield refused(
        "block_opener_other_seat_refused",
        f"Block: seat {o} holds the highest double, so seat {x} may not open.",
        bad,
        f"hand 0, move 0 ('{x}: {first}'): it is seat {o}'s turn, not seat {x}'s",
    )
    rng = random.Random(3)
    plain = [t for t in ref.set_tiles(6) if t[0] != t[1]]
    rng.shuffle(plain)
    deal = deal_texts([plain[:7], plain[7:14]])
    g = explicit_hand("block", 2, deal, 3)
    who = next(s for s, h in enumerate(deal) if "6-5" in h)
    yield case(
        "block_opener_highest_tile_no_double",
        f"Block: nobody holds a double, so seat {who}, holder of the highest tile 6-5, opens.",
        record_of(g),
    )
    doubles = [ref.text(t) for t in ref.set_tiles(6) if t[0] == t[1]]
    rest = [ref.text(t) for t in plain[14:]] + doubles
    rng.shuffle(rest)
    g = explicit_hand("draw", 2, deal, 4, boneyard=rest)
    yield case(
        "draw_opener_highest_tile_no_double",
        f"Draw game: every double is in the boneyard, so seat {who}, holder of the highest "
        "tile 6-5, opens.",
        record_of(g),
    )
    five = [
        ["6-6", "5-5", "4-4", "3-3", "2-2", "6-5", "4-1"],
        ["1-1", "0-0", "6-4", "5-3", "3-2", "2-1", "6-0"],
    ]
    yield refused(
        "block_redeal_doubles_5_deal_refused",
        "Block with the house rule redeal_doubles 5: a hand with five doubles is dealt again, "
        "so an explicit one is refused.",
        record("block", 2, [{"deal": five, "moves": []}], redeal_doubles=5),
        "hand 0: this deal would be dealt again: seat 0 holds 5 doubles",
    )
    yield case(
        "block_five_doubles_played_by_default",
        "Block has no redeal by default (redeal_doubles off): five doubles are played.",
        record_of(explicit_hand("block", 2, five, 5)),
    )


@builder
def block_scoring() -> Iterable[Case]:
    g = one_hand(
        "block", 2, solo_blocked(lambda p: unique_min(p) and min(p) > 0), winner_subtracts_own=True
    )
    yield case(
        "block_winner_subtracts_own",
        "winner_subtracts_own: a blocked hand's winner scores the others' pips less its own.",
        record_of(g),
    )
    g = one_hand("block", 3, ended("domino"), single_hand=True)
    yield case(
        "block_single_hand",
        "single_hand: one hand decides the game; its winner wins although far from 100.",
        record_of(g),
    )
    g = one_hand("block", 2, lambda g: ended("domino")(g) and max(g.scores) >= 20)
    worth = max(g.scores)
    rec = record_of(g)
    yield case(
        "block_instant_win_hand_points_reached",
        f"instant_win_hand_points {worth}: a hand worth exactly {worth} wins the game outright.",
        with_options(rec, instant_win_hand_points=worth),
    )
    yield case(
        "block_instant_win_hand_points_not_reached",
        f"instant_win_hand_points {worth + 1}: a hand worth {worth} does not end the game.",
        with_options(rec, instant_win_hand_points=worth + 1),
    )

    # min_opening_score 15: seat 0 wins under 15 (stays 0), seat 1 wins under 15 (stays 0),
    # seat 0 wins 15 or more (opens its score), seat 0 wins under 15 (now it counts).
    wants = [(0, False), (1, False), (0, True), (0, False)]
    game = new_game("block", 2, min_opening_score=15)
    for i, (seat, big) in enumerate(wants):

        def pred(g: Game, seat: int = seat, big: bool = big) -> bool:
            res = last(g).result
            if res is None or res.winner != seat:
                return False
            worth = sum(res.pips) - res.pips[seat]
            return worth >= 15 if big else 0 < worth < 15

        game = (
            next_hand(game, pred, start=100 * i)
            if game.logs
            else one_hand("block", 2, pred, min_opening_score=15)
        )
    yield case(
        "block_min_opening_score",
        "min_opening_score 15: a win worth under 15 leaves a score of 0 at 0; once a player "
        "wins a hand worth 15 or more, its later small wins count.",
        record_of(game),
    )
    g = whole_game("block", 2)
    yield case(
        "block_2p_game_to_100",
        f"A whole block game: the first player to 100 wins ({scores_line(g)}).",
        record_of(g),
    )
    g = whole_game("block", 3, target=50)
    yield case(
        "block_3p_game_target_50",
        f"Block, 3 players, target 50: the first to 50 wins ({scores_line(g)}).",
        record_of(g),
    )


def moves_of(g: Game, hand: int = -1) -> list[str]:
    return [str(m) for m in g.logs[hand].state.moves]


def find_pair(moves: list[str], first: str, then: Callable[[str, str], bool]) -> int | None:
    """Index of a move ending in ``first`` whose next move satisfies ``then(seat, move)``."""
    for i, (a, b) in enumerate(itertools.pairwise(moves)):
        seat = a.split(":")[0]
        if a.endswith(f": {first}") and then(seat, b):
            return i
    return None


def same_seat_plays(seat: str, move: str) -> bool:
    return move.startswith(f"{seat}:") and " on " in move


@builder
def draw() -> Iterable[Case]:
    def draws_twice(g: Game) -> bool:
        m = moves_of(g)
        return (
            ended("domino")(g) and find_pair(m, "draw", lambda s, b: b == f"{s}: draw") is not None
        )

    g = one_hand("draw", 2, draws_twice)
    rec = record_of(g)
    yield case(
        "draw_2p_domino_until_playable",
        "Draw game (until_playable): a player who cannot play draws, one move per tile, until "
        "a tile fits, then plays; the player who goes out scores the opponent's pips.",
        rec,
    )
    m = moves_of(g)
    i = find_pair(m, "draw", same_seat_plays)
    assert i is not None
    seat = m[i].split(":")[0]
    bad = copy(rec)
    bad["hands"][0]["moves"] = [*m[: i + 1], f"{seat}: pass"]
    yield refused(
        "draw_pass_after_drawing_playable_refused",
        "until_playable: after drawing a tile that fits, the player must play it; passing is "
        "refused.",
        bad,
        f"hand 0, move {i + 1} ('{seat}: pass'): you cannot pass while you can play",
    )
    j = next(k for k, mv in enumerate(m) if k > 0 and " on " in mv)
    seat = m[j].split(":")[0]
    bad = copy(rec)
    bad["hands"][0]["moves"] = [*m[:j], f"{seat}: draw"]
    yield refused(
        "draw_while_able_to_play_refused",
        "Draw game: a player who can play may not draw.",
        bad,
        f"hand 0, move {j} ('{seat}: draw'): you cannot draw now",
    )
    for n in (3, 4):
        g = one_hand("draw", n, ended("domino"))
        yield case(
            f"draw_{n}p_domino",
            f"Draw game, {n} players: the player who goes out scores all opponents' pips.",
            record_of(g),
        )
    for n in (2, 3):
        g = one_hand(
            "draw",
            n,
            solo_blocked(lambda p: unique_min(p)),
        )
        assert last(g).state.boneyard_left == 0
        yield case(
            f"draw_{n}p_blocked",
            f"Draw game, {n} players: blocked once the boneyard is empty and nobody can play; "
            "the player with fewest pips scores the others' pips.",
            record_of(g),
        )

    def one_then_pass(g: Game) -> bool:
        m = moves_of(g)
        passes = find_pair(m, "draw", lambda s, b: b == f"{s}: pass")
        plays = find_pair(m, "draw", same_seat_plays)
        return ended("domino")(g) and passes is not None and plays is not None

    g = one_hand("draw", 2, one_then_pass, draw_rule="one_then_pass")
    rec = record_of(g)
    yield case(
        "draw_one_then_pass",
        "draw_rule = one_then_pass: a player who cannot play draws one tile, plays it if it "
        "fits (here it does once), else passes (here once too).",
        rec,
    )
    m = moves_of(g)
    i = find_pair(m, "draw", lambda s, b: b == f"{s}: pass")
    assert i is not None
    seat = m[i].split(":")[0]
    bad = copy(rec)
    bad["hands"][0]["moves"] = [*m[: i + 1], f"{seat}: draw"]
    yield refused(
        "draw_one_then_pass_second_draw_refused",
        "draw_rule = one_then_pass: after one draw that does not fit the player passes; a "
        "second draw is refused.",
        bad,
        f"hand 0, move {i + 1} ('{seat}: draw'): you cannot draw now; you can: pass",
    )
    g = whole_game("draw", 3)
    yield case(
        "draw_3p_game_to_100",
        f"A whole draw game, 3 players: the first to 100 wins ({scores_line(g)}).",
        record_of(g),
    )


# ----- divisor games -----------------------------------------------------------------------


def fixed_deal(
    top: int,
    players: int,
    size: int,
    wanted: dict[int, list[str]],
    rng: random.Random,
    out: list[str] = (),  # type: ignore[assignment]
) -> tuple[list[list[str]], list[str]]:
    """Hands holding ``wanted[seat]`` filled with random tiles; ``out`` go to the boneyard."""
    taken = {ref.tile(t) for ts in wanted.values() for t in ts} | {ref.tile(t) for t in out}
    rest = [t for t in ref.set_tiles(top) if t not in taken]
    rng.shuffle(rest)
    hands: list[list[ref.Tile]] = []
    for seat in range(players):
        mine = [ref.tile(t) for t in wanted.get(seat, [])]
        while len(mine) < size:
            mine.append(rest.pop())
        hands.append(mine)
    bone = rest + [ref.tile(t) for t in out]
    rng.shuffle(bone)
    return deal_texts(hands), [ref.text(t) for t in bone]


def record(
    preset: str, players: int, hands: list[dict[str, Any]], **options: Any
) -> dict[str, Any]:
    return {
        "format": "domino-record/1",
        "rules": {"preset": preset, "options": options},
        "players": NAMES[:players],
        "hands": hands,
    }


def asleep(text: str) -> Callable[[Game], bool]:
    """A first hand in which the tile ``text`` was not dealt (it sleeps out of play)."""
    return lambda g: all(text not in map(str, hand) for hand in last(g).deal)


@builder
def cuban() -> Iterable[Case]:
    g = whole_game("cuban", 4)
    yield case(
        "cuban_game_to_100",
        "Cuban dominoes (double-9, ten tiles each, fifteen out of play): the winning team "
        f"writes the losing team's pips and WINS on reaching 100 ({scores_line(g)}).",
        record_of(g),
    )
    g = one_hand("cuban", 4, asleep("9-9"))
    opener = last(g).opener
    yield case(
        "cuban_first_hand_9_9_asleep",
        "Cuban first hand: the 9-9 sleeps out of play, so the holder of the highest double "
        f"dealt (seat {opener}) opens with it.",
        record_of(g),
    )
    g = one_hand("cuban", 4, ended("blocked"))
    yield case(
        "cuban_blocked",
        "Cuban blocked hand: with fifteen tiles asleep nobody holds a tile that fits; the "
        "team with fewer pips wins and writes the other team's pips.",
        record_of(g),
    )
    rng = random.Random(33)
    deal, _ = fixed_deal(9, 4, 10, {0: ["8-8"], 1: ["9-9"]}, rng)
    bad = record("cuban", 4, [{"deal": deal, "moves": ["0: 8-8"]}])
    yield refused(
        "cuban_opener_must_play_highest_double_refused",
        "Cuban first hand: the holder of the 9-9 opens with it; the 8-8 of another seat is "
        "refused.",
        bad,
        "hand 0, move 0 ('0: 8-8'): it is seat 1's turn, not seat 0's",
    )


SEED_004 = [
    ("on_12_8_end", "3: 18-8 on 12-8", 54, "on the free 8 end: ends 18, 18, 18"),
    (
        "on_half",
        "3: 18-8 on 18-18 half",
        34,
        "on one of the two free 18 ends, a half: ends 18, 8, 8",
    ),
    (
        "on_flank",
        "3: 18-8 on 18-18 flank",
        52,
        "on the opening double's other flank: ends 18, 18, 8, 8",
    ),
]


@builder
def divisor_examples() -> Iterable[Case]:
    rng = random.Random(4)
    wanted = {0: ["18-18"], 1: ["18-12"], 2: ["12-8"], 3: ["18-8"]}
    deal, bone = fixed_deal(18, 4, 12, wanted, rng)
    steps = ["0: 18-18", "1: 18-12 on 18-18 flank", "2: 12-8 on 18-12"]
    live = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]]
    about = [
        "Seed 004, double-18, divisor 11: the 18-18 opens, count 36, no score.",
        "Seed 004: 18-12 on the 18-18 (the second tile goes on a flank): ends 18, 18, 12, "
        "count 48, no score.",
        "Seed 004: 12-8 on the 12: ends 18, 18, 8, count 44 = 4 x 11, the player (seat 2) "
        "scores 4.",
    ]
    names = [
        "fido18_seed004_opening_36",
        "fido18_seed004_18_12_flank_48",
        "fido18_seed004_12_8_scores_4",
    ]
    for k, (count, name) in enumerate(zip((36, 48, 44), names, strict=True)):
        rec = record("fido18", 4, [{"deal": deal, "boneyard": bone, "moves": steps[: k + 1]}])
        c = case(name, about[k], rec)
        assert c.expect is not None
        assert c.expect["hands"][0]["count"] == count and c.expect["scores"] == live[k]
        yield c
    for name, move, count, where in SEED_004:
        rec = record("fido18", 4, [{"deal": deal, "boneyard": bone, "moves": [*steps, move]}])
        c = case(
            f"fido18_seed004_18_8_{name}",
            f"Seed 004: after 18-18, 18-12, 12-8 (seat 2 scored 4), the 18-8 {where}, count "
            f"{count}: no score (not a multiple of 11).",
            rec,
        )
        assert c.expect is not None
        assert c.expect["hands"][0]["count"] == count and c.expect["scores"] == [0, 0, 4, 0]
        yield c
    bad = record(
        "fido18",
        4,
        [{"deal": deal, "boneyard": bone, "moves": ["0: 18-18", "1: 18-12 on 18-18 half"]}],
    )
    yield refused(
        "fido18_second_tile_on_half_refused",
        "Divisor games: the second tile of a hand goes on a flank of the opening double; a "
        "half is refused.",
        bad,
        "hand 0, move 1 ('1: 18-12 on 18-18 half'): 18-12 cannot go there",
    )

    deal, bone = fixed_deal(18, 4, 12, {0: ["16-16"], 2: ["17-17", "17-5"]}, rng, out=["18-18"])
    rec = record("fido18", 4, [{"deal": deal, "boneyard": bone, "moves": []}])
    g = load(rec)
    play(g, random.Random(2), stop=4)
    yield case(
        "fido18_opener_next_highest_double",
        "Divisor opener: nobody holds the 18-18 (it is in the boneyard), so seat 2, holder "
        "of the 17-17, opens with it (count 34).",
        record_of(g),
    )
    bad = copy(rec)
    bad["hands"][0]["moves"] = ["2: 17-5"]
    yield refused(
        "fido18_opener_must_play_highest_double_refused",
        "Divisor opener: the holder of the highest double dealt must open with it.",
        bad,
        "hand 0, move 0 ('2: 17-5'): this hand must open with 17-17",
    )

    deal, bone = fixed_deal(6, 2, 7, {1: ["5-5"]}, rng, out=["6-6"])
    rec = record("all_fives", 2, [{"deal": deal, "boneyard": bone, "moves": ["1: 5-5"]}])
    c = case(
        "all_fives_opening_5_5_scores_2",
        "All-fives: the 6-6 is in the boneyard, so the 5-5 holder opens; count 10 = 2 x 5, "
        "the opener scores 2 at once.",
        rec,
    )
    assert c.expect is not None and c.expect["scores"] == [0, 2]
    assert c.expect["hands"][0]["count"] == 10
    yield c


def chain_block(preset: str, top: int, players: int, size: int, seed: int) -> dict[str, Any]:
    """A divisor hand that blocks: every tile with ``top`` is played in chains
    top-a, a-b, b-top, so every open side shows ``top``; then the boneyard is drawn out."""
    n = top
    plays: list[str] = [f"{n}-{n}"]
    places = [f"{n}-{n} flank", f"{n}-{n} half", f"{n}-{n} flank", f"{n}-{n} half"]
    ends: list[str] = []
    for a in range(0, n, 2):
        b = a + 1
        where = places.pop(0) if places else ends.pop(0)
        plays += [f"{n}-{a} on {where}", f"{b}-{a} on {n}-{a}", f"{n}-{b} on {b}-{a}"]
        ends.append(f"{n}-{b}")
    wanted: dict[int, list[str]] = {}
    moves = []
    for i, p in enumerate(plays):
        seat = i % players
        wanted.setdefault(seat, []).append(p.split()[0])
        moves.append(f"{seat}: {p}")
    rng = random.Random(seed)
    taken = {ref.tile(t) for ts in wanted.values() for t in ts}
    rest = [t for t in ref.set_tiles(top) if t not in taken and n not in t]
    rng.shuffle(rest)
    hands = []
    for seat in range(players):
        mine = [ref.tile(t) for t in wanted[seat]]
        while len(mine) < size:
            mine.append(rest.pop())
        hands.append(mine)
    seat = len(plays) % players
    for _ in rest:
        moves.append(f"{seat}: draw")
        seat = (seat + 1) % players
    bone = [ref.text(t) for t in rest]
    return record(preset, players, [{"deal": deal_texts(hands), "boneyard": bone, "moves": moves}])


@builder
def divisor_hands() -> Iterable[Case]:
    for preset, n in (("all_fives", 2), ("all_fives", 3), ("fido12", 2), ("fido18", 4)):
        g = one_hand(preset, n, lambda g: ended("domino")(g) and sum(last(g).state.scored) > 0)
        yield case(
            f"{preset}_{n}p_domino",
            "Divisor hand to a domino: the counts scored during play, less each player's "
            "remaining pips (none for the one who went out); one hand is the game.",
            record_of(g),
        )
    g = one_hand("all_fives", 2, ended("blocked"))
    yield case(
        "all_fives_2p_blocked",
        "All-fives blocked (boneyard empty, nobody can play): everyone subtracts their own "
        "remaining pips from what they scored during play.",
        record_of(g),
    )
    for preset, top, players in (("fido12", 12, 2), ("fido18", 18, 4)):
        rec = chain_block(preset, top, players, 12, top)
        yield case(
            f"{preset}_{players}p_blocked",
            f"{preset} blocked: all {top + 1} tiles showing {top} are played in chains "
            f"{top}-a, a-b, b-{top}, so every open side shows {top}; the boneyard is drawn "
            "out (each draw ends the turn) and nobody can play.",
            rec,
        )

    def draw_and_pass(g: Game) -> bool:
        m = moves_of(g)
        other = find_pair(m, "draw", lambda s, b: not b.startswith(f"{s}:"))
        return ended("domino")(g) and other is not None and any(x.endswith("pass") for x in m)

    g = one_hand("all_fives", 2, draw_and_pass)
    rec = record_of(g)
    yield case(
        "all_fives_draw_ends_turn_and_pass",
        "Divisor draw rule: a player who cannot play draws one tile and the turn passes; "
        "with the boneyard empty they pass.",
        rec,
    )
    m = moves_of(g)
    j = next(k for k, mv in enumerate(m) if k > 0 and " on " in mv)
    seat = m[j].split(":")[0]
    bad = copy(rec)
    bad["hands"][0]["moves"] = [*m[:j], f"{seat}: draw"]
    yield refused(
        "all_fives_draw_while_able_refused",
        "Divisor games: a player who can play may not draw.",
        bad,
        f"hand 0, move {j} ('{seat}: draw'): you cannot draw now",
    )
    g = whole_game("all_fives", 2, hands=2)
    yield case(
        "all_fives_hands_2",
        "Option hands = 2: two hands are played and added up; the highest total wins.",
        record_of(g),
    )

    def no_double(seed: int) -> bool:
        deal = first_shuffle("all_fives", seed, 2)
        return ref.highest_double_holder(deal) is None

    seed = next(s for s in range(SEARCH) if no_double(s))
    g = new_game("all_fives", 2)
    g.start_hand(seed=seed)
    play(g, random.Random(seed))
    assert last(g).redeals >= 1
    yield case(
        "all_fives_no_double_redeal_seed",
        f"Divisor games redeal when nobody holds a double: seed {seed}'s first shuffle deals "
        "no double, so the hand is dealt again; the moves fit the redealt deal.",
        seeded(g, 0, seed),
    )
    order = ref.shuffled(seed, 0, ref.set_tiles(6))
    bad = record(
        "all_fives",
        2,
        [
            {
                "deal": deal_texts(ref.deal_of(order, 2, 7)),
                "boneyard": [ref.text(t) for t in order[14:]],
                "moves": [],
            }
        ],
    )
    yield refused(
        "all_fives_no_double_deal_refused",
        "Divisor games: an explicit deal in which nobody holds a double is refused.",
        bad,
        "hand 0: this deal would be dealt again: nobody holds a double",
    )


# ----- refused records -----------------------------------------------------------------------


def at_move(rec: dict[str, Any], i: int) -> Game:
    """The game of ``rec`` with hand 0 cut to its first ``i`` moves."""
    cut = copy(rec)
    cut["hands"][0]["moves"] = cut["hands"][0]["moves"][:i]
    return load(cut)


def replaced(rec: dict[str, Any], i: int, move: str) -> dict[str, Any]:
    out = copy(rec)
    out["hands"][0]["moves"] = [*out["hands"][0]["moves"][:i], move]
    return out


@builder
def illegal_moves() -> Iterable[Case]:
    g = one_hand("partnership", 4, ended("domino"), start=500)
    rec = record_of(g)
    moves = rec["hands"][0]["moves"]
    deal = last(g).deal
    seat = int(moves[1].split(":")[0])
    missing = next(t for t in (Tile.parse(f"6-{k}") for k in range(6)) if t not in deal[seat])
    mv = f"{seat}: {missing} on 6-6"
    yield refused(
        "error_move_tile_not_in_hand",
        f"Seat {seat} does not hold {missing}: the move is refused, naming its index and text.",
        replaced(rec, 1, mv),
        f"hand 0, move 1 ('{mv}'): you do not have {missing}",
    )
    # a play that fits one end, written against the other
    for i in range(2, len(moves)):
        text = moves[i]
        if " on " not in text:
            continue
        s, _, rest = text.partition(": ")
        tile_text, _, on = rest.partition(" on ")
        hand = at_move(rec, i).hand
        assert hand is not None
        others = [side for side in hand.open_sides() if str(side.tile) != on]
        t = Tile.parse(tile_text)
        if others and not t.has(others[0].number):
            wrong = f"{s}: {tile_text} on {others[0].tile}"
            yield refused(
                "error_move_wrong_end",
                f"{tile_text} fits only the end of {on}; written against {others[0].tile} it "
                "is refused.",
                replaced(rec, i, wrong),
                f"hand 0, move {i} ('{wrong}'): {tile_text} cannot go there; it can go: "
                f"{tile_text} on {on}",
            )
            mv = f"{s}: pass"
            yield refused(
                "error_move_pass_while_able",
                f"Seat {s} can play {tile_text}: a pass is refused.",
                replaced(rec, i, mv),
                f"hand 0, move {i} ('{mv}'): you cannot pass while you can play",
            )
            t2 = (int(s) + 1) % 4
            mv = f"{t2}: pass"
            yield refused(
                "error_move_out_of_turn",
                f"It is seat {s}'s turn; a move by seat {t2} is refused.",
                replaced(rec, i, mv),
                f"hand 0, move {i} ('{mv}'): it is seat {s}'s turn, not seat {t2}'s",
            )
            break
    mv = f"{seat}: 6-5 6-6"
    yield refused(
        "error_move_bad_syntax",
        "A move that is not in the record notation is refused.",
        replaced(rec, 1, mv),
        f"hand 0, move 1 ('{mv}'): '6-5 6-6' is not a move",
    )
    over = copy(rec)
    over["hands"][0]["moves"].append(f"{(int(moves[-1].split(':')[0]) + 1) % 4}: pass")
    yield refused(
        "error_moves_after_hand_ended",
        "The hand ended with a domino at its last move; one more move is refused.",
        over,
        f"hand 0, move {len(moves)} ({over['hands'][0]['moves'][-1]!r}): the hand is already over",
    )
    two = copy(rec)
    two["hands"][0]["moves"] = moves[:5]
    two["hands"].append(copy(rec["hands"][0]))
    yield refused(
        "error_hand_started_before_previous_ended",
        "Hand 0 stops after five moves, unfinished; a second hand is refused.",
        two,
        "hand 1: hand 0 did not end",
    )
    g = one_hand(
        "block", 2, lambda g: ended("domino")(g) and any(m.endswith("pass") for m in moves_of(g))
    )
    brec = record_of(g)
    i = next(k for k, m in enumerate(brec["hands"][0]["moves"]) if m.endswith("pass"))
    s = brec["hands"][0]["moves"][i].split(":")[0]
    yield refused(
        "error_draw_in_block_game",
        "Block: a player who cannot play passes; there is no boneyard to draw from.",
        replaced(brec, i, f"{s}: draw"),
        f"hand 0, move {i} ('{s}: draw'): there is nothing to draw in this game",
    )
    single = with_options(brec, single_hand=True)
    single["hands"].append(copy(brec["hands"][0]))
    yield refused(
        "error_hand_after_game_over",
        "single_hand: the game ended with hand 0; a second hand is refused.",
        single,
        "hand 1: the game was already over",
    )


@builder
def malformed() -> Iterable[Case]:
    g = one_hand("partnership", 4, ended("domino"), start=500)
    rec = record_of(g)
    yield refused(
        "error_record_not_object",
        "A record is a JSON object, not a list.",
        [rec],
        "a record is a JSON object",
    )
    bad = copy(rec)
    bad["rules"]["preset"] = "dominoes_loco"
    yield refused(
        "error_unknown_preset",
        "An unknown preset is refused.",
        bad,
        "rules: unknown preset 'dominoes_loco'",
    )
    yield refused(
        "error_unknown_option",
        "An option RULES.md does not define is refused.",
        with_options(rec, capicua_bonus=25),
        "rules: unknown option 'capicua_bonus'",
    )
    yield refused(
        "error_bad_option_value",
        "An option with a value of the wrong kind is refused.",
        with_options(rec, target="cien"),
        "rules: option target must be a whole number",
    )
    yield refused(
        "error_option_of_other_family",
        "blocked_tie = closer_loses needs teams: refused in a block game.",
        record("block", 2, [], blocked_tie="closer_loses"),
        "blocked_tie closer_loses needs teams",
    )
    bad = copy(rec)
    bad["players"] = bad["players"][:3]
    yield refused(
        "error_wrong_player_count",
        "Partnership is played by 4 players; a record with 3 is refused.",
        bad,
        "players: partnership is played by 4 players, not 3",
    )
    first = rec["hands"][0]["deal"][0][0]
    bad = copy(rec)
    bad["hands"][0]["deal"][0][0] = "6x5"
    yield refused("error_bad_tile_text", "A tile must be written a-b.", bad, "'6x5' is not a tile")
    bad = copy(rec)
    bad["hands"][0]["deal"][0][0] = "7-7"
    yield refused(
        "error_tile_not_in_set",
        "7-7 is not a double-6 tile.",
        bad,
        "7-7 (seat 0) is not in a double-6 set",
    )
    bad = copy(rec)
    dup = rec["hands"][0]["deal"][1][0]
    bad["hands"][0]["deal"][0][0] = dup
    a, b = (int(x) for x in dup.split("-"))
    bad["hands"][0]["deal"][0][0] = f"{b}-{a}"  # the same tile written the other way round
    yield refused(
        "error_tile_dealt_twice",
        f"{dup} is dealt to seat 1 and (written {b}-{a}) to seat 0 in place of {first}.",
        bad,
        f"{dup} is dealt twice",
    )
    bad = copy(rec)
    bad["hands"][0]["deal"][3] = bad["hands"][0]["deal"][3][:6]
    yield refused(
        "error_wrong_hand_size",
        "Partnership deals 7 tiles; a hand of 6 is refused.",
        bad,
        "hand 0: seat 3 is dealt 6 tiles; this game deals 7",
    )
    g = one_hand("block", 2, ended("domino"))
    bad = record_of(g)
    dealt = {t for h in bad["hands"][0]["deal"] for t in h}
    bad["hands"][0]["boneyard"] = [
        ref.text(t) for t in ref.set_tiles(6) if ref.text(t) not in dealt
    ]
    yield refused(
        "error_boneyard_in_block_game",
        "Block: the undealt tiles are out of play; a record giving a boneyard is refused.",
        bad,
        "hand 0: this game has no boneyard to draw from",
    )
    g = one_hand("draw", 2, ended("domino"))
    bad = record_of(g)
    lost = bad["hands"][0]["boneyard"].pop()
    yield refused(
        "error_draw_deal_missing_tile",
        f"Draw game: deal and boneyard must hold the whole set; {lost} is missing.",
        bad,
        f"deal and boneyard must hold the whole set; missing {lost}",
    )


# ----- issue 20: tile order, tournament without redeal, divisor players, draw one ---------


def draw_order_differs(seed: int) -> bool:
    """Seed's tile draw names another opener in tile order than by the higher end first."""
    drawn = ref.shuffled(seed, 0, ref.set_tiles(6))[:4]
    return max(range(4), key=lambda s: ref.rank(drawn[s])) != max(range(4), key=drawn.__getitem__)


@builder
def issue20_readings() -> Iterable[Case]:
    deal = [
        ["6-2", "6-1", "6-0", "5-1", "5-0", "4-1", "4-0"],
        ["5-4", "4-3", "3-1", "3-0", "2-1", "2-0", "1-0"],
    ]
    yield case(
        "block_opener_tile_order_5_4_beats_6_2",
        "Block: nobody holds a double; tile order ranks the higher total first (seeds 001 and "
        "003), so seat 1's 5-4 (9 pips) beats seat 0's 6-2 (8 pips) and seat 1 opens.",
        record_of(explicit_hand("block", 2, deal, 1)),
    )
    seed = next(s for s in range(SEARCH) if draw_order_differs(s))
    drawn = ref.shuffled(seed, 0, ref.set_tiles(6))[:4]
    who = max(range(4), key=lambda s: ref.rank(drawn[s]))
    g = new_game("tournament_pr")
    g.start_hand(seed=seed)
    play(g, random.Random(seed))
    assert g.logs[0].opener == who
    yield case(
        "tournament_pr_first_opener_draw_tile_order",
        f"Tournament first hand by seed {seed}: the seats draw "
        f"{', '.join(ref.text(t) for t in drawn)}; the highest in tile order (higher total "
        f"first) is seat {who}'s {ref.text(drawn[who])}, so seat {who} opens (no opener named).",
        seeded(g, 0, seed),
    )
    rest = [t for t in ref.set_tiles(6) if t not in ref_tiles(["6-6", "5-5", "4-4", "3-3", "2-2"])]
    random.Random(20).shuffle(rest)
    five = [["6-6", "5-5", "4-4", "3-3", "2-2", *(ref.text(t) for t in rest[:2])]]
    five += [[ref.text(t) for t in rest[i : i + 7]] for i in (2, 9, 16)]
    yield case(
        "tournament_pr_five_doubles_played",
        "Tournament: seed 001 lists no redeal (redeal_doubles off), so a hand with five "
        "doubles in one seat is played as dealt.",
        record_of(explicit_hand("tournament_pr", 4, five, 20)),
    )
    yield refused(
        "all_fives_5p_double6_refused",
        "Divisor games on double-6 take 2-4 players (RULES.md); five are refused with the "
        "suggestion set=9.",
        record("all_fives", 5, [{"seed": 1, "moves": []}]),
        "all_fives on a double-6 set is played by 2 to 4 players, not 5; with more, choose set=9",
    )
    g = one_hand("all_fives", 5, ended("domino"), set=9)
    assert all(len(h) == 7 for h in last(g).deal)
    yield case(
        "all_fives_set9_5p_domino",
        "All fives with set=9 and five players: 2-8 play on double-9, seven tiles each.",
        record_of(g),
    )

    def drew(g: Game) -> bool:
        return ended("domino")(g) and any(m.action == "draw" for m in last(g).state.moves)

    g = one_hand("draw", 2, drew, draw_rule="one_ends_turn")
    yield case(
        "draw_one_ends_turn",
        "Draw game with draw_rule = one_ends_turn (seed 003: 'roba del mazo y luego pasa su "
        "turno sin jugar'): a player who cannot play draws one tile and the turn passes.",
        record_of(g),
    )


# ----- issue 20: the winning team chooses who opens; doubles in line; drawn teams --------


def blocked_won_by_more_pips_partner(tp: list[int], log: Any) -> bool:
    """A blocked hand whose winning partners hold different pips (the one with fewer opens
    by default, so the other is a real choice)."""
    if tp[0] == tp[1]:
        return False
    won = 0 if tp[0] < tp[1] else 1
    p = log.result.pips
    return p[won] != p[won + 2]


@builder
def opening_choice() -> Iterable[Case]:
    g1 = one_hand("partnership", 4, ended("domino"), start=300)
    w = last(g1).state.closer
    partner = (w + 2) % 4
    g = next_hand(g1, ended("domino"), opener=partner, start=3000)
    rec = record_of(g)
    assert rec["hands"][1]["opener"] == partner and rec["rules"]["options"] == {}
    yield case(
        "partnership_choose_partner_of_dominator_opens",
        f"next_opener = choose (partnership's default): seat {w} went out in hand 0; its "
        f"partner seat {partner} claims the opening of hand 1 (the record's opener) and "
        "opens with any tile.",
        rec,
    )
    bad = copy(rec)
    other = (w + 1) % 4
    bad["hands"][1]["opener"] = other
    team = sorted((w, partner))
    yield refused(
        "partnership_choose_losing_team_refused",
        f"next_opener = choose: seat {other} is of the team that lost hand 0, so it may not "
        "claim the opening of hand 1.",
        bad,
        f"hand 1: seat {other} may not open this hand; seats {team[0]}, {team[1]} may",
    )
    unclaimed = copy(rec)
    del unclaimed["hands"][1]["opener"]
    unclaimed["hands"][1]["moves"] = [f"{partner}: {rec['hands'][1]['deal'][partner][0]}"]
    yield refused(
        "partnership_choose_unclaimed_partner_move_refused",
        f"next_opener = choose: with no claim written (no opener), the winner rule decides: "
        f"seat {w}, who went out, opens hand 1, not its partner seat {partner}.",
        unclaimed,
        f"it is seat {w}'s turn, not seat {partner}'s",
    )

    g1 = one_hand("partnership", 4, blocked_teams(blocked_won_by_more_pips_partner), start=300)
    pips = last(g1).result.pips
    won = 0 if team_pips(list(pips))[0] < team_pips(list(pips))[1] else 1
    more = won if pips[won] > pips[won + 2] else won + 2
    g = next_hand(g1, lambda g: last(g).result is not None, opener=more, start=3000)
    yield case(
        "partnership_choose_after_blocked_more_pips_partner_opens",
        f"next_opener = choose after a blocked hand won by seats {won} and {won + 2} "
        f"({pips[won]} and {pips[won + 2]} pips): seat {more}, the one with more pips, claims "
        "and opens hand 1 (the winner rule alone would name its partner).",
        record_of(g),
    )

    g1 = one_hand("partnership", 4, ended("domino"), start=300, next_opener="winner")
    w = last(g1).state.closer
    g = next_hand(g1, ended("domino"), start=3000)
    bad = record_of(g)
    assert "opener" not in bad["hands"][1]
    bad["hands"][1]["opener"] = (w + 2) % 4
    yield refused(
        "partnership_next_opener_winner_partner_refused",
        f"next_opener = winner: the player who dominated (seat {w}) opens hand 1; naming "
        f"its partner seat {(w + 2) % 4} is refused (only choose leaves it to the team).",
        bad,
        f"hand 1: seat {(w + 2) % 4} may not open this hand; seat {w} opens it",
    )

    opts = {"must_open_with_double": True}
    g1 = one_hand("partnership", 4, ended("domino"), start=300, **opts)
    w = last(g1).state.closer
    partner = (w + 2) % 4
    g = next_hand(
        g1,
        lambda g: bool(doubles_of(g, w)) and len(doubles_of(g, partner)) >= 2,
        opener=partner,
        stop=8,
        start=3000,
    )
    opened = last(g).state.moves[0].tile
    yield case(
        "partnership_choose_must_open_with_double_partner_opens",
        f"must_open_with_double with next_opener = choose: seat {w} went out; both partners "
        f"hold doubles and seat {partner} claims hand 1, opening with its {opened} "
        "(in progress after eight moves).",
        record_of(g),
    )
    g = next_hand(
        g1,
        lambda g: bool(doubles_of(g, w)) and not doubles_of(g, partner),
        stop=4,
        start=3000,
    )
    bad = record_of(g)
    bad["hands"][1]["opener"] = partner
    bad["hands"][1]["moves"] = []
    yield refused(
        "partnership_choose_must_open_with_double_partner_without_double_refused",
        f"must_open_with_double with next_opener = choose: seat {partner} holds no double in "
        f"hand 1, so it may not claim the opening; seat {w} may.",
        bad,
        f"hand 1: seat {partner} holds no double and may not open; seat {w} may",
    )

    g = one_hand("partnership", 4, ended("domino"), start=300, teams="drawn_high")
    yield case(
        "partnership_teams_drawn_high_seated_as_drawn",
        "teams = drawn_high: the draw happens before the deal and the record's players are "
        "the seating it gave (partners opposite), so the hand plays as any partnership hand.",
        record_of(g),
    )
    yield refused(
        "error_teams_drawn_in_block_game",
        "teams = drawn_high belongs to partnership games; a block game is refused.",
        record("block", 2, [{"seed": 1, "moves": []}], teams="drawn_high"),
        "rules: teams drawn_high needs teams (partnership games)",
    )


def double_in_line_scores(g: Game) -> bool:
    """The hand ended, and a double laid at an end (in line) scored."""
    log = last(g)
    if log.result is None:
        return False
    again = Game(g.rules, g.players)
    again.start_hand(deal=log.deal, boneyard=log.boneyard)
    for move in log.state.moves:
        state = again.logs[-1].state
        before = list(state.scored)
        again.apply(move)
        tile = move.tile
        in_line = tile is not None and tile.is_double and move.on is not None
        if in_line and state.scored[move.seat] > before[move.seat]:
            return True
    return False


@builder
def doubles_in_line() -> Iterable[Case]:
    g = one_hand("all_fives", 2, double_in_line_scores, doubles_in_line=True)
    rec = record_of(g)
    yield case(
        "all_fives_doubles_in_line_double_scores",
        "doubles_in_line (seed 004's note): doubles go in line, no halves or flanks; a double "
        "laid at an end adds nothing to the count (the opening double counts both ends), and "
        "here one is laid while the count is a multiple of 5, so its player scores again.",
        rec,
    )
    g = one_hand("fido12", 3, double_in_line_scores, doubles_in_line=True)
    yield case(
        "fido12_3p_doubles_in_line",
        "fido12 with doubles_in_line, three players: the count is the sum of the two ends; a "
        "double in line scores only what the count already was.",
        record_of(g),
    )
    second = rec["hands"][0]["moves"][1]
    assert " on " in second  # the second tile, on the opening double
    tile = second.split()[1]
    bad = copy(rec)
    bad["hands"][0]["moves"] = [rec["hands"][0]["moves"][0], f"{second} flank"]
    yield refused(
        "all_fives_doubles_in_line_flank_refused",
        "doubles_in_line: a double has no flanks, so a tile placed 'on ... flank' is refused.",
        bad,
        f"hand 0, move 1 ('{second} flank'): {tile} cannot go there; it can go: "
        f"{second.partition(': ')[2]}",
    )
    yield refused(
        "error_doubles_in_line_in_partnership_game",
        "doubles_in_line belongs to divisor games; a partnership game is refused.",
        record("partnership", 4, [{"seed": 1, "moves": []}], doubles_in_line=True),
        "rules: the option doubles_in_line belongs to divisor games",
    )


if __name__ == "__main__":
    sys.exit(main())
