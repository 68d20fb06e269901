"""The shared inactivity policies (inactivity ladder, inactive_after_months, exclude_after_months)
in every per-game engine, with the penalties worked out by hand."""
from datetime import date

import pytest

from nardrating.errors import LedgerError
from nardrating.replay.loader import load_club

from .conftest import make_club

PLAYERS = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("a", "b", "c", "d"))


def match(mid, day, a, b, winner, **extra):
    text = f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nwinner = "{winner}"\n'
    return text + "".join(f"{k} = {v}\n" for k, v in extra.items()) + "\n"


def config(engine, extra=""):
    return (f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "long-nardy"\n\n'
            f'[rating.club]\nengine = "{engine}"\n{extra}')


POLICY = "inactivity = [[3, 25], [6, 50]]\ninactive_after_months = 6\nexclude_after_months = 12\n"

# Elo (start 1200, K 20):
# 10 Jan 2024, m1: a beats b at equal ratings: E = 0.5, ±20·0.5 → a 1210, b 1190.
# 20 Jul 2024, m2: d beats c, the same: d 1210, c 1190.
# a's and b's break from 10 Jan: more than 3 months after 10 Apr → −25 on 11 Apr;
#   more than 6 months after 10 Jul → the total 50, −25 more on 11 Jul.
# 1 Sep 2024, m3: a beats b again: a 1210 − 50 = 1160, b 1190 − 50 = 1140, both owe nothing more.
#   E(a) = 1/(1 + 10^(−20/400)) = 1/1.8912509 = 0.5287506; a +20·(1 − 0.5287506) = +9.424989
#   → a 1169.424989, b 1130.575011. A new break starts at 1 Sep.
ELO_JOURNAL = (PLAYERS + match("m1", "2024-01-10", "a", "b", "a") + match("m2", "2024-07-20", "d", "c", "d")
               + match("m3", "2024-09-01", "a", "b", "a"))


def elo(tmp_path, policy=POLICY):
    return load_club(make_club(tmp_path, ELO_JOURNAL, config("elo", policy)))


def ratings(result):
    return {p: round(s.rating, 6) for p, s in result.standings.items()}


def test_elo_penalties_are_dated_steps_of_the_break(tmp_path):
    ledger = elo(tmp_path)
    # The first step is dated 11 Apr: not yet on 10 Apr, in full on 11 Apr.
    assert ratings(ledger.run(as_of=date(2024, 4, 10)))["a"] == 1210
    assert ratings(ledger.run(as_of=date(2024, 4, 11)))["a"] == 1185
    # 10 Jul: the break from 10 Jan is not more than 6 months yet: only the first step.
    assert ratings(ledger.run(as_of=date(2024, 7, 10)))["a"] == 1185
    # 1 Aug: both steps (25 + 25); a break of more than 6 months: "inactive".
    at_august = ledger.run(as_of=date(2024, 8, 1))
    assert ratings(at_august)["a"] == 1160 and ratings(at_august)["b"] == 1140
    assert at_august.standings["a"].status == "inactive"
    assert at_august.standings["d"].status == "provisional"  # one game of 5, played 20 Jul
    penalties = [(e.date, e.change, e.after) for e in at_august.history("a") if e.kind == "penalty"]
    assert penalties == [(date(2024, 4, 11), -25, 1185), (date(2024, 7, 11), -25, 1160)]


def test_elo_a_new_game_starts_a_new_break_and_reverses_nothing(tmp_path):
    ledger = elo(tmp_path)
    at_september = ledger.run(as_of=date(2024, 9, 1))
    assert ratings(at_september) == {"a": 1169.424989, "b": 1130.575011, "c": 1190, "d": 1210}
    # 15 Dec: a's new break from 1 Sep is more than 3 months after 1 Dec: −25 on 2 Dec
    # → 1169.424989 − 25 = 1144.424989. c and d (20 Jul): −25 on 21 Oct → c 1165, d 1185.
    at_december = ledger.run(as_of=date(2024, 12, 15))
    assert ratings(at_december) == {"a": 1144.424989, "b": 1105.575011, "c": 1165, "d": 1185}
    assert [e.date for e in at_december.history("a") if e.kind == "penalty"] == [
        date(2024, 4, 11), date(2024, 7, 11), date(2024, 12, 2)]
    # 1 Aug 2025: c's break from 20 Jul 2024 is more than 12 months: "excluded" (after −50 in all).
    at_august = ledger.run(as_of=date(2025, 8, 1))
    assert at_august.standings["c"].status == "excluded" and ratings(at_august)["c"] == 1140
    assert at_august.standings["a"].status == "inactive"  # 1 Sep 2024 + 6 months < 1 Aug 2025


def test_hidden_from_the_leaderboard_unless_all(tmp_path, cli_json):
    elo(tmp_path)
    shown = cli_json("leaderboard", "--club", tmp_path, "--as-of", "2025-08-01")
    everyone = cli_json("leaderboard", "--club", tmp_path, "--as-of", "2025-08-01", "--all")
    names = lambda rows: {row["player"] for row in rows}  # noqa: E731
    assert names(shown) == set() and names(everyone) == {"a", "b", "c", "d"}


def test_defaults_change_nothing(tmp_path):
    # Without the keys: no penalty, no status; a 1210 + 9.424989 as in seed 003's arithmetic above.
    result = elo(tmp_path, policy="").run(as_of=date(2030, 1, 1))
    assert ratings(result) == {"a": 1219.424989, "b": 1180.575011, "c": 1190, "d": 1210}
    assert {s.status for s in result.standings.values()} == {"provisional"}


def test_fibs_penalties(tmp_path):
    # FIBS (start 1500, factor 4): a 1-point match at equal ratings: P = 0.5, base 4·1·0.5 = 2,
    # boost 5 for experience 0: a +10 → 1510, b −10 → 1490. As of 1 May: −25 on 11 Apr.
    journal = PLAYERS + match("m1", "2024-01-10", "a", "b", "a")
    ledger = load_club(make_club(tmp_path, journal, config("fibs", "inactivity = [[3, 25]]\n")))
    assert ratings(ledger.run(as_of=date(2024, 5, 1))) == {"a": 1485, "b": 1465}
    assert ratings(ledger.run(as_of=date(2024, 4, 10))) == {"a": 1510, "b": 1490}


def test_chips_penalty_after_that_days_decay(tmp_path):
    # Chips (win 1, loss 0.8, decay 5 % a day): 10 Jan, a beats b for 4 chips: a 4, b −3.2.
    # Ladder [[1, 1]]: more than a month after 10 Feb → −1 on 11 Feb, after 32 days of decay:
    # a 4·0.95^32 − 1; as of 12 Feb one more day: (4·0.95^32 − 1)·0.95.
    journal = PLAYERS + match("m1", "2024-01-10", "a", "b", "a", chips=4)
    ledger = load_club(make_club(tmp_path, journal, config("chips", "inactivity = [[1, 1]]\n")))
    result = ledger.run(as_of=date(2024, 2, 12))
    assert result.standings["a"].rating == pytest.approx((4 * 0.95 ** 32 - 1) * 0.95)
    assert result.standings["b"].rating == pytest.approx((-3.2 * 0.95 ** 32 - 1) * 0.95)
    assert [e.kind for e in result.history("a")] == ["match", "decay", "penalty", "decay"]


@pytest.mark.parametrize("policy", ["inactivity = [[6, 25], [3, 50]]\n", "inactivity = [[3, 50], [6, 25]]\n",
                                    "inactivity = [[6, 25]]\nexclude_after_months = 3\n"])
def test_bad_ladders_are_refused(tmp_path, policy):
    with pytest.raises(LedgerError):
        load_club(make_club(tmp_path, PLAYERS, config("elo", policy)))
