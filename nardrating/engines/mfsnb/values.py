"""A federation list's parameters as the engine reads them (pure: no pydantic): seed 000's tables of
first ratings and inactivity, and a new player's first rating. `params.MfsnbParams` checks a config;
a config read back from the cache (replay/configcache.py) gives the same values as `MfsnbValues`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...config import ParamValues

DEFAULT_STARTS = {"MS": 2000, "KMS": 1900, "1": 1800, "2": 1600, "3": 1500}
DEFAULT_INACTIVITY = ((3, 25), (6, 50), (9, 75), (12, 100), (18, 150))


class MfsnbRules:
    """What the parameters mean beyond their values: shared by the checked model and the cached values."""

    if TYPE_CHECKING:  # the fields, declared by params.MfsnbParams (or set by MfsnbValues)
        period: str
        start: int
        start_by_qualification: dict[str, int]
        round_robin: str
        protect_first_place: bool
        protect_wins: bool
        protect_win_gap: int
        protect_direction: str
        inactivity: tuple[tuple[int, int], ...]
        exclude_after_months: int
        official_only: bool

    def start_for(self, qualification: str | None) -> int:
        """A new player's first rating: by qualification, else `start` (seed 000's table)."""
        return self.start_by_qualification.get(qualification, self.start) if qualification else self.start


class MfsnbValues(ParamValues, MfsnbRules):
    """A checked federation list's parameters read back from the cache."""
