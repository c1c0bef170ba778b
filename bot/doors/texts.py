"""What only the doors say (catalog ids, English here, translated in lang/locales/): how to
reach the bot privately on each platform, and what a press that is not the bot's gets."""

from __future__ import annotations

from lang import N_

# ----- Telegram ----------------------------------------------------------------------
OPEN_PRIVATE = N_(
    "{name}, I cannot write to you yet: open a private chat with me with this button, and your tiles will be there."
)
OPEN_PRIVATE_BUTTON = N_("Open my hand")
WELCOME = N_(
    "Hello! Add me to a group and type /new there to open a game of dominoes. Your tiles will come to this chat."
)
GROUPS_ONLY = N_("Games are played in groups: add me to one and type /new there.")
UNKNOWN_BUTTON = N_("That button is not one of mine any more. Nothing was changed.")
NO_SUCH_GAME = N_("That game is over or gone.")


# ----- Discord -----------------------------------------------------------------------
PRESS_MY_HAND = N_(
    "{name}, I cannot send you direct messages: press My hand on the board to see your tiles."
)
CANNOT_POST = N_(
    "I cannot post in this channel: give me View Channel, Send Messages and Attach Files here."
)


# ----- the console ---------------------------------------------------------------------
# a hot seat: the hand of a person other than the one at the screen now is held back
CONSOLE_TURN = N_(
    "{name}'s turn: the others look away, and {name} types /as {name} and then /hand."
)
NOT_A_NAME = N_(
    "'{name}' cannot be a person's name: up to 40 characters on one line, not a command."
)
RESERVED_NAME = N_(
    "'{name}' is how the bot names a computer player or an empty seat; choose a name of your own."
)


# ----- the web pages (issue 34) --------------------------------------------------------
WEB_PAGE = N_("This community's page: {url}")
