"""gettext PO catalogues in and out: a translated CR as translation platforms keep it, and
Portuguese, the fifth language of the table."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
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


def test_an_unterminated_string_is_refused_by_its_line():
    """`msgid "100.1a A two-player` with no closing quote: polib would read "A two-playe" and a
    record with it; msgfmt refuses the file, and so does `add`, naming the line."""
    from corpus.read.ingest import IngestError

    broken = (
        small()
        .decode("utf-8")
        .replace(
            'msgid "100.1a A two-player game is a game that begins with only two players."',
            'msgid "100.1a A two-player game',
        )
    )
    line = broken.splitlines().index('msgid "100.1a A two-player game') + 1
    with pytest.raises(IngestError) as refused:
        ingest_bytes(broken.encode("utf-8"), "broken.po")
    assert str(refused.value) == (
        f"broken.po: not a valid PO catalogue: line {line} is not a whole quoted string "
        "(msgfmt --check shows every fault); fix it and add it again"
    )
    assert ingest_bytes(small(), "whole.po").records  # escapes and quotes inside are fine


def test_a_repeated_msgid_is_refused_by_its_line():
    """An entry appended again (its msgid repeated): msgfmt refuses the file ("duplicate message
    definition"), and so does `add`, naming both lines; read, the catalogue lost its glossary."""
    from corpus.read.ingest import IngestError

    text = small().decode("utf-8")
    entry = 'msgid "100.1a A two-player game is a game that begins with only two players."'
    first = text.splitlines().index(entry) + 1
    repeated = f'{text.rstrip()}\n\n{entry}\nmsgstr "Um jogo."\n'
    with pytest.raises(IngestError) as refused:
        ingest_bytes(repeated.encode("utf-8"), "repetido.po")
    last = len(repeated.splitlines()) - 1
    assert str(refused.value) == (
        f"repetido.po: not a valid PO catalogue: line {last} repeats the msgid of line {first} "
        "(msgfmt --check: duplicate message definition); remove one of them; fix it and add it "
        "again"
    )


def test_a_catalogue_with_nothing_translated_is_refused_as_such():
    """Every msgstr empty (a catalogue not started): refused as a catalogue with no translated
    entry, not "no rules found in it", which sent the translator looking for rules."""
    from corpus.read.ingest import IngestError

    empty = re.sub(r'(?m)^msgstr ".+"$', 'msgstr ""', small().decode("utf-8"))
    with pytest.raises(IngestError) as refused:
        ingest_bytes(empty.encode("utf-8"), "vuoto.po")
    assert str(refused.value) == (
        "vuoto.po: a catalogue with no translated entry (every msgstr is empty); translate some "
        "and add it again"
    )


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
def test_the_catalogue_saved_again_in_utf16_is_the_one_already_there(
    po_home: Path, tmp_path: Path, shared_data: Path
):
    """A copy of the catalogue saved in UTF-16 is not a second Portuguese translation: add
    names the catalogue it repeats and keeps nothing."""
    copy = tmp_path / "comprehensive-rules-utf16.po"
    text = (shared_data / "cr/pt/comprehensive-rules.po").read_text(encoding="utf-8")
    copy.write_bytes(text.encode("utf-16"))
    code, out = run(po_home, "add", str(copy))
    assert code == 0
    assert out == (
        "comprehensive-rules-utf16.po: already in the library (as comprehensive-rules.po, in "
        "another encoding), nothing to do\n"
    )
    code, out = run(po_home, "sources", "--json", "--no-dropped")
    assert [d["source"] for d in json.loads(out)["documents"] if d["lang"] == "pt"] == [
        "comprehensive-rules.po"
    ]


@pytest.mark.shared_data
def test_the_brazilian_catalogue_follows_its_english_by_text(po_home: Path):
    """619 rules translated, 2,447 entries untranslated and counted; dated as its opening
    entry states ("Estas regras entram em vigor em 20 de Novembro de 2020."), it follows
    2020-11-20 because its msgids are that edition's rules word for word."""
    code, out = run(po_home, "sources", "--json", "--no-dropped")
    assert code == 0
    po = next(d for d in json.loads(out)["documents"] if d["format"] == "gettext-po")
    assert po["lang"] == "pt" and po["edition"] == "2020-11-20"
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
def test_a_hyphenated_term_is_found_written_with_spaces(po_home: Path):
    """The Brazilian glossary writes "ação baseada-no-estado": `term` finds it as a translator
    types it, with spaces (it was "not in the term base")."""
    code, out = run(po_home, "term", "ação baseada no estado")
    assert code == 0 and out.startswith("state-based action\n")
    assert "  pt  ação baseada-no-estado  — learned" in out


@pytest.mark.shared_data
def test_a_concept_named_whole_has_its_rule_first(po_home: Path):
    """`search "ação baseada no estado"` names state-based actions: 704 first, though the
    words found only rules that use the hyphenated term (306.9, 117.5 came first, 704 absent)."""
    code, out = run(po_home, "search", "--json", "ação baseada no estado")
    assert code == 0 and json.loads(out)["results"][0]["key"] == "704"


@pytest.mark.shared_data
def test_portuguese_is_searchable_and_shown_side_by_side(po_home: Path):
    """A Portuguese query finds the Portuguese rule; show puts it beside the English."""
    code, out = run(po_home, "search", "jogador ativo", "--lang", "pt", "--json")
    assert code == 0
    numbers = [hit["records"][0]["number"] for hit in json.loads(out)["results"][:5]]
    assert "102.1" in numbers
    code, out = run(po_home, "show", "100.1")
    assert (
        "pt  100.1 · rule · 2020-11-20, follows English 2020-11-20 · comprehensive-rules.po" in out
    )
    assert "Estas regras de Magic se aplicam" in out


@pytest.mark.shared_data
def test_a_term_of_a_renamed_concept_is_listed_under_its_new_name(po_home: Path):
    """The Brazilian catalogue (2020) says "custo de mana convertido": English calls that
    concept obsolete, now mana value; `term` says so both ways, and keeps "removed" (from
    combat) and "legend" (rule) current, as today's rules still use them."""
    code, out = run(po_home, "term", "custo de mana convertido")
    assert code == 0
    assert out.startswith("converted mana cost (obsolete in English: now mana value)\n")
    assert "\n  pt  custo de mana convertido (no longer in use)  — learned: " in out
    code, out = run(po_home, "term", "mana value", "--json")
    concept = json.loads(out)["concepts"][0]
    assert (concept["english"], concept["obsolete"], concept["replaced_by"]) == (
        "mana value",
        False,
        None,
    )
    renamed = [t for t in concept["terms"] if t.get("as")]
    assert [(t["lang"], t["term"], t["as"], t["obsolete"]) for t in renamed] == [
        ("fr", "coût converti de mana", "converted mana cost", True),  # curated
        ("pt", "custo de mana convertido", "converted mana cost", True),
    ]
    code, out = run(po_home, "term", "mana value")
    assert (
        "  pt  custo de mana convertido (no longer in use: translates converted mana cost)" in out
    )
    code, out = run(po_home, "term", "removed", "--json")
    assert not any(c["obsolete"] for c in json.loads(out)["concepts"])
    from starlette.testclient import TestClient

    from search.web.app import create_app

    with TestClient(create_app(po_home)) as client:
        page = client.get("/term/custo de mana convertido").text
        assert '(obsolete in English: now <a href="/term/mana%20value">mana value</a>)' in page
        assert "no longer in use (translates" in client.get("/term/mana value").text


@pytest.mark.shared_data
def test_a_search_in_one_language_never_says_that_language_matched(po_home: Path):
    """`search kicked --kind glossary --lang pt`: Portuguese's glossary entry is under "Kicker,
    Kicked" (found by English words), yet no Portuguese text matches "kicked": the note names
    English only, not "…English and Portuguese text does" beside "no Portuguese text". (Trample
    was the example until the glossary taught the term base "Atropelar": it matches now.)"""
    result = CliRunner(env={"MTGRULES_HOME": str(po_home)}).invoke(
        cli, ["search", "kicked", "--kind", "glossary", "--lang", "pt"]
    )
    assert result.exit_code == 1
    assert result.stderr.endswith(
        "no Portuguese text matches it, English text does; search without --lang\n"
    )
    code, out = run(po_home, "search", "trample", "--kind", "glossary", "--lang", "pt", "--json")
    assert code == 0 and json.loads(out)["results"][0]["key"] == "Trample"


@pytest.mark.shared_data
def test_po_export_is_valid_and_marks_what_is_stale(po_home: Path, tmp_path: Path):
    """export --format po: polib reads it, msgfmt --check accepts it; msgctxt the key, msgid
    today's English line, fuzzy (with the English it was made from) where English changed; the
    source catalogue's Language (pt_BR) and Language-Team kept."""
    code, out = run(po_home, "export", "--format", "po", "--lang", "pt")
    assert code == 0
    path = tmp_path / "pt.po"
    path.write_text(out, encoding="utf-8")
    catalogue = polib.pofile(str(path))
    # The catalogue's own region and team, kept for its platform (Crowdin's pt-BR project).
    assert catalogue.metadata["Language"] == "pt_BR"
    assert catalogue.metadata["Language-Team"] == "Portuguese, Brazilian"
    entries = {(e.msgctxt, e.msgid.split(" ")[0]): e for e in catalogue}
    rule = entries["100.1a", "100.1a"]
    assert (
        rule.msgstr
        == "100.1a Um jogo de dois jogadores é um jogo que começa com apenas dois jogadores."
    )
    assert (
        "pt 100.1a of comprehensive-rules.po (2020-11-20, follows English 2020-11-20)"
        in rule.comment
    )
    assert not rule.fuzzy
    changed = entries["100.2a", "100.2a"]  # English added a sentence since 2020-11-20
    assert changed.fuzzy and "For the purposes of deck construction" not in changed.previous_msgid
    untranslated = entries["100.2d", "100.2d"]  # new since 2020-11-20: nothing to translate from
    assert untranslated.msgstr == ""
    # An example's comment names its rule, a glossary entry's its translated headword.
    example = next(e for e in catalogue if e.msgctxt == "101.2 example 1")
    assert example.comment.startswith("pt 101.2 example of comprehensive-rules.po")
    island = next(e for e in catalogue if e.msgctxt == "glossary Island definition")
    assert island.comment.startswith("pt glossary “Ilha” of comprehensive-rules.po")
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
    code, out = run(home, "stale", "--lang", "pt")
    assert "(changed; English of its previous msgid → 2026-08-07; " in out
    # show and TMX say a fuzzy entry is no translation of the English beside it.
    code, shown = run(home, "show", "100.2a", "--lang", "pt")
    assert "revisado.po · fuzzy: translated from older English (its previous msgid)" in shown
    code, out = run(home, "export", "--format", "tmx", "--lang", "en,pt")
    unit = next(
        tu for tu in ET.fromstring(out.encode("utf-8")).iter("tu") if tu.get("tuid") == "100.2a"
    )
    props = {p.get("type"): p.text for p in unit.iter("prop")}
    assert props["x-fuzzy"] == "a fuzzy catalogue entry, translated from older English"
    # On the rule page: no link to a diff "from its previous msgid" (no edition: a 400).
    from starlette.testclient import TestClient

    from search.web.app import create_app

    with TestClient(create_app(home)) as client:
        page = client.get("/rule/100.2a").text
    assert "was translated from older English (its catalogue's previous msgid)" in page
    assert "from=its" not in page and "follows English its previous msgid" not in page


@pytest.mark.shared_data
def test_stale_lists_a_rule_once_when_its_round_trip_is_beside_the_original(
    po_home: Path, tmp_path: Path
):
    """The exported catalogue, brought back beside the original: `stale` lists each rule once,
    from the catalogue that follows the newer English (it listed 131 rules twice)."""
    _, out = run(po_home, "export", "--format", "po", "--lang", "pt")
    home = tmp_path / "home"
    shutil.copytree(po_home, home)
    edited = tmp_path / "revisado.po"
    edited.write_text(out, encoding="utf-8")
    code, added = run(home, "add", str(edited))
    assert code == 0, added
    _, before = run(po_home, "stale", "--lang", "pt", "--json")
    _, after = run(home, "stale", "--lang", "pt", "--json")
    keys = [s["key"] for s in json.loads(after)["stale"]]
    assert len(keys) == len(set(keys))
    assert len(keys) <= len(json.loads(before)["stale"])
    by_key = {s["key"]: s for s in json.loads(after)["stale"]}
    assert by_key["100.2a"]["english_from"] == "its previous msgid"  # the round trip's entry


@pytest.mark.shared_data
def test_one_text_in_two_catalogues_is_shown_from_the_document_it_follows_with(
    po_home: Path, tmp_path: Path
):
    """The Brazilian catalogue (following 2020-11-20) and its round trip (following 2026-08-07)
    hold many texts alike: each is shown with the source whose date and edition it is shown
    with (it said "follows English 2020-11-20 · revisado.po"), and `--json` lists both."""
    home = tmp_path / "home"
    shutil.copytree(po_home, home)
    _, out = run(home, "export", "--format", "po", "--lang", "pt")
    (tmp_path / "revisado.po").write_text(out, encoding="utf-8")
    assert run(home, "add", str(tmp_path / "revisado.po"))[0] == 0
    follows = {"comprehensive-rules.po": "2020-11-20", "revisado.po": "2026-08-07"}
    _, out = run(home, "show", "100.1", "--lang", "pt", "--json")
    records = [r for r in json.loads(out)["results"][0]["records"] if r["lang"] == "pt"]
    assert records and all(follows[r["source"]] == r["follows"] for r in records)
    shared = [r for r in records if len(r.get("sources", [])) > 1]
    assert shared and set(shared[0]["sources"]) == set(follows)


@pytest.mark.shared_data
def test_a_moved_rule_whose_citations_changed_says_so_on_its_page(po_home: Path):
    """Portuguese 201.3b is 2026-08-07's 201.4b, its text changed only in the rule it cites
    (708 → 709): the rule page says so, with the diff (it said "its text unchanged")."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    assert run(po_home, "index")[0] == 0
    with TestClient(create_app(po_home)) as client:
        page = client.get("/rule/201.4b").text
    assert "this rule <strong>moved to" in page
    assert '; only the rule numbers it cites changed: <span class="diff">' in page
    assert "its text unchanged" not in page


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
    # The msgstrs numbered unlike their msgids, as `add` and `sources` warn of them.
    typed = [p for p in payload["problems"] if p["kind"] == "typed"]
    assert payload["counts"]["typed"] == len(typed) == 6
    assert {
        "source": "comprehensive-rules.po",
        "number": "201.5",
        "check": "typed",
        "kind": "typed",
        "severity": "warning",
        "message": "msgstr numbered 2015.5 where its msgid is 201.5 (line 1925); kept as 201.5",
    } in typed
    _, text = run(po_home, "check", "--lang", "pt")
    assert (
        "info    comprehensive-rules.po: untranslated: 1,874 rules of English 2020-11-20 are "
        "untranslated entries here" in text.splitlines()
    )
    # A symbol is compared in any case and named as the catalogue prints it: a translator
    # searching it for "{RN}" would not find "{rN}".
    assert (
        "warning comprehensive-rules.po 107.15: symbols: prints {rN}, which English does not"
        in text.splitlines()
    )


def _translations(home: Path, lang: str) -> dict[tuple[str, str], list[str]]:
    """(key, kind) -> the texts of one language's records, from the hand-off file."""
    found: dict[tuple[str, str], list[str]] = {}
    for line in (home / "records.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["lang"] == lang:
            found.setdefault((record["key"], record["kind"]), []).append(record["text"])
    return {key: sorted(texts) for key, texts in found.items()}


@pytest.mark.shared_data
def test_po_round_trip_in_place_of_the_original_keeps_every_translation_in_place(
    tmp_path: Path, shared_data: Path
):
    """Exported against today's English and added back instead of the catalogue it came from:
    the catalogue follows today's English (its msgids'), not an edition its drafts resemble,
    and every translation stands under the key it had, but those of rules English removed
    since, which the export names on stderr."""
    english = [
        shared_data / "cr/pt/MagicCompRules-20201120.txt",
        shared_data / "cr/en/MagicCompRules-20251114.txt",
        shared_data / "cr/en/MagicCompRules-20260807.txt",
    ]
    first, second = tmp_path / "first", tmp_path / "second"
    code, _ = run(
        first, "add", *map(str, english), str(shared_data / "cr/pt/comprehensive-rules.po")
    )
    assert code == 0
    result = CliRunner(env={"MTGRULES_HOME": str(first)}).invoke(
        cli, ["export", "--format", "po", "--lang", "pt"]
    )
    assert result.exit_code == 0
    # Each named by kind: the rules (`stale` lists them too), an example, glossary entries.
    assert (
        "\nnote: 8 pt translations are not in the catalogue: today's English has no line for"
        " them: example of 118.3c; rules 201.2b, 201.5, 712; glossary entries Converted Mana"
        " Cost, Damage Assignment Order, Tribal, Vancouver Mulligan (`mtgrules stale --lang pt`"
        " lists those English removed)\n" in result.stderr
    )
    exported = tmp_path / "mtgrules-pt.po"
    exported.write_text(result.stdout, encoding="utf-8")
    code, _ = run(second, "add", *map(str, english), str(exported))
    assert code == 0 and run(second, "index")[0] == 0
    _, out = run(second, "sources", "--json", "--no-dropped")
    po = next(d for d in json.loads(out)["documents"] if d["format"] == "gettext-po")
    assert po["follows"]["edition"] == "2026-08-07"
    # The heading "Glossary" left empty is no untranslated rule: counted apart, so the count
    # agrees with the dropped lines' ("untranslated: empty msgstr").
    assert ", 1 other line left empty, " in po["metadata"]["catalogue"]
    before, after = _translations(first, "pt"), _translations(second, "pt")
    assert {k: v for k, v in before.items() if k in after} == after
    left_out = sorted(k for k in before if k not in after)
    assert len(left_out) == 8  # what the export's note counts (308 Tribals is Kindreds now)
    today = {
        (record["key"], record["kind"])
        for line in (second / "records.jsonl").read_text(encoding="utf-8").splitlines()
        if (record := json.loads(line))["lang"] == "en" and record["edition"] == "2026-08-07"
    }
    assert not today & set(left_out)
    assert {kind for _, kind in left_out} == {"rule", "glossary", "example"}
    assert all(key.startswith("gone:") for key, kind in left_out if kind == "rule")
    # Its untranslated entries are counted as such by `check`, not reported as numbering gaps.
    _, out = run(second, "check", "--lang", "pt", "--json")
    checks = {p["check"] for p in json.loads(out)["problems"]}
    assert "gap" not in checks and "untranslated" in checks


@pytest.mark.shared_data
def test_a_catalogues_glossary_is_keyed_by_its_msgids(po_home: Path):
    """Each translated headword stands under the English headword of its msgid: Island is
    Ilha, General is Geral, and Plains, untranslated in the catalogue, has none."""
    glossary = {
        key: texts
        for (key, kind), texts in _translations(po_home, "pt").items()
        if kind == "glossary"
    }
    assert glossary["Island"][0].startswith("Um dos cinco tipos de terreno básico")
    assert glossary["General"][0].startswith("Qualquer jogador na variante multijogador Imperador")
    assert "Plains" not in glossary
    code, out = run(po_home, "show", "Island", "--lang", "pt")
    assert code == 0 and "Ilha" in out


def test_a_cleared_fuzzy_flag_makes_the_entry_current():
    """A translator who clears the fuzzy flag but leaves the previous msgid (#|) behind has
    checked the entry: it translates its msgid, and it is no longer a draft."""
    previous = '#| msgid "100.2. To play, each player needs their own deck of Magic cards."\n'
    drafted = small().decode("utf-8").replace("#, fuzzy\n", "#, fuzzy\n" + previous)
    cleared = drafted.replace("#, fuzzy\n", "")

    def rule_100_2(text: str):
        records = ingest_bytes(text.encode("utf-8"), "pt.po").records
        return next(r for r in records if r.key == "100.2" and r.kind == "rule")

    draft, checked = rule_100_2(drafted), rule_100_2(cleared)
    assert "fuzzy" in draft.flags
    assert draft.original == "To play, each player needs their own deck of Magic cards."
    assert "fuzzy" not in checked.flags
    assert checked.original is not None and checked.original.endswith("track life totals.")


@pytest.mark.shared_data
def test_a_second_translation_of_a_language_is_added_with_a_note(
    po_home: Path, tmp_path: Path, shared_data: Path
):
    """A catalogue edited and added back beside its original: kept (both are shown), with a
    note naming the other translation and the `remove` that keeps only the new one; whether
    the original is indexed yet or not; a third names both others ("all", one `remove`)."""
    _, exported = run(po_home, "export", "--format", "po", "--lang", "pt")
    edited = tmp_path / "revisado.po"
    edited.write_text(exported.replace("Um jogo de dois", "Uma partida de dois"), "utf-8")
    original = shared_data / "cr/pt/comprehensive-rules.po"
    note = (
        "  note: the library has another pt translation (comprehensive-rules.po); both are "
        "shown and searched, each beside the English it follows; to keep only this one, "
        "`mtgrules remove comprehensive-rules.po`"
    )
    for indexed in (False, True):
        home = tmp_path / f"home-{indexed}"
        assert run(home, "add", str(original))[0] == 0
        if indexed:
            assert run(home, "index")[0] == 0
        code, out = run(home, "add", str(edited))
        assert code == 0
        assert out.splitlines()[0].startswith("revisado.po: added as revisado.po (lang=pt")
        assert out.splitlines()[-1] == note
    # A third: the note names both others, and one `remove` of both keeps only it.
    third = tmp_path / "terza.po"
    third.write_text(exported.replace("Um jogo de dois", "Um jogo para dois"), "utf-8")
    code, out = run(home, "add", str(third))
    assert code == 0 and out.splitlines()[-1] == (
        "  note: the library has other pt translations (comprehensive-rules.po, revisado.po);"
        " all are shown and searched, each beside the English it follows; to keep only this"
        " one, `mtgrules remove comprehensive-rules.po revisado.po`"
    )


@pytest.mark.shared_data
def test_check_says_first_when_a_translation_is_checked_against_english_long_before_it(
    po_home: Path,
):
    """The Italian seed (2024-11-23) with English 2020-11-20 and 2026-08-07 loaded is checked
    against 2020-11-20, four years older: the first finding says so, and what to add."""
    code, out = run(po_home, "check", "--lang", "it")
    assert code == 1
    assert out.splitlines()[1] == (
        "info    000_3f40d4614bb0d7a7.txt: edition: dated 2024-11-23, checked against English "
        "2020-11-20, the newest loaded edition on or before it (1,464 days older): what English "
        "changed in between is reported here too; add the English edition in effect on "
        "2024-11-23 for a truer check"
    )


@pytest.mark.shared_data
def test_a_rule_rewritten_twice_since_the_catalogue_is_stale_not_removed(
    shared_data: Path, tmp_path: Path
):
    """With English 2025-04-04 loaded between the catalogue's 2020-11-20 and 2026-08-07, 122.8
    (rewritten in 2025-04-04 and again since) is one rule by its key: `stale` lists it changed
    and the PO export keeps its Portuguese as a fuzzy entry (it was "removed from English" with
    an empty msgstr); a rule English removed says the edition it went in, not the newest."""
    home = tmp_path / "home"
    files = [
        shared_data / "cr/pt/comprehensive-rules.po",
        shared_data / "cr/pt/MagicCompRules-20201120.txt",
        shared_data / "cr/en/MagicCompRules-20250404.txt",
        shared_data / "cr/en/MagicCompRules-20260807.txt",
        # A judge document's English editions are no CR edition (with one, every line was lost).
        *sorted((shared_data / "judge").glob("JAR*.html")),
    ]
    assert run(home, "add", *map(str, files))[0] == 0
    code, out = run(home, "stale", "--lang", "pt")
    assert code == 0
    assert "pt 122.8 (changed; English 2020-11-20 → 2026-08-07;" in out
    # 100.7, rewritten at its place (0.41 alike): stale, not removed; 712 (Meld) went.
    assert "pt 100.7 (changed; English 2020-11-20 → 2026-08-07;" in out
    assert "pt 712 (removed from English 2025-04-04;" in out
    code, _ = run(home, "export", "--format", "po", "--lang", "pt", "--output", str(tmp_path))
    assert code == 0
    import polib

    entry = polib.pofile(str(tmp_path / "mtgrules-pt.po")).find("122.8", by="msgctxt")
    assert entry is not None and entry.fuzzy and entry.previous_msgid
    assert entry.msgstr.startswith("122.8. Se uma habilidade desencadeada")


@pytest.mark.shared_data
def test_a_portuguese_question_is_read_as_one(po_home: Path):
    """`o que é a pilha` is a question ("o que" opens it) whose one word is "pilha": 405, the
    stack, first, as `pilha` alone (it searched "é" too and found 112.1 first)."""
    for asked in ("o que é a pilha", "pilha"):
        code, out = run(po_home, "search", asked, "--json")
        assert code == 0
        assert json.loads(out)["results"][0]["key"] == "405", asked


@pytest.mark.shared_data
def test_the_web_lists_a_translations_stale_rules(po_home: Path):
    """`/stale?lang=pt` is `stale --lang pt` on a page (as many rules, each linked, with its
    English diff); the home page and the diff page of a one-edition translation link to it;
    a language without a translation here is a 400 naming those there are; a regional tag
    ("pt-BR") is its language, as on the command line (it was refused). The examples and
    glossary entries whose English changed too are counted under the rules (`also_changed`):
    the PO export marks them fuzzy, and `stale` said nothing of them."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    assert run(po_home, "index")[0] == 0
    code, out = run(po_home, "stale", "--lang", "pt", "--json")
    assert code == 0
    stale = json.loads(out)["stale"]
    client = TestClient(create_app(po_home))
    page = client.get("/stale?lang=pt")
    assert page.status_code == 200
    assert f"<h2>Português: {len(stale)} stale rules</h2>" in page.text
    first = stale[0]["key"]
    assert f'<a href="/rule/{first}">{first}</a>' in page.text
    assert 'href="/stale?lang=pt"' in client.get("/").text
    assert 'href="/stale?lang=pt"' in client.get("/diff?doc=cr&lang=pt").text
    refused = client.get("/stale?lang=en")
    assert refused.status_code == 400 and "a translation&#39;s language here" in refused.text
    also = json.loads(out)["also_changed"]  # examples and glossary entries, changed too
    assert also and {i["kind"] for i in also} <= {"example", "note", "glossary"}
    assert "Also changed in English: " in page.text
    assert (
        run(po_home, "stale", "--lang", "pt")[1]
        .splitlines()[-1]
        .startswith("also changed in English: ")
    )
    regional = client.get("/stale?lang=pt-BR")  # as `stale --lang pt-BR` and the API take it
    assert regional.status_code == 200 and f"{len(stale)} stale rules" in regional.text
    unknown = client.get("/stale?lang=br")
    assert unknown.status_code == 400 and "unknown language" in unknown.text.lower()


@pytest.mark.shared_data
def test_stale_says_when_a_translation_is_compared_with_english_long_before_it(po_home: Path):
    """The Italian seed (2024-11-23) with English 2020-11-20 and 2026-08-07 loaded is compared
    with 2020-11-20: `stale` says so first (on stderr, in JSON `notes`), as `check` does, since
    its list then holds changes the translation may already have."""
    result = CliRunner(env={"MTGRULES_HOME": str(po_home)}).invoke(cli, ["stale", "--lang", "it"])
    assert result.exit_code == 0
    assert result.stderr.splitlines()[-1] == (
        "note: it 000_3f40d4614bb0d7a7.txt is dated 2024-11-23 and compared with English "
        "2020-11-20, the newest loaded on or before it (1,464 days older): what English changed "
        "in between is listed too; add the English edition in effect on 2024-11-23 for a truer "
        "list"
    )
    _, out = run(po_home, "stale", "--lang", "pt", "--json")
    assert json.loads(out)["notes"] == []  # the catalogue follows the edition it states


@pytest.mark.shared_data
def test_a_catalogues_glossary_teaches_the_term_base(po_home: Path):
    """The Brazilian glossary's headwords are terms of the English headwords their entries are
    keyed by: `term atropelar` is trample (it was "not in the term base", though the catalogue
    has Trample — Atropelar), and `search atropelar` finds 702.19 first."""
    code, out = run(po_home, "term", "atropelar")
    assert code == 0 and out.startswith("trample\n")
    assert (
        "  pt  Atropelar  — glossary of comprehensive-rules.po: “Atropelar” is its entry for "
        "Trample" in out
    )
    code, out = run(po_home, "search", "atropelar", "--json")
    assert code == 0 and json.loads(out)["results"][0]["key"] == "702.19"


@pytest.mark.shared_data
def test_po_export_of_two_catalogues_of_a_language_names_the_one_each_line_is_from(
    tmp_path: Path, shared_data: Path
):
    """With the catalogue and an edited copy of it added, export --format po says which one
    its lines come from, and each entry's comment names it."""
    original = shared_data / "cr/pt/comprehensive-rules.po"
    edited = tmp_path / "revisado.po"
    edited.write_text(
        original.read_text(encoding="utf-8").replace(
            "Um jogo de dois jogadores é um jogo", "Uma partida de dois jogadores é uma partida"
        ),
        encoding="utf-8",
    )
    home = tmp_path / "home"
    english = shared_data / "cr/pt/MagicCompRules-20201120.txt"
    code, _ = run(home, "add", str(original), str(edited), str(english))
    assert code == 0
    result = CliRunner(env={"MTGRULES_HOME": str(home)}).invoke(
        cli, ["export", "--format", "po", "--lang", "pt"]
    )
    assert result.exit_code == 0
    assert result.stderr.splitlines()[-1] == (
        "note: the library has 2 pt translations: each line is comprehensive-rules.po's, else "
        "revisado.po's where it has none (each entry's comment names its document); to export "
        "revisado.po alone, add it with its English to a library of its own "
        "(MTGRULES_HOME=DIR mtgrules add …)"
    )
    assert "#. pt 100.1a of comprehensive-rules.po (2020-11-20" in result.stdout
