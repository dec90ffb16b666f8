"""Set-mechanics article: per mechanic a heading, category lines, reminder text in parentheses,
article paragraphs under sub-headings, then official rulings, one per paragraph.

Records are keyed by the mechanic's English name from the curated table (corpus/data)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.model.languages import all_labels
from corpus.model.mechanics import Mechanic, find_mechanics
from corpus.model.records import Align
from corpus.read.layouts.base import Builder, Context, Draft, Parsed, non_blank

NAME = "mechanics-article"

_CATEGORY_WORDS = "|".join(re.escape(w) for w in all_labels("category_words"))
CATEGORY = re.compile(rf"^(?:{_CATEGORY_WORDS})\b[^.:;!?]*$", re.IGNORECASE)
RULINGS = re.compile(
    r"^(?:" + "|".join(re.escape(h) for h in all_labels("rulings_headings")) + r")\s*:?$",
    re.IGNORECASE,
)
REMINDER = re.compile(r"^\(.*\)$")


def is_category(text: str) -> bool:
    return len(text.split()) <= 7 and bool(CATEGORY.match(text))


def is_subheading(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters) and len(text.split()) <= 8


def score(lines: list[str]) -> tuple[float, str]:
    rows = [text for _, text in non_blank(lines)]
    categories = sum(is_category(text) for text in rows)
    rulings = sum(bool(RULINGS.match(text)) for text in rows)
    reminders = sum(bool(REMINDER.match(text)) for text in rows)
    if not categories or not rulings:
        return 0.0, "no mechanic category lines or no official rulings heading"
    value = min(1.0, 0.5 + 0.1 * categories + 0.1 * rulings + 0.05 * reminders)
    return value, (
        f"{categories} mechanic category lines, {rulings} rulings headings, "
        f"{reminders} reminder texts"
    )


@dataclass
class Section:
    heading: str
    mechanic: Mechanic | None
    subheading: str | None = None
    in_rulings: bool = False

    def title(self) -> str:
        if self.subheading and not self.in_rulings:
            return self.subheading.capitalize()
        return self.heading

    def key_for(self, kind: str, text: str, lang: str) -> tuple[str, Align]:
        """The section's mechanic, or a mechanic the section covers when the text is about it:
        its sub-heading names only that one, or a ruling opens with its name."""
        if self.mechanic is None:
            return self.heading, Align("own", 0.0)
        covered = [m for m in self._named(kind, text, lang) if m.part_of == self.mechanic.english]
        if covered:
            return covered[0].english, Align("mechanic", 1.0)
        return self.mechanic.english, Align("mechanic", 1.0)

    def _named(self, kind: str, text: str, lang: str) -> list[Mechanic]:
        if kind == "article" and self.subheading:
            named = find_mechanics(self.subheading, lang)
            return [] if self.mechanic in named else named
        if kind == "ruling":
            return find_mechanics(" ".join(text.split()[:2]), lang)
        return []


def parse(ctx: Context) -> Parsed:
    builder = Builder(ctx)
    rows = non_blank(ctx.lines)
    starts = {
        index - 1
        for index, (_, text) in enumerate(rows)
        if index and is_category(text) and not is_category(rows[index - 1][1])
    }
    preamble = [text for index, (_, text) in enumerate(rows) if index < min(starts, default=0)]
    if preamble:
        builder.parsed.metadata["site"] = preamble[0]
        if len(preamble) > 1:
            builder.parsed.metadata["title"] = " ".join(preamble[1:])
    section: Section | None = None
    for index, (line_number, text) in enumerate(rows):
        if index in starts:
            named = find_mechanics(text, ctx.lang)
            section = Section(heading=text, mechanic=named[0] if named else None)
            builder.drop(line_number, text, "heading: mechanic")
            if section.mechanic is None:
                builder.warn(f"line {line_number}: mechanic {text!r} is not in the mechanics table")
        elif section is None:
            builder.drop(line_number, text, "metadata: site and set title")
        elif is_category(text) and not section.in_rulings:
            builder.drop(line_number, text, "metadata: mechanic category")
        elif RULINGS.match(text):
            section.in_rulings = True
            builder.drop(line_number, text, "heading: official rulings")
        elif is_subheading(text):
            section.subheading = text
            section.in_rulings = False
            builder.drop(line_number, text, "heading: article sub-heading")
        else:
            kind = (
                "reminder"
                if REMINDER.match(text) and not section.in_rulings
                else "ruling"
                if section.in_rulings
                else "article"
            )
            key, align = section.key_for(kind, text, ctx.lang)
            builder.start(
                Draft.on_line(kind, key, line_number, text, title=section.title(), align=align)
            )
    return builder.finish()
