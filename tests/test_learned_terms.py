"""The term base learned from the Spanish CR beside the English it follows: multi-word terms
with counts, confidence and sources; no false concepts; and the searches a Spanish judge makes
in their own words, answered by the rule itself."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import copy_home

from corpus.terms.termbase import SHOWN_CONFIDENCE, TermBase
from search.cli import cli

PDF = "magic_rules_clean.pdf"

pytestmark = pytest.mark.shared_data


@pytest.fixture(scope="module")
def learned_home(tmp_path_factory: pytest.TempPathFactory, spanish_library: Path) -> Path:
    """The seeds, English 2025-11-14 and 2026-08-07, and the Spanish CR PDF, indexed (this
    module's copy of the session's library)."""
    return copy_home(spanish_library, tmp_path_factory.mktemp("learned"))


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner(env={"MTGRULES_HOME": str(home)}).invoke(
        cli, catch_exceptions=False, args=list(args)
    )
    return result.exit_code, result.stdout


def concepts(home: Path, phrase: str) -> dict[str, list[dict]]:
    code, out = run(home, "term", "--json", phrase)
    if code != 0:
        return {}
    return {c["english"]: c["terms"] for c in json.loads(out)["concepts"]}


def keys(home: Path, query: str, limit: int = 3) -> list[str]:
    code, out = run(home, "search", "--json", "--limit", str(limit), query)
    return [r["key"] for r in json.loads(out)["results"]] if code == 0 else []


def test_multi_word_terms_are_learned_with_counts_and_sources(learned_home: Path):
    """'acción basada en estado' is state-based action, learned from the aligned rules and
    the glossary, with how often and how sure; deathtouch is 'toque mortal', not 'toque'."""
    found = concepts(learned_home, "acción basada en estado")
    (spanish,) = [t for t in found["state-based action"] if t["lang"] == "es"]
    assert spanish["term"] == "acciones basadas en estado"
    assert spanish["count"] >= 20 and spanish["confidence"] >= 0.8
    assert spanish["source"].startswith("learned: ")
    assert "es rule 704" in spanish["source"] or "es glossary" in spanish["source"]
    deathtouch = concepts(learned_home, "toque mortal")["deathtouch"]
    assert {"es": "toque mortal", "it": "tocco letale", "fr": "contact mortel"}.items() <= {
        t["lang"]: t["term"] for t in deathtouch
    }.items()


def test_a_loose_word_of_a_term_names_nothing(learned_home: Path):
    """Spanish 'mortal' alone is not deathtouch; 'deserter' is not desert."""
    assert "deathtouch" not in concepts(learned_home, "mortal")
    assert "desert" not in concepts(learned_home, "deserter")


def test_curated_rows_the_learner_reproduces_go(learned_home: Path):
    """The curated Spanish 'supertipo' is learned from the CR: the term base keeps the learned
    row, with its evidence, not the curated one."""
    (spanish,) = [t for t in concepts(learned_home, "supertipo")["supertype"] if t["lang"] == "es"]
    assert spanish["source"].startswith("learned: ")


def test_a_curated_row_stays_when_the_learned_term_like_it_is_a_part_of_a_longer_one(
    learned_home: Path,
):
    """The curated Italian "battaglia" (the card type battle) stays though the learner, from a
    few pairs, also linked battle to "battaglia": that learned row is dropped as a part of a
    longer term of the same concept, and the curated one was dropped for it, leaving neither
    (`term battaglia` found nothing)."""
    italian = [t for t in concepts(learned_home, "battaglia")["battle"] if t["lang"] == "it"]
    assert any(t["term"] == "battaglia" and t["source"].startswith("curated") for t in italian)


def test_judges_find_rules_in_their_own_words(learned_home: Path):
    """The rule itself comes first: the legend rule, state-based actions, trample's section;
    the noun a judge types ('nieve') finds snow's definition."""
    assert keys(learned_home, "regla de leyendas")[0] == "704.5j"
    assert keys(learned_home, "acciones basadas en estado")[0] == "704"
    assert keys(learned_home, "arrollar")[0] == "702.19"
    assert "Snow" in keys(learned_home, "nieve")
    assert "702.19" in keys(learned_home, "cómo funciona arrollar")


def test_a_terms_concepts_come_most_used_first_with_their_own_rule(learned_home: Path):
    """Italian "pila" is the stack (curated) and a pile (learned from cards): the stack, which
    the rules use far more, comes first (they were in alphabetical order), and its rules open
    with its own section and glossary entry (405, Stack), not Grand Melee's 807.5b, which
    names it most."""
    code, out = run(learned_home, "term", "--json", "pila")
    found = json.loads(out)["concepts"]
    assert code == 0 and [c["english"] for c in found][:2] == ["stack", "pile"]
    assert found[0]["rules"][:2] == ["405", "Stack"]


def test_apostrophes_of_every_form_match_alike(learned_home: Path):
    """The CR's own apostrophe and the keyboard's find the same rules."""
    assert keys(learned_home, "Urza’s", 5) == keys(learned_home, "Urza's", 5) != []


def test_tbx_carries_the_learned_evidence(learned_home: Path):
    """Each learned term in TBX says how often it was seen and how sure it is; a pair too
    unsure for `term` to show is not exported either (a CAT tool offers what it is given)."""
    code, out = run(learned_home, "export", "--format", "tbx", "--lang", "es")
    assert code == 0
    notes = [n.text or "" for n in ET.fromstring(out).iter("note")]
    assert any(n.startswith("learned: seen ") and "confidence" in n for n in notes)
    confidences = [float(n.rsplit(" ", 1)[1]) for n in notes if n.startswith("learned: seen ")]
    assert min(confidences) >= SHOWN_CONFIDENCE
    saved = next(learned_home.glob("index/build-*/termbase.json")).read_text("utf-8")
    learned = TermBase.from_json(saved).terms
    assert any(not t.shown and t.lang == "es" for t in learned)  # there were some to leave out
    # One language asked for: every entry still has its English term beside the Spanish.
    entries = list(ET.fromstring(out).iter("termEntry"))
    assert entries
    for entry in entries:
        langs = [s.get("{http://www.w3.org/XML/1998/namespace}lang") for s in entry.iter("langSet")]
        assert langs == ["en", "es"]


def test_a_lists_last_name_is_a_concept_without_its_and(learned_home: Path):
    """Section 6 "Spells, Abilities, and Effects": "effects" is the learned concept for
    "efectos", never "and effect"; no one-letter concept but the glossary's headwords X and Y
    ("e.g." is none)."""
    learned = concepts(learned_home, "efectos")
    assert "effect" in learned and "and effect" not in learned
    termbase = next(learned_home.glob("index/build-*/termbase.json"))
    english = json.loads(termbase.read_text("utf-8"))["english"]
    assert not [
        e for e in english if e.startswith(("and ", "or ")) or (len(e) == 1 and e not in "xy")
    ]
