"""A fide list's parameters (`[rating.NAME]` with `engine = "fide"`), checked; what they mean is
`values.FideRules`, with the numbers FIDE's rules fix."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...i18n import _
from ..params import Params
from .values import FideRules


class FideParams(Params, FideRules):
    ruleset: Literal["seed", "fide-2024", "fide-2025"] = "seed"
    list_every: Literal["month", "quarter", "half", "year"] = "month"
    k: int | None = Field(None, gt=0, le=1000)               # seed: 20
    min_rating: int | None = Field(None, ge=0, le=4000)      # seed 1000, fide-2024/2025 1400
    first_rating_games: int | None = Field(None, ge=1, le=1000)  # seed 9, fide-2024/2025 5
    closing_days: int = Field(3, ge=1, le=366)               # a tournament ends ≥ this many days before the list
    official_closing_days: int = Field(1, ge=1, le=366)      # the same for `official = true`
    pool_months: int = Field(26, ge=1, le=1200)
    inactive_months: int = Field(12, ge=1, le=1200)

    @model_validator(mode="after")
    def _k_belongs_to_seed(self) -> FideParams:
        if self.fide and self.k is not None:
            raise ValueError(_("k is set by the {ruleset} rules themselves (40, 20 or 10); leave k out").format(
                ruleset=self.ruleset))
        return self
