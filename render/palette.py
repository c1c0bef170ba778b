"""A board as a palette image: the same picture, a third of the bytes to compress.

A board is drawn in a few flat colours (felt, panels, tiles, pips, the players' colours)
plus the anti-aliased edges of its text: a finished partnership hand has about 1,000
colours, an eight-player Mexican Train round about 3,400, and the 32 most frequent cover
all but about 1% of the pixels. Pillow compresses an RGB picture slowly whatever the zlib
level (it tries up to four PNG filters on every row of three bytes a pixel: 13 ms for the
partnership board, 38 ms for the Mexican Train round); one byte a pixel takes 1.6 and
4.1 ms at compress level 3, and the files are smaller (22 and 63 KB, from 39 and 110).

The palette is the picture's own: its 32 most frequent colours exactly (the fills), then
224 shades that Pillow's fast octree picks among the rest (the text's edges). Every pixel
is then given the nearest entry; a shade moves by a few levels at most (7 to 12 out of
255 measured on every preset and theme; numerals on coloured sets up to 30 on a few
hundred pixels of edge); a fill never moves, but for one a few levels from a more
frequent fill (:func:`_keep_fills`). Getting the colours, choosing and mapping
cost about 2.3 ms (partnership) and 6 ms (Mexican Train).
"""

from __future__ import annotations

import heapq
from operator import itemgetter
from typing import cast

from PIL import Image

LIMIT = 1 << 14  # more colours than this is no board (a photograph?): it stays RGB
FILLS = 32  # the most frequent colours, kept exact
ENTRIES = 256
COMPRESS_LEVEL = 3  # zlib: as fast as 1 on these pictures and 15% smaller (6: twice as slow)

RGB = tuple[int, int, int]


def indexed(image: Image.Image) -> Image.Image:
    """``image`` (RGB) as a palette image that looks the same, set to be saved as PNG
    at :data:`COMPRESS_LEVEL` (``Image.save`` reads ``encoderinfo`` of the image: the
    callers' ``save(out, format="PNG")`` need no option)."""
    counted = cast("list[tuple[int, RGB]] | None", image.getcolors(LIMIT))
    if counted is None:
        return image
    if len(counted) <= ENTRIES:
        colours = [colour for _, colour in sorted(counted, key=itemgetter(0), reverse=True)]
    else:
        colours = [colour for _, colour in heapq.nlargest(FILLS, counted, key=itemgetter(0))]
        fills = set(colours)
        rest = [colour for _, colour in counted if colour not in fills]
        shades = _palette_of(rest, ENTRIES - FILLS)
        colours += [cast("RGB", tuple(shades[i : i + 3])) for i in range(0, len(shades), 3)]
    _keep_fills(colours)
    colours += [colours[0]] * (ENTRIES - len(colours))  # unused entries: no stray colour
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    out = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out.encoderinfo = {"compress_level": COMPRESS_LEVEL}
    return out


def _palette_of(colours: list[RGB], entries: int) -> list[int]:
    """About ``entries`` colours standing for ``colours`` (each counted once: a rare
    shade of an edge is as worth keeping as a common one), flat RGB values."""
    sample = Image.new("RGB", (len(colours), 1))
    sample.putdata(colours)
    chosen = sample.quantize(entries, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return (chosen.getpalette() or [])[: 3 * entries]


def _keep_fills(colours: list[RGB]) -> None:
    """Make every fill (the first :data:`FILLS` of ``colours``) map to its own entry.

    Pillow gives a colour the entry nearest the corner of its cell of 4x4x4 values (the
    earlier entry on a tie), not nearest the colour itself: a shade one or two levels
    from the felt could take the whole felt (seen: the felt of a board one level off,
    600,000 pixels). Such a shade becomes a copy of the fill it would take: a copy is
    never nearer than its earlier original, so it takes nothing. A fill taken by a more
    frequent fill stays taken (the two are a few levels apart). Only entries within 5
    levels of the corner can be nearer than the fill (at most 3 away on each axis):
    entries are looked up by cells of 16 levels, not compared with all 256 (0.1 ms, where
    asking Pillow to map the fills round after round took 1.5 ms).
    """
    cells: dict[RGB, list[int]] = {}
    for index, (r, g, b) in enumerate(colours):
        cells.setdefault((r >> 4, g >> 4, b >> 4), []).append(index)
    for own in range(min(FILLS, len(colours))):
        r, g, b = colours[own]
        corner = (r & ~3, g & ~3, b & ~3)
        reach = _distance(colours[own], corner)
        for cell in _cells_around(corner):
            for other in cells.get(cell, ()):
                if other > own and _distance(colours[other], corner) < reach:
                    colours[other] = colours[own]


def _distance(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _cells_around(corner: RGB) -> list[RGB]:
    """The cells of 16 levels holding every colour within 5 levels of ``corner``."""
    spans = [range(max(0, v - 5) >> 4, (min(255, v + 5) >> 4) + 1) for v in corner]
    return [(r, g, b) for r in spans[0] for g in spans[1] for b in spans[2]]
