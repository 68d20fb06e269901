"""The journal: entries as read from TOML and CSV files, checked, in replay order."""
from .model import Adjust, Journal, MatchView, Placing, Player, Tournament, Void

__all__ = ["Adjust", "Journal", "MatchView", "Placing", "Player", "Tournament", "Void"]
