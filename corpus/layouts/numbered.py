"""Numbered rules text: `205.1.` / `- 205.1a` lines, `Esempio:` lines, `|` separators.

The Italian CR excerpt and the official English CR share this family; the forum copy
(forum.py) reuses the same line engine with its own detection and boilerplate reasons.
"""

from __future__ import annotations

import re

from corpus.layouts.base import (
    EXAMPLE_LINE,
    NOTE_LINE,
    SEPARATOR,
    Builder,
    Context,
    Draft,
    Parsed,
    non_blank,
)
from corpus.numbers import parent_of

NAME = "numbered-rules"

# "- 205.1. Text", "205.1a Text", "205.2a. Text", "901.4.All" (no space, a quirk of the CR).
NUMBERED_LINE = re.compile(
    r"^(?:[-•–]\s*)?(?P<number>\d{3}\.(?:\d+[a-z]{0,2})?)(?P<dot>\.)?(?:\s+|(?=[A-Z]))(?P<text>\S.*)$"
)


def numbered_stats(lines: list[str]) -> tuple[int, int, int, int]:
    """(non-blank lines, numbered lines, subrules printed with a trailing dot, subrules)."""
    rows = non_blank(lines)
    numbered = subrules = dotted = 0
    for _, text in rows:
        match = NUMBERED_LINE.match(text)
        if not match:
            continue
        numbered += 1
        if match["number"][-1].isalpha():
            subrules += 1
            dotted += bool(match["dot"])
    return len(rows), numbered, dotted, subrules


def score(lines: list[str]) -> tuple[float, str]:
    total, numbered, dotted, subrules = numbered_stats(lines)
    if not total or numbered < 2:
        return 0.0, "fewer than two numbered rule lines"
    share = numbered / total
    plain = 1 - dotted / subrules if subrules else 1.0
    return (
        round(share * (0.5 + 0.5 * plain), 3),
        f"{numbered} of {total} lines are numbered rules, "
        f"{subrules - dotted} of {subrules} subrules without a trailing dot",
    )


def parse_numbered(ctx: Context, *, preamble: str, trailer: str) -> Parsed:
    """Numbered rules over the whole document."""
    builder = Builder(ctx)
    add_numbered_rows(builder, non_blank(ctx.lines), preamble=preamble, trailer=trailer)
    return builder.finish()


def add_numbered_rows(
    builder: Builder, rows: list[tuple[int, str]], *, preamble: str, trailer: str
) -> None:
    """Shared line engine: rules, their examples and notes, continuation lines, chrome."""
    ctx = builder.ctx
    last_structural = max(
        (i for i, text in rows if NUMBERED_LINE.match(text) or EXAMPLE_LINE.match(text)),
        default=0,
    )
    rule: Draft | None = None
    current: Draft | None = None
    for line_number, text in rows:
        numbered = NUMBERED_LINE.match(text)
        if line_number == ctx.edition_line and rule is None:
            builder.drop(line_number, text, "metadata: edition date")
        elif SEPARATOR.match(text):
            builder.drop(line_number, text, "separator")
        elif numbered:
            number = numbered["number"].rstrip(".")
            body = numbered["text"].strip()
            is_heading = "." not in number
            rule = current = builder.start(
                Draft(
                    kind="rule",
                    key=number,
                    first=line_number,
                    last=line_number,
                    parts=[body],
                    number=number,
                    parent=parent_of(number),
                    title=body.rstrip(" :") if is_heading or len(body.split()) <= 4 else None,
                )
            )
        elif (EXAMPLE_LINE.match(text) or NOTE_LINE.match(text)) and rule is not None:
            kind = "example" if EXAMPLE_LINE.match(text) else "note"
            body = text.lstrip("-•– ").strip()
            current = builder.start(
                Draft(
                    kind=kind,
                    key=rule.key,
                    first=line_number,
                    last=line_number,
                    parts=[body],
                    parent=rule.number,
                )
            )
        elif rule is None:
            builder.drop(line_number, text, preamble)
        elif line_number > last_structural:
            builder.drop(line_number, text, trailer)
        else:
            assert current is not None
            builder.extend(current, line_number, text)


def parse(ctx: Context) -> Parsed:
    return parse_numbered(ctx, preamble="metadata: document header", trailer="boilerplate: trailer")
