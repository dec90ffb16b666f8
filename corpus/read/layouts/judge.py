"""The judges' numbered documents: the Magic Tournament Rules and the Infraction Procedure
Guide, as Wizards publishes them (a PDF, or its HTML made by pdftohtml).

Both open with their title in small capitals and the edition ("Effective November 10, 2025"),
then a dotted table of contents naming every chapter (`1. Tournament Fundamentals`), section
(`1.1 Tournament Types`, `2.1. Game Play Error — Missed Trigger`) and appendix. The contents
are the map: a body line is a heading only when it is the next heading the contents name, so a
numbered list item ("3. Players present their decks …", "1. Match points") stays text. An IPG
infraction's heading ends with its penalty ("… Missed Trigger No Penalty"): the section's
penalty field. Its parts (Definition, Examples, Philosophy, Additional Remedy, Upgrade,
Downgrade) are records of the section's key. The changelog appendix, the contents and the
trademark lines are dropped with their reasons."""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.model.documents import PENALTIES, slug
from corpus.model.documents import key as doc_key
from corpus.read.layouts.base import Builder, Context, Draft, Parsed, non_blank

TITLES = {
    "mtr": re.compile(r"tournament\s+rules", re.IGNORECASE),
    "ipg": re.compile(r"infraction\s+procedure\s+guide", re.IGNORECASE),
}
NAMES = {"mtr": "tournament-rules", "ipg": "infraction-procedure-guide"}
LEADER = re.compile(r"\s*(?:\.\s?){4,}\s*\d*\s*$")  # "Tournament Types ........ 5"
ENTRY = re.compile(
    r"^(?:(?P<appendix>appendix\s+(?P<letter>[a-z])\s*[—–:-]\s*)|(?P<number>\d{1,2}(?:\.\d{1,2})?)\.?\s+)?"
    r"(?P<title>\S.*?)$",
    re.IGNORECASE,
)
PARTS = {  # an IPG part's heading line -> the kind of its record
    "definition": "rule",
    "examples": "example",
    "philosophy": "note",
    "additional remedy": "note",
}
UPGRADE = re.compile(r"^(upgrade|downgrade)\s*:", re.IGNORECASE)
CHANGELOG = re.compile(r"changes\s+from\s+previous\s+versions", re.IGNORECASE)
TRADEMARK = re.compile(
    r"trademarks?\b|^©|\ball rights reserved\b|^and characters are|^\S*\s*©", re.IGNORECASE
)


@dataclass(frozen=True)
class Heading:
    part: str  # "2.3", "2", "appendix-b", "introduction"
    title: str
    folded: str  # letters and digits only, for matching a body line in any case or spacing
    changelog: bool = False


def _is_contents(text: str) -> bool:
    """A line of the contents: a dot leader (checked cheaply first: the pattern backtracks)."""
    return ("...." in text or ". . . ." in text) and bool(LEADER.search(text))


def _fold(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _contents(rows: list[tuple[int, str]]) -> tuple[list[Heading], set[int]]:
    """The headings the table of contents names, in order, and the rows it is made of."""
    headings: list[Heading] = []
    rows_used: set[int] = set()
    in_appendix = False
    for index, (_, text) in enumerate(rows[:400]):
        if not _is_contents(text):
            continue
        rows_used.add(index)
        entry = ENTRY.match(LEADER.sub("", text))
        if entry is None:
            continue
        title = entry["title"].strip()
        if entry["appendix"]:
            in_appendix = True
            part, printed = f"appendix-{entry['letter'].lower()}", entry.group(0)
        elif entry["number"] and not in_appendix:
            part, printed = entry["number"], f"{entry['number']} {title}"
        elif in_appendix:
            continue  # a part of an appendix ("Booster Draft Timing"): the appendix's text
        else:
            part, printed = slug(title), title
        headings.append(Heading(part, title, _fold(printed), bool(CHANGELOG.search(title))))
    # The contents' own heading ("CONTENTS", small caps joined) is theirs, not the text before.
    first = min(rows_used, default=None)
    if first and _fold(rows[first - 1][1]) in ("contents", "tableofcontents"):
        rows_used.add(first - 1)
    return headings, rows_used


def _which(doc_rows: list[tuple[int, str]]) -> str | None:
    for _, text in doc_rows[:6]:
        for doc, title in TITLES.items():
            if title.search(text) and len(text) < 80:
                return doc
    return None


def score_for(doc: str, lines: list[str]) -> tuple[float, str]:
    rows = non_blank(lines)
    if _which(rows) != doc:
        return 0.0, f"no {NAMES[doc].replace('-', ' ')} title"
    headings, _ = _contents(rows)
    numbered = sum(1 for h in headings if h.part[:1].isdigit())
    if numbered < 5:
        return 0.2, f"a {NAMES[doc].replace('-', ' ')} title but {numbered} numbered contents"
    title = rows[_title_row(rows)][1]
    return 0.97, f"title {title!r}, contents naming {numbered} numbered headings"


def _title_row(rows: list[tuple[int, str]]) -> int:
    return next(
        (i for i, (_, t) in enumerate(rows[:6]) if any(p.search(t) for p in TITLES.values())), 0
    )


def parse_for(doc: str, ctx: Context) -> Parsed:
    builder = Builder(ctx)
    rows = non_blank(ctx.lines)
    headings, contents = _contents(rows)
    title_row = _title_row(rows)
    expected = 0  # the next heading the contents name
    current: Draft | None = None
    section: Draft | None = None
    changelog = False
    penalties: dict[str, str] = {}
    index = 0
    while index < len(rows):
        line_number, text = rows[index]
        index += 1
        match, used = _heading_at(rows, index - 1, headings, expected)
        if line_number == ctx.edition_line:
            builder.drop(line_number, text, "metadata: edition date")
        elif index - 1 in contents:
            builder.drop(line_number, text, "table of contents")
        elif index - 1 <= title_row and section is None:
            builder.drop(line_number, text, "metadata: document title")
        elif match is not None:
            heading, penalty = headings[match], None
            expected = match + 1
            last_line = rows[index - 2 + used][0]
            printed = " ".join(t for _, t in rows[index - 1 : index - 1 + used])
            index += used - 1
            rest = _fold(printed)[len(heading.folded) :]
            penalty = next((p for p in PENALTIES if _fold(p) == rest), None)
            infraction = "—" in heading.title  # "Tournament Error — Tardiness"
            if infraction and not rest and index < len(rows) and rows[index][1] in PENALTIES:
                penalty = rows[index][1]  # printed below its heading: a line of its own
                last_line = rows[index][0]
                index += 1
            changelog = heading.changelog
            if changelog:
                for line, shown in rows[index - used : index]:
                    builder.drop(line, shown, "heading: changelog appendix")
                current = section = None
                continue
            key = doc_key(doc, heading.part)
            title = heading.title
            section = current = builder.start(
                Draft.on_line("rule", key, line_number, None, title=title)
            )
            section.parts.append(_printed(heading))
            section.last = last_line
            if penalty:
                penalties[key] = penalty
        elif changelog:
            builder.drop(line_number, text, "changelog: changes from previous versions")
        elif TRADEMARK.search(text) and index > len(rows) - 20:
            builder.drop(line_number, text, "boilerplate: trademarks")
        elif section is None:
            builder.drop(line_number, text, "front matter")
        elif text.casefold() == "definition" and current is section:
            builder.extend(section, line_number, f"{text}:")  # the infraction's gist: its text
        elif text.casefold() in PARTS or UPGRADE.match(text):
            kind = PARTS.get(text.casefold(), "note")
            body = text if UPGRADE.match(text) else f"{text}:"
            current = builder.start(
                Draft.on_line(kind, section.key, line_number, body, parent=section.key)
            )
        else:
            assert current is not None
            extend(builder, current, line_number, text)
    parsed = builder.finish()
    parsed.records = [
        r.but(penalty=penalties[r.key])
        if r.key in penalties and r.title and r.parent is None
        else r
        for r in parsed.records
    ]
    missing = [h for h in headings[expected:] if not h.changelog]
    if missing:
        builder.warn(f"contents name {len(missing)} headings not found in the body")
    return parsed


HYPHEN_END = re.compile(r"[^\W\d_]-$")


def extend(builder: Builder, draft: Draft, line_number: int, text: str) -> None:
    """A line continuing a record. A line ending in a hyphen after a letter, before a lowercase
    word, is a compound broken at the line ("invitation-" + "only"): these documents are not
    hyphenated by the typesetter, so the hyphen is kept and no space put in."""
    if draft.parts and HYPHEN_END.search(draft.parts[-1]) and text[:1].islower():
        draft.parts[-1] += text
        draft.last = line_number
    else:
        builder.extend(draft, line_number, text)


def _printed(heading: Heading) -> str:
    """A heading as a record's text opens: "2.3 Pregame Procedures", "Appendix B — Time Limits"."""
    if heading.part[:1].isdigit():
        return f"{heading.part} {heading.title}"
    if heading.part.startswith("appendix-"):
        return f"Appendix {heading.part[-1].upper()} — {heading.title}"
    return heading.title


def _heading_at(
    rows: list[tuple[int, str]], index: int, headings: list[Heading], expected: int
) -> tuple[int | None, int]:
    """The contents' heading this row is (the next one, or one of the two after it when a
    heading is missing from the body), and how many rows it takes (a number may stand on its
    own line before its title); (None, 0) when it is text."""
    text = rows[index][1]
    if _is_contents(text):
        return None, 0
    folded = _fold(text)
    with_next = folded + _fold(rows[index + 1][1]) if index + 1 < len(rows) else folded
    for candidate in range(expected, min(expected + 3, len(headings))):
        heading = headings[candidate]
        for used, form in ((1, folded), (2, with_next)):
            if used == 2 and not re.fullmatch(r"[\d.]+|appendix\s*\w", text, re.IGNORECASE):
                continue
            if form == heading.folded or (
                form.startswith(heading.folded)
                and any(form[len(heading.folded) :] == _fold(p) for p in PENALTIES)
            ):
                return candidate, used
    return None, 0
