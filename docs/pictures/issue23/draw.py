"""Draws issue 23's before/after pictures from the fixed records of tests/data/pictures/
with the render/ of the tree it runs in, saved as the bot saves a board
(bot/pictures.py: ``save(out, format="PNG")``, no option), and a part of each enlarged
three times (nearest pixel) to compare the edges of text and tiles.

    python docs/pictures/issue23/draw.py OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository

from PIL import Image

from tests.render.pictures import CASES, picture

# (left, top, right, bottom) of the part enlarged
PARTS = {
    "partnership-end": (0, 0, 320, 200),
    "mexican8-end": (0, 150, 320, 350),
    "fido18-numerals": (0, 834, 320, 1034),
}
ZOOM = 3


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        if case.name not in PARTS:
            continue
        image = picture(case)
        image.save(out / f"{case.name}.png", format="PNG")
        part = image.convert("RGB").crop(PARTS[case.name])
        big = part.resize((part.width * ZOOM, part.height * ZOOM), Image.Resampling.NEAREST)
        big.save(out / f"{case.name}-zoom.png", format="PNG")
        print(case.name, image.mode, image.size, (out / f"{case.name}.png").stat().st_size)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
