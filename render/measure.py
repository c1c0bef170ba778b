"""The geometry of a picture as data: what the drawing code drew, where, in pixels.

A :class:`Measure` is handed to :func:`render.board.draw_board`; the painter reports to
it as it pastes a tile, draws a link or a badge, and every string goes through
:class:`RecordingDraw` (an ``ImageDraw`` that notes each text's whole box as Pillow
measures it). Nothing is computed twice: the numbers are the ones the drawing used.
``python -m render RECORD --geometry FILE.json`` writes it (docs/pictures.md).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw


class Measure:
    """Everything a picture drew (``width``/``height`` set when it is finished)."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.tiles: list[dict[str, Any]] = []
        self.links: list[dict[str, float]] = []
        self.texts: list[dict[str, Any]] = []
        self.badges: list[dict[str, Any]] = []
        self.count: int | None = None
        self.opening_draw: list[dict[str, Any]] = []
        self.shapes: list[dict[str, Any]] = []

    def tile(self, tile: str, x: float, y: float, w: float, h: float, ply: int | None) -> None:
        """A table tile: ``tile`` names the number nearer the left (or top) side first."""
        self.tiles.append({"tile": tile, "x": x, "y": y, "w": w, "h": h, "ply": ply})

    def link(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.links.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2})

    def text(self, text: str, box: tuple[float, float, float, float]) -> None:
        left, top, right, bottom = box
        self.texts.append({"text": text, "x": left, "y": top, "w": right - left, "h": bottom - top})

    def badge(self, value: int, x: float, y: float, w: float, h: float) -> None:
        self.badges.append({"value": value, "x": x, "y": y, "w": w, "h": h})

    def drawn(
        self, seat: int, tile: str, x: float, y: float, w: float, h: float, opens: bool
    ) -> None:
        """A tile of the opening draw: the one ``seat`` drew (``opens``: the highest)."""
        box = {"x": x, "y": y, "w": w, "h": h}
        self.opening_draw.append({"seat": seat, "tile": tile, **box, "opens": opens})

    def shape(self, kind: str, x: float, y: float, w: float, h: float, **more: Any) -> None:
        """Anything else drawn, by its box: a seat's panel ("seat", with its ``seat`` and
        ``place``), a team's total ("team"), a row of tile backs ("backs"), a train's
        label and marker ("label", "marker"), the score mark ("mark")."""
        self.shapes.append({"kind": kind, "x": x, "y": y, "w": w, "h": h, **more})

    def as_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "tiles": self.tiles,
            "links": self.links,
            "texts": self.texts,
            "badges": self.badges,
            "count": self.count,
            "opening_draw": self.opening_draw,
            "shapes": self.shapes,
        }


class NoMeasure(Measure):
    """Drawing without recording (the usual case): every report is dropped."""

    def shape(self, kind: str, x: float, y: float, w: float, h: float, **more: Any) -> None:
        pass

    def tile(self, tile: str, x: float, y: float, w: float, h: float, ply: int | None) -> None:
        pass

    def link(self, x1: float, y1: float, x2: float, y2: float) -> None:
        pass

    def text(self, text: str, box: tuple[float, float, float, float]) -> None:
        pass

    def badge(self, value: int, x: float, y: float, w: float, h: float) -> None:
        pass

    def drawn(
        self, seat: int, tile: str, x: float, y: float, w: float, h: float, opens: bool
    ) -> None:
        pass


class RecordingDraw(ImageDraw.ImageDraw):
    """Pillow's ``ImageDraw`` that also reports each string it draws, with its box."""

    def __init__(self, image: Image.Image, measure: Measure, dx: int = 0, dy: int = 0) -> None:
        super().__init__(image)
        self.measure = measure
        self.offset = (dx, dy)
        self._inside = False

    def text(self, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        if self._inside or not isinstance(text, str) or not text.strip():
            super().text(xy, text, *args, **kwargs)
            return
        names = ("font", "anchor", "spacing", "align", "stroke_width")
        keep = {k: kwargs[k] for k in names if k in kwargs}
        keep = {k: v for k, v in keep.items() if v is not None}
        if len(args) > 1 and "font" not in keep:
            keep["font"] = args[1]
        left, top, right, bottom = self.textbbox(xy, text, **keep)
        dx, dy = self.offset
        self.measure.text(text, (left + dx, top + dy, right + dx, bottom + dy))
        self._inside = True
        try:
            super().text(xy, text, *args, **kwargs)
        finally:
            self._inside = False
