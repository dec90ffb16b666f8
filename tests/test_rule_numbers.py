"""Rule numbers: one type reads, orders, nests and cites every number, as documents print them
and as people type them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import IT, seed
from hypothesis import given
from hypothesis import strategies as st

from corpus.model.numbers import RuleNumber, sort_key, subrule_letter
from corpus.read.ingest import ingest_bytes
from search.cli import cli


def test_every_number_of_an_english_edition_reads_back_and_keeps_its_order(shared_data: Path):
    """Each of the 2026-08-07 CR's numbers reads, prints back unchanged, and sorts into the
    document's own order; each rule's parent is a number the edition has."""
    data = (shared_data / "cr" / "en" / "MagicCompRules-20260807.txt").read_bytes()
    document = ingest_bytes(data, "MagicCompRules-20260807.txt")
    numbers = [r.number for r in document.records if r.kind == "rule" and r.number]
    assert len(numbers) > 3000
    parsed = [RuleNumber.of(n) for n in numbers]
    assert all(p is not None and str(p) == n for p, n in zip(parsed, numbers, strict=True))
    assert numbers == sorted(numbers, key=sort_key)
    present = set(numbers)
    for number in parsed:
        assert number is not None
        if number.parent is not None:
            assert str(number.parent) in present, number
    assert str(RuleNumber.of("704.5aa")) == "704.5aa"
    assert sort_key("704.5z") < sort_key("704.5aa")


def test_the_italian_seed_numbers_nest_under_their_rules():
    """205.4d is within 205.4 and 205, not within 205.3 or 20; 205.4c is printed before it."""
    document = ingest_bytes(seed(IT), "it.txt")
    number = RuleNumber.of("205.4d")
    assert number is not None and "205.4d" in {r.number for r in document.records}
    assert number.within(RuleNumber(205, 4)) and number.within(RuleNumber(205))
    assert not number.within(RuleNumber(205, 3))
    assert not RuleNumber(205, 41).within(RuleNumber(205, 4))
    assert str(number.before()) == "205.4c" and RuleNumber(205, 4, "a").before() is None
    assert (number.depth, str(number.parent), number.in_section) == (2, "205.4", "205")


@pytest.mark.parametrize(
    "written",
    ["205.4d", "205.4D", "Rule 205.4d", "regola 205.4d", "règle 205.4d", "regla 205,4d",
     "CR 205.4d", " r. 205.4D ", "205 .4d", "205. 4d", "205.4 d", "regla 205 , 4 d"],
)  # fmt: skip
def test_numbers_as_people_write_them(written: str):
    """Case, a word before it, a decimal comma, spaces typed inside it: all read as 205.4d."""
    assert RuleNumber.written(written) == RuleNumber(205, 4, "d")


@pytest.mark.parametrize(
    "text", ["", "20", "2054", "205.4d.1", "legend rule", "205.4ddd", "1", "205 4d", "205 d"]
)
def test_what_is_not_a_rule_number(text: str):
    """Words, two or four digits, too many letters: not a number a user means."""
    assert RuleNumber.written(text) is None


@given(
    section=st.integers(100, 999),
    rule=st.one_of(st.none(), st.integers(1, 40)),
    letter=st.integers(0, 80),
)
def test_numbers_round_trip(section: int, rule: int | None, letter: int):
    """Any section, rule or subrule prints and reads back as itself, in any written case."""
    letters = subrule_letter(letter) if rule is not None and letter < 60 else ""
    number = RuleNumber(section, rule, letters)
    assert RuleNumber.of(str(number)) == number
    assert RuleNumber.written(f"Rule {str(number).upper()}") == number


@given(st.text(max_size=30))
def test_reading_never_crashes(text: str):
    """Any text reads as a number or as None."""
    RuleNumber.written(text)
    RuleNumber.of(text)


def test_history_and_diff_read_numbers_as_written(full: Path):
    """`history "Rule 205.4D"` and `diff ... 'regla 205,4'` are the history of 205.4d and the
    changes within 205.4; a word that is no number nor title (as `show` reads titles: `legend`
    shows the Legend Rule entry, so it is 704.5j) is a usage error."""
    runner = CliRunner()
    result = runner.invoke(cli, catch_exceptions=False, args=["history", "Rule 205.4D", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rule"] == "205.4d"
    result = runner.invoke(
        cli,
        ["diff", "--from", "2017-01-20", "--to", "2018-07-13", "regla 205,4", "--json"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    changed = {c["to"] or c["from"] for c in json.loads(result.output)["changes"]}
    assert "205.4d" in changed and all(n.startswith("205.4") for n in changed)
    result = runner.invoke(
        cli,
        catch_exceptions=False,
        args=["diff", "--from", "2017-01-20", "--to", "2018-07-13", "frobnicate"],
    )
    assert result.exit_code == 2 and "'frobnicate' is not a rule number" in result.output


def test_every_command_takes_the_same_edition_forms(full: Path):
    """YYYY-MM-DD, YYYYMMDD and latest name an edition in search, show, history, diff and
    export; anything else is a usage error with the forms to use."""
    runner = CliRunner()

    def json_of(*args: str) -> dict:
        result = runner.invoke(cli, catch_exceptions=False, args=[*args, "--json"])
        assert result.exit_code == 0, (args, result.output)
        return json.loads(result.output)

    assert json_of("diff", "--from", "20241108", "--to", "latest")["to"] == "2026-08-07"
    assert json_of("diff", "--from", "2024-11-08", "--to", "2026-08-07")["from"] == "2024-11-08"
    for edition, cited in (("latest", "704.5j"), ("20170120", "704.5k")):
        shown = json_of("show", "205.4d", "--edition", edition, "--lang", "en")["results"][0]
        assert [f"(see rule {cited})" in r["text"] for r in shown["records"]] == [True]
    assert json_of("history", "205.4d", "--edition", "20180713")["edition"] == "2018-07-13"
    exported = runner.invoke(
        cli, catch_exceptions=False, args=["export", "--format", "jsonl", "--edition", "latest"]
    )
    # English of that edition, and the translations that follow it (undated seeds).
    records = [json.loads(line) for line in exported.output.splitlines()]
    assert {r["edition"] for r in records if r["lang"] == "en"} == {"2026-08-07"}
    assert {r["follows"] for r in records if r["lang"] != "en"} <= {"2026-08-07", None}
    for args in (
        ["search", "legend", "--edition", "last"],
        ["diff", "--from", "x", "--to", "latest"],
    ):
        result = runner.invoke(cli, catch_exceptions=False, args=args)
        assert result.exit_code == 2
        assert "write it as YYYY-MM-DD (e.g. 2024-11-08), YYYYMMDD or latest" in result.output
