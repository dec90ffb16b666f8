"""`--limit N` gives N results when there are N to give, each with something to show: a heading
that takes in its subrules, or a key whose records a filter removes, leaves room for the next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from search.cli import cli
from tests.conftest import copy_home

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory, spanish_library: Path) -> Path:
    """English 2025-11-14 and 2026-08-07 and the Spanish CR, copied for this module."""
    return copy_home(spanish_library, tmp_path_factory.mktemp("counted"))


def keys(home: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[list[object]]:
    monkeypatch.setenv("MTGRULES_HOME", str(home))
    result = CliRunner().invoke(cli, ["search", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return [[r["key"], len(r["records"])] for r in json.loads(result.output)["results"]]


@pytest.mark.parametrize(
    "query", ["trample combat", "destello lanzar en cualquier momento", "legend rule"]
)
def test_limit_is_the_number_of_results(
    counted: Path, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    """--limit 3 gives three results, the first three of a longer list, none of them empty."""
    three = keys(counted, monkeypatch, query, "--limit", "3")
    assert len(three) == 3 and all(n for _, n in three)
    assert [k for k, _ in three] == [k for k, _ in keys(counted, monkeypatch, query)][:3]


def test_a_filter_leaves_no_empty_result(counted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--kind glossary arrollar: glossary entries only, never the rule 702.19 with no records."""
    found = keys(counted, monkeypatch, "--kind", "glossary", "arrollar")
    assert found and found[0][0] == "Trample"
    assert all(n for _, n in found) and "702.19" not in [k for k, _ in found]


def test_a_filter_shows_each_record_once(counted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--kind example: a rule's example once per language, though its rule is left out (a result
    with no rule was taken for a heading, and its examples added again under it)."""
    monkeypatch.setenv("MTGRULES_HOME", str(counted))
    args = ["search", "legend rule", "--kind", "example", "--limit", "3", "--json"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    for found in json.loads(result.output)["results"]:
        texts = [(r["lang"], r["text"]) for r in found["records"]]
        assert texts and len(texts) == len(set(texts)), found["key"]
        assert {r["kind"] for r in found["records"]} == {"example"}


def test_a_rule_whose_subrules_are_found_together_answers_with_them(
    counted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "how many lands can I play per turn" finds 305.2a and 305.2b: 305.2 comes first with its
    subrules in order (the rule, 305.2a, 305.2b, each in English and Spanish), not its parts."""
    monkeypatch.setenv("MTGRULES_HOME", str(counted))
    result = CliRunner().invoke(
        cli, ["search", "how many lands can I play per turn", "--json"], catch_exceptions=False
    )
    first, *rest = json.loads(result.output)["results"]
    numbers = [(r["number"], r["lang"]) for r in first["records"] if r["kind"] == "rule"]
    assert first["key"] == "305.2"
    assert [n for n, lang in numbers if lang == "en"] == ["305.2", "305.2a", "305.2b"]
    assert {lang for _, lang in numbers} == {"en", "es"}
    assert not {"305.2a", "305.2b"} & {r["key"] for r in rest}
