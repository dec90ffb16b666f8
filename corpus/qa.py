"""Checks for translators beyond numbering (corpus/read/numbering.py): translated rules that
disagree with their English counterpart (named items, list items, cited rules), English rules a
translation lacks or numbers English lacks, and translator notes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from corpus.model.dates import days_between
from corpus.model.numbers import cited_numbers, section_of, sort_key
from corpus.model.records import Record
from corpus.model.text import fold
from corpus.model.words import list_items
from corpus.read.layouts.base import TRANSLATOR_NOTE
from corpus.read.numbering import Problem
from corpus.terms.learning import parenthesized_pairs

if TYPE_CHECKING:
    from corpus.terms.termbase import TermBase


def translation_problems(
    record: Record,
    english: Record,
    termbase: TermBase | None = None,
    english_numbers: frozenset[str] | None = None,
) -> list[Problem]:
    """Where a translated rule and its English counterpart disagree: English names, list items
    (by name, through the term base), cited rules; and cited rules the English edition it
    follows does not have (`english_numbers`)."""
    problems: list[Problem] = []
    number = record.number
    # A misprinted number names two rules: say which one this is (the line it is printed on
    # and the number it was read as), as the duplicate finding does.
    which = ""
    if "misnumbered" in record.flags and english.number != number:
        which = f" (this {number} is line {record.lines[0]}, read as {english.number})"

    def add(check: str, message: str) -> None:
        problems.append(Problem(record.source, number, check, message + which))

    english_text = fold(english.text)
    named = [p.english for p in parenthesized_pairs(record)]
    missing = [name for name in named if fold(name) not in english_text]
    if missing:
        add("names", f"English names not in English {english.number}: {', '.join(missing)}")
    mine, theirs = list_items(record.text), list_items(english.text)
    if mine and theirs:

        def known(item: str) -> str | None:  # the term the term base knows in this language
            found = termbase.lookup(item) if termbase else []
            terms = [t.term for t in found if t.lang == record.lang]
            return terms[0] if terms else None

        pairing = list_pairing(mine, theirs, termbase)
        unpaired = pairing.unpaired(known)
        if unpaired:
            add("list", f"{len(mine)} list items here, {len(theirs)} in English: {unpaired}")
    symbols = symbol_difference(record.text, english.text)
    if symbols:
        add("symbols", symbols)
    cited_here = set(cited_numbers(record.text)) - {number}
    cited_there = set(cited_numbers(english.text)) - {english.number}
    if cited_here != cited_there:
        extra = sorted(cited_here - cited_there, key=sort_key)
        lacking = sorted(cited_there - cited_here, key=sort_key)
        parts = []
        if extra:
            parts.append(f"cites {', '.join(extra)} which English does not")
        if lacking:
            parts.append(f"does not cite {', '.join(lacking)}")
        add("references", "; ".join(parts))
    if english_numbers is not None:
        absent = sorted(
            {n for n in cited_numbers(record.text) if n not in english_numbers}, key=sort_key
        )
        if absent:
            edition = english.edition or "the English edition it follows"
            add("absent", f"cites {', '.join(absent)}, not a rule of English {edition}")
    return problems


@dataclass(frozen=True)
class ListPairing:
    """A translated list's items paired with the English list's: (here, English, how) with
    how "term base" (a term of the same concept), "same" (the same word, mana symbols or
    numbers) or "position" (the rest, in order, when as many are left on each side)."""

    mine: list[str]
    theirs: list[str]
    pairs: list[tuple[int, int, str]]

    def unpaired(self, known: Callable[[str], str | None] = lambda item: None) -> str:
        """The items with no counterpart and how sure that is; "" when every item is paired.
        When one side alone has items left, they surely have no counterpart; three left here
        for two in English means one of the three has none, and which is unsure."""
        here = [item for i, item in enumerate(self.mine) if i not in {p[0] for p in self.pairs}]
        there = [
            f"{item} ({term})" if (term := known(item)) else item
            for j, item in enumerate(self.theirs)
            if j not in {p[1] for p in self.pairs}
        ]
        if len(here) == len(there):
            return ""
        if not here:
            return "missing (sure): " + ", ".join(there)
        if not there:
            return "not in English (sure): " + ", ".join(here)
        if len(here) > len(there):
            return (
                f"{len(here) - len(there)} of {', '.join(here)} not in English (unsure which: "
                f"the term base pairs none of them with {', '.join(there)})"
            )
        return (
            f"{len(there) - len(here)} of {', '.join(there)} missing (unsure which: the term "
            f"base pairs none of them with {', '.join(here)})"
        )


def list_pairing(mine: list[str], theirs: list[str], termbase: TermBase | None) -> ListPairing:
    """Pair the items of a translated list with the English list's: first those the term
    base or the text itself ties (a term of the same concept; the same word, mana symbols or
    numbers), in any order (lists of subtypes are alphabetical in each language); then the
    rest by position, when as many are left on each side (a translation that lists as many
    items as English lists them all)."""
    english = [fold(item) for item in theirs]
    pairs: list[tuple[int, int, str]] = []
    used: set[int] = set()
    for i, item in enumerate(mine):
        concepts = {fold(c) for c in termbase.english_for(item)} if termbase else set()
        for j, folded in enumerate(english):
            if j in used:
                continue
            how = "term base" if folded in concepts else None
            if how is None and (folded == fold(item) or _same_marks(item, theirs[j])):
                how = "same"
            if how is not None:
                pairs.append((i, j, how))
                used.add(j)
                break
    paired = {i for i, _, _ in pairs}
    here = [i for i in range(len(mine)) if i not in paired]
    there = [j for j in range(len(theirs)) if j not in used]
    if len(here) == len(there):
        pairs += [(i, j, "position") for i, j in zip(here, there, strict=True)]
    return ListPairing(mine, theirs, sorted(pairs))


_MARK = re.compile(r"\{[^}]+\}|\d+")


_SYMBOL = re.compile(r"\{[^{}\s]{1,6}\}")


def symbol_difference(text: str, english: str) -> str:
    """How the symbols in braces ({T}, {2}, {W/U}) of a translated rule differ from its
    English counterpart's, each as many times as printed, or "" when they are the same: a
    cost or a symbol is written alike in every language (the Spanish CR's Clue, 111.10f,
    costs "{2},{T}" where English's costs "{2}")."""
    # Compared in any case ({rN} is {RN}), named as the text that has it prints it: a
    # translator searches the catalogue for what it says.
    (here, mine), (there, theirs) = _symbols(text), _symbols(english)
    extra = [mine[s] for s in sorted((here - there).elements())]
    lacking = [theirs[s] for s in sorted((there - here).elements())]
    parts = []
    if extra:
        parts.append(f"prints {' '.join(extra)}, which English does not")
    if lacking:
        parts.append(f"lacks {' '.join(lacking)}, which English prints")
    return "; ".join(parts)


def _symbols(text: str) -> tuple[Counter[str], dict[str, str]]:
    """A text's symbols in upper case, counted, and each as the text prints it."""
    found = _SYMBOL.findall(text)
    return Counter(s.upper() for s in found), {s.upper(): s for s in found}


def _same_marks(a: str, b: str) -> bool:
    """Items that carry the same mana symbols or numbers ("{W} blanco", "{W} is white")."""
    marks = _MARK.findall(a)
    return bool(marks) and marks == _MARK.findall(b)


def coverage_problems(rules: Sequence[Record], english: Sequence[Record]) -> list[Problem]:
    """Within the sections a translation covers: English numbers it lacks, and numbers it has
    that English lacks (`english`: the rules of the edition it follows)."""
    if not rules:
        return []
    source = rules[0].source
    # A misprinted number (corpus/align/misnumbered.py) covers the rule it was read as: its
    # key's number in the English edition (the duplicate's finding says so); so does a rule of
    # a section numbered as an edition not loaded (corpus/align/moved_sections.py).
    read_as = {r.key: r.number for r in english if r.number}
    mine = {
        read_as.get(r.key, r.number) if r.align.method == "number" else r.number
        for r in rules
        if r.number and section_of(r.number)
    }
    sections = {section_of(number) for number in mine}
    theirs = {r.number for r in english if r.number and section_of(r.number) in sections}
    edition = english[0].edition if english else None
    if any(r.original is not None for r in rules):
        # A catalogue has every English line as an entry: a rule it lacks is one left
        # untranslated (counted in `sources`), not one the translator lost.
        lacking = len(theirs - mine)
        message = f"{lacking:,} rules of English {edition} are untranslated entries here"
        return [Problem(source, None, "untranslated", message)] if lacking else []
    lacked = sorted(theirs - mine, key=sort_key)
    holders = _holders(lacked, rules, english, read_as)
    problems = [
        Problem(
            source,
            n,
            "missing",
            f"English {edition} has {n}; this translation does not{holders.get(n, '')}",
        )
        for n in lacked
    ]
    problems.extend(
        Problem(source, n, "extra", f"{n} is not a rule of English {edition}")
        for n in sorted(mine - theirs, key=sort_key)
    )
    return problems


LONGER = 1.8  # a translation runs some 1.1-1.3 times its English; past this it holds more


def _holders(
    lacking: Sequence[str],
    rules: Sequence[Record],
    english: Sequence[Record],
    read_as: dict[str, str],
) -> dict[str, str]:
    """For each English number a translation lacks, where its text may be: the rule before it,
    when that rule here is LONGER times its English or more (the Spanish PDF prints 405.6d and
    405.6e without numbers, so their text ends 405.6c)."""
    english_text = {r.number: r.text for r in english if r.number}
    order = sorted(english_text, key=sort_key)
    place = {number: i for i, number in enumerate(order)}
    here = {read_as.get(r.key, r.number): r.text for r in rules if r.number}
    found = {}
    for number in lacking:
        before = next(
            (order[i] for i in range(place[number] - 1, -1, -1) if order[i] in here), None
        )
        if before is None or not english_text[before]:
            continue
        times = len(here[before]) / len(english_text[before])
        if times >= LONGER:
            found[number] = (
                f" (its text may be in {before}, {times:.1f} times as long here as in English)"
            )
    return found


FAR_BEHIND = 180  # days between a translation's date and the English edition it is checked with


def days_behind(rule: Record, compared: str) -> int | None:
    """How many days a dated translation is after the English edition it is compared with
    (the newest loaded on or before its date), when that is long (over FAR_BEHIND days); None
    when near, or undated, or aligned by its numbering or text (it follows what it matches)."""
    if not rule.edition or not compared or rule.follows != compared:
        return None
    try:
        gap = days_between(compared, rule.edition)
    except ValueError:
        return None
    return gap if gap > FAR_BEHIND else None


def far_behind(rule: Record, compared: str) -> Problem | None:
    """A finding to read first when a dated translation is checked against an English edition
    long before its date: what English changed in between is reported as the translation's
    fault (`days_behind`)."""
    gap = days_behind(rule, compared)
    if gap is None:
        return None
    message = (
        f"dated {rule.edition}, checked against English {compared}, the newest loaded edition "
        f"on or before it ({gap:,} days older): what English changed in between is reported "
        f"here too; add the English edition in effect on {rule.edition} for a truer check"
    )
    return Problem(rule.source, None, "edition", message)


# What a translator must fix first: rules missing or extra, numbers printed twice or out of
# order, wrong citations, lists, then the notes to read. (kind -> severity, rank)
SEVERITY: dict[str, tuple[str, int]] = {
    "edition": ("info", 0),  # checked against English long before its date: read first
    "missing": ("error", 1),
    "extra": ("error", 2),
    "duplicate": ("error", 3),
    "order": ("error", 3),
    "letter": ("warning", 3),
    "gap": ("warning", 3),
    "typed": ("warning", 3),  # a catalogue's msgstr numbered unlike its msgid
    "references": ("warning", 4),
    "absent": ("warning", 4),
    "list": ("warning", 5),
    "names": ("warning", 5),
    "symbols": ("warning", 5),
    "translator-note": ("info", 6),
    "untranslated": ("info", 7),
}


def severity(kind: str) -> tuple[str, int]:
    """A finding's severity and rank (a kind not in the table comes last, as information)."""
    return SEVERITY.get(kind, ("info", 9))


def ranked(problems: Sequence[Problem]) -> list[Problem]:
    """Most severe first; within a kind, by document and rule number."""
    return sorted(
        problems,
        key=lambda p: (severity(p.check)[1], p.source, sort_key(p.number or "")),
    )


def translator_notes(records: Sequence[Record]) -> list[Problem]:
    """Every translator's note ("(NdT: …)"), for a reviewer to read."""
    return [
        Problem(r.source, r.number or r.parent or _glossary_place(r), "translator-note", note)
        for r in records
        if "translator-note" in r.flags
        for note in _NOTE.findall(r.text)
    ]


def _glossary_place(record: Record) -> str:
    """Where a note stands that has no rule number: a glossary entry by its headword, said so
    (`glossary "You, Your"`, not "You, Your" where a rule number goes)."""
    return f'glossary "{record.key}"' if record.kind == "glossary" else record.key


_NOTE = re.compile(rf"({TRANSLATOR_NOTE.pattern}[^()]*(?:\([^()]*\)[^()]*)*\))", re.IGNORECASE)
