"""The command line: parse options, call the library, render. Nothing else.

Errors from the library (LedgerError, ActionRefused) become plain messages on
stderr and exit code 1 in one place, `_fail`; usage errors are typer's (exit 2);
anything else is a bug, reported by `report_unexpected` as one paragraph, exit 2
(from each command's `handles_errors`, and from `main` for what escapes those).
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

# pydantic looks for plugins among all installed packages at import (about 15 ms); a
# command line answering in a quarter of a second has none to load.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import typer  # noqa: E402

from ._startup import lazy_typer_coercion, no_pydantic_plugin_loader  # noqa: E402

no_pydantic_plugin_loader()
lazy_typer_coercion()

app = typer.Typer(
    name="nardrating",
    help="A ratings ledger for nardy, backgammon and chess clubs: an append-only journal "
         "replayed through rating engines.\n\nExample: nardrating leaderboard --club sample_ledgers/chess-club",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

ClubOpt = Annotated[Optional[str], typer.Option("--club", help="Club folder or its nardrating.toml "
                    "(default: $NARDRATING_CLUB, else the nearest nardrating.toml upward).", show_default=False)]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table, csv, json or md.")]
RatingOpt = Annotated[Optional[str], typer.Option("--rating", "-r", help="Rating list name (default: the first in the config).", show_default=False)]
DisciplineOpt = Annotated[Optional[str], typer.Option("--discipline", "-d", help="Discipline (default: the club's).", show_default=False)]
AsOfOpt = Annotated[Optional[str], typer.Option("--as-of", help="Date YYYY-MM-DD (default: the journal's last "
                    'entry; today with club.as_of = "today" in nardrating.toml).', show_default=False)]


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"nardrating {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False):
    pass  # the options every command shares (the app's help is above)


def _console(stderr: bool = False):
    from rich.console import Console

    # Whatever it prints is data: no markup, no emoji codes, no highlighting, no wrapping.
    return Console(stderr=stderr, markup=False, emoji=False, highlight=False, soft_wrap=True)


def _plain(text: str) -> str:
    """A message as data for the terminal: control and format characters shown escaped."""
    import unicodedata

    return "".join(c if c == "\t" or unicodedata.category(c)[0] != "C" else repr(c)[1:-1] for c in text)


def _fail(lines: list[str]) -> None:
    for line in lines:
        typer.echo(_plain(line), err=True)
    raise typer.Exit(1)


def _journals_written() -> list:
    """Journal files this process has replaced so far (none if it never loaded the writer)."""
    writer = sys.modules.get("nardrating.journal.writer")
    return list(writer.appended) if writer else []


def report_unexpected(exc: BaseException, command: str | None, written_before: int = 0) -> None:
    """The one message for an error nobody foresaw: one paragraph on stderr, no traceback.

    NARDRATING_DEBUG=1 puts the traceback before it, for a bug report.
    """
    import traceback

    if os.environ.get("NARDRATING_DEBUG", "") not in ("", "0"):
        traceback.print_exception(exc, file=sys.stderr)
    what = " ".join(f"{type(exc).__name__}: {exc}".split())
    what = what if len(what) <= 300 else what[:300] + "…"
    written = _journals_written()[written_before:]
    if written:
        wrote = (f"Before it failed it had written its entry, whole, to {', '.join(map(str, written))}; "
                 "nothing else was written.")
    else:
        wrote = "Nothing was written: the journal is only ever replaced whole, so it is as it was."
    name = f"nardrating {command}" if command else "nardrating"
    sys.stderr.write(_plain(
        f"{name} failed unexpectedly ({what}). {wrote} This is a bug in nardrating; to report it, run the "
        "same command again with NARDRATING_DEBUG=1, which also prints the traceback, and send that with "
        "the command you ran. Running it with NARDRATING_NO_CACHE=1 rules out the cache.") + "\n")


# How typer (or click, under older typers) ends a command or reports a usage error.
_TYPER_EXITS = (typer.Exit, typer.Abort,
                next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"))


def handles_errors(command):
    """Known problems become their messages and exit 1; anything else report_unexpected and exit 2."""

    name = command.__name__.replace("_", "-")  # as typer names the command

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from .errors import ActionRefused, LedgerError

        written_before = len(_journals_written())
        try:
            return command(*args, **kwargs)
        except LedgerError as exc:
            _fail([str(p) for p in exc.problems])
        except ActionRefused as exc:
            _fail([str(exc)])
        except (RecursionError, MemoryError) as exc:
            _fail([f"nardrating: the input is too large or too deeply nested to process ({type(exc).__name__})"])
        except _TYPER_EXITS:
            raise  # usage errors (exit 2) and exits already decided
        except Exception as exc:  # noqa: BLE001 - the boundary: one paragraph, never a traceback
            report_unexpected(exc, name, written_before)
            raise typer.Exit(2) from None

    return wrapper


def _date(value: str | None, option: str) -> date | None:
    from .periods import check_day

    if value is None:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a date; write YYYY-MM-DD", param_hint=option) from None
    try:
        return check_day(day, value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


def _format(value: str) -> str:
    from .render import FORMATS

    if value not in FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}", param_hint="--format")
    return value


# Bytes of journal files above which a full read takes about a second or more.
BIG_JOURNAL = int(os.environ.get("NARDRATING_PROGRESS_AFTER", 5_000_000))


@contextlib.contextmanager
def _progress(club):
    """A progress bar on stderr for long work, only when stderr is a terminal (never in scripts)."""
    quiet = lambda text: None  # noqa: E731
    if not sys.stderr.isatty():
        yield quiet
        return
    from .config import find_club, load_config

    try:
        config = load_config(find_club(club))
        size = sum(p.stat().st_size for p in config.journal_paths() if p.exists())
    except Exception:  # noqa: BLE001 - the command itself will report it
        size = 0
    if size < BIG_JOURNAL:
        yield quiet
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    stages = len(config.journal_paths()) + 1 + 2 * len(config.ratings)
    with Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(), TimeElapsedColumn(),
                  console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task("loading", total=stages)
        yield lambda text: bar.update(task, description=text, advance=1)


def _load(club):
    from .ledger import load_club

    with _progress(club) as progress:
        return load_club(club, progress=progress)


@app.command()
@handles_errors
def init(folder: Annotated[Path, typer.Argument(help="Folder for the new club.")] = Path("."),
         engine: Annotated[str, typer.Option(help="Rating engine of the first rating list.")] = "elo",
         name: Annotated[Optional[str], typer.Option(help="The club's name.")] = None):
    """Create a commented nardrating.toml and an empty journal; never overwrites.

    Example: nardrating init my-club --engine elo --name "Шахматный клуб «Ладья»"
    """
    from .actions import init_club, next_steps

    for path in init_club(folder, engine, name):
        _console().print(f"created {path}", markup=False)
    _console().print(next_steps(folder), markup=False)


@app.command()
@handles_errors
def check(club: ClubOpt = None):
    """Check the config and every journal file; list every problem as FILE:LINE: message.

    Example: nardrating check --club sample_ledgers/chess-club
    """
    from .reports import last_entry_date

    ledger = _load(club)
    j = ledger.journal
    last = last_entry_date(j)
    _console().print(f"ok: {len(j.players)} players, {len(j.matches)} matches, {len(j.tournaments)} tournaments, "
                     f"{len(j.voids)} voids, {len(j.adjusts)} adjustments; "
                     f"rating lists: {', '.join(ledger.config.ratings)}"
                     + (f"; last entry {last} (the date commands mean without --as-of)"
                        if last and ledger.config.club.as_of == "last-entry" else ""), markup=False)


def _writer_club(club):
    """The club's config; a writer loads the journal itself, under the club lock."""
    from .ledger import load_club

    return load_club(club, config_only=True)


@app.command("add-player")
@handles_errors
def add_player(player_id: Annotated[str, typer.Argument(metavar="ID", help="Unique id: letters, digits, _ and -.")],
               name: Annotated[Optional[str], typer.Option(help="Full name (default: the id).")] = None,
               alias: Annotated[Optional[str], typer.Option(help="Public name, shown with --public.")] = None,
               qualification: Annotated[Optional[str], typer.Option(help="MS, KMS, 1, 2 or 3.")] = None,
               title: Annotated[Optional[str], typer.Option(help="Title, e.g. FM.")] = None,
               joined: Annotated[Optional[str], typer.Option(help="Date joined, YYYY-MM-DD.")] = None,
               dry_run: Annotated[bool, typer.Option("--dry-run", help="Check and show; write nothing.")] = False,
               club: ClubOpt = None):
    """Add a [[player]] to the journal.

    Example: nardrating add-player anna --name "Анна Петрова" --alias "Анна П." --qualification KMS
    """
    from .actions import add_player as do

    entry = do(_writer_club(club), player_id, name, alias, qualification, title, _date(joined, "--joined"), dry_run)
    _console().print(("would add" if dry_run else "added") + f" player {entry['id']}", markup=False)


@app.command("add-match")
@handles_errors
def add_match(a: Annotated[str, typer.Argument(metavar="A", help="First player (chess: white).")],
              b: Annotated[str, typer.Argument(metavar="B", help="Second player (chess: black).")],
              winner: Annotated[Optional[str], typer.Option(help="The winner's id.")] = None,
              result: Annotated[Optional[str], typer.Option(help='"1-0", "0-1" or "1/2-1/2", from A\'s side.')] = None,
              day: Annotated[Optional[str], typer.Option("--date", help="YYYY-MM-DD (default: today).")] = None,
              length: Annotated[int, typer.Option(help="Match length in points.")] = 1,
              score: Annotated[Optional[str], typer.Option(help="Final score, e.g. 7-4.")] = None,
              chips: Annotated[Optional[float], typer.Option(help="Chips won (chip rating).")] = None,
              discipline: DisciplineOpt = None,
              tournament: Annotated[Optional[str], typer.Option(help="Tournament id.")] = None,
              unrated: Annotated[bool, typer.Option("--unrated", help="Record it, rate it nowhere.")] = False,
              forfeit: Annotated[bool, typer.Option("--forfeit", help="A no-show or technical result.")] = False,
              note: Annotated[Optional[str], typer.Option(help="A note.")] = None,
              dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the rating changes; write nothing.")] = False,
              club: ClubOpt = None):
    """Append a [[match]] and show each player's rating change in every list that rates it.

    Example: nardrating add-match anna boris --winner anna --date 2009-01-15
    """
    from .actions import add_match as do
    from .render import cell_text
    from .reports import Column

    entry, changes = do(_writer_club(club), a, b, winner=winner, result=result, day=_date(day, "--date"),
                        length=length, score=score, discipline=discipline, tournament=tournament,
                        rated=not unrated, forfeit=forfeit, note=note, chips=chips, dry_run=dry_run)
    out = _console()
    out.print(("would add" if dry_run else "added") + f" match {entry['id']} on {entry['date']}", markup=False)
    rating_col, change_col = Column("", "", "rating"), Column("", "", "change")
    for c in changes:
        if c.rated:
            out.print(f"  {c.rating} ({c.discipline}): {c.player} {cell_text(c.before, rating_col)} "
                      f"{cell_text(c.change, change_col)} → {cell_text(c.after, rating_col)}", markup=False)
        else:
            out.print(f"  {c.rating} ({c.discipline}): {c.player} not rated now: {c.reason}", markup=False)


@app.command("add-tournament")
@handles_errors
def add_tournament(tournament_id: Annotated[str, typer.Argument(metavar="ID")],
                   name: Annotated[str, typer.Option(help="Tournament name.")],
                   system: Annotated[str, typer.Option(help="swiss, round-robin, knockout or match.")],
                   start: Annotated[str, typer.Option(help="First day, YYYY-MM-DD.")],
                   end: Annotated[str, typer.Option(help="Last day, YYYY-MM-DD.")],
                   discipline: DisciplineOpt = None,
                   official: Annotated[bool, typer.Option("--official", help="An official competition.")] = False,
                   dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
                   club: ClubOpt = None):
    """Append a [[tournament]]; matches join it with add-match --tournament ID.

    Example: nardrating add-tournament cup-1 --name "Кубок клуба" --system swiss --start 2009-02-01 --end 2009-02-03
    """
    from .actions import add_tournament as do

    entry = do(_writer_club(club), tournament_id, name=name, system=system, start=_date(start, "--start"),
               end=_date(end, "--end"), discipline=discipline, official=official, dry_run=dry_run)
    _console().print(("would add" if dry_run else "added") + f" tournament {entry['id']}", markup=False)


@app.command()
@handles_errors
def void(match_id: Annotated[str, typer.Argument(metavar="MATCH_ID")],
         reason: Annotated[str, typer.Option(help="Why the match is voided.")],
         day: Annotated[Optional[str], typer.Option("--date", help="Date of the correction (default: today).")] = None,
         dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
         club: ClubOpt = None):
    """Void a match: it is replayed as if absent. Re-enter the right result with add-match.

    Example: nardrating void m0003 --reason "result entered the wrong way round"
    """
    from .actions import void_match

    entry = void_match(_writer_club(club), match_id, reason, _date(day, "--date"), dry_run)
    _console().print(("would void" if dry_run else "voided") + f" match {entry['match']}", markup=False)


@app.command()
@handles_errors
def players(club: ClubOpt = None, rating: RatingOpt = None, as_of: AsOfOpt = None, fmt: FormatOpt = "table"):
    """List players: ids, names, aliases, qualifications, games per discipline (as the leaderboard counts them).

    Example: nardrating players --format csv
    """
    from . import reports
    from .render import emit

    fmt = _format(fmt)
    ledger = _load(club)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    emit(reports.players(ledger, rating, day), fmt, _console())


@app.command()
@handles_errors
def recalc(club: ClubOpt = None):
    """Replay the whole journal through every rating list and summarise.

    Example: nardrating recalc --club sample_ledgers/chess-club
    """
    import time

    from .ledger import replay_all

    started = time.perf_counter()
    with _progress(club) as progress:
        ledger, replays = replay_all(club, progress)  # read and replay everything, cache it anew
    j = ledger.journal
    lines = [f"  {rating.name} ({rating.engine}, {discipline}): {players} players"
             for rating, discipline, players in replays]
    out = _console()
    out.print(f"{len(j.players)} players, {len(j.matches)} matches, {len(j.tournaments)} tournaments, "
              f"{len(j.voids)} voids, {len(j.adjusts)} adjustments", markup=False)
    for line in lines:
        out.print(line, markup=False)
    out.print(f"done in {time.perf_counter() - started:.2f} s", markup=False)


@app.command()
@handles_errors
def leaderboard(club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
                as_of: AsOfOpt = None,
                show_all: Annotated[bool, typer.Option("--all", help="Also players the engine hides.")] = False,
                public: Annotated[bool, typer.Option("--public", help="Show aliases instead of names.")] = False,
                daily: Annotated[bool, typer.Option("--daily", help="Chip rating: the one-day sum.")] = False,
                fmt: FormatOpt = "table"):
    """Rank, player, name, rating, games, status, last played.

    Example: nardrating leaderboard --rating club --as-of 2009-06-30 --format json
    """
    from . import reports
    from .render import emit

    fmt = _format(fmt)
    ledger = _load(club)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    result = ledger.run(rating, discipline, day.day)
    if daily:
        daily_view = getattr(result, "daily", None)
        if daily_view is None:
            _fail([f"--daily is for the chip rating; {result.rating!r} uses the {result.engine} engine"])
        result = daily_view(day.day)
    emit(reports.leaderboard(ledger, result, show_all, public, day), fmt, _console())


@app.command()
@handles_errors
def history(player: Annotated[str, typer.Argument(metavar="PLAYER")],
            club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
            as_of: AsOfOpt = None,
            since: Annotated[Optional[str], typer.Option("--from", help="Only events on or after this date.",
                                                         show_default=False)] = None,
            until: Annotated[Optional[str], typer.Option("--to", help="Only events on or before this date.",
                                                         show_default=False)] = None,
            last: Annotated[Optional[int], typer.Option("--last", help="Only the last N games (and what came after).",
                                                        show_default=False, min=1)] = None,
            opponent: Annotated[Optional[str], typer.Option("--opponent", help="Only games against this player.",
                                                            show_default=False)] = None,
            fmt: FormatOpt = "table"):
    """Every event of a player up to the date: entry, opponent, result, before, change, after; a summary.

    Example: nardrating history anna --from 2009-01-01 --opponent boris
    """
    from . import reports
    from .render import emit

    fmt = _format(fmt)
    since_day, until_day = _date(since, "--from"), _date(until, "--to")
    ledger = _load(club)
    for who in (player, opponent):
        if who is not None:
            reports.known_player(ledger, who)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    result = ledger.run(rating, discipline, day.day)
    emit(reports.history(ledger, result, player, day, since=since_day, until=until_day, last=last,
                         opponent=opponent), fmt, _console())


@app.command()
@handles_errors
def report(period: Annotated[str, typer.Option("--period", "-p", help="2009-Q1, 2009Q1, 2009-03, 2009, 2009-H1 or 2009-01-15..2009-02-20.")],
           club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
           player: Annotated[Optional[str], typer.Option(help="Only this player.")] = None,
           details: Annotated[bool, typer.Option("--details", help="The arithmetic: per competition (mfsnb, fide) "
                                                 "or per game (elo, fibs, chips, placement).")] = False,
           fmt: FormatOpt = "table"):
    """Per player active in the period: rating at its start, games, points, expected, change, rating at its end.

    Example: nardrating report --period 2009-Q1 --format md
    """
    from . import reports
    from .periods import parse_period
    from .render import emit

    fmt = _format(fmt)
    try:
        span = parse_period(period)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--period") from None
    ledger = _load(club)
    if player is not None:
        reports.known_player(ledger, player)
    result = ledger.run(rating, discipline)
    table = reports.report(ledger, result, span, player, details)
    out = _console()
    emit(table, fmt, out)
    if details and fmt in ("table", "md"):
        for detail in reports.report_details(table):
            if fmt == "md":
                out.file.write("\n")
            emit(detail, fmt, out)



@app.command()
@handles_errors
def predict(a: Annotated[str, typer.Argument(metavar="A", help="First player (chess: white).")],
            b: Annotated[str, typer.Argument(metavar="B", help="Second player.")],
            length: Annotated[int, typer.Option(help="Match length in points (fibs: it matters).")] = 1,
            club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
            as_of: AsOfOpt = None, fmt: FormatOpt = "table"):
    """A's expected score against B and each player's change on a win, a loss and a draw.

    Example: nardrating predict anna boris --length 7 --format json
    """
    from .predict import predict as do
    from .render import emit

    fmt = _format(fmt)
    table = do(_load(club), a, b, rating=rating, discipline=discipline, as_of=_date(as_of, "--as-of"), length=length)
    emit(table, fmt, _console())


def main() -> None:
    """The error boundary: whatever escapes a command ends as one paragraph and exit 2."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted; nothing was written\n")
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - e.g. raised while typer builds or parses a command
        command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
        report_unexpected(exc, command)
        sys.exit(2)


# --- import and export ------------------------------------------------------------

@app.command("import")
@handles_errors
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
                 club: ClubOpt = None):
    """Import gnubg/XG .mat matches, PGN games, FIDE TRF tournaments or CSV sheets: one atomic append.

    Example: nardrating import kramnik-anand.pgn --dry-run
    """
    from .config import display_path
    from .importers.run import run_import
    from .render import emit
    from .reports import Column, Table

    done = run_import(club, files, fmt, discipline, tournament, _date(day, "--date"), per_game, dry_run)
    plan, out = done.plan, _console()
    if plan.players:
        emit(Table("Players", [Column("player", "Player"), Column("name", "Name"), Column("status", "Status"),
                               Column("title", "Title"), Column("games", "Games", "int")], plan.players),
             "table", out)
    for summary in plan.files:
        left_out = ", ".join(f"{n} × {why}" for why, n in summary.skipped.items())
        out.print(_plain(f"{summary.file}: {summary.read} match{'es' if summary.read != 1 else ''}, {summary.added} to add, "
                  f"{summary.duplicates} already in the journal" + (f"; left out: {left_out}" if left_out else "")),
                  markup=False)
        for note in summary.notes:
            out.print(_plain(f"{summary.file}: {note}"), markup=False)
    for entry in plan.entries:
        if entry.kind == "tournament":
            t = entry.data
            out.print(_plain(f"new tournament {t['id']}: {t.get('name', t['id'])} ({t['system']}, {t['start']} to "
                             f"{t['end']}, {t.get('discipline', '')})"), markup=False)
    for warning in plan.warnings:
        out.print(_plain(f"warning: {warning}"), markup=False)
    counts = ", ".join(f"{plan.count(kind)} {kind}{'s' if plan.count(kind) != 1 else ''}"
                       for kind in ("player", "tournament", "match"))
    counts = counts.replace("matchs", "matches")
    if not plan.entries:
        out.print("nothing to add", markup=False)
    else:
        verb = "would add" if dry_run else "added"
        out.print(_plain(f"{verb} {counts} to {display_path(done.target)}"), markup=False)


export_app = typer.Typer(help="Write the journal's data in other programs' formats.", no_args_is_help=True,
                         rich_markup_mode=None)
app.add_typer(export_app, name="export")


@export_app.command("trf")
@handles_errors
def export_trf(tournament: Annotated[str, typer.Option(help="The tournament's id.")], club: ClubOpt = None):
    """A FIDE TRF16 report of a tournament of the journal, on standard output.

    Example: nardrating export trf --tournament cup-1 > cup-1.trf
    """
    from .trf_export import export_trf as build

    sys.stdout.write(build(_load(club), tournament))
