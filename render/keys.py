"""The move keys a hand picture shows under each playable tile: the engine's
(engine/keys.py), so the picture and the buttons the service makes always agree."""

from __future__ import annotations

from engine.keys import keys_by_tile, move_keys

__all__ = ["keys_by_tile", "move_keys"]
