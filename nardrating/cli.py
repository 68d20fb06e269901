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

from ._startup import lazy_typer_coercion, no_pydantic_plugin_loader, only_invoked_command  # noqa: E402

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
NewDisciplineOpt = Annotated[bool, typer.Option("--new-discipline", help="Start a discipline no game has yet "
                             "(without it, an unknown or unrated discipline is refused as a likely typo).")]
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
    """A message as data for the terminal: control characters shown escaped, as tables show them."""
    from .render import visible

    return visible(text)


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


def _period_hint(text: str) -> str:
    """' (did you mean "2009-Q4"?)' for a mistyped period of a year the text names."""
    import re

    from .errors import did_you_mean

    year = re.search(r"[0-9]{4}", text)
    if year is None:
        return ""
    y = year[0]
    forms = [y, *(f"{y}-Q{q}" for q in range(1, 5)), f"{y}-H1", f"{y}-H2", *(f"{y}-{m:02d}" for m in range(1, 13))]
    return did_you_mean(text.strip(), forms)


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


def _load(club, discipline: str | None = None):
    """The club, read and checked; --discipline (if given) must be one the club knows."""
    from .ledger import load_club

    with _progress(club) as progress:
        ledger = load_club(club, progress=progress)
    if discipline is not None:
        from .errors import ActionRefused, did_you_mean

        known = [ledger.config.club.default_discipline, *ledger.journal.disciplines()]
        for rating in ledger.config.ratings.values():
            known += rating.disciplines or []
        if discipline not in known:
            raise ActionRefused(f"--discipline: unknown discipline {discipline!r}{did_you_mean(discipline, set(known))}; "
                                f"the club has {', '.join(dict.fromkeys(known))}")
    return ledger


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
def check(club: ClubOpt = None,
          strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when there are warnings too.")] = False,
          fmt: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text"):
    """Check the config and every journal file; list every problem as FILE:LINE: ENTRY: message.

    Warnings (likely typos: near-duplicate players, a discipline no list rates…) are listed
    too and leave the exit code 0, unless --strict.
    Example: nardrating check --club sample_ledgers/chess-club
    """
    import json

    from .errors import LedgerError
    from .journal.lint import lint
    from .reports import last_entry_date

    if fmt not in ("text", "json"):
        raise typer.BadParameter(f"{fmt!r} is not one of text, json", param_hint="--format")
    try:
        ledger = _load(club)
    except LedgerError as exc:
        if fmt != "json":
            raise
        typer.echo(json.dumps([_problem_json(p, "error") for p in exc.problems], ensure_ascii=False, indent=2))
        raise typer.Exit(1) from None
    warnings = lint(ledger.journal, ledger.config)
    if fmt == "json":
        typer.echo(json.dumps([_problem_json(p, "warning") for p in warnings], ensure_ascii=False, indent=2))
    else:
        j = ledger.journal
        last = last_entry_date(j)
        out = _console()
        for w in warnings:
            out.print(_plain(_warning_text(w)), markup=False)
        out.print(f"ok: {len(j.players)} players, {len(j.matches)} matches, {len(j.tournaments)} tournaments, "
                  f"{len(j.voids)} voids, {len(j.adjusts)} adjustments; "
                  f"rating lists: {', '.join(ledger.config.ratings)}"
                  + (f"; last entry {last} (the date commands mean without --as-of)"
                     if last and ledger.config.club.as_of == "last-entry" else "")
                  + (f"; {len(warnings)} warning(s)" if warnings else ""), markup=False)
    if strict and warnings:
        raise typer.Exit(1)


def _warning_text(p) -> str:
    where = p.file if p.line is None else f"{p.file}:{p.line}"
    entry = f"{p.entry.strip()}: " if p.entry and p.entry.strip() else ""
    return f"{where}: {entry}warning: {p.message}"


def _problem_json(p, severity: str) -> dict:
    return {"file": p.file, "line": p.line, "entry": p.entry, "severity": severity, "message": p.message}


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
              new_discipline: NewDisciplineOpt = False,
              dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the rating changes; write nothing.")] = False,
              club: ClubOpt = None):
    """Append a [[match]] and show each player's rating change in every list that rates it.

    A back-dated match also shows every rating of the current lists that it changes.
    Example: nardrating add-match anna boris --winner anna --date 2009-01-15
    """
    from .actions import add_match as do

    entry, changes, moved = do(_writer_club(club), a, b, winner=winner, result=result, day=_date(day, "--date"),
                               length=length, score=score, discipline=discipline, tournament=tournament,
                               rated=not unrated, forfeit=forfeit, note=note, chips=chips,
                               new_discipline=new_discipline, dry_run=dry_run)
    out = _console()
    out.print(("would add" if dry_run else "added") + f" match {entry['id']} on {entry['date']}", markup=False)
    _print_changes(out, changes)
    if moved is not None:
        _print_moved(out, moved)


def _print_changes(out, changes) -> None:
    """Each player's change from one new match."""
    from .render import cell_text
    from .reports import Column

    rating_col, change_col = Column("", "", "rating"), Column("", "", "change")
    for c in changes:
        if c.rated:
            out.print(f"  {c.rating} ({c.discipline}): {c.player} {cell_text(c.before, rating_col)} "
                      f"{cell_text(c.change, change_col)} → {cell_text(c.after, rating_col)}", markup=False)
        else:
            out.print(f"  {c.rating} ({c.discipline}): {c.player} not rated now: {c.reason}", markup=False)


def _print_moved(out, moved) -> None:
    """The "what changed" block: every rating of the current lists that differs, before → after."""
    from .render import cell_text
    from .reports import Column

    rating_col = Column("", "", "rating")
    shown = lambda value: "(none)" if value is None else cell_text(value, rating_col)  # noqa: E731
    if not moved:
        out.print("no rating in the current lists changes", markup=False)
        return
    out.print("ratings that change in the current lists:", markup=False)
    for c in moved:
        out.print(f"  {c.rating} ({c.discipline}): {c.player} {shown(c.before)} → {shown(c.after)}", markup=False)


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

    entry, moved = void_match(_writer_club(club), match_id, reason, _date(day, "--date"), dry_run)
    out = _console()
    out.print(("would void" if dry_run else "voided") + f" match {entry['match']}", markup=False)
    _print_moved(out, moved)


@app.command()
@handles_errors
def amend(match_id: Annotated[str, typer.Argument(metavar="MATCH", help="The match to correct.")],
          a: Annotated[Optional[str], typer.Argument(metavar="[A", help="First player (default: the match's).",
                                                     show_default=False)] = None,
          b: Annotated[Optional[str], typer.Argument(metavar="B]", help="Second player (default: the match's).",
                                                     show_default=False)] = None,
          winner: Annotated[Optional[str], typer.Option(help="The winner's id.", show_default=False)] = None,
          result: Annotated[Optional[str], typer.Option(help='"1-0", "0-1" or "1/2-1/2", from A\'s side.',
                                                        show_default=False)] = None,
          day: Annotated[Optional[str], typer.Option("--date", help="YYYY-MM-DD (default: the match's).",
                                                     show_default=False)] = None,
          length: Annotated[Optional[int], typer.Option(help="Match length in points.", show_default=False)] = None,
          score: Annotated[Optional[str], typer.Option(help="Final score, e.g. 7-4.", show_default=False)] = None,
          chips: Annotated[Optional[float], typer.Option(help="Chips won (chip rating).", show_default=False)] = None,
          discipline: DisciplineOpt = None,
          tournament: Annotated[Optional[str], typer.Option(help="Tournament id.", show_default=False)] = None,
          rated: Annotated[Optional[bool], typer.Option("--rated/--unrated", help="Rated or not (default: as the match).",
                                                        show_default=False)] = None,
          forfeit: Annotated[Optional[bool], typer.Option("--forfeit/--no-forfeit", help="A no-show or technical "
                                                          "result (default: as the match).", show_default=False)] = None,
          note: Annotated[Optional[str], typer.Option(help="A note.", show_default=False)] = None,
          reason: Annotated[Optional[str], typer.Option(help='Why (default: "amended by <new id>").',
                                                        show_default=False)] = None,
          new_discipline: NewDisciplineOpt = False,
          dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing.")] = False,
          club: ClubOpt = None):
    """Correct a match in one step: a [[void]] of it and the corrected [[match]] (amends = MATCH).

    Options not given are the match's own. Shows every rating of the current lists that changes.
    Example: nardrating amend m0003 --result 1-0
    """
    from .actions import MatchArgs, amend_match

    if (a is None) != (b is None):
        raise typer.BadParameter("give both players A and B, or neither", param_hint="A B")
    given = MatchArgs(a, b, winner, result, _date(day, "--date"), length, score, discipline, tournament,
                      rated, forfeit, note, chips, new_discipline)
    entries, changes, moved = amend_match(_writer_club(club), match_id, given, reason, dry_run)
    _print_correction(entries, changes, moved, dry_run)


def _print_correction(entries, changes, moved, dry_run: bool) -> None:
    void, match = entries
    out = _console()
    out.print(("would void" if dry_run else "voided") + f" match {void['match']} ({void['reason']})", markup=False)
    out.print(("would add" if dry_run else "added") + f" match {match['id']} on {match['date']}, amends "
              f"{match['amends']}", markup=False)
    _print_changes(out, changes)
    _print_moved(out, moved)


@app.command()
@handles_errors
def undo(yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
         club: ClubOpt = None):
    """Void the last match this club wrote, after showing it and asking.

    The last entry of the journal file the club writes to; an amend's match is voided and the
    original match entered again. Other entries are not voided: it says what to do instead.
    Example: nardrating undo
    """
    from .actions import last_entry, undo as do

    ledger = _load(club)
    last = last_entry(ledger)
    out = _console()
    out.print("the last entry:", markup=False)
    out.print(last.text.rstrip("\n"), markup=False)
    if last.kind == "match" and not yes:
        if not sys.stdin.isatty():
            _fail(["undo: not asking without a terminal; nothing was written. Run `nardrating undo --yes` to void it."])
        if not typer.confirm("void it?", default=False):
            _fail(["nothing was written"])
    entries, changes, moved = do(ledger)
    if len(entries) == 2:
        _print_correction(entries, changes, moved, False)
    else:
        out.print(f"voided match {entries[0]['match']}", markup=False)
        _print_moved(out, moved)


@app.command("rename-player")
@handles_errors
def rename_player(old: Annotated[str, typer.Argument(metavar="OLD")], new: Annotated[str, typer.Argument(metavar="NEW")],
                  dry_run: Annotated[bool, typer.Option("--dry-run")] = False, club: ClubOpt = None):
    """Rename a player by an appended [[rename]]: every entry, before and after, shows NEW.

    Example: nardrating rename-player borsi boris
    """
    from .actions import rename_player as do

    do(_writer_club(club), old, new, dry_run=dry_run)
    _console().print(("would rename" if dry_run else "renamed") + f" player {old} to {new}", markup=False)


@app.command("merge-players")
@handles_errors
def merge_players(dup: Annotated[str, typer.Argument(metavar="DUP")], into: Annotated[str, typer.Argument(metavar="INTO")],
                  dry_run: Annotated[bool, typer.Option("--dry-run")] = False, club: ClubOpt = None):
    """Merge a duplicate player by an appended [[merge]]: DUP's games become INTO's.

    Refused if DUP and INTO played each other. Example: nardrating merge-players ivan2 ivan
    """
    from .actions import merge_players as do

    _, moved = do(_writer_club(club), dup, into, dry_run=dry_run)
    out = _console()
    out.print(("would merge" if dry_run else "merged") + f" player {dup} into {into}", markup=False)
    _print_moved(out, moved)


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
                output: Annotated[Optional[Path], typer.Option("--output", "-o", help="With --format xlsx: the file "
                                  "to write (needs nardrating[xlsx]).", show_default=False)] = None,
                show_all: Annotated[bool, typer.Option("--all", help="Also players the engine hides.")] = False,
                public: Annotated[bool, typer.Option("--public", help="Show aliases instead of names.")] = False,
                daily: Annotated[bool, typer.Option("--daily", help="Chip rating: the one-day sum.")] = False,
                fmt: FormatOpt = "table"):
    """Rank, player, name, rating, games, status, last played.

    Example: nardrating leaderboard --rating club --as-of 2009-06-30 --format json
    """
    from . import reports
    from .render import emit

    fmt = _spreadsheet_target(fmt, output)
    ledger = _load(club, discipline)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    result = ledger.run(rating, discipline, day.day)
    if daily:
        if not result.has_daily:
            _fail([f"--daily is for the chip rating; {result.rating!r} uses the {result.engine} engine"])
        result = result.daily(day.day)
    table = reports.leaderboard(ledger, result, show_all, public, day)
    if fmt == "xlsx":
        return _write_xlsx(table, output)
    emit(table, fmt, _console())


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
            details: Annotated[bool, typer.Option("--details", help="The steps of each event's change, as "
                                                  "explain shows them (JSON: a steps key per event).")] = False,
            fmt: FormatOpt = "table",
            chart: Annotated[bool, typer.Option("--chart", help="Draw the rating over time in the terminal, "
                                                "or into FILE (.png needs nardrating[plot]; .svg nothing).")] = False,
            chart_file: Annotated[Optional[Path], typer.Argument(metavar="[FILE]", help="With --chart: the image to write.",
                                                                 show_default=False)] = None,
            vs: Annotated[Optional[list[str]], typer.Option("--vs", help="With --chart: another player on it (repeatable).",
                                                            show_default=False)] = None):
    """Every event of a player up to the date: entry, opponent, result, before, change, after; a summary.

    Example: nardrating history anna --from 2009-01-01 --opponent boris
    """
    from . import reports
    from .render import emit

    fmt = _format(fmt)
    since_day, until_day = _date(since, "--from"), _date(until, "--to")
    ledger = _load(club, discipline)
    for who in (player, opponent):
        if who is not None:
            reports.known_player(ledger, who)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    result = ledger.run(rating, discipline, day.day)
    if chart or chart_file or vs:
        return _history_chart(ledger, result, [player] + (vs or []), chart, chart_file, since_day, until_day)
    table = reports.history(ledger, result, player, day, since=since_day, until=until_day, last=last,
                            opponent=opponent)
    if not details:
        emit(table, fmt, _console())
        return
    from .explain import history_details

    _emit_all(history_details(ledger, result, player, table, fmt), fmt)


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
        if "is not a period" not in str(exc):  # out of range: a usage error, as for any date
            raise typer.BadParameter(str(exc), param_hint="--period") from None
        _fail([f"--period: {exc}{_period_hint(period)}"])  # a typo: exit 1 with the nearest periods
    ledger = _load(club, discipline)
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
    table = do(_load(club, discipline), a, b, rating=rating, discipline=discipline, as_of=_date(as_of, "--as-of"), length=length)
    emit(table, fmt, _console())


@app.command()
@handles_errors
def backtest(club: ClubOpt = None,
             rating: Annotated[Optional[list[str]], typer.Option("--rating", "-r", help="A list to score (repeat it; "
                               "default: every list that predicts games).", show_default=False)] = None,
             param: Annotated[Optional[list[str]], typer.Option("--param", help="One list's parameter over values, "
                              "e.g. k=10,20,32 (repeat it for a grid).", show_default=False)] = None,
             discipline: DisciplineOpt = None,
             since: Annotated[Optional[str], typer.Option("--from", help="Score games on or after this date.",
                                                          show_default=False)] = None,
             until: Annotated[Optional[str], typer.Option("--to", help="Score games on or before this date.",
                                                          show_default=False)] = None,
             plot: Annotated[Optional[Path], typer.Option("--plot", help="Also draw the calibration as FILE.png or "
                             "FILE.svg (needs the extra [plot]: matplotlib).", show_default=False)] = None,
             fmt: FormatOpt = "table"):
    """Score each candidate's prediction of every rated game before it was played: log loss, Brier, accuracy.

    Example: nardrating backtest --rating club --param k=10,20,32
    """
    from . import backtest as bt
    from .render import emit

    fmt = _format(fmt)
    since_day, until_day = _date(since, "--from"), _date(until, "--to")
    ledger = _load(club)
    found = bt.candidates(ledger, rating or [], param or [])
    rows = bt.run(ledger, found, discipline, since_day, until_day)
    if plot is not None:
        bt.plot(rows, plot)
    out = _console()
    emit(bt.table(rows, since_day, until_day), fmt, out)
    if fmt == "table":
        for row in bt.ranked(rows):
            emit(bt.calibration_table(row), fmt, out)


def _emit_all(tables, fmt: str) -> None:
    """The first table in every format (its JSON is the whole answer); the others in table and md."""
    from .render import emit

    out = _console()
    for k, table in enumerate(tables if fmt in ("table", "md") else tables[:1]):
        if k and fmt == "md":
            out.file.write("\n")
        emit(table, fmt, out)


@app.command()
@handles_errors
def player(player_id: Annotated[str, typer.Argument(metavar="A")],
           club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
           as_of: AsOfOpt = None, fmt: FormatOpt = "table"):
    """A player's record (by discipline and length), streaks, rating peak and low, last games, best wins.

    Example: nardrating player vera --format json
    """
    from . import headtohead, reports

    fmt = _format(fmt)
    ledger = _load(club)
    reports.known_player(ledger, player_id)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    _emit_all(headtohead.player(ledger, ledger.run(rating, discipline, day.day), player_id), fmt)


@app.command("head-to-head")
@handles_errors
def head_to_head(a: Annotated[str, typer.Argument(metavar="A")], b: Annotated[str, typer.Argument(metavar="B")],
                 club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
                 as_of: AsOfOpt = None, fmt: FormatOpt = "table"):
    """A's record against B (by discipline and length), streaks, their last meetings, each one's best win.

    Example: nardrating head-to-head anna vera
    """
    from . import headtohead, reports

    fmt = _format(fmt)
    ledger = _load(club)
    for who in (a, b):
        reports.known_player(ledger, who)
    day = reports.as_of(ledger, _date(as_of, "--as-of"))
    _emit_all(headtohead.head_to_head(ledger, ledger.run(rating, discipline, day.day), a, b), fmt)


@app.command()
@handles_errors
def explain(entry: Annotated[str, typer.Argument(metavar="ENTRY", help="A match id or a tournament id, or "
                                                  "PLAYER@DATE for that player's adjust, penalty, decay and list "
                                                  "events of that day (history shows their dates and kinds).")],
            club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
            as_of: AsOfOpt = None, fmt: FormatOpt = "table"):
    """Every input and every step of the arithmetic behind each player's change, with its rule.

    Example: nardrating explain m0003 --format json; nardrating explain anna@2025-03-01
    """
    from .explain import explain as do

    fmt = _format(fmt)
    _emit_all(do(_load(club), entry, rating, discipline, _date(as_of, "--as-of")), fmt)


def main() -> None:
    """The error boundary: whatever escapes a command ends as one paragraph and exit 2."""
    try:
        only_invoked_command(app, sys.argv)
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted; nothing was written\n")
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - e.g. raised while typer builds or parses a command
        command = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
        report_unexpected(exc, command)
        sys.exit(2)


@app.command()
@handles_errors
def publish(outdir: Annotated[Path, typer.Argument(metavar="OUTDIR", help="Folder for the site (created if missing).")],
            club: ClubOpt = None, rating: RatingOpt = None, as_of: AsOfOpt = None,
            force: Annotated[bool, typer.Option("--force", help="Write into a non-empty folder publish did not make.")] = False,
            public: Annotated[bool, typer.Option("--public", help="Show aliases instead of names.")] = False,
            lang: Annotated[str, typer.Option("--lang", help="The pages' language tag (html lang).")] = "en"):
    """Write a static web site: leaderboards, a page per player (chart, games), tournament and list.

    Without --rating, every rating list of the club. Needs Jinja2: pip install 'nardrating[site]'.

    Example: nardrating publish site --as-of 2009-12-31
    """
    from . import reports
    from .publish import publish as do

    day = _date(as_of, "--as-of")
    ledger = _load(club)
    if rating is not None:
        ledger.rating(rating)   # an unknown list is refused before anything is written
    done = do(ledger, outdir, rating, reports.as_of(ledger, day), force=force, public=public, lang=lang)
    _console().print(f"published {len(done.files)} pages to {done.folder}: index.html, {done.players} players, "
                     f"{done.tournaments} tournaments, {done.lists} lists", markup=False)


def _history_chart(ledger, result, players, chart, chart_file, since, until) -> None:
    """history --chart [FILE] [--vs OTHER…]: the ratings of one or more players over time."""
    import shutil

    from . import charts, reports

    if not chart:
        raise typer.BadParameter("a chart file or --vs goes with --chart", param_hint="--chart")
    for who in players[1:]:
        reports.known_player(ledger, who)
    series = []
    for who in dict.fromkeys(players):
        points = [(d, v) for d, v in charts.rating_points(result, who)
                  if (since is None or d >= since) and (until is None or d <= until)]
        series.append((ledger.journal.player_name(who), points))
    title = f"{result.rating} · {result.discipline}"
    if chart_file is None:
        width = shutil.get_terminal_size((80, 24)).columns
        lines = [title] + charts.text_plot(series, width=min(max(width, 40), 160))
        _console().file.write("\n".join(map(_plain, lines)) + "\n")
        return
    charts.write(series, chart_file, title)
    _console().print(f"wrote {chart_file}", markup=False)


def _spreadsheet_target(fmt: str, output) -> str:
    """--format xlsx goes to --output FILE, or to stdout when that is not a terminal; text formats to stdout."""
    if fmt != "xlsx":
        if output is not None:
            raise typer.BadParameter("--output is for --format xlsx; text formats go to stdout", param_hint="--output")
        return _format(fmt)
    if output is None and sys.stdout.isatty():
        _fail(["--format xlsx writes a binary spreadsheet, not text for a terminal: "
               "add --output FILE.xlsx (or redirect: > FILE.xlsx)"])
    return "xlsx"


def _write_xlsx(table, output) -> None:
    from .spreadsheet import xlsx_bytes

    data = xlsx_bytes(table)
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    from .charts import replace_file

    replace_file(output, data)
    _console(stderr=True).print(f"wrote {output}", markup=False)

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
