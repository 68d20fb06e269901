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
from collections import Counter
from collections.abc import Mapping

from ...errors import ActionRefused
from ...i18n import N_, _
from ...digits import other_digits, whole_number
from .records import DATE_HELP, Game, Parsed, TournamentInfo, decode_text, parse_day

MISSING_EXTRA = N_("PGN import needs the pgn extra: pip install 'nardrating[pgn]'")   # shown as _(MISSING_EXTRA)
RESULTS = ("1-0", "0-1", "1/2-1/2")
_UNKNOWN = ("", "?", "-", "*")
_TEXT = re.compile(r"\S")


def _known(value: str | None) -> str | None:
    return None if value is None or value.strip() in _UNKNOWN else value.strip()


def parse_pgn(raw: bytes, label: str, partial: bool = False) -> Parsed:
    """The games of a PGN file. One that ends inside a game (cut short: no result at the end of the
    last game's moves, an unclosed comment) is refused at that game's line, unless `partial`: then
    the complete games before it are taken and the cut one is counted as left out."""
    try:
        import chess.pgn
    except ImportError:
        raise ActionRefused(_(MISSING_EXTRA)) from None
    parsed = Parsed(label, discipline="chess")
    text = decode_text(raw, parsed)
    if text is None:
        return parsed
    newlines = [m.start() for m in re.finditer("\n", text)]
    handle = io.StringIO(text)
    number = 0
    skip = (_("result {result!r} unknown (unfinished game)"), _("date unknown (????.??.??)"))  # once, not per game
    last: tuple[int, int, _Marks] | None = None  # the last game: its start, its line, what came before it
    while True:
        offset = handle.tell()
        try:
            headers = chess.pgn.read_headers(handle)
        except (ValueError, UnicodeError) as exc:  # python-chess logs most errors; a few raise
            parsed.problem(bisect.bisect(newlines, offset) + 1, _("unreadable game: {error}").format(error=exc))
            break
        if headers is None:
            break
        first = _TEXT.search(text, offset)
        line = bisect.bisect(newlines, first.start() if first else offset) + 1
        number += 1
        last = (offset, line, _marks(parsed))
        _take(headers, number, line, parsed, skip)
    why = _cut_short(text[last[0]:]) if last is not None else None
    if last is not None and why is not None:
        if partial:
            _restore(parsed, last[2])
            parsed.skipped[_("the last game, cut short at the end of the file (--partial)")] += 1
        else:
            parsed.problem(last[1], _("the file ends inside game {number} ({why}), so nothing was imported: is it cut "
                                      "short? To import the complete games before it, add --partial").format(
                number=number, why=_(why)))
    if number == 0 and not parsed.problems:
        parsed.problem(1, _("no games found: a PGN file holds [Tag \"value\"] sections and moves"))
    _date_tournaments(parsed)
    return parsed


def _take(headers: Mapping[str, str], number: int, line: int, parsed: Parsed, skip: tuple[str, str]) -> None:
    """One game's tags; `skip`: the words of a game left out (its result unknown, its date), translated once."""
    white, black = _known(headers.get("White")), _known(headers.get("Black"))
    if white is None or black is None:
        parsed.problem(line, _("game {number} names no {side} player (a [White \"...\"] and a [Black \"...\"] tag): "
                               "is the file cut short, or is this text not a game?").format(
                                   number=number, side="White" if white is None else "Black"))
        return
    if white == black:
        parsed.problem(line, _("game {number}: {player!r} plays against themself").format(number=number, player=white))
        return
    result = (headers.get("Result") or "*").strip()
    if result not in RESULTS:
        parsed.skipped[skip[0].format(result=result)] += 1
        return
    day = None
    for tag in ("Date", "UTCDate"):
        value = headers.get(tag)
        if value is None or "?" in value:
            continue
        day = parse_day(value)
        if day is None:
            parsed.problem(line, _("game {number}: [{tag} \"{value}\"] is not a date; {how}").format(
                number=number, tag=tag, value=value, how=_(DATE_HELP)))
            return
        break
    if day is None:
        parsed.skipped[skip[1]] += 1
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


_Marks = tuple[int, int, set[str], set[str], "Counter[str]"]


def _marks(parsed: Parsed) -> _Marks:
    """What a game's reading may add to: to take it back again."""
    return (len(parsed.games), len(parsed.problems), set(parsed.players), set(parsed.tournaments),
            Counter(parsed.skipped))


def _restore(parsed: Parsed, marks: _Marks) -> None:
    games, problems, players, tournaments, skipped = marks
    del parsed.games[games:], parsed.problems[problems:]
    for name in set(parsed.players) - players:
        del parsed.players[name]
    for key in set(parsed.tournaments) - tournaments:
        del parsed.tournaments[key]
    parsed.skipped = skipped


# A game's text in pieces: a comment (maybe unclosed), a rest-of-line comment, a tag pair (its value
# quoted, with escapes), a variation's parenthesis, or a token of the moves.
_PIECE = re.compile(r'\{[^}]*\}?|;[^\n]*|\[(?:[^\]"\n]|"(?:[^"\\\n]|\\.)*"?)*\]?|[()]|[^\s{};\[\]()]+')
TERMINATIONS = ("1-0", "0-1", "1/2-1/2", "*")


def _cut_short(game: str) -> str | None:
    """Why the text of a game (tags and moves, to the end of the file) is not a whole game, or None."""
    text = "\n".join(line for line in game.split("\n") if not line.startswith("%"))  # escaped lines
    depth, last = 0, None
    for m in _PIECE.finditer(text):
        piece = m[0]
        if piece[0] == "{":
            if not piece.endswith("}"):
                return N_("an unclosed comment")
        elif piece[0] == "[":
            if not piece.endswith("]"):
                return N_("an unclosed tag")
        elif piece == "(":
            depth += 1
        elif piece == ")":
            depth -= 1
        elif piece[0] != ";" and depth == 0:
            last = piece
    if depth > 0:
        return N_("an unclosed variation")
    if last not in TERMINATIONS:
        return N_("no result, 1-0, 0-1, 1/2-1/2 or *, at the end of its moves")
    return None


def _date_tournaments(parsed: Parsed) -> None:
    """Each tournament spans its games' dates; two players throughout make it a match."""
    for key, info in parsed.tournaments.items():
        games = [g for g in parsed.games if g.tournament == key]
        if not games:
            continue
        info.start, info.end = min(g.day for g in games), max(g.day for g in games)
        if len({p for g in games for p in (g.a, g.b)}) == 2:
            info.system = "match"
