"""Each layout parser on its real seed document: numbers, attachments, keys, dropped lines."""

from __future__ import annotations

from conftest import ARTICLE, ES, FR, IT, seed

from corpus.model.text import split_lines
from corpus.read.ingest import ingest_bytes


def test_italian_cr_excerpt_has_34_rules_and_6_examples():
    """The Italian CR excerpt: 34 numbered rules 205..205.4h, 6 examples under their rules."""
    doc = ingest_bytes(seed(IT), IT)
    rules = [r.number for r in doc.records if r.kind == "rule"]
    examples = [r.parent for r in doc.records if r.kind == "example"]
    assert (doc.lang, doc.edition, doc.layout) == ("it", "2024-11-23", "numbered-rules")
    assert len(rules) == 34 and rules[0] == "205" and rules[-1] == "205.4h"
    assert "205.3l" not in rules and "205.3m" in rules and "205.3p" in rules
    assert examples == ["205.1b", "205.1b", "205.3b", "205.3c", "205.3e", "205.4b"]
    legend = next(r for r in doc.records if r.number == "205.4d")
    assert legend.key == "205.4d" and legend.parent == "205.4" and legend.lines == (39, 39)
    assert legend.text.startswith('Ogni permanente con il supertipo "leggendario"')
    assert next(r for r in doc.records if r.number == "205").title == "Riga del tipo"
    assert doc.warnings == ()


def test_french_forum_copy_drops_chrome_and_attaches_example_and_note():
    """The French forum copy: dotted numbers, Exemple/Note attached, header and footer dropped."""
    doc = ingest_bytes(seed(FR), FR)
    assert (doc.lang, doc.edition, doc.layout) == ("fr", None, "forum-copy")
    assert [r.number for r in doc.records if r.kind == "rule"][:4] == [
        "205",
        "205.1",
        "205.2",
        "205.2a",
    ]
    assert len([r for r in doc.records if r.kind == "rule"]) == 18
    example = next(r for r in doc.records if r.kind == "example")
    note = next(r for r in doc.records if r.kind == "note")
    assert (example.parent, note.parent) == ("205.3c", "205.4b")
    assert note.text.startswith("Note : le sur-type")
    assert [(d.line, d.reason) for d in doc.dropped] == [
        (1, "boilerplate: forum header"),
        (22, "boilerplate: forum footer"),
    ]


def test_spanish_page_infers_subrule_numbers():
    """The Spanish page: 205.1 from the heading, 205.1a/b inferred, examples under 205.1b."""
    doc = ingest_bytes(seed(ES), ES)
    assert (doc.lang, doc.edition, doc.layout) == ("es", None, "rules-web-page")
    rules = [(r.number, r.inferred) for r in doc.records if r.kind == "rule"]
    assert rules == [("205.1", False), ("205.1a", True), ("205.1b", True)]
    assert doc.records[0].title == "Línea de tipo"
    assert [r.parent for r in doc.records if r.kind == "example"] == ["205.1b", "205.1b"]
    reasons = {d.line: d.reason for d in doc.dropped}
    assert reasons[1] == "heading: rule number and title"
    assert reasons[5] == "heading: subrules"
    assert all(reasons[line].startswith("boilerplate") for line in (15, 17, 19))


def test_mechanics_article_keys_records_by_english_mechanic():
    """The Italian article: records keyed Station/Spacecraft/Planet/Warp/Lander/Landfall/Void."""
    doc = ingest_bytes(seed(ARTICLE), ARTICLE)
    assert (doc.lang, doc.layout) == ("it", "mechanics-article")
    assert dict(doc.metadata)["site"] == "L'Archivista Multiversale"
    assert dict(doc.metadata)["title"] == "Meccaniche di Ai Confini dell'Eternità"
    keys = {r.key for r in doc.records}
    assert keys == {"Station", "Spacecraft", "Planet", "Warp", "Lander", "Landfall", "Void"}
    by_line = {r.lines[0]: r for r in doc.records}
    assert (by_line[8].kind, by_line[8].key) == ("reminder", "Station")
    assert (by_line[18].kind, by_line[18].key) == ("ruling", "Spacecraft")
    assert (by_line[19].kind, by_line[19].key) == ("ruling", "Planet")
    assert (by_line[15].kind, by_line[15].key) == ("article", "Planet")
    assert (by_line[43].kind, by_line[43].key) == ("reminder", "Lander")
    assert doc.counts() == {"reminder": 3, "article": 14, "ruling": 23}


def test_nothing_lost_on_any_seed():
    """Every non-blank line of every seed is in exactly one record or dropped with a reason."""
    for name in (IT, FR, ARTICLE, ES):
        doc = ingest_bytes(seed(name), name)
        lines = split_lines(seed(name).decode("utf-8"))
        wanted = {i for i, line in enumerate(lines, start=1) if line.strip()}
        covered = [i for r in doc.records for i in range(r.lines[0], r.lines[1] + 1)]
        covered += [d.line for d in doc.dropped]
        assert sorted(covered) == sorted(wanted), name
        assert all(d.reason for d in doc.dropped)
