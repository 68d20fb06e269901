"""Pydantic models of the hand-written journal entries (TOML tables).

They check one entry's shape and types; cross-entry rules (unknown player,
duplicate id, a match outside its tournament's dates) are in validate.py.
"""
from __future__ import annotations

import re
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_PATTERN = r"^[\w\-]+$"  # letters of any alphabet, digits, _ and -
_ID = re.compile(ID_PATTERN)
QUALIFICATIONS = ("MS", "KMS", "1", "2", "3")
SYSTEMS = ("swiss", "round-robin", "knockout", "match")

RESULTS = {
    "1-0": 1.0, "0-1": 0.0,
    "1/2-1/2": 0.5, "½-½": 0.5, "1/2": 0.5, "½": 0.5, "0.5-0.5": 0.5,
    "1:0": 1.0, "0:1": 0.0, "½:½": 0.5,
}
RESULT_HELP = '"1-0", "0-1" or "1/2-1/2" (also "½-½"), or winner = "<player id>"'


def parse_result(text: str) -> float | None:
    return RESULTS.get(text.strip().replace(" ", ""))


def parse_place(place) -> tuple[int, int]:
    """1 → (1, 1); "2-3" → (2, 3). Raises ValueError otherwise."""
    if isinstance(place, bool):
        raise ValueError
    if isinstance(place, int):
        if place < 1:
            raise ValueError
        return place, place
    m = re.fullmatch(r"\s*(\d+)\s*(?:[-–]\s*(\d+)\s*)?", str(place))
    if not m:
        raise ValueError
    low = int(m[1])
    high = int(m[2]) if m[2] else low
    if low < 1 or high < low:
        raise ValueError
    return low, high


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class PlayerEntry(Entry):
    id: str = Field(pattern=ID_PATTERN, min_length=1, max_length=100)
    name: str | None = None
    alias: str | None = None
    qualification: Literal["MS", "KMS", "1", "2", "3"] | None = None
    title: str | None = None
    joined: date | None = None

    @field_validator("qualification", mode="before")
    @classmethod
    def _qualification_as_text(cls, value):
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class MatchEntry(Entry):
    id: str | None = Field(default=None, pattern=ID_PATTERN, min_length=1, max_length=100)
    date: date
    players: list[str] = Field(min_length=2, max_length=2)
    result: str | None = None
    winner: str | None = None
    length: int = Field(default=1, ge=1, le=1000)
    score: list[int] | None = Field(default=None, min_length=2, max_length=2)
    chips: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    discipline: str | None = None
    tournament: str | None = None
    rated: bool = True
    forfeit: bool = False
    note: str | None = None

    @model_validator(mode="after")
    def _one_outcome(self):
        if (self.result is None) == (self.winner is None):
            raise ValueError(f"give either result = {RESULT_HELP.split(', or')[0]} or winner = \"<player id>\", not both or neither")
        if self.result is not None and parse_result(self.result) is None:
            raise ValueError(f"result {self.result!r} is not a result; write {RESULT_HELP}")
        return self

    def score_a(self) -> float | None:
        if self.result is not None:
            return parse_result(self.result)
        if self.winner == self.players[0]:
            return 1.0
        if self.winner == self.players[1]:
            return 0.0
        return None


class PlacingEntry(Entry):
    player: str
    place: int | str


class TournamentEntry(Entry):
    id: str = Field(pattern=ID_PATTERN, min_length=1, max_length=100)
    name: str | None = None
    system: Literal["swiss", "round-robin", "knockout", "match"]
    start: date
    end: date
    discipline: str | None = None
    official: bool = False
    standings: list[PlacingEntry] | None = None

    @model_validator(mode="after")
    def _ordered(self):
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")
        return self


class VoidEntry(Entry):
    match: str
    date: date
    reason: str = Field(min_length=1)


class AdjustEntry(Entry):
    date: date
    player: str
    rating: str | None = None
    discipline: str | None = None
    set: float | None = Field(default=None, allow_inf_nan=False)
    delta: float | None = Field(default=None, allow_inf_nan=False)
    reason: str = ""
    # Engine-specific state carried over from an imported list; each engine says which it takes
    # (Engine.adjust_fields): fide's K and rated games so far, glicko's deviation and volatility.
    k: Literal[10, 20, 40] | None = None
    games: int | None = Field(default=None, ge=0, le=100_000)
    rd: float | None = Field(default=None, gt=0, le=1000, allow_inf_nan=False)
    volatility: float | None = Field(default=None, gt=0, le=10, allow_inf_nan=False)

    @model_validator(mode="after")
    def _set_or_delta(self):
        if (self.set is None) == (self.delta is None):
            raise ValueError("give either set = <rating> or delta = <change>, not both or neither")
        return self


ENTRY_MODELS: dict[str, type[Entry]] = {
    "player": PlayerEntry,
    "match": MatchEntry,
    "tournament": TournamentEntry,
    "void": VoidEntry,
    "adjust": AdjustEntry,
}


def valid_id(text: str) -> bool:
    return bool(_ID.match(text))
