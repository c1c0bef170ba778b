"""Who plays whom in a round (issue 22): Swiss, round robin, and rotating partners for
individual events. Pure functions of entry ids, best ranked first; docs/tournaments.md
gives the rules.

Repeats are avoided exactly, not by luck: the fewest repeats a set of entries can be
paired with is the count left over by a maximum matching of the "not met yet" graph
(whoever that matching leaves out can be paired among themselves, with repeats). That
number, from Edmonds' blossom algorithm, steers a top-down pairing, so it takes the
first pairing a backtracking search would find without ever searching blind. One
matching serves the whole round (:class:`Matching`): each choice tried only looks for
paths from the entries it leaves without their mate, so a big event's round pairs in a
fraction of a second where counting the matching anew for every choice took minutes
(bench/tournament.py)."""

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
    matching = Matching(order, met)
    bye: int | None = None
    if len(order) % 2:
        had = set(byes_had)
        fresh = [i for i, e in enumerate(order) if e not in had]
        candidates = list(reversed(fresh or range(len(order))))  # lowest ranked first
        taken = next((c for c in candidates if matching.seat((c,), 0)), None)
        if taken is None:  # each costs the rest a repeat more: the lowest ranked
            taken = candidates[0]
            matching.drop((taken,))
        bye = order[taken]
    return pair_top_down(matching), bye


def pair_top_down(matching: Matching) -> list[Pair]:
    """Pair the entries left in ``matching`` (an even count) top down, each with the
    nearest-ranked opponent that leaves the rest the fewest repeats."""
    barred, entries = matching.barred, matching.entries
    pairs: list[Pair] = []
    while matching.alive:
        alive = matching.alive  # (a new list once a pair is seated)
        top = alive[0]
        for k in range(1, len(alive)):  # the nearest-ranked opponent first
            other = alive[k]
            repeat = int(other in barred[top])
            if repeat <= matching.left and matching.seat((top, other), repeat):
                pairs.append((entries[top], entries[other]))
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
    matching = Matching(rest, avoid)
    place = {e: i for i, e in enumerate(rest)}
    tables: list[Foursome] = []
    while matching.alive:
        unseated = [rest[i] for i in matching.alive]
        for table, repeats in table_choices(unseated, avoid, seen):
            seated = tuple(place[e] for side in table for e in side)
            if repeats <= matching.left and matching.seat(seated, repeats):
                tables.append(table)
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


class Matching:
    """A maximum matching of the pairs still allowed (not met yet; for rotating partners,
    not partnered yet) among the entries left to seat, kept maximum as they are seated.

    Entries are their places in the order given (best ranked first); ``alive`` holds those
    not seated yet, in that order. ``left`` is the fewest repeats the rest can be paired
    with: the pairs the matching lacks. Seating a table takes its entries out and looks
    for augmenting paths only from the entries their leaving left unmatched (a path
    between two others would have been one before), first the short ones a field with
    few rounds played nearly always has, then by Edmonds' blossoms."""

    def __init__(self, order: Sequence[int], barred: Collection[frozenset[int]]) -> None:
        self.entries = list(order)
        size = len(self.entries)
        place = {e: i for i, e in enumerate(self.entries)}
        self.barred: list[set[int]] = [set() for _ in range(size)]  # the pairs not allowed
        for pair in barred:
            if len(pair) == 2:
                a, b = (place.get(e) for e in pair)
                if a is not None and b is not None:
                    self.barred[a].add(b)
                    self.barred[b].add(a)
        self.alive = list(range(size))
        self.mate = [-1] * size
        for v in range(size):  # a greedy start, nearest first, leaves little to search
            if self.mate[v] < 0:
                w = next((w for w in range(v + 1, size) if self._free_pair(v, w)), -1)
                if w >= 0:
                    self.mate[v], self.mate[w] = w, v
        self.free = {v for v in range(size) if self.mate[v] < 0}  # unmatched, not seated
        for root in sorted(self.free):
            if root in self.free:
                self._augment(root)

    def _free_pair(self, v: int, w: int) -> bool:
        return self.mate[w] < 0 and w not in self.barred[v]

    @property
    def left(self) -> int:
        """The fewest repeats a pairing of the entries not seated needs (for an odd count,
        of all but the one the matching leaves out best)."""
        return len(self.alive) // 2 - (len(self.alive) - len(self.free)) // 2

    def seat(self, seated: Sequence[int], repeats: int) -> bool:
        """Seat ``seated`` (places; a table holding ``repeats`` pairs not allowed) if the
        others can still be paired with no more than the fewest repeats left over
        (``left - repeats``); else change nothing and say False."""
        if repeats > self.left:
            return False
        wanted = (len(self.alive) - len(seated)) // 2 - (self.left - repeats)
        saved = self.mate[:], set(self.free)
        if self._without(seated, wanted):
            return True
        self.mate, self.free = saved
        return False

    def drop(self, seated: Sequence[int]) -> None:
        """Seat ``seated`` whatever it costs the others."""
        self._without(seated, None)

    def _without(self, seated: Sequence[int], wanted: int | None) -> bool:
        """Take ``seated`` out and augment the matching until it has ``wanted`` pairs (None:
        as many as it can); whether it has them. Only paths from the entries left without
        their mate need a look (the matching was maximum), and once one has been found,
        the others left over too; ``wanted`` is never more than the others allow."""
        mate, free = self.mate, self.free
        gone = set(seated)
        widowed: list[int] = []
        for v in seated:
            partner = mate[v]
            if partner >= 0:
                mate[v] = mate[partner] = -1
                if partner not in gone:
                    widowed.append(partner)
                    free.add(partner)
            free.discard(v)
        kept = [v for v in self.alive if v not in gone]
        alive, self.alive = self.alive, kept

        def matched() -> int:
            return (len(kept) - len(free)) // 2

        found = False
        for root in widowed:
            if wanted is not None and matched() >= wanted:
                break
            if root in free and self._augment(root):
                found = True
        if found:  # paths among the others may have opened
            for root in sorted(free):
                if wanted is not None and matched() >= wanted:
                    break
                if root in free:
                    self._augment(root)
        if wanted is None or matched() >= wanted:
            return True
        self.alive = alive
        return False

    def _augment(self, root: int) -> bool:
        """Grow the matching by a path from the unmatched ``root`` to another unmatched
        entry, if there is one: a pair allowed, then a matched pair between, then Edmonds'
        blossom search."""
        mate, barred, free = self.mate, self.barred, self.free
        ends = [t for t in free if t != root]
        if not ends:
            return False
        for t in ends:
            if t not in barred[root]:
                mate[root], mate[t] = t, root
                free -= {root, t}
                return True
        for w in self.alive:
            x = mate[w]
            if x < 0 or w in barred[root]:
                continue
            t = next((t for t in ends if t not in barred[x]), -1)
            if t >= 0:
                mate[root], mate[w], mate[x], mate[t] = w, root, t, x
                free -= {root, t}
                return True
        end, parent = augmenting_path(self.alive, barred, mate, root)
        if end < 0:
            return False
        free -= {root, end}
        while end >= 0:  # flip the path's edges
            before = parent[end]
            after = mate[before]
            mate[end], mate[before] = before, end
            end = after
        return True


def maximum_matching(adjacent: list[list[int]]) -> list[int]:
    """A maximum matching of a general graph (Edmonds' blossoms): each vertex's mate, or
    -1. ``adjacent[v]`` lists v's neighbours."""
    size = len(adjacent)
    barred = [
        frozenset((v, w)) for v in range(size) for w in set(range(v + 1, size)) - set(adjacent[v])
    ]
    return Matching(range(size), barred).mate


def augmenting_path(
    alive: list[int], barred: list[set[int]], mate: list[int], root: int
) -> tuple[int, list[int]]:
    """Search from ``root`` for a path to an unmatched vertex of ``alive``, along pairs
    not ``barred``; its end (or -1) and the parents to walk it back."""
    size = len(mate)
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
        avoid = barred[v]
        for to in alive:
            if to == v or to in avoid or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                stop = common_base(v, to)
                blossom = [False] * size
                mark(v, stop, to, blossom)
                mark(to, stop, v, blossom)
                for i in alive:
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
