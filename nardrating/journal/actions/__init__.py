"""The writing commands: each builds its entries, checks them as a full read would, and appends
them in one atomic write under the club lock (write.py), or refuses with nothing written.

newclub.py (init), players.py (add, edit, rename, merge), matches.py (add-match, add-tournament),
correct.py (void, amend, undo).
"""
from .correct import LastEntry, amend_match, last_entry, undo, void_match
from .matches import MatchArgs, add_match, add_tournament, parse_score
from .newclub import init_club, next_steps, toml_value
from .players import add_player, edit_player, merge_players, rename_player
from .write import Change, Moved, Written, target_journal

__all__ = ["Change", "LastEntry", "MatchArgs", "Moved", "Written", "add_match", "add_player", "add_tournament",
           "amend_match", "edit_player", "init_club", "last_entry", "merge_players", "next_steps", "parse_score",
           "rename_player", "target_journal", "toml_value", "undo", "void_match"]
