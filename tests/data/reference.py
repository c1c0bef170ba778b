"""An independent reading of RULES.md for the line games, used by build_records.py.

Nothing here imports the engine: it replays a record's moves on plain lists and tuples
(hands, open ends, the divisor count), scores each hand with one small formula per rule
and states what the replay summary must say. The builder compares this with the engine
and stops on any difference, so every expectation written to a case file was computed
twice, by two readings of the rules.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field, replace
from typing import Any

Tile = tuple[int, int]  # (high, low)

# The preset defaults that matter for scoring and openers (RULES.md).
PRESET_DEFAULTS: dict[str, dict[str, Any]] = {
    "partnership": {
        "family": "team",
        "set": 6,
        "points": "losers",
        "score_to": "loser",
        "target": 100,
        "blocked_tie": "closer_wins",
        "next_opener": "choose",  # RULES.md: the winning team's partners choose
        "first_opener": "double66",
        "redeal_doubles": 5,
    },
    "tournament_pr": {
        "family": "team",
        "set": 6,
        "points": "all",
        "score_to": "winner",
        "target": 200,
        "blocked_tie": "nobody",
        "next_opener": "last_player",
        "first_opener": "draw",
        "redeal_doubles": None,  # seed 001 lists no redeal
    },
    "cuban": {  # docs/rules-decisions.md, "Cuban dominoes"
        "family": "team",
        "set": 9,
        "points": "losers",
        "score_to": "winner",
        "target": 100,
        "blocked_tie": "closer_wins",
        "next_opener": "choose",
        "first_opener": "highest_double",
        "redeal_doubles": 5,
    },
    "block": {"family": "solo", "set": 6, "draws": "none"},
    "draw": {"family": "solo", "set": 6, "draws": "until_playable"},
    "all_fives": {"family": "divisor", "set": 6, "divisor": 5},
    "fido12": {"family": "divisor", "set": 12, "divisor": 7},
    "fido18": {"family": "divisor", "set": 18, "divisor": 11},
}


@dataclass(frozen=True)
class Config:
    preset: str
    family: str
    set: int = 6
    points: str = "losers"
    score_to: str = "winner"
    target: int | None = 100
    blocked_tie: str = "nobody"
    next_opener: str = "first_rule"
    first_opener: str = "highest_double"
    redeal_doubles: int | None = None
    must_open_with_double: bool = False
    tens_scoring: bool = False
    blocked_both_score: bool = False
    winner_subtracts_own: bool = False
    min_opening_score: int = 0
    single_hand: bool = False
    instant_win_hand_points: int | None = None
    draws: str = "none"
    divisor: int | None = None
    hands: int | None = None
    time_limit_ends: str = "finish_hand"
    doubles_in_line: bool = False  # divisor games: no halves, no flanks


def config(rules: dict[str, Any]) -> Config:
    """The reference configuration of a record's ``rules`` object."""
    preset = rules.get("preset", "partnership")
    options = dict(rules.get("options") or {})
    base = Config(preset=preset, **PRESET_DEFAULTS[preset])
    if base.family == "divisor":
        base = replace(base, target=None, hands=1, draws="one_ends_turn")
    if "draw_rule" in options:
        options["draws"] = options.pop("draw_rule")
    if options.get("tens_scoring") and "target" not in options:
        options["target"] = 40
    # teams: drawn teams are seated before the deal; the record's seats are the seating
    for key in ("hand_size", "time_limit_minutes", "auto_pass", "turn_timeout", "teams"):
        options.pop(key, None)
    return replace(base, **options)


def tile(text: str) -> Tile:
    a, b = (int(x) for x in text.split("-"))
    return (max(a, b), min(a, b))


def text(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def value(t: Tile) -> int:
    return t[0] + t[1]


def set_tiles(top: int) -> list[Tile]:
    """Every tile of the double-``top`` set in set order (higher end first, then lower):
    the order the seeded shuffle lists them in."""
    return [(hi, lo) for hi in range(top + 1) for lo in range(hi + 1)]


def rank(t: Tile) -> tuple[int, int]:
    """RULES.md's tile order ("the higher tile"): the higher total first, then the higher
    end (6-2 > 5-3, 5-4 > 6-0 > 5-0, 6-6 > 6-5)."""
    return (value(t), t[0])


def hand_size(family: str, top: int, players: int) -> int:
    if family == "team":
        return 10 if top == 9 else 7  # double-9 (Cuban): ten each, fifteen sleep
    if family == "solo":
        return 7 if players == 2 else 6
    if top == 6:
        return 7 if players == 2 else 5
    if top == 9:
        return 9 if players <= 4 else 7 if players <= 6 else 6
    return 12 if players <= 4 else 10 if players <= 6 else 8


# ----- the seeded shuffle, as deal.py's docstring defines it ----------------------------


def shuffled(seed: int, k: int, tiles: list[Tile]) -> list[Tile]:
    """Shuffle number ``k`` of ``seed``: SHAKE-128 keys, 8 bytes per tile, stable sort."""
    n = len(tiles)
    digest = hashlib.shake_128(f"domino:{seed}:{k}".encode("ascii")).digest(8 * n)
    keys = struct.unpack(f"<{n}Q", digest)
    return [tiles[i] for i in sorted(range(n), key=lambda i: keys[i])]


def deal_of(order: list[Tile], players: int, size: int) -> list[list[Tile]]:
    return [order[i * size : (i + 1) * size] for i in range(players)]


def doubles(hand: list[Tile]) -> list[Tile]:
    return sorted((t for t in hand if t[0] == t[1]), reverse=True)


# ----- one hand --------------------------------------------------------------------------


@dataclass
class Side:
    number: int
    tile: Tile
    kind: str  # "end", "half" or "flank"


@dataclass
class HandFacts:
    result: str  # domino, blocked, in_progress or void
    pips: list[int]
    opener: int
    closer: int | None
    to_move: int | None
    count: int | None
    scored: list[int]
    deal: list[list[Tile]]
    time_up: bool = False


@dataclass
class Table:
    """The open sides of the layout; crosswise doubles in divisor games. Without them (a
    line game, or doubles_in_line) a double at an end shows the end's number again, so
    it adds nothing to the count; an opening double shows its number at both ends."""

    crosswise: bool
    sides: list[Side] = field(default_factory=list)

    def open(self, t: Tile) -> None:
        if self.crosswise and t[0] == t[1]:
            n = t[0]
            self.sides = [Side(n, t, "half"), Side(n, t, "half")]
            self.sides += [Side(n, t, "flank"), Side(n, t, "flank")]
        else:
            self.sides = [Side(t[0], t, "end"), Side(t[1], t, "end")]

    def play(self, t: Tile, on: Tile, kind: str) -> None:
        where = [
            i for i, s in enumerate(self.sides) if s.tile == on and s.kind == kind and s.number in t
        ]
        if not where:
            raise AssertionError(f"reference: {text(t)} has no {kind} on {text(on)}")
        i = where[0]
        n = self.sides[i].number
        if self.crosswise and t[0] == t[1]:
            # attached by a flank: covers the end, shows two halves and a free flank
            self.sides[i] = Side(n, t, "half")
            self.sides += [Side(n, t, "half"), Side(n, t, "flank")]
        else:
            self.sides[i] = Side(t[1] if t[0] == n else t[0], t, "end")

    @property
    def count(self) -> int:
        return sum(s.number for s in self.sides if s.kind != "flank")

    def fits(self, hand: list[Tile]) -> bool:
        numbers = {s.number for s in self.sides}
        return any(t[0] in numbers or t[1] in numbers for t in hand)


def parse_move(move: str) -> tuple[int, str, Tile | None, Tile | None, str]:
    seat_text, _, rest = move.partition(":")
    words = rest.split()
    seat = int(seat_text)
    if words[0] in ("pass", "draw"):
        return seat, words[0], None, None, ""
    played = tile(words[0])
    if len(words) == 1:
        return seat, "open", played, None, ""
    kind = words[3] if len(words) == 4 else "end"
    return seat, "play", played, tile(words[2]), kind


def replay_hand(
    cfg: Config,
    deal: list[list[Tile]],
    boneyard: list[Tile],
    moves: list[str],
    time_up_at: int | None = None,
) -> HandFacts:
    """Play ``moves`` on plain lists (legality is the engine's business) and report."""
    hands = [list(h) for h in deal]
    bone = list(boneyard)
    players = len(hands)
    table = Table(crosswise=cfg.family == "divisor" and not cfg.doubles_in_line)
    scored = [0] * players
    closer: int | None = None
    opener = parse_move(moves[0])[0] if moves else -1
    to_move = opener
    result = "in_progress"
    void = time_up_at is not None and cfg.time_limit_ends == "immediately"
    for index, move in enumerate(moves):
        assert result == "in_progress", f"reference: move {index} after the hand ended"
        if void and index == time_up_at:
            raise AssertionError("reference: moves after the clock voided the hand")
        seat, action, played, on, kind = parse_move(move)
        assert seat == to_move, f"reference: move {index} {move!r} out of turn"
        if action == "draw":
            hands[seat].append(bone.pop(0))
            if cfg.draws == "one_ends_turn":
                to_move = (seat + 1) % players
        elif action == "pass":
            to_move = (seat + 1) % players
            continue
        else:
            assert played is not None
            hands[seat].remove(played)
            if action == "open":
                table.open(played)
            else:
                assert on is not None
                table.play(played, on, kind)
            closer = seat
            if cfg.divisor and table.count and table.count % cfg.divisor == 0:
                scored[seat] += table.count // cfg.divisor
            if not hands[seat]:
                result = "domino"
                continue
            to_move = (seat + 1) % players
        if (cfg.draws == "none" or not bone) and not any(table.fits(h) for h in hands):
            result = "blocked"
    if void and time_up_at is not None and time_up_at <= len(moves) and result == "in_progress":
        result = "void"
    return HandFacts(
        result=result,
        pips=[sum(map(value, h)) for h in hands],
        opener=opener,
        closer=closer,
        to_move=to_move if result == "in_progress" else None,
        count=table.count if cfg.divisor else None,
        scored=scored,
        deal=[list(h) for h in deal],
        time_up=time_up_at is not None,
    )


# ----- scoring ---------------------------------------------------------------------------


def team_of(seat: int) -> int:
    return seat % 2


def side_pips(cfg: Config, pips: list[int]) -> list[int]:
    if cfg.family == "team":
        return [pips[0] + pips[2], pips[1] + pips[3]]
    return list(pips)


def hand_winner(cfg: Config, facts: HandFacts) -> int | None:
    """The team (partnership) or seat that won a finished hand; None for a tie to nobody."""
    if facts.result == "domino":
        assert facts.closer is not None
        return team_of(facts.closer) if cfg.family == "team" else facts.closer
    if facts.result != "blocked":
        return None
    by_side = side_pips(cfg, facts.pips)
    fewest = min(by_side)
    tied = [s for s, p in enumerate(by_side) if p == fewest]
    if len(tied) == 1:
        return tied[0]
    if cfg.family != "team":
        return None
    assert facts.closer is not None
    closer_team = team_of(facts.closer)
    return {
        "closer_wins": closer_team,
        "closer_loses": 1 - closer_team,
        "opener_team_wins": team_of(facts.opener),
        "nobody": None,
    }[cfg.blocked_tie]


def hand_points(cfg: Config, facts: HandFacts, scores: list[int]) -> list[int]:
    """What a finished hand writes on the score sheet."""
    if cfg.family == "divisor":
        return [facts.scored[s] - facts.pips[s] for s in range(len(facts.pips))]
    by_side = side_pips(cfg, facts.pips)
    written = [0] * len(by_side)
    winner = hand_winner(cfg, facts)
    if facts.result == "blocked" and cfg.blocked_both_score:
        written = list(by_side)
    elif winner is not None and cfg.family == "team":
        loser = 1 - winner
        if cfg.points == "all":
            written[winner] = sum(facts.pips)
        elif cfg.score_to == "loser":
            written[loser] = by_side[loser]
        else:
            written[winner] = by_side[loser]
    elif winner is not None:
        won = sum(by_side) - by_side[winner]
        if cfg.winner_subtracts_own:
            won = max(0, won - by_side[winner])
        if scores[winner] == 0 and won < cfg.min_opening_score:
            won = 0
        written[winner] = won
    if cfg.tens_scoring:
        written = [(p + 9) // 10 for p in written]
    return written


def leader(cfg: Config, scores: list[int]) -> int | None:
    best = min(scores) if cfg.score_to == "loser" and cfg.family == "team" else max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


def summary(cfg: Config, hands: list[HandFacts]) -> dict[str, Any]:
    """The replay summary RECORD.md describes, from the facts of every hand."""
    sides = 2 if cfg.family == "team" else len(hands[0].pips)
    scores = [0] * sides
    rows: list[dict[str, Any]] = []
    over = False
    winner: int | None = None
    deciding = False
    time_up = False
    live = list(scores)
    for facts in hands:
        assert not over, "reference: a hand after the end of the game"
        time_up = time_up or facts.time_up
        if facts.result == "in_progress":
            so_far = list(facts.scored) if cfg.divisor else [0] * sides
            rows.append(row_of(facts, so_far))
            live = [s + c for s, c in zip(scores, so_far, strict=True)]
            continue
        points = [0] * sides if facts.result == "void" else hand_points(cfg, facts, scores)
        rows.append(row_of(facts, points))
        scores = [s + p for s, p in zip(scores, points, strict=True)]
        live = list(scores)
        won = hand_winner(cfg, facts)
        over, winner, deciding = game_end(cfg, scores, won, points, len(rows), deciding)
        if not over and time_up:
            winner = leader(cfg, scores)
            over = winner is not None
    return {"scores": live, "game_over": over, "winner": winner, "hands": rows}


def row_of(facts: HandFacts, points: list[int]) -> dict[str, Any]:
    """One hand of the summary, its keys in RECORD.md's order."""
    return {
        "result": facts.result,
        "pips": facts.pips,
        "points": points,
        "count": facts.count,
        "to_move": facts.to_move,
    }


def game_end(
    cfg: Config,
    scores: list[int],
    won: int | None,
    points: list[int],
    played: int,
    deciding: bool,
) -> tuple[bool, int | None, bool]:
    """(game over, winner, a deciding hand is due) after a finished hand."""
    if cfg.family == "divisor":
        if cfg.hands is not None and played >= cfg.hands:
            best = leader(cfg, scores)
            return best is not None, best, False
        return False, None, False
    if deciding:
        return won is not None, won, won is None
    if won is not None and cfg.single_hand:
        return True, won, False
    instant = cfg.instant_win_hand_points
    if won is not None and instant is not None and points[won] >= instant:
        return True, won, False
    if cfg.target is None:
        return False, None, False
    reached = [s for s, v in enumerate(scores) if v >= cfg.target]
    if not reached:
        return False, None, False
    if cfg.family == "team" and cfg.score_to == "loser":
        if len(reached) == 1:
            return True, 1 - reached[0], False
        return False, None, True  # both past the target: one more hand decides
    return True, max(reached, key=lambda s: scores[s]), False


# ----- openers ---------------------------------------------------------------------------


def highest_double_holder(deal: list[list[Tile]]) -> tuple[int, Tile] | None:
    best: tuple[Tile, int] | None = None
    for seat, hand in enumerate(deal):
        for t in doubles(hand)[:1]:
            if best is None or t > best[0]:
                best = (t, seat)
    return None if best is None else (best[1], best[0])


def highest_tile_holder(deal: list[list[Tile]]) -> int:
    return max(range(len(deal)), key=lambda s: max(map(rank, deal[s])))


def tile_draw(seed: int, top: int, players: int) -> int:
    """tournament_pr's first opener: each seat draws one tile from shuffle 0 of the seed
    (seat i the i-th tile); the highest in tile order opens (the deal is shuffle 1)."""
    drawn = shuffled(seed, 0, set_tiles(top))[:players]
    return max(range(players), key=lambda s: rank(drawn[s]))


def double_opener(cfg: Config, chosen: int, deal: list[list[Tile]]) -> int | None:
    """must_open_with_double: the opening TEAM opens with a double; the seat the opener
    rule chose if it holds one, else its partner; None when neither does (deal again).
    Each for themselves, the chosen seat alone."""
    players = len(deal)
    team = [chosen, (chosen + 2) % 4] if cfg.family == "team" else [chosen]
    holding = [s for s in team if doubles(deal[s])]
    if not holding:
        return None
    return chosen if chosen in holding else min(holding, key=lambda s: (s - chosen) % players)


def next_opener(cfg: Config, previous: HandFacts | None, deal: list[list[Tile]]) -> int | None:
    """The seat that must open the next hand (None: any seat may, the tournament's draw)."""
    if previous is None or cfg.next_opener == "first_rule":
        if cfg.first_opener == "draw":
            return None
        holder = highest_double_holder(deal)
        return holder[0] if holder is not None else highest_tile_holder(deal)
    if hand_winner(cfg, previous) is None:
        return previous.opener
    rule = cfg.next_opener
    if rule == "rotate":
        return (previous.opener + 1) % len(deal)
    if rule == "last_player":
        return previous.closer
    if rule == "holder_of_highest_double":
        holder = highest_double_holder(deal)
        assert holder is not None
        return holder[0]
    return dominator(cfg, previous)


def may_open(cfg: Config, previous: HandFacts | None, deal: list[list[Tile]]) -> set[int] | None:
    """The seats a record may name as opener (None: any seat, the tournament's draw):
    next_opener = choose after a hand with a winner leaves it to the winning team (with
    must_open_with_double, its partners holding a double); else only the rules' seat."""
    must = next_opener(cfg, previous, deal)
    if must is None:
        return None
    if (
        previous is not None
        and cfg.family == "team"
        and cfg.next_opener == "choose"
        and hand_winner(cfg, previous) is not None
    ):
        team = {s for s in range(4) if team_of(s) == team_of(must)}
        if cfg.must_open_with_double:
            team = {s for s in team if doubles(deal[s])}
        return team
    if cfg.must_open_with_double:
        opener = double_opener(cfg, must, deal)
        return set() if opener is None else {opener}
    return {must}


def dominator(cfg: Config, previous: HandFacts) -> int:
    """next_opener = winner: who went out; after a blocked hand the winners' player with
    fewer pips, ties to the closer, then to the earlier seat after the closer."""
    assert previous.closer is not None
    if previous.result == "domino":
        return previous.closer
    won = hand_winner(cfg, previous)
    closer = previous.closer
    team = [s for s in range(4) if team_of(s) == won]
    fewest = min(previous.pips[s] for s in team)
    tied = [s for s in team if previous.pips[s] == fewest]
    if len(tied) == 1:
        return tied[0]
    if closer in tied:
        return closer
    return min(tied, key=lambda s: (s - closer - 1) % 4)
