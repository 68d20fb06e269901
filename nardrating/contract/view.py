"""What an engine may ask of the replay: one rating list's view of one discipline (`RatingView`),
and the whole journal as an engine's `check` sees it (`CheckView`).

These are protocols: replay/view.py implements them over the journal's storage, and an engine
sees nothing else of it (tests/test_period_engines_events.py parses every engine module).
"""
from __future__ import annotations

from array import array
from collections.abc import Callable, Container, Iterator, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from .batches import MatchBatch, MatchColumns
from .events import Adjust, Adjusted, DrawnMatch, Event, Player, Tournament, TournamentEnded

if TYPE_CHECKING:
    from ..config import RatingList


class RatingView(Protocol):
    """One rating list and one discipline, up to `as_of`, in replay order (date, then journal order)."""

    @property
    def rating(self) -> RatingList: ...          # the list: its name, engine and parameters
    @property
    def discipline(self) -> str: ...
    @property
    def as_of(self) -> date | None: ...
    @property
    def adjusts(self) -> list[Adjust]: ...       # this list's and discipline's, in replay order
    @property
    def tournaments(self) -> list[Tournament]: ...  # of this discipline that ended by as_of, by end
    @property
    def params(self) -> Any: ...                 # the list's engine parameters (its Params model)

    def events(self, pair_limit: int = 0, unit: str = "games") -> Iterator[Event]:
        """Matches (each with why it is not rated, if it is not), adjustments and tournament ends."""
        ...

    def player(self, player: str) -> Player | None:
        """The [[player]] entry's facts (qualification, title, joined…), None for a player without one."""
        ...

    def tournament(self, tournament: str) -> Tournament:
        """The [[tournament]] a match names, also one that has not ended by `as_of`."""
        ...

    @property
    def players(self) -> Sequence[str]: ...      # player ids by code: what batches' codes refer to

    def player_code(self, player: str) -> int: ...

    @property
    def tournament_ids(self) -> Sequence[str]: ...  # tournament ids by code: what batches' `tournament` refers to

    def batched_events(self) -> Iterator[Adjusted | MatchBatch]:
        """events() for per-match engines: adjustments, and the runs of matches between them as columns."""
        ...

    def batched_events_with_ends(self) -> Iterator[Adjusted | TournamentEnded | MatchBatch]:
        """batched_events() with tournament ends too, where events() has them (after every entry of their last day)."""
        ...

    @property
    def match_columns(self) -> Callable[[], MatchColumns]:
        """What a per-match result builds history from, called when history is first asked for."""
        ...

    def player_columns(self, rows: Sequence[int]) -> tuple[array[int], array[int]]:
        """Player a's and b's codes of these rows."""
        ...

    def match_reasons(self) -> tuple[Container[int], Callable[[int], str | None], Sequence[int]]:
        """Of every match of the journal, as a result reads them when history is asked for (the
        view may hold none of them: a state from the cache): the rows no list rates, why each of
        those is excluded, and each row's tournament code (`tournament_ids`; -1 for none)."""
        ...

    def latest_entry(self, tournaments: bool) -> date | None:
        """The date of the view's last match or adjustment (and tournament end, if asked)."""
        ...

    def whole(self) -> RatingView:
        """The view of every entry of the list and discipline (a resumed replay's view holds only
        the matches it goes on with): what a result given back by the cache replays for explain."""
        ...


class CheckView(Protocol):
    """The whole journal as an engine's `check` sees it: its adjustments and the drawn matches."""

    @property
    def adjusts(self) -> list[Adjust]: ...

    def draws(self, first_match: int = 0) -> Iterator[DrawnMatch]:
        """The matches scored ½-½ and not voided, from row `first_match` on."""
        ...
