"""The berger and double-berger pairers: each round straight from FIDE's Berger table.

Pairing numbers are the entrants' numbers. The player a table pairs with the number after
the last (an odd field) is the round's bye; so is the opponent of a player who has withdrawn
(whose games are then not played: the bye scores `bye_points`, 0 by default in a round-robin).
"""
from __future__ import annotations

from ..i18n import _
from .berger import rounds_of, schedule_round
from .model import Tournament
from .pairing import Draft, Paired, PairingError, planned_out


class BergerPairer:
    takes_requests = False

    def __init__(self, double: bool = False) -> None:
        self.double = double

    def finished(self, state: Tournament) -> bool:
        table = rounds_of(len(state.entrants), self.double)   # (a `rounds` beyond it: the table ends first)
        return planned_out(state, table) or len(state.rounds) >= table

    def pair(self, draft: Draft) -> Paired:
        state = draft.state
        if any(e.joined > 1 for e in state.entrants):
            raise PairingError(_("a round-robin's table is drawn for the whole field: a late entry cannot join "
                                 "'{tournament}'").format(tournament=state.id))
        by_number = state.by_number()
        here = {e.player for e in draft.players}
        pairs: list[tuple[str, str]] = []
        free: list[str] = []
        for w, b in schedule_round(len(state.entrants), draft.round, self.double):
            white, black = by_number.get(w), by_number.get(b)
            sides = [p.player for p in (white, black) if p is not None and p.player in here]
            if len(sides) == 2:
                pairs.append((sides[0], sides[1]))
            else:
                free += sides
        return Paired(pairs, tuple(free))
