"""The commands that exchange data with other programs: publish (a static site), import, export."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..i18n import N_, _, ngettext
from . import complete
from .common import AsOfOpt, ClubOpt, YesOpt, check_language, confirm_dates, console, load, parse_date, plain


def publish(outdir: Annotated[Path, typer.Argument(metavar="OUTDIR", help=N_("Folder for the site: new, empty, or "
                                                    "made by an earlier publish (created if missing)."))],
            club: ClubOpt = None,
            rating: Annotated[Optional[str], typer.Option("--rating", "-r", metavar="LIST", help=N_("Only this rating list (default: "
                              "every list of the club)."), show_default=False, autocompletion=complete.ratings)] = None,
            as_of: AsOfOpt = None,
            force: Annotated[bool, typer.Option("--force", help=N_("Write into a folder that is not empty and "
                             "was not made by publish."))] = False,
            public: Annotated[bool, typer.Option("--public", help=N_("Show aliases instead of names."))] = False,
            lang: Annotated[Optional[str], typer.Option("--lang", metavar="TAG", help=N_("The pages' language, en or ru, or a tag "
                            "such as ru-RU for their html lang (default: club.language)."), show_default=False)] = None) -> None:
    """Write a static web site: leaderboards, a page per player (chart, games), per tournament and per list.

    Without --rating, every rating list of the club. Needs Jinja2: pip install 'nardrating[site]'.

    Example: nardrating publish site --as-of 2009-12-31
    """
    from .. import reports
    from ..exchange.publish import publish as do

    from ..lists.provenance import stamped

    day = parse_date(as_of, "--as-of")
    lang = check_language(lang)
    ledger, stamp = stamped(lambda: load(club), club)   # every page's footer carries the digests
    if rating is not None:
        ledger.rating(rating)   # an unknown list is refused before anything is written
    done = do(ledger, outdir, rating, reports.as_of(ledger, day), force=force, public=public,
              lang=lang or ledger.config.club.language, provenance=stamp.short())
    console().print(plain(_("published {pages} to {folder}: index.html, {players}, {tournaments}, {lists}").format(
        pages=ngettext("{n} page", "{n} pages", len(done.files)).format(n=len(done.files)), folder=done.folder,
        players=ngettext("{n} player", "{n} players", done.players).format(n=done.players),
        tournaments=ngettext("{n} tournament", "{n} tournaments", done.tournaments).format(n=done.tournaments),
        lists=ngettext("{n} list", "{n} lists", done.lists).format(n=done.lists))), markup=False)
    for note in done.notes:
        console(stderr=True).print(plain(note), markup=False)


def import_files(files: Annotated[list[Path], typer.Argument(metavar="FILE", help=N_("Files to import (one or more)."))],
                 fmt: Annotated[Optional[str], typer.Option("--format", "-f", metavar="FORMAT", help=N_("mat, pgn, trf or csv "
                                "(default: from each file's extension)."), show_default=False)] = None,
                 discipline: Annotated[Optional[str], typer.Option("--discipline", "-d", metavar="NAME", help=N_("Discipline of "
                                       "the matches (default: the tournament's; PGN and TRF: chess; else the "
                                       "club's)."), show_default=False)] = None,
                 tournament: Annotated[Optional[str], typer.Option(metavar="ID", autocompletion=complete.tournaments, help=N_("Tournament id the matches join "
                                       "(created if new)."), show_default=False)] = None,
                 day: Annotated[Optional[str], typer.Option("--date", metavar="DATE", help=N_(".mat files without a date: "
                                "YYYY-MM-DD (default: the file's modification date)."), show_default=False)] = None,
                 per_game: Annotated[bool, typer.Option("--per-game", help=N_(".mat: one match per game "
                                     "instead of one per match."))] = False,
                 ratings: Annotated[bool, typer.Option("--ratings", help=N_("TRF, PGN: the file's ratings as "
                                    "[[adjust]] entries, the day before the event, for players an Elo-scale "
                                    "list (elo, fide, glicko) does not rate yet."))] = False,
                 dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Show what would be added; write nothing."))] = False,
                 partial: Annotated[bool, typer.Option("--partial", help=N_("PGN cut short (it ends inside a game): "
                                    "import the complete games before the cut one."))] = False,
                 yes: YesOpt = False, club: ClubOpt = None) -> None:
    """Import gnubg/XG .mat matches, PGN games, FIDE TRF tournaments or CSV sheets: one atomic append.

    Example: nardrating import kramnik-anand.pgn --dry-run
    """
    from ..config import display_path
    from ..exchange.importers.run import run_import
    from ..render import print_table
    from ..reports import Column, Table

    done = run_import(club, files, fmt, discipline, tournament, parse_date(day, "--date"), per_game, dry_run,
                      confirm=lambda later: confirm_dates(later, yes, dry_run), ratings=ratings, partial=partial)
    plan, out = done.plan, console()
    if plan.players:  # (--format here is the files' format: a wider terminal is what shows more)
        print_table(Table(_("Players"), [Column("player", _("Player")), Column("name", _("Name")),
                                         Column("status", _("Status")), Column("title", _("Title")),
                                         Column("games", _("Games"), "int")], plan.players),
                    out, N_("a wider terminal shows them"))
    for summary in plan.files:
        left_out = ", ".join(f"{n} × {why}" for why, n in summary.skipped.items())
        read = ngettext("{n} match", "{n} matches", summary.read).format(n=summary.read)
        line = _("{file}: {read}, {added} to add, {duplicates} already in the journal").format(
            file=summary.file, read=read, added=summary.added, duplicates=summary.duplicates)
        out.print(plain(line + (_("; left out: {what}").format(what=left_out) if left_out else "")), markup=False)
        for note in summary.notes:
            out.print(plain(f"{summary.file}: {note}"), markup=False)
    for entry in plan.entries:
        if entry.kind == "tournament":
            t = entry.data
            out.print(plain(_("new tournament {tournament}: {name} ({system}, {start} to {end}, {discipline})").format(
                tournament=t["id"], name=t.get("name", t["id"]), system=t["system"], start=t["start"], end=t["end"],
                discipline=t.get("discipline", ""))), markup=False)
    for warning in plan.warnings:
        out.print(plain(_("warning: {message}").format(message=warning)), markup=False)
    counts = [ngettext("{n} player", "{n} players", plan.count("player")).format(n=plan.count("player")),
              ngettext("{n} tournament", "{n} tournaments", plan.count("tournament")).format(n=plan.count("tournament"))]
    if plan.count("adjust") or ratings:
        counts.append(ngettext("{n} rating", "{n} ratings", plan.count("adjust")).format(n=plan.count("adjust")))
    counts.append(ngettext("{n} match", "{n} matches", plan.count("match")).format(n=plan.count("match")))
    if not plan.entries:
        out.print(_("nothing to add"), markup=False)
    else:
        done_text = _("would add {counts} to {file}") if dry_run else _("added {counts} to {file}")
        out.print(plain(done_text.format(counts=", ".join(counts), file=display_path(done.target))), markup=False)


def export_trf(tournament: Annotated[str, typer.Option(metavar="ID", help=N_("The tournament's id."), autocompletion=complete.tournaments)], club: ClubOpt = None) -> None:
    """A FIDE TRF16 report of a tournament of the journal, on standard output.

    Example: nardrating export trf --tournament cup-1 > cup-1.trf
    """
    from ..exchange.trf_export import export_trf as build
    from ..lists.provenance import comment_footer, stamped

    from .terminal import data_stream

    ledger, stamp = stamped(lambda: load(club), club)   # the journal's digests as ### comment lines at the end
    data_stream(sys.stdout).write(build(ledger, tournament) + comment_footer(stamp.short(), "###"))  # TRF: never wrapped
