"""A tournament's state from a checked journal: its start list and late entries, its [[round]]s,
and each board's result from the [[match]] that names the round (voided ones left out).

The one place the library meets the journal; the pairing and tie-break modules never import it.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..journal.model import Journal
from .model import Board, Bye, Entrant, Round, Tournament

ROUND_ROBINS = ("berger", "double-berger")


def start_list(journal: Journal, tid: str) -> list[tuple[str, int]]:
    """(player, first round) of every entrant, in pairing-number order: the start list, then the
    late entries in journal order."""
    t = journal.tournaments[tid]
    players = [(p, 1) for p in (t.play.players or ())] if t.play is not None else []
    joins = sorted((c for c in journal.changes if c.tournament == tid and c.kind == "join"), key=lambda c: c.seq)
    return players + [(c.player, c.round) for c in joins]


def results(journal: Journal, tid: str) -> dict[tuple[int, str, str], str]:
    """(round, white, black) → the result, from white's side, of every match naming a round of `tid`."""
    code = journal.tournament_codes.index.get(tid, -2)
    m = journal.matches
    found: dict[tuple[int, str, str], str] = {}
    for i, extra in m.extra.items():
        if "round" not in extra or m.tournament[i] != code or i in journal.voided:
            continue
        match = journal.match(i)
        if match.forfeit:
            result = "+-" if match.score_a == 1 else "-+"
        else:
            result = {1.0: "1-0", 0.0: "0-1"}.get(match.score_a, "1/2-1/2")
        found[(extra["round"], match.a, match.b)] = result
    return found


def tournament_state(journal: Journal, tid: str, ratings: Mapping[str, float | None] | None = None) -> Tournament:
    """The state of tournament `tid` (a KeyError if there is none)."""
    t = journal.tournaments[tid]
    play = t.play
    gone = {c.player: c.round for c in journal.changes if c.tournament == tid and c.kind == "withdraw"}
    entrants = tuple(Entrant(k, p, journal.player_name(p), (ratings or {}).get(p), joined, gone.get(p))
                     for k, (p, joined) in enumerate(start_list(journal, tid), start=1))
    decided = results(journal, tid)
    rounds = []
    for r in sorted((r for r in journal.rounds if r.tournament == tid), key=lambda r: r.seq):
        boards = tuple(Board(n, w, b, decided.get((r.round, w, b))) for n, w, b in r.boards)
        rounds.append(Round(r.round, boards, tuple(Bye(p, kind) for p, kind in r.byes), r.date))
    pairing = play.pairing if play is not None else None
    bye_points = play.bye_points if play is not None and play.bye_points is not None else (
        0.0 if pairing in ROUND_ROBINS else 1.0)
    return Tournament(
        tid, t.name, pairing, play.rounds if play is not None else None, entrants, tuple(rounds),
        frozenset(frozenset(pair) for pair in (play.forbidden if play is not None else ())), bye_points,
        play.max_losses if play is not None else None, play.tiebreaks if play is not None else None, t.system,
        t.start, t.end)
