"""One document's bytes to a Document: decode, detect language, edition and layout, parse, check."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from corpus.checks import numbering_warnings
from corpus.dates import find_edition
from corpus.detect import detect_language
from corpus.languages import LANGUAGES
from corpus.layouts import Context, detect_layout
from corpus.records import Document
from corpus.text import UnreadableError, decode, split_lines

MAX_BYTES = 50 * 1024 * 1024


class IngestError(ValueError):
    """A document we cannot ingest; the message names the file, the reason and a fix."""


def ingest_bytes(data: bytes, source: str, hints: dict[str, str] | None = None) -> Document:
    """Parse a document. `hints` (from a manifest) only fill what the text cannot say."""
    hints = hints or {}
    if len(data) > MAX_BYTES:
        raise IngestError(f"{source}: {len(data) // 2**20} MB is too large for a rules document")
    try:
        text = decode(data, source)
    except UnreadableError as error:
        raise IngestError(str(error)) from None
    lines = split_lines(text)
    lang = detect_language(text) or hints.get("lang")
    if lang not in LANGUAGES:
        raise IngestError(
            f"{source}: cannot tell its language (Italian, French, Spanish or English); "
            "is it a rules document?"
        )
    edition, edition_line = find_edition(lines)
    edition = edition or hints.get("edition")
    detection = detect_layout(lines)
    if detection.layout is None:
        raise IngestError(
            f"{source}: unknown layout (no numbered rules, rules page or mechanics article found: "
            f"{detection.reason}); see README 'Document layouts'"
        )
    ctx = Context(source=source, lang=lang, edition=edition, lines=lines, edition_line=edition_line)
    parsed = detection.layout.parse(ctx)
    if not parsed.records:
        raise IngestError(f"{source}: no rules found in it (layout {detection.layout.name})")
    warnings = [*parsed.warnings, *numbering_warnings(parsed.records)]
    document = Document(
        source=source,
        lang=lang,
        edition=edition,
        layout=detection.layout.name,
        layout_reason=detection.reason,
        records=tuple(parsed.records),
        dropped=tuple(parsed.dropped),
        warnings=tuple(warnings),
        metadata=tuple(sorted({**hints, **parsed.metadata}.items())),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    return replace(document)
