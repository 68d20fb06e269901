"""The commands that append to the journal: add-player, add-match, add-tournament, void, amend,
undo, rename-player, merge-players. Each shows what it wrote and which ratings it moved."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..i18n import N_, _
from . import complete
from .common import (ClubOpt, DisciplineOpt, NewDisciplineOpt, YesOpt, confirm_dates, console, fail, load, parse_date,
                     warn_all, writer_club)

if TYPE_CHECKING:
    from rich.console import Console

    from ..journal.actions import Change, Moved, Written
    from .common import PlainConsole


def add_player(player_id: Annotated[str, typer.Argument(metavar="ID", help=N_("Unique id: letters, digits, _ and -."))],
               name: Annotated[Optional[str], typer.Option(help=N_("Full name (default: the id)."))] = None,
               alias: Annotated[Optional[str], typer.Option(help=N_("Public name, shown with --public."))] = None,
               qualification: Annotated[Optional[str], typer.Option(help=N_("MS, KMS, 1, 2 or 3."))] = None,
               title: Annotated[Optional[str], typer.Option(help=N_("Title, e.g. FM."))] = None,
               joined: Annotated[Optional[str], typer.Option(help=N_("Date joined, YYYY-MM-DD."))] = None,
               dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Check and show; write nothing."))] = False,
               yes: YesOpt = False, club: ClubOpt = None) -> None:
    """Add a [[player]] to the journal.

    Example: nardrating add-player anna --name "Анна Петрова" --alias "Анна П." --qualification KMS
    """
    from ..journal.actions import add_player as do

    day = parse_date(joined, "--joined")
    confirm_dates([("--joined", day)], yes, dry_run)
    warnings: list[str] = []
    entry = do(writer_club(club), player_id, name, alias, qualification, title, day, dry_run, warnings.append)
    console().print((_("would add player {player}") if dry_run else _("added player {player}")).format(
        player=entry["id"]), markup=False)
    warn_all(warnings)


def edit_player(player_id: Annotated[str, typer.Argument(metavar="ID", help=N_("The player's id."),
                                                    autocompletion=complete.players)],
                name: Annotated[Optional[str], typer.Option(help=N_("Full name."), show_default=False)] = None,
                alias: Annotated[Optional[str], typer.Option(help=N_("Public name, shown with --public."),
                                                             show_default=False)] = None,
                qualification: Annotated[Optional[str], typer.Option(help=N_("MS, KMS, 1, 2 or 3."),
                                                                     show_default=False)] = None,
                title: Annotated[Optional[str], typer.Option(help=N_("Title, e.g. FM."), show_default=False)] = None,
                joined: Annotated[Optional[str], typer.Option(help=N_("Date joined, YYYY-MM-DD."), show_default=False)] = None,
                dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Check and show; write nothing."))] = False,
                yes: YesOpt = False, club: ClubOpt = None) -> None:
    """Change a player's name, alias, qualification, title or joined date by an appended [[edit-player]].

    Every command shows the new values from then on. Example: nardrating edit-player anna --name "Анна Петрова"
    """
    from ..journal.actions import edit_player as do

    day = parse_date(joined, "--joined")
    confirm_dates([("--joined", day)], yes, dry_run)
    warnings: list[str] = []
    changes = {"name": name, "alias": alias, "qualification": qualification, "title": title, "joined": day}
    written, before = do(writer_club(club), player_id, changes, dry_run=dry_run, warn=warnings.append)
    entry, out = written.entries[0], console()
    what = "; ".join(f"{key} {_shown(before[key])} → {_shown(entry[key])}" for key in before)
    out.print((_("would edit player {player}: {what}") if dry_run else _("edited player {player}: {what}")).format(
        player=player_id, what=what), markup=False)
    if written.moved is not None:
        _print_moved(out, written.moved)
    warn_all(warnings)


def _shown(value: object) -> str:
    """A field's value in edit-player's line: text quoted, none as (none)."""
    return _("(none)") if value is None else repr(value) if isinstance(value, str) else str(value)


def drawn(draw: bool, winner: str | None, result: str | None) -> str | None:
    """The result --draw stands for; a usage error beside a winner or another result."""
    if not draw:
        return result
    if winner is not None or result is not None:
        raise typer.BadParameter(_("a draw has no winner and no other result: give --draw, --winner or --result, "
                                   "one of them"), param_hint="--draw")
    return "1/2-1/2"


def add_match(a: Annotated[str, typer.Argument(metavar="A", help=N_("First player (chess: white)."), autocompletion=complete.players)],
              b: Annotated[str, typer.Argument(metavar="B", help=N_("Second player (chess: black)."), autocompletion=complete.players)],
              winner: Annotated[Optional[str], typer.Option(autocompletion=complete.players, help=N_("The winner's id."))] = None,
              result: Annotated[Optional[str], typer.Option(help=N_('"1-0", "0-1" or "1/2-1/2", from A\'s side.'))] = None,
              draw: Annotated[bool, typer.Option("--draw", help=N_('A draw: the same as --result 1/2-1/2.'))] = False,
              day: Annotated[Optional[str], typer.Option("--date", help=N_("YYYY-MM-DD (default: today)."))] = None,
              length: Annotated[Optional[int], typer.Option(help=N_("Match length in points (default 1; a board of a "
                                "tournament with a length: that length)."), show_default=False)] = None,
              score: Annotated[Optional[str], typer.Option(help=N_("Final score, e.g. 7-4."))] = None,
              chips: Annotated[Optional[float], typer.Option(help=N_("Chips won (chip rating)."))] = None,
              discipline: DisciplineOpt = None,
              tournament: Annotated[Optional[str], typer.Option(help=N_("Tournament id."), autocompletion=complete.tournaments)] = None,
              unrated: Annotated[bool, typer.Option("--unrated", help=N_("Record it, rate it nowhere."))] = False,
              forfeit: Annotated[bool, typer.Option("--forfeit", help=N_("A no-show or technical result."))] = False,
              note: Annotated[Optional[str], typer.Option(help=N_("A note."))] = None,
              new_discipline: NewDisciplineOpt = False,
              dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Show the rating changes; write nothing."))] = False,
              yes: YesOpt = False, club: ClubOpt = None) -> None:
    """Append a [[match]] and show each player's rating change in every list that rates it.

    A back-dated match also shows every rating of the current lists that it changes.
    Example: nardrating add-match anna boris --winner anna --date 2009-01-15
    """
    from ..journal.actions import add_match as do

    result = drawn(draw, winner, result)
    played = parse_date(day, "--date")
    confirm_dates([("--date", played)], yes, dry_run)
    written = do(writer_club(club), a, b, winner=winner, result=result, day=played,
                 length=length, score=score, discipline=discipline, tournament=tournament,
                 rated=not unrated, forfeit=forfeit, note=note, chips=chips,
                 new_discipline=new_discipline, dry_run=dry_run)
    entry, out = written.entries[0], console()
    out.print((_("would add match {match} on {day}") if dry_run else _("added match {match} on {day}")).format(
        match=entry["id"], day=entry["date"]), markup=False)
    _print_changes(out, written.changes or [])
    if written.moved is not None:
        _print_moved(out, written.moved)


def _print_changes(out: Console | PlainConsole, changes: list[Change]) -> None:
    """Each player's change from one new match."""
    from ..i18n.terms import reason_text
    from ..render import cell_text
    from ..reports import Column

    rating_col, change_col = Column("", "", "rating"), Column("", "", "change")
    for c in changes:
        if c.rated:
            out.print(f"  {c.rating} ({c.discipline}): {c.player} {cell_text(c.before, rating_col)} "
                      f"{cell_text(c.change, change_col)} → {cell_text(c.after, rating_col)}", markup=False)
        else:   # the engine's reason, in words
            out.print("  " + _("{rating} ({discipline}): {player} not rated now: {reason}").format(
                rating=c.rating, discipline=c.discipline, player=c.player, reason=reason_text(c.reason) if c.reason else c.reason),
                markup=False)


def _print_moved(out: Console | PlainConsole, moved: list[Moved] | None) -> None:
    """The "what changed" block: every rating of the current lists that differs, before → after."""
    from ..render import cell_text
    from ..reports import Column

    rating_col = Column("", "", "rating")

    def shown(value: float | None) -> str:
        return _("(none)") if value is None else cell_text(value, rating_col)

    if not moved:
        out.print(_("no rating in the current lists changes"), markup=False)
        return
    out.print(_("ratings that change in the current lists:"), markup=False)
    for c in moved:
        out.print(f"  {c.rating} ({c.discipline}): {c.player} {shown(c.before)} → {shown(c.after)}", markup=False)


def add_tournament(tournament_id: Annotated[str, typer.Argument(metavar="ID")],
                   name: Annotated[str, typer.Option(help=N_("Tournament name."))],
                   system: Annotated[str, typer.Option(help=N_("swiss, round-robin, knockout or match."))],
                   start: Annotated[str, typer.Option(help=N_("First day, YYYY-MM-DD."))],
                   end: Annotated[str, typer.Option(help=N_("Last day, YYYY-MM-DD."))],
                   discipline: DisciplineOpt = None,
                   official: Annotated[bool, typer.Option("--official", help=N_("An official competition."))] = False,
                   pairing: Annotated[Optional[str], typer.Option(help=N_("Run it here: berger, double-berger, dutch, "
                                      "knockout or losses."), show_default=False)] = None,
                   rounds: Annotated[Optional[int], typer.Option(help=N_("Its number of rounds."), show_default=False)] = None,
                   players: Annotated[Optional[str], typer.Option(help=N_("The start list, ID,ID,… (put in FIDE's order: "
                                      "by rating, then name)."), show_default=False)] = None,
                   tiebreaks: Annotated[Optional[str], typer.Option(help=N_("Tie-breaks in order, NAME,NAME,… (default: "
                                        "the system's)."), show_default=False)] = None,
                   bye_points: Annotated[Optional[float], typer.Option(help=N_("Points of a pairing-allocated bye: 0, 0.5 "
                                         "or 1 (default 1; round-robin 0)."), show_default=False)] = None,
                   max_losses: Annotated[Optional[int], typer.Option(help=N_("With --pairing losses: the losses that end "
                                         "a player's event."), show_default=False)] = None,
                   length: Annotated[Optional[int], typer.Option(help=N_("With --pairing: the match length of its boards "
                                     "in points (backgammon, nardy); results and add-match use it."),
                                     show_default=False)] = None,
                   dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
                   club: ClubOpt = None) -> None:
    """Append a [[tournament]]; matches join it with add-match --tournament ID, or `pair` runs it.

    Example: nardrating add-tournament cup-1 --name "Кубок клуба" --system swiss --start 2009-02-01 --end 2009-02-03
    """
    from ..journal.actions import add_tournament as do

    def listed(text: str | None) -> list[str] | None:
        return None if text is None else [part.strip() for part in text.split(",") if part.strip()]

    play = {"pairing": pairing, "rounds": rounds, "players": listed(players), "tiebreaks": listed(tiebreaks),
            "bye_points": bye_points, "max_losses": max_losses, "length": length}
    entry = do(writer_club(club), tournament_id, name=name, system=system, start=parse_date(start, "--start"),
               end=parse_date(end, "--end"), discipline=discipline, official=official, dry_run=dry_run,
               play={k: v for k, v in play.items() if v is not None})
    console().print((_("would add tournament {tournament}") if dry_run else _("added tournament {tournament}")).format(
        tournament=entry["id"]), markup=False)


def void(match_ids: Annotated[list[str], typer.Argument(metavar="MATCH_ID", help=N_(
             "The match, or several voided in one write (a round's results entered wrong)."))],
         reason: Annotated[str, typer.Option(help=N_("Why the match is voided."))],
         day: Annotated[Optional[str], typer.Option("--date", help=N_("Date of the correction (default: today)."))] = None,
         dry_run: Annotated[bool, typer.Option("--dry-run")] = False,
         club: ClubOpt = None) -> None:
    """Void a match: it is replayed as if absent. Re-enter the right result with add-match.

    Example: nardrating void m0003 --reason "result entered the wrong way round"
    """
    from ..journal.actions import void_match

    written = void_match(writer_club(club), match_ids, reason, parse_date(day, "--date"), dry_run)
    out = console()
    voided = [entry["match"] for entry in written.entries]
    if len(voided) == 1:
        out.print((_("would void match {match}") if dry_run else _("voided match {match}")).format(
            match=voided[0]), markup=False)
    else:
        out.print((_("would void matches {matches}") if dry_run else _("voided matches {matches}")).format(
            matches=", ".join(voided)), markup=False)
    _print_moved(out, written.moved)


def amend(match_id: Annotated[str, typer.Argument(metavar="MATCH", help=N_("The match to correct."))],
          a: Annotated[Optional[str], typer.Argument(metavar="A", help=N_("First player (default: the match's)."), autocompletion=complete.players,
                                                     show_default=False)] = None,
          b: Annotated[Optional[str], typer.Argument(metavar="B", help=N_("Second player (default: the match's)."), autocompletion=complete.players,
                                                     show_default=False)] = None,
          winner: Annotated[Optional[str], typer.Option(autocompletion=complete.players, help=N_("The winner's id."), show_default=False)] = None,
          result: Annotated[Optional[str], typer.Option(help=N_('"1-0", "0-1" or "1/2-1/2", from A\'s side.'),
                                                        show_default=False)] = None,
          draw: Annotated[bool, typer.Option("--draw", help=N_('A draw: the same as --result 1/2-1/2.'))] = False,
          day: Annotated[Optional[str], typer.Option("--date", help=N_("YYYY-MM-DD (default: the match's)."),
                                                     show_default=False)] = None,
          length: Annotated[Optional[int], typer.Option(help=N_("Match length in points."), show_default=False)] = None,
          score: Annotated[Optional[str], typer.Option(help=N_("Final score, e.g. 7-4."), show_default=False)] = None,
          chips: Annotated[Optional[float], typer.Option(help=N_("Chips won (chip rating)."), show_default=False)] = None,
          discipline: DisciplineOpt = None,
          tournament: Annotated[Optional[str], typer.Option(help=N_("Tournament id."), show_default=False, autocompletion=complete.tournaments)] = None,
          rated: Annotated[Optional[bool], typer.Option("--rated/--unrated", help=N_("Rated or not (default: as the match)."),
                                                        show_default=False)] = None,
          forfeit: Annotated[Optional[bool], typer.Option("--forfeit/--no-forfeit", help=N_("A no-show or technical "
                                                          "result (default: as the match)."), show_default=False)] = None,
          note: Annotated[Optional[str], typer.Option(help=N_("A note."), show_default=False)] = None,
          reason: Annotated[Optional[str], typer.Option(help=N_('Why (default: "amended by <new id>").'),
                                                        show_default=False)] = None,
          new_discipline: NewDisciplineOpt = False,
          dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Show what would change; write nothing."))] = False,
          yes: YesOpt = False, club: ClubOpt = None) -> None:
    """Correct a match in one step: a [[void]] of it and the corrected [[match]] (amends = MATCH).

    Options not given are the match's own. Shows every rating of the current lists that changes.
    Example: nardrating amend m0003 --result 1-0
    """
    from ..journal.actions import MatchArgs, amend_match

    if (a is None) != (b is None):
        raise typer.BadParameter(_("give both players A and B, or neither"), param_hint="A B")
    result = drawn(draw, winner, result)
    played = parse_date(day, "--date")
    confirm_dates([("--date", played)], yes, dry_run)
    given = MatchArgs(a, b, winner, result, played, length, score, discipline, tournament,
                      rated, forfeit, note, chips, new_discipline)
    _print_correction(amend_match(writer_club(club), match_id, given, reason, dry_run), dry_run)


def _print_correction(written: Written, dry_run: bool) -> None:
    void, match = written.entries
    out = console()
    out.print((_("would void match {match} ({reason})") if dry_run else _("voided match {match} ({reason})")).format(
        match=void["match"], reason=void["reason"]), markup=False)
    out.print((_("would add match {match} on {day}, amends {amends}") if dry_run
               else _("added match {match} on {day}, amends {amends}")).format(
        match=match["id"], day=match["date"], amends=match["amends"]), markup=False)
    _print_changes(out, written.changes or [])
    _print_moved(out, written.moved)


def undo(yes: Annotated[bool, typer.Option("--yes", "-y", help=N_("Do not ask."))] = False,
         club: ClubOpt = None) -> None:
    """Void the last match this club wrote, after showing it and asking.

    The last entry of the journal file the club writes to; an amend's match is voided and the
    original match entered again. Other entries are not voided: it says what to do instead.
    Example: nardrating undo
    """
    from ..journal.actions import last_entry, undo as do

    ledger = load(club)
    last = last_entry(ledger)
    out = console()
    out.print(_("the last entry:"), markup=False)
    out.print(last.text.rstrip("\n"), markup=False)
    if last.kind == "match" and last.written_id and not yes:
        if not sys.stdin.isatty():
            fail([_("undo: not asking without a terminal; nothing was written. Run `nardrating undo --yes` to "
                    "void it.")])
        if not typer.confirm(_("void it?"), default=False):
            fail([_("nothing was written")])
    written = do(ledger, shown=last)  # refused if the file's last entry is no longer this one
    if len(written.entries) == 2:
        _print_correction(written, False)
    else:
        out.print(_("voided match {match}").format(match=written.entries[0]["match"]), markup=False)
        _print_moved(out, written.moved)
        from ..journal.actions.correct import round_mates

        mates = round_mates(ledger.journal, written.entries[0]["match"])
        if mates is not None and mates[2]:
            tournament, number, ids = mates
            out.print(_("round {round} of {tournament} has other results: {matches}; if the round was entered "
                        "wrong, void them in one write: nardrating void {ids} --reason \"...\"").format(
                round=number, tournament=tournament, matches=", ".join(ids), ids=" ".join(ids)), markup=False)


def rename_player(old: Annotated[str, typer.Argument(metavar="OLD", autocompletion=complete.players)], new: Annotated[str, typer.Argument(metavar="NEW")],
                  dry_run: Annotated[bool, typer.Option("--dry-run")] = False, club: ClubOpt = None) -> None:
    """Rename a player by an appended [[rename]]: every entry, before and after, shows NEW.

    Example: nardrating rename-player borsi boris
    """
    from ..journal.actions import rename_player as do

    do(writer_club(club), old, new, dry_run=dry_run)
    console().print((_("would rename player {old} to {new}") if dry_run else _("renamed player {old} to {new}")).format(
        old=old, new=new), markup=False)


def merge_players(dup: Annotated[str, typer.Argument(metavar="DUP", autocompletion=complete.players)], into: Annotated[str, typer.Argument(metavar="INTO", autocompletion=complete.players)],
                  dry_run: Annotated[bool, typer.Option("--dry-run")] = False, club: ClubOpt = None) -> None:
    """Merge a duplicate player by an appended [[merge]]: DUP's games become INTO's.

    Refused if DUP and INTO played each other. Example: nardrating merge-players ivan2 ivan
    """
    from ..journal.actions import merge_players as do

    written = do(writer_club(club), dup, into, dry_run=dry_run)
    out = console()
    out.print((_("would merge player {dup} into {into}") if dry_run else _("merged player {dup} into {into}")).format(
        dup=dup, into=into), markup=False)
    _print_moved(out, written.moved)
