"""A file that is not UTF-8 is refused with the iconv command for the encoding it reads as, into a
file the importer recognises by its extension (it always named cp1251, a Cyrillic encoding, and
wrote FILE.utf8, which import cannot tell the format of). A journal, a config or a results file sent
from a Windows machine is told the same, at the line of its first bad byte."""
from .conftest import make_club
from .test_import_files import PGN, TRF, refused, write


def test_a_latin1_trf_is_told_to_convert_from_cp1252(cli, tmp_path):
    club = make_club(tmp_path / "club")
    text = TRF.replace("Sidorov, Ivan", "Müller, Armin").replace("Петров, Пётр", "Petrov, Petr").replace(
        "Осенний кубок", "Herbst-Pokal")  # the same widths: ü is one character
    path = write(tmp_path, "open.trf", text, encoding="latin-1")
    err = refused(cli, club, path)
    assert f"open.trf:6: the file is not UTF-8 text (byte 0xfc); it reads as Windows Western European (cp1252): " \
           f"convert it first, e.g. iconv -f cp1252 -t utf-8 {path} > {tmp_path / 'open-utf8.trf'}" in err
    # and the converted file imports
    converted = write(tmp_path, "open-utf8.trf", text)
    assert cli("import", converted, "--club", club, "--dry-run").exit_code == 0


def test_a_cp1251_pgn_is_told_to_convert_from_cp1251(cli, tmp_path):
    club = make_club(tmp_path / "club")
    path = write(tmp_path, "cp.pgn", PGN.replace("Liren, Ding", "Лирэн, Дин"), encoding="cp1251")
    err = refused(cli, club, path)
    assert "it reads as Windows Cyrillic (cp1251)" in err
    assert f"iconv -f cp1251 -t utf-8 {path} > {tmp_path / 'cp-utf8.pgn'}" in err


JOURNAL = '[[player]]\nid = "anna"\nname = "Анна Петрова"\n\n[[player]]\nid = "boris"\nname = "Борис Зайцев"\n'


def test_a_journal_or_config_sent_from_windows_is_told_its_encoding_and_the_command_that_converts_it(cli, tmp_path):
    # The journal's first Cyrillic letter, А (0xc0 in cp1251), is on line 3; the config's name on line 2.
    club = make_club(tmp_path / "club")
    (club / "journal.toml").write_bytes(JOURNAL.encode("cp1251"))
    result = cli("leaderboard", "--club", club)
    assert result.exit_code == 1 and "Traceback" not in result.output
    journal = club / "journal.toml"
    assert (f"{journal}:3: the file is not UTF-8 text (byte 0xc0); it reads as Windows Cyrillic (cp1251): save it "
            f"as UTF-8, e.g. iconv -f cp1251 -t utf-8 {journal} > {club / 'journal-utf8.toml'}, and put that file in "
            f"its place") in result.stderr
    # done as it says, the club reads
    (club / "journal.toml").write_text(JOURNAL, encoding="utf-8")
    assert cli("players", "--club", club).exit_code == 0
    config = club / "nardrating.toml"
    config.write_bytes(config.read_text(encoding="utf-8").replace('[club]\n', '[club]\nname = "Ладья"\n', 1).encode("cp1251"))
    assert "it reads as Windows Cyrillic (cp1251)" in cli("players", "--club", club).stderr


def test_a_results_file_from_windows_is_told_its_encoding_and_line(cli, tmp_path):
    club = make_club(tmp_path / "club")
    sheet = tmp_path / "round-1.txt"
    sheet.write_bytes("# тур 1\nanna boris 1-0\n".encode("cp1251"))
    result = cli("results", "cup", sheet, "--club", club)
    assert result.exit_code == 1
    assert f"{sheet}:1: the file is not UTF-8 text (byte 0xf2); it reads as Windows Cyrillic (cp1251)" in result.stderr
