"""`mtgrules export`: the records for other tools (JSONL, TMX, TBX, CSV)."""

from __future__ import annotations

import json
import sys

import click

from search.commands.options import lang_option, parse_edition
from search.safe_text import echo


@click.command("export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "tmx", "tbx", "csv"]),
    default="jsonl",
    show_default=True,
    help="jsonl: every record; tmx: translation memory; tbx: term base; csv: spreadsheet.",
)
@lang_option("Only these languages.")
@click.option(
    "--edition", callback=parse_edition, metavar="YYYY-MM-DD", help="Texts of this edition."
)
def command(fmt: str, langs: tuple[str, ...], edition: str | None) -> None:
    """Print the library in a format other tools read, to standard output."""
    from search import exports
    from search.session import hand_off, library_records, open_engine

    if fmt == "jsonl":
        # The hand-off file already holds every record, aligned: copy its lines.
        data = hand_off()
        if not langs and not edition:
            sys.stdout.buffer.write(data)
        for line in data.splitlines(keepends=True) if langs or edition else ():
            record = json.loads(line)
            if (not langs or record["lang"] in langs) and (
                not edition or record["edition"] == edition
            ):
                sys.stdout.buffer.write(line)
        for failure in _failures():
            echo(f"error: {failure}", err=True)
        return

    if fmt == "tbx":
        with open_engine() as engine:
            echo(exports.to_tbx(engine.termbase, langs), nl=False)
        return
    units = exports.units(library_records(), langs, edition)
    text = exports.to_tmx(units) if fmt == "tmx" else exports.to_csv(units, langs)
    echo(text, nl=False)


def _failures() -> list[str]:
    """The sources the current index could not ingest, one line each."""
    from corpus.library import home
    from indexer.store import read_current

    current = read_current(home()) or {}
    return list(current.get("failures", []))
