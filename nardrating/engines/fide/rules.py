"""Seed 002's rules (and the FIDE 2024/2025 rulesets) as pure functions.

Everything here is exact: ratings are whole numbers, scores are halves,
and sums are Fractions; rounding happens where the rules say, once.
"""
from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction

from ...datarecords import datarecord
from ...periods import PERIOD_UNITS, add_months, period_containing
from ..rounding import round_half_up
from .values import (FIDE_2024_HYPOTHETICAL, FIDE_2024_INITIAL_CAP, FIDE_2024_JUNIOR_UNTIL, FIDE_2024_K,
                     FIDE_2024_K_NEW, FIDE_2024_K_TIMES_GAMES, FIDE_2024_K_TOP, FIDE_2024_NEW_UNTIL_GAMES,
                     FIDE_RULESETS, FideRules)
from .tables import dp_for_score
from ..wording import (FIRST_ABOVE, FIRST_BELOW, FIRST_BELOW_ROUND_ROBIN, FIRST_CAPPED, FIRST_FIDE, FIRST_HALF,
                       K_CAPPED, K_JUNIOR, K_NEW, K_OF_CONFIG, K_PAST_30, K_TOP, PAST_ADJUST, PAST_GAMES,
                       PAST_LISTED)

# --- list dates -------------------------------------------------------------------

WAITS = "waits for the list of "


def pending_reason(list_date: date, key: str, end: date) -> str:
    """The line of a game whose event (`key`, ending on `end`) reaches the list of `list_date`, not yet published."""
    return f"{WAITS}{list_date} ({key} ends {end})"


def list_on_or_after(day: date, unit: str) -> date:
    """The first list date (first day of a period) on or after `day`."""
    period = period_containing(day, unit)
    return period.start if period.start == day else period.end + timedelta(days=1)


def list_in_force(day: date, unit: str) -> date:
    """The list in force on `day`: the one dated the first day of `day`'s period."""
    return period_containing(day, unit).start


def reaches_list(end: date, official: bool, params: FideRules) -> date:
    """Seed 002: an event ending `closing_days` or more before a list date reaches it;
    an official one reaches a list even when it ends the day before."""
    gap = params.official_closing_days if official else params.closing_days
    return list_on_or_after(end + timedelta(days=gap), params.list_every)


def period_of_list(list_date: date, unit: str) -> date:
    """First day of the rating period that a list closes (the period just before it)."""
    return add_months(list_date, -PERIOD_UNITS[unit])


def within_pool_window(entry_list: date, current_list: date, params: FideRules) -> bool:
    """Consecutive rating periods of at most `pool_months`: from the period of the list
    the entry reached to the period of the current list."""
    return period_of_list(entry_list, params.list_every) >= add_months(current_list, -params.pool_months)


def inactive_on(last_game: date, list_date: date, months: int) -> bool:
    """No rated game in the `months` before the list date (seed 7.2.3a)."""
    return last_game < add_months(list_date, -months)


# --- K ------------------------------------------------------------------------------

@datarecord(slots=True)
class KState:
    """What decides a player's K (§8.3.3): games rated so far (with those an [[adjust]] brought
    in), the K an imported list gave, whether a published rating reached 2400, and the rating.

    Made for every rated player on every list: read-only by convention, not frozen (a frozen
    dataclass's __init__ takes two and a half times as long)."""

    games: int
    established: bool        # counts as past the 30 games whatever `games` says
    listed_k: int | None     # [[adjust]] k
    listed_games: int | None  # [[adjust]] games, with listed_k = 40: ≥ 30 means the junior K
    reached_top: bool
    rating: int


def _past_30(state: KState) -> str:
    if state.games >= FIDE_2024_NEW_UNTIL_GAMES:
        return PAST_GAMES.format(games=state.games)
    if state.listed_k is not None:
        return PAST_LISTED.format(k=state.listed_k)
    return PAST_ADJUST


def k_and_rule(params: FideRules, state: KState, games_this_list: int) -> tuple[int, str]:
    """K and why. Seed: the configured K. FIDE: 40 until 30 games, then 20, 10 once a published
    rating reached 2400; lowered to the largest whole K with K × games on this list ≤ 700."""
    if not params.fide:
        return params.fixed_k, K_OF_CONFIG
    junior = state.listed_k == 40 and (state.listed_games or 0) >= FIDE_2024_NEW_UNTIL_GAMES
    if junior and state.rating < FIDE_2024_JUNIOR_UNTIL:
        k, why = FIDE_2024_K_NEW, K_JUNIOR
    elif not state.established and state.games < FIDE_2024_NEW_UNTIL_GAMES:
        k, why = FIDE_2024_K_NEW, K_NEW.format(games=state.games)
    elif state.reached_top:
        k, why = FIDE_2024_K_TOP, K_TOP
    else:
        k, why = FIDE_2024_K, K_PAST_30.format(why=_past_30(state))
    n = games_this_list
    if n and k * n > FIDE_2024_K_TIMES_GAMES:
        capped = FIDE_2024_K_TIMES_GAMES // n
        why = K_CAPPED.format(why=why, k=k, n=n, product=k * n, capped=capped, capped_product=capped * n)
        k = capped
    return k, why


# --- initial ratings ---------------------------------------------------------------

@datarecord(frozen=True, slots=True)
class PoolEntry:
    """One event's counted games of an unrated player."""

    event: str
    list_date: date
    games: int
    points: Fraction
    opponents_total: Fraction     # Σ of the opponents' ratings (round-robin: Ra × games)
    round_robin: bool


@datarecord(frozen=True, slots=True)
class InitialRating:
    """An unrated player's first rating from their pool: games, points, Rc, Ru exact and rounded, the clause."""

    games: int
    points: Fraction
    opponents_mean: Fraction      # Rc (fide-2024: Ra with the two hypothetical opponents)
    exact: Fraction               # Ru before rounding
    rating: int                   # Ru rounded, 0.5 up
    rule: str                     # which clause gave it


def initial_rating(entries: list[PoolEntry], ruleset: str) -> InitialRating:
    games = sum(e.games for e in entries)
    points = sum((e.points for e in entries), Fraction(0))
    total = sum((e.opponents_total for e in entries), Fraction(0))
    if ruleset in FIDE_RULESETS:
        n, s = games + 2, points + 1
        mean = (total + 2 * FIDE_2024_HYPOTHETICAL) / n
        exact = mean + dp_for_score(s, n)
        rule = FIRST_FIDE
        if exact > FIDE_2024_INITIAL_CAP:
            exact, rule = Fraction(FIDE_2024_INITIAL_CAP), FIRST_CAPPED
        return InitialRating(games, points, mean, exact, round_half_up(exact), rule)
    mean = total / games
    if 2 * points == games:
        exact, rule = mean, FIRST_HALF
    elif 2 * points > games:
        # 15 for each half-point above 50%: (S − N/2) / ½ = 2S − N half-points.
        exact, rule = mean + 15 * (2 * points - games), FIRST_ABOVE
    elif all(e.round_robin for e in entries):
        exact = mean + dp_for_score(points, games) * Fraction(games, games + 1)
        rule = FIRST_BELOW_ROUND_ROBIN
    else:
        exact, rule = mean + dp_for_score(points, games), FIRST_BELOW
    return InitialRating(games, points, mean, exact, round_half_up(exact), rule)


def round_robin_average(rated: list[tuple[int, Fraction, int]], opponents: int) -> Fraction:
    """Seed 8.2.1(b): Ra = Rar − dpa·n/(n+1).

    `rated`: (rating, points, games) of each rated player of the tournament, points
    and games against all opponents; `opponents`: n, the number of opponents each
    player meets (players − 1).
    """
    mean_rating = Fraction(sum(r for r, _, _ in rated), len(rated))
    mean_dp = Fraction(sum(dp_for_score(s, g) for _, s, g in rated), len(rated))
    return mean_rating - mean_dp * Fraction(opponents, opponents + 1)
