"""What the FIDE-style replay keeps for the rating officer: per list, per event, every number."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from .base import RatingResult, ReportRow
from .fide_rules import InitialRating
from .fide_tables import round_half_away


@dataclass
class EventRecord:
    key: str                       # tournament id, or the match id of a single match
    name: str
    rating: int | None             # the player's own rating in it; None: unrated (pool)
    games: int                     # counted games
    points: Fraction
    expected: Fraction | None      # Σ P_D (rated players)
    k: int | None
    change: int | Fraction | None  # seed: rounded per event; FIDE: unrounded (the period is rounded)
    performance: int | None        # Rc + dp(p), rounded 0.5 up
    rc: Fraction | None = None     # unrated: the event's Rc (round-robin: Ra)
    ignored: str | None = None     # why the event does not count toward a first rating
    k_rule: str | None = None      # why this K
    exact_change: Fraction | None = None  # K × Σ(S − P_D) before rounding
    difference_rule: str | None = None   # FIDE rulesets: games whose D was capped at 400, or not (§8.3.1)


@dataclass
class ListRecord:
    list_date: date
    before: int | None
    after: int | None
    status: str
    events: list[EventRecord] = field(default_factory=list)
    pool: InitialRating | None = None   # the pool as it stood on this list
    published: bool = False             # a first rating was published on this list
    excluded_at: int | None = None      # the rating that fell below the floor
    period_change: Fraction | None = None  # FIDE rulesets: the period's K × ΣΔR, rounded once (§8.3.4)


def pool_summary(pool: InitialRating) -> dict:
    return {"games": pool.games, "points": float(pool.points),
            "opponents_mean": round(float(pool.opponents_mean), 2), "gives": pool.rating, "rule": pool.rule}


def competition(rec: ListRecord, e: EventRecord) -> dict:
    row = {"list": rec.list_date, "tournament": e.key, "rating": e.rating, "games": e.games,
           "points": float(e.points), "expected": None if e.expected is None else float(e.expected),
           "k": e.k, "change": _number(e.change), "performance": e.performance,
           "rc": None if e.rc is None else round(float(e.rc), 2), "ignored": e.ignored}
    if e.k_rule is not None and "§" in e.k_rule:      # FIDE's rulesets: K and the paragraph behind it
        row["k_rule"] = e.k_rule
    if e.difference_rule is not None:
        row["d_rule"] = e.difference_rule
    return row


def _number(value):
    """Whole numbers as they are; an unrounded change to the cent, as FIDE prints it."""
    return value if value is None or isinstance(value, int) else round(float(value), 2)


def period_rounding(records: list[ListRecord]) -> list[str] | None:
    """FIDE rulesets: each list's K × ΣΔR and the whole number it is rounded to (§8.3.4)."""
    rounded = [f"{r.list_date}: {float(r.period_change):+.2f} → {round_half_away(r.period_change):+d} (§8.3.4)"
               for r in records if r.period_change is not None]
    return rounded or None



@dataclass
class FideResult(RatingResult):
    lists: dict[str, list[ListRecord]] = field(default_factory=dict)

    def report(self, start: date, end: date) -> list[ReportRow]:
        """One row per player with an event on a list dated within [start, end]."""
        rows = []
        for player, records in self.lists.items():
            inside = [r for r in records if start <= r.list_date <= end]
            if not inside:
                continue
            before, after = inside[0].before, inside[-1].after
            events = [(r, e) for r in inside for e in r.events]
            counted = [e for _, e in events if e.ignored is None and e.games]
            rated = [e for e in counted if e.rating is not None]
            expected = float(sum(e.expected for e in rated)) if rated else None
            if before is not None and after is not None:
                change = after - before
            elif rated:
                change = sum(e.change for e in rated)
                change = round_half_away(change) if isinstance(change, Fraction) else change
            else:
                change = None
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
