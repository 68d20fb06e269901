"""A placement list's period report walks its players' histories as numbers and makes only the
period's lines (engines/placementperiod.py): what it finds is what every history in full gives
(reports/period.py's `_from_histories`), line for line and bit for bit, on random clubs and periods
before, across and after their entries; and the statuses it reads as of a day are a replay's up to it."""
from __future__ import annotations

from datetime import date, timedelta

import pytest

from nardrating.periods import parse_period
from nardrating.reports.period import _from_histories
from nardrating.replay.loader import load_club

from .test_fast_path import exact
from .test_placement_cache import random_club

PERIODS = ["2024", "2025", "2025-01", "2025-02", "2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4", "2025-08",
           "2025-09-01..2025-09-30", "2025-03-15..2025-06-01", "2026", "2025-01-01..2026-12-31",
           "2025-05-02..2025-07-10", "2025-02-02..2025-02-20"]   # (the day before each: a month's halving)


def lines(found) -> list:
    return [(player, exact([[getattr(e, f) for f in e.__slots__] for e in inside]),
             None if before is None else exact([getattr(before, f) for f in before.__slots__]))
            for player, inside, before in found]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, pytest.param(5, marks=pytest.mark.slow),
                                  pytest.param(6, marks=pytest.mark.slow), pytest.param(7, marks=pytest.mark.slow),
                                  pytest.param(8, marks=pytest.mark.slow)])
def test_the_period_walk_finds_what_the_histories_give(tmp_path, seed):
    random_club(tmp_path / "club", seed)
    ledger = load_club(tmp_path / "club", use_cache=False)
    for as_of in (None, date(2025, 12, 31), date(2026, 3, 2)):
        result = ledger.run("places", None, as_of)
        for text in PERIODS:
            period = parse_period(text)
            walked = lines(result.period_events(period.start, period.end))
            full = lines(_from_histories(result, period))
            assert walked == full, (seed, as_of, text)


@pytest.mark.parametrize("seed", [1, 2])
def test_statuses_as_of_a_day_are_a_replays_up_to_it(tmp_path, seed):
    random_club(tmp_path / "club", seed)
    ledger = load_club(tmp_path / "club", use_cache=False)
    result = ledger.run("places")
    ends = sorted({t.end for t in ledger.journal.tournaments.values()})
    days = {date(2024, 12, 31), date(2026, 1, 1)} | {day + timedelta(days=k) for day in ends for k in (-1, 0)}
    for day in sorted(days):   # (each tournament's last day, and the day before it)
        replayed = {p: s.status for p, s in ledger.run("places", None, day).standings.items()}
        kept = result.statuses_at(day)
        assert {p: kept[p] for p in replayed} == replayed, day
