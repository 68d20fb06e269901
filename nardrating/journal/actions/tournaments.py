"""The tournament director's writers: pair (a [[round]]), results (the round's [[match]]es), join and
withdraw. Each goes through write.py: under the club lock, on the club loaded afresh, the entry is
built by the entry model, checked as a full read would, and appended whole; or nothing is written.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from ...datarecords import datarecord
from ...errors import ActionRefused, LedgerError, Problem, did_you_mean, player_hint
from ...i18n import N_, _
from ..limits import RESULT_TEXT, parse_result
from ..writer import next_match_id
from .draws import draw_refused
from .write import Fields, MakeFields, Written, write_entries, write_entry

if TYPE_CHECKING:
    from ...replay.ledger import Ledger
    from ...tournaments.model import Round, Tournament

RESULTS = {"1-0": ("1-0", False), "0-1": ("0-1", False), "1/2-1/2": ("1/2-1/2", False), "½-½": ("1/2-1/2", False),
           "=": ("1/2-1/2", False), "+-": ("1-0", True), "-+": ("0-1", True)}
RESULT_WORDS = N_("1-0, 0-1, 1/2-1/2 (or ½-½, =, 1:0, 0:1, as a [[match]]'s result), +- or -+ (a forfeit won by "
                  "white or by black)")


def board_result(text: str) -> str | None:
    """A results line's RESULT as a key of RESULTS: its own forms, and every form a [[match]]'s result
    takes (1:0, 0.5-0.5, …), so that a line reads as add-match --result reads it; None if neither."""
    if text in RESULTS:
        return text
    score = parse_result(text)
    return None if score is None else RESULT_TEXT[score]


def known_tournament(club: Ledger, tid: str) -> None:
    if tid not in club.journal.tournaments:
        raise ActionRefused(_("unknown tournament '{tournament}'{hint}; the tournaments are listed by "
                              "`nardrating tournaments`").format(tournament=tid,
                                                                 hint=did_you_mean(tid, club.journal.tournaments)))


def fide_order(club: Ledger, players: Sequence[str], discipline: str, start: date) -> list[str]:
    """A start list in FIDE's order (C.04.2 B): by rating, highest first, on the first list rating the
    discipline the day before the start; then by name; unrated players after the rated."""
    rating = next((r for r in club.config.ratings.values() if r.rates(discipline)), None)
    known: dict[str, float] = {}
    if rating is not None:
        known = {p: r for p, r in club.ratings_on(rating, discipline, start - timedelta(days=1)).items() if r is not None}
    names = club.journal.player_name
    return sorted(dict.fromkeys(players), key=lambda p: (p not in known, -known.get(p, 0.0), names(p).casefold(), p))


def state(club: Ledger, tid: str, rated: bool = False) -> Tournament:
    """The tournament's state; with `rated`, its entrants' start ratings (a replay: reports only, the
    pairing and the results never need them)."""
    from ...tournaments.fromjournal import tournament_state

    from ...reports.tournaments import start_ratings

    known_tournament(club, tid)
    return tournament_state(club.journal, tid, start_ratings(club, tid) if rated else None)


@datarecord
class Paired:
    """What pair did: the round paired, the tournament's state it was paired from, and what was written."""
    round: Round
    state: Tournament
    written: Written


def pair(ledger: Ledger, tid: str, day: date | None = None, absent: Sequence[str] = (), half_byes: Sequence[str] = (),
         dry_run: bool = False, rematches: bool = False) -> Paired:
    """Pair the next round of `tid` and append it as a [[round]] dated `day` (default today)."""
    from ...tournaments.model import Round
    from ...tournaments.pairing import PairingError, next_round
    from ...tournaments.systems import pairer_for

    made: list[tuple[Round, Tournament]] = []

    def fields(club: Ledger, path: Path) -> Fields:
        now = state(club, tid)
        try:  # a tournament without a pairing system cannot be paired on any date: said first
            pairer = pairer_for(now, club.config.club.pairing_command)
        except PairingError as exc:
            raise ActionRefused(str(exc)) from None
        played = day or date.today()
        t = club.journal.tournaments[tid]
        if not t.start <= played <= t.end:
            if day is None:
                raise _today_outside(played, tid, t.start, t.end)
            raise ActionRefused(_("--date {day}: tournament '{tournament}' runs from {start} to {end}; pair a round "
                                  "within its dates (or correct them)").format(day=played, tournament=tid,
                                                                             start=t.start, end=t.end))
        last = now.rounds[-1] if now.rounds else None
        if last is not None and last.date is not None and played < last.date:
            said = (_("--date {day} is before round {round} of '{tournament}' ({earlier}); give --date {earlier} "
                      "or later") if day is not None else
                    _("today, {day}, is before round {round} of '{tournament}' ({earlier}); give --date {earlier} "
                      "or later"))
            raise ActionRefused(said.format(day=played, round=last.number, tournament=tid, earlier=last.date))
        try:
            paired = next_round(now, pairer, absent, half_byes, rematches)
        except PairingError as exc:
            raise ActionRefused(str(exc)) from None
        paired = Round(paired.number, paired.boards, paired.byes, played)
        made.append((paired, now))
        return {"tournament": tid, "round": paired.number, "date": played,
                "boards": [{"board": b.board, "white": b.white, "black": b.black} for b in paired.boards] or None,
                "byes": [{"player": b.player, "kind": b.kind} for b in paired.byes] or None}

    written = write_entry(ledger, "round", fields, dry_run=dry_run)
    paired, now = made[-1]
    return Paired(paired, now, written)


@datarecord
class ResultLine:
    """One board's result as a results file gives it (WHITE BLACK RESULT), and the line it is on."""
    line: int | None
    white: str
    black: str
    result: str


def parse_results(text: str, label: str) -> list[ResultLine]:
    """`WHITE BLACK RESULT` a line (# starts a comment); a LedgerError naming every line that is not
    (the director fixes the file once, not once per line)."""
    found, wrong = [], []
    text = text.removeprefix("\ufeff")  # the byte order mark a Windows editor writes first
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        result = board_result(parts[2]) if len(parts) == 3 else None
        if result is None:
            wrong.append(Problem(label, number, _("{text!r} is not WHITE BLACK RESULT; the result is one of "
                                                  "{results}").format(text=line[:80], results=_(RESULT_WORDS))))
        else:
            found.append(ResultLine(number, parts[0], parts[1], result))
    if wrong:
        raise LedgerError(wrong)
    if not found:
        raise ActionRefused(_("{file}: no results in it; write one board a line: WHITE BLACK RESULT").format(file=label))
    return found


def enter_results(ledger: Ledger, tid: str, lines: list[ResultLine], label: str, round_no: int | None = None,
                  dry_run: bool = False) -> Written:
    """Append a [[match]] per line for the boards of round `round_no` (default: the last paired), in one write."""
    ids: list[str] = []

    def maker(k: int, entry: ResultLine) -> MakeFields:
        def fields(club: Ledger, path: Path) -> Fields:
            now = state(club, tid)
            if not now.rounds:
                raise ActionRefused(_("tournament '{tournament}' has no round paired yet; pair one first "
                                      "(nardrating pair {tournament})").format(tournament=tid))
            number = round_no if round_no is not None else now.rounds[-1].number
            if not 1 <= number <= len(now.rounds):
                raise ActionRefused(_("--round {round}: tournament '{tournament}' has rounds 1 to {last}").format(
                    round=number, tournament=tid, last=len(now.rounds)))
            played = now.rounds[number - 1]
            where = f"{label}:{entry.line}"
            board = next((b for b in played.boards if {b.white, b.black} == {entry.white, entry.black}), None)
            if board is None:
                raise ActionRefused(_("{where}: {white} v {black} is not a board of round {round}; its boards are "
                                      "{boards}").format(where=where, white=entry.white, black=entry.black, round=number,
                                                         boards=", ".join(f"{b.white}-{b.black}" for b in played.boards)))
            if (board.white, board.black) != (entry.white, entry.black):
                raise ActionRefused(_("{where}: board {board} is {white} (white) v {black} (black); write "
                                      "'{white} {black} RESULT'").format(where=where, board=board.board,
                                                                        white=board.white, black=board.black))
            if board.result is not None:
                raise ActionRefused(_("{where}: board {board} of round {round} has its result already; to correct it, "
                                      "amend or void that match").format(where=where, board=board.board, round=number))
            if not ids:
                first = int(next_match_id(path.read_text(encoding="utf-8", errors="replace")
                                          if path.exists() else "", club.journal)[1:])
                ids.extend(f"m{first + n:04d}" for n in range(len(lines)))
            result, forfeit = RESULTS[entry.result]
            if result == "1/2-1/2" and now.pairing == "knockout":
                raise ActionRefused(knockout_draw(where, board.board, number, board.white, board.black))
            t = club.journal.tournaments[tid]
            why = draw_refused(club, t.discipline) if result == "1/2-1/2" else None
            if why is not None:
                raise ActionRefused(_("{where}: {white} v {black}: {why}; write 1-0 or 0-1 (+- or -+: a forfeit)").format(
                    where=where, white=board.white, black=board.black, why=why))
            return {"id": ids[k], "date": played.date or t.start, "players": [board.white, board.black],
                    "result": result, "length": t.play.length if t.play is not None else None,
                    "discipline": t.discipline, "tournament": tid, "round": number,
                    "forfeit": forfeit or None}
        return fields

    seen: dict[frozenset[str], int | None] = {}
    for entry in lines:
        pair_key = frozenset((entry.white, entry.black))
        if pair_key in seen:
            raise ActionRefused(_("{file}:{line}: {white} v {black} is given twice (first on line {first})").format(
                file=label, line=entry.line, white=entry.white, black=entry.black, first=seen[pair_key]))
        seen[pair_key] = entry.line
    return write_entries(ledger, [("match", maker(k, entry)) for k, entry in enumerate(lines)], dry_run=dry_run)


def change(ledger: Ledger, kind: str, tid: str, player: str, round_no: int | None = None, day: date | None = None,
           reason: str | None = None, dry_run: bool = False) -> Fields:
    """Append a [[join]] (a late entry) or a [[withdraw]] taking effect from `round_no` (default: the
    next round to pair)."""
    def fields(club: Ledger, path: Path) -> Fields:
        now = state(club, tid)
        if player not in club.journal.players:
            raise ActionRefused(_("unknown player '{player}'{hint}; add them first: nardrating add-player {player}")
                                .format(player=player, hint=player_hint(player, club.journal.players)))
        if kind == "join" and now.pairing in ("berger", "double-berger"):  # pair could never pair it again
            raise ActionRefused(_("a round-robin's table is drawn for the whole field: a late entry cannot join "
                                  "'{tournament}'").format(tournament=tid))
        if kind == "join" and now.pairing == "knockout":
            raise ActionRefused(_("a knockout's bracket is drawn for the whole field: a late entry cannot join "
                                  "'{tournament}'").format(tournament=tid))
        from ...tournaments.systems import planned_rounds

        planned = planned_rounds(now)
        if round_no is not None and planned is not None and round_no > planned:
            raise ActionRefused(_("--round {round}: tournament '{tournament}' is planned for rounds 1 to {rounds}").format(
                round=round_no, tournament=tid, rounds=planned))
        when, t = day or date.today(), club.journal.tournaments[tid]
        if not t.start <= when <= t.end:  # said of the option, not of a journal line
            if day is None:
                raise _today_outside(when, tid, t.start, t.end)
            raise ActionRefused(_("--date {day}: tournament '{tournament}' runs from {start} to {end}; give a --date "
                                  "within its dates (or correct them)").format(day=when, tournament=tid,
                                                                              start=t.start, end=t.end))
        return {"tournament": tid, "player": player, "round": round_no or len(now.rounds) + 1,
                "date": when, "reason": reason}

    return write_entry(ledger, kind, fields, dry_run=dry_run).entries[0]


def knockout_draw(where: str, board: int, number: int, white: str, black: str) -> str:
    """The refusal of a drawn result on a knockout's board."""
    return _("{where}: board {board} of round {round} ({white} v {black}) is a knockout's: a draw decides nothing; "
             "enter the result of the game that decided it (1-0 or 0-1; +- or -+ for a forfeit)").format(
        where=where, board=board, round=number, white=white, black=black)


def open_board(club: Ledger, tid: str, a: str, b: str, result: str | None = None) -> tuple[int, str, str] | None:
    """(round, white, black) of the board pairing a and b that has no result yet, for add-match."""
    if tid not in club.journal.tournaments or not any(r.tournament == tid for r in club.journal.rounds):
        return None
    now = state(club, tid)
    for r in reversed(now.rounds):
        for board in r.boards:
            if {board.white, board.black} == {a, b} and board.result is None:
                if now.pairing == "knockout" and result is not None and parse_result(result) == 0.5:
                    raise ActionRefused(knockout_draw(tid, board.board, r.number, board.white, board.black))
                return r.number, board.white, board.black
    raise ActionRefused(_("{a} v {b} is not an open board of tournament '{tournament}' (see nardrating pair / "
                          "crosstable {tournament}); its results follow its pairing").format(a=a, b=b, tournament=tid))


def _today_outside(today: date, tid: str, start: date, end: date) -> ActionRefused:
    """No --date given, and today is not within the tournament's dates: the option is the fix."""
    return ActionRefused(_("today, {day}, is outside tournament '{tournament}', which runs from {start} to {end}; give "
                           "--date YYYY-MM-DD within its dates (or correct them)").format(
        day=today, tournament=tid, start=start, end=end))
