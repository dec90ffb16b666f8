"""Language, edition date and numbering checks, detected from the text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ARTICLE, ES, FR, IT, seed

from corpus.model.dates import parse_date
from corpus.read.detect import detect_language
from corpus.read.ingest import ingest_bytes
from search.cli import cli


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


def test_a_date_with_no_such_day_is_said_not_dropped_silently():
    """The Italian seed dated "31 Febbraio 2025" (no such day): its edition is unknown and a
    warning names the line and the date (the line was dropped as a header, without a word)."""
    text = seed(IT).decode("utf-8").replace("23 Novembre 2024", "31 Febbraio 2025")
    document = ingest_bytes(text.encode("utf-8"), "it-31-febbraio.txt")
    assert document.edition is None
    assert "line 1: '31 Febbraio 2025' is no date (no such day): edition unknown" in (
        document.warnings
    )


@pytest.mark.shared_data
def test_a_translation_dated_before_every_edition_says_so(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The Italian seed dated 2010, beside English 2024-11-08 only: it follows the oldest loaded
    edition, and `sources` says it is dated before every one (it said "follows English
    2024-11-08 by its stated date", a date after its own)."""
    monkeypatch.setenv("MTGRULES_HOME", str(tmp_path))
    old = tmp_path / "it-2010.txt"
    old.write_text(seed(IT).decode("utf-8").replace("23 Novembre 2024", "5 Gennaio 2010"))
    edition = shared_data / "cr" / "en" / "MagicCompRules-20241108.txt"
    assert CliRunner().invoke(cli, ["add", str(old), str(edition)]).exit_code == 0
    result = CliRunner().invoke(cli, ["sources", "--json", "--no-dropped"])
    documents = {d["source"]: d for d in json.loads(result.stdout)["documents"]}
    assert documents["it-2010.txt"]["follows"]["evidence"] == (
        "dated 2010-01-05, before every loaded English edition: follows the oldest, 2024-11-08"
    )
