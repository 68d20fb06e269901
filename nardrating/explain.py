"""Explain a match's rating change: every input and every step of the arithmetic, with its rule.

Built from what each engine records in its history events (`before`, `extra`:
expected, probability, base, boost, experience, rd…) and the journal's
match; one step builder per engine, keyed by the engine's name. The last
step's value is the change the history shows.

Engines with a step builder: elo (seed 003), fibs (seed 004, and seed 001's
preset), glicko and glicko2 (Glickman's papers). The others (mfsnb, fide,
placement, chips) rate competitions, periods or places, whose arithmetic
`report --details` shows; explain refuses them with that pointer, and
refuses adjustments, decays and list entries likewise.
"""
from __future__ import annotations

import math

from .errors import ActionRefused
from .reports import Column, Table


def _step(rule: str, formula: str, value: float) -> dict:
    return {"rule": rule, "formula": formula, "value": value}


def _elo(p, ev, theirs, match) -> tuple[dict, list[dict]]:
    k = p.k
    ra, rb, s = ev.before, theirs.before, ev.result
    e = 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))
    inputs = {"rating": ra, "opponent_rating": rb, "score": s, "k": k}
    return inputs, [
        _step("seed 003: expected score", f"E = 1/(1 + 10^(({rb:.2f} − {ra:.2f})/400))", e),
        _step("seed 003: new = old + K·(S − E)", f"change = {k:g}·({s:g} − {e:.4f})", k * (s - e)),
    ]


def _fibs(p, ev, theirs, match) -> tuple[dict, list[dict]]:
    n = match.length
    x = ev.extra
    won = ev.result == 1.0
    rw, rl = (ev.before, theirs.before) if won else (theirs.before, ev.before)
    root = math.sqrt(n)
    pw = 1.0 / (1.0 + 10.0 ** ((rl - rw) * root / p.scale))
    base = p.factor * root * (1.0 - pw)
    experience = x["experience"]
    boost = max(1.0, 5.0 - experience / 100.0) if p.boost else 1.0
    unit = "points" if p.experience_unit == "points" else "games"
    inputs = {"rating": ev.before, "opponent_rating": theirs.before, "score": ev.result, "length": n,
              "experience": experience, "factor": p.factor, "scale": p.scale}
    steps = [
        _step("seed 004: the winner's chance", f"P(winner) = 1/(1 + 10^(−({rw:.2f} − {rl:.2f})·√{n}/{p.scale:g}))", pw),
        _step("seed 004: the stake", f"base = {p.factor:g}·√{n}·(1 − {pw:.4f})", base),
        _step(f"seed 004: the boost from experience ({unit})" if p.boost else "boost off",
              f"boost = max(1, 5 − {experience:g}/100)" if p.boost else "boost = 1", boost),
        _step("seed 004: the winner gains base × own boost" if won else "seed 004: the loser loses base × own boost",
              f"change = {'+' if won else '−'}{base:.4f}·{boost:g}", base * boost if won else -base * boost),
    ]
    return inputs, steps


def _glicko(engine, p, ev, theirs, match, events) -> tuple[dict, list[dict]]:
    """One game's share of the period's change: s·φ'²·g(φj)·(sj − Ej) (the engine's module doc)."""
    from .engines.glicko import g
    from .engines.registry import engine_class

    scale = engine_class(engine)().scale     # Glicko-1: 400/ln 10; Glicko-2: the paper's 173.7178
    x = ev.extra
    period = x["period"]
    # φ' is known at the period's last game: the player's last event of that period records it.
    closing = [e for e in events if e.kind == "match" and e.rated and e.extra.get("period") == period]
    rd_new = closing[-1].extra["rd"]
    rd_j = theirs.extra["rd_before"]
    gj = g(rd_j / scale)
    e = x["expected"]
    phi_new = rd_new / scale
    inputs = {"rating_at_period_start": ev.before if ev is closing[0] else None, "score": ev.result,
              "period": period, "rd_before": x["rd_before"], "opponent_rd_before": rd_j, "rd_after": rd_new}
    return inputs, [
        _step("Glickman: g of the opponent's deviation", f"g = 1/√(1 + 3·({rd_j:.2f}/{scale:.4f})²/π²)", gj),
        _step("Glickman: expected score against the opponent at the period's start", "E = 1/(1 + exp(−g·(μ − μj)))", e),
        _step("Glickman: the period's new deviation φ' (its last game)", f"φ' = {rd_new:.4f}/{scale:.4f}", phi_new),
        _step("Glickman: this game's share μ' − μ = φ'²·Σ g(φj)(sj − Ej), in rating points",
              f"change = {scale:.4f}·{phi_new:.6f}²·{gj:.6f}·({ev.result:g} − {e:.6f})",
              scale * phi_new * phi_new * gj * (ev.result - e)),
    ]


BUILDERS = {"elo": _elo, "fibs": _fibs}
PERIOD_BUILDERS = {"glicko": _glicko, "glicko2": _glicko}


def supported(engine: str) -> bool:
    return engine in BUILDERS or engine in PERIOD_BUILDERS


def player_steps(ledger, result, params, player: str, entry: str) -> dict | None:
    """{player, before, change, after, inputs, steps} of one player's match event, or None."""
    events = result.history(player)
    ev = next((e for e in events if e.entry == entry and e.kind == "match"), None)
    if ev is None:
        return None
    out = {"player": player, "before": ev.before, "change": ev.change, "after": ev.after, "inputs": {}, "steps": []}
    if not ev.rated:
        out["steps"] = [_step(f"not rated: {ev.reason}", "change = 0", 0.0)]
        return out
    theirs = next(e for e in result.history(ev.opponent) if e.entry == entry and e.kind == "match")
    match = ledger.journal.match_by_id(entry)
    engine = result.engine
    if engine in BUILDERS:
        out["inputs"], out["steps"] = BUILDERS[engine](params, ev, theirs, match)
    else:
        out["inputs"], out["steps"] = PERIOD_BUILDERS[engine](engine, params, ev, theirs, match, events)
    out["inputs"] = {"opponent": ev.opponent, **out["inputs"]}
    return out


def explain(ledger, entry: str, rating: str | None = None, discipline: str | None = None) -> list[Table]:
    """`nardrating explain ENTRY`: one table per player; the first one's JSON is the documented object."""
    rating_list = ledger.rating(rating)
    match = ledger.journal.match_by_id(entry)
    if match is None:
        raise ActionRefused(f"no match {entry!r} in the journal; explain takes a match id as history shows it "
                            "(adjustments, decays and lists: see history and report --details)")
    if not supported(rating_list.engine):
        raise ActionRefused(f"explain does not yet take the {rating_list.engine} engine (rating list "
                            f"{rating_list.name!r}); report --details shows its arithmetic per competition or game")
    discipline = discipline or match.discipline
    if not rating_list.rates(discipline):
        raise ActionRefused(f"rating list {rating_list.name!r} does not rate {discipline!r}, the discipline of {entry}")
    result = ledger.run(rating_list, discipline)
    players = [player_steps(ledger, result, rating_list.params, p, entry) for p in match.players]
    value = {"entry": entry, "rating": rating_list.name, "engine": rating_list.engine,
             "players": [p for p in players if p is not None]}
    return [steps_table(f"{entry} · {rating_list.name} ({rating_list.engine}) · {p['player']}", p, value if k == 0 else None)
            for k, p in enumerate(value["players"])]


STEP_COLUMNS = [Column("rule", "Rule"), Column("formula", "Formula"), Column("value", "Value", "probability")]


def steps_table(title: str, player: dict, json_value=None) -> Table:
    inputs = ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in player["inputs"].items())
    rows = list(player["steps"])
    return Table(title, STEP_COLUMNS, rows, caption=f"inputs: {inputs}" if inputs else None, json_value=json_value)


def history_details(ledger, result, player: str, table: Table, fmt: str) -> list[Table]:
    """`history --details`: JSON rows gain `steps`; the other views add one steps table per match."""
    from .engines.base import score_text

    if not supported(result.engine):
        raise ActionRefused(f"history --details does not yet take the {result.engine} engine (rating list "
                            f"{result.rating!r}); report --details shows its arithmetic")
    params = ledger.rating(result.rating).params
    found = {row["entry"]: player_steps(ledger, result, params, player, row["entry"])
             for row in table.all_rows() if row.get("entry") and row.get("kind", "match") == "match"}
    if fmt in ("json", "csv"):
        for row in table.all_rows():
            steps = found.get(row.get("entry"))
            row["steps"] = None if steps is None else steps["steps"]
        if fmt == "csv":
            table.columns.append(Column("steps", "Steps"))
            for row in table.all_rows():
                row["steps"] = "; ".join(f"{s['formula']} = {s['value']:.6g}" for s in row["steps"] or ())
        return [table]
    tables = [table]
    for entry, steps in found.items():
        if steps is not None:
            title = f"{entry} · {steps['inputs'].get('opponent', '')} · {score_text(steps['inputs'].get('score'))}"
            tables.append(steps_table(title, steps))
    return tables
