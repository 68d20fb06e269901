"""The TRF export of a tournament run here: every round as its [[round]] recorded it, byes and
absences included, and XXR (the planned rounds), so that an engine — or `import` — can continue it.

The cells are trfx.py's (TRF-16 codes: 1 = 0 for games, + - for forfeits with their nominal
colour, U H F for byes, Z for an absence, a withdrawal or a round before a late entry); a round
paired but not yet played has its boards' cells without a result, as pairing programs write them.
Start numbers are the pairing numbers; the place is the rank in the standings.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..tournaments.fromjournal import tournament_state
from ..tournaments.standings import standings
from ..tournaments.systems import planned_rounds
from ..tournaments.trfx import SYSTEMS, cell_text

if TYPE_CHECKING:
    from ..journal.model import Journal

TITLE_CODES = {"GM": "g", "IM": "m", "FM": "f", "CM": "c", "WGM": "wg", "WIM": "wm", "WFM": "wf", "WCM": "wc"}


def rounds_trf(journal: Journal, tid: str) -> str:
    t = journal.tournaments[tid]
    state = tournament_state(journal, tid)
    numbers = {e.player: e.number for e in state.entrants}
    cells = state.cells()
    place = {s.entrant.player: s.rank for s in standings(state)}
    lines = [f"012 {t.name}", f"042 {t.start:%Y/%m/%d}", f"052 {t.end:%Y/%m/%d}", f"062 {len(state.entrants)}",
             f"092 {SYSTEMS.get(t.system, t.system)}"]
    if state.rounds:
        lines.append(("132" + " " * 88 + "".join(f"{r.date:%y/%m/%d}  " if r.date else " " * 10
                                                   for r in state.rounds)).rstrip())
    for e in sorted(state.entrants, key=lambda e: e.number):
        player = journal.players.get(e.player)
        title = TITLE_CODES.get((player.title or "").upper(), "") if player else ""
        row = []
        for c, r in zip(cells[e.player], state.rounds):
            text = cell_text(c, numbers)
            board = r.board_of(e.player)
            row.append(text[:-1] + " " if board is not None and board.result is None else text)
        points = sum(c.points for c in cells[e.player])
        head = (f"001 {e.number:>4}  {title:>3} {e.name[:33]:<33} {'':>4} {'':<3} {'':>11} {'':<10} "
                f"{points:>4.1f} {place[e.player]:>4}")
        lines.append((head + "".join(f"  {cell}" for cell in row)).rstrip())
    lines.append(f"XXR {planned_rounds(state) or len(state.rounds)}")  # a round-robin's table, a knockout's bracket
    return "\n".join(lines) + "\n"
