"""Seed 000's arithmetic for one player in one competition, exact, pure.

    Ra = mean of the opponents' ratings, ½ up      D = own − Ra      Pe = the table at D
    E  = M·Pe (swiss, knockout, match, single)    E = H·Pe − ½ (round-robin; (H − 1)·Pe when strict)
    R  = 10·(P − E), rounded, halves away from zero

Every value is a whole number of a known unit: ratings are whole, Pe is whole percent (the
table), P is whole halves (a game scores 1, ½ or 0), so E is whole hundredths and 10·(P − E)
whole tenths. `whole_numbers` computes in those units, in integers (exactly the fractions'
values, far cheaper than Fraction objects on a large journal); `compute` gives the fractions.
"""
from __future__ import annotations

from fractions import Fraction

from ...datarecords import datarecord
from ..tables import expected_percent


def expected_hundredths(system: str, games: int, participants: int, percent: int, round_robin: str) -> int:
    """100·E: M·Pe, or for a round-robin H·Pe − ½ (seed) or (H − 1)·Pe (strict), Pe in percent."""
    if system == "round-robin":
        return (participants - 1) * percent if round_robin == "strict" else participants * percent - 50
    return games * percent


def whole_numbers(own: int, total: int, games: int, halves: int, system: str, participants: int,
                  round_robin: str) -> tuple[int, int, int, int, int]:
    """(Ra, D, Pe in percent, E in hundredths, R) of `games` games against opponents rated `total`
    together, P = `halves`/2.

    Ra = total/games, ½ up: ⌊(2·total + games) / (2·games)⌋. 10·(P − E) = (50·halves − 100·E)/10
    tenths, rounded halves away from zero: ⌊(|tenths| + 5) / 10⌋ with its sign.
    """
    ra = (2 * total + games) // (2 * games)
    difference = own - ra
    percent = expected_percent(difference)
    expected = expected_hundredths(system, games, participants, percent, round_robin)
    return ra, difference, percent, expected, tenths_rounded(50 * halves - expected)


def tenths_rounded(tenths: int) -> int:
    """A number of tenths as a whole number, halves away from zero: ⌊(|tenths| + 5) / 10⌋ with its sign."""
    return (tenths + 5) // 10 if tenths >= 0 else -((5 - tenths) // 10)


# R of one game (a single match: M = 1, E = Pe) by P in halves and Pe in percent, looked up.
ONE_GAME_R = tuple(tuple(tenths_rounded(50 * halves - percent) for percent in range(101)) for halves in range(3))


def halves_of(points: Fraction | float) -> int:
    """P as whole halves; seed 000 scores a game 1, ½ or 0, so any sum of games is whole halves."""
    halves = 2 * points
    if halves != int(halves):
        raise ValueError(f"seed 000's points are whole halves, not {points}")
    return int(halves)


@datarecord(frozen=True, slots=True)
class Computation:
    """Seed 000's arithmetic for one player in one competition, as fractions: Ra, D, Pe, E, P and R."""

    ra: int
    difference: int
    pe: Fraction
    expected: Fraction
    points: Fraction
    change: int           # 10·(P − E) rounded, before any protection


def compute(own: int, opponents: list[int], points: Fraction, system: str,
            participants: int, round_robin: str = "seed") -> Computation:
    ra, difference, percent, expected, change = whole_numbers(
        own, sum(opponents), len(opponents), halves_of(points), system, participants, round_robin)
    return Computation(ra, difference, Fraction(percent, 100), Fraction(expected, 100), Fraction(points), change)
