"""Which English edition a translated document follows.

A stated date wins: the newest English edition on or before it. A document that states none
(a translated CR whose front matter was cut off) follows the English edition whose rule numbers
match its own best, within the sections it covers; ties go to the earliest such edition. A
document whose numbering matches no edition well (an old translation) follows none by
numbering: its rules are aligned by content instead."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache

from corpus.model.dates import in_effect
from corpus.model.numbers import section_of
from corpus.model.records import Record

MIN_MATCH = 0.8  # share of numbers two numberings must have in common to be one numbering


@dataclass(frozen=True)
class Following:
    edition: str  # the English edition's date
    method: str  # "date" (stated), "numbering" (inferred), "text" (a catalogue's msgids)
    found: int = 0  # the document's numbers that edition has
    total: int = 0  # the document's numbers
    stated: str | None = None  # the document's own date, when it is what decided
    # Sections numbered as an edition not loaded: (printed, the followed edition's) sections
    # (corpus/align/moved_sections.py), keyed and paired as the latter.
    moved: tuple[tuple[str, str], ...] = ()

    def keyed(self, number: str) -> str:
        """A printed number as the followed edition numbers it: 724.1 is 725.1 when section 724
        is one of `moved`; any other as printed."""
        section = section_of(number)
        moved = next((to for printed, to in self.moved if printed == section), None)
        return moved + number[len(section) :] if moved else number

    def evidence(self) -> str:
        if self.method == "date" and self.stated and self.stated < self.edition:
            return (
                f"dated {self.stated}, before every loaded English edition: follows the oldest, "
                f"{self.edition}"
            )
        if self.method == "date":
            return f"follows English {self.edition} by its stated date"
        if self.method == "text":
            return (
                f"follows English {self.edition} by its English text: {self.found:,} of "
                f"{self.total:,} msgids are that edition's rules word for word"
            )
        evidence = (
            f"follows English {self.edition} by numbering: {self.found:,} of {self.total:,} numbers"
        )
        if self.moved:
            (first, to), (last, last_to) = self.moved[0], self.moved[-1]
            evidence += (
                f"; sections {first}–{last} are numbered as an English edition not loaded (as"
                f" {to}–{last_to} here, by their rules' places and lengths): add the edition it"
                " was translated from to pair and date them exactly"
            )
        return evidence


def rule_numbers(records: Iterable[Record]) -> set[str]:
    """A document's section and rule numbers (chapters, 1 to 9, are in every edition)."""
    return {r.number for r in records if r.kind == "rule" and r.number and len(r.number) >= 3}


def by_numbering(
    numbers: set[str], english: Mapping[str, frozenset[str]] | Mapping[str, set[str]]
) -> Following | None:
    """The English edition (date -> its numbers) whose numbering, within the sections the
    document covers, is most like the document's; None when none is like it."""
    if not numbers:
        return None
    sections = {section_of(n) for n in numbers}
    best: tuple[float, str] | None = None
    for edition in sorted(english):
        by_section = _by_section(frozenset(english[edition]))
        theirs = frozenset().union(*(by_section.get(s, ()) for s in sections))
        common = len(numbers & theirs)
        share = common / len(numbers | theirs) if theirs else 0.0
        if best is None or share > best[0]:
            best = (share, edition)
    if best is None or best[0] < MIN_MATCH:
        return None
    edition = best[1]
    return Following(edition, "numbering", len(numbers & english[edition]), len(numbers))


@cache
def _by_section(numbers: frozenset[str]) -> dict[str, frozenset[str]]:
    """An edition's numbers by section, once per edition however many documents ask."""
    grouped: dict[str, set[str]] = defaultdict(set)
    for number in numbers:
        grouped[section_of(number)].add(number)
    return {section: frozenset(found) for section, found in grouped.items()}


def edition_numbers(records: Iterable[Record]) -> dict[str, frozenset[str]]:
    """Each English edition's rule numbers."""
    numbers: dict[str, set[str]] = defaultdict(set)
    for record in records:
        english = record.lang == "en" and record.edition and record.kind == "rule"
        if english and record.number and len(record.number) >= 3:
            numbers[str(record.edition)].add(record.number)
    return {edition: frozenset(found) for edition, found in numbers.items()}


def followings(
    records: Iterable[Record], english: Mapping[str, frozenset[str]] | None = None
) -> dict[str, Following]:
    """Every numbered translated document (by source) with the English edition it follows;
    documents that follow none by date or numbering are left out. `english`: every edition's
    numbers, when not all editions' records are among `records`."""
    records = list(records)
    by_source: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_source[record.source].append(record)
    if english is None:
        english = edition_numbers(records)
    editions = sorted(english)
    if not editions:
        return {}
    out: dict[str, Following] = {}
    texts: dict[str, dict[str, str]] | None = None
    for source, group in by_source.items():
        if group[0].lang == "en":
            continue
        stated = group[0].edition
        if any(r.original for r in group):
            if texts is None:
                texts = _english_texts(records)
            if found := by_text(group, texts, english):
                out[source] = found
                continue
        if stated:
            followed = in_effect(editions, stated)
            assert followed is not None
            out[source] = Following(followed, "date", stated=stated)
        elif inferred := by_numbering(rule_numbers(group), english):
            out[source] = _with_moves(inferred, group, records)
    return out


def _with_moves(following: Following, group: list[Record], records: list[Record]) -> Following:
    """A document that follows an edition by numbering, with the sections it numbers otherwise
    (when that edition's English rules are among `records`)."""
    from corpus.align.moved_sections import moved_sections

    english = [r for r in records if r.lang == "en" and r.edition == following.edition]
    if not english:
        return following
    moves = moved_sections(group, english)
    return replace(following, moved=tuple(sorted(moves.items()))) if moves else following


def by_text(
    group: Iterable[Record],
    texts: Mapping[str, Mapping[str, str]],
    numbers: Mapping[str, frozenset[str]] | Mapping[str, set[str]],
) -> Following | None:
    """The English edition whose rules a catalogue's msgids (its records' `original`) are,
    word for word, most often; the numbering decides a tie. None without English texts.

    A fuzzy entry's `original` is the English it was translated from (its previous msgid),
    under the number of its msgid's edition: it says nothing of which edition numbers the
    catalogue (an exported catalogue's drafts are older English under today's numbers), so
    only the entries that translate their msgid count."""
    from corpus.align.editions import typography_folded

    originals = {
        r.number: typography_folded(r.original)
        for r in group
        if r.kind == "rule"
        and r.number
        and r.original
        and len(r.number) >= 3
        and "fuzzy" not in r.flags
    }
    if not originals or not texts:
        return None
    mine = set(originals)
    best: tuple[int, int, str] | None = None
    for edition in sorted(texts):
        theirs = texts[edition]
        same = sum(1 for n, text in originals.items() if theirs.get(n) == text)
        common = len(mine & numbers.get(edition, frozenset()))
        if best is None or (same, common) > best[:2]:
            best = (same, common, edition)
    assert best is not None
    if best[0] == 0:
        return None
    return Following(best[2], "text", best[0], len(originals))


def _english_texts(records: Iterable[Record]) -> dict[str, dict[str, str]]:
    """Each English edition's rules: number -> text, typography folded."""
    from corpus.align.editions import typography_folded

    texts: dict[str, dict[str, str]] = defaultdict(dict)
    for r in records:
        if r.lang == "en" and r.edition and r.kind == "rule" and r.number and len(r.number) >= 3:
            texts[r.edition][r.number] = typography_folded(r.text)
    return dict(texts)


def followed(english_editions: list[str], record: Record) -> str | None:
    """The English edition a translated record is shown and checked against: the one its
    document follows, else the newest."""
    return followed_by(english_editions, record.follows, record.edition)


def followed_by(english_editions: list[str], follows: str | None, dated: str | None) -> str | None:
    """`followed` of a record's `follows` and `edition` (a hand-off line's, read as JSON)."""
    if follows and follows in english_editions:
        return follows
    return in_effect(english_editions, dated)
