"""A `[[match]]` taken without the entry model where that changes nothing: the common entry.

The entry model (entries.py, pydantic) is the one check of every entry; loading pydantic's model
machinery and building the match's schema costs about 0.1 s, most of an `add-match`. A match whose
every value is already exactly what the model would make of it (ids by the id rule and with no
space around them, a date in range, two players, a result or a winner, whole numbers in their
ranges, true or false, a note without control characters) is taken here as the model would take
it. Anything else (a value the model would convert, strip or refuse, chips, a tournament round, a
key it does not know) is not taken here: `plain_match` gives None and the caller asks the model,
whose words a refusal keeps. tests/test_plainmatch.py holds this to the model on random entries,
and the TOML reader's whole journal to the one it reads with the model alone.
"""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, TypeGuard

from ..datarecords import datarecord
from .limits import FIRST_DAY, LAST_DAY, MAX_LENGTH, MAX_NOTE, MAX_SCORE, MAX_TEXT, first_score, parse_result
from .plainadjust import PlainAdjust, plain_adjust
from .textrules import plain_id, plain_text

if TYPE_CHECKING:
    from .entries import Entry, MatchEntry

# The [[match]] model's fields in its order (what model_dump gives: RoundMatchEntry's), with their defaults.
DEFAULTS: dict[str, Any] = {"id": None, "date": None, "players": None, "result": None, "winner": None, "length": 1,
                            "score": None, "chips": None, "discipline": None, "tournament": None, "rated": True,
                            "forfeit": False, "note": None, "amends": None, "round": None}
# Not taken here: chips (a number the model converts) and a tournament round (RoundMatchEntry's).
_TAKEN = frozenset(DEFAULTS) - {"chips", "round"}
_IDS = ("id", "winner", "discipline", "tournament", "amends")


@datarecord(frozen=True, slots=True)
class PlainMatch:
    """A [[match]] as MatchEntry holds it (the same fields, values and defaults), made without it."""

    date: date
    players: list[str]
    id: str | None = None
    result: str | None = None
    winner: str | None = None
    length: int = 1
    score: list[int] | None = None
    chips: float | None = None
    discipline: str | None = None
    tournament: str | None = None
    rated: bool = True
    forfeit: bool = False
    note: str | None = None
    amends: str | None = None
    round: int | None = None   # (a tournament round: the model's)

    def score_a(self) -> float | None:
        """As MatchEntry.score_a: from the result, else 1 or 0 by the winner (None: not a player)."""
        return first_score(self.result, self.winner, self.players)

    def model_dump(self, exclude_defaults: bool = False) -> dict[str, Any]:
        """As MatchEntry.model_dump: the fields in the model's order (with exclude_defaults, those set)."""
        values = {key: getattr(self, key) for key in DEFAULTS}
        if exclude_defaults:
            return {key: value for key, value in values.items() if value != DEFAULTS[key] or key in ("date", "players")}
        return values


def plain_match(raw: dict[str, Any]) -> PlainMatch | None:
    """The [[match]] of these fields, where the model would take them exactly as they are; else None."""
    if not raw.keys() <= _TAKEN:
        return None
    day, players = raw.get("date"), raw.get("players")
    if type(day) is not date or not FIRST_DAY <= day <= LAST_DAY:
        return None
    if type(players) is not list or len(players) != 2 or not (plain_id(players[0]) and plain_id(players[1])):
        return None
    if not all(raw.get(key) is None or plain_id(raw[key]) for key in _IDS):
        return None
    result, winner = raw.get("result"), raw.get("winner")
    if (result is None) == (winner is None):
        return None
    if result is not None and not (plain_text(result, MAX_TEXT) and parse_result(result) is not None):
        return None
    length, score = raw.get("length", 1), raw.get("score")
    if type(length) is not int or not 1 <= length <= MAX_LENGTH:
        return None
    if score is not None and not (type(score) is list and len(score) == 2
                                  and all(type(x) is int and 0 <= x <= MAX_SCORE for x in score)):
        return None
    rated, forfeit, note = raw.get("rated", True), raw.get("forfeit", False), raw.get("note")
    if type(rated) is not bool or type(forfeit) is not bool or note is not None and not plain_text(note, MAX_NOTE, True):
        return None
    return PlainMatch(day, list(players), raw.get("id"), result, winner, length,
                      None if score is None else list(score), None, raw.get("discipline"), raw.get("tournament"),
                      rated, forfeit, note, raw.get("amends"))


def entry_of(kind: str, raw: dict[str, Any]) -> Entry | PlainMatch | PlainAdjust:
    """The entry of a table as the journal's reader and the writers take it: a plain [[match]] or
    [[adjust]] where it is one (plainadjust.py), else by the kind's model (raising its ValidationError)."""
    plain = plain_match(raw) if kind == "match" else plain_adjust(raw) if kind == "adjust" else None
    if plain is not None:
        return plain
    from . import playentries  # noqa: F401 - registers [[round]], [[join]], [[withdraw]] in ENTRY_MODELS
    from .entries import ENTRY_MODELS

    return ENTRY_MODELS[kind](**raw)


def is_match(entry: Entry | PlainMatch | PlainAdjust) -> TypeGuard[MatchEntry | PlainMatch]:
    """Whether an entry is a [[match]], plain or the model's (loaded already if the entry is one)."""
    if isinstance(entry, (PlainMatch, PlainAdjust)):
        return isinstance(entry, PlainMatch)
    from .entries import MatchEntry

    return isinstance(entry, MatchEntry)
