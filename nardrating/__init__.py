"""nardrating: a ratings ledger for nardy, backgammon and chess clubs.

    import nardrating
    ledger = nardrating.load_club("sample_ledgers/chess-club")
    result = ledger.run("club")            # one rating list, replayed
    result.standings["anna"].rating        # 1199.42…
"""
from ._version import __version__

__all__ = ["__version__"]


def __getattr__(name: str) -> object:
    # Imported on first use, so that `nardrating --help` stays fast.
    if name == "load_club":
        from .replay.loader import load_club
        return load_club
    if name == "Ledger":
        from .replay.ledger import Ledger
        return Ledger
    if name in ("LedgerError", "Problem"):
        from . import errors
        return getattr(errors, name)
    if name == "parse_period":
        from .periods import parse_period
        return parse_period
    raise AttributeError(name)
