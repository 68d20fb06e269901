"""Reports as data: leaderboard, history, period report, players.

Each returns a `Table`: a title, columns (key, heading, kind) and rows of
plain values. render.py turns a Table into rich, CSV, JSON or Markdown; JSON
keeps numbers unrounded.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from .engines.base import HistoryEvent, RatingResult, ReportRow
from .errors import ActionRefused, did_you_mean
from .periods import Period


@dataclass
class Column:
    key: str
    heading: str
    kind: str = "text"  # text | rating | change | number | probability (one game's, 4 decimals) | int | date | score


@dataclass
class Table:
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    sections: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)  # extra titled groups
    caption: str | None = None
    json_value: Any = None  # what --format json prints, when not just the rows

    def all_rows(self) -> list[dict[str, Any]]:
        return self.rows + [row for _, rows in self.sections for row in rows]


# --- the date a command means ------------------------------------------------------

@dataclass(frozen=True)
class AsOf:
    day: date
    why: str | None = None  # None: given with --as-of

    def __str__(self) -> str:
        return f"as of {self.day}" + (f", {self.why}" if self.why else "")


def last_entry_date(journal) -> date | None:
    """The date of the journal's last entry: a match, an adjustment or a tournament's end."""
    days = [journal.max_date] if journal.max_date else []
    days += [a.date.toordinal() for a in journal.adjusts]
    days += [t.end.toordinal() for t in journal.tournaments.values()]
    return date.fromordinal(max(days)) if days else None


def as_of(ledger, given: date | None) -> AsOf:
    """--as-of if given; else the journal's last entry, or today (club.as_of = "today", or no entries)."""
    if given is not None:
        return AsOf(given)
    last = last_entry_date(ledger.journal)
    if ledger.config.club.as_of == "today" or last is None:
        return AsOf(date.today(), "today")
    return AsOf(last, "the journal's last entry")


def known_player(ledger, player: str) -> None:
    """Refuse an unknown player id, with the nearest known ones."""
    if player not in ledger.journal.players:
        raise ActionRefused(f"unknown player {player!r}{did_you_mean(player, ledger.journal.players)}")


def heading(key: str) -> str:
    """A column's heading is its JSON and CSV key in words, so every format names it alike."""
    return key.replace("_", " ").capitalize()


def leaderboard(ledger, result: RatingResult, show_all: bool = False, public: bool = False,
                day: AsOf | None = None) -> Table:
    journal = ledger.journal
    shown, hidden = [], []
    section_titles = dict(result.sections)
    grouped: dict[str, list] = {status: [] for status in section_titles}
    for s in result.standings.values():
        if s.status in section_titles:
            grouped[s.status].append(s)
        elif s.status in result.hidden_statuses and not show_all:
            hidden.append(s)
        else:
            shown.append(s)
    shown.sort(key=lambda s: (s.rating is None, -(s.rating or 0.0), s.player))

    def row(rank, s):
        r = {"rank": rank, "player": s.player, "name": journal.player_name(s.player, public),
             "rating": s.rating, "games": s.games, "status": s.status,
             "last_played": s.last_played}
        for key, _ in result.columns:
            r[key] = s.extra.get(key)
        return r

    rows = [row(n, s) for n, s in enumerate(shown, start=1)]
    columns = [Column("rank", "#", "int"), Column("player", "Player"), Column("name", "Name"),
               Column("rating", "Rating", "rating"), Column("games", "Games", "int"),
               Column("status", "Status"), Column("last_played", "Last played", "date")]
    columns += [Column(key, heading(key), "rating") for key, _ in result.columns]
    sections = []
    for status, title in result.sections:
        members = sorted(grouped[status], key=lambda s: s.player)
        if members:
            sections.append((title, [row(None, s) for s in members]))
    caption = None
    if hidden:
        caption = f"{len(hidden)} player(s) not shown ({', '.join(sorted({s.status for s in hidden}))}); --all shows them"
    shown_as_of = day or (AsOf(result.as_of) if result.as_of else None)
    title = f"{result.rating} · {result.discipline}" + (f" · {shown_as_of}" if shown_as_of else "")
    return Table(title, columns, rows, sections, caption)


# Engine keys of history events, in the order their columns appear (whatever event comes first).
EVENT_KEYS = ("expected", "probability", "opponent_rating", "k", "base", "boost", "opponent_boost",
              "experience", "chips", "days", "place", "participants", "places_from", "event", "rc",
              "performance", "penalty")
NOT_PLAYED = ("voided", "forfeit", "unrated")


def _event_key_order(key: str) -> tuple:
    return (EVENT_KEYS.index(key), "") if key in EVENT_KEYS else (len(EVENT_KEYS), key)


def played(e: HistoryEvent) -> bool:
    """A game the player played and the list counts: not voided, forfeit, unrated or over the pair limit."""
    return e.kind == "match" and e.result is not None and not (
        e.reason in NOT_PLAYED or (e.reason or "").startswith("pair limit"))


def history(ledger, result: RatingResult, player: str, day: AsOf | None = None, *,
            since: date | None = None, until: date | None = None, last: int | None = None,
            opponent: str | None = None) -> Table:
    """A player's events; since/until/opponent/last (games) narrow them, with a summary line."""
    events = result.history(player)
    if since is not None:
        events = [e for e in events if e.date >= since]
    if until is not None:
        events = [e for e in events if e.date <= until]
    if opponent is not None:
        events = [e for e in events if e.opponent == opponent]
    if last is not None:
        games = [k for k, e in enumerate(events) if played(e)]
        first = games[-last] if 0 < last <= len(games) else (len(events) if last <= 0 else 0)
        events = events[first:]
    rows = []
    extra_keys: set[str] = set()
    for e in events:
        row = {"date": e.date, "entry": e.entry, "kind": e.kind, "opponent": e.opponent,
               "result": e.result, "before": e.before, "change": e.change, "after": e.after,
               "rated": e.rated, "reason": e.reason}
        for key, value in e.extra.items():
            if key not in row:
                row[key] = value
                extra_keys.add(key)
        rows.append(row)
    columns = [Column("date", "Date", "date"), Column("entry", "Entry"), Column("kind", "Kind"),
               Column("opponent", "Opponent"), Column("result", "Result", "score"),
               Column("before", "Before", "rating"), Column("change", "Change", "change"),
               Column("after", "After", "rating")]
    columns += [Column(key, heading(key), "probability" if key in ("expected", "probability") else "number")
                for key in sorted(extra_keys, key=_event_key_order)]
    columns.append(Column("reason", "Reason", "footnote"))
    # Every row has every column's key, in the columns' order, as CSV has; `rated` (JSON only) stays.
    rows = [{**{c.key: row.get(c.key) for c in columns}, "rated": row["rated"]} for row in rows]
    name = ledger.journal.player_name(player)
    title = f"{name} ({player}) · {result.rating} · {result.discipline}" + (f" · {day}" if day else "")
    captions = [history_summary(events)]
    ratings = [e.after for e in events if e.rated and e.after is not None]
    if ratings:
        captions.append(f"rating: {sparkline(ratings)}")
    return Table(title, columns, rows, caption="\n".join(captions))


def history_summary(events: list[HistoryEvent]) -> str:
    """games, W/D/L, points and the net change of these events."""
    games = [e for e in events if played(e)]
    wins = sum(e.result == 1.0 for e in games)
    draws = sum(e.result == 0.5 for e in games)
    points = sum(e.result for e in games)
    text = f"{len(games)} game{'' if len(games) == 1 else 's'}: {wins} W, {draws} D, {len(games) - wins - draws} L; {points:g} point{'' if points == 1 else 's'}"
    net = net_change(events)
    if net is not None:
        text += f"; net change {net:+.2f}" if isinstance(net, float) else f"; net change {net:+d}"
    return text


def net_change(events: list[HistoryEvent]):
    """The last rating shown minus the rating before the first event (or its first rating)."""
    known = [e for e in events if e.after is not None or e.before is not None]
    if not known:
        return None
    first = known[0].before if known[0].before is not None else known[0].after
    last = next((e.after for e in reversed(events) if e.after is not None), None)
    if first is None or last is None:
        return None
    return last - first


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    low, high = min(values), max(values)
    if high == low:
        return SPARKS[3] * len(values)
    return "".join(SPARKS[round((v - low) / (high - low) * (len(SPARKS) - 1))] for v in values)


def generic_report_rows(result: RatingResult, period: Period) -> list[ReportRow]:
    """Per player active in the period, from their history."""
    rows = []
    for player, events in result.events.items():
        inside = [e for e in events if period.start <= e.date <= period.end]
        if not inside:
            continue
        earlier = [e for e in events if e.date < period.start and e.after is not None]
        before = earlier[-1].after if earlier else inside[0].before
        rated = [e for e in inside if e.rated and e.kind == "match"]
        points = sum(e.result or 0.0 for e in rated)
        expected_values = [e.extra.get("expected") for e in rated]
        expected = sum(expected_values) if rated and None not in expected_values else None
        after = next((e.after for e in reversed(inside) if e.after is not None), before)
        status = result.standings[player].status if player in result.standings else ""
        change = after - before if after is not None and before is not None else None
        rows.append(ReportRow(player, before, len(rated), points, expected, change, after, status))
    return rows


def report(ledger, result: RatingResult, period: Period, player: str | None = None,
           details: bool = False) -> Table:
    if player is not None:
        known_player(ledger, player)
    rows = result.report(period.start, period.end)
    per_game = rows is None  # no per-competition records: the arithmetic is per game, from history
    if rows is None:
        rows = generic_report_rows(result, period)
    if player is not None:
        rows = [r for r in rows if r.player == player]
    rows.sort(key=lambda r: (-(r.after if r.after is not None else float("-inf")), r.player))
    journal = ledger.journal
    extra_keys: list[str] = []
    out = []
    for r in rows:
        row = {"player": r.player, "name": journal.player_name(r.player), "before": r.before,
               "games": r.games, "points": r.points, "expected": r.expected, "change": r.change,
               "after": r.after, "status": r.status}
        for key, value in r.extra.items():
            row[key] = value
            if key not in extra_keys:
                extra_keys.append(key)
        if details and per_game:
            row["events"] = game_details(ledger, result, r.player, period)
        out.append(row)
    columns = [Column("player", "Player"), Column("name", "Name"), Column("before", "Before", "rating"),
               Column("games", "Games", "int"), Column("points", "Points", "number"),
               Column("expected", "Expected", "number"), Column("change", "Change", "change"),
               Column("after", "After", "rating"), Column("status", "Status")]
    # Lists of records (per-competition details) are for JSON and --details, not a cell.
    columns += [Column(key, heading(key), "auto") for key in extra_keys
                if not any(_is_records(row.get(key)) for row in out)]
    title = f"{result.rating} · {result.discipline} · {period.start}..{period.end}"
    totals = report_totals(out)
    json_value = {"rating": result.rating, "discipline": result.discipline,
                  "period": {"start": period.start, "end": period.end}, "rows": out, "totals": totals}
    caption = None
    if not out:
        caption = empty_report_reason(ledger, result, period, player)
        json_value["empty"] = caption
    shown = out + ([{"player": None, "name": "Total", **totals}] if out else [])
    return Table(title, columns, shown, caption=caption, json_value=json_value)


def report_totals(rows: list[dict]) -> dict:
    """The commission's totals: games, points, expected (of the rows that have it) and change."""
    def total(key):
        values = [row[key] for row in rows if row.get(key) is not None]
        if not values:
            return None
        return sum(values) if all(isinstance(v, int) for v in values) else math.fsum(values)

    return {"games": total("games") or 0, "points": total("points") or 0.0,
            "expected": total("expected"), "change": total("change")}


def empty_report_reason(ledger, result: RatingResult, period: Period, player: str | None) -> str:
    """Why a report has no rows: no rated games in the period, and where the entries or lists are."""
    who = f"{player} has no" if player else "No"
    text = f"{who} rated games of {result.discipline} in {period.start}..{period.end}"
    dates = list_dates(result)
    if dates:
        before = [d for d in dates if d < period.start]
        after = [d for d in dates if d > period.end]
        near = ([f"{before[-1]} before it"] if before else []) + ([f"{after[0]} after it"] if after else [])
        text += (f": {result.rating} ({result.engine}) reports the lists dated in the period, and none "
                 f"with results is" + (f"; the nearest: {', '.join(near)}" if near else ""))
    else:
        sources = [result.history(player)] if player else result.events.values()
        days = sorted(e.date for events in sources for e in events if played(e))
        if days:
            text += f": the rated games run from {days[0]} to {days[-1]}"
        else:
            text += f": {result.rating} has no rated games of {result.discipline} at all"
    return text


def list_dates(result: RatingResult) -> list[date]:
    """The dates of the lists a period engine (mfsnb, fide) has published results on; [] for others."""
    if callable(getattr(result, "lists", None)):   # mfsnb: [(period, rows)]
        return sorted(period.end for period, rows in result.lists() if rows)
    if isinstance(getattr(result, "lists", None), dict):   # fide: player → list records
        return sorted({rec.list_date for records in result.lists.values() for rec in records if rec.events})
    return []


def game_details(ledger, result: RatingResult, player: str, period: Period) -> list[dict]:
    """Per game (and decay, tournament, adjustment) of the period: the numbers that made the change."""
    params = ledger.rating(result.rating).params
    out = []
    for e in result.history(player):
        if not (period.start <= e.date <= period.end and e.rated) or e.change is None and e.after is None:
            continue  # only what moved the rating: rated games, tournaments, decays, adjustments
        row = {"date": e.date, "entry": e.entry, "kind": e.kind, "opponent": e.opponent, "result": e.result,
               "before": e.before}
        row.update({k: v for k, v in e.extra.items() if k not in row})
        if "expected" in e.extra and hasattr(params, "k") and "k" not in row:
            row["k"] = params.k   # elo: change = K·(S − E)
        row.update({"change": e.change, "after": e.after, "reason": e.reason})
        out.append(row)
    return out


def _is_records(value) -> bool:
    return isinstance(value, list) and any(isinstance(v, dict) for v in value)


def players(ledger, rating: str | None = None, day: AsOf | None = None) -> Table:
    """Players and their games per discipline, counted as the leaderboard counts them.

    Each discipline's games come from `rating` if it rates it, else from the first list
    that does (voided, forfeit, unrated and pair-limited games do not count); a discipline
    no list rates counts its games that are not voided, forfeit or unrated.
    """
    journal = ledger.journal
    lists = list(ledger.config.ratings.values())
    if rating is not None:
        chosen = ledger.rating(rating)
        lists = [chosen] + [r for r in lists if r is not chosen]
    counts: dict[str, dict[str, int]] = {}
    for discipline in journal.disciplines():
        rated_by = next((r for r in lists if r.rates(discipline)), None)
        if rated_by is not None:
            standings = ledger.run(rated_by, discipline, day.day if day else None).standings
            for player, s in standings.items():
                if s.games:
                    counts.setdefault(player, {})[discipline] = s.games
            continue
        m, code = journal.matches, journal.discipline_codes.index[discipline]
        limit = day.day.toordinal() if day else None
        for i in range(len(m.ids)):
            if m.discipline[i] == code and journal.exclusion(i) is None and (limit is None or m.dates[i] <= limit):
                for who in (m.a[i], m.b[i]):
                    per = counts.setdefault(journal.player_codes.names[who], {})
                    per[discipline] = per.get(discipline, 0) + 1
    rows = []
    for player in sorted(journal.players.values(), key=lambda p: p.id):
        rows.append({"player": player.id, "name": player.name, "alias": player.alias,
                     "qualification": player.qualification, "title": player.title,
                     "games": counts.get(player.id, {})})
    columns = [Column("player", "Player"), Column("name", "Name"), Column("alias", "Alias"),
               Column("qualification", "Qualification"), Column("title", "Title"), Column("games", "Games")]
    return Table("Players" + (f" · {day}" if day else ""), columns, rows)


def report_details(table: Table) -> list[Table]:
    """Per-row details, as tables of their own: per competition (mfsnb, fide) or per game."""
    details = []
    for row in table.rows:
        records = row.get("competitions") or row.get("events")
        if not records:
            continue
        keys = list(dict.fromkeys(k for record in records for k in record))
        tail = [k for k in ("change", "after", "reason") if k in keys]   # the outcome last, as in history
        keys = [k for k in keys if k not in tail] + tail
        kinds = {"date": "date", "result": "score", "before": "rating", "after": "rating", "change": "change"}
        columns = [Column(k, heading(k), kinds.get(k, "auto")) for k in keys]
        details.append(Table(f"{row['name']} ({row['player']})", columns, records))
    return details
