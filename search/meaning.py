"""Retrieval by meaning: the texts a default search shows, nearest to a query in the
multilingual encoder's space (indexer/encoder.py, indexer/vectors.py). Exact cosine, one
matrix-vector product over the build's vectors (some ten thousand of 512 floats: a few
milliseconds), so no approximate-nearest-neighbour library.

The API for the ranking:

    meaning = open_meaning(folder, home)   # Meaning, or None while there are no vectors
    if meaning is None and preparing(folder, home): ...   # say PREPARING on stderr
    hits = meaning.nearest(text, limit=50, langs={"it", "en"}, keys_allowed=None)
    # -> [DenseHit(docnum, vid, key, lang, score)], best first, score = cosine in [-1, 1]

`open_meaning` imports no numpy and reads only the marker; the rows are read, the vectors
memory-mapped and the encoder loaded on the first `nearest`, once per process (serve keeps it
loaded: a second build's Meaning reuses it). A process that answers one search and exits (the
CLI's `search`, after `one_shot()`) asks the home's meaning daemon instead
(search/meaning_daemon.py), and answers in process, with the same hits, when there is none.
Thread-safe."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus.paths import MEANING_VECTORS

if TYPE_CHECKING:
    from indexer.vectors import Row

PREPARING = "note: meaning-based ranking is being prepared; answering by words meanwhile"
# How alike a query and an answered question must be for the question's answer to count as
# near as the question is (cosine): leaving each tuning file out of the questions in turn, 0.5
# and 0.55 read best (1218 and 1217 of 1472 in the top 3; 0.6: 1211, 0.7: 1199, none: 1137).
ANSWERED_FLOOR = 0.55


@dataclass(frozen=True)
class DenseHit:
    docnum: int  # the Whoosh document number in this build
    vid: str  # the version id (the side store's and Whoosh's `vid`)
    key: str  # the record's key, as indexed (group with corpus.model.mechanics.result_key)
    lang: str
    score: float  # cosine similarity to the query


class Meaning:
    """A build's vectors and the encoder."""

    def __init__(
        self, folder: Path, stamp: str, home: Path | None = None, daemon: bool = False
    ) -> None:
        self.folder = folder
        self.stamp = stamp  # which vectors (indexer.vectors.stamp): the daemon checks it
        self.home = home  # where the encoder's cache is
        self.daemon = daemon  # ask the home's daemon first
        self._lock = threading.Lock()
        # (text, limit, langs, keys) -> the hits, the newest last
        self._answers: dict[tuple[Any, ...], list[DenseHit]] = {}

    @cached_property
    def rows(self) -> list[Row]:
        from indexer.vectors import read_rows

        return read_rows(self.folder) or []

    @cached_property
    def _vectors(self) -> Any:
        import numpy as np

        return np.load(self.folder / MEANING_VECTORS, mmap_mode="r", allow_pickle=False)

    @cached_property
    def _columns(self) -> tuple[Any, Any]:
        """Each row's language and key, as arrays to filter on."""
        import numpy as np

        return (
            np.array([r.lang for r in self.rows]),
            np.array([r.key for r in self.rows], dtype=object),
        )

    @cached_property
    def _answered(self) -> tuple[Any, list[Any]] | None:
        """The answered questions' vectors and, for each, the rows of the keys that answer it
        (indexer/answered.py); None without them."""
        from indexer.answered import EXCLUDED, read

        return read(self.folder, os.environ.get(EXCLUDED))

    def encoder(self) -> Any:
        from indexer.encoder import load

        return load(self.home)

    def nearest(
        self,
        text: str,
        *,
        limit: int = 50,
        langs: Collection[str] | None = None,
        keys_allowed: Collection[str] | None = None,
    ) -> list[DenseHit]:
        """The `limit` rows most similar to `text`, best first; only rows of `langs` and with a
        key in `keys_allowed` when given. The last few answers are kept: a tournament's question
        is asked of the judge documents, then of every document (search/engine.py)."""
        asked = (text, limit, _frozen(langs), _frozen(keys_allowed))
        with self._lock:
            hits = self._answers.get(asked)
        if hits is None:
            hits = self._nearest(text, limit, langs, keys_allowed)
            with self._lock:
                if len(self._answers) >= ANSWERS_KEPT:
                    self._answers.pop(next(iter(self._answers)))  # the oldest
                self._answers[asked] = hits
        return list(hits)

    def embed(self, texts: Sequence[str]) -> Any:
        """The texts' vectors (len(texts), dimensions): by the home's daemon when this
        process answers one search, else by the encoder here."""
        if self.daemon and self.home is not None:
            from search import meaning_daemon

            found = meaning_daemon.embedded(self.home, list(texts))
            if found is not None:
                return found
        return self.encoder().embed(list(texts))

    def _nearest(
        self,
        text: str,
        limit: int,
        langs: Collection[str] | None,
        keys_allowed: Collection[str] | None,
    ) -> list[DenseHit]:
        if self.daemon and self.home is not None:
            from search import meaning_daemon

            asked = meaning_daemon.nearest(self, text, limit, langs, keys_allowed)
            if asked is not None:
                return asked
        import numpy as np

        encoder = self.encoder()
        query = encoder.embed_query(text)
        with self._lock:  # the first call reads the rows, maps the vectors, builds the columns
            rows = self.rows
            vectors = self._vectors
            lang_column, key_column = self._columns
        with encoder.one_thread():
            scores = vectors @ query
            if answered := self._answered:
                scores = with_answers(scores, answered[0] @ query, answered[1])
        if langs is not None or keys_allowed is not None:
            keep = np.ones(len(rows), dtype=bool)
            if langs is not None:
                keep &= np.isin(lang_column, list(langs))
            if keys_allowed is not None:
                allowed = set(keys_allowed)
                keep &= np.fromiter((k in allowed for k in key_column), bool, len(rows))
            scores = np.where(keep, scores, -np.inf)
        count = min(limit, int(np.isfinite(scores).sum()))
        if count <= 0:
            return []
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [
            DenseHit(row.docnum, row.vid, row.key, row.lang, float(scores[i]))
            for i in top
            for row in (rows[i],)
        ]


def with_answers(scores: Any, alike: Any, rows: Sequence[Any]) -> Any:
    """The texts' scores with the answer of the answered question most like the query raised
    to that question's likeness (cosine `alike`), when at least ANSWERED_FLOOR: the answer
    is as near as the question it answers."""
    import numpy as np

    if not len(alike):
        return scores
    best = int(np.argmax(alike))
    if alike[best] < ANSWERED_FLOOR or not len(rows[best]):
        return scores
    raised = np.array(scores, copy=True)
    raised[rows[best]] = np.maximum(raised[rows[best]], alike[best])
    return raised


def _frozen(values: Collection[str] | None) -> frozenset[str] | None:
    return None if values is None else frozenset(values)


ANSWERS_KEPT = 16  # nearest-text answers a Meaning remembers
_one_shot = False


def one_shot() -> None:
    """This process answers one search and exits (the CLI): its Meanings ask the home's
    daemon, which holds the encoder, rather than loading numpy and the encoder for one query
    (search/meaning_daemon.py). Serve and the bench, which ask many, load them themselves."""
    global _one_shot
    _one_shot = True


def open_meaning(folder: Path, home: Path | None = None) -> Meaning | None:
    """The build's Meaning, or None while its vectors are not there (being prepared, or
    MTGRULES_MEANING=off: tell them apart with `preparing`)."""
    from indexer.vectors import stamp

    found = stamp(folder)
    return Meaning(folder, found, home, daemon=_one_shot) if found is not None else None


def preparing(folder: Path, home: Path | None = None) -> bool:
    """Whether the vectors are missing but wanted (then say PREPARING on stderr). With `home`:
    when no embedder is at work, one is started, so a killed one is replaced by the next
    search. Reads only the small marker file."""
    from indexer.vectors import mode, ready, running, start

    if mode() == "off" or ready(folder):
        return False
    if home is not None and not running(home):
        with contextlib.suppress(OSError):  # a home we cannot write: words only, still said
            start(home)
    return True
