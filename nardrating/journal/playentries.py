"""The entry models of a tournament run here: the pairing fields of `[[tournament]]`, `[[round]]`,
`[[join]]`, `[[withdraw]]`, and `round` on a `[[match]]`.

They extend the journal's one entry model (entries.py) and check one entry's shape; the rules
that span entries (the players known and entered, rounds in order, results on the pairing's
boards) are in playcheck.py. Importing this module registers the kinds in `ENTRY_MODELS`: the
reader, the writers and the importer import it (a daily command reading the cache does not).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from ..i18n import N_, _
from .entries import ENTRY_MODELS, RULES, Day, Entry, Id, Length, MatchEntry, Note, TournamentEntry
from .tomlsource import shown

MAX_ROUNDS = 1000      # (the numbers RULES below write out)
MAX_BOARDS = 100_000

RULES.update({
    "rounds": N_("a number of rounds; write a whole number from 1 to 1000"),
    "round": N_("a round; write a whole number from 1 to 1000"),
    "board": N_("a board number; write a whole number from 1 to 100000"),
    "bye_points": N_("the points of a pairing-allocated bye; write 0, 0.5 or 1"),
    "max_losses": N_("a number of losses; write a whole number from 1 to 100"),
    **dict.fromkeys(("white", "black"), RULES["player"]),
})


def _whole(low: int, high: int, rule: str) -> Any:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(_("{value} is not {rule}").format(value=shown(value), rule=_(RULES[rule])))
        return value
    return BeforeValidator(check)


def _list_of_ids(what: str, example: str) -> Any:
    def check(value: Any) -> Any:
        if not isinstance(value, list):
            raise ValueError(_("{value} is not {what}; write a list like {example}").format(
                value=shown(value), what=_(what), example=example))
        return value
    return BeforeValidator(check)


def _bye_points(value: Any) -> Any:
    if isinstance(value, bool) or value not in (0, 0.5, 1):
        raise ValueError(_("{value} is not {rule}").format(value=shown(value), rule=_(RULES["bye_points"])))
    return float(value)


def _distinct(value: list[str]) -> list[str]:
    twice = sorted({p for p in value if value.count(p) > 1})
    if twice:
        raise ValueError(_("{players} listed twice").format(players=", ".join(map(repr, twice))))
    return value


RoundNo = Annotated[int, _whole(1, MAX_ROUNDS, "round")]
Pair = Annotated[list[Id], Field(min_length=2, max_length=2)]


class PlayedTournamentEntry(TournamentEntry):
    """A [[tournament]], with the fields of one run here (all optional; the names of `pairing` and
    `tiebreaks` are tournaments/names.py's, a test holds them equal)."""
    pairing: Literal["berger", "double-berger", "dutch", "knockout", "losses"] | None = None
    rounds: Annotated[int, _whole(1, MAX_ROUNDS, "rounds")] | None = None
    players: Annotated[list[Id], _list_of_ids(N_("a start list"), '["anna", "boris", "vera"]'),
                       AfterValidator(_distinct)] | None = None
    tiebreaks: Annotated[list[Literal["buchholz", "buchholz-cut1", "median-buchholz", "sonneborn-berger",
                                      "direct-encounter", "wins", "black-games", "aro", "progressive", "koya"]],
                         _list_of_ids(N_("a list of tie-breaks"), '["buchholz-cut1", "buchholz"]'),
                         AfterValidator(_distinct)] | None = None
    forbidden: Annotated[list[Pair], _list_of_ids(N_("a list of pairs"), '[["anna", "boris"]]')] | None = None
    bye_points: Annotated[float, BeforeValidator(_bye_points)] | None = None
    max_losses: Annotated[int, _whole(1, 100, "max_losses")] | None = None
    length: Length | None = None   # the match length of its boards (backgammon, nardy): results and add-match use it

    @model_validator(mode="after")
    def _pairing_fields(self) -> Self:
        if self.pairing == "losses" and self.max_losses is None:
            raise ValueError(_('pairing = "losses" needs max_losses, the losses that end a player\'s event '
                               "(e.g. max_losses = 3)"))
        if self.pairing == "dutch" and self.rounds is None:
            raise ValueError(_('pairing = "dutch" needs rounds, the number of rounds the Swiss will have (its last '
                               "round is paired by other rules; e.g. rounds = 5)"))
        if self.max_losses is not None and self.pairing != "losses":
            raise ValueError(_('max_losses is for pairing = "losses"; leave it out or set that pairing'))
        if self.length is not None and self.pairing is None:
            raise ValueError(_("length is for a tournament run here (with pairing): the matches of a recorded "
                               "tournament give their own length"))
        for a, b in self.forbidden or ():
            if a == b:
                raise ValueError(_("forbidden: [{a!r}, {b!r}] names one player twice").format(a=a, b=b))
        return self


class RoundMatchEntry(MatchEntry):
    """A [[match]]; in a tournament run here, `round` names the round whose board it is the result of."""
    round: RoundNo | None = None


class BoardEntry(Entry):
    board: Annotated[int, _whole(1, MAX_BOARDS, "board")]
    white: Id
    black: Id


class ByeEntry(Entry):
    player: Id
    kind: Literal["pairing-allocated", "half-point", "full-point", "absent", "withdrawn"]


class RoundEntry(Entry):
    """A round as `pair` makes it: its boards (white, black) and byes with their kind."""
    tournament: Id
    round: RoundNo
    date: Day
    boards: list[BoardEntry] = []
    byes: list[ByeEntry] = []

    @model_validator(mode="after")
    def _each_once(self) -> Self:
        numbers = [b.board for b in self.boards]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(_("the boards are numbered {numbers}; number them 1, 2, 3, … in order").format(
                numbers=", ".join(map(str, numbers))))
        seen: set[str] = set()
        for player in [p for b in self.boards for p in (b.white, b.black)] + [b.player for b in self.byes]:
            if player in seen:
                raise ValueError(_("{player!r} is on two boards or byes of the round").format(player=player))
            seen.add(player)
        return self


class JoinEntry(Entry):
    """A late entry: the player is paired from `round` on."""
    tournament: Id
    player: Id
    round: RoundNo
    date: Day


class WithdrawEntry(Entry):
    """A withdrawal: the player is not paired from `round` on."""
    tournament: Id
    player: Id
    round: RoundNo
    date: Day
    reason: Note = ""


ENTRY_MODELS.update({"tournament": PlayedTournamentEntry, "match": RoundMatchEntry, "round": RoundEntry,
                     "join": JoinEntry, "withdraw": WithdrawEntry})
