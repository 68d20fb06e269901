"""What add-match shows of a fide match entered after every entry, without a replay: the change
the match will have on the list it waits for.

A rated player's side of a single match against a rated opponent is one line on that list:
K × (S − P_D), from the rating both had on the game's day (table b's P_D, §8.3.1's cap under
FIDE's rulesets), with the K the list gives the player (§8.3.3: games so far, an imported K, 2400
reached, and under FIDE's rulesets the 700 over the list's games). Where the list the match waits
for is the next one, nothing is published before it, so the ratings are those in force now, and
the player's state on that list is the state now with the games that wait for it. So a replay as
of the leaderboard's day keeps (`state_of`, beside the standings: replay/cachestandings.py) each
rated player's state, how many single matches against rated players wait for the next list, and
whether anything else waits (a tournament, an unrated side, a game before the list in force);
`counted` adds the new match; `lines` makes its players' lines as the list will (records.py
RatedSingle). Anything else is left to a replay: an adjustment since the list in force, a match
that waits for a later list, a player with anything else waiting, an unrated side
(tests/test_appended_standings.py compares what add-match prints with replays on random journals).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ..base import HistoryEvent
from ..tables import expected_percent
from .records import Event, ListRating, PlayerState, RatedSingle, SingleMatch
from .rules import KState, k_and_rule, list_in_force, list_on_or_after, reaches_list
from .tables import expected_hundredths
from .values import FideRules

if TYPE_CHECKING:
    from ...contract.events import MatchPlayed

# Each rated player's state, and what waits for the next list (one column each, in `players` order).
COLUMNS = ("rating", "games", "established", "listed_k", "listed_games", "reached_top", "singles", "other")
_TYPES: dict[str, set[type]] = {"rating": {int}, "games": {int}, "established": {bool}, "listed_k": {int, type(None)},
                                "listed_games": {int, type(None)}, "reached_top": {bool}, "singles": {int},
                                "other": {bool}}


def state_of(params: FideRules, states: Mapping[str, PlayerState], waiting: Iterable[Event],
             last_adjust: date | None, as_of: date) -> dict[str, Any]:
    """The state kept beside the standings as of `as_of`: the rated players' states, and the events
    that wait for a later list (`waiting`) counted per player; `last_adjust`: the day of the list's
    last adjustment up to then."""
    in_force = list_in_force(as_of, params.list_every)
    players = [player for player, s in states.items() if s.rating is not None]
    at = {player: k for k, player in enumerate(players)}
    singles, other = [0] * len(players), [False] * len(players)
    for event in waiting:
        if type(event) is SingleMatch and event.end >= in_force and event.a in at and event.b in at:
            singles[at[event.a]] += 1
            singles[at[event.b]] += 1
            continue
        for game in event.games:
            for player in (game.a, game.b):
                k = at.get(player)
                if k is not None:
                    other[k] = True
    rated = [states[player] for player in players]
    columns: dict[str, list[Any]] = {name: [getattr(s, name) for s in rated] for name in COLUMNS[:6]}
    columns.update(singles=singles, other=other)
    return {"in_force": in_force.toordinal(), "adjusted": last_adjust is not None and last_adjust > in_force,
            "players": players, "columns": columns}


def counted(state: Any, match: MatchPlayed) -> dict[str, Any] | None:
    """The state with `match` (entered after every entry, waiting for its list) among what waits;
    None for a state that is not one state_of made (the next match is left to a replay)."""
    if not _valid(state):
        return None
    players, columns = state["players"], state["columns"]
    if match.reason is not None:
        return dict(state)   # (a match not rated waits for nothing)
    a, b = _at(players, match.a), _at(players, match.b)
    singles, other = list(columns["singles"]), list(columns["other"])
    if a is not None and b is not None:
        singles[a] += 1
        singles[b] += 1
    for k in (a, b):
        if k is not None and (a is None or b is None):
            other[k] = True   # (against an unrated player)
    return {**state, "columns": {**columns, "singles": singles, "other": other}}


def lines(params: FideRules, state: dict[str, Any], match: MatchPlayed, day: date) -> dict[str, HistoryEvent] | None:
    """Each player's line of `match` on the list it waits for, as that list will make it (the state
    counted with it: `counted`); None where only a replay can tell."""
    if match.reason is not None or state["adjusted"] or state["in_force"] != list_in_force(day, params.list_every).toordinal():
        return None
    waits_for = reaches_list(match.date, False, params)
    if waits_for != list_on_or_after(day + timedelta(days=1), params.list_every):
        return None   # (a list published before it: the ratings and states would change)
    players, columns = state["players"], state["columns"]
    a, b = _at(players, match.a), _at(players, match.b)
    if a is None or b is None or columns["other"][a] or columns["other"][b]:
        return None
    half = round(2 * match.score_a)
    own_a, own_b = columns["rating"][a], columns["rating"][b]
    if params.fide:
        p_d_a = expected_hundredths(own_a, own_b, params.cap_for(own_a, match.date))
        p_d_b = expected_hundredths(own_b, own_a, params.cap_for(own_b, match.date))
    else:   # seed 002: D as it is; b's P_D 100 − a's (the table is symmetric)
        p_d_a = expected_percent(own_a - own_b)
        p_d_b = 100 - p_d_a
    found = {}
    for player, k, opponent, own, opp, own_half, p_d in ((match.a, a, match.b, own_a, own_b, half, p_d_a),
                                                         (match.b, b, match.a, own_b, own_a, 2 - half, p_d_b)):
        # The side as the list rates it (lists.py one_game): its line is the list's own.
        listed = ListRating(waits_for)
        listed.k, listed.k_rule = k_and_rule(params, KState(
            columns["games"][k], columns["established"][k], columns["listed_k"][k], columns["listed_games"][k],
            columns["reached_top"][k], own), columns["singles"][k])
        listed.fide, listed.rated_from, listed.gains = params.fide, 100 * own, [50 * own_half - p_d]
        side = RatedSingle(match.entry, match.date, opponent, own_half, own, opp, p_d, None, listed, 0)
        found[player] = next(side.lines())   # (its game's line; the event's on the list follows)
    return found


def _at(players: list[str], player: str) -> int | None:
    """The player's place among the state's players (a scan in C: 10,000 of them, two looked for)."""
    try:
        return players.index(player)
    except ValueError:
        return None


def _valid(state: Any) -> bool:
    """A state as state_of makes them: its keys, and each column of its players' count and types."""
    if type(state) is not dict or set(state) != {"in_force", "adjusted", "players", "columns"}:
        return False
    players, columns = state["players"], state["columns"]
    if type(state["in_force"]) is not int or type(state["adjusted"]) is not bool or type(players) is not list \
            or not set(map(type, players)) <= {str} or len(set(players)) != len(players) or type(columns) is not dict or set(columns) != set(COLUMNS):
        return False
    return all(type(values) is list and len(values) == len(players) and set(map(type, values)) <= _TYPES[name]
               for name, values in columns.items())
