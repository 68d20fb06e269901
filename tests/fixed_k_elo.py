"""An engine written as the manual's "Writing an engine" shows: Elo with one fixed K, no extras."""
from pydantic import Field

from nardrating.engines.base import Engine, HistoryEvent, Params, RatingResult, Standing
from nardrating.contract.events import MatchPlayed


class FixedKParams(Params):
    start: float = Field(1000, description="every new player's rating")
    k: float = Field(32, gt=0, description="K of new = old + K·(S − E)")


class FixedKElo(Engine):
    name = "fixed-k"
    Params = FixedKParams
    title = "Elo with one K"

    def run(self, view) -> RatingResult:
        p = view.params
        ratings: dict[str, float] = {}
        history: dict[str, list[HistoryEvent]] = {}
        for event in view.events():
            if not isinstance(event, MatchPlayed):
                continue  # this engine ignores [[adjust]] and tournament ends
            sides = ((event.a, event.b, event.score_a), (event.b, event.a, 1 - event.score_a))
            before = {player: ratings.get(player, p.start) for player, _, _ in sides}
            for player, opponent, score in sides:
                old = before[player]
                new = old
                if event.reason is None:
                    expected = 1 / (1 + 10 ** ((before[opponent] - old) / 400))
                    new = old + p.k * (score - expected)
                ratings[player] = new
                history.setdefault(player, []).append(HistoryEvent(
                    event.date, event.entry, "match", opponent, score, old, new - old, new,
                    event.reason is None, event.reason))
        standings = {player: Standing(player, ratings[player], sum(e.rated for e in events), "rated",
                                      max((e.date for e in events if e.rated), default=None))
                     for player, events in history.items()}
        return RatingResult(view.rating.name, view.discipline, self.name, standings, history,
                            as_of=view.as_of)
