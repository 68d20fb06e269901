"""The tournament rating of seed 001: points for a place, halved every month.

When a tournament ends, each participant gets 10·log2(N)/M added to their
rating (N participants, M their place; a shared place "2-3" counts as 2.5).
On the first day of every month every rating is halved, before anything
else that day. Places come from the tournament's `standings`; without them,
from its matches (win 1, draw ½; equal points share a place range).
"""
from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterator, Sequence
from datetime import date
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..collector import collector_paused
from ..i18n import _
from ..periods import month_number, month_start
from .base import Engine, EngineParams, Explained, HistoryEvent, LazyParams, RatingResult, Standing, adjust_event, step
from .lines import HistoryOnRead, Kept
from .compact import ColumnRecords
from .placementperiod import PlacementResult
from .placementstate import (KeptByName, Places, PlacementState, PlayerItems, ReplayedSide, SideAdjust, StoredSide, pack,
                             unpack)
from ..contract.batches import MatchBatch, MatchColumns
from ..contract.events import Adjust, Adjusted, MatchPlayed, Tournament, TournamentEnded

if TYPE_CHECKING:
    from ..contract.view import RatingView
    from .params import PlacementParams


def places_from_points(points: dict[int, float]) -> dict[int, float]:
    """Places by points, best first; players level on points share the range (mean place).
    The players are in the order of `points`, each with the place of their points."""
    level = Counter(points.values())   # (points are whole and half numbers: the sums are exact)
    place_of: dict[float, float] = {}
    k = 0
    for value in sorted(level, reverse=True):
        end = k + level[value] - 1
        place_of[value] = (k + 1 + end + 1) / 2  # places k+1 … end+1
        k = end + 1
    return {player: place_of[value] for player, value in points.items()}


NOT_A_TOURNAMENT = "not a tournament match: only tournament places count"


def counts_through(tournament: str) -> str:
    return f"counts through the places of {tournament!r} when it ends"


class MatchLines(NamedTuple):
    """What a player's match lines are made from when read: the view's columns and why each row
    moves nothing (its exclusion, else its tournament's places, else that it is in no tournament).
    A match moves no placement rating: the line's rating is the one the line before it left."""

    columns: Callable[[], MatchColumns]
    exclusion: Callable[[int], str | None]
    excluded: Container[int]
    tournament: Sequence[int]             # a row's tournament code, -1 for none
    tournament_ids: Sequence[str]

    def reason(self, row: int) -> str:
        if row in self.excluded:
            return self.exclusion(row) or ""
        code = self.tournament[row]
        return counts_through(self.tournament_ids[code]) if code >= 0 else NOT_A_TOURNAMENT

    def line(self, player: str, row: int, previous: HistoryEvent | None) -> HistoryEvent:
        columns = self.columns()
        day, a, b, score, entry = columns.facts(row)
        r = previous.after if previous is not None and previous.after is not None else 0.0
        if a == player:
            return HistoryEvent(day, entry, "match", b, score, r, 0.0, r, False, self.reason(row))
        return HistoryEvent(day, entry, "match", a, 1.0 - score, r, 0.0, r, False, self.reason(row))


class MonthlyHalvings:
    """Every month's halving, kept once for all players (not an item in every rated player's
    history each month: 2.4 million on the benchmark's journal). A player's halving lines are made
    when read, between two of their lines: one for each month that began after the line before
    and by the date of the item after (by the replay's last month after the last item), each
    from the line before it (before its after, after before × the factor: the products the
    replay made, month by month); a rating of 0 is not halved, as the replay skips it."""

    __slots__ = ("factor", "last_month", "day_of")

    def __init__(self, factor: float, last_month: int | None, day_of: Callable[[Kept | int], date]) -> None:
        self.factor, self.last_month, self.day_of = factor, last_month, day_of

    def lines(self, previous: HistoryEvent | None, following: Kept | int | None) -> Iterator[HistoryEvent]:
        if previous is None or self.last_month is None:
            return
        until = self.last_month if following is None else month_number(self.day_of(following))
        before = previous.after
        for month in range(month_number(previous.date) + 1, until + 1):
            if not before:
                return
            after = before * self.factor
            yield HistoryEvent(month_start(month), None, "decay", None, None, before, after - before, after, True,
                               "monthly halving")
            before = after


def halved(rating: list[Any], month: int | None, day: date, factor: float) -> tuple[list[Any], int | None]:
    """The ratings halved on every month's first day after `month` (a month index; None: none yet)
    up to `day`'s month, and the month they are halved up to: asked before what reads a rating
    (places, an adjustment, the end), not by a match, which reads none."""
    target = month_number(day)
    if month is not None:
        for _ in range(month + 1, target + 1):
            rating = [r * factor if r else r for r in rating]   # a rating of 0 stays as it is
    return rating, target if month is None or target > month else month


class PlacementEngine(Engine):
    name = "placement"
    title = "tournament rating by place, 10·log2(N)/M, halved every month (seed 001)"
    Params = LazyParams("PlacementParams")

    explains: ClassVar[frozenset[str]] = frozenset({"tournament", "decay", "match"})
    # The replay depends on the entries only: it stops before the ratings are halved up to the day
    # they are read (placementstate.py), and `finish` does that for the view's date, so a replay is
    # stored for the journal as it was and finished as of any later day (not resumed).
    cacheable = True
    reads_player_facts = False

    def run(self, view: RatingView) -> RatingResult:
        return self.finish(view, self._replay(view))

    def _replay(self, view: RatingView) -> PlacementState:
        """The replay by player code: ratings, tournaments and each player's kept history items
        (match rows, places, adjustments) in lists by code; halvings made when history is read."""
        p: PlacementParams = view.params
        names = view.players
        count = len(names)
        factor = p.monthly_factor
        rating: list[Any] = [0.0] * count
        played = [0] * count                  # tournaments placed in
        last = [0] * count                    # the last one's end (ordinal; 0: none)
        # A player's history items are not kept in a list each: their number, the match rows in
        # replay order (`index`) and the side items' positions make them when read (placementstate.py).
        items = [0] * count
        index = array("i")
        side = ReplayedSide()
        order: list[int] = []                 # the players in the order of their first history item
        # Each tournament's match rows by its code, as they come: all are dated by its end (the
        # journal's check), so they come before its end here.
        rows_of: defaultdict[int, list[int]] = defaultdict(list)
        month: int | None = None  # month index of the last day halved up to

        tournament_code_of: dict[str, int] = {}

        def halve_until(day: date) -> None:
            nonlocal month, rating
            rating, month = halved(rating, month, day, factor)

        def adjust(adj: Adjust) -> None:
            halve_until(adj.date)
            code = view.player_code(adj.player)
            rating[code], change = adjust_event(adj, rating[code])
            n = items[code]
            if not n:
                order.append(code)
            items[code] = n + 1
            side.append(SideAdjust(code, n, change))

        def places(t: Tournament) -> None:
            halve_until(t.end)
            if t.standings:
                places, source = {view.player_code(s.player): s.mean for s in t.standings}, "standings"
            else:
                places, source = places_from_points(counted_points(t.id)), "matches"
            if not places:   # no standings and no match that counts (all voided): nobody placed
                return
            points = p.points * math.log2(len(places))
            if not tournament_code_of:
                tournament_code_of.update((tid, k) for k, tid in enumerate(view.tournament_ids))
            positions: dict[int, int] = {}
            side.append(Places(t.id, tournament_code_of[t.id], t.end, places, positions, points, source,
                               view.player_code))
            end = t.end.toordinal()
            for code, place in places.items():
                rating[code] = rating[code] + points / place
                played[code] += 1
                last[code] = end
                n = positions[code] = items[code]   # (inline: 1.8 million places on the benchmark's journal)
                if not n:
                    order.append(code)
                items[code] = n + 1

        lines: MatchLines | None = None
        batch: MatchBatch | None = None

        def counted_points(tournament: str) -> dict[int, float]:
            """Each player's points from the tournament's matches that count for places (not
            voided, not marked unrated: a forfeit is a result), win 1, draw ½."""
            code = next((code for code in rows_of if view.tournament_ids[code] == tournament), None)
            points: dict[int, float] = {}
            if code is None:
                return points
            assert batch is not None
            codes_a, codes_b, scores, rated, excluded, reason = (batch.a, batch.b, batch.score_a, batch.rated,
                                                                 batch.excluded, batch.reason)
            get = points.get
            for i in rows_of.pop(code):
                if rated[i] and not (i in excluded and reason(i) == "voided"):
                    a, b, score = codes_a[i], codes_b[i], scores[i]
                    points[a] = get(a, 0.0) + score
                    points[b] = get(b, 0.0) + 1.0 - score
            return points

        def matches(run: MatchBatch) -> None:
            """A run of matches, from the batch's columns: each a row in its players' histories (no
            rating moved); a tournament's rows are kept until it ends."""
            nonlocal lines, batch
            if lines is None:
                batch = run
                lines = MatchLines(cache(view.match_columns), run.reason, run.excluded, run.tournament,
                                   view.tournament_ids)
            codes_a, codes_b, tournament, rows = run.a, run.b, run.tournament, run.rows
            if isinstance(rows, array) and rows.typecode != "i":
                index.fromlist(rows.tolist())
            else:
                index.extend(rows)
            for i in rows:
                a, b = codes_a[i], codes_b[i]
                n = items[a]   # (inline: the hot loop)
                if not n:
                    order.append(a)
                items[a] = n + 1
                n = items[b]
                if not n:
                    order.append(b)
                items[b] = n + 1
                t = tournament[i]
                if t >= 0:
                    rows_of[t].append(i)

        with collector_paused():  # a few objects per match, none in a cycle (collector.py)
            for event in view.batched_events_with_ends():
                if isinstance(event, Adjusted):
                    adjust(event.adjust)
                elif isinstance(event, TournamentEnded):
                    places(event.tournament)
                else:
                    matches(event)   # a match moves no placement rating; its line says why (add-match shows it)

        latest = view.latest_entry(tournaments=True)
        # The records' player columns made when history is first read, or the cache stores the replay.
        records = ColumnRecords(lambda: (index, *view.player_columns(index), []), {}, len(index))
        return PlacementState(rating, played, last, items, month, records, side, order,
                              latest.toordinal() if latest else 0, lines)

    def finish(self, view: RatingView, state: PlacementState) -> RatingResult:
        """The result of a replay that reached `state`, every rating halved up to the end of the
        view: its --as-of, else its last entry (a state from the cache is of the journal exactly as
        it was replayed, whose view holds none of the entries: the state's last day is the same
        one). `state` is left as it was: the cache keeps it, and another day may finish it again."""
        p: PlacementParams = view.params
        names, factor, played, last = view.players, p.monthly_factor, state.played, state.last
        end = view.as_of or (date.fromordinal(state.last_date) if state.last_date else None)
        rating, month = halved(state.rating, state.month, end, factor) if end is not None else (state.rating,
                                                                                               state.month)
        standings = {}
        for code in state.order:
            player = names[code]
            standings[player] = Standing(player, rating[code], played[code], "ranked" if played[code] else
                                         "no tournament", date.fromordinal(last[code]) if last[code] else None)
        if isinstance(state.side, StoredSide):   # from the cache: its places made for this journal's ids
            state.side.bind(view.tournament_ids, view.player_code)
        lines = state.lines
        if lines is None:
            excluded, exclusion, tournament = view.match_reasons()
            lines = MatchLines(cache(view.match_columns), exclusion, excluded, tournament, view.tournament_ids)

        def day_of(item: Kept | int) -> date:
            if isinstance(item, int):
                return date.fromordinal(lines.columns().dates[item])
            if isinstance(item, Places):
                return item.end
            assert isinstance(item, HistoryEvent)   # an adjustment
            return item.date

        kept = KeptByName(PlayerItems(state), state.order, names, view.player_code)
        return PlacementResult(view.rating.name, view.discipline, self.name, standings,
                               HistoryOnRead(kept, rows=lines.line,  # type: ignore[arg-type]
                                             between=MonthlyHalvings(factor, month, day_of)),
                               hidden_statuses=frozenset({"no tournament"}), as_of=view.as_of, state=state, kept=kept,
                               match_lines=lines, factor=factor, last_month=month)

    # --- the cache: the state as JSON and machine arrays, never code (placementstate.py) ----

    def pack_state(self, state: PlacementState) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        return pack(state)

    def unpack_state(self, meta: dict[str, Any], players: dict[str, Any], load_columns: Any) -> PlacementState:
        return unpack(meta, players, load_columns)

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        before = event.before if event.before is not None else 0.0
        if event.kind == "tournament":
            n, place = event.extra["participants"], event.extra["place"]
            inputs = {"tournament": event.entry, "participants": n, "place": place,
                      "places_from": event.extra["places_from"], "points": params.points, "rating": before}
            return Explained(inputs, [
                step(_("seed 001: log2 of the number of participants"), f"log2({n})", math.log2(n)),
                step(_("seed 001: 10·log2(N)/M (N participants, M the place; shared places: their mean)"),
                     f"change = {params.points:g}·log2({n})/{place:g}", params.points * math.log2(n) / place)])
        if event.kind == "match" and event.change == 0:
            # Rated or not, a match moves no placement rating: the tournament's places do.
            from ..i18n.terms import reason_text

            return Explained({"opponent": event.opponent, "score": event.result}, [
                step(_("seed 001: the tournament rating moves by places only"), reason_text(event.reason or ""), 0.0)])
        if event.kind == "decay":
            factor = params.monthly_factor
            after = before * factor
            return Explained({"rating": before, "monthly_factor": factor}, [
                step(_("seed 001: every month's first day R = R/2 (monthly_factor)"),
                     f"after = {before:.4f}·{factor:g}", after),
                step(_("change = after − before"), f"change = {after:.4f} − {before:.4f}", after - before)])
        return super().explain_event(params, result, player, event, match)
