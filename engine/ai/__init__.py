"""Computer players: each is given its seat's view (and nothing else) and returns a move.

Strengths: ``easy`` and ``normal`` (this package), ``random`` and ``greedy`` (baselines
in :mod:`engine.players`). Every player is reproducible from its seed.
"""
