"""A past period's report gives each player's status as of the period's last day. elo and fibs read
it from the whole replay (RatingResult.statuses_at: a count of rated games, an experience), not from
a second replay up to that day; hand-worked cases, and random journals against that replay."""
from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import pytest

from nardrating.engines.glickomath import period_index
from nardrating.engines.policies import Inactivity
from nardrating.replay.loader import load_club

from .conftest import make_club
from .test_fast_path import random_chess_club, random_club

def journal(*matches: tuple[str, str, str, str, str]) -> str:
    """anna, boris and carl, and these matches: (id, date, player a, player b, more lines)."""
    players = "".join(f'[[player]]\nid = "{p}"\n\n' for p in ("anna", "boris", "carl"))
    return players + "\n".join(f'[[match]]\nid = "{m}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n{more}\n'
                                for m, day, a, b, more in matches)


ELO_JOURNAL = journal(("g1", "2015-01-10", "anna", "boris", 'winner = "anna"'),
                      ("g2", "2015-02-10", "anna", "carl", 'winner = "anna"'),
                      ("g3", "2015-02-20", "boris", "carl", 'winner = "boris"\nrated = false'),
                      ("g4", "2015-04-05", "boris", "carl", 'winner = "boris"'),
                      ("g5", "2015-04-06", "boris", "carl", 'winner = "carl"'))


def club_of(tmp_path: Path, text: str, discipline: str, engine: str, params: str) -> Path:
    """A club of this journal and one list of this engine."""
    return make_club(tmp_path / "club", text, f'[club]\njournal = ["journal.toml"]\ndefault_discipline = "{discipline}"\n\n'
                                              f'[rating.{engine}]\nengine = "{engine}"\n{params}\n')


def statuses(cli_json, *args: str) -> dict[str, str]:
    """Each player's status in a report's or a leaderboard's JSON."""
    rows = cli_json(*args)
    return {row["player"]: row["status"] for row in (rows["rows"] if isinstance(rows, dict) else rows)}


def test_an_elo_players_status_is_the_one_of_the_periods_last_day(tmp_path, cli_json, monkeypatch):
    # provisional_games = 2. By 31 March anna has 2 rated games (g1, g2): established; boris and carl
    # 1 each (g3 is not rated): provisional. Today boris and carl have 3 and 2: established. The
    # first quarter's report says what the list said on 31 March; the second's what it says now.
    monkeypatch.chdir(club_of(tmp_path, ELO_JOURNAL, "chess", "elo", "provisional_games = 2"))
    assert statuses(cli_json, "report", "--period", "2015-Q1") == \
        {"anna": "established", "boris": "provisional", "carl": "provisional"}
    assert statuses(cli_json, "report", "--period", "2015-Q2") == {"boris": "established", "carl": "established"}


def test_the_statuses_are_read_without_a_second_replay(tmp_path, monkeypatch):
    from nardrating.reports import period as period_report
    from nardrating.periods import parse_period

    ledger = load_club(club_of(tmp_path, ELO_JOURNAL, "chess", "elo", "provisional_games = 2"), use_cache=False)
    result = ledger.run("elo", "chess")
    asked = []
    monkeypatch.setattr(type(ledger), "run", lambda self, *args: asked.append(args) or result)
    table = period_report.report(ledger, result, parse_period("2015-Q1"))
    statuses = {row["player"]: row["status"] for row in table.json_value["rows"]}
    assert asked == [] and statuses == {"anna": "established", "boris": "provisional", "carl": "provisional"}


FIBS_JOURNAL = journal(("n1", "2015-01-10", "anna", "boris", 'winner = "anna"\nlength = 3'),
                       ("n2", "2015-02-10", "anna", "carl", 'winner = "carl"\nlength = 5'),
                       ("n3", "2015-05-02", "boris", "carl", 'winner = "boris"\nlength = 7'))


def test_a_fibs_players_status_follows_their_experience_then(tmp_path, cli_json, monkeypatch):
    # leaderboard_min_experience = 8, experience in points. By 31 March: anna 3 + 5 = 8 (established),
    # boris 3, carl 5 (provisional). Today boris 3 + 7 = 10 and carl 5 + 7 = 12: established.
    monkeypatch.chdir(club_of(tmp_path, FIBS_JOURNAL, "long-nardy", "fibs", "leaderboard_min_experience = 8"))
    assert statuses(cli_json, "report", "--period", "2015-Q1") == \
        {"anna": "established", "boris": "provisional", "carl": "provisional"}
    assert statuses(cli_json, "leaderboard", "--all") == {"anna": "established", "boris": "established", "carl": "established"}


def inactivity(params, day: date) -> bool:
    """elo, fibs: a status that depends on the day itself (inactivity)."""
    return Inactivity(params).time_dependent


def within_a_period(params, day: date) -> bool:
    """Glicko: a day that does not end its rating period."""
    return period_index(day.toordinal(), params.period) == period_index(day.toordinal() + 1, params.period)


def statuses_compared(folder: Path, lists, first: date, days: int, left_to_replay=inactivity) -> tuple[int, set[str]]:
    """Each list's statuses_at, for days before, through and after the games, against the standings
    of a replay as of that day: how many players were compared, and the statuses met."""
    ledger = load_club(folder, use_cache=False)
    compared, met = 0, set()
    for name, discipline in lists:
        result = ledger.run(name, discipline)
        month_ends = [date(first.year + (first.month + k) // 12, (first.month + k) % 12 + 1, 1) - timedelta(days=1)
                      for k in range(days // 28 + 2)]
        for day in sorted({first + timedelta(days=offset) for offset in [-3, *range(0, days + 2, 3)]} | set(month_ends)):
            read = result.statuses_at(day)
            if read is None:   # left to a replay as of the day (the report makes one)
                assert left_to_replay(ledger.rating(name).params, day), (name, day)
                continue
            replayed = ledger.run(name, discipline, day).standings
            for player, standing in replayed.items():
                assert read[player] == standing.status, (name, discipline, day, player)
                compared += 1
                met.add(standing.status)
    return compared, met


@pytest.mark.parametrize("seed", range(8))
def test_elo_statuses_read_from_the_whole_replay_equal_a_replay_to_that_day(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed, rows=150)
    statuses_compared(tmp_path, [("elo", "chess"), ("elo", "blitz")], date(2015, 1, 1), 400)


@pytest.mark.parametrize("seed", range(8))
def test_fibs_statuses_read_from_the_whole_replay_equal_a_replay_to_that_day(tmp_path, monkeypatch, seed):
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_club(tmp_path, seed, rows=150)
    config = tmp_path / "nardrating.toml"
    threshold = random.Random(seed).choice([5, 12, 30])
    config.write_text(config.read_text().replace('engine = "fibs"\n', f'engine = "fibs"\nleaderboard_min_experience = {threshold}\n'))
    statuses_compared(tmp_path, [("fibs", "long-nardy"), ("fibs", "short-nardy")], date(2015, 1, 1), 31)


def test_the_random_journals_meet_both_statuses(tmp_path, monkeypatch):
    # (so that the comparisons above can tell a wrong count from a right one)
    monkeypatch.setenv("NARDRATING_FAST", "0")
    seen, compared = set(), 0
    for seed in range(8):
        folder = tmp_path / f"elo{seed}"
        random_chess_club(folder, seed, rows=150)
        count, met = statuses_compared(folder, [("elo", "chess")], date(2015, 1, 1), 400)
        seen, compared = seen | met, compared + count
        folder = tmp_path / f"fibs{seed}"
        random_club(folder, seed, rows=150)
        config = folder / "nardrating.toml"
        config.write_text(config.read_text().replace('engine = "fibs"\n', 'engine = "fibs"\nleaderboard_min_experience = 12\n'))
        count, met = statuses_compared(folder, [("fibs", "long-nardy")], date(2015, 1, 1), 31)
        seen, compared = seen | met, compared + count
    assert seen == {"established", "provisional"} and compared > 1000


@pytest.mark.parametrize("seed", [*range(3), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(3, 10))])
def test_glicko_statuses_read_from_the_whole_replay_equal_a_replay_to_that_day(tmp_path, monkeypatch, seed):
    # Days that end a rating period are read from the records and the player-period table; any
    # other day (a week's Wednesday, a month's 15th) is left to a replay (None), checked alike.
    monkeypatch.setenv("NARDRATING_FAST", "0")
    random_chess_club(tmp_path, seed, rows=150)
    compared, met = statuses_compared(tmp_path, [(name, discipline) for name in ("glicko", "glicko2")
                                                 for discipline in ("chess", "blitz")], date(2015, 1, 1), 400, within_a_period)
    assert compared > 0 and met == {"established", "provisional"}


GLICKO_JOURNAL = """[[player]]
id = "anna"

[[player]]
id = "boris"

[[match]]
id = "j1"
date = 2015-01-10
players = ["anna", "boris"]
result = "1/2-1/2"

[[adjust]]
date = {adjusted}
player = "anna"
set = 1500
{change}
reason = "commission"

[[match]]
id = "j2"
date = 2015-05-10
players = ["anna", "boris"]
result = "1-0"
"""


def test_an_adjustment_in_the_period_it_is_rated_with_comes_before_its_games(tmp_path, cli_json, monkeypatch):
    # Glicko (c = 0: no growth), provisional_rd 99. anna's RD is set to 100 on 20 January, after her
    # game of 10 January but in its period: January is rated from RD 100. Against boris (1500, RD 350;
    # q = ln 10/400, g(350) = 1/√(1 + 3q²·350²/π²) = 0.669070, E = 0.5): 1/d² = q²g²E(1 − E)
    # = 3.70846e-6, and RD' = (1/100² + 1/d²)^(−1/2) = 98.196 ≤ 99: established at January's end.
    # (Were the adjustment after January's rating, her RD would be 100: provisional.) boris: g(100)
    # = 0.953146, 1/d² = 7.5261e-6, RD' = (1/350² + 1/d²)^(−1/2) = 252.5: provisional.
    club = club_of(tmp_path, GLICKO_JOURNAL.format(adjusted="2015-01-20", change="rd = 100"), "chess", "glicko",
                   "c = 0\nprovisional_rd = 99")
    result = load_club(club, use_cache=False).run("glicko", "chess")
    assert result.statuses_at(date(2015, 1, 31)) == {"anna": "established", "boris": "provisional"}
    monkeypatch.chdir(club)
    rows = cli_json("report", "--period", "2015-01")["rows"]
    assert {row["player"]: (round(row["after"], 2), row["status"]) for row in rows} == \
        {"anna": (1500, "established"), "boris": (1500, "provisional")}


def test_a_volatility_set_after_the_last_game_grows_the_deviation(tmp_path):
    # Glicko-2, provisional_rd 80. anna played in January; in February her RD is set to 50 and her
    # volatility to 0.5. At April's end she has been idle one whole period (March: idle = April −
    # February − 1), so φ = √(φ² + σ²) with φ = 50/173.7178 = 0.287823: √(0.082842 + 0.25) = 0.576925,
    # RD 100.22 > 80: provisional. (With the volatility the list starts from, 0.06: RD 51.07.)
    club = club_of(tmp_path, GLICKO_JOURNAL.format(adjusted="2015-02-10", change="rd = 50\nvolatility = 0.5"), "chess",
                   "glicko2", "provisional_rd = 80")
    ledger = load_club(club, use_cache=False)
    result = ledger.run("glicko2", "chess")
    assert result.statuses_at(date(2015, 4, 30))["anna"] == "provisional"
    assert ledger.run("glicko2", "chess", date(2015, 4, 30)).standings["anna"].extra["rd"] == pytest.approx(100.222, abs=1e-3)
