"""The game (chip) rating of seed 001: chips won, 80 % of chips lost, −5 % a day.

A won match adds win_share × the chips won, a lost one subtracts
loss_share × the chips lost. Each day boundary crossed multiplies a rating by
(1 − daily_decay), before that day's matches; the leaderboard decays it up to
--as-of. Chips come from the match's `chips`, else the winner's points from
`score`, else the match `length`. A draw moves no chips.

`daily(day)` is seed 001's daily rating: the same sum over one day, no decay.

A replay stops before that last decay (chipsstate.py): its state is what the cache keeps, and
`finish` decays (and penalises) every rating up to the day the view is read.
"""
from __future__ import annotations

import struct
from array import array
from collections.abc import Iterator, Sequence
from functools import partial
from datetime import date
from typing import TYPE_CHECKING, Any, cast

from ..datarecords import datarecord
from ..collector import collector_paused
from .base import Engine, EngineParams, LazyParams, Explained, HistoryEvent, RatingResult, Standing, adjust_event
from .compact import ColumnRecords, CompactResult
from ..i18n import _
from ..contract.events import Adjusted, MatchPlayed
from .chipsstate import RECORD_FIELDS, ChipsState, SideEvent, pack, unpack
from .policies import HIDDEN, Inactivity

if TYPE_CHECKING:
    from ..contract.view import RatingView
    from .params import ChipsParams


# Rows replayed at a time: their records are kept as a list of bytes until the chunk is done.
CHUNK = 1 << 14


def _decay_line(day: date, since: date, before: float | None, after: float | None) -> HistoryEvent:
    """The rating decayed from `since` to `day`: a history line of kind "decay"."""
    change = None if before is None or after is None else after - before  # (every chips event has both)
    return HistoryEvent(day, None, "decay", None, None, before, change, after, True, None, {"days": (day - since).days})


def with_decays(events: list[HistoryEvent], standing: Standing | None, end: date | None) -> list[HistoryEvent]:
    """Insert a "decay" event wherever the rating fell between two days' events, and up to `end`."""
    out: list[HistoryEvent] = []
    last_day: date | None = None
    last_after: float | None = None

    def decay(day: date, since: date, before: float | None, after: float | None) -> None:
        out.append(_decay_line(day, since, before, after))

    for e in events:
        if last_day is not None and e.date > last_day and e.before != last_after:
            decay(e.date, last_day, last_after, e.before)
        out.append(e)
        last_day, last_after = e.date, e.after
    if standing is not None and end is not None and last_day is not None and end > last_day \
            and standing.rating != last_after:
        decay(end, last_day, last_after, standing.rating)
    return out


class Decay:
    """days → keep ** days, the factor a rating decays by over that many days, each made once.
    The replay's loop reads `factors` itself, a plain dict (CPython indexes a dict subclass through
    a slower generic path), and asks `factor` only for a number of days not met yet."""

    def __init__(self, keep: float) -> None:
        self.keep = keep
        self.factors: dict[int, float] = {}

    def factor(self, days: int) -> float:
        found = self.factors.get(days)
        if found is None:
            found = self.factors[days] = self.keep ** days
        return found


class Upkeep:
    """Brings ratings up to a day, on the lists it is given (a replay's, or finish's copies): × keep
    a day since the day each was last brought to, and with an inactivity ladder each step the
    player's break has reached, after that step's day's decay."""

    def __init__(self, p: Any, names: Sequence[str], rating: list[float], day_of: list[int], last: list[int],
                 charged: dict[int, float], side: list[SideEvent]) -> None:
        self.decay = Decay(1.0 - p.daily_decay)
        self.policy = Inactivity(p)
        self.penalise = bool(self.policy.ladder)
        self.names, self.rating, self.day_of, self.last, self.charged, self.side = names, rating, day_of, last, charged, side

    def decay_to(self, code: int, day: int) -> None:
        """Bring a rating to `day`: × keep per day since the day it was last brought to (a player
        not seen yet is rated 0.0, which any factor leaves as it is)."""
        day_of = self.day_of
        if day > day_of[code]:
            self.rating[code] *= self.decay.factor(day - day_of[code])
            day_of[code] = day

    def catch_up(self, code: int, day: int, position: int) -> None:
        """Apply the inactivity steps the player's break reached by `day`, each after that day's
        decay, as side events before record `position`."""
        last, charged, rating = self.last[code], self.charged, self.rating
        if not last:
            return
        for on, amount, months in self.policy.due(date.fromordinal(last), charged.get(code, 0), date.fromordinal(day)):
            self.decay_to(code, on.toordinal())
            self.side.append((position, self.names[code], self.policy.event(on, amount, months, rating[code])))
            rating[code] -= amount
            charged[code] = charged.get(code, 0) + amount


@datarecord
class ChipsResult(CompactResult):
    """The chips engine's result: history made from its records when read, with the decay lines up to `end`
    between them, and seed 001's one-day view (`daily`)."""

    windowed = False   # decay events come between a player's records (with_decays)
    end: date | None = None
    keep: float = 1.0  # 1 − daily_decay: what a rating keeps a day
    has_daily = True

    def match_events(self, record: tuple[Any, ...]) -> tuple[HistoryEvent, HistoryEvent]:
        unrated: tuple[HistoryEvent, HistoryEvent] | None  # (match_facts says so in its docstring)
        day, a, b, score_a, entry, unrated = self.match_facts(record)
        if unrated:
            return unrated
        _, ra, rb, ca, cb, chips = record
        return (HistoryEvent(day, entry, "match", b, score_a, ra, ca, ra + ca, True, None, {"chips": chips}),
                HistoryEvent(day, entry, "match", a, 1.0 - score_a, rb, cb, rb + cb, True, None, {"chips": chips}))

    def build_events(self, only: str | None) -> dict[str, list[HistoryEvent]]:
        built = super().build_events(only)
        for player, events in built.items():
            built[player] = with_decays(events, self.standings.get(player), self.end)
        return built

    def period_events(self, start: date, end: date) -> Iterator[tuple[str, list[HistoryEvent], HistoryEvent | None]]:
        """Each player's events of the period with the decay cut at its bounds: the rating decays to
        the day before the period (the event before it), from there to the player's first entry in
        it, between their days, and on to the period's last day (or the replay's, if sooner). So the
        report's rating at its start and at its end are the leaderboard's as of the day before it and
        as of its end, and its lines add up to the change. Made from the period's records and side
        events (window.py), as a player's history has them, without the decay lines of the rest."""
        from .window import period_records

        upto = min(end, self.end) if self.end is not None else end
        eve = date.fromordinal(start.toordinal() - 1)
        decay = Decay(self.keep)
        for player, inside, before in period_records(self, start, end):
            out: list[HistoryEvent] = []
            last_day, last_after = (before.date, before.after) if before is not None else (None, None)
            if before is not None and before.after is not None and eve > before.date:
                kept = before.after * decay.factor((eve - before.date).days)   # as a leaderboard as of `eve`
                if kept != before.after:
                    before = _decay_line(eve, before.date, before.after, kept)
                last_day, last_after = eve, kept
            for e in inside:
                if last_day is not None and e.date > last_day and e.before != last_after:
                    out.append(_decay_line(e.date, last_day, last_after, e.before))   # (with_decays' line)
                out.append(e)
                last_day, last_after = e.date, e.after
            if last_after is not None and last_day is not None and upto > last_day:
                kept = last_after * decay.factor((upto - last_day).days)
                if kept != last_after:
                    out.append(_decay_line(upto, last_day, last_after, kept))
            yield player, out, before

    def daily(self, day: date) -> RatingResult:
        """Seed 001's daily rating: each player's chip changes on `day` alone, without decay."""
        m = self.match_columns()
        sums: dict[str, float] = {}
        games: dict[str, int] = {}
        for record in self.records:
            i = record[0]
            if len(record) == 4 or not m.on(day, i):
                continue
            for player, change in zip(m.sides(i), (record[3], record[4])):
                sums[player] = sums.get(player, 0.0) + change
                games[player] = games.get(player, 0) + 1
        standings = {player: Standing(player, total, games[player], "active", day)
                     for player, total in sums.items()}
        return RatingResult(f"{self.rating} (daily)", self.discipline, self.engine, standings, as_of=day)


class ChipsEngine(Engine):
    name = "chips"
    tournament_ends = False  # matches and adjustments only
    Params = LazyParams("ChipsParams")
    title = "game rating by chips won and lost, −5% a day (seed 001)"

    # The replay depends on the entries only: it stops before the ratings are brought to the day
    # they are read (chipsstate.py), and `finish` does that for the view's date, so a replay is
    # stored for the journal as it was and finished as of any later day (not resumed).
    cacheable = True
    reads_player_facts = False

    def run(self, view: RatingView) -> ChipsResult:
        with collector_paused():  # a record (a tuple) per match, none in a cycle (collector.py)
            return self.finish(view, self._replay(view))

    def _replay(self, view: RatingView) -> ChipsState:
        p: ChipsParams = view.params
        names = view.players
        count = len(names)
        win_share, lose_share = p.win_share, -p.loss_share  # (−loss_share × chips is −(loss_share × chips) exactly)
        rating = [0.0] * count
        day_of = [0] * count      # the day each rating is decayed to; 0: not seen yet
        games = [0] * count
        last = [0] * count
        charged: dict[int, float] = {}
        side: list[SideEvent] = []
        upkeep = Upkeep(p, names, rating, day_of, last, charged, side)
        decay, penalise = upkeep.decay, upkeep.penalise
        factors, catch_up = decay.factors, upkeep.catch_up
        # The records (see RECORD_FIELDS): each match's doubles packed, joined onto `fields` a
        # chunk of rows at a time (fewer steps than packing each into room made for it).
        index = array("i")
        record = struct.Struct(f"{RECORD_FIELDS}d")
        size, pack = record.size, record.pack
        fields = bytearray()
        reasons: dict[int, str] = {}
        nan = float("nan")

        for event in view.batched_events():
            if isinstance(event, Adjusted):
                adj = event.adjust
                code = view.player_code(adj.player)
                if penalise:
                    catch_up(code, adj.date.toordinal(), len(fields) // size)
                upkeep.decay_to(code, adj.date.toordinal())
                rating[code], history_event = adjust_event(adj, rating[code])
                side.append((len(fields) // size, adj.player, history_event))
                continue
            ma, mb, scores, lengths, dates = event.a, event.b, event.score_a, event.length, event.dates
            excluded, extra, chips_of = event.excluded, event.extra, event.chips
            any_excluded, any_extra = bool(excluded), bool(extra)  # (none: not looked up a row)
            rows = event.rows
            index.extend(rows)
            for start in range(0, len(rows), CHUNK):
                parts: list[bytes] = []        # this chunk's records
                done = len(fields) // size     # records before it
                for i in rows[start:start + CHUNK]:
                    a, b, day = ma[i], mb[i], dates[i]
                    if penalise:
                        catch_up(a, day, done + len(parts))
                        catch_up(b, day, done + len(parts))
                    # Both ratings brought to this day (decay_to inline: this is the hot loop, in date
                    # order), stored with the match's change. A second match the same day is × keep ** 0,
                    # 1.0: the same number, and no test for it.
                    try:
                        ra = rating[a] * factors[day - day_of[a]]
                    except KeyError:
                        ra = rating[a] * decay.factor(day - day_of[a])
                    day_of[a] = day
                    try:
                        rb = rating[b] * factors[day - day_of[b]]
                    except KeyError:
                        rb = rating[b] * decay.factor(day - day_of[b])
                    day_of[b] = day
                    if any_excluded and i in excluded:
                        rating[b], rating[a] = rb, ra
                        reasons[done + len(parts)] = cast(str, event.reason(i))  # an excluded row has its reason
                        parts.append(pack(ra, rb, nan, nan, nan))
                        continue
                    games[a] += 1
                    games[b] += 1
                    last[a] = last[b] = day
                    if penalise:  # a rated match: a new break starts
                        charged.pop(a, None)
                        charged.pop(b, None)
                    s = scores[i]
                    if s == 1.0:
                        chips = chips_of(i) if any_extra and i in extra else float(lengths[i])
                        ca, cb = win_share * chips, lose_share * chips
                    elif s == 0.5:
                        rating[b], rating[a] = rb, ra
                        parts.append(pack(ra, rb, 0.0, 0.0, 0.0))
                        continue
                    else:
                        chips = chips_of(i) if any_extra and i in extra else float(lengths[i])
                        ca, cb = lose_share * chips, win_share * chips
                    rating[a] = ra + ca
                    rating[b] = rb + cb
                    parts.append(pack(ra, rb, ca, cb, chips))
                fields += b"".join(parts)

        # The rows' player columns made when history is first read, or the cache stores the replay.
        records = ColumnRecords.of_buffer(index, partial(view.player_columns, index), fields, RECORD_FIELDS, reasons)
        return ChipsState(rating, day_of, games, last, charged, records, side)

    def finish(self, view: RatingView, state: ChipsState) -> ChipsResult:
        """The result of a replay that reached `state`, every rating brought up to the end of the view:
        its --as-of, else its last entry (a state from the cache is of the journal exactly as it was
        replayed, whose view holds none of the entries: the state's last day is the same one).
        `state` is left as it was: the cache keeps it, and another day may finish it again."""
        p: ChipsParams = view.params
        names = view.players
        rating, day_of, charged, side = list(state.rating), list(state.day_of), dict(state.charged), list(state.side)
        last, games = state.last, state.games
        upkeep = Upkeep(p, names, rating, day_of, last, charged, side)
        end = view.as_of or (date.fromordinal(state.last_date) if state.last_date else None)
        day = end.toordinal() if end is not None else 0
        position, policy = len(state.records), upkeep.policy
        standings: dict[str, Standing] = {}
        for code in range(len(rating)):
            if day_of[code]:
                if end is not None:
                    if upkeep.penalise:
                        upkeep.catch_up(code, day, position)
                    upkeep.decay_to(code, day)
                player = names[code]
                played = date.fromordinal(last[code]) if last[code] else None
                status = "provisional" if games[code] < p.provisional_games else "active"
                standings[player] = Standing(player, rating[code], games[code],
                                             policy.status(played, end, status), played)
        return ChipsResult(view.rating.name, view.discipline, self.name, standings, as_of=view.as_of,
                           hidden_statuses=HIDDEN, state=state, matches=view.match_columns, records=state.records,
                           side=side, end=end, keep=upkeep.decay.keep)

    # --- the cache: the state as JSON and machine arrays, never code (chipsstate.py) -------

    def pack_state(self, state: ChipsState) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        return pack(state)

    def unpack_state(self, meta: dict[str, Any], players: dict[str, Any], load_columns: Any) -> ChipsState:
        return unpack(meta, players, load_columns)

    # --- explain: seed 001's game rating, as the replay does it ---------------------------

    explains = frozenset({"match", "decay", "penalty"})

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        from .base import step
        from .policies import explain_penalty

        assert isinstance(result, ChipsResult)
        p: ChipsParams = params   # the model, or its values from the config cache: read by attribute
        rule = "seed 001, «Игровой рейтинг»"
        if event.kind == "penalty":
            return explain_penalty(p, result.history(player), event)
        if event.kind == "decay":
            days, keep = event.extra["days"], 1.0 - p.daily_decay
            factor = keep ** days
            after = event.before * factor
            return Explained({"rating": event.before, "days": days, "daily_decay": p.daily_decay}, [
                step(_("{seed}: −{percent} a day").format(seed=rule, percent=f"{p.daily_decay:.0%}"),
                     _("kept a day = 1 − {decay}").format(decay=f"{p.daily_decay:g}"), keep),
                step(_("{seed}: every day boundary crossed since the last event").format(seed=rule),
                     f"factor = {keep:g}^{days}", factor),
                step(_("the rating decayed"), f"after = {event.before:.4f} × {factor:.6f}", after),
                step(_("the change is after − before"), f"change = {after:.4f} − {event.before:.4f}",
                     after - event.before)])
        if event.kind != "match" or not event.rated or match is None:
            return super().explain_event(params, result, player, event, match)
        m = result.match_columns().entry(match.index)
        chips = event.extra["chips"]
        source = (f"chips = {m.chips:g}" if m.chips is not None else
                  _("the winner's points of score {a}-{b}").format(a=m.score[0], b=m.score[1])
                  if m.score is not None and m.score_a != 0.5 else _("the match length {length}").format(length=m.length))
        inputs = {"opponent": event.opponent, "rating": event.before, "score": event.result, "chips": chips,
                  "win_share": p.win_share, "loss_share": p.loss_share}
        chips_step = step(_("the chips of a match: its chips, else the winner's points of score, else its length"),
                          source, chips)
        if event.result == 1.0:
            return Explained(inputs, [chips_step, step(_("{seed}: a win adds the chips won (× win_share)").format(seed=rule),
                                                       f"change = {p.win_share:g} × {chips:g}", p.win_share * chips)])
        if event.result == 0.0:
            return Explained(inputs, [chips_step, step(
                _("{seed}: a loss subtracts 80 % of the chips lost (× loss_share)").format(seed=rule),
                f"change = −{p.loss_share:g} × {chips:g}", -p.loss_share * chips)])
        return Explained(inputs, [step(_("a draw moves no chips"), "change = 0", 0.0)])
