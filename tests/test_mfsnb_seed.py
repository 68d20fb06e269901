"""Seed 000 (МФСНБ 2009): the worked example, the table, the formulas, rounding, protections.

Every expected number is the seed's own or worked out by hand in the comments.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from nardrating.engines.mfsnb import compute
from nardrating.engines.rounding import round_half_away, round_half_up
from nardrating.engines.tables import expected_percent

from .mfsnb_support import Journal, cli, report

# The seed's table, as published: difference band, stronger %, weaker %.
SEED_TABLE = """
0–3 50 50; 4–10 51 49; 11–17 52 48; 18–25 53 47; 26–32 54 46; 33–39 55 45; 40–46 56 44;
47–53 57 43; 54–61 58 42; 62–68 59 41; 69–76 60 40; 77–83 61 39; 84–91 62 38; 92–98 63 37;
99–106 64 36; 107–113 65 35; 114–121 66 34; 122–129 67 33; 130–137 68 32; 138–145 69 31;
146–153 70 30; 154–162 71 29; 163–170 72 28; 171–179 73 27; 180–188 74 26; 189–197 75 25;
198–206 76 24; 207–215 77 23; 216–225 78 22; 226–235 79 21; 236–245 80 20; 246–256 81 19;
257–267 82 18; 268–278 83 17; 279–290 84 16; 291–302 85 15; 303–315 86 14; 316–328 87 13;
329–344 88 12; 345–357 89 11; 358–374 90 10; 375–391 91 9; 392–411 92 8; 412–432 93 7;
433–456 94 6; 457–484 95 5; 485–517 96 4; 518–559 97 3; 560–619 98 2; 620–735 99 1
"""


def seed_bands():
    for item in SEED_TABLE.replace("\n", " ").split(";"):
        band, stronger, weaker = item.split()
        low, high = band.split("–")
        yield int(low), int(high), int(stronger), int(weaker)


@pytest.mark.parametrize("low,high,stronger,weaker", list(seed_bands()))
def test_every_band_edge_on_both_sides(low, high, stronger, weaker):
    for difference in (low, high):
        assert expected_percent(difference) == stronger
        assert expected_percent(-difference) == weaker


def test_open_band_736_and_beyond():
    # "736 и больше": 100 % for the stronger, 0 for the weaker.
    assert expected_percent(735) == 99 and expected_percent(736) == 100
    assert expected_percent(-735) == 1 and expected_percent(-736) == 0
    assert expected_percent(2000) == 100 and expected_percent(-2000) == 0


def test_worked_example_arithmetic():
    # Seed: 2337 against nine opponents averaging 2312, 6.5 points.
    # D = 25 → 53 %, E = 9 × 0.53 = 4.77, R = 10 × (6.5 − 4.77) = 17.3 → +17.
    opponents = [2405, 2380, 2350, 2330, 2310, 2290, 2270, 2250, 2223]  # sum 20808 = 9 × 2312
    c = compute(2337, opponents, Fraction(13, 2), "swiss", 10)
    assert (c.ra, c.difference, c.pe, c.expected, c.change) == (2312, 25, Fraction(53, 100), Fraction(477, 100), 17)


def test_rounding_rules():
    # R: halves away from zero; Ra: halves up.
    assert round_half_away(Fraction(9, 2)) == 5 and round_half_away(Fraction(-9, 2)) == -5
    assert round_half_away(Fraction(173, 10)) == 17 and round_half_away(Fraction(-173, 10)) == -17
    assert round_half_up(Fraction(4001, 2)) == 2001      # (2000 + 2001) / 2 = 2000.5 → 2001
    assert round_half_up(Fraction(6001, 3)) == 2000      # 2000.33 → 2000


def worked_example(folder):
    j = Journal().rated("a", 2337, qualification="MS")
    opponents = [2405, 2380, 2350, 2330, 2310, 2290, 2270, 2250, 2223]
    for k, rating in enumerate(opponents):
        j.rated(f"o{k}", rating)
    j.tournament("open", "swiss", "2009-02-01", "2009-02-09")
    results = ["1-0"] * 6 + ["1/2-1/2"] + ["0-1"] * 2          # 6 + ½ = 6.5 points
    for k, result in enumerate(results):
        j.match(f"2009-02-0{k + 1}", "a", f"o{k}", result, "open")
    return j.write(folder)


def test_worked_example_through_the_cli(tmp_path):
    club = worked_example(tmp_path / "fed")
    row = report(club, "2009-Q1")["a"]
    assert (row["before"], row["games"], row["points"], row["expected"], row["change"], row["after"]) == \
        (2337, 9, 6.5, 4.77, 17, 2354)
    assert row["status"] == "active" and row["penalty"] == 0 and row["protected"] == []
    [comp] = row["competitions"]
    assert comp == {"id": "open", "system": "swiss", "opponents": 9,
                    "ratings": [2405, 2380, 2350, 2330, 2310, 2290, 2270, 2250, 2223],
                    "Ra": 2312, "difference": 25, "Pe": 0.53, "E": 4.77, "P": 6.5, "change": 17,
                    "protected": None}


def test_leaderboard_shows_published_list_and_pending(tmp_path):
    club = worked_example(tmp_path / "fed")
    from .mfsnb_support import cli_json
    # 2009-02-15: the tournament has ended, the Q1 list is not out: 2337 published, +17 pending.
    rows = {r["player"]: r for r in cli_json("leaderboard", "--club", str(club), "--as-of", "2009-02-15")}
    assert rows["a"]["rating"] == 2337 and rows["a"]["pending"] == 17
    # 2009-03-31: the list is published, nothing pending.
    rows = {r["player"]: r for r in cli_json("leaderboard", "--club", str(club), "--as-of", "2009-03-31")}
    assert rows["a"]["rating"] == 2354 and rows["a"]["pending"] is None
    # Before the tournament ends its games count nowhere yet.
    rows = {r["player"]: r for r in cli_json("leaderboard", "--club", str(club), "--as-of", "2009-02-05")}
    assert rows["a"]["rating"] == 2337 and rows["a"]["pending"] is None


def single(folder, own, opponent, result, **params):
    j = Journal().rated("x", own).rated("y", opponent)
    j.match("2009-02-01", "x", "y", result)
    return j.write(folder, **params)


@pytest.mark.parametrize("own,opponent,result,pe,change", [
    # D = 3 → 50 %: 10 × (0 − 0.50) = −5.
    (1503, 1500, "0-1", 0.50, -5),
    # D = 4 → 51 %: 10 × (1 − 0.51) = 4.9 → 5.
    (1504, 1500, "1-0", 0.51, 5),
    # D = −4 → 49 %: 10 × (0 − 0.49) = −4.9 → −5.
    (1500, 1504, "0-1", 0.49, -5),
    # D = 735 → 99 %: 10 × (1 − 0.99) = 0.1 → 0.
    (2235, 1500, "1-0", 0.99, 0),
    # D = 736 → 100 %: a win changes nothing, 10 × (1 − 1) = 0.
    (2236, 1500, "1-0", 1.0, 0),
    # D = −736 → 0 %: a win brings 10 × (1 − 0) = +10.
    (1500, 2236, "1-0", 0.0, 10),
    # D = −735 → 1 %: a draw brings 10 × (0.5 − 0.01) = 4.9 → 5.
    (1500, 2235, "1/2-1/2", 0.01, 5),
])
def test_band_edges_in_a_single_match(tmp_path, own, opponent, result, pe, change):
    club = single(tmp_path / "fed", own, opponent, result, protect_wins=False)
    comp = report(club, "2009-Q1")["x"]["competitions"][0]
    assert comp["system"] == "single" and comp["Pe"] == pe and comp["change"] == change


def test_halves_round_away_from_zero_exactly(tmp_path):
    # D = 35 → 55 %. Winner: 10 × (1 − 0.55) = 4.5 → +5 (binary floats give 4.4999… → 4).
    # Loser: D = −35 → 45 %, 10 × (0 − 0.45) = −4.5 → −5.
    club = single(tmp_path / "fed", 1535, 1500, "1-0")
    rows = report(club, "2009-Q1")
    assert rows["x"]["change"] == 5 and rows["x"]["after"] == 1540
    assert rows["y"]["change"] == -5 and rows["y"]["after"] == 1495


def round_robin(folder, **params):
    # Four players (H = 4): x 1600 and three at 1500. For x: Ra = 1500, D = 100 → 64 %.
    # x beats b and c, loses to d; d beats b, c beats d, b beats c:
    # x 2, d 2, b 1, c 1 — first place is shared, so no protection.
    j = Journal().rated("x", 1600).rated("b", 1500).rated("c", 1500).rated("d", 1500)
    j.tournament("rr", "round-robin", "2009-03-01", "2009-03-03")
    for day, a, b, r in [("2009-03-01", "x", "b", "1-0"), ("2009-03-01", "c", "d", "1-0"),
                         ("2009-03-02", "x", "c", "1-0"), ("2009-03-02", "d", "b", "1-0"),
                         ("2009-03-03", "x", "d", "0-1"), ("2009-03-03", "b", "c", "1-0")]:
        j.match(day, a, b, r, "rr")
    return j.write(folder, **params)


def test_round_robin_seed_formula(tmp_path):
    # E = H × Pe − 0.5 = 4 × 0.64 − 0.5 = 2.06; R = 10 × (2 − 2.06) = −0.6 → −1.
    row = report(round_robin(tmp_path / "fed"), "2009-Q1")["x"]
    comp = row["competitions"][0]
    assert (comp["Ra"], comp["Pe"], comp["E"], comp["P"], comp["change"]) == (1500, 0.64, 2.06, 2.0, -1)
    assert row["after"] == 1599


def test_round_robin_strict_formula(tmp_path):
    # E = (H − 1) × Pe = 3 × 0.64 = 1.92; R = 10 × (2 − 1.92) = 0.8 → +1.
    row = report(round_robin(tmp_path / "fed", round_robin="strict"), "2009-Q1")["x"]
    assert row["competitions"][0]["E"] == 1.92 and row["change"] == 1 and row["after"] == 1601


def clear_winner(folder, **params):
    # s 2000 beats three players at 1500 in a round-robin: Ra 1500, D = 500 → 96 %,
    # E = 4 × 0.96 − 0.5 = 3.34, P = 3, R = 10 × (3 − 3.34) = −3.4 → −3.
    j = Journal().rated("s", 2000).rated("b", 1500).rated("c", 1500).rated("d", 1500)
    j.tournament("rr", "round-robin", "2009-03-01", "2009-03-01")
    for a, b, r in [("s", "b", "1-0"), ("s", "c", "1-0"), ("s", "d", "1-0"),
                    ("b", "c", "1-0"), ("c", "d", "1-0"), ("d", "b", "1-0")]:
        j.match("2009-03-01", a, b, r, "rr")
    return j.write(folder, **params)


def test_clear_first_place_keeps_the_rating(tmp_path):
    # Wins over weaker players are not protections with protect_direction = "stronger":
    # only the clear first place keeps −3 from being taken.
    row = report(clear_winner(tmp_path / "a", protect_direction="stronger"), "2009-Q1")["s"]
    comp = row["competitions"][0]
    assert comp["E"] == 3.34 and comp["change"] == 0 and row["after"] == 2000
    assert comp["protected"] == "clear first place: -3 → 0" and row["protected"] == ["rr"]
    # Without the first-place rule the −3 stands.
    row = report(clear_winner(tmp_path / "b", protect_direction="stronger", protect_first_place=False), "2009-Q1")["s"]
    assert row["change"] == -3 and row["after"] == 1997 and row["protected"] == []


def test_shared_first_place_is_not_clear(tmp_path):
    # Standings say "1-2": not a clear first place, so the −3 of s stands.
    j = Journal().rated("s", 2000).rated("b", 1500).rated("c", 1500).rated("d", 1500)
    j.tournament("rr", "round-robin", "2009-03-01", "2009-03-01", standings=[("s", "1-2"), ("b", "1-2")])
    for a, b, r in [("s", "b", "1-0"), ("s", "c", "1-0"), ("s", "d", "1-0"),
                    ("b", "c", "1-0"), ("c", "d", "1-0"), ("d", "b", "1-0")]:
        j.match("2009-03-01", a, b, r, "rr")
    row = report(j.write(tmp_path / "fed", protect_direction="stronger"), "2009-Q1")["s"]
    assert row["change"] == -3


def upset(folder, top, **params):
    # w 1500 in a swiss: beats v (top), loses to y and z (1500); y also beats z, so y is first.
    # top = 1700: Ra = (1700 + 1500 + 1500) / 3 = 1566.67 → 1567, D = −67 → 41 %,
    #   E = 3 × 0.41 = 1.23, R = 10 × (1 − 1.23) = −2.3 → −2.
    # top = 1650: Ra = 4650 / 3 = 1550, D = −50 → 43 %, E = 1.29, R = −2.9 → −3.
    j = Journal().rated("w", 1500).rated("v", top).rated("y", 1500).rated("z", 1500)
    j.tournament("sw", "swiss", "2009-03-01", "2009-03-02")
    for day, a, b, r in [("2009-03-01", "w", "v", "1-0"), ("2009-03-01", "y", "z", "1-0"),
                         ("2009-03-02", "w", "y", "0-1"), ("2009-03-02", "w", "z", "0-1")]:
        j.match(day, a, b, r, "sw")
    return j.write(folder, **params)


def test_win_against_a_much_stronger_opponent_keeps_the_rating(tmp_path):
    # v is 200 above w (> 150): the −2 is not taken.
    row = report(upset(tmp_path / "a", 1700), "2009-Q1")["w"]
    assert row["competitions"][0]["Ra"] == 1567 and row["change"] == 0 and row["after"] == 1500
    assert row["competitions"][0]["protected"] == "won vs v (+200): -2 → 0"
    # 150 exactly is not "more than 150": −3 taken.
    row = report(upset(tmp_path / "b", 1650), "2009-Q1")["w"]
    assert row["change"] == -3 and row["after"] == 1497
    # The rule can be switched off.
    row = report(upset(tmp_path / "c", 1700, protect_wins=False), "2009-Q1")["w"]
    assert row["change"] == -2


def test_direction_of_the_150_point_rule(tmp_path):
    # t 1800 beats u 1600 (200 below) and loses to two players at 1800:
    # Ra = (1600 + 1800 + 1800) / 3 = 1733.33 → 1733, D = 67 → 59 %, E = 3 × 0.59 = 1.77,
    # R = 10 × (1 − 1.77) = −7.7 → −8. "any" (the seed's words): protected; "stronger": −8.
    def club(folder, direction):
        j = Journal().rated("t", 1800).rated("u", 1600).rated("p", 1800).rated("q", 1800)
        j.tournament("sw", "swiss", "2009-03-01", "2009-03-02")
        for day, a, b, r in [("2009-03-01", "t", "u", "1-0"), ("2009-03-01", "p", "q", "1-0"),
                             ("2009-03-02", "t", "p", "0-1"), ("2009-03-02", "t", "q", "0-1")]:
            j.match(day, a, b, r, "sw")
        return j.write(folder, protect_direction=direction)
    assert report(club(tmp_path / "any", "any"), "2009-Q1")["t"]["change"] == 0
    assert report(club(tmp_path / "str", "stronger"), "2009-Q1")["t"]["change"] == -8


def test_new_players_start_by_qualification(tmp_path):
    # k (KMS, 1900) plays n (no qualification, `start` 1500): D = 400 → 92 %.
    # k wins: 10 × (1 − 0.92) = 0.8 → +1; n loses: 10 × (0 − 0.08) = −0.8 → −1.
    j = Journal().player("k", "KMS").player("n")
    j.match("2009-02-01", "k", "n", "1-0")
    rows = report(j.write(tmp_path / "fed"), "2009-Q1")
    assert rows["k"]["competitions"][0]["ratings"] == [1500] and rows["n"]["competitions"][0]["ratings"] == [1900]
    assert (rows["k"]["before"], rows["k"]["after"], rows["k"]["status"]) == (None, 1901, "new")
    assert (rows["n"]["before"], rows["n"]["after"], rows["n"]["status"]) == (None, 1499, "new")


def test_competitions_use_the_ratings_at_the_period_start(tmp_path):
    # Two single matches of x and y (both 1500) in one quarter: both are computed from 1500.
    # x wins twice: D = 0 → 50 %, each 10 × (1 − 0.5) = +5, so the list has 1510 (not 1505 + 4.9…).
    j = Journal().rated("x", 1500).rated("y", 1500)
    j.match("2009-01-10", "x", "y", "1-0").match("2009-02-10", "x", "y", "1-0")
    rows = report(j.write(tmp_path / "fed"), "2009-Q1")
    assert [c["Ra"] for c in rows["x"]["competitions"]] == [1500, 1500]
    assert rows["x"]["after"] == 1510 and rows["y"]["after"] == 1490


def test_bad_params_are_refused(tmp_path):
    for params, key in [({"protect_direction": "weaker"}, "protect_direction"),
                        ({"round_robin": "loose"}, "round_robin"),
                        ({"inactivity": [[6, 50], [3, 25]]}, "inactivity"),
                        ({"start_by_qualification": {"GM": 2500}}, "start_by_qualification"),
                        ({"protect_win_gap": -1}, "protect_win_gap")]:
        club = Journal().player("x").write(tmp_path / key, **params)
        result = cli("check", "--club", str(club))
        assert result.exit_code == 1 and key in result.output, result.output


def test_fractional_adjustment_is_refused(tmp_path):
    club = Journal().player("x").adjust("2009-01-01", "x", set=1500.5).write(tmp_path / "fed")
    result = cli("check", "--club", str(club))
    assert result.exit_code == 1 and "whole numbers" in result.output
