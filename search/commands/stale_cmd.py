"""`mtgrules stale --lang L`: translated rules whose English has changed since."""

from __future__ import annotations

import json

import click

from search.commands.options import json_option


@click.command("stale")
@click.option("--lang", required=True, help="The translation's language (it, fr, es).")
@json_option
def command(lang: str, as_json: bool) -> None:
    """Translated rules whose English counterpart changed after the English edition they were
    translated from, each with the English word diff."""
    from corpus.editions import stale
    from corpus.languages import UnknownLanguageError, validate_languages
    from search.editions import by_edition, colour_diff
    from search.session import library_records

    try:
        (lang,) = validate_languages([lang])
    except (UnknownLanguageError, ValueError) as error:
        raise click.BadParameter(str(error), param_hint="--lang") from None
    if lang == "en":
        raise click.BadParameter("give a translation's language: it, fr or es", param_hint="--lang")
    records = library_records((lang, "en"))
    english = by_edition(records, "en")
    if not english:
        raise click.ClickException(
            "no English editions in the library; add one with `mtgrules add`"
        )
    found = stale([r for r in records if r.lang == lang], english)
    if as_json:
        payload = {"lang": lang, "stale": [s.to_json() for s in found]}
        click.echo(json.dumps(payload, ensure_ascii=False, indent=1))
        return
    click.echo(f"{len(found)} {lang} rules are stale")
    for item in found:
        click.echo(
            f"{item.record.number} ({item.record.edition or 'undated'}, {item.record.source}): "
            "English "
            f"{item.english_from} → {item.english_to} {item.change.status}"
        )
        click.echo(f"    {colour_diff(item.change.diff)}")
