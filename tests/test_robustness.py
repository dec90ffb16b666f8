"""No query and no killed build costs a user their library; every seed record can be found."""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from corpus import library
from corpus.model.text import fold
from corpus.terms.enrichment import aligned
from indexer.build import build
from search.cli import cli
from search.engine import Engine, Filters
from search.query import QueryError

QUERY_PIECES = st.sampled_from(
    ['"', "(", ")", "*", "?", "OR", "AND", "NOT", "AND NOT", "regola", "leggende", "205.4d",
     "l’artefatto", "sur-type", "^2", "~", ":", "text_it:", "\\", "é", "  ", "-", "+"]
)  # fmt: skip
QUERIES = st.lists(st.one_of(QUERY_PIECES, st.text(max_size=12)), max_size=8).map(" ".join)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(QUERIES)
@example("¹")  # a digit to str.isdigit, no int: the count spelt out ("10": ten) raised
@example("10 ²")
def test_no_query_raises(seeds_engine: Engine, query: str):
    """Any query string gives results or a QueryError with a message, nothing else."""
    try:
        results = seeds_engine.search(query, Filters(), 5).results
    except QueryError as error:
        assert str(error)
    else:
        assert all(result.records for result in results)


def test_every_seed_record_is_found_by_its_own_words(seeds_engine: Engine, home: Path):
    """Round trip: a query of each record's three rarest words finds that record's key."""
    records = aligned(library.records(library.load(home).documents))
    words = {id(r): set(fold(r.text).replace("'", " ").split()) for r in records}
    frequency = collections.Counter(w for r in records for w in words[id(r)])
    missed = []
    for record in records:
        candidates = sorted(
            (w.strip('.,;:()"«»“”[]') for w in words[id(record)]),
            key=lambda w: (frequency.get(w, 0), w),
        )
        distinctive = [w for w in candidates if len(w) > 3 and w.replace("-", "").isalpha()][:3]
        results = seeds_engine.search(
            " ".join(distinctive), Filters(langs=(record.lang,)), 10
        ).results
        if record.key not in {r.key for r in results}:
            missed.append((record.source, record.lines, distinctive))
    assert missed == []


KILLER = """
import sys
from pathlib import Path
from indexer.build import build
build(Path(sys.argv[1]), force=True)
"""


@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3, 0.6])
def test_build_killed_at_any_moment(home: Path, delay: float):
    """SIGKILL during a rebuild: the previous index still answers, the next build works."""
    build(home)
    env = {**os.environ, "MTGRULES_HOME": str(home)}
    process = subprocess.Popen([sys.executable, "-c", KILLER, str(home)], env=env)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait()
    result = CliRunner().invoke(
        cli, catch_exceptions=False, args=["search", "regola delle leggende", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["key"] == "205.4d"
    assert build(home, force=True).built
