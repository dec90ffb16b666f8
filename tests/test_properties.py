"""Hypothesis: no parser raises on arbitrary text; records round-trip through JSONL."""

from __future__ import annotations

import pytest
from conftest import IT, seed
from hypothesis import given, settings
from hypothesis import strategies as st

from corpus.model.records import Record, read_all, read_jsonl
from corpus.read.ingest import IngestError, ingest_bytes
from corpus.read.layouts import LAYOUTS, Context
from indexer.state import chunk

LINES = st.lists(
    st.one_of(
        st.text(max_size=80),
        st.sampled_from(
            [
                "- 205.1.",
                "205.2a. Les types",
                "Esempio:",
                "Regla 205.1 · Línea",
                "Subreglas",
                "|",
                "Note di regolamento ufficiali:",
                "Abilità definita da parola chiave",
                "(Promemoria)",
            ]
        ),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(LINES)
def test_no_parser_raises_on_arbitrary_lines(lines: list[str]):
    """Every layout's score and parse accept any lines without raising."""
    for layout in LAYOUTS:
        layout.score(lines)
        layout.parse(Context(source="x.txt", lang="it", edition=None, lines=lines))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=400).map(lambda t: t.encode("utf-8")))
def test_ingest_either_parses_or_says_why(data: bytes):
    """Arbitrary bytes give a document or an IngestError naming the file, nothing else."""
    try:
        ingest_bytes(data, "random.bin")
    except IngestError as error:
        assert str(error).startswith("random.bin: ")


def test_records_round_trip_through_jsonl():
    """Writing records as JSONL and reading them back gives equal records."""
    records = ingest_bytes(seed(IT), IT).records
    lines = chunk(records).decode("utf-8").splitlines()  # as records.jsonl is written
    assert tuple(read_jsonl(lines)) == records


KEYS = st.one_of(
    st.sampled_from(["722.1a", "722", "7", "723.1", "7220.1", "gone:729.2j@2025-11-14"]),
    st.sampled_from(["205.2c@copia.txt", "Station", "MTR 2.3", "72.5", "vía.1"]),
    st.text(alphabet='72.a"\\@é ', min_size=1, max_size=8),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(KEYS, min_size=1, max_size=12), st.data())
def test_hand_off_keys_renamed_as_the_whole_pattern_renames_them(keys: list[str], data):
    """Renaming keys in records.jsonl by the pattern of only the renamed keys' heads gives the
    very lines the pattern of every key gives (quotes, backslashes, accents in keys too)."""
    from indexer.incremental import _KEY, _keys_like, _renamed_key

    lines = chunk(
        Record("en", "x.txt", "rule", f"{k} text", (i, i), k, k) for i, k in enumerate(keys)
    )
    old = data.draw(st.lists(st.sampled_from(keys), min_size=1))
    renamed = {k: data.draw(KEYS) for k in old}
    assert _keys_like(renamed).sub(lambda m: _renamed_key(m, renamed), lines) == _KEY.sub(
        lambda m: _renamed_key(m, renamed), lines
    )


def test_records_read_whole_are_the_records_written_and_unknown_fields_are_refused():
    """read_all (the collector paused) reads what read_jsonl reads, each alignment shared by
    value, and a line with a field no record has is refused by name, not read past."""
    records = ingest_bytes(seed(IT), IT).records
    lines = chunk(records).decode("utf-8").splitlines()
    assert tuple(read_all(lines)) == records
    assert read_all(lines, ("fr",)) == []
    with pytest.raises(TypeError, match="colour"):
        Record.from_dict({**records[0].to_dict(), "colour": "red"})
