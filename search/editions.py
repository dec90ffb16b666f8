"""Records grouped by language and edition, for the translators' commands."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import click

from corpus.records import Record


def by_edition(records: Sequence[Record], lang: str) -> dict[str, list[Record]]:
    """edition date -> that edition's records in one language (undated ones are left out)."""
    editions: dict[str, list[Record]] = {}
    for record in records:
        if record.lang == lang and record.edition:
            editions.setdefault(record.edition, []).append(record)
    return dict(sorted(editions.items()))


def colour_diff(diff: str) -> str:
    """Removed words red, added words green, on a terminal only; the document's own text made
    safe for a terminal first (the colours are ours)."""
    from search.safe_text import terminal_safe

    diff = terminal_safe(diff)
    if not sys.stdout.isatty():
        return diff
    diff = re.sub(r"\[-(.*?)-\]", lambda m: click.style(m[0], fg="red"), diff)
    return re.sub(r"\{\+(.*?)\+\}", lambda m: click.style(m[0], fg="green"), diff)
