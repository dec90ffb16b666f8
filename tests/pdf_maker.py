"""Build small rules PDFs for the tests with fpdf2: running header, page numbers, two columns
drawn right column first (so order must come from positions), a hyphenated line break."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

HEADER = "Regolamento Completo di Magic - Estratto"


def two_column_pdf(path: Path, pages: list[tuple[list[str], list[str]]]) -> Path:
    """Each page: (left column lines, right column lines)."""
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    for number, (left, right) in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", size=9)
        pdf.text(20, 12, HEADER)
        for x, lines in ((110, right), (15, left)):  # the right column is drawn first
            for row, line in enumerate(lines):
                pdf.text(x, 25 + row * 5, line)
        pdf.text(100, 290, f"Pagina {number}")
    pdf.output(str(path))
    return path


def text_pdf(path: Path, pages: list[list[str]], header: str) -> Path:
    """One column of lines per page under a running header, a page number at the foot: a
    document as Wizards prints it (its text transliterated to the PDF core font's Latin-1). A
    tab in a line sets what follows right-aligned on the same line (an IPG heading's penalty)."""
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    for number, lines in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", size=7)
        pdf.text(15, 10, header)
        for row, line in enumerate(lines):
            left, _, right = _latin1(line).partition("\t")  # a tab: the rest right-aligned
            pdf.text(15, 20 + row * 5, left)
            if right:
                pdf.text(195 - pdf.get_string_width(right), 20 + row * 5, right)
        pdf.text(190, 290, str(number))
    pdf.output(str(path))
    return path


def _latin1(text: str) -> str:
    table = str.maketrans({"—": "-", "–": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "•": "-"})
    return text.translate(table).encode("latin-1", "replace").decode("latin-1")


def tall_page_pdf(path: Path, lines: list[str]) -> Path:
    """One page as tall as PDF allows (5,080 mm), a line every 1.2 mm: thousands of rows."""
    pdf = FPDF(unit="mm", format=(210, 5080))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=3)
    for row, line in enumerate(lines):
        pdf.text(10, 5 + row * 1.2, line)
    pdf.output(str(path))
    return path
