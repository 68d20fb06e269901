"""A tournament of the journal as a FIDE TRF16 report (`nardrating export trf`).

The layout is importers/trf.py's, in reverse: the 012/042/052/062/092 header, a 132 line
with each round's date, one 001 line per player with a 10-column cell per round. Rounds
are taken from the matches' notes ("round 3", as the TRF and PGN importers write them);
a tournament entered match by match is split into rounds by date, each match in the first
round after both players' previous games and after the rounds of earlier days. Ratings, federations and FIDE ids are
not in the journal and are left blank; byes are not matches and are not written.
"""
from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING

from ..errors import LedgerError, Problem
from ..i18n import _
from ..journal.model import MatchView

if TYPE_CHECKING:
    from ..replay.ledger import Ledger

_ROUND = re.compile(r"\bround\s+(\d+)\b", re.IGNORECASE)
_TITLE_CODES = {"GM": "g", "IM": "m", "FM": "f", "CM": "c", "WGM": "wg", "WIM": "wm", "WFM": "wf", "WCM": "wc"}
_SYSTEMS = {"swiss": "Individual: Swiss-System", "round-robin": "Individual: Round-Robin",
            "knockout": "Individual: Knockout", "match": "Individual: Match"}


def _rounds(games: list[MatchView]) -> list[int]:
    """Each match's round: from its note when every match has one, else in journal order (`games`
    sorted by date): each match in the first round after both players' previous games and after the
    rounds of earlier days, so that a round is one day's (the 132 line has one date a round, and
    importing the file dates every game by it)."""
    noted = [_ROUND.search(g.note or "") for g in games]
    if games and all(noted):
        return [int(m[1]) for m in noted if m]
    last: dict[str, int] = {}
    rounds: list[int] = []
    day, before = None, 0   # the day of the games so far, the last round of the days before it
    for g in games:
        if g.date != day:
            day, before = g.date, max(rounds, default=0)
        r = max(last.get(g.a, 0), last.get(g.b, 0), before) + 1
        last[g.a] = last[g.b] = r
        rounds.append(r)
    return rounds


def export_trf(ledger: Ledger, tournament_id: str) -> str:
    """The tournament's TRF16 report; refused for an unknown tournament or one a TRF cannot say."""
    journal = ledger.journal
    from ..journal.actions.tournaments import known_tournament

    known_tournament(ledger, tournament_id)
    t = journal.tournaments[tournament_id]
    if any(r.tournament == tournament_id for r in journal.rounds) or (t.play is not None and t.play.players):
        # run here: its rounds as recorded (none yet: the start list and XXR, for an engine to pair round 1)
        from .trf_rounds import rounds_trf

        return rounds_trf(journal, tournament_id)
    code = journal.tournament_codes.index.get(tournament_id, -2)
    m = journal.matches
    games = [journal.match(i) for i in sorted((i for i in range(len(m.ids)) if m.tournament[i] == code),
                                              key=lambda i: (m.dates[i], m.seq[i])) if i not in journal.voided]
    if not games:
        raise LedgerError([Problem(t.file, t.line, _("tournament '{tournament}' has no games and no start list yet: "
                                                     "a TRF of it would have no player line; add its matches "
                                                     "first (add-match A B --tournament {tournament})").format(
                                                         tournament=tournament_id), tournament_id)])
    rounds = _rounds(games)
    count = max(rounds, default=0)
    clash = _clash(games, rounds)
    if clash:
        raise LedgerError([Problem(clash.file, clash.line, _("{match}: a player has two games in one round of the "
                                                             "tournament; a TRF holds one game per player and "
                                                             "round").format(match=clash.id), clash.id)])
    order = {pid: k for k, pid in enumerate(journal.players)}
    players = sorted({p for g in games for p in g.players}, key=lambda p: order.get(p, len(order)))
    rank = {p: k for k, p in enumerate(players, start=1)}
    cells = {p: ["".ljust(8)] * count for p in players}
    points = dict.fromkeys(players, 0.0)
    day_of_round: dict[int, date] = {}
    for g, r in zip(games, rounds):
        day_of_round[r] = min(day_of_round.get(r, g.date), g.date)
        for me, other, score, colour in ((g.a, g.b, g.score_a, "w"), (g.b, g.a, 1.0 - g.score_a, "b")):
            mark = (("+" if score == 1 else "-" if score == 0 else "=") if g.forfeit
                    else ("1" if score == 1 else "0" if score == 0 else "=") if g.rated
                    else ("W" if score == 1 else "L" if score == 0 else "D"))
            cells[me][r - 1] = f"{rank[other]:>4} {colour} {mark}"
            points[me] += score
    place = {p: k for k, p in enumerate(sorted(players, key=lambda p: (-points[p], rank[p])), start=1)}
    lines = [f"012 {t.name}", f"042 {t.start:%Y/%m/%d}", f"052 {t.end:%Y/%m/%d}", f"062 {len(players)}",
             f"092 {_SYSTEMS.get(t.system, t.system)}"]
    if day_of_round:
        lines.append(("132" + " " * 88 + "".join(
            f"{day_of_round[r]:%y/%m/%d}  " if r in day_of_round else " " * 10 for r in range(1, count + 1))).rstrip())
    for p in players:
        player = journal.players.get(p)
        name = (player.name if player else p)[:33]
        title = _TITLE_CODES.get((player.title or "").upper(), "") if player else ""
        head = f"001 {rank[p]:>4}  {title:>3} {name:<33} {'':>4} {'':<3} {'':>11} {'':<10} {points[p]:>4.1f} {place[p]:>4}"
        lines.append((head + "".join(f"  {cell}" for cell in cells[p])).rstrip())
    return "\n".join(lines) + "\n"


def _clash(games: list[MatchView], rounds: list[int]) -> MatchView | None:
    """The first game whose player already has a game in its round, if any."""
    seen: set[tuple[str, int]] = set()
    for g, r in zip(games, rounds):
        for p in g.players:
            if (p, r) in seen:
                return g
            seen.add((p, r))
    return None
