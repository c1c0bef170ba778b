"""Club tournaments (issue 22): registration, tables, rounds on the clock, judges and
standings, run by the service in a community."""
