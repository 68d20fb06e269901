"""Replay: pick one rating list's entries for one discipline, in order, and run the engine."""
from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Container, Iterator, Sequence
from datetime import date
from functools import partial
from itertools import compress, repeat
from operator import eq, itemgetter
from typing import Any, NamedTuple

from ..datarecords import datarecord
from ..config import RatingList
from ..contract.batches import MatchBatch, MatchColumns, PairLimit
from ..contract.events import Adjusted, Event, MatchPlayed, TournamentEnded
from ..journal.columns import PACK_BLOCK, extend_packed
from ..journal.model import Adjust, Journal, Player, Tournament


@datarecord(frozen=True)
class JournalView:
    """What an engine sees (contract.view.JournalView), over the journal's storage. Read-only by
    convention: engines build their own state."""

    journal: Journal
    rating: RatingList
    discipline: str
    as_of: date | None
    order: Sequence[int]             # match indices of this discipline, by (date, journal order)
    adjusts: list[Adjust]            # for this list and discipline, by (date, journal order)
    tournaments: list[Tournament]    # of this discipline that ended by as_of, by (end, journal order)
    config: object = None            # the ClubConfig, for engines that need club-wide settings
    every_row: bool = False          # order is every match row of the journal, in journal order
    resumed: bool = False            # just the matches a resumed replay goes on with (build_view's `order`)

    @property
    def params(self) -> Any:
        return self.rating.params

    def whole(self) -> JournalView:
        """The view of every entry of this list and discipline: this one, unless it is a resumed one's
        (a result given back by the cache holds such a view; explain replays the whole)."""
        if not self.resumed:
            return self
        return build_view(_Club(self.journal, self.config), self.rating, self.discipline, self.as_of)

    def events(self, pair_limit: int = 0, unit: str = "games") -> Iterator[Event]:
        """Matches, adjustments and tournament ends in replay order, each match with its reason.

        `pair_limit`: at most that many rated matches per pair of players per date (0: no
        limit); the reason of one beyond it names the limit and the `unit` ("games", "matches").
        """
        m, names, journal = self.journal.matches_for(len(self.order)), self.journal.player_codes.names, self.journal
        tournaments = journal.tournament_codes.names
        pairs = PairLimit(pair_limit)
        for kind, item in timeline(self):
            if kind == "adjust":
                yield Adjusted(item)
            elif kind == "tournament":
                yield TournamentEnded(item)
            else:
                i = item
                day = date.fromordinal(m.dates[i])
                reason = journal.exclusion(i)
                if reason is None and not pairs.allows(m.dates[i], m.a[i], m.b[i]):
                    reason = f"pair limit: more than {pair_limit} rated {unit} of this pair on {day}"
                t = m.tournament[i]
                yield MatchPlayed(i, m.ids[i], day, names[m.a[i]], names[m.b[i]], m.score_a[i], m.length[i],
                                  self.discipline, tournaments[t] if t >= 0 else None, reason, m.seq[i],
                                  not m.rated[i])

    def player(self, player: str) -> Player | None:
        """The [[player]] entry's facts (qualification, title, joined…), None for a player without one."""
        return self.journal.players.get(player)

    def tournament(self, tournament: str) -> Tournament:
        """The [[tournament]] a match names, also one that has not ended by `as_of`."""
        return self.journal.tournaments[tournament]

    @property
    def players(self) -> list[str]:
        """Player ids by code: what a MatchBatch's codes and `player_code` refer to."""
        return self.journal.player_codes.names

    def player_code(self, player: str) -> int:
        return self.journal.player_codes.index[player]

    @property
    def tournament_ids(self) -> list[str]:
        """Tournament ids by code: what a MatchBatch's `tournament` refers to."""
        return self.journal.tournament_codes.names

    def batched_events(self) -> Iterator[Adjusted | MatchBatch]:
        """The compact form of events() for per-match engines: adjustments as Adjusted, the runs of
        matches between them as MatchBatch columns (exclusions decided: `excluded`, `reason`)."""
        for item in self._batches(tournaments=False):
            assert not isinstance(item, TournamentEnded)
            yield item

    def batched_events_with_ends(self) -> Iterator[Adjusted | TournamentEnded | MatchBatch]:
        """batched_events() with tournament ends as TournamentEnded, where events() has them."""
        return self._batches(tournaments=True)

    def _batches(self, tournaments: bool) -> Iterator[Adjusted | TournamentEnded | MatchBatch]:
        m = self.journal.matches_for(len(self.order))  # (a full view's journal: joined by build_view)
        columns = (m.a, m.b, m.score_a, m.length, m.dates)
        excluded = self.journal.exclusions(self.order)
        dated: list[tuple[tuple[float, ...], Adjust | Tournament]] = [
            ((a.date.toordinal(), a.seq), a) for a in self.adjusts]
        if tournaments:   # as timeline() orders them: a tournament ends after every entry of its last day
            dated += [((t.end.toordinal(), float("inf"), t.seq), t) for t in self.tournaments]
            dated.sort(key=lambda item: item[0])
        for entries, rows in split_at(self.journal, self.order, dated):
            for entry in entries:
                yield Adjusted(entry) if isinstance(entry, Adjust) else TournamentEnded(entry)
            if rows:
                yield MatchBatch(rows, *columns, excluded, self.journal.exclusion, m.extra, self.journal.chips,
                                 m.seq, m.tournament, m.rated)

    @property
    def match_columns(self) -> Callable[[], MatchColumns]:
        """What a per-match engine's result builds history from: `view.match_columns()` gives the
        match columns with the players by code. A result keeps the function and calls it when
        history is first asked for (a cached leaderboard never loads the columns); it holds the
        journal, not the view."""
        return partial(match_columns, self.journal)

    def player_columns(self, rows: Sequence[int]) -> tuple[array[int], array[int]]:
        """Player a's and b's codes of these rows, as arrays (for records that find a player's rows)."""
        m = self.journal.matches_for(len(rows))
        if self.every_row and isinstance(rows, array) and len(rows) == len(m.a) and rows == self.order:  # (in C)
            return _copy(m.a), _copy(m.b)  # every row in journal order, a bulk journal's usual case
        return _gathered(m.a, m.b, rows)

    def match_reasons(self) -> tuple[Container[int], Callable[[int], str | None], Sequence[int]]:
        """(rows no list rates, asked row by row; why; each row's tournament code) of every match."""
        from ..journal.exclusions import Exclusions

        return Exclusions(self.journal), self.journal.exclusion, self.journal.matches_for(1).tournament

    def latest_entry(self, tournaments: bool) -> date | None:
        """The date of the view's last match or adjustment (and tournament end, if asked):
        where a rating that changes with time (decay, halving) is read when no date is given."""
        days = [date.fromordinal(self.journal.matches_for(1).dates[self.order[-1]])] if self.order else []
        days += [a.date for a in self.adjusts[-1:]]
        if tournaments:
            days += [t.end for t in self.tournaments[-1:]]
        return max(days) if days else None


def _copy(column: Sequence[int]) -> array[int]:
    """A match column of player codes as a new array of C ints."""
    if isinstance(column, array) and column.typecode == "i":
        return column[:]
    if isinstance(column, memoryview) and column.format == "i":
        return array("i", column.tobytes())
    return extend_packed(array("i"), column)


def _gathered(a_column: Sequence[int], b_column: Sequence[int], rows: Sequence[int]) -> tuple[array[int], array[int]]:
    """The two columns' codes at these rows, as arrays: a block of rows at a time, picked from both
    by one itemgetter (in C, no call a row)."""
    a, b = array("i"), array("i")
    for start in range(0, len(rows), PACK_BLOCK):
        block = rows[start:start + PACK_BLOCK]
        if len(block) == 1:  # (an itemgetter of one item gives the item, not a tuple)
            a.append(a_column[block[0]])
            b.append(b_column[block[0]])
        else:
            pick = itemgetter(*block)
            extend_packed(a, pick(a_column))
            extend_packed(b, pick(b_column))
    return a, b


def timeline(view: JournalView) -> Iterator[tuple[str, Any]]:
    """Matches, adjustments and tournament ends merged in replay order.

    Entries of one date keep their journal order; a tournament ends after
    every entry dated on its last day.
    """
    others = sorted(
        [((a.date.toordinal(), a.seq), "adjust", a) for a in view.adjusts]
        + [((t.end.toordinal(), float("inf"), t.seq), "tournament", t) for t in view.tournaments],
        key=lambda item: item[0],
    )
    m = view.journal.matches_for(len(view.order))
    dates, seqs = m.dates, m.seq
    k = 0
    for i in view.order:
        key = (dates[i], seqs[i])
        while k < len(others) and others[k][0] < key:
            yield others[k][1], others[k][2]
            k += 1
        yield "match", i
    for item in others[k:]:
        yield item[1], item[2]


def match_columns(journal: Journal) -> MatchColumns:
    # (a history reads its player's rows; a report of everyone's gets a full replay's joined columns)
    m, codes = journal.matches_for(1), journal.player_codes
    return MatchColumns(m.a, m.b, m.score_a, m.dates, m.ids, codes.names, codes.index, journal.match)


def split_at(journal: Journal, order: Sequence[int], items: list[tuple[tuple[float, ...], Any]]
             ) -> list[tuple[list[Any], Sequence[int]]]:
    """Split `order` (match rows in replay order) at dated entries: [(entries before the chunk, chunk)].

    `items` are (key, entry), sorted by key: (date ordinal, journal order) for an adjustment,
    which goes before the matches that come after it in replay order (date, journal order).
    """
    if not items:
        return [([], order)]
    m = journal.matches_for(len(order))
    dates, seqs = m.dates, m.seq
    keys = [(dates[i], seqs[i]) for i in order]
    out: list[tuple[list[Any], Sequence[int]]] = []
    start = 0
    pending: list[Any] = []
    for key, item in items:
        cut = bisect_left(keys, key, lo=start)
        if cut > start:
            out.append((pending, order[start:cut]))
            pending, start = [], cut
        pending.append(item)
    out.append((pending, order[start:]))
    return out


def has_amends(journal: Journal) -> bool:
    """Does a match amend another (and may then be out of journal order)? A look at the sparse extras."""
    return any("amends" in extra for extra in journal.matches_for(0).extra.values())


def adjust_discipline(adjust: Adjust, rating: RatingList, journal: Journal, default: str) -> str:
    """The discipline an adjustment means when it does not say (docs/journal.md, `[[adjust]]`)."""
    if adjust.discipline is not None:
        return adjust.discipline
    if rating.disciplines and len(rating.disciplines) == 1:
        return rating.disciplines[0]
    present = [d for d in journal.disciplines() if rating.rates(d)]
    if len(present) == 1:
        return present[0]
    return default


class _Club(NamedTuple):
    """What build_view reads of a ledger."""

    journal: Journal
    config: Any


def build_view(ledger: Any, rating: RatingList, discipline: str, as_of: date | None,
               order: Sequence[int] | None = None) -> JournalView:
    """The view of one list and discipline; `order` given: just those matches (a resumed replay)."""
    journal = ledger.journal
    code = journal.discipline_codes.index.get(discipline, -1)
    limit = as_of.toordinal() if as_of else None
    if order is not None:
        # A resumed replay: the state already holds every adjustment (see resume.resumed_result).
        return JournalView(journal, rating, discipline, as_of, order, [], [], ledger.config, resumed=True)
    m = journal.matches
    disc, dates = m.discipline, m.dates
    # A machine array: a million row numbers as a list would hold a million int objects.
    rows: array[int]
    every_row = False
    from ..fast import rows_where  # by numpy, where the [fast] extra has loaded it for a big journal

    found = rows_where(disc, code, dates, limit)
    if found is not None:
        rows = found
    elif len(journal.discipline_codes) == 1 and limit is None:
        rows = array("i", range(len(disc)) if code == 0 else ())
        every_row = code == 0
    else:
        keep = map(eq, disc, repeat(code))  # (operator.eq: a C call a row; code.__eq__ goes through a slot wrapper)
        if limit is not None:
            keep = map(bool.__and__, keep, map(limit.__ge__, dates))
        rows = array("i", compress(range(len(disc)), keep))
    # Replay order is (date, seq). seq follows the rows, but for a match that amends another, which
    # takes the amended match's seq (reader.amended_seq): then sort by both. Else a stable sort by
    # date keeps journal order within a date; skip it when already sorted.
    if has_amends(journal):
        # By (date, seq) as two stable sorts, seq then date: each key a C call, not a tuple made per row.
        by_seq = sorted(rows, key=m.seq.__getitem__)
        rows, every_row = array("i", sorted(by_seq, key=dates.__getitem__)), False
    elif not journal.dates_sorted():
        rows, every_row = array("i", sorted(rows, key=dates.__getitem__)), False
    single = len(ledger.config.ratings) == 1
    default = ledger.config.club.default_discipline
    adjusts = sorted(
        (a for a in journal.adjusts
         if (a.rating == rating.name or (a.rating is None and single))
         and adjust_discipline(a, rating, journal, default) == discipline
         and (as_of is None or a.date <= as_of)),
        key=lambda a: (a.date, a.seq))
    from ..engines.registry import engine_class

    tournaments = sorted(
        (t for t in journal.tournaments.values()
         if t.discipline == discipline and (as_of is None or t.end <= as_of)),
        key=lambda t: (t.end, t.seq)) if engine_class(rating.engine).tournament_ends else []
    return JournalView(journal, rating, discipline, as_of, rows, adjusts, tournaments, ledger.config, every_row)


def replay(ledger: Any, rating: RatingList, discipline: str, as_of: date | None, standings_only: bool = False) -> Any:
    """The list's replay (`standings_only`: Engine.run_standings, whose result is read for its standings only)."""
    from ..engines.registry import engine_class
    from ..fast import accelerated  # the [fast] extra's compiled loop, for a big full replay; else None

    view = build_view(ledger, rating, discipline, as_of)
    engine = engine_class(rating.engine)()
    state = accelerated(engine.name, view)
    if state is not None:
        return engine.finish(view, state)
    return engine.run_standings(view) if standings_only else engine.run(view)
