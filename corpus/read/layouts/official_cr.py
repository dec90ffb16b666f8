"""The Comprehensive Rules, official English or translated, whole: title, effective date,
introduction, contents, chapters (`1. Game Concepts`, `1. Conceptos de juego`), numbered rules
with examples, the glossary (a headword, then its definition) and the credits. Translations are
often found without their front matter (a PDF with the first pages cut, a site's copy): the
chapters opening their sections tell the layout then."""

from __future__ import annotations

import re
from collections.abc import Sequence

from corpus.model.languages import all_labels
from corpus.model.records import Record
from corpus.read.layouts.base import EXAMPLE_LINE, Builder, Context, Draft, Parsed, non_blank
from corpus.read.layouts.numbered import NUMBERED_LINE, TERMINAL, add_numbered_rows, numbered_stats

NAME = "comprehensive-rules"

CHAPTER = re.compile(r"^(?P<number>\d)\.\s+(?P<title>\S.*)$")
SECTION = re.compile(r"^(?P<number>\d{3})\.\s+(?P<title>\S.*)$")
SEE_ALSO = re.compile(rf"^(?:{'|'.join(all_labels('see_words'))})\b", re.IGNORECASE)
# The official CR in English and as Wizards publishes its translations.
TITLE = re.compile("|".join(map(re.escape, all_labels("title_phrases"))), re.IGNORECASE)
GLOSSARY = set(all_labels("glossary_headings"))
CREDITS = set(all_labels("credits_headings"))
CONTENTS = set(all_labels("contents_headings"))


def _positions(rows: list[tuple[int, str]], names: set[str]) -> list[int]:
    longest = max(map(len, names)) + 2
    return [
        index
        for index, (_, text) in enumerate(rows)
        if len(text) <= longest and text.lower().rstrip(" :") in names
    ]


def _body_chapters(rows: list[tuple[int, str]]) -> list[int]:
    """Rows that open a chapter of the rules themselves: "1. Conceptos de juego", then its
    first section heading ("100. General"), then within a few lines a rule of that chapter
    ("100.1. …"). In a contents list the headings are followed by more headings."""
    found = []
    for index, (_, text) in enumerate(rows[:-2]):
        chapter = CHAPTER.match(text)
        section = SECTION.match(rows[index + 1][1])
        if not (chapter and section and section["number"][0] == chapter["number"]):
            continue
        following = (NUMBERED_LINE.match(text) for _, text in rows[index + 2 : index + 5])
        if any(
            m and "." in m["number"].rstrip(".") and m["number"][0] == chapter["number"]
            for m in following
        ):
            found.append(index)
    return found


def score(lines: list[str]) -> tuple[float, str]:
    rows = non_blank(lines)
    titled = any(TITLE.search(text) for _, text in rows[:5])
    glossary = len(_positions(rows, GLOSSARY))
    contents = bool(_positions(rows[:40], CONTENTS))
    total, numbered, _, _ = numbered_stats(lines)
    if titled and glossary and numbered >= 2:
        value = min(1.0, 0.8 + 0.1 * contents + 0.1 * (glossary > 1))
        return value, (
            f"title {rows[0][1]!r}, {'a contents list, ' if contents else ''}"
            f"{numbered} numbered rules of {total} lines, a glossary"
        )
    chapters = _body_chapters(rows)
    if len(chapters) >= 2 and (glossary or len(chapters) >= 3):
        value = 0.95 if glossary else 0.9
        return value, (
            f"no title page: {len(chapters)} chapters opening their sections "
            f"({rows[chapters[0]][1]!r}, …), {numbered} numbered rules of {total} lines"
            + (", a glossary" if glossary else "")
        )
    return 0.0, "no Comprehensive Rules title, glossary and numbered rules"


def cut_short(lines: list[str], records: Sequence[Record]) -> bool:
    """Whether a document opens as the Comprehensive Rules do (their title) but has no
    glossary after its rules: a file cut short, whose missing rules would read as rules the
    edition removed."""
    titled = any(TITLE.search(text) for _, text in non_blank(lines)[:5])
    return titled and not any(r.kind == "glossary" for r in records)


def parse(ctx: Context) -> Parsed:
    builder = Builder(ctx)
    rows = non_blank(ctx.lines)
    chapters = _body_chapters(rows)
    contents = _positions(rows, CONTENTS)
    credits = _positions(rows, CREDITS)
    contents_start = contents[0] if contents else None
    if chapters:
        body_start = chapters[0]
    elif contents_start is not None:
        # The contents list ends with its own "Credits" line; the body starts after it.
        body_start = next((c + 1 for c in credits if c > contents_start), contents_start)
    else:
        body_start = next(
            (i for i, (_, text) in enumerate(rows) if NUMBERED_LINE.match(text)), len(rows)
        )
    glossary_start = next((g for g in _positions(rows, GLOSSARY) if g > body_start), len(rows))
    credits_start = next((c for c in credits if c > glossary_start), len(rows))

    for index, (line_number, text) in enumerate(rows[:body_start]):
        if line_number == ctx.edition_line:
            reason = "metadata: edition date"
        elif index == 0 and TITLE.search(text):
            reason = "metadata: document title"
        elif contents_start is not None and index >= contents_start:
            reason = "table of contents"
        else:
            reason = "front matter: introduction"
        builder.drop(line_number, text, reason)

    body = rows[body_start:glossary_start]
    # A chapter line is the next chapter, or one that opens its own sections (an excerpt may
    # skip chapters); "1. Esta es una acción …" inside a rule is neither.
    opening = {index - body_start for index in chapters}
    openings: list[tuple[int, re.Match[str]]] = []
    for position, (_, text) in enumerate(body):
        match = CHAPTER.match(text)
        last = int(openings[-1][1]["number"]) if openings else 0
        if match and (
            int(match["number"]) == last + 1
            or (position in opening and int(match["number"]) > last)
        ):
            openings.append((position, match))
    start = 0
    for position, match in [*openings, (len(body), None)]:
        # Lines after a chapter's last rule continue it: a PDF wraps rules at the page width.
        add_numbered_rows(builder, body[start:position], preamble="front matter", trailer=None)
        if match is not None:
            line_number = body[position][0]
            builder.start(
                Draft.rule(match["number"], line_number, match["title"], title=match["title"])
            )
        start = position + 1

    if glossary_start < len(rows):
        builder.drop(rows[glossary_start][0], rows[glossary_start][1], "heading: glossary")
    glossary = rows[glossary_start + 1 : credits_start]
    for entry in _glossary_entries(ctx.lines, glossary):
        (first, headword), *definition = entry
        draft = builder.start(Draft.on_line("glossary", headword, first, None, title=headword))
        for line_number, text in definition:
            builder.extend(draft, line_number, text)
    for line_number, text in rows[credits_start:]:
        builder.drop(line_number, text, "boilerplate: credits")
    return builder.finish()


Row = tuple[int, str]


def _glossary_entries(lines: list[str], rows: list[Row]) -> list[list[Row]]:
    """Glossary entries, each its headword row and definition rows. The text files put a blank
    line between entries; a PDF's text has none, so there a headword is told by its shape."""
    if not rows:
        return []
    first, last = rows[0][0], rows[-1][0]
    blanks = sum(1 for n in range(first, last) if not lines[n - 1].strip() and lines[n].strip())
    if blanks >= 0.25 * len(rows):
        entries: list[list[Row]] = []
        previous = first - 1
        for row in rows:
            if not entries or row[0] > previous + 1:
                entries.append([])
            entries[-1].append(row)
            previous = row[0]
        return entries
    entries = []
    for index, row in enumerate(rows):
        following = rows[index + 1][1] if index + 1 < len(rows) else ""
        before = rows[index - 1][1] if index else "."
        if not entries or _is_headword(before, row[1], following):
            entries.append([row])
        else:
            entries[-1].append(row)
    return entries


SENSE = re.compile(r"^\d{1,2}\.\s")  # "1. Text on an object…": a numbered sense


def _is_headword(before: str, text: str, following: str) -> bool:
    """A short line with no closing punctuation, after a line that ends a definition and before
    one that starts one ("Jugador activo" between "… 805.4a." and "El jugador cuyo …")."""
    ends_definition = (
        before.endswith(TERMINAL)
        or before.endswith("”,")  # a stray comma after the cited rule's name
        or (bool(SEE_ALSO.match(before)) and len(before.split()) <= 8)  # "Ver también X"
        or text == before  # "Ver también\nRegla de mundo" then the entry "Regla de mundo"
    )
    return (
        ends_definition
        and len(text) <= 60
        and len(text.split()) <= 8
        and not text.endswith((".", ",", ";", ":"))
        and not text[:1].islower()
        and not SENSE.match(text)
        and not SEE_ALSO.match(text)
        and not EXAMPLE_LINE.match(text)
        and bool(following)
        and (following[:1].isupper() or following[:1] in '“"«(¿¡' or bool(SENSE.match(following)))
    )
