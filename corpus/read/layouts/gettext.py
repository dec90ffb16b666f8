"""A translated CR as a gettext PO catalogue (Crowdin, Weblate, Poedit, OmegaT, or mtgrules'
own export): each entry's msgid is one line of the English CR, its msgstr the translation.

The structure comes from the English: the msgids, one line each, are read as the official CR
is (rules, examples, headings, glossary), so a rule's number, kind and key are the English
line's, whatever the translator typed. Each record's text is its lines' msgstrs, its
`original` the English text. Entries left untranslated (an empty msgstr) make no record: they
are dropped lines, counted in the document's metadata. A fuzzy entry is a translation (a
translator's draft against older English); it is read, and counted."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from corpus.model.dates import parse_date
from corpus.model.languages import LANGUAGES
from corpus.model.numbers import sort_key
from corpus.model.records import TYPED, Dropped, Record
from corpus.model.text import normalize
from corpus.read.layouts import official_cr
from corpus.read.layouts.base import (
    EXAMPLE_LINE,
    TRANSLATOR_NOTE,
    Context,
    Parsed,
    for_the_last_lines,
)

NAME = "gettext-po"
UNTRANSLATED = "untranslated: empty msgstr"

_SYNTAX = re.compile(r'^\s*(?:#|msgctxt\s+"|msgid(?:_plural)?\s+"|msgstr(?:\[\d+\])?\s+"|")')
_ANY_NUMBER = re.compile(r"^\s*\d+(?:\.\d+[a-zA-Z]*)?\.?\s+")
# A keyword's or a continuation's string, whole: opening and closing quotes, escapes inside.
_STRING_LINE = re.compile(
    r'^\s*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$'
)
_KEYWORD_OR_STRING = re.compile(r'^\s*(?:msgctxt|msgid|msgid_plural|msgstr|")')


@dataclass(frozen=True)
class Entry:
    msgctxt: str | None
    msgid: str
    msgstr: str
    fuzzy: bool
    previous: str | None  # a fuzzy entry's previous msgid (#|): the English it translated
    first: int  # the entry's first line (its comments), 1-based
    line: int  # its msgid line
    last: int  # its last line


@dataclass(frozen=True)
class Catalogue:
    entries: tuple[Entry, ...]  # without the header entry
    metadata: dict[str, str]
    header_lines: tuple[int, int] | None
    error: str | None = None

    @property
    def translated(self) -> list[Entry]:
        return [e for e in self.entries if e.msgstr.strip()]


@for_the_last_lines
def catalogue(lines: list[str]) -> Catalogue:
    """The catalogue's entries, with the lines each spans (polib reads the syntax)."""
    import polib

    for number, line in enumerate(lines, start=1):
        # polib reads an unterminated string as far as it goes ("100.1a A two-playe"), where
        # msgfmt refuses the file: so is it refused here, by the line.
        if _KEYWORD_OR_STRING.match(line) and not _STRING_LINE.match(line):
            return Catalogue((), {}, None, f"not a valid PO catalogue: line {number} is not a "
                             "whole quoted string (msgfmt --check shows every fault)")  # fmt: skip
    text = "\n".join(lines)
    try:
        po = polib.pofile(text + "\n", wrapwidth=0)
    except (OSError, ValueError, UnicodeError) as error:
        return Catalogue((), {}, None, f"not a valid PO catalogue: {error}")
    found = [e for e in po if not e.obsolete]
    if repeated := _repeated(found):
        return Catalogue((), {}, None, f"not a valid PO catalogue: {repeated}")
    starts = [_entry_start(lines, e.linenum) for e in found]
    ends = [start - 1 for start in starts[1:]] + ([len(lines)] if starts else [])
    entries = []
    header: tuple[int, int] | None = None
    first_entry = starts[0] if starts else len(lines) + 1
    if po.metadata or first_entry > 1:
        header = (1, first_entry - 1) if first_entry > 1 else None
    for entry, start, end in zip(found, starts, ends, strict=True):
        while end > start and not lines[end - 1].strip():
            end -= 1
        entries.append(
            Entry(
                entry.msgctxt,
                _one_line(entry.msgid),
                _one_line(entry.msgstr),
                "fuzzy" in entry.flags,
                _one_line(entry.previous_msgid) if entry.previous_msgid else None,
                start,
                entry.linenum,
                end,
            )
        )
    return Catalogue(tuple(entries), dict(po.metadata), header)


def _repeated(entries: list[Any]) -> str | None:
    """Where an entry repeats an earlier one's msgid (and msgctxt): msgfmt refuses the file, and
    read here one would stand for the other (the rules after it lost their places)."""
    first: dict[tuple[str | None, str], int] = {}
    for entry in entries:
        seen = first.setdefault((entry.msgctxt, entry.msgid), entry.linenum)
        if seen != entry.linenum:
            return (
                f"line {entry.linenum} repeats the msgid of line {seen} (msgfmt --check: "
                "duplicate message definition); remove one of them"
            )
    return None


def _entry_start(lines: list[str], msgid_line: int) -> int:
    """An entry starts at its comments and msgctxt, which come before its msgid."""
    start = msgid_line
    while start > 1 and (
        lines[start - 2].lstrip().startswith(("#", "msgctxt")) or lines[start - 2].startswith('"')
    ):
        start -= 1
    return start


def _one_line(text: str) -> str:
    """A msgstr the translator broke with newlines ("…de\\n") is one line of the CR."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def looks_like_po(lines: list[str]) -> bool:
    """Whether the document is a PO catalogue: msgid and msgstr lines, and little else."""
    rows = [line for line in lines[:2000] if line.strip()]
    if not rows:
        return False
    syntax = sum(1 for line in rows if _SYNTAX.match(line))
    has_pairs = any(line.startswith("msgid ") for line in rows) and any(
        line.startswith("msgstr") for line in rows
    )
    return has_pairs and syntax >= 0.9 * len(rows)


def score(lines: list[str]) -> tuple[float, str]:
    if not looks_like_po(lines):
        return 0.0, "no gettext msgid/msgstr entries"
    found = catalogue(lines)
    if found.error:
        return 0.35, found.error
    return 1.0, (
        f"a gettext PO catalogue: {len(found.entries):,} entries, "
        f"{len(found.translated):,} translated"
    )


def translations_text(lines: list[str]) -> str:
    """The msgstrs alone: what tells the catalogue's language (its msgids are English)."""
    return "\n".join(e.msgstr for e in catalogue(lines).translated)


def stated_edition(lines: list[str], limit: int = 40) -> str | None:
    """The date the catalogue's opening entries state ("These rules are effective as of
    November 20, 2020."): the translation's own words first, else its English msgid's."""
    for entry in catalogue(lines).entries[:limit]:
        if found := parse_date(entry.msgstr) or parse_date(entry.msgid):
            return found.isoformat()
    return None


def header_language(lines: list[str]) -> str | None:
    """The language the catalogue's header names ("Language: pt_BR"), when in the table."""
    code = catalogue(lines).metadata.get("Language", "").split("_")[0].split("-")[0].lower()
    return code if code in LANGUAGES else None


def parse(ctx: Context) -> Parsed:
    found = catalogue(ctx.lines)
    parsed = Parsed()
    if found.error:
        parsed.warnings.append(found.error)
        return parsed
    entries = list(found.entries)
    if found.header_lines:
        first, _ = found.header_lines
        parsed.dropped.append(Dropped(first, normalize(ctx.lines[first - 1]), "catalogue header"))
    # The msgids, one line each and in order, read as the English CR they are.
    msgids, at = _with_headings([e.msgid for e in entries])
    english = official_cr.parse(Context(ctx.source, "en", None, msgids))
    placed: set[int] = set()
    for record in english.records:
        first, last = at[record.lines[0] - 1], at[record.lines[1] - 1]
        own = entries[first : last + 1]
        placed.update(range(first, last + 1))
        translated = _translated(ctx, record, own, parsed)
        if translated is not None:
            parsed.records.append(translated.but(seq=len(parsed.records)))
    for dropped in english.dropped:
        if at[dropped.line - 1] < 0:
            continue  # a heading put back (below)
        entry = entries[at[dropped.line - 1]]
        placed.add(at[dropped.line - 1])
        heading = _heading(ctx, dropped, entry) if dropped.reason == "table of contents" else None
        if heading is not None:
            parsed.records.append(heading.but(seq=len(parsed.records)))
            continue
        parsed.dropped.append(Dropped(entry.line, dropped.text, f"English {dropped.reason}"))
    for index, entry in enumerate(entries):
        if index not in placed:
            # The Glossary line of the contents list (blanked above).
            parsed.dropped.append(Dropped(entry.line, entry.msgid, "English table of contents"))
    # Untranslated: the rules', examples' and entries' lines left empty, as the dropped lines
    # count them; a heading or contents line left empty is said apart.
    untranslated = sum(1 for d in parsed.dropped if d.reason == UNTRANSLATED)
    empty = sum(1 for e in entries if not e.msgstr.strip()) - untranslated
    parsed.metadata["catalogue"] = (
        f"{len(entries):,} entries: {len(entries) - untranslated - empty:,} translated, "
        f"{untranslated:,} untranslated (skipped)"
        + (f", {empty:,} other line{'s' * (empty != 1)} left empty" if empty else "")
        + (f", {sum(e.fuzzy for e in entries):,} fuzzy" if any(e.fuzzy for e in entries) else "")
    )
    if revised := found.metadata.get("PO-Revision-Date", "").strip():
        parsed.metadata["revised"] = revised
    parsed.dropped.sort(key=lambda d: d.line)
    # In the CR's order: the headings (from the contents list) before their sections' rules.
    ordered = sorted(
        enumerate(parsed.records),
        key=lambda item: (
            item[1].kind == "glossary",
            sort_key(item[1].number or item[1].parent or "") if item[1].kind != "glossary" else 0,
            item[0],
        ),
    )
    parsed.records = [record.but(seq=seq) for seq, (_, record) in enumerate(ordered)]
    return parsed


_RULE_OR_EXAMPLE = re.compile(r"^(?:\d{3}\.\d+[a-z]?\.?\s|Example:)")
_CREDIT = re.compile(r"^[A-Z][^.:]{2,60}: [A-Z][\w.]+ [A-Z]")  # "Editing: Del Laugel (lead), …"


def _with_headings(msgids: list[str]) -> tuple[list[str], list[int]]:
    """The msgids with the Glossary and Credits headings put back where the body ends and the
    credits start: a catalogue holds each distinct line once, and those headings are already
    in its contents list (there Glossary is blanked: it would open the glossary too soon).
    Also each line's entry index (-1 for a heading put back)."""
    last_rule = max((i for i, m in enumerate(msgids) if _RULE_OR_EXAMPLE.match(m)), default=-1)
    after = msgids[last_rule + 1 :]
    if last_rule < 0 or any(m.lower() in official_cr.GLOSSARY for m in after):
        return msgids, list(range(len(msgids)))
    # (Credits stays: the contents list ends with it, and the body starts after it.)
    body = ["" if m.lower() in official_cr.GLOSSARY else m for m in msgids[: last_rule + 1]]
    credits = next((i for i, m in enumerate(after) if _CREDIT.match(m)), len(after))
    lines = [*body, "Glossary", *after[:credits], "Credits", *after[credits:]]
    at = [*range(last_rule + 1), -1, *range(last_rule + 1, last_rule + 1 + credits), -1]
    at += range(last_rule + 1 + credits, len(msgids))
    return lines, at


def _heading(ctx: Context, dropped: Dropped, entry: Entry) -> Record | None:
    """A chapter or section heading ("100. General"): a catalogue holds it once, in the
    contents list, and it is the heading's record (as in the CR's body)."""
    match = official_cr.SECTION.match(dropped.text) or official_cr.CHAPTER.match(dropped.text)
    translated = official_cr.SECTION.match(entry.msgstr) or official_cr.CHAPTER.match(entry.msgstr)
    if match is None or translated is None:
        return None
    title = normalize(translated["title"])
    return Record(
        lang=ctx.lang,
        source=ctx.source,
        kind="rule",
        text=title,
        lines=(entry.first, entry.last),
        key=match["number"],
        number=match["number"],
        edition=ctx.edition,
        title=title,
        original=match["title"],
    )


def _translated(ctx: Context, english: Record, own: list[Entry], parsed: Parsed) -> Record | None:
    """The translated record of one English record's entries; None when none is translated
    (each untranslated entry is then a dropped line)."""
    parts: list[str] = []
    typed: str | None = None  # a number the msgstr prints unlike its msgid's
    title: str | None = english.title
    for position, entry in enumerate(own):
        text = entry.msgstr.strip()
        if not text:
            parsed.dropped.append(Dropped(entry.line, entry.msgid, UNTRANSLATED))
            continue
        if position == 0 and english.kind == "rule" and english.number:
            text, typed = _numbered(english.number, entry, text, parsed)
        if position == 0 and english.kind == "glossary":
            title = text  # the headword, translated
            continue
        if position == 0 and english.kind == "example" and not EXAMPLE_LINE.match(text):
            text = f"{LANGUAGES[ctx.lang].example_labels[0]}: {text}"
        parts.append(text)
    if not parts:
        return None
    text = normalize(" ".join(parts))
    if english.kind == "rule" and english.title:
        title = text  # a chapter's or section's heading
    original = english.text
    fuzzy = any(e.fuzzy for e in own)
    if any(e.previous and e.fuzzy for e in own):
        # A fuzzy entry was translated from the English of its previous msgid, not this one;
        # once a translator clears the flag, the msgid is what it translates (a previous msgid
        # left behind says nothing more).
        said = [
            e.previous if e.previous and e.fuzzy else e.msgid
            for e in own[1 if english.kind == "glossary" else 0 :]
        ]
        original = normalize(" ".join(said))
        if english.kind == "rule" and english.number:
            original = _ANY_NUMBER.sub("", original, count=1)
    return english.but(
        lang=ctx.lang,
        text=text,
        title=title,
        lines=(own[0].first, own[-1].last),
        edition=ctx.edition,
        original=original,
        flags=(
            *(("translator-note",) if TRANSLATOR_NOTE.search(text) else ()),
            *(("fuzzy",) if fuzzy else ()),
            # `check` reports it, as the warning of `add` and `sources` does
            *((f"{TYPED}{typed}",) if typed else ()),
        ),
    )


def _numbered(number: str, entry: Entry, text: str, parsed: Parsed) -> tuple[str, str | None]:
    """The msgstr without its rule number (the msgid's is the rule's), and a different number
    it prints: a translator's typo ("2015.5." for 201.5), said as a warning."""
    written = _ANY_NUMBER.match(text)
    if written is None:
        return text, None
    typed = written.group().strip().rstrip(".")
    if typed == number:
        return text[written.end() :], None
    parsed.warnings.append(
        f"line {entry.line}: msgstr numbered {typed} where its msgid is {number}; kept as {number}"
    )
    return text[written.end() :], typed
