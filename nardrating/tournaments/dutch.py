"""FIDE's Dutch system (C.04.3, the rules in force until 31 January 2026) through py4swiss.

py4swiss is the optional extra `nardrating[pairing]` (`pip install 'nardrating[pairing]'`):
it reproduced bbpPairings 5.0.1's pairs on every round of FIDE's sample tournament and of a
300-player synthetic event. It reads the same TRF(x) an external engine would (trfx.py),
written from the state, and gives back (white, black) pairing numbers, 0 for the bye.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from ..i18n import _
from .model import UNPAIRED, Tournament
from .pairing import Draft, Paired, PairingError, planned_out
from .trfx import write_trf

INSTALL = "pip install 'nardrating[pairing]'"


class PairingUnavailable(PairingError):
    """The engine a system needs is not installed."""


def needs_rounds(state: Tournament) -> int:
    if state.rounds_planned is None:
        raise PairingError(_("a Dutch Swiss needs its number of rounds (the last round is paired by other rules): "
                             "add rounds = N to the [[tournament]] entry of '{tournament}'").format(tournament=state.id))
    return state.rounds_planned


def left_out(draft: Draft) -> dict[str, str]:
    """Every entrant not to be paired this round, with the kind of their cell (a late entry not yet
    in: unpaired)."""
    asked = {e.player for e in draft.players}
    return {e.player: draft.byes.get(e.player, UNPAIRED) for e in draft.state.entrants if e.player not in asked}


def players_by_number(state: Tournament, pairs: list[tuple[int, int]]) -> Paired:
    by_number = state.by_number()
    boards = [(by_number[w].player, by_number[b].player) for w, b in pairs if b != 0]
    byes = tuple(by_number[w].player for w, b in pairs if b == 0)
    return Paired(boards, byes)


def check_engine_pairs(draft: Draft, paired: Paired, engine: str) -> Paired:
    """The engine's pairs must pair exactly the players asked for, each once."""
    asked = {e.player for e in draft.players}
    got = [p for pair in paired.pairs for p in pair] + list(paired.byes)
    if sorted(got) != sorted(asked) or len(paired.byes) > 1:
        raise PairingError(_("{engine} paired other players than the {n} of round {round}; nothing was "
                             "written").format(engine=engine, n=len(asked), round=draft.round))
    return paired


class DutchPairer:
    takes_requests = True

    def finished(self, state: Tournament) -> bool:
        return planned_out(state, None)

    def pair(self, draft: Draft) -> Paired:
        try:
            from py4swiss.engines import DutchEngine
            from py4swiss.engines.common import PairingError as EngineError
            from py4swiss.trf import TrfParser
        except ImportError:
            raise PairingUnavailable(_("pairing by the Dutch system needs py4swiss: {install}").format(
                install=INSTALL)) from None
        state = draft.state
        needs_rounds(state)
        if not draft.players:
            return Paired([])
        text = write_trf(state, pairing=left_out(draft))
        with tempfile.TemporaryDirectory(prefix="nardrating-pairing-") as folder:
            path = Path(folder) / "round.trf"
            path.write_text(text, encoding="utf-8")
            trf = TrfParser.parse(path, strict=True)
        try:
            found = DutchEngine.generate_pairings(trf)
        except EngineError:
            raise PairingError(_("round {round} of '{tournament}' cannot be paired by the Dutch system's absolute "
                                 "criteria (no rematch, at most one bye each, colours): too few players can still "
                                 "meet").format(round=draft.round, tournament=state.id)) from None
        pairs = [(int(p.white), int(p.black)) for p in found]
        return check_engine_pairs(draft, players_by_number(state, pairs), "py4swiss")
