"""Checks for translators beyond numbering (corpus/checks.py): translated rules that disagree
with their English counterpart (named items, list items, cited rules), English rules a
translation lacks or numbers English lacks, and translator notes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from corpus.checks import Problem
from corpus.layouts.base import TRANSLATOR_NOTE
from corpus.numbers import cited_numbers, section_of, sort_key
from corpus.records import Record
from corpus.term_learning import parenthesized_pairs
from corpus.text import fold
from corpus.words import list_items

if TYPE_CHECKING:
    from corpus.terms import TermBase


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

    def add(check: str, message: str) -> None:
        problems.append(Problem(record.source, number, check, message))

    english_text = fold(english.text)
    named = [p.english for p in parenthesized_pairs(record)]
    missing = [name for name in named if fold(name) not in english_text]
    if missing:
        add("names", f"English names not in English {english.number}: {', '.join(missing)}")
    mine, theirs = list_items(record.text), list_items(english.text)
    if mine and theirs:
        missing, extra = _list_differences(record.lang, mine, theirs, termbase)
        if missing or extra or len(mine) != len(theirs):
            parts = [f"{len(mine)} list items here, {len(theirs)} in English {english.number}"]
            if missing:
                parts.append("missing: " + ", ".join(missing))
            if extra:
                parts.append("not in English: " + ", ".join(extra))
            add("list", "; ".join(parts))
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


def _list_differences(
    lang: str, mine: list[str], theirs: list[str], termbase: TermBase | None
) -> tuple[list[str], list[str]]:
    """English items the translated list lacks ("Incubator (Incubatrice)", with the term the
    term base knows in this language) and translated items that name no English item. Items
    are matched by name: the same word, or a term of the same English concept."""
    if termbase is None:
        return [], []
    english_names = {fold(item): item for item in theirs}
    named: set[str] = set()
    unmatched: list[str] = []
    for item in mine:
        concepts = {fold(c) for c in termbase.english_for(item)}
        hits = (concepts | {fold(item)}) & set(english_names)
        if hits:
            named |= hits
        else:
            unmatched.append(item)
    missing = []
    for folded, item in english_names.items():
        if folded in named:
            continue
        known = [t.term for t in termbase.lookup(item) if t.lang == lang]
        missing.append(f"{item} ({known[0]})" if known else item)
    # A translated item that names nothing known may still be the missing one, translated
    # in a way the term base has not seen: report it only when the counts also disagree.
    extra = unmatched if len(mine) > len(theirs) - len(missing) else []
    return missing, extra


def coverage_problems(rules: Sequence[Record], english: Sequence[Record]) -> list[Problem]:
    """Within the sections a translation covers: English numbers it lacks, and numbers it has
    that English lacks (`english`: the rules of the edition it follows)."""
    if not rules:
        return []
    source = rules[0].source
    mine = {r.number for r in rules if r.number and section_of(r.number)}
    sections = {section_of(number) for number in mine}
    theirs = {r.number for r in english if r.number and section_of(r.number) in sections}
    edition = english[0].edition if english else None
    problems = [
        Problem(source, n, "missing", f"English {edition} has {n}; this translation does not")
        for n in sorted(theirs - mine, key=sort_key)
    ]
    problems.extend(
        Problem(source, n, "extra", f"{n} is not a rule of English {edition}")
        for n in sorted(mine - theirs, key=sort_key)
    )
    return problems


def translator_notes(records: Sequence[Record]) -> list[Problem]:
    """Every translator's note ("(NdT: …)"), for a reviewer to read."""
    return [
        Problem(r.source, r.number or r.parent or r.key, "translator-note", note)
        for r in records
        if "translator-note" in r.flags
        for note in _NOTE.findall(r.text)
    ]


_NOTE = re.compile(rf"({TRANSLATOR_NOTE.pattern}[^()]*(?:\([^()]*\)[^()]*)*\))", re.IGNORECASE)
