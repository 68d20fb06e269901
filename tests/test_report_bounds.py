"""A period's report says the list's numbers as of the period's bounds: each row's rating before is
the leaderboard's as of the day before the period, its rating after the leaderboard's as of the
period's last day (a period the journal has gone past), for every list whose periods are days or
months (elo, fibs, chips, placement, glicko by the month). Chips once counted a decay that began
before the period whole in it, and stopped at the player's last game, not at the period's end.
(mfsnb and fide report their lists; glicko2 by the week here rates weeks that straddle a month.)"""
from datetime import date, timedelta

import pytest

from nardrating.periods import parse_period
from nardrating.replay.loader import load_club
from nardrating.reports.period import report

from .conftest import make_club, no_cache
from .test_exact_corrections import CHESS, NARDY, random_entries, text

LISTS = {True: ["club", "glicko"], False: ["fibs", "site", "chips", "tournament"]}


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
def test_a_reports_bounds_are_the_leaderboards_as_of_them(tmp_path, chess):
    entries = random_entries(3, chess, days=40)
    last = max(f["date"] for kind, f in entries if kind == "match")
    assert last > date(2021, 4, 30)   # the periods below are over: the journal has gone past them
    with no_cache():
        ledger = load_club(make_club(tmp_path, text(entries), CHESS if chess else NARDY))
        checked = 0
        for name in LISTS[chess]:
            discipline = "chess" if chess else "long-nardy"
            whole = ledger.run(name, discipline)
            spans = ("2021-02", "2021-03", "2021-04") + (() if name == "glicko" else ("2021-02-10..2021-03-17",))
            for period in map(parse_period, spans):   # (glicko rates whole months: a span inside one is not)
                eve = ledger.run(name, discipline, period.start - timedelta(days=1)).standings
                end = ledger.run(name, discipline, period.end).standings
                for row in report(ledger, whole, period).rows:
                    if row["player"] is None:   # the Total row
                        continue
                    if row["before"] is not None and row["player"] in eve:
                        assert row["before"] == eve[row["player"]].rating, (name, period, row)
                    assert row["after"] == end[row["player"]].rating, (name, period, row)
                    checked += 1
        assert checked > 40


def test_a_chips_report_reads_the_periods_records_not_every_history(tmp_path):
    # On a million games every player's history is two million events, most before the period (a
    # chips report of a month of the 1M benchmark club took 22 s and 1.1 GB that way, 1.5 s now).
    with no_cache():
        ledger = load_club(make_club(tmp_path, text(random_entries(3, False, days=40)), NARDY))
        whole = ledger.run("chips", "long-nardy")
        rows = report(ledger, whole, parse_period("2021-03"), details=True).rows
    assert len(rows) > 3 and all(row["events"] for row in rows if row["player"] is not None)
    assert whole.events._all is None and whole.events._one == {}   # no history built
