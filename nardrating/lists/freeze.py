"""`freeze-list`: the list as `leaderboard` computes it, written as a file that says what made it.

The file holds the leaderboard's rows and the provenance (provenance.py); its SHA-256 goes into
a `[[list]]` entry appended through the writers' one path (journal/actions/write.py), so the
journal remembers what was published and when. Everything happens under the club lock: the list
is computed from the journal as it is then, the entry is checked as a full read would check it,
the file is written new (safeout.py: never over anything, never half) just before the append,
and removed again if the append fails: a refusal leaves the journal byte for byte as it was.
"""
from __future__ import annotations

import hashlib
import os
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from ..errors import ActionRefused, did_you_mean
from ..journal.entries import MAX_TEXT
from ..i18n import DEFAULT, _, using
from .provenance import Stamp, md_footer, stamped, value_text
from .safeout import create_new, exists_message, remove_created, remove_leftovers

if TYPE_CHECKING:
    from ..engines.base import RatingResult
    from ..periods import Period
    from ..replay.ledger import Ledger
    from ..reports import Table

FORMATS = ("json", "md", "xlsx")


@datarecord(frozen=True)
class Frozen:
    """A list written: where, as the journal records it, its SHA-256, and what it holds."""
    path: Path
    recorded: str
    sha256: str
    title: str
    rows: int


def known_discipline(ledger: Ledger, discipline: str | None) -> None:
    """Refuse a discipline the club does not know (as every command's --discipline)."""
    from ..reports import known_disciplines

    known = known_disciplines(ledger)
    if discipline is not None and discipline not in known:
        raise ActionRefused(_("--discipline: unknown discipline {discipline!r}{hint}; the club has {known}").format(
            discipline=discipline, hint=did_you_mean(discipline, set(known)), known=", ".join(known)))


def list_table(ledger: Ledger, rating: str | None, discipline: str | None, day: date) -> tuple[RatingResult, Table]:
    """The list of one rating list and discipline on `day`, as `leaderboard --as-of DAY` shows it."""
    from .. import reports

    known_discipline(ledger, discipline)
    rating_list = ledger.rating(rating)
    result = ledger.run(rating_list, ledger.discipline(rating_list, discipline), day)
    return result, reports.leaderboard(ledger, result, day=reports.AsOf(day))


def entry_count(ledger: Ledger) -> int:
    """The journal's entries: every one but [[player]] takes a sequence number; then its players."""
    journal = ledger.journal
    return journal.next_seq + sum(1 for p in journal.players.values() if p.declared)


def provenance(ledger: Ledger, result: RatingResult, stamp: Stamp, day: date, period: Period | None,
               frozen_at: datetime) -> dict[str, Any]:
    found: dict[str, Any] = {
        "club": ledger.config.club.name or ledger.config.folder.name, "rating": result.rating,
        "engine": result.engine, "discipline": result.discipline, "as_of": day.isoformat()}
    if period is not None:
        found["period"] = {"start": period.start.isoformat(), "end": period.end.isoformat()}
    found.update(entries=entry_count(ledger), journal_sha256=stamp.journal_sha256,
                 journal_files=stamp.journal_files(), config_sha256=stamp.config_sha256,
                 nardrating=stamp.short()["nardrating"], frozen_at=frozen_at.isoformat(timespec="seconds"))
    return found


def list_bytes(table: Table, found: dict[str, Any], fmt: str) -> bytes:
    """The list file: JSON {"rows", "provenance"}; Markdown with a provenance table; xlsx with both."""
    from ..render.formats import to_json, to_markdown
    from ..reports import Table as Document

    if fmt == "json":
        document = Document("", [], [], json_value={"rows": table.all_rows(), "provenance": found})
        return (to_json(document) + "\n").encode("utf-8")
    if fmt == "md":
        return (to_markdown(table) + md_footer(found)).encode("utf-8")
    from ..render.spreadsheet import xlsx_bytes

    return xlsx_bytes(table, provenance={key: value_text(key, value) for key, value in found.items()})


def default_path(ledger: Ledger, result: RatingResult, day: date, fmt: str) -> Path:
    """lists/RATING-DISCIPLINE-DATE.FORMAT in the club folder (ids are file-name safe: letters, digits, _ and -)."""
    return ledger.config.folder / "lists" / f"{result.rating}-{result.discipline}-{day.isoformat()}.{fmt}"


def recorded_name(ledger: Ledger, path: Path) -> str:
    """The file as the [[list]] entry names it: relative to the club folder (with /) when inside it, else absolute."""
    folder = Path(os.path.realpath(ledger.config.folder))
    where = Path(os.path.realpath(path.parent)) / path.name
    try:
        return where.relative_to(folder).as_posix()
    except ValueError:
        return str(where)


def freeze(club: str | None, rating: str | None, discipline: str | None, day: date, period: Period | None,
           output: Path | None, fmt: str = "json") -> Frozen:
    """Compute, write and record the list; ActionRefused or LedgerError, with nothing written, if it cannot."""
    from ..journal.actions.write import write_entry
    from ..replay.loader import load_club

    if fmt not in FORMATS:
        raise ActionRefused(_("--format: {fmt!r} is not one of {formats}").format(fmt=fmt, formats=", ".join(FORMATS)))
    club_only = load_club(club, config_only=True)
    config_path = str(club_only.config.path)
    made: dict[str, Any] = {}

    def make_fields(current: Ledger, journal_path: Path) -> dict[str, Any]:
        # Under the lock: the journal hashed, loaded and hashed again (equal), so that the digest
        # is of the very bytes the list was computed from.
        ledger, stamp = stamped(lambda: load_club(config_path), config_path)
        known_discipline(ledger, discipline)   # (refused in the user's language, before the list's English below)
        ledger.rating(rating)
        # A frozen list is data that `verify` reads back: its headings, statuses and numbers are English
        # whatever the locale (docs/languages.md); a Russian locale wrote them in Russian, and verify then
        # found every row changed.
        with using(DEFAULT):
            result, table = list_table(ledger, rating, discipline, day)
            now = datetime.now().astimezone()
            data = list_bytes(table, provenance(ledger, result, stamp, day, period, now), fmt)
        target = output if output is not None else default_path(ledger, result, day, fmt)
        if os.path.lexists(target):
            raise ActionRefused(exists_message(target))
        sha256 = hashlib.sha256(data).hexdigest()
        from ..reports import AsOf

        title = f"{result.rating} · {result.discipline} · {AsOf(day)}"   # (the message's, in the user's language)
        made.update(target=target, data=data, title=title, rows=len(table.all_rows()), sha256=sha256)
        made["recorded"] = recorded_name(ledger, target)
        if len(made["recorded"]) > MAX_TEXT:
            raise ActionRefused(_("--output: {path} is {n} characters long, more than the {limit} a [[list]] entry "
                                  "holds; choose a shorter path").format(path=made["recorded"], n=len(made["recorded"]),
                                                                       limit=MAX_TEXT))
        return {"file": made["recorded"], "sha256": sha256, "date": now.date()}

    def write_file() -> None:
        target: Path = made["target"]
        if output is None:
            try:
                target.parent.mkdir(exist_ok=True)   # the club's lists/ folder, on first use
            except OSError as exc:
                raise ActionRefused(_("{folder}: cannot make the folder ({why}); nothing was written").format(
                    folder=target.parent, why=exc.strerror or exc)) from None
        remove_leftovers(target)
        made["stat"] = create_new(target, made["data"])

    try:
        write_entry(club_only, "list", make_fields, before_append=write_file)
    except BaseException:
        if "stat" in made:   # the journal refused the entry: the file goes too
            remove_created(made["target"], made["stat"])
        raise
    return Frozen(made["target"], made["recorded"], made["sha256"], made["title"], made["rows"])
