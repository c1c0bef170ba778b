"""``python -m bot.tournament``: the tournament simulator's command line."""
