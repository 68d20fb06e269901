"""One small interface for every pairing system: a state in, the next round out.

`next_round(state, pairer, absent=…, half_byes=…, rematches=…)` makes the checks every system shares
(the previous round complete, the players known and still in the event, the event not
finished), decides the byes that are no pairer's business (requested half-point byes,
absences, withdrawals), and asks the `Pairer` for the boards and the pairing-allocated bye.
A pairer sees a `Draft`: the state, the round's number and the players to pair, in
pairing-number order. `systems.pairer_for(state)` is the pairer the tournament's `pairing` names.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from ..datarecords import datarecord, field
from ..i18n import _
from .model import ABSENT, HALF_POINT, PAIRING_ALLOCATED, WITHDRAWN, Board, Bye, Entrant, Round, Tournament


class PairingError(Exception):
    """The round cannot be paired as asked; the message says why in plain words."""


@datarecord(frozen=True)
class Draft:
    """What a pairer is given: the state, the round's number, the players to pair, the byes already decided."""
    state: Tournament
    round: int
    players: tuple[Entrant, ...]        # to be paired, in pairing-number order
    byes: dict[str, str] = field(default_factory=dict)  # player → bye kind already decided
    rematches: bool = False             # pair --rematches: players may meet again where no round is possible otherwise

    def met(self) -> set[frozenset[str]]:
        return self.state.played_pairs()


@datarecord(frozen=True)
class Paired:
    """What a pairer decides: the boards (white, black) in board order and the pairing-allocated
    bye (a Swiss has one at most; a round-robin's withdrawals may free more players)."""
    pairs: list[tuple[str, str]]
    byes: tuple[str, ...] = ()


class Pairer(Protocol):
    #: whether requested absences and half-point byes leave the player out of this system's round
    takes_requests: bool

    def finished(self, state: Tournament) -> bool:
        """Whether the event has no further round to pair (beyond its planned rounds)."""
        ...

    def pair(self, draft: Draft) -> Paired: ...


def planned_out(state: Tournament, last: int | None) -> bool:
    limit = state.rounds_planned if state.rounds_planned is not None else last
    return limit is not None and len(state.rounds) >= limit


def next_round(state: Tournament, pairer: Pairer, absent: Iterable[str] = (), half_byes: Iterable[str] = (),
               rematches: bool = False) -> Round:
    """The next round of `state` by `pairer`, or PairingError saying why there is none. `rematches`:
    the director lets players meet again where the round cannot be paired otherwise (`losses` only:
    the other systems' rules and tables decide who meets whom)."""
    if rematches and state.pairing != "losses":
        raise PairingError(_("--rematches is for pairing = \"losses\"; '{tournament}' is paired by {pairing}, whose "
                             "rules decide who meets whom").format(tournament=state.id, pairing=state.pairing))
    absent, half_byes = list(dict.fromkeys(absent)), list(dict.fromkeys(half_byes))
    number = len(state.rounds) + 1
    if state.rounds:
        missing = state.rounds[-1].missing()
        if missing:
            raise PairingError(_("round {round} has no result on board {boards}; enter them first "
                                 "(nardrating results {tournament})").format(
                round=state.rounds[-1].number, boards=", ".join(str(b.board) for b in missing), tournament=state.id))
    if pairer.finished(state):
        why = getattr(pairer, "why_finished", lambda _state: None)(state)   # (a system ended by more than its rounds)
        raise PairingError(why or _("tournament '{tournament}' is finished: all {rounds} rounds are paired").format(
            tournament=state.id, rounds=len(state.rounds)))
    byes: dict[str, str] = {}
    for option, asked, kind in (("--absent", absent, ABSENT), ("--half-bye", half_byes, HALF_POINT)):
        for player in asked:
            entrant = state.entrant(player)
            if entrant is None:
                raise PairingError(_("{option} {player}: '{player}' is not an entrant of '{tournament}'").format(
                    option=option, player=player, tournament=state.id))
            if not entrant.active_in(number):
                raise PairingError(_("{option} {player}: '{player}' is not in round {round} (withdrawn or "
                                     "not yet entered)").format(option=option, player=player, round=number))
            if player in byes:
                raise PairingError(_("'{player}' is given both --absent and --half-bye").format(player=player))
            if not pairer.takes_requests:
                raise PairingError(_("{option}: a {pairing} event pairs every player by its table or bracket; "
                                     "enter an absent player's game as a forfeit instead").format(
                    option=option, pairing=state.pairing))
            byes[player] = kind
    for e in state.entrants:
        if e.withdrawn is not None and e.withdrawn <= number and e.joined <= number:
            byes[e.player] = WITHDRAWN
    players = tuple(e for e in sorted(state.entrants, key=lambda e: e.number)
                    if e.active_in(number) and e.player not in byes)
    paired = pairer.pair(Draft(state, number, players, dict(byes), rematches))
    boards = tuple(Board(k, white, black) for k, (white, black) in enumerate(paired.pairs, start=1))
    all_byes = [Bye(p, PAIRING_ALLOCATED) for p in paired.byes] + [Bye(p, k) for p, k in byes.items()]
    return Round(number, boards, tuple(all_byes))


def colour_history(state: Tournament, player: str) -> list[str]:
    """The colours of the player's games played over the board, in order ("w"/"b")."""
    return [c.colour for c in state.cells()[player] if c.played and c.colour]


def balanced(state: Tournament, a: str, b: str, rank: Callable[[str], int]) -> tuple[str, str]:
    """(white, black) for two players outside a Swiss system's colour rules: white to the one
    with fewer whites than blacks; then to the one who had black last; then the higher ranked."""
    ha, hb = colour_history(state, a), colour_history(state, b)
    da, db = ha.count("w") - ha.count("b"), hb.count("w") - hb.count("b")
    if da != db:
        return (a, b) if da < db else (b, a)
    la, lb = (ha[-1] if ha else None), (hb[-1] if hb else None)
    if la != lb:
        return (a, b) if la == "b" or lb == "w" else (b, a)
    return (a, b) if rank(a) <= rank(b) else (b, a)
