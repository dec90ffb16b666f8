"""`mtgrules stale --lang L[,L]`: translated rules whose English has changed since."""

from __future__ import annotations

import click

from search import payloads
from search.commands.options import json_option, lang_option, problems_as_errors
from search.render import colour_diff
from search.safe_text import echo, echo_json
from search.session import library_records


@click.command("stale")
@lang_option("The translations' languages, a comma list.")
@json_option
def command(langs: tuple[str, ...], as_json: bool) -> None:
    """List the translated rules whose English counterpart changed after the English edition
    they follow (for a translation aligned by content: after the oldest loaded edition), each
    with the English word diff."""
    langs = tuple(lang for lang in langs if lang != "en")
    with problems_as_errors():
        payload = payloads.stale(library_records((*langs, "en")) if langs else [], langs)
    if as_json:
        echo_json(payload)
        return
    found = payload["stale"]
    for lang in langs:
        count = sum(1 for item in found if item["lang"] == lang)
        echo(f"{count} {lang} rule{' is' if count == 1 else 's are'} stale")
    for item in found:
        edition = item["edition"] or "undated"
        number, key = item["number"], item["key"]
        label = number if number == key else f"{number} (aligned to {key})"
        echo(
            f"{item['lang']} {label} ({edition}, {item['source']}): English "
            f"{item['english_from']} → {item['english_to']} {item['status']}"
        )
        click.echo(f"    {colour_diff(item['diff'])}")
