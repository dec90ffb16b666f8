"""HTML made from a PDF by pdftohtml: every page its own positioned block, every run of text
its own `<p style="position:absolute;top:…;left:…">`. Read as the PDF reads: the fragments of
one page grouped into lines by their height on the page, each line's fragments left to right,
the page number and the running title (the file name pdftohtml printed on every page) set aside
with reasons. Regular expressions rather than a parser: the tags are few and machine-written,
and a 1 MB document is read in a tenth of the time."""

from __future__ import annotations

import html
import re

PAGE = re.compile(r'<div id="page(\d+)-div" style="[^"]*?width:(\d+)px;height:(\d+)px')
FRAGMENT = re.compile(
    r'<p style="position:absolute;top:(-?\d+)px;left:(-?\d+)px;[^"]*"[^>]*>(.*?)</p>', re.S
)
BREAK = re.compile(r"<br\s*/?>", re.I)
LINE_STEP = 15  # px: below the next line's top, above the same line's small capitals
TAG = re.compile(r"<[^>]+>")
TITLE = re.compile(r"<title>(.*?)</title>", re.S | re.I)
# px: a small-caps run ("M" + "AGIC") sits 4 or 5 pixels below its capital, a bullet a pixel
# below its item; a fragment this near the one above it is of its line. Measured from the one
# above, not the line's first: beside a paragraph's lines (19 px apart) a ban list's items (20 px
# apart) drift, and "Mox Pearl", 7 px under a line of the paragraph, was taken into it.
SAME_LINE = 6
PAGE_NUMBER = re.compile(r"^\d{1,3}$")


def looks_like_pdftohtml(text: str) -> bool:
    head = text[:20_000]
    return bool(PAGE.search(head)) and "position:absolute;top:" in head


def pdftohtml_lines(text: str) -> tuple[list[str], dict[int, str]]:
    """The document's lines in reading order and the chrome lines (1-based) with their reason."""
    lines: list[str] = []
    chrome: dict[int, str] = {}
    titles = {_clean(t) for t in TITLE.findall(text)}
    before = text[: text.find("<")].strip() if "<" in text else text.strip()
    if before:  # the date the copy was made, written above the HTML: not the edition
        lines.append(before)
        chrome[len(lines)] = "metadata: date of the copy, not the edition"
    pages = list(PAGE.finditer(text))
    for index, page in enumerate(pages):
        end = pages[index + 1].start() if index + 1 < len(pages) else len(text)
        height = int(page[3])
        rows: list[tuple[int, list[tuple[int, str]]]] = []
        # A fragment may hold several lines (<br/>): each its own, a line's height apart.
        fragments = sorted(
            (int(top) + LINE_STEP * n, int(left), part)
            for top, left, raw in FRAGMENT.findall(text, page.end(), end)
            for n, part in enumerate(BREAK.split(raw))
        )
        above = None  # the top of the fragment above
        for top, left, raw in fragments:
            piece = html.unescape(TAG.sub("", raw))
            if not piece.strip() and not piece:
                continue
            if rows and above is not None and top - above <= SAME_LINE:
                rows[-1][1].append((left, piece))
            else:
                rows.append((top, [(left, piece)]))
            above = top
        width = int(page[2])
        for top, line in _in_columns(rows, width / 2):
            lines.append(line)
            edge = top > 0.88 * height or top < 0.06 * height
            if edge and PAGE_NUMBER.match(line):
                chrome[len(lines)] = "boilerplate: page number"
            elif line in titles:
                chrome[len(lines)] = "boilerplate: running title"
    return lines, chrome


Row = tuple[int, list[tuple[int, str]]]  # a line's top, its fragments (left, text)


def _in_columns(rows: list[Row], middle: float) -> list[tuple[int, str]]:
    """The page's lines, a two-column list (a ban list: "• Entomb • Time Vault") read a column
    at a time: within a run of rows whose right half starts a bullet, the left column's lines
    first, then the right's."""
    split = [
        (
            top,
            _clean("".join(p for x, p in sorted(pieces) if x < middle)),
            _clean("".join(p for x, p in sorted(pieces) if x >= middle)),
            _clean("".join(p for _, p in sorted(pieces))),
        )
        for top, pieces in rows
    ]
    columned = [right.startswith("•") for _, _, right, _ in split]
    # A row between two column rows (a wrapped item, one column empty) is of the run too.
    for index in range(1, len(split) - 1):
        if not columned[index] and columned[index - 1] and any(columned[index + 1 : index + 3]):
            columned[index] = True
    # The left column's last items, below the right column's last (a longer left column:
    # "• Shadows over Innistrad" under "• Oath of the Gatewatch", beside nothing, or beside
    # the right column's last item wrapped: "• Fate Reforged" beside "November 8, 2024)").
    for index in range(1, len(split)):
        top, left, _, _ = split[index]
        after = columned[index - 1] and top - split[index - 1][0] <= 2 * LINE_STEP
        if after and not columned[index] and left.startswith("•"):
            columned[index] = True
    out: list[tuple[int, str]] = []
    index = 0
    while index < len(split):
        if not columned[index]:
            top, _, _, line = split[index]
            if line:
                out.append((top, line))
            index += 1
            continue
        end = index
        while end < len(split) and columned[end]:
            end += 1
        run = split[index:end]
        out += [(top, left) for top, left, _, _ in run if left]
        out += [(top, right) for top, _, right, _ in run if right]
        index = end
    return out


def _clean(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())
