"""PDF text to lines, in reading order: columns left to right, running headers, footers and page
numbers set aside, words hyphenated across line breaks joined.

PDFium (pypdfium2) extracts the text: a 327-page translated CR in about a second, where pypdf
took twenty. It breaks the text into lines; each line's position comes from its first
character's box, so reading order is decided by position, not by the order the PDF drew it."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from dataclasses import dataclass

PAGE_NUMBER = re.compile(
    r"^(?:page\s+|pagina\s+|página\s+)?\d{1,4}(?:\s*(?:/|of|di|de|sur)\s*\d+)?$", re.I
)
# PDFium marks a hyphen at a line end that it joined to the next line with U+FFFE. Inside a
# web address or before a capital the hyphen is real ("rules-documents", "An-Havva"); between
# two lowercase letters of prose it only split a word.
_JOINED_HYPHEN = re.compile(r"(\S*)\ufffe(\S)")


class PdfError(ValueError):
    """A PDF PDFium cannot open (damaged, encrypted, not a PDF)."""


@dataclass(frozen=True)
class Fragment:
    x: float
    y: float
    text: str


def looks_like_pdf(data: bytes) -> bool:
    return data[:1024].lstrip().startswith(b"%PDF-")


def _fragments(page) -> list[Fragment]:
    """A page's lines as PDFium breaks them, each at its first character's position."""
    textpage = page.get_textpage()
    try:
        text = textpage.get_text_range()
        fragments = []
        index = 0
        for line in text.split("\r\n"):
            start = index + len(line) - len(line.lstrip())
            index += len(line) + 2
            if not line.strip():
                continue
            left, bottom, _, _ = textpage.get_charbox(start, loose=True)
            fragments.append(Fragment(round(left, 1), round(bottom, 1), line.strip()))
        return fragments
    finally:
        textpage.close()


def _page_lines(page) -> list[str]:
    """One page's lines in reading order. Fragments are grouped into rows by baseline; a row set
    apart from the body by a wide gap (a running header or footer) stays first or last; the body
    is read as two columns, left then right, when its rows start in both halves of the page."""
    fragments = _fragments(page)
    if not fragments:
        return []
    ys = sorted(_rows(fragments), reverse=True)
    gaps = [a - b for a, b in itertools.pairwise(ys)]
    usual = sorted(gaps)[len(gaps) // 2] if gaps else 0.0
    top = ys[:1] if len(ys) > 2 and gaps[0] > 1.8 * usual else []
    bottom = ys[-1:] if len(ys) > 2 and gaps[-1] > 1.8 * usual else []
    edge = set(top + bottom)
    ascending = ys[::-1]
    row_of = {id(f): _row_of(f, ascending) for f in fragments}
    body = [f for f in fragments if row_of[id(f)] not in edge]
    middle = page.get_width() / 2
    right = [f for f in body if f.x >= middle - 10]
    left = [f for f in body if f.x < middle - 10]
    first_x = min((f.x for f in right), default=0.0)
    aligned = sum(1 for f in right if f.x - first_x < 3)
    columns = (
        [left, right]
        if len(left) >= 2 and len(right) >= 2 and aligned >= 0.6 * len(right)
        else [body]
    )

    def lines_of(group: list[Fragment]) -> list[str]:
        rows = _rows(group)
        return [
            " ".join(f.text for f in sorted(rows[y], key=lambda f: f.x)).strip()
            for y in sorted(rows, reverse=True)
        ]

    header = [f for f in fragments if row_of[id(f)] in top]
    footer = [f for f in fragments if row_of[id(f)] in bottom]
    return [*lines_of(header), *(line for c in columns for line in lines_of(c)), *lines_of(footer)]


def _rows(fragments: list[Fragment]) -> dict[float, list[Fragment]]:
    """Fragments by row: each joins the highest row less than 2.5 points above it. Found by
    bisection, not a scan of every row: a tall page of 16,000 lines took minutes."""
    rows: dict[float, list[Fragment]] = {}
    below: list[float] = []  # the rows' baselines, negated: ascending as they are made
    for fragment in sorted(fragments, key=lambda f: -f.y):
        index = bisect.bisect_right(below, -(fragment.y + 2.5))
        row = -below[index] if index < len(below) else fragment.y
        if row not in rows:
            below.append(-row)
        rows.setdefault(row, []).append(fragment)
    return rows


def _row_of(fragment: Fragment, ascending: list[float]) -> float:
    """The nearest baseline (the higher of two as near), by bisection of the sorted ones."""
    index = bisect.bisect_left(ascending, fragment.y)
    near = ascending[max(index - 1, 0) : index + 1]
    return min(reversed(near), key=lambda y: abs(y - fragment.y))


def _joined_hyphen(match: re.Match[str]) -> str:
    before, after = match[1], match[2]
    real = "/" in before or "." in before or after.isupper() or after.isdigit()
    return f"{before}{'-' if real else ''}{after}"


def page_texts(data: bytes) -> list[list[str]]:
    """Every page's lines in reading order (PdfError when PDFium cannot read the file)."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise PdfError(str(error)) from None
    try:
        return [_page_lines(page) for page in document]
    finally:
        document.close()


def pdf_lines(data: bytes) -> tuple[list[str], dict[int, str]]:
    """The document's lines, and those set aside (1-based) with their reason."""
    pages = [[_JOINED_HYPHEN.sub(_joined_hyphen, line) for line in p] for p in page_texts(data)]
    # A running header or footer: the same first or last line on most pages (digits ignored).
    edges: Counter[str] = Counter()
    for lines in pages:
        for line in {*lines[:2], *lines[-2:]}:
            edges[re.sub(r"\d+", "#", line)] += 1
    # On two pages only a line both repeat counts; past that, one most pages repeat.
    least = len(pages) if len(pages) == 2 else 0.6 * len(pages)
    running = {line for line, n in edges.items() if len(pages) >= 2 and n >= least}
    out: list[str] = []
    dropped: dict[int, str] = {}
    for lines in pages:
        for index, line in enumerate(lines):
            at_edge = index < 2 or index >= len(lines) - 2
            if at_edge and PAGE_NUMBER.match(line):
                out.append(line)
                dropped[len(out)] = "boilerplate: page number"
            elif at_edge and re.sub(r"\d+", "#", line) in running:
                out.append(line)
                dropped[len(out)] = "boilerplate: running header or footer"
            elif out and out[-1].endswith("-") and out[-1][-2:-1].isalpha() and line[:1].islower():
                out[-1] = out[-1][:-1] + line  # a word hyphenated across the line break
            else:
                out.append(line)
    return out, dropped
