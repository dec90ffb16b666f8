"""What a judge document's text cites, as keys: "see section 4.4" (its own document's section),
"MTR section 4.3" and "MTR 2.3" inside the IPG, "section 5.2 of the Magic Tournament Rules",
"rule 704.5j" and "CR 704" (the Comprehensive Rules). Each with its place in the text, for
links in the terminal, the JSON and the web app."""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.model.documents import doc_of_key
from corpus.model.documents import key as doc_key

JUDGE_CITATION = re.compile(
    r"\b(?:(?P<doc>MTR|IPG)\s+(?:[Ss]ections?\s+)?|(?P<section>[Ss]ections?)\s+)"
    r"(?P<number>\d{1,2}(?:\.\d{1,2})?)\b(?!\.\d)"
    # "sections 2-4": the last of a range is cited too
    r"(?:\s*[-–]\s*(?P<to>\d{1,2}(?:\.\d{1,2})?)\b(?!\.\d))?"
    r"(?P<of>\s+of\s+the\s+(?:Magic\s+)?(?:Tournament Rules|Infraction Procedure Guide))?"
)
# "Appendix C", "MTR Appendix F": a judge document's appendix (its own, unless named).
APPENDIX_CITATION = re.compile(r"\b(?:(?P<doc>MTR|IPG)\s+)?Appendix\s+(?P<letter>[A-H])\b")
CR_CITATION = re.compile(
    r"\b(?:CR|rules?|Comprehensive Rules,?\s+rules?)\s+(?P<number>\d{3}(?:\.\d+[a-z]{0,2})?)\b"
)


@dataclass(frozen=True)
class Citation:
    start: int
    end: int
    target: str  # a key: "MTR 4.3", "IPG 2.1", "704.5j"


def citations(text: str, key: str) -> list[Citation]:
    """The citations in a judge document's record (keyed `key`), in order; none for the CR's
    records, whose citations are rule numbers (corpus.model.numbers.CITATION)."""
    own = doc_of_key(key)
    if own == "cr":
        return []
    found: list[Citation] = []
    for match in JUDGE_CITATION.finditer(text):
        doc = _cited_document(match, own)
        if doc == "jar":
            continue
        found.append(Citation(match.start(), match.end("number"), doc_key(doc, match["number"])))
        if match["to"]:
            found.append(Citation(match.start("to"), match.end("to"), doc_key(doc, match["to"])))
    for match in APPENDIX_CITATION.finditer(text):
        doc = (match["doc"] or "").lower() or own
        if doc != "jar":
            appendix = f"appendix-{match['letter'].lower()}"
            found.append(Citation(match.start(), match.end(), doc_key(doc, appendix)))
    for match in CR_CITATION.finditer(text):
        found.append(Citation(match.start(), match.end(), match["number"]))
    return sorted(found, key=lambda c: c.start)


def _cited_document(match: re.Match[str], own: str) -> str:
    """The document a section citation is of: the one it names, else the citing one's."""
    if match["of"]:  # "section 4 of the Magic Tournament Rules"
        return "mtr" if "Tournament" in match["of"] else "ipg"
    return (match["doc"] or "").lower() or own


def cited_keys(text: str, key: str) -> list[str]:
    """The keys a judge document's record cites, in order: a range's middle too ("sections
    2-4" cites section 3, which has no place of its own in the text to link)."""
    own = doc_of_key(key)
    if own == "cr":
        return []
    middles: dict[int, list[str]] = {}
    for match in JUDGE_CITATION.finditer(text):
        first, last = match["number"], match["to"]
        whole = last and first.isdigit() and last.isdigit() and int(first) < int(last)
        if whole and (doc := _cited_document(match, own)) != "jar":
            between = range(int(first) + 1, int(last))
            middles[match.end("number")] = [doc_key(doc, str(n)) for n in between]
    keys: list[str] = []
    for citation in citations(text, key):
        keys.append(citation.target)
        keys += middles.pop(citation.end, [])
    return keys
