"""Glickman's Glicko system (Glicko-1), and the rating-period replay it shares with Glicko-2.

Both papers ("The Glicko system"; "Example of the Glicko-2 system", M. E.
Glickman) rate a *rating period* at once: every game of the period is scored
against the opponents' ratings and deviations at the period's start, and all
players move together at its end. On the Glicko-2 scale (μ = (r − 1500)/s,
φ = RD/s, s = 400/ln 10 ≈ 173.7178) both systems share

    g(φ) = 1/√(1 + 3φ²/π²)      E(μ, μj, φj) = 1/(1 + exp(−g(φj)(μ − μj)))
    v    = 1/Σ g(φj)² E (1 − E) φ' = 1/√(1/φ*² + 1/v)    μ' = μ + φ'² Σ g(φj)(sj − E)

Glicko-1 is this with φ* = the RD at the period's onset, RD = min(√(RD² + c²t), max_rd)
(t = periods since the player's last rated period); Glicko-2 adds the
volatility σ (glicko2.py). A match counts as one game, score 1, ½ or 0,
whatever its length. The period's rating change is split over its games,
game j contributing s·φ'²·g(φj)(sj − Ej), so the history's changes add up to
it exactly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from typing import Literal

from pydantic import Field, model_validator

from ..errors import Problem
from .base import Engine, HistoryEvent, Params, RatingResult, Standing, adjusted
from .events import Adjusted, MatchPlayed, TournamentEnded

LN10_400 = math.log(10) / 400      # Glickman's q = ln 10 / 400 = 0.0057565
PERIODS = ("day", "week", "month")


def g(phi: float) -> float:
    """Glickman's g: how much a game against an opponent of deviation φ counts."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(μ, μj, φj): the expected score against an opponent (μj, φj)."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_pair(mu_a: float, phi_a: float, mu_b: float, phi_b: float) -> float:
    """A's expected score against B counting both deviations (the Glicko paper: g(√(RDa² + RDb²)))."""
    return expected(mu_a, mu_b, math.hypot(phi_a, phi_b))


def period_sums(mu: float, games: list[tuple[float, float, float]]) -> tuple[float, list[float], list[float]]:
    """For games [(μj, φj, sj)]: v, each game's g(φj)(sj − Ej), and each Ej."""
    info, terms, es = 0.0, [], []
    for mu_j, phi_j, s in games:
        gj = g(phi_j)
        e = 1.0 / (1.0 + math.exp(-gj * (mu - mu_j)))
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
    day = date.fromordinal(ordinal)
    return day.year * 12 + day.month - 1


def period_label(index: int, period: str) -> str:
    if period == "day":
        return date.fromordinal(index).isoformat()
    if period == "week":
        year, week, _ = date.fromordinal(index * 7 + 1).isocalendar()
        return f"{year}-W{week:02d}"
    year, month = divmod(index, 12)
    return f"{year}-{month + 1:02d}"


class GlickoParams(Params):
    start: float = Field(1500, allow_inf_nan=False)
    rd: float = Field(350, gt=0, le=1000, allow_inf_nan=False)
    period: Literal["day", "week", "month"] = "month"
    max_rd: float = Field(350, gt=0, le=1000, allow_inf_nan=False)
    provisional_rd: float = Field(110, gt=0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _rd_within_max(self):
        if self.rd > self.max_rd:
            raise ValueError(f"rd {self.rd:g} is above max_rd {self.max_rd:g}; a new player's deviation is at most max_rd")
        return self


class Glicko1Params(GlickoParams):
    # Glickman's example: RD 50 back to 350 after 100 idle periods: c = √((350² − 50²)/100) = 34.6.
    c: float = Field(34.6, ge=0, allow_inf_nan=False)


@dataclass(slots=True)
class State:
    """A player: rating r (kept as is, so that history and leaderboard agree to the last digit),
    φ and σ on the Glicko-2 scale, and the last period that set φ (None: never)."""

    r: float
    phi: float
    sigma: float
    last: int | None = None
    games: int = 0
    last_played: date | None = None


@dataclass
class Update:
    """A player's period: the new φ and σ, and each game's share of the rating change."""

    phi: float
    sigma: float
    shares: list[float]        # on the Glicko-2 scale; × scale = rating points
    expected: list[float]


class GlickoFamily(Engine):
    """The period replay of both Glicko engines; subclasses give the deviation growth and the update."""

    scale: float = 1.0 / LN10_400
    adjust_fields = frozenset({"rd"})
    has_volatility = False

    # --- what differs between Glicko-1 and Glicko-2 ---------------------------------

    def onset_phi(self, s: State, index: int, p) -> float:
        """φ at the start of period `index` (idle periods make the rating less certain)."""
        raise NotImplementedError

    def rate(self, s: State, phi: float, games: list[tuple[float, float, float]], p) -> Update:
        raise NotImplementedError

    # --- shared -----------------------------------------------------------------------

    @classmethod
    def check(cls, rating, journal, first_match: int = 0) -> list[Problem]:
        if first_match:
            return []
        limit = rating.params.max_rd
        return [Problem(a.file, a.line, f"rd {a.rd:g} is above max_rd {limit:g} of rating list {rating.name!r} "
                                        f"({rating.engine}); write rd = {limit:g} or less")
                for a in journal.adjusts if a.rating in (None, rating.name) and a.rd is not None and a.rd > limit]

    def new_state(self, p) -> State:
        return State(p.start, p.rd / self.scale, getattr(p, "sigma", 0.0))

    def mu(self, s: State) -> float:
        return (s.r - 1500) / self.scale

    def run(self, view) -> RatingResult:
        return _Replay(self, view).run()

    def prediction_state(self, result: RatingResult, player: str, p) -> State:
        """A player's state for a game in the period of the result's as-of (deviation grown)."""
        return result.state.get(player) or self.new_state(p)


class _Replay:
    def __init__(self, engine: GlickoFamily, view):
        self.engine, self.view, self.p = engine, view, view.params
        self.states: dict[str, State] = {}
        self.events: dict[str, list[HistoryEvent]] = {}
        self.pending: list[MatchPlayed] = []   # the current period's matches
        self.current: int | None = None

    def state(self, player: str) -> State:
        s = self.states.get(player)
        if s is None:
            s = self.states[player] = self.engine.new_state(self.p)
        return s

    def run(self) -> RatingResult:
        view, p, engine = self.view, self.p, self.engine
        for event in view.events():
            if isinstance(event, TournamentEnded):
                continue
            day = event.adjust.date if isinstance(event, Adjusted) else event.date
            index = period_index(day.toordinal(), p.period)
            if self.current is not None and index != self.current:
                self.close()
            self.current = index
            if isinstance(event, Adjusted):
                self.adjust(event.adjust, index)
            else:
                self.state(event.a), self.state(event.b)
                self.pending.append(event)
        self.close()
        as_of = period_index(view.as_of.toordinal(), p.period) if view.as_of else None
        # As of a date, the deviation has grown over the idle periods up to it.
        states = {player: _grown(s, engine.onset_phi(s, as_of, p)) if as_of is not None else s
                  for player, s in self.states.items()}
        standings = {}
        for player, s in states.items():
            rd = s.phi * engine.scale
            extra = {"rd": rd, "volatility": s.sigma} if engine.has_volatility else {"rd": rd}
            standings[player] = Standing(player, s.r, s.games,
                                         "established" if s.games and rd <= p.provisional_rd else "provisional",
                                         s.last_played, extra)
        columns = (("rd", "RD"), ("volatility", "Volatility")) if engine.has_volatility else (("rd", "RD"),)
        result = RatingResult(view.rating.name, view.discipline, engine.name, standings, self.events,
                              columns=columns, as_of=view.as_of, state=states)
        return result

    def adjust(self, a, index: int) -> None:
        s = self.state(a.player)
        before = s.r
        after = s.r = adjusted(a, before)
        if a.rd is not None:
            s.phi, s.last = a.rd / self.engine.scale, index
        if a.volatility is not None:
            s.sigma = a.volatility
        self.events.setdefault(a.player, []).append(HistoryEvent(
            a.date, None, "adjust", None, None, before, after - before, after, True, a.reason, self.extra(s)))

    def extra(self, s: State) -> dict:
        out = {"rd": s.phi * self.engine.scale}
        if self.engine.has_volatility:
            out["volatility"] = s.sigma
        return out

    def close(self) -> None:
        """Rate the current period: everyone against the others' state at its start, then all move."""
        if not self.pending:
            return
        engine, p, index, states = self.engine, self.p, self.current, self.states
        scale, volatility = engine.scale, engine.has_volatility
        games: dict[str, list[tuple[float, float, float]]] = {}
        onset: dict[str, float] = {}
        for match in self.pending:
            a, b, score = match.a, match.b, match.score_a
            if match.reason is None:
                for player in (a, b):
                    if player not in onset:
                        onset[player] = engine.onset_phi(states[player], index, p)
                games.setdefault(a, []).append((engine.mu(states[b]), onset[b], score))
                games.setdefault(b, []).append((engine.mu(states[a]), onset[a], 1.0 - score))
        updates = {player: engine.rate(states[player], onset[player], own, p) for player, own in games.items()}
        # Each player's games in order, the period's change split over them (see the module's doc).
        ratings: dict[str, float] = {}
        seen: dict[str, int] = {}
        label = period_label(index, p.period)
        for match in self.pending:
            a, b, score, reason, day = match.a, match.b, match.score_a, match.reason, match.date
            for player, opponent, s in ((a, b, score), (b, a, 1.0 - score)):
                state = states[player]
                before = ratings.get(player)
                if before is None:
                    before = ratings[player] = state.r
                if reason is not None:
                    self.events.setdefault(player, []).append(HistoryEvent(
                        day, match.entry, "match", opponent, s, before, 0.0, before, False, reason))
                    continue
                k = seen[player] = seen.get(player, -1) + 1
                up = updates[player]
                change = up.shares[k] * scale
                ratings[player] = after = before + change
                state.games += 1
                state.last_played = day
                extra = {"expected": up.expected[k], "period": label, "rd_before": onset[player] * scale}
                if k == len(up.shares) - 1:     # the period's last game: the new deviation is known
                    state.r, state.phi, state.sigma, state.last = after, up.phi, up.sigma, index
                    extra["rd"] = up.phi * scale
                    if volatility:
                        extra["volatility"] = up.sigma
                self.events.setdefault(player, []).append(HistoryEvent(
                    day, match.entry, "match", opponent, s, before, change, after, True, None, extra))
        self.pending = []


def _grown(s: State, phi: float) -> State:
    return State(s.r, phi, s.sigma, s.last, s.games, s.last_played)


class GlickoEngine(GlickoFamily):
    """Glicko-1: RD grows by c² per period since the last rated one, up to max_rd."""

    name = "glicko"
    Params = Glicko1Params

    def onset_phi(self, s: State, index: int, p: Glicko1Params) -> float:
        if s.last is None or index <= s.last:
            return s.phi
        rd = math.sqrt((s.phi * self.scale) ** 2 + p.c * p.c * (index - s.last))
        return min(rd, p.max_rd) / self.scale

    def rate(self, s: State, phi: float, games, p) -> Update:
        v, terms, es = period_sums(self.mu(s), games)
        phi_new = new_deviation(phi, v)
        return Update(phi_new, 0.0, [phi_new * phi_new * t for t in terms], es)
