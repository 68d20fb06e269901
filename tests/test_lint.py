"""`check` warnings: valid entries that are probably typos (issue: typos fork the data silently)."""
from nardrating.journal.lint import folded, near_duplicates
from nardrating.replay.loader import load_club

from .conftest import ELO_CONFIG, make_club


def test_folding_joins_case_yo_and_lookalike_letters():
    assert folded("Пётр") == folded("Петр")
    assert folded("иван") == folded("Иван")
    assert folded("Oсипов") == folded("Осипов")  # the first letter is a Latin O
    assert folded("Анна  Петрова") == folded("анна петрова")
    assert folded("Пётр") != folded("Павел")


def test_near_duplicates_pairs_what_a_reader_would_confuse():
    found = near_duplicates({"petr": "Пётр Иванов", "petr2": "Петр Иванов", "boris": "boris",
                             "borsi": "borsi", "anna": "Анна", "anja": "Аня"})
    assert ("petr2", "petr", "differ only in case, ё/е or look-alike letters") in found
    assert ("borsi", "boris", "one letter apart") in found  # two letters swapped
    assert not any("anja" in pair[:2] for pair in found)  # Анна / Аня: two edits apart


def test_numbered_ids_are_not_typos():
    names = {f"p{k:05d}": f"p{k:05d}" for k in range(1, 2000)}
    assert near_duplicates(names) == []
    assert near_duplicates({"cup-2008": "cup-2008", "cup-2009": "cup-2009"}) == []


def warnings_of(tmp_path, journal, config=ELO_CONFIG, name="journal.toml"):
    from nardrating.journal.lint import lint

    club = make_club(tmp_path, journal, config, name)
    ledger = load_club(club, use_cache=False)
    return [p.message for p in lint(ledger.journal, ledger.config)]


PLAYERS = '[[player]]\nid = "anna"\njoined = 2009-02-01\n\n[[player]]\nid = "boris"\n\n'


def test_typos_and_contradictions_are_warned(tmp_path):
    journal = PLAYERS + (
        '[[match]]\nid = "m1"\ndate = 2009-01-15\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
        'discipline = "shess"\n\n'
        '[[match]]\nid = "m2"\ndate = 2009-02-15\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
        'length = 5\nscore = [2, 5]\n\n'
        '[[match]]\nid = "m3"\ndate = 2009-02-16\nplayers = ["anna", "boris"]\nwinner = "boris"\n'
        'length = 5\nscore = [5, 6]\n\n'
        '[[void]]\nmatch = "m2"\ndate = 2009-02-10\nreason = "typed wrong"\n')
    config = ELO_CONFIG.replace("pair_limit_per_day = 2", 'pair_limit_per_day = 2\ndisciplines = ["chess"]')
    messages = warnings_of(tmp_path, journal, config)
    assert any(m.startswith("discipline 'shess' is rated by no list") and 'did you mean "chess"' in m
               for m in messages), messages
    assert "the match is dated 2009-01-15, before 'anna' joined (2009-02-01)" in messages
    assert "score 2-5 contradicts the result (the first player won)" in messages
    assert "score 5-6: both players reached the match length 5" in messages
    assert "the void is dated 2009-02-10, before its match 'm2' (2009-02-15)" in messages


def test_csv_players_without_a_declaration_are_warned_with_their_twin(tmp_path):
    config = ELO_CONFIG.replace('journal = ["journal.toml"]', 'journal = ["journal.toml", "games.csv"]')
    club = make_club(tmp_path, '[[player]]\nid = "Иван"\n', config)
    (club / "games.csv").write_text("date,player_a,player_b,result\n2009-01-15,иван,Иван,1-0\n", encoding="utf-8")
    from nardrating.journal.lint import lint

    ledger = load_club(club, use_cache=False)
    messages = [str(p) for p in lint(ledger.journal, ledger.config)]
    assert any("player 'иван' is named by a CSV row but not declared" in m and 'did you mean "Иван"' in m
               and "games.csv:2" in m for m in messages), messages
    assert any("player ids 'иван' and 'Иван' differ only in case" in m for m in messages), messages


def test_a_clean_sample_has_no_warnings():
    from pathlib import Path

    from nardrating.journal.lint import lint

    samples = Path(__file__).resolve().parent.parent / "sample_ledgers"
    for club in ("chess-club", "nardy-club", "federation-2009", "fide-club"):
        ledger = load_club(samples / club, use_cache=False)
        assert [str(p) for p in lint(ledger.journal, ledger.config)] == [], club


def test_the_did_you_mean_index_finds_what_comparing_all_with_all_finds():
    # The hint of an undeclared player used to compare it with every player (minutes for a CSV club of
    # thousands of undeclared players); the index of one-deletion variants must give the same first
    # close word, for words of every length, swaps, look-alike letters and ё/е included.
    import random

    from nardrating.journal.lint import _Alike, _one_edit_apart

    rng = random.Random(20261202)
    letters = "abcеёoо"   # Latin and Cyrillic look-alikes, ё/е
    known = list(dict.fromkeys("".join(rng.choice(letters) for _ in range(rng.randint(1, 5))) for _ in range(400)))
    index = _Alike(known)
    words = known[:100] + ["".join(rng.choice(letters) for _ in range(rng.randint(0, 6))) for _ in range(300)]
    known_folded = [(k, folded(k)) for k in known]
    for word in words:
        fw = folded(word)
        close = [k for k, fk in known_folded if k != word and (fk == fw or _one_edit_apart(fk, fw))]
        assert index.hint(word) == (f' (did you mean "{close[0]}"?)' if close else ""), word


def test_a_name_alike_several_earlier_ones_is_paired_with_the_first_every_run():
    # "abcd" is one edit from "abce" (a letter changed) and from "bacd" (two letters swapped): the pair
    # named is with the earlier of the two in the journal. It used to depend on the order a set of
    # strings iterates in, which changes from one run of Python to the next (PYTHONHASHSEED).
    assert near_duplicates({"abce": "abce", "bacd": "bacd", "abcd": "abcd"}) == [("abcd", "abce", "one letter apart")]
    assert near_duplicates({"bacd": "bacd", "abce": "abce", "abcd": "abcd"}) == [("abcd", "bacd", "one letter apart")]


def _pairs_by_the_rule(names: dict[str, str]) -> list[tuple[str, str, str]]:
    """near_duplicates' rule, each name compared with every earlier one (what its index must find):
    a name folded like an earlier one is paired with the first of them; else, of four letters or more,
    with the first earlier such name (not itself folded like one before it) one edit apart, unless the
    two differ only in digits."""
    from nardrating.journal.lint import _one_edit_apart

    found, firsts = [], []   # firsts: (key, fold) of the names folded like none before them
    for key, text in names.items():
        f = folded(text)
        if not f:
            continue
        twin = next((k for k, g in firsts if g == f), None)
        if twin is not None:
            same = " ".join(text.split()) == " ".join(names[twin].split())
            found.append((key, twin, "are equal" if same else "differ only in case, ё/е or look-alike letters"))
            continue
        if len(f) >= 4:
            letters = [ch for ch in f if not ch.isdigit()]
            near = next((k for k, g in firsts if len(g) >= 4 and _one_edit_apart(f, g)
                         and [ch for ch in g if not ch.isdigit()] != letters), None)
            if near is not None:
                found.append((key, near, "one letter apart"))
        firsts.append((key, f))
    return found


def test_near_duplicates_finds_what_comparing_every_name_with_every_earlier_one_finds():
    # Random ids and names over a few letters (Latin and Cyrillic look-alikes, ё/е, digits, spaces):
    # the index of one-deletion variants gives the rule's pairs; asked for some keys only (`only`:
    # a writer's new player, an import's new players), those keys' pairs.
    import random

    rng = random.Random(20261207)
    letters = "abcеёoо1 2"
    for _round in range(40):
        names = {f"k{n}": "".join(rng.choice(letters) for _ in range(rng.randint(0, 6))) for n in range(120)}
        expected = _pairs_by_the_rule(names)
        assert near_duplicates(names) == expected
        only = set(rng.sample(sorted(names), 15))
        assert near_duplicates(names, only) == [pair for pair in expected if pair[0] in only]


def test_an_ascii_text_is_folded_as_the_rule_folds_any_text():
    # folded() takes ASCII texts (most ids) a shorter way: the same as normalising (NFKD), dropping
    # combining marks and folding case, then look-alike letters and spaces, as for any text.
    import random
    import unicodedata

    from nardrating.journal.lint import _LOOKALIKES

    def by_the_rule(text: str) -> str:
        text = unicodedata.normalize("NFKD", text.casefold())
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
        return " ".join(text.translate(_LOOKALIKES).split())

    rng = random.Random(7)
    texts = ["".join(chr(rng.randrange(128)) for _ in range(rng.randint(0, 12))) for _ in range(20000)]
    for text in texts + ["Ivanov", "IVANOV", "  Anna\tPetrova ", "p00017", "Boris-2"]:
        assert folded(text) == by_the_rule(text), repr(text)
