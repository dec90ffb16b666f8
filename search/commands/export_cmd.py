"""`mtgrules export`: the records for other tools (JSONL, TMX, TBX, CSV)."""

from __future__ import annotations

import sys

import click

from search.commands.options import lang_option, parse_edition


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
    from corpus.records import write_jsonl

    if fmt == "jsonl":
        from corpus import library
        from corpus.align import aligned

        loaded = library.load()
        records = aligned(library.records(loaded.documents))
        if langs or edition:
            records = [
                r
                for r in records
                if (not langs or r.lang in langs) and (not edition or r.edition == edition)
            ]
        write_jsonl(records, sys.stdout)
        for failure in loaded.failures:
            click.echo(f"error: {failure}", err=True)
        return

    from search import exports
    from search.session import library_records, open_engine

    if fmt == "tbx":
        with open_engine() as engine:
            click.echo(exports.to_tbx(engine.termbase, langs), nl=False)
        return
    units = exports.units(library_records(), langs, edition)
    text = exports.to_tmx(units) if fmt == "tmx" else exports.to_csv(units, langs)
    click.echo(text, nl=False)
