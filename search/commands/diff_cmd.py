"""`mtgrules diff --from DATE --to DATE [RULE]`: rule-by-rule changes between two editions."""

from __future__ import annotations

import click

from search.commands.options import json_option, lang_option
from search.safe_text import echo, echo_json


@click.command("diff")
@click.option("--from", "from_", required=True, metavar="DATE", help="The older edition.")
@click.option("--to", "to", required=True, metavar="DATE", help="The newer edition.")
@lang_option("The editions' language (default en); a comma list gives one diff per language.")
@click.option(
    "--ignore-typography",
    is_flag=True,
    help="Treat quotes, apostrophes, dashes and spaces of any form as one.",
)
@click.argument("rule", required=False)
@json_option
def command(
    from_: str,
    to: str,
    langs: tuple[str, ...],
    ignore_typography: bool,
    rule: str | None,
    as_json: bool,
) -> None:
    """Added, removed, changed (with a word diff), moved and moved+changed rules between two
    editions of one language; RULE (205, 205.4, 205.4d) narrows to that part. A renumbered rule
    is paired first, and its subrules with the subrules of its new number."""
    from corpus.editions import compare
    from search.editions import by_edition, colour_diff, pick_edition
    from search.session import library_records

    langs = langs or ("en",)
    records = library_records(langs)
    payloads = []
    for lang in langs:
        editions = by_edition(records, lang)
        old, new = pick_edition(editions, from_, "--from"), pick_edition(editions, to, "--to")
        changes = compare(editions[old], editions[new], ignore_typography=ignore_typography)
        if rule:
            changes = [c for c in changes if _under(rule, c.old) or _under(rule, c.new)]
        payloads.append(
            {"from": old, "to": new, "lang": lang, "changes": [c.to_json() for c in changes]}
        )
        if as_json:
            continue
        echo(f"{lang} {old} → {new}: {len(changes)} change{'' if len(changes) == 1 else 's'}")
        for change in changes:
            numbers = " → ".join(n for n in (_number(change.old), _number(change.new)) if n)
            note = " (cited rule numbers only)" if change.references_only else ""
            echo(f"{change.status:14} {numbers}{note}")
            if change.diff:
                click.echo(f"    {colour_diff(change.diff)}")
    if as_json:
        echo_json(payloads[0] if len(payloads) == 1 else {"diffs": payloads})


def _number(record) -> str | None:
    return record.number if record is not None else None


def _under(rule: str, record) -> bool:
    if record is None or not record.number:
        return False
    number, prefix = record.number, rule.rstrip(".").lower()
    return number == prefix or (
        number.startswith(prefix) and (number[len(prefix)] in ".abcdefghijklmnopqrstuvwxyz")
    )
