"""The judges' documents (issue 25): the MTR, IPG and JAR read from their real pdftohtml HTML
and as PDFs, keyed in their own namespaces, shown, searched, compared and cited."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from corpus.model.citations import cited_keys
from corpus.model.documents import doc_of_key, written_key
from corpus.model.records import Document
from corpus.read.ingest import ingest_bytes
from corpus.read.layouts import Context, infraction_guide, judging_at_regular, tournament_rules
from search import meaning
from search.cli import cli
from tests.pdf_maker import text_pdf

pytestmark = pytest.mark.shared_data

PENALTIES = {
    "2.1": "No Penalty", "2.2": "Warning", "2.3": "Warning", "2.4": "Warning",
    "2.5": "Warning", "2.6": "Warning", "3.1": "Game Loss", "3.2": "Match Loss",
    "3.3": "Warning", "3.4": "Game Loss", "3.5": "Warning", "3.6": "Warning", "3.7": "Warning",
    "3.8": "Warning", "3.9": "Warning", "4.1": "Warning", "4.2": "Match Loss",
    "4.3": "Match Loss", "4.4": "Match Loss", "4.5": "Disqualification",
    "4.6": "Disqualification", "4.7": "Disqualification", "4.8": "Disqualification",
}  # fmt: skip
CHROME = re.compile(r"MTG_\w+-html\.html|^\d{1,3}$|\.{6,}")


def judge(shared_data: Path, name: str) -> Document:
    path = shared_data / "judge" / f"{name}.html"
    return ingest_bytes(path.read_bytes(), path.name)


def sections(document: Document) -> dict[str, str]:
    return {r.key: r.title or "" for r in document.records if r.parent is None}


def test_mtr_sections_are_its_chapters_sections_and_appendices(shared_data: Path) -> None:
    """The MTR 2025-11-10: introduction, 10 chapters, 87 sections, appendices B to F."""
    document = judge(shared_data, "MTR-20251110")
    found = sections(document)
    assert document.layout == "tournament-rules" and document.edition == "2025-11-10"
    assert sum(1 for k in found if re.fullmatch(r"MTR \d+", k)) == 10
    assert sum(1 for k in found if re.fullmatch(r"MTR \d+\.\d+", k)) == 87
    assert [k for k in found if "appendix" in k] == [f"MTR appendix-{c}" for c in "bcdef"]
    assert found["MTR 2.3"] == "Pregame Procedures"
    assert found["MTR 3.13"] == "Hidden Information"
    assert found["MTR 10.4"] == "Pairing Algorithm"
    assert found["MTR introduction"] == "Introduction"
    # "3. Players present their decks …" is a step of 2.3, not chapter 3.
    assert "3. Players present their decks" in next(
        r.text for r in document.records if r.key == "MTR 2.3"
    )


def test_ipg_infractions_have_their_penalties(shared_data: Path) -> None:
    """Every IPG infraction carries the penalty printed on its heading's line."""
    for name in ("IPG-20240923", "IPG-20231113"):
        document = judge(shared_data, name)
        assert document.layout == "infraction-procedure-guide"
        penalties = {r.key: r.penalty for r in document.records if r.penalty}
        assert penalties == {f"IPG {n}": p for n, p in PENALTIES.items()}
    found = sections(judge(shared_data, "IPG-20240923"))
    assert found["IPG 2.1"] == "Game Play Error — Missed Trigger"
    assert found["IPG 4.8"] == "Unsporting Conduct — Cheating"
    assert found["IPG 1.1"] == "Definition of Penalties"


def test_ipg_parts_are_records_of_their_infraction(shared_data: Path) -> None:
    """Definition in the section's text; Examples, Philosophy, Additional Remedy, Upgrade as
    records of the same key."""
    records = [r for r in judge(shared_data, "IPG-20240923").records if r.key == "IPG 2.1"]
    assert records[0].text.startswith("2.1 Game Play Error — Missed Trigger Definition:")
    starts = [r.text.split(":")[0] for r in records[1:]]
    assert starts == ["Examples", "Philosophy", "Additional Remedy", "Upgrade"]
    assert [r.kind for r in records[1:]] == ["example", "note", "note", "note"]


JAR_ISSUES = [
    "JAR a-player-forgets-a-triggered-ability",
    "JAR a-player-sees-a-card-in-a-library",
    "JAR a-player-accidentally-draws-more-cards-or-has",
    "JAR a-player-makes-an-in-game-error-not",
    "JAR a-player-has-illegal-insufficient-or-another-player",
]


def test_jar_parts_have_stable_keys(shared_data: Path) -> None:
    """The JAR's headed parts and its common issues, each keyed by its heading."""
    document = judge(shared_data, "JAR-20240923")
    assert document.layout == "judging-at-regular" and document.edition == "2024-09-23"
    parts = list(dict.fromkeys(r.key for r in document.records))
    assert parts == [
        "JAR introduction",
        "JAR common-issues",
        *JAR_ISSUES,
        "JAR general-unwanted-behaviors",
        "JAR serious-problems",
        "JAR resources",
    ]
    parents = {r.key: r.parent for r in document.records}
    assert [k for k, p in parents.items() if p] == JAR_ISSUES
    assert {p for p in parents.values() if p} == {"JAR common-issues"}


def test_jar_common_issues_is_shown_with_its_issues(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "JAR common-issues"` is the heading and the five issues under it, in the
    document's order, each labelled as under it; a part with no issues is itself alone."""
    payload = json.loads(run(judge_home, monkeypatch, "show", "JAR common-issues", "--json"))
    assert [r["key"] for r in payload["results"]] == ["JAR common-issues", *JAR_ISSUES]
    out = run(judge_home, monkeypatch, "show", "JAR common-issues")
    assert "  en  under JAR common-issues · rule · 2024-09-23 · JAR-20240923.html" in out
    payload = json.loads(run(judge_home, monkeypatch, "show", "JAR serious-problems", "--json"))
    assert [r["key"] for r in payload["results"]] == ["JAR serious-problems"]


@pytest.mark.parametrize(
    "name", ["MTR-20251110", "MTR-20241216", "MTR-20240923", "IPG-20240923", "IPG-20231113"]
)
def test_no_page_chrome_in_any_record(shared_data: Path, name: str) -> None:
    """Running titles, page numbers, contents and changelog lines are dropped with reasons."""
    document = judge(shared_data, name)
    for record in document.records:
        assert not CHROME.search(record.text), (record.key, record.text[:80])
        assert "Changes From Previous Versions".lower() not in record.text.lower()
        assert not record.text.endswith("CONTENTS"), record.key  # the contents' own heading
    reasons = {d.reason for d in document.dropped}
    assert {"boilerplate: page number", "table of contents"} <= reasons
    assert "changelog: changes from previous versions" in reasons
    assert not any(r.text.startswith("Appendix: Upcoming") for r in document.records)


def test_keys_never_collide_with_cr_numbers() -> None:
    """A judge document's part, however written, is in its own namespace."""
    assert written_key("MTR 2.3") == written_key("mtr2.3") == written_key(" Mtr  2.3 ")
    assert written_key("MTR 2.3") == "MTR 2.3"
    assert written_key("ipg 3.1.") == "IPG 3.1"
    assert written_key("MTR Appendix B") == "MTR appendix-b"
    assert written_key("IPG A") == "IPG appendix-a" and written_key("mtr b.") == "MTR appendix-b"
    assert written_key("jar Serious Problems") == "JAR serious-problems"
    # as judges write a section too: a section sign, a dash, the word, a decimal comma
    forms = ("MTR §2.3", "MTR-2.3", "MTR section 2.3", "MTR 2,3", "MTR sezione 2.3")
    assert {written_key(form) for form in forms} == {"MTR 2.3"}
    assert written_key("205.4d") is None and written_key("mtrx 1") is None
    assert doc_of_key("MTR 1") == "mtr" and doc_of_key("100.1") == "cr"


def test_a_judge_key_starts_with_what_the_case_blind_pattern_allows() -> None:
    """Texts are matched against the judge documents' names only when they start with a
    character that a case-insensitive m, i or j matches, and those are all of them."""
    import re
    import sys

    from corpus.model.documents import _PREFIX_FIRST

    first = re.compile("[mij]", re.IGNORECASE).fullmatch
    assert {c for c in map(chr, range(sys.maxunicode + 1)) if first(c)} == _PREFIX_FIRST


def test_citations_name_their_documents() -> None:
    """ "see section 4.4" in the MTR, "MTR section 4.3" in the IPG, "rule 704.5j" and "CR 704"."""
    assert cited_keys("see section 4.4 and rule 704.5j, CR 704", "MTR 4.2") == [
        "MTR 4.4",
        "704.5j",
        "704",
    ]
    assert cited_keys("rules (MTR section 4.3) and section 1.4", "IPG 2.1") == [
        "MTR 4.3",
        "IPG 1.4",
    ]
    assert cited_keys("section 4 of the Magic Tournament Rules", "IPG 3.7") == ["MTR 4"]
    # MTR 8.6's "(Section 7)", 3.1's "Appendix C", the IPG's "sections 2-4" (each of the three)
    assert cited_keys("Limited tournaments (Section 7) apply", "MTR 8.6") == ["MTR 7"]
    assert cited_keys("explained in Appendix C. See MTR Appendix F", "MTR 3.1") == [
        "MTR appendix-c",
        "MTR appendix-f",
    ]
    assert cited_keys("Infractions (sections 2-4)", "IPG framework-of-this-document") == [
        "IPG 2",
        "IPG 3",
        "IPG 4",
    ]
    assert cited_keys("see sections 2.1-2.3", "IPG 1") == ["IPG 2.1", "IPG 2.3"]


def test_the_mtr_as_a_pdf_reads_as_the_html(shared_data: Path, tmp_path: Path) -> None:
    """The same MTR printed as a PDF (running header, page numbers) gives the same sections."""
    html = judge(shared_data, "MTR-20251110")
    from corpus.read.ingest import extract

    lines, aside, _ = extract((shared_data / "judge" / "MTR-20251110.html").read_bytes(), "x")
    text = [line for n, line in enumerate(lines, 1) if n not in aside]
    pages = [text[i : i + 50] for i in range(0, len(text), 50)]
    pdf = text_pdf(tmp_path / "mtr.pdf", pages, "Magic: The Gathering Tournament Rules")
    document = ingest_bytes(pdf.read_bytes(), "mtr.pdf")
    assert document.layout == "tournament-rules" and document.edition == "2025-11-10"
    assert list(sections(document)) == list(sections(html))
    assert not any(r.text == "Magic: The Gathering Tournament Rules" for r in document.records)


def test_the_ipg_as_a_pdf_keeps_its_right_aligned_penalties(
    shared_data: Path, tmp_path: Path
) -> None:
    """The IPG as a PDF, each infraction's penalty right-aligned on its heading's line: the
    same sections and the same penalties as the HTML."""
    from corpus.read.ingest import extract

    path = shared_data / "judge" / "IPG-20240923.html"
    html = ingest_bytes(path.read_bytes(), path.name)
    lines, aside, _ = extract(path.read_bytes(), "x")
    pattern = re.compile(r"^(\d\.\d\. .+ — .+?) (No Penalty|Warning|Game Loss|Match Loss|Disq\w+)$")
    text = [pattern.sub("\\1\t\\2", line) for n, line in enumerate(lines, 1) if n not in aside]
    assert sum("\t" in line for line in text) == len(PENALTIES)
    pages = [text[i : i + 50] for i in range(0, len(text), 50)]
    pdf = text_pdf(tmp_path / "ipg.pdf", pages, "Magic Infraction Procedure Guide")
    document = ingest_bytes(pdf.read_bytes(), "ipg.pdf")
    assert document.layout == "infraction-procedure-guide"
    assert list(sections(document)) == list(sections(html))
    assert {r.key: r.penalty for r in document.records if r.penalty} == {
        f"IPG {n}": p for n, p in PENALTIES.items()
    }


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=60), max_size=40))
def test_judge_parsers_never_crash(lines: list[str]) -> None:
    """Any lines, under any of the three titles: a parse, never an exception."""
    for module, title in (
        (tournament_rules, "MAGIC: THE GATHERING® TOURNAMENT RULES"),
        (infraction_guide, "MAGIC INFRACTION PROCEDURE GUIDE"),
        (judging_at_regular, "Judging at Regular Rules Enforcement Level (REL)"),
    ):
        document = [title, *lines]
        module.score(document)
        module.parse(Context("x", "en", None, document))


@pytest.fixture(scope="module")
def judge_home(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    home = tmp_path_factory.mktemp("judge")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        files = sorted(str(p) for p in (shared_data / "judge").glob("*.html"))
        result = CliRunner().invoke(cli, ["add", *files])
        assert result.exit_code == 0, result.output
        assert CliRunner().invoke(cli, ["index"]).exit_code == 0
    return home


def run(home: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.setenv("MTGRULES_HOME", str(home))
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def found(home: Path, monkeypatch: pytest.MonkeyPatch, query: str) -> list[str]:
    """The keys `search QUERY --json` gives, best first."""
    return [
        r["key"] for r in json.loads(run(home, monkeypatch, "search", query, "--json"))["results"]
    ]


def refused(home: Path, monkeypatch: pytest.MonkeyPatch, *args: str, code: int = 1) -> str:
    """The one-line error of a command refused with `code` (nothing on stdout)."""
    monkeypatch.setenv("MTGRULES_HOME", str(home))
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert (result.exit_code, result.stdout) == (code, ""), result.output
    return result.stderr


@pytest.mark.parametrize(
    "written", ["MTR 2.3", "mtr2.3", "Mtr 2.3", "  mtr   2.3 ", "MTR 2.3.", "MTR\t2.3"]
)
def test_show_a_section_in_every_written_form(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    """show "MTR 2.3", mtr2.3, any case and spacing, quoted or not (`show MTR 2.3`, two
    arguments): the one section, its citations."""
    payload = json.loads(run(judge_home, monkeypatch, "show", *written.split("\t"), "--json"))
    assert [r["key"] for r in payload["results"]] == ["MTR 2.3"]
    assert payload["document"] == "mtr"
    assert payload["refers_to"] == ["MTR 2.2", "103.4"]


def test_show_an_infraction_with_its_penalty(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """show "IPG 3.1": the penalty in the JSON and in the terminal's heading."""
    payload = json.loads(run(judge_home, monkeypatch, "show", "IPG 3.1", "--json"))
    record = payload["results"][0]["records"][0]
    assert record["penalty"] == "Game Loss" and record["title"] == "Tournament Error — Tardiness"
    assert "IPG 3.1 — Tournament Error — Tardiness · penalty: Game Loss" in run(
        judge_home, monkeypatch, "show", "ipg 3.1"
    )
    assert (
        "MTR 4.3"
        in json.loads(run(judge_home, monkeypatch, "show", "IPG 2.1", "--json"))["refers_to"]
    )


def test_show_a_penalty_by_its_name_in_any_language(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "Game Loss"` was a usage error though `term` knows it: a penalty named alone, in
    English or by its curated name ("partita persa"), is where the IPG defines it (IPG 1.1)."""
    for name in ("Game Loss", "match loss", "partita persa"):
        payload = json.loads(run(judge_home, monkeypatch, "show", name, "--json"))
        assert payload["results"][0]["key"] == "IPG 1.1", name


def test_a_terminal_shows_the_whole_heading_with_the_penalty(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On an 80-column terminal the panel's border cut IPG 2.6's heading at "penalty: Warni":
    a heading too long for the border opens the panel, wrapped, and the border keeps the key."""
    import io

    from rich.console import Console

    from search.render import echo_rich
    from search.results import Filters
    from search.session import open_engine

    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    with open_engine() as engine:
        results = engine.lookup_part("IPG 2.6", Filters())
    out = io.StringIO()
    echo_rich(results, (), set(), Console(file=out, width=80, force_terminal=True))
    text = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()).split())
    assert "╭─ IPG 2.6 ─" in text
    inside = " ".join(text.replace("│", " ").split())
    assert "Failure to Maintain Game State · penalty: Warning" in inside


def test_search_by_document(judge_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--doc keeps the results to the documents named; each result says its document."""
    payload = json.loads(
        run(judge_home, monkeypatch, "search", "tardiness", "--doc", "ipg", "--json")
    )
    assert payload["results"] and {r["document"] for r in payload["results"]} == {"ipg"}
    assert payload["results"][0]["key"] == "IPG 3.1"
    everywhere = json.loads(run(judge_home, monkeypatch, "search", "tardiness", "--json"))
    assert {"ipg", "jar"} <= {r["document"] for r in everywhere["results"]}


def test_a_penalty_asked_is_the_infractions_with_or_without_doc(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "cheating penalty": the IPG's infraction first (IPG 4.8 was missing: "penalty" found the
    IPG's chapters on penalties), above the MTR's section; the same among `--doc ipg,mtr`
    ("outside assistance penalty" had Appendix A and IPG 1 first there)."""
    assert found(judge_home, monkeypatch, "cheating penalty")[:2] == ["IPG 4.8", "MTR 5.1"]
    for doc in ((), ("--doc", "ipg,mtr")):
        keys = [
            r["key"]
            for r in json.loads(
                run(judge_home, monkeypatch, "search", "outside assistance penalty", *doc, "--json")
            )["results"]
        ]
        assert keys[:2] == ["IPG 3.2", "MTR 5.6"], (doc, keys[:5])


def test_a_diff_without_editions_compares_the_two_newest(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff --doc mtr "MTR 3.7"` (it was "Missing option '--from'"): the newest edition and
    the one before, as the web's diff page; `--to` alone, the one before it; the JAR's one
    edition, nothing to compare (exit 2)."""
    out = run(judge_home, monkeypatch, "diff", "--doc", "mtr", "MTR 3.7")
    assert out.splitlines()[:2] == [
        "MTR en 2024-12-16 → 2025-11-10: 1 change",
        "changed        MTR 3.7",
    ]
    out = run(judge_home, monkeypatch, "diff", "--doc", "mtr", "--to", "2024-12-16")
    assert out.startswith("MTR en 2024-09-23 → 2024-12-16: ")
    said = refused(judge_home, monkeypatch, "diff", "--doc", "jar", code=2)
    assert "the JAR has one edition (2024-09-23) here: nothing to compare" in said


def test_diff_between_two_mtr_editions(judge_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sections whose text changed between two editions, and none that did not."""
    payload = json.loads(
        run(
            judge_home, monkeypatch,
            "diff", "--doc", "mtr", "--from", "2024-12-16", "--to", "2025-11-10", "--json",
        )
    )  # fmt: skip
    changed = [c["to"] for c in payload["changes"]]
    assert {"MTR 3.7", "MTR 6.3", "MTR 6.4", "MTR 6.6", "MTR 6.7", "MTR appendix-d"} <= set(changed)
    assert "MTR 1.1" not in changed and "MTR 3.10" not in changed
    assert all(c["status"] == "changed" for c in payload["changes"])


def test_diff_of_a_judge_part_without_its_document_names_the_option(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff … "MTR 2"` without --doc: a usage error that names --doc mtr and the command."""
    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    result = CliRunner().invoke(
        cli, ["diff", "--from", "2024-12-16", "--to", "2025-11-10", "MTR 2"]
    )
    assert result.exit_code == 2
    assert "compare its editions with --doc mtr: `mtgrules diff --doc mtr --from DATE" in (
        result.output
    )


def test_diff_of_a_document_with_one_edition_says_there_is_nothing_to_compare(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """diff --doc jar --from 2024-09-23 --to latest: the JAR has one edition here; exit 2."""
    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    result = CliRunner().invoke(
        cli, ["diff", "--doc", "jar", "--from", "2024-09-23", "--to", "latest"]
    )
    assert result.exit_code == 2
    assert "the JAR has one edition here (2024-09-23)" in result.stderr


def test_history_of_an_mtr_section(judge_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """history "MTR 3.7": first seen in 2024-09-23, changed in each later edition."""
    payload = json.loads(run(judge_home, monkeypatch, "history", "MTR 3.7", "--json"))
    assert [(e["edition"], e["event"]) for e in payload["history"]] == [
        ("2024-09-23", "first seen"),
        ("2024-12-16", "changed"),
        ("2025-11-10", "changed"),
    ]


def test_history_of_a_judge_section_as_text(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """history "IPG 2.1" in the terminal: its editions, and each change with words around it."""
    out = run(judge_home, monkeypatch, "history", "IPG 2.1").splitlines()
    assert out[:3] == [
        "IPG 2.1: 1 change (in every loaded edition since 2023-11-13)",
        "2023-11-13  first seen     IPG 2.1 (in the oldest loaded edition: it appeared before it)",
        "2024-09-23  changed        IPG 2.1",
    ]
    assert out[3].startswith("    … problems are treated as a Game Play Error — Game Rule")
    assert "{+If the turn-based action of putting a lore counter on a Saga is missed," in out[3]
    assert "Philosophy:" not in out[3]  # the long unchanged run between the changes is elided
    jar = run(judge_home, monkeypatch, "history", "JAR serious-problems")
    assert jar.splitlines()[0] == (
        "JAR serious-problems: 0 changes (in every loaded edition since 2024-09-23)"
    )


def test_history_of_a_chapter_covers_its_sections(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """history "MTR 2": the chapter heading never changed, its sections did (2.1, 2.7, 2.9, …),
    as `history 702.19` covers its subrules; the JAR's Common Issues covers its five issues."""
    chapter = run(judge_home, monkeypatch, "history", "MTR 2").splitlines()
    assert chapter[0].startswith("MTR 2: 0 changes; its 13 parts: ")
    assert "MTR 2.1:" in chapter and "MTR 2.7:" in chapter
    payload = json.loads(run(judge_home, monkeypatch, "history", "MTR 2", "--json"))
    assert list(payload["subrules"])[:3] == ["MTR 2.1", "MTR 2.2", "MTR 2.3"]
    assert [e["edition"] for e in payload["subrules"]["MTR 2.1"] if e["event"] == "changed"] == [
        "2025-11-10"
    ]
    issues = json.loads(run(judge_home, monkeypatch, "history", "JAR common-issues", "--json"))
    assert len(issues["subrules"]) == 5


def test_history_of_a_part_as_of_an_edition(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """history "MTR 3.7" --edition 2024-12-16: the part's history, no traceback (its payload
    has no current key to compare, as a CR rule's has)."""
    out = run(judge_home, monkeypatch, "history", "MTR 3.7", "--edition", "2024-12-16")
    assert out.splitlines()[0] == ("MTR 3.7: 2 changes (in every loaded edition since 2024-09-23)")


def test_a_part_as_of_a_date_between_its_editions_is_whole(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "IPG 2.1" --edition 2024-01-01`: the IPG of 2023-11-13 was in effect, and its 2.1
    is shown whole: its definition with its penalty, not only the examples and remedies that
    are the same in 2024-09-23 (the CR's date decided which English to keep)."""
    payload = json.loads(
        run(judge_home, monkeypatch, "show", "IPG 2.1", "--edition", "2024-01-01", "--json")
    )
    records = payload["results"][0]["records"]
    rules = [r for r in records if r["kind"] == "rule"]
    assert [(r["edition"], r["penalty"]) for r in rules] == [("2023-11-13", "No Penalty")]
    assert all("2023-11-13" in r.get("editions", [r["edition"]]) for r in records)


def test_a_chapter_searched_for_gives_as_many_sections_as_asked(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`search "MTR 4" --limit 3`: three results, the chapter and its first sections (it printed
    all ten)."""
    payload = json.loads(run(judge_home, monkeypatch, "search", "MTR 4", "--limit", "3", "--json"))
    assert [r["key"] for r in payload["results"]] == ["MTR 4", "MTR 4.1", "MTR 4.2"]


def test_a_judge_parts_page_says_nothing_of_the_crs_translations(
    judges_and_rules: Path,
) -> None:
    """/rule/ipg3.1 (and /doc/ipg/3.1) asked in Italian: "no Italian text for IPG 3.1: the IPG
    is not in Italian here", not "… the Italian documents cover section 205" (the CR's
    translations'); unasked, the page opens with the part, not a line per language."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    with TestClient(create_app(judges_and_rules)) as client:
        for url in ("/rule/ipg3.1", "/doc/ipg/3.1"):
            page = client.get(url, params={"lang": "en,it"})
            assert page.status_code == 200, url
            assert "no Italian text for IPG 3.1: the IPG is not in Italian here" in page.text
            assert "documents cover section" not in page.text, url
            assert "no Italian text" not in client.get(url).text, url


def test_show_of_an_infractions_name_is_its_section(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show Tardiness`, `show "Outside Assistance"`: the IPG's infraction (its heading says
    its category first, "Tournament Error — Tardiness"), beside the MTR's section of that
    title; they were refused, or the MTR's section alone. So in every language: `show "gioco
    lento"`, `show ritardo`, `show "ayuda externa"` (the MTR's section alone, or refused)."""
    keys = lambda name: [  # noqa: E731
        r["key"]
        for r in json.loads(run(judge_home, monkeypatch, "show", name, "--json"))["results"]
    ]
    assert keys("Tardiness") == ["IPG 3.1"]
    assert keys("Outside Assistance") == ["MTR 5.6", "IPG 3.2"]
    assert keys("gioco lento") == ["MTR 5.5", "IPG 3.3"]
    assert keys("ritardo") == ["IPG 3.1"]
    assert keys("ayuda externa") == ["MTR 5.6", "IPG 3.2"]


def test_a_parts_history_and_diff_need_no_quotes_and_any_case(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`history MTR 6` and `diff --doc MTR … MTR 6` as `show MTR 6` takes them (click said
    "Got unexpected extra argument"; `--doc MTR` was refused); a part's history has its `key`
    as a rule's has."""
    out = run(judge_home, monkeypatch, "history", "MTR", "6")
    assert out.startswith("MTR 6: 0 changes; its 7 parts: ")
    payload = json.loads(run(judge_home, monkeypatch, "history", "MTR", "3.7", "--json"))
    assert payload["key"] == "MTR 3.7"
    span = ("--from", "2024-12-16", "--to", "2025-11-10")
    out = run(judge_home, monkeypatch, "diff", "--doc", "MTR", *span, "MTR", "6")
    assert out.startswith("MTR en 2024-12-16 → 2025-11-10: ")


def test_a_judge_diff_in_another_language_says_the_document_is_english_only(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff --doc mtr … --lang it` said "no MTR in the library" with three loaded: the MTR is
    in English only here (exit 2)."""
    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    args = ["diff", "--doc", "mtr", "--from", "2024-12-16", "--to", "2025-11-10", "--lang", "it"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "the MTR is in English only here: compare its editions without --lang" in result.stderr
    # and a part shown with another document's --doc is that document's, said so
    result = CliRunner().invoke(cli, ["show", "IPG 3.1", "--doc", "cr"])
    assert result.exit_code == 2
    assert "IPG 3.1 is a part of the IPG, not of the CR: show it without --doc" in result.stderr


def test_a_number_left_out_by_doc_is_said_to_be_another_documents(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show 704.5j --doc ipg` and `search 702.19 --doc mtr` said "no rule … in the library":
    it is the CR's, which --doc leaves out (show: exit 2; search: nothing found, exit 1); the
    same for `search "IPG 3.1" --doc cr`."""
    said = refused(judge_home, monkeypatch, "show", "704.5j", "--doc", "ipg", code=2)
    assert "704.5j is a CR rule number, not of the IPG: show it without --doc" in said
    said = refused(judge_home, monkeypatch, "search", "702.19", "--doc", "mtr")
    assert "702.19 is a CR rule number, not of the MTR: search without --doc" in said
    said = refused(judge_home, monkeypatch, "search", "IPG 3.1", "--doc", "cr")
    assert "IPG 3.1 is a part of the IPG, not of the CR: search without --doc" in said


def test_a_section_numbered_deeper_than_the_document_names_its_section(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "MTR 2.3.1"` said "no MTR 2-3-1": the number as written, and the section it is
    under, which has no numbered parts."""
    said = refused(judge_home, monkeypatch, "show", "MTR 2.3.1")
    assert said == (
        "error: the MTR in the library has no MTR 2.3.1: its sections have no numbered parts "
        "(`mtgrules show 'MTR 2.3'`)\n"
    )


def test_a_judge_diff_of_a_part_it_lacks_is_an_error(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff --doc mtr … 99.9` (or a CR rule, or the IPG's part) is not "0 changes": the MTR
    has no such part (exit 1), or it is another document's (exit 2: a CR rule is compared
    without --doc); a part it has with no change is 0 changes."""
    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    span = ("diff", "--doc", "mtr", "--from", "2024-12-16", "--to", "2025-11-10")
    for part, code, said in (
        ("99.9", 1, "error: no part '99.9' in the MTR of 2024-12-16 or 2025-11-10; its parts:"),
        (
            "704.5j",
            2,
            "error: '704.5j' is a CR rule number, not a part of the MTR; compare the CR's "
            "editions without --doc: `mtgrules diff --from DATE --to DATE 704.5j`",
        ),
        ("IPG 2.1", 2, "'IPG 2.1' is a part of the IPG, not of the MTR; compare its editions"),
    ):
        result = CliRunner().invoke(cli, [*span, part])
        assert result.exit_code == code, part
        assert said in result.stderr, part
    result = CliRunner().invoke(cli, [*span, "2.3"])
    assert result.exit_code == 0 and result.stdout.endswith(": 0 changes\n")


def test_sources_lists_the_documents(judge_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """sources says which document each file is."""
    payload = json.loads(run(judge_home, monkeypatch, "sources", "--json"))
    kinds = {d["source"]: d["document"] for d in payload["documents"]}
    assert kinds["MTR-20251110.html"] == "mtr" and kinds["IPG-20231113.html"] == "ipg"
    assert kinds["JAR-20240923.html"] == "jar"


def test_infraction_names_in_other_languages(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """term shows the IPG's infraction in Italian, French and Spanish, and leads to IPG 2.1."""
    output = run(judge_home, monkeypatch, "term", "déclenchement oublié")
    assert "innesco dimenticato" in output and "disparo olvidado" in output
    assert "IPG 2.1" in output


def test_an_infraction_named_verb_first_is_its_section(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "oublié un déclenchement", "il giocatore ha dimenticato un innesco": the infraction's
    name with its participle first ("déclenchement oublié", "innesco dimenticato"), and "un
    déclenchement" a trigger (curated: the noun judges use): IPG 2.1 first (603's rules
    before); "déclenchement" alone finds the trigger rules (it found nothing)."""
    for asked in (
        "oublié un déclenchement",
        "il giocatore ha dimenticato un innesco",
        "mi oponente olvidó un disparo",  # a preterite, the participle's verb ("disparo olvidado")
    ):
        assert found(judge_home, monkeypatch, asked)[0] == "IPG 2.1", asked
    assert run(judge_home, monkeypatch, "term", "déclenchement").startswith("trigger\n")


def test_players_words_for_a_missed_trigger_and_the_legend_rule_are_terms(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Players' words beside the judges' (curated): "un déclencheur oublié" is a missed trigger
    (IPG 2.1 first; IPG 1.2 and IPG 3 came before it, "found nowhere: déclencheur"), as is "my
    opponent forgot his trigger" (the IPG's and the JAR's; IPG 2.5 came first: "forgot" is
    "forget"), and "la
    règle légendaire", "la regola leggendaria", "la regla legendaria" the legend rule."""
    assert found(judge_home, monkeypatch, "quelle pénalité pour un déclencheur oublié")[0] == (
        "IPG 2.1"
    )
    timed = "que se passe-t-il quand le temps de la ronde est écoulé"  # it had IPG 3.1
    assert found(judge_home, monkeypatch, timed)[0] == "MTR 2.4"
    shortcut = "raccourci de tournoi : je passe jusqu'à la fin du tour"  # it had MTR 2.4
    assert found(judge_home, monkeypatch, shortcut)[0] == "MTR 4.2"
    advised = "un amigo me aconsejó desde fuera durante la partida"  # "aconsejar": advice
    assert found(judge_home, monkeypatch, advised)[0] == "IPG 3.2"
    forgot = found(judge_home, monkeypatch, "my opponent forgot his trigger")
    assert set(forgot[:2]) == {"IPG 2.1", "JAR a-player-forgets-a-triggered-ability"}
    for said in ("règle légendaire", "regola leggendaria", "regla legendaria"):
        assert run(judge_home, monkeypatch, "term", said).startswith("legend rule\n"), said


def test_judges_other_words_for_infractions_and_shortcuts_are_terms(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What judges type besides the names curated first: `scorciatoia`, `raccourci` (shortcut),
    `tricherie`, `retraso`, `problème de decklist`, `REL`, `banquillo` (each was not in the term
    base); `search REL` gives the levels' section first."""
    for word, concept in (
        ("scorciatoia", "shortcut"),
        ("raccourci", "shortcut"),
        ("tricherie", "cheating"),
        ("retraso", "tardiness"),
        ("problème de decklist", "decklist problem"),
        ("tournoi", "tournament"),  # `search tournoi` found nothing, offering "turno"
        ("REL", "rules enforcement level"),  # "not in the term base"
        ("banquillo", "sideboard"),
        ("réserve", "sideboard"),
        ("barare", "cheating"),
    ):
        assert run(judge_home, monkeypatch, "term", word).startswith(f"{concept}\n"), word
    assert found(judge_home, monkeypatch, "REL")[0] == "MTR 1.12"  # the JAR's introduction
    cheats = found(judge_home, monkeypatch, "il mio avversario bara, cosa faccio?")
    assert set(cheats[:2]) == {"IPG 4.8", "MTR 5.1"}  # both sections titled Cheating


def test_the_words_players_use_at_an_event_are_terms(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decklist, the opponent, shuffling, a table, an error, in the words players use (none
    was in the term base): "lista de mazo" is the decklist, so a Spanish decklist question
    reaches IPG 3.4 (Decklist Problem), which it missed."""
    for word, concept in (
        ("lista de mazo", "decklist"),
        ("liste de deck", "decklist"),
        ("rival", "opponent"),
        ("mescolare", "shuffle"),
        ("tavolo", "table"),
        ("erreur", "error"),
        ("mentir", "lie"),  # IPG 4.8: lying to a judge
        ("dessus", "top"),  # the top of a library
    ):
        assert run(judge_home, monkeypatch, "term", word).startswith(f"{concept}\n"), word
    asked = "en mi lista de mazo apunté una versión distinta del planeswalker que realmente juego"
    assert "IPG 3.4" in found(judge_home, monkeypatch, asked)[:3]


def test_a_judges_concept_names_its_section_in_every_language(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question that names a judge document's section by its title in another language
    (curated: the library has no translated MTR) is asked of that section first, with no
    tournament word in it; `term` lists the title's names."""
    for asked, key in (
        ("posso prendere appunti durante la partita?", "MTR 2.11"),
        ("puis-je prendre des notes pendant un match", "MTR 2.11"),
        ("¿puedo usar el teléfono durante la ronda?", "MTR 2.12"),
        ("come funzionano gli spareggi", "MTR 3.1"),
        ("posso usar protetores de cartas transparentes?", "MTR 3.11"),
    ):
        assert found(judge_home, monkeypatch, asked)[0] == key, asked
    output = run(judge_home, monkeypatch, "term", "appunti")
    assert output.startswith("taking notes\n") and "  fr  prendre des notes  — curated" in output


def test_judges_abbreviations_and_unsporting_conducts_degrees(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What judges write in every language: `GRV`, `FtMGS`, `HCE`, `DQ` (they found nothing),
    and Unsporting Conduct's degrees, `USC major`, `condotta antisportiva grave`, whose longer
    name wins over the chapter its first words title (IPG 4): the degree's section first."""
    for asked, key in (
        ("GRV", "IPG 2.5"),
        ("qual è la penalità per GRV", "IPG 2.5"),
        ("penalty for FtMGS", "IPG 2.6"),
        ("HCE at competitive", "IPG 2.3"),
        ("USC major", "IPG 4.2"),
        ("USC minor", "IPG 4.1"),
        ("condotta antisportiva grave", "IPG 4.2"),
        ("conducta antideportiva menor en competitivo", "IPG 4.1"),
        ("conduta antiesportiva grave", "IPG 4.2"),  # the Brazilian spelling
        ("condotta antisportiva lieve", "IPG 4.1"),
    ):
        assert found(judge_home, monkeypatch, asked)[0] == key, asked
    # "DQ" is a tournament's word: the penalties come first, not the CR's 205.3b.
    assert {"IPG 1.1", "IPG appendix-a"} <= set(
        found(judge_home, monkeypatch, "cosa succede dopo un DQ")[:2]
    )


def test_a_date_before_a_judge_documents_editions_names_its_editions(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--doc ipg --edition` of a date before every IPG names the IPG's editions loaded, not
    the CR's (which `--doc ipg` does not search)."""
    error = refused(
        judge_home,
        monkeypatch,
        "search",
        "missed trigger",
        "--doc",
        "ipg",
        "--edition",
        "2010-01-01",
    )
    assert error == (
        "error: no text of edition 2010-01-01 in the library; "
        "IPG editions loaded: 2023-11-13, 2024-09-23\n"
    )


def test_extra_cards_seen_or_drawn_as_judges_say_it(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cards seen or drawn "en trop", "de más": Looking at Extra Cards (IPG 2.2) or a Hidden Card
    Error (IPG 2.3) first (they found 701.20e and 121.2); at Regular REL an infraction named is
    judged by the JAR's part, not the IPG's."""
    for asked, key in (
        ("un joueur a regardé une carte en trop", "IPG 2.2"),
        ("el jugador miró cartas de más", "IPG 2.2"),
        ("el jugador robó una carta de más", "IPG 2.3"),
        ("pesca una carta in più", "IPG 2.3"),
        # A word inside the name, in a question: "pescato [per sbaglio] una carta di troppo".
        ("ho pescato per sbaglio una carta di troppo, che penalità prendo?", "IPG 2.3"),
    ):
        assert found(judge_home, monkeypatch, asked)[0] == key, asked
    # Drawing or seeing cards without "more than allowed" names no infraction: "robar cartas
    # de más" read as "robar cartas" put IPG 2.3 first for every question about drawing.
    for drawing in ("robar cartas", "pescare carte", "guardare carte", "ver cartas"):
        said = refused(judge_home, monkeypatch, "term", drawing)
        assert said.startswith(f"error: '{drawing}' is not in the term base"), said
    assert run(judge_home, monkeypatch, "term", "robar cartas extra").startswith(
        "hidden card error\n"
    )
    # At Regular REL an infraction named is the JAR's part, not the IPG's (IPG 2.1 came first).
    regular = "en REL Regular, déclenchement oublié"
    assert found(judge_home, monkeypatch, regular)[0] == "JAR a-player-forgets-a-triggered-ability"


def test_infraction_names_in_portuguese(judge_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Portuguese, the fifth language of the table, has the infractions' names too: `term
    atraso` is tardiness (IPG 3.1), and `assistência externa` finds IPG 3.2 first (a
    Brazilian judge's "penalidade por atraso" found 104.3k, nothing of the IPG's)."""
    output = run(judge_home, monkeypatch, "term", "atraso")
    assert output.startswith("tardiness\n") and "  pt  atraso  — curated: translated name" in output
    assert found(judge_home, monkeypatch, "assistência externa")[0] == "IPG 3.2"
    payload = json.loads(run(judge_home, monkeypatch, "search", "penalidade por atraso", "--json"))
    assert "IPG 3.1" in [r["key"] for r in payload["results"][:3]]


def test_a_player_who_comes_late_is_tardiness_in_every_language(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judges ask about lateness in everyday words ("arriva in ritardo", "arrive en retard",
    "llega tarde", "late"): IPG 3.1 Tardiness first in each language, asked or said ("un joueur
    arrive en retard" found 603.7g, a delayed trigger: "retard" alone names no infraction in a
    query that is no question; "penalty for being late" found IPG 1, the general philosophy)."""
    for asked in (
        "penalty for being late",
        "cosa succede se un giocatore arriva in ritardo",
        "que se passe-t-il si un joueur arrive en retard",
        "qué pasa si un jugador llega tarde",
        "un joueur arrive en retard",
        "un giocatore arriva in ritardo",
    ):
        assert found(judge_home, monkeypatch, asked)[0] == "IPG 3.1", asked


def test_a_question_in_another_language_finds_the_judge_documents_words(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "penalità", "pénalité", "penalización" are the judge documents' "penalty" (curated: no
    translated IPG in the library): searched in their English text, never "found nowhere"."""
    output = run(judge_home, monkeypatch, "term", "pénalité")
    assert output.splitlines()[0] == "penalty" and "penalità" in output
    for asked in ("un joueur oublie de piocher, quelle pénalité ?", "penalità per il gioco lento"):
        payload = json.loads(run(judge_home, monkeypatch, "search", asked, "--json"))
        assert payload["results"] and payload["results"][0]["document"] != "cr"
        assert not {"pénalité", "penalità"} & set(payload.get("missing", []))


def test_search_with_an_edition_shows_the_judge_sections_of_that_edition(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--edition 2024-09-23 --doc mtr: MTR 3.7 as it was then (Foundations the new set); the
    next edition's date gives its text (Aetherdrift), never a result with no text."""
    shown = {}
    for edition in ("2024-09-23", "2024-12-16"):
        payload = json.loads(
            run(judge_home, monkeypatch, "search", "--edition", edition, "--doc", "mtr",
                "new releases tournament legal", "--json")
        )  # fmt: skip
        result = payload["results"][0]
        assert result["key"] == "MTR 3.7" and len(result["records"]) == 1
        shown[edition] = result["records"][0]
    assert shown["2024-09-23"]["edition"] == "2024-09-23"
    assert "Foundations™ November 8, 2024" in shown["2024-09-23"]["text"]
    assert "Aetherdrift™ February 7, 2025" in shown["2024-12-16"]["text"]


def test_show_with_an_edition_shows_the_judge_part_of_that_edition(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "MTR 3.7" --edition 2024-11-08` is MTR 2024-09-23's 3.7, the one in effect that day
    (Foundations the new set), as search gives it, in a library of judge documents alone; the
    web page and the API too."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    payload = json.loads(
        run(judge_home, monkeypatch, "show", "MTR 3.7", "--edition", "2024-11-08", "--json")
    )
    (record,) = payload["results"][0]["records"]
    assert record["edition"] == "2024-09-23" and record["source"] == "MTR-20240923.html"
    assert "Foundations™ November 8, 2024" in record["text"]
    # A date after the MTR's December edition: that one, by the MTR's own dates.
    december = json.loads(
        run(judge_home, monkeypatch, "show", "MTR 3.7", "--edition", "2024-12-20", "--json")
    )
    assert december["results"][0]["records"][0]["edition"] == "2024-12-16"
    newest = json.loads(run(judge_home, monkeypatch, "show", "MTR 3.7", "--json"))
    assert newest["results"][0]["records"][0]["edition"] == "2025-11-10"
    client = TestClient(create_app(judge_home))
    api = client.get("/api/show/MTR 3.7", params={"edition": "2024-11-08"}).json()
    assert api["results"][0]["records"][0]["edition"] == "2024-09-23"
    page = client.get("/doc/mtr/3.7", params={"edition": "2024-11-08"}).text
    assert "Foundations™ November 8, 2024" in page


def test_a_date_before_a_judge_documents_first_edition_shows_none_of_it(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "MTR 3.7" --edition 2024-01-01`, before the oldest MTR here: an error naming the
    oldest edition (not today's MTR, silently); a search on that date says so on stderr and
    shows no MTR part; the web page is a 404 that links to that edition."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    shown = refused(judge_home, monkeypatch, "show", "MTR 3.7", "--edition", "2024-01-01")
    assert shown == (
        "error: no MTR in the library was in effect on 2024-01-01: its oldest edition here is"
        " 2024-09-23 (`mtgrules show 'MTR 3.7' --edition 2024-09-23`)\n"
    )
    searched = CliRunner().invoke(
        cli, ["search", "new releases", "--doc", "mtr", "--edition", "2024-01-01"]
    )
    assert searched.stderr.splitlines()[0] == (
        "note: no MTR here was in effect on 2024-01-01 (its oldest edition here: 2024-09-23)"
    )
    assert "MTR 3.7" not in searched.stdout
    page = TestClient(create_app(judge_home)).get("/doc/mtr/3.7", params={"edition": "2024-01-01"})
    assert page.status_code == 404
    assert '<a href="/doc/mtr/3.7?edition=2024-09-23">MTR 3.7</a>' in page.text


def test_a_judge_diff_of_two_dates_under_one_edition_says_so(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`diff --doc mtr` of two dates that both fall under MTR 2025-11-10 is not "0 changes":
    a usage error naming the edition both dates read as, and the editions there are."""
    args = ("diff", "--doc", "mtr", "--from", "2025-11-14", "--to", "2026-08-07")
    assert refused(judge_home, monkeypatch, *args, code=2).startswith(
        "error: --from 2025-11-14 and --to 2026-08-07 both read as the MTR 2025-11-10, the"
        " edition in effect on both dates; its editions here: 2024-09-23, 2024-12-16,"
        " 2025-11-10 (see `"
    )


def test_a_judge_document_named_alone_shows_its_contents(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show IPG` (any case) lists its parts in reading order, a section under its chapter,
    an infraction with its penalty; `show JAR` its parts with the common issues under theirs;
    --edition picks the edition in effect; --json gives the same list."""
    listed = run(judge_home, monkeypatch, "show", "ipg").splitlines()
    assert listed[:6] == [
        "IPG — Infraction Procedure Guide, 2024-09-23",
        "IPG introduction — Introduction",
        "IPG framework-of-this-document — Framework of this Document",
        "IPG 1 — General Philosophy",
        "  IPG 1.1 — Definition of Penalties",
        "  IPG 1.2 — Applying Penalties",
    ]
    assert "  IPG 3.8 — Tournament Error — Marked Cards · penalty: Warning" in listed
    assert listed[-1] == "show a part: mtgrules show 'IPG introduction'"
    jar = run(judge_home, monkeypatch, "show", "JAR").splitlines()
    assert jar[2:4] == [
        "JAR common-issues — Common Issues",
        "  JAR a-player-forgets-a-triggered-ability — A player forgets a triggered ability (one"
        " that uses the words “when,” “whenever,” or “at the beginning”, usually at the start of"
        " the ability's text)",
    ]
    older = json.loads(
        run(judge_home, monkeypatch, "show", "MTR", "--edition", "2024-11-01", "--json")
    )
    assert older["edition"] == "2024-09-23"
    assert older["editions"] == ["2024-09-23", "2024-12-16", "2025-11-10"]
    assert {"key": "MTR 3.11", "title": "Sleeves"} in older["contents"]
    early = refused(judge_home, monkeypatch, "show", "IPG", "--edition", "2020-01-01")
    assert early == (
        "error: no IPG in the library was in effect on 2020-01-01: its oldest edition here is"
        " 2023-11-13 (`mtgrules show IPG --edition 2023-11-13`)\n"
    )


def test_the_web_leads_to_each_judge_documents_contents(judge_home: Path) -> None:
    """The home page links to /doc/mtr, /doc/ipg and /doc/jar; each lists its parts as links
    that answer 200 (/doc/ipg/ and /doc/IPG too), an infraction with its penalty."""
    import re as regex

    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    home = client.get("/").text
    for doc in ("mtr", "ipg", "jar"):
        assert f'<a href="/doc/{doc}">{doc.upper()}</a>' in home
        contents = client.get(f"/doc/{doc}")
        assert contents.status_code == 200
        links = regex.findall(r'<li class="\w+"><a href="([^"]+)"', contents.text)
        assert len(links) >= 5
        assert all(client.get(link).status_code == 200 for link in links)
    assert client.get("/doc/ipg/").text == client.get("/doc/IPG").text
    assert '<span class="penalty">penalty: Game Loss</span>' in client.get("/doc/ipg").text


def test_a_document_named_alone_as_a_rule_opens_its_contents(judge_home: Path) -> None:
    """/rule/IPG (as `show IPG` lists the IPG's parts) leads to /doc/ipg, its query kept: the
    rule page had only a heading and two links that failed (/history/IPG, a diff of 'IPG')."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    for written, doc in (("IPG", "ipg"), ("mtr", "mtr"), ("JAR", "jar")):
        moved = client.get(f"/rule/{written}", params={"lang": "en"}, follow_redirects=False)
        assert moved.status_code == 307
        assert moved.headers["location"] == f"/doc/{doc}?lang=en"
        assert client.get(f"/rule/{written}").text == client.get(f"/doc/{doc}").text


def test_the_penalty_quick_reference_is_read_row_by_row(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "IPG appendix-a"`: the table its PDF ran into one paragraph is shown a row per
    line (an infraction and its penalty), each chapter's name on a line above its rows; the
    text as stored is unchanged."""
    lines = [
        line.strip() for line in run(judge_home, monkeypatch, "show", "IPG appendix-a").splitlines()
    ]
    start = lines.index("Appendix A — Penalty Quick Reference")
    assert lines[start : start + 6] == [
        "Appendix A — Penalty Quick Reference",
        "Infraction Penalty",
        "Game Play Errors",
        "Missed Trigger None",
        "Looking at Extra Cards Warning",
        "Hidden Card Error Warning",
    ]
    assert "Tournament Errors" in lines and "Slow Play Warning" in lines
    at = lines.index("Unsporting Conduct")
    assert lines[at + 1 : at + 3] == [
        "Unsporting Conduct — Minor Warning",
        "Unsporting Conduct — Major Match Loss",
    ]
    assert lines[-1] == "Cheating Disqualification"


def test_a_part_found_by_its_notes_is_headed_with_its_title_and_penalty(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`search "slow play" --kind note`: only the infraction's notes are shown, under its
    heading with its name and penalty, as without --kind; the web result says them too."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    out = run(judge_home, monkeypatch, "search", "slow play", "--kind", "note", "--doc", "ipg")
    assert out.splitlines()[0].startswith(
        "IPG 3.3 — Tournament Error — Slow Play · penalty: Warning ["
    )
    assert "  en  note of IPG 3.3 · note · " in out
    page = TestClient(create_app(judge_home)).get(
        "/", params={"q": "slow play", "kind": "note", "doc": "ipg"}
    )
    assert '<span class="title">— Tournament Error — Slow Play</span>' in page.text
    assert '<span class="penalty">penalty: Warning</span>' in page.text


def test_a_judge_parts_heading_and_steps_are_lines_of_their_own(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "MTR 2.3"`: its heading, then its text, each numbered step on a line of its own (the
    text as parsed, one paragraph, is unchanged); an appendix's heading ("Appendix B — Time
    Limits") on its own line too; a JAR issue's situation apart from its remedy;
    the web page breaks the lines alike."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    lines = run(judge_home, monkeypatch, "show", "MTR 2.3").splitlines()
    assert lines[2:4] == [
        "      2.3 Pregame Procedures",
        "      The following steps must be performed in a timely manner before each game begins:",
    ]
    assert lines[4].startswith("      1. If sideboarding is allowed, players may remove cards")
    assert "      2. Players shuffle their decks. Steps 1 and 2 may be repeated." in lines
    issue = run(judge_home, monkeypatch, "show", "JAR a-player-sees-a-card-in-a-library")
    assert (
        "      A player sees a card in a library that they shouldn’t have seen\n      Shuffle"
        in issue
    )
    appendix = run(judge_home, monkeypatch, "show", "MTR appendix-b").splitlines()
    assert appendix[2] == "      Appendix B — Time Limits"
    assert appendix[3].startswith("      The required minimum time limit for any match is 40")
    page = TestClient(create_app(judge_home)).get("/doc/mtr/2.3").text
    assert "2.3 Pregame Procedures<br>The following steps" in page
    assert "begins:<br>1. If sideboarding" in page


def test_a_judge_parts_bullets_examples_and_subheadings_are_lines_of_their_own(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "IPG 2.1"`: each bullet of its definition and each lettered example (A., B. …) on a
    line of its own; `show "MTR 1.12"`: a level's subheading apart from its text, which repeats
    it ("Regular Regular tournaments…" ran together). The texts as parsed are unchanged."""
    lines = run(judge_home, monkeypatch, "show", "IPG 2.1").splitlines()
    assert sum(line.startswith("      • A triggered ability") for line in lines) == 4
    assert "      Examples:" in lines
    assert any(line.startswith("      B. A player forgets to remove") for line in lines)
    levels = run(judge_home, monkeypatch, "show", "MTR 1.12").splitlines()
    assert "      Regular" in levels and "      Competitive" in levels
    assert any(line.startswith("      Regular tournaments are focused") for line in levels)


def test_show_of_a_judge_part_in_a_language_it_is_not_in_says_so(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "MTR 2.3" --lang it`: the part is there, in English only; not "no MTR 2.3"."""
    assert refused(judge_home, monkeypatch, "show", "MTR 2.3", "--lang", "it") == (
        "error: the library has no Italian text of MTR 2.3 (the MTR is in English only); "
        "show it without --lang\n"
    )


def test_searching_a_judge_document_in_a_language_it_is_not_in_says_so(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--lang es --doc ipg finds nothing, and says the IPG is in English only here, with the fix;
    the web's search page says the same."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    result = CliRunner().invoke(
        cli, ["search", "--lang", "es", "--doc", "ipg", "juego lento"], catch_exceptions=False
    )
    assert result.exit_code == 1
    assert result.output == (
        "error: no rules match 'juego lento'; the Infraction Procedure Guide is in English only "
        "here, not in Spanish; search it with --lang en or without --lang (a question in any "
        "language reaches its text)\n"
    )
    page = TestClient(create_app(judge_home)).get(
        "/", params={"q": "juego lento", "lang": "es", "doc": "ipg"}
    )
    assert "The Infraction Procedure Guide is in English only here" in page.text


def test_a_filter_typed_as_a_word_is_refused_with_the_option_to_use(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "doc:ipg lateness" is not query syntax: exit 2, naming --doc ipg."""
    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    result = CliRunner().invoke(cli, ["search", "doc:ipg lateness"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "'doc:ipg' is not query syntax; filter with the option instead: --doc ipg" in (
        result.output
    )


def test_web_doc_page_shows_penalty_edition_and_links(judge_home: Path) -> None:
    """/doc/ipg/2.1: the infraction with its penalty, its edition and its citations as links;
    the search page has the document filter."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    page = client.get("/doc/ipg/2.1")
    assert page.status_code == 200
    assert "Infraction Procedure Guide IPG 2.1" in page.text
    assert "penalty: No Penalty" in page.text and "2024-09-23" in page.text
    assert '<a href="/doc/mtr/4.3">MTR section 4.3</a>' in page.text
    assert client.get("/doc/mtr/2.3").text.count('href="/doc/mtr/2.2"') >= 1
    assert client.get("/doc/MTR/2.3").status_code == 200  # any case, as the command line
    search = client.get("/", params={"q": "tardiness", "doc": "ipg"})
    assert 'name="doc" value="ipg" checked' in search.text
    assert 'href="/doc/ipg/3.1"' in search.text


def test_web_diff_compares_a_judge_documents_own_editions(judge_home: Path) -> None:
    """/diff?doc=mtr offers the MTR's editions only and compares them (the page offered every
    document's dates, mixed, and ignored doc=, so a judge date failed); /api/diff takes doc=
    too; an unknown doc is a 400 naming the documents; every link on the page answers."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    page = client.get("/diff", params={"doc": "mtr", "from": "2024-12-16", "to": "2025-11-10"})
    assert page.status_code == 200
    offered = re.search(r'<select name="from">(.*?)</select>', page.text)
    assert offered and re.findall(r">(\d{4}-\d\d-\d\d)<", offered[1]) == [
        "2024-09-23",
        "2024-12-16",
        "2025-11-10",
    ]
    assert "MTR 2024-12-16 → 2025-11-10: 18 changes" in page.text
    api = client.get("/api/diff", params={"doc": "mtr", "from": "2024-12-16", "to": "2025-11-10"})
    assert api.status_code == 200 and len(api.json()["changes"]) == 18
    wrong = client.get("/diff", params={"doc": "xyz"})
    assert wrong.status_code == 400 and "doc: one of cr, mtr, ipg, jar" in wrong.text
    for link in set(re.findall(r'href="(/[^"]*)"', page.text)):
        assert client.get(link).status_code == 200, link


def test_web_home_and_judge_pages_keep_each_documents_dates_and_languages(
    judge_home: Path,
) -> None:
    """The home page lists the judge documents' editions by document, apart from the CR's
    (they were mixed in as English CR editions), and a judge section with no Spanish text says
    the document is not in Spanish here, not which CR sections the Spanish documents cover."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    home_page = " ".join(re.sub(r"<[^>]+>", " ", client.get("/").text).split())
    assert "IPG 2023-11-13, 2024-09-23; JAR 2024-09-23; MTR 2024-09-23, 2024-12-16, 2025-11-10" in (
        home_page
    )
    page = client.get("/doc/ipg/2.1", params={"lang": "en,es"})
    assert page.status_code == 200
    assert "no Spanish text for IPG 2.1: the IPG is not in Spanish here" in page.text


def test_cr_lookups_unchanged_beside_the_judge_documents(
    judge_home: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """show 205.4 and 205 answer the same with the MTR, IPG and JAR loaded as without them."""
    run(home, monkeypatch, "index")  # the seeds alone
    for rule in ("205.4", "205", "205.4d."):
        beside = json.loads(run(judge_home, monkeypatch, "show", rule, "--json"))
        alone = json.loads(run(home, monkeypatch, "show", rule, "--json"))
        assert beside == alone
        assert {r["document"] for r in beside["results"]} == {"cr"}


def test_ban_list_columns_read_one_at_a_time(shared_data: Path) -> None:
    """The MTR's two-column ban lists are read a column at a time: each card its own item."""
    legacy = next(r for r in judge(shared_data, "MTR-20251110").records if r.key == "MTR 6.6")
    assert "• Memory Jar • Mental Misstep • Mind Twist • Mishra’s Workshop • Mox Emerald" in (
        legacy.text
    )
    assert "(25 cards) • All cards that reference “playing for ante” (9 cards)" in legacy.text


def test_a_list_beside_a_paragraph_keeps_each_item_on_its_line(shared_data: Path) -> None:
    """MTR 2024-09-23 and 2024-12-16's Legacy list stands beside a paragraph whose lines are a
    pixel closer together: "Mox Pearl", 7 px under a line of the paragraph, was read into it
    ("• Mox Jet Mox Pearl • •"), and `diff --doc mtr` saw bullets move that did not."""
    for edition in ("MTR-20240923", "MTR-20241216", "MTR-20251110"):
        legacy = next(r for r in judge(shared_data, edition).records if r.key == "MTR 6.6")
        assert "• Mox Emerald • Mox Jet • Mox Pearl • Mox Ruby •" in legacy.text, edition
        assert "• •" not in legacy.text, edition


def test_a_longer_left_column_keeps_its_last_items_in_their_place(shared_data: Path) -> None:
    """A two-column list whose left column runs a row longer than its right: the left's last
    item is read before the right column, not after it (Modern's set list and ban list)."""
    modern = next(r for r in judge(shared_data, "MTR-20251110").records if r.key == "MTR 6.4")
    assert "Oath of the Gatewatch™ • Shadows over Innistrad™ • Eldritch Moon™" in modern.text
    assert "Lurrus of the Dream-Den • Mental Misstep • Mycosynth Lattice • Mystic" in modern.text
    assert modern.text.endswith("Yorion, Sky Nomad")


def test_a_longer_left_column_beside_a_wrapped_right_item_keeps_its_place(
    shared_data: Path,
) -> None:
    """MTR 2024-09-23's Modern and Pioneer lists: the left column's last items stand beside
    the right column's last item wrapped ("… Foundations (effective" / "November 8, 2024)"):
    they are read in the left column, and the wrapped item whole, so `diff --doc mtr` does not
    see Fate Reforged moved."""
    records = {r.key: r.text for r in judge(shared_data, "MTR-20240923").records}
    modern, pioneer = records["MTR 6.4"], records["MTR 6.7"]
    assert "Khans of Tarkir™ • Fate Reforged™ • Dragons of Tarkir™ • Magic Origins™ • Battle" in (
        modern
    )
    assert "• Magic: The Gathering Foundations (effective November 8, 2024) The following" in (
        modern
    )
    assert "Ravnica Allegiance • War of the Spark • " in pioneer


NEWEST_JUDGE_FILES = ("MTR-20251110.html", "IPG-20240923.html", "JAR-20240923.html")


def judges_library(home: Path, shared_data: Path, more: list[Path], meaning: str) -> Path:
    """The newest MTR and IPG, the JAR, English 2026-08-07 and `more`, added and indexed."""
    files = [shared_data / "judge" / name for name in NEWEST_JUDGE_FILES]
    files += [shared_data / "cr" / "en" / "MagicCompRules-20260807.txt", *more]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        patch.setenv("MTGRULES_MEANING", meaning)
        assert CliRunner().invoke(cli, ["add", *map(str, files)]).exit_code == 0
        assert CliRunner().invoke(cli, ["index"]).exit_code == 0
    return home


@pytest.fixture(scope="module")
def judges_and_rules(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """The newest MTR and IPG, the JAR and English 2026-08-07, with their vectors."""
    return judges_library(tmp_path_factory.mktemp("judges-and-rules"), shared_data, [], "inline")


def test_a_tournament_question_is_answered_by_the_judge_documents_first(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked of a tournament ("torneo"), the judge documents' sections are ranked among
    themselves and come first: MTR 2.10 (dropping from a tournament) among the first three,
    which the CR's rules on leaving a game had pushed out of the first ten; a game's question
    gets the CR's rule."""
    asked = "voglio abbandonare il torneo dopo il terzo turno, a chi devo dirlo e entro quando"
    payload = json.loads(run(judges_and_rules, monkeypatch, "search", asked, "--json"))
    keys = [r["key"] for r in payload["results"]]
    assert "MTR 2.10" in keys[:3]
    assert all(doc_of_key(key) != "cr" for key in keys[:5])
    game = "what happens if a player has 0 life"
    payload = json.loads(run(judges_and_rules, monkeypatch, "search", game, "--json"))
    assert payload["results"][0]["key"] == "704.5a"


def test_a_tournament_question_in_a_language_the_judge_documents_lack_says_so(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--lang it` keeps the Italian texts, which have no IPG: a question that names an
    infraction is told the judge documents are left out (a newcomer's `marked cards --lang es`
    got Spanish rules about cards, and no word of IPG 3.8); a game's question is not."""
    monkeypatch.setenv("MTGRULES_HOME", str(judges_and_rules))
    asked = ["search", "carte segnate", "--lang", "it", "--json"]
    payload = json.loads(CliRunner().invoke(cli, asked, catch_exceptions=False).stdout)
    assert payload["results"] and all(r["lang"] == "it" for r in payload["results"][0]["records"])
    assert payload["note"] == (
        "the MTR, IPG and JAR are in English only here: --lang it leaves them out (search "
        "without --lang for them)"
    )
    game = ["search", "regola delle leggende", "--lang", "it", "--json"]
    assert "note" not in json.loads(CliRunner().invoke(cli, game, catch_exceptions=False).stdout)


def test_the_search_page_says_what_the_command_line_notes_beside_results(
    judges_and_rules: Path,
) -> None:
    """The search page says beside its results what `search` notes on stderr: the judge
    documents left out by a language (`carte segnate`, Italian ticked) and the close words of
    a word found nowhere (`regola stazionarre`: stazionare), as a link."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    with TestClient(create_app(judges_and_rules)) as client:
        page = client.get("/", params={"q": "carte segnate", "lang": "it"}).text
        assert "The MTR, IPG and JAR are in English only here:" in page
        page = client.get("/", params={"q": "regola stazionarre"}).text
        assert "(found nowhere: stazionarre). Did you mean: " in page
        assert '<a href="/?q=stazionare">stazionare</a>' in page


def test_at_regular_rel_a_situation_gets_the_jars_part_for_it(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At Regular REL the JAR's part for the infraction a situation is comes first, though no
    infraction is named: two cards drawn instead of one is "A player accidentally draws more
    cards" (the JAR's introduction, which shares every part's words, came first). A level
    said in parentheses is an aside, not a group of required words (it found nothing)."""
    drew = "En REL régulier mon adversaire a pioché deux cartes au lieu d'une, comment on répare ?"
    assert found(judges_and_rules, monkeypatch, drew)[0] == (
        "JAR a-player-accidentally-draws-more-cards-or-has"
    )
    saw = (
        "Al torneo del venerdì (REL Regular) un giocatore mentre mescolava ha visto per "
        "sbaglio una carta del suo grimorio: cosa si fa?"
    )
    assert "JAR a-player-sees-a-card-in-a-library" in found(judges_and_rules, monkeypatch, saw)[:3]


def test_the_words_that_only_ask_a_judge_do_not_rank_the_judge_documents(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "pénalité", "torneo", "REL Competitive" say a tournament's question, and every part of
    the judge documents has them: searched among those parts, they put the IPG's introduction
    and its chapters first (IPG 3, IPG introduction, IPG 1.2 for a sorcery cast in the
    opponent's turn; IPG introduction, IPG 3, IPG 3.4 for holographic sleeves). The rest of the
    question ranks them; the encoder still reads it whole."""
    sorcery = found(
        judges_and_rules,
        monkeypatch,
        "pénalité rituel lancé pendant le tour adverse REL compétitif",
    )
    assert "IPG 2.5" in sorcery[:3], sorcery
    sleeves = "Le bustine con l'ologramma sul retro sono ammesse in un torneo a REL Competitive?"
    assert "MTR 3.11" in found(judges_and_rules, monkeypatch, sleeves)[:3]
    for keys in (sorcery, found(judges_and_rules, monkeypatch, sleeves)):
        assert not {"IPG introduction", "IPG 3", "IPG 1.2"} & set(keys[:3]), keys


def test_a_games_extra_turns_are_not_the_end_of_match_procedure(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cards name a game's extra turns "turno extra", "tour supplémentaire", "turno adicional"
    (500.7; learned from card text): the curated names of MTR 2.4, the additional turns at a
    round's end, no longer include them (`dos turnos extra` asked the MTR first)."""
    keys = found(judges_and_rules, monkeypatch, "dos turnos extra")
    assert keys[0] == "500.7" and "MTR 2.4" not in keys[:3], keys
    assert run(judges_and_rules, monkeypatch, "term", "turno extra").startswith("extra turn\n")
    names = run(judges_and_rules, monkeypatch, "term", "end-of-match procedure")
    assert "turnos extra" not in names and "procedimiento de fin de ronda" in names


def test_a_loop_in_spanish_or_french_is_the_mtrs_loops(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judges say "bucle" and "boucle" (the Spanish CR's own word beside "repetición", which
    the term base had learned alone): asked of a tournament, MTR 4.4 Loops comes first (the
    MTR's chapter headings did, nearest by meaning)."""
    for asked in (
        "Tengo un combo infinito en un torneo, ¿cómo tengo que anunciar el bucle?",
        "comment annoncer une boucle en tournoi",
    ):
        assert found(judges_and_rules, monkeypatch, asked)[0] == "MTR 4.4", asked


def test_an_infraction_named_in_any_language_is_its_section(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The IPG's infraction is named by what follows its category ("Game Play Error — Missed
    Trigger"): its curated Spanish name alone, and a question around the Italian or Spanish
    name, whose other words ("penalità") fit every IPG section, have IPG 2.1 among the first
    three (on the full library the Spanish name had 603 first, and the questions IPG 1.2,
    IPG 3, IPG 1.1 and IPG 4.2 without IPG 2.1 in the first five)."""
    for asked in (
        "disparo olvidado",
        "qual è la penalità per un innesco dimenticato",
        "cuál es la penalización por un disparo olvidado",
    ):
        payload = json.loads(run(judges_and_rules, monkeypatch, "search", asked, "--json"))
        assert "IPG 2.1" in [r["key"] for r in payload["results"][:3]], asked


def test_drawing_an_extra_card_in_english_is_the_hidden_card_error(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The everyday English of IPG 2.3's commonest case names it, as the Italian, French and
    Spanish everyday names do: "drew an extra card" (a verb's past read as its present) and
    "penalty for drawing an extra card" (whole but for the word that only asks a judge) have
    IPG 2.3 first, not IPG 2.2, Looking at Extra Cards, whose title shares "extra cards"."""
    for asked in ("drew an extra card", "penalty for drawing an extra card"):
        assert found(judges_and_rules, monkeypatch, asked)[0] == "IPG 2.3", asked


def test_an_infraction_meant_by_other_words_is_its_section(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Words the term base has not for an infraction, near all its names by the encoder ("aiuto
    esterno", "ayuda externa": Outside Assistance, curated as "assistenza esterna", "asistencia
    externa") ask for it, first, alone or in a question (without it: 710.1c, Station, and IPG
    1.2 for the question); words that share only "cartas" with "cartas marcadas" do not."""
    for asked in ("aiuto esterno", "ayuda externa", "penalità per aiuto esterno"):
        payload = json.loads(run(judges_and_rules, monkeypatch, "search", asked, "--json"))
        assert payload["results"][0]["key"] == "IPG 3.2", asked
    monkeypatch.setenv("MTGRULES_HOME", str(judges_and_rules))
    said = CliRunner().invoke(cli, ["search", "aiuto esterno"]).stderr
    assert "found nowhere" not in said  # the infraction's names found it, not its words
    asked = "si dos cartas van a mi cementerio a la vez, ¿en qué orden las pongo?"
    payload = json.loads(run(judges_and_rules, monkeypatch, "search", asked, "--json"))
    assert "IPG 3.8" not in [r["key"] for r in payload["results"][:5]]


def test_a_part_as_of_a_date_before_every_edition_names_its_documents_first(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "MTR 3.7" --edition 2020-01-01`, before the CR's edition too: the MTR's oldest
    edition is named (it listed the CR's editions), as for a date after the CR's."""
    monkeypatch.setenv("MTGRULES_HOME", str(judges_and_rules))
    result = CliRunner().invoke(cli, ["show", "MTR 3.7", "--edition", "2020-01-01"])
    assert result.exit_code == 1
    assert result.stderr == (
        "error: no MTR in the library was in effect on 2020-01-01: its oldest edition here is "
        "2025-11-10 (`mtgrules show 'MTR 3.7' --edition 2025-11-10`)\n"
    )


def test_a_date_before_the_crs_first_edition_says_so_when_judge_documents_answer(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On 2025-01-01 the IPG and the JAR here were in effect, no CR edition here yet: `show
    704.5a` names the CR's oldest edition (it said "no rule 704.5a in the library"), and a
    search's note names the CR among the documents not yet in effect."""
    assert refused(judges_and_rules, monkeypatch, "show", "704.5a", "--edition", "2025-01-01") == (
        "error: no CR in the library was in effect on 2025-01-01: its oldest edition here is "
        "2026-08-07 (`mtgrules show 704.5a --edition 2026-08-07`)\n"
    )
    result = CliRunner().invoke(cli, ["search", "trample", "--edition", "2025-01-01"])
    assert result.stderr.startswith(
        "note: no CR or MTR here was in effect on 2025-01-01 (their oldest editions here: CR"
        " 2026-08-07, MTR 2025-11-10)\n"
    )


def test_a_query_of_english_words_asks_no_infraction_of_the_encoder(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """English names are in the term base as printed: `legend rule` (two English words) is not
    encoded to look for an infraction it may mean, which loaded the encoder for a search by
    words; `aide extérieure` is."""
    from search.meaning import Meaning
    from search.parse import parse
    from search.session import open_engine

    asked: list[list[str]] = []
    embed = Meaning.embed
    monkeypatch.setattr(
        Meaning, "embed", lambda self, texts: asked.append(texts) or embed(self, texts)
    )
    monkeypatch.setenv("MTGRULES_HOME", str(judges_and_rules))
    with open_engine() as engine:
        assert engine.judge_naming.meant(parse("legend rule", engine)) == set()
        assert asked == []
        assert engine.judge_naming.meant(parse("aide extérieure", engine)) == {"IPG 3.2"}
        assert ["aide extérieure"] in asked


def test_an_infraction_is_meant_by_the_words_its_names_do_not_share(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two words near an infraction's names by the one they share are not its name: "cartes
    donnent" (cartes marquées) made a question about two extra turns one of Marked Cards, IPG
    3.8 first. "carte marcate" means them by "marcate" too; "gioco troppo lento" is mostly
    Slow Play's own words."""
    from search.parse import parse
    from search.session import open_engine

    monkeypatch.setenv("MTGRULES_HOME", str(judges_and_rules))
    question = "deux cartes me donnent chacune un tour supplémentaire : dans quel ordre ?"
    with open_engine() as engine:
        assert engine.judge_naming.meant(parse(question, engine)) == set()
        assert engine.judge_naming.meant(parse("cartas van", engine)) == set()
        assert engine.judge_naming.meant(parse("carte marcate", engine)) == {"IPG 3.8"}
        assert engine.judge_naming.meant(parse("gioco troppo lento", engine)) == {"IPG 3.3"}


@pytest.fixture(scope="module")
def judges_and_spanish(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """The newest MTR and IPG, the JAR, English 2026-08-07 and the Spanish CR (words only)."""
    pdf = shared_data / "cr" / "es" / "magic_rules_clean.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} is absent")
    home = tmp_path_factory.mktemp("judges-and-spanish")
    return judges_library(home, shared_data, [pdf], "off")


def test_an_infraction_named_anywhere_in_a_question_is_asked_for(
    judges_and_spanish: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A question with no tournament word that names an infraction anywhere ("…arrive en
    retard": tardiness) asks for its section: IPG 3.1 first (beside the Spanish CR it was
    third, behind 303.4h and IPG 4.6)."""
    asked = "que se passe-t-il si un joueur arrive en retard"
    payload = json.loads(run(judges_and_spanish, monkeypatch, "search", asked, "--json"))
    assert payload["results"][0]["key"] == "IPG 3.1"


def test_an_infractions_name_alone_finds_it_in_every_language(
    judges_and_spanish: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "cartas marcadas", "carte segnate", "cartes marquées", "marked cards": the Marked Cards
    infraction (IPG 3.8) and the MTR's section in the top 2, though the Spanish stemmer reads
    "marcadas" as "marco" (a frame: 718 Prototype Cards came first)."""
    for named in ("cartas marcadas", "carte segnate", "cartes marquées", "marked cards"):
        payload = json.loads(run(judges_and_spanish, monkeypatch, "search", named, "--json"))
        assert {r["key"] for r in payload["results"][:2]} == {"IPG 3.8", "MTR 3.12"}, named


def test_every_result_of_a_document_filter_has_its_records(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The encoder's nearest texts are of every document: with --doc cr the IPG's are left out,
    not shown as results with no text, and a tournament's question has no empty result among
    the judge documents' five."""
    asked = "what is the penalty for drawing an extra card at competitive"
    for doc in ("cr", "ipg"):
        results = json.loads(
            run(judges_and_rules, monkeypatch, "search", asked, "--doc", doc, "--json")
        )["results"]
        assert results and all(r["document"] == doc and r["records"] for r in results)
    everywhere = json.loads(run(judges_and_rules, monkeypatch, "search", asked, "--json"))
    assert all(r["records"] for r in everywhere["results"])
    assert everywhere["results"][0]["document"] == "ipg"


def test_a_missing_part_of_a_document_in_the_library_says_what_it_has(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """show "MTR 9.9" with the MTR loaded: one line, exit 1, naming the chapter's sections (not
    "add the document"); a chapter the MTR lacks names its chapters."""
    for asked, said in (
        ("MTR 9.9", "its chapter MTR 9 has MTR 9.1 to MTR 9.7 (`mtgrules show 'MTR 9'`)"),
        ("ipg 7.1", "its chapters are IPG 1 to IPG 4 (`mtgrules show 'IPG 1'`)"),
    ):
        part = asked.upper()
        assert refused(judge_home, monkeypatch, "show", asked).splitlines() == [
            f"error: the {part[:3]} in the library has no {part}; {said}"
        ]
    # A section asked as a CR subrule is written: said as asked ("2-1a" was), and sent to it.
    assert refused(judge_home, monkeypatch, "show", "IPG 2.1a").splitlines() == [
        "error: the IPG in the library has no IPG 2.1a: its sections are not lettered "
        "(`mtgrules show 'IPG 2.1'`)"
    ]


def test_a_judge_parts_history_is_across_its_own_documents_editions(judge_home: Path) -> None:
    """The part's page links to "History across MTR editions", and the history page is headed
    so: the MTR's own editions, not the CR's."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    assert ">History across MTR editions</a>" in client.get("/doc/mtr/3.13").text
    # and to what changed in it between the MTR's two newest editions, as a CR rule's page does
    link = (
        '<a href="/diff?doc=mtr&amp;from=2024-12-16&amp;to=2025-11-10&amp;rule=MTR+3.13">'
        "What changed in this part (2024-12-16 → 2025-11-10)</a>"
    )
    assert link in client.get("/doc/mtr/3.13").text
    changed = client.get("/diff?doc=mtr&from=2024-12-16&to=2025-11-10&rule=MTR+3.13")
    assert changed.status_code == 200 and "1 change</h2>" in changed.text
    page = client.get("/history/MTR 3.13")
    assert page.status_code == 200
    assert "<h1>History of MTR 3.13 across MTR editions</h1>" in page.text


def test_the_home_page_counts_the_crs_examples_not_the_judge_documents(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """English with the judge documents: the CR line counts 2026-08-07's 277 examples and no
    notes (it said 302 examples and 48 notes "(in 2026-08-07)": the IPG's were summed in)."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    monkeypatch.setenv("MTGRULES_HOME", str(tmp_path))
    files = [
        *sorted((shared_data / "judge").glob("*.html")),
        shared_data / "cr/en/MagicCompRules-20260807.txt",
    ]
    assert CliRunner().invoke(cli, ["add", *map(str, files)]).exit_code == 0
    assert CliRunner().invoke(cli, ["index"]).exit_code == 0
    home = TestClient(create_app(tmp_path)).get("/").text
    assert "147 sections from 100 to 905; 277 examples; 739 glossary entries</td>" in home


def test_nothing_in_the_document_asked_names_the_one_that_has_it(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`search tiebreakers --doc ipg` finds nothing in the IPG and says the MTR's 3.1 has it
    (it said only "no rules match")."""
    error = refused(judge_home, monkeypatch, "search", "tiebreakers", "--doc", "ipg")
    assert error == (
        "error: no rules match 'tiebreakers'; no IPG text matches it; MTR 3.1 does: search "
        "without --doc\n"
    )


def test_search_brief_gives_an_infractions_title_and_penalty(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`search --brief` lists a judge document's parts by their titles, an IPG infraction with
    its penalty, one line each (the whole parts ran to a hundred lines)."""
    out = run(judge_home, monkeypatch, "search", "--brief", "--doc", "ipg", "marked cards")
    assert "IPG 3.8 — Tournament Error — Marked Cards · penalty: Warning" in out.splitlines()
    assert all(line.startswith("IPG ") for line in out.splitlines())
    found = json.loads(run(judge_home, monkeypatch, "search", "--json", "--doc", "ipg", "marked"))
    marked = next(r for r in found["results"] if r["key"] == "IPG 3.8")  # as --brief, in JSON
    assert (marked["title"], marked["penalty"]) == ("Tournament Error — Marked Cards", "Warning")


def test_a_level_or_asking_word_is_never_found_nowhere(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "compétitif" in a tournament's question chose the IPG: it is understood, and the note no
    longer says it was found nowhere (the judge documents are in English)."""
    monkeypatch.setenv("MTGRULES_HOME", str(judge_home))
    result = CliRunner().invoke(
        cli, ["search", "quelle pénalité pour jeu lent en REL compétitif"], catch_exceptions=False
    )
    assert result.exit_code == 0 and "found nowhere" not in result.stderr
    assert result.stdout.startswith("IPG 3.3")


def test_the_home_page_offers_a_judges_questions_that_find_their_parts(judge_home: Path) -> None:
    """With the judge documents in the library, the home page's examples include a judge's
    questions in four languages, and each finds its part among the best two (the examples
    were the CR's alone)."""
    from starlette.testclient import TestClient

    from search.web.app import create_app
    from search.web.pages import JUDGE_EXAMPLES

    client = TestClient(create_app(judge_home))
    home_page = client.get("/").text
    assert "A judge’s questions:" in home_page
    best_two = []
    for _, question in JUDGE_EXAMPLES:
        assert html.escape(question, quote=False) in home_page
        found = client.get("/api/search", params={"q": question}).json()["results"]
        best_two.append({r["key"] for r in found[:2]})
    # Marked Cards and Outside Assistance are an MTR section and an IPG infraction each.
    for wanted, two in zip(("IPG 3.8", "IPG 3.1", "IPG 2.1", "IPG 3.2"), best_two, strict=True):
        assert wanted in two, two


@pytest.mark.shared_data
def test_a_question_asked_in_other_words_reaches_the_answer_of_one_like_it(
    judges_and_rules: Path,
    monkeypatch: pytest.MonkeyPatch,
):
    """`can a creature with summoning sickness attack` has 302.6 first (its answer to `can a
    summoning sick creature use a tap ability`); without the answered questions it is not in
    the first five (the words put the attack rules first)."""
    asked = "can a creature with summoning sickness attack"
    assert found(judges_and_rules, monkeypatch, asked)[0] == "302.6"
    monkeypatch.setattr(meaning, "ANSWERED_FLOOR", 2.0)
    assert "302.6" not in found(judges_and_rules, monkeypatch, f"{asked} ")[:5]


@pytest.mark.shared_data
def test_the_build_keeps_each_answered_question_with_its_keys(judges_and_rules: Path):
    """With English 2026-08-07 and the judge documents, every question has its keys: a rule's
    number, a judge section, a JAR part found by its text."""
    folder = next((judges_and_rules / "index").glob("build-*"))
    entries = json.loads((folder / "answered.keys").read_text(encoding="utf-8"))
    by_source = {e["source"]: e["keys"] for e in entries}
    assert by_source["judge-tuning.tsv:jt001"] == ["MTR 3.9"]
    assert by_source["questions-tuning.tsv:q011"] == ["302.6", "602.5a"]
    drew = by_source["questions-10.tsv:b027"]
    assert drew == ["JAR a-player-accidentally-draws-more-cards-or-has"]


def test_history_and_diff_take_a_judge_sections_title_as_show_does(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`history Tardiness` is IPG 3.1's, `diff --doc ipg … "Deck Problem"` IPG 3.5's and
    `diff --doc mtr … "Hidden Information"` MTR 3.13's (each was "not a rule number"); a
    section changed in place is named once (`changed        IPG 3.5`)."""
    out = run(judge_home, monkeypatch, "history", "Tardiness")
    assert out.startswith("IPG 3.1: ")
    out = run(
        judge_home, monkeypatch,
        "diff", "--doc", "ipg", "--from", "2023-11-13", "--to", "2024-09-23", "Deck Problem",
    )  # fmt: skip
    assert out.splitlines()[:2] == [
        "IPG en 2023-11-13 → 2024-09-23: 1 change",
        "changed        IPG 3.5",
    ]
    out = run(
        judge_home, monkeypatch,
        "diff", "--doc", "mtr", "--from", "2024-12-16", "--to", "2025-11-10", "Hidden Information",
    )  # fmt: skip
    assert out.splitlines()[1] == "changed        MTR 3.13"


def test_an_infraction_named_whole_but_for_who_did_it_is_first(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`player drew an extra card` names Hidden Card Error as `drew an extra card` does: IPG
    2.3 first (it was fourth, after the JAR, Looking at Extra Cards and a drawn match); at
    Regular REL the JAR's part first."""
    for asked in ("player drew an extra card", "il mio avversario ha pescato una carta in più"):
        assert found(judges_and_rules, monkeypatch, asked)[0] == "IPG 2.3"
    regular = found(judges_and_rules, monkeypatch, "regular REL player drew extra card")
    assert regular[0] == "JAR a-player-accidentally-draws-more-cards-or-has"


def test_web_judge_pages_take_a_sections_title_and_list_the_documents(judge_home: Path) -> None:
    """/doc lists the three judge documents, each linked to its contents; /doc/ipg/Tardiness
    is IPG 3.1's page (307 to /doc/ipg/3.1), /history/Tardiness its history, and the diff page
    takes `rule=Deck Problem` with doc=ipg as IPG 3.5; an unknown part is still a 404."""
    from starlette.testclient import TestClient

    from search.web.app import create_app

    client = TestClient(create_app(judge_home))
    for index in ("/doc", "/doc/"):
        page = client.get(index)
        assert page.status_code == 200
        links = re.findall(r'href="(/doc/[a-z]+)"', page.text)
        assert links == ["/doc/mtr", "/doc/ipg", "/doc/jar"]
        assert all(client.get(link).status_code == 200 for link in links)
    moved = client.get("/doc/ipg/Tardiness", follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (307, "/doc/ipg/3.1")
    assert "Tardiness" in client.get("/doc/ipg/Tardiness").text
    assert "IPG 3.1" in client.get("/history/Tardiness").text
    diff = client.get(
        "/api/diff", params={"doc": "ipg", "rule": "Deck Problem", "from": "2023-11-13"}
    )
    assert [c["to"] for c in diff.json()["changes"]] == ["IPG 3.5"]
    assert client.get("/doc/ipg/nonsense").status_code == 404


def test_a_jar_part_is_shown_by_the_start_of_its_heading(
    judge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show "JAR a player sees a card"`: the one part whose key starts so (its key is its
    heading's first words, cut); a start several parts share is still no part."""
    out = run(judge_home, monkeypatch, "show", "JAR a player sees a card")
    assert out.startswith("JAR a-player-sees-a-card-in-a-library — A player sees a card")
    said = refused(judge_home, monkeypatch, "show", "JAR a player")
    assert said.startswith("error: the JAR in the library has no JAR a-player; its parts: ")


def test_the_rules_enforcement_level_and_deck_checks_are_named_in_every_language(
    judges_and_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`quali sono i livelli di applicazione delle regole`, `niveau d'application des règles`
    (MTR 1.12; they found the CR's layers, 613) and `comprobación de mazo` (MTR 2.8) are the
    MTR's sections first: curated names, the MTR being in English only."""
    for asked, part in (
        ("quali sono i livelli di applicazione delle regole", "MTR 1.12"),
        ("niveau d'application des règles", "MTR 1.12"),
        ("comprobación de mazo", "MTR 2.8"),
    ):
        assert found(judges_and_rules, monkeypatch, asked)[0] == part, asked
