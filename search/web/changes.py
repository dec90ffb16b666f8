"""Changes between editions as a reader sees them: a word diff as insertions and deletions (not
the terminal's [-…-] {+…+}), and per translation what changed in English since the edition it
follows (a renumbered rule is a move, not a word diff of two rules)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from corpus.model.records import Record

_MARKS = re.compile(r"\[-(.*?)-\]|\{\+(.*?)\+\}", re.S)


def segments(diff: str) -> list[tuple[str, str]]:
    """("same" | "del" | "ins", text) in order, from corpus.align.editions.word_diff's markup."""
    out: list[tuple[str, str]] = []
    position = 0
    for match in _MARKS.finditer(diff):
        if match.start() > position:
            out.append(("same", diff[position : match.start()]))
        deleted, inserted = match.groups()
        out.append(("del", deleted) if deleted is not None else ("ins", inserted or ""))
        position = match.end()
    if position < len(diff):
        out.append(("same", diff[position:]))
    return out


def as_html(diff: str) -> Markup:
    """The word diff with <del> and <ins>, every text escaped."""
    pieces = []
    for kind, text in segments(diff):
        if kind == "same":
            pieces.append(escape(text))
        else:
            pieces.append(Markup("<{0}>{1}</{0}>").format(kind, text))
    return Markup("").join(pieces)


def compared_from(records: Sequence[Record]) -> dict[str, str]:
    """Each translated document's English edition as `stale` compares it from (an undated copy
    aligned by content: the oldest loaded), so that every page says the same of it."""
    from corpus.align.editions import by_edition, translated_documents, translated_from
    from corpus.model.documents import doc_of_key

    rules = [r for r in records if doc_of_key(r.key) == "cr"]
    editions = sorted(by_edition(rules, "en"))
    if not editions:
        return {}
    documents = translated_documents(r for r in rules if r.lang != "en")
    found = {source: translated_from(editions, own)[0] for source, own in documents.items()}
    return {source: edition for source, edition in found.items() if edition}


def staleness(records: Sequence[Record]) -> dict[tuple[str, str], dict[str, Any]]:
    """(source, key) of every translated rule whose English changed since the edition its
    document follows -> payloads.stale's entry (english_from, english_to, status,
    english_number, diff). Computed once per build: one comparison per translated document."""
    from search import payloads

    translated = sorted({r.lang for r in records if r.lang != "en"})
    if not translated or not any(r.lang == "en" and r.edition for r in records):
        return {}
    found = payloads.stale(records, translated)["stale"]
    return {(entry["source"], entry["key"]): entry for entry in found}
