"""Judging at Regular Rules Enforcement Level (the JAR): a title, "Updated September 23, 2024",
an unnumbered introduction, then headed parts ("Common Issues", "Serious Problems", …). Under
Common Issues each issue is headed by the situation itself ("A player sees a card in a library
that they shouldn't have seen"), its remedy below. Each part and each issue is a record keyed by
its heading (`JAR serious-problems`, `JAR a-player-sees-a-card-in-a-library`): the key stays
while the words below it change. An issue's parent is the part it is under (`JAR
common-issues`), so that part is shown with its issues."""

from __future__ import annotations

import re

from corpus.model.documents import key as doc_key
from corpus.model.documents import slug
from corpus.read.layouts.base import Builder, Context, Draft, Parsed, non_blank
from corpus.read.layouts.judge import extend
from corpus.read.layouts.numbered import TERMINAL

NAME = "judging-at-regular"
TITLE = re.compile(r"judging\s+at\s+regular", re.IGNORECASE)
TRADEMARK = re.compile(r"trademarks?\s+are\s+property|^©", re.IGNORECASE)
ISSUE = re.compile(r"^A player\b")
KEY_WORDS = 8  # an issue's key: the first words of its heading


def score(lines: list[str]) -> tuple[float, str]:
    rows = non_blank(lines)
    for _, text in rows[:5]:
        if TITLE.search(text) and len(text) < 80:
            headings = sum(1 for i in range(len(rows)) if _is_heading(rows, i))
            if headings >= 2:
                return 0.95, f"title {text!r}, {headings} headed parts"
            return 0.2, f"title {text!r} but {headings} headed parts"
    return 0.0, "no Judging at Regular REL title"


def _is_heading(rows: list[tuple[int, str]], index: int) -> bool:
    """A short line in title case, no closing punctuation, before a line that starts a
    sentence: "Common Issues", "Serious Problems"."""
    text = rows[index][1]
    words = text.split()
    if not 1 <= len(words) <= 5 or text.endswith(TERMINAL) or index + 1 >= len(rows):
        return False
    if not all(w[:1].isupper() or w in ("of", "at", "the", "and", "to") for w in words):
        return False
    following = rows[index + 1][1][:1]
    return (following.isupper() or following == "•") and not TITLE.search(text)


def parse(ctx: Context) -> Parsed:
    builder = Builder(ctx)
    rows = non_blank(ctx.lines)
    title_row = next((i for i, (_, t) in enumerate(rows[:5]) if TITLE.search(t)), -1)
    current: Draft | None = None
    part: str | None = None  # the key of the headed part the issues are under
    index = 0
    while index < len(rows):
        line_number, text = rows[index]
        if line_number == ctx.edition_line:
            builder.drop(line_number, text, "metadata: edition date")
        elif index <= title_row:
            builder.drop(line_number, text, "metadata: document title")
        elif TRADEMARK.search(text):
            builder.drop(line_number, text, "boilerplate: trademarks")
        elif _is_heading(rows, index):
            part = doc_key("jar", slug(text))
            current = builder.start(Draft.on_line("rule", part, line_number, text, title=text))
        elif ISSUE.match(text) and _ends_paragraph(rows, index) and not text.endswith("."):
            heading = [text]
            while heading[-1].count("(") > heading[-1].count(")") and index + 1 < len(rows):
                index += 1
                heading.append(rows[index][1])  # "(one that uses … usually" / "… text)"
            title = " ".join(heading)
            words = slug(re.sub(r"\(.*", "", title)).split("-")[:KEY_WORDS]
            key = doc_key("jar", "-".join(words))
            current = builder.start(
                Draft.on_line("rule", key, line_number, title, title=title, parent=part)
            )
            current.last = rows[index][0]
            current.parts[:] = [title]
        elif current is None:
            current = builder.start(
                Draft.on_line(
                    "rule", doc_key("jar", "introduction"), line_number, text, title="Introduction"
                )
            )
        else:
            extend(builder, current, line_number, text)
        index += 1
    return builder.finish()


def _ends_paragraph(rows: list[tuple[int, str]], index: int) -> bool:
    """The line before ends a sentence or is a heading: this one may start a part."""
    return index > 0 and (rows[index - 1][1].endswith(TERMINAL) or _is_heading(rows, index - 1))
