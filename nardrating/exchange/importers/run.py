"""The import command's work: read the files, plan, check the journal as it would be, append once."""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import nullcontext
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ...datarecords import datarecord
from ...errors import ActionRefused, LedgerError, Problem
from ...i18n import _
from . import FORMATS, detect_format, parse_file
from .plan import FileSummary, Plan, block_of, plan_import, problems_after
from .records import Parsed

if TYPE_CHECKING:
    from ...replay.ledger import Ledger


@datarecord
class ImportResult:
    """What the import did: its plan, the journal file it appends to, and whether it appended."""
    plan: Plan
    target: Path
    written: bool


def read_files(paths: list[Path], fmt: str | None, day: date | None, per_game: bool,
               partial: bool = False) -> tuple[list[Parsed], list[FileSummary]]:
    """Each file parsed; a file given twice (the same bytes) is read once and the copy counted."""
    from ...config import display_path

    if fmt is not None and fmt not in FORMATS:
        raise ActionRefused(_("--format {fmt!r} must be one of {formats}").format(fmt=fmt, formats=", ".join(FORMATS)))
    parsed: list[Parsed] = []
    copies: list[FileSummary] = []
    seen: dict[str, str] = {}  # sha256 of a file's bytes → the file first read with them
    problems: list[Problem] = []
    for path in paths:
        label = display_path(path)
        kind = fmt or detect_format(path)
        if kind is None:
            problems.append(Problem(label, None, _("cannot tell the format from the name {name!r}; give --format "
                                                   "{formats}").format(name=path.name, formats="|".join(FORMATS))))
            continue
        try:
            raw = path.read_bytes() if path.is_file() else None
        except OSError as exc:
            problems.append(Problem(label, None, _("cannot read the file: {error}").format(error=exc.strerror or exc)))
            continue
        if raw is None:
            problems.append(Problem(label, None, _("not a regular file (a folder, a pipe or a device)")
                                    if path.exists() else _("no such file")))
            continue
        digest = hashlib.sha256(raw).hexdigest()
        if digest in seen:
            summary = FileSummary(label)
            summary.skipped[_("the same file as {file}").format(file=seen[digest])] += 1
            copies.append(summary)
            continue
        seen[digest] = label
        file_day = date.fromtimestamp(path.stat().st_mtime) if kind == "mat" else None
        parsed.append(parse_file(raw, label, kind, day, per_game, file_day, partial))
    if problems:
        raise LedgerError(problems + [p for one in parsed for p in one.problems])
    return parsed, copies


Confirm = Callable[[list[tuple[str, date]]], None]  # told the games dated after today, (FILE:LINE, date); may refuse


def run_import(club: str | None, paths: list[Path], fmt: str | None = None, discipline: str | None = None,
               tournament: str | None = None, day: date | None = None, per_game: bool = False,
               dry_run: bool = False, confirm: Confirm | None = None, ratings: bool = False,
               partial: bool = False) -> ImportResult:
    from ...journal.actions import target_journal
    from ...journal.writer import append_block, club_lock
    from ...replay.loader import load_club

    parsed, copies = read_files(paths, fmt, day, per_game, partial)
    later = [(f"{one.file}:{game.line}", game.day) for one in parsed for game in one.games if game.day > date.today()]
    if later and confirm is not None:
        confirm(later)  # before the lock: it may ask
    ledger = load_club(club)
    if any(p.problems for p in parsed):
        raise LedgerError([p for one in parsed for p in one.problems])
    target = target_journal(ledger)
    with nullcontext() if dry_run else club_lock(ledger.config.folder):
        if not dry_run:
            ledger = load_club(club)  # again under the lock: another writer may have appended
        text = target.read_text(encoding="utf-8", errors="replace") if target.exists() else ""
        plan = plan_import(ledger, parsed, discipline, tournament, text, ratings)
        plan.files += copies
        if not plan.entries:
            return ImportResult(plan, target, False)
        block, starts = block_of(plan, [one.file for one in parsed])
        problems = _draws_refused(ledger, plan) or problems_after(ledger.config, target, block, starts)
        if problems:
            raise LedgerError(problems)
        if not dry_run:
            append_block(target, block)
    return ImportResult(plan, target, not dry_run)


def _draws_refused(ledger: Ledger, plan: Plan) -> list[Problem]:
    """Each drawn game where a list rating its discipline takes none (fibs), at its line of the imported
    file: the journal's check refuses it too, but with the advice for a match already written."""
    from ...journal.actions.draws import draw_refusing_list, draw_words
    from ...journal.limits import parse_result

    default = ledger.config.club.default_discipline
    found = []
    for entry in plan.entries:
        result = entry.data.get("result") if entry.kind == "match" else None
        discipline = entry.data.get("discipline") or default
        refusing = draw_refusing_list(ledger, discipline) if isinstance(result, str) and parse_result(result) == 0.5 else None
        if refusing is None:
            continue
        why = draw_words(refusing, discipline)
        said = (_("{why}; correct the result in the file (nothing was imported)") if refusing.disciplines is not None
                else _("{why}; name the disciplines [rating.{name}] rates in nardrating.toml (nothing was imported)"))
        found.append(Problem(entry.file, entry.line, said.format(why=why, name=refusing.name), entry.data.get("id")))
    return found
