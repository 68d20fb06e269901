"""The mfsnb replay: typed events in, competitions out, the list builder publishing each period."""
from __future__ import annotations

from datetime import date
from itertools import repeat
from typing import TYPE_CHECKING, NamedTuple

from ...collector import collector_paused
from ...i18n import N_
from ...periods import period_containing
from ..lines import HistoryOnRead, NoHistory
from ..base import HistoryEvent
from ...contract.batches import MatchBatch
from ...contract.events import Adjusted, Tournament
from .lists import ListBuilder
from .records import EXCLUDED, RETURNED, Played, shared
from .result import MfsnbResult
from .values import MfsnbRules

if TYPE_CHECKING:
    from ...contract.view import RatingView


def replay(view: RatingView, engine: str, lines: bool = True) -> MfsnbResult:
    """The whole timeline: each match a history line (counted through its competition), each tournament's
    end a competition, each adjustment, and the list published at every period's end. Without `lines`
    the same numbers and no history (ListBuilder.lines): a result read for its standings alone."""
    p: MfsnbRules = view.params
    ended = {t.id: t for t in view.tournaments}
    book = ListBuilder(view, lines)
    reasons = MatchReasons(view, ended)
    # Each tournament's rated games and participants (players of its non-voided matches), gathered
    # as its matches come: all are dated by its end (the journal's check), so before its end here.
    rated_games: dict[str, list[Game]] = {}
    entrants: dict[str, set[str]] = {}

    with collector_paused():  # a few objects per match, none in a cycle (collector.py)
        for event in view.batched_events_with_ends():
            if isinstance(event, MatchBatch):
                matches(view, book, event, reasons, rated_games, entrants)
            elif isinstance(event, Adjusted):
                book.advance_to(event.adjust.date)
                book.adjust(event.adjust)
            else:
                item = event.tournament
                book.advance_to(item.end)
                if p.official_only and not item.official:
                    continue
                games = collect(rated_games.get(item.id, []))
                if games:
                    people = entrants.get(item.id, set()) | {s.player for s in item.standings or ()}
                    book.competition(item.id, item.system, item.end, games, len(people), first_place(item, games))

        # (the last list too: with the collector on, its pass over the whole history cost a quarter of the run)
        if book.periods is not None:
            if view.as_of is not None:
                book.advance_to(view.as_of)
                if book.current.end == view.as_of:
                    book.publish()
            else:
                book.publish()   # the last period with entries is complete
        # read-only, single matches' and lists' lines made when read
        history = HistoryOnRead(book.events) if lines else NoHistory()
        result = MfsnbResult(view.rating.name, view.discipline, engine, {}, history,  # type: ignore[arg-type]
                             hidden_statuses=frozenset({EXCLUDED}), columns=(("pending", "Pending"),),
                             sections=((RETURNED, N_("Returned: commission decision needed")),),
                             as_of=view.as_of, builder=book)
        result.standings = result.build_standings()
        return result


def matches(view: RatingView, book: ListBuilder, batch: MatchBatch, reasons: MatchReasons,
            rated_games: dict[str, list[Game]], entrants: dict[str, set[str]]) -> None:
    """A run of matches, from the batch's columns: each a history line (it counts through its
    competition, the tournament's when that ends); a single match is a competition itself."""
    singles = not view.params.official_only
    names, tournament_ids = view.players, view.tournament_ids
    # (the match ids name history lines only: a replay for the standings alone reads none)
    entries = view.match_columns().entries_of(batch.rows) if book.lines else repeat("")
    codes_a, codes_b, scores, ordinals = batch.a, batch.b, batch.score_a, batch.dates
    excluded, tournaments = batch.excluded, batch.tournament
    days: dict[int, date] = {}
    until = -1   # the day (ordinal) the period being built ends: a later match publishes lists first
    for i, entry in zip(batch.rows, entries):
        ordinal = ordinals[i]
        day = days.get(ordinal)
        if day is None:
            day = days[ordinal] = date.fromordinal(ordinal)
        if ordinal > until:
            book.advance_to(day)
            until = book.current.end.toordinal()
        first, second, score, code = names[codes_a[i]], names[codes_b[i]], scores[i], tournaments[i]
        excluded_by = batch.reason(i) if i in excluded else None
        tid = tournament_ids[code] if code >= 0 else None
        if tid is not None:
            if excluded_by != "voided":
                entrants.setdefault(tid, set()).update((first, second))
            if excluded_by is None:
                rated_games.setdefault(tid, []).append(Game(first, second, score))
        reason = excluded_by if excluded_by is not None else reasons.of(tid, day)
        if tid is None and excluded_by is None and singles:
            book.single(entry, day, first, second, score, reason)   # the match's lines with its competition's
            continue
        if book.lines:
            book.event(first, HistoryEvent(day, entry, "match", second, score, None, None, None, False, reason))
            book.event(second, HistoryEvent(day, entry, "match", first, shared(1.0 - score), None, None, None, False,
                                            reason))


class MatchReasons:
    """Why a rated match moves no rating by itself, the same few texts for many matches (made once)."""

    def __init__(self, view: RatingView, ended: dict[str, Tournament]):
        self.view, self.ended = view, ended
        self.p: MfsnbRules = view.params
        self.known: dict[tuple[str | None, date], str] = {}

    def of(self, tid: str | None, day: date) -> str:
        key = (tid, day) if tid is None else (tid, date.min)   # a tournament's reason is the same every day
        reason = self.known.get(key)
        if reason is None:
            reason = self.known[key] = self.text(tid, day)
        return reason

    def text(self, tid: str | None, day: date) -> str:
        p, view, ended = self.p, self.view, self.ended
        if p.official_only and (tid is None or not view.tournament(tid).official):
            return "not an official competition (official_only)"
        if tid is not None and tid not in ended:
            return f"counts when tournament {tid} ends ({view.tournament(tid).end})"
        if tid is None:
            return own_competition(p, day)
        return f"counted in {tid} on the list of {period_containing(ended[tid].end, p.period).end}"


def own_competition(p: MfsnbRules, day: date) -> str:
    """Why a rated single match (outside any tournament, not official_only) moves no rating by itself."""
    return f"a competition of its own, on the list of {period_containing(day, p.period).end}"


class Game(NamedTuple):
    """A rated game of a tournament, kept until it ends."""

    a: str
    b: str
    score_a: float


def collect(matches: list[Game]) -> dict[str, list[Played]]:
    """Per player: (opponent, score) of each rated game, in replay order."""
    games: dict[str, list[Played]] = {}
    for m in matches:
        games.setdefault(m.a, []).append(Played(m.b, m.score_a))
        games.setdefault(m.b, []).append(Played(m.a, 1.0 - m.score_a))
    return games


def first_place(tournament: Tournament, games: dict[str, list[Played]]) -> str | None:
    """The clear, unshared winner: from the standings, else the single top score."""
    if tournament.standings:
        firsts = [s for s in tournament.standings if s.low == 1]
        if len(firsts) == 1 and firsts[0].high == 1:
            return firsts[0].player
        return None
    totals = sorted(((sum(g.score for g in played), player) for player, played in games.items()), reverse=True)
    if len(totals) == 1 or totals[0][0] > totals[1][0]:
        return totals[0][1]
    return None
