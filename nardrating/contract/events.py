"""What a replay view gives an engine: typed, frozen events in replay order.

`RatingView.events()` yields these; voids, forfeits, unrated matches and the
pair limit are decided before an engine sees a match (`reason`), so an engine
needs no knowledge of how the journal is stored.
"""
from __future__ import annotations

from datetime import date
from typing import Protocol

# The journal's small frozen records an engine sees (typed values, no storage), named here so that
# engines import them from the contract, never from the journal.
from ..datarecords import datarecord
from ..journal.model import Adjust as Adjust
from ..journal.model import Player as Player
from ..journal.model import Tournament as Tournament


@datarecord(frozen=True, slots=True)
class MatchPlayed:
    """One match of the view's discipline in replay order, and why it is not rated (`reason`; None: rated)."""

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


@datarecord(frozen=True, slots=True)
class Adjusted:
    """An [[adjust]] of the view's list and discipline, at its place in replay order."""

    adjust: Adjust


@datarecord(frozen=True, slots=True)
class TournamentEnded:
    """A tournament of the view's discipline that has ended: it comes after every entry of its last day."""

    tournament: Tournament


Event = MatchPlayed | Adjusted | TournamentEnded


@datarecord(frozen=True, slots=True)
class DrawnMatch:
    """A match scored ½-½ and not voided, where an engine's `check` may refuse it (`CheckView.draws`)."""

    entry: str                # the match id
    discipline: str
    file: str                 # where the entry is written, for the problem's message
    line: int | None


class MatchFields(Protocol):
    """A match entry's own fields, as `MatchColumns.entry(row)` gives them (for `explain`)."""

    @property
    def score_a(self) -> float: ...
    @property
    def length(self) -> int: ...
    @property
    def score(self) -> tuple[int, int] | None: ...   # the points, when the entry gives them
    @property
    def chips(self) -> float | None: ...             # the chips, when the entry gives them
