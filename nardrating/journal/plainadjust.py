"""An `[[adjust]]` taken without the entry model where that changes nothing: a rating list imported.

A federation starts its list from the ratings it had: thousands of `[[adjust]]` entries setting each
player's rating on one day (and, for fide, their K and games). Read by the entry model (entries.py,
pydantic), a list of 10,000 loads pydantic's model machinery and checks each table through it (about
0.2 s of a `recalc`). An adjustment whose every value is already exactly what the model would make
of it (a date in range, ids by the id rule, a whole or finite number in range for `set` or `delta`,
not both, a reason without control characters, K 10, 20 or 40, games in range) is taken here as
the model would take it. Anything else (a value the model would convert, strip or refuse, rd or
volatility, a key it does not know) is not taken here: `plain_adjust` gives None and the caller asks
the model, whose words a refusal keeps. tests/test_plainadjust.py holds this to the model on random
entries, and a journal's whole read to the one the model alone gives.
"""
from __future__ import annotations

import math
from datetime import date
from typing import Any, cast

from ..datarecords import datarecord
from .limits import FIRST_DAY, LAST_DAY, MAX_GAMES, MAX_NOTE, MAX_RATING, MAX_TEXT
from .textrules import plain_id, plain_text

# The [[adjust]] model's fields in its order (what model_dump gives), with their defaults.
DEFAULTS: dict[str, Any] = {"date": None, "player": None, "rating": None, "discipline": None, "set": None,
                            "delta": None, "reason": "", "k": None, "games": None, "rd": None, "volatility": None}
_TAKEN = frozenset(DEFAULTS) - {"rd", "volatility"}   # (the model's floats with their own ranges)
_REQUIRED = ("date", "player")


@datarecord(frozen=True, slots=True)
class PlainAdjust:
    """An [[adjust]] as AdjustEntry holds it (the same fields, values and defaults), made without it."""

    date: date
    player: str
    rating: str | None = None
    discipline: str | None = None
    set: float | None = None
    delta: float | None = None
    reason: str = ""
    k: int | None = None
    games: int | None = None
    rd: float | None = None          # (never taken here: the model's)
    volatility: float | None = None  # (never taken here: the model's)

    def model_dump(self, exclude_defaults: bool = False) -> dict[str, Any]:
        """As AdjustEntry.model_dump: the fields in the model's order (with exclude_defaults, those set)."""
        values = {key: getattr(self, key) for key in DEFAULTS}
        if exclude_defaults:
            return {key: value for key, value in values.items() if value != DEFAULTS[key] or key in _REQUIRED}
        return values


def _rating_number(value: object) -> float | None:
    """A set or delta as the model holds it (a float, from a TOML integer or float), where it takes it
    as it is: finite, within ±MAX_RATING, not a TOML true; else None."""
    if type(value) is int:
        return float(value) if -MAX_RATING <= value <= MAX_RATING else None
    if type(value) is float and math.isfinite(value) and -MAX_RATING <= value <= MAX_RATING:
        return value
    return None


def plain_adjust(raw: dict[str, Any]) -> PlainAdjust | None:
    """The [[adjust]] of these fields, where the model would take them exactly as they are; else None."""
    if not raw.keys() <= _TAKEN:
        return None
    day, player = raw.get("date"), raw.get("player")
    if type(day) is not date or not FIRST_DAY <= day <= LAST_DAY or not plain_id(player):
        return None
    rating, discipline, reason = raw.get("rating"), raw.get("discipline"), raw.get("reason", "")
    if rating is not None and not plain_text(rating, MAX_TEXT) or discipline is not None and not plain_id(discipline):
        return None
    if not plain_text(reason, MAX_NOTE, multiline=True):
        return None
    given_set, given_delta = raw.get("set"), raw.get("delta")
    if (given_set is None) == (given_delta is None):
        return None   # (both or neither: the model's words)
    number = _rating_number(given_set if given_set is not None else given_delta)
    if number is None:
        return None
    k, games = raw.get("k"), raw.get("games")
    if k is not None and not (type(k) is int and k in (10, 20, 40)):
        return None
    if games is not None and not (type(games) is int and 0 <= games <= MAX_GAMES):
        return None
    return PlainAdjust(day, cast(str, player), rating, discipline, number if given_set is not None else None,
                       number if given_delta is not None else None, reason, k, games)
