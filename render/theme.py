"""Colours of the table, the tiles and the players, per theme."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    name: str
    felt: RGB  # the table
    ink: RGB  # text on the table
    muted: RGB  # secondary text on the table
    panel: RGB  # behind the seats and the score sheet
    tile: RGB
    tile_edge: RGB
    pip: RGB
    back: RGB  # a tile face down (edged in the tile's colour)
    last: RGB  # ring around the last tile played
    open_end: RGB  # badge of an open end's number
    players: tuple[RGB, ...]  # one per seat (teams take seats 0 and 1's)


# Numbers in colour, as real double-12 and double-18 sets paint them (sets above double-9).
NUMBER_COLOURS: tuple[RGB, ...] = (
    # dark enough to stand out on ivory in grey too (a phone in sunlight, colour blindness)
    (40, 40, 40),  # 0 (blank)
    (0, 90, 160),  # 1
    (0, 120, 80),  # 2
    (190, 70, 0),  # 3
    (170, 40, 120),  # 4
    (20, 120, 190),  # 5
    (140, 100, 0),  # 6
    (0, 0, 0),  # 7
    (110, 40, 160),  # 8
    (190, 20, 40),  # 9
    (0, 100, 60),  # 10
    (130, 70, 10),  # 11
    (40, 60, 160),  # 12
    (150, 30, 110),  # 13
    (80, 100, 20),  # 14
    (0, 110, 130),  # 15
    (170, 50, 50),  # 16
    (60, 60, 120),  # 17
    (120, 90, 40),  # 18
    (30, 110, 70),  # 19
    (140, 60, 130),  # 20
    (50, 90, 110),  # 21
)

# Okabe and Ito's palette: told apart by every common kind of colour blindness.
OKABE_ITO: tuple[RGB, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (0, 114, 178),
    (213, 94, 0),
    (204, 121, 167),
    (255, 255, 255),
)

THEMES: dict[str, Theme] = {
    "classic": Theme(
        name="classic",
        felt=(22, 94, 58),
        ink=(245, 245, 235),
        muted=(190, 215, 195),
        panel=(14, 66, 40),
        tile=(250, 246, 232),
        tile_edge=(120, 110, 90),
        pip=(25, 25, 25),
        back=(150, 40, 40),
        last=(255, 200, 40),
        open_end=(255, 255, 255),
        players=(
            (230, 90, 70),
            (80, 160, 240),
            (250, 200, 60),
            (120, 210, 120),
            (200, 120, 220),
            (250, 150, 60),
            (90, 220, 220),
            (240, 240, 240),
        ),
    ),
    "dark": Theme(
        name="dark",
        felt=(28, 30, 36),
        ink=(235, 235, 240),
        muted=(150, 155, 170),
        panel=(40, 43, 52),
        tile=(225, 222, 210),
        tile_edge=(90, 90, 90),
        pip=(20, 20, 20),
        back=(125, 140, 190),  # 4.3:1 on the panel: the tiles held are seen at a glance
        last=(255, 190, 0),
        open_end=(255, 255, 255),
        players=(
            (240, 110, 90),
            (100, 170, 250),
            (245, 205, 80),
            (130, 215, 130),
            (205, 140, 230),
            (250, 160, 80),
            (100, 220, 220),
            (220, 220, 220),
        ),
    ),
    "contrast": Theme(
        name="contrast",
        felt=(0, 0, 0),
        ink=(255, 255, 255),
        muted=(220, 220, 220),
        panel=(30, 30, 30),
        tile=(255, 255, 255),
        tile_edge=(0, 0, 0),
        pip=(0, 0, 0),
        back=(150, 150, 150),
        last=(240, 228, 66),
        open_end=(86, 180, 233),
        players=OKABE_ITO,
    ),
}


def theme_named(name: str) -> Theme:
    if name not in THEMES:
        raise ValueError(f"unknown theme '{name}'; choose from {', '.join(THEMES)}")
    return THEMES[name]
