"""What the tournament says, as catalog ids (lang/locales): English here, Spanish and
Portuguese in the catalogs."""

from __future__ import annotations

from lang import N_, trn

HELP = N_(
    "Tournaments: /tournament new <name> [rounds=3 target=200 minutes=40 format=swiss "
    "preset=tournament_pr substitutes=off checkin=on grace=5 closes=<minutes> "
    "tiebreaks=buchholz,head_to_head,difference,points_for] · register <team name> "
    "[@partner] · list · close · checkin · start · pause · resume · extend <minutes> · "
    "standings · export · judge @person. Judges: penalty <team> [points] [reason], "
    "award <team> [points] [reason], forfeit <table> <team>, void <table>, "
    "expel <team> [reason], correct <table> <x>-<y>, substitute <table> <seat>, log · cancel"
)
NONE_HERE = N_(
    "There is no tournament in this community. An admin opens one: /tournament new <name>"
)
ALREADY = N_("The tournament {name} is on in this community already.")
OPENED = N_(
    "Tournament {name} is open for registration: {rounds}, {format}, {preset} to "
    "{target} or {minutes}. Register your pair: /tournament register <team name> "
    "@partner"
)
OPENED_SOLO = N_(
    "Tournament {name} is open for registration: {rounds}, {format}, "
    "{preset} to {target} or {minutes}. Register: /tournament register <your name>"
)
STATUS = N_("Tournament {name}: {status}, round {round} of {rounds}, {entries} entries.")
ORGANISERS_ONLY = N_("Only the organiser, a judge or a community admin can do that.")
INVITATION = N_(
    "{partner}: {person} asks you to play in {team}. Accept with the button or "
    "/tournament accept {team}; /tournament leave declines."
)
ACCEPT_BUTTON = N_("Accept")
NO_INVITATION = N_("Nobody has asked you to play in their pair.")
WHICH_INVITATION = N_("You are asked to play in {teams}: say which, /tournament accept <team>.")
DECLINED = N_("{person} declined: {team} is withdrawn.")
INVITATIONS_EXPIRED = N_("Not accepted before registration closed, so not in: {teams}.")
INVITED = N_("invited")
RUNNERS_ONLY = N_("Only the organiser or a community admin can do that; judges rule on tables.")
OWN_TABLE = N_("You play at that table: another judge or the organiser rules on it.")
COMMUNITY_ADMINS_ONLY = N_("Only a community admin can open a tournament.")
UNKNOWN_ACTION = N_("I don't know /tournament {text}. {help}")
BAD_SETTING = N_("{text} is not a tournament setting. Settings: {names}")
BAD_SETTING_VALUE = N_("{name} cannot be {text}.")
SETTINGS_SET = N_("Tournament settings: {settings}")
TOO_LATE_TO_SET = N_("The tournament has begun: its settings stay as they are.")
STAYS_FOR_PAIRS = N_("Pairs have registered already: the game stays one for pairs.")
STAYS_FOR_SOLO = N_(
    "Players have registered on their own already: the game stays one for players on their own."
)
PARTNER_NEEDED = N_(
    "A pair has two players: name your partner (@username), or ask the organiser for a substitute."
)
PARTNER_UNKNOWN = N_("I don't know {text} here yet: they must have written in this group once.")
IN_ANOTHER_ENTRY = N_("{name} is in {team} already.")
TEAM_NAME_TAKEN = N_("There is a team called {team} already.")
REGISTRATION_CLOSED = N_("Registration is closed. The organiser can still add a late entry.")
WITHDRAWN = N_("{team} has withdrawn.")
NOT_REGISTERED = N_("You are not registered in this tournament.")
NO_ENTRIES = N_("Nobody has registered yet.")
LATE = N_("(late entry)")
ENTRIES_TITLE = N_("Entries of {name}:")
CHECKIN_OPEN = N_(
    "Check-in is open: each entry confirms with /tournament checkin before the start."
)
CHECKED_IN = N_("{team} is checked in.")
NOT_CHECKIN_TIME = N_("Check-in is not open now.")
TOO_FEW = N_("A tournament needs at least {least} entries to start.")
DROPPED = N_("Not checked in, out of the tournament: {teams}.")
ROUND_TABLES = N_(
    "Round {round} of {rounds}: the tables are open. Take your seat with /join at your table."
)
TABLE_OF_COMPUTERS = N_("Table {table} of round {round}: {a} vs {b}.")
TABLE_TITLE = N_("Table {table} · Round {round}")
TABLE_LINE = N_("Table {table}: {a} vs {b}")
TABLE_CALL = N_(
    "Table {table} of round {round}: {a} vs {b}. {names}, take your seats with /join "
    "within {minutes}."
)
BYE_LINE = N_("Bye (a game won): {teams}")
CLOCK_LINE = N_("The round clock: {minutes}, from when the tables open.")
NOT_YOUR_TABLE = N_("This table's seats are for its players.")
ARRIVED = N_("{name} is at the table. Still missing: {missing}.")
TABLE_BEGINS = N_("Everyone is here: the game begins.")
JUDGES_RUN_IT = N_("This is a tournament table: the judges run it.")
FORFEIT_NOBODY = N_("Nobody came to table {table}: no game, no winner.")
FORFEIT_ABSENT = N_("{team} did not come to table {table}: a forfeit, {score}.")
SUBSTITUTED = N_("{names} did not come: computer players sit in for them.")
TABLE_DONE = N_("Table {table} (round {round}): {a} {x} – {y} {b}{how}.")
ENDED_CLOCK = N_(", at the clock")
ENDED_FORFEIT = N_(", by forfeit")
ENDED_JUDGE = N_(", by the judges")
WAITING_TABLES = N_(
    "Round {round}: {done} of {tables} tables done. Tables that finished wait for the others."
)
ROUND_OVER = N_("Round {round} is over. Standings:")
NEXT_ROUND_IN = N_("Round {round} begins in {minutes}.")
FINAL = N_("Tournament {name} is over. Final standings:")
CHAMPION = N_("Champions: {team}!")
STANDINGS_TITLE = N_("{name} · standings after round {round}")
NO_STANDINGS = N_("No round has been played yet.")
MORE_IN_FILE = N_("… and {count} more: the whole standings are in {file}.")
PAUSED = N_("Round {round} is paused: the clock stops at every table.")
RESUMED = N_("Round {round} goes on: {minutes} left.")
EXTENDED = N_("Round {round} extended by {minutes}.")
NOT_RUNNING = N_("No round is being played now.")
NOT_PAUSED = N_("The round is not paused.")
PENALTY = N_("Penalty: {team} {points} points ({reason}). By {judge}.")
AWARD = N_("Award: {team} {points} points ({reason}). By {judge}.")
WHAT = {"penalty": N_("Penalty"), "award": N_("Award")}
ON_GAME = N_(
    "{what} at table {table}: {team} {points} ({reason}), written on the table's score sheet. "
    "By {judge}."
)
ON_RESULT = N_(
    "{what} at table {table}: {team} {points} ({reason}); its result is now {x}-{y}. By {judge}."
)
TABLE_NOT_PLAYING = N_(
    "Table {table} has not begun its game: a penalty or an award goes on its sheet once "
    "the first hand is dealt."
)
BAD_POINTS = N_("Points from {low} to {high}.")
NO_REASON = N_("no reason given")
UNKNOWN_TEAM = N_("There is no team {text} in this tournament.")
UNKNOWN_TABLE = N_("There is no table {text} in this round.")
FORFEIT_AWARDED = N_("Table {table}: {team} wins by forfeit, {score}. By {judge}.")
VOIDED = N_("Table {table}: the result is void (no winner, no points). By {judge}.")
EXPELLED = N_("{team} is expelled: {reason}. By {judge}.")
CORRECTED = N_("Table {table} of round {round} corrected to {x} – {y}. By {judge}.")
BAD_SCORE = N_("Write the score as two numbers: {text}")
JUDGE_ADDED = N_("{name} is a judge of {tournament}.")
JUDGE_REMOVED = N_("{name} is no longer a judge of {tournament}.")
LOG_TITLE = N_("What the organiser and judges did:")
LOG_EMPTY = N_("Nothing yet.")
CANCELLED = N_("Tournament {name} is cancelled.")
HEADER = (
    N_("#"),
    N_("Team"),
    N_("Played"),
    N_("Won"),
    N_("For"),
    N_("Against"),
    N_("Pen."),
    N_("Diff."),
)
# The standings' column of each chosen tie-break (difference and points for are always
# columns of HEADER's)
TIEBREAK_COLUMNS = {
    "buchholz": N_("Buchholz"),
    "median_buchholz": N_("Median B."),
    "sonneborn_berger": N_("S-B"),
    "head_to_head": N_("H2H"),
    "top_wins": N_("Top wins"),
}
# and its short code in the standings' text lines (docs/tournaments.md lists them)
TIEBREAK_CODES = {
    "buchholz": "B",
    "median_buchholz": "MB",
    "sonneborn_berger": "SB",
    "head_to_head": "H2H",
    "top_wins": "TW",
}
STATUS_NAMES = {
    "registration": N_("registration open"),
    "checkin": N_("check-in"),
    "running": N_("playing"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
FORMAT_NAMES = {
    "swiss": N_("Swiss system"),
    "round_robin": N_("round robin"),
    "rotating": N_("rotating partners"),
}


def minutes(lang: str, n: int) -> str:
    """``n`` minutes, as the texts above take them (``{minutes}``): "1 minute", "40 minutes"."""
    return trn(lang, "{count} minute", "{count} minutes", n, count=n)


def rounds(lang: str, n: int) -> str:
    """``n`` rounds, as OPENED takes them (``{rounds}``)."""
    return trn(lang, "{count} round", "{count} rounds", n, count=n)


SAT_IN_HERE = N_("{name} stopped answering: a computer sits in for them (substitutes are on).")
SAT_IN = N_("Table {table}: {name} ({team}) stopped answering; a computer sits in for them.")
TABLE_HELD = N_(
    "{name} stopped answering: the table waits for the judges (their turns go on timing out, "
    "the clock runs)."
)
WALKED_OUT = N_(
    "Judges: at table {table} of round {round}, {name} ({team}) stopped answering. The table "
    "plays on, their turns timing out. You may: /tournament substitute {table} {seat} (a "
    "computer sits in), /tournament forfeit {table} <team>, or /tournament expel {team}."
)
SUBSTITUTED_BY_JUDGE = N_("Table {table}: a computer sits in for {name}. By {judge}.")
NO_SUCH_SEAT = N_("Table {table} has no person in seat {text} (seats 1 to {seats}).")
BAD_TIEBREAK = N_("{text} is not a tie-break. Tie-breaks: {names} (or none).")
TIEBREAK_TWICE = N_("{text} is named twice in the tie-breaks.")
LATE_TOO_LATE = N_(
    "Too late to enter: round {round} of {rounds} has started, and late entries join only "
    "until half the rounds have."
)
LATE_ROUND_ROBIN = N_(
    "A round robin takes no late entries once it has started: its schedule is made."
)
NOT_IN_ANYMORE = N_("{team} is out of the tournament already.")
EVENT_OVER = N_("Tournament {name} is over: its entries stay as they finished.")
NOT_BEGUN_TO_SUBSTITUTE = N_(
    "Table {table} has not begun its game: a computer can sit in for a player once the "
    "first hand is dealt."
)
TABLE_FINISHED = N_("Table {table} has finished its game.")
MORE_ENTRIES_IN_FILE = N_("… and {count} more: the whole list is in {file}.")
LOG_BY = N_("by {name}")
