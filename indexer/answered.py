"""The questions the search already knows the answers of (corpus/data/answered-questions.tsv,
derived from the tuning query files by scripts/derive-answered), as a build's side store: each
question's vector, and the build's keys that answer it with the rows of its vectors that have
them. The encoder compares a query with these questions as well as with the texts
(search/meaning.py): a question asked again in other words finds the rule a question like it
was answered with.

An answer is a CR rule numbered as English 2026-08-07, a judge document's section, or a text
the answer has (`en~A player sees a card in a library`: the JAR's unnumbered parts). A rule's
number is read in that edition (its key today, after a renumbering); in a library without that
edition the rule answers nothing, as a number of another edition may be another rule. A
question none of whose answers the build has is left out."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus import paths
from corpus.library import write_atomic

if TYPE_CHECKING:
    from indexer.vectors import Row

DATA = Path(__file__).resolve().parent.parent / "corpus" / "data" / "answered-questions.tsv"
NUMBERED = "2026-08-07"  # the English edition the answers' rule numbers are
# Only for measuring (scripts/eval): a query file whose questions are left out of the answered
# ones, so that a file is not measured on its own answers.
EXCLUDED = "MTGRULES_ANSWERED_EXCLUDE"


def questions() -> list[tuple[str, list[str], str]]:
    """(question, answers, source) of every answered question."""
    found = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        question, answers, source = line.split("\t")
        found.append((question, answers.split("|"), source))
    return found


def asked_in(path: Path) -> list[tuple[str, str, str]]:
    """(id, question, expected) of each query of a query file (eval/*.tsv)."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        qid, question, _, expected, *_ = line.split("\t")
        found.append((qid, question.strip(), expected))
    return found


def folded(question: str) -> str:
    """A question as two files that ask it word for word both write it."""
    return " ".join(question.casefold().split())


def _keys(answers: list[str], db: sqlite3.Connection) -> list[str]:
    """The build's keys of the answers: a judge section's key as it is, a rule's number as
    English 2026-08-07 printed it."""
    keys = []
    for answer in answers:
        if answer[:1].isdigit():
            rows = db.execute(
                "SELECT DISTINCT key FROM versions WHERE number = ? AND lang = 'en'"
                " AND instr(editions, ?) > 0",
                (answer, NUMBERED),
            )
        elif "~" in answer:  # a text the answer has: the Regular REL's unnumbered parts
            lang, text = answer.split("~", 1)
            rows = db.execute(
                "SELECT DISTINCT key FROM versions WHERE lang = ?"
                " AND instr(lower(json_extract(record, '$.text')), lower(?)) > 0 LIMIT 3",
                (lang, text),
            )
        else:
            rows = db.execute("SELECT key FROM versions WHERE key = ? LIMIT 1", (answer,))
        keys += [key for (key,) in rows]
    return list(dict.fromkeys(keys))


def write(home: Path, folder: Path, rows: Sequence[Row]) -> int:
    """Write the answered questions' vectors and keys beside the build's own vectors (`rows`,
    whose indexes each answer's rows are: found once here, not by every search process); how
    many questions the build answers."""
    import numpy as np

    from indexer.vectors import save_atomically, vectors_for

    uri = f"file:{folder / paths.SIDESTORE}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as db:
        answered = [
            (question, keys, source)
            for question, answers, source in questions()
            if (keys := _keys(answers, db))
        ]
    at: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        at.setdefault(row.key, []).append(index)
    vectors, _ = vectors_for(home, [question for question, _, _ in answered])
    save_atomically(folder / paths.ANSWERED_VECTORS, np.ascontiguousarray(vectors))
    entries = [
        {"question": q, "keys": keys, "rows": [i for k in keys for i in at.get(k, ())], "source": s}
        for q, keys, s in answered
    ]
    write_atomic(folder / paths.ANSWERED_KEYS, json.dumps(entries, ensure_ascii=False))
    return len(answered)


def read(folder: Path, excluded: str | None = None) -> tuple[Any, list[Any]] | None:
    """(vectors, each question's rows as an array) of a build's answered questions, or None (a
    build from before). `excluded`: a query file whose questions are left out (by its name, or
    word for word)."""
    import numpy as np

    try:
        entries = json.loads((folder / paths.ANSWERED_KEYS).read_text(encoding="utf-8"))
        vectors = np.load(folder / paths.ANSWERED_VECTORS, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    if len(entries) != len(vectors):
        return None
    kept = list(range(len(entries)))
    if excluded:
        kept = [i for i in kept if not _measured_on(entries[i], Path(excluded))]
    rows = [np.array(entries[i]["rows"], dtype=np.int64) for i in kept]
    return np.ascontiguousarray(vectors[kept]), rows


def _measured_on(entry: dict[str, Any], path: Path) -> bool:
    """Whether an answered question is one of the query file's (its file, or its words)."""
    if entry["source"].split(":")[0] == path.name:
        return True
    return folded(entry["question"]) in _questions_of(path)


_ASKED: dict[Path, frozenset[str]] = {}


def _questions_of(path: Path) -> frozenset[str]:
    if path not in _ASKED:
        try:
            _ASKED[path] = frozenset(folded(question) for _, question, _ in asked_in(path))
        except OSError:
            _ASKED[path] = frozenset()
    return _ASKED[path]
