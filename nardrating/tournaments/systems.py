"""The pairing systems by name: the pairer a tournament's `pairing` names."""
from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _
from .dutch import DutchPairer
from .external import ExternalPairer
from .knockout import KnockoutPairer
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
