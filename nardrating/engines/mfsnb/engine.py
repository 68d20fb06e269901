"""The mfsnb engine: the class the registry names; its replay (replay.py), explanations and kept
histories are imported when used (a leaderboard from the kept standings needs none of them)."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import Problem
from ...i18n import _
from ..base import (Engine, EngineParams, Explained, HistoryEvent, LazyParams, RatingResult, not_rated, step,
                    whole_number_adjusts)
from .values import MfsnbRules, MfsnbValues

if TYPE_CHECKING:
    from ...contract.events import MatchPlayed
    from ...contract.view import CheckView, RatingView
    from .result import MfsnbResult


class MfsnbEngine(Engine):
    name = "mfsnb"
    title = "the 2009 nardy federation's period lists, R = 10·(P − E) (seed 000)"
    Params = LazyParams("MfsnbParams", "nardrating.engines.mfsnb.params")
    param_values = MfsnbValues
    explains: ClassVar[frozenset[str]] = frozenset({"competition", "list", "adjust", "match"})
    expected_decimals = 2   # a competition's E, as the seed's example prints it (4.77)
    match_line_waits = True   # a match counts through its competition, on the period's list

    @classmethod
    def check(cls, rating: Any, entries: CheckView, first_match: int = 0) -> list[Problem]:
        return whole_number_adjusts(rating, entries, first_match)

    def run(self, view: RatingView) -> MfsnbResult:
        from .replay import replay

        return replay(view, self.name)

    def run_standings(self, view: RatingView) -> MfsnbResult:
        from .replay import replay

        return replay(view, self.name, lines=False)   # (recalc's: the competitions' records cost a fifth of it)

    def kept_histories(self, result: RatingResult) -> tuple[Any, Any] | None:
        from .kept import kept_histories
        from .result import MfsnbResult

        return kept_histories(result.book) if isinstance(result, MfsnbResult) else None

    def history_from_kept(self, meta: Any, player: str, items: list[Any]) -> list[HistoryEvent]:
        from .kept import history_from_kept

        return history_from_kept(meta, player, items)

    def kept_after_match(self, meta: Any, result: RatingResult) -> tuple[Any, dict[str, list[Any]]] | None:
        from ..lines import HistoryOnRead
        from .kept import items_after_match

        # (after_match's result: its events the new match's items, made into lines when read)
        return items_after_match(meta, result.events.kept) if isinstance(result.events, HistoryOnRead) else None

    def standings_state(self, result: RatingResult) -> dict[str, Any] | None:
        from .result import MfsnbResult

        if isinstance(result, MfsnbResult):
            from .appended import builder_state

            return builder_state(result.book) if result.as_of is not None else None
        # (standings after an appended match: appended.after_match's result keeps the state it reached)
        return result.state if result.engine == self.name and type(result.state) is dict else None

    def after_match(self, params: EngineParams, kept: RatingResult, state: dict[str, Any], match: MatchPlayed,
                    day: date) -> RatingResult | None:
        from .appended import after_match

        assert isinstance(params, MfsnbRules)
        return after_match(params, kept, state, match, day)

    def explain_event(self, params: EngineParams, result: RatingResult, player: str, event: HistoryEvent,
                      match: MatchPlayed | None) -> Explained:
        from .explain import explain_competition, explain_list
        from .result import MfsnbResult

        assert isinstance(params, MfsnbRules) and isinstance(result, MfsnbResult)
        if event.kind == "competition":
            return explain_competition(params, result, player, event)
        if event.kind == "list":
            return explain_list(params, result, player, event)
        if event.kind == "match":
            # A match moves no rating by itself: its competition does (or nothing, with the reason).
            counted = (event.reason or "").startswith(("counted in", "a competition of its own", "counts when"))
            from ...i18n.terms import reason_text

            return Explained({"opponent": event.opponent, "score": event.result}, [step(
                _("seed 000: R is computed per competition, a tournament or a single match") if counted
                else not_rated(event.reason), reason_text(event.reason or ""), None)])
        if event.kind == "adjust" and event.before is None:
            # A first [[adjust]]: the player enters the list with it; nothing to change from.
            return Explained({"reason": event.reason}, [
                {"rule": _("[[adjust]]: a player enters the list at the rating the commission sets"),
                 "formula": _("after = {after}; not on the list before: no change").format(after=event.after),
                 "value": None}])
        return super().explain_event(params, result, player, event, match)


