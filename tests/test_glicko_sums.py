"""Glicko-2's Δ = v·Σ g(φj)(sj − Ej): the replay sums each player's terms exactly as sum() of the
list of them does (explain's rate_values and the [fast] loop sum them so), by running totals
where sum() adds left to right from 0 (before Python 3.12)."""
from __future__ import annotations

import random
import sys

import pytest

from nardrating.engines.glickoreplay import _ByCode

LEFT_TO_RIGHT = pytest.mark.skipif(sys.version_info >= (3, 12),
                                   reason="sum() of floats compensates from Python 3.12: the running totals are not used")


def period(rng: random.Random, players: int, games: int) -> tuple[list[int], list[tuple[int, int]], list[int], list[int], list[float]]:
    """A period's games as the replay holds them: rows (slot of side a, row), the sides' codes by row, and a term a slot."""
    a = [rng.randrange(players) for _ in range(games)]
    b = [(x + rng.randrange(1, players)) % players for x in a]
    terms = [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 1) for _ in range(2 * games)]
    rated = list(dict.fromkeys(x for pair in zip(a, b) for x in pair))
    return rated, list(zip(range(0, 2 * games, 2), range(games))), a, b, terms


@LEFT_TO_RIGHT
def test_one_players_terms_add_up_as_sum_adds_them():
    # Player 0 plays three games with terms 0.1, 0.2 and 0.3 (its side a); sum([0.1, 0.2, 0.3]) is
    # (0.1 + 0.2) + 0.3 = 0.30000000000000004 + 0.3 = 0.6000000000000001, not 0.6. Player 1 (side b)
    # has -0.5 three times: -1.5 exactly.
    by_code = _ByCode(2)
    sums = by_code.sums_of([0, 1], [(0, 0), (2, 1), (4, 2)], [0, 0, 0], [1, 1, 1], [0.1, -0.5, 0.2, -0.5, 0.3, -0.5],
                           compensated=False)
    assert sums == [0.6000000000000001, -1.5]


@LEFT_TO_RIGHT
def test_running_totals_equal_sum_of_each_players_list_period_after_period():
    rng = random.Random(20261205)
    by_code = _ByCode(40)   # one for every period, as the replay keeps it: totals start again each period
    for _ in range(200):
        rated, rows, a, b, terms = period(rng, rng.randint(2, 40), rng.randint(1, 120))
        listed = by_code.sums_of(rated, rows, a, b, terms, compensated=True)
        running = by_code.sums_of(rated, rows, a, b, terms, compensated=False)
        # each player's terms in the order of their games (a game's side a, then b), summed by sum()
        by_hand = [sum(t for slot, i in rows for t, y in ((terms[slot], a[i]), (terms[slot + 1], b[i])) if y == x)
                   for x in rated]
        assert running == listed == by_hand


def test_the_lists_are_summed_by_sum():
    rng = random.Random(5)
    rated, rows, a, b, terms = period(rng, 12, 60)
    assert _ByCode(12).sums_of(rated, rows, a, b, terms, compensated=True) == [
        sum(t for slot, i in rows for t, y in ((terms[slot], a[i]), (terms[slot + 1], b[i])) if y == x) for x in rated]
