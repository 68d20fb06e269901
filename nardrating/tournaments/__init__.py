"""Running a tournament: pairing systems, FIDE tie-breaks, standings and crosstables (pure: a state in, a
round or standings out; replay builds the state from the journal)."""
