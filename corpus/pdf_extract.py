"""PDF text to lines, in reading order: columns left to right, running headers, footers and page
numbers set aside, words hyphenated across line breaks joined."""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass

PAGE_NUMBER = re.compile(
    r"^(?:page\s+|pagina\s+|página\s+)?\d{1,4}(?:\s*(?:/|of|di|de|sur)\s*\d+)?$", re.I
)


@dataclass(frozen=True)
class Fragment:
    x: float
    y: float
    text: str


def looks_like_pdf(data: bytes) -> bool:
    return data[:1024].lstrip().startswith(b"%PDF-")


def _page_lines(page) -> list[str]:
    """One page's lines: fragments grouped by baseline, split into columns when the page has a
    clear vertical gutter, each column read top to bottom."""
    fragments: list[Fragment] = []

    def visit(text: str, cm, tm, font_dict, font_size) -> None:
        if text.strip():
            x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
            fragments.append(Fragment(round(x, 1), round(y, 1), text))

    page.extract_text(visitor_text=visit)
    if not fragments:
        return []
    width = float(page.mediabox.width)
    middle = width / 2
    left = [f for f in fragments if f.x < middle - 5]
    right = [f for f in fragments if f.x >= middle - 5]
    two_columns = (
        len(left) > 3
        and len(right) > 3
        and max(f.x for f in left) < middle - 5
        and sum(1 for f in right if f.x < middle + 20) >= len(right) * 0.6
    )
    columns = [left, right] if two_columns else [fragments]
    lines: list[str] = []
    for column in columns:
        rows: dict[float, list[Fragment]] = {}
        for fragment in column:
            row = next((y for y in rows if abs(y - fragment.y) < 2.5), fragment.y)
            rows.setdefault(row, []).append(fragment)
        for y in sorted(rows, reverse=True):
            parts = sorted(rows[y], key=lambda f: f.x)
            lines.append(" ".join(p.text.strip() for p in parts).strip())
    return lines


def pdf_lines(data: bytes) -> tuple[list[str], dict[int, str]]:
    """The document's lines, and those set aside (1-based) with their reason."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    pages = [_page_lines(page) for page in reader.pages]
    # A running header or footer: the same first or last line on most pages (digits ignored).
    edges: Counter[str] = Counter()
    for lines in pages:
        for line in {*lines[:2], *lines[-2:]}:
            edges[re.sub(r"\d+", "#", line)] += 1
    running = {line for line, n in edges.items() if len(pages) > 2 and n >= 0.6 * len(pages)}
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
