"""nardrating player and head-to-head, counted by hand on seed 003's six games (sample chess club).

    evening 1 (2009-01-15)  anna 1-0 boris    vera ½-½ gleb
    evening 2 (2009-01-22)  anna 0-1 vera     boris 1-0 gleb
    evening 3 (2009-01-29)  anna ½-½ gleb     boris 0-1 vera

Elo, start 1200, K 20: after evening 1 anna 1210, boris 1190, vera and gleb 1200.
Evening 2: vera beats anna (1210): E = 1/(1 + 10^(10/400)) = 0.48561, vera +10.29 → 1210.29;
boris (1190) beats gleb (1200): boris +10.29 → 1200.29.
Evening 3: vera (1210.29) beats boris (1200.29): E = 1/(1 + 10^(−10/400)) = 0.51439, +9.71 → 1220.00.
"""
import pytest

from .conftest import SAMPLES

CLUB = str(SAMPLES / "chess-club")


def test_player_record_by_hand(cli_json):
    v = cli_json("player", "vera", "--club", CLUB)
    # vera: ½ (gleb), 1 (anna), 1 (boris)
    assert v["record"] == {"games": 3, "wins": 2, "draws": 1, "losses": 0, "points": 2.5}
    assert v["by_discipline"] == [{"discipline": "chess", "length": 1, "games": 3, "wins": 2, "draws": 1,
                                   "losses": 0, "points": 2.5}]
    assert v["streaks"] == {"current": {"result": "win", "games": 2}, "longest_wins": 2, "longest_losses": 0,
                            "longest_unbeaten": 3}
    # Peak 1220.00 after evening 3; low 1200 after the draw of evening 1.
    assert v["peak"]["date"] == "2009-01-29" and v["peak"]["rating"] == pytest.approx(1220.0, abs=0.01)
    assert v["low"] == {"rating": 1200.0, "date": "2009-01-15"}
    # Best win: anna, 1210 before m0003, above boris's 1200.29 before m0006.
    assert [(w["opponent"], w["entry"]) for w in v["best_wins"]] == [("anna", "m0003"), ("boris", "m0006")]
    assert v["best_wins"][0]["opponent_rating"] == pytest.approx(1210.0)
    assert [g["entry"] for g in v["last"]] == ["m0006", "m0003", "m0002"]


def test_player_losing_side(cli_json):
    # gleb: ½ (vera), 0 (boris), ½ (anna): no win, one loss; boris: 0, 1, 0.
    g = cli_json("player", "gleb", "--club", CLUB)
    assert g["record"] == {"games": 3, "wins": 0, "draws": 2, "losses": 1, "points": 1.0}
    assert g["best_wins"] == [] and g["streaks"]["current"] == {"result": "draw", "games": 1}
    b = cli_json("player", "boris", "--club", CLUB)
    assert b["record"] == {"games": 3, "wins": 1, "draws": 0, "losses": 2, "points": 1.0}
    assert b["streaks"]["longest_unbeaten"] == 1 and b["streaks"]["current"] == {"result": "loss", "games": 1}


def test_head_to_head_by_hand(cli_json):
    h = cli_json("head-to-head", "anna", "vera", "--club", CLUB)
    # one meeting, m0003: vera won
    assert h["record"] == {"games": 1, "wins": 0, "draws": 0, "losses": 1, "points": 0.0}
    assert [g["entry"] for g in h["last"]] == ["m0003"]
    assert h["last"][0]["change"] == pytest.approx(-10.29, abs=0.005)
    assert h["best_wins"]["anna"] == [] and [w["entry"] for w in h["best_wins"]["vera"]] == ["m0003"]
    h = cli_json("head-to-head", "anna", "gleb", "--club", CLUB)
    assert h["record"] == {"games": 1, "wins": 0, "draws": 1, "losses": 0, "points": 0.5}


def test_tables_and_refusals(cli):
    result = cli("head-to-head", "anna", "boris", "--club", CLUB)
    assert result.exit_code == 0 and "anna against boris" in result.output and "m0001" in result.output
    for args, message in ((["head-to-head", "anna", "anna"], "two different players"),
                          (["player", "ana"], "unknown player 'ana'")):
        result = cli(*args, "--club", CLUB)
        assert result.exit_code == 1 and message in result.output


def test_the_card_as_of_a_day_counts_the_games_played_by_then(cli_json, cli):
    # As of 2009-01-22 (evening 2) vera has played gleb (½, m0002) and anna (1, m0003); her win over
    # boris (m0006) is a week later. The card counted it before, whatever --as-of said.
    v = cli_json("player", "vera", "--as-of", "2009-01-22", "--club", CLUB)
    assert v["as_of"] == "2009-01-22"
    assert v["record"] == {"games": 2, "wins": 1, "draws": 1, "losses": 0, "points": 1.5}
    assert v["streaks"]["current"] == {"result": "win", "games": 1}
    assert [g["entry"] for g in v["last"]] == ["m0003", "m0002"]
    assert [w["entry"] for w in v["best_wins"]] == ["m0003"]
    # Peak 1210.29 after evening 2 (the docstring's arithmetic), not evening 3's 1220.
    assert v["peak"]["rating"] == pytest.approx(1210.29, abs=0.005)
    # boris and vera meet on evening 3 only: as of evening 2 they have not met.
    h = cli_json("head-to-head", "boris", "vera", "--as-of", "2009-01-22", "--club", CLUB)
    assert h["record"]["games"] == 0 and h["last"] == [] and h["as_of"] == "2009-01-22"
    table = cli("head-to-head", "boris", "vera", "--as-of", "2009-01-22", "--club", CLUB).stdout
    assert "boris and vera have not played each other as of 2009-01-22" in table
    assert "last 5 meetings" not in table   # no empty tables under it
    # Before the first evening nobody has a game: the record alone says so.
    card = cli("player", "vera", "--as-of", "2009-01-01", "--club", CLUB).stdout
    assert "no games as of 2009-01-01" in card and "last 5 games" not in card


def test_a_card_without_a_counted_win_says_none(cli):
    # gleb: ½, 0, ½: no win, so no best win (test_player_losing_side).
    card = cli("player", "gleb", "--club", CLUB).stdout
    assert card.rstrip().endswith("none") and "gleb · best wins (club, chess)" in card
