"""What every layout parser receives and returns, and a helper to build records in order."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar

from corpus.model.languages import all_labels
from corpus.model.numbers import parent_of
from corpus.model.records import BY_NUMBER, Align, Dropped, Record
from corpus.model.text import normalize

T = TypeVar("T")
SEPARATOR = re.compile(r"^[\s|\-_=*~#·•.]+$")
# A translator's note inside a rule: "(NdT: …)", "(N.d.T.: …)", "(Nota del traduttore: …)".
TRANSLATOR_NOTE = re.compile(
    rf"\((?:N\.?\s?d\.?\s?[TR]\.?|{'|'.join(all_labels('translator_note_labels'))})\s*:",
    re.IGNORECASE,
)


def label_pattern(attribute: str) -> re.Pattern[str]:
    """`Esempio:`, `- Example:`, `Exemple :` ... for one kind of label in every language."""
    labels = "|".join(re.escape(label) for label in all_labels(attribute))
    return re.compile(rf"^(?:[-•–>*]+\s*)?(?:{labels})\s*:", re.IGNORECASE)


EXAMPLE_LINE = label_pattern("example_labels")
NOTE_LINE = label_pattern("note_labels")


@dataclass(frozen=True)
class Context:
    """A decoded document with what was detected before parsing."""

    source: str
    lang: str
    edition: str | None
    lines: list[str]  # raw lines, index 0 is line 1
    edition_line: int | None = None


@dataclass
class Parsed:
    records: list[Record] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass
class Draft:
    """A record being assembled from one or more lines."""

    kind: str
    key: str
    first: int
    last: int
    parts: list[str]
    number: str | None = None
    inferred: bool = False
    parent: str | None = None
    title: str | None = None
    align: Align = BY_NUMBER

    @classmethod
    def on_line(cls, kind: str, key: str, line: int, text: str | None, **fields: Any) -> Draft:
        """A record that starts on one line; with no text there, its text follows."""
        return cls(kind, key, line, line, [text] if text else [], **fields)

    @classmethod
    def rule(cls, number: str, line: int, text: str | None, **fields: Any) -> Draft:
        """A numbered rule keyed by its number, its parent derived from it."""
        fields.setdefault("parent", parent_of(number))
        return cls.on_line("rule", number, line, text, number=number, **fields)

    def child(self, line: int, text: str) -> Draft:
        """An `Esempio:`/`Note :` line under this rule: same key, this rule as parent."""
        kind = "example" if EXAMPLE_LINE.match(text) else "note"
        return Draft.on_line(kind, self.key, line, text, parent=self.number)


class Builder:
    """Collects drafts and dropped lines; turns drafts into frozen records in source order."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.parsed = Parsed()
        self._drafts: list[Draft] = []

    def start(self, draft: Draft) -> Draft:
        self._drafts.append(draft)
        return draft

    def extend(self, draft: Draft, line_number: int, text: str) -> None:
        draft.parts.append(text)
        draft.last = line_number

    def drop(self, line_number: int, text: str, reason: str) -> None:
        self.parsed.dropped.append(Dropped(line_number, normalize(text), reason))

    def warn(self, message: str) -> None:
        self.parsed.warnings.append(message)

    def finish(self) -> Parsed:
        drafts = [draft for draft in self._drafts if draft.parts]
        for seq, draft in enumerate(drafts):
            text = normalize(" ".join(draft.parts))
            self.parsed.records.append(
                Record(
                    lang=self.ctx.lang,
                    source=self.ctx.source,
                    kind=draft.kind,
                    text=text,
                    lines=(draft.first, draft.last),
                    key=draft.key,
                    number=draft.number,
                    inferred=draft.inferred,
                    parent=draft.parent,
                    edition=self.ctx.edition,
                    title=draft.title,
                    align=draft.align,
                    seq=seq,
                    flags=("translator-note",) if TRANSLATOR_NOTE.search(text) else (),
                )
            )
        self.parsed.dropped.sort(key=lambda d: d.line)
        return self.parsed


def for_the_last_lines(function: Callable[[list[str]], T]) -> Callable[[list[str]], T]:
    """Keep the answer for the last list of lines asked about: detection and parsing ask the
    same questions of one document's lines a dozen times (do not change the list in place
    after asking)."""
    last: list[Any] = []

    @wraps(function)
    def answer(lines: list[str]) -> T:
        if not (last and last[0] is lines and last[1] == len(lines)):
            last[:] = [lines, len(lines), function(lines)]
        result: T = last[2]
        return result

    return answer


@for_the_last_lines
def _rows(lines: list[str]) -> tuple[tuple[int, str], ...]:
    return tuple(
        (i, stripped) for i, line in enumerate(lines, start=1) if (stripped := line.strip())
    )


def non_blank(lines: list[str]) -> list[tuple[int, str]]:
    """(1-based line number, stripped text) of every non-blank line."""
    return list(_rows(lines))
