"""Translators' commands on the real English editions: diff across renumbering, history,
staleness, QA checks, TMX/TBX/CSV exports, and each translation's lag."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from search.cli import cli

pytestmark = pytest.mark.shared_data
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=list(args))
    return result.exit_code, result.stdout, result.stderr


def changes(old: str, new: str, *rule: str) -> list[dict]:
    code, out, err = run("diff", "--from", old, "--to", new, *rule, "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert (payload["from"], payload["to"], payload["lang"]) == (old, new, "en")
    return payload["changes"]


def test_diff_follows_renumbered_rules(full: Path):
    """2024-11-08 removed 509.2 and renumbered 509.4/509.5 to 509.2/509.3."""
    found = {(c["status"], c["from"], c["to"]) for c in changes("2024-09-20", "2024-11-08", "509")}
    assert ("moved+changed", "509.4", "509.2") in found
    assert ("moved", "509.5", "509.3") in found
    assert ("removed", "509.2", None) in found
    moved = next(c for c in changes("2024-09-20", "2024-11-08", "509") if c["from"] == "509.4")
    assert moved["diff"].startswith("[-Fourth,-] {+Second,+} the active player gets priority.")


def test_diff_recognises_reference_only_changes(full: Path):
    """508.3f only follows the renumbered 509.5g -> 509.3g: changed, references only."""
    (change,) = [c for c in changes("2024-09-20", "2024-11-08", "508.3f")]
    assert change["status"] == "changed" and change["references_only"] is True
    assert "[-509.5g.-] {+509.3g.+}" in change["diff"]


def test_diff_moves_a_whole_section(full: Path):
    """2025-07-25 inserted Station Cards as 721: old 721 moved to 722 unchanged."""
    moved = [c for c in changes("2025-06-06", "2025-07-25", "721") if c["status"] == "moved"]
    assert ("721.1", "722.1") in {(c["from"], c["to"]) for c in moved}
    added = [c["to"] for c in changes("2025-06-06", "2025-07-25", "721") if c["status"] == "added"]
    assert "721.1" in added  # the new Station Cards rule took the number


def test_unchanged_rules_are_not_listed(full: Path):
    """The same edition against itself: no changes."""
    assert changes("2024-11-08", "2024-11-08") == []


def test_a_diff_backwards_says_so(full: Path):
    """--from newer than --to is a diff backwards: its first line says so, and `--json` has
    `backwards`."""
    code, out, _ = run("diff", "--from", "2026-08-07", "--to", "2025-11-14")
    assert code == 0
    assert out.splitlines()[0].endswith(" (backwards: from the newer edition to the older)")
    assert json.loads(run("diff", "--from", "2026-08-07", "--to", "2025-11-14", "--json")[1])[
        "backwards"
    ]
    assert not json.loads(run("diff", "--from", "2025-11-14", "--json")[1])["backwards"]


def test_unknown_edition_lists_the_loaded_ones(full: Path):
    """--from 1999-01-01, before every edition here, exits 1 (no text of that date, as `search
    --edition` says) naming the editions there are."""
    code, _, err = run("diff", "--from", "1999-01-01", "--to", "2024-11-08")
    assert code == 1 and "loaded editions: 2015-01-23" in err


@pytest.mark.parametrize(
    ("old", "new", "moved"),
    [
        ("2019-01-25", "2020-01-24", {"702.16i": "702.16j", "702.16j": "702.16k"}),
        ("2020-01-24", "2021-02-05", {"613.2": "613.3", "613.6e": "613.7f", "613.6f": "613.7g"}),
    ],
)
def test_a_rule_put_before_others_shifts_them(
    full: Path, old: str, new: str, moved: dict[str, str]
):
    """A rule inserted among its siblings moves them on; none is paired with the half-alike
    newcomer at its old place (protection from everything is 702.16j after 2020-01-24)."""
    code, out, _ = run("diff", "--from", old, "--to", new, "--json")
    assert code == 0
    paired = {c["from"]: c["to"] for c in json.loads(out)["changes"] if c["from"]}
    assert {number: paired.get(number) for number in moved} == moved


def test_history_of_the_legend_rule(full: Path):
    """704.5j was 704.5k until 2018-07-13."""
    code, out, _ = run("history", "704.5j", "--json")
    assert code == 0
    events = [(e["edition"], e["event"], e["previous"]) for e in json.loads(out)["history"]]
    assert events[0] == ("2015-01-23", "first seen", None)
    assert ("2018-07-13", "moved", "704.5k") in events


def test_stale_italian_rules(full: Path):
    """Italian 205.3g follows English 2024-11-08; English has since added Spacecraft."""
    code, out, _ = run("stale", "--lang", "it", "--json")
    assert code == 0
    payload = json.loads(out)
    by_key = {s["key"]: s for s in payload["stale"]}
    assert payload["lang"] == "it" and "205.3g" in by_key
    item = by_key["205.3g"]
    assert (item["english_from"], item["english_to"]) == ("2024-11-08", "2026-08-07")
    assert "{+Spacecraft," in item["diff"]
    assert "205.4d" not in by_key


def test_check_finds_translation_problems(full: Path):
    """The Italian 205.3i lists Room among land types; English 2024-11-08 does not."""
    code, out, _ = run("check", "--lang", "it", "--json")
    assert code == 1  # problems found, as linters report them
    problems = json.loads(out)["problems"]
    messages = {(p["number"], p["check"]): p["message"] for p in problems}
    assert "Room" in messages["205.3i", "names"]
    assert messages["205.3g", "references"] == "does not cite 717"


def test_diff_takes_a_rule_by_its_title_as_show_and_history_do(full: Path):
    """`diff Trample` and `diff "tocco letale"` are 702.19's and 702.2's diffs; a title that
    names nothing says a title would do."""
    assert changes("2020-01-24", "2026-08-07", "Trample") == changes(
        "2020-01-24", "2026-08-07", "702.19"
    )
    deathtouch = changes("2020-01-24", "2026-08-07", "tocco", "letale")
    assert deathtouch and deathtouch == changes("2020-01-24", "2026-08-07", "702.2")
    code, _, err = run("diff", "Nessuna Regola")
    assert code == 2 and "nor a rule's title" in err
    # A glossary entry's title is the rule it cites ("Legend Rule … See rule 704.5j"), as
    # `show "Legend Rule"` shows the entry: history and diff have no entry's history to give.
    assert run("history", "Legend Rule") == run("history", "704.5j")
    assert changes("2022-02-18", "2022-11-18", "Legend Rule") == changes(
        "2022-02-18", "2022-11-18", "704.5j"
    )


def test_a_diff_from_a_date_after_the_newest_edition_names_the_editions_it_compares(full: Path):
    """`diff --from 2030-01-01` (no --to) reads as the newest edition: the message says there
    is nothing newer to compare it with, not "--to None"."""
    code, _, err = run("diff", "--from", "2030-01-01")
    assert code == 2
    assert err.startswith(
        "error: --from 2030-01-01 reads as English 2026-08-07, the newest edition here: nothing"
        " newer to compare it with; give an older --from, or --to; its editions here:"
        " 2015-01-23, 2017-01-20,"
    )
    assert "None" not in err


def test_stale_and_check_of_a_language_with_no_translation_say_so(full: Path):
    """`--lang pt` with no Portuguese document: an error that says so (as the web's stale page
    does), not "0 pt rules are stale" nor "0 problems", which read as a translation up to date;
    `diff --lang pt` too."""
    expected = (
        "error: no Portuguese translation in the library; add one with `mtgrules add`"
        " (`mtgrules sources` lists the documents here)\n"
    )
    for command in ("stale", "check"):
        assert run(command, "--lang", "pt") == (1, "", expected)
        assert run(command, "--lang", "it,pt")[0] == 1
    # So does diff: "Portuguese has no edition here" pointed to `stale --lang pt`, and with
    # --from "loaded editions: none" beside 29 English editions.
    assert run("diff", "--lang", "pt") == (1, "", expected)
    assert run("diff", "--lang", "pt", "--from", "2025-11-14", "--to", "2026-08-07")[2] == expected


def test_tmx_export_is_valid_tmx(full: Path):
    """TMX 1.4: header attributes, one tu per key, tuv with xml:lang and one seg each."""
    code, out, _ = run("export", "--format", "tmx", "--lang", "en,it")
    assert code == 0
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "tmx" and root.get("version") == "1.4"
    header = root.find("header")
    assert header is not None
    for attribute in (
        "creationtool",
        "creationtoolversion",
        "segtype",
        "o-tmf",
        "adminlang",
        "srclang",
        "datatype",
    ):
        assert header.get(attribute), attribute
    units = root.findall("body/tu")
    assert len({tu.get("tuid") for tu in units}) == len(units) > 30
    for tu in units:
        for tuv in tu.findall("tuv"):
            assert tuv.get(XML_LANG) in {"en", "it"} and len(tuv.findall("seg")) == 1
    legend = next(tu for tu in units if tu.get("tuid") == "205.4d")
    texts = {tuv.get(XML_LANG): tuv.findtext("seg") for tuv in legend.findall("tuv")}
    assert texts["en"].startswith("Any permanent with the supertype “legendary”")
    editions = {
        tuv.get(XML_LANG): tuv.findtext("prop[@type='x-edition']") for tuv in legend.findall("tuv")
    }
    assert editions == {"en": "2024-11-08", "it": "2024-11-23"}


def test_a_tmx_of_translations_has_english_as_its_source(full: Path):
    """`export --format tmx --lang it,fr`: each unit has its English segment beside the
    translation, and the source language is English (two translations' common source)."""
    code, out, _ = run("export", "--format", "tmx", "--lang", "it,fr")
    assert code == 0
    root = ET.fromstring(out.encode("utf-8"))
    assert root.find("header").get("srclang") == "en"  # type: ignore[union-attr]
    legend = next(tu for tu in root.findall("body/tu") if tu.get("tuid") == "205.4d it")
    assert [tuv.get(XML_LANG) for tuv in legend.findall("tuv")] == ["en", "it"]


def test_tbx_export_has_concepts_and_languages(full: Path):
    """TBX: a termEntry per concept with langSets; kindred = affine from the aligned lists."""
    _, out, _ = run("export", "--format", "tbx")
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "martif" and root.find("martifHeader/fileDesc/sourceDesc/p") is not None
    entries = root.findall("text/body/termEntry")
    assert entries and all(e.get("id") for e in entries)
    found = {}
    for entry in entries:
        terms = {ls.get(XML_LANG): [t.text for t in ls.findall("tig/term")] for ls in entry}
        if "en" in terms:
            found[terms["en"][0]] = terms
    assert "affine" in found["kindred"]["it"]
    assert "légendaire" in found["legendary"]["fr"]


def test_csv_export_row_per_key(full: Path):
    """CSV: a row per key, number/edition/text columns per language."""
    _, out, _ = run("export", "--format", "csv", "--lang", "en,it")
    rows = list(csv.DictReader(io.StringIO(out)))
    row = next(r for r in rows if r["key"] == "205.4d")
    assert (row["en_edition"], row["it_edition"]) == ("2024-11-08", "2024-11-23")
    assert row["it"].startswith("Ogni permanente con il supertipo")


def test_csv_units_are_unique_as_tmx_tuids_are(full: Path):
    """Italian and French both print 205.4d: the CSV's units, like TMX's tuids, tell them apart
    ("205.4d it", "205.4d fr"), one id per row."""
    _, out, _ = run("export", "--format", "csv", "--lang", "it,fr")
    rows = list(csv.DictReader(io.StringIO(out)))
    units = [row["unit"] for row in rows]
    assert len(set(units)) == len(units) and {"205.4d it", "205.4d fr"} <= set(units)
    # As in TMX, English is beside each translation (two translations' common source).
    legend = next(row for row in rows if row["unit"] == "205.4d it")
    assert legend["en_edition"] == "2024-11-08" and legend["en"].startswith("Any permanent")
    _, out, _ = run("export", "--format", "tmx", "--lang", "it,fr")
    tuids = [tu.get("tuid") for tu in ET.fromstring(out.encode("utf-8")).iter("tu")]
    assert units == tuids


def test_po_export_of_an_old_copy_is_as_stale_as_stale_says(full: Path, tmp_path: Path):
    """The 2006 French copy, aligned by content: its entries are placed under the keys they
    were aligned to, and every entry `stale` lists is fuzzy, with the oldest English it was
    taken from (205.2a's six card types against today's list); a pairing by content that is not
    word for word is fuzzy too."""
    import polib

    _, out, _ = run("export", "--format", "po", "--lang", "fr")
    path = tmp_path / "fr.po"
    path.write_text(out, encoding="utf-8")
    entries = {e.msgctxt: e for e in polib.pofile(str(path)) if e.msgstr}
    card_types = entries["205.2a"]
    assert card_types.msgstr.startswith("205.2a Les types sont artéfact, créature")
    assert card_types.fuzzy and "tribal" in card_types.previous_msgid
    _, out, _ = run("stale", "--lang", "fr", "--json")
    stale = {item["key"] for item in json.loads(out)["stale"]}
    assert stale and all(entries[key].fuzzy for key in stale if key in entries)
    legend = entries["205.4d"]  # the French 205.4c, aligned to today's legend rule
    assert legend.msgstr.startswith("205.4d Un permanent avec le sur-type légendaire")
    assert "aligned by content" in legend.comment


def test_sources_show_the_lag(full: Path):
    """The Italian excerpt follows English 2024-11-08; the newest is 2026-08-07."""
    _, out, _ = run("sources", "--json")
    italian = next(d for d in json.loads(out)["documents"] if d["source"].startswith("000_"))
    assert italian["lag"] == {
        "english_in_effect": "2024-11-08",
        "newest_english": "2026-08-07",
        "days": 637,
    }


def test_list_items_pair_by_symbol_word_and_position():
    """Items with the same mana symbol pair; the rest, as many on each side, by position; only
    an item with no counterpart is reported, and how sure that is."""
    from corpus.qa import list_pairing

    english = ["{W} is white", "{U} blue", "{B} black", "{R} red", "{G} green"]
    spanish = ["{W} blanco", "{U} azul", "{B} negro", "{R} rojo", "{G} verde"]
    pairing = list_pairing(spanish, english, None)
    assert [how for _, _, how in pairing.pairs] == ["same"] * 5
    assert pairing.unpaired() == ""
    same_count = list_pairing(["Sangre", "Pista", "Comida"], ["Blood", "Clue", "Food"], None)
    assert {how for _, _, how in same_count.pairs} == {"position"} and same_count.unpaired() == ""
    short = list_pairing(
        ["{W} blanco", "{U} azul"], ["{W} is white", "{U} blue", "{B} black"], None
    )
    assert short.unpaired() == "missing (sure): {B} black"
    longer = list_pairing(["Sangre", "Pista", "Comida"], ["Blood", "Clue"], None)
    assert longer.unpaired().startswith("1 of Sangre, Pista, Comida not in English (unsure which")


def test_a_decimal_comma_is_a_citation():
    """ "regla 100,7" (as the Spanish PDF prints it) cites 100.7; "reglas 100, 101" two."""
    from corpus.model.numbers import cited_numbers

    assert cited_numbers("Ver regla 100,7 y 205.3i; reglas 100, 101.") == [
        "100.7",
        "205.3i",
        "100",
        "101",
    ]


def test_a_list_of_pairs_is_read_pair_by_pair_in_every_language():
    """105.5's ten color pairs are ten items in English and in the Spanish CR, whose last two
    pairs have no comma between them ("verde y blanco y verde y azul"): `check` found "12 list
    items here, 11 in English" where nothing differs."""
    from corpus.model.words import list_items

    english = (
        "If an effect refers to a color pair, it means exactly two of the five colors. There are"
        " ten color pairs: white and blue, white and black, blue and black, blue and red, black"
        " and red, black and green, red and green, red and white, green and white, and green and"
        " blue."
    )
    spanish = (
        "Si un efecto se refiere a un par de color, significa exactamente dos de los cinco"
        " colores. Hay diez pares de color: blanco y azul, blanco y negro, azul y negro, azul y"
        " rojo, negro y rojo, negro y verde, rojo y verde, rojo y blanco, verde y blanco y verde y"
        " azul."
    )
    assert list_items(english)[-2:] == ["green and white", "green and blue"]
    assert list_items(spanish)[-2:] == ["verde y blanco", "verde y azul"]
    assert len(list_items(english)) == len(list_items(spanish)) == 10
    assert list_items("I tipi di carta sono artefatto, battaglia, creatura e vanguard.") == [
        "artefatto",
        "battaglia",
        "creatura",
        "vanguard",
    ]


def test_diff_and_history_say_what_a_date_between_editions_was_read_as(full: Path):
    """A date that is no edition is read as the edition in effect then, and `diff` and
    `history` say so as `search --edition` does (stderr, JSON `edition_note`)."""
    note = "2025-12-01 is no edition here: the rules in effect then, English 2025-11-14"
    code, out, err = run("diff", "--from", "2025-12-01", "--to", "2026-08-07")
    assert code == 0 and err == f"note: {note}\n"
    assert out.startswith("en 2025-11-14 → 2026-08-07: ")
    assert json.loads(run("diff", "--from", "2025-12-01", "--json")[1])["edition_note"] == note
    assert "edition_note" not in json.loads(run("diff", "--from", "2025-11-14", "--json")[1])
    code, out, err = run("history", "725.1", "--edition", "2025-12-01")
    assert code == 0 and err == f"note: {note}\n"
    assert out.startswith("725.1 of 2025-11-14 (726.1 now)")
    payload = json.loads(run("history", "725.1", "--edition", "2025-12-01", "--json")[1])
    assert payload["edition_note"] == note


def test_a_word_of_a_language_the_query_does_not_tell_is_no_misspelling(full: Path):
    """`dégâts de commandant` (its language not told by its words): "dégâts" is a French
    word, so it is no misspelt English "designates"; it is damage (a curated everyday word),
    and the commander damage rules answer."""
    code, out, err = run("search", "dégâts de commandant", "--brief")
    assert code == 0
    assert "did you mean" not in err
    assert "704.6c" in [line.split(" — ")[0] for line in out.splitlines()[:3]]


def test_words_side_by_side_in_a_rule_put_it_first_when_every_word_is_required(full: Path):
    """`toughness 0`: 704.5f, where the two words stand together ("has toughness 0 or less"),
    first; the doubling rules' "+X/+0" have both words apart (it was ninth)."""
    code, out, _ = run("search", "toughness 0", "--brief")
    assert code == 0 and out.startswith("704.5f — ")
