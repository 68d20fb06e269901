"""The chess-club Elo of seed 003.

E(A) = 1 / (1 + 10^((R(B) − R(A)) / 400)); new = old + K·(S − E) after every
rated game, in replay order, never rounded in storage. Provisional until
`provisional_games` rated games; forfeits and unrated games change nothing;
games of one pair on one date beyond `pair_limit_per_day` are unrated.
"""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from pydantic import Field

from .base import Engine, EngineParams, Explained, HistoryEvent, RatingResult, Standing, adjust_event, step
from ..i18n import _
from ..contract.events import Adjusted, MatchPlayed
from .explaining import opponent_event
from .policies import HIDDEN, Inactivity, InactivityParams, PenaltyClock, explain_penalty

if TYPE_CHECKING:
    from ..contract.view import RatingView


class EloParams(InactivityParams):
    start: float = Field(1200, allow_inf_nan=False, description="every new player's rating")
    k: float = Field(20, gt=0, allow_inf_nan=False, description="K of new = old + K·(S − E)")
    provisional_games: int = Field(5, ge=0, description="status \"provisional\" until this many rated games")
    pair_limit_per_day: int = Field(2, ge=0, description="rated games per pair of players per date; 0 = no limit")


def expected(rating: float, opponent: float) -> float:
    """Seed 003: the expected score of a player rated `rating` against `opponent`."""
    power: float = 10.0 ** ((opponent - rating) / 400.0)
    return 1.0 / (1.0 + power)


def update(rating_a: float, rating_b: float, score_a: float, k: float) -> tuple[float, float, float]:
    """One rated game: (new A, new B, A's expected score). Pure."""
    e_a = expected(rating_a, rating_b)
    change = k * (score_a - e_a)
    # B's change is K·((1 − S) − (1 − E)) = −change exactly.
    return rating_a + change, rating_b - change, e_a


SEED = "seed 003, «Как рассчитывается новый рейтинг»"


class EloEngine(Engine):
    name = "elo"
    tournament_ends = False  # matches and adjustments only
    Params = EloParams
    title = "the chess-club Elo (seed 003)"
    default_discipline = "chess"

    @classmethod
    def game_constants(cls, params: EngineParams) -> dict[str, Any]:
        assert isinstance(params, EloParams)
        return {"k": params.k}   # change = K·(S − E)

    def run(self, view: RatingView) -> RatingResult:
        p: EloParams = view.params
        ratings: dict[str, float] = {}
        games: dict[str, int] = {}
        last: dict[str, date] = {}
        events: dict[str, list[HistoryEvent]] = {}
        policy = Inactivity(p)
        clock = PenaltyClock(policy)

        def catch_up(player: str, day: date) -> None:
            """Apply the inactivity steps the player's break reached by `day`."""
            if player in last:
                ratings[player], due = clock.catch_up(player, last[player], day, ratings[player])
                events[player] += due

        for event in view.events(p.pair_limit_per_day, "games"):
            if isinstance(event, Adjusted):
                adj = event.adjust
                catch_up(adj.player, adj.date)
                ratings[adj.player], change = adjust_event(adj, ratings.get(adj.player, p.start))
                events.setdefault(adj.player, []).append(change)
                continue
            if not isinstance(event, MatchPlayed):
                continue
            a, b, day, score_a = event.a, event.b, event.date, event.score_a
            catch_up(a, day)
            catch_up(b, day)
            ra, rb = ratings.get(a, p.start), ratings.get(b, p.start)
            if event.reason is not None:
                for player, opponent, score, r in ((a, b, score_a, ra), (b, a, 1 - score_a, rb)):
                    events.setdefault(player, []).append(HistoryEvent(
                        day, event.entry, "match", opponent, score, r, 0.0, r, False, event.reason))
                continue
            new_a, new_b, e_a = update(ra, rb, score_a, p.k)
            ratings[a], ratings[b] = new_a, new_b
            for player, opponent, score, r, new, e in ((a, b, score_a, ra, new_a, e_a),
                                                       (b, a, 1 - score_a, rb, new_b, 1 - e_a)):
                games[player] = games.get(player, 0) + 1
                last[player] = day
                clock.played(player)
                events.setdefault(player, []).append(HistoryEvent(
                    day, event.entry, "match", opponent, score, r, new - r, new, True, None,
                    {"expected": e}))

        end = view.as_of or view.latest_entry(tournaments=False)
        standings = {}
        for player in events:
            if end is not None:
                catch_up(player, end)
            n = games.get(player, 0)
            status = "established" if n >= p.provisional_games else "provisional"
            standings[player] = Standing(player, ratings.get(player, p.start), n,
                                         policy.status(last.get(player), end, status), last.get(player))
        return RatingResult(view.rating.name, view.discipline, self.name, standings, events, as_of=view.as_of,
                            hidden_statuses=HIDDEN if policy.time_dependent else frozenset())

    # --- explain: seed 003's arithmetic, as `update` does it ------------------------------

    explains = frozenset({"match", "penalty"})

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        p = params
        assert isinstance(p, EloParams)
        if event.kind == "penalty":
            return explain_penalty(p, result.history(player), event)
        if event.kind != "match" or not event.rated or match is None or event.before is None:
            return super().explain_event(params, result, player, event, match)
        theirs = opponent_event(result, event)
        assert theirs.before is not None
        ra, rb = (event.before, theirs.before) if player == match.a else (theirs.before, event.before)
        new_a, new_b, e_a = update(ra, rb, match.score_a, p.k)
        change_a = p.k * (match.score_a - e_a)     # as `update` computes it; B's is −change_a
        k, s, mine = p.k, event.result, event.before
        inputs: dict[str, Any] = {"opponent": event.opponent, "rating": mine, "opponent_rating": theirs.before,
                                  "score": s, "k": k}
        if player == match.a:
            steps = [step(_("{seed}: expected score E(A) = 1/(1 + 10^((R(B) − R(A))/400))").format(seed=SEED),
                          f"E = 1/(1 + 10^(({rb:.2f} − {ra:.2f})/400))", e_a),
                     step(_("{seed}: K × (S − E)").format(seed=SEED), f"{k:g}·({s:g} − {e_a:.4f})", change_a),
                     step(_("{seed}: new rating = old rating + K × (S − E)").format(seed=SEED), f"new = {ra:.2f} + ({change_a:.4f})", new_a),
                     step(_("the change is new − old"), f"change = {new_a:.4f} − {ra:.4f}", new_a - ra)]
        else:
            steps = [step(_("{seed}: expected score E(B) = 1/(1 + 10^((R(A) − R(B))/400)) = 1 − E(A)").format(seed=SEED),
                          f"E = 1 − 1/(1 + 10^(({rb:.2f} − {ra:.2f})/400))", 1.0 - e_a),
                     step(_("{seed}: K × (S − E), the opposite of A's").format(seed=SEED), f"{k:g}·({s:g} − {1.0 - e_a:.4f})", -change_a),
                     step(_("{seed}: new rating = old rating + K × (S − E)").format(seed=SEED), f"new = {rb:.2f} − ({change_a:.4f})", new_b),
                     step(_("the change is new − old"), f"change = {new_b:.4f} − {rb:.4f}", new_b - rb)]
        return Explained(inputs, steps)
