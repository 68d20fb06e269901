"""The chess-club Elo of seed 003.

E(A) = 1 / (1 + 10^((R(B) − R(A)) / 400)); new = old + K·(S − E) after every
rated game, in replay order, never rounded in storage. Provisional until
`provisional_games` rated games; forfeits and unrated games change nothing;
games of one pair on one date beyond `pair_limit_per_day` are unrated.
"""
from __future__ import annotations

import struct
from array import array
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any

from .base import Engine, EngineParams, LazyParams, Explained, HistoryEvent, RatingResult, Standing, adjust_event, step
from .compact import ColumnRecords, event_from_json, event_json, stored_ratings, whole_flags
from ..contract.batches import PairLimit, newcomers
from ..i18n import _
from ..contract.events import Adjusted, MatchPlayed
from .elostate import RECORD_FIELDS, EloResult, EloState, SideEvent, exclusion
from .explaining import opponent_event
from .policies import HIDDEN, Inactivity, PenaltyClock, explain_penalty, played_days

if TYPE_CHECKING:
    from ..contract.view import RatingView
    from .params import EloParams


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
    Params = LazyParams("EloParams")
    title = "the chess-club Elo (seed 003)"
    default_discipline = "chess"

    @classmethod
    def game_constants(cls, params: EngineParams) -> dict[str, Any]:
        return {"k": params.k}   # change = K·(S − E)

    # The rating depends on the games only, not on the date it is read: a replay can be cached
    # and resumed when games are appended (not with inactivity, whose penalties and statuses do).
    resumable = True
    reads_player_facts = False

    @classmethod
    def can_resume(cls, params: EngineParams) -> bool:
        return not Inactivity(params).time_dependent

    def run(self, view: RatingView) -> EloResult:
        return self.finish(view, self.replay(view, None))

    def resume(self, view: RatingView, state: EloState) -> EloResult:
        return self.finish(view, self.replay(view, state))

    def replay(self, view: RatingView, resume: EloState | None) -> EloState:
        """Replay `view` (with `resume`: go on from that state over the view's appended games).

        Seed 003's update, in replay order, on the batched columns: one record per game
        (elostate.py), no event object until history is asked for.
        """
        p: EloParams = view.params
        names = view.players
        count = len(names)
        start, k, limit = p.start, p.k, p.pair_limit_per_day
        pairs = PairLimit(limit)
        if resume is None:
            rating, games, last, order = [start] * count, [0] * count, [0] * count, []
            side: list[SideEvent] = []
            offset, last_day = 0, 0
        else:
            grow = count - len(resume.rating)
            rating, games = list(resume.rating) + [start] * grow, list(resume.games) + [0] * grow
            last, order = list(resume.last) + [0] * grow, list(resume.order)
            side, offset, last_day = list(resume.side), len(resume.records), resume.last_date
            pairs.seen = dict(resume.pairs_seen)
        present = bytearray(count)
        for code in order:
            present[code] = 1
        # The records (elostate.py): the match rows, and RECORD_FIELDS doubles a row side by side,
        # written in place at byte `at` (record `at // size`) of room made for each batch.
        index = array("i")
        record = struct.Struct(f"{RECORD_FIELDS}d")
        size, put = record.size, record.pack_into
        fields = bytearray()
        at = 0
        reasons: dict[int, str] = {}
        nan = float("nan")
        limited = limit > 0
        policy = Inactivity(p)
        clock = PenaltyClock(policy)
        penalise = bool(policy.ladder)

        def catch_up(code: int, day: int, position: int) -> None:
            """Apply the inactivity steps the player's break reached by `day` (an ordinal), before record `position`."""
            if last[code]:
                rating[code], due = clock.catch_up(code, date.fromordinal(last[code]), date.fromordinal(day), rating[code])
                side.extend((offset + position, names[code], event) for event in due)

        for event in view.batched_events():
            if isinstance(event, Adjusted):
                adj = event.adjust
                code = view.player_code(adj.player)
                if not present[code]:
                    present[code] = 1
                    order.append(code)
                if penalise:
                    catch_up(code, adj.date.toordinal(), at // size)
                rating[code], history_event = adjust_event(adj, rating[code])
                side.append((offset + at // size, adj.player, history_event))
                continue
            ma, mb, scores, dates, excluded = event.a, event.b, event.score_a, event.dates, event.excluded
            rows = event.rows
            index.extend(rows)
            fields.extend(bytes(size * len(rows)))
            if not penalise and not limited and rows:
                # The usual list (no inactivity ladder, no pair limit): the same update with nothing
                # else to ask per game; players who first appear in the batch found first, in C.
                newcomers(event, rows, present, order)
                for i in rows:
                    a, b = ma[i], mb[i]
                    ra, rb = rating[a], rating[b]
                    if i in excluded:
                        reasons[at // size] = exclusion(event.reason(i), dates[i], limit)
                        put(fields, at, ra, rb, nan, nan)
                        at += size
                        continue
                    e_a = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))  # seed 003, as in the loop below
                    change = k * (scores[i] - e_a)
                    rating[a] = ra + change
                    rating[b] = rb - change
                    games[a] += 1
                    games[b] += 1
                    last[a] = last[b] = dates[i]
                    put(fields, at, ra, rb, change, e_a)
                    at += size
                last_day = dates[rows[-1]]
                continue
            for i in rows:
                a, b, day = ma[i], mb[i], dates[i]
                if not present[a]:
                    present[a] = 1
                    order.append(a)
                if not present[b]:
                    present[b] = 1
                    order.append(b)
                if penalise:
                    catch_up(a, day, at // size)
                    catch_up(b, day, at // size)
                ra, rb = rating[a], rating[b]
                if i in excluded or (limited and not pairs.allows(day, a, b)):
                    reasons[at // size] = exclusion(event.reason(i), day, limit)
                    put(fields, at, ra, rb, nan, nan)
                    at += size
                    continue
                # Seed 003: E(A) = 1/(1 + 10^((R(B) − R(A))/400)); A gains K·(S − E), B loses it
                # (as `expected` and `update` compute them, inline: this is the hot loop).
                e_a = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
                change = k * (scores[i] - e_a)
                rating[a] = ra + change
                rating[b] = rb - change
                games[a] += 1
                games[b] += 1
                last[a] = last[b] = day
                if penalise:
                    clock.played(a)
                    clock.played(b)
                put(fields, at, ra, rb, change, e_a)
                at += size
            last_day = day

        end = view.as_of or view.latest_entry(tournaments=False)
        if penalise and end is not None:
            for code in order:
                catch_up(code, end.toordinal(), len(index))
        records = ColumnRecords.of_buffer(index, view.player_columns(index), fields, RECORD_FIELDS, reasons)
        if resume is not None:
            records = resume.records.extended(records)
        if limited:  # only the last date's pair counts can matter to games appended later
            pairs.seen = {key: n for key, n in pairs.seen.items() if key[0] == last_day}
        return EloState(rating, games, last, order, pairs.seen if limited else {}, records, side, last_day)

    def finish(self, view: RatingView, state: EloState) -> EloResult:
        """The result (standings and lazy history) of a replay that reached `state`."""
        p: EloParams = view.params
        names = view.players
        policy = Inactivity(p)
        end = view.as_of or view.latest_entry(tournaments=False) if policy.time_dependent else None
        standings: dict[str, Standing] = {}
        rating, games, last, established = state.rating, state.games, state.last, p.provisional_games
        days = played_days(last)
        for code in state.order:
            player, n, played = names[code], games[code], days.get(last[code])
            status = "established" if n >= established else "provisional"
            standings[player] = Standing(player, rating[code], n,
                                         status if end is None else policy.status(played, end, status), played)
        return EloResult(view.rating.name, view.discipline, self.name, standings, as_of=view.as_of,
                         hidden_statuses=HIDDEN if policy.time_dependent else frozenset(), state=state,
                         matches=view.match_columns, records=state.records, side=state.side,
                         whole_start=type(p.start) is int,
                         established_after=None if policy.time_dependent else established)

    # --- the cache: the state as JSON and machine arrays, never code -----------------

    def pack_state(self, state: EloState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, array[Any] | memoryview]]:
        """(JSON meta, small per-player arrays, the records' arrays) for the cache."""
        index, rec_a, rec_b, fields = state.records.columns
        seen = array("i", bytes(4 * len(state.rating)))   # 1 + place in the standings' order; 0: not seen
        for place, code in enumerate(state.order, start=1):
            seen[code] = place
        meta: dict[str, object] = {"side": [[pos, player, event_json(e)] for pos, player, e in state.side],
                                   "pairs": [[*key, n] for key, n in state.pairs_seen.items()],
                                   "reasons": [[k, r] for k, r in state.records.reasons.items()],
                                   "last_date": state.last_date, "records": len(index)}
        # A rating still the config's whole start, or an [[adjust]]'s whole `set`, is an int (1200, not 1200.0).
        whole = whole_flags(state.rating)
        players: dict[str, array[Any]] = {"rating": array("d", state.rating), "games": array("q", state.games),
                                          "last": array("i", state.last), "seen": seen, "whole": whole}
        columns: dict[str, array[Any] | memoryview] = {"index": index, "a": rec_a, "b": rec_b}
        columns.update({f"field_{f}": column for f, column in enumerate(fields)})
        return meta, players, columns

    def unpack_state(self, meta: dict[str, Any], players: dict[str, array[Any]],
                     load_columns: Callable[[], dict[str, memoryview]]) -> EloState:
        """The state from the cache; the records' columns are read when history needs them."""
        def columns() -> tuple[memoryview, memoryview, memoryview, list[memoryview]]:
            found = load_columns()
            return found["index"], found["a"], found["b"], [found[f"field_{f}"] for f in range(RECORD_FIELDS)]

        seen, whole = players["seen"], players["whole"]
        order = sorted((code for code in range(len(seen)) if seen[code]), key=seen.__getitem__)
        rating = stored_ratings(players["rating"], whole)
        return EloState(rating, players["games"].tolist(), players["last"].tolist(), order,
                        {(item[0], item[1], item[2]): item[3] for item in meta["pairs"]},
                        ColumnRecords(columns, {k: r for k, r in meta["reasons"]}, meta["records"]),
                        [(pos, player, event_from_json(e)) for pos, player, e in meta["side"]], meta["last_date"])

    # --- explain: seed 003's arithmetic, as `update` does it ------------------------------

    explains = frozenset({"match", "penalty"})

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        p: EloParams = params   # the model, or its values from the config cache: read by attribute
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
