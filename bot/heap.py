"""The garbage collector, set for a long-running server.

CPython's cyclic collector walks every container object of a generation. With a
thousand games in memory a walk of the old generation stopped the event loop for 50-150
ms, and the young generation's default threshold (700) ran collections often. Once the
program has started, what it has loaded (modules, catalogs, the schema) is frozen out of
the walks, and the older generations are walked less often. Measured with
bench/service.py at 500 commands a second over 1,000 games (docs/bot.md): the 99th
percentile of a command went from 31-60 ms to 7-9 ms on a quiet machine.
"""

from __future__ import annotations

import gc

THRESHOLDS = (2000, 20, 100)  # young, middle, old (CPython's defaults: 700, 10, 10)


def settle_heap() -> None:
    """Call once the program has started, before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
