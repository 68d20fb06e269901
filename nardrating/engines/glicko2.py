"""Glickman's Glicko-2: rating, deviation and volatility ("Example of the Glicko-2 system").

Per rating period and player (steps 3–8 of the paper, on the Glicko-2 scale
μ = (r − 1500)/173.7178, φ = RD/173.7178): v and Δ = v·Σ g(φj)(sj − Ej) from
the period's games; the new volatility σ' by the paper's Illinois algorithm
(step 5, ε = 0.000001); φ* = √(φ² + σ'²); then φ' and μ' as in Glicko-1
(glicko.py, which holds the shared math and the period replay). A player
without games in a period keeps μ and σ, and φ grows to √(φ² + σ²)
(the paper's last paragraph), at most max_rd.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..i18n import _
from .base import LazyParams, step
from .glicko import GlickoFamily, Period, Update, new_deviation

if TYPE_CHECKING:
    from .params import Glicko2Params


def __getattr__(name: str) -> Any:
    if name == "Glicko2Params":  # (engines/params.py, imported when asked for)
        from .params import Glicko2Params

        return Glicko2Params
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

EPSILON = 0.000001      # the paper's convergence tolerance in step 5
MAX_STEPS = 200         # the Illinois method converges in a handful; a bound so it can never hang


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' solving f(x) = 0 with the Illinois algorithm, x = ln σ'².

    f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a)/τ² is written out at each of its four
    uses, not called: this runs once for every player and period of a replay (a function call per
    value of f was a tenth of its time). Δ² − φ² − v − eˣ is ((Δ² − φ²) − v) − eˣ and φ² + v + eˣ is
    (φ² + v) + eˣ, so their first parts are worked out once.
    """
    exp = math.exp
    a = math.log(sigma * sigma)
    phi2, tau2, delta2 = phi * phi, tau * tau, delta * delta
    rest, base = delta2 - phi2 - v, phi2 + v   # f's Δ² − φ² − v and φ² + v, the same operations once
    A = a
    if delta2 > base:
        B = math.log(rest)
        ex = exp(B)
        fB = ex * (rest - ex) / (2.0 * (base + ex) ** 2) - (B - a) / tau2
    else:
        k = 1
        while True:   # the first k with f(a − kτ) ≥ 0
            B = a - k * tau
            ex = exp(B)
            fB = ex * (rest - ex) / (2.0 * (base + ex) ** 2) - (B - a) / tau2
            if fB >= 0:
                break
            k += 1
    ex = exp(a)
    fA = ex * (rest - ex) / (2.0 * (base + ex) ** 2) - (A - a) / tau2
    for _step in range(MAX_STEPS):
        if abs(B - A) <= EPSILON:
            break
        C = A + (A - B) * fA / (fB - fA)
        ex = exp(C)
        fC = ex * (rest - ex) / (2.0 * (base + ex) ** 2) - (C - a) / tau2
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA /= 2.0
        B, fB = C, fC
    return exp(A / 2.0)


class Glicko2Engine(GlickoFamily):
    name = "glicko2"
    Params = LazyParams("Glicko2Params")
    scale = 173.7178          # the paper's constant
    adjust_fields = frozenset({"rd", "volatility"})
    has_volatility = True

    def onsets(self, codes: list[int], phi: list[float], sigma: list[float], last: list[int | None], index: int,
               p: Glicko2Params) -> list[float]:
        max_phi, sqrt = p.max_rd / self.scale, math.sqrt
        out = []
        for x in codes:
            ph, lx = phi[x], last[x]
            idle = 0 if lx is None else index - lx - 1
            if idle <= 0:
                out.append(ph)
            else:   # φ grows by σ² a period without games, to max_rd at most (min written out)
                sg = sigma[x]
                grown = sqrt(ph * ph + idle * sg * sg)
                out.append(max_phi if max_phi < grown else grown)
        return out

    def deviation(self, phi: float, sigma: float, v: float, terms: list[float], p: Glicko2Params) -> tuple[float, float, float]:
        delta = v * sum(terms)
        sigma = new_volatility(sigma, phi, v, delta, p.tau)
        return new_deviation(math.sqrt(phi * phi + sigma * sigma), v), sigma, delta

    def deviations(self, phis: list[float], sigmas: list[float], vs: list[float], sums: list[float],
                   p: Glicko2Params) -> tuple[list[float], list[float]]:
        # deviation() of each player, in one loop (new_deviation inline): steps 4 to 7.
        tau, sqrt = p.tau, math.sqrt
        new_phi, new_sigma = [], []
        for phi, sigma, v, total in zip(phis, sigmas, vs, sums):
            sigma = new_volatility(sigma, phi, v, v * total, tau)
            phi_star = sqrt(phi * phi + sigma * sigma)
            new_phi.append(1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v))
            new_sigma.append(sigma)
        return new_phi, new_sigma

    # --- explain (glicko.py holds the shared steps) ------------------------------------------

    paper = "Glickman, «Example of the Glicko-2 system»"
    rating_step, update_step = 3, 7

    def growth_step(self, period: Period, player: str, index: int, p: Glicko2Params) -> dict[str, Any]:
        phi, last, sigma = period.start[player]
        onset = period.onset[player]
        idle = 0 if last is None else index - last - 1
        if idle <= 0:
            return step(_("{paper}, step 2: φ at the period's start (no idle period)").format(paper=self.paper),
                        f"φ = {phi:.6f}", onset)
        return step(_("{paper}, last paragraph: φ grows by σ² a period without games").format(paper=self.paper),
                    f"φ = min(√({phi:.6f}² + {idle}·{sigma:.6f}²), {p.max_rd:g}/{self.scale})", onset)

    def volatility_steps(self, update: Update, phi: float, p: Any) -> tuple[list[dict[str, Any]], float]:
        phi_star = math.sqrt(phi * phi + update.sigma * update.sigma)
        paper = self.paper
        return [step(_("{paper}, step 4: Δ = v·Σ g(φj)(sj − Ej)").format(paper=paper), "Δ = v·Σ g(sj − Ej)", update.delta),
                step(_("{paper}, step 5: the new volatility σ' (Illinois algorithm, τ = {tau}, ε = 0.000001)").format(
                         paper=paper, tau=f"{p.tau:g}"),
                     _("σ' from Δ = {delta}, v = {v}, φ = {phi}").format(
                         delta=f"{update.delta:.6f}", v=f"{update.v:.6f}", phi=f"{phi:.6f}"), update.sigma),
                step(_("{paper}, step 6: φ* = √(φ² + σ'²)").format(paper=paper), f"φ* = √({phi:.6f}² + {update.sigma:.6f}²)",
                     phi_star)], phi_star
