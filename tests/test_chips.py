"""The chip (game) rating of seed 001: +chips won, −80 % of chips lost, −5 % a day; the daily rating."""
from datetime import date

import pytest

from nardrating.config import load_config
from nardrating.errors import LedgerError
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache

CONFIG = """\
[club]
journal = ["journal.toml"]
default_discipline = "short-nardy"

[rating.chips]
engine = "chips"
"""

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c"))


def match(mid, day, a, b, winner=None, result=None, **extra):
    outcome = f'winner = "{winner}"' if winner else f'result = "{result}"'
    text = f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n{outcome}\n'
    return text + "".join(f"{k} = {v}\n" for k, v in extra.items()) + "\n"


# Worked by hand (win_share 1, loss_share 0.8, daily_decay 0.05):
# 1 Jan, m1: a beats b, chips = 4 (the `chips` field): a +4 → 4; b −0.8·4 = −3.2.
# 1 Jan, m2: c–b, b wins 5-2 of 5 points (no chips: the winner's points from score = 5):
#            b +5 → 1.8; c −0.8·5 = −4.
# 3 Jan: two day boundaries first: a 4·0.95² = 4·0.9025 = 3.61, c −4·0.9025 = −3.61.
#   m3: c beats a, 3 points, no chips, no score (the length = 3): c +3 → −0.61; a −2.4 → 1.21.
# As of 4 Jan: a 1.21·0.95 = 1.1495; b 1.8·0.95³ = 1.8·0.857375 = 1.543275; c −0.61·0.95 = −0.5795.
JOURNAL = (PLAYERS + match("m1", "2025-01-01", "a", "b", "a", chips=4)
           + match("m2", "2025-01-01", "c", "b", "b", length=5, score="[2, 5]")
           + match("m3", "2025-01-03", "c", "a", "c", length=3))


def test_hand_worked_journal(tmp_path):
    result = load_club(make_club(tmp_path, JOURNAL, CONFIG)).run(as_of=date(2025, 1, 4))
    assert {p: round(s.rating, 6) for p, s in result.standings.items()} == {
        "a": 1.1495, "b": 1.543275, "c": -0.5795}
    assert [result.standings[p].games for p in "abc"] == [2, 2, 2]


def test_the_records_player_columns_are_made_when_history_is_first_read(tmp_path):
    # A replay's standings need no player column of its records (a leaderboard --as-of a past day
    # reads only them; a replay kept in the cache stores them); history reads a's rows by them: m1
    # (+4 → 4) and m3 (3.61 − 2.4 = 1.21), as above.
    with no_cache():
        result = load_club(make_club(tmp_path, JOURNAL, CONFIG)).run()
    assert callable(result.records._columns)
    assert [(e.entry, round(e.after, 4)) for e in result.history("a") if e.kind == "match"] == [
        ("m1", 4.0), ("m3", 1.21)]
    assert not callable(result.records._columns)


def test_history_shows_chips_and_decay(tmp_path):
    # Without --as-of, decay runs up to the last entry (3 Jan): no decay after m3.
    result = load_club(make_club(tmp_path, JOURNAL, CONFIG)).run()
    rows = [(e.kind, e.entry, round(e.change, 4), round(e.after, 4), e.extra) for e in result.history("a")]
    assert rows == [("match", "m1", 4.0, 4.0, {"chips": 4.0}),
                    ("decay", None, -0.39, 3.61, {"days": 2}),
                    ("match", "m3", -2.4, 1.21, {"chips": 3.0})]
    # b did not play on 3 Jan; his rating still decays to it: 1.8·0.9025 = 1.6245.
    b = result.history("b")
    assert [e.extra["chips"] for e in b if e.kind == "match"] == [4.0, 5.0]
    assert (b[-1].kind, b[-1].date, round(b[-1].after, 6)) == ("decay", date(2025, 1, 3), 1.6245)


def test_an_adjust_between_matches_of_a_day_is_where_the_journal_has_it(tmp_path):
    # 10 Jan: a beats b (3 points): a 0 + 3 = 3, b −2.4. Then [[adjust]] set = 100 for a; then an
    # unrated game (nothing moves: 100) and a draw (no chips: 100), then a beats b again: 103.
    # 11 Jan: a day's decay first, 103·0.95 = 97.85; b beats a, 2 points: a −1.6 → 96.25.
    adjust = '[[adjust]]\ndate = 2025-01-10\nplayer = "a"\nset = 100\nreason = "import"\n\n'
    journal = (PLAYERS + match("m1", "2025-01-10", "a", "b", "a", length=3) + adjust
               + match("m2", "2025-01-10", "a", "b", "a", length=3, rated="false")
               + match("m3", "2025-01-10", "a", "b", result="1/2-1/2", length=3)
               + match("m4", "2025-01-10", "a", "b", "a", length=3)
               + match("m5", "2025-01-11", "b", "a", "b", length=2))
    result = load_club(make_club(tmp_path, journal, CONFIG)).run()
    rows = [(e.kind, e.entry, round(e.before, 6), round(e.change, 6), round(e.after, 6), e.rated)
            for e in result.history("a")]
    assert rows == [("match", "m1", 0.0, 3.0, 3.0, True),
                    ("adjust", None, 3.0, 97.0, 100.0, True),
                    ("match", "m2", 100.0, 0.0, 100.0, False),
                    ("match", "m3", 100.0, 0.0, 100.0, True),
                    ("match", "m4", 100.0, 3.0, 103.0, True),
                    ("decay", None, 103.0, -5.15, 97.85, True),
                    ("match", "m5", 97.85, -1.6, 96.25, True)]


def test_an_inactivity_penalty_comes_before_the_game_that_ends_the_break(tmp_path):
    # No decay (daily_decay 0), −2 after a month without a game. 10 Jan: a beats b, 3 points: a 3,
    # b −2.4. a's next game is on 1 March: the step fell due on 11 February (a month and a day
    # after 10 January), −2 → 1, before it; then a beats c, 1 point: 2. b, who plays no more, has
    # the same step by the journal's last day: −2.4 − 2 = −4.4.
    config = CONFIG + "daily_decay = 0.0\ninactivity = [[1, 2]]\n"
    journal = (PLAYERS + match("m1", "2025-01-10", "a", "b", "a", length=3)
               + match("m2", "2025-03-01", "a", "c", "a", length=1))
    result = load_club(make_club(tmp_path, journal, config)).run()
    assert [(e.kind, e.entry, e.date, e.before, e.change, e.after) for e in result.history("a")] == [
        ("match", "m1", date(2025, 1, 10), 0.0, 3.0, 3.0),
        ("penalty", None, date(2025, 2, 11), 3.0, -2, 1.0),
        ("match", "m2", date(2025, 3, 1), 1.0, 1.0, 2.0)]
    assert round(result.standings["b"].rating, 6) == -4.4


def test_daily_rating_is_one_days_sum_without_decay(tmp_path, cli_json):
    club = make_club(tmp_path, JOURNAL, CONFIG)
    # 1 Jan: a +4; b −3.2 + 5 = 1.8; c −4.
    rows = cli_json("leaderboard", "--club", club, "--daily", "--as-of", "2025-01-01")
    assert [(r["player"], round(r["rating"], 6), r["games"]) for r in rows] == [
        ("a", 4.0, 1), ("b", 1.8, 2), ("c", -4.0, 1)]
    assert set(rows[0]) == {"rank", "player", "name", "rating", "games", "status", "last_played"}
    # 3 Jan: c +3, a −2.4; b did not play.
    rows = cli_json("leaderboard", "--club", club, "--daily", "--as-of", "2025-01-03")
    assert [(r["player"], round(r["rating"], 6)) for r in rows] == [("c", 3.0), ("a", -2.4)]


def test_leaderboard_decays_up_to_as_of(tmp_path, cli_json):
    rows = cli_json("leaderboard", "--club", make_club(tmp_path, JOURNAL, CONFIG), "--as-of", "2025-01-04")
    assert [(r["player"], round(r["rating"], 6)) for r in rows] == [
        ("b", 1.543275), ("a", 1.1495), ("c", -0.5795)]


def test_a_period_report_is_as_of_its_bounds(tmp_path, cli_json):
    """The report's rating at a period's start and end are the leaderboard's as of the day before it
    and as of its end: a decay that runs across a bound is cut there (it was counted whole in the
    period of the next entry, and the rating at the end was the one after the last game)."""
    club = make_club(tmp_path, JOURNAL + match("m4", "2025-01-06", "a", "b", "a", chips=2), CONFIG)

    def rows(period):
        report = cli_json("report", "--club", club, "--period", period, "--details")
        return {r["player"]: r for r in report["rows"]}

    # 1–2 Jan (hand-worked above): the day's games, then one day's decay to the 2nd:
    # a 4·0.95 = 3.8, b 1.8·0.95 = 1.71, c −4·0.95 = −3.8; all from 0.
    first = rows("2025-01-01..2025-01-02")
    assert {p: (r["before"], round(r["after"], 6)) for p, r in first.items()} == {
        "a": (0.0, 3.8), "b": (0.0, 1.71), "c": (0.0, -3.8)}
    # 3–4 Jan: a from 3.8 (the 2nd), a day's decay to 3.61, m3 −2.4 → 1.21, a day to the 4th: 1.1495;
    # c from −3.8: −3.61, +3 → −0.61, −0.5795. b has no entry in it (its decay is dated the 6th).
    second = rows("2025-01-03..2025-01-04")
    assert sorted(second) == ["a", "c"]
    assert (round(second["a"]["before"], 6), round(second["a"]["after"], 6)) == (3.8, 1.1495)
    assert (round(second["c"]["before"], 6), round(second["c"]["after"], 6)) == (-3.8, -0.5795)
    assert round(second["a"]["change"], 6) == round(1.1495 - 3.8, 6)
    # --details: the lines add up to the change, from the rating before to the one after
    for row in (*first.values(), *second.values()):
        lines = row["events"]
        assert lines[0]["before"] == row["before"] and lines[-1]["after"] == row["after"]
        assert sum(line["change"] for line in lines) == pytest.approx(row["change"], abs=1e-12)
    assert [(e["kind"], e["days"]) for e in second["a"]["events"] if e["kind"] == "decay"] == [("decay", 1), ("decay", 1)]
    # and each bound is the leaderboard's as of that day
    for day, want in (("2025-01-02", first), ("2025-01-04", second)):
        board = {r["player"]: r["rating"] for r in cli_json("leaderboard", "--club", club, "--as-of", day, "--all")}
        assert all(board[p] == r["after"] for p, r in want.items())


def test_draw_moves_no_chips_and_unrated_is_skipped(tmp_path):
    # A draw: nothing changes, but it counts as a game; an unrated match counts for nothing.
    journal = (PLAYERS + match("m1", "2025-01-01", "a", "b", result="1/2-1/2", chips=6)
               + match("m2", "2025-01-01", "a", "c", "a", rated="false"))
    result = load_club(make_club(tmp_path, journal, CONFIG)).run()
    assert (result.standings["a"].rating, result.standings["a"].games) == (0.0, 1)
    assert [(e.entry, e.rated, e.change) for e in result.history("a")] == [("m1", True, 0.0), ("m2", False, 0.0)]


def test_shares_and_decay_are_parameters(tmp_path):
    # win_share 0.5, loss_share 1, daily_decay 0.5: a beats b for 8 chips → a +4, b −8;
    # next day: a 4·0.5 = 2, b −8·0.5 = −4.
    config = CONFIG + "win_share = 0.5\nloss_share = 1\ndaily_decay = 0.5\n"
    journal = PLAYERS + match("m1", "2025-01-01", "a", "b", "a", chips=8)
    result = load_club(make_club(tmp_path, journal, config)).run(as_of=date(2025, 1, 2))
    assert (result.standings["a"].rating, result.standings["b"].rating) == (2.0, -4.0)


@pytest.mark.parametrize("line, key", [("daily_decay = 1.5", "daily_decay"), ("loss_share = -0.8", "loss_share")])
def test_bad_params(tmp_path, line, key):
    club = make_club(tmp_path, "", CONFIG + line + "\n")
    with pytest.raises(LedgerError) as caught:
        load_config(club / "nardrating.toml")
    assert f"nardrating.toml:7: [rating.chips] {key}:" in str(caught.value)
