"""The replay: events gathered from the view, then lists, adjustments and event starts in date order."""
from __future__ import annotations

from datetime import date
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from ..base import HistoryEvent, Standing
from ..lines import HistoryOnRead, NoHistory
from ...collector import collector_paused
from ...i18n import N_
from ...contract.events import Adjust, Adjusted
from .lists import ListPublication
from .preview import state_of
from .values import FIDE_2024_TOP, FideRules
from .players import TITLED_UNRATED, Players
from .records import Event, FideEvent, Game, SingleMatch
from .report import FideResult
from .rules import initial_rating, list_in_force, pending_reason, reaches_list, within_pool_window

if TYPE_CHECKING:
    from ...contract.view import RatingView


LIST, ADJUST = 0, 1     # on one day: the list first, then adjustments, then events that start


class Moment(NamedTuple):
    day: date
    order: int                   # LIST or ADJUST
    seq: int                     # journal order among adjustments of one day
    item: date | Adjust


class FideReplay:
    def __init__(self, view: RatingView, engine: str, lines: bool = True):
        self.view = view
        self.engine = engine
        self.p: FideRules = view.params
        self.players = Players(self.p, view.player, lines)   # (lines: see Players)
        self.waiting: list[Event] = []   # the events that wait for a list after the view's day

    def group_into_events(self) -> list[Event]:
        """The rated matches grouped into events, by (end, journal order); unrated ones noted.

        Read from the view's batched columns: a match outside any tournament is one SingleMatch."""
        view, players = self.view, self.players
        states, state, note, last_played = players.states, players.state, players.note, players.last_played
        names, tournament_ids, columns = view.players, view.tournament_ids, view.match_columns()
        days: dict[int, date] = {}
        events: list[Event] = []                    # in the order made
        tournament_events: dict[str, FideEvent] = {}   # by tournament id (a match may have the same id)
        for batch in view.batched_events():
            if isinstance(batch, Adjusted):
                continue                     # the replay takes them from view.adjusts
            codes_a, codes_b, scores, ordinals = batch.a, batch.b, batch.score_a, batch.dates
            excluded, seqs, tournaments = batch.excluded, batch.seq, batch.tournament
            for i, entry in zip(batch.rows, columns.entries_of(batch.rows)):
                a, b, score_a = names[codes_a[i]], names[codes_b[i]], scores[i]
                day = days.get(ordinals[i])
                if day is None:
                    day = days[ordinals[i]] = date.fromordinal(ordinals[i])
                if a not in states:
                    state(a)
                if b not in states:
                    state(b)
                if i in excluded:
                    reason = batch.reason(i)
                    for player, opponent, score in ((a, b, score_a), (b, a, 1 - score_a)):
                        note(player, HistoryEvent(day, entry, "match", opponent, score, None, None, None,
                                                  False, reason))
                    continue
                last_played[a] = last_played[b] = day    # (the view's matches come by date: the last is the latest)
                code = tournaments[i]
                if code < 0:
                    events.append(SingleMatch(entry, day, seqs[i], a, b, round(2 * score_a)))
                    continue
                event = tournament_events.get(tournament_ids[code])
                if event is None:
                    tour = view.tournament(tournament_ids[code])
                    event = tournament_events[tour.id] = FideEvent(tour.id, tour.name, tour.system, tour.start,
                                                                   tour.end, tour.official, seq=tour.seq)
                    events.append(event)
                event.games.append(Game(entry, day, a, b, score_a))
        return sorted(events, key=attrgetter("end", "seq"))

    def run(self) -> FideResult:
        with collector_paused():
            return self.replay()

    def replay(self) -> FideResult:
        view, p = self.view, self.p
        as_of = view.as_of
        reach: dict[date, list[Event]] = {}
        list_of: dict[tuple[date, bool], date] = {}   # the list an (end, official) reaches: few distinct
        for event in self.group_into_events():
            key = (event.end, event.official)
            list_date = list_of.get(key)
            if list_date is None:
                list_date = list_of[key] = reaches_list(event.end, event.official, p)
            if as_of is not None and list_date > as_of:
                self.pending(event, list_date)
                continue
            reach.setdefault(list_date, []).append(event)
        final_list = list_in_force(as_of, p.list_every) if as_of is not None else max(reach, default=None)

        # Lists and adjustments in date order, a list first on its day; each event's snapshot is
        # taken at its start (events by start, then journal order), after that day's lists and adjustments.
        marks = [Moment(d, LIST, 0, d) for d in reach]
        marks += [Moment(a.date, ADJUST, a.seq, a) for a in view.adjusts]
        marks.sort(key=lambda m: (m.day, m.order, m.seq))
        starts = sorted((e for events in reach.values() for e in events), key=attrgetter("start", "seq"))
        states = self.players.states          # every player of an event has a state (group_into_events)
        done, next_day = 0, marks[0].day if marks else date.max    # (the next mark's day: one test an event)
        for event in starts:
            if next_day <= event.start:
                while done < len(marks) and marks[done].day <= event.start:
                    self.mark(marks[done].item, reach)
                    done += 1
                next_day = marks[done].day if done < len(marks) else date.max
            if type(event) is SingleMatch:
                event.rating_a, event.rating_b = states[event.a].rating, states[event.b].rating
            else:
                assert isinstance(event, FideEvent)
                event.snapshot = {pl: states[pl].rating for g in event.games for pl in (g.a, g.b)}
        for moment in marks[done:]:
            self.mark(moment.item, reach)
        return self.result(final_list)

    def mark(self, item: date | Adjust, reach: dict[date, list[Event]]) -> None:
        """An adjustment, or the list of a date (its events let go once published)."""
        if isinstance(item, Adjust):
            self.adjust(item)
        else:
            ListPublication(self.players, item).publish(reach.pop(item))

    def pending(self, event: Event, list_date: date) -> None:
        self.waiting.append(event)
        for g in event.games:
            for player, opponent, score in ((g.a, g.b, g.score_a), (g.b, g.a, 1 - g.score_a)):
                self.players.note(player, HistoryEvent(
                    g.date, g.match, "match", opponent, score, None, None, None, False,
                    pending_reason(list_date, event.key, event.end)))

    def adjust(self, a: Adjust) -> None:
        s = self.players.state(a.player)
        before = s.rating
        if a.set is not None:
            after = int(a.set)
        elif before is not None:
            after = before + int(a.delta or 0)
        else:
            self.players.note(a.player, HistoryEvent(
                a.date, None, "adjust", None, None, None, None, None, False,
                f"no published rating to change by {a.delta or 0:g}: {a.reason}"))
            return
        s.rating, s.excluded, s.pool = after, False, []
        if a.set is not None or a.k is not None or a.games is not None:
            # An imported list: K 40 only when it says so (k = 40, or fewer than 30 games).
            s.listed_k, s.listed_games = a.k, a.games
            if a.games is not None:
                s.games = a.games
            s.established = a.k in (10, 20) or (a.k is None and (a.games is None or a.games >= 30))
        s.reached_top = s.reached_top or after >= FIDE_2024_TOP or a.k == 10
        if s.activity_from is None:
            s.activity_from = a.date
        self.players.note(a.player, HistoryEvent(a.date, None, "adjust", None, None, before,
                                                 None if before is None else after - before, after, True, a.reason))

    def inactivity_events(self, final_list: date | None) -> None:
        """Note the list on which each rated player became inactive (if still inactive)."""
        if final_list is None:
            return
        players = self.players
        for player, s in players.states.items():
            clock = s.clock
            if s.rating is None or clock is None or players.status_of(player, final_list) != "inactive":
                continue
            players.note_inactive(player, players.inactive_from(clock), clock, s.rating)

    def result(self, final_list: date | None) -> FideResult:
        p, players = self.p, self.players
        self.inactivity_events(final_list)
        standings = {}
        for player, s in players.states.items():
            status = players.status_of(player, final_list)
            extra: dict[str, object] = {"list": final_list}
            games = s.games
            if s.rating is None:
                pool = [e for e in s.pool if final_list is None or within_pool_window(e.list_date, final_list, p)]
                if pool:
                    first = initial_rating(pool, p.ruleset)
                    games = first.games
                    extra.update(pool_games=first.games, pool_points=float(first.points),
                                 pool_opponents=float(first.opponents_mean), pool_rating=first.rating)
            standings[player] = Standing(player, s.rating, games, status, players.last_played.get(player), extra)
        view = self.view
        history = HistoryOnRead(players.history, by_date=True) if players.lines else NoHistory()   # lines made when read
        # As of a day: what add-match goes on from to show a new match's change (preview.py).
        kept = None if view.as_of is None else state_of(
            p, players.states, self.waiting, view.adjusts[-1].date if view.adjusts else None, view.as_of)
        return FideResult(view.rating.name, view.discipline, self.engine, standings, history,  # type: ignore[arg-type]
                          hidden_statuses=frozenset(),
                          columns=(("pool_games", "Pool games"), ("pool_rating", "Pool gives")),
                          sections=((TITLED_UNRATED, N_("Titled players without a rating")),),
                          as_of=view.as_of, lists={pl: s.lists for pl, s in players.states.items()}, state=kept)
