"""add-player, rename-player and merge-players: who plays."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ...errors import did_you_mean
from ..entries import Entry
from .write import Fields, Written, refuse, write_entry

if TYPE_CHECKING:
    from ...replay.ledger import Ledger


def add_player(ledger: Ledger, player_id: str, name: str | None = None, alias: str | None = None,
               qualification: str | None = None, title: str | None = None, joined: date | None = None,
               dry_run: bool = False) -> Fields:
    """Append a [[player]]; the entry as written."""
    fields = {"id": player_id, "name": name, "alias": alias, "qualification": qualification,
              "title": title, "joined": joined}
    return write_entry(ledger, "player", lambda club, path: fields, dry_run=dry_run).entries[0]


def rename_player(ledger: Ledger, old: str, new: str, day: date | None = None, dry_run: bool = False) -> Fields:
    """Append a [[rename]]: `old` is `new` in every entry, before and after."""
    def check(club: Ledger, entry: Entry) -> None:
        _known_player(club, old)
        if new in club.journal.players:
            refuse(club, f"{new!r} is already a player; if they are one person: nardrating merge-players {old} {new}")

    fields = {"player": old, "to": new, "date": day or date.today()}
    return write_entry(ledger, "rename", lambda club, path: fields, check=check, dry_run=dry_run).entries[0]


def merge_players(ledger: Ledger, dup: str, into: str, day: date | None = None, dry_run: bool = False) -> Written:
    """Append a [[merge]]: every entry of `dup` becomes `into`'s; the entry and what changed."""
    def check(club: Ledger, entry: Entry) -> None:
        for player in (dup, into):
            _known_player(club, player)
        j = club.journal
        codes = {j.player_codes.index.get(dup), j.player_codes.index.get(into)}
        m = j.matches
        between = [m.ids[i] for i in range(len(m.ids)) if {m.a[i], m.b[i]} == codes]
        if between:
            refuse(club, f"cannot merge {dup!r} into {into!r}: they played each other ({', '.join(between[:5])}"
                         f"{', …' if len(between) > 5 else ''}), which merged would be games against oneself; "
                         "if they are two people, keep both ids")

    fields = {"player": dup, "into": into, "date": day or date.today()}
    return write_entry(ledger, "merge", lambda club, path: fields, check=check, dry_run=dry_run, compare=True)


def _known_player(club: Ledger, player: str) -> None:
    if player not in club.journal.players:
        refuse(club, f"unknown player {player!r}{did_you_mean(player, club.journal.players)}")
