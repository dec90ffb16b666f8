"""`mtgrules add FILE`: ingest more documents into the library in MTGRULES_HOME."""

from __future__ import annotations

from pathlib import Path

import click

from corpus import paths
from corpus.library import Holdings, add_document, holdings, known_hashes
from indexer.store import live_build
from search.commands.options import json_option
from search.safe_text import counted, echo, echo_json, one_line


@click.command("add")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@json_option
def command(files: tuple[Path, ...], as_json: bool) -> None:
    """Add rules documents to the library; each is checked before it is kept."""
    from corpus.read.ingest import IngestError

    failed = 0
    # Once: hashing the library per file would read it again and again; the files the live
    # index has seen unchanged (same size and time) keep the hash it took.
    # What it holds, by edition and language, is the live build's (CURRENT), read once too.
    live = live_build(paths.home())
    seen = live.files if live else {}
    known = known_hashes(paths.home(), seen)
    indexed = {name.removeprefix("documents/") for name in seen}
    english, translations = (live.english_sources, live.translations) if live else ({}, {})
    held = holdings(paths.home(), english, translations, indexed)
    report = []
    for path in files:
        try:
            report.append(keep(read_file(path), path.name, known, held, quiet=as_json))
        except IngestError as error:
            echo(f"error: {error}", err=True)  # with --json too, as every command's error
            if as_json:
                report.append({"file": path.name, "status": "refused", "error": str(error)})
            failed += 1
    if as_json:
        echo_json({"files": report, **({"exit_code": 1} if failed else {})})
    if failed:
        raise SystemExit(1)


def keep(
    data: bytes,
    name: str,
    known: set[str] | None = None,
    held: Holdings | None = None,
    quiet: bool = False,
) -> dict[str, object]:
    """Add one document's bytes and report it in one line, unless `quiet` (IngestError if
    unusable): what was added, as `add --json` gives it."""
    home = paths.home()
    shown = one_line(name)  # a newline in a file name must not forge a second line
    try:
        added = add_document(home, data, name, known, held)
    except OSError as error:
        raise click.ClickException(
            f"{shown}: cannot store it in {paths.documents(home)} ({error.strerror}); "
            "set MTGRULES_HOME to a writable directory"
        ) from None
    document = added.document
    if document is None or added.path is None:
        kept = f" (as {one_line(added.same_as)}, in another encoding)" if added.same_as else ""
        if not quiet:
            echo(f"{shown}: already in the library{kept}, nothing to do")
        return {
            "file": name,
            "status": "already in the library",
            **({"same_as": added.same_as} if added.same_as else {}),
        }
    counts = ", ".join(f"{n:,} {kind}" for kind, n in sorted(document.counts().items()))
    note = None
    if added.beside:
        others = ", ".join(one_line(s) for s in added.beside)
        several = len(added.beside) > 1  # seven catalogues: "both" and one `remove` misled
        removes = " ".join(one_line(s) for s in added.beside)
        note = (
            f"the library has {'other' if several else 'another'} {document.lang}"
            f" translation{'s' if several else ''} ({others}); {'all' if several else 'both'}"
            " are shown and searched, each beside the English it follows; to keep only this"
            f" one, `mtgrules remove {removes}`"
        )
    if not quiet:
        echo(
            f"{shown}: added as {one_line(added.path.name)} (lang={document.lang}, "
            f"edition={document.edition or 'unknown'}, format={document.layout}; {counts}; "
            f"{counted(len(document.dropped), 'line')} dropped)"
        )
        for warning in document.warnings:
            echo(f"  warning: {warning}")
        if note:
            echo(f"  note: {note}")
    return {
        "file": name,
        "status": "added",
        "added_as": added.path.name,
        "lang": document.lang,
        "edition": document.edition,
        "format": document.layout,
        **document.counted(),  # as `sources --json` names them
        "warnings": list(document.warnings),
        **({"note": note} if note else {}),
    }


def read_file(path: Path) -> bytes:
    """The file's bytes, read no further than a document may be long (IngestError if it
    cannot be read, or is a device or a pipe, which could be endless)."""
    import stat

    from corpus.library import read_bounded
    from corpus.read.ingest import IngestError

    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise IngestError(
                f"{one_line(str(path))}: is a directory; give the rules files inside it"
            )
        if not stat.S_ISREG(mode):
            raise IngestError(
                f"{one_line(str(path))}: not a regular file (a device, pipe or socket); "
                "save the document to a file and add that"
            )
        return read_bounded(path)
    except FileNotFoundError:
        raise IngestError(f"{one_line(str(path))}: no such file; check the path") from None
    except OSError as error:
        raise IngestError(f"{one_line(str(path))}: cannot read it ({error.strerror})") from None
