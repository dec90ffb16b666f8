"""gettext PO catalogues in and out: a translated CR as translation platforms keep it, and
Portuguese, the fifth language of the table."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import polib
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from corpus.model.languages import LANGUAGES, SHOWN_ORDER
from corpus.read.ingest import ingest_bytes
from search.cli import cli

# A few lines of English 2020-11-20 and their Brazilian translation, as Crowdin writes them:
# the contents list holds the headings once, one entry is left untranslated, one is fuzzy.
SMALL_PO = Path(__file__).parent / "fixtures" / "small-pt.po"


def small() -> bytes:
    return SMALL_PO.read_bytes()


def test_a_po_catalogue_is_a_translated_cr_by_its_content():
    """Named .txt, a PO catalogue is still read as one: layout gettext-po, language from its
    msgstrs (its msgids are English), no edition of its own."""
    document = ingest_bytes(small(), "regras.txt")
    assert (document.layout, document.lang, document.edition) == ("gettext-po", "pt", None)
    assert dict(document.metadata)["catalogue"] == (
        "12 entries: 11 translated, 1 untranslated (skipped), 1 fuzzy"
    )
    assert dict(document.metadata)["revised"] == "2022-11-28 22:49"


def test_the_msgid_gives_the_structure_and_the_msgstr_the_text():
    """Rules under their msgid's number (a typo'd number in the msgstr is a warning), the
    English text kept as `original`, headings from the contents list, examples and glossary
    entries; the untranslated entry is a dropped line, not a record."""
    document = ingest_bytes(small(), "regras.po")
    rules = {r.key: r for r in document.records if r.kind == "rule"}
    assert list(rules) == ["1", "100", "100.1", "100.1a", "100.2"]
    assert rules["100"].title == "Geral" and rules["100"].original == "General"
    assert rules["100.1a"].text == (
        "Um jogo de dois jogadores é um jogo que começa com apenas dois jogadores."
    )
    assert (
        rules["100.1a"].original == "A two-player game is a game that begins with only two players."
    )
    assert rules["100.2"].text.startswith("Para jogar, cada jogador")
    assert "msgstr numbered 2015.2 where its msgid is 100.2; kept as 100.2" in document.warnings[0]
    example = next(r for r in document.records if r.kind == "example")
    assert (example.key, example.text[:8]) == ("100.2", "Exemplo:")
    glossary = next(r for r in document.records if r.kind == "glossary")
    assert (glossary.key, glossary.title) == ("Abandon", "Abandonar")
    untranslated = [d for d in document.dropped if d.reason == "untranslated: empty msgstr"]
    assert [d.text[:6] for d in untranslated] == ["100.1b"]
    assert document.records[0].lines[0] > 1  # the header is a dropped line, the records after


def test_every_line_of_the_catalogue_is_in_a_record_or_dropped():
    """Nothing lost: every msgid line is in a record's lines or among the dropped lines."""
    document = ingest_bytes(small(), "regras.po")
    covered = {n for r in document.records for n in range(r.lines[0], r.lines[1] + 1)}
    covered |= {d.line for d in document.dropped}
    msgids = [
        n for n, line in enumerate(small().decode().splitlines(), 1) if line.startswith("msgid")
    ]
    assert set(msgids[1:]) <= covered


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=6))
def test_the_po_reader_never_crashes(msgstrs: list[str]):
    """Any msgstrs, even broken quoting: a document or a one-line refusal, no traceback."""
    from corpus.read.ingest import IngestError

    body = "".join(
        f'msgid "100.{i + 1}. Rule text number {i}."\nmsgstr "{s}"\n\n'
        for i, s in enumerate(msgstrs)
    )
    try:
        ingest_bytes(body.encode("utf-8"), "x.po", {"lang": "pt"})
    except IngestError as error:
        assert "x.po" in str(error)


def test_portuguese_is_one_row_of_the_table():
    """pt has its stop words, stemmer, question words and CR headings; shown after es."""
    from corpus.model.words import stop_words
    from indexer.analyzers import analyzer
    from search.parse import QUESTION_WORDS_BY_LANG, is_question

    assert "pt" in LANGUAGES and "pt" in SHOWN_ORDER
    assert {"não", "uma"} <= stop_words("pt")
    assert [t.text for t in analyzer("pt")("os jogadores ativos")] == ["jogador", "ativ"]
    assert "quando" in QUESTION_WORDS_BY_LANG["pt"]
    assert is_question("como funciona o atropelar")
    assert "glossário" in LANGUAGES["pt"].glossary_headings


def test_no_code_lists_languages_outside_the_table():
    """The language codes appear as data only in corpus/model/languages.py."""
    root = Path(__file__).resolve().parents[1]
    offenders = []
    for path in [
        *root.glob("corpus/**/*.py"),
        *root.glob("search/**/*.py"),
        *root.glob("indexer/**/*.py"),
    ]:
        if path.name == "languages.py":
            continue
        text = path.read_text(encoding="utf-8")
        for listing in ('"it": ', '("fr", "it")', '"es": frozenset', '"fr": {'):
            if listing in text:
                offenders.append(f"{path.relative_to(root)}: {listing}")
    assert offenders == []


# --- on the real catalogue ------------------------------------------------------------------


@pytest.fixture(scope="module")
def po_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Iterator[Path]:
    """English 2020-11-20 (the catalogue's) and 2026-08-07, and the Brazilian catalogue."""
    home = tmp_path_factory.mktemp("po")
    files = [
        shared_data / "cr/pt/comprehensive-rules.po",
        shared_data / "cr/pt/MagicCompRules-20201120.txt",
        shared_data / "cr/en/MagicCompRules-20260807.txt",
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        result = CliRunner().invoke(cli, ["add", *map(str, files)])
        assert result.exit_code == 0, result.output
        yield home


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner(env={"MTGRULES_HOME": str(home)}).invoke(cli, list(args))
    return result.exit_code, result.stdout


@pytest.mark.shared_data
def test_the_brazilian_catalogue_follows_its_english_by_text(po_home: Path):
    """619 rules translated, 2,447 entries untranslated and counted; it follows 2020-11-20
    because its msgids are that edition's rules word for word."""
    code, out = run(po_home, "sources", "--json", "--no-dropped")
    assert code == 0
    po = next(d for d in json.loads(out)["documents"] if d["format"] == "gettext-po")
    assert po["lang"] == "pt" and po["edition"] is None
    assert po["metadata"]["catalogue"] == (
        "4,084 entries: 1,637 translated, 2,447 untranslated (skipped)"
    )
    assert po["follows"]["edition"] == "2020-11-20"
    assert po["follows"]["evidence"] == (
        "follows English 2020-11-20 by its English text: 752 of 752 msgids are that "
        "edition's rules word for word"
    )
    numbered = sum(n for k, n in po["counts"].items() if k == "rule")
    assert numbered >= 619
    code, out = run(po_home, "sources")
    assert "  catalogue: 4,084 entries: 1,637 translated, 2,447 untranslated (skipped)" in out


@pytest.mark.shared_data
def test_portuguese_is_searchable_and_shown_side_by_side(po_home: Path):
    """A Portuguese query finds the Portuguese rule; show puts it beside the English."""
    code, out = run(po_home, "search", "jogador ativo", "--lang", "pt", "--json")
    assert code == 0
    numbers = [hit["records"][0]["number"] for hit in json.loads(out)["results"][:5]]
    assert "102.1" in numbers
    code, out = run(po_home, "show", "100.1")
    assert "pt  100.1 · rule · undated, follows English 2020-11-20 · comprehensive-rules.po" in out
    assert "Estas regras de Magic se aplicam" in out


@pytest.mark.shared_data
def test_po_export_is_valid_and_marks_what_is_stale(po_home: Path, tmp_path: Path):
    """export --format po: polib reads it, msgfmt --check accepts it; msgctxt the key, msgid
    today's English line, fuzzy (with the English it was made from) where English changed."""
    code, out = run(po_home, "export", "--format", "po", "--lang", "pt")
    assert code == 0
    path = tmp_path / "pt.po"
    path.write_text(out, encoding="utf-8")
    catalogue = polib.pofile(str(path))
    assert catalogue.metadata["Language"] == "pt"
    entries = {(e.msgctxt, e.msgid.split(" ")[0]): e for e in catalogue}
    rule = entries["100.1a", "100.1a"]
    assert (
        rule.msgstr
        == "100.1a Um jogo de dois jogadores é um jogo que começa com apenas dois jogadores."
    )
    assert (
        "pt 100.1a of comprehensive-rules.po (undated, follows English 2020-11-20)" in rule.comment
    )
    assert not rule.fuzzy
    changed = entries["100.2a", "100.2a"]  # English added a sentence since 2020-11-20
    assert changed.fuzzy and "For the purposes of deck construction" not in changed.previous_msgid
    untranslated = entries["100.2d", "100.2d"]  # new since 2020-11-20: nothing to translate from
    assert untranslated.msgstr == ""
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (Debian's gettext) is not installed; scripts/test installs it")
    check = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr


@pytest.mark.shared_data
def test_po_round_trip_brings_a_changed_translation_back(
    po_home: Path, tmp_path: Path, shared_data: Path
):
    """Export, change one msgstr, add it back: the change is what show prints, and the fuzzy
    entries are still stale (their previous msgid is the English they were made from)."""
    _, out = run(po_home, "export", "--format", "po", "--lang", "pt")
    catalogue = polib.pofile(out)
    entry = next(e for e in catalogue if e.msgctxt == "100.1a")
    entry.msgstr = "100.1a Uma partida de dois jogadores começa só com dois jogadores."
    home = tmp_path / "home"
    home.mkdir()
    edited = tmp_path / "revisado.po"
    catalogue.save(str(edited))
    english = shared_data / "cr/en/MagicCompRules-20260807.txt"
    code, added = run(home, "add", str(english), str(edited))
    assert code == 0, added
    code, shown = run(home, "show", "100.1a", "--lang", "pt")
    assert "Uma partida de dois jogadores começa só com dois jogadores." in shown
    code, out = run(home, "stale", "--lang", "pt", "--json")
    stale = {s["key"]: s for s in json.loads(out)["stale"]}
    assert "100.2a" in stale and stale["100.2a"]["english_from"] == "its previous msgid"
    assert "100.1a" not in stale


@pytest.mark.shared_data
def test_po_export_needs_one_language(po_home: Path):
    """Two languages to standard output: a usage error naming --output."""
    result = CliRunner(env={"MTGRULES_HOME": str(po_home)}).invoke(
        cli, ["export", "--format", "po", "--lang", "pt,es"]
    )
    assert result.exit_code == 2 and "--output" in result.output


@pytest.mark.shared_data
def test_check_counts_a_catalogues_untranslated_rules_once(po_home: Path):
    """A partial catalogue's untranslated entries are one info finding, not 1,874 missing rules."""
    code, out = run(po_home, "check", "--lang", "pt", "--json")
    assert code == 1
    payload = json.loads(out)
    assert "missing" not in payload["counts"]
    untranslated = [p for p in payload["problems"] if p["kind"] == "untranslated"]
    assert [(p["severity"], p["message"]) for p in untranslated] == [
        ("info", "1,874 rules of English 2020-11-20 are untranslated entries here")
    ]
