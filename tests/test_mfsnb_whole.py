"""Seed 000's arithmetic in whole units (percent, hundredths, halves, tenths) against the same
formulas in fractions, on random competitions (fixed seed), and the rounding edges by hand."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from nardrating.engines.mfsnb import compute
from nardrating.engines.mfsnb.arithmetic import halves_of, whole_numbers
from nardrating.engines.rounding import round_half_away, round_half_up
from nardrating.engines.tables import expected_percent


def by_fractions(own, opponents, points, system, participants, round_robin):
    """The module docstring's formulas, word for word, in fractions."""
    ra = round_half_up(Fraction(sum(opponents), len(opponents)))
    pe = Fraction(expected_percent(own - ra), 100)
    if system != "round-robin":
        expected = len(opponents) * pe
    elif round_robin == "strict":
        expected = (participants - 1) * pe
    else:
        expected = participants * pe - Fraction(1, 2)
    return ra, own - ra, pe, expected, round_half_away(10 * (points - expected))


def random_competitions(seed: int, count: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        system = rng.choice(["swiss", "knockout", "match", "single", "round-robin"])
        games = rng.randint(1, 15)
        opponents = [rng.randint(0, 3000) for _ in range(games)]
        own = rng.choice([rng.randint(0, 3000), opponents[0] + rng.randint(-800, 800)])
        halves = rng.randint(0, 2 * games)
        participants = rng.randint(2, 20)
        round_robin = rng.choice(["seed", "strict"])
        ra, difference, pe, expected, change = by_fractions(own, opponents, Fraction(halves, 2), system,
                                                            participants, round_robin)
        assert whole_numbers(own, sum(opponents), games, halves, system, participants, round_robin) == (
            ra, difference, pe * 100, expected * 100, change)
        c = compute(own, opponents, Fraction(halves, 2), system, participants, round_robin)
        assert (c.ra, c.difference, c.pe, c.expected, c.points, c.change) == (
            ra, difference, pe, expected, Fraction(halves, 2), change)


def test_whole_units_equal_the_fractions_on_random_competitions():
    random_competitions(20090101, 1500)


@pytest.mark.slow
def test_whole_units_equal_the_fractions_on_many_random_competitions():
    random_competitions(2009, 100_000)


def test_halves_of_a_change_round_away_from_zero():
    # 1535 loses to 1500: D = 35 → 55 %, E = 0.55, R = 10·(0 − 0.55) = −5.5 → −6;
    # the winner: D = −35 → 45 %, R = 10·(1 − 0.45) = +5.5 → +6.
    assert whole_numbers(1535, 1500, 1, 0, "single", 2, "seed") == (1500, 35, 55, 55, -6)
    assert whole_numbers(1500, 1535, 1, 2, "single", 2, "seed") == (1535, -35, 45, 45, 6)
    # A draw at D = 35: R = 10·(0.5 − 0.55) = −0.5 → −1, and +0.5 → +1.
    assert whole_numbers(1535, 1500, 1, 1, "single", 2, "seed")[4] == -1
    assert whole_numbers(1500, 1535, 1, 1, "single", 2, "seed")[4] == 1


def test_ra_rounds_halves_up():
    # Opponents 2000 and 2001: Ra = 2000.5 → 2001; 2000, 2000, 2001: 2000.33 → 2000.
    assert whole_numbers(2001, 4001, 2, 2, "swiss", 3, "seed")[:2] == (2001, 0)
    assert whole_numbers(2000, 6001, 3, 3, "swiss", 4, "seed")[:2] == (2000, 0)


def test_points_are_whole_halves():
    assert halves_of(6.5) == 13 and halves_of(Fraction(13, 2)) == 13 and halves_of(0) == 0
    with pytest.raises(ValueError):
        halves_of(Fraction(1, 3))
