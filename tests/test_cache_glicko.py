"""Glicko and Glicko-2 results kept in the cache: a period is rated as a whole, so a kept replay goes
on over appended games from just before its last period (glickostate.LastPeriod), rating that
period again with them; every command reads through the cache what a full read of the journal gives."""
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
    # 3rd, in one update of a's February. The kept replay is not resumed with it, as c's March
    # adjustment came after every game (resume.resumed_result): add-match replays it all, and the
    # next reads equal a full read, from the new replay add-match kept.
    club = make_club(tmp_path / "club", JOURNAL, CONFIG.format(engine=engine))
    before = outputs(cli, club)
    added = cli("add-match", "b", "a", "--winner", "b", "--date", "2009-02-20", "--club", club)
    assert added.exit_code == 0, added.output
    full = read_through_the_cache(cli, club, monkeypatch)
    old, new = ({row["player"]: row["rating"] for row in o[0]} for o in (before, full))
    # a's and b's February moved; c's rating is March's set 1600 either way
    assert old["a"] != new["a"] and old["b"] != new["b"] and old["c"] == new["c"] == 1600


def only_resumed(monkeypatch):
    """From here a command that replays a Glicko list from its start fails; resuming a kept one is allowed."""
    from nardrating.engines import glickoreplay

    run = glickoreplay.Replay.run

    def resumed_only(self):
        if self.resume is None:
            raise AssertionError("replayed from the start, not resumed")
        return run(self)

    monkeypatch.setattr(glickoreplay.Replay, "run", resumed_only)


# Glickman's example ("The Glicko system", section 3; "Example of the Glicko-2 system"): a player of
# 1500, RD 200 beats 1400/RD 30 and loses to 1550/RD 100 and 1700/RD 300 in one rating period:
# r' = 1464, RD' = 151.4 under Glicko-1 (c plays no part: no idle period); r' = 1464.06,
# RD' = 151.52 under Glicko-2 (σ 0.06, τ 0.5).
EXAMPLE = "".join(f'[[player]]\nid = "{p}"\n\n' for p in "abcd") + "".join(f'[[adjust]]\ndate = 2024-01-01\nplayer = "{p}"\nset = {r}\nrd = {rd}\n{{volatility}}'
                  f'reason = "the example"\n\n' for p, (r, rd) in
                  {"a": (1500, 200), "b": (1400, 30), "c": (1550, 100), "d": (1700, 300)}.items()) + \
    '[[match]]\nid = "e1"\ndate = 2024-01-10\nplayers = ["a", "b"]\nwinner = "a"\n'


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_games_added_to_the_last_period_are_rated_with_it_by_a_resumed_replay(cli, tmp_path, monkeypatch, engine):
    # The kept replay holds a's January with one game (the win over b); add-match adds the two
    # losses to January. Resumed from just before January was rated, a's January is rated again
    # with all three games at once, which gives the paper's numbers (rating each game on its own
    # would not), and no command replays the list from its start.
    journal = EXAMPLE.format(volatility="volatility = 0.06\n" if engine == "glicko2" else "")
    club = make_club(tmp_path / "club", journal, CONFIG.format(engine=engine))
    assert cli("recalc", "--club", club).exit_code == 0
    with monkeypatch.context() as patch:
        only_resumed(patch)
        for opponent, day in (("c", "2024-01-11"), ("d", "2024-01-12")):
            added = cli("add-match", "a", opponent, "--winner", opponent, "--date", day, "--club", club)
            assert added.exit_code == 0, added.output
        board = {row["player"]: row for row in outputs(cli, club, [("leaderboard",)])[0]}
    a = board["a"]
    if engine == "glicko":
        assert round(a["rating"]) == 1464 and round(a["rd"], 1) == 151.4
    else:
        # (step 8 prints 1464.06 from the rounded μ'; at full precision 1464.0507: tests/test_glicko.py)
        assert abs(a["rating"] - 1464.06) < 0.01 and round(a["rd"], 2) == 151.52
    reads = [("leaderboard",), ("leaderboard", "--as-of", "2024-12-31"), ("players",), *[("history", p) for p in "abcd"]]
    with no_cache():
        full = outputs(cli, club, reads)
    with monkeypatch.context() as patch:
        only_resumed(patch)
        assert outputs(cli, club, reads) == full


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_a_resumed_replay_over_later_periods_and_out_of_order_games_equals_a_full_read(cli, tmp_path, monkeypatch,
                                                                                       engine):
    # JOURNAL without c's March adjustment (one dated after every game stops a resume): games of a
    # later period are resumed, the last period rated again first; a game dated before the last
    # one replayed cannot be (it would come before it), and the list is replayed from its start.
    journal = JOURNAL.split("[[adjust]]")[0]
    club = make_club(tmp_path / "club", journal, CONFIG.format(engine=engine))
    assert cli("recalc", "--club", club).exit_code == 0
    with monkeypatch.context() as patch:
        only_resumed(patch)
        for args in (("c", "d", "--winner", "d", "--date", "2009-02-10"), ("a", "d", "--result", "1/2-1/2", "--date", "2009-04-02")):
            added = cli("add-match", *args, "--club", club)
            assert added.exit_code == 0, added.output
        resumed = outputs(cli, club)
    with no_cache():
        assert outputs(cli, club) == resumed
    late = cli("add-match", "b", "d", "--winner", "b", "--date", "2009-03-15", "--club", club)
    assert late.exit_code == 0, late.output
    with no_cache():
        full = outputs(cli, club)
    assert read_through_the_cache(cli, club, monkeypatch) == full


@pytest.mark.parametrize("engine", [pytest.param("glicko", marks=pytest.mark.slow), "glicko2"])
def test_a_period_rated_again_over_a_big_journal_reads_its_stretch_of_the_columns(cli, tmp_path, monkeypatch, engine):
    # 13,000 games, 130 a day (to 2009-04-10), daily periods: resuming rates the last day's 130 games again, a
    # stretch of the journal's mapped columns with the new games appended to them (read as one
    # list each: contract.batches.columns_over), its unrated and forfeited games found among them.
    import random
    from datetime import date, timedelta

    from nardrating.contract import batches

    rng = random.Random(7)
    lines = ["id,date,player_a,player_b,result,rated,forfeit"]
    for k in range(13_000):
        a, b = rng.sample(range(40), 2)
        lines.append(f"g{k},{date(2009, 1, 1) + timedelta(days=k // 130)},p{a},p{b},"
                     f"{rng.choice(['1-0', '0-1', '1/2-1/2'])},{'false' if k % 97 == 5 else ''},{'true' if k % 89 == 3 else ''}")
    config = CONFIG.format(engine=engine).replace('journal = ["journal.toml"]', 'journal = ["games.csv", "journal.toml"]')
    club = make_club(tmp_path / "club", "", config + 'period = "day"\n')
    (club / "games.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli("recalc", "--club", club).exit_code == 0
    stretched = []
    over = batches.columns_over

    def counted(batch, rows):
        found = over(batch, rows)
        stretched.append(found[3] is not rows)
        return found

    with monkeypatch.context() as patch:
        only_resumed(patch)
        patch.setattr("nardrating.engines.glickoreplay.columns_over", counted)
        for args in (("p1", "p2", "--winner", "p1"), ("p3", "p1", "--result", "1/2-1/2", "--unrated"),
                     ("p2", "p3", "--winner", "p3", "--forfeit")):
            added = cli("add-match", *args, "--date", "2009-04-10", "--club", club)
            assert added.exit_code == 0, added.output
        resumed = outputs(cli, club, [("leaderboard",), ("history", "p1"), ("history", "p3")])
    assert stretched and all(stretched)
    with no_cache():
        assert outputs(cli, club, [("leaderboard",), ("history", "p1"), ("history", "p3")]) == resumed


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_a_resumed_replay_stored_again_reads_back_as_a_full_one(cli, tmp_path, monkeypatch, engine):
    # With RESAVE_AFTER 0 the journal with d's new February win over a (written to the file as an
    # editor would) is cached anew by the first read,
    # and the replay it resumes is stored too (resume.resumed_result): its player-period table is
    # the cached one's rows in place and the rows the resumed replay added (mapped.Appended), which
    # are stored joined. The reads after it come from that stored replay, with no replay at all,
    # and equal a full read.
    from datetime import date

    import nardrating.replay.resume as resume
    from nardrating.journal.writer import append_block, entry_block

    journal = JOURNAL.split("[[adjust]]")[0]
    club = make_club(tmp_path / "club", journal, CONFIG.format(engine=engine))
    assert cli("recalc", "--club", club).exit_code == 0
    monkeypatch.setattr(resume, "RESAVE_AFTER", 0)
    with monkeypatch.context() as patch:
        only_resumed(patch)
        append_block(club / "journal.toml", entry_block("match", {"id": "m5", "date": date(2009, 2, 20),
                                                                  "players": ["a", "d"], "winner": "d"}))
        first = outputs(cli, club, [("leaderboard",)])   # resumed, and stored
    full = read_through_the_cache(cli, club, monkeypatch)   # no replay: the stored one read
    assert first[0] == full[0]
    board = {row["player"]: row for row in full[0]}
    # rated games: a's m1, m3 and the new one; d's new one (m4 is unrated)
    assert (board["a"]["games"], board["d"]["games"]) == (3, 1)
