"""How the journal holds a tournament that is run here: its pairing fields, its rounds, late entries
and withdrawals, as small frozen records (the entry models are in playentries.py).

A `[[tournament]]` with `pairing` (and `rounds`, `players`, `tiebreaks`, `forbidden`, `bye_points`,
`max_losses`, `length`) carries a `TournamentPlay`; `pair` appends a `[[round]]` (`RoundRecord`); `[[join]]`
and `[[withdraw]]` are `Change`s. The results are `[[match]]` entries with `tournament` and
`round`. `meta`/`from_meta` are what the cache stores of them.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from ..datarecords import datarecord


@datarecord(frozen=True, slots=True)
class TournamentPlay:
    """The fields of play of a [[tournament]] run here: pairing, rounds, players, tiebreaks… (None: not given)."""
    pairing: str | None = None
    rounds: int | None = None
    players: tuple[str, ...] | None = None
    tiebreaks: tuple[str, ...] | None = None
    forbidden: tuple[tuple[str, str], ...] = ()
    bye_points: float | None = None
    max_losses: int | None = None
    length: int | None = None   # the match length of its boards (None: each result's own, 1 by default)


@datarecord(frozen=True, slots=True)
class RoundRecord:
    """A [[round]] as pair wrote it: tournament, round number and date, boards and byes, and where it is."""
    tournament: str
    round: int
    date: date
    boards: tuple[tuple[int, str, str], ...]   # (board, white, black)
    byes: tuple[tuple[str, str], ...]           # (player, kind)
    file: str = ""
    line: int | None = None
    seq: int = 0


@datarecord(frozen=True, slots=True)
class Change:
    """A late entry (kind "join": the first round the player can be paired in) or a withdrawal
    ("withdraw": the first round the player is no longer paired in)."""
    kind: str
    tournament: str
    player: str
    round: int
    date: date
    reason: str = ""
    file: str = ""
    line: int | None = None
    seq: int = 0


def meta(plays: dict[str, TournamentPlay], rounds: list[RoundRecord], changes: list[Change]) -> dict[str, Any]:
    """What the cache stores, as JSON values."""
    return {"tournaments": {tid: [p.pairing, p.rounds, list(p.players) if p.players is not None else None,
                                  list(p.tiebreaks) if p.tiebreaks is not None else None,
                                  [list(pair) for pair in p.forbidden], p.bye_points, p.max_losses, p.length]
                            for tid, p in plays.items()},
            "rounds": [[r.tournament, r.round, r.date.isoformat(), [list(b) for b in r.boards],
                        [list(b) for b in r.byes], r.file, r.line, r.seq] for r in rounds],
            "changes": [[c.kind, c.tournament, c.player, c.round, c.date.isoformat(), c.reason, c.file, c.line, c.seq]
                        for c in changes]}


def from_meta(value: Any, relabel: dict[str, str]) -> tuple[dict[str, TournamentPlay], list[RoundRecord], list[Change]]:
    """The records back from the cache; any damage raises (ValueError, TypeError, KeyError …) and the
    caller reads the journal itself."""
    def text(v: Any) -> str:
        if not isinstance(v, str):
            raise ValueError("bad text")
        return v

    def number(v: Any) -> int:
        if type(v) is not int:
            raise ValueError("bad number")
        return v

    def texts(v: Any) -> tuple[str, ...]:
        if not isinstance(v, list):
            raise ValueError("bad list")
        return tuple(text(x) for x in v)

    plays = {}
    for tid, (pairing, rounds, players, tiebreaks, forbidden, bye_points, max_losses, length) in value["tournaments"].items():
        if bye_points is not None and type(bye_points) not in (int, float):
            raise ValueError("bad bye points")
        plays[text(tid)] = TournamentPlay(
            None if pairing is None else text(pairing), None if rounds is None else number(rounds),
            None if players is None else texts(players), None if tiebreaks is None else texts(tiebreaks),
            tuple((text(a), text(b)) for a, b in forbidden), bye_points, None if max_losses is None else number(max_losses),
            None if length is None else number(length))
    played = [RoundRecord(text(t), number(r), date.fromisoformat(text(d)),
                          tuple((number(b), text(w), text(k)) for b, w, k in boards),
                          tuple((text(p), text(k)) for p, k in byes), relabel[file],
                          None if line is None else number(line), number(seq))
              for t, r, d, boards, byes, file, line, seq in value["rounds"]]
    changes = [Change(text(kind), text(t), text(p), number(r), date.fromisoformat(text(d)), text(reason), relabel[file],
                      None if line is None else number(line), number(seq))
               for kind, t, p, r, d, reason, file, line, seq in value["changes"]]
    return plays, played, changes
