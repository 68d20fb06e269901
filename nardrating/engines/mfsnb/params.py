"""The parameters of a federation list (`[rating.NAME]` with `engine = "mfsnb"`), defaults from seed 000,
checked; what they mean beyond their values is `values.MfsnbRules`."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ...i18n import _, ngettext
from ..params import Params
from ..params import check_exclusion_after_ladder, check_ladder
from .values import DEFAULT_INACTIVITY, DEFAULT_STARTS, MfsnbRules


class MfsnbParams(Params, MfsnbRules):
    period: Literal["month", "quarter", "half", "year"] = Field(
        "quarter", description="one list per period: month, quarter, half or year")
    start: int = Field(1500, ge=0, description="first rating without a qualification")
    start_by_qualification: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_STARTS),
                                                   description="first rating by qualification")
    round_robin: Literal["seed", "strict"] = Field(
        "seed", description='"seed": E = H·Pe − ½; "strict": E = (H − 1)·Pe')
    protect_first_place: bool = Field(True, description="a clear first place never lowers the rating")
    protect_wins: bool = Field(True, description="nor does a win over an opponent more than protect_win_gap away")
    protect_win_gap: int = Field(150, ge=0, description="whole points")
    protect_direction: Literal["any", "stronger"] = Field(
        "any", description='"any": opponent above or below; "stronger": only above')
    inactivity: tuple[tuple[int, int], ...] = Field(DEFAULT_INACTIVITY, description="[months of break, total penalty]")
    exclude_after_months: int = Field(24, ge=0, le=1200,
                                      description="a longer break takes the player off the list; 0 = never")
    official_only: bool = Field(False, description="only tournaments with official = true count")

    @field_validator("start_by_qualification")
    @classmethod
    def _known_qualifications(cls, value: dict[str, int]) -> dict[str, int]:
        unknown = sorted(set(value) - set(DEFAULT_STARTS))
        if unknown:
            raise ValueError(ngettext("unknown qualification {names}; allowed: {allowed}",
                                      "unknown qualifications {names}; allowed: {allowed}", len(unknown)).format(
                names=", ".join(unknown), allowed=", ".join(DEFAULT_STARTS)))
        if any(v < 0 for v in value.values()):
            raise ValueError(_("start ratings must not be negative"))
        # The seed's table fills what the config leaves out.
        return {**DEFAULT_STARTS, **value}

    @field_validator("inactivity")
    @classmethod
    def _growing_table(cls, value: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        check_ladder(value)
        return value

    @model_validator(mode="after")
    def _exclusion_after_table(self) -> MfsnbParams:
        check_exclusion_after_ladder(self.exclude_after_months, self.inactivity)
        return self
