"""Seed 000's arithmetic for one player in one competition, exact (fractions), pure.

    Ra = mean of the opponents' ratings, ½ up      D = own − Ra      Pe = the table at D
    E  = M·Pe (swiss, knockout, match, single)    E = H·Pe − ½ (round-robin; (H − 1)·Pe when strict)
    R  = 10·(P − E), rounded, halves away from zero
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..rounding import round_half_away, round_half_up
from ..tables import expected_percent

HALF = Fraction(1, 2)


def expected_result(system: str, games: int, participants: int, pe: Fraction, round_robin: str) -> Fraction:
    """E: M·Pe, or for a round-robin H·Pe − ½ (seed) or (H − 1)·Pe (strict)."""
    if system == "round-robin":
        return (participants - 1) * pe if round_robin == "strict" else participants * pe - HALF
    return games * pe


@dataclass(frozen=True, slots=True)
class Computation:
    ra: int
    difference: int
    pe: Fraction
    expected: Fraction
    points: Fraction
    change: int           # 10·(P − E) rounded, before any protection


def compute(own: int, opponents: list[int], points: Fraction, system: str,
            participants: int, round_robin: str = "seed") -> Computation:
    ra = round_half_up(Fraction(sum(opponents), len(opponents)))
    difference = own - ra
    pe = Fraction(expected_percent(difference), 100)
    e = expected_result(system, len(opponents), participants, pe, round_robin)
    return Computation(ra, difference, pe, e, points, round_half_away(10 * (points - e)))
