"""Language, edition date and numbering checks, detected from the text."""

from __future__ import annotations

from conftest import ARTICLE, ES, FR, IT, seed

from corpus.model.dates import parse_date
from corpus.read.detect import detect_language
from corpus.read.ingest import ingest_bytes


def test_language_of_every_seed():
    """Italian, French, Italian and Spanish, from the words alone."""
    langs = [detect_language(seed(name).decode("utf-8")) for name in (IT, FR, ARTICLE, ES)]
    assert langs == ["it", "fr", "it", "es"]


def test_edition_dates_in_four_languages():
    """Dates in Italian, French, Spanish and English are read with babel's month names."""
    assert str(parse_date("Aggiornato a Fondamenti, 23 Novembre 2024")) == "2024-11-23"
    assert str(parse_date("mise à jour du 1er mai 2006")) == "2006-05-01"
    assert str(parse_date("vigente desde el 8 de noviembre de 2024")) == "2024-11-08"
    assert str(parse_date("These rules are effective as of November 8, 2024.")) == "2024-11-08"
    assert parse_date("205.4d Ogni permanente") is None


def test_no_month_name_is_two_months():
    """A month's name (wide or abbreviated, folded) means one month in every language of the
    table, so reading a date need not load the languages after the first that knows it."""
    from corpus.model.dates import month_names
    from corpus.model.languages import LANGUAGES

    months: dict[str, set[int]] = {}
    for code in LANGUAGES:
        for name, number in month_names(code).items():
            months.setdefault(name, set()).add(number)
    assert len(months) > 80 and all(len(numbers) == 1 for numbers in months.values())
    assert {months["agosto"].pop(), months["aout"].pop(), months["august"].pop()} == {8}


def test_numbering_warnings_keep_both_duplicates():
    """A duplicated number, an out-of-order rule and letter l are warned about, never dropped."""
    text = (
        "- 205.3k Gli istantanei e le stregonerie condividono i loro elenchi di sottotipi.\n"
        "- 205.3l Creature e affine condividono le loro lista di sottotipi.\n"
        "- 205.3k Le battaglie hanno un sottotipo unico, chiamato tipo di battaglia.\n"
    )
    doc = ingest_bytes(text.encode("utf-8"), "duplicati.txt")
    assert [r.number for r in doc.records] == ["205.3k", "205.3l", "205.3k"]
    joined = " | ".join(doc.warnings)
    assert "rule 205.3k is numbered 2 times" in joined
    assert "205.3k (line 3) comes after 205.3l" in joined
    assert "205.3l (line 2) uses subrule letter l or o" in joined
