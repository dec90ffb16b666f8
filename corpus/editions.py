"""Compare two editions of the rules in one language: added, removed, changed, moved.

Whole sections are renumbered when new ones are inserted, so rules are matched by content
first: an identical text under another number has moved; then the same number with a similar
text has changed; then what is left on both sides is paired by similarity (moved+changed)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from corpus.following import followed
from corpus.numbers import sort_key
from corpus.records import Record

CHANGED_MIN = 0.5  # same number, at least this similar: the same rule, changed
MOVED_MIN = 0.75  # different numbers: a moved rule needs to be this similar
REFERENCE = re.compile(r"\b\d{3}\.\d+[a-z]{0,2}\b|\b\d{3}\b")
_WORDS = re.compile(r"\S+")


@dataclass(frozen=True)
class Change:
    status: str  # added, removed, changed, moved, moved+changed
    old: Record | None
    new: Record | None
    similarity: float
    diff: str  # word-level: [-removed-] {+added+}
    references_only: bool = False  # the text differs only in the rule numbers it cites

    @property
    def sort_number(self) -> tuple[int, int, int, str]:
        record = self.new or self.old
        assert record is not None
        return sort_key(record.number or "")

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "from": self.old.number if self.old else None,
            "to": self.new.number if self.new else None,
            "similarity": round(self.similarity, 3),
            "diff": self.diff,
            "references_only": self.references_only,
        }


def word_diff(old: str, new: str) -> str:
    """A word-level diff: unchanged words as they are, [-removed-] and {+added+}."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.extend(a[i1:i2])
            continue
        if tag in ("replace", "delete"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if tag in ("replace", "insert"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def similarity(old: str, new: str) -> float:
    return SequenceMatcher(None, _WORDS.findall(old), _WORDS.findall(new), autojunk=False).ratio()


def without_references(text: str) -> str:
    return REFERENCE.sub("#", text)


def rules_of(records: Iterable[Record]) -> list[Record]:
    """The numbered rules (with section headings and chapters) of one edition, in order."""
    rules = [r for r in records if r.kind == "rule" and r.number]
    return sorted(rules, key=lambda r: (sort_key(r.number or ""), r.seq))


def compare(old_records: Sequence[Record], new_records: Sequence[Record]) -> list[Change]:
    """Every difference between two editions' rules; unchanged rules are not listed."""
    old, new = rules_of(old_records), rules_of(new_records)
    matched_old: set[int] = set()
    matched_new: set[int] = set()
    changes: list[Change] = []

    def pair(i: int, j: int, status: str, ratio: float) -> None:
        matched_old.add(i)
        matched_new.add(j)
        a, b = old[i], new[j]
        if status == "unchanged":
            return
        changes.append(
            Change(
                status,
                a,
                b,
                ratio,
                word_diff(a.text, b.text) if a.text != b.text else "",
                references_only=a.text != b.text
                and without_references(a.text) == without_references(b.text),
            )
        )

    # 1. The same text: unchanged where the number is the same, moved where it is not.
    by_text: dict[str, list[int]] = {}
    for j, rule in enumerate(new):
        by_text.setdefault(rule.text, []).append(j)
    for i, rule in enumerate(old):
        candidates = [j for j in by_text.get(rule.text, []) if j not in matched_new]
        if not candidates:
            continue
        same = [j for j in candidates if new[j].number == rule.number]
        j = same[0] if same else min(candidates, key=lambda j: abs(j - i))
        pair(i, j, "unchanged" if same else "moved", 1.0)

    # 2. The same number with a similar text: changed.
    new_by_number: dict[str, list[int]] = {}
    for j, rule in enumerate(new):
        if j not in matched_new:
            new_by_number.setdefault(rule.number or "", []).append(j)
    for i, rule in enumerate(old):
        if i in matched_old:
            continue
        for j in new_by_number.get(rule.number or "", []):
            if j in matched_new:
                continue
            ratio = similarity(rule.text, new[j].text)
            if ratio >= CHANGED_MIN:
                pair(i, j, "changed", ratio)
                break

    # 3. What is left: a similar text under another number (of the same section and depth)
    # has moved and changed. Cheap upper bounds prune the pairs before the real ratio.
    left_new = [j for j in range(len(new)) if j not in matched_new]
    words = {j: _WORDS.findall(new[j].text) for j in left_new}
    for i, rule in enumerate(old):
        if i in matched_old or not left_new:
            continue
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(_WORDS.findall(rule.text))
        best, best_j = 0.0, -1
        for j in left_new:
            if not _same_place(rule.number or "", new[j].number or ""):
                continue
            matcher.set_seq1(words[j])
            if matcher.real_quick_ratio() < MOVED_MIN or matcher.quick_ratio() < MOVED_MIN:
                continue
            ratio = matcher.ratio()
            if ratio > best:
                best, best_j = ratio, j
        if best >= MOVED_MIN:
            pair(i, best_j, "moved+changed", best)
            left_new.remove(best_j)

    for i, rule in enumerate(old):
        if i not in matched_old:
            changes.append(Change("removed", rule, None, 0.0, "[-" + rule.text + "-]"))
    for j, rule in enumerate(new):
        if j not in matched_new:
            changes.append(Change("added", None, rule, 0.0, "{+" + rule.text + "+}"))
    return sorted(changes, key=lambda c: c.sort_number)


def _same_place(a: str, b: str) -> bool:
    """Same section and the same depth (rule, subrule): where a renumbered rule can go."""
    return (
        a.split(".")[0] == b.split(".")[0]
        and a.count(".") == b.count(".")
        and a[-1:].isalpha() == b[-1:].isalpha()
    )


def follow(changes: Iterable[Change]) -> dict[str, str | None]:
    """Old number -> new number (None when removed), for numbers that did not stay put."""
    moves: dict[str, str | None] = {}
    for change in changes:
        if change.old is None:
            continue
        old_number = change.old.number or ""
        new_number = change.new.number if change.new else None
        if new_number != old_number:
            moves[old_number] = new_number
    return moves


# --- the history of one rule ------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    edition: str
    event: str  # first seen, appeared, changed, moved, moved+changed, removed
    number: str | None
    previous: str | None = None  # the number before a move
    diff: str = ""


def history(number: str, editions: Sequence[tuple[str, Sequence[Record]]]) -> list[Event]:
    """When a rule appeared, changed, moved and disappeared, across editions in date order.

    `number` is looked for in the newest edition that has it; moves are followed back to the
    oldest edition and forward to the newest."""
    texts = [{r.number: r.text for r in rules_of(records)} for _, records in editions]
    present = [k for k, found in enumerate(texts) if number in found]
    if not present:
        return []
    last = present[-1]
    events: list[Event] = []
    current, k = number, last
    while k > 0:
        if texts[k - 1].get(current) == texts[k].get(current):
            k -= 1  # unchanged: no need to compare the whole editions
            continue
        changes = compare(editions[k - 1][1], editions[k][1])
        change = next((c for c in changes if c.new and c.new.number == current), None)
        date = editions[k][0]
        if change is None:
            k -= 1
            continue
        if change.status == "added":
            events.append(Event(date, "appeared", current))
            break
        previous = change.old.number if change.old else None
        moved = previous != current
        events.append(Event(date, change.status, current, previous if moved else None, change.diff))
        current = previous or current
        k -= 1
    else:
        events.append(Event(editions[0][0], "first seen", current))
    events.reverse()
    if last + 1 < len(editions):
        changes = compare(editions[last][1], editions[last + 1][1])
        change = next((c for c in changes if c.old and c.old.number == number), None)
        if change is not None:
            date = editions[last + 1][0]
            to = change.new.number if change.new else None
            events.append(Event(date, change.status, to, number, change.diff))
    return events


# --- translations whose English has changed since ---------------------------------------------


@dataclass(frozen=True)
class Stale:
    record: Record
    english_from: str
    english_to: str
    change: Change

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.record.key,
            "number": self.record.number,
            "edition": self.record.edition,
            "english_from": self.english_from,
            "english_to": self.english_to,
            "status": self.change.status,
            "english_number": self.change.new.number if self.change.new else None,
            "diff": self.change.diff,
        }


def stale(translated: Sequence[Record], english: Mapping[str, Sequence[Record]]) -> list[Stale]:
    """Translated rules whose English counterpart changed after the edition they follow."""
    editions = sorted(english)
    newest = editions[-1]
    found: list[Stale] = []
    by_source: dict[str, list[Record]] = {}
    for record in translated:
        if record.kind == "rule" and record.number and record.align.method == "number":
            by_source.setdefault(record.source, []).append(record)
    for _, records in sorted(by_source.items()):
        start = followed(editions, records[0])
        if start is None or start == newest:
            continue
        changes = {c.old.number: c for c in compare(english[start], english[newest]) if c.old}
        for record in records:
            change = changes.get(record.key)
            if change is not None:
                found.append(Stale(record, start, newest, change))
    return sorted(found, key=lambda s: sort_key(s.record.key))
