"""Where everything lives: MTGRULES_HOME and its layout, and the files of one build folder.

MTGRULES_HOME is read here, by `home()`, and nowhere else; everything else is given the home
(or the file it needs) as an argument, so that a build of one home never reads another.

    MTGRULES_HOME/
      documents/                  the documents the user added, as added
      cache/                      parsed documents, by content hash and code version
      cache/terms/                learned term bases, by the parallel text's hash
      cache/lemmas/               each language's lemma tables, from simplemma
      alignment-overrides.tsv     the user's own alignment overrides (optional)
      records.jsonl               the hand-off: every record, aligned
      index/CURRENT               the live build (JSON), swapped atomically
      index/.lock                 held while a build runs
      index/<build>/              one build: Whoosh files and the files named below
"""

from __future__ import annotations

import os
from pathlib import Path

# What ships with the code: the embedded corpus and the data files (term base, mechanics,
# alignment overrides). Read as files beside the modules (importlib.resources cost every
# command a few milliseconds to import, for packages that are never zipped).
PACKAGE = Path(__file__).parent
EMBEDDED = PACKAGE / "sources"
DATA = PACKAGE / "data"
OVERRIDES = "alignment-overrides.tsv"  # alignment overrides: embedded in DATA, the user's in home

# The files of one build folder, beside Whoosh's own.
SIDESTORE = "versions.sqlite"  # record versions, their editions and sources, listings
TERMBASE = "termbase.json"  # the term base the records were enriched with
TERMBASE_READY = "termbase.sqlite"  # the same, its lookup tables computed (terms/stored.py)
VOCABULARY = "vocabulary.txt"  # the "did you mean" words
STATE = "state.pickle"  # what an incremental build needs of the previous one
OUTDATED = "outdated.bin"  # the versions no longer in the newest English edition
MEANING_VECTORS = "meaning.npy"  # a vector per text shown by default (indexer/vectors.py)
MEANING_ROWS = "meaning.rows"  # whose they are: (docnum, vid, key, lang) per row, JSON
ANSWERED_VECTORS = "answered.npy"  # a vector per answered question (indexer/answered.py)
ANSWERED_KEYS = "answered.keys"  # the build's keys that answer each, JSON
MEANING_READY = "meaning.json"  # the two files' sizes and folder; written last: the marker


def home() -> Path:
    """MTGRULES_HOME, else the platform's per-user data directory."""
    configured = os.environ.get("MTGRULES_HOME")
    if configured:
        return Path(configured).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("mtgrules", appauthor=False))


def documents(home: Path) -> Path:
    return home / "documents"


def parse_cache(home: Path) -> Path:
    return home / "cache"


def terms_cache(home: Path) -> Path:
    return home / "cache" / "terms"


def lemma_cache(home: Path) -> Path:
    """Each language's lemma tables, read once from simplemma (corpus/model/lemmas.py)."""
    return home / "cache" / "lemmas"


def user_overrides(home: Path) -> Path:
    return home / OVERRIDES


def records_file(home: Path) -> Path:
    """The hand-off file: every record of the live build, one JSON object per line."""
    return home / "records.jsonl"


def partial_records_file(home: Path) -> Path:
    """The hand-off file while a build writes it."""
    return home / ".records.jsonl.tmp"


def index_root(home: Path) -> Path:
    return home / "index"
