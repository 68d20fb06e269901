"""The interface every rating engine implements.

An engine takes a `RatingView` — one rating list's parameters and one
discipline's entries in replay order — and returns a `RatingResult`:
standings, each player's history, and (for period engines) its own report.
Three kinds exist (see the seeds): per game (elo, fibs, chips), per
tournament (placement) and per rating period (mfsnb, fide); all fit this
shape because `run` sees the whole timeline at once.

`run` must not change the view or the journal: it builds new state.
"""
from __future__ import annotations

from datetime import date
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeAlias, cast

from ..datarecords import datarecord, field
from ..errors import Problem
from ..i18n import _

if TYPE_CHECKING:
    from ..contract.view import CheckView, RatingView
    from ..contract.events import MatchPlayed

# An engine's parameters: its pydantic model (engines/params.py), or the same values read from the
# cache (replay/configcache.py); an engine reads them by attribute.
EngineParams: TypeAlias = Any


class LazyParams:
    """An engine's `Params`, a model in engines/params.py (or in `module`), imported when first asked
    for: the engine's module does not build the pydantic models a command reading its config from
    the cache never needs."""

    def __init__(self, name: str, module: str = "nardrating.engines.params") -> None:
        self.name, self.module = name, module

    def __get__(self, engine: object, owner: type | None = None) -> Any:
        from importlib import import_module

        return getattr(import_module(self.module), self.name)


def __getattr__(name: str) -> Any:
    """`Params`, the base of every engine's parameters (for engines written elsewhere), when asked for."""
    if name == "Params":
        from .params import Params

        return Params
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@datarecord(slots=True)
class Standing:
    """One player on a list's leaderboard: rating (None: unrated), games, status, last game's date, extras."""

    player: str
    rating: float | None
    games: int
    status: str
    last_played: date | None
    extra: dict[str, Any] = field(default_factory=dict)


@datarecord(slots=True)
class HistoryEvent:
    """One line of a player's history (a match, an adjustment, a decay…): rating before, change, after."""

    date: date
    entry: str | None
    kind: str                    # "match", "adjust", "penalty", "decay", "tournament", "list"…
    opponent: str | None
    result: float | None         # the player's score: 1, 0.5, 0
    before: float | None
    change: float | None
    after: float | None
    rated: bool
    reason: str | None = None    # why unrated
    extra: dict[str, Any] = field(default_factory=dict)


@datarecord
class ReportRow:
    """One player's row of the report over a date range: rating before and after, games, points, E, change."""

    player: str
    before: float | None
    games: int
    points: float
    expected: float | None
    change: float | None
    after: float | None
    status: str
    extra: dict[str, Any] = field(default_factory=dict)


@datarecord
class RatingResult:
    """What an engine's run returns: one rating list's standings and each player's history in one discipline,
    and how the leaderboard shows them."""

    rating: str
    discipline: str
    engine: str
    standings: dict[str, Standing]
    events: dict[str, list[HistoryEvent]] = field(default_factory=dict)
    hidden_statuses: frozenset[str] = frozenset()   # not on the leaderboard unless --all
    columns: tuple[tuple[str, str], ...] = ()         # extra leaderboard columns: (key in Standing.extra, title)
    sections: tuple[tuple[str, str], ...] = ()        # (status, title): statuses listed in a section of their own
    as_of: date | None = None
    state: Any = None   # what a resumable engine's replay reached, for the cache (or: Engine.cached_state)

    # Capabilities a result declares; the CLI asks these, never hasattr.
    has_daily: ClassVar[bool] = False   # `daily(day)`: a one-day view (chips, seed 001)
    # Published lists a period engine keeps as `lists`: "periods", a method giving [(period, rows)]
    # (mfsnb); "records", a dict player → list records with `list_date` and `events` (fide).
    list_kind: ClassVar[str] = "none"

    def history(self, player: str) -> list[HistoryEvent]:
        return self.events.get(player, [])

    def event_of(self, player: str, entry: str) -> HistoryEvent | None:
        """The player's event of match `entry` (as their history has it), or None."""
        return next((e for e in self.history(player) if e.entry == entry), None)

    def report(self, start: date, end: date) -> list[ReportRow] | None:
        """Engine-specific report rows, or None for the generic one built from history."""
        return None

    def period_events(self, start: date, end: date) -> Iterator[tuple[str, list[HistoryEvent], HistoryEvent | None]] | None:
        """(player, their events dated start..end in history's order, their last event before start
        with a rating after) for every player with an event in the period, made without every
        history in full; None: the report reads the histories."""
        return None

    def period_rows(self, start: date, end: date, statuses: Mapping[str, str]) -> list[ReportRow] | None:
        """The generic report's rows over start..end worked out from the replay's numbers, the very
        values and sums reports.period.generic_report_rows takes from the events; None: it reads the events."""
        return None

    def statuses_at(self, day: date) -> dict[str, str] | None:
        """Each player's status in the list as of `day` (a replay up to it would give them), read
        from this whole replay: of every player the list had by then (later ones may be listed too:
        no report row asks for them). None where only a replay as of `day` can tell."""
        return None

    def will_explain(self, events: list[tuple[str, "HistoryEvent"]]) -> None:
        """Told before these (player, event) are explained: a result that replays again to explain
        (Glicko's periods) keeps only what they need."""

    def daily(self, day: date) -> "RatingResult":
        """The one-day view of `day`; only where `has_daily`."""
        raise NotImplementedError(f"the {self.engine} engine has no daily view")


def not_rated(reason: str | None) -> str:
    """The rule of an unrated match's step: why, in the current language (the reason stays English data)."""
    from ..i18n.terms import reason_text

    return _("not rated: {reason}").format(reason=reason_text(reason) if reason is not None else reason)


def step(rule: str, formula: str, value: float | None) -> dict[str, Any]:
    """One step of an explanation: the rule or seed paragraph, the arithmetic written out, its value."""
    return {"rule": rule, "formula": formula, "value": value}


class Explained(NamedTuple):
    """What `explain` shows of one player's history event: every input, and the steps whose
    last value is the event's `change` exactly."""

    inputs: dict[str, Any]
    steps: list[dict[str, Any]]


class Engine:
    """A rating engine. Subclasses set the class attributes and implement `run`.

    Capabilities are declared here, not discovered: an engine that can resume
    a replay from saved state sets `resumable` and implements `resume`,
    `finish`, `pack_state` and `unpack_state`; the ledger asks `can_resume`.
    One whose state can be stored and given back for the journal exactly as it
    was replayed, but not resumed over appended matches, sets `cacheable` and
    implements `finish`, `pack_state` and `unpack_state`; the ledger asks `can_cache`.
    """

    name: ClassVar[str]
    Params: ClassVar[Any]   # its parameters' pydantic model (a class, or a LazyParams naming one)
    # The class the config cache gives the checked parameters back as, where the engine reads more of
    # them than their fields (properties, methods: a ParamValues subclass with them, no pydantic).
    # None: only the fields, and only for the models of engines/params.py (replay/configcache.py).
    param_values: ClassVar[type | None] = None
    version: ClassVar[str] = "1"
    title: ClassVar[str] = ""                            # one line for `init`'s config
    default_discipline: ClassVar[str] = "long-nardy"     # the discipline `init` writes
    parameter_notes: ClassVar[dict[str, str]] = {}       # `init`'s note for a parameter without a description
    # Engine-specific [[adjust]] fields this engine takes (of k, games, rd, volatility).
    adjust_fields: ClassVar[frozenset[str]] = frozenset()
    # The replay depends on the entries only, not on the date it is read, and goes on from a saved state when matches are appended.
    resumable: ClassVar[bool] = False
    # The engine reads tournament ends (TournamentEnded events, view.tournaments); an engine that
    # never does says False, and its views hold none (a club of a million tournaments is not
    # sorted and merged into the replay of a list that ignores them).
    tournament_ends: ClassVar[bool] = True
    # The engine rates a drawn match; False (fibs): its check refuses one, and the writers say so first.
    takes_draws: ClassVar[bool] = True
    # `finish` reads the date the standings are asked for even after the last entry (Glicko's deviations
    # grow with idle periods): a whole replay is finished as of that date, not as of the journal's end.
    dated_finish: ClassVar[bool] = False
    # The replay depends on the entries only; its state is stored and given back for the journal exactly as replayed (nothing since).
    cacheable: ClassVar[bool] = False
    # The replay reads [[player]] facts (view.player: a qualification, a title); False: its cached result holds over [[edit-player]]s.
    reads_player_facts: ClassVar[bool] = True

    # Decimals of a history event's "expected": a game's expected score to 4, as seed 003 prints
    # it (0.5144); a list whose tables give it in hundredths (seed 000's competition E 4.77, FIDE's
    # P_D 0.64) says 2, and its history shows it so.
    expected_decimals: ClassVar[int] = 4

    # A match's own history line is the same whatever day on or after it the list is read: it waits
    # for its list (mfsnb: rated only as its competition, when the period's list is published).
    # add-match's preview of a list the cache cannot keep then replays it as of the day the
    # leaderboard reads (or works its standings out from those kept before the match: after_match),
    # and the write keeps those standings (journal/actions/write.py).
    match_line_waits: ClassVar[bool] = False

    @classmethod
    def can_resume(cls, params: EngineParams) -> bool:
        """Whether a replay under these parameters may be cached and resumed."""
        return cls.resumable

    @classmethod
    def can_cache(cls, params: EngineParams) -> bool:
        """Whether a replay under these parameters may be cached (resumed or not)."""
        return cls.cacheable or cls.can_resume(params)

    def cached_state(self, result: RatingResult) -> Any:
        """What pack_state stores of a result (None: nothing)."""
        return result.state

    @classmethod
    def parse_params(cls, raw: dict[str, Any]) -> EngineParams:
        return cls.Params(**raw)

    @classmethod
    def check(cls, rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
        """Engine-specific journal rules (e.g. no draws under FIBS), for matches from first_match on;
        `entries` is the journal as a check sees it: its adjustments and typed lookups."""
        return []

    def run(self, view: RatingView) -> RatingResult:
        raise NotImplementedError

    def run_standings(self, view: RatingView) -> RatingResult:
        """run()'s result read for its standings and standings_state() alone (Ledger.standings_run); it may
        leave out what only history, report and explain read."""
        return self.run(view)

    # --- explain (issue: every number explained) ---------------------------------------

    # The history event kinds ("match", "tournament", "penalty", "decay", "list"…) this engine's
    # `explain_event` explains. Adjustments and unrated matches are explained here, for every engine.
    explains: ClassVar[frozenset[str]] = frozenset()

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        """The inputs and steps behind one of `player`'s history events in `result`.

        `match` is the journal's match for a "match" event (None otherwise). An engine
        overrides this for the kinds in `explains` and calls it for the rest.
        """
        if event.kind == "match" and not event.rated:
            return Explained({}, [step(not_rated(event.reason), "change = 0", 0.0)])
        if event.kind == "adjust" and event.before is not None and event.after is not None:
            return Explained({"rating": event.before, "reason": event.reason},
                             [step(_("[[adjust]] in the journal"), f"after = {event.after:g}", event.after),
                              step(_("change = after − before"), f"change = {event.after:g} − {event.before:g}",
                                   event.after - event.before)])
        raise NotImplementedError(f"the {self.name} engine does not explain {event.kind} events")

    @classmethod
    def game_constants(cls, params: EngineParams) -> dict[str, Any]:
        """Parameters behind every rated game's change that its history event does not carry
        (elo: K), for `report --details` beside each game's expected score."""
        return {}

    # --- backtest ---------------------------------------------------------------------------

    def predictions(self, params: EngineParams, result: RatingResult) -> Iterable[tuple[int, float, bool]] | None:
        """(match row, the first player's expected score before the match, both players established
        before it) of every rated match, read from the engine's own records; None: backtest reads
        them from the history events (the default: slower on a big journal, same numbers)."""
        return None

    # --- engines whose replay the cache cannot keep: their histories (replay/cachehistory.py) ---

    def kept_histories(self, result: RatingResult) -> tuple[Any, Iterable[tuple[str, list[Any]]]] | None:
        """(JSON meta, (player, their history as plain data) for every player with one), from which
        `history_from_kept` makes each player's very lines again (engines/kepthistory.py); None:
        not kept. Raises kepthistory.NotPlain for a value that would not come back as it was."""
        return None

    def history_from_kept(self, meta: Any, player: str, items: list[Any]) -> list[HistoryEvent]:
        """The player's history lines, from what `kept_histories` gave of them."""
        raise NotImplementedError

    # --- engines whose replay the cache cannot keep: their standings after one more match ---

    def standings_state(self, result: RatingResult) -> dict[str, Any] | None:
        """What the replay behind `result`'s standings reached, as plain data kept beside them
        (replay/cachestandings.py), from which `after_match` goes on; None: nothing kept."""
        return None

    def after_match(self, params: EngineParams, kept: RatingResult, state: dict[str, Any], match: MatchPlayed,
                    day: date) -> RatingResult | None:
        """The standings a replay as of `day` gives of the journal whose replay as of `kept.as_of`
        gave `kept` and left `state`, with `match` appended after every entry (and the match's lines
        in its players' histories, the state reached); None where only a replay can tell.

        Nothing of `kept` or `state` is changed in place: a standing, or a part of the state, that
        the match leaves as it was is the very object given, and one it changes is a new one. The
        write keeps the change as a patch found by identity (replay/cachestandings.py _save_delta)."""
        return None

    def preview_lines(self, result: RatingResult) -> dict[str, HistoryEvent] | None:
        """Each player's line of the appended match as a replay through its list would show it
        (add-match's preview), from the standings `after_match` gave (`result`); None: replay."""
        return None

    def kept_after_match(self, meta: Any, result: RatingResult) -> tuple[Any, dict[str, list[Any]]] | None:
        """Kept histories (`meta`, as kept_histories gave it) carried over the match whose standings
        `after_match` gave (`result`): (the meta, each of its players' items to add); None: not carried
        (the next history replays the list)."""
        return None

    def carried_items(self, meta: Any, player: str, old: list[Any], added: list[Any]) -> list[Any] | None:
        """A player's kept items (as kept_histories gave them, `old`) with what kept_after_match
        gave of the appended match (`added`), in the order a replay keeps them; None where they
        would not be that order (the next history replays the list). Default: the match's last."""
        return old + added

    # --- resumable and cacheable engines only ---------------------------------------

    def resume(self, view: RatingView, state: Any) -> RatingResult:
        """Continue the replay that reached `state` with the view's (appended) matches."""
        raise NotImplementedError

    def finish(self, view: RatingView, state: Any) -> RatingResult:
        """The result of a replay that reached `state`."""
        raise NotImplementedError

    def pack_state(self, state: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """(JSON meta, small per-player arrays, per-record arrays) for the cache."""
        raise NotImplementedError

    def unpack_state(self, meta: dict[str, Any], players: dict[str, Any], load_columns: Any) -> Any:
        """The state `pack_state` stored; columns read when first needed."""
        raise NotImplementedError


def whole_number_adjusts(rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
    """Lists that publish whole numbers (mfsnb, fide) refuse an [[adjust]] with a fraction."""
    if first_match:
        return []
    problems = []
    for a in entries.adjusts:
        if a.rating not in (None, rating.name):
            continue
        value = adjusted(a, 0.0)  # the `set`, else the `delta`
        if value != int(value):
            problems.append(Problem(a.file, a.line, _("rating list {name!r} ({engine}) keeps whole numbers; write "
                                                      "{whole} instead of {value:g}").format(
                name=rating.name, engine=rating.engine, whole=round(value), value=value)))
    return problems


def adjusted(adjust: Any, before: float) -> float:
    """The rating an [[adjust]] leaves: its `set`, else `before` + its `delta`."""
    return cast(float, adjust.set if adjust.set is not None else before + adjust.delta)


def adjust_event(adjust: Any, before: float) -> tuple[float, HistoryEvent]:
    """Apply an [[adjust]] to `before`: (after, its history event)."""
    after = adjusted(adjust, before)
    return after, HistoryEvent(adjust.date, None, "adjust", None, None, before, after - before, after,
                               True, adjust.reason)


def score_text(score: float | None) -> str:
    """A result as the tables show it: 1, ½, 0 (other scores as numbers in the language's symbols:
    a competition's 6.5 points, Russian 6,5; none as nothing)."""
    if score is None:
        return ""
    text = {1.0: "1", 0.5: "½", 0.0: "0"}.get(score)
    if text is None:
        from ..i18n.numbers import localized

        text = localized(f"{score:g}")
    return text
