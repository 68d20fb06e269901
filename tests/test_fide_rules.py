"""Seed 002's rules as pure functions: list dates, pool window, initial ratings, K."""
from datetime import date
from fractions import Fraction

import pytest
from pydantic import ValidationError

from nardrating.engines.fide.params import FideParams
from nardrating.engines.fide.rules import (KState, PoolEntry, inactive_on, initial_rating, k_and_rule, list_in_force,
                                           reaches_list, round_robin_average, within_pool_window)

SEED = FideParams()


def k_factor(params: FideParams, games_before: int, established: bool, reached_top: bool, games_this_list: int) -> int:
    """K of a player known only by games, established-ness and 2400."""
    return k_and_rule(params, KState(games_before, established, None, None, reached_top, 0), games_this_list)[0]
MONTHLY_2024 = FideParams(ruleset="fide-2024")


def test_defaults():
    assert (SEED.fixed_k, SEED.floor, SEED.games_to_publish, SEED.list_every) == (20, 1000, 9, "month")
    assert (MONTHLY_2024.floor, MONTHLY_2024.games_to_publish, MONTHLY_2024.difference_cap) == (1400, 5, 400)


def test_bad_params_are_refused():
    with pytest.raises(ValidationError):
        FideParams(ruleset="fide-2024", k=20)     # K is the 2024 rules' own
    with pytest.raises(ValidationError):
        FideParams(list_every="week")
    with pytest.raises(ValidationError):
        FideParams(k=0)
    with pytest.raises(ValidationError):
        FideParams(ruleset="fide-2023")


def test_list_dates():
    # The list of 1 May 2024. 28 April is 3 days before it: reaches it.
    assert reaches_list(date(2024, 4, 28), False, SEED) == date(2024, 5, 1)
    # 29 April is 2 days before: the next list, 1 June.
    assert reaches_list(date(2024, 4, 29), False, SEED) == date(2024, 6, 1)
    # An official competition ending on 30 April, the day before, still reaches 1 May…
    assert reaches_list(date(2024, 4, 30), True, SEED) == date(2024, 5, 1)
    # …but not when it ends on the list date itself.
    assert reaches_list(date(2024, 5, 1), True, SEED) == date(2024, 6, 1)
    # Quarterly lists: 1 Jan, 1 Apr, 1 Jul, 1 Oct. 29 March (3 days before 1 April) reaches 1 April.
    quarterly = FideParams(list_every="quarter")
    assert reaches_list(date(2024, 3, 29), False, quarterly) == date(2024, 4, 1)
    assert reaches_list(date(2024, 3, 30), False, quarterly) == date(2024, 7, 1)
    assert list_in_force(date(2024, 5, 17), "quarter") == date(2024, 4, 1)
    assert list_in_force(date(2024, 5, 17), "month") == date(2024, 5, 1)


def test_pool_window_of_26_months():
    # An entry on the list of 1 March 2022 belongs to the period February 2022. On the list of
    # 1 April 2024 the periods February 2022 … March 2024 span 26 months: still pooled.
    assert within_pool_window(date(2022, 3, 1), date(2024, 4, 1), SEED)
    # An entry on the list of 1 February 2022 (period January 2022) would make 27 months.
    assert not within_pool_window(date(2022, 2, 1), date(2024, 4, 1), SEED)


def test_inactive_after_a_year():
    # Last game 10 February 2023: the list of 1 February 2024 looks back to 1 February 2023 — active;
    # the list of 1 March 2024 looks back to 1 March 2023 — no game since: inactive.
    assert not inactive_on(date(2023, 2, 10), date(2024, 2, 1), 12)
    assert inactive_on(date(2023, 2, 10), date(2024, 3, 1), 12)


def entry(games, points, mean, rr=False, day=date(2024, 1, 1)):
    return PoolEntry("t", day, games, Fraction(points), Fraction(mean) * games, rr)


def test_seed_example_8_3_4():
    # 1 of 3 against 2220, 3 of 5 against 2150, 2½ of 4 against 2200: 6½ of 12 against
    # (3·2220 + 5·2150 + 4·2200)/12 = 26210/12 = 2184.17; half a point above 50% → +15 → 2199.
    pool = [entry(3, 1, 2220), entry(5, 3, 2150), entry(4, Fraction(5, 2), 2200)]
    first = initial_rating(pool, "seed")
    assert (first.games, first.points) == (12, Fraction(13, 2))
    assert first.opponents_mean == Fraction(26210, 12)
    assert first.rating == 2199
    # After the first tournament alone: 1 of 3 = .33 → dp −125 → 2220 − 125 = 2095.
    assert initial_rating(pool[:1], "seed").rating == 2095
    # After two: 4 of 8 = 50% → Rc = (6660 + 10750)/8 = 2176.25 → 2176.
    assert initial_rating(pool[:2], "seed").rating == 2176


def test_seed_initial_rating_cases():
    # Above 50%: 6 of 9 against 2000 is 1½ points = 3 half-points above 4½ → 2000 + 45.
    assert initial_rating([entry(9, 6, 2000)], "seed").rating == 2045
    # Below 50% (swiss): 3 of 9 = .33 → −125 → 1875.
    assert initial_rating([entry(9, 3, 2000)], "seed").rating == 1875
    # Below 50% in a round-robin (8.2.5 read as the below-50% case): Ra + dp·n/(n+1),
    # 3 of 9 → −125·9/10 = −112.5 → 1887.5 → 1888 (0.5 up).
    assert initial_rating([entry(9, 3, 2000, rr=True)], "seed").rating == 1888


def test_round_robin_average_8_2_1b():
    # Rated players 2000 (4 of 4: dp +800), 1900 (2½ of 4 = .63: +95), 1800 (1 of 4 = .25: −193);
    # Rar = 1900, dpa = 702/3 = 234, n = 4: Ra = 1900 − 234·4/5 = 1712.8.
    ra = round_robin_average([(2000, Fraction(4), 4), (1900, Fraction(5, 2), 4), (1800, Fraction(1), 4)], 4)
    assert ra == Fraction(17128, 10)


def test_fide_2024_initial_rating():
    # 2½ of 5 against 2000, plus two 1800 opponents both drawn: Ra = (5·2000 + 2·1800)/7 =
    # 13600/7 = 1942.86; p = 3½/7 = .50 → dp 0 → 1943.
    first = initial_rating([entry(5, Fraction(5, 2), 2000)], "fide-2024")
    assert first.opponents_mean == Fraction(13600, 7)
    assert first.rating == 1943
    # 5 of 5 against 2300: Ra = (11500 + 3600)/7 = 2157.14; p = 6/7 = .86 → dp +309 → 2466 → capped 2200.
    assert initial_rating([entry(5, 5, 2300)], "fide-2024").rating == 2200
    # 1 of 5 against 1600: Ra = (8000 + 3600)/7 = 1657.14; p = 2/7 = .29 → −158 → 1499.14 → 1499.
    assert initial_rating([entry(5, 1, 1600)], "fide-2024").rating == 1499


def test_k_seed_is_the_configured_k():
    assert k_factor(SEED, 0, False, False, 50) == 20
    assert k_factor(FideParams(k=15), 0, False, True, 50) == 15


def test_k_fide_2024():
    # 40 until 30 games, then 20; 10 once a published rating reached 2400.
    assert k_factor(MONTHLY_2024, 29, False, False, 1) == 40
    assert k_factor(MONTHLY_2024, 30, False, False, 1) == 20
    assert k_factor(MONTHLY_2024, 30, False, True, 1) == 10
    # A rating imported by [[adjust]] counts as established.
    assert k_factor(MONTHLY_2024, 0, True, False, 1) == 20


def test_k_times_games_at_most_700():
    # K 40, 18 games: 720 > 700 → the largest K with K·18 ≤ 700 is 38 (684; 39·18 = 702).
    assert k_factor(MONTHLY_2024, 0, False, False, 18) == 38
    # K 40, 17 games: 680 ≤ 700, unchanged.
    assert k_factor(MONTHLY_2024, 0, False, False, 17) == 40
    # K 20, 35 games: exactly 700, unchanged; 36 games: 720 → 19 (684).
    assert k_factor(MONTHLY_2024, 30, False, False, 35) == 20
    assert k_factor(MONTHLY_2024, 30, False, False, 36) == 19
