"""`mtgrules remove DOCUMENT`: take an added document out of the library."""

from __future__ import annotations

import click

from corpus import paths
from corpus.library import NotInLibrary, remove_document
from corpus.paths import home
from search.commands.options import json_option
from search.safe_text import echo, echo_json, one_line


@click.command("remove")
@click.argument("documents", nargs=-1, required=True)
@json_option
def command(documents: tuple[str, ...], as_json: bool) -> None:
    """Remove added documents, each named by its file name or the start of its SHA-256 (both
    shown by `mtgrules sources`). The index follows at the next command."""
    report = [_removed(wanted) for wanted in documents]
    for outcome in report:
        if "error" in outcome:
            echo(f"error: {outcome['error']}", err=True)  # with --json too
        elif not as_json:
            echo(f"{outcome['removed']}: removed; the index follows at the next command")
    failed = any("error" in outcome for outcome in report)
    if as_json:  # as add --json: one object, each document's outcome, the exit code
        echo_json({"documents": report, **({"exit_code": 1} if failed else {})})
    if failed:
        raise SystemExit(1)


def _removed(wanted: str) -> dict[str, str]:
    """One document taken out: {"document", "removed": its file} or {"document", "error"}."""
    try:
        path = remove_document(home(), wanted)
    except NotInLibrary as error:
        return {"document": wanted, "error": f"{error}; see `mtgrules sources`"}
    except OSError as error:  # a read-only home, a document gone meanwhile
        return {
            "document": wanted,
            "error": f"{one_line(wanted)}: cannot remove it from {paths.documents(home())} "
            f"({error.strerror}); make that folder writable, or set MTGRULES_HOME",
        }
    return {"document": wanted, "removed": path.name}
