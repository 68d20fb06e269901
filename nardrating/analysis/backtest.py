"""Backtest: how well each candidate rating system predicted the club's own games.

A candidate is a configured rating list, or one list's engine with other
parameter values (`--param k=10,20,32`). Each candidate replays the journal
once; every rated game is scored with the probability the candidate gave the
first player *before* the game:

    p = the engine's expected score for the first player before the game, s = that player's score
    log_loss = mean of −(s·ln p + (1 − s)·ln(1 − p))
    brier    = mean of (p − s)²
    accuracy = share of decisive games whose winner had p > ½ (p = ½ counts a half)

Per-game engines record that p in each match's history event (elo, glicko,
glicko2 and fide: `expected`; fibs: `probability`, of the match at its
length). mfsnb rates competitions: a game is scored with seed 000's Pe at the
difference of the ratings on the list in force on its date. placement and
chips have no expected score and take no part.
"""
from __future__ import annotations

import math
import os
from datetime import date
from collections.abc import Iterable, Iterator
from itertools import product
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..datarecords import datarecord
from ..config import RatingList
from ..errors import ActionRefused
from ..i18n import _
from ..i18n.numbers import localized
from ..reports import Column, Table

PREDICTING = ("elo", "fibs", "glicko", "glicko2", "fide", "mfsnb")
EPSILON = 1e-15        # p is kept within [ε, 1 − ε] so that a sure prediction that fails costs −ln ε, not ∞
# Matches × candidates from which candidates run in forked processes (recalc has its own threshold).
PARALLEL_AFTER = int(os.environ.get("NARDRATING_BACKTEST_PARALLEL_AFTER", 20_000))


@datarecord(frozen=True)
class Candidate:
    """One rating list a backtest scores: as configured, or with the --param values in `varied`."""
    rating: RatingList
    varied: dict[str, Any]  # the parameters set by --param (empty: the list as configured)

    @property
    def label(self) -> str:
        return " ".join([self.rating.name] + [f"{k}={v}" for k, v in self.varied.items()])


@datarecord(frozen=True, slots=True)
class Scored:
    """One rated game as a candidate predicted it, from the first player's side."""
    day: int              # ordinal
    p: float              # the first player's expected score before the game
    s: float              # the first player's score
    established: bool     # both players established (in the engine's sense) before the game


# --- candidates ----------------------------------------------------------------------

def parse_grid(texts: list[str]) -> dict[str, list[str]]:
    """["k=10,20,32", "start=1200"] → {"k": ["10", "20", "32"], "start": ["1200"]}."""
    grid: dict[str, list[str]] = {}
    for text in texts:
        name, sep, values = text.partition("=")
        name = name.strip()
        found = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name or not found:
            raise ActionRefused(_("--param {text!r}: write NAME=VALUE,VALUE…, for example k=10,20,32").format(text=text))
        if name in grid:
            raise ActionRefused(_("--param {name} is given twice; list its values once: {name}=A,B,C").format(name=name))
        grid[name] = found
    return grid


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def candidates(ledger: Any, ratings: list[str], params: list[str]) -> list[Candidate]:
    """The configured lists (or those named), or one list over the grid of --param values."""
    if not params:
        chosen = [ledger.rating(name) for name in ratings] if ratings else list(ledger.config.ratings.values())
        usable = [r for r in chosen if _can_predict(r)]
        if not usable:
            raise ActionRefused(_("no rating list here predicts single games ({lists}); backtest scores lists of "
                                  "the engines {engines}").format(
                lists=", ".join(f"{r.name}: {r.engine}" for r in chosen), engines=", ".join(PREDICTING)))
        return [Candidate(r, {}) for r in usable]
    if len(ratings) > 1:
        raise ActionRefused(_("--param varies one list's parameters: give at most one --rating with it"))
    base = ledger.rating(ratings[0] if ratings else None)
    if not _can_predict(base):
        raise ActionRefused(_("rating list {list!r} ({engine}) does not predict single games; "
                              "backtest scores the engines {engines}").format(
            list=base.name, engine=base.engine, engines=", ".join(PREDICTING)))
    grid = parse_grid(params)
    fields = type(base.params).model_fields
    for name in grid:
        if name not in fields:
            raise ActionRefused(_("--param {name}: the {engine} engine has no parameter {name!r}; "
                                  "its parameters: {parameters}").format(
                name=name, engine=base.engine, parameters=", ".join(fields)))
    found = []
    for values in product(*grid.values()):
        varied = {name: _value(v) for name, v in zip(grid, values)}
        try:
            # model_copy skips validation: validate the copied values as the config would.
            checked = type(base.params).model_validate(base.params.model_copy(update=varied).model_dump())
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(x) for x in problem["loc"]) or "params"
            raise ActionRefused(_("--param {where}={value}: {problem} (rating list {list!r}, engine {engine})").format(
                where=where, value=varied.get(where, ""), problem=problem["msg"], list=base.name,
                engine=base.engine)) from None
        found.append(Candidate(RatingList(base.name, base.engine, checked, base.disciplines, base.line), varied))
    return found


def _can_predict(rating: RatingList) -> bool:
    return rating.engine in PREDICTING and not getattr(rating.params, "official_only", False)


# --- the games each candidate predicted ----------------------------------------------

def scored_games(ledger: Any, candidate: Candidate, discipline: str | None = None) -> list[Scored]:
    """Every rated game of the candidate's replay, with its prediction, in replay order."""
    from ..replay.view import replay

    rating = candidate.rating
    disciplines = [ledger.discipline(rating, discipline)] if discipline else ledger.disciplines(rating)
    games: list[Scored] = []
    for d in disciplines:
        # A configured list goes through the ledger (and its cache); a grid point is a list of its own.
        result = replay(ledger, rating, d, None) if candidate.varied else ledger.run(rating, d)
        games += _from_result(ledger.journal, rating, result)
    return games


def _from_result(journal: Any, rating: RatingList, result: Any) -> list[Scored]:
    """The engine's own predictions (Engine.predictions), else one pass over every player's events:
    the first player's p, and whether both were established."""
    from ..engines.registry import engine_class

    m = journal.matches
    fast = engine_class(rating.engine)().predictions(rating.params, result)
    if fast is not None:   # in replay order, which is date order
        dates, scores = m.dates, m.score_a
        return [Scored(dates[i], p, scores[i], established) for i, p, established in fast]
    names = journal.player_codes.names
    index = journal.match_index
    first: dict[str, float] = {}      # entry → p of the match's first player
    novice: set[str] = set()          # entries where a player was not yet established
    for player, entry, p, established in _predictions(rating, result):
        i = index[entry]
        if names[m.a[i]] == player:
            first[entry] = p
        if not established:
            novice.add(entry)
    out = [Scored(m.dates[i], first[entry], m.score_a[i], entry not in novice)
           for entry, i in ((entry, index[entry]) for entry in first)]
    out.sort(key=lambda g: g.day)
    return out


def _predictions(rating: RatingList, result: Any) -> Iterator[tuple[str, str, float, bool]]:
    """(player, match entry, p for that player, established before the game) for every rated game."""
    if rating.engine == "mfsnb":
        yield from _mfsnb_predictions(result)
        return
    p: Any = rating.params
    engine = rating.engine
    for player, events in result.events.items():   # all at once: a compact result builds them in one pass
        games = 0
        for e in events:
            if e.kind != "match" or not e.rated or e.change is None or e.entry is None:
                continue
            x = e.extra
            if engine == "fibs":
                yield player, e.entry, x["probability"], x["experience"] >= p.leaderboard_min_experience
            elif engine == "elo":
                yield player, e.entry, x["expected"], games >= p.provisional_games
            elif engine in ("glicko", "glicko2"):
                yield player, e.entry, x["expected"], games > 0 and x["rd_before"] <= p.provisional_rd
            else:  # fide: only games between two players on the list in force are rated
                yield player, e.entry, x["expected"], True
            games += 1


def _mfsnb_predictions(result: Any) -> Iterator[tuple[str, str, float, bool]]:
    """Seed 000's Pe at the difference of the list ratings in force on the game's date.

    A player's rating in force is the last list (or adjustment) before the date; before
    any, the start value their first competition was rated from (established: not that).
    """
    from ..engines.tables import expected_percent

    timelines: dict[str, list[tuple[date, float | None, bool]]] = {}
    games: dict[str, list[Any]] = {}
    for player, events in result.events.items():
        marks, start = [], None
        for e in events:
            if e.kind in ("list", "adjust") and e.after is not None:
                marks.append((e.date, e.after, True))
            elif e.kind == "competition" and start is None and e.before is not None:
                start = e.before
            elif e.kind == "match" and e.reason and (e.reason.startswith("counted in")
                                                     or e.reason.startswith("a competition of its own")):
                games.setdefault(player, []).append(e)
        timelines[player] = [(date.min, start, False)] + marks
    def in_force(player: str, day: date) -> tuple[float | None, bool]:
        found: tuple[float | None, bool] = (None, False)
        for when, value, listed in timelines.get(player, ()):
            if when >= day:
                break
            found = (value, listed)
        return found

    for player, events in games.items():
        for e in events:
            own, listed = in_force(player, e.date)
            other, other_listed = in_force(e.opponent, e.date)
            if own is not None and other is not None:
                yield player, e.entry, expected_percent(int(own) - int(other)) / 100, listed and other_listed


# --- scores ----------------------------------------------------------------------------

def metrics(games: list[Scored]) -> dict[str, Any]:
    """log_loss, brier, accuracy and calibration by decile of p (None where there are no games)."""
    n = len(games)
    if not n:
        return {"games": 0, "log_loss": None, "brier": None, "accuracy": None, "calibration": []}
    log = math.log
    low, high = EPSILON, 1.0 - EPSILON
    loss = brier = right = 0.0
    decisive = 0
    counts = [0] * 10
    predicted = [0.0] * 10
    observed = [0.0] * 10
    for g in games:   # one tight pass: a backtest scores every game of every candidate
        p, s = g.p, g.s
        q = low if p < low else high if p > high else p
        if s == 1.0:
            loss -= log(q)
            decisive += 1
            right += 0.5 if p == 0.5 else float(p > 0.5)
        elif s == 0.0:
            loss -= log(1.0 - q)
            decisive += 1
            right += 0.5 if p == 0.5 else float(p < 0.5)
        else:
            loss -= s * log(q) + (1.0 - s) * log(1.0 - q)
        brier += (p - s) * (p - s)
        b = int(p * 10)
        if b > 9:
            b = 9
        counts[b] += 1
        predicted[b] += p
        observed[b] += s
    calibration = [{"from": k / 10, "to": (k + 1) / 10, "games": c, "predicted": predicted[k] / c,
                    "observed": observed[k] / c} for k, c in enumerate(counts) if c]
    return {"games": n, "log_loss": loss / n, "brier": brier / n,
            "accuracy": right / decisive if decisive else None, "calibration": calibration}


def _score(ledger: Any, candidate: Candidate, discipline: str | None, since: date | None, until: date | None
           ) -> dict[str, Any]:
    lo = since.toordinal() if since else -1
    hi = until.toordinal() if until else math.inf
    games = [g for g in scored_games(ledger, candidate, discipline) if lo <= g.day <= hi]
    found = metrics(games)
    established = metrics([g for g in games if g.established])
    del established["calibration"]
    found["established"] = established
    return found


_JOB: tuple[Any, ...] = ()   # what forked workers inherit: (ledger, candidates, discipline, since, until)


def _work(k: int) -> dict[str, Any]:
    ledger, found, discipline, since, until = _JOB
    return _score(ledger, found[k], discipline, since, until)


def run(ledger: Any, found: list[Candidate], discipline: str | None = None, since: date | None = None,
        until: date | None = None, workers: int | None = None) -> list[dict[str, Any]]:
    """Each candidate's scores, in the candidates' order; in forked processes when it pays."""
    global _JOB
    workers = workers if workers is not None else min(len(found), os.cpu_count() or 1)
    big = len(ledger.journal.matches) * len(found) >= PARALLEL_AFTER
    if workers > 1 and big and hasattr(os, "fork"):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _JOB = (ledger, found, discipline, since, until)
        try:
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                scores = list(pool.map(_work, range(len(found))))
        finally:
            _JOB = ()
    else:
        scores = [_score(ledger, c, discipline, since, until) for c in found]
    return [{"rating": c.rating.name, "engine": c.rating.engine, "params": c.rating.params.model_dump(mode="json"),
             "varied": c.varied, "label": c.label, **s} for c, s in zip(found, scores)]


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Best first: lowest log-loss; candidates without games last."""
    return sorted(rows, key=lambda r: (r["log_loss"] is None, r["log_loss"] or 0.0))


# --- output ----------------------------------------------------------------------------

def table(rows: list[dict[str, Any]], since: date | None, until: date | None) -> Table:
    rows = ranked(rows)
    span = _("{since} to {until}").format(since=since or _("the first game"), until=until or _("the last game"))
    columns = [Column("rank", _("Rank"), "int"), Column("label", _("Candidate")), Column("engine", _("Engine")),
               Column("games", _("Games"), "int"), Column("log_loss", _("Log loss"), "probability"),
               Column("brier", _("Brier"), "probability"), Column("accuracy", _("Accuracy"), "probability"),
               Column("est_games", _("Established games"), "int"),
               Column("est_log_loss", _("Established log loss"), "probability"),
               Column("est_brier", _("Established brier"), "probability"),
               Column("est_accuracy", _("Established accuracy"), "probability")]
    shown = []
    for rank, r in enumerate(rows, start=1):
        e = r["established"]
        shown.append({"rank": rank, "label": r["label"], "engine": r["engine"], "games": r["games"],
                      "log_loss": r["log_loss"], "brier": r["brier"], "accuracy": r["accuracy"],
                      "est_games": e["games"], "est_log_loss": e["log_loss"], "est_brier": e["brier"],
                      "est_accuracy": e["accuracy"]})
    json_rows = [{k: v for k, v in r.items() if k not in ("label", "varied")} for r in rows]
    return Table(_("Backtest · {span} · ranked by log loss (lower is better)").format(span=span), columns, shown,
                 caption=_("p = the first player's expected score before the game; log loss = mean −(s·ln p + "
                           "(1 − s)·ln(1 − p)); Brier = mean (p − s)²; accuracy = decisive games whose winner had "
                           "p > ½ (p = ½: a half)"),
                 json_value={"candidates": json_rows})


def calibration_table(row: dict[str, Any]) -> Table:
    """One candidate's calibration by decile, with a text plot: ● observed, | predicted."""
    width = 20
    rows = []
    for b in row["calibration"]:
        cells = [" "] * (width + 1)
        observed, predicted = round(b["observed"] * width), round(b["predicted"] * width)
        for x in range(observed):
            cells[x] = "■"
        cells[predicted] = "|"
        rows.append({"decile": localized(f"{b['from']:.1f}–{b['to']:.1f}"), "games": b["games"],
                     "predicted": b["predicted"], "observed": b["observed"], "plot": "".join(cells).rstrip()})
    columns = [Column("decile", "p"), Column("games", _("Games"), "int"),
               Column("predicted", _("Predicted"), "probability"),
               Column("observed", _("Observed"), "probability"), Column("plot", _("Observed ■, predicted |"))]
    return Table(_("Calibration · {candidate}").format(candidate=row["label"]), columns, rows)


def plot(rows: list[dict[str, Any]], path: Any, protect: Iterable[Path] = ()) -> None:
    """The calibration curves as PNG or SVG (matplotlib: the optional extra [plot]), written whole
    or not at all, never over one of `protect` (safewrite.py)."""
    import io

    from ..safewrite import check_target, replace_file

    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ActionRefused(_("--plot {path}: the file must end in .png or .svg").format(path=path))
    check_target(path, protect)  # refused before anything is drawn
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ActionRefused(_("--plot needs matplotlib, the optional extra [plot]: pip install 'nardrating[plot]'")
                            ) from None
    fig, ax = plt.subplots(figsize=(6, 6))
    ax.plot([0, 1], [0, 1], linestyle=":", color="grey", label=_("perfect calibration"))
    for n, r in enumerate(ranked(rows)):
        points = r["calibration"]
        xs, ys = [b["predicted"] for b in points], [b["observed"] for b in points]
        line, = ax.plot(xs, ys, linestyle="-" if n % 2 == 0 else "--", label=r["label"])
        # each decile's marker by its games (area): a decile of 3 games weighs less than one of 30
        ax.scatter(xs, ys, s=[12 + 6 * b["games"] for b in points], color=line.get_color(), zorder=3)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(_("predicted score of the first player (p)"))
    ax.set_ylabel(_("observed score"))
    ax.set_title(_("Calibration by decile (marker area: games)"))
    ax.grid(True, color="#ddd")
    ax.legend(fontsize="small", loc="upper left")
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format=path.suffix.lower().lstrip("."))
    finally:
        plt.close(fig)
    replace_file(path, buffer.getvalue(), protect=protect)
