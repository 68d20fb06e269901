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
from typing import TYPE_CHECKING, Any

from ..errors import Problem
from ..i18n import _, ngettext
from .base import Engine, EngineParams, Explained, HistoryEvent, LazyParams, RatingResult, Standing, step
from ..contract.batches import MatchBatch
from ..contract.events import MatchPlayed
# The shared arithmetic and records (glickomath.py), named here as well: what tests and predict import.
from .glickomath import (LN10_400, PERIODS, Period, State, Update, expected, expected_pair, g, new_deviation,
                         period_index, period_label, period_sums)
from .glickoreplay import Replay
from .glickoresult import GlickoResult, PlayerStates
from .glickostate import GlickoState
from .policies import played_days

if TYPE_CHECKING:
    from ..contract.view import CheckView, RatingView
    from .params import Glicko1Params

__all__ = ["LN10_400", "PERIODS", "Period", "State", "Update", "expected", "expected_pair", "g", "new_deviation",
           "period_index", "period_label", "period_sums", "GlickoResult", "GlickoEngine", "GlickoFamily"]


def __getattr__(name: str) -> Any:
    if name in ("GlickoParams", "Glicko1Params"):  # (engines/params.py, imported when asked for)
        from . import params

        return getattr(params, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

class GlickoFamily(Engine):
    """The period replay of both Glicko engines; subclasses give the deviation growth and the update."""

    scale: float = 1.0 / LN10_400
    adjust_fields = frozenset({"rd"})
    has_volatility = False
    tournament_ends = False  # rating periods of matches and adjustments only
    # The replay is stored (glickocache.py) and goes on over appended matches from just before its
    # last period, which is rated again with them (glickoreplay.LastPeriod); the standings read
    # the date asked, the deviations grown to it.
    resumable = True
    reads_player_facts = False
    dated_finish = True

    # --- what differs between Glicko-1 and Glicko-2 ---------------------------------

    def onsets(self, codes: list[int], phi: list[float], sigma: list[float], last: list[int | None], index: int,
               p: Any) -> list[float]:
        """φ at the start of period `index` of each of these players (codes into φ, σ and the last
        rated period): idle periods make the rating less certain. One loop a period, in the replay."""
        raise NotImplementedError

    def onset(self, phi: float, sigma: float, last: int | None, index: int, p: Any) -> float:
        """onsets() of one player (φ, σ, last rated period)."""
        return self.onsets([0], [phi], [sigma], [last], index, p)[0]

    def deviation(self, phi: float, sigma: float, v: float, terms: list[float], p: Any) -> tuple[float, float, float]:
        """(φ', σ', Δ) of a player's period from φ and σ at its start, v and the games' g(φj)(sj − Ej)."""
        raise NotImplementedError

    def deviations(self, phis: list[float], sigmas: list[float], vs: list[float], sums: list[float],
                   p: Any) -> tuple[list[float], list[float]]:
        """deviation() of each player of a period, their φ' and σ', from φ and σ at its start, v and
        (where the engine has a volatility) the sum() of their games' g(φj)(sj − Ej)."""
        raise NotImplementedError

    def rate_values(self, mu: float, sigma: float, phi: float, games: list[tuple[float, float, float]], p: Any) -> Update:
        """A player's (μ, σ, φ at the period's start) period of games [(μj, φj, sj)]."""
        v, terms, es = period_sums(mu, games)
        phi_new, sigma_new, delta = self.deviation(phi, sigma, v, terms, p)
        return Update(phi_new, sigma_new, [phi_new * phi_new * t for t in terms], es, v, delta)

    def onset_phi(self, s: State, index: int, p: Any) -> float:
        return self.onset(s.phi, s.sigma, s.last, index, p)

    def rate(self, s: State, phi: float, games: list[tuple[float, float, float]], p: Any) -> Update:
        return self.rate_values(self.mu(s), s.sigma, phi, games, p)

    # --- shared -----------------------------------------------------------------------

    @classmethod
    def check(cls, rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
        if first_match:
            return []
        limit = rating.params.max_rd
        return [Problem(a.file, a.line, _("rd {rd:g} is above max_rd {limit:g} of rating list {name!r} ({engine}); "
                                          "write rd = {limit:g} or less").format(rd=a.rd, limit=limit, name=rating.name,
                                                                                 engine=rating.engine))
                for a in entries.adjusts if a.rating in (None, rating.name) and a.rd is not None and a.rd > limit]

    def new_state(self, p: Any) -> State:
        return State(p.start, p.rd / self.scale, getattr(p, "sigma", 0.0))

    def mu(self, s: State) -> float:
        return (s.r - 1500) / self.scale

    def run(self, view: RatingView) -> GlickoResult:
        return self.finish(view, Replay(self, view).run())

    def resume(self, view: RatingView, state: GlickoState) -> GlickoResult:
        if state.last_period is None:
            raise ValueError("a kept Glicko replay without its last period")  # (the ledger replays it all)
        if not any(isinstance(event, MatchBatch) for event in view.batched_events()):
            return self.finish(view, state)   # (no game of this list's discipline appended)
        from .glickoresume import resumed_in_place

        # Games appended to the last period: their players rated again (glickoresume.py); else
        # the last period rated again with them, and any later ones.
        return self.finish(view, resumed_in_place(self, view, state) or Replay(self, view, resume=state).run())

    def finish(self, view: RatingView, state: GlickoState) -> GlickoResult:
        """The result (standings, lazy history) of a replay that reached `state`."""
        p, scale, volatility = view.params, self.scale, self.has_volatility
        names = view.players
        as_of = period_index(view.as_of.toordinal(), p.period) if view.as_of else None
        standings: dict[str, Standing] = {}
        order = state.order
        # As of a date, the deviation has grown over the idle periods up to it (onset_phi of each, in one call).
        phis = self.onsets(order, state.phi, state.sigma, state.last, as_of, p) if as_of is not None else \
            [state.phi[code] for code in order]
        provisional_rd, games, played_on, r, sigma = p.provisional_rd, state.games, state.played, state.r, state.sigma
        days = played_days(played_on).get
        for code, phi in zip(order, phis):
            player, n = names[code], games[code]
            rd = phi * scale
            extra = {"rd": rd, "volatility": sigma[code]} if volatility else {"rd": rd}
            standings[player] = Standing(player, r[code], n, "established" if n and rd <= provisional_rd else "provisional",
                                         days(played_on[code]), extra)
        columns = (("rd", "RD"), ("volatility", "Volatility")) if volatility else (("rd", "RD"),)
        return GlickoResult(view.rating.name, view.discipline, self.name, standings, columns=columns,
                            as_of=view.as_of, state=PlayerStates(state, names, order, phis),
                            matches=view.match_columns, records=state.records,
                            side=state.side, order=[names[code] for code in state.event_order], view=view,
                            player_periods=state.periods, replayed=state,
                            period=p.period, volatility=volatility, scale=scale, whole_start=type(p.start) is int)

    # --- the cache: the state as JSON and machine arrays, never code (glickocache.py) -----

    def cached_state(self, result: RatingResult) -> GlickoState | None:
        return result.replayed if isinstance(result, GlickoResult) else None

    def pack_state(self, state: GlickoState) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        from .glickocache import pack

        return pack(state)

    def unpack_state(self, meta: dict[str, Any], players: dict[str, Any], load_columns: Any) -> GlickoState:
        from .glickocache import unpack

        return unpack(meta, players, load_columns)

    def prediction_state(self, result: RatingResult, player: str, p: Any) -> State:
        """A player's state for a game in the period of the result's as-of (deviation grown)."""
        return result.state.get(player) or self.new_state(p)

    # --- explain: one game's share of its period's change, with the paper's steps ----------

    explains = frozenset({"match"})
    paper = "Glickman, «The Glicko system»"
    rating_step, update_step = 2, 2    # the paper's steps: the period's sums; the new rating

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
        kept = result.periods(self, player)
        game_of = getattr(kept, "game_of", None)   # (periods read from the records: by the match's date)
        index, k = game_of(player, event.entry, event.date) if game_of is not None else kept.games[player, event.entry]
        period = kept.periods[index]
        up = period.updates[player]
        opponent, s, scale, paper = event.opponent, event.result or 0.0, self.scale, self.paper
        sums, update = {"paper": paper, "step": self.rating_step}, {"paper": paper, "step": self.update_step}
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
                 step(_("{paper}, step {step}: g of the opponent's deviation at the period's start").format(**sums),
                      f"g = 1/√(1 + 3·({phi_j * scale:.2f}/{scale:.4f})²/π²)", gj),
                 step(_("{paper}, step {step}: expected score E = 1/(1 + exp(−g·(μ − μj)))").format(**sums),
                      f"E = 1/(1 + exp(−{gj:.6f}·(({mu * scale:.2f} − {mu_j * scale:.2f})/{scale:.4f})))", e),
                 step(ngettext("{paper}, step {step}: v = 1/Σ g(φj)²·E·(1 − E) over the period's {games} game",
                               "{paper}, step {step}: v = 1/Σ g(φj)²·E·(1 − E) over the period's {games} games",
                               games).format(games=games, **sums),
                      "v = 1/Σ g²E(1 − E)", up.v),
                 *volatility,
                 step(_("{paper}, step {step}: the new deviation φ' = 1/√(1/φ*² + 1/v) (RD' = φ'·{scale} = {rd})").format(
                          scale=f"{scale:.4f}", rd=f"{up.phi * scale:.2f}", **update),
                      f"φ' = 1/√(1/{phi_star:.6f}² + 1/{up.v:.6f})", up.phi),
                 step(_("{paper}, step {step}: this game's share of μ' − μ = φ'²·Σ g(φj)(sj − Ej)").format(**update),
                      f"share = {up.phi:.6f}²·{gj:.6f}·({s:g} − {e:.6f})", share),
                 step(_("on the rating scale: change = share × scale"),
                      f"change = {share:.8f} × {scale:.4f}", share * scale)]
        return Explained(inputs, steps)


class GlickoEngine(GlickoFamily):
    """Glicko-1: RD grows by c² per period since the last rated one, up to max_rd."""

    name = "glicko"
    Params = LazyParams("Glicko1Params")

    def onsets(self, codes: list[int], phi: list[float], sigma: list[float], last: list[int | None], index: int,
               p: Glicko1Params) -> list[float]:
        scale, c2, max_rd, sqrt = self.scale, p.c * p.c, p.max_rd, math.sqrt
        out = []
        for x in codes:
            ph, lx = phi[x], last[x]
            if lx is None or index <= lx:
                out.append(ph)
            else:   # RD = min(√(RD² + c²t), max_rd) (min written out: this runs for every player and period)
                rd = sqrt((ph * scale) ** 2 + c2 * (index - lx))
                out.append((max_rd if max_rd < rd else rd) / scale)
        return out

    def deviation(self, phi: float, sigma: float, v: float, terms: list[float], p: Any) -> tuple[float, float, float]:
        return new_deviation(phi, v), 0.0, 0.0

    def deviations(self, phis: list[float], sigmas: list[float], vs: list[float], sums: list[float],
                   p: Any) -> tuple[list[float], list[float]]:
        # new_deviation, inline: φ' = 1/√(1/φ² + 1/v) (φ* is φ at the period's start)
        sqrt = math.sqrt
        return [1.0 / sqrt(1.0 / (phi * phi) + 1.0 / v) for phi, v in zip(phis, vs)], [0.0] * len(phis)

    def growth_step(self, period: Period, player: str, index: int, p: Glicko1Params) -> dict[str, Any]:
        phi, last, _sigma = period.start[player]
        rd, onset = phi * self.scale, period.onset[player] * self.scale
        if last is None or index <= last:
            return step(_("{paper}, step 1: the deviation at the period's start (no idle period)").format(paper=self.paper),
                        f"RD = {rd:.2f}", onset)
        t = index - last
        return step(_("{paper}, step 1: the deviation grows over the periods since the last rated one").format(
                        paper=self.paper),
                    f"RD = min(√({rd:.2f}² + {p.c:g}²·{t}), {p.max_rd:g})", onset)
