"""What a federation replay gives: the published lists, standings with what is pending, the report."""
from __future__ import annotations

from datetime import date
from typing import ClassVar

from ...datarecords import datarecord
from ..base import RatingResult, ReportRow, Standing
from .lists import ListBuilder
from .records import EXCLUDED, RETURNED, Member, PeriodRecord, PublishedList


@datarecord
class MfsnbResult(RatingResult):
    """The mfsnb engine's result: the ListBuilder that replayed the periods, with the lists it published."""

    list_kind: ClassVar[str] = "periods"
    builder: ListBuilder | None = None

    @property
    def book(self) -> ListBuilder:
        assert self.builder is not None, "a result built by the mfsnb engine"
        return self.builder

    def build_standings(self) -> dict[str, Standing]:
        return standings_of(self.book)

    def lists(self) -> list[PublishedList]:
        assert self.book.lines, "a replay for the standings alone keeps no competitions"
        return self.book.lists

    def record_of(self, player: str, day: date) -> PeriodRecord | None:
        """The player's record of the list period containing `day` (the unpublished one included)."""
        assert self.book.lines, "a replay for the standings alone keeps no competitions"
        for published in self.book.lists:
            if day in published.period:
                return published.rows.get(player)
        return self.book.records.get(player)

    def report(self, start: date, end: date) -> list[ReportRow]:
        b = self.book
        assert b.lines, "a replay for the standings alone keeps no competitions"
        if b.periods is not None and self.as_of is None:
            # Lists after the last entry still take penalties: publish them on demand.
            while b.lists and b.lists[-1].period.end < end:
                b.publish()
        chained: dict[str, list[PeriodRecord]] = {}
        for published in b.lists:
            if published.period.end >= start and published.period.start <= end:
                for player, rec in published.rows.items():
                    chained.setdefault(player, []).append(rec)
        out = []
        for player, recs in chained.items():
            competitions = [c for r in recs for c in r.competitions]
            adjusted = any(r.adjusted for r in recs)
            out.append(ReportRow(
                player, recs[0].before, sum(r.games for r in recs), sum(r.halves for r in recs) / 2,
                sum(r.hundredths for r in recs) / 100 if competitions else None,
                sum(r.change for r in recs), recs[-1].after, recs[-1].status,
                {"penalty": sum(r.penalty for r in recs),
                 "adjust": sum(r.adjust for r in recs) if adjusted else None,
                 "protected": [c.id for c in competitions if c.protected],
                 "competitions": [c.row() for c in competitions]}))
        return out


def standings_of(b: ListBuilder) -> dict[str, Standing]:
    """The standings of what the builder has replayed: the last list, the status on it, what is pending."""
    return {player: standing_of(b, player, m) for player, m in b.members.items()}


def standing_of(b: ListBuilder, player: str, m: Member) -> Standing:
    """A member's standing: of its member's fields and its record in the open period, nothing else."""
    rec = b.records.get(player)     # what the unpublished period has done so far
    if m.returned:
        status = RETURNED
    elif m.excluded:
        status = EXCLUDED
    elif rec and rec.reinstated:
        status = "reinstated"
    else:
        status = m.status
    pending = None
    if rec and (rec.competitions or rec.adjusted):
        pending = m.base + m.pending - m.listed if m.listed is not None else rec.change
    return Standing(player, m.listed, m.games, status, m.last_played, {"pending": pending})
