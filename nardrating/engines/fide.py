"""FIDE-style rating lists (seed 002), with FIDE's 2024 and 2025 rules as further rulesets.

Ratings change only on list dates (the first day of every `list_every`
period). An event — a tournament, or a rated match outside any tournament,
which is an event of its own — reaches the first list dated at least
`closing_days` (3) days after its end (`official_closing_days`, 1, for an
official one). Ratings in an event come from the list in force on its first
day. A rated player's change per event is K·Σ(S − P_D), rounded, halves away
from zero (FIDE's rulesets round the rating period's sum once, §8.3.4); an
unrated player's counted games are pooled into a first rating (seed 8.2–8.3,
7.1.4). See docs/fide.md for every reading of the seed and of the regulations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from ..errors import Problem
from ..periods import add_months
from .base import Engine, HistoryEvent, RatingResult, Standing, whole_number_adjusts
from .fide_report import EventRecord, FideResult, ListRecord
from .fide_rules import (FIDE_2024_DIFFERENCE_CAP, FIDE_2024_TOP, FideParams, KState, PoolEntry, inactive_on,
                         initial_rating, k_and_rule, list_in_force, list_on_or_after, reaches_list,
                         round_robin_average, within_pool_window)
from .fide_tables import dp_for_score, expected_hundredths, round_half_away, round_half_up

TITLED_UNRATED = "titled-unrated"


@dataclass
class Event:
    key: str                 # tournament id, or the match id of a single match
    name: str
    system: str
    start: date
    end: date
    official: bool
    games: list[tuple[int, str, str, float]] = field(default_factory=list)  # (match, a, b, score_a)
    seq: float = 0


@dataclass
class PlayerState:
    rating: int | None = None       # published rating; None: unrated or excluded
    games: int = 0                  # games rated so far (a first rating counts its pool)
    established: bool = False       # set by [[adjust]] without k = 40 or games < 30: past the 30 games
    listed_k: int | None = None     # [[adjust]] k: the K of the imported list
    listed_games: int | None = None  # [[adjust]] games: rated games behind the imported rating
    reached_top: bool = False       # a published rating ≥ 2400 (fide-2024 K = 10)
    excluded: bool = False          # fell below the floor and has no pool since
    last_game: date | None = None   # of events that reached a list
    activity_from: date | None = None  # the clock of inactivity when no game yet
    pool: list[PoolEntry] = field(default_factory=list)
    lists: list[ListRecord] = field(default_factory=list)


class FideEngine(Engine):
    name = "fide"
    title = "FIDE-style rating lists (seed 002)"
    default_discipline = "chess"
    # One-line notes for parameters without a description (from the README).
    parameter_notes = {
        "ruleset": '"seed" (seed 002) or "fide-2024"',
        "list_every": "lists dated the first day of every month, quarter, half or year",
        "k": "K, whole 1–1000 (default 20); refused with fide-2024",
        "min_rating": "the floor (default 1000; fide-2024: 1400)",
        "first_rating_games": "games a first rating needs (default 9; fide-2024: 5)",
        "closing_days": "an event ending at least this many days before a list date reaches it",
        "official_closing_days": "the same for official = true",
        "pool_months": "an unrated player's pool spans at most this many months of rating periods",
        "inactive_months": "inactive after this many months without a rated game",
    }
    Params = FideParams
    version = "2"                   # 2: fide-2024 to the letter of the 2024 text, fide-2025
    adjust_fields = frozenset({"k", "games"})

    @classmethod
    def check(cls, rating, journal, first_match: int = 0) -> list[Problem]:
        return whole_number_adjusts(rating, journal, first_match)

    def run(self, view) -> RatingResult:
        return _Replay(view).run()


class _Replay:
    def __init__(self, view):
        self.view = view
        self.p: FideParams = view.params
        self.players: dict[str, PlayerState] = {}
        self.events: dict[str, list[HistoryEvent]] = {}
        self.last_played: dict[str, date] = {}

    def state(self, player: str) -> PlayerState:
        s = self.players.get(player)
        if s is None:
            s = self.players[player] = PlayerState()
        return s

    def note(self, player: str, event: HistoryEvent) -> None:
        self.events.setdefault(player, []).append(event)

    # --- building events --------------------------------------------------------

    def collect_events(self) -> list[Event]:
        view, journal = self.view, self.view.journal
        m = journal.matches
        names, tnames = journal.player_codes.names, journal.tournament_codes.names
        by_key: dict[str, Event] = {}
        for i in view.order:
            a, b = names[m.a[i]], names[m.b[i]]
            day = date.fromordinal(m.dates[i])
            self.state(a), self.state(b)
            reason = view.exclusion(i)
            if reason is not None:
                for player, opponent, score in ((a, b, m.score_a[i]), (b, a, 1 - m.score_a[i])):
                    self.note(player, HistoryEvent(day, m.ids[i], "match", opponent, score, None, None, None,
                                                   False, reason))
                continue
            for player in (a, b):
                if self.last_played.get(player, day) <= day:
                    self.last_played[player] = day
            t = m.tournament[i]
            if t >= 0:
                tid = tnames[t]
                event = by_key.get(tid)
                if event is None:
                    tour = journal.tournaments[tid]
                    event = by_key[tid] = Event(tid, tour.name, tour.system, tour.start, tour.end,
                                                tour.official, seq=tour.seq)
            else:
                event = by_key[m.ids[i]] = Event(m.ids[i], f"match {m.ids[i]}", "match", day, day, False,
                                                 seq=m.seq[i])
            event.games.append((i, a, b, m.score_a[i]))
        return sorted(by_key.values(), key=lambda e: (e.end, e.seq))

    # --- the replay ----------------------------------------------------------------

    def run(self) -> FideResult:
        view, p = self.view, self.p
        as_of = view.as_of
        events = self.collect_events()
        reach: dict[date, list[Event]] = {}
        for event in events:
            list_date = reaches_list(event.end, event.official, p)
            if as_of is not None and list_date > as_of:
                self.pending(event, list_date)
                continue
            reach.setdefault(list_date, []).append(event)

        # Lists, adjustments and event starts in date order; a list comes first on its day.
        moments = [(d, 0, 0, "list", d) for d in reach]
        moments += [(a.date, 1, a.seq, "adjust", a) for a in view.adjusts]
        moments += [(e.start, 2, e.seq, "start", e) for evs in reach.values() for e in evs]
        moments.sort(key=lambda item: item[:3])
        snapshots: dict[str, dict[str, int | None]] = {}
        for _, _, _, kind, item in moments:
            if kind == "list":
                self.publish_list(item, reach[item], snapshots)
            elif kind == "adjust":
                self.adjust(item)
            else:
                snapshots[item.key] = {pl: self.state(pl).rating for _, a, b, _ in item.games for pl in (a, b)}

        if as_of is not None:
            final_list = list_in_force(as_of, p.list_every)
        else:
            final_list = max(reach, default=None)
        return self.result(final_list)

    def pending(self, event: Event, list_date: date) -> None:
        for i, a, b, score_a in event.games:
            day = date.fromordinal(self.view.journal.matches.dates[i])
            mid = self.view.journal.matches.ids[i]
            for player, opponent, score in ((a, b, score_a), (b, a, 1 - score_a)):
                self.note(player, HistoryEvent(day, mid, "match", opponent, score, None, None, None, False,
                                               f"waits for the list of {list_date} ({event.key} ends {event.end})"))

    def adjust(self, a) -> None:
        s = self.state(a.player)
        before = s.rating
        if a.set is not None:
            after = int(a.set)
        elif before is not None:
            after = before + int(a.delta)
        else:
            self.note(a.player, HistoryEvent(a.date, None, "adjust", None, None, None, None, None, False,
                                             f"no published rating to change by {a.delta:g}: {a.reason}"))
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
        self.note(a.player, HistoryEvent(a.date, None, "adjust", None, None, before,
                                         None if before is None else after - before, after, True, a.reason))

    # --- one list -------------------------------------------------------------------

    def publish_list(self, list_date: date, events: list[Event], snapshots) -> None:
        p = self.p
        records: dict[str, ListRecord] = {}
        rated_parts: dict[str, list[tuple[Event, EventRecord, list]]] = {}
        pooled: set[str] = set()
        returning: set[str] = set()
        m = self.view.journal.matches

        def record(player: str) -> ListRecord:
            rec = records.get(player)
            if rec is None:
                s = self.state(player)
                rec = records[player] = ListRecord(list_date, s.rating, s.rating, "rated")
                clock = s.last_game or s.activity_from
                if s.rating is not None and clock is not None:
                    start = self.inactive_from(clock)
                    if start < list_date:   # shown inactive on an earlier list
                        self.note(player, HistoryEvent(start, None, "list", None, None, s.rating, None, s.rating,
                                                       True, f"inactive: no rated game since {clock}"))
                        returning.add(player)
            return rec

        for event in events:
            snap = snapshots[event.key]
            # Scores in half-points (whole numbers) so that sums stay exact and fast.
            per_player: dict[str, list[tuple[int, str, int]]] = {}
            for i, a, b, score_a in event.games:
                half = round(2 * score_a)
                per_player.setdefault(a, []).append((i, b, half))
                per_player.setdefault(b, []).append((i, a, 2 - half))
            average = None
            if event.system == "round-robin" and not p.fide:
                average = self.round_robin_average(snap, per_player)
            # §6.1: a match (of two players) in which one player is unrated is not rated.
            unrated_match = p.fide and (event.system == "match" or len(per_player) == 2) and \
                any(snap[pl] is None for pl in per_player)
            for player, games in per_player.items():
                s = self.state(player)
                rec = record(player)
                last = date.fromordinal(max(m.dates[i] for i, _, _ in games))
                s.last_game = max(s.last_game or last, last)
                # Published since the event began: rated with that rating (seed, last paragraph).
                own = None if s.rating is None else (snap[player] if snap[player] is not None else s.rating)
                if unrated_match and snap[player] is None:
                    own = None       # §6.1 also when published since the match began (§8.2.4)
                if own is not None:
                    erec, parts = self.rated_part(event, player, own, games, snap)
                    rated_parts.setdefault(player, []).append((event, erec, parts))
                    rec.events.append(erec)
                else:
                    erec = self.pool_part(event, list_date, player, games, snap, average, unrated_match)
                    rec.events.append(erec)
                    if erec.ignored is None:
                        pooled.add(player)

        for player, parts in rated_parts.items():
            self.apply_changes(player, list_date, parts, record(player))
        for player in pooled:
            self.try_first_rating(player, list_date, record(player))
        for player, rec in records.items():
            s = self.state(player)
            if player in returning and s.rating is not None:
                self.note(player, HistoryEvent(list_date, None, "list", None, None, s.rating, None, s.rating,
                                               True, "active again"))
            rec.after = s.rating
            rec.status = self.status_of(player, list_date)
            s.lists.append(rec)

    def round_robin_average(self, snap, per_player) -> Fraction | None:
        rated = [(snap[pl], Fraction(sum(h for _, _, h in games), 2), len(games))
                 for pl, games in per_player.items() if snap[pl] is not None]
        if not rated:
            return None
        return round_robin_average(rated, len(per_player) - 1)

    def rated_part(self, event: Event, player: str, own: int, games, snap):
        """A rated player's games in one event.

        Per counted game: (match, opponent, half-points, opponent's rating, P_D in hundredths).
        """
        dates = self.view.journal.matches.dates
        parts, skipped = [], []
        capped = uncapped = 0      # games more than 400 apart (§8.3.1)
        for i, opponent, half in games:
            opp = snap[opponent]
            if opp is None:
                skipped.append((i, opponent, half))
                continue
            cap = self.p.cap_for(own, date.fromordinal(dates[i]))
            if self.p.fide and abs(own - opp) > FIDE_2024_DIFFERENCE_CAP:
                capped, uncapped = (capped + 1, uncapped) if cap is not None else (capped, uncapped + 1)
            parts.append((i, opponent, half, opp, expected_hundredths(own, opp, cap)))
        n = len(parts)
        points = Fraction(sum(h for _, _, h, _, _ in parts), 2)
        expected = Fraction(sum(pd for *_, pd in parts), 100)
        perf = None
        if n:
            mean = Fraction(sum(o for _, _, _, o, _ in parts), n)
            perf = round_half_up(mean + dp_for_score(points, n))
        erec = EventRecord(event.key, event.name, own, n, points, expected, None, None, perf)
        notes = [f"{capped} game(s) over 400 apart counted as 400 (§8.3.1)"] if capped else []
        if uncapped:
            notes.append(f"{uncapped} game(s) over 400 apart at the real difference, rated 2650 or more "
                         "(§8.3.1 from 1 October 2025)")
        erec.difference_rule = "; ".join(notes) or None
        return erec, (parts, skipped)

    def apply_changes(self, player: str, list_date: date, parts, rec: ListRecord) -> None:
        p, s = self.p, self.state(player)
        m = self.view.journal.matches
        n_list = sum(erec.games for _, erec, _ in parts)
        k, k_rule = k_and_rule(p, KState(s.games, s.established, s.listed_k, s.listed_games, s.reached_top, s.rating),
                             n_list)
        total, exact_total, running = 0, Fraction(0), s.rating
        for event, erec, (games, skipped) in parts:
            gain = sum(50 * h - pd for _, _, h, _, pd in games)   # Σ(S − P_D) in hundredths
            exact = Fraction(k) * gain / 100
            erec.k, erec.k_rule, erec.exact_change = k, k_rule, exact
            # Seed: each event's change is rounded. FIDE §8.3.4: the rating period's, once.
            erec.change = exact if p.fide else round_half_away(exact)
            exact_total += exact
            total += erec.change
            for i, opponent, half, opp, pd in games:
                share = k * (50 * half - pd) / 100
                self.note(player, HistoryEvent(date.fromordinal(m.dates[i]), m.ids[i], "match", opponent,
                                               half / 2, erec.rating, share, erec.rating + share, True, None,
                                               {"expected": pd / 100, "opponent_rating": opp}))
            for i, opponent, half in skipped:
                self.note(player, HistoryEvent(date.fromordinal(m.dates[i]), m.ids[i], "match", opponent,
                                               half / 2, erec.rating, None, None, False,
                                               "the opponent is unrated on the list in force"))
            extra = {"event": event.key, "k": k, "expected": float(erec.expected), "performance": erec.performance}
            if p.fide:
                extra["k_rule"] = k_rule
            self.note(player, HistoryEvent(list_date, None, "tournament", None, float(erec.points), float(running),
                                           float(erec.change), float(running + erec.change), True, None, extra))
            running += erec.change
        before = s.rating
        if p.fide:
            total = round_half_away(exact_total)
            rec.period_change = exact_total
            self.note(player, HistoryEvent(list_date, None, "list", None, None, before, float(total), before + total,
                                           True, f"rating period: {float(exact_total):+.2f} rounded to {total:+d} "
                                           "(§8.3.4)"))
        s.rating = before + total
        s.games += n_list
        if s.rating >= FIDE_2024_TOP:
            s.reached_top = True
        if s.rating < p.floor:
            self.note(player, HistoryEvent(list_date, None, "list", None, None, before, float(total), None, True,
                                           f"excluded: {s.rating} is below the floor {p.floor}"))
            rec.excluded_at = s.rating
            s.rating, s.excluded, s.pool = None, True, []

    def pool_part(self, event: Event, list_date: date, player: str, games, snap, average,
                  unrated_match: bool = False) -> EventRecord:
        p, s = self.p, self.state(player)
        m = self.view.journal.matches
        against_rated = [(i, o, h) for i, o, h in games if snap[o] is not None]
        round_robin = average is not None
        counted = games if round_robin else against_rated
        points = Fraction(sum(h for _, _, h in counted), 2)
        n = len(counted)
        opp_total = average * n if round_robin else Fraction(sum(snap[o] for _, o, _ in counted))
        perf = round_half_up(opp_total / n + dp_for_score(points, n)) if n else None
        erec = EventRecord(event.key, event.name, None, n, points, None, None, None, perf,
                           rc=opp_total / n if n else None)
        if p.fide and unrated_match:
            erec.ignored = "a match in which one player is unrated is not rated (§6.1)"
        elif p.fide and not against_rated:
            erec.ignored = "no game against a rated opponent (§7.1.4)"
        elif not p.fide and len(against_rated) < 3:
            erec.ignored = f"{len(against_rated)} game(s) against rated opponents; 3 needed (8.2)"
        elif not s.pool and p.fide and points == 0:
            erec.ignored = "first event scored zero (§8.2.1)"
        elif not s.pool and not p.fide and points < 1:
            erec.ignored = f"first rated tournament with {float(points):g} point(s); 1 needed (8.2)"
        if erec.ignored is None:
            s.pool.append(PoolEntry(event.key, list_date, n, points, opp_total, round_robin))
            s.excluded = False
        counted_ids = {i for i, _, _ in counted}
        for i, opponent, half in games:
            if erec.ignored is not None:
                reason = f"ignored: {erec.ignored}"
            elif i in counted_ids:
                reason = f"unrated: counts toward a first rating (list of {list_date})"
            else:
                reason = "unrated against unrated: not counted"
            self.note(player, HistoryEvent(date.fromordinal(m.dates[i]), m.ids[i], "match", opponent,
                                           half / 2, None, None, None, False, reason,
                                           {"opponent_rating": snap[opponent]}))
        return erec

    def try_first_rating(self, player: str, list_date: date, rec: ListRecord) -> None:
        p, s = self.p, self.state(player)
        s.pool = [e for e in s.pool if within_pool_window(e.list_date, list_date, p)]
        if not s.pool:
            return
        first = initial_rating(s.pool, p.ruleset)
        rec.pool = first
        if first.games >= p.games_to_publish and first.rating >= p.floor:
            s.rating, s.games, s.pool = first.rating, s.games + first.games, []
            s.established, s.listed_k, s.listed_games = False, None, None
            s.reached_top = s.reached_top or first.rating >= FIDE_2024_TOP
            rec.published = True
            self.note(player, HistoryEvent(list_date, None, "list", None, float(first.points), None, None,
                                           float(first.rating), True, None,
                                           {"event": "first rating", "rc": float(first.opponents_mean)}))

    # --- statuses and the result ------------------------------------------------------

    def status_of(self, player: str, list_date: date | None) -> str:
        s = self.state(player)
        if s.rating is not None:
            clock = s.last_game or s.activity_from
            if list_date is not None and clock is not None and inactive_on(clock, list_date, self.p.inactive_months):
                return "inactive"
            return "rated"
        title = self.view.journal.players.get(player)
        if s.excluded:
            return "excluded"
        if title is not None and title.title:
            return TITLED_UNRATED
        return "provisional" if s.pool else "unrated"

    def inactive_from(self, clock: date) -> date:
        """The first list on which a player whose last rated game was on `clock` is inactive."""
        p = self.p
        first = list_on_or_after(add_months(clock, p.inactive_months), p.list_every)
        while not inactive_on(clock, first, p.inactive_months):
            first = list_on_or_after(first + timedelta(days=1), p.list_every)
        return first

    def inactivity_events(self, final_list: date | None) -> None:
        """Note the list on which each rated player became inactive (if still inactive)."""
        if final_list is None:
            return
        p = self.p
        for player, s in self.players.items():
            clock = s.last_game or s.activity_from
            if s.rating is None or clock is None or not inactive_on(clock, final_list, p.inactive_months):
                continue
            self.note(player, HistoryEvent(self.inactive_from(clock), None, "list", None, None, s.rating, None, s.rating, True,
                                           f"inactive: no rated game since {clock}"))

    def result(self, final_list: date | None) -> FideResult:
        p = self.p
        self.inactivity_events(final_list)
        standings = {}
        for player, s in self.players.items():
            status = self.status_of(player, final_list)
            extra: dict = {"list": final_list}
            games = s.games
            if s.rating is None:
                pool = [e for e in s.pool if final_list is None or within_pool_window(e.list_date, final_list, p)]
                if pool:
                    first = initial_rating(pool, p.ruleset)
                    games = first.games
                    extra.update(pool_games=first.games, pool_points=float(first.points),
                                 pool_opponents=float(first.opponents_mean), pool_rating=first.rating)
            standings[player] = Standing(player, s.rating, games, status, self.last_played.get(player), extra)
        for events in self.events.values():
            events.sort(key=lambda e: e.date)
        view = self.view
        return FideResult(view.rating.name, view.discipline, FideEngine.name, standings, self.events,
                          hidden_statuses=frozenset(),
                          columns=(("pool_games", "Pool games"), ("pool_rating", "Pool gives")),
                          sections=((TITLED_UNRATED, "Titled players without a rating"),),
                          as_of=view.as_of, lists={pl: s.lists for pl, s in self.players.items()})
