"""Whoosh's own codec (whoosh3) as our writers use it: the same files, made with less work.

- Posting blocks are stored as pickled, not compressed: zlib took an eighth of a full build's
  indexing, and the reader decompresses only blocks flagged as compressed (each block says).
- The postings and terms files' positions are counted as they are written: Whoosh asks them
  at each term (190,000 times), and a buffered file answers each with a system call.
- When a segment is flushed, Whoosh asks a document's field length once per posting (380,000
  in a full library), each answered with a read of the lengths file, and for a field without
  lengths (the ID fields) with a look at the file system (83,000). Here each field's lengths
  are read whole once.

The segments record Whoosh's plain codec with the same settings: reading needs nothing here.
"""

from __future__ import annotations

from array import array
from typing import Any, BinaryIO

from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    W3Codec,
    W3FieldWriter,
    W3PerDocReader,
    W3Segment,
    _lenfield,
)
from whoosh.util.numeric import byte_to_length

COMPRESSION = 0  # zlib's level for posting blocks; 0: none


class WritingCodec(W3Codec):
    def __init__(self) -> None:
        super().__init__(compression=COMPRESSION)

    def new_segment(self, storage: Any, indexname: str) -> W3Segment:
        return W3Segment(W3Codec(compression=COMPRESSION), indexname)

    def per_document_reader(self, storage: Any, segment: Any) -> W3PerDocReader:
        return _WholeLengths(storage, segment)

    def field_writer(self, storage: Any, segment: Any) -> W3FieldWriter:
        writer = super().field_writer(storage, segment)
        for written in (writer._postfile, writer._tindex.dbfile):  # postings, terms
            written.file = _Counted(written.file)
        return writer


class _Counted:
    """A file written front to back that knows its position without asking the system."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self._at = file.tell()

    def write(self, data: Any) -> int:
        written = self._file.write(data)
        self._at += written
        return written

    def tell(self) -> int:
        return self._at

    def seek(self, *args: Any) -> int:
        self._at = self._file.seek(*args)
        return self._at

    def __getattr__(self, name: str) -> Any:  # flush, close, fileno...
        return getattr(self._file, name)


class _WholeLengths(W3PerDocReader):
    """W3PerDocReader whose `doc_field_length` reads each field's lengths column once."""

    def __init__(self, storage: Any, segment: Any) -> None:
        super().__init__(storage, segment)
        self._whole: dict[str, array[int] | None] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: Any = 0) -> Any:
        if docnum > self._doccount:  # as W3PerDocReader
            raise IndexError(f"Asked for docnum {docnum!r} of {self._doccount}")
        try:
            lengths = self._whole[fieldname]
        except KeyError:
            reader = self._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
            lengths = self._whole[fieldname] = None if reader is None else reader.load()
        if lengths is None:
            return default
        code = lengths[docnum] if docnum < len(lengths) else 0
        # As W3PerDocReader: a 0 byte (no length stored) is None, not the default.
        return byte_to_length(code) if code else None
