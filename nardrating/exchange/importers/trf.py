"""FIDE Tournament Report Files (TRF16, and TRF-2025/TRF26, which keep the 001 player lines).

Fixed columns (1-based, as FIDE's description numbers them): 012 tournament name,
042/052 start and end dates, 132 the rounds' dates (8 characters per round from
column 92, YY/MM/DD), and one 001 line per player: start rank 5-8, title 11-13,
name 15-47, rating 49-52, federation 54-56, FIDE id 58-68, points 81-84, then a
10-column cell per round from column 92: opponent 92-95, colour 97, result 99.

What becomes what (the engines' expectations, seed 003): 1 = 0 → a rated game;
W D L (played, not rated) → an unrated match; + - against an opponent → a forfeit
match (kept in the record, rated by no list); byes (H, F, U, Z, + or - without an
opponent, "spielfrei" dummies) → nothing, as a journal match needs two players:
they are counted in the preview. A pair of cells with opponents and colours but no result, in the
file's last round, is a board paired and not yet played: the round's board, no match. The 092 line
gives the system (Round-Robin, Knockout, else a Swiss). Other header records (XXR, XXC, 013 teams,
…) are read past; a line that is no record at all is an error.

Where TRF-2025 differs it is read too: `###` comment lines, titles written out (GM,
WFM), letter codes in either case, National Rating Support lines (a federation code
instead of 001, read past).
"""
from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

from ...i18n import N_, _
from ...digits import other_digits, whole_number
from .records import DATE_HELP, Game, Parsed, TournamentInfo, decode_text, parse_day
from .trfrounds import trf_run

_RECORD = re.compile(r"^(\d{3}|[A-Z]{3})(\s|$)")
_PLAYED = {"1": "1-0", "0": "0-1", "=": "1/2-1/2", "W": "1-0", "L": "0-1", "D": "1/2-1/2"}
_PARTNER = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}
_BYES = {"H": "half-point bye", "F": "full-point bye", "U": "pairing-allocated bye", "+": "full-point bye",
         "Z": "zero-point bye or absence", "-": "zero-point bye or absence", "0": "zero-point bye or absence"}


class RoundCell(NamedTuple):
    """One round of a player's 001 line: the opponent's start rank (0: none), w/b/-, the result code."""
    opponent: int
    colour: str
    result: str


class TrfPlayer(NamedTuple):
    line: int                 # of the 001 line
    name: str
    cells: list[RoundCell]


TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}


def parse_trf(raw: bytes, label: str) -> Parsed:
    parsed = Parsed(label, discipline="chess")
    text = decode_text(raw, parsed)
    if text is None:
        return parsed
    head: dict[str, tuple[int, str]] = {}
    players: dict[int, TrfPlayer] = {}  # start rank → the player
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.startswith("###"):
            continue
        m = _RECORD.match(line)
        if not m:
            parsed.problem(number, _("not a TRF record: {text!r}; each line starts with a three-character code "
                                     "(012 name, 001 player, …)").format(text=line.strip()[:40]))
            continue
        code = m[1]
        if code == "001":
            _player(line, number, players, parsed)
        elif code not in head:
            head[code] = (number, line[4:].rstrip())
    name = head.get("012", (1, ""))[1].strip()
    if not name:
        parsed.problem(1, _("no tournament name (the 012 line)"))
    start = _date(head, "042", parsed)
    end = _date(head, "052", parsed) or start
    if not players and not parsed.problems:
        parsed.problem(1, _("no player lines (001): not a tournament report file"))
    if parsed.problems or start is None:
        if start is None and not parsed.problems:
            parsed.problem(head.get("042", (1,))[0], _("no start date (the 042 line); {how}").format(how=_(DATE_HELP)))
        return parsed
    rounds = max((len(cells) for _, _, cells in players.values()), default=0)
    round_days = _round_days(head.get("132"), rounds, start, parsed)
    undated = [str(r + 1) for r, day in enumerate(round_days) if day is None]
    if len(undated) == rounds and rounds:
        parsed.notes.append(_("no round dates (the 132 line): every game is dated the start, {start}").format(start=start))
    elif undated:
        parsed.notes.append(_("no date for round {rounds} on the 132 line: dated the start, {start}").format(
            rounds=", ".join(undated), start=start))
    key = name
    parsed.tournaments[key] = TournamentInfo(name, _system(head.get("092", (0, ""))[1]), start, end)
    double_forfeit = _("double forfeit (both absent): no winner, not a match")   # once, not per cell
    boards: dict[int, list[tuple[str, str]]] = {}   # round → (white, black) by name, games and boards to play
    for r in range(rounds):
        for rank, (player_line, pname, cells) in sorted(players.items()):
            if r >= len(cells):
                continue
            opponent, colour, result = cells[r]
            if opponent == 0:
                continue  # a bye or an absence: in the round's entry (trfrounds)
            if opponent not in players:
                parsed.problem(player_line, _("round {round}: opponent {opponent} has no 001 line").format(
                    round=r + 1, opponent=opponent))
                continue
            if opponent < rank:
                continue  # the pair was taken from the other player's line
            other_line, other_name, other_cells = players[opponent]
            back = other_cells[r] if r < len(other_cells) else RoundCell(0, " ", " ")
            if back[0] == rank and result == back[2] == "-":
                parsed.skipped[double_forfeit] += 1
                continue  # (the round records both as absent)
            if back[0] == rank and " " in (result, back[2]):
                _unplayed(r, rounds, (rank, colour, result, pname, player_line),
                          (opponent, back, other_name, other_line), boards, parsed)
                continue
            if back[0] != rank or _PARTNER.get(result) != back[2]:
                parsed.problem(other_line, _("round {round}: player {player} should have {rank} {code} (the other "
                                             "side of {rank}'s '{cell}'), not '{found}'").format(
                    round=r + 1, player=opponent, rank=rank, code=_PARTNER.get(result, "?"),
                    cell=f"{opponent} {colour} {result}", found=f"{back[0] or ''} {back[1]} {back[2]}"))
                continue
            if result not in _PLAYED and result not in "+-":
                parsed.problem(player_line, _("round {round}: result {result!r} is not a TRF result code "
                                              "(1 = 0, W D L, + -, H F U Z)").format(round=r + 1, result=result))
                continue
            white_first = colour != "b"
            a, b = (pname, other_name) if white_first else (other_name, pname)
            mine = {"+": "1", "-": "0"}.get(result, result)
            outcome = _PLAYED[mine] if white_first else _PLAYED[_PARTNER[mine]]
            parsed.games.append(Game(player_line, round_days[r] or start, a, b, outcome,
                                     forfeit=result in "+-", rated=result in "10=", note=f"round {r + 1}",
                                     tournament=key, round=r + 1, length_stated=False))
            boards.setdefault(r + 1, []).append((a, b))
    planned = head.get("XXR", (0, ""))[1].strip()
    run = parsed.runs[key] = trf_run(players, boards, [day or start for day in round_days],
                                     int(planned) if planned.isdigit() and int(planned) > 0 else None)
    run.waiting = len(boards.get(rounds, [])) - sum(1 for g in parsed.games if g.round == rounds)
    used = {p for g in parsed.games for p in (g.a, g.b)} | set(run.start_list)   # an entrant awaiting a game too
    absent = sum(1 for _, pname, _ in players.values() if pname not in used)
    if absent:
        parsed.skipped[_("players without a game (byes, withdrawals, 'spielfrei')")] += absent
    return parsed


def _unplayed(r: int, rounds: int, mine: tuple[int, str, str, str, int], theirs: tuple[int, RoundCell, str, int],
              boards: dict[int, list[tuple[str, str]]], parsed: Parsed) -> None:
    """A pair of cells of which one or both have no result: both blank, in the file's last round and
    with opposite colours, is a board paired and not yet played (a pairing program's file, or
    `export trf` of a round waiting for its results): a board of the round, no match; else a problem."""
    rank, colour, result, name, line = mine
    opponent, back, other_name, other_line = theirs
    cell, found = f"{opponent} {colour} {result}".rstrip(), f"{rank} {back.colour} {back.result}".rstrip()
    if result != back.result:
        blank, other, text, at = ((rank, opponent, found, line) if result == " "
                                  else (opponent, rank, f"{opponent} {colour} {result}", other_line))
        parsed.problem(at, _("round {round}: player {player} has no result against {other}, but player {other} "
                               "has '{cell}'; is the line cut short? (a game not yet played has no result on "
                               "either line)").format(round=r + 1, player=blank, other=other, cell=text))
    elif r != rounds - 1:
        parsed.problem(line, _("round {round}: players {player} and {other} have no result ('{cell}', '{found}'), "
                               "but the file has later rounds; only the last round can be paired and not yet "
                               "played").format(round=r + 1, player=rank, other=opponent, cell=cell, found=found))
    elif sorted((colour, back.colour)) != ["b", "w"]:
        parsed.problem(line, _("round {round}: players {player} and {other} are paired without a result ('{cell}', "
                               "'{found}'): a game not yet played needs its colours, w on one line and b on the "
                               "other").format(round=r + 1, player=rank, other=opponent, cell=cell, found=found))
    else:
        boards.setdefault(r + 1, []).append((name, other_name) if colour == "w" else (other_name, name))


def _player(line: str, number: int, players: dict[int, TrfPlayer], parsed: Parsed) -> None:
    rank = whole_number(line[4:8])  # ASCII digits: "¹³" passes str.isdigit() but is no number
    if rank is None:
        parsed.problem(number, _("001 line: the start rank (columns 5-8) is {text!r}, not a number").format(
            text=line[4:8]))
        return
    if rank in players:
        parsed.problem(number, _("start rank {rank} is used twice (first on line {line})").format(
            rank=rank, line=players[rank][0]))
        return
    name = line[14:47].strip()
    if not name:
        parsed.problem(number, _("player {rank} has no name (columns 15-47)").format(rank=rank))
        return
    cells: list[RoundCell] = []
    body = line.rstrip()
    for r, start in enumerate(range(91, len(body), 10)):
        cell = body[start:start + 8].ljust(8)
        opponent, colour, result = cell[:4].strip(), cell[5].lower(), cell[7].upper()
        if (opponent and whole_number(opponent) is None) or colour not in "wb- " or (
                result == " " and opponent.strip("0") and colour not in "wb"):  # "  12 w  ": paired, not yet played
            parsed.problem(number, _("player {rank}, round {round}: {cell!r} is not a round cell "
                                     "('OPPONENT COLOUR RESULT', e.g. '  12 w 1'); is the line cut short?").format(
                                         rank=rank, round=r + 1, cell=cell.strip()))
            return
        cells.append(RoundCell(int(opponent or 0), colour, result))
    title = line[10:13].strip().lower()
    rating = line[48:52].strip()
    fide_id = line[57:68].strip()
    for what, columns, text in ((N_("rating"), "49-52", rating), (N_("FIDE id"), "58-68", fide_id)):
        if other_digits(text):
            parsed.problem(number, _("player {rank}: the {what} (columns {columns}) is {text!r}; write it in ASCII "
                                     "digits (0-9)").format(rank=rank, what=_(what), columns=columns, text=text))
            return
    parsed.player(name, title=TITLES.get(title, title.upper() or None), rating=whole_number(rating, 4),
                  federation=line[53:56].strip() or None, fide_id=fide_id if whole_number(fide_id, 11) is not None else None,
                  cut=len(line[14:47].strip()) == 33)  # a longer name is cut at column 47 (export trf does so)
    players[rank] = TrfPlayer(number, name, cells)


def _system(kind: str) -> str:
    """The journal's system of a 092 line ("Individual: Round-Robin", as export trf writes it; free
    text in TRF16): a round-robin or a knockout by name, else a Swiss."""
    words = re.sub(r"[^a-z]", "", kind.lower())
    return "round-robin" if "roundrobin" in words else "knockout" if "knockout" in words else "swiss"


def _date(head: dict[str, tuple[int, str]], code: str, parsed: Parsed) -> date | None:
    if code not in head or not head[code][1].strip():
        return None
    line, text = head[code]
    found = parse_day(text)
    if found is None:
        parsed.problem(line, _("{code}: {text!r} is not a date; {how}").format(code=code, text=text.strip(),
                                                                                how=_(DATE_HELP)))
    return found


def _round_days(entry: tuple[int, str] | None, rounds: int, start: date, parsed: Parsed) -> list[date | None]:
    """The 132 line: each round's date from column 92, 10 columns apart; None where blank.

    TRF16 writes them YY/MM/DD: the century is the one that puts the date nearest the start."""
    days: list[date | None] = [None] * rounds
    if entry is None:
        return days
    line, text = entry
    body = ("132 " + text)
    for r in range(rounds):
        cell = body[91 + 10 * r:101 + 10 * r].strip()
        if cell:
            day = parse_day(cell)
            if day is not None and re.fullmatch(r"[0-9]{2}/[0-9]{2}/[0-9]{2}", cell):
                day = min((day.replace(year=start.year // 100 * 100 + c * 100 + day.year % 100)
                           for c in (-1, 0, 1)), key=lambda d: abs((d - start).days))
            days[r] = day
            if day is None:
                parsed.problem(line, _("132: the date of round {round}, {cell!r}, is not a date; write YY/MM/DD").format(
                    round=r + 1, cell=cell))
    return days
