"""What a replay view gives an engine: typed, frozen events in replay order.

`RatingView.events()` yields these; voids, forfeits, unrated matches and the
pair limit are decided before an engine sees a match (`reason`), so an engine
needs no knowledge of how the journal is stored.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

# The journal's small frozen records an engine sees, named here so engines import nothing of the journal.
from ..journal.model import Adjust as Adjust
from ..journal.model import Player as Player
from ..journal.model import Tournament as Tournament


@dataclass(frozen=True, slots=True)
class MatchPlayed:
    index: int                # the match's row, for engines that keep per-match records
    entry: str                # the match id
    date: date
    a: str
    b: str
    score_a: float            # 1, 0.5 or 0: a's result
    length: int
    discipline: str
    tournament: str | None
    reason: str | None        # why it is not rated ("voided", "forfeit", "unrated", "pair limit: …"), or None
    seq: int = 0              # position in the whole journal (orders it among tournaments ending the same day)
    marked_unrated: bool = False  # the entry says rated = false (also when another reason comes first)


@dataclass(frozen=True, slots=True)
class Adjusted:
    adjust: Adjust


@dataclass(frozen=True, slots=True)
class TournamentEnded:
    tournament: Tournament


Event = MatchPlayed | Adjusted | TournamentEnded
