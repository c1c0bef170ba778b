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

TITLE: dict[str, str] = {
    "set": N_("Set"),
    "hand_size": N_("Tiles per player"),
    "redeal_doubles": N_("Redeal for doubles"),
    "first_opener": N_("First opener"),
    "opener_plays_double": N_("Open with the double"),
    "no_double": N_("Nobody has a double"),
    "next_opener": N_("Who opens next"),
    "must_open_with_double": N_("Always open with a double"),
    "draw_rule": N_("Drawing"),
    "divisor": N_("Divisor"),
    "blocked_tie": N_("Blocked tie"),
    "score_to": N_("Who scores"),
    "points": N_("Points won"),
    "blocked_both_score": N_("Both score in a block"),
    "tens_scoring": N_("Count in tens"),
    "winner_subtracts_own": N_("Winner subtracts own pips"),
    "min_opening_score": N_("Minimum to start scoring"),
    "target": N_("Points to reach"),
    "single_hand": N_("One hand"),
    "instant_win_hand_points": N_("Instant win"),
    "hands": N_("Hands"),
    "time_limit_minutes": N_("Game clock"),
    "time_limit_ends": N_("When time is up"),
    "rounds": N_("Rounds"),
    "engine_from": N_("Engine double"),
    "marker_removed_by": N_("Marker removed by"),
    "no_marker_when_satisfying": N_("No marker on a double"),
    "satisfy_doubles": N_("Cover doubles"),
    "satisfy_order": N_("Which double first"),
    "one_double_per_turn": N_("One double per turn"),
    "first_turn_one_tile": N_("First turn: one tile"),
    "forked_doubles": N_("Forked doubles"),
    "positive_scoring": N_("Positive scoring"),
    "auto_pass": N_("Automatic pass"),
    "turn_timeout": N_("Turn time"),
    "max_timeouts": N_("Timeouts allowed"),
    "teams": N_("Teams"),
    "doubles_in_line": N_("Doubles in line"),
}
"""Each option's short name, for buttons and menus (catalog ids)."""

VALUE: dict[tuple[str, object], str] = {
    # (not "off": the preset's table by the number of players; issue 33, 13)
    ("hand_size", None): N_("by the number of players"),
    ("first_opener", "highest_double"): N_("the highest double"),
    ("first_opener", "draw"): N_("a tile drawn: the highest opens"),
    ("no_double", "highest_tile"): N_("the highest tile opens"),
    ("no_double", "redeal"): N_("deal again"),
    ("next_opener", "winner"): N_("the winner"),
    ("next_opener", "choose"): N_("the winning team chooses"),
    ("next_opener", "rotate"): N_("the next seat"),
    ("next_opener", "holder_of_highest_double"): N_("the highest double"),
    ("next_opener", "last_player"): N_("who played the last tile"),
    ("next_opener", "first_rule"): N_("as in the first hand"),
    ("teams", "agreed"): N_("as seated"),
    ("teams", "drawn_high"): N_("drawn: the two highest together"),
    ("teams", "drawn_high_low"): N_("drawn: the highest with the lowest"),
    ("draw_rule", "none"): N_("no drawing: pass"),
    ("draw_rule", "until_playable"): N_("draw until you can play"),
    ("draw_rule", "one_then_pass"): N_("draw one, play it or pass"),
    ("draw_rule", "one_ends_turn"): N_("draw one, and the turn passes"),
    ("blocked_tie", "closer_wins"): N_("who closed wins"),
    ("blocked_tie", "closer_loses"): N_("who closed loses"),
    ("blocked_tie", "opener_team_wins"): N_("the team that opened wins"),
    ("blocked_tie", "nobody"): N_("nobody wins"),
    ("score_to", "loser"): N_("the losers"),
    ("score_to", "winner"): N_("the winner"),
    ("points", "losers"): N_("the losers' pips"),
    ("points", "all"): N_("the pips of all hands"),
    ("time_limit_ends", "finish_hand"): N_("finish the hand"),
    ("time_limit_ends", "immediately"): N_("end at once"),
    ("engine_from", "table"): N_("set out on the table"),
    ("engine_from", "holder"): N_("opened by its holder"),
    ("marker_removed_by", "owner"): N_("its owner"),
    ("marker_removed_by", "anyone"): N_("anyone"),
    ("marker_removed_by", "owner_plays_anywhere"): N_("its owner, playing anywhere"),
    ("satisfy_order", "oldest_first"): N_("the oldest"),
    ("satisfy_order", "newest_first"): N_("the newest"),
}
"""The words of each value of a choice (flags, numbers and "off" are said by the bot)."""

VALUE_ABOUT: dict[tuple[str, object], str] = {
    ("score_to", "loser"): N_(
        "the losing team writes its own pips; the team that reaches the target loses"
    ),
    ("score_to", "winner"): N_(
        "the winning team writes the losers' pips; the first to reach the target wins"
    ),
    ("points", "all"): N_("the winner scores the pips left in every hand, its own side's too"),
    ("next_opener", "choose"): N_(
        "either partner of the team that won the hand may claim the opening; unclaimed,"
        " the winner opens"
    ),
    ("blocked_tie", "closer_wins"): N_("the side of the player who closed the game wins"),
    ("blocked_tie", "closer_loses"): N_("the side of the player who closed the game loses"),
}
"""Longer words for the values that need them (the lobby and ``/rules`` say these)."""

VALUE_ABOUT_ALONE: dict[tuple[str, object], str] = {
    ("score_to", "loser"): N_("each loser writes their own pips; whoever reaches the target loses"),
    ("score_to", "winner"): N_("the winner writes the points; the first to reach the target wins"),
    ("blocked_tie", "closer_wins"): N_("the player who closed the game wins"),
}
"""The longer words of a value in a game where each plays for themselves."""
