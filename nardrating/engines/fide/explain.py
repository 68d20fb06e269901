"""Explain a fide history event: a game's K·(S − P_D), an event's sum, a list's rounding, a first rating."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...i18n import _, ngettext
from ...i18n.terms import reason_text
from ..base import Explained, HistoryEvent, not_rated, step
from ..rounding import round_half_away
from ..tables import band_of
from .values import FIDE_2024_HYPOTHETICAL, FideRules
from .records import AnyEventRecord, ListRecord, RatedGame
from .report import FideResult
from .rules import InitialRating
from .tables import dp_for_percent, percent_of
from ..wording import in_words


def _cents(value: Fraction) -> str:
    return f"{float(value):.2f}"


def _unchanged(rule: str, formula: str) -> Explained:
    """An event that moves no rating (its change is none): one step saying why."""
    return Explained({}, [step(rule, formula, None)])


def _k_step(params: FideRules, erec: AnyEventRecord) -> dict[str, Any]:
    # The K rule names its paragraph: §8.3.3 (FIDE's rulesets) or the config (seed 002).
    return step(f"K: {in_words(erec.k_rule)}", f"K = {erec.k}", erec.k)


def _list_record(result: FideResult, player: str, event: HistoryEvent) -> ListRecord:
    for rec in result.lists.get(player, []):
        if rec.list_date == event.date:
            return rec
    raise LookupError(f"{player} has no list of {event.date}")


def explain_match(params: FideRules, result: FideResult, player: str, event: HistoryEvent) -> Explained:
    if not event.rated:
        return _unchanged(not_rated(event.reason), _("no change"))
    found = [(erec, r) for rec in result.lists.get(player, []) for erec in rec.events for r in erec.counted
             if r.game.match == event.entry]
    if not found:
        raise LookupError(f"no rated game {event.entry} of {player}")
    erec, r = found[0]
    own, k = erec.rating, erec.k
    assert own is not None and k is not None
    return Explained({"event": erec.key, "rating": own, "opponent_rating": r.opponent_rating,
                      "score": r.game.half / 2, "k": k}, _game_steps(params, erec, r, own, k))


def _game_steps(params: FideRules, erec: AnyEventRecord, r: RatedGame, own: int, k: int) -> list[dict[str, Any]]:
    difference = own - r.opponent_rating
    cap = params.cap_for(own, r.game.date)
    used = difference if cap is None else max(-cap, min(cap, difference))
    if used != difference:
        d_step = step(_("FIDE §8.3.1: a difference over 400 counts as 400"),
                      f"D = {own} − {r.opponent_rating} = {difference:+d} → {used:+d}", used)
    else:
        d_step = step(_("seed 002 8.1 (b): D = own rating − the opponent's, both from the list in force"),
                      f"D = {own} − {r.opponent_rating}", used)
    score = r.game.half / 2
    return [
        d_step,
        step(_("seed 002 8.1 table (b) row {row}").format(row=band_of(used)), f"P_D = {r.expected / 100:.2f}",
             r.expected / 100),
        step("ΔR = S − P_D", f"ΔR = {score:g} − {r.expected / 100:.2f}", r.gain / 100),
        _k_step(params, erec),
        step(_("this game's share of the event's change K·Σ(S − P_D); the rating period's sum is rounded once (§8.3.4)")
             if params.fide else
             _("this game's share of the event's change K·Σ(S − P_D); the event's sum is rounded once (its tournament row)"),
             f"change = {k}·{r.gain / 100:.2f}", k * r.gain / 100),
    ]


def explain_tournament(params: FideRules, result: FideResult, player: str, event: HistoryEvent) -> Explained:
    rec = _list_record(result, player, event)
    found = [e for e in rec.events if e.key == event.extra.get("event") and e.rating is not None]
    if not found:
        raise LookupError(f"no rated event {event.extra.get('event')} of {player} on the list of {event.date}")
    erec = found[0]
    assert erec.expected is not None and erec.exact_change is not None and erec.k is not None
    gain = erec.points - erec.expected
    inputs = {"event": erec.key, "rating": erec.rating, "games": erec.games, "k": erec.k,
              "opponent_ratings": [r.opponent_rating for r in erec.counted]}
    steps = [
        step(_("Σ S: points in the counted games (against opponents rated on the list in force)"),
             " + ".join(f"{r.game.half / 2:g}" for r in erec.counted) or "0", float(erec.points)),
        step(_("seed 002 8.1 table (b): Σ P_D"), " + ".join(f"{r.expected / 100:.2f}" for r in erec.counted) or "0",
             float(erec.expected)),
        step("ΣΔR = Σ S − Σ P_D", f"ΣΔR = {float(erec.points):g} − {_cents(erec.expected)}", float(gain)),
        _k_step(params, erec),
        step("K·ΣΔR", f"K·ΣΔR = {erec.k}·{_cents(gain)}", float(erec.exact_change)),
    ]
    if params.fide:
        steps[-1]["rule"] = _("K·ΣΔR, kept unrounded: the rating period is rounded once (FIDE §8.3.4)")
    else:
        steps.append(step(_("seed 002: the event's change rounded, halves away from zero"),
                          f"{_cents(erec.exact_change)} → {round_half_away(erec.exact_change):+d}",
                          float(round_half_away(erec.exact_change))))
    return Explained(inputs, steps)


def explain_list(params: FideRules, result: FideResult, player: str, event: HistoryEvent) -> Explained:
    reason = event.reason or ""
    if reason.startswith("inactive"):
        return _unchanged(ngettext("seed 002 7.2.3a: inactive after {months} months without a rated game (the rating is kept)",
                                   "seed 002 7.2.3a: inactive after {months} months without a rated game (the rating is kept)",
                                   params.inactive_months).format(months=params.inactive_months), reason_text(reason))
    if reason == "active again":
        return _unchanged(_("seed 002 7.2.3b: active again with a rated game on this list"), reason_text(reason))
    rec = _list_record(result, player, event)
    if event.extra.get("event") == "first rating":
        assert rec.pool is not None
        return _first_rating(params, rec.pool)
    rated = [e for e in rec.events if e.rating is not None and e.exact_change is not None]
    if params.fide:
        assert rec.period_change is not None
        total = round_half_away(rec.period_change)
        steps = [step(_("FIDE §8.3.2 d: the rating period's Σ K·ΣΔR over its events"),
                      " + ".join(_cents(e.exact_change) for e in rated if e.exact_change is not None),
                      float(rec.period_change)),
                 step(_("FIDE §8.3.4: the period's change rounded once, halves away from zero"),
                      f"{_cents(rec.period_change)} → {total:+d}", float(total))]
    else:
        changes = [int(e.change) for e in rated if e.change is not None]
        total = sum(changes)
        steps = [step(_("seed 002: Σ of the events' rounded changes"), " ".join(f"{c:+d}" for c in changes),
                      float(total))]
    inputs: dict[str, Any] = {"before": event.before, "events": [e.key for e in rated]}
    if reason.startswith("excluded"):
        assert event.before is not None
        steps.append(step(_("seed 002 7.2.1: below the floor, the player leaves the list"),
                          f"{event.before:g} {total:+d} = {event.before + total:g} < {params.floor}", float(total)))
    return Explained(inputs, steps)


def _first_rating(params: FideRules, pool: InitialRating) -> Explained:
    n, s = pool.games, pool.points
    inputs = {"games": n, "points": float(s), "ruleset": params.ruleset}
    if params.fide:
        total = pool.opponents_mean * (n + 2) - 2 * FIDE_2024_HYPOTHETICAL
        percent = percent_of(s + 1, n + 2)
        steps = [
            step(_("FIDE §8.2.2: Ra, the rated opponents and two hypothetical opponents rated 1800"),
                 f"Ra = ({_cents(total)} + 2·1800)/({n} + 2)", float(pool.opponents_mean)),
            step(_("FIDE §8.2.3: {rule}, p = ({points} + 1)/({games} + 2) = {percent} %").format(
                     rule=in_words(pool.rule), points=f"{float(s):g}", games=n, percent=percent),
                 f"Ru = {_cents(pool.opponents_mean)} + dp({percent} %)", float(pool.exact)),
        ]
    else:
        steps = [step(_("seed 002 8.2.1: Rc, the mean rating of the pooled opponents (8.3: as one tournament)"),
                      f"Rc = {_cents(pool.opponents_mean * n)}/{n}", float(pool.opponents_mean)),
                 step(f"seed 002, {in_words(pool.rule)}", _clause(pool), float(pool.exact))]
    steps.append(step(_("seed 002 8.3.2: Ru rounded to a whole number, 0.5 up"),
                      f"{_cents(pool.exact)} → {pool.rating}", pool.rating))
    steps.append(step(_("a first rating: published on this list, no earlier rating to change"),
                      f"after = {pool.rating}", None))
    return Explained(inputs, steps)


def _clause(pool: InitialRating) -> str:
    """Seed 002's 8.2.2–8.2.5 with the pool's numbers (N games, S points, Rc)."""
    n, s, rc = pool.games, pool.points, _cents(pool.opponents_mean)
    percent = percent_of(s, n)
    dp = dp_for_percent(percent)
    if 2 * s == n:
        formula = f"Ru = Rc = {rc}"
    elif 2 * s > n:
        formula = f"Ru = {rc} + 15·(2·{float(s):g} − {n})"
    elif "8.2.5" in pool.rule:
        formula = f"Ru = {rc} + dp({percent} %)·{n}/({n} + 1) = {rc} + ({dp})·{n}/{n + 1}"
    else:
        formula = f"Ru = {rc} + dp({percent} %) = {rc} + ({dp})"
    return f"{formula} = {_cents(pool.exact)}"


def explain_adjust(event: HistoryEvent) -> Explained:
    if event.after is None:
        return _unchanged(_("[[adjust]] delta: no published rating to change"), event.reason or "")
    return _unchanged(_("[[adjust]] set: the rating is published from its date"),
                      _("after = {after}; no rating before: no change").format(after=f"{event.after:g}"))
