"""`mtgrules stale --lang L[,L]`: translated rules whose English has changed since."""

from __future__ import annotations

import click

from search.commands.options import json_option, lang_option
from search.safe_text import echo, echo_json


@click.command("stale")
@lang_option("The translations' languages (it, fr, es), a comma list.")
@json_option
def command(langs: tuple[str, ...], as_json: bool) -> None:
    """Translated rules whose English counterpart changed after the English edition they follow
    (a translation aligned by content: after the oldest loaded edition), each with the English
    word diff."""
    from corpus.editions import stale
    from search.editions import by_edition, colour_diff
    from search.session import library_records

    langs = tuple(lang for lang in langs if lang != "en")
    if not langs:
        raise click.UsageError("give a translation's language with --lang: it, fr or es")
    records = library_records((*langs, "en"))
    english = by_edition(records, "en")
    if not english:
        raise click.ClickException(
            "no English editions in the library; add one with `mtgrules add`"
        )
    found = stale([r for r in records if r.lang in langs], english)
    if as_json:
        payload = {"lang": ",".join(langs), "stale": [s.to_json() for s in found]}
        echo_json(payload)
        return
    for lang in langs:
        count = sum(1 for item in found if item.record.lang == lang)
        echo(f"{count} {lang} rule{' is' if count == 1 else 's are'} stale")
    for item in found:
        edition = item.record.edition or "undated"
        number, key = item.record.number, item.record.key
        label = number if number == key else f"{number} (aligned to {key})"
        echo(
            f"{item.record.lang} {label} ({edition}, "
            f"{item.record.source}): English {item.english_from} → {item.english_to} "
            f"{item.change.status}"
        )
        click.echo(f"    {colour_diff(item.change.diff)}")
