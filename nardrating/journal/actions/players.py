"""add-player, rename-player and merge-players: who plays."""
from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import player_hint
from ...i18n import _
from ..lint import name_warnings
from ..textrules import id_problem
from ..tomlsource import shown
from .write import AnyEntry, Check, Fields, Written, refuse, write_entry

if TYPE_CHECKING:
    from ...replay.ledger import Ledger


Warn = Callable[[str], None]   # told what check will warn of the new entry (written all the same)


def _name_check(warn: Warn | None, ids: bool) -> Check:
    """Near-duplicates of the new or edited player's id and name (lint.name_warnings), told to `warn`."""
    def check(club: Ledger, entry: AnyEntry) -> None:
        if warn is None:
            return
        from ..entries import EditPlayerEntry, PlayerEntry   # (a player's entry: made by its model)

        if isinstance(entry, PlayerEntry):
            found = name_warnings(club.journal, entry.id, entry.name, ids)
        elif isinstance(entry, EditPlayerEntry) and entry.name is not None:
            found = name_warnings(club.journal, entry.player, entry.name, ids)
        else:
            found = []
        for message in found:
            warn(message)
    return check


def add_player(ledger: Ledger, player_id: str, name: str | None = None, alias: str | None = None,
               qualification: str | None = None, title: str | None = None, joined: date | None = None,
               dry_run: bool = False, warn: Warn | None = None) -> Fields:
    """Append a [[player]]; the entry as written. A name or id alike another's is told to `warn`."""
    words = player_id.split()
    suggested = "-".join("".join(re.findall(r"[\w-]", word)) for word in words).casefold()
    if name is None and len(words) > 1 and id_problem(suggested) is None:   # a full name given for the id
        refuse(ledger, _("{given} is a name, not an id: an id is one word, the one commands use; give the name with "
                         "--name: nardrating add-player {suggested} --name {quoted}").format(
            given=shown(player_id), suggested=suggested, quoted=_quoted(" ".join(words))))
    fields = {"id": player_id, "name": name, "alias": alias, "qualification": qualification,
              "title": title, "joined": joined}
    return write_entry(ledger, "player", lambda club, path: fields, check=_name_check(warn, ids=True),
                       dry_run=dry_run).entries[0]


def _quoted(text: str) -> str:
    """A name as a shell takes it: in double quotes where nothing in it is special there, as a person types it."""
    return f'"{text}"' if not set(text) & set('"$`\\!') else shlex.quote(text)


def edit_player(ledger: Ledger, player_id: str, changes: Mapping[str, object], day: date | None = None,
                dry_run: bool = False, warn: Warn | None = None) -> tuple[Written, dict[str, object]]:
    """Append an [[edit-player]] of the fields in `changes` (None: not given) that differ from the
    player's record; (what was written, the record's values before). Refused: an unknown player,
    or nothing that would change."""
    from ..entries import EDITED_FIELDS

    before: dict[str, object] = {}

    def fields(club: Ledger, path: Path) -> Fields:
        _known_player(club, player_id)
        record = club.journal.players[player_id]
        given = {key: value.strip() if isinstance(value, str) else value
                 for key, value in changes.items() if value is not None}
        if not given:
            refuse(club, _("say what changes: {options}").format(
                options=", ".join(f"--{key}" for key in EDITED_FIELDS)), player_id)
        changed = {key: value for key, value in given.items() if value != getattr(record, key)}
        if not changed:
            same = ", ".join(f"{key} {shown(str(getattr(record, key)))}" for key in given)
            refuse(club, _("nothing to change: {player} already has {same}").format(player=player_id, same=same),
                   player_id)
        before.clear()
        before.update((key, getattr(record, key)) for key in changed)
        return {"player": player_id, "date": day or date.today(), **changed}

    def moves_ratings(club: Ledger) -> bool:  # a first rating by qualification (mfsnb), a title (fide)
        return any(changes.get(key) is not None for key in ("qualification", "title"))

    written = write_entry(ledger, "edit-player", fields, check=_name_check(warn, ids=False), dry_run=dry_run,
                          compare=moves_ratings)
    return written, before


def rename_player(ledger: Ledger, old: str, new: str, day: date | None = None, dry_run: bool = False) -> Fields:
    """Append a [[rename]]: `old` is `new` in every entry, before and after."""
    if old == new:
        refuse(ledger, _("rename-player needs a new id: {player!r} is the one it has").format(player=old))

    def check(club: Ledger, entry: AnyEntry) -> None:
        _known_player(club, old)
        if new in club.journal.players:
            refuse(club, _("{new!r} is already a player; if they are one person: nardrating merge-players {old} "
                           "{new}").format(new=new, old=old))

    fields = {"player": old, "to": new, "date": day or date.today()}
    return write_entry(ledger, "rename", lambda club, path: fields, check=check, dry_run=dry_run).entries[0]


def merge_players(ledger: Ledger, dup: str, into: str, day: date | None = None, dry_run: bool = False) -> Written:
    """Append a [[merge]]: every entry of `dup` becomes `into`'s; the entry and what changed."""
    if dup == into:
        refuse(ledger, _("merge-players needs two different players, not {player!r} into themself").format(player=dup))

    def check(club: Ledger, entry: AnyEntry) -> None:
        for player in (dup, into):
            _known_player(club, player)
        j = club.journal
        codes = {j.player_codes.index.get(dup), j.player_codes.index.get(into)}
        m = j.matches
        between = [m.ids[i] for i in range(len(m.ids)) if {m.a[i], m.b[i]} == codes]
        if between:
            refuse(club, _("cannot merge {dup!r} into {into!r}: they played each other ({matches}), which merged "
                           "would be games against oneself; if they are two people, keep both ids").format(
                dup=dup, into=into, matches=", ".join(between[:5]) + (", …" if len(between) > 5 else "")))

    fields = {"player": dup, "into": into, "date": day or date.today()}
    return write_entry(ledger, "merge", lambda club, path: fields, check=check, dry_run=dry_run, compare=True)


def _known_player(club: Ledger, player: str) -> None:
    if player not in club.journal.players:
        refuse(club, _("unknown player {player!r}{hint}").format(player=player,
                                                               hint=player_hint(player, club.journal.players)))
