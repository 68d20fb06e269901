"""The commands that look closer: predict, backtest, player, head-to-head, explain."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..i18n import N_, _
from . import complete
from .common import (AsOfOpt, ClubOpt, DisciplineOpt, FormatOpt, RatingOpt, check_format, console, emit_all, load, plain,
                     parse_date, parse_span)


def predict(a: Annotated[str, typer.Argument(metavar="A", help=N_("First player (chess: white)."), autocompletion=complete.players)],
            b: Annotated[str, typer.Argument(metavar="B", help=N_("Second player."), autocompletion=complete.players)],
            length: Annotated[int, typer.Option(help=N_("Match length in points (fibs: it matters)."))] = 1,
            club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
            as_of: AsOfOpt = None, fmt: FormatOpt = "table") -> None:
    """A's expected score against B and each player's change on a win, a loss and a draw.

    Example: nardrating predict anna boris --length 7 --format json
    """
    from ..analysis.predict import predict as do
    from ..render import emit

    fmt = check_format(fmt)
    table = do(load(club, discipline), a, b, rating=rating, discipline=discipline,
               as_of=parse_date(as_of, "--as-of"), length=length)
    emit(table, fmt, console())


def backtest(club: ClubOpt = None,
             rating: Annotated[Optional[list[str]], typer.Option("--rating", "-r", metavar="LIST", help=N_("A list to score (repeat it; "
                               "default: every list that predicts games)."), show_default=False,
                               autocompletion=complete.ratings)] = None,
             param: Annotated[Optional[list[str]], typer.Option("--param", metavar="NAME=V1,V2", help=N_("One list's parameter over values, "
                              "e.g. k=10,20,32 (repeat it for a grid)."), show_default=False)] = None,
             discipline: DisciplineOpt = None,
             since: Annotated[Optional[str], typer.Option("--from", metavar="DATE", help=N_("Score games on or after this date."),
                                                          show_default=False)] = None,
             until: Annotated[Optional[str], typer.Option("--to", metavar="DATE", help=N_("Score games on or before this date."),
                                                          show_default=False)] = None,
             plot: Annotated[Optional[Path], typer.Option("--plot", metavar="FILE", help=N_("Also draw the calibration as FILE.png or "
                             "FILE.svg (needs the extra [plot]: matplotlib)."), show_default=False)] = None,
             fmt: FormatOpt = "table") -> None:
    """Score each candidate's prediction of every rated game before it was played: log loss, Brier, accuracy.

    Example: nardrating backtest --rating club --param k=10,20,32
    """
    from ..analysis import backtest as bt
    from ..render import emit

    fmt = check_format(fmt)
    since_day, until_day = parse_span(since, until)
    ledger = load(club)
    if plot is not None:  # refused before the work: a link, a device, a journal file…
        from ..safewrite import check_target, club_files

        check_target(plot, club_files(ledger.config))
    found = bt.candidates(ledger, rating or [], param or [])
    rows = bt.run(ledger, found, discipline, since_day, until_day)
    if plot is not None:
        bt.plot(rows, plot, club_files(ledger.config))
        console(stderr=True).print(plain(_("wrote {file}").format(file=plot)), markup=False)  # stdout: the table
    out = console()
    emit(bt.table(rows, since_day, until_day), fmt, out)
    if fmt == "table":
        for row in bt.ranked(rows):
            emit(bt.calibration_table(row), fmt, out)


def player(player_id: Annotated[str, typer.Argument(metavar="A", autocompletion=complete.players)],
           club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
           as_of: AsOfOpt = None, fmt: FormatOpt = "table") -> None:
    """A player's record (by discipline and length), streaks, rating peak and low, last games, best wins.

    Example: nardrating player vera --format json
    """
    from .. import reports
    from ..analysis import headtohead

    fmt = check_format(fmt)
    ledger = load(club, light=True)
    reports.known_player(ledger, player_id)
    day = reports.as_of(ledger, parse_date(as_of, "--as-of"))
    result = ledger.history_run(rating, discipline, day.day, [player_id], opponents=True, standings=True)
    emit_all(headtohead.player(ledger, result, player_id, day), fmt)


def head_to_head(a: Annotated[str, typer.Argument(metavar="A", autocompletion=complete.players)], b: Annotated[str, typer.Argument(metavar="B", autocompletion=complete.players)],
                 club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
                 as_of: AsOfOpt = None, fmt: FormatOpt = "table") -> None:
    """A's record against B (by discipline and length), streaks, their last meetings, each one's best win.

    Example: nardrating head-to-head anna vera
    """
    from .. import reports
    from ..analysis import headtohead

    fmt = check_format(fmt)
    ledger = load(club, light=True)
    for who in (a, b):
        reports.known_player(ledger, who)
    day = reports.as_of(ledger, parse_date(as_of, "--as-of"))
    result = ledger.history_run(rating, discipline, day.day, [a, b], opponents=True, standings=True)
    emit_all(headtohead.head_to_head(ledger, result, a, b, day), fmt)


def explain(entry: Annotated[str, typer.Argument(metavar="ENTRY", help=N_("A match id or a tournament id, or "
                                                  "PLAYER@DATE for that player's adjust, penalty, decay and list "
                                                  "events of that day (history shows their dates and kinds)."))],
            club: ClubOpt = None, rating: RatingOpt = None, discipline: DisciplineOpt = None,
            as_of: AsOfOpt = None, fmt: FormatOpt = "table") -> None:
    """Every input and every step of the arithmetic behind each player's change, with its rule.

    Example: nardrating explain m0003 --format json; nardrating explain anna@2025-03-01
    """
    from ..analysis.explain import explain as do

    fmt = check_format(fmt)
    emit_all(do(load(club, light=True), entry, rating, discipline, parse_date(as_of, "--as-of"), one_table=fmt == "csv"), fmt)
