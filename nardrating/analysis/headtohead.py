"""A player's record, and two players' record against each other.

The record (wins, draws, losses, points) counts the journal's matches dated
by the day the card is as of, voided ones left out and forfeits included: it
is the results sheet, whatever a rating list made of it. Points are the match
scores (1, ½, 0). Peak and low are the highest and lowest rating a player's
history reached (after an event), on one list and discipline; a best win is a
win the list counts against the highest-rated opponent, by the opponent's
rating before that match.
"""
from __future__ import annotations

from datetime import date
from typing import Any, Callable

from ..datarecords import datarecord
from ..i18n import _, ngettext
from ..reports import AsOf, Column, Table, known_player

LAST = 5          # meetings shown
BEST = 3          # best wins shown


@datarecord(frozen=True, slots=True)
class Game:
    """One of a player's matches that is not voided, from their side (`score` is theirs)."""

    index: int
    day: date
    entry: str
    opponent: str
    score: float
    discipline: str
    length: int


def games_of(journal: Any, player: str, opponent: str | None = None, upto: date | None = None) -> list[Game]:
    """The player's matches that are not voided, dated by `upto` if given, in journal order (date, then
    position)."""
    m = journal.matches
    last = upto.toordinal() if upto is not None else None
    names = journal.player_codes.names
    disciplines = journal.discipline_codes.names
    code = journal.player_codes.index.get(player, -1)
    other = journal.player_codes.index.get(opponent, -1) if opponent is not None else None
    out = []
    for i in range(len(m.ids)):
        a, b = m.a[i], m.b[i]
        if (a != code and b != code) or i in journal.voided or last is not None and m.dates[i] > last:
            continue
        them = b if a == code else a
        if other is not None and them != other:
            continue
        score = m.score_a[i] if a == code else 1.0 - m.score_a[i]
        out.append(Game(i, date.fromordinal(m.dates[i]), m.ids[i], names[them], score,
                        disciplines[m.discipline[i]], m.length[i]))
    out.sort(key=lambda g: (g.day, journal.matches.seq[g.index]))
    return out


def record(games: list[Game]) -> dict[str, Any]:
    wins = sum(g.score == 1.0 for g in games)
    draws = sum(g.score == 0.5 for g in games)
    return {"games": len(games), "wins": wins, "draws": draws, "losses": len(games) - wins - draws,
            "points": sum(g.score for g in games)}


def by_discipline(games: list[Game]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, int], list[Game]] = {}
    for g in games:
        groups.setdefault((g.discipline, g.length), []).append(g)
    return [{"discipline": d, "length": n, **record(found)} for (d, n), found in sorted(groups.items())]


def streaks(games: list[Game]) -> dict[str, Any]:
    """The current run of equal results, and the longest runs of wins, of losses and without a loss."""
    def longest(keep: Callable[[float], bool]) -> int:
        best = run = 0
        for g in games:
            run = run + 1 if keep(g.score) else 0
            best = max(best, run)
        return best

    current: dict[str, Any] = {"result": None, "games": 0}
    for g in reversed(games):
        if current["games"] and g.score != current["score"]:
            break
        current = {"result": {1.0: "win", 0.5: "draw", 0.0: "loss"}[g.score], "score": g.score,
                   "games": current["games"] + 1}
    current.pop("score", None)
    return {"current": current, "longest_wins": longest(lambda s: s == 1.0),
            "longest_losses": longest(lambda s: s == 0.0), "longest_unbeaten": longest(lambda s: s > 0.0)}


def whole_numbers(result: Any) -> bool:
    """Does the list publish whole numbers (mfsnb, fide)? Its standings are ints, as the tables show them."""
    ratings = [s.rating for s in result.standings.values() if s.rating is not None]
    return bool(ratings) and all(isinstance(r, int) for r in ratings)


def published(result: Any, events: list[Any]) -> list[tuple[float, date]]:
    """(rating, date) after each event that leaves a rating of the list. A list of whole numbers
    publishes them on its lists (and adjustments, tournaments): a match's row there is the arithmetic
    towards the next list (fide's running sum), not a rating of the list; its values are whole."""
    if not whole_numbers(result):
        return [(e.after, e.date) for e in events if e.after is not None]
    return [(round(e.after), e.date) for e in events if e.after is not None and e.kind != "match"]


def peak_and_low(result: Any, player: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    shown = published(result, result.history(player))
    if not shown:
        return None, None
    peak = max(shown, key=lambda x: x[0])          # max/min keep the first date a value was reached
    low = min(shown, key=lambda x: x[0])
    return {"rating": peak[0], "date": peak[1]}, {"rating": low[0], "date": low[1]}


def rating_before(result: Any, player: str, entry: str) -> float | None:
    """The player's rating on the list when match `entry` began: the match's `before`, else (a list
    that rates periods, as mfsnb: its match rows carry none) the rating their history last showed."""
    last = None
    for e in result.history(player):
        if e.kind == "match" and e.entry == entry:
            return e.before if e.before is not None else last
        if e.after is not None:
            last = e.after
    return None


def best_wins(result: Any, player: str, opponent: str | None = None) -> list[dict[str, Any]]:
    """The player's wins the list counts (history.played: not voided, forfeit, unrated or over the pair
    limit), by the opponent's rating before the match, highest first; a win over an opponent without
    a rating yet is not ranked."""
    from ..engines.window import opponents_events
    from ..reports import played

    whole = whole_numbers(result)
    faced = opponents_events(result, player) or {}   # (from the matches' records: no opponent's history built)
    found = []
    for e in result.history(player):
        if e.result != 1.0 or not played(e) or opponent is not None and e.opponent != opponent or e.entry is None:
            continue
        event = faced.get(e.entry)
        before = None if event is None else event.before
        # (a whole value may be an int in the opponent's history, exact_ints: read there, as it shows it)
        theirs = before if type(before) is float and not before.is_integer() else rating_before(result, e.opponent, e.entry)
        if theirs is not None:
            found.append({"date": e.date, "entry": e.entry, "opponent": e.opponent,
                          "opponent_rating": round(theirs) if whole else theirs})
    found.sort(key=lambda w: (-w["opponent_rating"], w["date"]))
    return found[:BEST]


def _changes(result: Any, player: str) -> dict[str, float | None]:
    return {e.entry: e.change for e in result.history(player) if e.kind == "match" and e.entry}


def _last(games: list[Game], result: Any, player: str) -> list[dict[str, Any]]:
    changes = _changes(result, player)
    return [{"date": g.day, "entry": g.entry, "opponent": g.opponent, "discipline": g.discipline,
             "length": g.length, "result": g.score, "change": changes.get(g.entry)} for g in games[-LAST:][::-1]]


def record_columns() -> list[Column]:
    return [Column("discipline", _("Discipline")), Column("length", _("Length"), "int"),
            Column("games", _("Games"), "int"), Column("wins", _("Wins"), "int"), Column("draws", _("Draws"), "int"),
            Column("losses", _("Losses"), "int"), Column("points", _("Points"), "number")]


def last_columns() -> list[Column]:
    return [Column("date", _("Date"), "date"), Column("entry", _("Entry")), Column("opponent", _("Opponent")),
            Column("discipline", _("Discipline")), Column("length", _("Length"), "int"),
            Column("result", _("Result"), "score"), Column("change", _("Change"), "change")]


def win_columns() -> list[Column]:
    return [Column("date", _("Date"), "date"), Column("entry", _("Entry")), Column("opponent", _("Opponent")),
            Column("opponent_rating", _("Opponent's rating before"), "rating")]


def _streak_text(s: dict[str, Any]) -> str:
    current, n = s["current"], s["current"]["games"]
    runs = {"win": ngettext("{n} win", "{n} wins", n), "draw": ngettext("{n} draw", "{n} draws", n),
            "loss": ngettext("{n} loss", "{n} losses", n)}
    now = runs[current["result"]].format(n=n) if n else _("none")
    return _("current {now}; longest runs: wins {wins}, losses {losses}, without a loss {unbeaten}").format(
        now=now, wins=s["longest_wins"], losses=s["longest_losses"], unbeaten=s["longest_unbeaten"])


def _summary_table(title: str, value: dict[str, Any], caption: str) -> Table:
    totals = {"discipline": _("all"), "length": None, **value["record"]}   # a row of the view (JSON: `record`)
    return Table(title, record_columns(), value["by_discipline"] + [totals], caption=caption, json_value=value)


def _streaks_caption(value: dict[str, Any]) -> str:
    return _("streaks: {streaks}").format(streaks=_streak_text(value["streaks"]))


def player(ledger: Any, result: Any, who: str, day: AsOf) -> list[Table]:
    """`nardrating player A`: tables (record, last games, best wins) as of `day`; the first one's JSON is
    the whole. A player without a game by then: the record alone, saying so."""
    journal = ledger.journal
    known_player(ledger, who)
    games = games_of(journal, who, upto=day.day)
    peak, low = peak_and_low(result, who)
    standing = result.standings.get(who)
    value = {"player": who, "name": journal.player_name(who), "rating": result.rating,
             "discipline": result.discipline, "as_of": day.day, "current_rating": None if standing is None else standing.rating,
             "record": record(games), "by_discipline": by_discipline(games), "streaks": streaks(games),
             "peak": peak, "low": low, "last": _last(games, result, who), "best_wins": best_wins(result, who)}
    from ..render import cell_text

    rating = Column("rating", "", "rating")  # 2 decimals, or none on a list of whole numbers (ints)
    extreme = "".join("; " + label.format(rating=cell_text(x["rating"], rating), day=x["date"])
                      for label, x in ((_("peak {rating} on {day}"), peak), (_("low {rating} on {day}"), low))
                      if x is not None)
    title = _("{player} · {name} · record").format(player=who, name=journal.player_name(who))
    if not games:   # (a rating without a game: an adjustment's, its peak and low said)
        return [_summary_table(title, value, _("no games {as_of}").format(as_of=day)
                               + (f"\n{result.rating} ({result.discipline}){extreme}" if extreme else ""))]
    summary = _summary_table(title, value,
                             _streaks_caption(value) + f"\n{result.rating} ({result.discipline}), {day}{extreme}")
    return [summary,
            Table(ngettext("{player} · last {n} game", "{player} · last {n} games", LAST).format(player=who, n=LAST),
                  last_columns(), value["last"]),
            Table(_("{player} · best wins ({rating}, {discipline})").format(
                player=who, rating=result.rating, discipline=result.discipline), win_columns(), value["best_wins"],
                  caption=None if value["best_wins"] else _("none"))]


def head_to_head(ledger: Any, result: Any, a: str, b: str, day: AsOf) -> list[Table]:
    """`nardrating head-to-head A B`: A's record against B as of `day`, their last meetings, each one's
    best win; two players who have not met by then: the record alone, saying so."""
    from ..errors import ActionRefused

    journal = ledger.journal
    for who in (a, b):
        known_player(ledger, who)
    if a == b:
        raise ActionRefused(_("head-to-head needs two different players, not {player!r} against themself").format(
            player=a))
    games = games_of(journal, a, b, upto=day.day)
    value = {"a": a, "b": b, "rating": result.rating, "discipline": result.discipline, "as_of": day.day,
             "record": record(games), "by_discipline": by_discipline(games), "streaks": streaks(games),
             "last": _last(games, result, a),
             "best_wins": {a: best_wins(result, a, b), b: best_wins(result, b, a)}}
    wins = [{**w, "player": p} for p in (a, b) for w in value["best_wins"][p]]
    title = _("{a} against {b} · record of {a}").format(a=a, b=b)
    if not games:
        return [_summary_table(title, value,
                               _("{a} and {b} have not played each other {as_of}").format(a=a, b=b, as_of=day))]
    return [_summary_table(title, value, _streaks_caption(value) + f"\n{day}"),
            Table(ngettext("{a} against {b} · last {n} meeting", "{a} against {b} · last {n} meetings", LAST).format(
                a=a, b=b, n=LAST), last_columns(), value["last"]),
            Table(_("{a} against {b} · best wins ({rating}, {discipline})").format(
                a=a, b=b, rating=result.rating, discipline=result.discipline),
                  [Column("player", _("Winner"))] + win_columns(), wins, caption=None if wins else _("none"))]
