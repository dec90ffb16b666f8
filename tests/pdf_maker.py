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
