"""The id rule's plain case, which needs none of the entry models: ASCII letters, digits, _ and -,
1 to MAX_ID of them (most ids). The config check and both CSV readers take such an id at once;
any other text is judged by the whole rule, `entries.id_problem`."""
import re

MAX_ID = 100  # characters of an id (players, matches, tournaments, disciplines)
PLAIN_ID = f"[0-9A-Za-z_-]{{1,{MAX_ID}}}"
is_plain_id = re.compile(PLAIN_ID).fullmatch  # fullmatch: no newline slips through as with $
