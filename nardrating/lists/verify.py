"""`verify FILE`: is a published list what the journal says today, and if not, what moved it?

The list is recomputed from the journal as it is now, with the file's rating list, discipline and
date. Every row is compared: a rating (exact to a millionth of a point; a Markdown list: as
printed), the games, the status. The file's own SHA-256 is looked up among the journal's `[[list]]`
entries: none with it means the file was altered after it was frozen (or never recorded), said
first. Each moved row is explained by the journal entries added since the freeze that concern the
player (behind.py), named by id, file and line; an entry that moved the row through an opponent
shows as one of the entries since that concern nobody on the row.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord, field
from ..errors import ActionRefused
from ..i18n import DEFAULT, N_, _, ngettext, using
from ..i18n.numbers import localized
from ..i18n.terms import status_text
from .behind import Entries, Ref, added_since, concerning
from .listfile import ListFile, read_list

if TYPE_CHECKING:
    from ..replay.ledger import Ledger
    from ..reports import Table
    from .provenance import Stamp

FIELDS = ("rating", "games", "status")
FIELD_WORDS = {"rating": N_("rating"), "games": N_("games"), "status": N_("status")}
INDIRECT_SHOWN = 5   # entries listed for a row that moved only through others


@datarecord
class Moved:
    """A row the journal now gives otherwise: the player, the row on the file and now, what differs."""
    player: str
    name: str
    before: dict[str, Any] | None      # None: not on the frozen list
    after: dict[str, Any] | None       # None: not on the list now
    fields: list[str]
    was: list[str] = field(default_factory=list)   # the frozen ids, where a rename or merge changed them


@datarecord
class Verdict:
    """What verify found: ok (a recorded list the journal still reproduces) or not, and the lines saying why."""
    ok: bool
    lines: list[str]


@datarecord
class Recomputed:
    """A list file next to the club's list recomputed for its rating list, discipline and date."""
    listed: ListFile
    ledger: Ledger
    stamp: Stamp
    table: Table
    appended_only: bool                 # the journal then is the start of the journal now
    recorded: list[Any]                 # the [[list]] entries with the file's SHA-256


def recompute(club: str | None, path: Path) -> Recomputed:
    """Read the list file, refuse it if it is not this club's, and recompute its list from the journal."""
    from ..replay.loader import load_club
    from .freeze import list_table
    from .provenance import prefix_digest, stamped

    listed = read_list(path)
    p = listed.provenance
    ledger, stamp = stamped(lambda: load_club(club), club)
    config = ledger.config
    appended_only = bool(listed.files) and prefix_digest(config, listed.files) == p["journal_sha256"]
    name = config.club.name or config.folder.name
    if p.get("club") not in (None, name) and not appended_only:
        raise ActionRefused(_("{path}: a list of the club {theirs!r}, not of this club {ours!r} ({config}); give "
                              "--club the folder of {theirs!r}").format(path=path, theirs=p["club"], ours=name,
                                                                      config=config.path))
    if p["rating"] not in config.ratings:
        raise ActionRefused(_("{path}: a list of the rating list {rating!r}, which this club has not (it has {lists})"
                              ).format(path=path, rating=p["rating"], lists=", ".join(config.ratings) or _("none")))
    table = list_table(ledger, p["rating"], p["discipline"], listed.as_of)[1]
    recorded = [entry for entry in ledger.journal.lists if entry.sha256 == listed.sha256]
    return Recomputed(listed, ledger, stamp, table, appended_only, recorded)


def _same(key: str, old: Any, new: Any) -> bool:
    if key == "rating" and isinstance(old, (int, float)) and isinstance(new, (int, float)):
        return math.isclose(old, new, rel_tol=0.0, abs_tol=1e-6)
    return bool(old == new)


def moved_rows(done: Recomputed) -> list[Moved]:
    """Each player whose rating, games or status differs, or who is on one list only; in the list's order."""
    from ..journal.identities import final_ids
    from ..render import column_texts

    listed, table, journal = done.listed, done.table, done.ledger.journal
    now_rows = table.all_rows()
    if listed.shown:   # a printed list: compare the recomputed rows printed the same way (in English, as frozen)
        with using(DEFAULT):
            texts = column_texts(table)["rating"]
        now_rows = [{**row, "rating": text} for row, text in zip(now_rows, texts)]
    now = {row["player"]: row for row in now_rows}
    renamed = final_ids(journal.identities)
    frozen: dict[str, list[dict[str, Any]]] = {}
    for row in listed.rows:
        frozen.setdefault(renamed.get(row["player"], row["player"]), []).append(row)
    moved = []
    for player in list(dict.fromkeys([*frozen, *now])):
        olds, new = frozen.get(player, []), now.get(player)
        old = olds[0] if len(olds) == 1 else None
        was = [row["player"] for row in olds if row["player"] != player]
        if old is not None and new is not None:
            changed = [key for key in FIELDS if not _same(key, old.get(key), new.get(key))]
            if changed or was:
                moved.append(Moved(player, str(new.get("name") or player), old, new, changed, was))
        elif olds or new is not None:   # on one list only, or two frozen rows merged into one
            name = str((new or olds[0]).get("name") or player)
            moved.append(Moved(player, name, old, new, list(FIELDS), was))
    return moved


def _value(value: Any, other: Any = None) -> str:
    """A value as the list shows it: a float with 2 decimals, or all of them where 2 would hide the change."""
    if value is None:
        return "—"
    if isinstance(value, float) or isinstance(other, float):
        text = f"{value:.2f}"
        return localized(text if not isinstance(other, (int, float)) or text != f"{other:.2f}" else repr(float(value)))
    return str(value)


def _shown(key: str, value: Any, other: Any) -> str:
    """A row's value in the line that tells its change: a status in words (the list's data keep it in English)."""
    return status_text(value) if key == "status" and isinstance(value, str) else _value(value, other)


def _row_line(row: Moved) -> str:
    who = f"{row.player} ({row.name})" + (" " + _("was {ids}").format(ids=", ".join(row.was)) if row.was else "")
    if row.before is None:
        return _("{who}: not on the list then; now rating {rating}, games {games}, {status}").format(
            who=who, rating=_value(row.after and row.after.get("rating")), games=_value(row.after and row.after.get("games")),
            status=status_text((row.after or {}).get("status") or "—"))
    if row.after is None:
        return _("{who}: on the list then (rating {rating}, games {games}), not now").format(
            who=who, rating=_value(row.before.get("rating")), games=_value(row.before.get("games")))
    parts = [f"{_(FIELD_WORDS[key])} {_shown(key, row.before.get(key), row.after.get(key))} → "
             f"{_shown(key, row.after.get(key), row.before.get(key))}" for key in row.fields]
    return f"{who}: " + ("; ".join(parts) if parts else _("renamed"))


def verify_list(club: str | None, path: Path) -> Verdict:
    done = recompute(club, path)
    listed, p, ledger = done.listed, done.listed.provenance, done.ledger
    moved = moved_rows(done)
    title = done.table.title
    if done.recorded and not moved:
        entry = done.recorded[-1]
        return Verdict(True, [_("{path}: all {n} rows reproduced ({title}); recorded at {where}, {day}").format(
            path=path, n=len(listed.rows), title=title, where=f"{entry.file}:{entry.line}", day=entry.date)])
    lines = []
    if not done.recorded:
        lines.append(_altered(done, path))
    if not moved:
        lines.append(_("{path}: every row is as the journal gives it now ({title}): what was changed is not in "
                       "the rows").format(path=path, title=title))
        return Verdict(False, lines)
    lines.append(ngettext("{path}: {n} of {total} rows differs from the journal as it is now ({title})",
                          "{path}: {n} of {total} rows differ from the journal as it is now ({title})",
                          len(moved)).format(path=path, n=len(moved), total=len(listed.rows), title=title))
    lines += _context(done)
    entries = Entries(ledger, p["rating"], p["discipline"])
    since = entries.refs(added_since(ledger, listed.files), listed.as_of) if done.appended_only else None
    for row in moved:
        lines.append(_row_line(row))
        lines += ["  " + line for line in _explained(row, since)]
    return Verdict(False, lines)


def _altered(done: Recomputed, path: Path) -> str:
    """The first line when no [[list]] entry has the file's SHA-256."""
    name = path.name
    same_name = [entry for entry in done.ledger.journal.lists if Path(entry.path).name == name]
    if same_name:
        entry = same_name[-1]
        return _("{path}: altered: its SHA-256 is {sha}, not the {recorded} that the journal records for {name} at "
                 "{where} ({day})").format(path=path, sha=done.listed.sha256, recorded=entry.sha256, name=entry.path,
                                           where=f"{entry.file}:{entry.line}", day=entry.date)
    return _("{path}: altered, or never recorded: no [[list]] entry of the journal has its SHA-256 ({sha})").format(
        path=path, sha=done.listed.sha256)


def _context(done: Recomputed) -> list[str]:
    """What else changed since the freeze: the journal rewritten, the config, the program."""
    from .._version import __version__

    p, lines = done.listed.provenance, []
    if not done.appended_only:
        lines.append(_("the journal is not the journal of the list with entries appended (its first bytes no longer "
                       "hash to the list's journal_sha256): it was edited since, so the entries added since cannot "
                       "be told apart"))
    if p["config_sha256"] != done.stamp.config_sha256:
        lines.append(_("the config changed since the list (config_sha256 {then}, now {now}): a changed parameter "
                       "moves rows too").format(then=p["config_sha256"][:12], now=done.stamp.config_sha256[:12]))
    if p["nardrating"] != __version__:
        lines.append(_("the list was frozen by nardrating {then}; this is {now}").format(then=p["nardrating"], now=__version__))
    return lines


def _explained(row: Moved, since: list[Ref] | None) -> list[str]:
    """The entries added since the freeze behind one moved row."""
    if since is None:
        return []
    direct = concerning(since, {row.player, *row.was})
    if direct:
        return [_("{entry}, added since the list: {text}").format(entry=r.words(), text=r.text) for r in direct]
    if not since:
        return [_("no journal entry was added since the list that can move it")]
    shown = [_("{entry}: {text}").format(entry=r.words(), text=r.text) for r in since[:INDIRECT_SHOWN]]
    more = len(since) - INDIRECT_SHOWN
    head = _("no entry added since the list names this player; through the ratings of others, the entries added "
             "since that can move the list:")
    return [head] + ["  " + line for line in shown] + ([_("  and {n} more").format(n=more)] if more > 0 else [])
