"""A tournament state as FIDE's TRF(x): the report file pairing engines read (TRF-16, C.04 Annex 2,
with JaVaFo's XX extensions), and the pairs file they write back.

Each 001 line has a 10-column cell per round from column 92: the opponent's pairing number
(0000 for none), the colour (w, b, or - for a bye) and the result code — 1 = 0 for a game,
+ - for a forfeit (with its nominal colour), U for a pairing-allocated bye, F a full-point
bye, H a half-point bye, Z a zero-point bye (an absence, a withdrawal, a round before a late
entry). For pairing round N, the players who are not to be paired (absent, a half-point bye,
withdrawn) already have their round-N cell, as bbpPairings and JaVaFo expect; XXR gives the
planned rounds, XXS the points of a pairing-allocated bye when they are not 1, XXP the
forbidden pairs. A pairing file has no 132 line (the rounds' dates): no engine needs them, and
py4swiss reads them 9 columns apart where TRF-16 puts them 10 apart.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from ..i18n import _
from .model import ABSENT, FULL_POINT, HALF_POINT, PAIRING_ALLOCATED, UNPAIRED, WITHDRAWN, Cell, Tournament

BYE_CODES = {PAIRING_ALLOCATED: "U", FULL_POINT: "F", HALF_POINT: "H", ABSENT: "Z", WITHDRAWN: "Z", UNPAIRED: "Z"}
SYSTEMS = {"swiss": "Individual: Swiss-System", "round-robin": "Individual: Round-Robin",
           "knockout": "Individual: Knockout", "match": "Individual: Match"}


def cell_text(cell: Cell, numbers: Mapping[str, int]) -> str:
    """The 8 characters of one round cell, e.g. '  12 w 1', '0000 - U'."""
    if cell.kind in ("game", "forfeit") and cell.opponent is not None:
        if cell.kind == "game":
            code = {1.0: "1", 0.5: "=", 0.0: "0"}[cell.points]
        else:
            code = "+" if cell.points == 1 else "-"
        return f"{numbers[cell.opponent]:>4} {cell.colour or '-'} {code}"
    return f"0000 - {BYE_CODES.get(cell.kind, 'Z')}"


def _day(day: date | None) -> str:
    return f"{day:%Y/%m/%d}" if day else ""


def write_trf(state: Tournament, pairing: Mapping[str, str] | None = None, ranks: Mapping[str, int] | None = None,
              planned: int | None = None) -> str:
    """The state as TRF text; with `pairing` (player → bye kind of the round to pair), those
    players' next-round cells are written too, so that an engine pairs only the others."""
    numbers = {e.player: e.number for e in state.entrants}
    cells = state.cells()
    nxt = len(state.rounds) + 1
    lines = [f"012 {state.name or state.id}"]
    if state.start:
        lines.append(f"042 {_day(state.start)}")
    if state.end:
        lines.append(f"052 {_day(state.end)}")
    lines += [f"062 {len(state.entrants)}", f"092 {SYSTEMS.get(state.system, state.system)}"]
    days = [r.date for r in state.rounds]
    if any(days) and pairing is None:  # (a pairing file leaves them out: py4swiss reads them 9 columns apart)
        lines.append(("132" + " " * 88 + "".join(f"{d:%y/%m/%d}  " if d else " " * 10 for d in days)).rstrip())
    rows = []
    for e in sorted(state.entrants, key=lambda e: e.number):
        mine = list(cells[e.player])
        if pairing is not None and e.player in pairing:
            kind = pairing[e.player]
            mine.append(Cell(nxt, kind, state.bye_value(kind)))
        points = sum(c.points for c in mine)
        rating = f"{round(e.rating):>4}" if e.rating is not None and 0 <= round(e.rating) <= 9999 else " " * 4
        name = _ascii_safe(e.name or e.player)[:33]
        rank = ranks.get(e.player, e.number) if ranks else e.number
        head = f"001 {e.number:>4}      {name:<33} {rating} {'':<3} {'':>11} {'':<10} {points:>4.1f} {rank:>4}"
        rows.append((head + "".join(f"  {cell_text(c, numbers)}" for c in mine)).rstrip())
    lines += rows
    total = planned if planned is not None else state.rounds_planned
    lines.append(f"XXR {total if total is not None else max(len(state.rounds) + (pairing is not None), 1)}")
    lines.append("XXC white1")
    if state.bye_points != 1:
        lines.append(f"XXS PAB={state.bye_points:.1f}")
    for pair in sorted(tuple(sorted(numbers[p] for p in pair)) for pair in state.forbidden
                       if all(p in numbers for p in pair)):
        lines.append(f"XXP {pair[0]} {pair[1]}")
    return "\n".join(lines) + "\n"


def _ascii_safe(name: str) -> str:
    # The columns are counted in characters; a name is data, never a column shift (no tabs, no controls).
    return "".join(ch if ch.isprintable() else "?" for ch in name)


def read_pairs(text: str, state: Tournament) -> list[tuple[int, int]]:
    """A pairs file (bbpPairings' and JaVaFo's -p output: the number of pairs, then 'WHITE BLACK' a
    line, 0 for the pairing-allocated bye) as (white, black) pairing numbers; ValueError if malformed."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if not lines or len(lines[0]) != 1 or not lines[0][0].isdigit():
        raise ValueError(_("the first line should be the number of pairs"))
    count = int(lines[0][0])
    pairs = lines[1:]
    if len(pairs) != count:
        raise ValueError(_("it announces {count} pairs but lists {listed}").format(count=count, listed=len(pairs)))
    known = {e.number for e in state.entrants}
    found: list[tuple[int, int]] = []
    for k, pair in enumerate(pairs, start=2):
        if len(pair) != 2 or not all(p.isdigit() for p in pair):
            raise ValueError(_("line {line}: {text!r} is not two pairing numbers").format(line=k, text=" ".join(pair)))
        white, black = int(pair[0]), int(pair[1])
        if white not in known or black not in known | {0} or white == black:
            raise ValueError(_("line {line}: {white} {black} are not two players of the tournament").format(
                line=k, white=white, black=black))
        found.append((white, black))
    return found
