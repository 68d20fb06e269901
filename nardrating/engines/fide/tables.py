"""Seed 002's two conversion tables, as data, with exact rounding helpers.

Table (a) turns a score fraction p into a rating difference dp. The seed
prints only p ≤ 0.50 with numbers (the cells for p > 0.50 are blank), and
says the tables mirror each other; so the upper half is the mirror,
dp(p) = −dp(1 − p), with dp(0.50) = 0 and dp(1.00) = +800, dp(0.00) = −800.

Table (b) (rating difference D → expected score P_D of the higher H and the
lower L rated player) is the same table as seed 000's: `tables.expected_percent`.
"""
from __future__ import annotations

from fractions import Fraction

from ..tables import expected_percent

# dp for p = 0.00, 0.01, …, 0.50, in the seed's order (column by column, read upwards).
_LOWER_HALF: tuple[int, ...] = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383,   # .00 … .09
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251,   # .10 … .19
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,   # .20 … .29
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80,      # .30 … .39
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,              # .40 … .49
    0,                                                            # .50
)
# dp by whole percent 0…100.
DP_BY_PERCENT: tuple[int, ...] = _LOWER_HALF + tuple(-dp for dp in reversed(_LOWER_HALF[:-1]))


def percent_of(points: Fraction, games: int) -> int:
    """The score fraction as the table's whole percent: p rounded to 0.01, halves up."""
    if games <= 0:
        raise ValueError("a score fraction needs at least one game")
    points = Fraction(points)
    # points·100/games rounded half up, in integers.
    return (200 * points.numerator + points.denominator * games) // (2 * points.denominator * games)


def dp_for_percent(percent: int) -> int:
    """Table (a): rating difference for a score of `percent` %, 0 ≤ percent ≤ 100."""
    if not 0 <= percent <= 100:
        raise ValueError(f"a score is 0 to 100 %, not {percent}")
    return DP_BY_PERCENT[percent]


def dp_for_score(points: Fraction, games: int) -> int:
    return dp_for_percent(percent_of(points, games))


def expected_hundredths(own: int, opponent: int, cap: int | None = None) -> int:
    """Table (b): P_D in hundredths for a player rated `own` against `opponent`.

    With `cap`, a difference larger than `cap` counts as `cap` (fide-2024: 400).
    """
    difference = own - opponent
    if cap is not None:
        difference = max(-cap, min(cap, difference))
    return expected_percent(difference)


def dp_for_halves(halves: int, games: int) -> int:
    """dp_for_score of `halves` half-points in `games` games, in integers: p·100 rounded half up
    is ⌊(100·halves + games) / (2·games)⌋, no Fraction made (a list has one per event and player)."""
    if games <= 0:
        raise ValueError("a score fraction needs at least one game")
    return dp_for_percent((100 * halves + games) // (2 * games))


def half_up(numerator: int, denominator: int) -> int:
    """round_half_up(numerator / denominator) in integers (denominator > 0)."""
    return (2 * numerator + denominator) // (2 * denominator)


def half_away(numerator: int, denominator: int) -> int:
    """round_half_away(numerator / denominator) in integers (denominator > 0)."""
    magnitude = half_up(abs(numerator), denominator)
    return magnitude if numerator >= 0 else -magnitude
