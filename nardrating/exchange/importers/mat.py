"""Jellyfish .mat match transcripts, as gnubg, eXtreme Gammon and nardy apps export them.

    ; [EventDate "2025.11.08"]
     7 point match
     Game 1
     anna : 0                       boris : 0
      1) 31: 8/5 6/5                 64: 24/18 13/9
      ...
                                      Wins 2 points

Only the match frame is read, never the moves: "N point match", each "Game N" with its
players and starting score, and each "Wins N points" line, which belongs to the player
whose column it is written in. A file may hold several matches (each starts with its own
"N point match" line). The last game may win more points than were needed (a gammon at
7-6 of 7), so the final score may exceed the length: it is written as it is.
"""
from __future__ import annotations

import re
from datetime import date

from ...i18n import _
from .records import DATE_HELP, AlsoAs, Game, Parsed, decode_text, parse_day

_HEADER = re.compile(r'^;\s*\[\s*(\w[\w ]*?)\s+"(.*)"\s*\]\s*$')
# Numbers are ASCII digits (\d would take "٣" and "²"-like digits of other scripts), a few of them.
_LENGTH = re.compile(r"^\s*([0-9]{1,9})\s+point\s+match\s*$", re.IGNORECASE)
_MONEY = re.compile(r"^\s*(unlimited\s+game|money\s+session|money\s+game)", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+([0-9]{1,9})\s*$", re.IGNORECASE)
_SIDES = re.compile(r"^(\s*)(\S.*?)\s*:\s*([0-9]{1,9})(\s+)(\S.*?)\s*:\s*([0-9]{1,9})\s*$")
_WINS = re.compile(r"\bWins\s+([0-9]{1,9})\s+points?", re.IGNORECASE)
_MOVE = re.compile(r"^\s*[0-9]+\)")


class _Match:
    def __init__(self, line: int, length: int):
        self.line, self.length = line, length
        self.players: tuple[str, str] | None = None
        self.split = 0                       # the column where the right player's text starts
        self.games: list[tuple[int, int, list[int], int | None, int]] = []  # (line, no, start score, winner side, points)


def parse_mat(raw: bytes, label: str, day: date | None = None, per_game: bool = False,
              file_day: date | None = None) -> Parsed:
    parsed = Parsed(label)
    text = decode_text(raw, parsed)
    if text is None:
        return parsed
    headers: dict[str, str] = {}
    matches: list[_Match] = []
    current: _Match | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            m = _HEADER.match(line.strip())
            if m:
                headers.setdefault(m[1].lower(), m[2])
            continue
        m = _LENGTH.match(line)
        if m:
            if int(m[1]) == 0:
                parsed.problem(number, _("a 0-point match is an unlimited (money) session, not a match; "
                                         "money play is not rated: leave it out or enter its result by hand"))
                current = None
                continue
            current = _Match(number, int(m[1]))
            matches.append(current)
            continue
        if _MONEY.match(line):
            parsed.problem(number, _("an unlimited (money) session is not a match and is not rated; "
                                     "leave it out or enter its result by hand"))
            current = None
            continue
        m = _GAME.match(line)
        if m:
            if current is None:
                if not parsed.problems:
                    parsed.problem(number, _("a game before any 'N point match' line; is this a .mat file?"))
                continue
            current.games.append((number, int(m[1]), [], None, 0))
            continue
        if current is None or not current.games:
            if current is None and not matches and not parsed.problems:
                parsed.problem(number, _("unexpected text {text!r}; a .mat file starts with "
                                         "'; [Header \"value\"]' lines and 'N point match'").format(text=line.strip()[:40]))
            elif current is not None:
                parsed.problem(number, _("unexpected text {text!r} before 'Game 1'").format(text=line.strip()[:40]))
            continue
        game_line, no, start, winner, points = current.games[-1]
        if not start:
            sides = _SIDES.match(line)
            if not sides:
                parsed.problem(number, _("expected the players and their scores after 'Game {game}', "
                                         "like 'anna : 0     boris : 0'").format(game=no))
                current.games[-1] = (game_line, no, [0, 0], winner, points)
                continue
            names = (sides[2], sides[5])
            if current.players is None:
                current.players = names
                current.split = sides.start(5)
            elif names != current.players:
                parsed.problem(number, _("game {game} is between {a!r} and {b!r}, not {first!r} and {second!r} "
                                         "as before").format(game=no, a=names[0], b=names[1],
                                                             first=current.players[0], second=current.players[1]))
            current.games[-1] = (game_line, no, [int(sides[3]), int(sides[6])], winner, points)
            continue
        wins = _WINS.search(line)
        if wins:
            side = 0 if wins.start() < current.split - 2 else 1
            if winner is not None:
                parsed.problem(number, _("game {game} has a second 'Wins' line").format(game=no))
            current.games[-1] = (game_line, no, start, side, int(wins[1]))
        elif not _MOVE.match(line):
            parsed.problem(number, _("unexpected text {text!r} in game {game}").format(text=line.strip()[:40], game=no))
    if not matches and not parsed.problems:
        parsed.problem(1, _("no 'N point match' line: not a .mat match transcript"))
    when = _match_day(headers, day, file_day, parsed)
    for match in matches:
        _add_match(match, when, per_game, parsed)
    return parsed


def _match_day(headers: dict[str, str], day: date | None, file_day: date | None, parsed: Parsed) -> date | None:
    for key in ("eventdate", "date"):
        if key in headers:
            found = parse_day(headers[key])
            if found is None:
                parsed.problem(1, _("[{key}] {value!r} is not a date; {how}, or give --date").format(
                    key=key, value=headers[key], how=_(DATE_HELP)))
            return found
    return day or file_day


def _add_match(match: _Match, when: date | None, per_game: bool, parsed: Parsed) -> None:
    if not match.games:
        parsed.problem(match.line, _("the {length}-point match has no games").format(length=match.length))
        return
    if match.players is None or when is None:
        if when is None and match.players is not None:
            parsed.problem(match.line, _("the file gives no date; give one with --date YYYY-MM-DD"))
        return
    running = [0, 0]
    for game_line, no, start, winner, points in match.games:
        if winner is None:
            parsed.problem(game_line, _("game {game} has no result (no 'Wins N points' line): is the file cut "
                                        "short?").format(game=no))
            return
        if start and start != running:
            parsed.problem(game_line, _("game {game} starts at {start}, but the games before it add up to "
                                        "{total}").format(game=no, start=f"{start[0]}-{start[1]}",
                                                          total=f"{running[0]}-{running[1]}"))
            return
        running[winner] += points
    if max(running) < match.length:
        parsed.problem(match.games[-1][0], _("the match is unfinished: {score} in a {length}-point match; "
                                             "import finished matches only").format(
                                                 score=f"{running[0]}-{running[1]}", length=match.length))
        return
    a, b = (parsed.player(name) for name in match.players)
    whole = "1-0" if running[0] > running[1] else "0-1"
    games = tuple(("1-0" if winner == 0 else "0-1", 1) for _line, _no, _start, winner, _points in match.games)
    if per_game:
        for game_line, no, _start, winner, points in match.games:
            parsed.games.append(Game(game_line, when, a, b, "1-0" if winner == 0 else "0-1",
                                     score=[points, 0] if winner == 0 else [0, points],
                                     note=f"game {no} of a {match.length}-point match",
                                     also_as=AlsoAs(match.line, ((whole, match.length),))))
    else:
        parsed.games.append(Game(match.line, when, a, b, whole, length=match.length, score=list(running),
                                 also_as=AlsoAs(match.line, games)))
