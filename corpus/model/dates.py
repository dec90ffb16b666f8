"""Edition dates written in any language of the table, read with babel's month names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from functools import cache

from corpus.model.languages import LANGUAGES
from corpus.model.text import fold

# Compiled on first use (re's cache): a command that reads no document's date compiles neither.
_DAY_FIRST = (
    r"\b(?P<day>\d{1,2})(?:er|º|°|o)?\s+(?:de\s+)?(?P<month>[^\W\d_]+)\.?\s+"
    r"(?:de\s+|del\s+)?(?P<year>\d{4})\b"
)
_MONTH_FIRST = r"\b(?P<month>[^\W\d_]+)\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})\b"


@cache
def month_names(code: str) -> dict[str, int]:
    """Folded month names (wide and abbreviated) of one language of the table."""
    from babel.dates import get_month_names

    names: dict[str, int] = {}
    for width in ("wide", "abbreviated"):
        for context in ("format", "stand-alone"):
            for number, name in get_month_names(width, context, locale=code).items():
                names[fold(name).rstrip(".")] = number
    return names


# English first: most dated documents are English CRs, and a language's names are loaded
# only when the ones before it do not know a word (no name is two months: tests/test_detection.py).
_MONTH_LANGUAGES = sorted(LANGUAGES, key=lambda code: code != "en")


def month_number(word: str) -> int | None:
    """The month a month's name (folded) is in any language of the table, or None."""
    for code in _MONTH_LANGUAGES:
        if number := month_names(code).get(word):
            return number
    return None


def _written_dates(text: str) -> Iterator[tuple[re.Match[str], date | None]]:
    """Each day, month name and year written in the text, with its date (None: no such day,
    "31 Febbraio 2025")."""
    for pattern in (_DAY_FIRST, _MONTH_FIRST):
        for match in re.finditer(pattern, text):
            month = month_number(fold(match["month"]))
            if month is None:
                continue
            try:
                yield match, date(int(match["year"]), month, int(match["day"]))
            except ValueError:
                yield match, None


def parse_date(text: str) -> date | None:
    """The first date in the text, in any of the four languages, or None."""
    candidates = [(m.start(), found) for m, found in _written_dates(text) if found is not None]
    return min(candidates)[1] if candidates else None


def impossible_date(lines: list[str], limit: int = 40) -> tuple[str, int] | None:
    """A date in a document's opening lines that names a month but no such day ("31 Febbraio
    2025"): its text and 1-based line, to say why the edition is unknown; else None."""
    for number, line in enumerate(lines[:limit], start=1):
        for match, found in _written_dates(line):
            if found is None:
                return match[0], number
    return None


def find_edition(lines: list[str], limit: int = 40) -> tuple[str | None, int | None]:
    """The edition date in a document's opening lines: ISO date and the 1-based line, or None."""
    for number, line in enumerate(lines[:limit], start=1):
        found = parse_date(line)
        if found:
            return found.isoformat(), number
    return None, None


def in_effect(english_editions: Sequence[str], date: str | None) -> str | None:
    """The English edition a translation dated `date` follows: the newest on or before it
    (before them all: the oldest; unknown date: the newest). Editions are ISO dates, sorted."""
    if not english_editions:
        return None
    if date is None:
        return english_editions[-1]
    return in_effect_on(english_editions, date) or english_editions[0]


def typed_date(text: str) -> str | None:
    """An edition date as a user types it (2024-11-08 or 20241108) in ISO form, else None."""
    match = re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text.strip())
    if not match:
        return None
    try:  # 2025-13-45 has the shape of a date and is none
        return date(*map(int, match.groups())).isoformat()
    except ValueError:
        return None


LATEST = "latest"
EDITION_FORMS = "write it as YYYY-MM-DD (e.g. 2024-11-08), YYYYMMDD or latest"


def typed_edition(text: str) -> str | None:
    """An edition as a user names it, in every command and the web app: 2024-11-08, 20241108
    (an ISO date) or latest; None for anything else."""
    return LATEST if text.strip().lower() == LATEST else typed_date(text)


def resolve_edition(wanted: str, editions: Sequence[str]) -> str:
    """`latest` as the newest of the editions loaded; a date as itself."""
    return max(editions) if wanted == LATEST and editions else wanted


def days_between(earlier: str, later: str) -> int:
    """The days from one ISO date to another (ValueError if either is none)."""
    return (date.fromisoformat(later) - date.fromisoformat(earlier)).days


def in_effect_on(editions: Iterable[str], date: str) -> str | None:
    """The edition in effect on a date: the newest on or before it, or None (none yet)."""
    return max((edition for edition in editions if edition <= date), default=None)
