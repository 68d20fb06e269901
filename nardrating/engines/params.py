"""The engines' parameters: one pydantic model per engine, what a [rating.NAME] table of the config
is checked by (config.py) and `init` describes. Here, away from the engines' replay code, so that
a command reading a checked config from the cache (replay/configcache.py) never builds one: the
engines read their parameters by attribute, from these models or from the cached values.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..i18n import _


def check_ladder(value: tuple[tuple[int, float], ...]) -> tuple[tuple[int, float], ...]:
    """A ladder's months strictly increase (1–1200), its totals never decrease and are not negative."""
    months = [m for m, _ in value]
    totals = [t for _, t in value]
    if any(not 1 <= m <= 1200 for m in months) or months != sorted(set(months)):
        raise ValueError(_("months must be from 1 to 1200 and strictly increasing, like [[3, 25], [6, 50]]"))
    if any(t < 0 for t in totals) or totals != sorted(totals):
        raise ValueError(_("penalties are totals for the whole break: not negative, never decreasing"))
    return value


def check_exclusion_after_ladder(exclude_after_months: int, ladder: tuple[tuple[int, float], ...]) -> None:
    if exclude_after_months and ladder and exclude_after_months < ladder[-1][0]:
        raise ValueError(_("exclude_after_months must not be shorter than the last inactivity step"))


class Params(BaseModel):
    """Base of every engine's parameters: frozen, no unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class InactivityParams(Params):
    inactivity: tuple[tuple[int, float], ...] = Field(
        (), description="[months without a rated game, total penalty], e.g. [[3, 25], [6, 50]]; none by default")
    inactive_after_months: int = Field(
        0, ge=0, le=1200, description='status "inactive" (hidden unless --all) after a longer break; 0 = never')
    exclude_after_months: int = Field(
        0, ge=0, le=1200, description='status "excluded" (hidden unless --all) after a longer break; 0 = never')

    @field_validator("inactivity")
    @classmethod
    def _ladder(cls, value: tuple[tuple[int, float], ...]) -> tuple[tuple[int, float], ...]:
        return check_ladder(value)

    @model_validator(mode="after")
    def _exclusion_after_ladder(self) -> "InactivityParams":
        check_exclusion_after_ladder(self.exclude_after_months, self.inactivity)
        return self


class EloParams(InactivityParams):
    start: float = Field(1200, allow_inf_nan=False, description="every new player's rating")
    k: float = Field(20, gt=0, allow_inf_nan=False, description="K of new = old + K·(S − E)")
    provisional_games: int = Field(5, ge=0, description="status \"provisional\" until this many rated games")
    pair_limit_per_day: int = Field(2, ge=0, description="rated games per pair of players per date; 0 = no limit")


PRESETS: dict[str, dict[str, float | str]] = {
    # Seed 001: E = ±R·10·√L/(1 + 10^(D·√L/400)), R = (500 − G)/100 while G < 400 games.
    "nardy-site": {"factor": 10, "scale": 400, "experience_unit": "games"},
}


class FibsParams(InactivityParams):
    preset: str | None = Field(None, description='"nardy-site": seed 001\'s Elo (factor 10, scale 400, experience in games)')
    start: float = Field(1500, allow_inf_nan=False, description="a new player's rating")
    factor: float = Field(4, gt=0, allow_inf_nan=False, description="the 4 of 4·√n·(1 − P)")
    scale: float = Field(2000, gt=0, allow_inf_nan=False, description="the 2000 of 10^(−D·√n/2000)")
    experience_unit: Literal["points", "games"] = Field("points", description='"points": a match to n adds n; "games": it adds 1')
    boost: bool = Field(True, description="the new-player boost, ×5 fading to ×1 at 400 experience")
    leaderboard_min_experience: float = Field(10, ge=0, allow_inf_nan=False, description="below it \"provisional\", hidden from the leaderboard unless --all")
    pair_limit_per_day: int = Field(0, ge=0, description="rated matches per pair per date; 0 = no limit")

    @model_validator(mode="before")
    @classmethod
    def _apply_preset(cls, data: Any) -> Any:  # the raw config table, before validation
        # A preset fills the keys the config leaves out; explicit keys win.
        if isinstance(data, dict) and data.get("preset") in PRESETS:
            return {**PRESETS[data["preset"]], **data}
        return data

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, value: str | None) -> str | None:
        if value is not None and value not in PRESETS:
            raise ValueError(_("unknown preset {preset!r}; presets: {presets}").format(preset=value, presets=", ".join(PRESETS)))
        return value


class ChipsParams(InactivityParams):
    win_share: float = Field(1.0, ge=0, allow_inf_nan=False, description="a won match adds win_share × chips")
    loss_share: float = Field(0.8, ge=0, allow_inf_nan=False, description="a lost match subtracts loss_share × chips")
    daily_decay: float = Field(0.05, ge=0, lt=1, allow_inf_nan=False, description="the daily loss: rating × (1 − daily_decay) a day")
    provisional_games: int = Field(0, ge=0, description='status "provisional" until this many rated matches; 0 = none')


class PlacementParams(Params):
    points: float = Field(10, gt=0, allow_inf_nan=False, description="the 10 of 10·log2(N)/M")
    monthly_factor: float = Field(0.5, ge=0, le=1, allow_inf_nan=False, description="multiplier on every month's first day (R = R/2)")


class GlickoParams(Params):
    start: float = Field(1500, allow_inf_nan=False)
    rd: float = Field(350, gt=0, le=1000, allow_inf_nan=False)
    period: Literal["day", "week", "month"] = "month"
    max_rd: float = Field(350, gt=0, le=1000, allow_inf_nan=False)
    provisional_rd: float = Field(110, gt=0, allow_inf_nan=False)

    @model_validator(mode="after")
    def _rd_within_max(self) -> "GlickoParams":
        if self.rd > self.max_rd:
            raise ValueError(_("rd {rd:g} is above max_rd {max_rd:g}; a new player's deviation is at most max_rd").format(
                rd=self.rd, max_rd=self.max_rd))
        return self


class Glicko1Params(GlickoParams):
    # Glickman's example: RD 50 back to 350 after 100 idle periods: c = √((350² − 50²)/100) = 34.6.
    c: float = Field(34.6, ge=0, allow_inf_nan=False)


class Glicko2Params(GlickoParams):
    sigma: float = Field(0.06, gt=0, le=10, allow_inf_nan=False)
    tau: float = Field(0.5, gt=0, le=10, allow_inf_nan=False)
