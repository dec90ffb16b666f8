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

NAME = "numbered-rules"

# "- 205.1. Text", "205.1a Text", "205.2a. Text", "901.4.All" (no space, a quirk of the CR).
# "205.1a Text", "- 205.1. Text", "205.2a. Text", "901.4.All" (no space, a quirk of the CR), and
# as other copies write them: "**205.4d** Text", "## 205.4 Supertipi", "[205.4d] Text",
# "205.4d: Text", "> 205.4d Text". The number may stand alone, with the text on the next line.
NUMBERED_LINE = re.compile(
    r"^(?:[-•–>#*]+\s*)?[\[(]?(?:\*\*|__)?(?P<number>\d{3}\.(?:\d+[a-z]{0,2})?)(?P<dot>\.)?"
    r"(?:\*\*|__)?[\])]?:?(?:(?:\s+|(?=[A-Z]))(?P<text>\S.*))?$"
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


def parse_numbered(
    ctx: Context, *, preamble: str, trailer: str | None, chrome: re.Pattern[str] | None = None
) -> Parsed:
    """Numbered rules over the whole document."""
    builder = Builder(ctx)
    add_numbered_rows(
        builder, non_blank(ctx.lines), preamble=preamble, trailer=trailer, chrome=chrome
    )
    return builder.finish()


def add_numbered_rows(
    builder: Builder,
    rows: list[tuple[int, str]],
    *,
    preamble: str,
    trailer: str | None,
    chrome: re.Pattern[str] | None = None,
) -> None:
    """Shared line engine: rules, their examples and notes, continuation lines, chrome lines
    (`chrome`: quote and reply lines of a forum) dropped wherever they are. Lines after the
    last rule are dropped as `trailer`, or continue the last rule when it is None."""
    ctx = builder.ctx
    structural = [
        index
        for index, (_, text) in enumerate(rows)
        if NUMBERED_LINE.match(text) or EXAMPLE_LINE.match(text)
    ]
    last_structural = rows[structural[-1]][0] if structural else 0
    if structural:
        last = NUMBERED_LINE.match(rows[structural[-1]][1])
        if last and not last["text"] and structural[-1] + 1 < len(rows):
            last_structural = rows[structural[-1] + 1][0]  # its text is on the next line
    rule: Draft | None = None
    current: Draft | None = None
    for line_number, text in rows:
        numbered = NUMBERED_LINE.match(text)
        if line_number == ctx.edition_line and rule is None:
            builder.drop(line_number, text, "metadata: edition date")
        elif SEPARATOR.match(text):
            builder.drop(line_number, text, "separator")
        elif chrome is not None and chrome.match(text):
            builder.drop(line_number, text, "boilerplate: forum chrome")
        elif numbered:
            number = numbered["number"].rstrip(".")
            body = (numbered["text"] or "").strip()
            is_heading = "." not in number
            rule = current = builder.start(
                Draft.rule(number, line_number, body, title=_title(body, is_heading))
            )
        elif (EXAMPLE_LINE.match(text) or NOTE_LINE.match(text)) and rule is not None:
            current = builder.start(rule.child(line_number, text.lstrip("-•– ").strip()))
        elif rule is None:
            builder.drop(line_number, text, preamble)
        elif trailer is not None and line_number > last_structural:
            builder.drop(line_number, text, trailer)
        else:
            assert current is not None
            if current.kind == "rule" and not current.parts and current.number:
                current.title = _title(text, "." not in current.number)  # number-alone line
            builder.extend(current, line_number, text)


def _title(body: str, is_heading: bool) -> str | None:
    """Section headings and short rules ("Tipi di carta") are titles too."""
    return body.rstrip(" :") if body and (is_heading or len(body.split()) <= 4) else None


def parse(ctx: Context) -> Parsed:
    # Lines after the last rule continue it (a wrapped line, a PDF page); a forum's footer is
    # the forum layout's business.
    return parse_numbered(ctx, preamble="metadata: document header", trailer=None)
