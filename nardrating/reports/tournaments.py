"""The tournament director's reports as tables: the tournaments, a start list, a round's pairing,
standings with tie-breaks and the crosstable.

JSON keys: `tournaments`: id, name, system, pairing, start, end, rounds, players; `entrants`:
number, player, name, rating; `pair`: {tournament, round, pairs: [{board, white, black}],
byes: [{player, kind}]}; `standings`: rank, player, name, points, tiebreaks (name → value);
`crosstable`: rank, number, player, name, rating, rounds ([{round, opponent, colour, result,
kind}]), points, tiebreaks. Table, CSV and Markdown give the tie-breaks a column each.
A tournament entered by hand (no [[round]]s) has standings from its games: rank, player, name,
points, tiebreaks (none), games.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ..i18n import _
from ..tournaments.model import BYE_WORDS, Cell, Round, Tournament
from ..tournaments.standings import crosstable, standings
from ..tournaments.systems import planned_rounds
from ..tournaments.tiebreaks import HEADINGS, default_order
from ..tournaments.trfx import BYE_CODES
from .table import Column, Row, Table

if TYPE_CHECKING:
    from ..journal.model import Journal, MatchView, Tournament as EnteredTournament
    from ..replay.ledger import Ledger

RESULT_SIGNS = {1.0: "1", 0.5: "½", 0.0: "0"}


def start_ratings(club: Ledger, tid: str) -> dict[str, float | None]:
    """Each player's rating on the first list rating the tournament's discipline, the day before it starts."""
    t = club.journal.tournaments[tid]
    rating = next((r for r in club.config.ratings.values() if r.rates(t.discipline)), None)
    if rating is None:
        return {}
    return club.ratings_on(rating, t.discipline, t.start - timedelta(days=1))


def tournament_list(journal: Journal, states: dict[str, Tournament]) -> Table:
    """Every tournament of the journal; `rounds` is the planned number (its `rounds`, else its Berger
    table's or knockout bracket's), else the rounds recorded; `players` the entrants (a tournament
    without a start list: its matches' players)."""
    rows: list[Row] = []
    code_of = journal.tournament_codes.index
    m = journal.matches
    for t in sorted(journal.tournaments.values(), key=lambda t: (t.start, t.seq)):
        state = states.get(t.id)
        if state is not None and (state.entrants or state.rounds):
            rounds: int | None = planned_rounds(state) or len(state.rounds) or None
            count = len(state.entrants)
        else:
            code = code_of.get(t.id, -2)
            names = journal.player_codes.names
            count = len({names[x] for i, c in enumerate(m.tournament) if c == code for x in (m.a[i], m.b[i])})
            rounds = t.play.rounds if t.play is not None else None
        rows.append({"id": t.id, "name": t.name, "system": t.system,
                     "pairing": t.play.pairing if t.play is not None else None, "start": t.start, "end": t.end,
                     "rounds": rounds, "players": count})
    columns = [Column("id", _("Tournament")), Column("name", _("Name")), Column("system", _("System")),
               Column("pairing", _("Pairing")), Column("start", _("Start"), "date"), Column("end", _("End"), "date"),
               Column("rounds", _("Rounds"), "int"), Column("players", _("Players"), "int")]
    return Table(_("Tournaments"), columns, rows)


def entrant_list(state: Tournament) -> Table:
    rows: list[Row] = [{"number": e.number, "player": e.player, "name": e.name, "rating": e.rating}
                       for e in sorted(state.entrants, key=lambda e: e.number)]
    late = [e for e in state.entrants if e.joined > 1 or e.withdrawn is not None]
    notes = [_("{player}: from round {round}").format(player=e.player, round=e.joined) for e in late if e.joined > 1]
    notes += [_("{player}: withdrawn from round {round}").format(player=e.player, round=e.withdrawn)
              for e in late if e.withdrawn is not None]
    columns = [Column("number", _("No."), "int"), Column("player", _("Player")), Column("name", _("Name")),
               Column("rating", _("Rating"), "rating")]
    return Table(_("{name} · start list").format(name=state.name or state.id), columns, rows,
                 caption="; ".join(notes) or None)


def pairing_table(state: Tournament, played: Round) -> Table:
    name = {e.player: e.name for e in state.entrants}
    rows: list[Row] = [{"board": b.board, "white": b.white, "white_name": name.get(b.white, b.white),
                        "black": b.black, "black_name": name.get(b.black, b.black)} for b in played.boards]
    byes = "; ".join(_("{player} ({name}): {kind}").format(player=bye.player, name=name.get(bye.player, bye.player),
                                                            kind=_(BYE_WORDS[bye.kind])) for bye in played.byes)
    columns = [Column("board", _("Board"), "int"), Column("white", _("White")), Column("white_name", _("Name")),
               Column("black", _("Black")), Column("black_name", _("Name"))]
    value = {"tournament": state.id, "round": played.number,
             "pairs": [{"board": b.board, "white": b.white, "black": b.black} for b in played.boards],
             "byes": [{"player": bye.player, "kind": bye.kind} for bye in played.byes]}
    title = _("{name} · round {round}").format(name=state.name or state.id, round=played.number)
    if played.date is not None:
        title += f" · {played.date}"
    return Table(title, columns, rows, caption=_("byes: {byes}").format(byes=byes) if byes else None,
                 json_value=value)


def _tiebreak_columns(order: Sequence[str]) -> list[Column]:
    return [Column(name, _(HEADINGS[name]), "number") for name in order]


def standings_table(state: Tournament, after: int | None = None) -> Table:
    shown = state if after is None else state.upto(after)
    order = tuple(state.tiebreaks or default_order(state))
    rows = standings(shown, order)
    flat: list[Row] = [{"rank": s.rank, "player": s.entrant.player, "name": s.entrant.name, "points": s.points,
                        **s.tiebreaks} for s in rows]
    value = [{"rank": s.rank, "player": s.entrant.player, "name": s.entrant.name, "points": s.points,
              "tiebreaks": dict(s.tiebreaks)} for s in rows]
    columns = [Column("rank", "#", "int"), Column("player", _("Player")), Column("name", _("Name")),
               Column("points", _("Points"), "number"), *_tiebreak_columns(order)]
    title = _("{name} · standings after round {round}").format(name=state.name or state.id, round=len(shown.rounds))
    return Table(title, columns, flat, json_value=value)


def tournament_games(journal: Journal, tournament_id: str, until: date) -> list[MatchView]:
    """The tournament's matches up to the day, voided ones left out: its rows found by the columns'
    codes and dates, a match made only of those (not of every match of a big journal)."""
    code = journal.tournament_codes.index.get(tournament_id)
    if code is None:
        return []
    m, last = journal.matches, until.toordinal()
    rows = [i for i, (t, day) in enumerate(zip(m.tournament, m.dates)) if t == code and day <= last]
    return [journal.match(i) for i in rows if journal.exclusion(i) != "voided"]


def tournament_standings(t: EnteredTournament, games: list[MatchView]) -> list[dict[str, Any]]:
    """Places as the journal records them (standings), else by points, then id; games and points from the matches."""
    points: dict[str, float] = {}
    played: dict[str, int] = {}
    for g in games:
        for who in g.players:
            points[who] = points.get(who, 0.0) + g.score_of(who)
            played[who] = played.get(who, 0) + 1
    if t.standings:
        rows = [{"place": str(p.low) if p.low == p.high else f"{p.low}-{p.high}", "player": p.player,
                 "games": played.get(p.player, 0), "points": points.get(p.player, 0.0)} for p in t.standings]
        listed = {p.player for p in t.standings}
        rows += [{"place": "", "player": who, "games": played[who], "points": points[who]}
                 for who in sorted(played) if who not in listed]
        return rows
    ranked = sorted(points, key=lambda who: (-points[who], who))
    rows = []
    for who in ranked:
        tied = [m for m, other in enumerate(ranked, start=1) if points[other] == points[who]]
        place = str(tied[0]) if len(tied) == 1 else f"{tied[0]}-{tied[-1]}"
        rows.append({"place": place, "player": who, "games": played[who], "points": points[who]})
    return rows


def entered_standings_table(journal: Journal, tournament_id: str) -> Table:
    """`standings T` of a tournament entered by hand, not paired here: the places its entry records,
    else by points (tied players share the place); games and points from its matches."""
    t = journal.tournaments[tournament_id]
    rows = tournament_standings(t, tournament_games(journal, tournament_id, date.max))
    value = [{"rank": int(row["place"].split("-")[0]) if row["place"] else None, "player": row["player"],
              "name": journal.player_name(row["player"]), "points": row["points"], "tiebreaks": {},
              "games": row["games"]} for row in rows]
    flat: list[Row] = [{k: v for k, v in row.items() if k != "tiebreaks"} for row in value]
    columns = [Column("rank", "#", "int"), Column("player", _("Player")), Column("name", _("Name")),
               Column("games", _("Games"), "int"), Column("points", _("Points"), "number")]
    how = (_("not paired here: the places its [[tournament]] entry records") if t.standings
           else _("not paired here: ranked by points, players level sharing the place; no tie-breaks without rounds"))
    return Table(_("{name} · standings").format(name=t.name or t.id), columns, flat, caption=how, json_value=value)


def cell_text(cell: Cell, numbers: dict[str, int]) -> str:
    """One crosstable cell: '12w1' (opponent 12, white, won), '7b½', '3w+' (a forfeit won), or the
    bye's TRF code (U pairing-allocated, H half-point, F full-point, Z absent); '-' withdrawn."""
    if cell.opponent is not None:
        mark = RESULT_SIGNS[cell.points] if cell.kind == "game" else "+" if cell.points == 1 else "-"
        return f"{numbers[cell.opponent]}{cell.colour or ''}{mark}"
    return "-" if cell.kind == "withdrawn" else "" if cell.kind == "unpaired" else BYE_CODES[cell.kind]


def result_code(cell: Cell) -> str:
    if cell.opponent is not None:
        return {1.0: "1", 0.5: "=", 0.0: "0"}[cell.points] if cell.kind == "game" else "+" if cell.points == 1 else "-"
    return BYE_CODES.get(cell.kind, "Z")


def crosstable_table(state: Tournament) -> Table:
    order = tuple(state.tiebreaks or default_order(state))
    numbers = {e.player: e.number for e in state.entrants}
    rows = crosstable(state, order)
    rounds = [str(r.number) for r in state.rounds]
    flat: list[Row] = []
    value = []
    for row in rows:
        s = row.standing
        head = {"rank": s.rank, "number": s.entrant.number, "player": s.entrant.player, "name": s.entrant.name,
                "rating": s.entrant.rating}
        flat.append({**head, **{r: cell_text(c, numbers) for r, c in zip(rounds, row.cells)}, "points": s.points,
                     **s.tiebreaks})
        value.append({**head, "rounds": [{"round": c.round, "opponent": numbers.get(c.opponent or ""),
                                          "colour": c.colour, "result": result_code(c), "kind": c.kind}
                                         for c in row.cells],
                      "points": s.points, "tiebreaks": dict(s.tiebreaks)})
    columns = [Column("rank", "#", "int"), Column("number", _("No."), "int"), Column("player", _("Player")),
               Column("name", _("Name")), Column("rating", _("Rating"), "rating"),
               *[Column(r, r) for r in rounds], Column("points", _("Points"), "number"), *_tiebreak_columns(order)]
    caption = _("each round: the opponent's number, w or b, the result (+ or - a forfeit won or lost); U "
                "pairing-allocated bye, H half-point bye, F full-point bye, Z absent, - alone withdrawn")
    return Table(_("{name} · crosstable").format(name=state.name or state.id), columns, flat, caption=caption,
                 json_value=value)
