"""PGN game files, read with python-chess (the `pgn` extra): tags only, the moves are skipped.

One game → one match: White against Black, the Result tag, the Date tag (or UTCDate when
Date is missing or has unknown parts, as in lichess exports). Games with an unknown date
or result (`????.??.??`, `*`) are skipped and counted, with the reason. A game with a
real Round tag belongs to its Event, which becomes a tournament; other games (online
games have Round "-") keep their Event and Site in the match's note.
"""
from __future__ import annotations

import bisect
import io
import re
from collections.abc import Mapping

from ...errors import ActionRefused
from ...i18n import _
from .records import DATE_HELP, Game, Parsed, TournamentInfo, decode_text, other_digits, parse_day, whole_number

MISSING_EXTRA = "PGN import needs the pgn extra: pip install 'nardrating[pgn]'"
RESULTS = ("1-0", "0-1", "1/2-1/2")
_UNKNOWN = ("", "?", "-", "*")
_TEXT = re.compile(r"\S")


def _known(value: str | None) -> str | None:
    return None if value is None or value.strip() in _UNKNOWN else value.strip()


def parse_pgn(raw: bytes, label: str) -> Parsed:
    try:
        import chess.pgn
    except ImportError:
        raise ActionRefused(MISSING_EXTRA) from None
    parsed = Parsed(label, discipline="chess")
    text = decode_text(raw, parsed)
    if text is None:
        return parsed
    newlines = [m.start() for m in re.finditer("\n", text)]
    handle = io.StringIO(text)
    number = 0
    while True:
        offset = handle.tell()
        try:
            headers = chess.pgn.read_headers(handle)
        except (ValueError, UnicodeError) as exc:  # python-chess logs most errors; a few raise
            parsed.problem(bisect.bisect(newlines, offset) + 1, f"unreadable game: {exc}")
            break
        if headers is None:
            break
        first = _TEXT.search(text, offset)
        line = bisect.bisect(newlines, first.start() if first else offset) + 1
        number += 1
        _take(headers, number, line, parsed)
    if number == 0 and not parsed.problems:
        parsed.problem(1, "no games found: a PGN file holds [Tag \"value\"] sections and moves")
    _date_tournaments(parsed)
    return parsed


def _take(headers: Mapping[str, str], number: int, line: int, parsed: Parsed) -> None:
    white, black = _known(headers.get("White")), _known(headers.get("Black"))
    if white is None or black is None:
        parsed.problem(line, f"game {number} names no {'White' if white is None else 'Black'} player "
                             "(a [White \"...\"] and a [Black \"...\"] tag): is the file cut short, or is this text "
                             "not a game?")
        return
    if white == black:
        parsed.problem(line, f"game {number}: {white!r} plays against themself")
        return
    result = (headers.get("Result") or "*").strip()
    if result not in RESULTS:
        parsed.skipped[f"result {result!r} unknown (unfinished game)"] += 1
        return
    day = None
    for tag in ("Date", "UTCDate"):
        value = headers.get(tag)
        if value is None or "?" in value:
            continue
        day = parse_day(value)
        if day is None:
            parsed.problem(line, f"game {number}: [{tag} \"{value}\"] is not a date; {DATE_HELP}")
            return
        break
    if day is None:
        parsed.skipped["date unknown (????.??.??)"] += 1
        return
    event, round_, site = _known(headers.get("Event")), _known(headers.get("Round")), _known(headers.get("Site"))
    ratings = {}
    for side in ("White", "Black"):
        elo = headers.get(f"{side}Elo") or ""
        if other_digits(elo):  # "²", "¹³", "２１００": int() would refuse or misread them
            parsed.problem(line, _("game {number}: [{tag} \"{value}\"] is not a rating; write it in ASCII digits "
                                   "(0-9)").format(number=number, tag=f"{side}Elo", value=elo))
            return
        ratings[side] = whole_number(elo, 5)
    for name, side in ((white, "White"), (black, "Black")):
        parsed.player(name, title=_known(headers.get(f"{side}Title")), rating=ratings[side])
    tournament = event if event and round_ else None
    if tournament and tournament not in parsed.tournaments:
        parsed.tournaments[tournament] = TournamentInfo(tournament, "swiss")
    note = "; ".join(part for part in ([f"round {round_}"] if tournament else [event]) + [site] if part)
    parsed.games.append(Game(line, day, white, black, result, note=note or None, tournament=tournament))


def _date_tournaments(parsed: Parsed) -> None:
    """Each tournament spans its games' dates; two players throughout make it a match."""
    for key, info in parsed.tournaments.items():
        games = [g for g in parsed.games if g.tournament == key]
        if not games:
            continue
        info.start, info.end = min(g.day for g in games), max(g.day for g in games)
        if len({p for g in games for p in (g.a, g.b)}) == 2:
            info.system = "match"
