"""The journal's limits and what each field holds, in plain words: shared by the entry models
(entries.py), the CSV readers and the command line's messages."""
from datetime import date

from ..i18n import N_
from .ids import MAX_ID as MAX_ID  # (the limit ID_RULE writes out)

MAX_TEXT = 200        # a name, alias, title, tournament name, rating list name or result
MAX_NOTE = 2000       # a note or a reason (which may hold newlines and tabs)
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)
MAX_LENGTH = 1000     # points of a match
MAX_SCORE = 10_000
MAX_CHIPS = 1_000_000
MAX_RATING = 100_000  # |set| and |delta| of an [[adjust]]
MAX_GAMES = 100_000   # an [[adjust]]'s games: the rated games of an imported list
MAX_PLACE = 100_000

# A game's result as a [[match]] or a CSV row writes it: the first player's score.
RESULTS = {
    "1-0": 1.0, "0-1": 0.0,
    "1/2-1/2": 0.5, "½-½": 0.5, "1/2": 0.5, "½": 0.5, "0.5-0.5": 0.5,
    "1:0": 1.0, "0:1": 0.0, "½:½": 0.5,
}


# The entry kinds a TOML journal holds, in the order of ENTRY_MODELS (entries.py and playentries.py;
# tests/test_plainmatch.py holds the two equal): known without loading the models.
ENTRY_KINDS = ("player", "match", "tournament", "void", "adjust", "rename", "merge", "list", "edit-player", "round",
               "join", "withdraw")


def parse_result(text: str) -> float | None:
    return RESULTS.get(text.strip().replace(" ", ""))


# A first player's score as the journal writes the result, and `amend --result` takes it (the inverse
# of parse_result's main forms): `matches` and `results` write it so.
RESULT_TEXT = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}


def first_score(result: str | None, winner: str | None, players: list[str]) -> float | None:
    """A [[match]]'s score of its first player: from the result, else 1 or 0 by the winner (None:
    the winner is neither player)."""
    if result is not None:
        return parse_result(result)
    return 1.0 if winner == players[0] else 0.0 if winner == players[1] else None

# The messages below write these numbers out (a message is one text, for its translation).
ID_RULE = N_("an id is 1 to 100 characters: letters of any alphabet (with their accents), digits 0-9, _ and -")

# What each field holds, in plain words: "<value> is not <rule>" for any value refused (marked N_,
# translated where shown).
RULES = {
    "length": N_("a match length; write a whole number of points from 1 to 1000"),
    "score": N_("a score; write two whole numbers from 0 to 10000, like [7, 4] (on the command line 7-4)"),
    "chips": N_("a number of chips; write a number from 0 to 1000000"),
    "set": N_("a rating; write a number from -100000 to 100000"),
    "delta": N_("a rating change; write a number from -100000 to 100000"),
    "games": N_("a number of games; write a whole number from 0 to 100000"),
    "rd": N_("a rating deviation; write a number above 0, at most 1000"),
    "volatility": N_("a volatility; write a number above 0, at most 10"),
    "players": N_('two player ids, like ["anna", "boris"]'),
    "standings": N_('a list of placings, like [{player = "anna", place = 1}, {player = "boris", place = "2-3"}]'),
    "place": N_('a place; write 1 or a shared range like "2-3" (places up to 100000)'),
    **dict.fromkeys(("date", "joined", "start", "end"),
                    N_("a date from 1900-01-01 to 2999-12-31; write it like 2009-01-15")),
    **dict.fromkeys(("rated", "forfeit", "official"), N_("true or false")),
    **dict.fromkeys(("id", "match", "player", "winner", "tournament", "discipline", "amends", "to", "into"),
                    N_("an id; an id is 1 to 100 characters: letters of any alphabet (with their accents), "
                       "digits 0-9, _ and -")),
    **dict.fromkeys(("name", "alias", "title", "result", "rating"),
                    N_("a text of at most 200 characters; write it in quotes")),
    "note": N_("a note of at most 2000 characters; write it in quotes"),
    "reason": N_("a reason; say why, in 1 to 2000 characters"),
    "file": N_("a list file's name; write it in quotes"),
    "sha256": N_("a SHA-256; write its 64 hexadecimal digits in lower case"),
}
