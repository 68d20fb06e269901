"""Reports as data: leaderboard, history, period report, players.

Each returns a `Table`: a title, columns (key, heading, kind) and rows of
plain values. render.py turns a Table into rich, CSV, JSON or Markdown; JSON
keeps numbers unrounded.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engines.base import RatingResult, ReportRow
from .periods import Period


@dataclass
class Column:
    key: str
    heading: str
    kind: str = "text"  # text | rating (2 decimals in tables) | number | int | date | score | spark


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


def leaderboard(ledger, result: RatingResult, show_all: bool = False, public: bool = False) -> Table:
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
    columns += [Column(key, title, "rating") for key, title in result.columns]
    sections = []
    for status, title in result.sections:
        members = sorted(grouped[status], key=lambda s: s.player)
        if members:
            sections.append((title, [row(None, s) for s in members]))
    caption = None
    if hidden:
        caption = f"{len(hidden)} player(s) not shown ({', '.join(sorted({s.status for s in hidden}))}); --all shows them"
    title = f"{result.rating} · {result.discipline}" + (f" · as of {result.as_of}" if result.as_of else "")
    return Table(title, columns, rows, sections, caption)


def history(ledger, result: RatingResult, player: str) -> Table:
    events = result.history(player)
    rows = []
    extra_keys: list[str] = []
    for e in events:
        row = {"date": e.date, "entry": e.entry, "kind": e.kind, "opponent": e.opponent,
               "result": e.result, "before": e.before, "change": e.change, "after": e.after,
               "rated": e.rated, "reason": e.reason}
        for key, value in e.extra.items():
            row.setdefault(key, value)
            if key not in extra_keys and key not in row.keys() - e.extra.keys():
                extra_keys.append(key)
        rows.append(row)
    columns = [Column("date", "Date", "date"), Column("entry", "Entry"), Column("kind", "Kind"),
               Column("opponent", "Opponent"), Column("result", "Result", "score"),
               Column("before", "Before", "rating"), Column("change", "Change", "change"),
               Column("after", "After", "rating")]
    columns += [Column(key, key.replace("_", " ").capitalize(), "number") for key in extra_keys]
    columns.append(Column("reason", "Note", "footnote"))
    name = ledger.journal.player_name(player)
    title = f"{name} ({player}) · {result.rating} · {result.discipline}"
    ratings = [e.after for e in events if e.rated and e.after is not None]
    caption = f"rating: {sparkline(ratings)}" if ratings else None
    return Table(title, columns, rows, caption=caption)


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


def report(ledger, result: RatingResult, period: Period, player: str | None = None) -> Table:
    rows = result.report(period.start, period.end)
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
        out.append(row)
    columns = [Column("player", "Player"), Column("name", "Name"), Column("before", "Before", "rating"),
               Column("games", "Games", "int"), Column("points", "Points", "number"),
               Column("expected", "Expected", "number"), Column("change", "Change", "change"),
               Column("after", "After", "rating"), Column("status", "Status")]
    # Lists of records (per-competition details) are for JSON and --details, not a cell.
    columns += [Column(key, key.replace("_", " ").capitalize(), "auto") for key in extra_keys
                if not any(_is_records(row.get(key)) for row in out)]
    title = f"{result.rating} · {result.discipline} · {period.start}..{period.end}"
    json_value = {"rating": result.rating, "discipline": result.discipline,
                  "period": {"start": period.start, "end": period.end}, "rows": out}
    return Table(title, columns, out, json_value=json_value)


def _is_records(value) -> bool:
    return isinstance(value, list) and any(isinstance(v, dict) for v in value)


def players(ledger) -> Table:
    journal = ledger.journal
    m = journal.matches
    counts: dict[tuple[int, int], int] = {}
    for code_list in (m.a, m.b):
        for p, d in zip(code_list, m.discipline):
            counts[p, d] = counts.get((p, d), 0) + 1
    disciplines = journal.discipline_codes.names
    rows = []
    for player in sorted(journal.players.values(), key=lambda p: p.id):
        code = journal.player_codes.index.get(player.id, -1)
        per = {disciplines[d]: n for (p, d), n in counts.items() if p == code}
        rows.append({"player": player.id, "name": player.name, "alias": player.alias,
                     "qualification": player.qualification, "title": player.title,
                     "games": per})
    columns = [Column("player", "Player"), Column("name", "Name"), Column("alias", "Alias"),
               Column("qualification", "Qual."), Column("title", "Title"), Column("games", "Games")]
    return Table("Players", columns, rows)


def report_details(table: Table) -> list[Table]:
    """Per-row competition details (rows' "competitions" lists), as tables of their own."""
    details = []
    for row in table.rows:
        comps = row.get("competitions")
        if not comps:
            continue
        keys = list(comps[0].keys())
        columns = [Column(k, k.replace("_", " ").capitalize(), "auto") for k in keys]
        details.append(Table(f"{row['name']} ({row['player']})", columns, comps))
    return details
