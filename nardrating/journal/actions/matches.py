"""add-match and add-tournament: what was played, and the checks the command line makes of it."""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ...datarecords import datarecord
from ...errors import ActionRefused, did_you_mean, player_hint
from ...i18n import _
from ..limits import RULES, parse_result
from ..lint import score_contradicts, score_message
from ..plainmatch import is_match
from ..tomlsource import shown
from ..writer import next_match_id
from .draws import draw_refused
from .write import AnyEntry, Change, Check, Fields, Written, refuse, write_entry

if TYPE_CHECKING:
    from ...replay.ledger import Ledger
    from ..model import Tournament


def parse_score(text: str | None) -> list[int] | None:
    """--score "7-4" (or "7:4") as [7, 4]; None when not given."""
    if text is None:
        return None
    parts = [part.strip() for part in text.replace(":", "-").split("-")]
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):
        raise ActionRefused(_("--score {score} must be two whole numbers like 7-4").format(score=shown(text)))
    if max(map(len, parts)) > 9:  # no score; and int() refuses thousands of digits
        raise ActionRefused(_("--score: {value} is not {rule}").format(value=shown(text), rule=_(RULES["score"])))
    return [int(parts[0]), int(parts[1])]


@datarecord
class MatchArgs:
    """add-match's options; for amend, None means "as in the original match"."""
    a: str | None = None
    b: str | None = None
    winner: str | None = None
    result: str | None = None
    day: date | None = None
    length: int | None = None
    score: str | None = None
    discipline: str | None = None
    tournament: str | None = None
    rated: bool | None = None
    forfeit: bool | None = None
    note: str | None = None
    chips: float | None = None
    new_discipline: bool = False


def check_outcome(ledger: Ledger, winner: str | None, result: str | None) -> None:
    if winner is not None and result is not None:
        refuse(ledger, _("give --winner PLAYER or --result 1-0 / 0-1 / 1/2-1/2, not both"))
    if result is not None and parse_result(result) is None:
        from ..entries import RESULT_HELP   # (the model's words for a result)

        refuse(ledger, _("--result {result} is not a result; write {results}").format(
            result=shown(result), results=_(RESULT_HELP)))


def rated_disciplines(club: Ledger) -> list[str]:
    """Disciplines a list rates that the club knows: named by a list, the default, or in the journal."""
    from ...reports import known_disciplines

    return [d for d in known_disciplines(club) if any(r.rates(d) for r in club.config.ratings.values())]


def check_discipline(club: Ledger, discipline: str, new_discipline: bool) -> None:
    """Refuse a discipline no list rates, or one the club has never seen, unless --new-discipline:
    the usual way a typo ("long-nardi", "shess") starts a rating of its own."""
    if new_discipline:
        return
    rated = rated_disciplines(club)
    if discipline in rated:
        return
    every = _("any")  # (a list's disciplines: any)
    lists = ", ".join(f"{r.name} ({', '.join(r.disciplines or [every])})" for r in club.config.ratings.values())
    why = (_("no rating list rates it") if not any(r.rates(discipline) for r in club.config.ratings.values())
           else _("the club has no game of it yet"))
    refuse(club, _("--discipline {discipline!r}: {why}{hint}; rating lists: {lists}; to start a new discipline on "
                   "purpose, add --new-discipline").format(discipline=discipline, why=why,
                                                           hint=did_you_mean(discipline, rated), lists=lists))


def match_check(new_discipline: bool) -> Check:
    """The checks of a new [[match]]: known players, a winner who played, a discipline a list rates."""
    def check(club: Ledger, entry: AnyEntry) -> None:
        if not is_match(entry):
            return
        for player in entry.players:
            if player not in club.journal.players:
                hint = player_hint(player, club.journal.players)
                refuse(club, (_("unknown player {player!r}{hint}; if it is a new player, add them first: nardrating "
                                "add-player {player}") if hint else
                              _("unknown player {player!r}; add them first: nardrating add-player {player}")).format(
                    player=player, hint=hint))
        if entry.winner is not None and entry.winner not in entry.players:
            refuse(club, _("--winner {winner!r} is neither {a!r} nor {b!r}").format(
                winner=entry.winner, a=entry.players[0], b=entry.players[1]))
        score_a = entry.score_a()
        if entry.score is not None and score_a is not None and score_contradicts(entry.score, score_a):
            refuse(club, score_message(entry.score, score_a))  # check would warn of it ever after
        if entry.discipline is not None:
            check_discipline(club, entry.discipline, new_discipline)
            why = draw_refused(club, entry.discipline) if entry.score_a() == 0.5 else None
            if why is not None:   # (the journal's check would refuse it too, with a reader's advice)
                refuse(club, _("{why}; say who won: --winner PLAYER or --result 1-0 / 0-1").format(why=why))
    return check


def match_changes(club: Ledger, entry: AnyEntry) -> list[Change]:
    """Each player's change in every list that rates the new match (as the journal now is)."""
    if not is_match(entry) or entry.discipline is None:
        return []
    from ...engines.registry import engine_class
    from ...replay.cachestandings import after_appended_match
    from ...replay.ledger import through_cache

    found = []
    for rating in club.config.ratings.values():
        if not rating.rates(entry.discipline):
            continue
        # A list the cache cannot keep (mfsnb, fide): its standings as of the leaderboard's day are
        # worked out from those kept before the match where the engine can tell (a match after every
        # entry: cachestandings.after_appended_match), else replayed; the write keeps them for the
        # next leaderboard (write._kept_standings). A list whose match lines wait for their list
        # (mfsnb) shows the new match's line as of that day, the same line; any other is replayed in full.
        engine = engine_class(rating.engine)
        kept_as_standings = not engine.can_cache(rating.params)
        day = _board_day(club, entry.date) if kept_as_standings else None
        worked_out = through_cache(after_appended_match, club, engine, rating, entry.discipline, day) if day else None
        if worked_out is not None:
            club.appended_runs[(rating.name, entry.discipline, day)] = worked_out
        # A list whose lines wait for their list (fide) may tell the new match's lines on it too
        # (Engine.preview_lines); else they are read from a replay through it.
        shown = engine().preview_lines(worked_out) if worked_out is not None and not engine.match_line_waits else None
        if shown is None:
            run = worked_out if engine.match_line_waits and worked_out is not None else \
                club.run(rating, entry.discipline, day if engine.match_line_waits else None)
            shown = {player: run.event_of(player, entry.id) for player in entry.players} if entry.id is not None else {}
        for player in entry.players:
            event = shown.get(player)
            if event is not None:
                found.append(Change(rating.name, entry.discipline, player, event.before, event.change,
                                    event.after, event.rated, event.reason))
    return found


def _board_day(club: Ledger, played: date) -> date | None:
    """The day the leaderboard reads the journal with the new match by default, if the match is
    in it (not a match dated after today's leaderboard: club.as_of = "today")."""
    from ...reports.asof import as_of

    day = as_of(club, None).day
    return day if day >= played else None


def board_length(tournament: Tournament | None) -> int:
    """The match length of a tournament's boards (its `length`), else 1."""
    play = tournament.play if tournament is not None else None
    return play.length if play is not None and play.length is not None else 1


def new_match_id(club: Ledger, path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    return next_match_id(text, club.journal)


def _back_dated(club: Ledger, day: date) -> bool:
    return club.journal.max_date > 0 and day.toordinal() < club.journal.max_date


def add_match(ledger: Ledger, a: str, b: str, *, winner: str | None = None, result: str | None = None,
              day: date | None = None, length: int | None = None, score: str | None = None,
              discipline: str | None = None, tournament: str | None = None, rated: bool = True,
              forfeit: bool = False, note: str | None = None, chips: float | None = None,
              new_discipline: bool = False, dry_run: bool = False) -> Written:
    """Append a [[match]]: the entry, each player's change in every list that rates it (computed
    from the journal as written), and for a back-dated match every rating of the current lists
    that changes (else None)."""
    if winner is None and result is None:
        refuse(ledger, _("say who won: --winner PLAYER or --result 1-0 / 0-1 / 1/2-1/2"))
    check_outcome(ledger, winner, result)
    points = parse_score(score)
    played = day or date.today()

    def fields(club: Ledger, path: Path) -> Fields:
        known = club.journal.tournaments.get(tournament) if tournament is not None else None
        players, outcome, score_given, number = [a, b], result, points, None
        if tournament is not None:  # a tournament run here: the board of the pairing, its colours
            from .tournaments import open_board

            board = open_board(club, tournament, a, b, result)
            if board is not None:
                number, white, black = board
                if [white, black] != players:
                    players, score_given = [white, black], points[::-1] if points else points
                    score_a = parse_result(result) if result is not None else None
                    outcome = {1.0: "0-1", 0.0: "1-0"}.get(score_a, result) if score_a is not None else result
        return {"id": new_match_id(club, path), "date": played, "players": players, "result": outcome,
                "winner": winner, "length": board_length(known) if length is None else length,
                "score": score_given, "chips": chips,
                "discipline": discipline or (known.discipline if known else club.config.club.default_discipline),
                "tournament": tournament, "round": number, "rated": rated, "forfeit": forfeit, "note": note}

    return write_entry(ledger, "match", fields, check=match_check(new_discipline), preview=match_changes,
                       dry_run=dry_run, compare=lambda club: _back_dated(club, played))


def add_tournament(ledger: Ledger, tournament_id: str, *, name: str, system: str, start: date, end: date,
                   discipline: str | None = None, official: bool = False, dry_run: bool = False,
                   play: Fields | None = None) -> Fields:
    """Append a [[tournament]]; the entry as written. `play`: the fields of a tournament run here
    (pairing, rounds, players, …); its players are put in FIDE's start-list order."""
    def fields(club: Ledger, path: Path) -> Fields:
        held = discipline or club.config.club.default_discipline
        extra = dict(play or {})
        if extra.get("pairing") is not None and len(set(extra.get("players") or ())) < 2:
            # pair and join need a start list, and the append-only journal could never be given one
            refuse(club, _("--pairing {pairing}: a tournament run here needs its start list, at least two players: "
                           "--players ID,ID,… (late entries join it later: nardrating join)").format(
                pairing=extra["pairing"]), tournament_id)
        pairing, rounds = extra.get("pairing"), extra.get("rounds")
        # (the entry's own rules, in the command line's words: the model speaks of the journal's keys)
        if pairing == "dutch" and rounds is None:
            refuse(club, _("--pairing dutch needs --rounds, the number of rounds the Swiss will have (its last round "
                           "is paired by other rules; e.g. --rounds 5)"), tournament_id)
        if pairing == "losses" and extra.get("max_losses") is None:
            refuse(club, _("--pairing losses needs --max-losses, the losses that end a player's event (e.g. "
                           "--max-losses 3)"), tournament_id)
        if pairing != "losses" and extra.get("max_losses") is not None:
            refuse(club, _("--max-losses is for --pairing losses; leave it out or give that pairing"), tournament_id)
        if pairing is None and extra.get("length") is not None:
            refuse(club, _("--length is for a tournament run here (--pairing): the matches of a recorded tournament "
                           "give their own (add-match --length)"), tournament_id)
        if rounds is not None and pairing in ("berger", "double-berger", "knockout"):
            from ...tournaments.berger import rounds_of
            from ...tournaments.knockout import rounds_needed

            field = len(set(extra["players"]))
            most = rounds_needed(field) if pairing == "knockout" else rounds_of(field, pairing == "double-berger")
            if rounds > most:
                refuse(club, _("--rounds {rounds}: a {pairing} event of {players} players has {most} rounds; give "
                               "at most that, or leave --rounds out").format(
                    rounds=rounds, pairing=pairing, players=field, most=most), tournament_id)
        if extra.get("players"):
            from .tournaments import fide_order

            extra["players"] = fide_order(club, extra["players"], held, start)
        return {"id": tournament_id, "name": name, "system": system, "start": start, "end": end,
                "discipline": held, "official": official, **extra}

    return write_entry(ledger, "tournament", fields, dry_run=dry_run).entries[0]
