"""The FIBS rating of seed 004, and the nardy-site Elo of seed 001 as its preset.

For a match to n points between A and B:
    P(A wins) = 1 / (1 + 10^(−(A − B)·√n / scale))
    base      = factor·√n·(1 − P(winner))
The winner gains base × their boost, the loser loses base × their own boost,
boost = max(1, 5 − experience/100), experience = the lengths (or the number)
of the player's rated matches before this one. A draw cannot happen in
nardy or backgammon: `check` reports one as a journal error.

Seed 001's E = ±R·10·√L / (1 + 10^(D·√L/400)) is the same formula with
factor 10, scale 400 and experience in games, D read from the winner's side
(the loser loses what the winner gains, before boosts): `preset = "nardy-site"`.
"""
from __future__ import annotations

import struct
from array import array
from datetime import date
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from ..errors import Problem
from ..i18n import _
from ..contract.batches import PairLimit
from .base import Engine, EngineParams, LazyParams, Explained, HistoryEvent, RatingResult, Standing, adjust_event
from .compact import ColumnRecords, CompactResult, event_from_json, event_json
from .window import first_after
from ..contract.events import Adjusted, MatchPlayed
from .fibsstate import FibsState, SideEvent, exclusion
from .policies import HIDDEN, Inactivity, PenaltyClock, played_days

if TYPE_CHECKING:
    from ..config import RatingList
    from .params import FibsParams
    from ..contract.view import CheckView, RatingView

# A record of a rated match, oriented winner first:
# (i, winner rating before, loser rating before, base, winner boost, loser boost,
#  P(winner), winner experience, loser experience)
# An unrated one: (i, rating a, rating b, reason).

# An adjustment or penalty among the records: (how many records precede it, player, its event).


@datarecord
class FibsResult(CompactResult):
    # leaderboard_min_experience, where a status is the experience alone (None: inactivity has a say)
    established_after: float | None = None

    def statuses_at(self, day: date) -> dict[str, str] | None:
        """As `finish` words a status, from each player's experience as of `day`: the experience
        their first rated match after it began with (the records keep it), else their experience now."""
        if self.established_after is None:
            return None
        records, m = self.records, self.match_columns()
        first = first_after(self, day)
        index, col_a, col_b, fields = records.columns
        experience = list(self.state.experience)
        rows, a, b = index[first:].tolist(), col_a[first:].tolist(), col_b[first:].tolist()
        winner_before, loser_before = fields[6][first:].tolist(), fields[7][first:].tolist()
        score, reasons = m.score_a, records.reasons
        for k in range(len(rows) - 1, -1, -1):   # back to the first: each rated record sets what it began with
            if first + k not in reasons:
                w, l = (a[k], b[k]) if score[rows[k]] == 1.0 else (b[k], a[k])
                experience[w], experience[l] = winner_before[k], loser_before[k]
        code_of, minimum = m.code_of, self.established_after
        return {player: "established" if experience[code_of[player]] >= minimum else "provisional"
                for player in self.standings}

    def match_events(self, record: tuple[Any, ...]) -> tuple[HistoryEvent, HistoryEvent]:
        unrated: tuple[HistoryEvent, HistoryEvent] | None  # (match_facts says so in its docstring)
        day, a, b, score_a, entry, unrated = self.match_facts(record)
        if unrated:
            return unrated
        _, rw, rl, base, bw, bl, pw, ew, el = record
        # Experience is a whole number of points or games; the cache stores it as a double.
        ew, el = (int(x) if float(x).is_integer() else x for x in (ew, el))
        gain, loss = base * bw, base * bl
        winner_event = HistoryEvent(day, entry, "match", None, 1.0, rw, gain, rw + gain, True, None,
                                    {"probability": pw, "base": base, "boost": bw,
                                     "opponent_boost": bl, "experience": ew})
        loser_event = HistoryEvent(day, entry, "match", None, 0.0, rl, -loss, rl - loss, True, None,
                                   {"probability": 1.0 - pw, "base": base, "boost": bl,
                                    "opponent_boost": bw, "experience": el})
        if score_a == 1.0:
            winner_event.opponent, loser_event.opponent = b, a
            return winner_event, loser_event
        winner_event.opponent, loser_event.opponent = a, b
        return loser_event, winner_event


class FibsEngine(Engine):
    name = "fibs"
    tournament_ends = False  # matches and adjustments only
    takes_draws = False  # seed 004: a nardy or backgammon match has a winner
    Params = LazyParams("FibsParams")

    @classmethod
    def check(cls, rating: RatingList, entries: CheckView, first_match: int = 0) -> list[Problem]:
        problems: list[Problem] = []
        for draw in entries.draws(first_match):
            if rating.rates(draw.discipline):
                problems.append(Problem(draw.file, draw.line,
                    _("a draw in {discipline!r}, which the rating list {name!r} (fibs) rates: a nardy or backgammon "
                      "match has a winner; void it and re-enter the result, or leave {discipline!r} out of "
                      "[rating.{name}] disciplines").format(discipline=draw.discipline, name=rating.name), draw.entry))
        return problems

    exclusion = staticmethod(exclusion)  # (fibsstate.py: shared with the [fast] extra's loop)

    # The rating depends on the matches only, not on the date it is read: a
    # replay can be cached and resumed when matches are appended.
    resumable = True
    reads_player_facts = False
    title = "the FIBS formula with match length and new-player boost (seed 004)"
    RECORD_FIELDS = 8  # after the match index: rw, rl, base, bw, bl, pw, ew, el

    @classmethod
    def can_resume(cls, params: EngineParams) -> bool:
        return not Inactivity(params).time_dependent  # penalties and statuses depend on the date

    def run(self, view: RatingView) -> FibsResult:
        return self._replay(view, None)

    def resume(self, view: RatingView, state: FibsState) -> FibsResult:
        return self._replay(view, state)

    def _replay(self, view: RatingView, resume: FibsState | None) -> FibsResult:
        """Replay `view`; with `resume`, continue a replay whose state that is (view: the new matches)."""
        p: FibsParams = view.params
        names = view.players
        count = len(names)
        start, factor, scale = float(p.start), float(p.factor), float(p.scale)
        by_points, use_boost = p.experience_unit == "points", p.boost
        pairs = PairLimit(p.pair_limit_per_day)
        side: list[SideEvent]
        experience: list[float]
        if resume is None:
            rating, experience, games, last = [start] * count, [0] * count, [0] * count, [0] * count
            present, side, offset = bytearray(count), [], 0
        else:
            grow = count - len(resume.rating)
            rating = list(resume.rating) + [start] * grow
            experience = list(resume.experience) + [0] * grow
            games = list(resume.games) + [0] * grow
            last = list(resume.last) + [0] * grow
            present = bytearray(resume.present) + bytearray(grow)
            side, offset = list(resume.side), len(resume.records)
            pairs.seen = dict(resume.pairs_seen)
        # One row per match (machine arrays: a tenth of the memory of tuples): the match index
        # (each batch's rows: every match has its row), and RECORD_FIELDS doubles side by side,
        # rw, rl, base, bw, bl, pw, ew, el (winner first), written in place with one call per
        # match at byte `at` (record `at // size`) of room made for the batch; an unrated row
        # holds rating a, rating b and NaN, its reason in `reasons`.
        index = array("i")
        record = struct.Struct(f"{self.RECORD_FIELDS}d")
        size, put = record.size, record.pack_into
        fields = bytearray()
        at = 0
        reasons: dict[int, str] = {}
        unrated_rest = (float("nan"),) * (self.RECORD_FIELDS - 2)
        limited = p.pair_limit_per_day > 0
        roots: dict[int, tuple[float, float]] = {}  # length → (√n/scale, factor·√n)
        policy = Inactivity(p)
        clock = PenaltyClock(policy)
        penalise = bool(policy.ladder)
        last_day = resume.last_date if resume else 0

        def catch_up(code: int, day: int, position: int) -> None:
            """Apply the inactivity steps the player's break reached by `day` (an ordinal), before record `position`."""
            if last[code]:
                rating[code], due = clock.catch_up(code, date.fromordinal(last[code]), date.fromordinal(day),
                                                   rating[code])
                side.extend((offset + position, names[code], event) for event in due)

        for event in view.batched_events():
            if isinstance(event, Adjusted):
                adj = event.adjust
                code = view.player_code(adj.player)
                present[code] = 1
                if penalise:
                    catch_up(code, adj.date.toordinal(), at // size)
                rating[code], history_event = adjust_event(adj, rating[code])
                side.append((offset + at // size, adj.player, history_event))
                continue
            ma, mb, scores, lengths, dates, excluded = event.a, event.b, event.score_a, event.length, event.dates, event.excluded
            index.extend(event.rows)  # (an array's rows are copied as bytes)
            fields.extend(bytes(size * len(event.rows)))
            for i in event.rows:
                a, b, s, day = ma[i], mb[i], scores[i], dates[i]
                present[a] = present[b] = 1
                if penalise:
                    catch_up(a, day, at // size)
                    catch_up(b, day, at // size)
                if s == 0.5 or i in excluded or (limited and not pairs.allows(day, a, b)):
                    reasons[at // size] = self.exclusion(event.reason(i), day, s, p.pair_limit_per_day)
                    put(fields, at, rating[a], rating[b], *unrated_rest)
                    at += size
                    continue
                n = lengths[i]
                try:
                    spread, stake = roots[n]
                except KeyError:
                    root = n ** 0.5
                    spread, stake = roots[n] = (root / scale, factor * root)
                w, l = (a, b) if s == 1.0 else (b, a)
                rw, rl = rating[w], rating[l]
                pw = 1.0 / (1.0 + 10.0 ** ((rl - rw) * spread))
                base = stake * (1.0 - pw)
                ew, el = experience[w], experience[l]
                if use_boost:
                    bw = 5.0 - ew / 100.0
                    if bw < 1.0:
                        bw = 1.0
                    bl = 5.0 - el / 100.0
                    if bl < 1.0:
                        bl = 1.0
                else:
                    bw = bl = 1.0
                rating[w] = rw + base * bw
                rating[l] = rl - base * bl
                unit = n if by_points else 1
                experience[w] = ew + unit
                experience[l] = el + unit
                games[w] += 1
                games[l] += 1
                last[w] = last[l] = day
                if penalise:
                    clock.played(w)
                    clock.played(l)
                put(fields, at, rw, rl, base, bw, bl, pw, ew, el)
                at += size
            last_day = day

        end = view.as_of or view.latest_entry(tournaments=False)
        if penalise and end is not None:
            for code in range(count):
                catch_up(code, end.toordinal(), len(index))
        # The fields as columns: strided views of the one array, no copy.
        records = ColumnRecords.of_buffer(index, view.player_columns(index), fields, self.RECORD_FIELDS, reasons)
        if resume is not None:
            records = resume.records.extended(records)
        if limited:
            # Only the last date's pair counts can matter to matches appended later.
            pairs.seen = {key: n for key, n in pairs.seen.items() if key[0] == last_day}
        state = FibsState(rating, experience, games, last, present, pairs.seen if limited else {}, records, side,
                          last_day)
        return self.finish(view, state)

    def finish(self, view: RatingView, state: FibsState) -> FibsResult:
        """The result (standings and lazy history) of a replay that reached `state`."""
        p: FibsParams = view.params
        names = view.players
        minimum = p.leaderboard_min_experience
        policy = Inactivity(p)
        end = view.as_of or view.latest_entry(tournaments=False) if policy.time_dependent else None
        standings: dict[str, Standing] = {}
        rating, experience, games, last = state.rating, state.experience, state.games, state.last
        days = played_days(last)
        for code in compress(range(len(rating)), state.present):
            player, played = names[code], days.get(last[code])
            status = "established" if experience[code] >= minimum else "provisional"
            standings[player] = Standing(player, rating[code], games[code],
                                         status if end is None else policy.status(played, end, status), played,
                                         {"experience": experience[code]})
        return FibsResult(view.rating.name, view.discipline, self.name, standings,
                          hidden_statuses=HIDDEN | {"provisional"}, as_of=view.as_of, state=state,
                          matches=view.match_columns, records=state.records, side=state.side,
                          established_after=None if policy.time_dependent else minimum)

    # --- the cache: the state as JSON and machine arrays, never code -----------------

    def pack_state(self, state: FibsState) -> tuple[dict[str, object], dict[str, array[Any]], dict[str, array[Any] | memoryview]]:
        """(JSON meta, small per-player arrays, the records' arrays) for the cache."""
        records = state.records
        index, rec_a, rec_b, fields = records.columns
        meta: dict[str, object] = {"side": [[pos, player, event_json(e)] for pos, player, e in state.side],
                "pairs": [[*key, n] for key, n in state.pairs_seen.items()],
                "reasons": [[k, r] for k, r in records.reasons.items()], "last_date": state.last_date,
                "records": len(index)}
        players: dict[str, array[Any]] = {"rating": array("d", state.rating), "experience": array("d", state.experience),
                   "games": array("q", state.games), "last": array("i", state.last),
                   "present": array("b", state.present)}
        columns: dict[str, array[Any] | memoryview] = {"index": index, "a": rec_a, "b": rec_b}
        columns.update({f"field_{k}": column for k, column in enumerate(fields)})
        return meta, players, columns

    def unpack_state(self, meta: dict[str, Any], players: dict[str, array[Any]],
                     load_columns: Callable[[], dict[str, memoryview]]) -> FibsState:
        """The state from the cache; the records' columns are read when history needs them."""
        def columns() -> tuple[memoryview, memoryview, memoryview, list[memoryview]]:
            found = load_columns()
            return (found["index"], found["a"], found["b"], [found[f"field_{k}"] for k in range(self.RECORD_FIELDS)])

        records = ColumnRecords(columns, {k: r for k, r in meta["reasons"]}, meta["records"])
        experience = [int(x) if x == int(x) else x for x in players["experience"].tolist()]
        return FibsState(players["rating"].tolist(), experience, players["games"].tolist(),
                         players["last"].tolist(), bytearray(players["present"].tobytes()),
                         {(item[0], item[1], item[2]): item[3] for item in meta["pairs"]}, records,
                         [(pos, player, event_from_json(e)) for pos, player, e in meta["side"]], meta["last_date"])

    # --- explain: seed 004's (or seed 001's) arithmetic, as the replay does it -----------

    explains = frozenset({"match", "penalty"})

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        from .base import step
        from .explaining import opponent_event
        from .policies import explain_penalty

        p: FibsParams = params   # the model, or its values from the config cache: read by attribute
        if event.kind == "penalty":
            return explain_penalty(p, result.history(player), event)
        if event.kind != "match" or not event.rated or match is None:
            return super().explain_event(params, result, player, event, match)
        theirs = opponent_event(result, event)
        won = event.result == 1.0
        mine, other = event.extra["experience"], theirs.extra["experience"]
        rw, rl = (event.before, theirs.before) if won else (theirs.before, event.before)
        assert rw is not None and rl is not None  # a rated match's events carry the ratings before it
        n = match.length
        root = n ** 0.5
        pw = 1.0 / (1.0 + 10.0 ** ((rl - rw) * (root / p.scale)))
        base = p.factor * root * (1.0 - pw)
        boost = max(1.0, 5.0 - mine / 100.0) if p.boost else 1.0
        if p.preset == "nardy-site":
            seed = boosted = "seed 001, «Рейтинг Elo в игре по нардам»"
        else:
            seed, boosted = "seed 004, «Формула FIBS»", "seed 004, «Ускорение для новичков»"
        inputs = {"opponent": event.opponent, "rating": event.before, "opponent_rating": theirs.before,
                  "score": event.result, "length": n, "experience": mine, "opponent_experience": other,
                  "factor": p.factor, "scale": p.scale}
        return Explained(inputs, [
            step(_("{seed}: the winner's chance P = 1/(1 + 10^(−(W − L)·√n/{scale}))").format(seed=seed, scale=f"{p.scale:g}"),
                 f"P = 1/(1 + 10^(−({rw:.2f} − {rl:.2f})·√{n}/{p.scale:g}))", pw),
            step(_("{seed}: the stake = {factor}·√n·(1 − P(winner))").format(seed=seed, factor=f"{p.factor:g}"),
                 f"base = {p.factor:g}·√{n}·(1 − {pw:.4f})", base),
            step(boost_rule(boosted, p.experience_unit) if p.boost else "boost = false",
                 f"boost = max(1, 5 − {mine:g}/100)" if p.boost else "boost = 1", boost),
            step((_("{seed}: the winner gains base × own boost") if won else
                  _("{seed}: the loser loses base × own boost")).format(seed=seed),
                 f"change = {'+' if won else '−'}{base:.4f}·{boost:g}", base * boost if won else -(base * boost))])

    def predictions(self, params: EngineParams, result: RatingResult) -> list[tuple[int, float, bool]]:
        """From the records' columns, without building history events (backtest on a big journal)."""
        assert isinstance(result, FibsResult)
        index, _, _, fields = result.records.columns
        unrated = result.records.reasons
        pw, ew, el = fields[5], fields[6], fields[7]
        minimum = params.leaderboard_min_experience
        first_won = result.match_columns().score_a
        return [(i, pw[k] if first_won[i] == 1.0 else 1.0 - pw[k], ew[k] >= minimum and el[k] >= minimum)
                for k, i in enumerate(index) if k not in unrated]


def boost_rule(seed: str, unit: str) -> str:
    """The boost step's rule: experience in points (seed 004) or in games (seed 001's G)."""
    if unit == "points":
        return _("{seed}: the boost from experience (points), ×5 fading to ×1 at 400").format(seed=seed)
    return _("{seed}: the boost from experience (games), ×5 fading to ×1 at 400").format(seed=seed)
