"""Which tournament an imported game joins: one of the journal's (the same name and start, or
`--tournament`), or a new one the import writes (`NewTournament`), its id from the name and year."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Callable, Literal

from ...datarecords import datarecord, field
from ...i18n import _
from ...journal.lint import folded
from .records import Game, Parsed, TournamentInfo, derive_id

if TYPE_CHECKING:
    from ...journal.model import Journal, Tournament

Report = Callable[[str], None]   # records a problem of the game being planned


@datarecord
class NewTournament:
    """A [[tournament]] the import would write for games of a file, and the players of those games."""
    data: dict[str, Any]            # the [[tournament]] entry
    file: str
    line: int
    start: date | None              # as the file gives it: a second import of the file joins it
    players: set[str] = field(default_factory=set)

    def cover(self, day: date) -> None:
        """Stretch its dates to a game's, where the file gave none."""
        self.data["start"] = min(day, self.data["start"] or day)
        self.data["end"] = max(day, self.data["end"] or day)


def tournament_of(game: Game, parsed: Parsed, option: str | None, journal: Journal, new: dict[str, NewTournament],
                   problem: Report) -> tuple[str | None | Literal[False], Tournament | None]:
    """(tournament id or None, the journal's Tournament if it joins one); (False, None) on a problem."""
    info = parsed.tournaments.get(game.tournament) if game.tournament else None
    if game.tournament and info is None:  # a CSV row naming a tournament id
        if game.tournament in journal.tournaments:
            return game.tournament, journal.tournaments[game.tournament]
        problem(_("unknown tournament {tournament!r}; add it first with nardrating add-tournament").format(
            tournament=game.tournament))
        return False, None
    if option is not None:
        if option in journal.tournaments:
            return option, journal.tournaments[option]
        if option not in new:
            new[option] = NewTournament({"id": option, "name": info.name if info else option,
                                          "system": info.system if info else "match",
                                          "start": info.start if info else None, "end": info.end if info else None},
                                         parsed.file, game.line, info.start if info else None)
        new[option].players.update((game.a, game.b))
        if not info and len(new[option].players) > 2:
            new[option].data["system"] = "swiss"
        return option, None
    if info is None:
        return None, None
    same = [t for t in journal.tournaments.values() if folded(t.name) == folded(info.name) and t.start == info.start]
    if len(same) == 1:
        return same[0].id, same[0]  # the same tournament, under the id the club gave it (an export of its own)
    base = tid = tournament_id(info)
    n = 1
    while True:
        found = journal.tournaments.get(tid)
        if found is not None and folded(found.name) == folded(info.name) and found.start == info.start:
            return tid, found  # the same tournament, imported before
        mine = new.get(tid)
        if found is None and (mine is None or (mine.data["name"], mine.start) == (info.name, info.start)):
            break
        n += 1
        tid = f"{base}-{n}"
    if tid not in new:
        new[tid] = NewTournament({"id": tid, "name": info.name, "system": info.system, "start": info.start,
                                   "end": info.end}, parsed.file, game.line, info.start)
    return tid, None


def tournament_id(info: TournamentInfo) -> str:
    """From the name, with the year unless the name has it: "WCh" of 2008 → wch-2008."""
    tid = derive_id(info.name) if info.name else "tournament"
    year = str(info.start.year) if info.start else ""
    return tid if year in tid else f"{tid}-{year}"
