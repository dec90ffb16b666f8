"""`mtgrules export`: the records, for other tools."""

from __future__ import annotations

import sys

import click


@click.command("export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl"]),
    default="jsonl",
    show_default=True,
    help="Output format.",
)
def command(fmt: str) -> None:
    """Print every record, one JSON object per line, in a deterministic order."""
    from corpus import library
    from corpus.align import aligned
    from corpus.records import write_jsonl

    loaded = library.load()
    write_jsonl(aligned(library.records(loaded.documents)), sys.stdout)
    for failure in loaded.failures:
        click.echo(f"error: {failure}", err=True)
