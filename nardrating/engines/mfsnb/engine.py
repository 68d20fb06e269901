"""The mfsnb engine: typed events in, competitions out, the list builder publishing each period."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar

from ...collector import collector_paused
from ...errors import Problem
from ...i18n import N_, _
from ...periods import period_containing
from ..lines import HistoryOnRead
from ..base import Engine, EngineParams, Explained, HistoryEvent, RatingResult, not_rated, step, whole_number_adjusts
from ...contract.events import Adjusted, MatchPlayed, Tournament
from .explain import explain_competition, explain_list
from .lists import EXCLUDED, RETURNED, ListBuilder, Played, shared
from .params import MfsnbParams
from .result import MfsnbResult

if TYPE_CHECKING:
    from ...contract.view import CheckView, RatingView


class MfsnbEngine(Engine):
    name = "mfsnb"
    title = "the 2009 nardy federation's period lists, R = 10·(P − E) (seed 000)"
    Params = MfsnbParams
    explains: ClassVar[frozenset[str]] = frozenset({"competition", "list", "adjust", "match"})

    @classmethod
    def check(cls, rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
        return whole_number_adjusts(rating, entries, first_match)

    def run(self, view: RatingView) -> MfsnbResult:
        p: MfsnbParams = view.params
        ended = {t.id: t for t in view.tournaments}
        book = ListBuilder(view)
        reasons = MatchReasons(view, ended)
        # Each tournament's rated games and participants (players of its non-voided matches), gathered
        # as its matches come: all are dated by its end (the journal's check), so before its end here.
        rated_games: dict[str, list[MatchPlayed]] = {}
        entrants: dict[str, set[str]] = {}

        with collector_paused():  # a few objects per match, none in a cycle (collector.py)
            for event in view.events():
                if isinstance(event, MatchPlayed):
                    tid = event.tournament
                    if tid is not None:
                        if event.reason != "voided":
                            entrants.setdefault(tid, set()).update((event.a, event.b))
                        if event.reason is None:
                            rated_games.setdefault(tid, []).append(event)
                    self.match(view, book, event, reasons)
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
            history = HistoryOnRead(book.events)   # read-only, a single match's lines made when read
            result = MfsnbResult(view.rating.name, view.discipline, self.name, {}, history,  # type: ignore[arg-type]
                                 hidden_statuses=frozenset({EXCLUDED}), columns=(("pending", "Pending"),),
                                 sections=((RETURNED, N_("Returned: commission decision needed")),),
                                 as_of=view.as_of, builder=book)
            result.standings = result.build_standings()
            return result

    @staticmethod
    def match(view: RatingView, book: ListBuilder, event: MatchPlayed, reasons: MatchReasons) -> None:
        """A match's history line (it counts through its competition); a single match is one."""
        p: MfsnbParams = view.params
        day, first, second, tid = event.date, event.a, event.b, event.tournament
        book.advance_to(day)
        reason = event.reason if event.reason is not None else reasons.of(tid, day)
        score = event.score_a
        if tid is None and event.reason is None and not p.official_only:
            book.single(event.entry, day, first, second, score, reason)   # the match's lines with its competition's
            return
        book.event(first, HistoryEvent(day, event.entry, "match", second, score, None, None, None, False, reason))
        book.event(second, HistoryEvent(day, event.entry, "match", first, shared(1.0 - score), None, None, None, False,
                                        reason))

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        assert isinstance(params, MfsnbParams) and isinstance(result, MfsnbResult)
        if event.kind == "competition":
            return explain_competition(params, result, player, event)
        if event.kind == "list":
            return explain_list(params, result, player, event)
        if event.kind == "match":
            # A match moves no rating by itself: its competition does (or nothing, with the reason).
            counted = (event.reason or "").startswith(("counted in", "a competition of its own", "counts when"))
            from ...i18n.terms import reason_text

            return Explained({"opponent": event.opponent, "score": event.result}, [step(
                _("seed 000: R is computed per competition, a tournament or a single match") if counted
                else not_rated(event.reason), reason_text(event.reason or ""), None)])
        if event.kind == "adjust" and event.before is None:
            # A first [[adjust]]: the player enters the list with it; nothing to change from.
            return Explained({"reason": event.reason}, [
                {"rule": _("[[adjust]]: a player enters the list at the rating the commission sets"),
                 "formula": _("after = {after}; not on the list before: no change").format(after=event.after),
                 "value": None}])
        return super().explain_event(params, result, player, event, match)


class MatchReasons:
    """Why a rated match moves no rating by itself, the same few texts for many matches (made once)."""

    def __init__(self, view: RatingView, ended: dict[str, Tournament]):
        self.view, self.ended = view, ended
        self.p: MfsnbParams = view.params
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
        end = ended[tid].end if tid else day
        listed_on = period_containing(end, p.period).end
        return (f"counted in {tid} on the list of {listed_on}" if tid
                else f"a competition of its own, on the list of {listed_on}")


def collect(matches: list[MatchPlayed]) -> dict[str, list[Played]]:
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
