"""The commands that show a list: players, recalc, leaderboard, history, report."""
from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..i18n import N_, _, ngettext, using
from ..i18n.numbers import localized
from . import complete
from .common import (TEXT_FORMATS, AsOfOpt, BoardFormatOpt, ClubOpt, DisciplineOpt, FormatOpt, LangOpt, RatingOpt,
                     ReportFormatOpt, check_format, check_language, console, emit_all, fail, load, output_language, parse_date, parse_span,
                     plain, progress_bar)

if TYPE_CHECKING:
    from ..engines.base import RatingResult
    from ..replay.ledger import Ledger
    from ..reports import Table


def players(club: ClubOpt = None, rating: RatingOpt = None, as_of: AsOfOpt = None, fmt: FormatOpt = "table") -> None:
    """List players: ids, names, aliases, qualifications, games per discipline (as the leaderboard counts them).

    Example: nardrating players --format csv
    """
    from .. import reports
    from ..render import emit

    fmt = check_format(fmt)
    ledger = load(club, light=True)
    day = reports.as_of(ledger, parse_date(as_of, "--as-of"))
    emit(reports.players(ledger, rating, day), fmt, console())


def matches(club: ClubOpt = None,
            day: Annotated[Optional[str], typer.Option("--date", help=N_("Only matches of this day, YYYY-MM-DD."),
                                                       show_default=False)] = None,
            since: Annotated[Optional[str], typer.Option("--from", help=N_("Only matches on or after this date."),
                                                         show_default=False)] = None,
            until: Annotated[Optional[str], typer.Option("--to", help=N_("Only matches on or before this date."),
                                                         show_default=False)] = None,
            player: Annotated[Optional[str], typer.Option("--player", help=N_("Only matches of this player."),
                                                          show_default=False)] = None,
            tournament: Annotated[Optional[str], typer.Option("--tournament", help=N_("Only matches of this tournament."),
                                                              show_default=False)] = None,
            voided: Annotated[bool, typer.Option("--voided", help=N_("Also the voided matches."))] = False,
            fmt: FormatOpt = "table") -> None:
    """The journal's matches with their ids (to find one to amend): date, players, result, length, discipline.

    Example: nardrating matches --date 2009-01-22
    """
    from ..render import emit
    from ..reports.matches import MatchFilter, matches as do

    fmt = check_format(fmt)
    wanted = MatchFilter(parse_date(day, "--date"), *parse_span(since, until), player, tournament, voided)
    emit(do(load(club), wanted), fmt, console())


def recalc(club: ClubOpt = None) -> None:
    """Replay the whole journal through every rating list and summarise.

    Example: nardrating recalc --club sample_ledgers/chess-club
    """
    import time

    from ..replay.parallel import replay_all
    from .club import journal_counts

    started = time.perf_counter()
    with progress_bar(club) as progress:
        ledger, replays = replay_all(club, progress)  # read and replay everything, cache it anew
    j = ledger.journal
    lines = [f"  {rating.name} ({rating.engine}, {discipline}): "
             + ngettext("{n} player", "{n} players", count).format(n=count) for rating, discipline, count in replays]
    out = console()
    out.print(journal_counts(j), markup=False)
    for line in lines:
        out.print(line, markup=False)
    out.print(_("done in {seconds} s").format(seconds=localized(f"{time.perf_counter() - started:.2f}")), markup=False)


def leaderboard(club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
                as_of: AsOfOpt = None,
                output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help=N_("With --format xlsx: the file "
                                  "to write (needs nardrating[xlsx])."), show_default=False)] = None,
                show_all: Annotated[bool, typer.Option("--all", help=N_("Also players the engine hides."))] = False,
                public: Annotated[bool, typer.Option("--public", help=N_("Show aliases instead of names."))] = False,
                daily: Annotated[bool, typer.Option("--daily", help=N_("Chip rating: the one-day sum."))] = False,
                fmt: BoardFormatOpt = "table", lang: LangOpt = None) -> None:
    """Rank, player, name, rating, games, status, last played.

    Example: nardrating leaderboard --rating club --as-of 2009-06-30 --format json
    """
    from .. import reports
    from ..lists.provenance import footer, load_for
    from ..render import emit

    fmt = _spreadsheet_target(fmt, output)
    lang = check_language(lang)
    # md, xlsx, fide-list: with provenance; read-only: the checked config from the cache where it is
    ledger, stamp = load_for(fmt, club, lambda: load(club, discipline, light=True))
    if output is not None:  # refused before the work: a link, a device, a journal file…
        from ..safewrite import check_target, club_files

        check_target(output, club_files(ledger.config))
    day = reports.as_of(ledger, parse_date(as_of, "--as-of"))
    result = ledger.standings_run(rating, discipline, day.day)   # (the leaderboard reads the standings only)
    if daily:
        if not result.has_daily:
            fail([_("--daily is for the chip rating; {list!r} uses the {engine} engine").format(
                list=result.rating, engine=result.engine)])
        result = result.daily(day.day)
    with using(output_language(fmt, lang, ledger)):
        table = reports.leaderboard(ledger, result, show_all, public, day)
        if fmt == "xlsx":
            return _write_xlsx(table, output, ledger, stamp.short() if stamp else None)
        out = console()
        emit(table, fmt, out)
        out.file.write(footer(stamp, fmt))


def _spreadsheet_target(fmt: str, output: Path | None, formats: tuple[str, ...] = (*TEXT_FORMATS, "fide-list", "xlsx")) -> str:
    """--format xlsx goes to --output FILE, or to stdout when that is not a terminal; text formats to stdout."""
    if fmt != "xlsx":
        if output is not None:
            raise typer.BadParameter(_("--output is for --format xlsx; text formats go to stdout"), param_hint="--output")
        return check_format(fmt, formats)
    if output is None and sys.stdout.isatty():
        fail([_("--format xlsx writes a binary spreadsheet, not text for a terminal: "
                "add --output FILE.xlsx (or redirect: > FILE.xlsx)")])
    return "xlsx"


def _write_xlsx(table: Table, output: Path | None, ledger: Ledger, provenance: dict[str, str] | None = None,
                sheet: str = N_("Leaderboard")) -> None:
    from ..render.spreadsheet import xlsx_bytes
    from ..safewrite import club_files, replace_file

    data = xlsx_bytes(table, provenance, sheet)
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    replace_file(output, data, protect=club_files(ledger.config))
    console(stderr=True).print(_("wrote {file}").format(file=output), markup=False)


def history(player: Annotated[str, typer.Argument(metavar="PLAYER", autocompletion=complete.players)],
            club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
            as_of: AsOfOpt = None,
            since: Annotated[Optional[str], typer.Option("--from", metavar="DATE", help=N_("Only events on or after this date."),
                                                         show_default=False)] = None,
            until: Annotated[Optional[str], typer.Option("--to", metavar="DATE", help=N_("Only events on or before this date."),
                                                         show_default=False)] = None,
            last: Annotated[Optional[int], typer.Option("--last", metavar="N", help=N_("Only the last N games (and what came after)."),
                                                        show_default=False)] = None,
            opponent: Annotated[Optional[str], typer.Option("--opponent", metavar="PLAYER", help=N_("Only games against this player."), autocompletion=complete.players,
                                                            show_default=False)] = None,
            details: Annotated[bool, typer.Option("--details", help=N_("The steps of each event's change, as "
                                                  "explain shows them (JSON: a steps key per event)."))] = False,
            fmt: FormatOpt = "table",
            chart: Annotated[bool, typer.Option("--chart", help=N_("Draw the rating over time in the terminal, "
                                                "or into FILE (.png needs nardrating[plot]; .svg nothing)."))] = False,
            chart_file: Annotated[Optional[Path], typer.Argument(metavar="FILE", help=N_("With --chart: the image to write (optional)."),
                                                                 show_default=False)] = None,
            vs: Annotated[Optional[list[str]], typer.Option("--vs", metavar="PLAYER", help=N_("With --chart: another player on it (repeatable)."), autocompletion=complete.players,
                                                            show_default=False)] = None) -> None:
    """Every event of a player up to the date: entry, opponent, result, before, change, after; a summary.

    Example: nardrating history anna --from 2009-01-01 --opponent boris
    """
    from .. import reports
    from ..render import emit

    fmt = check_format(fmt)
    if last is not None and last < 1:
        raise typer.BadParameter(_("{n} is not a number of games; give 1 or more").format(n=last), param_hint="--last")
    since_day, until_day = parse_span(since, until)
    ledger = load(club, discipline, light=True)
    for who in (player, opponent):
        if who is not None:
            reports.known_player(ledger, who)
    day = reports.as_of(ledger, parse_date(as_of, "--as-of"))
    if chart or chart_file or vs or details:
        result = ledger.run(rating, discipline, day.day)
    else:   # (the player's lines only: of a federation list, kept in the cache)
        result = ledger.history_run(rating, discipline, day.day, [player])
    if chart or chart_file or vs:
        return _history_chart(ledger, result, [player] + (vs or []), chart, chart_file, since_day, until_day)
    table = reports.history(ledger, result, player, day, since=since_day, until=until_day, last=last,
                            opponent=opponent)
    if not details:
        emit(table, fmt, console())
        return
    from ..analysis.explain import history_details

    emit_all(history_details(ledger, result, player, table, fmt), fmt)


def _history_chart(ledger: Ledger, result: RatingResult, players: list[str], chart: bool, chart_file: Path | None,
                   since: date | None, until: date | None) -> None:
    """history --chart [FILE] [--vs OTHER…]: the ratings of one or more players over time."""
    import shutil

    from .. import reports
    from ..render import charts
    from .terminal import data_stream

    if not chart:
        raise typer.BadParameter(_("a chart file or --vs goes with --chart"), param_hint="--chart")
    for who in players[1:]:
        reports.known_player(ledger, who)
    series = []
    for who in dict.fromkeys(players):
        points = [p for p in charts.rating_points(result, who)
                  if (since is None or p.day >= since) and (until is None or p.day <= until)]
        series.append(charts.Series(ledger.journal.player_name(who), points))
    title = f"{result.rating} · {result.discipline}"
    if chart_file is None:
        width = shutil.get_terminal_size((80, 24)).columns
        lines = [title] + charts.text_plot(series, width=min(max(width, 40), 160))
        data_stream(console().file).write("\n".join(map(plain, lines)) + "\n")  # laid out to the width already
        return
    from ..safewrite import club_files

    charts.write(series, chart_file, title, protect=club_files(ledger.config))
    console().print(_("wrote {file}").format(file=chart_file), markup=False)


def _period_hint(text: str) -> str:
    """' (did you mean "2009-Q4"?)' for a mistyped period of a year the text names."""
    import re

    from ..errors import did_you_mean

    from ..periods import written_date, written_period

    meant = written_date(text)[1]
    if meant is not None:   # a day written as on paper: 07.12.2026
        return did_you_mean(meant.isoformat(), [meant.isoformat()])
    if (period := written_period(text)) is not None:   # Q1 2009, март 2009, 2009-01-01 - 2009-03-31
        return did_you_mean(period, [period])
    if (month := re.fullmatch(r"\s*(\d{1,2})[./](\d{4})\s*", text)) and 1 <= int(month[1]) <= 12:   # 03.2009
        return did_you_mean(f"{month[2]}-{int(month[1]):02d}", [f"{month[2]}-{int(month[1]):02d}"])
    year = re.search(r"[0-9]{4}", text)
    if year is None or ".." in text:  # a range: its message says what would be right
        return ""
    y = year[0]
    forms = [y, *(f"{y}-Q{q}" for q in range(1, 5)), f"{y}-H1", f"{y}-H2", *(f"{y}-{m:02d}" for m in range(1, 13))]
    return did_you_mean(text.strip(), forms)


def report(period: Annotated[str, typer.Option("--period", "-p", metavar="PERIOD", help=N_("2009-Q1, 2009Q1, 2009-03, 2009, 2009-H1 or 2009-01-15..2009-02-20."))],
           club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
           player: Annotated[Optional[str], typer.Option(autocompletion=complete.players, help=N_("Only this player."))] = None,
           details: Annotated[bool, typer.Option("--details", help=N_("The arithmetic: per competition (mfsnb, fide) "
                                                 "or per game (elo, fibs, chips, placement)."))] = False,
           fmt: ReportFormatOpt = "table", lang: LangOpt = None,
           output: Annotated[Optional[Path], typer.Option("--output", "-o", metavar="FILE", help=N_("With --format xlsx: the file "
                             "to write (needs nardrating[xlsx])."), show_default=False)] = None) -> None:
    """Per player active in the period: rating at its start, games, points, expected, change, rating at its end.

    Example: nardrating report --period 2009-Q1 --format md
    """
    from .. import reports
    from ..lists.provenance import footer, load_for
    from ..periods import NotAPeriod, parse_period
    from ..render import emit

    fmt = _spreadsheet_target(fmt, output, (*TEXT_FORMATS, "xlsx"))
    lang = check_language(lang)
    try:
        span = parse_period(period)
    except ValueError as exc:
        if not isinstance(exc, NotAPeriod):  # out of range: a usage error, as for any date
            raise typer.BadParameter(str(exc), param_hint="--period") from None
        fail([f"--period: {exc}{_period_hint(period)}"])  # a typo: exit 1 with the nearest periods
    ledger, stamp = load_for(fmt, club, lambda: load(club, discipline, light=True))   # md, xlsx: with provenance
    if output is not None:  # refused before the work: a link, a device, a journal file…
        from ..safewrite import check_target, club_files

        check_target(output, club_files(ledger.config))
    if player is not None:
        reports.known_player(ledger, player)
    result = ledger.run(rating, discipline)
    with using(output_language(fmt, lang, ledger)):
        table = reports.report(ledger, result, span, player, details)
        if fmt == "xlsx":
            return _write_xlsx(table, output, ledger, stamp.short() if stamp else None, N_("Report"))
        out = console()
        emit(table, fmt, out)
        if details and fmt in ("table", "md"):
            for detail in reports.report_details(table):
                if fmt == "md":
                    out.file.write("\n")
                emit(detail, fmt, out)
        out.file.write(footer(stamp, fmt))
