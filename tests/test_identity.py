"""A key is a rule, not a number: every record keyed by its rule's number in the newest
English edition, through every renumbering (2026-08-07 inserted section 722)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import copy_home
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus.align.editions import by_edition, compare, history
from corpus.align.identity import gone_place
from corpus.model.numbers import depth, section_of
from corpus.model.records import Record, read_jsonl
from search.cli import cli

pytestmark = pytest.mark.shared_data

EDITIONS = ("2024-11-08", "2025-11-14", "2026-08-07")
MOVED = range(722, 733)  # the eleven sections of 2025-11-14 that are 723-733 now


@pytest.fixture(scope="module")
def renumbered(tmp_path_factory: pytest.TempPathFactory, renumbering_library: Path) -> Path:
    """A library of three English editions around the renumbering (EDITIONS), and the Spanish
    CR: this module's copy of the session's."""
    return copy_home(renumbering_library, tmp_path_factory.mktemp("renumbered"))


@pytest.fixture
def library(renumbered: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MTGRULES_HOME", str(renumbered))
    return renumbered


def records_of(home: Path) -> list[Record]:
    with (home / "records.jsonl").open(encoding="utf-8") as lines:
        return list(read_jsonl(lines))


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def keys_by_number(records: list[Record]) -> dict[tuple[str, str], str]:
    """(edition, printed number) -> key of every English rule."""
    return {
        (str(r.edition), r.number): r.key
        for r in records
        if r.lang == "en" and r.kind == "rule" and r.number
    }


def test_no_key_holds_rules_of_two_differently_titled_sections(library: Path):
    """Every key's English rules, of whichever edition, sit in sections of one title."""
    english = [r for r in records_of(library) if r.lang == "en" and r.kind == "rule" and r.number]
    heading = {(r.edition, r.number): r.text for r in english if depth(r.number or "") == 0}
    titles: dict[str, set[str | None]] = defaultdict(set)
    for record in english:
        titles[record.key].add(heading.get((record.edition, section_of(record.number or ""))))
    assert {key: found for key, found in titles.items() if len(found) > 1} == {}
    assert titles["725"] == {"The Monarch"} and titles["726"] == {"The Initiative"}


def test_the_moved_sections_are_keyed_in_the_newest_numbering(library: Path):
    """Each rule of 2025-11-14's sections 722-732 is keyed one section on (725.1 under 726.1)
    with its printed number kept; the one 2026-08-07 removed has a gone key of its own."""
    records = records_of(library)
    moved = [
        r
        for r in records
        if r.lang == "en"
        and r.edition == "2025-11-14"
        and r.kind == "rule"
        and int(section_of(r.number or "0") or 0) in MOVED
    ]
    assert len(moved) > 100
    removed = {
        c.old.number
        for c in compare(*(by_edition(records, "en")[e] for e in EDITIONS[1:]))
        if c.status == "removed" and c.old
    }
    for record in moved:
        number = record.number or ""
        if number in removed:
            assert record.key == f"gone:{number}@2025-11-14"
            assert gone_place(record.key) == (number, "2025-11-14")
        else:
            assert record.key == f"{int(number[:3]) + 1}{number[3:]}", number
    assert {r.key: r.number for r in moved}["726.1"] == "725.1"


def test_the_spanish_initiative_stands_under_726_1(library: Path):
    """The Spanish CR follows 2025-11-14 by its numbering: its 725.1 (la iniciativa) is
    keyed 726.1, beside English 2025-11-14's 725.1 and 2026-08-07's 726.1."""
    spanish = [r for r in records_of(library) if r.lang == "es" and r.number == "725.1"]
    assert [(r.key, r.follows) for r in spanish] == [("726.1", "2025-11-14")]
    assert "iniciativa" in spanish[0].text
    payload = json.loads(run("show", "726.1", "--json"))
    (result,) = payload["results"]
    printed = {
        (r["lang"], r["number"], r.get("edition") or r.get("follows")) for r in result["records"]
    }
    assert ("es", "725.1", "2025-11-14") in printed
    assert ("en", "725.1", "2025-11-14") in printed and ("en", "726.1", "2026-08-07") in printed
    assert (
        result["renumbered"] == "printed 725.1 in en 2025-11-14, es (follows 2025-11-14); 726.1 now"
    )


def test_show_725_1_is_todays_monarch_alone(library: Path):
    """`show 725.1` is the newest edition's 725.1, The Monarch, with its older numbers."""
    payload = json.loads(run("show", "725.1", "--json"))
    (result,) = payload["results"]
    assert result["key"] == "725.1"
    texts = [r["text"] for r in result["records"]]
    assert all("onarc" in t for t in texts), texts  # monarch, Monarca
    assert not any("initiative" in t or "iniciativa" in t for t in texts)
    out = run("show", "725.1")
    assert "(printed 724.1 in en 2025-11-14, es (follows 2025-11-14); 725.1 now)" in out


def test_a_headings_subrules_are_not_said_to_be_renumbered(library: Path):
    """A search's result for a heading carries its subrules, which print their own keys (714.1
    under 714, Saga Cards): only a record whose number is not its rule's key now is noted (the
    Spanish 714.3b, 714.3c now, among the section's subrules' own), and a moved section's
    heading says what it was printed as."""
    payload = json.loads(run("search", "Saga Cards", "--json"))
    saga = next(r for r in payload["results"] if r["key"] == "714")
    assert any(r["number"] == "714.1" for r in saga["records"])
    noted = saga.get("renumbered", "")
    assert "714.1" not in noted and "714.2" not in noted
    assert noted.startswith("printed 714.3b in ") and noted.endswith("(714.3c now)")
    payload = json.loads(run("search", "The Monarch", "--json"))
    monarch = next(r for r in payload["results"] if r["key"] == "725")
    assert monarch["renumbered"].startswith("printed 724 in en ")
    assert monarch["renumbered"].endswith("; 725 now")


def test_a_moved_headings_translation_comes_with_its_subrules(library: Path):
    """The Spanish 724, El Monarca, is 725 now: a search finds it with its subrules 724.1-724.5
    (printed under 724, keyed 725.x), as `show 725` has them; it came alone. The earlier English
    editions' 724.x are not the text shown and stay out."""
    payload = json.loads(run("search", "el monarca", "--lang", "es", "--limit", "1", "--json"))
    (monarch,) = payload["results"]
    assert monarch["key"] == "725"
    numbers = [r["number"] for r in monarch["records"]]
    assert numbers == ["724", "724.1", "724.2", "724.3", "724.4", "724.5"]
    payload = json.loads(run("search", "el monarca", "--limit", "1", "--json"))
    english = [r["number"] for r in payload["results"][0]["records"] if r["lang"] == "en"]
    assert english[-5:] == ["725.1", "725.2", "725.3", "725.4", "725.5"]
    assert not any(n.startswith("724.") for n in english)


def test_show_with_an_edition_reads_the_number_in_that_edition(library: Path):
    """`show 725.1 --edition 2025-11-14` is the initiative, and says it is 726.1 now."""
    out = run("show", "725.1", "--edition", "2025-11-14")
    assert out.splitlines()[0] == "725.1 of 2025-11-14 is 726.1 now"
    assert "The initiative is a designation" in out and "monarch" not in out
    payload = json.loads(run("show", "725.1", "--edition", "2025-11-14", "--json"))
    assert payload["note"] == "725.1 of 2025-11-14 is 726.1 now"
    assert [r["key"] for r in payload["results"]] == ["726.1"]
    assert payload["results"][0]["records"][0]["number"] == "725.1"
    # The Spanish CR follows that edition: its 725.1 is shown beside it.
    spanish = [r for r in payload["results"][0]["records"] if r["lang"] == "es"]
    assert [(r["number"], r["follows"]) for r in spanish] == [("725.1", "2025-11-14")]
    assert "El iniciativa es una designación" in out


def test_history_with_an_edition_says_which_rule_it_is_now(library: Path):
    """`history 725.1 --edition 2025-11-14` is the initiative's history: its first line says
    it is 726.1 now (it read "725.1: 2 changes", today's 725.1 being The Monarch), and its
    JSON gives the current key beside the number asked; without --edition nothing is added."""
    out = run("history", "725.1", "--edition", "2025-11-14")
    assert out.splitlines()[0].startswith("725.1 of 2025-11-14 (726.1 now): 2 changes")
    payload = json.loads(run("history", "725.1", "--edition", "2025-11-14", "--json"))
    assert (payload["rule"], payload["edition"], payload["key"]) == ("725.1", "2025-11-14", "726.1")
    assert run("history", "725.1").splitlines()[0].startswith("725.1: ")
    assert json.loads(run("history", "725.1", "--json"))["key"] == "725.1"


def test_history_of_a_number_another_rule_held_before_says_which(library: Path):
    """`history 725.1` (The Monarch since 2026-08-07) says the number was another rule's until
    2025-11-14 and names that rule's history (726.1, the initiative); `history 714.3a` (a new
    rule of 2026-08-07) names the Saga rule 2025-11-14 numbered so, gone since, by the key
    `show` opens: its last edition, not that of its last change."""
    lines = run("history", "725.1").splitlines()
    assert lines[1] == "until 2025-11-14, 725.1 numbered another rule: `mtgrules history 726.1`"
    payload = json.loads(run("history", "714.3a", "--json"))
    assert payload["before"] == {"until": "2025-11-14", "key": "gone:714.3a@2025-11-14"}
    old = json.loads(run("history", "714.3a", "--edition", "2025-11-14", "--json"))
    assert old["key"] == "gone:714.3a@2025-11-14"
    assert "lore counter" in run("show", "gone:714.3a@2025-11-14")
    assert "before" not in json.loads(run("history", "702.19", "--json"))


def test_a_gone_key_without_its_edition_is_told_how_to_write_it(library: Path):
    """`show gone:714.3a` (no @EDITION) or `gone:714.3a@soon` is a usage error that says how
    to write it and where to find the edition, not "no rule number"."""
    result = CliRunner().invoke(cli, ["show", "gone:714.3a"], prog_name="mtgrules")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: 'gone:714.3a' is a gone rule's key without its edition: write it as "
        "gone:714.3a@EDITION, the last edition that printed it (`mtgrules history 714.3a` "
        "names it) (see `mtgrules show --help`)\n"
    )
    result = CliRunner().invoke(cli, ["show", "gone:714.3a@soon"], prog_name="mtgrules")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: 'soon' in 'gone:714.3a@soon' is no edition's date: ")


def test_history_takes_a_rules_title_in_any_language_as_show_does(library: Path):
    """`history "The Monarch"`, `history arrollar` (Spanish, trample): the history of the rule
    the title names, 725 and 702.19, as `show` finds them (it was "not a rule number"); a word
    that titles nothing is still refused, naming the titles it takes."""
    assert run("history", "The Monarch").startswith("725: ")
    assert json.loads(run("history", "arrollar", "--json"))["rule"] == "702.19"
    result = CliRunner().invoke(cli, ["history", "xyz abc"])
    assert result.exit_code == 2 and "nor a rule's title" in result.stderr


def test_a_date_between_editions_is_the_rules_in_effect_then(library: Path):
    """`--edition 2025-12-01` is no edition: it reads English 2025-11-14, in effect that day
    (it was "no text of edition 2025-12-01"), and says so, in `show` and `export` alike; a date
    before every loaded edition is still an error."""
    result = CliRunner().invoke(cli, ["show", "725.1", "--edition", "2025-12-01"])
    assert result.exit_code == 0
    assert result.stderr.startswith(
        "note: 2025-12-01 is no edition here: the rules in effect then, English 2025-11-14\n"
    )
    assert "The initiative is a designation" in result.stdout
    payload = json.loads(run("show", "704.5j", "--edition", "2025-01-01", "--json"))
    assert payload["edition_note"].endswith("the rules in effect then, English 2024-11-08")
    early = CliRunner().invoke(cli, ["show", "704.5j", "--edition", "2010-01-01"])
    assert early.exit_code == 1 and "no text of edition 2010-01-01" in early.stderr
    # export reads it so too (it refused the date).
    exported = CliRunner().invoke(
        cli, ["export", "--format", "jsonl", "--lang", "en", "--edition", "2025-12-01"]
    )
    assert exported.exit_code == 0
    assert exported.stderr == (
        "note: 2025-12-01 is no edition here: the rules in effect then, English 2025-11-14\n"
    )
    records = [json.loads(line) for line in exported.stdout.splitlines()]
    assert records and {r["edition"] for r in records} == {"2025-11-14"}


def test_search_for_a_number_with_an_edition_reads_it_as_show_does(library: Path):
    """`search 725.1 --edition 2025-11-14` is the initiative under 726.1, as `show` is, and
    says so on stderr; without an edition, 725.1 is today's (the monarch)."""
    result = CliRunner().invoke(
        cli, ["search", "725.1", "--edition", "2025-11-14"], catch_exceptions=False
    )
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "note: 725.1 of 2025-11-14 is 726.1 now"
    assert "The initiative is a designation" in result.output
    payload = json.loads(run("search", "725.1", "--edition", "2025-11-14", "--json"))
    assert [r["key"] for r in payload["results"]] == ["726.1"]
    assert payload["note"] == "725.1 of 2025-11-14 is 726.1 now"
    today = json.loads(run("search", "725.1", "--json"))["results"][0]["records"][0]
    assert "monarch" in today["text"]


def test_a_gone_rule_is_shown_under_its_own_key(library: Path):
    """A rule 2026-08-07 removed (714.3a, a Saga without read ahead) is found by its old number
    and edition, under its gone key, never under the number of what took its place."""
    out = run("show", "714.3a", "--edition", "2025-11-14")
    assert out.splitlines()[0].startswith("714.3a of 2025-11-14 is gone from the newest edition")
    payload = json.loads(run("show", "714.3a", "--edition", "2025-11-14", "--json"))
    assert [r["key"] for r in payload["results"]] == ["gone:714.3a@2025-11-14"]


def test_a_rule_moved_and_grown_by_a_sentence_is_the_same_rule(library: Path):
    """2025-11-14's 729.2j is 2026-08-07's 730.2j with a sentence added: one rule, under its
    current key, not a gone rule beside a new one."""
    out = run("show", "729.2j", "--edition", "2025-11-14")
    assert out.splitlines()[0] == "729.2j of 2025-11-14 is 730.2j now"
    payload = json.loads(run("show", "730.2j", "--json"))
    numbers = {(r["lang"], r["number"]) for r in payload["results"][0]["records"]}
    assert {("en", "729.2j"), ("en", "730.2j"), ("es", "729.2j")} <= numbers


def test_a_number_an_edition_does_not_print_is_not_another_rule(library: Path):
    """`show 733.1 --edition 2025-11-14`: that edition has no 733.1, so no rule is shown (not
    today's 733.1 as 2025-11-14 numbered it, 732.1); the error says what it is called there,
    or that the number is newer."""
    result = CliRunner().invoke(cli, ["show", "733.1", "--edition", "2025-11-14"])
    assert result.exit_code == 1
    assert result.output == (
        "error: 733.1 is not a rule of English 2025-11-14; the rule numbered 733.1 today is"
        " 732.1 in it: `mtgrules show 732.1 --edition 2025-11-14`\n"
    )
    result = CliRunner().invoke(cli, ["show", "702.195", "--edition", "2025-11-14"])
    assert result.exit_code == 1
    assert "first in English 2026-08-07" in result.output


def test_a_number_only_older_editions_print_says_which_and_a_gone_key_shows(library: Path):
    """`show 729.2j`: today's numbering has none (it is 730.2j), so the error names the edition
    that printed it and the option; the README's gone key (`gone:714.3a@2025-11-14`) shows
    that rule."""
    result = CliRunner().invoke(cli, ["show", "729.2j"])
    assert result.exit_code == 1
    assert result.output == (
        "error: 729.2j is no rule of the newest English edition (2026-08-07); English 2025-11-14"
        " printed it: `mtgrules show 729.2j --edition 2025-11-14`\n"
    )
    payload = json.loads(run("show", "gone:714.3a@2025-11-14", "--json"))
    assert [r["key"] for r in payload["results"]] == ["gone:714.3a@2025-11-14"]


def test_cited_rules_follow_their_texts_numbering(library: Path):
    """601.2 of 2025-11-14 cites rule 732 (Handling Illegal Actions): that rule is 733 now."""
    payload = json.loads(run("show", "601.2", "--edition", "2025-11-14", "--json"))
    assert "rule 732" in payload["results"][0]["records"][0]["text"]
    assert "733" in payload["refers_to"] and "732" not in payload["refers_to"]
    assert "601.2" in json.loads(run("show", "733", "--json"))["referred_by"]


def test_provenance_shows_the_span_of_editions(library: Path):
    """A text carried by several editions shows their span, in the terminal and the JSON."""
    payload = json.loads(run("show", "100.1", "--json"))
    english = [r for r in payload["results"][0]["records"] if r["lang"] == "en"]
    several = [r for r in english if len(r.get("editions", [])) > 1]
    assert several, english
    first, last = several[0]["editions"][0], several[0]["editions"][-1]
    assert several[0]["span"] == [first, last]
    out = run("show", "100.1")
    assert f"{first} → {last}" in out


def test_history_agrees_with_the_chain(library: Path):
    """Every move `history` reports joins two numbers of one key."""
    records = records_of(library)
    keys = keys_by_number(records)
    editions = list(by_edition(records, "en").items())
    for number in ("725.1", "726.1", "733", "722.1"):
        events = history(number, editions, at="2026-08-07", ignore_typography=False)
        for event in events:
            if event.previous and event.number:
                before = EDITIONS[EDITIONS.index(event.edition) - 1]
                assert keys[before, event.previous] == keys[event.edition, event.number]


def test_a_rule_put_before_others_shifts_them_rather_than_taking_their_place(library: Path):
    """2026-08-07 put "a non-Siege battle has defense 0" at 704.5w: the protector rule moved to
    704.5x and the Siege's to 704.5y (generalised), though the old 704.5x is half alike the new
    one; the Spanish 704.5x (the Siege's, after 2025-11-14) stands under 704.5y."""
    changes = json.loads(run("diff", "--from", "2025-11-14", "--to", "2026-08-07", "--json"))
    moves = {c["from"]: (c["status"], c["to"]) for c in changes["changes"] if c["from"]}
    assert moves["704.5w"] == ("moved+changed", "704.5x")
    assert moves["704.5x"] == ("moved+changed", "704.5y")
    added = [c["to"] for c in changes["changes"] if c["status"] == "added"]
    assert "704.5w" in added
    shown = json.loads(run("show", "704.5y", "--json"))["results"][0]["records"]
    spanish = [r for r in shown if r["lang"] == "es"]
    assert [r["number"] for r in spanish] == ["704.5x"] and "asedio" in spanish[0]["text"].lower()


@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pair=st.sampled_from([(0, 1), (1, 2), (0, 2)]))
def test_a_rule_and_its_match_in_diff_share_one_key(library: Path, pair: tuple[int, int]):
    """For any two loaded editions, the key of a rule of the older one is the key of its match
    in `diff --from OLD --to NEW` (unchanged rules keep their number)."""
    records = records_of(library)
    keys = keys_by_number(records)
    old, new = (EDITIONS[i] for i in pair)
    changes = json.loads(run("diff", "--from", old, "--to", new, "--json"))["changes"]
    paired: dict[str, str] = {}
    listed = set()
    for change in changes:
        if change["from"]:
            listed.add(change["from"])
        if change["from"] and change["to"]:
            paired[change["from"]] = change["to"]
    for (edition, number), key in keys.items():
        if edition != old:
            continue
        match = paired.get(number) if number in listed else number
        if match is not None:
            assert keys[new, match] == key, (number, match)


def test_the_web_links_cited_rules_to_their_current_keys(library: Path):
    """The rule page of 2025-11-14's 601.2 links its "rule 732" to today's 733, shows the
    note of the edition asked and the span of editions; the API gives the same keys."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(library))
    page = client.get("/rule/601.2", params={"edition": "2025-11-14"}).text
    assert '<a href="/rule/733">732</a>' in page
    page = client.get("/rule/725.1", params={"edition": "2025-11-14"}).text
    assert "725.1 of 2025-11-14 is 726.1 now" in page
    assert "(printed 725.1 in en 2025-11-14, es (follows 2025-11-14); 726.1 now)" in page
    api = client.get("/api/show/725.1").json()
    assert [r["key"] for r in api["results"]] == ["725.1"]
    assert {r["number"] for r in api["results"][0]["records"]} == {"724.1", "725.1"}
    assert "→" in client.get("/rule/100.1").text


def test_a_gone_rules_page_links_a_diff_that_shows_its_removal(library: Path):
    """The page of gone:714.3a@2025-11-14 links to what changed in it, and that diff (page and
    API) is 2025-11-14's 714.3a removed, not today's 714.3a, another rule, added."""
    import re

    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(library))
    page = client.get("/rule/gone:714.3a@2025-11-14")
    assert page.status_code == 200
    links = [h.replace("&amp;", "&") for h in re.findall(r'href="(/diff\?[^"]*)"', page.text)]
    assert links and all("rule=gone%3A714.3a%402025-11-14" in link for link in links)
    for link in links:
        assert client.get(link).status_code == 200
    api = client.get("/api" + links[0]).json()
    assert [(c["status"], c["from"]) for c in api["changes"]] == [("removed", "714.3a")]


def test_the_diff_page_takes_several_languages_as_the_api_does(library: Path):
    """/diff?lang=en,es is read as /api/diff?lang=en,es is: English is compared, and Spanish,
    which follows one edition only here, is named with why it is not (on the page in the
    page's words: no command-line option, a link to its stale translations page); an unknown
    code is a 400."""
    import html

    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(library))
    query = "?from=2025-11-14&to=2026-08-07&lang=en,es&rule=310.9"
    api = client.get("/api/diff" + query)
    page = client.get("/diff" + query)
    assert api.status_code == page.status_code == 200
    english, spanish = api.json()["diffs"]
    assert (english["lang"], english["from"], english["to"]) == ("en", "2025-11-14", "2026-08-07")
    assert spanish["changes"] == []
    assert spanish["skipped"].startswith("Spanish has one edition here (2025-11-14)")
    text = html.unescape(page.text)
    assert "Spanish has one edition here (2025-11-14): From 2025-11-14 and To 2026-08-07" in text
    assert '<a href="/stale?lang=es">the stale translations page</a>' in page.text
    assert "--from" not in text and "mtgrules stale" not in text
    # Spanish first: the pickers are English's (Spanish has one edition), both are said.
    spanish_first = html.unescape(client.get("/diff" + query.replace("en,es", "es,en")).text)
    assert "English 2025-11-14 → 2026-08-07, 310.9: " in spanish_first
    assert "Spanish has one edition here (2025-11-14)" in spanish_first
    assert client.get("/diff?lang=en,xx").status_code == 400
    assert "lang: one of" in client.get("/diff?lang=en,xx").text


def test_a_diff_of_several_languages_compares_those_it_can(library: Path):
    """`diff --lang en,es` across an edition the Spanish CR does not follow: the English
    changes, then one line saying why Spanish is not compared (exit 0); Spanish alone is
    still a usage error."""
    both = CliRunner().invoke(
        cli, ["diff", "--from", "2025-11-14", "--to", "2026-08-07", "--lang", "en,es", "310.9"]
    )
    assert both.exit_code == 0, both.output
    lines = both.stdout.splitlines()
    assert lines[0].startswith("en 2025-11-14 → 2026-08-07: ")
    assert lines[-1] == (
        "es: Spanish has one edition here (2025-11-14): --from 2025-11-14 and --to 2026-08-07"
        " both read as it, so there is nothing to compare; what English changed since:"
        " `mtgrules stale --lang es`"
    )
    alone = CliRunner().invoke(
        cli, ["diff", "--from", "2025-11-14", "--to", "2026-08-07", "--lang", "es"]
    )
    assert alone.exit_code == 2


def test_a_rule_of_the_newest_edition_not_in_the_language_asked_says_which_languages_have_it(
    library: Path,
):
    """`show 725.1 --lang it`: today's 725.1 is printed by the newest edition, so the error says
    which languages have it (English and Spanish), not that an older edition printed it."""
    result = CliRunner().invoke(cli, ["show", "725.1", "--lang", "it"])
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the library has no Italian text of 725.1, only English and Spanish; show it "
        "without --lang or with --lang en,es\n"
    )


def test_the_diff_page_refuses_a_bad_numbering_as_the_api_does(library: Path):
    """/diff?numbering=foo is a 400 naming the values, as /api/diff's; numbering=to and
    numbering=both are pages."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(library))
    query = "?from=2025-11-14&to=2026-08-07&rule=310.9&numbering="
    for path in ("/diff", "/api/diff"):
        refused = client.get(path + query + "foo")
        assert refused.status_code == 400, path
        assert "numbering: to (the edition compared to) or both" in refused.text
    assert client.get("/diff" + query + "to").status_code == 200
    assert client.get("/diff" + query + "both").status_code == 200


def test_the_diff_api_takes_the_commands_defaults(library: Path):
    """/api/diff with no from= or to= is `diff --json`: the two newest editions (it asked for
    both); from= alone compares it to the newest, as --from alone does."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(library))
    for query, args in (("", []), ("?from=2024-11-08", ["--from", "2024-11-08"])):
        answer = client.get("/api/diff" + query)
        assert answer.status_code == 200, query
        assert answer.json() == json.loads(run("diff", *args, "--json")), query
    # Several languages: English's diff the same (Spanish's hint names the API's address).
    both = client.get("/api/diff?lang=en,es&rule=310.9").json()["diffs"]
    assert both[0] == json.loads(run("diff", "--lang", "en,es", "310.9", "--json"))["diffs"][0]
    assert client.get("/api/diff").json()["from"] == "2025-11-14"


def test_a_rule_pages_diff_link_shows_that_rules_changes_alone(library: Path):
    """/rule/726.1 (the initiative, 725.1 until 2026-08-07) links what changed in it: the move
    725.1 → 726.1 alone, not Restarting the Game moving away from 726.1; the CLI's `diff …
    726.1` still says what happened at that number in either edition."""
    import re

    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(library))
    page = client.get("/rule/726.1").text
    link = next(
        h.replace("&amp;", "&")
        for h in re.findall(r'href="(/diff\?[^"]*)"', page)
        if "numbering=to" in h
    )
    assert client.get(link).status_code == 200
    changes = client.get("/api" + link).json()["changes"]
    assert [(c["status"], c["from"], c["to"]) for c in changes] == [("moved", "725.1", "726.1")]
    both = json.loads(run("diff", "--from", "2025-11-14", "--to", "2026-08-07", "726.1", "--json"))
    assert {(c["from"], c["to"]) for c in both["changes"]} >= {
        ("725.1", "726.1"),
        ("726.1", "727.1"),
    }


def test_diff_reads_a_date_between_editions_as_the_edition_in_effect(library: Path):
    """`diff --from 2025-12-01` is English 2025-11-14, in effect that day, as `--edition`
    reads a date; a date before every loaded edition is still an error (exit 1, as `search
    --edition` says it: no text of that date)."""
    payload = json.loads(
        run("diff", "--from", "2025-12-01", "--to", "2026-08-07", "310.9", "--json")
    )
    assert (payload["from"], payload["to"]) == ("2025-11-14", "2026-08-07")
    result = CliRunner().invoke(cli, ["diff", "--from", "2020-01-01", "--to", "2026-08-07"])
    assert result.exit_code == 1 and "no edition '2020-01-01' for --from" in result.stderr


def test_a_rule_that_appeared_and_never_changed_says_so(library: Path):
    """`history 722.1` (Preparation Cards, new in 2026-08-07): "appeared in 2026-08-07,
    unchanged since", not "0 changes" above an "appeared" line; the number was 723.1's
    before, and it says so."""
    result = CliRunner().invoke(cli, ["history", "722.1"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:3] == [
        "722.1: appeared in 2026-08-07, unchanged since (loaded editions 2024-11-08 on)",
        "until 2025-11-14, 722.1 numbered another rule: `mtgrules history 723.1`",
        "2026-08-07  appeared       722.1",
    ]


def test_history_takes_a_date_between_editions_as_show_does(library: Path):
    """`history 725.1 --edition 2026-01-01` reads the date as the edition in effect then
    (2025-11-14), as show, search and diff do: the same answer as with that edition, and a
    note saying how the date was read."""
    between = CliRunner().invoke(cli, ["history", "725.1", "--edition", "2026-01-01", "--json"])
    named = CliRunner().invoke(cli, ["history", "725.1", "--edition", "2025-11-14", "--json"])
    assert between.exit_code == named.exit_code == 0, between.output
    read_as = json.loads(between.stdout)
    assert read_as.pop("edition_note") == (
        "2026-01-01 is no edition here: the rules in effect then, English 2025-11-14"
    )
    assert read_as == json.loads(named.stdout)


def test_a_diff_of_a_rule_no_edition_prints_is_an_error_not_no_change(library: Path):
    """`diff --from 2025-11-14 --to 2026-08-07 999.9z`: not "0 changes" (as if it stayed the
    same) but an error naming the editions; a rule that did not change is still 0 changes."""
    args = ["diff", "--from", "2025-11-14", "--to", "2026-08-07"]
    missing = CliRunner().invoke(cli, [*args, "999.9z"])
    assert missing.exit_code == 1
    assert missing.stderr == (
        "error: no rule 999.9z in English 2025-11-14 or 2026-08-07; no loaded English edition"
        " prints it\n"
    )
    # A rule older editions print: the hint is history, which names them (not a loop of
    # hints: diff -> history -> show -> search -> nothing).
    older = CliRunner().invoke(cli, [*args, "603.2i"])  # 2024-11-08 only
    assert older.stderr.endswith("; which editions print it: `mtgrules history 603.2i`\n")
    history = CliRunner().invoke(cli, ["history", "999.9z"])
    assert history.stderr == "error: no rule 999.9z in any loaded English edition\n"
    same = CliRunner().invoke(cli, [*args, "704.5j"], catch_exceptions=False)
    assert (same.exit_code, same.stdout) == (0, "en 2025-11-14 → 2026-08-07: 0 changes\n")
