"""The journal's limits and what each field holds, in plain words: shared by the entry models
(entries.py), the CSV readers and the command line's messages."""
from datetime import date

from .ids import MAX_ID

MAX_TEXT = 200        # a name, alias, title, tournament name, rating list name or result
MAX_NOTE = 2000       # a note or a reason (which may hold newlines and tabs)
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)
MAX_LENGTH = 1000     # points of a match
MAX_SCORE = 10_000
MAX_CHIPS = 1_000_000
MAX_RATING = 100_000  # |set| and |delta| of an [[adjust]]
MAX_PLACE = 100_000

ID_RULE = (f"an id is 1 to {MAX_ID} characters: letters of any alphabet (with their accents), "
           "digits 0-9, _ and -")

# What each field holds, in plain words: "<value> is not <rule>" for any value refused.
RULES = {
    "length": f"a match length; write a whole number of points from 1 to {MAX_LENGTH}",
    "score": f"a score; write two whole numbers from 0 to {MAX_SCORE}, like [7, 4] (on the command line 7-4)",
    "chips": f"a number of chips; write a number from 0 to {MAX_CHIPS}",
    "set": f"a rating; write a number from {-MAX_RATING} to {MAX_RATING}",
    "delta": f"a rating change; write a number from {-MAX_RATING} to {MAX_RATING}",
    "games": "a number of games; write a whole number from 0 to 100000",
    "rd": "a rating deviation; write a number above 0, at most 1000",
    "volatility": "a volatility; write a number above 0, at most 10",
    "players": 'two player ids, like ["anna", "boris"]',
    "standings": 'a list of placings, like [{player = "anna", place = 1}, {player = "boris", place = "2-3"}]',
    "place": f'a place; write 1 or a shared range like "2-3" (places up to {MAX_PLACE})',
    **dict.fromkeys(("date", "joined", "start", "end"),
                    f"a date from {FIRST_DAY} to {LAST_DAY}; write it like 2009-01-15"),
    **dict.fromkeys(("rated", "forfeit", "official"), "true or false"),
    **dict.fromkeys(("id", "match", "player", "winner", "tournament", "discipline", "amends", "to", "into"),
                    f"an id; {ID_RULE}"),
    **dict.fromkeys(("name", "alias", "title", "result", "rating"),
                    f"a text of at most {MAX_TEXT} characters; write it in quotes"),
    "note": f"a note of at most {MAX_NOTE} characters; write it in quotes",
    "reason": f"a reason; say why, in 1 to {MAX_NOTE} characters",
    "file": "a list file's name; write it in quotes", "sha256": "a SHA-256; write its 64 hexadecimal digits in lower case",
}
