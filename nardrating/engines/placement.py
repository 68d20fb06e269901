"""The tournament rating of seed 001: points for a place, halved every month.

When a tournament ends, each participant gets 10·log2(N)/M added to their
rating (N participants, M their place; a shared place "2-3" counts as 2.5).
On the first day of every month every rating is halved, before anything
else that day. Places come from the tournament's `standings`; without them,
from its matches (win 1, draw ½; equal points share a place range).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Container, Sequence
from datetime import date
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from ..collector import collector_paused
from ..i18n import _
from ..periods import month_number, month_start
from .base import Engine, EngineParams, Explained, HistoryEvent, LazyParams, RatingResult, Standing, adjust_event, step
from .lines import EachPlayerFollowsOn, FollowsOn, HistoryOnRead, Kept
from ..contract.batches import MatchBatch, MatchColumns
from ..contract.events import Adjust, Adjusted, MatchPlayed, Tournament, TournamentEnded

if TYPE_CHECKING:
    from ..contract.view import RatingView
    from .params import PlacementParams


def places_from_points(points: dict[str, float]) -> dict[str, float]:
    """Places by points, best first; players level on points share the range (mean place)."""
    ranked = sorted(points.items(), key=lambda item: -item[1])
    places: dict[str, float] = {}
    k = 0
    while k < len(ranked):
        end = k
        while end + 1 < len(ranked) and ranked[end + 1][1] == ranked[k][1]:
            end += 1
        mean = (k + 1 + end + 1) / 2  # places k+1 … end+1
        for player, _points in ranked[k:end + 1]:
            places[player] = mean
        k = end + 1
    return places


def tournament_places(tournament: Tournament, games: list[tuple[str, str, float]]) -> tuple[dict[str, float], str]:
    """(player → place, where the places came from) for one tournament; `games`: its matches that
    count for places, as (a, b, a's score): not voided, not marked unrated (a forfeit is a result)."""
    if tournament.standings:
        return {p.player: p.mean for p in tournament.standings}, "standings"
    points: dict[str, float] = {}
    for a, b, score in games:
        points[a] = points.get(a, 0.0) + score
        points[b] = points.get(b, 0.0) + 1.0 - score
    return places_from_points(points), "matches"


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


class Halved(FollowsOn):
    """A month's halving, one item in the history of every player whose rating it halves: a
    player's line is made when read from the line before it (before = its after, after = before ×
    the factor, the product the replay made)."""

    __slots__ = ("day", "factor")

    def __init__(self, day: date, factor: float) -> None:
        self.day, self.factor = day, factor

    def line(self, previous: HistoryEvent | None) -> HistoryEvent:
        before = previous.after if previous is not None and previous.after is not None else 0.0
        after = before * self.factor
        return HistoryEvent(self.day, None, "decay", None, None, before, after - before, after, True, "monthly halving")


class Places(EachPlayerFollowsOn):
    """An ended tournament's places, one item in the history of each of its players. A player's
    line is made when read, from their place and the line before it: before is that line's after
    (every line says the rating it leaves, as Halved does), the gain points/place, the same
    division of the same numbers the replay made (one object per tournament, not one per player
    and place: 1.8 million on the benchmark's journal).
    """

    __slots__ = ("tournament", "places", "points", "source")

    def __init__(self, tournament: Tournament, places: dict[str, float], points: float, source: str) -> None:
        self.tournament, self.places, self.points, self.source = tournament, places, points, source

    def line_for(self, player: str, previous: HistoryEvent | None) -> HistoryEvent:
        before = previous.after if previous is not None and previous.after is not None else 0.0
        place, t = self.places[player], self.tournament
        gain = self.points / place
        return HistoryEvent(t.end, t.id, "tournament", None, None, before, gain, before + gain, True, None,
                            {"place": place, "participants": len(self.places), "places_from": self.source})


class PlacementEngine(Engine):
    name = "placement"
    title = "tournament rating by place, 10·log2(N)/M, halved every month (seed 001)"
    Params = LazyParams("PlacementParams")

    explains: ClassVar[frozenset[str]] = frozenset({"tournament", "decay", "match"})

    def run(self, view: RatingView) -> RatingResult:
        p: PlacementParams = view.params
        # Each tournament's matches, gathered as they come: all are dated by its end (the journal's
        # check), so they come before its end here.
        by_tournament: dict[str, list[tuple[str, str, float]]] = {}
        ratings: dict[str, float] = {}
        tournaments: dict[str, int] = {}
        last: dict[str, date] = {}
        history: dict[str, list[Kept | int]] = {}   # an int: a match row (MatchLines makes its line)
        month: int | None = None  # month index of the last day processed
        names = view.players

        def halve_until(day: date) -> None:
            nonlocal month
            target = month_number(day)
            if month is not None:
                factor = p.monthly_factor
                for index in range(month + 1, target + 1):
                    halved = Halved(month_start(index), factor)
                    for player, before in ratings.items():
                        if before == 0:
                            continue
                        ratings[player] = before * factor
                        history[player].append(halved)
            if month is None or target > month:
                month = target

        def adjust(adj: Adjust) -> None:
            halve_until(adj.date)
            after, change = adjust_event(adj, ratings.get(adj.player, 0.0))
            ratings[adj.player] = after
            history.setdefault(adj.player, []).append(change)

        def places(t: Tournament) -> None:
            halve_until(t.end)
            places, source = tournament_places(t, by_tournament.get(t.id, []))
            points = p.points * math.log2(len(places))
            item = Places(t, places, points, source)
            for player, place in places.items():
                ratings[player] = ratings.get(player, 0.0) + points / place
                tournaments[player] = tournaments.get(player, 0) + 1
                last[player] = t.end
                history.setdefault(player, []).append(item)

        lines: MatchLines | None = None

        def matches(batch: MatchBatch) -> None:
            """A run of matches, from the batch's columns: each a row in its players' histories (no
            rating moved); a tournament's games that count for its places are kept until it ends."""
            nonlocal lines
            if lines is None:
                lines = MatchLines(view.match_columns, batch.reason, batch.excluded, batch.tournament,
                                   view.tournament_ids)
            tournament_ids = view.tournament_ids
            codes_a, codes_b, scores, ordinals, rated = batch.a, batch.b, batch.score_a, batch.dates, batch.rated
            excluded, tournament = batch.excluded, batch.tournament
            until = -1   # the last day (ordinal) of the month halved up to: a later match halves first
            for i in batch.rows:
                ordinal = ordinals[i]
                if ordinal > until:
                    day = date.fromordinal(ordinal)
                    halve_until(day)
                    until = month_start(month_number(day) + 1).toordinal() - 1
                a, b = names[codes_a[i]], names[codes_b[i]]
                t = tournament[i]
                if t >= 0 and rated[i] and not (i in excluded and batch.reason(i) == "voided"):
                    by_tournament.setdefault(tournament_ids[t], []).append((a, b, scores[i]))
                history.setdefault(a, []).append(i)
                history.setdefault(b, []).append(i)

        with collector_paused():  # a few objects per match, none in a cycle (collector.py)
            for event in view.batched_events_with_ends():
                if isinstance(event, Adjusted):
                    adjust(event.adjust)
                elif isinstance(event, TournamentEnded):
                    places(event.tournament)
                else:
                    matches(event)   # a match moves no placement rating; its line says why (add-match shows it)

        end = view.as_of or view.latest_entry(tournaments=True)
        if end is not None:
            halve_until(end)
        standings = {
            player: Standing(player, ratings.get(player, 0.0), tournaments.get(player, 0),
                             "ranked" if player in tournaments else "no tournament", last.get(player))
            for player in history
        }
        return RatingResult(view.rating.name, view.discipline, self.name, standings,
                            HistoryOnRead(history, rows=lines.line if lines else None),  # type: ignore[arg-type]
                            hidden_statuses=frozenset({"no tournament"}), as_of=view.as_of)

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        from .params import PlacementParams

        assert isinstance(params, PlacementParams)
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
