"""`mtgrules export`: the records for other tools (JSONL, TMX, TBX, CSV)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any

import click

from corpus.model.dates import in_effect_on, resolve_edition
from corpus.paths import home
from indexer.store import read_current
from search.commands.options import EDITION, lang_option
from search.safe_text import echo, terminal_safe
from search.session import hand_off, library_records, open_engine

if TYPE_CHECKING:
    from pathlib import Path

    from corpus.model.records import Record


@click.command("export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "tmx", "tbx", "csv", "po"]),
    default="jsonl",
    show_default=True,
    help="The format: jsonl (every record), tmx (a translation memory), tbx (the term base), "
    "csv (a spreadsheet) or po (a gettext catalogue of one language against today's English).",
)
@lang_option("Only these languages.")
@click.option(
    "--edition",
    type=EDITION,
    metavar="DATE",
    help="Texts of this edition (YYYY-MM-DD, YYYYMMDD or latest).",
)
@click.option(
    "--output",
    type=click.Path(file_okay=False, writable=True),
    help="Write into this folder instead of standard output: mtgrules.FORMAT (mtgrules.tmx…), "
    "or mtgrules-LANG.po per language with --format po.",
)
def command(fmt: str, langs: tuple[str, ...], edition: str | None, output: str | None) -> None:
    """Print the library in a format other tools read, to standard output."""
    from search import exports

    # Checked (and made) before the library is read, and perhaps indexed.
    folder = output_folder(output) if output is not None else None
    if fmt == "po":
        _po(langs, edition, folder)
        return

    if fmt == "jsonl":
        # The hand-off file already holds every record, aligned: copy its lines.
        data = hand_off()
        edition = _resolved(edition)
        lines = data.splitlines(keepends=True) if langs or edition else []
        records = [json.loads(line) for line in lines]
        _held(langs, {record["lang"] for record in records})
        if edition:
            _check_edition(edition, {r["edition"] for r in records})
        of_edition = _of_edition(records, edition)
        if langs or edition:
            kept = [
                (line, record)
                for line, record in zip(lines, records, strict=True)
                if (not langs or record["lang"] in langs) and of_edition(record)
            ]
            data = b"".join(line for line, _ in kept)
            for lang in langs if edition else ():
                if not any(record["lang"] == lang for _, record in kept):
                    echo(
                        f"note: no {lang} text is of English {edition}: none follows it (see "
                        "`mtgrules sources`)",
                        err=True,
                    )
        _out(data, fmt, folder)
        for failure in _failures():
            echo(f"error: {failure}", err=True)
        return

    if fmt == "tbx":
        with open_engine() as engine:
            _out(exports.to_tbx(engine.termbase, langs), fmt, folder)
        return
    every = library_records()
    _held(langs, {r.lang for r in every})
    edition = _resolved(edition)
    if edition:
        _check_edition(edition, {r.edition for r in every})
    if len(langs) > 1 and "en" not in langs:
        # Two translations' units hold one language each: English is their common source
        # (--lang pt,es is English with each, in TMX and CSV alike: a CSV row is a TMX unit).
        # One language alone stays its own memory.
        langs = ("en", *langs)
    units = exports.units(every, langs, edition)
    text = exports.to_tmx(units) if fmt == "tmx" else exports.to_csv(units, langs)
    _out(text, fmt, folder)


def _out(content: str | bytes, fmt: str, folder: Path | None) -> None:
    """An export to standard output, or to `folder`/mtgrules.FORMAT (said on stderr)."""
    if folder is None:
        write_utf8(content)
        return

    path = folder / f"mtgrules.{fmt}"
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    path.write_bytes(data)
    echo(f"wrote {path}", err=True)


def write_utf8(content: str | bytes) -> None:
    """An export on standard output in UTF-8, as its header says (PO, TMX, TBX) and every
    reader expects, whatever the terminal's encoding: in Latin-1 the PO failed msgfmt and the
    XML was not well-formed. Controls are shown as escapes, as everywhere."""
    data = content if isinstance(content, bytes) else terminal_safe(content).encode("utf-8")
    sys.stdout.flush()
    # Until every byte is out: a write to a pipe its reader closed (`| head`) returned a part
    # of the 80 MB, and the export ended with exit 0; the next write is the closed pipe's error.
    left = memoryview(data)
    while left:
        left = left[sys.stdout.buffer.write(left) :]
    sys.stdout.buffer.flush()


def output_folder(output: str) -> Path:
    """--output's folder, made when only it is missing: a mistyped path (`/nonexistent/dir`)
    is refused, not made silently."""
    from pathlib import Path

    folder = Path(output)
    # A bad option's value (exit 2), as click says of an --output that is a file.
    if folder.exists() and not folder.is_dir():
        raise click.UsageError(f"--output {output}: a file, not a folder; give a folder")
    if not folder.exists():
        if not folder.parent.is_dir():
            raise click.UsageError(
                f"--output {output}: there is no folder {folder.parent}; create it first, or "
                "give a folder that exists"
            )
        folder.mkdir()
    return folder


def _po(langs: tuple[str, ...], edition: str | None, folder: Path | None) -> None:
    """One catalogue per translated language, to standard output (one language) or a folder."""

    from search.po_export import catalogue

    translated = [lang for lang in langs if lang != "en"]
    if not translated:
        raise click.UsageError("--format po needs --lang with a translation's language (pt, es…)")
    if edition is not None:
        raise click.UsageError("--format po is always against the newest English: drop --edition")
    if len(translated) > 1 and folder is None:
        raise click.UsageError(
            "a PO catalogue holds one language: give one with --lang, or --output DIR"
        )
    records = library_records((*translated, "en"))
    _held(translated, {r.lang for r in records})
    for lang in translated:
        try:
            left_out: list[Record] = []
            text = catalogue(records, lang, left_out, _team(records, lang))
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        if left_out:
            echo(f"note: {left_out_note(left_out, lang)}", err=True)
        if several := several_note(records, lang):
            echo(f"note: {several}", err=True)
        if folder is None:
            write_utf8(text)
            continue
        path = folder / f"mtgrules-{lang}.po"
        path.write_text(text, encoding="utf-8")
        echo(f"wrote {path}", err=True)


def several_note(records: list[Record], lang: str) -> str | None:
    """Which of several translations of a language a catalogue's lines come from: a catalogue
    edited and added back beside its original makes two, and each line is one of them."""
    from corpus.model.documents import doc_of_key
    from search.po_export import by_precedence

    groups = by_precedence([r for r in records if doc_of_key(r.key) == "cr"], lang)
    if len(groups) < 2:
        return None
    first, *others = (group[0].source for group in groups)
    return (
        f"the library has {len(groups)} {lang} translations: each line is {first}'s, else "
        f"{', then '.join(others)}'s where it has none (each entry's comment names its "
        f"document); to export {others[0]} alone, add it with its English to a library of its "
        f"own (MTGRULES_HOME=DIR mtgrules add …)"
    )


def _held(langs: Iterable[str], present: Collection[str]) -> None:
    """A language asked for that the library has no document in is an error in every format,
    not an empty file that says nothing."""
    for lang in langs:
        if lang not in present:
            raise click.ClickException(
                f"no {lang} documents in the library; see `mtgrules sources`"
            )


def _team(records: list[Record], lang: str) -> dict[str, str]:
    """The Language and Language-Team of the catalogue a language's translation came from,
    when the library holds one (the Brazilian "pt_BR", "Portuguese, Brazilian"): a catalogue
    sent back to its platform keeps its region. Else none: the export writes the language's."""
    import polib

    from corpus.paths import documents

    sources = {r.source for r in records if r.lang == lang and r.source.endswith(".po")}
    if len(sources) != 1:
        return {}
    try:
        metadata = polib.pofile(str(documents(home()) / sources.pop())).metadata
    except (OSError, ValueError, UnicodeError):
        return {}
    tag = metadata.get("Language", "")
    if tag.replace("-", "_").split("_")[0].lower() != lang:
        return {}
    return {key: metadata[key] for key in ("Language", "Language-Team") if metadata.get(key)}


def _of_edition(records: list[dict[str, Any]], edition: str | None) -> Callable[[Any], bool]:
    """Whether a record is of the edition asked: an English record of that edition, or a
    translation that follows it (the edition TMX pairs it with)."""
    if not edition:
        return lambda record: True
    from corpus.align.following import followed_by
    from corpus.model.documents import doc_of_key

    english = sorted(
        {r["edition"] for r in records if r["lang"] == "en" and doc_of_key(r["key"]) == "cr"}
        - {None}
    )

    def of_edition(record: dict[str, Any]) -> bool:
        if record["lang"] == "en":
            return bool(record["edition"] == edition)
        return followed_by(english, record.get("follows"), record["edition"]) == edition

    return of_edition


def _resolved(edition: str | None) -> str | None:
    """`latest` as the newest English edition of the current build, and a date between
    editions as the edition in effect then (said on stderr), as every command reads it."""
    if edition is None:
        return None
    editions = (read_current(home()) or {}).get("english_editions", [])
    wanted = resolve_edition(edition, editions)
    in_effect = in_effect_on(editions, wanted)
    if wanted in editions or in_effect is None:
        return wanted  # none in effect yet: _check_edition says which editions there are
    from search.results import Filters

    # The note every command gives for such a date (Filters.edition_note).
    echo(f"note: {Filters(edition=in_effect, asked_edition=wanted).edition_note}", err=True)
    return in_effect


def _failures() -> list[str]:
    """The sources the current index could not ingest, one line each."""
    current = read_current(home()) or {}
    return list(current.get("failures", []))


def _check_edition(edition: str, editions: set[str | None]) -> None:
    """An edition no text of the library has is an error, as in `search --edition`: an empty
    export would look like a library with nothing in it."""
    if edition not in editions:
        loaded = ", ".join((read_current(home()) or {}).get("english_editions", [])) or "none"
        raise click.ClickException(
            f"no text of edition {edition} in the library; English editions loaded: {loaded}"
        )


def left_out_note(left_out: list[Record], lang: str) -> str:
    """What an export could not hold, by kind: the rules (which `stale` lists too), the
    glossary entries and examples English no longer has."""
    by_kind: dict[str, dict[str, None]] = {}
    for record in left_out:  # each rule or entry once (an article's paragraphs share a key)
        name = record.number or record.key
        if record.kind == "example":
            name = f"of {record.parent or name}"
        by_kind.setdefault(record.kind, {})[name] = None
    said = []
    for kind, names in by_kind.items():
        listed = list(names)
        more = f" and {len(listed) - 5:,} more" if len(listed) > 5 else ""
        plural = (
            kind if len(listed) == 1 else ("glossary entries" if kind == "glossary" else f"{kind}s")
        )
        said.append(f"{plural} {', '.join(listed[:5])}{more}")
    rules = (
        f" (`mtgrules stale --lang {lang}` lists those English removed)"
        if "rule" in by_kind
        else ""
    )
    return (
        f"{len(left_out):,} {lang} translations are not in the catalogue: today's English has no "
        f"line for them: {'; '.join(said)}{rules}"
    )
