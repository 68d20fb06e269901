"""What the FIDE-style replay keeps for the rating officer: per list, per event, every number."""
from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any, ClassVar

from ...datarecords import datarecord, field
from ..base import RatingResult, ReportRow
from ..lines import NoHistory
from ..rounding import round_half_away
from .records import AnyEventRecord, ListRecord
from .rules import InitialRating


def pool_summary(pool: InitialRating) -> dict[str, Any]:
    return {"games": pool.games, "points": float(pool.points),
            "opponents_mean": round(float(pool.opponents_mean), 2), "gives": pool.rating, "rule": pool.rule}


def competition(rec: ListRecord, e: AnyEventRecord) -> dict[str, Any]:
    row = {"list": rec.list_date, "tournament": e.key, "rating": e.rating, "games": e.games,
           "points": float(e.points), "expected": None if e.expected is None else float(e.expected),
           "k": e.k, "change": _number(e.change), "performance": e.performance,
           "rc": None if e.rc is None else round(float(e.rc), 2), "ignored": e.ignored}
    if e.k_rule is not None and "§" in e.k_rule:      # FIDE's rulesets: K and the paragraph behind it
        row["k_rule"] = e.k_rule
    if e.difference_rule is not None:
        row["d_rule"] = e.difference_rule
    return row


def _number(value: int | Fraction | None) -> int | float | None:
    """Whole numbers as they are; an unrounded change to the cent, as FIDE prints it."""
    return value if value is None or isinstance(value, int) else round(float(value), 2)


def period_rounding(records: list[ListRecord]) -> list[str] | None:
    """FIDE rulesets: each list's K × ΣΔR and the whole number it is rounded to (§8.3.4)."""
    rounded = [f"{r.list_date}: {float(change):+.2f} → {round_half_away(change):+d} (§8.3.4)"
               for r in records if (change := r.period_change) is not None]
    return rounded or None


@datarecord
class FideResult(RatingResult):
    """The fide engine's result: each player's list records (`lists`), every number of every event."""

    list_kind: ClassVar[str] = "records"
    lists: dict[str, list[ListRecord]] = field(default_factory=dict)

    def report(self, start: date, end: date) -> list[ReportRow]:
        """One row per player with an event on a list dated within [start, end]."""
        assert not isinstance(self.events, NoHistory), "a replay for the standings alone keeps no competitions"
        rows = []
        for player, records in self.lists.items():
            inside = [r for r in records if start <= r.list_date <= end]
            if not inside:
                continue
            before, after = inside[0].before, inside[-1].after
            events = [(r, e) for r in inside for e in r.events]
            counted = [e for _, e in events if e.ignored is None and e.games]
            rated = [e for e in counted if e.rating is not None]
            expected = float(sum(e.expected or 0 for e in rated)) if rated else None
            change: int | None = None
            if before is not None and after is not None:
                change = after - before
            elif rated:
                # A player excluded on the list: the events' changes (FIDE's, unrounded: rounded once).
                total = sum((Fraction(e.change or 0) for e in rated), Fraction(0))
                change = round_half_away(total)
            pools = [r.pool for r in inside if r.pool is not None]
            extra = {
                "tournaments": [e.key for e in counted],
                "performance": {e.key: e.performance for _, e in events if e.performance is not None},
                "pool": pool_summary(pools[-1]) if pools else None,
                "ignored": [f"{e.key}: {e.ignored}" for _, e in events if e.ignored],
                "competitions": [competition(r, e) for r, e in events],
            }
            rounding = period_rounding(inside)
            if rounding is not None:
                extra["rounding"] = rounding
            rows.append(ReportRow(player, before, sum(e.games for e in counted),
                                  float(sum((e.points for e in counted), Fraction(0))),
                                  expected, change, after, inside[-1].status, extra))
        return rows
