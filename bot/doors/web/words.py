"""Every word of the web pages, marked for the catalogs (lang/): the templates say them
through ``_("...")`` (a test holds each one they say to a mark here, so
``python -m lang update``, which reads only Python, keeps them all); the names of states
and codes the JSON carries; and the words the pages' script says (``SCRIPT``)."""

from __future__ import annotations

from lang import N_

LANGUAGE_NAMES = {"es": "Español", "en": "English", "pt": "Português"}

# a game's status (the JSON's ``status``)
STATUS = {
    "lobby": N_("waiting for players"),
    "playing": N_("playing"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
# a tournament's status (as the bot says it in the chat)
TOURNAMENT_STATUS = {
    "registration": N_("registration open"),
    "checkin": N_("check-in"),
    "running": N_("playing"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
# a tournament table's status, how it ended, and a crosstable cell's result
TABLE_STATUS = {"waiting": N_("waiting"), "playing": N_("playing"), "done": N_("done")}
ENDED = {
    "target": N_("target reached"),
    "clock": N_("on the clock"),
    "forfeit": N_("by forfeit"),
    "judge": N_("by the judges"),
}
RESULT = {
    "won": N_("won"),
    "lost": N_("lost"),
    "drawn": N_("drawn"),
    "playing": N_("playing"),
    "waiting": N_("waiting"),
    "bye": N_("bye"),
}
# the judges' log (what the organiser and judges did)
LOG_ACTIONS = {
    "penalty": N_("penalty"),
    "award": N_("award"),
    "forfeit": N_("forfeit"),
    "void": N_("void result"),
    "expel": N_("expelled"),
    "correct": N_("result corrected"),
    "substitute": N_("substitute"),
    "pause": N_("clock paused"),
    "resume": N_("clock resumed"),
    "extend": N_("clock extended"),
    "judge": N_("judge named"),
}
# how a hand ended (a hand's ``result.end``)
HAND_END = {"domino": N_("Domino!"), "blocked": N_("Blocked"), "void": N_("Void hand")}
PERIODS = {"week": N_("This week"), "month": N_("This month"), "all": N_("All time")}
# every tie-break's column, in the standings' order (docs/tournaments.md)
TIEBREAK_HEADERS = {
    "buchholz": N_("Buchholz"),
    "median_buchholz": N_("Median B."),
    "sonneborn_berger": N_("S-B"),
    "head_to_head": N_("H2H"),
    "top_wins": N_("Top wins"),
}
# and its whole name, where the page says which ones order the standings
TIEBREAK_NAMES = {
    "buchholz": N_("Buchholz"),
    "median_buchholz": N_("median Buchholz"),
    "sonneborn_berger": N_("Sonneborn-Berger"),
    "head_to_head": N_("head to head"),
    "difference": N_("difference"),
    "points_for": N_("points for"),
    "top_wins": N_("wins against the top"),
}

# what the pages' script says (bot/doors/web/static/pages.js), by its own name
SCRIPT = {
    "to_play": N_("To play: {name}"),
    "after_deal": N_("After the deal"),
    "move_of": N_("Move {step} of {steps}"),
    "hand": N_("Hand {n}"),
    **{f"end_{k}": v for k, v in HAND_END.items()},
    "winner": N_("Winner: {name}"),
    "position": N_("The table after: {move}"),
    "live_off": N_("Live updates are paused; the page asks again every 10 seconds."),
    **{f"status_{k}": v for k, v in STATUS.items()},
    **{f"table_{k}": v for k, v in TABLE_STATUS.items()},
}

# the words the templates say (a test checks that each is here)
TEMPLATES = (
    N_("A page of the dominoes bot: read-only, updated as the game goes."),
    N_("After the deal"),
    N_("Against"),
    N_("Back"),
    N_("Began"),
    N_("By"),
    N_("Bye: {names}"),
    N_("Byes"),
    N_("Crosstable"),
    N_("Diff."),
    N_("Difference"),
    N_("End"),
    N_("Finished hands"),
    N_("For"),
    N_("Forward"),
    N_("Game"),
    N_("Game clock:"),
    N_("Games"),
    N_("Hall screen"),
    N_("Hand"),
    N_("Hand {n}"),
    N_("Hand {n}, move by move"),
    N_("Judge"),
    N_("Judges' log"),
    N_("Language"),
    N_("Move {step} of {steps}"),
    N_("No game yet."),
    N_("Nobody here yet: a game counts once two people or more have played it to the end."),
    N_("No hand has finished yet."),
    N_("No round has begun yet."),
    N_("Nobody has registered yet."),
    N_("Nothing yet."),
    N_("On this page"),
    N_("Pair"),
    N_("Pen."),
    N_("Penalties"),
    N_("Played"),
    N_("Player"),
    N_("Players"),
    N_("Points"),
    N_("Rating"),
    N_("Reason"),
    N_("Recent games"),
    N_("Replay"),
    N_("Round"),
    N_("Round clock:"),
    N_("Round {n}"),
    N_("Round {round} of {rounds}"),
    N_("Rounds and tables"),
    N_("Rules"),
    N_("Score"),
    N_("Score sheet"),
    N_("Side 1"),
    N_("Side 2"),
    N_("Skip to the page"),
    N_("Standings"),
    N_("Standings as CSV"),
    N_("Start"),
    N_("Status"),
    N_("Table"),
    N_("Team"),
    N_("The game has not begun yet."),
    N_("The table"),
    N_("The table in words"),
    N_("The ← and → keys step through the hand."),
    N_("There is nothing at this address."),
    N_("Ties broken by: {names}"),
    N_("To play: {name}"),
    N_("Total"),
    N_("Tournaments"),
    N_("Turn:"),
    N_("Watch"),
    N_("What"),
    N_("When"),
    N_("Winner: {name}"),
    N_("Wins"),
    N_("Won"),
    N_("against {names}"),
    N_("paused"),
    N_("to {target} points"),
    N_("with {names}"),
)
