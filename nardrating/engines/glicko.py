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
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from ..errors import Problem
from ..periods import month_number
from .base import Engine, EngineParams, Explained, HistoryEvent, Params, RatingResult, Standing, adjusted, step
from ..contract.events import Adjust, Adjusted, MatchPlayed, TournamentEnded

if TYPE_CHECKING:
    from ..contract.view import CheckView, RatingView

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
    return month_number(date.fromordinal(ordinal))


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
    def _rd_within_max(self) -> "GlickoParams":
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
    v: float = 0.0             # 1/Σ g(φj)²E(1 − E), for explain
    delta: float = 0.0         # Glicko-2's Δ = v·Σ g(φj)(sj − Ej)


@dataclass
class Period:
    """What explain needs of one rated period: each player's state at its start and their update."""

    label: str
    start: dict[str, tuple[float, int | None, float]]   # player → (φ, last rated period, σ) before it
    onset: dict[str, float]                              # player → φ at its start (idle growth applied)
    mu: dict[str, float]
    updates: dict[str, Update]


@dataclass
class GlickoResult(RatingResult):
    view: Any = None     # what was replayed: explain replays it once more, keeping every period's arithmetic
    _periods: "_Replay | None" = None

    def periods(self, engine: "GlickoFamily") -> "_Replay":
        """The replay with its periods kept (periods, games), made when explain first asks."""
        if self._periods is None:
            self._periods = _Replay(engine, self.view, keep=True)
            self._periods.run()
        return self._periods


class GlickoFamily(Engine):
    """The period replay of both Glicko engines; subclasses give the deviation growth and the update."""

    scale: float = 1.0 / LN10_400
    adjust_fields = frozenset({"rd"})
    has_volatility = False
    tournament_ends = False  # rating periods of matches and adjustments only

    # --- what differs between Glicko-1 and Glicko-2 ---------------------------------

    def onset_phi(self, s: State, index: int, p: Any) -> float:
        """φ at the start of period `index` (idle periods make the rating less certain)."""
        raise NotImplementedError

    def rate(self, s: State, phi: float, games: list[tuple[float, float, float]], p: Any) -> Update:
        raise NotImplementedError

    # --- shared -----------------------------------------------------------------------

    @classmethod
    def check(cls, rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
        if first_match:
            return []
        limit = rating.params.max_rd
        return [Problem(a.file, a.line, f"rd {a.rd:g} is above max_rd {limit:g} of rating list {rating.name!r} "
                                        f"({rating.engine}); write rd = {limit:g} or less")
                for a in entries.adjusts if a.rating in (None, rating.name) and a.rd is not None and a.rd > limit]

    def new_state(self, p: Any) -> State:
        return State(p.start, p.rd / self.scale, getattr(p, "sigma", 0.0))

    def mu(self, s: State) -> float:
        return (s.r - 1500) / self.scale

    def run(self, view: RatingView) -> RatingResult:
        return _Replay(self, view).run()

    def prediction_state(self, result: RatingResult, player: str, p: Any) -> State:
        """A player's state for a game in the period of the result's as-of (deviation grown)."""
        return result.state.get(player) or self.new_state(p)

    # --- explain: one game's share of its period's change, with the paper's steps ----------

    explains = frozenset({"match"})
    paper = "Glickman, «The Glicko system»"
    rating_step, update_step = "step 2", "step 2"    # the paper's steps: the period's sums; the new rating

    def growth_step(self, period: Period, player: str, index: int, p: Any) -> dict[str, Any]:
        """The step that gives the player's deviation at the period's start."""
        raise NotImplementedError

    def volatility_steps(self, update: Update, phi: float, p: Any) -> tuple[list[dict[str, Any]], float]:
        """(steps, φ*): the deviation the period's games are weighed against."""
        return [], phi

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        if event.kind != "match" or not event.rated or event.entry is None or event.opponent is None \
                or not isinstance(result, GlickoResult):
            return super().explain_event(params, result, player, event, match)
        kept = result.periods(self)
        index, k = kept.games[player, event.entry]
        period = kept.periods[index]
        up = period.updates[player]
        opponent, s, scale, paper = event.opponent, event.result or 0.0, self.scale, self.paper
        sums, update = f"{paper}, {self.rating_step}", f"{paper}, {self.update_step}"
        mu, mu_j, phi_j = period.mu[player], period.mu[opponent], period.onset[opponent]
        gj = g(phi_j)
        e = 1.0 / (1.0 + math.exp(-gj * (mu - mu_j)))      # as period_sums computes it
        share = up.phi * up.phi * (gj * (s - e))
        games = len(up.shares)
        inputs = {"opponent": opponent, "rating_at_period_start": mu * scale + 1500, "score": s,
                  "period": period.label, "games_in_period": games, "rd_before": period.onset[player] * scale,
                  "opponent_rating": mu_j * scale + 1500, "opponent_rd_before": phi_j * scale, "scale": scale}
        volatility, phi_star = self.volatility_steps(up, period.onset[player], params)
        steps = [self.growth_step(period, player, index, params),
                 step(f"{sums}: g of the opponent's deviation at the period's start",
                      f"g = 1/√(1 + 3·({phi_j * scale:.2f}/{scale:.4f})²/π²)", gj),
                 step(f"{sums}: expected score E = 1/(1 + exp(−g·(μ − μj)))",
                      f"E = 1/(1 + exp(−{gj:.6f}·(({mu * scale:.2f} − {mu_j * scale:.2f})/{scale:.4f})))", e),
                 step(f"{sums}: v = 1/Σ g(φj)²·E·(1 − E) over the period's {games} game{'s' * (games != 1)}",
                      "v = 1/Σ g²E(1 − E)", up.v),
                 *volatility,
                 step(f"{update}: the new deviation φ' = 1/√(1/φ*² + 1/v) (RD' = φ'·{scale:.4f} = {up.phi * scale:.2f})",
                      f"φ' = 1/√(1/{phi_star:.6f}² + 1/{up.v:.6f})", up.phi),
                 step(f"{update}: this game's share of μ' − μ = φ'²·Σ g(φj)(sj − Ej)",
                      f"share = {up.phi:.6f}²·{gj:.6f}·({s:g} − {e:.6f})", share),
                 step("on the rating scale: change = share × scale",
                      f"change = {share:.8f} × {scale:.4f}", share * scale)]
        return Explained(inputs, steps)


class _Replay:
    def __init__(self, engine: GlickoFamily, view: RatingView, keep: bool = False):
        self.engine, self.view, self.p, self.keep = engine, view, view.params, keep
        self.states: dict[str, State] = {}
        self.events: dict[str, list[HistoryEvent]] = {}
        self.pending: list[MatchPlayed] = []   # the current period's matches
        self.current: int | None = None
        self.periods: dict[int, Period] = {}
        self.games: dict[tuple[str, str], tuple[int, int]] = {}

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
        return GlickoResult(view.rating.name, view.discipline, engine.name, standings, self.events,
                            columns=columns, as_of=view.as_of, state=states, view=view)

    def adjust(self, a: Adjust, index: int) -> None:
        s = self.state(a.player)
        before = s.r
        after = s.r = adjusted(a, before)
        if a.rd is not None:
            s.phi, s.last = a.rd / self.engine.scale, index
        if a.volatility is not None:
            s.sigma = a.volatility
        self.events.setdefault(a.player, []).append(HistoryEvent(
            a.date, None, "adjust", None, None, before, after - before, after, True, a.reason, self.extra(s)))

    def extra(self, s: State) -> dict[str, float]:
        out = {"rd": s.phi * self.engine.scale}
        if self.engine.has_volatility:
            out["volatility"] = s.sigma
        return out

    def close(self) -> None:
        """Rate the current period: everyone against the others' state at its start, then all move."""
        if not self.pending:
            return
        engine, p, index, states = self.engine, self.p, self.current, self.states
        assert index is not None      # pending matches belong to the current period
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
        label = period_label(index, p.period)
        if self.keep:
            self.periods[index] = Period(label, {x: (states[x].phi, states[x].last, states[x].sigma) for x in onset},
                                         onset, {x: engine.mu(states[x]) for x in onset}, updates)
        # Each player's games in order, the period's change split over them (see the module's doc).
        ratings: dict[str, float] = {}
        seen: dict[str, int] = {}
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
                if self.keep:
                    self.games[player, match.entry] = index, k
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

    def rate(self, s: State, phi: float, games: list[tuple[float, float, float]], p: Any) -> Update:
        v, terms, es = period_sums(self.mu(s), games)
        phi_new = new_deviation(phi, v)
        return Update(phi_new, 0.0, [phi_new * phi_new * t for t in terms], es, v)

    def growth_step(self, period: Period, player: str, index: int, p: Glicko1Params) -> dict[str, Any]:
        phi, last, _ = period.start[player]
        rd, onset = phi * self.scale, period.onset[player] * self.scale
        if last is None or index <= last:
            return step(f"{self.paper}, step 1: the deviation at the period's start (no idle period)",
                        f"RD = {rd:.2f}", onset)
        t = index - last
        return step(f"{self.paper}, step 1: the deviation grows over the periods since the last rated one",
                    f"RD = min(√({rd:.2f}² + {p.c:g}²·{t}), {p.max_rd:g})", onset)
