"""Results on the terminal: one block per English key, each language in its column.

Piped output (and NO_COLOR) is plain text, stacked, with no escape codes; a terminal gets rich
columns side by side, stacked again when it is narrow, with the matched words highlighted."""

from __future__ import annotations

import itertools
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import click

from corpus.model.documents import INFRACTION_CHAPTERS, PENALTIES, is_judge_key
from corpus.model.languages import SHOWN_ORDER
from corpus.model.records import LOW_CONFIDENCE, StoredRecord
from search.results import Result
from search.safe_text import terminal_safe

WIDE_ENOUGH = 110


def heading(result: Result, with_terms: bool = True, langs: Sequence[str] = ()) -> str:
    english = result.english()
    title = result.title(langs)
    parts = [result.key]
    if english["rule"] != result.key:
        parts.append(f"(CR {english['rule']})")
    if title and title != result.key:
        parts.append(f"— {title}")
    penalty = result.penalty()
    if penalty:  # an IPG infraction's
        parts.append(f"· penalty: {penalty}")
    if english["terms"] and with_terms:
        parts.append(f"[{', '.join(english['terms'][:8])}]")
    return " ".join(parts)


def echo_brief(results: list[Result], show: Iterable[str], width: int = 100) -> None:
    """One line per result, as a judge scans them: its key and title (an IPG infraction's with
    its penalty), or, untitled, the beginning of its first shown language's text."""
    show = tuple(show)
    for result in results:
        line = heading(result, with_terms=False, langs=show)
        if result.title() in (None, result.key):  # a glossary entry's title is its key
            columns = by_language(result, show) or by_language(result, ())
            shown = next((rs for rs in columns.values() if rs), [])
            # Its text as printed under its key today, where an older version of the same text
            # printed another number (733.2, 732.2 until 2026-02-27): else the first shown.
            first = next((r for r in shown if r.number == result.key), shown[0] if shown else None)
            if first is not None:
                if _renumbered(first, result.key):  # `--edition 2015-01-23`: its 704.5k
                    line = f"{result.key} (printed {first.number}){line[len(result.key) :]}"
                lang = "" if first.lang == "en" else f"{first.lang} "
                room = max(width - len(line) - len(lang) - 3, 20)
                text = " ".join(first.text.split())
                line += f" — {lang}{textwrap.shorten(text, room, placeholder=' …')}"
        click.echo(terminal_safe(line))


def _renumbered(record: StoredRecord, key: str) -> bool:
    """Whether a rule's text prints another number than its key: the same rule, renumbered
    (Result.printed_otherwise says so in full)."""
    return (
        record.kind == "rule"
        and bool(record.number)
        and record.number != key
        and record.align.method == "number"
        and "misnumbered" not in record.flags
    )


GAPS_NAMED = 3  # editions a span lacks, named up to this many


def edition_span(editions: Sequence[str], loaded: Sequence[str] = ()) -> str:
    """The editions that carry a text: "2015-01-23 → 2026-08-07 (28 editions; not 2019-01-25)",
    the loaded editions inside the span that print it otherwise named (a few of them): 2019's
    straight apostrophes are another text, which --edition 2019-01-25 shows."""
    span = f"{editions[0]} → {editions[-1]} ({len(editions)} editions"
    carried = set(editions)
    gaps = [e for e in loaded if editions[0] < e < editions[-1] and e not in carried]
    if 0 < len(gaps) <= GAPS_NAMED:
        span += f"; not {', '.join(gaps)}"
    return span + ")"


def label(record: StoredRecord, loaded: Sequence[str] = ()) -> str:
    number = record.number or (
        # An unnumbered part under another (a JAR issue under Common Issues) is "under" it.
        (f"under {record.parent}" if record.kind == "rule" else f"{record.kind} of {record.parent}")
        if record.parent
        else record.title or record.kind
    )
    if record.inferred:
        number += " (inferred)"
    edition = record.edition or ("undated" if record.follows else "edition unknown")
    editions = record.editions
    if len(editions) > 1:
        edition = edition_span(editions, loaded)  # those that carry this very text
    if record.follows and record.lang != "en":
        edition += f", follows English {record.follows}"
    align = record.align
    aligned = (
        ""
        if align.confidence >= 0.999
        else f" · aligned by {align.method} {align.confidence:.2f}"
        + (
            " (uncertain)"
            if align.method == "content" and align.confidence < LOW_CONFIDENCE
            else ""
        )
    )
    # A catalogue's fuzzy entry: translated from older English than the edition it follows.
    fuzzy = f" · {FUZZY_NOTE}" if "fuzzy" in record.flags else ""
    source = record.shown_source
    others = [s for s in record.sources if s != source] if record.lang != "en" else []
    if others:  # the same translated text in other documents of its language
        source += f" (also in {others[0]})" if len(others) == 1 else f" (and {len(others)} more)"
    return f"{number} · {record.kind} · {edition} · {source}{aligned}{fuzzy}"


FUZZY_NOTE = "fuzzy: translated from older English (its previous msgid)"


def _terminal_safe(record: StoredRecord) -> StoredRecord:
    """The record with every text from a document made safe for a terminal."""
    return record.but(
        text=terminal_safe(record.text),
        number=terminal_safe(record.number) if record.number else record.number,
        title=terminal_safe(record.title) if record.title else record.title,
        source=terminal_safe(record.source),
        parent=terminal_safe(record.parent) if record.parent else record.parent,
        sources=tuple(terminal_safe(s) for s in record.sources),
    )


def by_language(result: Result, show: Iterable[str]) -> dict[str, list[StoredRecord]]:
    """Each shown language's records, their texts made safe for a terminal."""
    columns: dict[str, list[StoredRecord]] = {}
    wanted = tuple(show) or SHOWN_ORDER
    for record in result.records:
        if record.lang in wanted:
            columns.setdefault(record.lang, []).append(_terminal_safe(record))
    return {lang: columns[lang] for lang in SHOWN_ORDER if lang in columns}


_STEP = re.compile(r"(?<=[:.]) (\d{1,2})\. (?=[A-Z])")  # " 1. If sideboarding…" in a part
# A table of penalties (the IPG's Appendix A, run into one paragraph by its PDF): a row ends
# after its penalty ("Slow Play Warning"), a chapter's name heads its rows.
_PENALTY_CELL = re.compile(r"\b(?:None|" + "|".join(PENALTIES) + r")( )(?=[A-Z])")
_TABLE_HEAD = re.compile(
    r"(?<= )(?:Infraction Penalty|" + "|".join(INFRACTION_CHAPTERS) + r")( )(?=[A-Z])"
)
TABLE_ROWS = 5  # so many rows at least: a table, not a sentence naming a penalty
_BULLET = re.compile(r" (?=• )")  # a bulleted item, run into its paragraph by the HTML's text
# A subheading run into its text, which opens by repeating it ("Regular Regular tournaments
# are…" in MTR 1.12): on its own line.
_SUBHEADING = re.compile(r"(?<=[.:]) ([A-Z][a-z]+)(?= \1 [a-z])")
_LETTER = re.compile(r" ([A-Z])\. (?=[A-Z0-9“\"])")  # "Examples: A. Knight of… B. A player…"


def breaks(record: StoredRecord) -> list[int]:
    """Where a judge document's part is read on a new line (the places of the spaces that
    become line breaks, so a highlight's offsets hold): after its heading when its text opens
    with it ("2.3 Pregame Procedures", "Appendix B — Time Limits", a JAR issue's situation, run
    into what follows), before
    each step of a numbered list (1., 2., 3. …), each bullet (•), each lettered example (A., B.
    …), and around a subheading run into its text ("Regular Regular tournaments…")."""
    title, text = record.title or "", record.text
    if not is_judge_key(record.key) or text == title:
        return []
    part = record.key.partition(" ")[2]
    appendix = f"Appendix {part[-1].upper()} — {title}" if part.startswith("appendix-") else ""
    heads = [
        len(head)
        for head in (title, f"{part} {title}", appendix)
        if title and head and text.startswith(head + " ")
    ][:1]
    return sorted(
        {
            *heads,
            *_listed(_STEP.finditer(text), int),
            *_listed(_LETTER.finditer(text), lambda letter: ord(letter) - ord("A") + 1),
            *_table_rows(text),
            *(bullet.start() for bullet in _BULLET.finditer(text)),
            *(at for head in _SUBHEADING.finditer(text) for at in (head.start(), head.end(1))),
        }
    )


def _listed(items: Iterable[re.Match[str]], place: Callable[[str], int]) -> list[int]:
    """The spaces before a list's items (" 2. Players shuffle…", " B. A player…"), each the
    next one or another list's first (`place`: an item's mark counted from 1); none for a
    single item, which is no list."""
    places: list[int] = []
    expected = 1
    for item in items:
        if place(item[1]) in (expected, 1):
            places.append(item.start())
            expected = place(item[1]) + 1
    return places if len(places) >= 2 else []


def _table_rows(text: str) -> list[int]:
    """The spaces that end a penalty table's rows and set off its headings, or none."""
    rows = [cell.start(1) for cell in _PENALTY_CELL.finditer(text)]
    if len(rows) < TABLE_ROWS:
        return []
    # A heading's own line: the space before it and the one after it.
    heads = [at for head in _TABLE_HEAD.finditer(text) for at in (head.start() - 1, head.start(1))]
    return rows + heads


def paragraphs(record: StoredRecord) -> list[str]:
    """A record's text in the lines it is read in (`breaks`)."""
    cuts = [-1, *breaks(record), len(record.text)]
    return [record.text[a + 1 : b] for a, b in itertools.pairwise(cuts)]


def echo_plain(
    results: list[Result], show: Iterable[str], width: int = 100, most: int | None = None
) -> None:
    """Each result's records, language by language; with `most`, so many per language, then
    how to show the rest (a section's heading takes in all its rules)."""
    show = tuple(show)
    for index, result in enumerate(results):
        if index:
            click.echo()
        click.echo(terminal_safe(heading(result)))
        if note := result.printed_otherwise():
            click.echo(f"  ({terminal_safe(note)})")
        columns = by_language(result, show)
        for lang, records in columns.items():
            for record in records[:most]:
                click.echo(f"  {lang}  {label(record, result.loaded)}")
                for paragraph in paragraphs(record):
                    for line in textwrap.wrap(paragraph, width=width - 6) or [""]:
                        click.echo(f"      {line}")
            if note := more_to_show(result, records, most):
                click.echo(f"  {lang}  ({note})")
        for note in not_shown(result, show, columns):
            click.echo(f"  ({note})")


def more_to_show(result: Result, records: list[StoredRecord], most: int | None) -> str:
    """What a language's records cut at `most` leave out, and the command that shows them."""
    if most is None or len(records) <= most:
        return ""
    return f"{len(records) - most} more under {result.key}: mtgrules show {result.key}"


def not_shown(result: Result, show: tuple[str, ...], columns: Mapping[str, Any]) -> list[str]:
    """A note per language `--show` asks for that a result has no text in (the heading alone
    said nothing)."""
    from corpus.model.languages import language_name

    return [
        f"no {language_name(lang)} text for {result.key}" for lang in show if lang not in columns
    ]


def use_rich() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


NARROWEST = 40  # columns the panels are drawn in at least, whatever the terminal says
TITLE_MARGIN = 6  # a panel's corners and the spaces around its title


def echo_rich(
    results: list[Result],
    show: Iterable[str],
    matched: set[str],
    console: Any = None,
    most: int | None = None,
) -> None:
    from rich.console import Console, Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    if console.width < NARROWEST:  # COLUMNS=0 or 3: panels that narrow print nothing at all
        console.width = NARROWEST
    show = tuple(show)
    for result in results:
        columns = by_language(result, show)
        cells = []
        for lang, records in columns.items():
            parts: list[Text] = []
            for record in records[:most]:
                parts.append(Text(f"{lang} {label(record, result.loaded)}", style="dim"))
                parts.append(highlight(record, matched))
            if more := more_to_show(result, records, most):
                parts.append(Text(f"({more})", style="italic"))
            cells.append(Group(*parts))
        if note := result.printed_otherwise():
            cells.insert(0, Group(Text(f"({terminal_safe(note)})", style="italic")))
        cells += [
            Group(Text(f"({note})", style="italic")) for note in not_shown(result, show, columns)
        ]
        title = Text(terminal_safe(heading(result)), style="bold cyan")
        above: list[Any] = []
        if title.cell_len > console.width - TITLE_MARGIN:
            # The panel's border cuts a long heading short ("penalty: Warni"): the key stays
            # on the border, the whole heading, wrapped, opens the panel.
            above, title = [title], Text(terminal_safe(result.key), style="bold cyan")
        if console.width >= WIDE_ENOUGH and len(cells) > 1:
            table = Table.grid(expand=True, padding=(0, 2))
            for _ in cells:
                table.add_column(ratio=1)
            table.add_row(*cells)
            console.print(Panel(Group(*above, table), title=title, title_align="left"))
        else:
            console.print(Panel(Group(*above, *cells), title=title, title_align="left"))


def matched_spans(text: str, lang: str, matched: set[str]) -> list[tuple[int, int]]:
    """Where the words a query matched (folded, stemmed) stand in a text: the text is read by
    its language's analyzer, as the index read it."""
    if not matched or lang not in SHOWN_ORDER:
        return []
    from indexer.analyzers import analyzer

    return [
        (token.startchar, token.endchar)
        for token in analyzer(lang)(text, chars=True)
        if token.text in matched
    ]


def highlight(record: StoredRecord, matched: set[str]):
    from rich.text import Text

    shown = list(record.text)
    for at in breaks(record):
        shown[at] = "\n"  # a space made a line break: the highlights' offsets hold
    text = Text("".join(shown))
    for start, end in matched_spans(record.text, record.lang, matched):
        text.stylize("bold yellow", start, end)
    return text


_CHANGE = r"(\[-.*?-\]|\{\+.*?\+\})"  # compiled by the diffs that need it, not on import
_CONTEXT = 12  # unchanged words kept on each side of a change


def condensed(diff: str) -> str:
    """A long text's diff as its changes with some words either side; the long unchanged runs
    between them become "…" (an MTR section is a page: its one changed date is what matters)."""
    parts = re.split(_CHANGE, diff)
    if len(parts) == 1:
        return diff
    out: list[str] = []
    for at, part in enumerate(parts):
        if at % 2:
            out.append(part)
            continue
        words = part.split()
        first, last = at == 0, at == len(parts) - 1
        keep_head = 0 if first else _CONTEXT
        keep_tail = 0 if last else _CONTEXT
        if len(words) > keep_head + keep_tail + 1:
            words = [*words[:keep_head], "…", *words[len(words) - keep_tail :]]
        out.append(" ".join(words))
    return " ".join(p for p in out if p)


def colour_diff(diff: str) -> str:
    """Removed words red, added words green, on a terminal only; the document's own text made
    safe for a terminal first (the colours are ours). Long unchanged runs are elided."""
    diff = condensed(terminal_safe(diff))
    if not sys.stdout.isatty():
        return diff
    diff = re.sub(r"\[-(.*?)-\]", lambda m: click.style(m[0], fg="red"), diff)
    return re.sub(r"\{\+(.*?)\+\}", lambda m: click.style(m[0], fg="green"), diff)
