"""Who plays whom in a round (issue 22): Swiss, round robin, and rotating partners for
individual events. Pure functions of entry ids, best ranked first; docs/tournaments.md
gives the rules.

Repeats are avoided exactly, not by luck: the fewest repeats a set of entries can be
paired with is the count left over by a maximum matching of the "not met yet" graph
(whoever that matching leaves out can be paired among themselves, with repeats). That
number, from Edmonds' blossom algorithm, steers a top-down pairing, so it takes the
first pairing a backtracking search would find without ever searching blind."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import combinations

Pair = tuple[int, int]
Foursome = tuple[tuple[int, int], tuple[int, int]]

# Rotating: a table is looked for first among the players nearest in rank (the top one
# and this many below it), so leaders play leaders; further only if none there will do.
NEAR = 7


def swiss(
    ranked: Sequence[int], met: Collection[frozenset[int]], byes_had: Collection[int]
) -> tuple[list[Pair], int | None]:
    """One Swiss round: pairs (higher-ranked first, the leaders' pair first) and the bye.

    No pair meets twice while a pairing without repeats exists (otherwise the fewest
    repeats); the bye goes to an entry that has had none while there is one (if all have,
    to anyone), the lowest-ranked such entry that still allows the fewest repeats; each
    entry, top down, meets the nearest-ranked opponent that keeps those promises."""
    order = list(ranked)
    avoid = set(met)
    bye: int | None = None
    if len(order) % 2:
        had = set(byes_had)
        fresh = [e for e in order if e not in had]
        candidates = list(reversed(fresh or order))
        best = len(order)
        for candidate in candidates:  # lowest ranked first
            rest = [e for e in order if e != candidate]
            repeats = fewest_repeats(rest, avoid)
            if repeats < best:
                bye, best = candidate, repeats
            if repeats == 0:
                break
        order = [e for e in order if e != bye]
    return pair_top_down(order, avoid), bye


def pair_top_down(order: list[int], avoid: set[frozenset[int]]) -> list[Pair]:
    """Pair ``order`` (even, best first) top-down with the fewest pairs from ``avoid``."""
    left = fewest_repeats(order, avoid)
    rest = list(order)
    pairs: list[Pair] = []
    while rest:
        top = rest[0]
        for other in rest[1:]:  # the nearest-ranked opponent first
            repeat = frozenset((top, other)) in avoid
            remaining = [e for e in rest if e not in (top, other)]
            if repeat > left:
                continue
            if repeat + fewest_repeats(remaining, avoid) == left:
                pairs.append((top, other))
                rest, left = remaining, left - repeat
                break
    return pairs


def round_robin(entries: Sequence[int]) -> list[tuple[list[Pair], int | None]]:
    """The whole schedule by the circle method: one (pairs, bye) a round; everyone meets
    everyone once; with an odd count each entry sits out exactly one round. Each pair
    lists first the entry that comes first in ``entries``."""
    circle: list[int | None] = list(entries)
    if not circle:
        return []
    if len(circle) % 2:
        circle.append(None)  # whoever meets None sits the round out
    place = {e: i for i, e in enumerate(entries)}
    size = len(circle)
    schedule: list[tuple[list[Pair], int | None]] = []
    for _ in range(size - 1):
        pairs: list[Pair] = []
        bye: int | None = None
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((a, b) if place[a] < place[b] else (b, a))
        schedule.append((pairs, bye))
        circle = [circle[0], circle[-1], *circle[1:-1]]  # the first stays, the rest turn
    return schedule


def rotating(
    ranked: Sequence[int],
    partnered: Collection[frozenset[int]],
    met: Collection[frozenset[int]],
    byes_had: Mapping[int, int],
) -> tuple[list[Foursome], list[int]]:
    """One round of an individual event: tables of two partnerships, and who sits out.

    ``len(ranked) % 4`` players sit out: those with the fewest byes so far, lowest ranked
    first. No one partners the same player twice while that can be avoided (otherwise
    the fewest repeated partnerships); tables are made top down from the players nearest
    in rank, preferring opponents not met, the best-ranked player of each partnering the
    lowest of the four (1 and 4 against 2 and 3) when all else is equal. Tables come
    best first; at each, the side of the best-ranked player first, the better partner
    first."""
    rank = {e: i for i, e in enumerate(ranked)}
    out_count = len(ranked) % 4
    by_fewest_byes = sorted(ranked, key=lambda e: (byes_had.get(e, 0), -rank[e]))
    out = by_fewest_byes[:out_count]
    sitting = set(out)
    rest = [e for e in ranked if e not in sitting]
    avoid = set(partnered)
    seen = set(met)
    left = fewest_repeats(rest, avoid)
    tables: list[Foursome] = []
    while rest:
        for table, repeats in table_choices(rest, avoid, seen):
            if repeats > left:
                continue
            remaining = [e for e in rest if e not in (*table[0], *table[1])]
            if repeats + fewest_repeats(remaining, avoid) == left:
                tables.append(table)
                rest, left = remaining, left - repeats
                break
    return tables, sorted(out, key=rank.__getitem__)


def table_choices(
    rest: list[int], partnered: set[frozenset[int]], met: set[frozenset[int]]
) -> Iterable[tuple[Foursome, int]]:
    """The tables the top player of ``rest`` could sit at, best first, with how many
    repeated partnerships each holds: among the nearest players first, then everyone."""
    top, below = rest[0], rest[1:]
    place = {e: i for i, e in enumerate(below)}
    near = list(combinations(below[:NEAR], 3))
    yield from ranked_tables(top, near, place, partnered, met)
    if len(below) > NEAR:
        wider = [c for c in combinations(below, 3) if place[c[2]] >= NEAR]
        yield from ranked_tables(top, wider, place, partnered, met)


def ranked_tables(
    top: int,
    threes: Sequence[tuple[int, ...]],
    place: dict[int, int],
    partnered: set[frozenset[int]],
    met: set[frozenset[int]],
) -> list[tuple[Foursome, int]]:
    """The tables of ``top`` with each three (in rank order), best first: the fewest
    repeated partners, then opponents met, then the nearest in rank, then the balanced
    seating (1 and 4 against 2 and 3) before the others."""
    scored: list[tuple[tuple[int, int, int, int], Foursome, int]] = []
    for a, b, c in threes:
        spread = place[a] + place[b] + place[c]
        shapes: tuple[Foursome, ...] = (((top, c), (a, b)), ((top, b), (a, c)), ((top, a), (b, c)))
        for shape, table in enumerate(shapes):
            repeats = sum(frozenset(side) in partnered for side in table)
            rematches = sum(frozenset((x, y)) in met for x in table[0] for y in table[1])
            scored.append(((repeats, rematches, spread, shape), table, repeats))
    scored.sort(key=lambda s: s[0])
    return [(table, repeats) for _, table, repeats in scored]


def fewest_repeats(entries: Sequence[int], avoid: set[frozenset[int]]) -> int:
    """The fewest pairs from ``avoid`` a pairing of ``entries`` (an even count) needs."""
    size = len(entries)
    fresh = [
        [j for j in range(size) if j != i and frozenset((entries[i], entries[j])) not in avoid]
        for i in range(size)
    ]
    matched = sum(1 for m in maximum_matching(fresh) if m >= 0) // 2
    return size // 2 - matched


def maximum_matching(adjacent: list[list[int]]) -> list[int]:
    """A maximum matching of a general graph (Edmonds' blossoms): each vertex's mate, or
    -1. ``adjacent[v]`` lists v's neighbours."""
    size = len(adjacent)
    mate = [-1] * size
    for v in range(size):  # a greedy start leaves the search less to do
        if mate[v] < 0:
            for w in adjacent[v]:
                if mate[w] < 0:
                    mate[v], mate[w] = w, v
                    break
    for root in range(size):
        if mate[root] < 0:
            end, parent = augmenting_path(adjacent, mate, root)
            while end >= 0:  # flip the path's edges
                before = parent[end]
                after = mate[before]
                mate[end], mate[before] = before, end
                end = after
    return mate


def augmenting_path(adjacent: list[list[int]], mate: list[int], root: int) -> tuple[int, list[int]]:
    """Search from ``root`` for a path to an unmatched vertex; its end (or -1) and the
    parents to walk it back."""
    size = len(adjacent)
    parent = [-1] * size
    base = list(range(size))
    used = [False] * size
    used[root] = True
    queue = [root]

    def common_base(a: int, b: int) -> int:
        on_path = [False] * size
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] < 0:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if on_path[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, stop: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stop:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adjacent[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                stop = common_base(v, to)
                blossom = [False] * size
                mark(v, stop, to, blossom)
                mark(to, stop, v, blossom)
                for i in range(size):
                    if blossom[base[i]]:
                        base[i] = stop
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] < 0:
                parent[to] = v
                if mate[to] < 0:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent
