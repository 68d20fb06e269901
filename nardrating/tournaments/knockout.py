"""Knockout: a seeded bracket, 1 v N, the next round from the winners.

The seeds are the pairing numbers. The bracket has S slots, S the smallest power of two that
holds the field, in the usual seeding order (S = 8: 1 8 4 5 2 7 3 6), so that seeds 1 and 2
can meet only in the final; the slots beyond the field are empty, and the seed drawn against
an empty slot has a pairing-allocated bye: the byes go to the top seeds. Each later round
pairs the winners of neighbouring slots. A drawn game decides nothing: the knockout waits
for a winner (enter the tie-break game's result instead); a double forfeit puts both out.
Colours: white to the one who had black last, else the higher seed.
"""
from __future__ import annotations

from ..i18n import _
from .model import PAIRING_ALLOCATED, Tournament
from .pairing import Draft, Paired, PairingError, balanced, planned_out


def seeding(size: int) -> list[int]:
    """The seeds in bracket order for `size` slots (a power of two): 4 → [1, 4, 2, 3]."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def rounds_needed(players: int) -> int:
    return max(bracket_size(players).bit_length() - 1, 1)


def bracket(state: Tournament) -> list[str | None]:
    """The players still in, slot by slot, after the state's rounds (None: an empty slot)."""
    by_number = state.by_number()
    slots = [by_number[s].player if s in by_number else None for s in seeding(bracket_size(len(state.entrants)))]
    for r in state.rounds:
        advanced: list[str | None] = []
        for a, b in zip(slots[::2], slots[1::2]):
            if a is None or b is None:
                advanced.append(a if b is None else b)
                continue
            board = r.board_of(a)
            if board is None or b not in (board.white, board.black):  # not paired together: one was withdrawn
                freed = {bye.player for bye in r.byes if bye.kind == PAIRING_ALLOCATED}
                advanced.append(a if a in freed else b if b in freed else None)
                continue
            if board.result in ("1/2-1/2", None):
                raise PairingError(_("round {round}, board {board} ({white} v {black}) has no winner; a knockout "
                                     "needs one: enter the result of the game that decided it").format(
                    round=r.number, board=board.board, white=board.white, black=board.black))
            white_won = board.result in ("1-0", "+-")
            advanced.append(None if board.result == "--" else board.white if white_won else board.black)
        slots = advanced
    return slots


class KnockoutPairer:
    takes_requests = False

    def finished(self, state: Tournament) -> bool:
        if planned_out(state, rounds_needed(len(state.entrants))):
            return True
        return bool(state.rounds) and sum(p is not None for p in bracket(state)) <= 1

    def pair(self, draft: Draft) -> Paired:
        state = draft.state
        if any(e.joined > 1 for e in state.entrants):
            raise PairingError(_("a knockout's bracket is drawn for the whole field: a late entry cannot join "
                                 "'{tournament}'").format(tournament=state.id))
        here = {e.player for e in draft.players}
        slots = [p if p in here else None for p in bracket(state)]
        number = {e.player: e.number for e in state.entrants}
        pairs: list[tuple[str, str]] = []
        byes: list[str] = []
        for a, b in zip(slots[::2], slots[1::2]):
            if a is not None and b is not None:
                pairs.append(balanced(state, a, b, number.__getitem__))
            elif a is not None or b is not None:
                byes.append(a if a is not None else b)  # type: ignore[arg-type]  # one of them is a player
        if not pairs and len(byes) <= 1:
            raise PairingError(_("tournament '{tournament}' is finished: the knockout has its winner").format(
                tournament=state.id))
        return Paired(pairs, tuple(byes))
