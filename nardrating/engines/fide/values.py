"""A fide list's parameters as the engine reads them, and the numbers FIDE's rules fix (pure: no
pydantic). `params.FideParams` checks a config with these rules; a config read back from the cache
(replay/configcache.py) gives the same values as `FideValues`, without building that model."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ...config import ParamValues

SEED, FIDE_2024, FIDE_2025 = "seed", "fide-2024", "fide-2025"
FIDE_RULESETS = (FIDE_2024, FIDE_2025)

# FIDE Rating Regulations effective from 1 March 2024 (FIDE Handbook B.02); § numbers are theirs.
FIDE_2024_FLOOR = 1400
FIDE_2024_FIRST_RATING_GAMES = 5
FIDE_2024_HYPOTHETICAL = 1800       # two opponents of this rating, both games drawn
FIDE_2024_INITIAL_CAP = 2200
FIDE_2024_DIFFERENCE_CAP = 400
FIDE_2024_K_NEW, FIDE_2024_K, FIDE_2024_K_TOP = 40, 20, 10
FIDE_2024_NEW_UNTIL_GAMES = 30
FIDE_2024_TOP = 2400
FIDE_2024_K_TIMES_GAMES = 700
FIDE_2024_JUNIOR_UNTIL = 2300       # a listed K 40 after 30 games is the under-18 K, under 2300
# The amendment effective from 1 October 2025 (§8.3.1): from 2650 the real difference counts.
FIDE_2025_UNCAPPED_FROM = 2650
FIDE_2025_AMENDED_ON = date(2025, 10, 1)


class FideRules:
    """What the parameters mean where the config leaves a number to the ruleset: shared by the
    checked model and the cached values."""

    if TYPE_CHECKING:  # the fields, declared by params.FideParams (or set by FideValues)
        ruleset: str
        list_every: str
        k: int | None
        min_rating: int | None
        first_rating_games: int | None
        closing_days: int
        official_closing_days: int
        pool_months: int
        inactive_months: int

    @property
    def fide(self) -> bool:
        """One of FIDE's own rulesets (fide-2024, fide-2025) rather than seed 002."""
        return self.ruleset in FIDE_RULESETS

    @property
    def floor(self) -> int:
        if self.min_rating is not None:
            return self.min_rating
        return FIDE_2024_FLOOR if self.fide else 1000

    @property
    def fixed_k(self) -> int:
        return self.k if self.k is not None else 20

    @property
    def games_to_publish(self) -> int:
        if self.first_rating_games is not None:
            return self.first_rating_games
        return FIDE_2024_FIRST_RATING_GAMES if self.fide else 9

    @property
    def difference_cap(self) -> int | None:
        return FIDE_2024_DIFFERENCE_CAP if self.fide else None

    def cap_for(self, own: int, day: date) -> int | None:
        """§8.3.1: a difference over 400 counts as 400; under fide-2025, for a game played from
        1 October 2025 by a player rated 2650 or more, the real difference counts."""
        if self.ruleset == FIDE_2025 and day >= FIDE_2025_AMENDED_ON and own >= FIDE_2025_UNCAPPED_FROM:
            return None
        return self.difference_cap


class FideValues(ParamValues, FideRules):
    """A checked fide list's parameters read back from the cache."""
