"""`mtgrules add FILE`: ingest one more document into the library in MTGRULES_HOME."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("add")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def command(files: tuple[Path, ...]) -> None:
    """Add rules documents (text files) to the library; each is checked before it is kept."""
    from corpus import library
    from corpus.ingest import IngestError, ingest_bytes

    failed = 0
    known = {source.sha256 for source in library.all_sources()}
    for path in files:
        try:
            data = _read(path)
            document = ingest_bytes(data, path.name)
        except IngestError as error:
            click.echo(f"error: {error}", err=True)
            failed += 1
            continue
        if document.sha256 in known:
            click.echo(f"{path.name}: already in the library, nothing to do")
            continue
        target = library.documents_dir() / path.name
        if target.exists():
            target = target.with_name(f"{path.stem}-{document.sha256[:8]}{path.suffix}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as error:
            raise click.ClickException(
                f"{path}: cannot store it in {target.parent} ({error.strerror}); "
                "set MTGRULES_HOME to a writable directory"
            ) from None
        known.add(document.sha256)
        counts = ", ".join(f"{n} {kind}" for kind, n in sorted(document.counts().items()))
        click.echo(
            f"{path.name}: added as {target.name} (lang={document.lang}, "
            f"edition={document.edition or 'unknown'}, format={document.layout}; {counts}; "
            f"{len(document.dropped)} lines dropped)"
        )
        for warning in document.warnings:
            click.echo(f"  warning: {warning}")
    if failed:
        raise SystemExit(1)


def _read(path: Path) -> bytes:
    from corpus.ingest import IngestError

    if path.is_dir():
        raise IngestError(f"{path}: is a directory; give the rules files inside it")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise IngestError(f"{path}: no such file; check the path") from None
    except OSError as error:
        raise IngestError(f"{path}: cannot read it ({error.strerror})") from None
