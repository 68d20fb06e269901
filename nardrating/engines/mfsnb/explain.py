"""Explain an mfsnb history event: a competition's R = 10·(P − E) and a list's sum (seed 000)."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..base import Explained, HistoryEvent, step
from ...i18n import _, ngettext
from ..rounding import round_half_away
from ..tables import band_of
from .values import MfsnbRules
from ..wording import in_words

if TYPE_CHECKING:
    from .result import MfsnbResult


def _number(value: Fraction) -> str:
    return f"{float(value):.4g}"


def explain_competition(params: MfsnbRules, result: MfsnbResult, player: str, event: HistoryEvent) -> Explained:
    rec = result.record_of(player, event.date)
    found = [c.competition() for c in rec.competitions if c.id == event.entry] if rec else []
    if not found:
        raise LookupError(f"no competition {event.entry} of {player} on the list of {event.date}")
    c = found[0]
    games, pe = len(c.ratings), f"{float(c.pe):.2f}"
    inputs: dict[str, Any] = {"competition": c.id, "system": c.system, "rating": c.own,
                              "opponent_ratings": list(c.ratings), "points": float(c.points)}
    if c.system == "round-robin":
        inputs["participants"] = c.participants
    if c.system != "round-robin":
        e_rule, e_formula = _("seed 000: E = M·Pe (swiss, knockout, match, single match)"), f"E = {games}·{pe}"
    elif c.round_robin == "strict":
        e_rule, e_formula = _("seed 000: E = (H − 1)·Pe (round-robin, strict)"), f"E = ({c.participants} − 1)·{pe}"
    else:
        e_rule, e_formula = _("seed 000: E = H·Pe − ½ (round-robin)"), f"E = {c.participants}·{pe} − 0.5"
    exact = 10 * (c.points - c.expected)
    steps = [
        step(_("seed 000: Ra, the opponents' mean rating, rounded ½ up"),
             f"Ra = {sum(c.ratings)}/{games} = {_number(Fraction(sum(c.ratings), games))} → {c.ra}", c.ra),
        step(_("seed 000: D = own rating − Ra"), f"D = {c.own} − {c.ra}", c.difference),
        step(_("seed 000: Pe table row {row}").format(row=band_of(c.difference)), f"Pe = {pe}", float(c.pe)),
        step(e_rule, e_formula, float(c.expected)),
        step(_("seed 000: R = 10·(P − E)"), f"R = 10·({_number(c.points)} − {_number(c.expected)})", float(exact)),
        step(_("seed 000: R rounded to a whole number, halves away from zero"), f"R = {_number(exact)} → {c.computed:+d}",
             round_half_away(exact)),
    ]
    if c.protected:
        steps.append(step(_("seed 000: the rating does not decrease ({why})").format(why=in_words(c.protected)),
                          f"R = {c.computed:+d} → 0", 0))
    return Explained(inputs, steps)


def explain_list(params: MfsnbRules, result: MfsnbResult, player: str, event: HistoryEvent) -> Explained:
    """A list: the previous list + Σ R of the period + adjustments − the inactivity penalty."""
    rec = result.record_of(player, event.date)
    if rec is None:
        raise LookupError(f"{player} is not on the list of {event.date}")
    inputs: dict[str, Any] = {"before": rec.before, "competitions": [c.id for c in rec.competitions]}
    steps = [step(_("seed 000: Σ R of the period's competitions"),
                  " + ".join(f"{c.change:+d}" for c in rec.competitions) or _("no competition"), rec.change)]
    if rec.adjusted:
        steps.append(step(_("[[adjust]] entries of the period (a set counts as the difference it made)"),
                          f"adjust = {rec.adjust:+d}", rec.adjust))
    if rec.break_since is not None:
        inputs["break_since"] = rec.break_since
        more_than = _("more than {months}: {total}")
        ladder = ", ".join(more_than.format(months=m, total=t) for m, t in params.inactivity)
        steps.append(step(_("seed 000: breaks ({ladder} months), totals for the whole break").format(ladder=ladder),
                          ngettext("break since {day}, {months} months: {owed} owed, {taken} taken before",
                                   "break since {day}, {months} months: {owed} owed, {taken} taken before",
                                   rec.break_months or 0).format(day=rec.break_since, months=rec.break_months,
                                                            owed=rec.penalty_owed,
                                                            taken=rec.penalty_owed + rec.penalty), rec.penalty))
    if event.change is None:
        steps.append({"rule": _("seed 000: a player enters the list"), "formula":
                      _("after = {after}; not on the previous list: no change").format(after=event.after), "value": None})
    else:
        total = rec.change + rec.adjust + rec.penalty
        steps.append(step(_("seed 000: R new = R old + Σ R (+ adjustments − penalty)"),
                          f"change = {rec.change:+d} {rec.adjust:+d} {rec.penalty:+d}", total))
    return Explained(inputs, steps)
