"""`explain ENTRY` and `history --details`: every input and every step behind a rating change.

The steps come from the list's engine (`Engine.explain_event`: the engine
knows its arithmetic, and declares the event kinds it explains in
`Engine.explains`); this module finds the events an ENTRY means and lays
the steps out as tables and JSON. An ENTRY is

    a match id        m0003              both players' match events
    a tournament id   cup-1              every event of that tournament (placement's places)
    PLAYER@DATE       aslan@2025-03-01   the player's other events that day: adjust, penalty,
                                         decay, list, as `history PLAYER` lists them by date and kind

The last step's value is the change the history shows.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from ..datarecords import datarecord
from ..engines.base import HistoryEvent, RatingResult, score_text
from ..contract.events import MatchPlayed
from ..errors import ActionRefused, did_you_mean
from .. import i18n
from ..i18n import N_, _
from ..i18n.terms import kind_text
from ..reports import Column, Table

FORMS = N_("ENTRY is a match id (m0003), a tournament id, or PLAYER@DATE (anna@2025-03-01) for that player's "
           "adjustments, penalties, decays and list entries of that day, as history PLAYER shows them")


@datarecord(frozen=True)
class Found:
    """The events an ENTRY means, in one list's replay of one discipline."""

    result: RatingResult
    events: list[tuple[str, HistoryEvent]]    # (player, event)


class CannotExplain(ActionRefused):
    """The list's engine does not explain this kind of event."""


def match_played(ledger: Any, event: HistoryEvent) -> MatchPlayed | None:
    """The journal's match of a match event, as the replay gave it to the engine."""
    if event.kind != "match" or event.entry is None:
        return None
    m = ledger.journal.match_by_id(event.entry, event.date)
    if m is None:
        return None
    return MatchPlayed(m.index, m.id, m.date, m.a, m.b, m.score_a, m.length, m.discipline, m.tournament,
                       event.reason)


def explain_event(ledger: Any, result: RatingResult, player: str, event: HistoryEvent) -> dict[str, Any]:
    """{player, before, change, after, inputs, steps} of one of `player`'s history events."""
    from ..engines.registry import engine_class

    engine = engine_class(result.engine)()
    params = ledger.rating(result.rating).params
    try:
        inputs, steps = engine.explain_event(params, result, player, event, match_played(ledger, event))
    except NotImplementedError:
        raise CannotExplain(_("the {engine} engine (rating list {rating!r}) does not explain {kind} events yet; "
                              "report --details shows its arithmetic").format(
            engine=result.engine, rating=result.rating, kind=kind_text(event.kind))) from None
    if event.kind == "match":
        inputs = {"opponent": event.opponent, **inputs}
    else:
        inputs = {"kind": event.kind, "date": event.date.isoformat(), **inputs}
    return {"player": player, "before": event.before, "change": event.change, "after": event.after,
            "inputs": inputs, "steps": steps}


# --- what an ENTRY means ---------------------------------------------------------------

def find(ledger: Any, entry: str, rating: str | None, discipline: str | None, as_of: date) -> Found:
    rating_list = ledger.rating(rating)
    journal = ledger.journal
    match = journal.match_by_id(entry)
    if match is not None:
        result = _run(ledger, rating_list, match.discipline, discipline, entry, as_of)
        events = [(p, e) for p in (match.a, match.b) for e in result.history(p)
                  if e.entry == entry and e.kind == "match"]
        if not events:
            raise ActionRefused(_("match {entry} ({day}) is after the date explained, {as_of}").format(
                entry=entry, day=match.date, as_of=as_of))
        return Found(result, events)
    tournament = journal.tournaments.get(entry)
    if tournament is not None:
        result = _run(ledger, rating_list, tournament.discipline, discipline, entry, as_of)
        journal.matches.solid()  # everyone's history reads every row: from machine arrays (columns.Appended)
        events = [(p, e) for p, es in result.events.items() for e in es if e.entry == entry]
        if not events:
            raise ActionRefused(_("rating list {name!r} ({engine}) has no event of tournament {entry!r}: it rates its "
                                  "matches one by one (explain MATCH_ID; history PLAYER lists them)").format(
                name=rating_list.name, engine=rating_list.engine, entry=entry))
        return Found(result, events)
    player, at, day_text = entry.rpartition("@")
    if not at:
        if entry in journal.players:   # (a player's id, typed for their change: say what to give instead)
            raise ActionRefused(_("{entry!r} is a player: explain one of their matches (history {entry} lists them "
                                  "with their ids), or {entry}@DATE for the adjustments, penalties, decays and list "
                                  "entries of that day").format(entry=entry))
        known = list(journal.match_index) + list(journal.tournaments)
        raise ActionRefused(_("no match or tournament {entry!r} in the journal{hint}; {forms}").format(
            entry=entry, hint=did_you_mean(entry, known), forms=_(FORMS)))
    return _player_day(ledger, rating_list, player, day_text, discipline, as_of, entry)


def _run(ledger: Any, rating_list: Any, discipline: str, asked: str | None, entry: str, as_of: date
         ) -> RatingResult:
    if asked is not None and asked != discipline:
        raise ActionRefused(_("{entry} is in {discipline!r}, not {asked!r}; leave out --discipline").format(
            entry=entry, discipline=discipline, asked=asked))
    if not rating_list.rates(discipline):
        raise ActionRefused(_("rating list {name!r} does not rate {discipline!r}, the discipline of {entry}; choose a "
                              "list with --rating").format(name=rating_list.name, discipline=discipline, entry=entry))
    return ledger.run(rating_list, discipline, as_of)  # type: ignore[no-any-return]


def _player_day(ledger: Any, rating_list: Any, player: str, day_text: str, discipline: str | None,
                as_of: date, entry: str) -> Found:
    from ..reports import known_player

    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise ActionRefused(_("{entry!r}: {day!r} is not a date; write PLAYER@YYYY-MM-DD, e.g. {player}@2025-03-01").format(
            entry=entry, day=day_text, player=player or "anna")) from None
    known_player(ledger, player)
    disciplines = [ledger.discipline(rating_list, discipline)] if discipline else ledger.disciplines(rating_list)
    found = []
    for d in disciplines:
        result = ledger.run(rating_list, d, as_of)
        events = [(player, e) for e in result.history(player) if e.date == day and e.kind != "match"]
        if events:
            found.append(Found(result, events))
    if not found:
        raise ActionRefused(_("{player} has no adjust, penalty, decay or list event on {day} in rating list "
                              "{name!r}{as_of}; history {player} shows each event's date and kind (a match: explain "
                              "its id)").format(player=player, day=day, name=rating_list.name,
                                                as_of=_(" as of {day}").format(day=as_of) if day > as_of else ""))
    if len(found) > 1:
        options = f" {_('or')} ".join(f"--discipline {f.result.discipline}" for f in found)
        raise ActionRefused(_("{player} has events on {day} in more than one discipline of rating list {name!r}: "
                              "say which with {options}").format(player=player, day=day, name=rating_list.name,
                                                                  options=options))
    return found[0]


# --- output -------------------------------------------------------------------------------

def explain(ledger: Any, entry: str, rating: str | None = None, discipline: str | None = None,
            as_of: date | None = None, one_table: bool = False) -> list[Table]:
    """`nardrating explain ENTRY`: one table per player and event; the first one's JSON is the whole answer.

    `one_table` (CSV, which holds one table): every player's and event's steps in one table, each
    row led by its player and event kind."""
    from ..reports import as_of as default_as_of

    day = as_of or default_as_of(ledger, None).day
    found = find(ledger, entry, rating, discipline, day)
    result = found.result
    result.will_explain(found.events)
    players = [explain_event(ledger, result, player, event) for player, event in found.events]
    value = {"entry": entry, "rating": result.rating, "engine": result.engine, "players": players}
    if one_table:
        columns = [Column("player", i18n._("Player")), Column("kind", i18n._("Kind"))] + [
            Column(c.key, i18n._(c.heading), c.kind, c.wrap) for c in STEP_COLUMNS]
        rows = [{"player": player, "kind": event.kind, **step}
                for (player, event), shown in zip(found.events, players) for step in shown["steps"]]
        return [Table(f"{entry} · {result.rating} ({result.engine})", columns, rows, json_value=value)]
    tables = []
    for k, ((player, event), shown) in enumerate(zip(found.events, players)):
        what = "" if event.kind == "match" else _(" · {kind} on {day}").format(kind=kind_text(event.kind), day=event.date)
        tables.append(steps_table(f"{entry} · {result.rating} ({result.engine}) · {player}{what}", shown,
                                  value if k == 0 else None))
    return tables


STEP_COLUMNS = [Column("rule", N_("Rule"), wrap=True), Column("formula", N_("Formula"), "formula", wrap=True),
                Column("value", N_("Value"), "measure")]


def steps_table(title: str, player: dict[str, Any], json_value: Any = None) -> Table:
    from ..i18n.terms import input_text

    inputs = ", ".join(input_text(k, _number(v)) for k, v in player["inputs"].items() if v is not None)
    columns = [Column(c.key, i18n._(c.heading), c.kind, c.wrap) for c in STEP_COLUMNS]   # headings in the language
    return Table(title, columns, list(player["steps"]),
                 caption=i18n._("inputs: {inputs}").format(inputs=inputs) if inputs else None, json_value=json_value)


def _number(value: Any) -> str:
    """An input as the caption shows it: floats to 4 decimals without trailing zeros (20, 0.95, 1534.4114),
    in the language's symbols (Russian 6,5)."""
    if isinstance(value, float):
        from ..i18n.numbers import trimmed

        return trimmed(value)
    return str(value)


def history_details(ledger: Any, result: RatingResult, player: str, table: Table, fmt: str) -> list[Table]:
    """`history --details`: JSON rows gain `steps`; the other views add one steps table per event.

    An event the engine does not explain has `steps` null, and the table view says so below.
    """
    events = iter(result.history(player))
    result.will_explain([(player, e) for e in result.history(player)])
    explained: list[tuple[dict[str, Any], HistoryEvent, dict[str, Any] | None]] = []
    missing: set[str] = set()
    for row in table.all_rows():
        event = next(e for e in events if _same(row, e))
        try:
            explained.append((row, event, explain_event(ledger, result, player, event)))
        except CannotExplain:
            explained.append((row, event, None))
            missing.add(event.kind)
    for row, _event, shown in explained:
        row["steps"] = None if shown is None else shown["steps"]
    if fmt in ("json", "csv"):
        if fmt == "csv":
            table.columns.append(Column("steps", "Steps"))
            for row in table.all_rows():
                row["steps"] = "; ".join(f"{s['formula']} = {s['value']:.6g}" for s in row["steps"] or ())
        return [table]
    if missing:
        note = _("--details: the {engine} engine does not explain {kinds} events yet; report --details shows its "
                 "arithmetic").format(engine=result.engine, kinds=", ".join(kind_text(kind) for kind in sorted(missing)))
        table.caption = f"{table.caption}\n{note}" if table.caption else note
    tables = [table]
    for _row, event, shown in explained:
        if shown is not None:
            tables.append(steps_table(_event_title(event), shown))
    return tables


def _same(row: dict[str, Any], event: HistoryEvent) -> bool:
    """Is this history row (reports.history, which copies the event's values) the row of this event?"""
    return all(row[key] is value or row[key] == value for key, value in (
        ("date", event.date), ("entry", event.entry), ("kind", event.kind), ("before", event.before),
        ("change", event.change)))


def _event_title(event: HistoryEvent) -> str:
    if event.kind == "match":
        return f"{event.date} · {event.entry} · {event.opponent} · {score_text(event.result)}"
    return f"{event.date} · {kind_text(event.kind)}" + (f" · {event.entry}" if event.entry else "")
