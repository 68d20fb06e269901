"""The fide engine: the class the registry names, its parameter notes and its explain capability; its
replay, report and explanations are imported when used (a leaderboard from the kept standings needs none)."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import Problem
from ..base import Engine, EngineParams, Explained, HistoryEvent, LazyParams, RatingResult, whole_number_adjusts
from .values import FideRules, FideValues

if TYPE_CHECKING:
    from ...contract.events import MatchPlayed
    from ...contract.view import CheckView, RatingView
    from .report import FideResult


class FideEngine(Engine):
    name = "fide"
    title = "FIDE-style rating lists (seed 002)"
    default_discipline = "chess"
    expected_decimals = 2   # P_D from table (b), in hundredths (0.64), and an event's sum of them
    # One-line notes for parameters without a description (from docs/fide.md).
    parameter_notes = {
        "ruleset": '"seed" (seed 002) or "fide-2024"',
        "list_every": "lists dated the first day of every month, quarter, half or year",
        "k": "K, whole 1–1000 (default 20); refused with fide-2024",
        "min_rating": "the floor (default 1000; fide-2024: 1400)",
        "first_rating_games": "games a first rating needs (default 9; fide-2024: 5)",
        "closing_days": "an event ending at least this many days before a list date reaches it",
        "official_closing_days": "the same for official = true",
        "pool_months": "an unrated player's pool spans at most this many months of rating periods",
        "inactive_months": "inactive after this many months without a rated game",
    }
    Params = LazyParams("FideParams", "nardrating.engines.fide.params")
    param_values = FideValues
    version = "2"                   # 2: fide-2024 to the letter of the 2024 text, fide-2025
    adjust_fields = frozenset({"k", "games"})
    explains: ClassVar[frozenset[str]] = frozenset({"match", "tournament", "list", "adjust"})

    @classmethod
    def check(cls, rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
        return whole_number_adjusts(rating, entries, first_match)

    def run(self, view: RatingView) -> FideResult:
        from .replay import FideReplay   # (imported when replayed: a leaderboard from the kept standings is not)

        return FideReplay(view, self.name).run()

    def run_standings(self, view: RatingView) -> FideResult:
        from .replay import FideReplay

        return FideReplay(view, self.name, lines=False).run()   # (recalc's: the sides' records cost a fifth of it)

    def kept_histories(self, result: RatingResult) -> tuple[Any, Any] | None:
        from .kept import kept_histories
        from .report import FideResult

        return kept_histories(result) if isinstance(result, FideResult) else None

    def history_from_kept(self, meta: Any, player: str, items: list[Any]) -> list[HistoryEvent]:
        from .kept import history_from_kept

        return history_from_kept(meta, player, items)

    def standings_state(self, result: RatingResult) -> dict[str, Any] | None:
        # What an appended match's preview goes on from (preview.py); the standings are the rest.
        if result.as_of is None or result.engine != self.name:
            return None
        return result.state if type(result.state) is dict else {}

    def after_match(self, params: EngineParams, kept: RatingResult, state: dict[str, Any], match: MatchPlayed,
                    day: date) -> RatingResult | None:
        from .appended import after_match

        assert isinstance(params, FideRules)
        return after_match(params, kept, state, match, day)

    def preview_lines(self, result: RatingResult) -> dict[str, HistoryEvent] | None:
        from .appended import Appended

        return result.preview if isinstance(result, Appended) else None

    def kept_after_match(self, meta: Any, result: RatingResult) -> tuple[Any, dict[str, list[Any]]] | None:
        from ..lines import HistoryOnRead
        from .kept import event_items

        if not isinstance(result.events, HistoryOnRead) or not result.events.kept:
            return None   # (an excluded match: not carried)
        return meta, {player: event_items(lines) for player, lines in result.events.kept.items()}

    def carried_items(self, meta: Any, player: str, old: list[Any], added: list[Any]) -> list[Any] | None:
        from .appended import carried_items

        return carried_items(meta, player, old, added)

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        from .explain import explain_adjust, explain_list, explain_match, explain_tournament
        from .report import FideResult

        assert isinstance(params, FideRules) and isinstance(result, FideResult)
        if event.kind == "match":
            return explain_match(params, result, player, event)
        if event.kind == "tournament":
            return explain_tournament(params, result, player, event)
        if event.kind == "list":
            return explain_list(params, result, player, event)
        if event.kind == "adjust" and (event.before is None or event.after is None):
            return explain_adjust(event)
        return super().explain_event(params, result, player, event, match)
