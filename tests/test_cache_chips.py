"""Chips results kept in the cache: a replay stops before every rating is decayed (and penalised)
up to the day it is read, so a kept replay is finished as of the journal's last entry or any later
--as-of (Engine.cacheable), and every command reads through it what a full read gives."""
import json
from datetime import date

import pytest

from .conftest import make_club, no_cache

CONFIG = """[club]
name = "Chips club"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.chips]
engine = "chips"
inactivity = [[1, 3], [2, 7.5]]
inactive_after_months = 3
"""
JOURNAL = """[[player]]
id = "a"

[[player]]
id = "b"

[[player]]
id = "c"

[[player]]
id = "d"

[[match]]
id = "m1"
date = 2025-01-01
players = ["a", "b"]
winner = "a"
chips = 10

[[match]]
id = "m2"
date = 2025-01-02
players = ["c", "d"]
winner = "c"
length = 5
rated = false

[[match]]
id = "m3"
date = 2025-02-10
players = ["b", "c"]
winner = "b"
length = 3

[[adjust]]
date = 2025-02-20
player = "a"
delta = 2
reason = "a correction"

[[adjust]]
date = 2025-03-15
player = "d"
set = 100
reason = "imported"
"""
LATER = "2025-06-30"
# Read first as of a day after the last entry (the replay kept then is the one every other read
# finishes), then as of the last entry, and again later: each a full read's, none replayed.
READS = [("leaderboard", "--all", "--as-of", LATER), ("leaderboard", "--all"), ("leaderboard",), ("players",),
         *[("history", p) for p in "abcd"], *[("history", p, "--as-of", LATER) for p in "abcd"],
         ("explain", "m1"), ("explain", "m3"), ("explain", "m2"),          # matches: rated, unrated
         ("explain", "a@2025-03-02"),                                       # a decay, then a penalty
         ("explain", "a@2025-02-20"),                                       # a decay, then an adjustment
         ("explain", "b@2025-03-15"),                                       # the decay up to the last entry
         ("explain", "b@2025-04-11", "--as-of", LATER),                     # a penalty after the last entry
         ("explain", "d@2025-06-30", "--as-of", LATER)]                     # the decay up to --as-of


def outputs(cli, club, reads=READS):
    """The reads' JSON as printed: a float and an int of the same value (100.0, 100) differ."""
    results = [cli(*args, "--club", club, "--format", "json") for args in reads]
    assert all(r.exit_code == 0 for r in results), [(args, r.output[:300]) for args, r in zip(reads, results) if r.exit_code]
    return [r.stdout for r in results]


def no_replay(monkeypatch):
    """From here a command that replays a chips list fails: what it shows came from the cache."""
    from nardrating.engines.chips import ChipsEngine

    def refuse(self, view):
        raise AssertionError("replayed, not read from the cache")

    monkeypatch.setattr(ChipsEngine, "_replay", refuse)


def board(printed):
    return {row["player"]: row for row in json.loads(printed)}


def test_a_kept_chips_replay_reads_as_a_full_one(cli, tmp_path, monkeypatch):
    club = make_club(tmp_path / "club", JOURNAL, CONFIG)
    with no_cache():
        full = outputs(cli, club)
    # The first read (as of LATER) replays the list and keeps it; every other read finishes that.
    first = outputs(cli, club, READS[:1])
    with monkeypatch.context() as patch:
        no_replay(patch)
        assert first + outputs(cli, club, READS[1:]) == full
    # recalc keeps the replay of the journal as of its last entry; every read finishes it alike.
    assert cli("recalc", "--club", club).exit_code == 0
    with monkeypatch.context() as patch:
        no_replay(patch)
        assert outputs(cli, club) == full

    # Worked by hand (win_share 1, loss_share 0.8, keep 0.95 a day; a step is due the day after
    # the last rated match + its months: Jan 1 → Feb 2 and Mar 2, Feb 10 → Mar 11 and Apr 11):
    k = 0.95
    later, last = board(full[0]), board(full[1])
    # a: m1 +10; Feb 2 (32 days) −3; the adjustment on Feb 20 (18 days) +2; Mar 2 (10 days) the
    # second step, 7.5 less the 3 charged; decayed to Mar 15 (13 days), or to Jun 30 (120 days).
    a_mar2 = ((10 * k ** 32 - 3) * k ** 18 + 2) * k ** 10 - 4.5
    assert last["a"]["rating"] == pytest.approx(a_mar2 * k ** 13, abs=1e-12)
    assert later["a"]["rating"] == pytest.approx(a_mar2 * k ** 120, abs=1e-12)
    # b: m1 −8; Feb 2 −3; m3 (8 days) +3; Mar 11 (29 days) −3: a new break; Mar 15 (4 days); Apr 11
    # (31 days from Mar 11) the second step, −4.5; Jun 30 (80 days).
    b_mar11 = ((-8 * k ** 32 - 3) * k ** 8 + 3) * k ** 29 - 3
    assert last["b"]["rating"] == pytest.approx(b_mar11 * k ** 4, abs=1e-12)
    assert later["b"]["rating"] == pytest.approx((b_mar11 * k ** 31 - 4.5) * k ** 80, abs=1e-12)
    # d played one unrated match: the adjustment's 100 on the last entry's day (a float, as the
    # journal's adjustments are: chipsstate.py keeps no whole numbers apart), decayed by Jun 30
    # (107 days); a is inactive by then (3 months after Jan 1).
    assert last["d"]["rating"] == 100 and type(last["d"]["rating"]) is float
    assert later["d"]["rating"] == pytest.approx(100 * k ** 107, abs=1e-12)
    assert (last["a"]["status"], later["a"]["status"]) == ("active", "inactive")
    b_history = json.loads(full[READS.index(("history", "b", "--as-of", LATER))])
    assert [(e["date"], e["kind"]) for e in b_history if e["kind"] == "penalty"] == [
        ("2025-02-02", "penalty"), ("2025-03-11", "penalty"), ("2025-04-11", "penalty")]


def test_a_change_to_the_journal_is_replayed_not_finished_from_the_old_replay(cli, tmp_path, monkeypatch):
    # A kept replay is of the journal exactly as it was: a match appended (even on the last day)
    # is replayed with the rest, and the next reads equal a full read's.
    club = make_club(tmp_path / "club", JOURNAL, CONFIG)
    assert cli("recalc", "--club", club).exit_code == 0
    before = outputs(cli, club, READS[:2])
    added = cli("add-match", "d", "a", "--winner", "d", "--length", "7", "--date", "2025-03-15", "--club", club)
    assert added.exit_code == 0, added.output
    with no_cache():
        full = outputs(cli, club)
    with monkeypatch.context() as patch:
        no_replay(patch)   # add-match kept its replay with the new match
        assert outputs(cli, club) == full
    # d: 100 + 7 on Mar 15; a's rating is the one before less 0.8·7 (both decayed to the same day)
    old, new = board(before[1]), board(full[1])
    assert new["d"]["rating"] == 107
    assert new["a"]["rating"] == pytest.approx(old["a"]["rating"] - 5.6, abs=1e-12)


def test_read_without_a_date_a_replay_is_finished_as_of_the_last_entry(tmp_path, monkeypatch):
    # The journal's last entry is d's adjustment on Mar 15, after the last match (Feb 10): a list
    # read without a date (Ledger.run(), as the Python API and recalc do), replayed or kept, has
    # every rating decayed and penalised up to Mar 15, as --as-of 2025-03-15 has them.
    from nardrating.replay.loader import load_club

    club = make_club(tmp_path / "club", JOURNAL, CONFIG)
    with no_cache():
        full = load_club(club).run()
    load_club(club).run()   # replayed and kept
    with monkeypatch.context() as patch:
        no_replay(patch)
        kept = load_club(club).run()
    k = 0.95
    b_mar11 = ((-8 * k ** 32 - 3) * k ** 8 + 3) * k ** 29 - 3   # as in the test above
    for result in (full, kept):
        assert result.end == date(2025, 3, 15)
        assert result.standings["b"].rating == pytest.approx(b_mar11 * k ** 4, abs=1e-12)
        assert [e.date for e in result.history("c")][-1] == date(2025, 3, 15)   # c's decay after Mar 11's penalty
