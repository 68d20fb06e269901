"""`changes`: the re-publication note. Per player, the rank and rating before and after, the games
added and the journal entries behind the change, between a published list (or the list on a date)
and the list on a later date.

Before a list file: its rows as frozen. The entries behind a player's change are those that name
the player and can move the list: dated after the list's date and up to the later one, and, added
to the journal since the list was frozen, those dated up to its date (corrections: an amend or void
inside its period, a late match, an adjustment). Before a date: the entries dated between the two.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import _
from .behind import Entries, Ref, added_since, everything

if TYPE_CHECKING:
    from ..reports import Table

KEYS = ("player", "name", "rank_before", "rank_after", "rating_before", "rating_after", "change", "games_added",
        "entries")


def _change(before: Any, after: Any) -> Any:
    if isinstance(before, (int, float)) and isinstance(after, (int, float)):
        return after - before
    return None


def changes(club: str | None, since_list: Path | None, since: date | None, to: date | None,
            rating: str | None, discipline: str | None) -> Table:
    from .. import reports
    from ..errors import ActionRefused
    from ..replay.loader import load_club
    from .freeze import list_table

    if since_list is not None:
        from .verify import recompute

        done = recompute(club, since_list)
        ledger, listed = done.ledger, done.listed
        rating, discipline = listed.provenance["rating"], listed.provenance["discipline"]
        start = listed.as_of
        before_rows = _by_final_id(listed.rows, ledger)
        before_label = _("the list of {day} ({file})").format(day=start, file=since_list.name)
    else:
        assert since is not None
        ledger = load_club(club)
        start = since
        before_rows = list_table(ledger, rating, discipline, since)[1].all_rows()
        before_label = _("as of {day}").format(day=since)
    if since_list is not None and listed.shown:
        raise ActionRefused(_("{path}: a printed (Markdown) list holds its numbers rounded; give changes the JSON or "
                              "xlsx list").format(path=since_list))
    end = reports.as_of(ledger, to)
    if end.day < start:
        raise ActionRefused(_("--to {to} is before {start}, the date changes compare with").format(to=end.day, start=start))
    result, after_table = list_table(ledger, rating, discipline, end.day)
    entries = Entries(ledger, result.rating, result.discipline)
    behind: list[Ref] = entries.refs(everything, None, span=(start, end.day))
    if since_list is not None and done.appended_only:
        behind = entries.refs(added_since(ledger, listed.files), start) + behind
    table = _table(before_rows, after_table.all_rows(), behind, result.rating, result.discipline, before_label, str(end))
    if since_list is not None and not done.recorded:
        table.caption = " ".join(filter(None, [table.caption, _(
            "{file} is altered, or was never recorded: no [[list]] entry of the journal has its SHA-256; its rows "
            "are taken as they are (nardrating verify says more)").format(file=since_list)]))
    return table


def _by_final_id(rows: list[dict[str, Any]], ledger: Any) -> list[dict[str, Any]]:
    """A frozen list's rows under the ids the players have now: a rename or merge added since holds
    for the list too (as it holds for every entry). A merged player's rows are one: the rank and
    rating of the row of the player merged into (else the first), the games of both."""
    from ..journal.identities import final_ids

    renamed = final_ids(ledger.journal.identities)
    if not any(row.get("player") in renamed for row in rows):
        return rows
    grouped: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(renamed.get(row["player"], row["player"]), []).append(row)
    out = []
    for player, group in grouped.items():
        kept = next((row for row in group if row["player"] == player), group[0])
        games = [row.get("games") for row in group]
        total = sum(g for g in games if isinstance(g, int)) if all(isinstance(g, int) for g in games) else kept.get("games")
        out.append({**kept, "player": player, "games": total})
    return out


def _table(before_rows: list[dict[str, Any]], after_rows: list[dict[str, Any]], behind: list[Ref], rating: str,
           discipline: str, before_label: str, after_label: str) -> Table:
    from ..reports import Column, Table

    before = {row["player"]: row for row in before_rows}
    after = {row["player"]: row for row in after_rows}
    naming: dict[str, list[Ref]] = {}   # per player, the entries that name them, in order (concerning(), once)
    for ref in behind:
        for named in ref.players:
            naming.setdefault(named, []).append(ref)
    rows: list[dict[str, Any]] = []
    for player in dict.fromkeys([*after, *before]):
        old, new = before.get(player, {}), after.get(player, {})
        games_before, games_after = old.get("games"), new.get("games")
        added = (games_after or 0) - (games_before or 0) if games_before is not None or games_after is not None else None
        refs = naming.get(player, [])
        row = {"player": player, "name": new.get("name") or old.get("name"),
               "rank_before": old.get("rank"), "rank_after": new.get("rank"),
               "rating_before": old.get("rating"), "rating_after": new.get("rating"),
               "change": _change(old.get("rating"), new.get("rating")), "games_added": added,
               "entries": [r.json() for r in refs]}
        moved = (row["rank_before"] != row["rank_after"] or row["change"] not in (0, None) or added
                 or (player in before) != (player in after))
        if moved or refs:
            rows.append(row)
    rows.sort(key=lambda r: (r["rank_after"] is None, r["rank_after"] or 0, r["player"]))
    shown = [{**row, "entries": " ".join(r["id"] or f"{r['file']}:{r['line']}" for r in row["entries"])} for row in rows]
    columns = [Column("player", _("Player")), Column("name", _("Name")), Column("rank_before", _("Rank before"), "int"),
               Column("rank_after", _("Rank after"), "int"), Column("rating_before", _("Rating before"), "rating"),
               Column("rating_after", _("Rating after"), "rating"), Column("change", _("Change"), "change"),
               Column("games_added", _("Games added"), "int"), Column("entries", _("Entries"), wrap=True)]
    title = f"{rating} · {discipline} · {before_label} → {after_label}"
    caption = None if rows else _("nothing changed")
    if any(row["change"] not in (0, None) and not row["entries"] for row in rows):
        caption = _("A change without entries comes from the engine's own rules, not from an entry: an inactivity "
                    "penalty, a decay (history PLAYER shows it).")
    return Table(title, columns, shown, caption=caption, json_value=rows)
