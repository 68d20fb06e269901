"""Seed 002's two tables, every band edge, against the numbers the seed prints."""
from fractions import Fraction

import pytest

from nardrating.engines.fide.tables import dp_for_percent, dp_for_score, expected_hundredths, percent_of
from nardrating.engines.rounding import round_half_away, round_half_up
from nardrating.engines.tables import expected_percent

# Table (a) as printed in seed 002: p → dp for p = .00 … .49 (the cells of p > .50 are blank).
SEED_TABLE_A = {
    49: -7, 48: -14, 47: -21, 46: -29, 45: -36, 44: -43, 43: -50, 42: -57, 41: -65, 40: -72,
    39: -80, 38: -87, 37: -95, 36: -102, 35: -110, 34: -117, 33: -125, 32: -133, 31: -141, 30: -149,
    29: -158, 28: -166, 27: -175, 26: -184, 25: -193, 24: -202, 23: -211, 22: -220, 21: -230, 20: -240,
    19: -251, 18: -262, 17: -273, 16: -284, 15: -296, 14: -309, 13: -322, 12: -336, 11: -351, 10: -366,
    9: -383, 8: -401, 7: -422, 6: -444, 5: -470, 4: -501, 3: -538, 2: -589, 1: -677, 0: -800,
}

# Table (b) as printed in seed 002: (lowest D, highest D, P_D of the higher-rated player H in %).
SEED_TABLE_B = [
    (0, 3, 50), (4, 10, 51), (11, 17, 52), (18, 25, 53), (26, 32, 54), (33, 39, 55), (40, 46, 56),
    (47, 53, 57), (54, 61, 58), (62, 68, 59), (69, 76, 60), (77, 83, 61), (84, 91, 62), (92, 98, 63),
    (99, 106, 64), (107, 113, 65), (114, 121, 66), (122, 129, 67), (130, 137, 68), (138, 145, 69),
    (146, 153, 70), (154, 162, 71), (163, 170, 72), (171, 179, 73), (180, 188, 74), (189, 197, 75),
    (198, 206, 76), (207, 215, 77), (216, 225, 78), (226, 235, 79), (236, 245, 80), (246, 256, 81),
    (257, 267, 82), (268, 278, 83), (279, 290, 84), (291, 302, 85), (303, 315, 86), (316, 328, 87),
    (329, 344, 88), (345, 357, 89), (358, 374, 90), (375, 391, 91), (392, 411, 92), (412, 432, 93),
    (433, 456, 94), (457, 484, 95), (485, 517, 96), (518, 559, 97), (560, 619, 98), (620, 735, 99),
]


@pytest.mark.parametrize("percent, dp", sorted(SEED_TABLE_A.items()))
def test_table_a_printed_half(percent, dp):
    assert dp_for_percent(percent) == dp


@pytest.mark.parametrize("percent", range(51, 101))
def test_table_a_upper_half_is_the_mirror(percent):
    # The seed prints p > .50 blank and calls the tables mirror images: dp(p) = −dp(1 − p).
    assert dp_for_percent(percent) == -SEED_TABLE_A[100 - percent]


def test_table_a_ends_and_middle():
    # 8.1: p = 0 and p = 1 are taken as ∓800; p = .50 means no difference.
    assert dp_for_percent(0) == -800
    assert dp_for_percent(100) == 800
    assert dp_for_percent(50) == 0
    with pytest.raises(ValueError):
        dp_for_percent(101)


def test_score_fraction_rounds_to_hundredths_half_up():
    # 1 of 8 = 0.125 → 0.13 (half up) → dp −322; 3 of 8 = 0.375 → 0.38 → −87.
    assert percent_of(Fraction(1), 8) == 13
    assert dp_for_score(Fraction(1), 8) == -322
    assert dp_for_score(Fraction(3), 8) == -87
    # 1 of 3 = 0.3333 → 0.33 → −125 (the seed's 8.3.4 first tournament).
    assert dp_for_score(Fraction(1), 3) == -125
    # 6½ of 12 = 0.5417 → 0.54 → the mirror of .46 (−29) = +29.
    assert dp_for_score(Fraction(13, 2), 12) == 29


@pytest.mark.parametrize("low, high, stronger", SEED_TABLE_B)
def test_table_b_every_band_edge(low, high, stronger):
    for d in (low, high):
        assert expected_percent(d) == stronger            # H
        assert expected_percent(-d) == 100 - stronger     # L
        assert expected_hundredths(2000 + d, 2000) == stronger
        assert expected_hundredths(2000, 2000 + d) == 100 - stronger


def test_table_b_beyond_735():
    # "> 735: 1.0 / .00"
    assert expected_percent(736) == 100
    assert expected_percent(-736) == 0


def test_table_b_difference_capped_at_400_under_fide_2024():
    # D = 500 is band 485–517 (.96) as printed; counted as 400 it is band 392–411 (.92).
    assert expected_hundredths(2000, 1500) == 96
    assert expected_hundredths(2000, 1500, cap=400) == 92
    assert expected_hundredths(1500, 2000, cap=400) == 8
    # Within the cap nothing changes: D = 400 → .92 either way.
    assert expected_hundredths(1900, 1500, cap=400) == 92


def test_rounding_helpers():
    # A tournament's change: halves away from zero; a first rating: .5 up.
    assert round_half_away(Fraction(5, 2)) == 3
    assert round_half_away(Fraction(-5, 2)) == -3
    assert round_half_away(Fraction(-24, 10)) == -2
    assert round_half_up(Fraction(-5, 2)) == -2
    assert round_half_up(Fraction(43985, 20)) == 2199   # 2199.25
