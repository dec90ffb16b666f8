"""Whoosh's file storage, for the writers, without the reference cycle its `create` leaves.

Every Whoosh writer makes its temporary folder twice (`MAIN.tmp`: the writer, then its
per-document writer), and `FileStorage.create` keeps the second `FileExistsError` in a local
(`e = sys.exc_info()[1]`): the exception's traceback holds that frame, and through it every
caller's frame, the build's included. So a build's records outlived it as cyclic garbage, and
the first collection after the build (the collector is paused during one) went through them
all: 0.3 s of adding an edition. This storage makes the same folders, keeping nothing."""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path
from typing import Any

from whoosh.fields import Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.index import Index
from whoosh.util import random_name
from whoosh.writing import IndexWriter

from indexer.codec import WritingCodec


class Storage(FileStorage):
    def create(self) -> Storage:
        path = os.path.abspath(self.folder)
        with contextlib.suppress(FileExistsError):  # as Whoosh's: an existing folder is fine
            os.makedirs(path)
        if not os.path.isdir(path):
            error = OSError(f"{path!r} is not a directory")
            error.errno = errno.ENOTDIR
            raise error
        return self

    def temp_storage(self, name: str | None = None) -> Storage:
        name = name or f"{random_name()}.tmp"
        return Storage(os.path.join(self.folder, name)).create()


def create_index(folder: Path, schema: Schema) -> Index:
    """A new, empty index in `folder` (whoosh.index.create_in, on this storage)."""
    return Storage(str(folder)).create_index(schema)


def writer(ix: Index, **options: Any) -> IndexWriter:
    """A writer of `ix` with our codec (indexer/codec.py): the files Whoosh's would write."""
    return ix.writer(codec=WritingCodec(), **options)


def open_index(folder: Path) -> Index:
    """The index in `folder`, to write to (whoosh.index.open_dir, on this storage)."""
    return Storage(str(folder)).open_index()
