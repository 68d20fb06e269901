"""The pairing systems by name: the pairer a tournament's `pairing` names."""
from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _
from .berger import rounds_of
from .dutch import DutchPairer
from .external import ExternalPairer
from .knockout import KnockoutPairer, rounds_needed
from .losses import LossesPairer
from .model import Tournament
from .names import PAIRINGS
from .pairing import Pairer, PairingError
from .roundrobin import BergerPairer


def pairer_for(state: Tournament, command: Sequence[str] | None = None) -> Pairer:
    """The pairer of the tournament's `pairing`; for dutch, `command` (bbpPairings/JaVaFo style:
    TRF in, pairs out) replaces the built-in engine."""
    if state.pairing is None:
        raise PairingError(_("tournament '{tournament}' has no pairing system; add pairing = one of {systems} "
                             "to its [[tournament]] entry").format(tournament=state.id, systems=", ".join(PAIRINGS)))
    if state.pairing in ("berger", "double-berger"):
        return BergerPairer(double=state.pairing == "double-berger")
    if state.pairing == "knockout":
        return KnockoutPairer()
    if state.pairing == "losses":
        return LossesPairer()
    if state.pairing == "dutch":
        if command:
            return ExternalPairer(list(command))
        return DutchPairer()
    raise PairingError(_("'{pairing}' is not a pairing system; the systems are {systems}").format(
        pairing=state.pairing, systems=", ".join(PAIRINGS)))


def planned_rounds(state: Tournament) -> int | None:
    """The rounds the event will have: its `rounds`, else what its table or bracket gives."""
    if state.rounds_planned is not None:
        return state.rounds_planned
    if state.pairing in ("berger", "double-berger"):
        return rounds_of(len(state.entrants), state.pairing == "double-berger")
    if state.pairing == "knockout":
        return rounds_needed(len(state.entrants))
    return None
