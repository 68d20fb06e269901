"""The `losses` system (nardy's Swiss "until 3 losses"): play until `max_losses` losses.

The rule this module applies, round by round:

1. A player with `max_losses` lost games (forfeits included) leaves the event; the event is
   over when one player or none is left (or its planned rounds are played).
2. The players still in are ranked by points, then pairing number; equal points make a
   score group.
3. With an odd number, the lowest-ranked player who has had no pairing-allocated bye gets
   one (it scores `bye_points` and is no loss); if every one has had one, the lowest-ranked.
4. The highest-ranked unpaired player meets the highest-ranked player they have not been
   paired with before and who is not a forbidden pair, as far as the others can then still
   all be paired; so a player plays within their score group and floats to the next group
   only when no opponent is left in their own. Two players are never paired twice, unless the
   director asks for it (`pair --rematches`) for a round that cannot be paired otherwise: then as
   few pairs as can be meet again, and the rule above decides which.
5. Colours: white to the one with fewer whites than blacks, then to the one who had black
   last, then to the higher-ranked.
"""
from __future__ import annotations

from ..i18n import _
from .model import PAIRING_ALLOCATED, Entrant, Tournament
from .pairing import Draft, Paired, PairingError, balanced, planned_out

STEPS = 200_000  # backtracking steps before giving up (a club's field pairs in far fewer)


class LossesPairer:
    takes_requests = True

    def finished(self, state: Tournament) -> bool:
        if planned_out(state, None):
            return True
        return state.max_losses is not None and bool(state.rounds) and len(_left(state)) <= 1

    def why_finished(self, state: Tournament) -> str | None:
        """Why the event is over when its losses, not its planned rounds, ended it."""
        if planned_out(state, None) or state.max_losses is None:
            return None
        left = _left(state)
        said = (_("tournament '{tournament}' is finished: {player} is the only player left with fewer than {limit} "
                  "losses") if left else
                _("tournament '{tournament}' is finished: no player is left with fewer than {limit} losses"))
        return said.format(tournament=state.id, player=left[0] if left else "", limit=state.max_losses)

    def pair(self, draft: Draft) -> Paired:
        state = draft.state
        if state.max_losses is None:
            raise PairingError(_("tournament '{tournament}' pairs by losses but gives no max_losses; add "
                                 "max_losses = 3 (say) to its [[tournament]] entry").format(tournament=state.id))
        cells = state.cells()
        players = [e for e in draft.players if state.losses(e.player) < state.max_losses]
        players.sort(key=lambda e: (-sum(c.points for c in cells[e.player]), e.number))
        if len(players) < 2:
            raise PairingError(_("tournament '{tournament}' is finished: fewer than two players are left "
                                 "with under {limit} losses").format(tournament=state.id, limit=state.max_losses))
        had_bye = {e.player for e in players if any(c.kind == PAIRING_ALLOCATED for c in cells[e.player])}
        candidates: list[Entrant | None] = [None]
        if len(players) % 2:
            order = list(reversed(players))
            candidates = [*(e for e in order if e.player not in had_bye), *(e for e in order if e.player in had_bye)]
        forbidden, met = set(state.forbidden), state.paired_pairs()
        # No rematch at all; with --rematches, one at most, then two…: the fewest that pair the round.
        for allowed in range(len(players) // 2 + 1 if draft.rematches else 1):
            budget = [STEPS]
            for bye in candidates:
                rest = [e.player for e in players if e is not bye]
                found = _match(rest, forbidden, met, allowed, budget)
                if found is not None:
                    rank = {p: k for k, p in enumerate(e.player for e in players)}
                    pairs = [balanced(state, a, b, rank.__getitem__) for a, b in found]
                    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
                    return Paired(pairs, (bye.player,) if bye is not None else ())
                if budget[0] <= 0:
                    break
        if draft.rematches:
            raise PairingError(_("round {round} of '{tournament}' cannot be paired even with rematches: its forbidden "
                                 "pairs leave no way").format(round=draft.round, tournament=state.id))
        raise PairingError(_("round {round} of '{tournament}' cannot be paired without two players meeting again (or "
                             "a forbidden pair); to let players meet again, as few pairs as can be: nardrating pair "
                             "{tournament} --rematches").format(round=draft.round, tournament=state.id))


def _left(state: Tournament) -> list[str]:
    """The players still in the event for its next round: fewer than `max_losses` losses, not withdrawn."""
    number, limit = len(state.rounds) + 1, state.max_losses or 0
    return [e.player for e in state.entrants if state.losses(e.player) < limit
            and (e.withdrawn is None or e.withdrawn > number)]


def _match(order: list[str], forbidden: set[frozenset[str]], met: set[frozenset[str]], allowed: int,
           budget: list[int]) -> list[tuple[str, str]] | None:
    """Pairs of `order` (ranked), each top unpaired player with the first possible opponent below:
    never a forbidden pair, and at most `allowed` pairs of `met` again."""
    if not order:
        return []
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    top, rest = order[0], order[1:]
    for k, other in enumerate(rest):
        pair = frozenset((top, other))
        again = pair in met
        if pair in forbidden or (again and not allowed):
            continue
        found = _match(rest[:k] + rest[k + 1:], forbidden, met, allowed - again, budget)
        if found is not None:
            return [(top, other)] + found
        if budget[0] <= 0:
            return None
    return None
