"""Imagined deals: the hidden tiles dealt out again, agreeing with everything public.

``hard`` plays its candidate moves out on many imagined deals. A line game's state is
rebuilt from the public placements (:meth:`LineHand.from_public`); a Mexican Train round
is rebuilt by replaying its public moves once, after which each imagined deal only swaps
the hands and the boneyard in, because the trains, markers and duties depend on the moves
alone.
"""

from __future__ import annotations

import math
import random

from engine.ai.knowledge import Knowledge, open_numbers_after
from engine.line import LineHand
from engine.moves import Action
from engine.tiles import BIT, NUMBER_MASK, TILES, VALUE, Tile, set_mask
from engine.train import TrainHand
from engine.views import View

TRIES = 20  # attempts at a deal that respects every known void


def unknown_tiles(view: View, seen: int) -> list[Tile]:
    """The tiles of the set outside ``seen`` (a mask): held by others or in the boneyard."""
    hidden = set_mask(view.rules.set) & ~seen
    return [TILES[t] for t in range(len(TILES)) if hidden >> t & 1]


class LineImagination:
    """Imagined states of a line-game hand, from one seat's view: what the view fixes (the
    tiles hidden, who lacks which numbers, the table) is worked out once, and each deal
    only hands the hidden tiles out again (a table rebuilt and the hidden tiles listed
    for every deal were a fifth of a partnership decision's time)."""

    def __init__(self, view: View, knowledge: Knowledge) -> None:
        seat = view.seat
        assert seat is not None
        self.view = view
        mine = sum(BIT[t] for t in view.hand)
        seen = mine | sum(BIT[p.tile] for p in view.placements)
        self._unknown = unknown_tiles(view, seen)
        others = [s for s in range(view.players) if s != seat]
        # the seats that lack most numbers choose first: they are the hardest to fill
        others.sort(key=lambda s: -len(knowledge.lacks[s]))
        self._others = others
        self._banned = [0] * view.players
        for s in others:
            for number in knowledge.lacks[s]:
                self._banned[s] |= NUMBER_MASK[number]
        hands = [0] * view.players
        hands[seat] = mine
        # the table as it lies, the seat's own hand alone in it (deals go on copies of it)
        self.table = LineHand.from_public(
            view.rules,
            hands,
            [],
            view.placements,
            view.history,
            seat,
            view.opener if view.opener is not None else seat,
            view.scored,
        )

    def deal(self, rng: random.Random) -> LineHand:
        """One imagined state: the hidden tiles dealt to the other seats (each seat's
        count, none of a number it lacks) and the rest to the boneyard."""
        view = self.view
        counts = view.tile_counts
        hands = list(self.table.hands)
        pool = self._unknown
        for attempt in range(TRIES + 1):
            pool = list(self._unknown)
            rng.shuffle(pool)
            relaxed = attempt == TRIES  # never stall: the last try ignores the voids
            ok = True
            for s in self._others:
                banned = 0 if relaxed else self._banned[s]
                picked = [t for t in pool if not banned >> t & 1][: counts[s]]
                if len(picked) < counts[s]:
                    ok = False
                    break
                hands[s] = sum(BIT[t] for t in picked)
                chosen = set(picked)
                pool = [t for t in pool if t not in chosen]
            if ok:
                break
        return self.table.with_hands(hands, pool[: view.boneyard])


# A bit above every tile id: kept in each replayed hand so that no hand looks empty (an
# empty hand would end the round) while the real hands are still unknown.
_SENTINEL = 1 << 200


class TrainImagination:
    """Imagined states of a Mexican Train round, from one seat's view.

    The public moves are replayed once on placeholder hands. A draw followed at once by a
    play of the same seat drew that very tile (a drawn tile is played at once or not at
    all); other drawn tiles stay unknown and do not matter to the replay.
    """

    def __init__(self, view: View) -> None:
        seat, engine = view.seat, view.engine
        if seat is None or engine is None:
            raise ValueError("imagining a round needs a seat's view with the engine down")
        self.view = view
        history = view.history
        drawn: list[int] = []
        known_drawn = 0
        placeholder = next(t for t in range(len(TILES)) if t != engine)
        for i, move in enumerate(history):
            if move.action is not Action.DRAW:
                continue
            after = history[i + 1] if i + 1 < len(history) else None
            tile: Tile | None = None
            if after is not None and after.seat == move.seat and after.action is Action.PLAY:
                tile = after.tile
            elif after is None and view.legal_moves and view.legal_moves[0].tile is not None:
                tile = view.legal_moves[0].tile  # my own draw, not played yet
            drawn.append(tile if tile is not None else placeholder)
            if tile is not None:
                known_drawn |= BIT[tile]
        played = [0] * view.players
        for move in history:
            if move.action is Action.PLAY and move.tile is not None:
                played[move.seat] |= BIT[move.tile]
        hands = [_SENTINEL | (p & ~known_drawn) for p in played]
        on_table = view.rules.engine_from == "table"
        first = history[0].seat if history else seat
        # more placeholders than the boneyard holds, so the replay never sees it run dry
        boneyard = [TILES[t] for t in drawn] + [TILES[placeholder]] * (view.boneyard + 1)
        base = TrainHand(view.rules, hands, boneyard, first, engine, on_table)
        for move in history:
            base.push(move)
        if base.ended is not None or base.to_move != seat:
            raise ValueError("the public moves do not replay to this seat's turn")
        self._base = base
        self._drawn = [TILES[t] for t in drawn]
        seen = sum(BIT[t] for t in view.hand) | BIT[engine]
        for train in view.trains:
            seen |= sum(BIT[t] for t in train.tiles)
        self._unknown = unknown_tiles(view, seen)
        others = sum(c for s, c in enumerate(view.tile_counts) if s != seat)
        if len(self._unknown) != others + view.boneyard:
            raise ValueError("the tile counts do not add up")

    def sample(self, rng: random.Random) -> TrainHand:
        view = self.view
        pool = list(self._unknown)
        rng.shuffle(pool)
        state = self._base.copy()
        hands = [0] * view.players
        at = 0
        for s, count in enumerate(view.tile_counts):
            if s == view.seat:
                hands[s] = sum(BIT[t] for t in view.hand)
                continue
            hands[s] = sum(BIT[t] for t in pool[at : at + count])
            at += count
        state.hands = hands
        state.boneyard = self._drawn + pool[at:]
        return state


class HeavyPlays:
    """How likely an imagined deal makes the plays the other seats made (line games with
    no drawing, where a seat's hand at each play is its imagined hand and the tiles it
    played since).

    Players tend to shed heavy tiles first (normal does, the dominoes package's searcher
    opens with ``bota_gorda``): a seat that played a light tile while it could have laid
    a heavy one is less likely to have held that heavy one. Each play is scored as a
    choice among the seat's playable tiles with odds ``exp(beta * pips)``; a deal's
    weight is the product over the plays seen.
    """

    def __init__(self, view: View, beta: float) -> None:
        self._odds = [math.exp(beta * v) for v in VALUE]
        crosswise = view.rules.crosswise_doubles
        numbers: list[int] = []
        plays: list[tuple[int, int, int]] = []  # (seat, tile, mask of the open numbers' tiles)
        for move in view.history:
            if move.action is not Action.PLAY or move.tile is None:
                continue
            if numbers and move.seat != view.seat:
                fits = 0
                for n in set(numbers):
                    fits |= NUMBER_MASK[n]
                plays.append((move.seat, int(move.tile), fits))
            numbers = open_numbers_after(numbers, move, crosswise)
        # the tiles each seat played from each of its plays on (that play included)
        later = [0] * view.players
        self._plays: list[tuple[int, int, int, int]] = []
        for seat, tile, fits in reversed(plays):
            later[seat] |= BIT[tile]
            self._plays.append((seat, tile, fits, later[seat]))
        self.useful = bool(self._plays)

    def weight(self, hands: list[int]) -> float:
        odds = self._odds
        weight = 1.0
        for seat, tile, fits, later in self._plays:
            playable = (hands[seat] | later) & fits
            total = 0.0
            while playable:
                low = playable & -playable
                playable ^= low
                total += odds[low.bit_length() - 1]
            weight *= odds[tile] / total
        return weight
