"""A file that is not UTF-8 is refused with the iconv command for the encoding it reads as, into a
file the importer recognises by its extension (it always named cp1251, a Cyrillic encoding, and
wrote FILE.utf8, which import cannot tell the format of)."""
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
