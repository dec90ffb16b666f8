"""Numbered rules text: `205.1.` / `- 205.1a` lines, `Esempio:` lines, `|` separators.

The Italian CR excerpt and the official English CR share this family; the forum copy
(forum.py) reuses the same line engine with its own detection and boilerplate reasons.
"""

from __future__ import annotations

import re

from corpus.model.numbers import RuleNumber
from corpus.read.layouts.base import (
    EXAMPLE_LINE,
    NOTE_LINE,
    SEPARATOR,
    Builder,
    Context,
    Draft,
    Parsed,
    for_the_last_lines,
    non_blank,
)

NAME = "numbered-rules"

# "- 205.1. Text", "205.1a Text", "205.2a. Text", "901.4.All" (no space, a quirk of the CR).
# "205.1a Text", "- 205.1. Text", "205.2a. Text", "901.4.All" (no space, a quirk of the CR), and
# as other copies write them: "**205.4d** Text", "## 205.4 Supertipi", "[205.4d] Text",
# "205.4d: Text", "> 205.4d Text". The number may stand alone, with the text on the next line.
# A closing bracket only after an opening one: "120.6.) Cualquier …" is a wrapped citation.
# Translations also print a subrule letter in capitals ("111.10S") or a decimal comma
# ("111,10m"); the number is read as the rule it is, and the printed form is warned about.
NUMBERED_LINE = re.compile(
    r"^(?:[-•–>#*]+\s*)?(?P<open>[\[(])?(?:\*\*|__)?"
    r"(?P<number>\d{3}(?:\.(?:\d+(?:[a-z]{1,2}|[A-Z](?=\s))?)?|,\d+[a-z]{1,2}))(?P<dot>\.)?"
    r"(?:\*\*|__)?(?(open)[\])]):?(?:(?:\s+|(?=[A-Z]))(?P<text>\S.*))?$"
)


def printed_number(match: re.Match[str]) -> str:
    """The rule number of a NUMBERED_LINE match as the CR writes it: 111,10m -> 111.10m,
    111.10S -> 111.10s, 205.1. -> 205.1."""
    return match["number"].rstrip(".").replace(",", ".").lower()


@for_the_last_lines
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
    # One numbered line alone is a document of one rule (a rule quoted, saved on its own);
    # among other lines one is too little to call the document numbered rules.
    if not total or (numbered < 2 and not numbered == total == 1):
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
        elif numbered and not _wrapped_reference(current, printed_number(numbered)):
            number = printed_number(numbered)
            if number != numbered["number"].rstrip("."):
                builder.warn(
                    f"rule {number} is printed {numbered['number']!r} (line {line_number})"
                )
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


# A line that ends one of these ends a sentence, a heading or a list lead-in.
TERMINAL = tuple(".:;!?)]”\"»’'…")


def _wrapped_reference(current: Draft | None, number: str) -> bool:
    """A line that starts with a rule number but continues the current record: the line before
    it stops mid-sentence ("… Ver la regla") and the number cannot come next in the numbering
    (a cited rule, not the next one: "117.3a. Las acciones …" inside 117.2a)."""
    if current is None or not current.parts or current.parts[-1].endswith(TERMINAL):
        return False
    if current.title is not None and len(current.parts) == 1:
        return False  # a heading ("205.4 Supertipi") stops without punctuation
    previous = current.number if current.kind == "rule" else current.parent
    if previous is None:
        return False
    before, after = RuleNumber.of(previous), RuleNumber.of(number)
    return before is None or after is None or not after.can_follow(before)


def _title(body: str, is_heading: bool) -> str | None:
    """Section headings and short rules ("Tipi di carta") are titles too."""
    return body.rstrip(" :") if body and (is_heading or len(body.split()) <= 4) else None


def parse(ctx: Context) -> Parsed:
    # Lines after the last rule continue it (a wrapped line, a PDF page); a forum's footer is
    # the forum layout's business.
    return parse_numbered(ctx, preamble="metadata: document header", trailer=None)
