"""`mtgrules history RULE`: one rule across every loaded English edition."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from search.commands.options import json_option


@click.command("history")
@click.argument("rule")
@json_option
def command(rule: str, as_json: bool) -> None:
    """When a rule appeared, changed, moved (renumbered) and disappeared."""
    from corpus.editions import history
    from search.editions import by_edition, colour_diff
    from search.session import library_records

    editions = by_edition(library_records(("en",)), "en")
    if not editions:
        raise click.ClickException(
            "no English editions in the library; add one with `mtgrules add`"
        )
    events = history(rule.rstrip("."), list(editions.items()))
    if not events:
        raise click.ClickException(f"no rule {rule} in any loaded English edition")
    if as_json:
        payload = {"rule": rule, "history": [asdict(e) for e in events]}
        click.echo(json.dumps(payload, ensure_ascii=False, indent=1))
        return
    for event in events:
        moved = f" (from {event.previous})" if event.previous and event.number else ""
        gone = f" ({event.previous} is gone)" if event.number is None else ""
        click.echo(f"{event.edition}  {event.event:14} {event.number or ''}{moved}{gone}")
        if event.diff and event.event != "removed":
            click.echo(f"    {colour_diff(event.diff)}")
