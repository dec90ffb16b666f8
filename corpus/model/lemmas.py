"""A word's lemma in Italian, French or Spanish, and a lemma's written forms, from the
dictionaries simplemma ships in its wheel: "piochent" and "piochez" are forms of "piocher",
"muore" of "morire", "arrolla" of "arrollar", "vidas" of "vida".

simplemma decodes a language's whole dictionary on its first lookup (1-4 s of pure Python per
language on this machine, 0.5 s to import it). So each language is read once and written to the
home's cache as two tables: written form -> lemmas and lemma -> forms, both by folded word, cut
into buckets by the word's first two letters, each a marshal blob (as indexer/tokens.py stores
the encoder's vocabulary). A process reads only the few buckets its words need (a few ms) and
never imports simplemma. A search that finds no tables does not wait for them: it starts a
detached, niced `python -m corpus.model.lemmas CACHE` and answers without lemmas meanwhile."""

from __future__ import annotations

import marshal
import mmap
import threading
from pathlib import Path

from corpus.model.languages import LANGUAGES
from corpus.model.text import fold

LANGS = ("it", "fr", "es")  # the languages whose lemmas are used (English has its stemmer)
_INDEX = "index.marshal"  # (table, bucket) -> (offset, length) in _BUCKETS
_BUCKETS = "buckets.bin"

Table = dict[str, tuple[str, ...]]  # folded word -> words


def without_enclitics(word: str, lang: str) -> list[str]:
    """The verb a word may be with a pronoun joined on taken off (the language's `enclitics`),
    as the dictionary writes it: an Italian infinitive gets back its final "e" ("rimetterlo":
    "rimetter" -> "rimettere"; "ponerla": "poner")."""
    verbs: list[str] = []
    language = LANGUAGES.get(lang)
    for pronoun in language.enclitics if language else ():
        stem = word.removesuffix(pronoun)
        if stem != word and len(stem) > 3:
            verbs += [stem, stem + "e"] if stem.endswith("r") else [stem]
    return verbs


def _bucket(word: str) -> str:
    return word[:2]


def _data_file(lang: str) -> Path | None:
    """simplemma's dictionary file of a language, found without importing the package."""
    from importlib.util import find_spec

    spec = find_spec("simplemma")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    path = folder / "strategies" / "dictionaries" / "data" / f"{lang}.plzma"
    return path if path.exists() else None


class Lemmas:
    """Lemmas and forms per language, each language read on its first use (from `cache`, a
    folder, when it has it; else from simplemma, then written there). With `wait` False, a
    language not in the cache has no lemmas until a detached process has written it."""

    def __init__(self, cache: Path | None = None, *, wait: bool = True) -> None:
        self.cache = cache
        self.wait = wait or cache is None
        self._lock = threading.Lock()
        self._languages: dict[str, _Language | None] = {}
        self._started = False

    def lemmas(self, word: str, lang: str) -> tuple[str, ...]:
        """The lemmas of a written word ("piochent" fr -> piocher), accents and case folded;
        () for a word the dictionary lacks or a language without one. An Italian or Spanish
        verb with its pronouns joined on ("rimetterlo", "ponerla", "dandogli"), which the
        dictionary lacks, is its verb's."""
        language = self._language(lang)
        if not language:
            return ()
        folded = fold(word)
        for form in (folded, *without_enclitics(folded, lang)):
            if found := language.get("lemmas", form):
                return found
        return ()

    def forms(self, lemma: str, lang: str) -> tuple[str, ...]:
        """Every written form of a lemma ("morire" it -> muore, morì, …), itself included."""
        language = self._language(lang)
        return language.get("forms", fold(lemma)) if language else ()

    @property
    def loaded(self) -> tuple[str, ...]:
        """The languages whose tables are read: an answer without the others' may change
        once a detached process has written them."""
        return tuple(sorted(self._languages))

    @property
    def complete(self) -> bool:
        """Whether every language's tables are read (answers no longer change)."""
        return len(self._languages) == len(LANGS)

    def _language(self, lang: str) -> _Language | None:
        if lang not in LANGS:
            return None
        with self._lock:
            if lang not in self._languages:
                language = _Language.open(lang, self.cache, read=self.wait)
                if language is None and not self.wait:
                    if not self._started and self.cache is not None:
                        self._started = True
                        _start(self.cache)
                    return None  # asked again later: the tables may be written by then
                self._languages[lang] = language
            return self._languages[lang]


def for_cache(cache: Path | None) -> Lemmas | None:
    """The lemmas a search uses, as MTGRULES_LEMMAS says: `background` (the default: tables
    not yet cached are written by a detached process, words searched without lemmas
    meanwhile), `inline` (read from simplemma in the process) or `off` (no lemmas; the test
    suite's default, where every test's home would otherwise decode the dictionaries)."""
    import os

    mode = os.environ.get("MTGRULES_LEMMAS", "background")
    if mode == "off":
        return None
    return Lemmas(cache, wait=mode == "inline")


def prepare(cache: Path) -> None:
    """Every language's tables in the cache (what the detached process does)."""
    for lang in LANGS:
        _Language.open(lang, cache, read=True)


def _start(cache: Path) -> None:
    """A detached process that writes the tables, unless one started in the last minutes."""
    import os
    import subprocess
    import sys
    import time

    marker = cache / ".preparing"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        if marker.exists() and time.time() - marker.stat().st_mtime < 600:
            return
        marker.touch()
        subprocess.Popen(
            [sys.executable, "-m", "corpus.model.lemmas", str(cache)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the search's end does not stop it
            env=dict(os.environ),
        )
    except OSError:
        return  # a cache we cannot write: no lemmas


class _Language:
    """One language's two tables: in memory when just read from simplemma, else by bucket."""

    def __init__(self, index: dict[tuple[str, str], tuple[int, int]], data: bytes | mmap.mmap):
        self._index = index
        self._data = data
        self._loaded: dict[tuple[str, str], Table] = {}
        self._lock = threading.Lock()

    @classmethod
    def open(cls, lang: str, cache: Path | None, *, read: bool) -> _Language | None:
        """The language from the cache; else, when `read`, from simplemma (then cached)."""
        source = _data_file(lang)
        if source is None:
            return None  # simplemma not installed: no lemmas, words as typed
        stat = source.stat()
        folder = cache / f"{lang}-{stat.st_size}-{stat.st_mtime_ns}" if cache else None
        if folder is not None:
            cached = cls._from_cache(folder)
            if cached is not None or not read:
                return cached
        tables = _read_simplemma(lang)
        index, data = _encode(tables)
        if folder is not None:
            _write_cache(folder, index, data)
        return cls(index, data)

    @classmethod
    def _from_cache(cls, folder: Path) -> _Language | None:
        try:
            index = marshal.loads((folder / _INDEX).read_bytes())
            with (folder / _BUCKETS).open("rb") as data:
                mapped = mmap.mmap(data.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError, EOFError, TypeError):
            return None
        return cls(index, mapped)

    def get(self, table: str, word: str) -> tuple[str, ...]:
        name = (table, _bucket(word))
        with self._lock:
            bucket = self._loaded.get(name)
            if bucket is None:
                place = self._index.get(name)
                offset, length = place or (0, 0)
                bucket = marshal.loads(self._data[offset : offset + length]) if place else {}
                self._loaded[name] = bucket
        return bucket.get(word, ())


def _read_simplemma(lang: str) -> dict[str, Table]:
    """simplemma's dictionary of a language as the two tables (its lemmas are the values)."""
    from simplemma.strategies.dictionaries import DefaultDictionaryFactory

    lemmas: dict[str, set[str]] = {}
    forms: dict[str, set[str]] = {}
    for form, lemma in DefaultDictionaryFactory(cache_max_size=1).get_dictionary(lang).items():
        form, lemma = form.lower(), lemma.lower()
        lemmas.setdefault(fold(form), set()).add(lemma)
        forms.setdefault(fold(lemma), {lemma}).add(form)
    return {
        "lemmas": {word: tuple(sorted(found)) for word, found in lemmas.items()},
        "forms": {word: tuple(sorted(found)) for word, found in forms.items()},
    }


def _encode(tables: dict[str, Table]) -> tuple[dict[tuple[str, str], tuple[int, int]], bytes]:
    index: dict[tuple[str, str], tuple[int, int]] = {}
    blobs: list[bytes] = []
    offset = 0
    for table, words in tables.items():
        buckets: dict[str, Table] = {}
        for word, found in words.items():
            buckets.setdefault(_bucket(word), {})[word] = found
        for name, bucket in buckets.items():
            blob = marshal.dumps(bucket)
            index[table, name] = (offset, len(blob))
            blobs.append(blob)
            offset += len(blob)
    return index, b"".join(blobs)


def _write_cache(folder: Path, index: dict[tuple[str, str], tuple[int, int]], data: bytes) -> None:
    """The tables into the cache, written aside and renamed into place (a killed writer leaves
    no half cache); a cache that cannot be written is simply not kept."""
    import os
    import shutil
    import tempfile

    aside: Path | None = None
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        aside = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        (aside / _BUCKETS).write_bytes(data)
        (aside / _INDEX).write_bytes(marshal.dumps(index))
        os.replace(aside, folder)
    except OSError:  # unwritable, or another process wrote it first
        if aside is not None:
            shutil.rmtree(aside, ignore_errors=True)


if __name__ == "__main__":  # the detached preparer: python -m corpus.model.lemmas CACHE
    import os
    import sys

    os.nice(10)
    folder = Path(sys.argv[1])
    try:
        prepare(folder)
    finally:
        (folder / ".preparing").unlink(missing_ok=True)
