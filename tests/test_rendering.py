"""Analyzers fold accents, case and quotes; a wide terminal shows languages side by side."""

from __future__ import annotations

import io

from rich.console import Console

from indexer.analyzers import stems
from search.engine import Filters
from search.render import condensed, echo_rich
from search.session import open_engine


def test_folding_makes_spellings_equal():
    """artéfact = artefact, Ile = Île, Sottocitta = Sottocittà, l’artefatto = l'artefatto."""
    assert stems("artéfact", "fr") == stems("artefact", "fr")
    assert stems("Île", "fr") == stems("Ile", "fr")
    assert stems("Sottocittà", "it") == stems("Sottocitta", "it")
    assert stems("l’artefatto", "it") == stems("l'artefatto", "it") == stems("artefatto", "it")


def test_each_language_keeps_its_own_words():
    """French keeps 'an' (a year), which is only an English stop word; 'le' goes."""
    assert stems("un an", "fr") == ["an"]
    assert stems("the year", "en") == ["year"]


def test_wide_terminal_shows_columns_and_highlights():
    """On a wide terminal the Italian and French texts of 205.4d stand side by side."""
    with open_engine() as engine:
        outcome = engine.search("regola delle leggende", Filters(), 1)
    results, matched = outcome.results, outcome.matched
    out = io.StringIO()
    console = Console(file=out, width=160, force_terminal=True, color_system="truecolor")
    echo_rich(results, (), matched, console)
    text = out.getvalue()
    assert "\x1b[" in text  # colour on a terminal
    lines = [line for line in text.splitlines() if "205.4d · rule" in line]
    assert lines and "205.4c · rule" in lines[0]  # same row: side by side


def test_narrow_terminal_stacks():
    """Under 110 columns the languages are stacked."""
    with open_engine() as engine:
        outcome = engine.search("regola delle leggende", Filters(), 1)
    results, matched = outcome.results, outcome.matched
    out = io.StringIO()
    echo_rich(results, (), matched, Console(file=out, width=80, force_terminal=True))
    rows = [line for line in out.getvalue().splitlines() if "· rule ·" in line]
    assert len(rows) == 2


def test_a_long_diff_keeps_its_changes_and_the_words_around_them():
    """Unchanged runs longer than twice the context become "…"; short texts stay whole."""
    words = " ".join(f"w{i}" for i in range(40))
    diff = f"{words} [-old-] {{+new+}} {words}"
    kept = condensed(diff).split()
    assert kept[0] == "…" and kept[1:13] == [f"w{i}" for i in range(28, 40)]
    assert kept[13:15] == ["[-old-]", "{+new+}"] and kept[-1] == "…"
    assert condensed("a b [-c-] {+d+} e f") == "a b [-c-] {+d+} e f"
    assert condensed(words) == words  # no change marked: nothing to centre on
