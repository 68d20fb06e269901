"""Seed 002's rules (and the FIDE 2024 ruleset) as pure functions.

Everything here is exact: ratings are whole numbers, scores are halves,
and sums are Fractions; rounding happens where the rules say, once.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Literal

from pydantic import Field, model_validator

from ..periods import PERIOD_UNITS, add_months, period_containing
from .base import Params
from .fide_tables import dp_for_score

SEED, FIDE_2024 = "seed", "fide-2024"

# FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook B.02).
FIDE_2024_FLOOR = 1400
FIDE_2024_FIRST_RATING_GAMES = 5
FIDE_2024_HYPOTHETICAL = 1800       # two opponents of this rating, both games drawn
FIDE_2024_INITIAL_CAP = 2200
FIDE_2024_DIFFERENCE_CAP = 400
FIDE_2024_K_NEW, FIDE_2024_K, FIDE_2024_K_TOP = 40, 20, 10
FIDE_2024_NEW_UNTIL_GAMES = 30
FIDE_2024_TOP = 2400
FIDE_2024_K_TIMES_GAMES = 700


class FideParams(Params):
    ruleset: Literal["seed", "fide-2024"] = SEED
    list_every: Literal["month", "quarter", "half", "year"] = "month"
    k: int | None = Field(None, gt=0, le=1000)               # seed: 20
    min_rating: int | None = Field(None, ge=0, le=4000)      # seed 1000, fide-2024 1400
    first_rating_games: int | None = Field(None, ge=1, le=1000)  # seed 9, fide-2024 5
    closing_days: int = Field(3, ge=1, le=366)               # a tournament ends ≥ this many days before the list
    official_closing_days: int = Field(1, ge=1, le=366)      # the same for `official = true`
    pool_months: int = Field(26, ge=1, le=1200)
    inactive_months: int = Field(12, ge=1, le=1200)

    @model_validator(mode="after")
    def _k_belongs_to_seed(self):
        if self.ruleset == FIDE_2024 and self.k is not None:
            raise ValueError("k is set by the fide-2024 rules themselves (40, 20 or 10); leave k out")
        return self

    @property
    def floor(self) -> int:
        if self.min_rating is not None:
            return self.min_rating
        return FIDE_2024_FLOOR if self.ruleset == FIDE_2024 else 1000

    @property
    def fixed_k(self) -> int:
        return self.k if self.k is not None else 20

    @property
    def games_to_publish(self) -> int:
        if self.first_rating_games is not None:
            return self.first_rating_games
        return FIDE_2024_FIRST_RATING_GAMES if self.ruleset == FIDE_2024 else 9

    @property
    def difference_cap(self) -> int | None:
        return FIDE_2024_DIFFERENCE_CAP if self.ruleset == FIDE_2024 else None


# --- list dates -------------------------------------------------------------------

def list_on_or_after(day: date, unit: str) -> date:
    """The first list date (first day of a period) on or after `day`."""
    period = period_containing(day, unit)
    return period.start if period.start == day else period.end + timedelta(days=1)


def list_in_force(day: date, unit: str) -> date:
    """The list in force on `day`: the one dated the first day of `day`'s period."""
    return period_containing(day, unit).start


def reaches_list(end: date, official: bool, params: FideParams) -> date:
    """Seed 002: an event ending `closing_days` or more before a list date reaches it;
    an official one reaches a list even when it ends the day before."""
    gap = params.official_closing_days if official else params.closing_days
    return list_on_or_after(end + timedelta(days=gap), params.list_every)


def period_of_list(list_date: date, unit: str) -> date:
    """First day of the rating period that a list closes (the period just before it)."""
    return add_months(list_date, -PERIOD_UNITS[unit])


def within_pool_window(entry_list: date, current_list: date, params: FideParams) -> bool:
    """Consecutive rating periods of at most `pool_months`: from the period of the list
    the entry reached to the period of the current list."""
    return period_of_list(entry_list, params.list_every) >= add_months(current_list, -params.pool_months)


def inactive_on(last_game: date, list_date: date, months: int) -> bool:
    """No rated game in the `months` before the list date (seed 7.2.3a)."""
    return last_game < add_months(list_date, -months)


# --- K ------------------------------------------------------------------------------

def k_factor(params: FideParams, games_before: int, imported: bool, reached_top: bool,
             games_this_list: int) -> int:
    """Seed: the configured K. fide-2024: 40 until 30 games (a rating set by [[adjust]]
    counts as established), then 20, or 10 once a published rating reached 2400;
    lowered to the largest whole K with K × games on this list ≤ 700."""
    if params.ruleset != FIDE_2024:
        return params.fixed_k
    if games_before < FIDE_2024_NEW_UNTIL_GAMES and not imported:
        k = FIDE_2024_K_NEW
    elif reached_top:
        k = FIDE_2024_K_TOP
    else:
        k = FIDE_2024_K
    if games_this_list and k * games_this_list > FIDE_2024_K_TIMES_GAMES:
        k = FIDE_2024_K_TIMES_GAMES // games_this_list
    return k


# --- initial ratings ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PoolEntry:
    """One event's counted games of an unrated player."""

    event: str
    list_date: date
    games: int
    points: Fraction
    opponents_total: Fraction     # Σ of the opponents' ratings (round-robin: Ra × games)
    round_robin: bool


@dataclass(frozen=True, slots=True)
class InitialRating:
    games: int
    points: Fraction
    opponents_mean: Fraction      # Rc (fide-2024: Ra with the two hypothetical opponents)
    exact: Fraction               # Ru before rounding
    rating: int                   # Ru rounded, 0.5 up
    rule: str                     # which clause gave it


def initial_rating(entries: list[PoolEntry], ruleset: str) -> InitialRating:
    from .fide_tables import round_half_up

    games = sum(e.games for e in entries)
    points = sum((e.points for e in entries), Fraction(0))
    total = sum((e.opponents_total for e in entries), Fraction(0))
    if ruleset == FIDE_2024:
        n, s = games + 2, points + 1
        mean = (total + 2 * FIDE_2024_HYPOTHETICAL) / n
        exact = mean + dp_for_score(s, n)
        rule = "Ra + dp (two 1800 draws added)"
        if exact > FIDE_2024_INITIAL_CAP:
            exact, rule = Fraction(FIDE_2024_INITIAL_CAP), "capped at 2200"
        return InitialRating(games, points, mean, exact, round_half_up(exact), rule)
    mean = total / games
    if 2 * points == games:
        exact, rule = mean, "50%: Rc (8.2.2)"
    elif 2 * points > games:
        # 15 for each half-point above 50%: (S − N/2) / ½ = 2S − N half-points.
        exact, rule = mean + 15 * (2 * points - games), "above 50%: Rc + 15 per half-point (8.2.3)"
    elif all(e.round_robin for e in entries):
        exact = mean + dp_for_score(points, games) * Fraction(games, games + 1)
        rule = "below 50%, round-robin: Ra + dp·n/(n+1) (8.2.5)"
    else:
        exact, rule = mean + dp_for_score(points, games), "below 50%: Rc + dp (8.2.4)"
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
