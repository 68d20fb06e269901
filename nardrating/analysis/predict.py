"""Predict one match under a list's engine: A's expected score and each player's change per outcome.

The changes come from each engine's own update arithmetic, applied to the
players' state on the as-of date (elo's `update`, a one-game period of the
Glicko engines, mfsnb's `compute` of a single match); fibs's formula is
written out as its manual page states it (docs/nardy-engines.md). Engines whose ratings do not
move match by match say why (ActionRefused).
"""
from __future__ import annotations

import math
from datetime import date
from typing import Any

from ..datarecords import datarecord, field
from ..errors import ActionRefused
from ..i18n import N_, _, ngettext
from ..i18n.numbers import localized
from ..reports import AsOf, Column, Table, heading

NO_SINGLE_MATCH = {   # translated where shown
    "placement": N_("the placement engine rates places in tournaments (10·log2(N)/M); a match moves no placement "
                    "rating, so there is no match to predict"),
    "chips": N_("the chips engine adds and subtracts chips won and lost; it has no expected score and the change "
                "is the match's chips, not a function of the ratings"),
    "mfsnb-official": N_("this mfsnb list counts official tournaments only (official_only = true): a single "
                         "match moves no rating"),
}


Outcomes = dict[str, tuple[float, float] | None]


@datarecord
class Prediction:
    """One match predicted under a list's engine: A's expected score, each player's rating and the engine's
    quantities, the changes per outcome (None: no such outcome, or none known yet) and the formula."""

    expected: float                          # A's expected score (a draw counts ½)
    details: tuple[dict[str, Any], dict[str, Any]]   # per player: rating and the engine's own quantities (K, boost, RD…)
    outcomes: Outcomes = field(default_factory=dict)  # a_wins, b_wins, draw → (A, B)
    note: str = ""


def _rating(result: Any, player: str, default: float) -> float:
    standing = result.standings.get(player)
    return default if standing is None or standing.rating is None else standing.rating


def _elo(result: Any, params: Any, a: str, b: str, length: int) -> Prediction:
    from ..engines.elo import update

    ra, rb = _rating(result, a, params.start), _rating(result, b, params.start)
    outcomes: Outcomes = {}
    for key, score in (("a_wins", 1.0), ("b_wins", 0.0), ("draw", 0.5)):
        new_a, new_b, e_a = update(ra, rb, score, params.k)
        outcomes[key] = (new_a - ra, new_b - rb)
    return Prediction(e_a, ({"rating": ra, "k": params.k}, {"rating": rb, "k": params.k}), outcomes,
                      _("E = 1/(1 + 10^((R(B) − R(A))/400)); change = K·(S − E); the match length does not count"))


def _fibs(result: Any, params: Any, a: str, b: str, length: int) -> Prediction:
    details = []
    for player in (a, b):
        standing = result.standings.get(player)
        experience = standing.extra.get("experience", 0) if standing is not None else 0
        boost = max(1.0, 5.0 - experience / 100.0) if params.boost else 1.0
        details.append({"rating": _rating(result, player, params.start), "experience": experience, "boost": boost})
    da, db = details
    root = math.sqrt(length)
    power: float = 10.0 ** (-(da["rating"] - db["rating"]) * root / params.scale)
    p_a = 1.0 / (1.0 + power)
    win_a = params.factor * root * (1.0 - p_a)       # base when A wins
    win_b = params.factor * root * p_a               # base when B wins
    outcomes: Outcomes = {"a_wins": (win_a * da["boost"], -win_a * db["boost"]),
                "b_wins": (-win_b * da["boost"], win_b * db["boost"]),
                "draw": None}
    return Prediction(p_a, (da, db), outcomes,
                      _("P(A) = 1/(1 + 10^(−(R(A) − R(B))·√{length}/{scale})); "
                        "±{factor}·√{length}·(1 − P(winner)) × each one's boost; no draws").format(
                          length=length, scale=localized(f"{params.scale:g}"), factor=localized(f"{params.factor:g}")))


def _glicko(result: Any, params: Any, a: str, b: str, length: int) -> Prediction:
    from ..engines.glicko import expected_pair
    from ..engines.registry import engine_class

    engine = engine_class(result.engine)()
    sa, sb = engine.prediction_state(result, a, params), engine.prediction_state(result, b, params)

    def change(s: Any, other: Any, score: float) -> float:
        points: float = engine.rate(s, s.phi, [(engine.mu(other), other.phi, score)], params).shares[0] * engine.scale
        return points

    outcomes: Outcomes = {key: (change(sa, sb, score), change(sb, sa, 1.0 - score))
                for key, score in (("a_wins", 1.0), ("b_wins", 0.0), ("draw", 0.5))}
    details: list[dict[str, Any]] = []
    for s in (sa, sb):
        d = {"rating": s.r, "rd": s.phi * engine.scale}
        if engine.has_volatility:
            d["volatility"] = s.sigma
        details.append(d)
    return Prediction(expected_pair(engine.mu(sa), sa.phi, engine.mu(sb), sb.phi), (details[0], details[1]), outcomes,
                      _("E = 1/(1 + 10^(−g(√(RD(A)² + RD(B)²))·(R(A) − R(B))/400)); changes: a period of this game"))


def _listed(result: Any, players: tuple[str, str], why: str) -> list[int]:
    """The published ratings of both players on a list engine; refused when one has none."""
    ratings = []
    for player in players:
        standing = result.standings.get(player)
        if standing is None or standing.rating is None:
            raise ActionRefused(_("{player} has no published rating in list {list!r}; {why}").format(
                player=player, list=result.rating, why=_(why)))
        ratings.append(standing.rating)
    return ratings


def _fide(result: Any, params: Any, a: str, b: str, length: int) -> Prediction:
    from ..engines.fide.tables import expected_hundredths

    ratings = _listed(result, (a, b), N_("FIDE's table (b) needs the ratings of both players"))
    expected = expected_hundredths(int(ratings[0]), int(ratings[1]), params.difference_cap) / 100
    return Prediction(expected, ({"rating": ratings[0]}, {"rating": ratings[1]}),
                      {"a_wins": None, "b_wins": None, "draw": None},
                      _("expected score: table (b) of seed 002; changes come with the next list, from the period"))


def _mfsnb(result: Any, params: Any, a: str, b: str, length: int) -> Prediction:
    """A single match outside a tournament is a competition of its own: R = 10·(P − Pe), rounded."""
    from fractions import Fraction

    from ..engines.mfsnb import compute

    if params.official_only:
        raise ActionRefused(_("rating list {list!r} cannot predict a single match: {why}").format(
            list=result.rating, why=_(NO_SINGLE_MATCH["mfsnb-official"])))
    ra, rb = _listed(result, (a, b), N_("the first rating comes from the qualification when the player first plays"))
    outcomes: Outcomes = {}
    for key, points in (("a_wins", 1), ("b_wins", 0), ("draw", Fraction(1, 2))):
        for_a = compute(ra, [rb], Fraction(points), "match", 2)
        for_b = compute(rb, [ra], 1 - Fraction(points), "match", 2)
        outcomes[key] = (for_a.change, for_b.change)
    return Prediction(float(for_a.pe), ({"rating": ra}, {"rating": rb}), outcomes,
                      _("Pe from seed 000's table at D = R(A) − R(B); a single match: R = 10·(P − Pe), rounded, "
                        "on the next list"))


PREDICTORS = {"elo": _elo, "fibs": _fibs, "glicko": _glicko, "glicko2": _glicko, "fide": _fide, "mfsnb": _mfsnb}
# The lists whose prediction reads the published ratings alone, and whose replay the cache cannot keep:
# their standings as the leaderboard reads them (kept beside the snapshot by recalc and the writers).
BY_STANDINGS = frozenset({"fide", "mfsnb"})


def predict(ledger: Any, a: str, b: str, *, rating: str | None = None, discipline: str | None = None,
            as_of: date | None = None, length: int = 1) -> Table:
    """The prediction as a Table whose JSON is the documented object."""
    from ..reports import known_player

    for player in (a, b):
        known_player(ledger, player)
    if a == b:
        raise ActionRefused(_("a match needs two different players, not {player!r} against themself").format(player=a))
    if length < 1:
        raise ActionRefused(_("--length {length} must be at least 1 point").format(length=length))
    rating_list = ledger.rating(rating)
    engine = rating_list.engine
    if engine not in PREDICTORS:
        why = (_(NO_SINGLE_MATCH[engine]) if engine in NO_SINGLE_MATCH
               else _("predict does not know the {engine} engine").format(engine=engine))
        raise ActionRefused(_("rating list {list!r} cannot predict a single match: {why}").format(
            list=rating_list.name, why=why))
    from ..reports import as_of as default_as_of

    day = default_as_of(ledger, as_of)  # the leaderboard's rule: the journal's last entry, or today
    read = ledger.standings_run if engine in BY_STANDINGS else ledger.run
    result = read(rating_list, discipline, day.day)
    found = PREDICTORS[engine](result, rating_list.params, a, b, length)
    return _table(ledger, result, a, b, day, length, found)


def _table(ledger: Any, result: Any, a: str, b: str, as_of: AsOf, length: int, found: Prediction) -> Table:
    day = as_of.day
    journal = ledger.journal
    outcome_json = {key: None if pair is None else {"a": pair[0], "b": pair[1]} for key, pair in found.outcomes.items()}
    json_value = {
        "rating": result.rating, "engine": result.engine, "discipline": result.discipline, "as_of": day,
        "length": length,
        "a": {"player": a, "name": journal.player_name(a), **found.details[0]},
        "b": {"player": b, "name": journal.player_name(b), **found.details[1]},
        "probability": found.expected, "expected": found.expected,
        "if_a_wins": outcome_json["a_wins"], "if_b_wins": outcome_json["b_wins"], "if_draw": outcome_json["draw"],
        "note": found.note,
    }
    extra_keys = [k for k in found.details[0] if k != "rating"]
    columns = [Column("player", _("Player")), Column("name", _("Name")), Column("rating", _("Rating"), "rating")]
    columns += [Column(k, k.upper() if k in ("k", "rd") else heading(k), "number") for k in extra_keys]
    columns.append(Column("expected", _("Expected"), "probability"))
    headings = {"a_wins": _("If {player} wins").format(player=a), "b_wins": _("If {player} wins").format(player=b),
                "draw": _("If drawn")}
    columns += [Column(key, headings[key], "change") for key, pair in found.outcomes.items() if pair is not None]
    rows = []
    for side, (player, details) in enumerate(((a, found.details[0]), (b, found.details[1]))):
        row = {"player": player, "name": journal.player_name(player), **details,
               "expected": found.expected if side == 0 else 1.0 - found.expected}
        for key, pair in found.outcomes.items():
            if pair is not None:
                row[key] = pair[side]
        rows.append(row)
    points = (ngettext("a {length}-point match", "a {length}-point match", length).format(length=length)
              if length != 1 else _("one game"))
    title = _("{rating} · {discipline} · {as_of} · {a} vs {b}, {match}").format(
        rating=result.rating, discipline=result.discipline, as_of=as_of, a=a, b=b, match=points)
    return Table(title, columns, rows, caption=found.note, json_value=json_value)
