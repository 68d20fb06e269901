"""The commands that exchange data with other programs: publish (a static site), import, export."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..i18n import _
from .common import AsOfOpt, ClubOpt, RatingOpt, console, load, parse_date, plain


def publish(outdir: Annotated[Path, typer.Argument(metavar="OUTDIR", help="Folder for the site (created if missing).")],
            club: ClubOpt = None, rating: RatingOpt = None, as_of: AsOfOpt = None,
            force: Annotated[bool, typer.Option("--force", help="Write into a non-empty folder publish did not make.")] = False,
            public: Annotated[bool, typer.Option("--public", help="Show aliases instead of names.")] = False,
            lang: Annotated[str, typer.Option("--lang", help="The pages' language tag (html lang).")] = "en") -> None:
    """Write a static web site: leaderboards, a page per player (chart, games), tournament and list.

    Without --rating, every rating list of the club. Needs Jinja2: pip install 'nardrating[site]'.

    Example: nardrating publish site --as-of 2009-12-31
    """
    from .. import reports
    from ..exchange.publish import publish as do

    day = parse_date(as_of, "--as-of")
    ledger = load(club)
    if rating is not None:
        ledger.rating(rating)   # an unknown list is refused before anything is written
    done = do(ledger, outdir, rating, reports.as_of(ledger, day), force=force, public=public, lang=lang)
    console().print(f"published {len(done.files)} pages to {done.folder}: index.html, {done.players} players, "
                    f"{done.tournaments} tournaments, {done.lists} lists", markup=False)
    for note in done.notes:
        console(stderr=True).print(plain(note), markup=False)


def import_files(files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Files to import.")],
                 fmt: Annotated[Optional[str], typer.Option("--format", "-f", help="mat, pgn, trf or csv "
                                "(default: from each file's extension).", show_default=False)] = None,
                 discipline: Annotated[Optional[str], typer.Option("--discipline", "-d", help="Discipline of "
                                       "the matches (default: the tournament's; PGN and TRF: chess; else the "
                                       "club's).", show_default=False)] = None,
                 tournament: Annotated[Optional[str], typer.Option(help="Tournament id the matches join "
                                       "(created if new).", show_default=False)] = None,
                 day: Annotated[Optional[str], typer.Option("--date", help=".mat files without a date: "
                                "YYYY-MM-DD (default: the file's modification date).", show_default=False)] = None,
                 per_game: Annotated[bool, typer.Option("--per-game", help=".mat: one match per game "
                                     "instead of one per match.")] = False,
                 dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be added; write nothing.")] = False,
                 partial: Annotated[bool, typer.Option("--partial", help=_("PGN cut short (it ends inside a game): "
                                    "import the complete games before the cut one."))] = False,
                 club: ClubOpt = None) -> None:
    """Import gnubg/XG .mat matches, PGN games, FIDE TRF tournaments or CSV sheets: one atomic append.

    Example: nardrating import kramnik-anand.pgn --dry-run
    """
    from ..config import display_path
    from ..exchange.importers.run import run_import
    from ..render import emit
    from ..reports import Column, Table

    done = run_import(club, files, fmt, discipline, tournament, parse_date(day, "--date"), per_game, dry_run,
                      partial)
    plan, out = done.plan, console()
    if plan.players:
        emit(Table("Players", [Column("player", "Player"), Column("name", "Name"), Column("status", "Status"),
                               Column("title", "Title"), Column("games", "Games", "int")], plan.players),
             "table", out)
    for summary in plan.files:
        left_out = ", ".join(f"{n} × {why}" for why, n in summary.skipped.items())
        out.print(plain(f"{summary.file}: {summary.read} match{'es' if summary.read != 1 else ''}, {summary.added} to add, "
                  f"{summary.duplicates} already in the journal" + (f"; left out: {left_out}" if left_out else "")),
                  markup=False)
        for note in summary.notes:
            out.print(plain(f"{summary.file}: {note}"), markup=False)
    for entry in plan.entries:
        if entry.kind == "tournament":
            t = entry.data
            out.print(plain(f"new tournament {t['id']}: {t.get('name', t['id'])} ({t['system']}, {t['start']} to "
                            f"{t['end']}, {t.get('discipline', '')})"), markup=False)
    for warning in plan.warnings:
        out.print(plain(f"warning: {warning}"), markup=False)
    counts = ", ".join(f"{plan.count(kind)} {kind}{'s' if plan.count(kind) != 1 else ''}"
                       for kind in ("player", "tournament", "match"))
    counts = counts.replace("matchs", "matches")
    if not plan.entries:
        out.print("nothing to add", markup=False)
    else:
        verb = "would add" if dry_run else "added"
        out.print(plain(f"{verb} {counts} to {display_path(done.target)}"), markup=False)


def export_trf(tournament: Annotated[str, typer.Option(help="The tournament's id.")], club: ClubOpt = None) -> None:
    """A FIDE TRF16 report of a tournament of the journal, on standard output.

    Example: nardrating export trf --tournament cup-1 > cup-1.trf
    """
    from ..exchange.trf_export import export_trf as build

    sys.stdout.write(build(load(club), tournament))
