"""English concepts are found in translated text by stem, but not through a mere accent."""

from __future__ import annotations

from corpus.terms import TermBase, static_terms, written_alike

FRENCH_LEGEND_RULE = (
    "Un permanent avec le sur-type légendaire est soumis à l'effet basé sur un état relatif aux "
    'permanents légendaires, aussi appelé "règle des légendes" (voir règle 420.5e).'
)


def test_the_french_legend_rule_names_no_basic_land():
    """'basé' (based) folds and stems like 'base' (basic) but is not that word."""
    concepts = TermBase(static_terms()).concepts_in(FRENCH_LEGEND_RULE, "fr")
    assert "basic" not in concepts
    assert {"legendary", "supertype", "state-based action", "permanent"} <= set(concepts)
    assert "basic" in TermBase(static_terms()).concepts_in("Un terrain de base", "fr")


def test_inflections_and_missing_accents_still_match():
    """Gender, number and a forgotten accent are the same word; an extra accent is not."""
    assert written_alike("leggendaria", "leggendario")
    assert written_alike("légendaires", "légendaire")
    assert written_alike("legendaire", "légendaire")
    assert not written_alike("basé", "base")
    assert not written_alike("basés", "base")


def test_a_query_word_is_read_as_a_text_word_is():
    """Looking a word up applies the same check: French 'basé' does not ask for basic lands."""
    termbase = TermBase(static_terms())
    assert termbase.english_for("basé") == set()
    assert termbase.english_for("base") == {"basic"}
