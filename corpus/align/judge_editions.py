"""Editions of a judge document compared part by part. A part keeps its key across editions
(`MTR 3.13` is Hidden Information in every one), so a part is its key's text: the section with
its definition, examples and notes, in the order printed. Unchanged parts are not listed."""

from __future__ import annotations

from collections.abc import Sequence

from corpus.align.editions import Change, Event, similarity, typography_folded, word_diff
from corpus.model.documents import sort_key
from corpus.model.records import Record


def part_texts(records: Sequence[Record]) -> dict[str, Record]:
    """Each key's parts joined into one record (the section's, with all its text)."""
    grouped: dict[str, list[Record]] = {}
    for record in sorted(records, key=lambda r: r.seq):
        grouped.setdefault(record.key, []).append(record)
    return {
        key: group[0].but(number=key, text=" ".join(r.text for r in group))
        for key, group in grouped.items()
    }


def compare_parts(
    old_records: Sequence[Record], new_records: Sequence[Record], *, ignore_typography: bool
) -> list[Change]:
    old, new = part_texts(old_records), part_texts(new_records)
    fold = typography_folded if ignore_typography else (lambda t: t)
    changes = []
    for key in sorted(old.keys() | new.keys(), key=sort_key):
        before, after = old.get(key), new.get(key)
        if before is None and after is not None:
            changes.append(Change("added", None, after, 0.0, "{+" + after.text + "+}"))
        elif after is None and before is not None:
            changes.append(Change("removed", before, None, 0.0, "[-" + before.text + "-]"))
        elif before and after and fold(before.text) != fold(after.text):
            changes.append(
                Change(
                    "changed",
                    before,
                    after,
                    similarity(before.text, after.text),
                    word_diff(before.text, after.text),
                )
            )
    return changes


def part_history(
    key: str, editions: Sequence[tuple[str, Sequence[Record]]], *, ignore_typography: bool
) -> list[Event]:
    """When a part appeared, changed and disappeared across its document's editions."""
    fold = typography_folded if ignore_typography else (lambda t: t)
    events: list[Event] = []
    previous: Record | None = None
    for date, records in editions:
        current = part_texts([r for r in records if r.key == key]).get(key)
        if current is not None and previous is None:
            events.append(Event(date, "first seen" if not events else "appeared", key))
        elif current is None and previous is not None:
            events.append(Event(date, "removed", None, key))
        elif current and previous and fold(current.text) != fold(previous.text):
            events.append(Event(date, "changed", key, diff=word_diff(previous.text, current.text)))
        previous = current
    return events
