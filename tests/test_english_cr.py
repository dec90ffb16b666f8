"""The official English CR editions in ../shared/data: exact counts, encodings, English keys,
mechanics linked to their rules, fetch-cr against a local server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import local_server

from corpus.model.text import decode_report, split_lines
from corpus.read.ingest import ingest_bytes
from search.cli import cli

pytestmark = pytest.mark.shared_data


def edition(shared_data: Path, date: str):
    name = f"MagicCompRules-{date}.txt"
    return ingest_bytes((shared_data / "cr" / "en" / name).read_bytes(), name)


def numbered(document) -> int:
    """Rules and section headings: numbers NNN. or NNN.N… (chapters 1-9 are counted apart)."""
    return sum(1 for r in document.records if r.kind == "rule" and len(r.number or "") > 1)


@pytest.mark.parametrize(
    ("date", "rules", "examples", "glossary", "encoding"),
    [
        ("20150123", 2152, 223, 500, "Windows-1252, LF"),
        ("20221118", 2932, 271, 647, "UTF-16BE, bare CR"),
        ("20241108", 3151, 272, 698, "UTF-8 with BOM, LF"),
        ("20250725", 3225, 276, 715, "UTF-8 with BOM, bare CR"),
    ],
)
def test_edition_counts(shared_data: Path, date, rules, examples, glossary, encoding):
    """Counts equal the file's own in every published encoding (3,151 counts 901.4.All)."""
    doc = edition(shared_data, date)
    assert (doc.lang, doc.layout, doc.edition) == (
        "en",
        "comprehensive-rules",
        f"{date[:4]}-{date[4:6]}-{date[6:]}",
    )
    assert (numbered(doc), doc.counts()["example"], doc.counts()["glossary"]) == (
        rules,
        examples,
        glossary,
    ), encoding
    assert [r.title for r in doc.records if r.number == "1"] == ["Game Concepts"]


def test_quirks_and_glossary(shared_data: Path):
    """901.4.All (no space) is rule 901.4; a glossary entry is a term and its definition."""
    doc = edition(shared_data, "20241108")
    rule = next(r for r in doc.records if r.number == "901.4")
    assert rule.text.startswith("All plane and phenomenon cards remain in the command zone")
    ability = next(r for r in doc.records if r.kind == "glossary" and r.key == "Ability")
    assert ability.text.startswith("1. Text on an object that explains what that object does")
    assert ability.lines[1] - ability.lines[0] == 3


def test_duplicate_number_is_kept_and_warned(shared_data: Path):
    """2024-09-20 numbers both Offspring and Impending 702.175: both kept, one warning."""
    doc = edition(shared_data, "20240920")
    twins = [r.text for r in doc.records if r.number == "702.175"]
    assert twins == ["Offspring", "Impending"]
    assert any(w.startswith("rule 702.175 is numbered 2 times") for w in doc.warnings)


def test_nothing_lost_in_an_edition(shared_data: Path):
    """Every non-blank line of an edition is in one record or dropped with a reason."""
    name = "MagicCompRules-20220218.txt"
    data = (shared_data / "cr" / "en" / name).read_bytes()
    doc = ingest_bytes(data, name)
    lines = split_lines(decode_report(data, name)[0])
    wanted = {i for i, line in enumerate(lines, start=1) if line.strip()}
    covered = [i for r in doc.records for i in range(r.lines[0], r.lines[1] + 1)]
    covered += [d.line for d in doc.dropped]
    assert sorted(covered) == sorted(wanted)


def run_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=[*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_adding_an_edition_again_is_a_no_op(full: Path, shared_data: Path):
    """The same bytes twice: nothing to do."""
    path = shared_data / "cr" / "en" / "MagicCompRules-20241108.txt"
    result = CliRunner().invoke(cli, catch_exceptions=False, args=["add", str(path)])
    assert result.stdout == "MagicCompRules-20241108.txt: already in the library, nothing to do\n"


def test_show_puts_the_english_rule_in_effect_beside_the_italian(full: Path):
    """Italian 2024-11-23 corresponds to English 2024-11-08: english.text is that rule."""
    (result,) = run_json("show", "205.4d")["results"]
    assert result["english"]["edition"] == "2024-11-08"
    assert result["english"]["text"].startswith("Any permanent with the supertype “legendary”")
    langs = [r["lang"] for r in result["records"]]
    assert langs[:2] == ["en", "it"] and "fr" in langs


def test_show_of_a_headword_is_the_same_in_any_case(full: Path):
    """`show Trample` (the glossary's headword as printed) is `show trample`: the rule 702.19
    with its subrules, then the glossary entry (it was the entry alone)."""
    keys = [[r["key"] for r in run_json("show", w)["results"]] for w in ("Trample", "trample")]
    assert keys[0] == keys[1]
    assert keys[0][0] == "702.19" and keys[0][-1] == "Trample"


def test_show_of_a_designation_is_its_rule_headed_with_the_article(full: Path):
    """`show Monarch` and `show Initiative` (glossary headwords) are the rules headed "The
    Monarch" (725 in 2026) and "The Initiative", with their subrules, then the entry: they were
    the entry alone."""
    for word, section in (("Monarch", "725"), ("Initiative", "726")):
        keys = [r["key"] for r in run_json("show", word)["results"]]
        assert keys[0] == section and keys[1] == f"{section}.1" and keys[-1] == word


def test_a_brief_list_is_in_the_querys_language(full: Path):
    """`search --brief "regola delle leggende"`: 205.4d's line is the Italian text (it was the
    English, first among its records), 704.5j's the English (no Italian 704.5j); `--show en`
    says which."""
    lines = run_lines("search", "--brief", "regola delle leggende")
    assert any(line.startswith("205.4d — it Ogni permanente") for line in lines)
    assert any(line.startswith("704.5j — If two or more legendary") for line in lines)
    shown = run_lines("search", "--brief", "--show", "en", "regola delle leggende")
    assert any(line.startswith("205.4d — Any permanent") for line in shown)


def test_a_brief_list_of_an_edition_says_the_number_its_text_printed(full: Path):
    """`--edition 2015-01-23 --brief "legend rule"`: the legend rule was 704.5k then (704.5j
    was the planeswalker uniqueness rule); its line says so beside today's key."""
    lines = run_lines("search", "--brief", "--edition", "2015-01-23", "legend rule")
    assert any(line.startswith("704.5j (printed 704.5k) — If a player controls") for line in lines)
    today = run_lines("search", "--brief", "legend rule")
    assert any(line.startswith("704.5j — If two or more legendary") for line in today)


def test_an_editions_span_names_the_editions_inside_it_that_print_otherwise(full: Path):
    """704.5f's text is in 28 of the 29 editions from 2015-01-23 to 2026-08-07: 2019-01-25
    printed it with straight apostrophes, another text. `show` and the rule page say which."""
    from starlette.testclient import TestClient

    from search.render import edition_span
    from search.web.app import create_app

    span = "2015-01-23 → 2026-08-07 (28 editions; not 2019-01-25)"
    assert f"  en  704.5f · rule · {span} · MagicCompRules-20260807.txt" in run_lines(
        "show", "704.5f"
    )
    with TestClient(create_app(full)) as client:
        assert span in client.get("/rule/704.5f").text
    many = ["2015-01-23", "2016-01-01", "2017-01-01", "2018-01-01", "2019-01-01", "2020-01-01"]
    assert edition_span(many[::5], many) == "2015-01-23 → 2020-01-01 (2 editions)"
    assert edition_span(many[:2], many) == "2015-01-23 → 2016-01-01 (2 editions)"


def test_a_heading_found_by_words_comes_with_its_rules_examples_and_subrules(full: Path):
    """`search trample`: 702.19 with its English examples (of 702.19b and c: they were left
    out, the Spanish ones shown) as `show 702.19` has them; `search "mana abilities"`: 605 with
    605.1a and 605.1b between 605.1 and 605.2 (a section of few rules comes with their
    subrules)."""
    shown = run_json("show", "702.19")["results"]
    shown_examples = [r for res in shown for r in res["records"] if r["kind"] == "example"]
    found = run_json("search", "trample", "--limit", "1")["results"][0]["records"]
    examples = [r for r in found if r["kind"] == "example" and r["lang"] == "en"]
    assert examples and len(examples) == len([r for r in shown_examples if r["lang"] == "en"])
    records = run_json("search", "mana abilities", "--limit", "1")["results"][0]["records"]
    numbers = [r["number"] for r in records if r["lang"] == "en" and r["kind"] == "rule"]
    assert numbers[:5] == ["605", "605.1", "605.1a", "605.1b", "605.2"], numbers[:8]


def test_a_rule_of_a_line_comes_with_the_subrules_that_explain_it(full: Path):
    """ "103.8. The starting player takes their first turn." says nothing of who draws: found,
    it comes with 103.8a, b and c in order."""
    found = run_json("search", "the starting player takes their first turn", "--limit", "3")
    (result,) = [r for r in found["results"] if r["key"] == "103.8"]
    numbers = [r["number"] for r in result["records"] if r["lang"] == "en" and r["kind"] == "rule"]
    assert numbers == ["103.8", "103.8a", "103.8b", "103.8c"], numbers


def test_a_question_about_creatures_finds_the_rule_about_permanents(full: Path):
    """ "two legendary creatures with the same name": the legend rule says "legendary
    permanents" (704.5j); a creature is also searched as the permanent it is, in any language."""
    for question in (
        "two legendary creatures with the same name",
        "due creature leggendarie con lo stesso nome",
    ):
        keys = [r["key"] for r in run_json("search", question)["results"]]
        assert "704.5j" in keys[:3], (question, keys[:5])


def test_a_search_shows_a_sections_first_rules_and_says_how_to_show_the_rest(full: Path):
    """`search "Handling Triggered Abilities"`: 603 takes in its rules, a wall for one result;
    a search prints twelve records per language, then how many more and `mtgrules show 603`,
    which prints them all. `--json` keeps every record."""
    records = run_json("search", "--limit", "1", "Handling Triggered Abilities")["results"][0]
    english = [r for r in records["records"] if r["lang"] == "en"]
    lines = run_lines("search", "--limit", "1", "Handling Triggered Abilities")
    assert lines[0].startswith("603 — Handling Triggered Abilities")
    assert f"  en  ({len(english) - 12} more under 603: mtgrules show 603)" in lines
    assert not any("more under" in line for line in run_lines("show", "603"))


def run_lines(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=list(args))
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_a_language_shown_that_a_result_lacks_is_said(full: Path):
    """`search trample --show it`: the Italian seed has no 702.19, said under its heading
    (the heading stood alone, as if its text were lost)."""
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "trample", "--show", "it", "--limit", "1"]
    )
    assert result.stdout.splitlines()[:2] == [
        result.stdout.splitlines()[0],
        "  (no Italian text for 702.19)",
    ]
    assert result.stdout.startswith("702.19 — Trample")


def test_a_terms_rules_begin_with_its_own_section_and_end_with_gone_ones(full: Path):
    """`term "state-based action"`: its own section 704 and glossary entry first (the section is
    titled in the plural), then its rules in order (`term trample`: 702.19a…g, which came
    scrambled); rules gone from the newest edition after every current one."""
    rules = run_json("term", "state-based action")["concepts"][0]["rules"]
    assert rules[:2] == ["704", "State-Based Actions"]
    # Its section's rules in their order, before the rules that mention it elsewhere.
    rules = run_json("term", "trample")["concepts"][0]["rules"]
    assert rules[:9] == ["702.19", "Trample", *(f"702.19{letter}" for letter in "abcdefg")]
    rules = run_json("term", "legendary")["concepts"][0]["rules"]
    gone = [i for i, key in enumerate(rules) if key.startswith("gone:")]
    assert all(i > j for i in gone for j, key in enumerate(rules) if not key.startswith("gone:"))


def test_station_brings_the_article_and_rule_702_184(full: Path):
    """`search Station`: the Italian article and rulings with English 702.184."""
    first = run_json("search", "Station")["results"][0]
    assert first["key"] == "Station" and first["english"]["rule"] == "702.184"
    numbers = {r["number"] for r in first["records"] if r["lang"] == "en"}
    kinds = {r["kind"] for r in first["records"] if r["lang"] == "it"}
    assert {"702.184", "702.184a"} <= numbers and {"reminder", "article", "ruling"} <= kinds


def test_a_glossary_entry_that_is_another_name_leads_to_that_entrys_rule(full: Path):
    """The entry "APNAP Order: See Active Player, Nonactive Player Order." names no rule itself:
    the entry it sends to cites 101.4, which comes first (it came below rules naming APNAP)."""
    result = CliRunner().invoke(cli, ["search", "what's the APNAP order", "--json"])
    assert [r["key"] for r in json.loads(result.stdout)["results"]][:1] == ["101.4"]


def test_a_glossary_entry_of_two_senses_leads_to_the_one_typed(full: Path):
    """The entry Counter cites 701.6, "Counter" (the keyword action), and 122, "Counters" (the
    markers): `counters` asks for 122, which comes first; `counter` for 701.6."""
    keys = [r["key"] for r in run_json("search", "counters")["results"]]
    assert keys[:2] == ["122", "Counter"] and "701.6" not in keys[:3]
    assert [r["key"] for r in run_json("search", "counter")["results"]][:2] == ["701.6", "Counter"]


@pytest.mark.parametrize(
    ("query", "section"),
    [
        ("protection from red", "702.16"),
        ("protezione dal rosso", "702.16"),
        ("hexproof from black", "702.11"),
        ("affinity for artifacts", "702.41"),
    ],
)
def test_a_keyword_named_with_its_quality_comes_first(full: Path, query: str, section: str):
    """A keyword ability with its quality as cards print it asks for the keyword: 702.16
    Protection first, not 613.10 and Splice's 702.47c, whose examples print "protection from
    red"; a keyword action's objects are no quality ("cast from exile" is not 701.5, Cast)."""
    assert run_json("search", query)["results"][0]["key"] == section
    assert run_json("search", "cast from exile")["results"][0]["key"] != "701.5"


def test_todays_edition_asked_for_ranks_as_no_edition(full: Path):
    """`--edition latest` and the newest edition's date are today's rules: a search answers as
    without --edition (the Italian seed's legend rule among them), not among that edition's
    English texts alone; an older edition's sentence still finds rules with some of its words."""

    def keys(*args: str) -> list[str]:
        return [r["key"] for r in run_json("search", *args)["results"]]

    for query in ("player draws from an empty library", "regola delle leggende"):
        today = keys(query)
        assert keys(query, "--edition", "latest") == today
        assert keys(query, "--edition", "2026-08-07") == today
    assert "704.5j" in keys("regola delle leggende", "--edition", "latest")[:3]
    older = keys("player draws from an empty library", "--edition", "2025-11-14")
    assert older[0] == "121.5" and len(older) == 5  # the default --limit


def test_a_function_word_of_several_languages_votes_for_none(full: Path):
    """ "que" is Spanish, Portuguese and French: found in another language's texts too, it is
    still no vote for that language; nor is an accented word found in English folded
    ("défense" as "defense"). So "que signifie la défense talismanique" is French (by
    "signifie"), and "défense" is not searched as typed in the English text."""
    from search.parse import parse
    from search.session import open_engine

    with open_engine() as engine:
        assert parse("que signifie la défense talismanique", engine).languages == ("fr",)
        assert parse("qué significa escrutar", engine).languages == ("es",)
        assert parse("what happens if a creature can’t block", engine).languages == ("en",)


def test_french_old_edition_aligns_against_english(full: Path):
    """With English loaded the 2006 French legend rule still lands on modern 205.4d."""
    (result,) = run_json("show", "205.4d")["results"]
    french = [r for r in result["records"] if r["lang"] == "fr"]
    assert [(r["number"], r["align"]["method"]) for r in french] == [("205.4c", "content")]


class _Wizards(BaseHTTPRequestHandler):
    """Serves one edition at its published path and a rules page linking it."""

    data = b""

    def do_GET(self) -> None:
        if self.path == "/2024/downloads/MagicCompRules%2020241108.txt":
            body, kind = self.data, "text/plain"
        elif self.path == "/en/rules":
            link = "/2024/downloads/MagicCompRules%2020241108.txt"
            body, kind = f'<a href="{link}">TXT</a>'.encode(), "text/html"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def wizards(shared_data: Path) -> Iterator[str]:
    _Wizards.data = (shared_data / "cr" / "en" / "MagicCompRules-20241108.txt").read_bytes()
    with local_server(_Wizards) as url:
        yield url


def test_fetch_cr_by_date_and_latest(wizards: str, home: Path):
    """fetch-cr downloads from the published path (a date in either form, or via the rules
    page for latest) and adds it."""
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["fetch-cr", "2024-11-08", "--media-url", wizards]
    )
    assert result.exit_code == 0, result.output
    assert "added as MagicCompRules-20241108.txt (lang=en, edition=2024-11-08" in result.stdout
    again = CliRunner().invoke(
        cli,
        catch_exceptions=False,
        args=["fetch-cr", "latest", "--rules-page", f"{wizards}/en/rules"],
    )
    assert "already in the library" in again.stdout


def test_fetch_cr_offline_says_so(home: Path):
    """No server: one line naming the host, exit 1."""
    result = CliRunner().invoke(
        cli,
        catch_exceptions=False,
        args=["fetch-cr", "20241108", "--media-url", "http://127.0.0.1:9"],
    )
    assert result.exit_code == 1
    assert "cannot reach 127.0.0.1:9" in result.stderr


def test_a_results_words_are_those_of_the_text_it_shows(full: Path):
    """`show 202.3` shows today's text: its heading's words are today's ("mana value"), not the
    older editions' ("converted mana cost"), which `--edition 2020-11-20` shows with its own."""
    today = CliRunner().invoke(cli, ["show", "202.3"], catch_exceptions=False)
    assert today.stdout.startswith("202.3 [") and "mana value" in today.stdout.splitlines()[0]
    assert "converted mana cost" not in today.stdout.splitlines()[0]
    then = CliRunner().invoke(cli, ["show", "202.3", "--edition", "2020-11-20"])
    assert "converted mana cost" in then.stdout.splitlines()[0]


def test_a_renamed_heading_is_the_same_section(shared_data: Path):
    """2024-06-07 renamed "308. Tribals" "308. Kindreds" (308.1 and 308.2 changed with it): one
    section changed, not one removed and one added, so the chain of identity keeps it (and a
    translation of 308 is not "removed from English")."""
    from corpus.align.editions import compare

    old = edition(shared_data, "20240412").records
    new = edition(shared_data, "20240607").records
    found = compare(old, new)
    changes = {(c.status, c.old and c.old.number, c.new and c.new.number) for c in found}
    assert ("changed", "308", "308") in changes
    assert not {("removed", "308", None), ("added", None, "308")} & changes


def test_a_rule_that_introduces_a_list_comes_with_it(full: Path):
    """704.5 "The state-based actions are as follows:" is no answer alone: a search that finds
    it shows 704.5a onwards in it, and so does the 704 heading's answer; an item ranked below
    keeps its own place (each answers on its own)."""
    payload = run_json("search", "the state-based actions are as follows", "--limit", "3")
    first = payload["results"][0]
    assert first["key"] == "704.5"
    numbers = [r["number"] for r in first["records"]]
    assert numbers[:3] == ["704.5", "704.5a", "704.5b"] and "704.5j" in numbers
    payload = run_json("search", "when are state-based actions checked")
    section = next(r for r in payload["results"] if r["key"] == "704")
    assert "704.5f" in [r["number"] for r in section["records"]]
    payload = run_json("search", "the layers are applied in the following order")
    layers = next(r for r in payload["results"] if r["key"] == "613.1")
    assert "613.1g" in [r["number"] for r in layers["records"]]


def test_an_english_term_the_rules_no_longer_use_names_what_replaced_it(full: Path):
    """`term "casting cost"` (the glossary's "Casting Cost (Obsolete)", translated nowhere) is
    said obsolete, with mana cost and its terms after it (it was "not in the term base"); the
    French "coût converti de mana" is converted mana cost, no longer in use, now mana value."""
    result = CliRunner().invoke(cli, ["term", "casting cost"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "casting cost (obsolete in English: now mana cost)"
    assert "mana cost" in lines and "  fr  coût de mana  — " in result.stdout
    result = CliRunner().invoke(cli, ["term", "coût converti de mana"], catch_exceptions=False)
    assert result.stdout.startswith(
        "converted mana cost (obsolete in English: now mana value)\n"
        "  fr  coût converti de mana (no longer in use)  — curated: "
    )


def test_a_term_named_by_some_words_ranks_the_rules_with_every_word(full: Path):
    """ "interaction of replacement effects": the term "replacement effect" its words name ranks
    the rules that have every word; it no longer admits those with the phrase alone, which put
    614.15 first and 616 "Interaction of Replacement and/or Prevention Effects" out of the top 3."""
    payload = run_json("search", "interaction of replacement effects", "--lang", "en")
    first = [r["key"] for r in payload["results"][:2]]
    assert "616" in first and "614.15" not in first
