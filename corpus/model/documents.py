"""The documents of the library, each with its own namespace of keys: the Comprehensive Rules
(keys are rule numbers, glossary headwords and mechanics), and the judges' documents, whose keys
carry their document's name: `MTR 2.3`, `IPG 2.1`, `MTR appendix-b`, `JAR serious-problems`.
A judge document's key never looks like a rule number, so MTR chapter 1 is never CR section 1.

This module imports nothing of the project: rule numbers, results and the CLI all ask it."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from corpus.model.records import Document

# name -> what it is called; the CR first, then the judges' documents in the order they are read.
DOCUMENTS = {
    "cr": "Comprehensive Rules",
    "mtr": "Magic Tournament Rules",
    "ipg": "Infraction Procedure Guide",
    "jar": "Judging at Regular REL",
}
JUDGE = ("mtr", "ipg", "jar")
# The layout (corpus/read/layouts) that reads each judge document.
LAYOUTS = {
    "tournament-rules": "mtr",
    "infraction-procedure-guide": "ipg",
    "judging-at-regular": "jar",
}

# A penalty asked for at no level named is the IPG's: the JAR gives none, and the MTR's
# sections tell procedure ("cheating penalty": IPG 4.8 before MTR 5.1).
PENALTY_WORDS = frozenset(
    {
        "penalty",
        "penalties",
        "penalità",
        "penalita",
        "penalizzazione",
        "pénalité",
        "pénalités",
        "penalite",
        "penalización",
        "penalizacion",
        "penalizaciones",
        "penalidad",
        "penalidade",
        "penalidades",
    }
)

# The IPG's penalties, as it writes them after an infraction's name; judges name them so in
# every language ("après une game loss…").
PENALTIES = ("No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification")
# The IPG's chapters of infractions, as its Penalty Quick Reference (Appendix A) heads its rows.
INFRACTION_CHAPTERS = ("Game Play Errors", "Tournament Errors", "Unsporting Conduct")

# The judge document a tournament's level is judged by, and the words that say the level in
# every language: the JAR at Regular REL (a store's casual event, FNM, a prerelease), the IPG
# at Competitive and Professional (as both documents' introductions say).
LEVEL_WORDS = {
    "jar": frozenset(
        {
            "regular",
            "regolare",
            "régulier",
            "régulière",
            "fnm",
            "friday",  # Friday Night Magic
            "prerelease",
            "presentación",  # Spanish: a prerelease
            "presentacion",
            "avant-première",
            "pré-lançamento",
            "casual",
            "amichevole",
            "store",
            "negozio",
            "magasin",
            "tienda",
            "loja",
        }
    ),
    "ipg": frozenset(
        {
            "competitive",
            "competitivo",
            "competitiva",
            "compétitive",
            "compétitif",
            "professional",
            "professionale",
            "professionnel",
            "profesional",
        }
    ),
}

# The JAR's parts by the start of their titles, each with the IPG infractions it fixes: at
# Regular REL a judge fixes what the IPG calls Missed Trigger as the JAR's "A player forgets a
# triggered ability" says. The JAR names no infraction; read side by side, JAR 2024-09-23's
# parts cover these IPG 2024-09-23 sections (its "General Unwanted Behaviors" lists shuffling,
# slow play, advice, tardiness and outcomes by incentives; its "Serious Problems" abuse,
# cheating, theft).
REGULAR_COUNTERPARTS = {
    "A player forgets a triggered ability": ("IPG 2.1",),
    "A player sees a card in a library": ("IPG 2.2",),
    "A player accidentally draws more cards": ("IPG 2.3",),
    "A player makes an in-game error not mentioned above": ("IPG 2.5", "IPG 2.6"),
    "A player has illegal, insufficient": ("IPG 3.4", "IPG 3.5"),
    "General Unwanted Behaviors": (
        "IPG 3.1",
        "IPG 3.2",
        "IPG 3.3",
        "IPG 3.9",
        "IPG 4.3",
        "IPG 4.4",
    ),
    "Serious Problems": ("IPG 4.2", "IPG 4.5", "IPG 4.6", "IPG 4.8"),
}

# Compiled on first use (0.8 ms, for its case-insensitive look-ahead): most texts asked about
# cannot start as a judge document's name: _PREFIX_FIRST holds the characters (?i)[mij] matches,
# those it can start with (tests/test_judge_documents.py checks them against all of Unicode).
_PREFIX = r"^(mtr|ipg|jar)(?![a-z])\s*"
_PREFIX_FIRST = frozenset("mMiIjJ\u0130\u0131")
# A chapter or section ("2", "2.3"), or a section lettered as a CR subrule is ("2.1a").
_NUMBER = re.compile(r"^(\d{1,2})(?:\.(\d{1,2})((?:\.\d{1,3})*)([a-zA-Z])?)?\.?$")
_SLUG = re.compile(r"[^\w]+")
_SECTION_WORD = re.compile(
    r"^(?:§|[-–—]|(?:section|sezione|secci[oó]n|se[çc][ãa]o)\b\.?)\s*", re.IGNORECASE
)


def doc_of_key(key: str) -> str:
    """The document a record's key belongs to: `MTR 2.3` -> mtr; a rule number -> cr."""
    return key[:3].lower() if is_judge_key(key) else "cr"


def is_judge_key(key: str) -> bool:
    """Whether a key is a judge document's part (`MTR 2.3`, `JAR serious-problems`)."""
    return key[:4] in ("MTR ", "IPG ", "JAR ")


def doc_of_layout(layout: str) -> str:
    """The document a parsed document is: a judge document by its layout, else the CR."""
    return LAYOUTS.get(layout, "cr")


def is_english_edition(document: Document) -> bool:
    """An English CR edition: a dated English document of the CR's layouts, not a judge's."""
    cr = doc_of_layout(document.layout) == "cr"
    return document.lang == "en" and bool(document.edition) and cr


def slug(text: str) -> str:
    """A part's name as a key: "Serious Problems" -> serious-problems."""
    return _SLUG.sub("-", text.casefold()).strip("-_")


def key(doc: str, part: str) -> str:
    """The key of a part of a judge document: ("mtr", "2.3") -> "MTR 2.3"."""
    return f"{doc.upper()} {part}"


@cache
def written_key(text: str) -> str | None:
    """A judge document's part as people write it, as its key: "MTR 2.3", "mtr2.3", "mtr 2.3.",
    "IPG 3.1", "ipg 2", "MTR Appendix B", "IPG A" (an appendix by its letter), "jar serious
    problems" (any case, any spacing);
    None for anything else (a rule number, a word)."""
    text = text.strip()
    match = re.match(_PREFIX, text, re.IGNORECASE) if text[:1] in _PREFIX_FIRST else None
    if not match:
        return None
    doc = match[1].lower()
    rest = text[match.end() :].strip()
    if not rest:
        return None
    # "MTR §2.3", "MTR-2.3", "MTR section 2.3", "MTR 2,3" (a decimal comma): MTR 2.3.
    rest = _SECTION_WORD.sub("", rest)
    number = _NUMBER.match(rest.replace(" ", "").replace(",", "."))
    if number:
        # "IPG 2.1a", as a CR subrule is written: no judge document letters its sections, so
        # the key says what was asked ("no IPG 2.1a"), not a slug of it ("2-1a").
        # "MTR 2.3.1", deeper than any judge document numbers: the key as written, so the
        # message names it and the section it is under ("no MTR 2.3.1"), not "2-3-1".
        chapter, section, deeper, letter = number.groups()
        lettered = (letter or "").lower()
        return key(
            doc,
            f"{int(chapter)}.{int(section)}{deeper}{lettered}" if section else str(int(chapter)),
        )
    if doc == "jar" and rest.casefold().startswith("jar "):
        rest = rest[4:]
    if doc != "jar" and re.fullmatch(r"[A-Za-z]\.?", rest):
        # "IPG A", "MTR b.": the appendix of that letter (the MTR and IPG letter theirs).
        rest = f"appendix {rest[0]}"
    return key(doc, slug(rest)) if slug(rest) else None


def whole_document(text: str) -> str | None:
    """A judge document named alone ("IPG", "mtr", " Jar "): its code, else None."""
    name = text.strip().lower()
    return name if name in JUDGE else None


@cache
def sort_key(key_: str) -> tuple[int, int, int, str]:
    """A judge document's key in reading order: after the CR's numbers, the MTR, IPG and JAR;
    within one, the unnumbered front parts, then chapters and sections, then appendices."""
    doc = doc_of_key(key_)
    base = 20_000 + 1_000 * JUDGE.index(doc) if doc in JUDGE else 10_000
    part = key_[4:]
    number = _NUMBER.match(part)
    if number:
        chapter, section, *_ = number.groups()
        return (base + int(chapter), int(section) if section else -1, 0, "")
    if part.startswith("appendix-"):
        return (base + 500, 0, 0, part)
    return (base, -2, 0, "")  # the introduction and framework come first, in document order
