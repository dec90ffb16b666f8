"""Is the live build whole? Each file's size, time and CRC-32 are recorded in CURRENT when a
build is written (a CRC: damage on disk is what is looked for, and it costs a build tens of
milliseconds where a cryptographic hash cost a tenth of a second). A cheap check compares sizes
and times when a command starts, a full one compares CRCs when a read fails or `mtgrules index`
runs. Damage is rebuilt, never served."""

from __future__ import annotations

import os
import zlib
from pathlib import Path
from typing import Any

from corpus import paths
from indexer.store import Current

SKIPPED = ("WRITELOCK",)  # Whoosh's lock files change without the index changing


def checksums(
    folder: Path, linked_from: Path | None = None, known: dict[str, list[Any]] | None = None
) -> dict[str, list[Any]]:
    """name -> [size, mtime_ns, CRC-32] of every file of a build folder. A file that is a hard
    link to the same file of `linked_from`, whose checksums are `known`, keeps its CRC."""
    found: dict[str, list[Any]] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and not path.name.endswith(SKIPPED):
            stat = path.stat()
            previous = (known or {}).get(path.name)
            if (
                linked_from is not None
                and previous is not None
                and previous[:2] == [stat.st_size, stat.st_mtime_ns]
                and _same_file(path, linked_from / path.name)
            ):
                found[path.name] = previous
            else:
                found[path.name] = [stat.st_size, stat.st_mtime_ns, _crc(path)]
    return found


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _crc(path: Path) -> int:
    crc = 0
    with path.open("rb") as data:
        while block := data.read(1 << 20):
            crc = zlib.crc32(block, crc)
    return crc


def damage(folder: Path, recorded: dict[str, list[Any]], full: bool = False) -> list[str]:
    """The files of a build that are missing or not as written (by size and time, or with
    `full` by their CRC too); empty when it is whole or nothing was recorded."""
    damaged = []
    for name, (size, mtime, digest) in recorded.items():
        path = folder / name
        try:
            stat = path.stat()
            changed = stat.st_size != size or stat.st_mtime_ns != mtime
            if changed or (full and _crc(path) != digest):
                damaged.append(name)
        except OSError:
            damaged.append(name)
    return damaged


def records_mismatch(data: bytes | None, recorded: list[int] | None) -> str | None:
    """Why the hand-off file's bytes (None: missing) are not the ones the build wrote, or
    None."""
    if not recorded:
        return None
    if data is None:
        return "records.jsonl is missing"
    if [len(data), zlib.crc32(data)] != list(recorded):
        return "records.jsonl is not the file the build wrote"
    return None


def records_damage(path: Path, recorded: list[int] | None) -> str | None:
    try:
        data: bytes | None = path.read_bytes()
    except OSError:
        data = None
    return records_mismatch(data, recorded)


def live_damage(home: Path, current: Current, full: bool = False) -> list[str]:
    """What of the live build is damaged or missing: its files (sizes and times; with `full`
    their CRCs too) and the hand-off file (with `full`). Files whose time alone changed and
    whose bytes are as written (a library copied or restored) are no damage: their new times
    are recorded instead (`retimed`)."""
    folder = paths.index_root(home) / current.dir
    found = damage(folder, current.checksums, full)
    if found:
        found = retimed(home, current, found)
    recorded = list(current.records_checksum) if current.records_checksum else None
    if full and (why := records_damage(paths.records_file(home), recorded)):
        found.append(why)
    return found


def retimed(home: Path, current: Current, found: list[str]) -> list[str]:
    """Of the files `damage` found, those really damaged. A copy (`cp -r`, a backup restored)
    gives every file a new time: when each such file's size and CRC are as written, the live
    build records their new times (under the build lock; skipped while a build runs, which
    replaces the build anyway) and nothing is damaged."""
    from dataclasses import replace

    from indexer.store import IndexError_, build_lock, live_build, write_current

    folder = paths.index_root(home) / current.dir
    updated = dict(current.checksums)
    for name in found:
        size, _, digest = current.checksums[name]
        try:
            stat = (folder / name).stat()
            same = stat.st_size == size and _crc(folder / name) == digest
        except OSError:
            return found
        if not same:
            return found
        updated[name] = [size, stat.st_mtime_ns, digest]
    try:
        with build_lock(home, wait_seconds=0):
            live = live_build(home)
            if live is None or live.dir != current.dir or live.checksums != current.checksums:
                return found  # another build was written meanwhile: checked again next time
            write_current(home, replace(current, checksums=updated))
    except (IndexError_, OSError):
        return found
    return []
