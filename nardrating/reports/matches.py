"""`matches`: the journal's matches with their ids, narrowed by date, player or tournament, so that
a mistake can be found and amended."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ..datarecords import datarecord
from ..errors import ActionRefused, did_you_mean, player_hint
from ..i18n import _, ngettext
from ..journal.limits import RESULT_TEXT
from .table import Column, Row, Table

if TYPE_CHECKING:
    from ..replay.ledger import Ledger


@datarecord(frozen=True)
class MatchFilter:
    """What `matches` narrows to; None: any."""
    day: date | None = None
    since: date | None = None
    until: date | None = None
    player: str | None = None
    tournament: str | None = None
    voided: bool = False        # also the voided matches


def matches(ledger: Ledger, wanted: MatchFilter) -> Table:
    """One row per match, in replay order (by date, then place in the journal; a match that amends
    another stands in its place): id, date, players, result, length, discipline, tournament, rated
    (false: entered unrated, or a forfeit: no list rates it), voided."""
    journal = ledger.journal
    if wanted.player is not None and wanted.player not in journal.players:
        raise ActionRefused(_("--player: unknown player {player}{hint}").format(
            player=repr(wanted.player), hint=player_hint(wanted.player, journal.players)))
    if wanted.tournament is not None and wanted.tournament not in journal.tournaments:
        raise ActionRefused(_("--tournament: unknown tournament {tournament}{hint}").format(
            tournament=repr(wanted.tournament), hint=did_you_mean(wanted.tournament, journal.tournaments)))
    m = journal.matches
    names, disciplines = journal.player_codes.names, journal.discipline_codes.names
    tournaments = journal.tournament_codes.names
    player = journal.player_codes.index.get(wanted.player, -2) if wanted.player is not None else None
    tournament = journal.tournament_codes.index.get(wanted.tournament, -2) if wanted.tournament is not None else None
    lows = [d.toordinal() for d in (wanted.day, wanted.since) if d is not None]
    highs = [d.toordinal() for d in (wanted.day, wanted.until) if d is not None]
    first, last = max(lows, default=0), min(highs, default=1 << 30)
    # The rows asked for first, then those sorted (not a million sorted to keep a player's hundred).
    kept: range | list[int] = range(len(m.ids))
    if player is not None:
        kept = [i for i, a, b in zip(kept, m.a, m.b) if a == player or b == player]
    if tournament is not None:
        kept = [i for i in kept if m.tournament[i] == tournament]
    if first > 0 or last < 1 << 30:
        kept = [i for i in kept if first <= m.dates[i] <= last]
    rows: list[Row] = []
    for i in sorted(kept, key=lambda i: (m.dates[i], m.seq[i])):
        voided = i in journal.voided
        if voided and not wanted.voided:
            continue
        t = m.tournament[i]
        rows.append({"id": m.ids[i], "date": date.fromordinal(m.dates[i]), "players": [names[m.a[i]], names[m.b[i]]],
                     "result": RESULT_TEXT.get(m.score_a[i], str(m.score_a[i])), "length": m.length[i],
                     "discipline": disciplines[m.discipline[i]], "tournament": tournaments[t] if t >= 0 else None,
                     "rated": bool(m.rated[i]) and not m.forfeit[i], "voided": voided})
    columns = [Column("id", _("Id")), Column("date", _("Date"), "date"), Column("players", _("Players")),
               Column("result", _("Result")), Column("length", _("Length"), "int"),
               Column("discipline", _("Discipline")), Column("tournament", _("Tournament")),
               Column("rated", _("Rated")), Column("voided", _("Voided"))]
    caption = ngettext("{n} match", "{n} matches", len(rows)).format(n=len(rows))
    return Table(_("Matches") + _title(wanted), columns, rows, caption=caption, json_value=rows)


def _title(wanted: MatchFilter) -> str:
    parts = []
    if wanted.day is not None:
        parts.append(str(wanted.day))
    if wanted.since is not None or wanted.until is not None:
        parts.append(f"{wanted.since or ''}..{wanted.until or ''}")
    if wanted.player is not None:
        parts.append(wanted.player)
    if wanted.tournament is not None:
        parts.append(wanted.tournament)
    if wanted.voided:
        parts.append(_("voided ones included"))
    return "".join(f" · {part}" for part in parts)
