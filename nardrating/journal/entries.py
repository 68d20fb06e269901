"""Pydantic models of the journal entries (TOML tables), and the rules every writer shares.

They check one entry's shape, types and limits; cross-entry rules (unknown player,
duplicate id, a match outside its tournament's dates) are in validate.py. The TOML
reader, the CSV reader and every command that writes use these same rules
(`id_problem`, `text_problem` of textrules.py, the limits of limits.py), so that nothing one of them accepts
is refused by another. A [[match]] these models would take exactly as it is may be taken without them
(plainmatch.py: the same fields and values, held to MatchEntry by tests/test_plainmatch.py).
"""
from __future__ import annotations

import math
import re
from datetime import date
from typing import Annotated, Any, Literal, Self

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError,
                      field_validator, model_validator)

from ..i18n import N_, _
# The limits and RULES (limits.py), here too for those who import them with the entry models.
from .limits import (FIRST_DAY as FIRST_DAY, ID_RULE as ID_RULE, LAST_DAY as LAST_DAY, MAX_CHIPS as MAX_CHIPS,
                     MAX_GAMES as MAX_GAMES, MAX_LENGTH as MAX_LENGTH, MAX_NOTE as MAX_NOTE, MAX_PLACE as MAX_PLACE,
                     MAX_RATING as MAX_RATING, MAX_SCORE as MAX_SCORE, MAX_TEXT as MAX_TEXT, RESULTS as RESULTS,
                     RULES as RULES, first_score, parse_result as parse_result)
from .tomlsource import shown
# The id and text rules (textrules.py), here too for those who import them with the entry models.
from .textrules import (Fault as Fault, control_problem as control_problem, fault_text as fault_text,
                        id_message as id_message, id_problem as id_problem, text_fault as text_fault,
                        text_problem as text_problem, valid_id as valid_id)

QUALIFICATIONS = ("MS", "KMS", "1", "2", "3")
SYSTEMS = ("swiss", "round-robin", "knockout", "match")

# The results a [[match]] takes, in words (RESULT_HELP without its winner).
RESULT_WORDS = N_('"1-0", "0-1" or "1/2-1/2" (also "½-½")')
RESULT_HELP = N_('"1-0", "0-1" or "1/2-1/2" (also "½-½"), or winner = "<player id>"')


def parse_place(place: object) -> tuple[int, int]:
    """1 → (1, 1); "2-3" → (2, 3). Raises ValueError otherwise (also beyond MAX_PLACE)."""
    if isinstance(place, bool):
        raise ValueError
    if isinstance(place, int):
        low = high = place
    else:
        m = re.fullmatch(r"\s*([0-9]{1,9})\s*(?:[-–]\s*([0-9]{1,9})\s*)?", str(place))
        if not m:
            raise ValueError
        low = int(m[1])
        high = int(m[2]) if m[2] else low
    if not 1 <= low <= high <= MAX_PLACE:
        raise ValueError
    return low, high


# --- Field types: each refuses with "<value> is not <rule>" or a reason -------------
# (a rule is an N_ message of RULES, translated when a value is refused, never per entry)

def _not_rule(value: str, rule: str) -> str:
    return _("{value} is not {rule}").format(value=value, rule=_(rule))


def _refuse_bool(rule: str) -> BeforeValidator:
    def check(value: Any) -> Any:
        if isinstance(value, bool):  # TOML true is no number
            raise ValueError(_not_rule(str(value), rule))
        return value
    return BeforeValidator(check)


def _between(low: float, high: float, rule: str) -> AfterValidator:
    def check(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value) or not low <= value <= high:
            raise ValueError(_not_rule(shown(value), rule))
        return value
    return AfterValidator(check)


def _no_controls(multiline: bool = False) -> BeforeValidator:
    # Before the model strips whitespace: "x\n" is refused, not quietly made "x".
    def check(value: Any) -> Any:
        if isinstance(value, str):
            problem = control_problem(value, multiline)
            if problem:
                raise ValueError(problem)
        return value
    return BeforeValidator(check)


def _at_most(limit: int) -> AfterValidator:
    def check(value: str) -> str:
        if len(value) > limit:
            raise ValueError(_("it is {length} characters long, more than {most}").format(length=len(value), most=limit))
        return value
    return AfterValidator(check)


def _id_rule(value: Any) -> Any:
    if isinstance(value, str) and not valid_id(value):
        raise ValueError(id_message(value))
    return value


def _place_rule(value: Any) -> Any:
    try:
        parse_place(value)
    except (ValueError, TypeError):
        raise ValueError(_not_rule(shown(value), RULES["place"])) from None
    return value


def _checked_date(value: date) -> date:
    if not FIRST_DAY <= value <= LAST_DAY:
        raise ValueError(_not_rule(str(value), RULES["date"]))
    return value


# The id rule before the model strips whitespace (a control character, "x\n", is refused, not
# made "x"; spaces around an id are forgiven as ever) and after it.
Id = Annotated[str, BeforeValidator(lambda value: _id_rule(value) if isinstance(value, str) and control_problem(value)
                                    else value), AfterValidator(_id_rule)]
Text = Annotated[str, _no_controls(), _at_most(MAX_TEXT)]
Note = Annotated[str, _no_controls(multiline=True), _at_most(MAX_NOTE)]
Day = Annotated[date, AfterValidator(_checked_date)]
# Numbers: a TOML true is no number, and each has its range.
Length = Annotated[int, _refuse_bool(RULES["length"]), _between(1, MAX_LENGTH, RULES["length"])]
ScorePoints = Annotated[int, _refuse_bool(RULES["score"]), _between(0, MAX_SCORE, RULES["score"])]
Chips = Annotated[float, _refuse_bool(RULES["chips"]), _between(0, MAX_CHIPS, RULES["chips"])]
SetTo = Annotated[float, _refuse_bool(RULES["set"]), _between(-MAX_RATING, MAX_RATING, RULES["set"])]
Delta = Annotated[float, _refuse_bool(RULES["delta"]), _between(-MAX_RATING, MAX_RATING, RULES["delta"])]
Games = Annotated[int, _refuse_bool(RULES["games"]), _between(0, MAX_GAMES, RULES["games"])]


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)


class PlayerEntry(Entry):
    id: Id
    name: Text | None = None
    alias: Text | None = None
    qualification: Literal["MS", "KMS", "1", "2", "3"] | None = None
    title: Text | None = None
    joined: Day | None = None

    @field_validator("qualification", mode="before")
    @classmethod
    def _qualification_as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


EDITED_FIELDS = ("name", "alias", "qualification", "title", "joined")  # what an [[edit-player]] may change


class EditPlayerEntry(Entry):
    """A player's record from now on: each field given replaces the [[player]]'s (or an earlier edit's)."""
    player: Id
    date: Day
    name: Text | None = None
    alias: Text | None = None
    qualification: Literal["MS", "KMS", "1", "2", "3"] | None = None
    title: Text | None = None
    joined: Day | None = None

    @field_validator("qualification", mode="before")
    @classmethod
    def _qualification_as_text(cls, value: Any) -> Any:
        return PlayerEntry._qualification_as_text(value)  # 1 as "1", as [[player]] takes it

    @model_validator(mode="after")
    def _changes_something(self) -> Self:
        if all(getattr(self, key) is None for key in EDITED_FIELDS):
            raise ValueError(_("give at least one of {fields}: the fields that change").format(
                fields=", ".join(EDITED_FIELDS)))
        return self


class MatchEntry(Entry):
    id: Id | None = None
    date: Day
    players: list[Id] = Field(min_length=2, max_length=2)
    result: Text | None = None
    winner: Id | None = None
    length: Length = 1
    score: list[ScorePoints] | None = Field(default=None, min_length=2, max_length=2)
    chips: Chips | None = None
    discipline: Id | None = None
    tournament: Id | None = None
    rated: bool = True
    forfeit: bool = False
    note: Note | None = None
    amends: Id | None = None  # the (voided) match this one corrects; written by `nardrating amend`

    @model_validator(mode="after")
    def _one_outcome(self) -> Self:
        if (self.result is None) == (self.winner is None):
            raise ValueError(_('give either result = {results} or winner = "<player id>", not both or neither').format(
                results=_(RESULT_WORDS)))
        if self.result is not None and parse_result(self.result) is None:
            raise ValueError(_("result {result!r} is not a result; write {results}").format(
                result=self.result, results=_(RESULT_HELP)))
        return self

    def score_a(self) -> float | None:
        return first_score(self.result, self.winner, self.players)


class PlacingEntry(Entry):
    player: Id
    place: Annotated[int | str, BeforeValidator(_place_rule)]


class TournamentEntry(Entry):
    id: Id
    name: Text | None = None
    system: Literal["swiss", "round-robin", "knockout", "match"]
    start: Day
    end: Day
    discipline: Id | None = None
    official: bool = False
    standings: list[PlacingEntry] | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.end < self.start:
            raise ValueError(_("end {end} is before start {start}").format(end=self.end, start=self.start))
        return self


class VoidEntry(Entry):
    match: Id
    date: Day
    reason: Note = Field(min_length=1)


class AdjustEntry(Entry):
    date: Day
    player: Id
    rating: Text | None = None
    discipline: Id | None = None
    set: SetTo | None = None
    delta: Delta | None = None
    reason: Note = ""
    # Engine-specific state carried over from an imported list; each engine says which it takes
    # (Engine.adjust_fields): fide's K and rated games so far, glicko's deviation and volatility.
    k: Literal[10, 20, 40] | None = None
    games: Games | None = None
    rd: float | None = Field(default=None, gt=0, le=1000, allow_inf_nan=False)
    volatility: float | None = Field(default=None, gt=0, le=10, allow_inf_nan=False)

    @model_validator(mode="after")
    def _set_or_delta(self) -> Self:
        if (self.set is None) == (self.delta is None):
            raise ValueError(_("give either set = <rating> or delta = <change>, not both or neither"))
        return self


class _IdentityEntry(Entry):
    player: Id
    date: Day

    @model_validator(mode="after")
    def _differs(self) -> Self:
        key = "to" if "to" in type(self).model_fields else "into"
        if getattr(self, key) == self.player:
            raise ValueError(_("{key} {player!r} is the same id as player").format(key=key, player=self.player))
        return self


class RenameEntry(_IdentityEntry):
    """A player's id changes, in every entry before and after: `player` becomes `to`."""
    to: Id


class MergeEntry(_IdentityEntry):
    """`player` was the same person as `into`: every entry of `player` becomes `into`'s."""
    into: Id


class ListEntry(Entry):  # a list `nardrating freeze-list` published: its file, that file's SHA-256, the day
    file: Text = Field(min_length=1)
    sha256: str = Field(pattern="^[0-9a-f]{64}$")
    date: Day


Loc = tuple[int | str, ...]   # where in an entry: ("players", 1), ("standings", 0, "place")

ENTRY_MODELS: dict[str, type[Entry]] = {
    "player": PlayerEntry,
    "match": MatchEntry,
    "tournament": TournamentEntry,
    "void": VoidEntry,
    "adjust": AdjustEntry,
    "rename": RenameEntry,
    "merge": MergeEntry,
    "list": ListEntry,
    "edit-player": EditPlayerEntry,
}


def loc_text(loc: Loc) -> str:
    """("players", 1) → "players[1]"; ("standings", 0, "place") → "standings[0].place"."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def entry_errors(exc: ValidationError, kind: str) -> list[tuple[Loc, str]]:
    """Each error of one entry as (where, what is wrong and what would be right), in plain words.

    `where` is the field's location (empty for the entry as a whole); the message says
    the rest without pydantic's wording.
    """
    allowed = ", ".join(ENTRY_MODELS[kind].model_fields)
    found: list[tuple[Loc, str]] = []
    seen: set[Loc] = set()
    for err in exc.errors():
        loc = err["loc"]
        if loc in seen:
            continue
        seen.add(loc)
        field = next((part for part in reversed(loc) if isinstance(part, str) and part in RULES), None)
        given = shown(err.get("input"))
        if err["type"] == "extra_forbidden":
            from ..errors import did_you_mean

            hint = did_you_mean(str(loc[0]), ENTRY_MODELS[kind].model_fields) if len(loc) == 1 else ""
            found.append(((), _("[[{kind}]] has an unknown key {key!r}{hint}; allowed keys: {allowed}").format(
                kind=kind, key=loc_text(loc), hint=hint, allowed=allowed)))
        elif err["type"] == "missing":
            found.append(((), _("[[{kind}]] needs {key!r}").format(kind=kind, key=loc_text(loc))))
        elif err["type"] == "value_error":
            found.append((loc, err["msg"].removeprefix("Value error, ")))
        elif err["type"] == "literal_error":
            # pydantic's list of the values, "'MS', 'KMS', '1', '2' or '3'", its "or" in the language's word
            expected = f" {_('or')} ".join(str(err["ctx"]["expected"]).rsplit(" or ", 1))
            found.append((loc, _("{value} is not one of {allowed}").format(value=given, allowed=expected)))
        elif field is not None:
            found.append((loc, _not_rule(given, RULES[field])))
        else:
            # pydantic's own words (its message is English: pydantic has no catalogue)
            found.append((loc, _("{message} (got {value})").format(message=err["msg"], value=given)))
    return found
