"""`mtgrules diff --from DATE --to DATE [RULE]`: rule-by-rule changes between two editions."""

from __future__ import annotations

import json

import click

from search.commands.options import json_option


@click.command("diff")
@click.option("--from", "from_", required=True, metavar="DATE", help="The older edition.")
@click.option("--to", "to", required=True, metavar="DATE", help="The newer edition.")
@click.option("--lang", default="en", show_default=True, help="Language of both editions.")
@click.argument("rule", required=False)
@json_option
def command(from_: str, to: str, lang: str, rule: str | None, as_json: bool) -> None:
    """Added, removed, changed (with a word diff), moved and moved+changed rules between two
    editions of one language; RULE (205, 205.4, 205.4d) narrows to that part."""
    from corpus.editions import compare
    from corpus.languages import UnknownLanguageError, validate_languages
    from search.editions import by_edition, colour_diff, pick_edition
    from search.session import library_records

    try:
        (lang,) = validate_languages([lang])
    except (UnknownLanguageError, ValueError) as error:
        raise click.BadParameter(str(error), param_hint="--lang") from None
    editions = by_edition(library_records((lang,)), lang)
    old, new = pick_edition(editions, from_, "--from"), pick_edition(editions, to, "--to")
    changes = compare(editions[old], editions[new])
    if rule:
        changes = [c for c in changes if _under(rule, c.old) or _under(rule, c.new)]
    if as_json:
        payload = {"from": old, "to": new, "lang": lang, "changes": [c.to_json() for c in changes]}
        click.echo(json.dumps(payload, ensure_ascii=False, indent=1))
        return
    click.echo(f"{lang} {old} → {new}: {len(changes)} changes")
    for change in changes:
        numbers = " → ".join(n for n in (_number(change.old), _number(change.new)) if n)
        note = " (cited rule numbers only)" if change.references_only else ""
        click.echo(f"{change.status:14} {numbers}{note}")
        if change.diff:
            click.echo(f"    {colour_diff(change.diff)}")


def _number(record) -> str | None:
    return record.number if record is not None else None


def _under(rule: str, record) -> bool:
    if record is None or not record.number:
        return False
    number, prefix = record.number, rule.rstrip(".")
    return number == prefix or (
        number.startswith(prefix) and (number[len(prefix)] in ".abcdefghijklmnopqrstuvwxyz")
    )
