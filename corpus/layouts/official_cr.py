"""The official Comprehensive Rules text as Wizards publishes it: title, effective date,
introduction, contents, chapters (`1. Game Concepts`), numbered rules with examples, the
glossary (a term line, then its definition) and the credits."""

from __future__ import annotations

import re

from corpus.layouts.base import Builder, Context, Draft, Parsed, non_blank
from corpus.layouts.numbered import add_numbered_rows, numbered_stats

NAME = "comprehensive-rules"

CHAPTER = re.compile(r"^(?P<number>\d)\.\s+(?P<title>\S.*)$")
# The official CR in English and as Wizards publishes its translations.
TITLE = re.compile(
    r"comprehensive rules|regolamento completo|regole complete|règles complètes|"
    r"reglas completas|reglamento completo",
    re.IGNORECASE,
)
GLOSSARY = {"glossary", "glossario", "glossaire", "glosario"}
CREDITS = {"credits", "crediti", "riconoscimenti", "crédits", "créditos"}
CONTENTS = {
    "contents", "table of contents", "indice", "sommario", "sommaire", "table des matières",
    "índice", "contenido", "contenidos",
}  # fmt: skip


def _positions(rows: list[tuple[int, str]], names: set[str]) -> list[int]:
    return [index for index, (_, text) in enumerate(rows) if text.lower() in names]


def score(lines: list[str]) -> tuple[float, str]:
    rows = non_blank(lines)
    titled = any(TITLE.search(text) for _, text in rows[:5])
    glossary = len(_positions(rows, GLOSSARY))
    contents = bool(_positions(rows[:40], CONTENTS))
    total, numbered, _, _ = numbered_stats(lines)
    if not (titled and glossary and numbered >= 2):
        return 0.0, "no Comprehensive Rules title, glossary and numbered rules"
    value = min(1.0, 0.8 + 0.1 * contents + 0.1 * (glossary > 1))
    return value, (
        f"title {rows[0][1]!r}, {'a contents list, ' if contents else ''}"
        f"{numbered} numbered rules of {total} lines, a glossary"
    )


def parse(ctx: Context) -> Parsed:
    builder = Builder(ctx)
    rows = non_blank(ctx.lines)
    contents = _positions(rows, CONTENTS)
    glossary = _positions(rows, GLOSSARY)
    credits = _positions(rows, CREDITS)
    # The contents list ends with its own "Credits" line; the body starts after it.
    contents_start = contents[0] if contents else 0
    body_start = next((c + 1 for c in credits if c > contents_start), contents_start)
    glossary_start = next((g for g in glossary if g > body_start), len(rows))
    credits_start = next((c for c in credits if c > glossary_start), len(rows))

    for index, (line_number, text) in enumerate(rows[:body_start]):
        if line_number == ctx.edition_line:
            reason = "metadata: edition date"
        elif index == 0:
            reason = "metadata: document title"
        elif index >= contents_start and contents:
            reason = "table of contents"
        else:
            reason = "front matter: introduction"
        builder.drop(line_number, text, reason)

    body = rows[body_start:glossary_start]
    chapters = [(i, CHAPTER.match(text)) for i, (_, text) in enumerate(body)]
    start = 0
    for position, match in [*((i, m) for i, m in chapters if m), (len(body), None)]:
        add_numbered_rows(
            builder, body[start:position], preamble="front matter", trailer="front matter"
        )
        if match is not None:
            line_number = body[position][0]
            builder.start(
                Draft.rule(match["number"], line_number, match["title"], title=match["title"])
            )
        start = position + 1

    if glossary_start < len(rows):
        builder.drop(rows[glossary_start][0], rows[glossary_start][1], "heading: glossary")
    _add_glossary(builder, ctx, glossary_start + 1, credits_start)
    for line_number, text in rows[credits_start:]:
        builder.drop(line_number, text, "boilerplate: credits")
    return builder.finish()


def _add_glossary(builder: Builder, ctx: Context, first_row: int, end_row: int) -> None:
    """Glossary entries: a term line, its definition on the following lines, a blank between."""
    rows = non_blank(ctx.lines)
    if first_row >= end_row:
        return
    first_line, last_line = rows[first_row][0], rows[end_row - 1][0]
    entry: Draft | None = None
    for line_number in range(first_line, last_line + 1):
        text = ctx.lines[line_number - 1].strip()
        if not text:
            entry = None
        elif entry is None:
            entry = builder.start(Draft.on_line("glossary", text, line_number, None, title=text))
        else:
            builder.extend(entry, line_number, text)
