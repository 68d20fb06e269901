"""The names the journal and the library share: pairing systems, kinds of bye, tie-breaks.

A module of plain constants, so that the entry model can name them without loading the library.
"""
PAIRINGS = ("berger", "double-berger", "dutch", "knockout", "losses")
BYE_KINDS = ("pairing-allocated", "half-point", "full-point", "absent", "withdrawn")
TIEBREAKS = ("buchholz", "buchholz-cut1", "median-buchholz", "sonneborn-berger", "direct-encounter", "wins",
             "black-games", "aro", "progressive", "koya")
