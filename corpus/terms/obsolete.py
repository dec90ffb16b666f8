"""English terms the Comprehensive Rules no longer use, from the glossary's "(Obsolete)" entries,
and what replaced them: "Converted Mana Cost (Obsolete): An obsolete term for mana value." A
translation made before the rename ("custo de mana convertido", Portuguese of 2020) names the old
concept; `term` says so, and lists it under the new one too."""

from __future__ import annotations

import re
from collections.abc import Iterable

OBSOLETE_TITLE = re.compile(r"\s*\(Obsolete\)\s*$", re.IGNORECASE)
# "An obsolete term for mana value." / "… is an obsolete term for “exile [something].”"
_TERM_FOR = re.compile(r"obsolete term for (?:the |an? )?[“\"]?([^.,“”\"\[]+)")
# "… See rule 702.89, “Umbra Armor.”" / "See Exile." (the entry that replaced it)
_SEE_RULE = re.compile(r"See rules? [\d.a-z–-]+, [“\"]([^”\"]+?)\.?[”\"]")
_SEE = re.compile(r"See ([A-Z][^.]+)\.")


def replacement(text: str) -> str | None:
    """The concept an obsolete entry's text says replaced it, lower case, if it names one."""
    for pattern in (_TERM_FOR, _SEE_RULE, _SEE):
        found = pattern.search(text)
        if found:
            return found.group(1).strip(' “”"').lower() or None
    return None


def obsolete_concepts(entries: Iterable[tuple[str, str]]) -> dict[str, str | None]:
    """{old concept: its replacement or None} of the glossary's (title, text) entries whose title
    says "(Obsolete)"; a title of several names ("Intervening 'If' Clause, …") gives each."""
    found: dict[str, str | None] = {}
    for title, text in entries:
        if not OBSOLETE_TITLE.search(title):
            continue
        new = replacement(text)
        for name in OBSOLETE_TITLE.sub("", title).split(","):
            old = name.strip().lower()
            if old:
                found[old] = new if new != old else None
    return found


def still_used(concept: str, texts: Iterable[str]) -> bool:
    """Whether rules still say an obsolete entry's name in another sense ("removed from combat",
    "the legend rule"): then its translations are not out of use either."""
    said = re.compile(rf"\b{re.escape(concept)}\b", re.IGNORECASE)
    return any(said.search(text) for text in texts)


def replaced_by(obsolete: dict[str, str | None]) -> dict[str, list[str]]:
    """{new concept: the obsolete concepts it replaced}."""
    found: dict[str, list[str]] = {}
    for old, new in sorted(obsolete.items()):
        if new:
            found.setdefault(new, []).append(old)
    return found
