"""A tournament run here on the published site: its standings with the FIDE tie-breaks and its
round-by-round crosstable, as of the site's day (the rounds dated by then with every result)."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ...i18n import _
from ...reports.tournaments import crosstable_table, standings_table, start_ratings
from ...tournaments.fromjournal import tournament_state

if TYPE_CHECKING:
    from ...reports.table import Table
    from ...replay.ledger import Ledger


def round_tables(ledger: Ledger, tournament_id: str, day: date) -> list[tuple[str, Table]] | None:
    """(heading, table) of the standings and the crosstable; None for a tournament without rounds."""
    journal = ledger.journal
    if not any(r.tournament == tournament_id for r in journal.rounds):
        return None
    state = tournament_state(journal, tournament_id, start_ratings(ledger, tournament_id))
    done = 0
    for r in state.rounds:
        if r.missing() or r.date is not None and r.date > day:
            break
        done += 1
    return [(_("Standings"), standings_table(state, done)), (_("Crosstable"), crosstable_table(state.upto(done)))]
