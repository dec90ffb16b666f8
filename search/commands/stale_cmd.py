"""`mtgrules stale --lang L[,L]`: translated rules whose English has changed since."""

from __future__ import annotations

from typing import Any

import click

from search import payloads
from search.commands.options import json_option, lang_option, problems_as_errors
from search.render import colour_diff
from search.safe_text import echo, echo_json
from search.session import library_records


@click.command("stale")
@lang_option("The translations' languages, a comma list.", translations=True)
@json_option
def command(langs: tuple[str, ...], as_json: bool) -> None:
    """List the translated rules whose English counterpart changed after the English edition
    they follow (for a translation aligned by content: after the oldest loaded edition), each
    with the English word diff."""
    with problems_as_errors():
        payload = payloads.stale(library_records((*langs, "en")) if langs else [], langs)
    if as_json:
        echo_json(payload)
        return
    for note in payload.get("notes", []):
        echo(f"note: {note}", err=True)
    found = payload["stale"]
    for at, lang in enumerate(langs):  # each language's count above its rules, as asked
        mine = [item for item in found if item["lang"] == lang]
        if at:
            echo("")
        echo(f"{len(mine)} {lang} rule{' is' if len(mine) == 1 else 's are'} stale")
        for item in mine:
            echo(_line(item))
            if item["diff"] and (item["status"] != "moved" or item.get("references_only")):
                click.echo(f"    {colour_diff(item['diff'])}")
        if also := [i for i in payload.get("also_changed", []) if i["lang"] == lang]:
            echo(payloads.also_changed(lang, also))


def _line(item: dict[str, Any]) -> str:
    """`es 310.8 → 310.9 (moved; English text unchanged)`: where the English rule is now
    (a moved rule whose text differs only in the numbers it cites says so, its diff below)
    and what happened to it, then the translation's edition and document."""
    number, key, to = item["number"], item["key"], item["english_number"]
    # A key differs from the printed number when the rule moved since (rule identity: said by
    # the arrow) or when an old copy was aligned by its content (said here).
    aligned = item.get("align") == "content" and number != key
    label = f"{number} (aligned to {key})" if aligned else number
    if item.get("read_as"):
        label = f"{number} (a misprint, read as {item['read_as']})"
    where = f"{label} → {to}" if item["status"].startswith("moved") else label
    what = payloads.stale_status(item)
    twice = f", printed {item['copies']} times" if item.get("copies", 1) > 1 else ""
    edition = item["edition"] or "undated"
    since = payloads.stale_since(item)
    return (
        f"{item['lang']} {where} ({what}{twice}; English {since} → "
        f"{item['english_to']}; {edition}, {item['source']})"
    )
