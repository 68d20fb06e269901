"""One list: every event that reached it, rated players' changes, unrated players' pools, statuses."""
from __future__ import annotations

from datetime import date
from fractions import Fraction

from ...i18n import catalogue, current
from ..base import HistoryEvent
from ..lines import Kept
from ..rounding import round_half_up
from ..tables import expected_percent
from .values import FIDE_2024_DIFFERENCE_CAP, FIDE_2024_TOP
from .players import Players
from .records import (SCORE, AnyEventRecord, Event, EventRecord, FideEvent, ListRating, ListRecord, PlayerGame, RatedGame,
                      RatedSingle, SingleMatch, Snapshot, half_points, hundredths)
from .rules import KState, PoolEntry, initial_rating, k_and_rule, round_robin_average, within_pool_window
from .tables import dp_for_halves, expected_hundredths, half_away, half_up

ZERO = Fraction(0)
# A rated player's events on a list, and how it rates them (each one's Σ(S − P_D): what K multiplies).
Rated = dict[str, tuple[list[AnyEventRecord], ListRating]]


class _CountedSide:
    """A side of a single match that a replay for the standings alone counts and does not keep
    (Players.lines): one game, as its RatedSingle would say."""
    __slots__ = ()
    games = 1


COUNTED_SIDE = _CountedSide()


class ListPublication:
    """Publishes the list of `list_date` from the events that reached it."""

    def __init__(self, players: Players, list_date: date):
        self.players = players
        self.p = players.p
        self.list_date = list_date
        self.records: dict[str, ListRecord] = {}
        self.returning: set[str] = set()     # shown inactive on an earlier list
        self.fide = self.p.fide
        # Looked up once: a list has a note for nearly every unrated player's event.
        self.ngettext = catalogue(current()).ngettext
        self.ignored_reasons: dict[str, str] = {}
        self.too_few: dict[int, str] = {}      # seed 8.2's reason by the count of games against rated players
        self.counts_reason = f"unrated: counts toward a first rating (list of {list_date})"
        self.floor = self.p.floor              # (a property of the params: asked for every rated player)
        self.with_events: set[str] = set()     # rated players with an EventRecord among their events
        self.lines = players.lines             # False: no history, a single match's sides counted only

    def record(self, player: str) -> ListRecord:
        rec = self.records.get(player)
        if rec is None:
            s = self.players.state(player)
            rec = self.records[player] = ListRecord(self.list_date, s.rating, s.rating, "rated")
            clock = s.clock
            if s.rating is not None and clock is not None:
                start = self.players.inactive_from(clock)
                if start < self.list_date:
                    self.players.note_inactive(player, start, clock, s.rating)
                    self.returning.add(player)
        return rec

    def publish(self, events: list[Event]) -> None:
        """Rate the events (each with its snapshot, dropped once used), then the list's changes and pools."""
        players, fide = self.players, self.fide
        rated: Rated = {}
        pooled: set[str] = set()
        for event in events:
            if type(event) is SingleMatch:
                self.one_game(event, rated, pooled)
                continue
            assert isinstance(event, FideEvent)
            snap, event.snapshot = event.snapshot, None
            assert snap is not None, "every event's snapshot is taken on its first day"
            per_player: dict[str, list[PlayerGame]] = {}
            for g in event.games:
                half = round(2 * g.score_a)
                per_player.setdefault(g.a, []).append(PlayerGame(g.match, g.date, g.b, half))
                per_player.setdefault(g.b, []).append(PlayerGame(g.match, g.date, g.a, 2 - half))
            average = None
            if event.system == "round-robin" and not fide:
                average = self.round_robin_average(snap, per_player)
            # §6.1: a match (of two players) in which one player is unrated is not rated.
            unrated_match = fide and (event.system == "match" or len(per_player) == 2) and \
                any(snap[pl] is None for pl in per_player)
            for player, games in per_player.items():
                s = players.state(player)
                rec = self.record(player)
                last = games[0].date if len(games) == 1 else max(g.date for g in games)
                s.last_game = max(s.last_game or last, last)
                # Published since the event began: rated with that rating (seed, last paragraph).
                own = None if s.rating is None else (snap[player] if snap[player] is not None else s.rating)
                if unrated_match and snap[player] is None:
                    own = None       # §6.1 also when published since the match began (§8.2.4)
                if own is not None:
                    erec, gain = self.rated_part(event, own, games, snap)
                    self.rated_event(rated, player, erec, gain)
                else:
                    erec = self.pool_part(event, player, games, snap, average, unrated_match)
                    if erec.ignored is None:
                        pooled.add(player)
                rec.events.append(erec)

        records = self.records            # (every player of an event has a record by now)
        for player, (erecs, rating) in rated.items():
            self.apply_changes(player, erecs, rating, records[player])
        for player in pooled:
            self.try_first_rating(player, self.record(player))
        for player, rec in self.records.items():
            s = players.state(player)
            if player in self.returning and s.rating is not None:
                players.note(player, HistoryEvent(self.list_date, None, "list", None, None, s.rating, None, s.rating,
                                                  True, "active again"))
            rec.after = s.rating
            rec.status = players.status_of(player, self.list_date)
            s.lists.append(rec)

    def rated_part_of(self, rated: Rated, player: str) -> tuple[list[AnyEventRecord], ListRating]:
        """A rated player's events on this list, and how it rates them."""
        parts = rated.get(player)
        if parts is None:
            parts = rated[player] = ([], ListRating(self.list_date))
        return parts

    def rated_event(self, rated: Rated, player: str, erec: EventRecord, gain: int) -> None:
        """A rated player's event of more than a single match's side (an EventRecord) on this list."""
        erecs, rating = self.rated_part_of(rated, player)
        erecs.append(erec)
        rating.gains.append(gain)
        self.with_events.add(player)

    def one_game(self, g: SingleMatch, rated: Rated, pooled: set[str]) -> None:
        """publish's steps for a match outside any tournament (most events of a big journal), its two
        players in turn: a side rated against a rated opponent is one RatedSingle."""
        states, records, day = self.players.states, self.records, g.end
        a, b, rating_a, rating_b = g.a, g.b, g.rating_a, g.rating_b
        state_a, state_b = states[a], states[b]
        if rating_a is None or rating_b is None or state_a.rating is None or state_b.rating is None or self.fide:
            self.one_game_in_full(g, rated, pooled)
            return
        # Seed 002, both players rated on the list in force on its day and still (most matches): each
        # rated with that rating, D as it is, b's P_D 100 − a's (the table is symmetric).
        p_d, half, key, lines = expected_percent(rating_a - rating_b), g.half, g.key, self.lines
        for player, s, opponent, own, opp, own_half, own_p_d in ((a, state_a, b, rating_a, rating_b, half, p_d),
                                                                 (b, state_b, a, rating_b, rating_a, 2 - half, 100 - p_d)):
            rec = records.get(player) or self.record(player)
            if s.last_game is None or s.last_game < day:
                s.last_game = day
            erecs, rating = rated.get(player) or self.rated_part_of(rated, player)
            gains = rating.gains
            if lines:
                erec = RatedSingle(key, day, opponent, own_half, own, opp, own_p_d, None, rating, len(gains))
                rec.events.append(erec)
                erecs.append(erec)
            else:   # (counted: apply_changes asks how many games, and reads an EventRecord's numbers only)
                erecs.append(COUNTED_SIDE)  # type: ignore[arg-type]
            gains.append(50 * own_half - own_p_d)

    def one_game_in_full(self, g: SingleMatch, rated: Rated, pooled: set[str]) -> None:
        """one_game's steps for every case: an unrated side or opponent, FIDE's rulesets."""
        states, records, day, fide = self.players.states, self.records, g.end, self.fide
        rating_a, rating_b = g.rating_a, g.rating_b
        # §6.1 (see publish): of one game, the event is a match of two players.
        unrated_match = fide and (rating_a is None or rating_b is None)
        for player, opponent, snapped, opp, half in ((g.a, g.b, rating_a, rating_b, g.half),
                                                     (g.b, g.a, rating_b, rating_a, 2 - g.half)):
            s = states[player]
            rec = records.get(player)
            if rec is None:
                rec = self.record(player)
            if s.last_game is None or s.last_game < day:
                s.last_game = day
            # Published since the event began: rated with that rating (see publish).
            own = s.rating if s.rating is None or snapped is None else snapped
            if unrated_match and snapped is None:
                own = None
            erec: AnyEventRecord
            if own is None or opp is None:    # (an unrated side, or an unrated opponent: as publish does)
                game, snap = [PlayerGame(g.key, day, opponent, half)], {player: snapped, opponent: opp}
            if own is None:
                erec = self.pool_part(g, player, game, snap, None, unrated_match)
                if erec.ignored is None:
                    pooled.add(player)
            else:
                erecs, rating = self.rated_part_of(rated, player)
                if opp is None:
                    erec, gain = self.rated_part(g, own, game, snap)
                    self.with_events.add(player)
                elif fide:
                    cap = self.p.cap_for(own, day)
                    p_d = expected_hundredths(own, opp, cap)
                    far = abs(own - opp) > FIDE_2024_DIFFERENCE_CAP
                    erec = RatedSingle(g.key, day, opponent, half, own, opp, p_d,
                                       self.difference_rule(int(cap is not None), int(cap is None)) if far else None,
                                       rating, len(rating.gains))
                    gain = 50 * half - p_d
                else:   # seed 002: D as it is
                    p_d = expected_percent(own - opp)
                    erec = RatedSingle(g.key, day, opponent, half, own, opp, p_d, None, rating, len(rating.gains))
                    gain = 50 * half - p_d
                erecs.append(erec)
                rating.gains.append(gain)
            rec.events.append(erec)

    def difference_rule(self, capped: int, uncapped: int) -> str | None:
        """The event's note on games more than 400 apart (§8.3.1), if any."""
        if not capped and not uncapped:
            return None
        ngettext = self.ngettext
        notes = [ngettext("{n} game over 400 apart counted as 400 (§8.3.1)",
                          "{n} games over 400 apart counted as 400 (§8.3.1)", capped).format(n=capped)] if capped else []
        if uncapped:
            notes.append(ngettext("{n} game over 400 apart at the real difference, rated 2650 or more "
                                  "(§8.3.1 from 1 October 2025)", "{n} games over 400 apart at the real difference, "
                                  "rated 2650 or more (§8.3.1 from 1 October 2025)", uncapped).format(n=uncapped))
        return "; ".join(notes)

    @staticmethod
    def round_robin_average(snap: Snapshot, per_player: dict[str, list[PlayerGame]]) -> Fraction | None:
        rated = [(rating, Fraction(sum(g.half for g in games), 2), len(games))
                 for pl, games in per_player.items() if (rating := snap[pl]) is not None]
        if not rated:
            return None
        return round_robin_average(rated, len(per_player) - 1)

    def rated_part(self, event: Event, own: int, games: list[PlayerGame],
                   snap: Snapshot) -> tuple[EventRecord, int]:
        """A rated player's games in one event: those against rated opponents count.
        With the record, Σ(S − P_D) in hundredths (what K multiplies)."""
        fide, cap_for = self.fide, self.p.cap_for
        counted, skipped = [], []
        capped = uncapped = 0      # games more than 400 apart (§8.3.1)
        halves = expected_total = opponents_total = 0      # sums in whole numbers: exact, no Fraction per game
        for g in games:
            opp = snap[g.opponent]
            if opp is None:
                skipped.append(g)
                continue
            cap = cap_for(own, g.date)
            if fide and abs(own - opp) > FIDE_2024_DIFFERENCE_CAP:
                capped, uncapped = (capped + 1, uncapped) if cap is not None else (capped, uncapped + 1)
            expected = expected_hundredths(own, opp, cap)
            counted.append(RatedGame(g, opp, expected))
            halves += g.half
            expected_total += expected
            opponents_total += opp
        n = len(counted)
        # Rc + dp(p), rounded 0.5 up: ⌊(Σ opponents + n·dp) / n + ½⌋.
        perf = half_up(opponents_total + n * dp_for_halves(halves, n), n) if n else None
        erec = EventRecord(event.key, event.name, own, n, half_points(halves), hundredths(expected_total), None,
                           None, perf, difference_rule=self.difference_rule(capped, uncapped), counted=tuple(counted),
                           skipped=tuple(skipped))
        return erec, 50 * halves - expected_total

    def apply_changes(self, player: str, erecs: list[AnyEventRecord], rating: ListRating, rec: ListRecord) -> None:
        """The list's change of a rated player. Sums are kept in hundredths (whole numbers): the
        same values, and the same floats, as the Fractions they stand for."""
        p, players, list_date, fide = self.p, self.players, self.list_date, self.fide
        s = players.states[player]
        assert s.rating is not None, "only a rated player's events are rated"
        singles = player not in self.with_events     # single matches only (most players' lists)
        n_list = len(erecs) if singles else sum([erec.games for erec in erecs])
        k, k_rule = k_and_rule(p, KState(s.games, s.established, s.listed_k, s.listed_games, s.reached_top, s.rating),
                               n_list)
        history: list[Kept] = players.history.setdefault(player, []) if self.lines else []
        running = 100 * s.rating               # hundredths
        # (what a RatedSingle reads: K, its change and the rating before it follow from these)
        rating.k, rating.k_rule, rating.fide, rating.rated_from = k, k_rule, fide, running
        gains = rating.gains
        if singles:
            if fide:
                total, exact_total = 0, k * sum(gains)      # (the period's total is rounded below)
            else:
                exacts = [k * gain for gain in gains]
                exact_total = sum(exacts)
                # each event's change rounded, halves away from zero: half_away(exact, 100)
                total = sum([(2 * exact + 100) // 200 if exact >= 0 else -((100 - 2 * exact) // 200)
                             for exact in exacts])
        else:
            total = exact_total = 0
            for erec, gain in zip(erecs, gains):
                exact = k * gain                    # K × Σ(S − P_D), hundredths
                # Seed: each event's change is rounded, halves away from zero. FIDE §8.3.4: the rating period's, once.
                rounded = 0 if fide else half_away(exact, 100)
                if type(erec) is EventRecord:
                    erec.k, erec.k_rule, erec.exact_change = k, k_rule, hundredths(exact)
                    erec.list_date, erec.running = list_date, running
                    erec.change = erec.exact_change if fide else rounded
                running += exact if fide else 100 * rounded
                total += rounded
                exact_total += exact
        history.extend(erecs)   # their lines are made when read (EventRecord.lines)
        before = s.rating
        if fide:
            total = half_away(exact_total, 100)
            rec.period_change = Fraction(exact_total, 100)
            history.append(HistoryEvent(list_date, None, "list", None, None, before, float(total),
                                        before + total, True, f"rating period: {exact_total / 100:+.2f} "
                                        f"rounded to {total:+d} (§8.3.4)"))
        s.rating = before + total
        s.games += n_list
        if s.rating >= FIDE_2024_TOP:
            s.reached_top = True
        if s.rating < self.floor:
            history.append(HistoryEvent(list_date, None, "list", None, None, before, float(total), None, True,
                                        f"excluded: {s.rating} is below the floor {self.floor}"))
            rec.excluded_at = s.rating
            s.rating, s.excluded, s.pool = None, True, []

    def pool_part(self, event: Event, player: str, games: list[PlayerGame], snap: Snapshot,
                  average: Fraction | None, unrated_match: bool = False) -> EventRecord:
        players, list_date, ngettext, fide = self.players, self.list_date, self.ngettext, self.fide
        s = players.state(player)
        against_rated = [g for g in games if snap[g.opponent] is not None]
        round_robin = average is not None
        counted = games if round_robin else against_rated
        halves = sum(g.half for g in counted)
        points = half_points(halves)
        n = len(counted)
        opp_total: Fraction = ZERO
        perf = rc = None
        if average is not None:
            opp_total = average * n
            perf = round_half_up(average + dp_for_halves(halves, n))
            rc = average
        elif n:
            opponents = sum(snap[g.opponent] or 0 for g in counted)
            opp_total, rc = Fraction(opponents), Fraction(opponents, n)
            perf = half_up(opponents + n * dp_for_halves(halves, n), n)
        erec = EventRecord(event.key, event.name, None, n, points, None, None, None, perf, rc=rc)
        if fide and unrated_match:
            erec.ignored = "a match in which one player is unrated is not rated (§6.1)"
        elif fide and not against_rated:
            erec.ignored = "no game against a rated opponent (§7.1.4)"
        elif not fide and len(against_rated) < 3:
            few = len(against_rated)
            erec.ignored = self.too_few.get(few)
            if erec.ignored is None:    # the same words for the whole list: made once per count
                erec.ignored = self.too_few[few] = ngettext("{n} game against rated opponents; 3 needed (8.2)",
                                                            "{n} games against rated opponents; 3 needed (8.2)",
                                                            few).format(n=few)
        elif not s.pool and fide and halves == 0:
            erec.ignored = "first event scored zero (§8.2.1)"
        elif not s.pool and not fide and halves < 2:
            erec.ignored = ngettext("first rated tournament with {points} point; 1 needed (8.2)",
                                    "first rated tournament with {points} points; 1 needed (8.2)",
                                    1 if halves == 2 else 2).format(points=f"{halves / 2:g}")
        history = players.history.setdefault(player, [])
        if erec.ignored is not None:
            # One text for every game of the event (and, the same words, one string for the list).
            reason = self.ignored_reasons.get(erec.ignored)
            if reason is None:
                reason = self.ignored_reasons[erec.ignored] = f"ignored: {erec.ignored}"
            for g in games:
                history.append(HistoryEvent(g.date, g.match, "match", g.opponent, SCORE[g.half], None, None, None,
                                            False, reason, {"opponent_rating": snap[g.opponent]}))
            return erec
        s.pool.append(PoolEntry(event.key, list_date, n, points, opp_total, round_robin))
        s.excluded = False
        counted_ids = {g.match for g in counted}
        for g in games:
            reason = self.counts_reason if g.match in counted_ids else "unrated against unrated: not counted"
            history.append(HistoryEvent(g.date, g.match, "match", g.opponent, SCORE[g.half], None, None, None,
                                        False, reason, {"opponent_rating": snap[g.opponent]}))
        return erec

    def try_first_rating(self, player: str, rec: ListRecord) -> None:
        p, s = self.p, self.players.state(player)
        s.pool = [e for e in s.pool if within_pool_window(e.list_date, self.list_date, p)]
        if not s.pool:
            return
        first = initial_rating(s.pool, p.ruleset)
        rec.pool = first
        if first.games >= p.games_to_publish and first.rating >= p.floor:
            s.rating, s.games, s.pool = first.rating, s.games + first.games, []
            s.established, s.listed_k, s.listed_games = False, None, None
            s.reached_top = s.reached_top or first.rating >= FIDE_2024_TOP
            rec.published = True
            self.players.note(player, HistoryEvent(self.list_date, None, "list", None, float(first.points), None,
                                                   None, float(first.rating), True, None,
                                                   {"event": "first rating", "rc": float(first.opponents_mean)}))
