"""The commands of published lists: freeze-list (a list as a file, recorded by the journal),
verify FILE (is it still what the journal says?) and changes (what moved since a list or a date)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..i18n import N_, _
from .common import ClubOpt, DisciplineOpt, RatingOpt, check_format, console, fail, parse_date, plain

PeriodOpt = Annotated[Optional[str], typer.Option("--period", "-p", help=N_(
    "The list at the end of this period: 2009-Q1, 2009-03, 2009, 2009-H1 or 2009-01-15..2009-02-20."), show_default=False)]


def _period(text: str | None) -> object:
    """--period parsed, or a usage error (out of range) / exit 1 with the nearest periods (a typo)."""
    from ..periods import NotAPeriod, parse_period
    from .lists import _period_hint

    if text is None:
        return None
    try:
        return parse_period(text)
    except ValueError as exc:
        if not isinstance(exc, NotAPeriod):
            raise typer.BadParameter(str(exc), param_hint="--period") from None
        fail([f"--period: {exc}{_period_hint(text)}"])


def freeze_list(club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
                period: PeriodOpt = None,
                as_of: Annotated[Optional[str], typer.Option("--as-of", help=N_("The list on this date, YYYY-MM-DD."),
                                                             show_default=False)] = None,
                output: Annotated[Optional[Path], typer.Option("--output", "-o", help=N_(
                    "The file to write (default: lists/RATING-DISCIPLINE-DATE.FORMAT in the club folder); never "
                    "overwritten."), show_default=False)] = None,
                fmt: Annotated[str, typer.Option("--format", "-f", help=N_("json, md or xlsx (needs nardrating[xlsx])."))] = "json",
                ) -> None:
    """Write the list (as leaderboard computes it) with its provenance, and record it in the journal.

    Example: nardrating freeze-list --period 2009-Q1
    """
    from ..i18n import ngettext
    from ..lists.freeze import FORMATS, freeze
    from ..periods import Period

    if fmt not in FORMATS:
        raise typer.BadParameter(_("{fmt!r} is not one of {formats}").format(fmt=fmt, formats=", ".join(FORMATS)),
                                 param_hint="--format")
    if (period is None) == (as_of is None):
        raise typer.BadParameter(_("give the list's date: --period P or --as-of DATE, one of them"),
                                 param_hint="--period / --as-of")
    span = _period(period)
    assert span is None or isinstance(span, Period)
    day = span.end if span is not None else parse_date(str(as_of), "--as-of")
    done = freeze(club, rating, discipline, day, span, output, fmt)
    rows = ngettext("{n} row", "{n} rows", done.rows).format(n=done.rows)
    console().print(plain(_("wrote {path} ({title}, {rows}); the journal records it as [[list]] file = {recorded}, "
                            "sha256 = {sha}").format(path=done.path, title=done.title, rows=rows,
                                                     recorded=done.recorded, sha=done.sha256)), markup=False)


def verify(file: Annotated[Path, typer.Argument(metavar="FILE", help=N_("A list file freeze-list wrote."))],
           club: ClubOpt = None) -> None:
    """Recompute a frozen list from the journal as it is now; exit 1 if a row moved or the file was altered.

    Example: nardrating verify lists/federation-long-nardy-2009-03-31.json
    """
    from ..lists.verify import verify_list

    verdict = verify_list(club, file)
    out = console()
    for line in verdict.lines:
        out.print(plain(line), markup=False)
    if not verdict.ok:
        raise typer.Exit(1)


def changes(club: ClubOpt = None,
            since_list: Annotated[Optional[Path], typer.Option("--since-list", help=N_(
                "Before: the rows of this list file."), show_default=False)] = None,
            since: Annotated[Optional[str], typer.Option("--since", help=N_(
                "Before: the list on this date, YYYY-MM-DD."), show_default=False)] = None,
            to: Annotated[Optional[str], typer.Option("--to", help=N_(
                "After: the list on this date (default: the journal's last entry)."), show_default=False)] = None,
            rating: RatingOpt = None, discipline: DisciplineOpt = None,
            fmt: Annotated[str, typer.Option("--format", "-f", help=N_("table, csv, json or md."))] = "table") -> None:
    """Per player, rank and rating before and after, games added, and the entries behind the change.

    Example: nardrating changes --since-list lists/federation-long-nardy-2009-03-31.json --to 2009-06-30
    """
    from ..lists.changes import changes as build
    from ..render import emit

    fmt = check_format(fmt)
    if fmt == "fide-list":
        raise typer.BadParameter(_("'fide-list' is for leaderboard; changes writes table, csv, json or md"),
                                 param_hint="--format")
    if (since_list is None) == (since is None):
        raise typer.BadParameter(_("give what to compare with: --since-list FILE or --since DATE, one of them"),
                                 param_hint="--since-list / --since")
    if since_list is not None and (rating is not None or discipline is not None):
        raise typer.BadParameter(_("a list file names its rating list and discipline; --rating and --discipline go "
                                   "with --since"), param_hint="--rating / --discipline")
    table = build(club, since_list, parse_date(since, "--since"), parse_date(to, "--to"), rating, discipline)
    emit(table, fmt, console())
