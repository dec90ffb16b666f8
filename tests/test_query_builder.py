"""Plain queries are built straight into Whoosh queries; translations stay in their language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whoosh.query import Not, Term

from search.engine import Engine
from search.query import QueryError
from search.results import Filters


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """An engine over the embedded seeds, built once for the module."""
    from indexer.build import build
    from indexer.store import index_root, read_current

    home = tmp_path_factory.mktemp("seeds")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MTGRULES_HOME", str(home))
        build(home)
        current = read_current(home)
        opened = Engine(index_root(home) / current["dir"], current["english_editions"])
        yield opened
        opened.close()


def leaves(query: object) -> set[object]:
    return set(query.leaves())  # type: ignore[attr-defined]


def test_translations_are_searched_in_their_own_language(engine: Engine):
    """'regola' is also looked for as English 'rule', but 'rule' is not stemmed as Italian."""
    query, words = engine.query("regola delle leggende")
    found = leaves(query)
    assert Term("text_en", "rule", boost=0.5) in found
    assert Term("terms", "rule", boost=0.5) in found
    assert Term("text_it", "rul", boost=0.5) not in found
    assert "regol" in words
    results, _ = engine.search("regola delle leggende", Filters(), 5)
    assert results[0].key == "205.4d"


def test_operators_go_through_the_parser(engine: Engine):
    """NOT, OR and parentheses keep Whoosh's query syntax."""
    query, _ = engine.query("leggendario NOT mondo")
    assert any(isinstance(q, Not) for q in query.children())
    results, _ = engine.search("leggendario NOT mondo", Filters(), 10)
    assert results and all(
        "mondo" not in r["text"].lower()
        for res in results
        for r in res.records
        if r["lang"] == "it"
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                "règle",
                "tipi",
                "l'artefatto",
                "sur-type",
                '"first',
                'strike"',
                "de",
                "*",
                "créature",
                "205.4d",
                "—",
                "“legend”",
            ]
        ),
        max_size=6,
    )
)
def test_plain_queries_never_crash(engine: Engine, words: list[str]):
    """Any mix of words, quotes and symbols gives results or a one-line QueryError."""
    try:
        engine.search(" ".join(words), Filters(), 5)
    except QueryError as error:
        assert "\n" not in str(error)
