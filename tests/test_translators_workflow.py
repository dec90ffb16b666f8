"""A translator's workflow on the real English editions: renumbering decided as a tree and the
same both ways, history from any edition's numbers, check naming what differs, staleness of an
old copy, exports that carry every record and validate against TMX 1.4 and TBX-Basic, and a
library a translator can manage."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FR, IT

from search.cli import cli

pytestmark = pytest.mark.shared_data
SCHEMAS = Path(__file__).parent / "schemas"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, catch_exceptions=False, args=list(args))
    return result.exit_code, result.stdout, result.stderr


def pairs(old: str, new: str, *rule: str) -> dict[tuple[str | None, str | None], dict]:
    code, out, err = run("diff", "--from", old, "--to", new, *rule, "--json")
    assert code == 0, err
    return {(c["from"], c["to"]): c for c in json.loads(out)["changes"]}


def test_subrules_follow_their_renumbered_rule(full: Path):
    """Explore 701.40 -> 701.44, Amass 701.44 -> 701.47, Connive 701.47 -> 701.50: each
    subrule goes with its rule, not to another keyword's subrule of the same letter."""
    found = pairs("2024-11-08", "2025-07-25", "701")
    for old, new in (("701.40", "701.44"), ("701.44", "701.47"), ("701.47", "701.50")):
        for letter in ("", "a", "b", "c"):
            assert (old + letter, new + letter) in found, old + letter
    explore = found["701.40b", "701.44b"]
    assert (explore["status"], explore["references_only"]) == ("moved", True)
    assert ("701.40b", "701.50b") not in found
    assert not any(c["status"] == "changed" and c["from"] == "701.44b" for c in found.values())


def test_the_diff_is_the_same_both_ways(full: Path):
    """2024-11-08 -> 2025-07-25 and back list the same pairs, the other way round."""
    forward = pairs("2024-11-08", "2025-07-25")
    backward = pairs("2025-07-25", "2024-11-08")
    assert len(forward) == len(backward)
    assert {(b, a) for a, b in forward} == set(backward)


def test_a_renumbered_rule_that_only_cites_new_numbers_has_moved(full: Path):
    """721.1a -> 723.1a and 726.2 -> 728.2 change only the numbers they cite: moved."""
    found = pairs("2024-11-08", "2025-07-25")
    for old, new in (("721.1a", "723.1a"), ("726.2", "728.2")):
        change = found[old, new]
        assert (change["status"], change["references_only"]) == ("moved", True)
    removed = [c["from"] for c in found.values() if c["status"] == "removed"]
    assert "721.1a" not in removed and "726.2" not in removed


def test_one_change_is_one_change(full: Path):
    """Counts read correctly: '1 change', '2 changes'."""
    code, out, _ = run("diff", "--from", "2024-09-20", "--to", "2024-11-08", "508.3f")
    assert code == 0
    assert out.splitlines()[0] == "en 2024-09-20 → 2024-11-08: 1 change"


def test_history_from_any_editions_number(full: Path):
    """723.2 of 2024-11-08 is followed back to its first edition and forward to the newest."""
    code, out, err = run("history", "723.2", "--edition", "2024-11-08", "--json")
    assert code == 0, err
    events = [(e["edition"], e["event"], e["number"]) for e in json.loads(out)["history"]]
    assert ("2024-11-08", "moved", "723.2") in events or any(e[2] == "723.2" for e in events)
    assert events[-1][2] != "723.2"  # it moved on after 2024-11-08
    code, out, _ = run("history", "701.44b", "--json")
    first = json.loads(out)["history"][0]
    assert (first["edition"], first["event"]) == ("2018-07-13", "appeared")


def test_history_covers_every_rule_below_and_counts_what_appeared(full: Path):
    """`history 702.19`: 702.19c and 702.19e appeared since 2015 (trample over planeswalkers):
    changes, not "unchanged"; `history 704` covers 704.5j (a grandchild), and the web's
    history page lists the rules below that changed."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    code, out, _ = run("history", "702.19")
    assert code == 0
    unchanged = next(line for line in out.splitlines() if line.startswith("unchanged: "))
    assert "702.19c" not in unchanged and "702.19e" not in unchanged
    assert "702.19c:\n  2022-02-18  appeared       702.19c\n" in out
    _, out, _ = run("history", "704")
    assert "\n704.5j:\n" in out
    with TestClient(create_app(full)) as client:
        page = client.get("/history/702.19").text
    assert "Below it: 7 subrules" in page and 'href="/rule/702.19c"' in page


def test_history_ignores_typography_unless_asked(full: Path):
    """704.5j's 2019 change of "owners’" to "owners'" is no change by default."""
    _, out, _ = run("history", "704.5j", "--json")
    events = [(e["edition"], e["event"]) for e in json.loads(out)["history"]]
    assert ("2019-01-25", "changed") not in events
    _code, out, _ = run("history", "704.5j", "--exact-typography", "--json")
    events = [(e["edition"], e["event"]) for e in json.loads(out)["history"]]
    assert ("2019-01-25", "changed") in events


def test_a_rule_whose_typography_alone_changed_keeps_its_key(full: Path):
    """2020-01-24 curled every quote and renamed section 716 (Ending the Turn) 717: 716.1 of
    2019-01-25 is today's 724.1, not a gone rule of its own (`gone:716.1@2019-01-25`); and
    110.5 of 2019-01-25 (tokens) is 111.1."""
    for number, today in (("716.1", "724.1"), ("110.5", "111.1")):
        _, out, _ = run("show", number, "--edition", "2019-01-25", "--json")
        assert json.loads(out)["results"][0]["key"] == today


def test_a_move_that_changed_only_typography_shows_no_diff_unless_asked(full: Path):
    """2020-01-24 moved 716.1 to 717.1 and curled its quotes ("Resolving Spells and
    Abilities"): a move with nothing to show by default (it showed the quotes' diff); with
    --exact-typography, a move and change with the quotes' diff (it said 717.1 appeared: read
    as printed, the editions were paired otherwise)."""

    def moved(*options: str) -> dict:
        _, out, _ = run("history", "724.1", *options, "--json")
        return next(e for e in json.loads(out)["history"] if e["edition"] == "2020-01-24")

    assert (moved()["event"], moved()["diff"]) == ("moved", "")
    exact = moved("--exact-typography")
    assert exact["event"] == "moved+changed" and "{+“Resolving+}" in exact["diff"]


def test_history_of_a_translations_own_key(full: Path):
    """The 2006 French 'Enchanter : [quelque chose]' rule has no English counterpart: said."""
    key = f"205.2c@{FR}"
    code, out, _ = run("history", key)
    assert code == 0
    assert out.startswith(f"{key}: fr 205.2c of {FR} (edition unknown) has no counterpart")


def test_a_search_page_showing_some_languages_says_nothing_of_the_others(full: Path):
    """/?q=trample&show=it: English is hidden, not missing: no "no English text for 702.19 …
    the English documents leave this rule out" under results English has."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    with TestClient(create_app(full)) as client:
        page = client.get("/?q=trample&show=it").text
    assert 'href="/rule/702.19"' in page and "no English text" not in page


def test_a_search_page_of_a_date_between_editions_says_which_it_read(full: Path):
    """/?q=trample&edition=2025-12-01: the page says the date was read as the edition in effect
    then, as the API's edition_note and the command line's note do (it said nothing)."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    with TestClient(create_app(full)) as client:
        page = client.get("/?q=trample&edition=2025-12-01").text
    assert "2025-12-01 is no edition here: the rules in effect then, English 2025-11-14." in page


def test_the_web_history_of_a_gone_rule_or_a_translations_own_key(full: Path):
    """/history/ and /api/history/ of a gone rule's key (its last number, its last edition)
    and of a translation's own key answer as the command line does, not 404."""
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from search.web.app import create_app

    _code, out, _ = run("history", "gone:714.3a@2025-11-14", "--json")
    gone = json.loads(out)
    with TestClient(create_app(full)) as client:
        answer = client.get("/api/history/gone:714.3a@2025-11-14")
        assert answer.status_code == 200 and answer.json()["history"] == gone["history"]
        assert client.get("/history/gone:714.3a@2025-11-14").status_code == 200
        own = client.get("/api/history/" + quote(f"205.2c@{FR}"))
        assert own.status_code == 200
        assert own.json()["note"].startswith(f"fr 205.2c of {FR} (edition unknown) has no")
        page = client.get("/history/" + quote(f"205.2c@{FR}"))
        assert page.status_code == 200 and "has no English history" in page.text


def test_check_names_what_differs(full: Path):
    """Incubator is the artifact type the Italian 205.3g lacks; the French copy cites 420.5e,
    which no loaded English edition has; problems found: exit 1."""
    code, out, _ = run("check", "--lang", "it,fr", "--json")
    assert code == 1
    problems = {
        (p["source"], p["number"], p["check"]): p["message"] for p in json.loads(out)["problems"]
    }
    assert "missing (sure): Incubator" in problems[IT, "205.3g", "list"]
    assert problems[FR, "205.4c", "absent"] == "cites 420.5e, not a rule of English 2026-08-07"


def test_an_old_copy_is_stale_against_every_edition(full: Path):
    """The 2006 French copy states no date and matches no numbering: stale since 2015."""
    code, out, err = run("stale", "--lang", "it,fr", "--json")
    assert code == 0, err
    stale = json.loads(out)["stale"]
    french = {s["key"]: s for s in stale if s["lang"] == "fr"}
    assert french["205.4d"]["english_from"] == "2015-01-23"
    assert "{+704.5j).+}" in french["205.4d"]["diff"]
    assert any(s["lang"] == "it" for s in stale)


def test_stale_lists_each_language_under_its_count_in_the_order_asked(full: Path):
    """`stale --lang it,fr`: the Italian count and rules, then the French ones (both counts
    came first, then the French rules above the Italian)."""
    code, out, _ = run("stale", "--lang", "it,fr")
    assert code == 0
    heads = [line for line in out.splitlines() if line[:1] in ("i", "f") or line[:1].isdigit()]
    italian = [line for line in heads if line.startswith("it ")]
    french = [line for line in heads if line.startswith("fr ")]
    assert heads == [heads[0], *italian, heads[len(italian) + 1], *french]
    assert heads[0].endswith(" it rules are stale")
    assert heads[len(italian) + 1].endswith(" fr rules are stale")


def test_stale_takes_only_a_translations_languages(full: Path):
    """English is what a translation is compared with: `stale --lang en` is a usage error
    naming the translations' languages, as an unknown code is (CLI and API alike)."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    for given, said in (("es,en", "'en' is not a translation's language"), ("xx", "'xx'")):
        code, _, err = run("stale", "--lang", given)
        assert code == 2
        assert said in err and "valid: it, fr, es, pt (" in err
    with TestClient(create_app(full)) as client:
        answer = client.get("/api/stale?lang=en")
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("lang: 'en' is not a translation's language; valid:")


def test_tmx_validates_and_carries_every_kind(full: Path):
    """TMX 1.4 valid against its DTD; examples with their rules; alignment as properties."""
    from lxml import etree

    code, out, _ = run("export", "--format", "tmx", "--lang", "en,it,fr")
    assert code == 0
    dtd = etree.DTD(str(SCHEMAS / "tmx14.dtd"))
    root = etree.fromstring(out.encode("utf-8"))
    assert dtd.validate(root), dtd.error_log.filter_from_errors()
    assert root.find("header").get("srclang") == "en"
    ids = {tu.get("tuid") for tu in root.iter("tu")}
    assert {"205.4d it", "205.4d fr", "205.1b example 1"} <= ids
    french = root.xpath("//tu[@tuid='205.4d fr']/tuv[@xml:lang='fr']/prop[@type='x-align-method']")
    assert [p.text for p in french] == ["content"]


def test_an_export_of_one_language_keeps_every_document(full: Path):
    """--lang it: every Italian record, of both Italian documents, and srclang it."""
    from lxml import etree

    _, out, _ = run("export", "--format", "tmx", "--lang", "it")
    root = etree.fromstring(out.encode("utf-8"))
    assert root.find("header").get("srclang") == "it"
    sources = [p.text for p in root.iter("prop") if p.get("type") == "x-source"]
    _, jsonl, _ = run("export", "--format", "jsonl")
    italian = [json.loads(line) for line in jsonl.splitlines() if '"lang":"it"' in line]
    assert len(sources) == len(italian) and {r["source"] for r in italian} == set(sources)
    _code, out, _ = run("export", "--format", "csv", "--lang", "it")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(italian)


def test_a_jsonl_export_of_an_edition_keeps_the_translations_that_follow_it(full: Path):
    """--edition 2024-11-08 --lang it: the Italian seed (dated 2024-11-23, following 2024-11-08)
    whole, as TMX pairs it; --edition 2025-11-14: no Italian text follows it, said on stderr
    (the export was empty and silent)."""
    _, jsonl, _ = run("export", "--format", "jsonl")
    italian = [json.loads(line) for line in jsonl.splitlines() if '"lang":"it"' in line]
    seed = [r for r in italian if r["source"] == IT]
    code, out, _ = run("export", "--format", "jsonl", "--edition", "2024-11-08", "--lang", "it")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == seed
    code, out, err = run("export", "--format", "jsonl", "--edition", "2025-11-14", "--lang", "it")
    assert code == 0 and out == ""
    assert "note: no it text is of English 2025-11-14: none follows it" in err


def test_tbx_is_tbx_basic(full: Path):
    """The term base validates against the TBX-Basic structure."""
    from lxml import etree

    code, out, _ = run("export", "--format", "tbx")
    assert code == 0
    dtd = etree.DTD(str(SCHEMAS / "tbx-basic.dtd"))
    assert dtd.validate(etree.fromstring(out.encode("utf-8"))), dtd.error_log.filter_from_errors()


def test_remove_a_document(home: Path, shared_data: Path):
    """remove by name or hash; the next command says it re-indexes; seeds cannot be removed."""
    path = shared_data / "cr" / "en" / "MagicCompRules-20250207.txt"
    assert run("add", str(path))[0] == 0
    assert run("index")[0] == 0
    code, out, _ = run("sources", "--json", "--no-dropped")
    digest = next(d["sha256"] for d in json.loads(out)["documents"] if d["source"] == path.name)
    code, out, _ = run("remove", digest[:10])
    assert (code, out) == (0, f"{path.name}: removed; the index follows at the next command\n")
    code, out, err = run("search", "legendary", "--limit", "1")
    assert err.startswith("mtgrules: the library changed; re-indexing before answering")
    assert path.name not in run("sources", "--no-dropped")[1]
    code, _, err = run("remove", IT)
    assert code == 1 and "part of the embedded corpus and cannot be removed" in err


def test_keys_are_ranked_on_the_text_they_show(full: Path):
    """English as of the newest edition by default: 903.11c (903.12c from 2021, gone from
    2025-07-25, so keyed gone:903.12c@2025-06-06) is not a hit for 'legendary', nor 116
    (117's title until 2015's numbering) first for 'Timing and Priority'; --all-editions ranks
    on every edition's text."""

    def keys(*args: str) -> list[str]:
        code, out, _ = run("search", *args, "--json")
        assert code == 0
        return [r["key"] for r in json.loads(out)["results"]]

    gone = "gone:903.12c@2025-06-06"
    assert gone not in keys("legendary", "--limit", "10")
    assert gone in keys("legendary", "--limit", "10", "--all-editions")
    assert keys("Timing and Priority")[0] == "117"
    assert "205.4e" not in keys("world rule")[:3]


def test_definitions_lead_to_rules(full: Path):
    """The glossary's Legend Rule sends to 704.5j: 704.5j comes first for 'legend rule', and
    205.3g (the list of artifact types, the most specific rule Artifact Type cites) is in the
    top three for 'artifact types'."""
    _, out, _ = run("search", "legend rule", "--json")
    assert json.loads(out)["results"][0]["key"] == "704.5j"
    _, out, _ = run("search", "artifact types", "--json")
    assert "205.3g" in [r["key"] for r in json.loads(out)["results"][:3]]
