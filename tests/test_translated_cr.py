"""Whole translated Comprehensive Rules: recognised with or without front matter as text, HTML
or PDF, page wrapping undone, translator notes flagged, the glossary read; the real Spanish CR
PDF ingested, following English 2025-11-14 by its numbering, side by side with English."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import copy_home
from translated_cr import LANGUAGES, NUMBERS, Words, as_html, as_pdf, as_text

from corpus.align.following import by_numbering
from corpus.model.records import Document
from corpus.read.ingest import extract, ingest_bytes
from search.cli import cli

FORMATS = ("text", "html", "pdf")


def translated(lang: str, form: str, front_matter: bool, folder: Path) -> Document:
    words = LANGUAGES[lang]
    if form == "text":
        data = as_text(words, front_matter)
    elif form == "html":
        data = as_html(words, front_matter)
    else:
        data = as_pdf(words, front_matter, folder / "cr.pdf").read_bytes()
    return ingest_bytes(data, f"cr-{lang}.{form}")


CASES = [(lang, form, front) for lang in LANGUAGES for form in FORMATS for front in (False, True)]


@pytest.mark.parametrize(("lang", "form", "front_matter"), CASES)
def test_translated_cr_is_recognised(lang: str, form: str, front_matter: bool, tmp_path: Path):
    """Chapters, sections, rules and the glossary, with or without the title and contents."""
    doc = translated(lang, form, front_matter, tmp_path)
    assert (doc.lang, doc.layout) == (lang, "comprehensive-rules")
    assert doc.edition == ("2025-11-14" if front_matter else None)
    assert [r.number for r in doc.records if r.kind == "rule"] == NUMBERS
    chapters = [r.title for r in doc.records if r.number in ("1", "2", "7")]
    assert chapters == [c.split(". ", 1)[1] for c in LANGUAGES[lang].chapters]
    assert doc.counts() == {"rule": 18, "example": 1, "glossary": 2}
    if not front_matter and form != "pdf":  # a PDF's running header is a title
        assert "no title page: 3 chapters opening their sections" in doc.layout_reason


@pytest.mark.parametrize(("lang", "form"), [(lang, form) for lang in LANGUAGES for form in FORMATS])
def test_wrapped_citations_continue_their_rule(lang: str, form: str, tmp_path: Path):
    """'… vedi regola' then '117.3a. …' on the next line: a citation, not rule 117.3a."""
    words: Words = LANGUAGES[lang]
    doc = translated(lang, form, False, tmp_path)
    text = {r.number: r.text for r in doc.records if r.kind == "rule"}
    assert text["117.2a"].endswith(f"117.3a. {words.turn_based}")
    assert text["117.3a"] == words.rules["117.3a"]
    assert text["205.4d"].endswith("704.5j).")
    assert text["205.4e"] == words.rules["205.4e"]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_translator_notes_and_examples(lang: str, tmp_path: Path):
    """'(NdT: …)' stays in its rule and flags it; the example belongs to 704.5j."""
    words = LANGUAGES[lang]
    doc = translated(lang, "text", True, tmp_path)
    rule = next(r for r in doc.records if r.number == "704.5j")
    assert rule.text.endswith(words.note)
    assert rule.flags == ("translator-note",)
    assert [r.flags for r in doc.records if r.number != "704.5j"] == [()] * (len(doc.records) - 1)
    example = next(r for r in doc.records if r.kind == "example")
    assert (example.parent, example.key, example.text) == ("704.5j", "704.5j", words.example)


@pytest.mark.parametrize(("lang", "form"), [(lang, form) for lang in LANGUAGES for form in FORMATS])
def test_glossary_headwords_and_numbered_senses(lang: str, form: str, tmp_path: Path):
    """A headword line, then its definition: one or more numbered senses, then 'see rule'."""
    words = LANGUAGES[lang]
    doc = translated(lang, form, True, tmp_path)
    glossary = [(r.title, r.text) for r in doc.records if r.kind == "glossary"]
    assert glossary == [(headword, " ".join(lines)) for headword, lines in words.terms]


@pytest.mark.parametrize(("lang", "form"), [(lang, form) for lang in LANGUAGES for form in FORMATS])
def test_front_matter_and_page_chrome_are_dropped_with_reasons(
    lang: str, form: str, tmp_path: Path
):
    """Title, date, introduction, contents and credits dropped; nothing lost."""
    doc = translated(lang, form, True, tmp_path)
    reasons = Counter(d.reason for d in doc.dropped)
    assert reasons["metadata: edition date"] == 1
    assert reasons["table of contents"] == 7  # heading, 4 chapters and sections, glossary, credits
    assert reasons["front matter: introduction"] >= 1  # one paragraph, wrapped or not
    assert reasons["boilerplate: credits"] == 2
    words = LANGUAGES[lang]
    data = as_pdf(words, True, tmp_path / "cr.pdf").read_bytes() if form == "pdf" else None
    if data is not None:
        lines, _, _ = extract(data, "cr.pdf")
        wanted = {i for i, line in enumerate(lines, start=1) if line.strip()}
        in_records = [i for r in doc.records for i in range(r.lines[0], r.lines[1] + 1)]
        dropped = {d.line: d.reason for d in doc.dropped}
        assert len(in_records) == len(set(in_records))  # no line in two records
        assert set(in_records) | set(dropped) == wanted
        # A rule running over a page break spans the page's footer and header, set aside.
        inside = {dropped[i] for i in set(in_records) & set(dropped)}
        assert inside <= {"boilerplate: page number", "boilerplate: running header or footer"}
        assert reasons["boilerplate: page number"] == 2


def test_numbering_picks_the_edition_and_ties_go_to_the_earliest():
    """The edition sharing most numbers in the covered sections; equal ones: the earliest."""
    mine = {"704", "704.5", "704.5i", "704.5j", "704.5k"}
    english = {
        "2024-11-08": {"704", "704.5", "704.5i", "704.5j", "704.5k", "205.4d"},
        "2025-02-07": {"704", "704.5", "704.5i", "704.5j", "704.5k", "205.4e"},
        "2026-08-07": {"704", "704.5", "704.5i", "704.5j", "704.5k", "704.5m"},
    }
    found = by_numbering(mine, english)
    assert found is not None
    assert (found.edition, found.found, found.total) == ("2024-11-08", 5, 5)
    assert found.evidence() == "follows English 2024-11-08 by numbering: 5 of 5 numbers"
    assert by_numbering({"205.1", "205.2c"}, english) is None  # 205 has other numbers there


# The real Spanish CR (../shared/data/cr/es, see PROVENANCE.md section 4).

PDF = "magic_rules_clean.pdf"


@pytest.fixture(scope="module")
def spanish(shared_data: Path) -> Document:
    path = shared_data / "cr" / "es" / PDF
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return ingest_bytes(path.read_bytes(), PDF)


@pytest.mark.shared_data
def test_spanish_cr_pdf_is_read_whole(spanish: Document):
    """3,239 distinct numbers (7 printed as 111,10m or 111.10S among them), 276 examples, 723
    glossary entries; 117.3a one rule, its number wrapped into 117.2c a citation; 704.5j
    whole."""
    rules = [r for r in spanish.records if r.kind == "rule"]
    assert (spanish.lang, spanish.layout, spanish.edition) == ("es", "comprehensive-rules", None)
    assert len({r.number for r in rules if len(r.number or "") >= 3}) == 3239
    assert (spanish.counts()["example"], spanish.counts()["glossary"]) == (276, 723)
    assert [r.text[:40] for r in rules if r.number == "117.3a"] == [
        "El jugador activo recibe prioridad al co"
    ]
    turn_based = next(r for r in rules if r.number == "117.2c").text
    assert "recibir prioridad. Ver la regla 117.3a. Las acciones basadas en turno" in turn_based
    assert next(r for r in rules if r.number == "704.5j").text == (
        "Si un mismo jugador controla dos o más permanentes legendarios con el mismo nombre, ese "
        "jugador elige uno de ellos, y el resto es puesto en el cementerio de su propietario. A "
        "esto se le llama “la regla de leyendas”."
    )
    assert "rule 111.10m is printed '111,10m' (line 787)" in spanish.warnings
    assert sum("translator-note" in r.flags for r in spanish.records) == 8


@pytest.fixture(scope="module")
def spanish_home(tmp_path_factory: pytest.TempPathFactory, spanish_library: Path) -> Path:
    """The seeds, English 2025-11-14 and a newer edition, and the Spanish CR PDF (this module's
    copy of the session's library)."""
    return copy_home(spanish_library, tmp_path_factory.mktemp("spanish"))


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner(env={"MTGRULES_HOME": str(home)}).invoke(
        cli, catch_exceptions=False, args=list(args)
    )
    return result.exit_code, result.stdout


@pytest.mark.shared_data
def test_a_rules_words_are_its_english_texts_where_it_has_one(spanish_home: Path):
    """704.5f's words are its English text's: the Spanish "Si una criatura …" gave it "as
    though" (the cards' lines pair "si" with it), which no English text of 704.5f says; a rule
    asked in Spanish alone still has its Spanish text's words."""
    _, out = run(spanish_home, "show", "704.5f", "--json")
    terms = json.loads(out)["results"][0]["english"]["terms"]
    assert "toughness" in terms and "as though" not in terms
    _, alone = run(spanish_home, "show", "704.5f", "--lang", "es", "--json")
    assert "toughness" in json.loads(alone)["results"][0]["english"]["terms"]


@pytest.mark.shared_data
def test_a_translations_number_of_a_rule_english_no_longer_has_names_the_command(
    spanish_home: Path,
):
    """`show 714.3a --lang es`: the Spanish 714.3a is a rule 2026-08-07 no longer has (today's
    714.3a is another): the error names the command that shows it, not "no Spanish text of
    714.3a"; `show 714.3a` says so above today's rule; a moved one names its new number."""
    result = CliRunner(env={"MTGRULES_HOME": str(spanish_home)}).invoke(
        cli, ["show", "714.3a", "--lang", "es"]
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the Spanish text (following English 2025-11-14) numbers 714.3a a rule the newest"
        " English edition no longer has (last printed as 714.3a in 2025-11-14): `mtgrules show"
        " gone:714.3a@2025-11-14 --lang es`\n"
    )
    code, out = run(spanish_home, "show", "gone:714.3a@2025-11-14", "--lang", "es")
    assert code == 0 and "Ver la regla 702.155, “Adelanto”" in out
    _, out = run(spanish_home, "show", "714.3a")
    assert out.startswith("the Spanish text (following English 2025-11-14) numbers 714.3a a rule")
    moved = CliRunner(env={"MTGRULES_HOME": str(spanish_home)}).invoke(
        cli, ["show", "310.8", "--lang", "es"]
    )
    assert moved.stderr == (
        "error: the Spanish text (following English 2025-11-14) numbers 310.8 what is 310.9"
        " now: `mtgrules show 310.9 --lang es`\n"
    )


@pytest.mark.shared_data
def test_json_gives_todays_english_beside_the_one_a_translation_follows(spanish_home: Path):
    """`show 310.7 --json`: `english` is the text the Spanish CR translates (2025-11-14's "a
    battle's defense"), and `english.current` today's, which 2026-08-07 changed ("a Siege
    battle's"); a rule English did not change since has no `current`."""
    _, out = run(spanish_home, "show", "310.7", "--json")
    english = json.loads(out)["results"][0]["english"]
    assert english["edition"] == "2025-11-14"
    assert english["text"].startswith("If a battle’s defense is 0")
    assert english["current"]["edition"] == "2026-08-07"
    assert english["current"]["text"].startswith("If a Siege battle’s defense is 0")
    _, out = run(spanish_home, "show", "704.5j", "--json")
    assert "current" not in json.loads(out)["results"][0]["english"]


@pytest.mark.shared_data
def test_a_brief_line_shows_a_renumbered_rule_as_printed_today(spanish_home: Path):
    """733.2 was printed 732.2 by English 2025-11-14 and the Spanish CR: its brief line is
    today's text under today's number, not "733.2 (printed 732.2)" with nothing to say when."""
    _, out = run(spanish_home, "search", "--brief", "--limit", "1", "priority retains redo")
    assert out.startswith("733.2 — When reversing illegal spells and abilities, the player")


@pytest.mark.shared_data
def test_a_mulligan_gone_from_english_comes_after_the_rules_in_force(spanish_home: Path):
    """English 2026-08-07 no longer has the Vancouver and Paris mulligans, the Spanish CR does:
    `london mulligan` and `mulligan` have the rules and entries in force before them (they
    came third and fourth, before 103.5b and the London mulligan's entry); asked by name, the
    Vancouver mulligan's entry is still first."""
    for query in ("london mulligan", "mulligan"):
        code, out = run(spanish_home, "search", "--json", "--limit", "10", query)
        keys = [r["key"] for r in json.loads(out)["results"]]
        in_force = max(keys.index(key) for key in ("London Mulligan", "103.5b"))
        assert code == 0 and in_force < keys.index("Vancouver Mulligan"), keys
        assert in_force < keys.index("Paris Mulligan"), keys
    code, out = run(spanish_home, "search", "--json", "vancouver mulligan")
    assert json.loads(out)["results"][0]["key"] == "Vancouver Mulligan"


def test_a_judge_documents_concept_is_not_searched_in_the_translated_rules(
    spanish_library: Path, shared_data: Path, tmp_path: Path
):
    """Tardiness is the IPG's alone: `tardiness --doc cr` has no CR text (its Spanish name
    "retraso" found the Spanish CR's delayed triggers, "retrasada") and says IPG 3.1 has it."""
    home = copy_home(spanish_library, tmp_path / "home")
    code, _ = run(home, "add", str(shared_data / "judge" / "IPG-20240923.html"))
    assert code == 0 and run(home, "index")[0] == 0
    result = CliRunner(env={"MTGRULES_HOME": str(home)}).invoke(
        cli, ["search", "--brief", "tardiness", "--doc", "cr"], catch_exceptions=False
    )
    assert (result.exit_code, result.stdout) == (1, ""), result.output
    assert result.stderr == (
        "error: no rules match 'tardiness'; no CR text matches it; IPG 3.1 does: search without"
        " --doc\n"
    )
    code, out = run(home, "search", "--brief", "--limit", "1", "retraso")
    assert (code, out.split(" — ")[0]) == (0, "IPG 3.1")


def test_spanish_cr_follows_english_2025_11_14_by_numbering(spanish_home: Path):
    """No date stated: the edition is inferred from the numbering, with its evidence; its
    encoding is its PDF's text, in JSON as in the terminal."""
    code, out = run(spanish_home, "sources", "--json", "--no-dropped")
    assert code == 0
    document = next(d for d in json.loads(out)["documents"] if d["source"] == PDF)
    assert document["edition"] is None
    assert document["encoding"] == "PDF text"
    assert document["follows"]["edition"] == "2025-11-14"
    assert document["follows"]["method"] == "numbering"
    assert document["follows"]["evidence"] == (
        "follows English 2025-11-14 by numbering: 3,238 of 3,239 numbers"
    )
    code, out = run(spanish_home, "sources", "--no-dropped")
    assert "follows English 2025-11-14 by numbering: 3,238 of 3,239 numbers; newest English " in out
    assert "\n  encoding: PDF text\n" in out


@pytest.fixture(scope="module")
def without_its_edition(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """The Spanish CR (numbered as English 2025-11-14) beside English 2026-06-19 and 2026-08-07
    only: 2026-06-19 put a new section 723 in, so sections 722 up are numbered one later."""
    from conftest import _library_with_spanish

    return _library_with_spanish(
        tmp_path_factory, shared_data, "without-its-edition", ["20260619", "20260807"]
    )


@pytest.mark.shared_data
def test_a_translation_numbered_as_an_edition_not_loaded_is_paired_by_section(
    without_its_edition: Path,
):
    """Following 2026-06-19 by numbering (3,176 of 3,239 numbers), the Spanish 724 (the monarch)
    stood beside English 724 ("Ending Turns and Phases") and the term base learned "iniciativa"
    for monarch: its sections 722-732 are told by their rules' places and lengths and keyed as
    723-733; `sources` says so and how to pair them exactly."""
    _, out = run(without_its_edition, "show", "725.1", "--json")
    texts = {r["lang"]: r["text"] for r in json.loads(out)["results"][0]["records"]}
    assert texts["en"].startswith("The monarch is a designation")
    assert texts["es"].startswith("El Monarca es una designación")
    _, out = run(without_its_edition, "term", "monarca", "--json")
    terms = json.loads(out)["concepts"][0]["terms"]
    spanish = [t["term"] for t in terms if t["lang"] == "es"]
    assert spanish[0] == "monarca" and "iniciativa" not in spanish
    _, out = run(without_its_edition, "sources", "--no-dropped")
    assert (
        "follows English 2026-06-19 by numbering: 3,176 of 3,239 numbers; sections 722–732 are"
        " numbered as an English edition not loaded (as 723–733 here, by their rules' places and"
        " lengths): add the edition it was translated from to pair and date them exactly" in out
    )


@pytest.mark.shared_data
def test_spanish_cr_keys_rules_by_number_and_joins_the_glossary(spanish_home: Path):
    """≥ 99% of rules keyed by their own number (as the English edition it follows numbers the
    same rule today: its 725.1 is 726.1), ≥ 90% of glossary entries on English ones."""
    run(spanish_home, "index")
    lines = (spanish_home / "records.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    mine = [r for r in records if r["source"] == PDF]
    english_glossary = {r["key"] for r in records if r["lang"] == "en" and r["kind"] == "glossary"}
    now = {
        r["number"]: r["key"]
        for r in records
        if r["lang"] == "en" and r["edition"] == "2025-11-14" and r["kind"] == "rule"
    }
    rules = [r for r in mine if r["kind"] == "rule"]
    own = [
        r
        for r in rules
        if r["key"] == now.get(r["number"], r["number"]) and r["align"]["method"] == "number"
    ]
    assert now["725.1"] == "726.1" and {r["key"] for r in rules if r["number"] == "725.1"} == {
        "726.1"
    }
    assert len(own) >= 0.99 * len(rules)
    glossary = [r for r in mine if r["kind"] == "glossary"]
    joined = [r for r in glossary if r["key"] in english_glossary]
    assert len(joined) >= 0.9 * len(glossary)
    by_title = {r["title"]: r for r in glossary}
    assert by_title["Viajar en el tiempo (Time Travel)"]["key"] == "Time Travel"
    assert by_title["Regla de leyendas"]["key"] == "Legend Rule"
    assert {r["follows"] for r in mine} == {"2025-11-14"}


@pytest.mark.shared_data
def test_spanish_rule_beside_the_english_it_follows(spanish_home: Path):
    """show 704.5j: the Spanish rule and English 2025-11-14, though 2026-08-07 is loaded."""
    code, out = run(spanish_home, "show", "704.5j", "--json")
    assert code == 0
    (result,) = json.loads(out)["results"]
    assert result["english"]["edition"] == "2025-11-14"
    spanish = next(r for r in result["records"] if r["lang"] == "es")
    assert (spanish["number"], spanish["follows"], spanish["edition"]) == (
        "704.5j",
        "2025-11-14",
        None,
    )
    code, out = run(spanish_home, "show", "704.5j")
    assert "es  704.5j · rule · undated, follows English 2025-11-14 · magic_rules_clean.pdf" in out


@pytest.mark.shared_data
def test_check_and_stale_on_the_spanish_cr(spanish_home: Path):
    """check names English rules the translation lacks, duplicates and translator notes (exit
    1); stale lists Spanish rules whose English changed after 2025-11-14."""
    code, out = run(spanish_home, "check", "--lang", "es", "--json")
    assert code == 1
    problems = {(p["number"], p["check"]) for p in json.loads(out)["problems"]}
    assert ("405.6d", "missing") in problems
    assert ("111.10b", "duplicate") in problems  # 111.10f printed 111.10b: not missing
    assert ("111.10f", "missing") not in problems
    # Nor is the rule after it "without 111.10f before it": the misprint read as its place's.
    assert ("111.10g", "gap") not in problems and ("608.3g", "gap") not in problems
    assert ("716.2c", "gap") in problems  # 716.2b is missing: a gap indeed
    assert ("716.38b", "extra") in problems
    assert sum(check == "missing" for _, check in problems) == 3
    assert sum(check == "translator-note" for _, check in problems) == 8
    # A note in a glossary entry stands at its headword, said so (not where a number goes).
    assert ('glossary "You, Your"', "translator-note") in problems
    code, out = run(spanish_home, "stale", "--lang", "es", "--json")
    assert code == 0
    stale = json.loads(out)["stale"]
    assert stale and {(s["english_from"], s["english_to"]) for s in stale} == {
        ("2025-11-14", "2026-08-07")
    }


@pytest.mark.shared_data
def test_tmx_carries_the_whole_spanish_cr(spanish_home: Path):
    """Rules, examples and glossary entries as aligned units, English beside Spanish."""
    code, out = run(spanish_home, "export", "--format", "tmx", "--lang", "en,es")
    assert code == 0
    root = ET.fromstring(out.encode("utf-8"))
    units = {tu.get("tuid"): tu for tu in root.iter("tu")}
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    for tuid in ("704.5j", "Legend Rule", "101.2 example 1"):
        assert [tuv.get(lang) for tuv in units[tuid].iter("tuv")] == ["en", "es"], tuid
    kinds = Counter(
        next(p.text for p in tu.iter("prop") if p.get("type") == "x-kind") for tu in units.values()
    )
    assert kinds["rule"] > 3200 and kinds["glossary"] > 700 and kinds["example"] > 250


@pytest.mark.shared_data
def test_check_ranks_findings_and_pairs_list_items(spanish_home: Path):
    """Counts per kind first, most severe first; a list with as many items as English, all
    translated, is no finding; "regla 100,7" cites 100.7."""
    code, out = run(spanish_home, "check", "--lang", "es")
    assert code == 1
    first, *lines = out.splitlines()
    assert first.startswith(tuple(f"{n} problems: 3 missing, 1 extra," for n in range(40, 90)))
    assert lines[0].startswith("error   magic_rules_clean.pdf 405.6d: missing:")
    assert not any(" 207.2c: list" in line or " 205.3g: list" in line for line in lines)
    assert not any(" 612.5: references" in line or " 603.7c: references" in line for line in lines)
    _, out = run(spanish_home, "check", "--lang", "es", "--json")
    payload = json.loads(out)
    kinds = [p["kind"] for p in payload["problems"]]
    assert kinds.index("missing") < kinds.index("duplicate") < kinds.index("translator-note")
    severities = {p["kind"]: p["severity"] for p in payload["problems"]}
    assert severities["missing"] == "error" and severities["translator-note"] == "info"
    assert payload["counts"]["missing"] == 3


@pytest.mark.shared_data
def test_check_compares_symbols_and_reads_a_misprint_as_what_it_was_read_as(spanish_home: Path):
    """The Spanish Clue (printed 111.10b, read as 111.10f) costs "{2},{T}" where the English
    Clue costs "{2}": a symbols finding, which says which 111.10b it is; the Spanish
    Powerstone, printed 111.10c, is compared with the English Powerstone (111.10h), not with
    the Gold token that 111.10c is, so neither its symbols nor its citations are findings.
    105.5's ten color pairs are ten items; a rule missing after one twice as long as its
    English says where its text may be."""
    _, out = run(spanish_home, "check", "--lang", "es", "--json")
    found = {(p["number"], p["kind"]): p["message"] for p in json.loads(out)["problems"]}
    assert found["111.10b", "symbols"] == (
        "prints {T}, which English does not (this 111.10b is line 773, read as 111.10f)"
    )
    assert ("111.10c", "symbols") not in found and ("111.10c", "references") not in found
    assert ("105.5", "list") not in found
    # The PDF prints 405.6d and 405.6e without numbers: their text ends 405.6c.
    assert found["405.6d", "missing"] == (
        "English 2025-11-14 has 405.6d; this translation does not (its text may be in 405.6c,"
        " 2.7 times as long here as in English)"
    )
    assert found["716.2b", "missing"].endswith("this translation does not")


@pytest.mark.shared_data
def test_stale_says_where_each_rule_went(spanish_home: Path):
    """Plain text names a moved rule's new number, and the diff of one whose English changed
    only in the rule numbers it cites (moved or not: said so); a number printed twice is listed
    once."""
    code, out = run(spanish_home, "stale", "--lang", "es")
    assert code == 0
    assert "es 310.8 → 310.9 (moved; English text unchanged; English 2025-11-14 → 2026-08-07" in out
    # 723.1a cites 723.1f, which moved with it: its English changed in that number alone.
    lines = out.splitlines()
    cited = lines.index(
        "es 723.1a → 724.1a (moved; only the rule numbers it cites changed; English 2025-11-14 →"
        " 2026-08-07; undated, magic_rules_clean.pdf)"
    )
    assert "(see rule [-723.1f).-] {+724.1f).+}" in lines[cited + 1]
    # Changed in place, in a cited number alone: a number to update, said so.
    assert next(x for x in lines if x.startswith("es 104.6 ")) == (
        "es 104.6 (changed; only the rule numbers it cites; English 2025-11-14 → 2026-08-07;"
        " undated, magic_rules_clean.pdf)"
    )
    assert sum(line.startswith("es 207.2c ") for line in out.splitlines()) == 1
    _, out = run(spanish_home, "stale", "--lang", "es", "--json")
    stale = json.loads(out)["stale"]
    moved = [s for s in stale if s["status"].startswith("moved")]
    assert moved and all(s["english_number"] for s in moved)
    assert len({s["key"] for s in stale}) == len(stale)


@pytest.mark.shared_data
def test_exports_keep_both_copies_of_a_duplicated_number(spanish_home: Path):
    """TMX: the Spanish 111.10b printed for 111.10f is 111.10f's unit, its printed number and
    the misprint beside it; a number printed twice where neither copy can be read otherwise
    keeps both copies, marked as duplicates; CSV edition columns filled and the followed edition
    beside them."""
    _, out = run(spanish_home, "export", "--format", "tmx", "--lang", "en,es")
    root = ET.fromstring(out.encode("utf-8"))

    def props(tu: ET.Element, kind: str) -> list[str | None]:
        return [p.text for p in tu.iter("prop") if p.get("type") == kind]

    units = {tu.get("tuid"): tu for tu in root.iter("tu")}
    assert props(units["111.10f"], "x-number") == ["111.10f", "111.10b"]
    assert props(units["111.10f"], "x-misprint") == [
        "111.10b is printed twice; this one read as 111.10f"
    ]
    assert props(units["111.10b"], "x-number") == ["111.10b", "111.10b"]
    assert "111.10b rule 2" not in units and props(units["111.10b"], "x-duplicate") == []
    _, out = run(spanish_home, "export", "--lang", "es")
    assert len(root.findall("body/tu")) == len(out.splitlines())
    _, out = run(spanish_home, "export", "--format", "csv", "--lang", "en,es")
    row = next(r for r in csv.DictReader(io.StringIO(out)) if r["key"] == "704.5j")
    assert (row["en_edition"], row["es_edition"], row["es_follows"]) == (
        "2025-11-14",
        "undated",
        "2025-11-14",
    )


@pytest.mark.shared_data
def test_the_po_export_puts_a_misprinted_rule_under_the_number_it_is_read_as(
    spanish_home: Path, tmp_path: Path
):
    """The Spanish CR's second 207.2c (flavor words) is 207.2d's translation in the PO export,
    not a second 207.2c entry (msgfmt refused the duplicate), and its comment says so."""
    import polib

    _, out = run(spanish_home, "export", "--format", "po", "--lang", "es")
    entries = [e for e in polib.pofile(out) if e.msgctxt in ("207.2c", "207.2d")]
    assert [e.msgctxt for e in entries] == ["207.2c", "207.2d"]
    assert entries[1].msgstr.startswith("207.2d Al igual que las palabras de habilidad")
    assert "207.2c is printed twice, this one read as 207.2d" in entries[1].comment
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt (Debian's gettext) is not installed; scripts/test installs it")
    path = tmp_path / "es.po"
    path.write_text(out, "utf-8")
    checked = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.shared_data
def test_sources_diff_and_history_for_a_translator(spanish_home: Path, shared_data: Path):
    """sources shows the SHA-256 and encoding; diff --lang es finds the Spanish CR under the
    edition it follows, its one edition, and says there is nothing to compare; history covers
    a rule's subrules."""
    _, out = run(spanish_home, "sources")
    assert "  encoding: PDF text" in out
    assert (
        "  sha256: " + hashlib.sha256((shared_data / "cr/es" / PDF).read_bytes()).hexdigest() in out
    )
    one = CliRunner(env={"MTGRULES_HOME": str(spanish_home)}).invoke(
        cli, ["diff", "--lang", "es", "--from", "2025-11-14", "--to", "latest"]
    )
    assert one.exit_code == 2
    assert (
        "Spanish has one edition here (2025-11-14): --from 2025-11-14 and --to latest both read "
        "as it, so there is nothing to compare; what English changed since: `mtgrules stale --lang "
        "es`" in one.stderr
    )
    _, out = run(spanish_home, "history", "702.19", "--json")
    payload = json.loads(out)
    assert payload["oldest_loaded"] == "2025-11-14"
    assert {"702.19a", "702.19b", "702.19c"} <= set(payload["subrules"])
    _, out = run(spanish_home, "history", "702.19")
    assert out.startswith("702.19: 0 changes; its ")
    assert "in every loaded edition since 2025-11-14" in out.splitlines()[0]


@pytest.mark.shared_data
def test_a_number_printed_twice_is_read_as_the_number_its_place_calls_for(spanish_home: Path):
    """The Spanish CR prints 123.6e as a second 123.6d, and 702.11d as 702.16i: each stands
    beside its English rule, says it is a misprint, and `check` says how it was read."""
    _, out = run(spanish_home, "show", "123.6e", "--json")
    result = json.loads(out)["results"][0]
    spanish = [r for r in result["records"] if r["lang"] == "es"]
    assert [(r["number"], r["flags"]) for r in spanish] == [("123.6d", ["misnumbered"])]
    assert "vocales únicas" in spanish[0]["text"]
    assert result["renumbered"] == (
        "es prints 123.6d, a number it gives two rules: a misprint, read as 123.6e"
    )
    _, out = run(spanish_home, "show", "123.6d", "--json")
    spanish = [r for r in json.loads(out)["results"][0]["records"] if r["lang"] == "es"]
    assert len(spanish) == 1 and "letras específicas" in spanish[0]["text"]
    _, out = run(spanish_home, "show", "702.11d", "--json")
    spanish = [r for r in json.loads(out)["results"][0]["records"] if r["lang"] == "es"]
    assert [r["number"] for r in spanish] == ["702.16i"]
    assert spanish[0]["text"].startswith("“Antimaleficio contra [cualidad]”")
    _, out = run(spanish_home, "check", "--lang", "es")
    assert (
        "123.6d is numbered 2 times (lines 1823, 1825); all kept, line 1825 read as 123.6e" in out
    )


@pytest.mark.shared_data
def test_show_takes_a_title_in_any_language(spanish_home: Path):
    """show arrollar (the Spanish title), trample (any case) and piétinement (through the term
    base: no French 702.19 here) are 702.19 with its subrules, then the glossary's Trample."""
    for title in ("arrollar", "trample", "Arrollar", "piétinement"):
        code, out = run(spanish_home, "show", title, "--json")
        assert code == 0, title
        keys = [r["key"] for r in json.loads(out)["results"]]
        assert keys[:2] == ["702.19", "702.19a"] and keys[-1] == "Trample", title


@pytest.mark.shared_data
def test_show_a_chapter_lists_its_sections(spanish_home: Path):
    """show 7: Additional Rules, then each of its sections' titles, in order; on the terminal
    one line each, with its Spanish title."""
    code, out = run(spanish_home, "show", "7", "--lang", "en", "--json")
    assert code == 0
    results = json.loads(out)["results"]
    assert [r["key"] for r in results[:3]] == ["7", "700", "701"]
    assert [r["records"][0]["text"] for r in results[:3]] == [
        "Additional Rules",
        "General",
        "Keyword Actions",
    ]
    assert len(results) == 35  # 700-733 of 2026-08-07
    # On the terminal, one line each, the Spanish title beside the English (it printed every
    # section as a record of five lines).
    code, out = run(spanish_home, "show", "7")
    assert code == 0
    assert out.splitlines()[:3] == [
        "7 — Additional Rules · es Reglas adicionales",
        "  700 — General · es General",
        "  701 — Keyword Actions · es Acciones de palabra clave",
    ]
    assert len(out.splitlines()) == 35 + 2  # and "show a section: mtgrules show 700"
    assert out.endswith("\nshow a section: mtgrules show 700\n")
