"""init and check: a new club, and a full check of an existing one."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..i18n import N_, _, ngettext
from .common import ClubOpt, console, load, plain

if TYPE_CHECKING:
    from ..errors import Problem
    from ..journal.model import Journal


def init(folder: Annotated[Path, typer.Argument(metavar="FOLDER", help=N_("Folder for the new club."))] = Path("."),
         engine: Annotated[str, typer.Option(help=N_("Rating engine of the first rating list."))] = "elo",
         name: Annotated[Optional[str], typer.Option(help=N_("The club's name."))] = None,
         discipline: Annotated[Optional[str], typer.Option("--discipline", "-d", help=N_("The club's default "
                               "discipline, e.g. backgammon (default: the engine's: chess for elo and fide, "
                               "long-nardy for the others)."), show_default=False)] = None) -> None:
    """Create a commented nardrating.toml and an empty journal; never overwrites.

    Example: nardrating init my-club --engine elo --name "Шахматный клуб «Ладья»"
    """
    from ..journal.actions import init_club, next_steps

    for path in init_club(folder, engine, name, discipline):
        console().print(_("created {path}").format(path=path), markup=False)
    console().print(next_steps(folder), markup=False)


def check(club: ClubOpt = None,
          strict: Annotated[bool, typer.Option("--strict", help=N_("Exit 1 when there are warnings too."))] = False,
          fmt: Annotated[str, typer.Option("--format", "-f", help=N_("text or json."))] = "text") -> None:
    """Check the config and every journal file; list every problem as FILE:LINE: ENTRY: message.

    Warnings (likely typos: near-duplicate players, a discipline no list rates…) are listed
    too and leave the exit code 0, unless --strict.
    Example: nardrating check --club sample_ledgers/chess-club
    """
    from ..errors import LedgerError
    from ..journal.lint import lint
    from ..render.formats import json_text
    from .terminal import data_stream
    from ..reports import last_entry_date

    if fmt not in ("text", "json"):
        raise typer.BadParameter(_("{value!r} is not one of {formats}").format(value=fmt, formats="text, json"),
                                 param_hint="--format")
    if fmt == "json":  # a script's input: the same messages whatever the locale
        from ..i18n import DEFAULT, choose

        choose(DEFAULT)
    try:
        ledger = load(club)
    except LedgerError as exc:
        if fmt != "json":
            raise
        typer.echo(json_text([_problem_json(p, "error") for p in exc.problems]), file=data_stream(sys.stdout))
        raise typer.Exit(1) from None
    warnings = lint(ledger.journal, ledger.config)
    if fmt == "json":
        typer.echo(json_text([_problem_json(p, "warning") for p in warnings]), file=data_stream(sys.stdout))
    else:
        j = ledger.journal
        last = last_entry_date(j)
        out = console()
        for w in warnings:
            out.print(plain(_warning_text(w)), markup=False)
        lists = ledger.config.ratings
        counts = journal_counts(j) + "; " + ngettext("rating list: {lists}", "rating lists: {lists}", len(lists)).format(
            lists=", ".join(lists))
        if j.lists:
            counts += _lists_published(len(j.lists))
        if last and ledger.config.club.as_of == "last-entry":
            counts += "; " + _("last entry {day} (the date commands mean without --as-of)").format(day=last)
        found = ngettext("{n} warning", "{n} warnings", len(warnings)).format(n=len(warnings))
        if strict and warnings:  # not ok: --strict fails on warnings
            line = _("failed (--strict): {warnings}; {counts}").format(warnings=found, counts=counts)
        elif warnings:
            line = _("ok, with {warnings}: {counts}").format(warnings=found, counts=counts)
        else:
            line = _("ok: {counts}").format(counts=counts)
        out.print(line, markup=False)
    if strict and warnings:
        raise typer.Exit(1)


def _lists_published(n: int) -> str:
    from ..i18n import ngettext

    return "; " + ngettext("{n} list published", "{n} lists published", n).format(n=n)
def journal_counts(j: Journal) -> str:
    """"20 players, 1 match, 1 tournament, 0 voids, 19 adjustments": each count with its plural."""
    return ", ".join((ngettext("{n} player", "{n} players", len(j.players)).format(n=len(j.players)),
                      ngettext("{n} match", "{n} matches", len(j.matches)).format(n=len(j.matches)),
                      ngettext("{n} tournament", "{n} tournaments", len(j.tournaments)).format(n=len(j.tournaments)),
                      ngettext("{n} void", "{n} voids", len(j.voids)).format(n=len(j.voids)),
                      ngettext("{n} adjustment", "{n} adjustments", len(j.adjusts)).format(n=len(j.adjusts))))


def _warning_text(p: Problem) -> str:
    where = p.file if p.line is None else f"{p.file}:{p.line}"
    entry = f"{p.entry.strip()}: " if p.entry and p.entry.strip() else ""
    return _("{where}: {entry}warning: {message}").format(where=where, entry=entry, message=p.message)


def _problem_json(p: Problem, severity: str) -> dict[str, Any]:
    return {"file": p.file, "line": p.line, "entry": p.entry, "severity": severity, "message": p.message}
