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

if TYPE_CHECKING:
    from rich.console import Console

    from ..replay.ledger import Ledger
    from ..reports import Table

ClubOpt = Annotated[Optional[str], typer.Option("--club", help="Club folder or its nardrating.toml "
                    "(default: $NARDRATING_CLUB, else the nearest nardrating.toml upward).", show_default=False)]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table, csv, json or md.")]
RatingOpt = Annotated[Optional[str], typer.Option("--rating", "-r", help="Rating list name (default: the first in the config).", show_default=False)]
DisciplineOpt = Annotated[Optional[str], typer.Option("--discipline", "-d", help="Discipline (default: the club's).", show_default=False)]
NewDisciplineOpt = Annotated[bool, typer.Option("--new-discipline", help="Start a discipline no game has yet "
                             "(without it, an unknown or unrated discipline is refused as a likely typo).")]
AsOfOpt = Annotated[Optional[str], typer.Option("--as-of", help="Date YYYY-MM-DD (default: the journal's last "
                    'entry; today with club.as_of = "today" in nardrating.toml).', show_default=False)]

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


@overload
def parse_date(value: str, option: str) -> date: ...
@overload
def parse_date(value: str | None, option: str) -> date | None: ...
def parse_date(value: str | None, option: str) -> date | None:
    """An option's YYYY-MM-DD, or a usage error naming the option."""
    from ..periods import check_day

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


def check_format(value: str) -> str:
    from ..render.formats import FORMATS

    if value not in FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(FORMATS)}", param_hint="--format")
    return value


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
        task = bar.add_task("loading", total=stages)
        yield lambda text: bar.update(task, description=text, advance=1)


def load(club: str | None, discipline: str | None = None, light: bool = False) -> Ledger:
    """The club, read and checked; --discipline (if given) must be one the club knows. `light`: a
    read-only command of standings and history (the config may come from the cache: load_club)."""
    from ..replay.loader import load_club

    with progress_bar(club, light) as progress:
        ledger: Ledger = load_club(club, progress=progress, light=light)
    if discipline is not None:
        from ..errors import ActionRefused, did_you_mean
        from ..reports import known_disciplines

        known = known_disciplines(ledger)
        if discipline not in known:
            raise ActionRefused(f"--discipline: unknown discipline {discipline!r}{did_you_mean(discipline, set(known))}; "
                                f"the club has {', '.join(known)}")
    return ledger


def writer_club(club: str | None) -> Ledger:
    """The club's config; a writer loads the journal itself, under the club lock."""
    from ..replay.loader import load_club

    ledger: Ledger = load_club(club, config_only=True)
    return ledger


def emit_all(tables: Sequence[Table], fmt: str) -> None:
    """The first table in every format (its JSON is the whole answer); the others in table and md."""
    from ..render.formats import emit

    out = console()
    for k, table in enumerate(tables if fmt in ("table", "md") else tables[:1]):
        if k and fmt == "md":
            out.file.write("\n")
        emit(table, fmt, out)
