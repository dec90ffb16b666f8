"""What the library holds, for the home page and for the notes that say what is missing ("no
French text for 704 in this library: the French documents cover section 205"). Computed once
per build from its hand-off records."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from corpus.model.documents import JUDGE, doc_of_key, is_judge_key
from corpus.model.languages import LANGUAGES, SHOWN_ORDER
from corpus.model.numbers import section_of
from corpus.model.records import Record, StoredRecord

# The languages' names in English, for sentences written in English, and a few searches a
# judge or a translator would type in each (shown for the languages the library holds; the
# crawler test follows each).
ENGLISH_NAMES = {code: language.english_name for code, language in LANGUAGES.items()}
EXAMPLES = {code: language.example_searches for code, language in LANGUAGES.items()}


@dataclass
class Holding:
    """One language's part of the library."""

    lang: str
    documents: list[str] = field(default_factory=list)
    editions: list[str] = field(default_factory=list)
    sections: set[int] = field(default_factory=set)
    # How many records of each kind of the CR: for English, the newest edition's (29 editions
    # summed would say 19,000 glossary entries); for a translation, all of them.
    kinds: Counter[str] = field(default_factory=Counter)
    by_edition: dict[tuple[str, str | None], Counter[str]] = field(default_factory=dict)
    follows: list[str] = field(default_factory=list)  # English editions its documents follow
    # A judge document's own editions (MTR, IPG, JAR: dates that are not the CR's).
    judge_editions: dict[str, list[str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return ENGLISH_NAMES.get(self.lang, self.lang)

    @property
    def coverage(self) -> str:
        """ "section 205", "sections 100–122, 200–209", or "no numbered rules"."""
        if not self.sections:
            return "no numbered rules"
        ranges = _ranges(sorted(self.sections))
        if len(self.sections) == 1:
            return f"section {ranges[0]}"
        if len(ranges) > 4:
            low, high = min(self.sections), max(self.sections)
            return f"{len(self.sections)} sections from {low} to {high}"
        return "sections " + ", ".join(ranges)


@dataclass
class Overview:
    holdings: dict[str, Holding]
    english_editions: list[str]

    @property
    def newest_english(self) -> str | None:
        return self.english_editions[-1] if self.english_editions else None

    @property
    def judge_documents(self) -> list[str]:
        """The judge documents the library holds (mtr, ipg, jar), in that order."""
        held = {doc for holding in self.holdings.values() for doc in holding.judge_editions}
        return [doc for doc in JUDGE if doc in held]

    def missing(self, key: str, lang: str, since: str | None = None) -> str:
        """Why a result has no text in this language. `since`: the first loaded English
        edition with the rule, which a translation that follows an older one cannot have."""
        holding = self.holdings.get(lang)
        name = ENGLISH_NAMES.get(lang, lang)
        if is_judge_key(key) and (holding is None or doc_of_key(key) not in holding.judge_editions):
            return f"no {name} text for {key}: the {doc_of_key(key).upper()} is not in {name} here"
        if holding is None:
            return f"no {name} text for {key}: this library has no {name} document"
        section = section_of(key)
        followed = max(holding.follows, default=None)
        if section.isdigit() and int(section) in holding.sections:
            if since and followed and since > followed and since > self.english_editions[0]:
                # 122.1j (hone counters), new in English 2026-08-07: the Spanish CR follows
                # 2025-11-14 and could not have it, it did not leave it out. (In the oldest
                # loaded edition, a rule may be older than it: when English added it is unknown.)
                return (
                    f"no {name} text for {key}: English added it in {since}, after the edition"
                    f" the {name} documents follow ({followed})"
                )
            # Its section is translated and the rule older than the edition it follows: an
            # entry left untranslated.
            return (
                f"no {name} text for {key} in this library, though its section {section} is "
                f"translated: the {name} documents leave this rule out"
            )
        return f"no {name} text for {key} in this library: the {name} documents cover " + (
            holding.coverage
        )


def _ranges(sections: Sequence[int]) -> list[str]:
    out: list[list[int]] = []
    for section in sections:
        if out and section == out[-1][1] + 1:
            out[-1][1] = section
        else:
            out.append([section, section])
    return [str(a) if a == b else f"{a}–{b}" for a, b in out]


def overview(records: Iterable[Record]) -> Overview:
    holdings: dict[str, Holding] = {}
    english: set[str] = set()
    for record in records:
        holding = holdings.setdefault(record.lang, Holding(record.lang))
        if record.source not in holding.documents:
            holding.documents.append(record.source)
        doc = doc_of_key(record.key)
        dates = holding.editions if doc == "cr" else holding.judge_editions.setdefault(doc, [])
        if record.edition and record.edition not in dates:
            dates.append(record.edition)
        if record.follows and record.follows not in holding.follows:
            holding.follows.append(record.follows)
        holding.by_edition.setdefault((doc, record.edition), Counter())[record.kind] += 1
        section = section_of(record.key) if record.kind == "rule" else ""
        if section.isdigit():
            holding.sections.add(int(section))
        if record.lang == "en" and record.edition and doc == "cr":
            english.add(record.edition)
    for holding in holdings.values():
        newest: dict[str, str | None] = {}
        for doc, edition in holding.by_edition:
            if holding.lang == "en" and edition and edition > (newest.get(doc) or ""):
                newest[doc] = edition
        for (doc, edition), kinds in holding.by_edition.items():
            # The CR's: the line says "(in 2026-08-07)", an edition of the CR; the judge
            # documents' examples and notes are theirs, listed with them.
            if doc == "cr" and (doc not in newest or edition == newest[doc]):
                holding.kinds.update(kinds)
        holding.documents.sort()
        holding.editions.sort()
        holding.follows.sort()
        for dates in holding.judge_editions.values():
            dates.sort()
    ordered = {lang: holdings[lang] for lang in SHOWN_ORDER if lang in holdings}
    return Overview(ordered, sorted(english))


def missing_notes(
    overview: Overview,
    key: str,
    present: Iterable[str],
    wanted: Iterable[str],
    since: str | None = None,
) -> list[str]:
    """A sentence for each wanted language a result has no text in (`since`: the first
    loaded English edition with the rule)."""
    have = set(present)
    return [
        overview.missing(key, lang, since)
        for lang in SHOWN_ORDER
        if lang in wanted and lang not in have
    ]


def english_since(records: Iterable[StoredRecord]) -> str | None:
    """The first loaded English edition of a result's CR rule: its records' oldest."""
    dates = [e for r in records if r.lang == "en" and r.kind == "rule" for e in r.editions]
    return min(dates, default=None)
