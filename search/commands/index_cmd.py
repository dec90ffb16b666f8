"""`mtgrules index`: build the index explicitly."""

from __future__ import annotations

from pathlib import Path

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
    meaning = meaning_state(result.folder)
    if as_json:
        payload = {
            "built": result.built,
            "records": result.records,
            "versions": result.versions,
            "seconds": round(result.seconds, 3),
            "added_editions": result.added_editions,
            "index": str(result.folder),
            "meaning": meaning,
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
    if meaning == "preparing" and not as_json:
        # Searches answer meanwhile, by words: say so here too, not only on their stderr.
        echo(
            "note: meaning-based ranking is being prepared in the background (about a minute "
            "for a large library); searches answer by words until it is ready",
            err=True,
        )


def meaning_state(folder: Path) -> str:
    """Whether the build's vectors are "ready", being prepared ("preparing": an embedder is
    at work, started here if none was) or not wanted ("off": MTGRULES_MEANING=off)."""
    from indexer.vectors import mode
    from search.meaning import preparing

    if mode() == "off":
        return "off"
    return "preparing" if preparing(folder, home()) else "ready"  # wanted, not missing: there
