"""The tournament director's commands: tournaments, entrants, pair, results, standings, crosstable,
join and withdraw."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..i18n import N_, _, using

if TYPE_CHECKING:
    from ..replay.ledger import Ledger
    from ..tournaments.model import Tournament
from .common import (ClubOpt, FormatOpt, SheetLangOpt, check_format, check_language, console, emit_all, load, output_language,
                     parse_date, plain, writer_club)

TournamentArg = Annotated[str, typer.Argument(metavar="T", help=N_("The tournament's id."))]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help=N_("Check and show; write nothing."))]


def tournaments(club: ClubOpt = None, fmt: FormatOpt = "table", lang: SheetLangOpt = None) -> None:
    """List the tournaments: system, pairing, dates, rounds and players.

    Example: nardrating tournaments --format json
    """
    from ..reports.tournaments import tournament_list
    from ..tournaments.fromjournal import tournament_state

    fmt, lang = check_format(fmt), check_language(lang)
    ledger = load(club)
    journal = ledger.journal
    states = {tid: tournament_state(journal, tid) for tid, t in journal.tournaments.items() if t.play is not None}
    with using(output_language(fmt, lang, ledger)):
        emit_all([tournament_list(journal, states)], fmt)


def entrants(tournament: TournamentArg, club: ClubOpt = None, fmt: FormatOpt = "table", lang: SheetLangOpt = None) -> None:
    """The start list: pairing numbers, players and their ratings when the tournament starts.

    Example: nardrating entrants spring-open
    """
    from ..journal.actions.tournaments import state
    from ..reports.tournaments import entrant_list

    fmt, lang = check_format(fmt), check_language(lang)
    ledger = load(club)
    now = state(ledger, tournament, rated=True)
    with using(output_language(fmt, lang, ledger)):
        emit_all([entrant_list(now)], fmt)


def pair(tournament: TournamentArg,
         day: Annotated[Optional[str], typer.Option("--date", help=N_("The round's date, YYYY-MM-DD (default: today)."),
                                                    show_default=False)] = None,
         dry_run: DryRunOpt = False,
         absent: Annotated[Optional[list[str]], typer.Option("--absent", metavar="ID", help=N_("A player away this round "
                           "(a zero-point bye); repeat for several."), show_default=False)] = None,
         half_bye: Annotated[Optional[list[str]], typer.Option("--half-bye", metavar="ID", help=N_("A player given a "
                             "requested half-point bye; repeat for several."), show_default=False)] = None,
         rematches: Annotated[bool, typer.Option("--rematches", help=N_("pairing = losses: where the round cannot be "
                              "paired otherwise, let players meet again, as few pairs as can be."))] = False,
         club: ClubOpt = None, fmt: FormatOpt = "table", lang: SheetLangOpt = None) -> None:
    """Pair the next round by the tournament's system and append it to the journal as a [[round]].

    Refused while the previous round has boards without a result, for a finished event, a tournament
    without `pairing`, or an unknown or withdrawn player. The Dutch system needs
    pip install 'nardrating[pairing]' (or [club] pairing_command naming bbpPairings or JaVaFo).
    Example: nardrating pair spring-open --date 2025-03-15 --absent vera
    """
    from ..journal.actions.tournaments import pair as do
    from ..reports.tournaments import pairing_table

    fmt, lang = check_format(fmt), check_language(lang)
    ledger = writer_club(club)
    done = do(ledger, tournament, parse_date(day, "--date"), absent or [], half_bye or [], dry_run, rematches)
    with using(output_language(fmt, lang, ledger)):
        emit_all([pairing_table(done.state, done.round)], fmt)
    if fmt == "table":
        verb = _("would add") if dry_run else _("added")
        console().print(plain(_("{verb} round {round} of {tournament}").format(
            verb=verb, round=done.round.number, tournament=tournament)), markup=False)


def results(tournament: TournamentArg,
            source: Annotated[str, typer.Argument(metavar="[FILE|-]", help=N_("The results, one board a line: WHITE "
                                                  "BLACK RESULT (1-0, 0-1, 1/2-1/2, +- or -+); - or none: standard "
                                                  "input."))] = "-",
            round_no: Annotated[Optional[int], typer.Option("--round", help=N_("The round (default: the last paired)."),
                                                             show_default=False)] = None,
            dry_run: DryRunOpt = False, club: ClubOpt = None) -> None:
    """Enter a round's results at once, checked against its pairing: one [[match]] a board, one write.

    Example: printf 'anna boris 1-0\\nvera gleb 1/2-1/2\\n' | nardrating results spring-open
    """
    from pathlib import Path

    from ..journal.actions.tournaments import enter_results, parse_results

    if source == "-":
        label, text = "<stdin>", sys.stdin.read()
    else:
        from ..errors import LedgerError, Problem, unreadable
        from ..journal.tomlsource import decode
        from ..safefile import read_regular

        try:  # a regular file only: a FIFO would hang the read
            raw = read_regular(Path(source))[0]
        except OSError as exc:
            raise LedgerError([unreadable(source, source, exc, _("a file of results"))]) from None
        problems: list[Problem] = []
        decoded = decode(raw, source, problems)
        if decoded is None:
            raise LedgerError(problems)
        text = decoded
        label = source
    written = enter_results(writer_club(club), tournament, parse_results(text, label), label, round_no, dry_run)
    out = console()
    first, last = written.entries[0], written.entries[-1]
    verb = _("would add") if dry_run else _("added")
    said = (_("{verb} {count} of round {round} of {tournament} ({first} to {last})") if len(written.entries) > 1
            else _("{verb} {count} of round {round} of {tournament} ({first})"))
    out.print(plain(said.format(verb=verb, count=_n_results(len(written.entries)), round=first["round"],
                                tournament=tournament, first=first["id"], last=last["id"])), markup=False)


def _n_results(n: int) -> str:
    from ..i18n import ngettext

    return ngettext("{n} result", "{n} results", n).format(n=n)


def standings(tournament: TournamentArg,
              after_round: Annotated[Optional[int], typer.Option("--after-round", help=N_("Standings after this round "
                                                                  "(default: the last with every result)."),
                                                                  show_default=False)] = None,
              club: ClubOpt = None, fmt: FormatOpt = "table", lang: SheetLangOpt = None) -> None:
    """Standings with the tournament's FIDE tie-breaks (default Swiss: buchholz-cut1, buchholz,
    sonneborn-berger; round-robin: sonneborn-berger, direct-encounter, wins).

    Example: nardrating standings spring-open --after-round 3 -f json
    """
    from ..errors import ActionRefused
    from ..journal.actions.tournaments import state
    from ..reports.tournaments import standings_table

    fmt, lang = check_format(fmt), check_language(lang)
    ledger = load(club)
    words = output_language(fmt, lang, ledger)
    if _entered_by_hand(ledger, tournament):
        from ..reports.tournaments import entered_standings_table

        if after_round is not None:
            raise ActionRefused(_("tournament '{tournament}' was not paired here (it has no [[round]]s), so it has no "
                                  "standings after a round; `nardrating standings {tournament}` gives its places and "
                                  "points").format(tournament=tournament))
        with using(words):
            emit_all([entered_standings_table(ledger.journal, tournament)], fmt)
        return
    now = state(ledger, tournament, rated=True)
    complete = _complete(now)
    if after_round is not None and not 0 <= after_round <= complete:
        raise ActionRefused(_("--after-round {round}: tournament '{tournament}' has {done} rounds with every "
                              "result; give 0 to {done}").format(round=after_round, tournament=tournament, done=complete))
    with using(words):
        emit_all([standings_table(now, complete if after_round is None else after_round)], fmt)


def _entered_by_hand(ledger: Ledger, tournament: str) -> bool:
    """Whether the (known) tournament was entered match by match, not paired here: no rounds to rank by."""
    from ..journal.actions.tournaments import known_tournament

    known_tournament(ledger, tournament)
    return ledger.journal.tournaments[tournament].play is None


def _complete(state: Tournament) -> int:
    """How many rounds, from the first, have every result."""
    done = 0
    for r in state.rounds:
        if r.missing():
            break
        done += 1
    return done


def crosstable(tournament: TournamentArg, club: ClubOpt = None, fmt: FormatOpt = "table", lang: SheetLangOpt = None) -> None:
    """The crosstable: each round's opponent number, colour and result, points and tie-breaks.

    Example: nardrating crosstable spring-open -f md
    """
    from ..journal.actions.tournaments import state
    from ..reports.tournaments import crosstable_table

    fmt, lang = check_format(fmt), check_language(lang)
    ledger = load(club)
    if _entered_by_hand(ledger, tournament):
        from ..errors import ActionRefused

        raise ActionRefused(_("tournament '{tournament}' was not paired here (it has no [[round]]s), so it has no "
                              "crosstable round by round; `nardrating standings {tournament}` gives its places and "
                              "points, and `nardrating publish` its crosstable player against player").format(
            tournament=tournament))
    now = state(ledger, tournament, rated=True)
    with using(output_language(fmt, lang, ledger)):
        emit_all([crosstable_table(now.upto(_complete(now)))], fmt)


def join(tournament: TournamentArg, player: Annotated[str, typer.Argument(metavar="PLAYER")],
         round_no: Annotated[Optional[int], typer.Option("--round", help=N_("The first round the player is paired in "
                                                          "(default: the next)."), show_default=False)] = None,
         day: Annotated[Optional[str], typer.Option("--date", help=N_("YYYY-MM-DD (default: today)."),
                                                    show_default=False)] = None,
         dry_run: DryRunOpt = False, club: ClubOpt = None) -> None:
    """A late entry: append a [[join]]; the player gets the next pairing number.

    Example: nardrating join spring-open gleb
    """
    from ..journal.actions.tournaments import change

    entry = change(writer_club(club), "join", tournament, player, round_no, parse_date(day, "--date"), None, dry_run)
    verb = _("would add") if dry_run else _("added")
    console().print(plain(_("{verb} {player} to {tournament} from round {round}").format(
        verb=verb, player=player, tournament=tournament, round=entry["round"])), markup=False)


def withdraw(tournament: TournamentArg, player: Annotated[str, typer.Argument(metavar="PLAYER")],
             round_no: Annotated[Optional[int], typer.Option("--round", help=N_("The first round the player is no "
                                                              "longer paired in (default: the next)."),
                                                              show_default=False)] = None,
             day: Annotated[Optional[str], typer.Option("--date", help=N_("YYYY-MM-DD (default: today)."),
                                                        show_default=False)] = None,
             reason: Annotated[Optional[str], typer.Option(help=N_("Why."), show_default=False)] = None,
             dry_run: DryRunOpt = False, club: ClubOpt = None) -> None:
    """A withdrawal: append a [[withdraw]]; the player is not paired from that round on.

    Example: nardrating withdraw spring-open boris --reason "ill"
    """
    from ..journal.actions.tournaments import change

    entry = change(writer_club(club), "withdraw", tournament, player, round_no, parse_date(day, "--date"), reason,
                   dry_run)
    verb = _("would withdraw") if dry_run else _("withdrew")
    console().print(plain(_("{verb} {player} from {tournament} from round {round} on").format(
        verb=verb, player=player, tournament=tournament, round=entry["round"])), markup=False)
