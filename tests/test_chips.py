"""The chip (game) rating of seed 001: +chips won, −80 % of chips lost, −5 % a day; the daily rating."""
from datetime import date

import pytest

from nardrating.config import load_config
from nardrating.errors import LedgerError
from nardrating.replay.loader import load_club

from .conftest import make_club

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
