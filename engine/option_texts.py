"""What each option of RULES.md does, in a line: catalog ids for ``/rules``, settings and
menus (the bot translates them)."""

from __future__ import annotations

from engine.catalog import N_

ABOUT: dict[str, str] = {
    "set": N_("The set: double-6, 9, 12, 15, 18 or 21."),
    "hand_size": N_("Tiles dealt to each player (off: the preset's table)."),
    "redeal_doubles": N_("Deal again when a player holds this many doubles (off: never)."),
    "first_opener": N_("Who opens the first hand: the highest double, or a tile drawn."),
    "opener_plays_double": N_("The first opener must play the double they open with."),
    "no_double": N_("When nobody holds a double: the highest tile opens, or deal again."),
    "next_opener": N_("Who opens the hands after the first."),
    "must_open_with_double": N_("Every hand opens with a double."),
    "draw_rule": N_("What a player who cannot play does: pass, or draw from the boneyard."),
    "divisor": N_("Divisor games: the open ends score when their sum is a multiple of this."),
    "blocked_tie": N_("Who wins a blocked hand when the pips are tied."),
    "score_to": N_(
        "Who writes the hand's points: the losers (and lose at the target) or the winner."
    ),
    "points": N_("The winner scores the losers' pips, or the pips of all hands."),
    "blocked_both_score": N_("On a blocked hand both teams write their own pips."),
    "tens_scoring": N_("Points are counted in tens, rounded up (target 40)."),
    "winner_subtracts_own": N_("The winner subtracts their own pips from the points."),
    "min_opening_score": N_("A score stays 0 until a hand worth at least this many points."),
    "target": N_("Points that end the game (off: none)."),
    "single_hand": N_("One hand decides the game."),
    "instant_win_hand_points": N_(
        "Scoring this many points in one hand wins at once (off: never)."
    ),
    "hands": N_("Hands to play (divisor games; off: play to the target)."),
    "time_limit_minutes": N_("The game clock in minutes (0: none)."),
    "time_limit_ends": N_("When the clock runs out: finish the hand, or end at once."),
    "rounds": N_("Rounds to play (Mexican Train; off: one per engine double)."),
    "engine_from": N_("The engine double is set out on the table, or opened by its holder."),
    "marker_removed_by": N_(
        "Who removes a train's marker: its owner, anyone, or the owner playing anywhere."
    ),
    "no_marker_when_satisfying": N_("No marker for failing to satisfy a double."),
    "satisfy_doubles": N_("A double must be covered before anything else is played."),
    "satisfy_order": N_("Which unsatisfied double comes first: the oldest or the newest."),
    "one_double_per_turn": N_("At most one double per turn."),
    "first_turn_one_tile": N_("The first turn is one tile, like any other."),
    "forked_doubles": N_("A double opens two branches."),
    "positive_scoring": N_("The round's winner scores the others' pips; the highest total wins."),
    "auto_pass": N_("Pass at once for a player who cannot play."),
    "turn_timeout": N_("Seconds for each turn."),
    "max_timeouts": N_("Timeouts in a row before a computer player takes the seat."),
    "teams": N_(
        "How the teams are made: as seated, or by drawing tiles (highest two together,"
        " or highest with lowest)."
    ),
    "doubles_in_line": N_("Divisor games: doubles are played in line, not crosswise."),
}
