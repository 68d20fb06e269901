"""Glicko and Glicko-2 results kept in the cache: a period is rated as a whole, so a kept replay is
used only for the journal exactly as it was replayed (Engine.cacheable), and every command reads
through it what a full read of the journal gives."""
import json

import pytest

from .conftest import make_club, no_cache

CONFIG = """[club]
name = "Glicko club"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.g]
engine = "{engine}"
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
date = 2009-01-05
players = ["a", "b"]
winner = "a"

[[match]]
id = "m2"
date = 2009-01-20
players = ["b", "c"]
result = "1/2-1/2"

[[match]]
id = "m3"
date = 2009-02-03
players = ["a", "c"]
winner = "c"

[[match]]
id = "m4"
date = 2009-02-10
players = ["d", "a"]
winner = "d"
rated = false

[[adjust]]
date = 2009-03-01
player = "c"
set = 1600
rd = 80
reason = "commission decision"
"""
# What reads the whole list's replay (the leaderboard as of the last entry or later); a report
# also replays the list as of its period's end, for the statuses then.
READS = [("leaderboard",), ("leaderboard", "--as-of", "2009-12-31"), ("players",), *[("history", p) for p in "abcd"]]
REPORT = [("report", "--period", "2009-02")]


def outputs(cli, club, reads=READS):
    results = [cli(*args, "--club", club, "--format", "json") for args in reads]
    assert all(r.exit_code == 0 for r in results), [(args, r.output[:300]) for args, r in zip(reads, results) if r.exit_code]
    return [json.loads(r.stdout) for r in results]


def no_replay(monkeypatch):
    """From here a command that replays a Glicko list fails: what it shows came from the cache."""
    from nardrating.engines import glickoreplay

    def refuse(self):
        raise AssertionError("replayed, not read from the cache")

    monkeypatch.setattr(glickoreplay.Replay, "run", refuse)


def read_through_the_cache(cli, club, monkeypatch):
    """The reads as a full read of the journal gives them, checked equal to the same reads through
    the cache, none of which may replay the list."""
    with no_cache():
        full = outputs(cli, club)
    with monkeypatch.context() as patch:
        no_replay(patch)
        assert outputs(cli, club) == full
    return full


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_a_kept_glicko_replay_reads_as_a_full_one(cli, tmp_path, monkeypatch, engine):
    club = make_club(tmp_path / "club", JOURNAL, CONFIG.format(engine=engine))
    assert cli("recalc", "--club", club).exit_code == 0
    cached = read_through_the_cache(cli, club, monkeypatch)
    with no_cache():
        full_report = outputs(cli, club, REPORT)
    assert outputs(cli, club, REPORT) == full_report
    board = {row["player"]: row for row in cached[0]}
    # d has played one unrated game: the config's start, a whole number (1500, not 1500.0); c's
    # rating is the adjustment's set 1600 (in March, after c's last game) with its rd 80.
    assert board["d"]["rating"] == 1500 and type(board["d"]["rating"]) is int
    assert board["c"]["rating"] == 1600 and board["c"]["rd"] == 80
    # explain replays the whole list again (each period's arithmetic), from a result the cache gave
    explained = [cli("explain", m, "--club", club, "--format", "json") for m in ("m1", "m3")]
    with no_cache():
        assert [cli("explain", m, "--club", club, "--format", "json").stdout for m in ("m1", "m3")] == \
            [r.stdout for r in explained]


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_a_match_added_to_the_last_period_is_rated_with_it_not_read_from_the_old_replay(cli, tmp_path, monkeypatch,
                                                                                         engine):
    # February is rated as a whole: b's win over a on the 20th is rated with a's loss to c on the
    # 3rd, in one update of a's February, so the kept replay cannot be resumed with it; the next
    # reads equal a full read, and add-match keeps the new replay for them.
    club = make_club(tmp_path / "club", JOURNAL, CONFIG.format(engine=engine))
    before = outputs(cli, club)
    added = cli("add-match", "b", "a", "--winner", "b", "--date", "2009-02-20", "--club", club)
    assert added.exit_code == 0, added.output
    full = read_through_the_cache(cli, club, monkeypatch)
    old, new = ({row["player"]: row["rating"] for row in o[0]} for o in (before, full))
    # a's and b's February moved; c's rating is March's set 1600 either way
    assert old["a"] != new["a"] and old["b"] != new["b"] and old["c"] == new["c"] == 1600
