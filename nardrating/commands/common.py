"""What every command shares: its options, the console, messages, dates, loading the club.

Imports beyond typer happen inside the functions, so that `nardrating --help` stays fast.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional, TextIO, overload

import typer

from ..i18n import N_, _
from . import complete

if TYPE_CHECKING:
    from rich.console import Console

    from ..replay.ledger import Ledger
    from ..reports import Table

ClubOpt = Annotated[Optional[str], typer.Option("--club", metavar="PATH", help=N_("Club folder or its nardrating.toml "
                    "(default: $NARDRATING_CLUB, else the nearest nardrating.toml upward)."), show_default=False)]
FormatOpt = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help=N_("table, csv, json or md."), autocompletion=complete.formats)]
BoardFormatOpt = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help=N_("table, csv, json, md, fide-list (FIDE's fixed-width "
                           "rating list) or xlsx (with --output FILE, needs nardrating[xlsx])."),
                           autocompletion=complete.board_formats)]
ReportFormatOpt = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help=N_("table, csv, json, md or xlsx "
                            "(with --output FILE, needs nardrating[xlsx])."), autocompletion=complete.formats)]
RatingOpt = Annotated[Optional[str], typer.Option("--rating", "-r", metavar="LIST", help=N_("Rating list name (default: the first in the config)."), show_default=False,
                     autocompletion=complete.ratings)]
DisciplineOpt = Annotated[Optional[str], typer.Option("--discipline", "-d", metavar="NAME", help=N_("Discipline (default: the club's)."), show_default=False,
                         autocompletion=complete.disciplines)]
NewDisciplineOpt = Annotated[bool, typer.Option("--new-discipline", help=N_("Start a discipline no game has yet "
                             "(without it, an unknown or unrated discipline is refused as a likely typo)."))]
AsOfOpt = Annotated[Optional[str], typer.Option("--as-of", metavar="DATE", help=N_("Date YYYY-MM-DD (default: the journal's last "
                    'entry; today with club.as_of = "today" in nardrating.toml).'), show_default=False)]

LangOpt = Annotated[Optional[str], typer.Option("--lang", metavar="LANG", help=N_("Language of the words: en or ru (default: "
                   "club.language for md and xlsx, the locale's for a table; csv and json never change)."),
                   show_default=False)]
SheetLangOpt = Annotated[Optional[str], typer.Option("--lang", metavar="LANG", help=N_("Language of the words: en or ru "
                         "(default: club.language for md, the locale's for a table; csv and json never change)."),
                         show_default=False)]   # (a tournament's sheets: no xlsx)
MACHINE_FORMATS = ("csv", "json", "fide-list")  # the same in every language

YesOpt = Annotated[bool, typer.Option("--yes", "-y", help=N_("Write a date after today without asking "
                   "(scripts: without a terminal it is refused otherwise)."))]

Progress = Callable[[str], None]  # told the name of each stage of a long load as it starts


def rich_console(stderr: bool = False) -> Console:
    from rich.console import Console

    # Whatever it prints is data: no markup, no emoji codes, no highlighting, no wrapping.
    return Console(stderr=stderr, markup=False, emoji=False, highlight=False, soft_wrap=True)


class PlainConsole:
    """The part of rich's Console the commands use, for output that is not a terminal: there rich
    writes a printable line unchanged, so importing its console (about 40 modules, a tenth of a
    daily command's start-up) is left to the lines it would change (tabs, control characters)."""

    is_terminal = False

    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr

    @property
    def file(self) -> TextIO:
        return sys.stderr if self.stderr else sys.stdout

    def print(self, text: str, markup: bool = False) -> None:
        if text.isprintable():
            self.file.write(text + "\n")
            self.file.flush()  # as rich does: a closed pipe is then seen here, inside the command
        else:
            rich_console(self.stderr).print(text, markup=markup)


def rich_sees_terminal(stream: TextIO | None) -> bool:
    """Whether rich's Console would treat the stream as a terminal (Console.is_terminal)."""
    tty_compatible = os.environ.get("TTY_COMPATIBLE", "")
    if tty_compatible in ("0", "1"):
        return tty_compatible == "1"
    if "FORCE_COLOR" in os.environ:
        return os.environ["FORCE_COLOR"] != ""
    try:
        return stream is None or stream.isatty()
    except (AttributeError, ValueError):
        return False


def console(stderr: bool = False) -> Console | PlainConsole:
    """Where a command prints: rich's Console in a terminal, else the plain writer (same text)."""
    if rich_sees_terminal(sys.stderr if stderr else sys.stdout):
        return rich_console(stderr)
    return PlainConsole(stderr)


def plain(text: str) -> str:
    """A message as data for the terminal: control characters shown escaped, as tables show them."""
    from ..render.text import visible

    return visible(text)


def fail(lines: Sequence[str]) -> NoReturn:
    """The messages on stderr, exit code 1."""
    for line in lines:
        typer.echo(plain(line), err=True)
    raise typer.Exit(1)


RELATIVE_DAYS = {"today": 0, "yesterday": 1, "сегодня": 0, "вчера": 1}   # days before today


@overload
def parse_date(value: str, option: str) -> date: ...
@overload
def parse_date(value: str | None, option: str) -> date | None: ...
def parse_date(value: str | None, option: str) -> date | None:
    """An option's YYYY-MM-DD (or today, yesterday: the evening's games entered after midnight), or a
    usage error naming the option. The journal is written the date itself."""
    from ..periods import check_day

    if value is None:
        return None
    back = RELATIVE_DAYS.get(value.strip().casefold())
    if back is not None:
        return date.fromordinal(date.today().toordinal() - back)
    try:
        day = date.fromisoformat(value)
    except ValueError:
        from ..periods import written_date

        meant = written_date(value)[1]
        said = (_("{value!r} is not a date; write YYYY-MM-DD") if meant is None else
                _("{value!r} is not a date; write YYYY-MM-DD: {day}"))
        raise typer.BadParameter(said.format(value=value, day=meant), param_hint=option) from None
    try:
        return check_day(day, value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


def parse_span(since: str | None, until: str | None) -> tuple[date | None, date | None]:
    """--from and --to, each parsed as parse_date does; a --to before --from holds no day, so it is
    refused as the typo it is (exit 1), not answered with an empty table."""
    start, end = parse_date(since, "--from"), parse_date(until, "--to")
    if start is not None and end is not None and end < start:
        fail([_("--to {end} is before --from {start}; give --from the earlier date").format(end=end, start=start)])
    return start, end


def confirm_dates(days: Sequence[tuple[str, date | None]], yes: bool, dry_run: bool = False) -> None:
    """Dates after today, (option or FILE:LINE, date), are mostly a typo of the year, which check would warn of
    ever after: said on stderr; then written with --yes (or shown by --dry-run), asked on a terminal,
    else refused (exit 1, nothing written)."""
    from ..i18n import _

    today = date.today()
    later = [(option, day) for option, day in days if day is not None and day > today]
    if not later:
        return
    for option, day in later:
        text = (_("warning: {option} {day} is after today ({today}); a typo of the year?") if option.startswith("--")
                else _("warning: {option}: the game is dated {day}, after today ({today}); a typo of the year?"))
        typer.echo(plain(text.format(option=option, day=day, today=today)), err=True)
    if yes or dry_run:
        return
    if not stdin_is_terminal():
        fail([_("nothing was written: not asking without a terminal; if the date is right, run the command "
                "again with --yes")])
    if not typer.confirm(_("write it anyway?"), default=False):
        fail([_("nothing was written")])


def stdin_is_terminal() -> bool:
    """Whether a question can be asked (a script's stdin is no terminal)."""
    return sys.stdin.isatty()


def warn_all(warnings: Sequence[str]) -> None:
    """What check will warn of an entry just written, on stderr."""
    from ..i18n import _

    for message in warnings:
        typer.echo(plain(_("warning: {message}").format(message=message)), err=True)


TEXT_FORMATS = ("table", "csv", "json", "md")  # every command that prints data; leaderboard adds fide-list, xlsx


def check_format(value: str, formats: Sequence[str] = TEXT_FORMATS) -> str:
    """The --format a command takes, or a usage error listing the ones it takes."""
    if value not in formats:
        from ..errors import did_you_mean

        hint = did_you_mean(value, list(formats))
        if value in ("fide-list", "xlsx"):
            hint = _("; {value} is a rating list's format: nardrating leaderboard --format {value}").format(value=value)
        raise typer.BadParameter(_("{value!r} is not one of {formats}{hint}").format(
            value=value, formats=", ".join(formats), hint=hint), param_hint="--format")
    if value in MACHINE_FORMATS:  # a script's input: the same words whatever the locale
        from ..i18n import DEFAULT, choose

        choose(DEFAULT)
    return value


def check_language(lang: str | None) -> str | None:
    """--lang: a language nardrating speaks, as a code or a tag (ru, ru-RU), or a usage error."""
    from ..i18n import LANGUAGES, language_of

    if lang is None or language_of(lang) is not None and "." not in lang and "@" not in lang:
        return lang
    raise typer.BadParameter(_("{lang!r} is not a language nardrating speaks; write one of {allowed}").format(
        lang=lang, allowed=", ".join(LANGUAGES)), param_hint="--lang")


def output_language(fmt: str, lang: str | None, ledger: Ledger) -> str:
    """The language of what a command writes: machine formats always English; md and xlsx (for the
    commission, for others) --lang, else club.language; a table --lang, else the locale's."""
    from ..i18n import DEFAULT, current, language_of

    if fmt in MACHINE_FORMATS:
        return DEFAULT
    if lang is not None:
        return language_of(lang) or DEFAULT
    return ledger.config.club.language if fmt in ("md", "xlsx") else current()


# Bytes of journal files above which a full read takes about a second or more.
BIG_JOURNAL = int(os.environ.get("NARDRATING_PROGRESS_AFTER", 5_000_000))


@contextlib.contextmanager
def progress_bar(club: str | None, light: bool = False) -> Iterator[Progress]:
    """A progress bar on stderr for long work, only when stderr is a terminal (never in scripts)."""
    def quiet(text: str) -> None:
        pass

    if not sys.stderr.isatty():
        yield quiet
        return
    from ..config import find_club
    from ..replay.loader import checked_config

    try:
        config = checked_config(find_club(club), light)
        size = sum(p.stat().st_size for p in config.journal_paths() if p.exists())
    except Exception:  # noqa: BLE001 - the command itself will report it
        size = 0
    if size < BIG_JOURNAL:
        yield quiet
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    stages = len(config.journal_paths()) + 1 + 2 * len(config.ratings)
    with Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), BarColumn(), TimeElapsedColumn(),
                  console=rich_console(stderr=True), transient=True) as bar:
        task = bar.add_task(_("loading"), total=stages)
        yield lambda text: bar.update(task, description=text, advance=1)


def load(club: str | None, discipline: str | None = None, light: bool = False) -> Ledger:
    """The club, read and checked; --discipline (if given) must be one the club knows. `light`: a
    command that reads the lists' parameters only by attribute, as the engines do (the config may
    come from the cache: load_club); not backtest, which builds models of varied parameters."""
    from ..collector import kept_to_exit
    from ..replay.loader import load_club

    with progress_bar(club, light) as progress:
        ledger: Ledger = load_club(club, progress=progress, light=light)
    # What the command replays lives to the process's end: freed record by record when the command
    # returns, a 200k-match list's replay took a tenth of a first `history` (collector.py). Only the
    # last ledger loaded: one read again (the journal changed while it was read) frees the one before.
    kept_to_exit(ledger, "ledger")
    if discipline is not None:
        from ..errors import ActionRefused, did_you_mean
        from ..reports import known_disciplines

        known = known_disciplines(ledger)
        if discipline not in known:
            raise ActionRefused(_("--discipline: unknown discipline {discipline!r}{hint}; the club has {known}").format(
                discipline=discipline, hint=did_you_mean(discipline, set(known)), known=", ".join(known)))
    return ledger


def writer_club(club: str | None) -> Ledger:
    """The club's config (as its last check left it in the cache, as for every command: the same text,
    program and Python give the same verdict); a writer loads the journal itself, under the club lock."""
    from ..replay.loader import load_club

    ledger: Ledger = load_club(club, config_only=True, light=True)
    return ledger


def emit_all(tables: Sequence[Table], fmt: str) -> None:
    """The first table in every format (its JSON is the whole answer); the others in table and md."""
    from ..render.formats import emit

    out = console()
    for k, table in enumerate(tables if fmt in ("table", "md") else tables[:1]):
        if k and fmt == "md":
            out.file.write("\n")
        emit(table, fmt, out)
