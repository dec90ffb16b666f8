"""One document's bytes to a Document: decode, detect language, edition and layout, parse, check."""

from __future__ import annotations

import hashlib
import re

from corpus.model.dates import find_edition, impossible_date
from corpus.model.languages import LANGUAGES, names
from corpus.model.records import Document, Dropped
from corpus.model.text import UnreadableError, decode_report, normalize, split_lines
from corpus.read.detect import detect_language
from corpus.read.html_extract import html_lines, looks_like_html
from corpus.read.layouts import Context, detect_layout, gettext, official_cr
from corpus.read.limits import MAX_BYTES, MAX_PDF_BYTES
from corpus.read.numbering import numbering_warnings
from corpus.read.pdf_extract import PdfError, looks_like_pdf, pdf_lines

MAX_ELEMENTS = 300_000  # tags of an HTML page; the 1.2 MB tournament rules page has 10,800
MAX_RECORDS = 25_000  # of one document; the whole CR has about 4,300
MAX_LINE = 100_000  # characters; the CR's longest line has a few thousand


class IngestError(ValueError):
    """A document we cannot ingest; the message names the file, the reason and a fix."""


def ingest_bytes(data: bytes, source: str, hints: dict[str, str] | None = None) -> Document:
    """Parse a document. `hints` (from a manifest) only fill what the text cannot say."""
    hints = hints or {}

    limit = MAX_PDF_BYTES if looks_like_pdf(data) else MAX_BYTES
    if len(data) > limit:
        raise IngestError(
            f"{source}: over {limit // 2**20} MB, more than a rules document (the whole CR "
            f"is about 1 MB as text); give the rules alone, under {limit // 2**20} MB"
        )
    lines, set_aside, notes = extract(data, source)
    longest = max(range(len(lines)), key=lambda i: len(lines[i]), default=None)
    if longest is not None and len(lines[longest]) > MAX_LINE:
        raise IngestError(
            f"{source}: line {longest + 1} is {len(lines[longest]):,} characters long, not a "
            "rules document's line; give the document with its line breaks"
        )
    # A PO catalogue's msgids are English: its language is its msgstrs', and the edition it
    # follows is decided by comparing its msgids with the English editions (corpus.align.following).
    po = gettext.looks_like_po(lines)
    if po and (broken := gettext.catalogue(lines).error):
        raise IngestError(f"{source}: {broken}; fix it and add it again")
    text = gettext.translations_text(lines) if po else "\n".join(lines)
    lang = (
        detect_language(text)
        or hints.get("lang")
        or (gettext.header_language(lines) if po else None)
    )
    if lang not in LANGUAGES:
        raise IngestError(
            f"{source}: cannot tell its language ({names()}); is it a rules document?"
        )
    edition, edition_line = (gettext.stated_edition(lines), None) if po else find_edition(lines)
    edition = edition or hints.get("edition")
    # Lines already set aside (page chrome, running headers) are blank to the parsers.
    original = lines
    if set_aside:  # else the same list: what was read of it already (a catalogue) is kept
        lines = ["" if i in set_aside else line for i, line in enumerate(lines, start=1)]
    detection = detect_layout(lines)
    if detection.layout is None:
        raise IngestError(
            f"{source}: unknown layout (no numbered rules, rules page or mechanics article found: "
            f"{detection.reason}); see README 'Document layouts'"
        )
    ctx = Context(source=source, lang=lang, edition=edition, lines=lines, edition_line=edition_line)
    parsed = detection.layout.parse(ctx)
    if not parsed.records and po and gettext.catalogue(lines).translated:
        raise IngestError(
            f"{source}: a catalogue whose msgids are not the Comprehensive Rules' lines (no rule, "
            "example or glossary entry among them); add the CR's catalogue"
        )
    if not parsed.records and po:
        raise IngestError(
            f"{source}: a catalogue with no translated entry (every msgstr is empty); "
            "translate some and add it again"
        )
    if not parsed.records:
        raise IngestError(f"{source}: no rules found in it (layout {detection.layout.name})")
    if lang == "en" and edition and official_cr.cut_short(lines, parsed.records):
        last = next((r.number for r in reversed(parsed.records) if r.number), "?")
        raise IngestError(
            f"{source}: the English Comprehensive Rules {edition} cut short: its title, but no "
            f"glossary after its rules, which end at {last}; give the whole file"
        )
    if len(parsed.records) > MAX_RECORDS:  # an index of 100,000 records took 700 MB to build
        raise IngestError(
            f"{source}: {len(parsed.records):,} records, more than a rules document (the whole "
            f"CR has about 4,300); give the rules alone, under {MAX_RECORDS:,} records"
        )
    undated = impossible_date(lines) if not edition and not po else None
    warnings = [
        *(
            [f"line {undated[1]}: {undated[0]!r} is no date (no such day): edition unknown"]
            if undated
            else []
        ),
        *(n for n in notes if n.startswith("mojibake")),
        *parsed.warnings,
        *numbering_warnings(parsed.records),
    ]
    facts = dict(n.split(": ", 1) for n in notes if ": " in n and not n.startswith("mojibake"))
    dropped = sorted(
        [
            *parsed.dropped,
            *(Dropped(i, normalize(original[i - 1]), why) for i, why in set_aside.items()),
        ],
        key=lambda d: d.line,
    )
    document = Document(
        source=source,
        lang=lang,
        edition=edition,
        layout=detection.layout.name,
        layout_reason=detection.reason,
        records=tuple(parsed.records),
        dropped=tuple(dropped),
        warnings=tuple(warnings),
        metadata=tuple(sorted({**hints, **parsed.metadata, **facts}.items())),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    return document


def translation_memory(text: str) -> str | None:
    """The kind of an XML translation memory or exchange file (TMX, XLIFF), or None: its root
    element opens the text, after the XML declaration and comments."""
    head = text[:2048].lower()
    found = re.search(r"<(tmx|xliff)[\s>]", head)
    return {"tmx": "TMX", "xliff": "XLIFF"}[found.group(1)] if found else None


def extract(data: bytes, source: str) -> tuple[list[str], dict[int, str], list[str]]:
    """A document's lines (text, HTML or PDF), the lines set aside with reasons, and notes."""
    if looks_like_pdf(data):
        try:
            lines, set_aside = pdf_lines(data)
        except PdfError as error:
            raise IngestError(
                f"{source}: unreadable PDF ({error}); is the file complete?"
            ) from None
        if not any(line.strip() for line in lines):
            raise IngestError(f"{source}: the PDF has no text (a scan?); give a PDF with text")
        return lines, set_aside, ["format: PDF"]
    try:
        text, notes = decode_report(data, source)
    except UnreadableError as error:
        raise IngestError(str(error)) from None
    if memory := translation_memory(text):
        raise IngestError(
            f"{source}: a {memory} translation memory, which mtgrules writes (export --format "
            "tmx) but does not read; add the translation as a PO catalogue or as the rules' text"
        )
    if looks_like_html(text):
        elements = text.count("<")  # counted in milliseconds; parsed, a million took 19 s
        if elements > MAX_ELEMENTS:
            raise IngestError(
                f"{source}: {elements:,} HTML tags, more than a rules page (the 1.2 MB tournament "
                f"rules page has 10,800); give the rules page alone, under {MAX_ELEMENTS:,}"
            )
        lines, set_aside = html_lines(text)
        return lines, set_aside, ["format: HTML", *notes]
    return split_lines(text), {}, notes
