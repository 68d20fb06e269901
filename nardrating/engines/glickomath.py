"""The arithmetic both Glicko engines share (Glickman's papers, on the Glicko-2 scale), the
rating periods, and the per-player records of a period: used by the engines (glicko.py,
glicko2.py), their replay (glickoreplay.py) and the [fast] extra's compiled loop.

    g(φ) = 1/√(1 + 3φ²/π²)      E(μ, μj, φj) = 1/(1 + exp(−g(φj)(μ − μj)))
    v    = 1/Σ g(φj)² E (1 − E) φ' = 1/√(1/φ*² + 1/v)    μ' = μ + φ'² Σ g(φj)(sj − Ej)
"""
from __future__ import annotations

import math
import sys
from datetime import date

from ..datarecords import datarecord
from ..periods import month_number

LN10_400 = math.log(10) / 400      # Glickman's q = ln 10 / 400 = 0.0057565
PERIODS = ("day", "week", "month")
# sum() of floats adds left to right before Python 3.12 and by Neumaier's compensated sum from then on:
# Glicko-2's Δ is summed as sum() sums it, in the replay, explain and the [fast] loop alike.
COMPENSATED_SUM = sys.version_info >= (3, 12)


def g(phi: float) -> float:
    """Glickman's g: how much a game against an opponent of deviation φ counts."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(μ, μj, φj): the expected score against an opponent (μj, φj)."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_pair(mu_a: float, phi_a: float, mu_b: float, phi_b: float) -> float:
    """A's expected score against B counting both deviations (the Glicko paper: g(√(RDa² + RDb²)))."""
    return expected(mu_a, mu_b, math.hypot(phi_a, phi_b))


PI2 = math.pi * math.pi   # (the π² of g, computed as g computes it)


def period_sums(mu: float, games: list[tuple[float, float, float]]) -> tuple[float, list[float], list[float]]:
    """For games [(μj, φj, sj)]: v, each game's g(φj)(sj − Ej), and each Ej."""
    info, terms, es = 0.0, [], []
    sqrt, exp = math.sqrt, math.exp
    for mu_j, phi_j, s in games:
        gj = 1.0 / sqrt(1.0 + 3.0 * phi_j * phi_j / PI2)   # g(φj), inline: the replay's innermost loop
        e = 1.0 / (1.0 + exp(-gj * (mu - mu_j)))
        info += gj * gj * e * (1.0 - e)
        terms.append(gj * (s - e))
        es.append(e)
    return 1.0 / info, terms, es


def new_deviation(phi_star: float, v: float) -> float:
    return 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)


def period_index(ordinal: int, period: str) -> int:
    if period == "day":
        return ordinal
    if period == "week":
        return (ordinal - 1) // 7        # date.fromordinal(1) is a Monday: weeks run Monday to Sunday
    return month_number(date.fromordinal(ordinal))


def period_label(index: int, period: str) -> str:
    if period == "day":
        return date.fromordinal(index).isoformat()
    if period == "week":
        year, week, _ = date.fromordinal(index * 7 + 1).isocalendar()
        return f"{year}-W{week:02d}"
    year, month = divmod(index, 12)
    return f"{year}-{month + 1:02d}"



@datarecord(slots=True)
class State:
    """A player: rating r (kept as is, so that history and leaderboard agree to the last digit),
    φ and σ on the Glicko-2 scale, and the last period that set φ (None: never)."""

    r: float
    phi: float
    sigma: float
    last: int | None = None
    games: int = 0
    last_played: date | None = None


@datarecord
class Update:
    """A player's period: the new φ and σ, and each game's share of the rating change."""

    phi: float
    sigma: float
    shares: list[float]        # on the Glicko-2 scale; × scale = rating points
    expected: list[float]
    v: float = 0.0             # 1/Σ g(φj)²E(1 − E), for explain
    delta: float = 0.0         # Glicko-2's Δ = v·Σ g(φj)(sj − Ej)


@datarecord
class Period:
    """What explain needs of one rated period: each player's state at its start and their update."""

    label: str
    start: dict[str, tuple[float, int | None, float]]   # player → (φ, last rated period, σ) before it
    onset: dict[str, float]                              # player → φ at its start (idle growth applied)
    mu: dict[str, float]
    updates: dict[str, Update]
