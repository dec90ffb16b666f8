"""`mtgrules history RULE`: one rule across every loaded English edition."""

from __future__ import annotations

from typing import Any

import click

from corpus.align.identity import gone_place
from corpus.model.documents import is_judge_key
from search import payloads
from search.commands.options import (
    EDITION,
    json_option,
    numbered,
    problems_as_errors,
    utf8_words,
)
from search.render import colour_diff
from search.safe_text import counted, echo, echo_json
from search.session import library_records


@click.command("history")
@click.argument("words", nargs=-1, required=True, metavar="RULE", callback=utf8_words)
@click.option(
    "--edition",
    type=EDITION,
    metavar="DATE",
    help="The edition whose numbering RULE is in (default: the newest that has it).",
)
@click.option(
    "--ignore-typography/--exact-typography",
    default=True,
    show_default=True,
    help="Whether a change of quotes, apostrophes, dashes or spaces alone is no change.",
)
@json_option
def command(
    words: tuple[str, ...], edition: str | None, ignore_typography: bool, as_json: bool
) -> None:
    """Show when a rule appeared, changed, moved (was renumbered) and disappeared. RULE is a
    number in the edition given (or the newest that has it), a gone rule's key
    (gone:725.1@2025-11-14), or a translation's own key (205.2c@FILE); a judge document's
    part needs no quotes (history MTR 6)."""
    rule = " ".join(words)
    own_key = "@" in rule and not gone_place(rule)  # a translation's: its records are needed
    with problems_as_errors():
        rule = numbered(rule)
        records = library_records(() if own_key else ("en",))
        payload = payloads.history(records, rule, edition, ignore_typography)
    if as_json:
        echo_json(payload)
        return
    if payload.get("edition_note"):  # a date between editions, read as the one in effect
        echo(f"note: {payload['edition_note']}", err=True)
    if "note" in payload:
        echo(f"{payload['rule']}: {payload['note']}")
        echo(f"    {payload['text']}")
        return
    events = payload["history"]
    oldest = payload["oldest_loaded"]
    changes = _changes(events)
    subrules = payload["subrules"]
    # A subrule that appeared since the oldest loaded edition is a change of its rule's.
    changed_below = {n: c for n, e in subrules.items() if (c := _changes(e, appearing=True))}
    below = sum(changed_below.values())
    named = payload["rule"]
    if payload["edition"] and payload.get("key", named) != named:
        # 725.1 of 2025-11-14 is another rule than today's 725.1: say which it is now.
        now = f"{payload['key']} now"
        if gone_place(payload["key"]):
            now = f"gone since {events[-1]['edition']}"
        named = f"{named} of {payload['edition']} ({now})"
    summary = f"{named}: {counted(changes, 'change')}"
    if not changes and events and events[0]["event"] == "appeared":
        summary = f"{named}: appeared in {events[0]['edition']}, unchanged since"
    # A judge document's chapter has sections (the JAR's Common Issues, issues): its parts.
    parts = "part" if is_judge_key(payload["rule"]) else "subrule"
    if subrules:
        summary += f"; its {counted(len(subrules), parts)}: {counted(below, 'change')}"
    always = events[0]["event"] == "first seen" and all(e["number"] for e in events)
    since = f"in every loaded edition since {oldest}" if always else f"loaded editions {oldest} on"
    echo(f"{summary} ({since})")
    if earlier := payload.get("before"):  # the number was another rule's until then
        echo(
            f"until {earlier['until']}, {payload['rule']} numbered another rule:"
            f" `mtgrules history {earlier['key']}`"
        )
    _events(events, oldest)
    for number, found in subrules.items():
        if number in changed_below:
            echo(f"{number}:")
            _events([e for e in found if e["event"] != "first seen"], oldest, indent="  ")
    unchanged = [n for n in subrules if n not in changed_below]
    if len(unchanged) > UNCHANGED_LISTED:
        echo(f"unchanged: {counted(len(unchanged), parts)} (`--json` lists them)")
    elif unchanged:
        echo(f"unchanged: {', '.join(unchanged)}")


UNCHANGED_LISTED = 40  # a section's unchanged subrules are named up to this many, else counted


def _changes(events: list[dict[str, Any]], appearing: bool = False) -> int:
    """A rule's changes; with `appearing`, its appearance is one (a subrule new since the
    oldest loaded edition changed its rule)."""
    kept = ("first seen",) if appearing else ("first seen", "appeared")
    return sum(1 for e in events if e["event"] not in kept)


def _events(events: list[dict[str, Any]], oldest: str, indent: str = "") -> None:
    for event in events:
        moved = f" (from {event['previous']})" if event["previous"] and event["number"] else ""
        gone = f" ({event['previous']} is gone)" if event["number"] is None else ""
        if event["event"] == "first seen":
            # The oldest loaded edition has it: when it appeared is older than the library.
            note = " (in the oldest loaded edition: it appeared before it)"
            echo(f"{indent}{event['edition']}  first seen     {event['number']}{note}")
            continue
        echo(
            f"{indent}{event['edition']}  {event['event']:14} {event['number'] or ''}{moved}{gone}"
        )
        if event["diff"] and event["event"] != "removed":
            click.echo(f"{indent}    {colour_diff(event['diff'])}")
