"""The federation rating lists of seed 000 (МФСНБ, 2009).

Ratings change once per list period (a quarter by default). Every competition
— a tournament, or a single match outside any tournament — that ends in a
period is computed from the ratings at the period's start:

    R = 10·(P − E),  E = M·Pe (swiss, knockout, match, single)
                     E = H·Pe − ½ (round-robin; or (H − 1)·Pe when strict)

with Pe from the seed's table at (own rating − Ra), Ra the opponents' mean
rating rounded (½ up), and R rounded to a whole number, halves away from
zero. Arithmetic is exact (fractions). The list at the period's end is
old + the sum of the period's R − the inactivity penalty. docs/mfsnb.md
states every reading of the seed taken here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ..errors import Problem
from ..periods import Period, add_months, months_between, period_containing, periods_from
from .base import Engine, HistoryEvent, Params, RatingResult, ReportRow, Standing, whole_number_adjusts
from .events import Adjusted, TournamentEnded
from .policies import check_exclusion_after_ladder, check_ladder, penalty_owed
from .rounding import round_half_away, round_half_up
from .tables import expected_percent

DEFAULT_STARTS = {"MS": 2000, "KMS": 1900, "1": 1800, "2": 1600, "3": 1500}
DEFAULT_INACTIVITY = ((3, 25), (6, 50), (9, 75), (12, 100), (18, 150))
RETURNED = "returned: commission decision needed"
EXCLUDED = "excluded"
HALF = Fraction(1, 2)


class MfsnbParams(Params):
    period: Literal["month", "quarter", "half", "year"] = Field("quarter", description="one list per period: month, quarter, half or year")
    start: int = Field(1500, ge=0, description="first rating without a qualification")
    start_by_qualification: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_STARTS),
                                                  description="first rating by qualification")
    round_robin: Literal["seed", "strict"] = Field("seed", description='"seed": E = H·Pe − ½; "strict": E = (H − 1)·Pe')
    protect_first_place: bool = Field(True, description="a clear first place never lowers the rating")
    protect_wins: bool = Field(True, description="nor does a win over an opponent more than protect_win_gap away")
    protect_win_gap: int = Field(150, ge=0, description="whole points")
    protect_direction: Literal["any", "stronger"] = Field("any", description='"any": opponent above or below; "stronger": only above')
    inactivity: tuple[tuple[int, int], ...] = Field(DEFAULT_INACTIVITY, description="[months of break, total penalty]")
    exclude_after_months: int = Field(24, ge=0, le=1200, description="a longer break takes the player off the list; 0 = never")
    official_only: bool = Field(False, description="only tournaments with official = true count")

    @field_validator("start_by_qualification")
    @classmethod
    def _known_qualifications(cls, value: dict[str, int]) -> dict[str, int]:
        unknown = sorted(set(value) - set(DEFAULT_STARTS))
        if unknown:
            raise ValueError(f"unknown qualification(s) {', '.join(unknown)}; allowed: {', '.join(DEFAULT_STARTS)}")
        if any(v < 0 for v in value.values()):
            raise ValueError("start ratings must not be negative")
        # The seed's table fills what the config leaves out.
        return {**DEFAULT_STARTS, **value}

    @field_validator("inactivity")
    @classmethod
    def _growing_table(cls, value):
        return check_ladder(value)

    @model_validator(mode="after")
    def _exclusion_after_table(self):
        check_exclusion_after_ladder(self.exclude_after_months, self.inactivity)
        return self


# --- the seed's arithmetic, pure ------------------------------------------------

def expected_result(system: str, games: int, participants: int, pe: Fraction, round_robin: str) -> Fraction:
    if system == "round-robin":
        return (participants - 1) * pe if round_robin == "strict" else participants * pe - HALF
    return games * pe


@dataclass
class Computation:
    ra: int
    difference: int
    pe: Fraction
    expected: Fraction
    points: Fraction
    change: int           # 10·(P − E) rounded, before any protection


def compute(own: int, opponents: list[int], points: Fraction, system: str,
            participants: int, round_robin: str = "seed") -> Computation:
    ra = round_half_up(Fraction(sum(opponents), len(opponents)))
    difference = own - ra
    pe = Fraction(expected_percent(difference), 100)
    e = expected_result(system, len(opponents), participants, pe, round_robin)
    return Computation(ra, difference, pe, e, points, round_half_away(10 * (points - e)))


# --- one list period per record ------------------------------------------------

@dataclass
class PeriodRecord:
    before: int | None                   # on the previous list; None: not on it
    competitions: list[dict] = field(default_factory=list)
    games: int = 0
    points: Fraction = Fraction(0)
    expected: Fraction = Fraction(0)
    change: int = 0
    adjust: int = 0
    adjusted: bool = False
    reinstated: bool = False
    penalty: int = 0
    after: int | None = None
    status: str = ""
    break_months: int | None = None


class ListBuilder:
    """Replays the timeline and publishes a list at every period end."""

    def __init__(self, view):
        self.view = view
        self.p: MfsnbParams = view.params
        self.players = view.journal.players
        self.base: dict[str, int] = {}       # rating for this period's competitions
        self.pending: dict[str, int] = {}    # competition changes not yet published
        self.listed: dict[str, int] = {}     # the last published rating
        self.status: dict[str, str] = {}
        self.since: dict[str, date] = {}     # start of the current break
        self.taken: dict[str, int] = {}      # penalty already taken for that break
        self.excluded: set[str] = set()
        self.returned: set[str] = set()
        self.games: dict[str, int] = {}
        self.last_played: dict[str, date] = {}
        self.events: dict[str, list[HistoryEvent]] = {}
        self.records: dict[str, PeriodRecord] = {}
        self.lists: list[tuple[Period, dict[str, PeriodRecord]]] = []
        self.periods = None
        self.period: Period | None = None

    # -- helpers
    def start_rating(self, player: str) -> int:
        info = self.players.get(player)
        q = info.qualification if info else None
        return self.p.start_by_qualification.get(q, self.p.start) if q else self.p.start

    def enter(self, player: str, day: date) -> None:
        if player not in self.base:
            self.base[player] = self.start_rating(player)
            self.pending[player] = 0
            self.since[player] = day
            self.taken[player] = 0

    def record(self, player: str) -> PeriodRecord:
        rec = self.records.get(player)
        if rec is None:
            rec = self.records[player] = PeriodRecord(self.listed.get(player))
        return rec

    def event(self, player: str, e: HistoryEvent) -> None:
        self.events.setdefault(player, []).append(e)

    def advance_to(self, day: date) -> None:
        """Publish every list dated before `day`."""
        if self.periods is None:
            self.periods = periods_from(day, self.p.period)
            self.period = next(self.periods)
        while self.period.end < day:
            self.publish()

    # -- entries
    def adjust(self, a) -> None:
        player = a.player
        rec = self.record(player)
        known = player in self.base
        self.enter(player, a.date)
        current = self.base[player] + self.pending[player]
        if a.set is not None:
            amount = int(a.set) - current if known else 0
            # A set is the rating from that day: earlier changes of the period are superseded.
            self.base[player], self.pending[player] = int(a.set), 0
            if player in self.excluded or player in self.returned or not known:
                rec.reinstated = known
                self.excluded.discard(player)
                self.returned.discard(player)
                self.since[player], self.taken[player] = a.date, 0
        else:
            amount = int(a.delta)
            self.base[player] += amount
        rec.adjust += amount
        rec.adjusted = True
        after = current + amount if known or a.set is None else int(a.set)
        self.event(player, HistoryEvent(a.date, None, "adjust", None, None, current if known else None,
                                        amount if known else None, after, True, a.reason))

    def competition(self, cid: str, system: str, day: date, games: dict[str, list[tuple[str, float]]],
                    participants: int, first_place: str | None) -> None:
        for player in games:
            self.enter(player, day)
        base, p = self.base, self.p
        for player, played in games.items():
            own = base[player]
            ratings = [base[opponent] for opponent, _ in played]
            points = sum((Fraction(score) for _, score in played), Fraction(0))
            c = compute(own, ratings, points, system, participants, p.round_robin)
            protected = None
            if c.change < 0:
                protected = self.protection(player, own, played, first_place)
            change = 0 if protected else c.change
            self.pending[player] += change
            rec = self.record(player)
            rec.competitions.append({
                "id": cid, "system": system, "opponents": len(played),
                "ratings": ratings, "Ra": c.ra, "difference": c.difference, "Pe": float(c.pe),
                "E": float(c.expected), "P": float(points), "change": change,
                "protected": f"{protected}: {c.change:+d} → 0" if protected else None})
            rec.games += len(played)
            rec.points += points
            rec.expected += c.expected
            rec.change += change
            self.games[player] = self.games.get(player, 0) + len(played)
            self.last_played[player] = day
            self.since[player], self.taken[player] = day, 0
            if player in self.excluded:
                self.excluded.discard(player)
                self.returned.add(player)
            self.event(player, HistoryEvent(
                day, cid, "competition", None, float(points), own, change, None, True,
                f"protected, {protected}: {c.change:+d} → 0" if protected else None,
                {"expected": float(c.expected)}))

    def protection(self, player: str, own: int, played, first_place: str | None) -> str | None:
        p = self.p
        if p.protect_first_place and player == first_place:
            return "clear first place"
        if p.protect_wins:
            for opponent, score in played:
                gap = self.base[opponent] - own
                if score == 1.0 and (gap > p.protect_win_gap if p.protect_direction == "stronger"
                                     else abs(gap) > p.protect_win_gap):
                    return f"won vs {opponent} ({gap:+d})"
        return None

    # -- the list
    def publish(self) -> None:
        period, day = self.period, self.period.end
        p = self.p
        rows: dict[str, PeriodRecord] = {}
        for player in sorted(self.base):
            rec = self.records.get(player)
            if player in self.excluded and rec is None:
                continue
            rec = rec or PeriodRecord(self.listed.get(player))
            value = self.base[player] + self.pending[player]
            played = bool(rec.competitions)
            if not played and player not in self.excluded:
                owed = int(penalty_owed(self.since[player], day, p.inactivity))  # whole points
                rec.penalty = -(owed - self.taken[player])
                self.taken[player] = owed
                value += rec.penalty
                rec.break_months = months_between(self.since[player], day)
                if p.exclude_after_months and add_months(self.since[player], p.exclude_after_months) < day:
                    self.excluded.add(player)
                    self.returned.discard(player)
            if player in self.excluded:
                status = EXCLUDED
            elif player in self.returned:
                status = RETURNED
            elif rec.reinstated:
                status = "reinstated"
            elif player not in self.listed:
                status = "new"
            elif played:
                status = "active"
            else:
                status = f"inactive ({rec.break_months} months)"
            rec.after, rec.status = value, status
            before = rec.before
            self.base[player], self.pending[player] = value, 0
            self.listed[player] = value
            self.status[player] = status
            rows[player] = rec
            self.event(player, HistoryEvent(
                day, None, "list", None, None, before, None if before is None else value - before,
                value, True, None, {"penalty": rec.penalty or None}))
        self.lists.append((period, rows))
        self.records = {}
        self.period = next(self.periods)


# --- the engine ----------------------------------------------------------------

class MfsnbEngine(Engine):
    name = "mfsnb"
    title = "the 2009 nardy federation's period lists, R = 10·(P − E) (seed 000)"
    Params = MfsnbParams

    @classmethod
    def check(cls, rating, journal, first_match: int = 0) -> list[Problem]:
        return whole_number_adjusts(rating, journal, first_match)

    def run(self, view) -> MfsnbResult:
        p: MfsnbParams = view.params
        journal = view.journal
        m = journal.matches
        names = journal.player_codes.names
        tournament_names = journal.tournament_codes.names
        ended = {t.id: t for t in view.tournaments}
        book = ListBuilder(view)

        # Each tournament's rated games and participants, gathered once.
        rated_games: dict[str, list[int]] = {}
        entrants: dict[str, set[str]] = {}
        for i in view.order:
            t = m.tournament[i]
            if t < 0:
                continue
            tid = tournament_names[t]
            if i not in journal.voided:
                entrants.setdefault(tid, set()).update((names[m.a[i]], names[m.b[i]]))
            if view.exclusion(i) is None:
                rated_games.setdefault(tid, []).append(i)

        for event in view.events():
            if isinstance(event, Adjusted):
                book.advance_to(event.adjust.date)
                book.adjust(event.adjust)
                continue
            if isinstance(event, TournamentEnded):
                item = event.tournament
                book.advance_to(item.end)
                if p.official_only and not item.official:
                    continue
                indices = rated_games.get(item.id, [])
                games = collect(indices, m, names)
                if games:
                    people = entrants.get(item.id, set()) | {s.player for s in item.standings or ()}
                    book.competition(item.id, item.system, item.end, games, len(people), first_place(item, games))
                continue
            day, first, second, tid = event.date, event.a, event.b, event.tournament
            book.advance_to(day)
            reason = event.reason
            if reason is None and p.official_only and (tid is None or not journal.tournaments[tid].official):
                reason = "not an official competition (official_only)"
            if reason is None and tid is not None and tid not in ended:
                reason = f"counts when tournament {tid} ends ({journal.tournaments[tid].end})"
            elif reason is None:
                end = ended[tid].end if tid else day
                listed_on = period_containing(end, p.period).end
                reason = (f"counted in {tid} on the list of {listed_on}" if tid
                          else f"a competition of its own, on the list of {listed_on}")
            for player, opponent, score in ((first, second, event.score_a), (second, first, 1.0 - event.score_a)):
                book.event(player, HistoryEvent(day, event.entry, "match", opponent, score, None, None, None,
                                             False, reason))
            if tid is None and event.reason is None and not p.official_only:
                book.competition(event.entry, "single", day,
                                 {first: [(second, event.score_a)], second: [(first, 1.0 - event.score_a)]}, 2, None)

        if book.periods is not None:
            if view.as_of is not None:
                book.advance_to(view.as_of)
                if book.period.end == view.as_of:
                    book.publish()
            else:
                book.publish()   # the last period with entries is complete
        return MfsnbResult.build(view, book)


def collect(indices: list[int], m, names) -> dict[str, list[tuple[str, float]]]:
    """Per player: (opponent, score) of each rated game, in replay order."""
    games: dict[str, list[tuple[str, float]]] = {}
    for i in indices:
        a, b, s = names[m.a[i]], names[m.b[i]], m.score_a[i]
        games.setdefault(a, []).append((b, s))
        games.setdefault(b, []).append((a, 1.0 - s))
    return games


def first_place(tournament, games) -> str | None:
    """The clear, unshared winner: from the standings, else the single top score."""
    if tournament.standings:
        firsts = [s for s in tournament.standings if s.low == 1]
        if len(firsts) == 1 and firsts[0].high == 1:
            return firsts[0].player
        return None
    totals = sorted(((sum(score for _, score in played), player) for player, played in games.items()), reverse=True)
    if len(totals) == 1 or totals[0][0] > totals[1][0]:
        return totals[0][1]
    return None


# --- the result ----------------------------------------------------------------

@dataclass
class MfsnbResult(RatingResult):
    builder: Any = None

    @classmethod
    def build(cls, view, b: ListBuilder) -> "MfsnbResult":
        result = cls(view.rating.name, view.discipline, MfsnbEngine.name, {}, b.events,
                     hidden_statuses=frozenset({EXCLUDED}),
                     columns=(("pending", "Pending"),),
                     sections=((RETURNED, "Returned: commission decision needed"),),
                     as_of=view.as_of, builder=b)
        result.standings = result._standings()
        return result

    def _standings(self) -> dict[str, Standing]:
        b = self.builder
        out = {}
        for player in b.base:
            rec = b.records.get(player)     # what the unpublished period has done so far
            if player in b.returned:
                status = RETURNED
            elif player in b.excluded:
                status = EXCLUDED
            elif rec and rec.reinstated:
                status = "reinstated"
            else:
                status = b.status.get(player, "new")
            pending = None
            if rec and (rec.competitions or rec.adjusted):
                now = b.base[player] + b.pending[player]
                pending = now - b.listed[player] if player in b.listed else rec.change
            out[player] = Standing(player, b.listed.get(player), b.games.get(player, 0), status,
                                   b.last_played.get(player), {"pending": pending})
        return out

    def lists(self) -> list[tuple[Period, dict[str, PeriodRecord]]]:
        return self.builder.lists

    def report(self, start: date, end: date) -> list[ReportRow]:
        b = self.builder
        if b.periods is not None and self.as_of is None:
            # Lists after the last entry still take penalties: publish them on demand.
            while b.lists and b.lists[-1][0].end < end:
                b.publish()
        chained: dict[str, list[PeriodRecord]] = {}
        for period, rows in b.lists:
            if period.end >= start and period.start <= end:
                for player, rec in rows.items():
                    chained.setdefault(player, []).append(rec)
        out = []
        for player, recs in chained.items():
            competitions = [c for r in recs for c in r.competitions]
            adjusted = any(r.adjusted for r in recs)
            out.append(ReportRow(
                player, recs[0].before, sum(r.games for r in recs), float(sum(r.points for r in recs)),
                float(sum(r.expected for r in recs)) if competitions else None,
                sum(r.change for r in recs), recs[-1].after, recs[-1].status,
                {"penalty": sum(r.penalty for r in recs),
                 "adjust": sum(r.adjust for r in recs) if adjusted else None,
                 "protected": [c["id"] for c in competitions if c["protected"]],
                 "competitions": competitions}))
        return out
