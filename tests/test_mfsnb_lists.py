"""Seed 000's lists over time: breaks, exclusion, return, chained periods, the sample ledger.

Every expected number is worked out by hand in the comments.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from .mfsnb_support import Journal, cli, cli_json, report

SAMPLE = Path(__file__).resolve().parent.parent / "sample_ledgers" / "federation-2009"


def break_journal(folder: Path, with_return: bool = True) -> Path:
    # q and r come from the 2008 list at 2000 and draw on 2009-02-15 (D = 0 → 50 %:
    # 10 × (0.5 − 0.5) = 0), then q does not play again until 2011-05-10.
    j = Journal().rated("q", 2000).rated("r", 2000).player("n")
    j.match("2009-02-15", "q", "r", "1/2-1/2")
    if with_return:
        j.match("2011-05-10", "q", "n", "1-0")
        j.adjust("2011-07-05", "q", set=1900)
    return j.write(folder)


# The break runs from 2009-02-15. "More than N months" at a list dated D means
# 2009-02-15 + N months < D; each list takes what the break owes beyond what it took.
BREAK = [
    # quarter, months (whole), penalty of this list, rating after, status
    ("2009-Q1", None, 0, 2000, "active"),
    ("2009-Q2", 4, -25, 1975, "inactive (4 months)"),     # > 3 (05-15 < 06-30): 25 in all
    ("2009-Q3", 7, -25, 1950, "inactive (7 months)"),     # > 6 (08-15 < 09-30): 50 in all
    ("2009-Q4", 10, -25, 1925, "inactive (10 months)"),   # > 9 (11-15 < 12-31): 75 in all
    ("2010-Q1", 13, -25, 1900, "inactive (13 months)"),   # > 12 (2010-02-15 < 03-31): 100 in all
    ("2010-Q2", 16, 0, 1900, "inactive (16 months)"),     # not yet > 18 (08-15 > 06-30)
    ("2010-Q3", 19, -50, 1850, "inactive (19 months)"),   # > 18 (2010-08-15 < 09-30): 150 in all
    ("2010-Q4", 22, 0, 1850, "inactive (22 months)"),     # not yet > 24 (2011-02-15 > 12-31)
    ("2011-Q1", 25, 0, 1850, "excluded"),                 # > 24 (2011-02-15 < 03-31): off the list
]


@pytest.mark.parametrize("quarter,months,penalty,after,status", BREAK)
def test_a_break_over_successive_quarterly_lists(tmp_path, quarter, months, penalty, after, status):
    row = report(break_journal(tmp_path / "fed"), quarter)["q"]
    assert (row["penalty"], row["after"], row["status"]) == (penalty, after, status)


def test_an_excluded_player_is_off_the_list_until_they_return(tmp_path):
    club = break_journal(tmp_path / "fed")
    # 2011-Q2 report: q is back; r, still excluded and not playing, has no row.
    rows = report(club, "2011-Q2")
    assert "r" not in rows
    # q is rated from the last rating, 1850: n is new (no qualification: 1500), D = 350 → 89 %,
    # 10 × (1 − 0.89) = 1.1 → +1; n: D = −350 → 11 %, 10 × (0 − 0.11) = −1.1 → −1.
    q = rows["q"]
    assert (q["before"], q["change"], q["after"], q["penalty"]) == (1850, 1, 1851, 0)
    assert q["status"] == "returned: commission decision needed"
    assert q["competitions"][0]["ratings"] == [1500] and rows["n"]["after"] == 1499
    # The commission sets 1900 on 2011-07-05: the Q3 list has 1900, adjust 1900 − 1851 = +49,
    # and the new break (from 07-05) owes nothing on 09-30.
    q = report(club, "2011-Q3")["q"]
    assert (q["before"], q["adjust"], q["penalty"], q["after"], q["status"]) == (1851, 49, 0, 1900, "reinstated")


def test_leaderboard_hides_the_excluded_and_sets_the_returned_apart(tmp_path):
    club = break_journal(tmp_path / "fed")
    board = cli_json("leaderboard", "--club", str(club), "--as-of", "2011-04-30")
    assert "q" not in {r["player"] for r in board}                  # excluded on 2011-03-31
    board = cli_json("leaderboard", "--club", str(club), "--as-of", "2011-04-30", "--all")
    assert {r["player"]: r["status"] for r in board}["q"] == "excluded"
    # 2011-05-31: q has played (pending +1) and waits for the commission.
    q = {r["player"]: r for r in cli_json("leaderboard", "--club", str(club), "--as-of", "2011-05-31")}["q"]
    assert (q["rating"], q["pending"], q["status"]) == (1850, 1, "returned: commission decision needed")
    table = cli("leaderboard", "--club", str(club), "--as-of", "2011-05-31")
    assert table.exit_code == 0 and "Returned: commission decision needed" in table.output
    # 2011-07-31: the 06-30 list has 1851; the commission's 1900 of 07-05 is pending (+49).
    q = {r["player"]: r for r in cli_json("leaderboard", "--club", str(club), "--as-of", "2011-07-31")}["q"]
    assert (q["rating"], q["pending"], q["status"]) == (1851, 49, "reinstated")


def test_a_year_chains_four_quarterly_lists(tmp_path):
    # 2009: before = the 2008 list (2000), penalties 25 + 25 + 25 = 75, after = the 2009-12-31 list.
    row = report(break_journal(tmp_path / "fed", with_return=False), "2009")["q"]
    assert (row["before"], row["change"], row["penalty"], row["after"]) == (2000, 0, -75, 1925)
    assert row["status"] == "inactive (10 months)"


def test_exactly_three_months_is_not_more_than_three(tmp_path):
    # Last competition 2009-03-31: on 06-30 the break is exactly 3 months (no penalty),
    # on 09-30 it is 6 months exactly, more than 3: −25.
    j = Journal().rated("e", 2000).rated("f", 2000)
    j.match("2009-03-31", "e", "f", "1/2-1/2")
    club = j.write(tmp_path / "fed")
    assert report(club, "2009-Q2")["e"]["penalty"] == 0
    assert report(club, "2009-Q3")["e"]["penalty"] == -25


def test_a_custom_inactivity_table_and_no_exclusion(tmp_path):
    # inactivity = [[1, 10]], never excluded. The break from 2009-02-15 is more than a month
    # on 2009-03-31, but q played in that quarter, so its list takes nothing; 2009-06-30 takes
    # −10, later lists nothing more, and q stays listed in 2012 at 2000 − 10 = 1990.
    j = Journal().rated("q", 2000).rated("r", 2000)
    j.match("2009-02-15", "q", "r", "1/2-1/2")
    club = j.write(tmp_path / "fed", inactivity=[[1, 10]], exclude_after_months=0)
    assert report(club, "2009-Q1")["q"]["penalty"] == 0
    assert report(club, "2009-Q2")["q"]["penalty"] == -10
    row = report(club, "2012-Q4")["q"]
    assert (row["penalty"], row["after"]) == (0, 1990)


def test_official_only_counts_official_tournaments(tmp_path):
    # x 1535 beats y 1500 in a single match (+5 by the halves rule) and in an unofficial swiss.
    # With official_only neither counts: x stays 1535 and plays no competition.
    j = Journal().rated("x", 1535).rated("y", 1500)
    j.match("2009-01-10", "x", "y", "1-0")
    j.tournament("t", "swiss", "2009-02-01", "2009-02-01").match("2009-02-01", "x", "y", "1-0", "t")
    assert report(j.write(tmp_path / "all"), "2009-Q1")["x"]["change"] == 10
    row = report(j.write(tmp_path / "off", official_only=True), "2009-Q1")["x"]
    assert (row["change"], row["games"], row["after"]) == (0, 0, 1535)


# --- the sample ledger --------------------------------------------------------

def test_sample_ledger_checks():
    result = cli("check", "--club", str(SAMPLE))
    assert result.exit_code == 0 and "20 players" in result.output


def test_sample_reproduces_the_seed_example():
    row = report(SAMPLE, "2009-Q1")["avakyan"]
    comp = row["competitions"][0]
    assert (row["before"], comp["opponents"], comp["Ra"], comp["Pe"], comp["E"], comp["P"]) == \
        (2337, 9, 2312, 0.53, 4.77, 6.5)
    assert (row["change"], row["after"]) == (17, 2354)


def test_sample_player_losing_points_for_a_break():
    # Сидоров, 2060 on the 2008 list. 2009-01-17 loses to Тагиев (new, KMS: 1900): D = 160 → 71 %,
    # 10 × (0 − 0.71) = −7.1 → −7. 2009-03-14 beats Умаров (new, 1st category: 1800): D = 260 → 82 %,
    # 10 × (1 − 0.82) = 1.8 → +2. Q1: 2060 − 7 + 2 = 2055. Then no play until 2010-06-05:
    # −25 on each of 2009-06-30, 09-30, 12-31 and 2010-03-31 (more than 3, 6, 9, 12 months).
    row = report(SAMPLE, "2009")["sidorov"]
    assert (row["before"], row["change"], row["penalty"], row["after"]) == (2060, -5, -75, 1980)
    row = report(SAMPLE, "2010-Q1")["sidorov"]
    assert (row["penalty"], row["after"], row["status"]) == (-25, 1955, "inactive (12 months)")


def test_sample_exclusion_and_reinstatement():
    # Романов, 2100 on the 2008 list, never plays: 150 taken by 2010-09-30 → 1950;
    # excluded on 2011-03-31 (2008-12-31 + 24 months < 2011-03-31).
    row = report(SAMPLE, "2011-Q1")["romanov"]
    assert (row["after"], row["status"]) == (1950, "excluded")
    # He plays on 2011-04-16, then the commission sets 1975 on 2011-05-21.
    row = report(SAMPLE, "2011-Q2")["romanov"]
    assert (row["before"], row["after"], row["status"]) == (1950, 1975, "reinstated")
    assert row["before"] + row["change"] + row["adjust"] == 1975


def test_sample_backgammon_is_a_separate_list():
    rows = report(SAMPLE, "2009-Q2", discipline="backgammon")
    # Багиров is 2150 on the backgammon list of 2008 (2405 in long nardy).
    assert rows["bagirov"]["before"] == 2150 and "avakyan" not in rows


def test_sample_report_reads_at_100_columns_and_its_csv_is_clean():
    result = cli("report", "--club", str(SAMPLE), "--period", "2009-Q1")
    assert result.exit_code == 0
    assert max(len(line) for line in result.output.splitlines()) <= 100
    assert "avakyan" in result.output and "2354" in result.output
    details = cli("report", "--club", str(SAMPLE), "--period", "2009-Q1", "--details")
    assert max(len(line) for line in details.output.splitlines()) <= 100
    csv_out = cli("report", "--club", str(SAMPLE), "--period", "2009-Q1", "--format", "csv")
    rows = list(csv.reader(io.StringIO(csv_out.output)))
    header = rows[0]
    assert header[:9] == ["player", "name", "before", "games", "points", "expected", "change", "after", "status"]
    assert "competitions" not in header and all(len(r) == len(header) for r in rows)
    by_player = {r[0]: dict(zip(header, r)) for r in rows[1:]}
    assert by_player["avakyan"]["change"] == "17" and by_player["avakyan"]["after"] == "2354"


def test_a_single_match_is_a_competition_of_one_game_in_the_report(tmp_path):
    # q (2000) beats r (1900) on 2009-02-15 outside any tournament: a competition of its own, of one
    # game. q: Ra = 1900, D = +100 → the table's row 99–106, Pe = 64 %, E = 1 × .64, R = 10 × (1 − .64)
    # = 3.6 → +4. r: Ra = 2000, D = −100 → 36 %, E = .36, R = 10 × (0 − .36) = −3.6 → −4 (a loss: no
    # protection). The list of 2009-03-31: q 2004, r 1896.
    j = Journal().rated("q", 2000).rated("r", 1900)
    j.match("2009-02-15", "q", "r", "1-0")
    rows = report(j.write(tmp_path / "fed"), "2009-Q1")
    assert rows["q"]["competitions"] == [{"id": "m001", "system": "single", "opponents": 1, "ratings": [1900],
                                          "Ra": 1900, "difference": 100, "Pe": 0.64, "E": 0.64, "P": 1.0,
                                          "change": 4, "protected": None}]
    assert rows["r"]["competitions"] == [{"id": "m001", "system": "single", "opponents": 1, "ratings": [2000],
                                          "Ra": 2000, "difference": -100, "Pe": 0.36, "E": 0.36, "P": 0.0,
                                          "change": -4, "protected": None}]
    assert (rows["q"]["after"], rows["r"]["after"]) == (2004, 1896)
