"""`mtgrules index`: build the index explicitly."""

from __future__ import annotations

import click

from corpus.paths import home
from indexer.integrity import live_damage
from indexer.store import IndexError_, live_build
from search.commands.options import json_option
from search.safe_text import echo, echo_json
from search.session import build_with_progress


@click.command("index")
@click.option("--rebuild", is_flag=True, help="Build even when the sources have not changed.")
@json_option
def command(rebuild: bool, as_json: bool) -> None:
    """Build (or refresh) the search index from every source in the library."""
    current = live_build(home())
    damaged = live_damage(home(), current, full=True) if current and not rebuild else []
    if damaged:
        echo(f"mtgrules: the index is damaged ({', '.join(damaged)}); rebuilding it", err=True)
    try:
        verified = current.dir if current and not rebuild and not damaged else None
        result = build_with_progress(home(), force=rebuild or bool(damaged), verified=verified)
    except IndexError_ as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        payload = {
            "built": result.built,
            "records": result.records,
            "versions": result.versions,
            "seconds": round(result.seconds, 3),
            "added_editions": result.added_editions,
            "index": str(result.folder),
        }
        echo_json(payload)
    elif result.added_editions:
        echo(
            f"added the new editions: {result.records} records as {result.versions} distinct "
            f"versions in {result.seconds:.1f} s"
        )
    elif result.built:
        echo(
            f"indexed {result.records} records as {result.versions} distinct versions "
            f"in {result.seconds:.1f} s"
        )
    else:
        echo(f"index is up to date ({result.records} records, {result.versions} versions)")
