"""A TRF's rounds as a tournament run here: the start list (by start number), each round's boards and
byes, the withdrawals, and XXR's planned rounds (a file with fewer rounds is a tournament in
progress, which `pair` continues).

Byes by their TRF code: U, or a + without an opponent (as files before TRF-16 wrote the pairing's
bye, FIDE's sample among them), a pairing-allocated bye; F a full-point bye; H a half-point bye;
Z, -, 0 or a blank cell an absence. In a finished file the absences after a player's last game or
bye are a withdrawal. A double forfeit (- on both sides) is no match: both players are absent.
Players with neither a game nor a pairing-allocated bye (U, a lone +) in the whole file (a
"spielfrei" dummy) are not entrants.
"""
from __future__ import annotations

from datetime import date
from collections.abc import Mapping, Sequence
from typing import Protocol

from ...datarecords import datarecord, field

PAIRING_ALLOCATED, FULL_POINT, HALF_POINT, ABSENT, WITHDRAWN = (
    "pairing-allocated", "full-point", "half-point", "absent", "withdrawn")
BYE_OF = {"U": PAIRING_ALLOCATED, "+": PAIRING_ALLOCATED, "F": FULL_POINT, "H": HALF_POINT}


class Cell(Protocol):
    @property
    def opponent(self) -> int: ...
    @property
    def result(self) -> str: ...


class Line(Protocol):
    """A 001 line as trf.py reads it (TrfPlayer)."""
    @property
    def line(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def cells(self) -> Sequence[Cell]: ...


@datarecord
class TrfRound:
    """One round of a TRF: its date, the boards and the byes."""
    day: date
    boards: list[tuple[str, str]] = field(default_factory=list)   # (white, black) by name, as the matches
    byes: list[tuple[str, str]] = field(default_factory=list)     # (name, kind)


@datarecord
class TrfRun:
    """A TRF's rounds as a tournament run here: start list, XXR's planned rounds, the rounds, withdrawals."""
    start_list: list[str]              # names, by start number
    planned: int | None                # XXR
    rounds: list[TrfRound]
    withdrawn: dict[str, int]          # name → the first round the player was no longer in
    waiting: int = 0                   # boards of the last round paired and not yet played
    lines: dict[str, int] = field(default_factory=dict)   # name → its 001 line

    @property
    def complete(self) -> bool:
        return self.planned is None or len(self.rounds) >= self.planned


def trf_run(players: Mapping[int, Line], boards: dict[int, list[tuple[str, str]]], days: list[date],
            planned: int | None) -> TrfRun:
    """The run of a parsed TRF: `boards` are each round's games (white, black by name) as imported."""
    paired = {name for pairs in boards.values() for pair in pairs for name in pair}
    paired |= {p.name for p in players.values()  # the pairing's bye: in the field (round 1 paired, no game yet)
               if any(c.opponent == 0 and BYE_OF.get(c.result.upper()) == PAIRING_ALLOCATED for c in p.cells)}
    entrants = [(rank, p) for rank, p in sorted(players.items()) if p.name in paired]
    rounds = [TrfRound(day, list(boards.get(r + 1, []))) for r, day in enumerate(days)]
    last_in: dict[str, int] = {}
    for r, rnd in enumerate(rounds):
        on_board = {name for pair in rnd.boards for name in pair}
        for _rank, p in entrants:
            if p.name in on_board:
                last_in[p.name] = r + 1
                continue
            cell = p.cells[r] if r < len(p.cells) else None
            code = cell.result.upper() if cell is not None else " "
            kind = BYE_OF.get(code, ABSENT)  # a lone + is the bye; - (a double forfeit too) an absence
            if kind != ABSENT:
                last_in[p.name] = r + 1
            rnd.byes.append((p.name, kind))
    withdrawn: dict[str, int] = {}
    if planned is None or len(rounds) >= planned:
        for _rank, p in entrants:
            out = last_in.get(p.name, 0) + 1
            if out <= len(rounds):
                withdrawn[p.name] = out
        for r, rnd in enumerate(rounds, start=1):
            rnd.byes = [(name, WITHDRAWN if withdrawn.get(name, r + 1) <= r else kind) for name, kind in rnd.byes]
    return TrfRun([p.name for _rank, p in entrants], planned, rounds, withdrawn,
                  lines={p.name: p.line for _rank, p in entrants})
