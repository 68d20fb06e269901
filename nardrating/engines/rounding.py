"""Exact rounding of the list engines (mfsnb, fide): on fractions, never floats."""
from __future__ import annotations

from fractions import Fraction


def round_half_up(value: Fraction | int) -> int:
    """Nearest whole number, .5 upwards (seed 000's Ra, seed 002 §8.3.2): 2000.5 → 2001, −2.5 → −2."""
    value = Fraction(value)
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)


def round_half_away(value: Fraction | int) -> int:
    """Nearest whole number, halves away from zero (a change R): 4.5 → 5, −4.5 → −5."""
    magnitude = round_half_up(abs(Fraction(value)))
    return magnitude if value >= 0 else -magnitude
