"""What a voided or unrated game is, it is everywhere: best wins are wins the list counts, on every
engine; peaks of a whole-number list are whole; a period report's status is the one at its end."""
import json
import shutil

import pytest

from .conftest import SAMPLES


@pytest.fixture
def chess(tmp_path):
    club = tmp_path / "chess-club"
    shutil.copytree(SAMPLES / "chess-club", club)
    return club


def ok(result):
    assert result.exit_code == 0, result.output
    return result


def as_json(cli, *args):
    return json.loads(ok(cli(*args, "--format", "json")).stdout)


def test_head_to_head_lists_no_voided_game_among_best_wins(cli, chess):
    # Seed 003's club: vera's only game against anna is m0003 (vera won). Voided, it is no game:
    # no meeting in the record and no best win.
    ok(cli("void", "m0003", "--reason", "never played", "--club", chess))
    found = as_json(cli, "head-to-head", "vera", "anna", "--club", chess)
    assert found["record"]["games"] == 0
    assert found["best_wins"] == {"vera": [], "anna": []}
    # vera's best wins: m0006 over boris alone. Without m0003: m1 anna beats boris → boris 1190;
    # m4 boris 1190 beats gleb 1200 (E = 1/(1 + 10^(10/400)) = 0.48561): +20·0.51439 = +10.29 →
    # 1200.29, boris's rating before m0006.
    wins = as_json(cli, "player", "vera", "--club", chess)["best_wins"]
    assert [(w["entry"], w["opponent"], round(w["opponent_rating"], 2)) for w in wins] == [("m0006", "boris", 1200.29)]


def test_unrated_and_forfeit_wins_are_no_best_wins(cli, chess):
    # anna beats vera (1220, the best rating of the club) unrated and by forfeit: the list counts
    # neither; her only counted win is m0001 over boris (1200 before it).
    ok(cli("add-match", "anna", "vera", "--winner", "anna", "--date", "2009-02-05", "--unrated", "--club", chess))
    ok(cli("add-match", "anna", "vera", "--winner", "anna", "--date", "2009-02-05", "--forfeit", "--club", chess))
    wins = as_json(cli, "player", "anna", "--club", chess)["best_wins"]
    assert [(w["entry"], w["opponent_rating"]) for w in wins] == [("m0001", 1200.0)]
    assert as_json(cli, "head-to-head", "anna", "vera", "--club", chess)["best_wins"]["anna"] == []


def test_player_on_an_mfsnb_list_shows_best_wins_and_whole_numbers(cli):
    # Seed 000's worked example, the first quarter of 2009: Авакян (2337 on the 2008 list) wins 6 of
    # his 9 games, among them over zakharov (2330 on that list), ivanov (2310), kerimov (2290),
    # lebedev (2270), mamedov (2250) and nikolaev (2223): the ratings of the list in force when
    # they played (the journal's [[adjust]] entries). The peak is the list of 2009-03-31, 2337 + 17
    # = 2354, the low the 2008 list: whole numbers, as the list publishes them.
    club = SAMPLES / "federation-2009"
    found = as_json(cli, "player", "avakyan", "--club", club, "--as-of", "2009-03-31")
    assert [(w["opponent"], w["opponent_rating"]) for w in found["best_wins"]] == \
        [("zakharov", 2330), ("ivanov", 2310), ("kerimov", 2290)]
    assert found["peak"] == {"rating": 2354, "date": "2009-03-31"}
    assert found["low"] == {"rating": 2337, "date": "2008-12-31"}
    shown = ok(cli("player", "avakyan", "--club", club, "--as-of", "2009-03-31")).stdout
    assert "peak 2354 on 2009-03-31; low 2337 on 2008-12-31" in shown
    assert "2330\n" in shown and "2330.00" not in shown


def test_player_on_a_fide_list_shows_whole_numbers(cli):
    # Seed 002's example 8.3.4: novik's first rating, 2199, published on the list of 2024-05-01;
    # he beat vasiliev (2220 on the imported list), grigoriev (2200) and zhukov (2150).
    club = SAMPLES / "fide-club"
    found = as_json(cli, "player", "novik", "--club", club)
    assert found["peak"] == found["low"] == {"rating": 2199, "date": "2024-05-01"}
    assert [(w["opponent"], w["opponent_rating"]) for w in found["best_wins"]] == \
        [("vasiliev", 2220), ("grigoriev", 2200), ("zhukov", 2150)]
    assert "peak 2199 on 2024-05-01" in ok(cli("player", "novik", "--club", club)).stdout
    # aleksandrov: 2250 imported; −2 on the list of 2024-05-01 → 2248; +9.2 from m0041 is rounded to
    # +9 on the list of 2024-12-01 → 2257, the peak (not the running sum 2257.2 of the match row).
    found = as_json(cli, "player", "aleksandrov", "--club", club)
    assert (found["peak"], found["low"]) == ({"rating": 2257, "date": "2024-12-01"},
                                             {"rating": 2248, "date": "2024-05-01"})


def test_a_period_report_shows_the_status_at_the_periods_end(cli, chess):
    # Seed 003: a rating is provisional for the first five rated games. Everyone has 3 by
    # 2009-01-29; anna plays three more in February (6 in all: established since her fifth).
    for opponent in ("boris", "vera", "gleb"):
        ok(cli("add-match", "anna", opponent, "--result", "1/2-1/2", "--date", "2009-02-05", "--club", chess))
    january = as_json(cli, "report", "--period", "2009-01", "--club", chess)
    assert {row["player"]: row["status"] for row in january["rows"]} == dict.fromkeys(
        ("anna", "boris", "vera", "gleb"), "provisional")
    february = as_json(cli, "report", "--period", "2009-02", "--club", chess)
    assert {row["player"]: row["status"] for row in february["rows"]}["anna"] == "established"
