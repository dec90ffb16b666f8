"""A term names a concept only where its words are written alike: inflected, never merely
stemmed alike, and not through a mere accent."""

from __future__ import annotations

from corpus.inflection import inflected_alike
from corpus.terms import Term, TermBase, static_terms, written_alike

FRENCH_LEGEND_RULE = (
    "Un permanent avec le sur-type légendaire est soumis à l'effet basé sur un état relatif aux "
    'permanents légendaires, aussi appelé "règle des légendes" (voir règle 420.5e).'
)


def test_the_french_legend_rule_names_no_basic_land():
    """'basé' (based) folds and stems like 'base' (basic) but is not that word."""
    termbase = TermBase(static_terms())
    concepts = termbase.concepts_in(FRENCH_LEGEND_RULE, "fr")
    assert "basic land" not in concepts
    assert {"legendary", "supertype", "state-based action", "permanent"} <= set(concepts)
    assert "basic land" in termbase.concepts_in("Un terrain de base", "fr")


def test_inflections_and_missing_accents_still_match():
    """Gender, number and a forgotten accent are the same word; an extra accent is not."""
    assert written_alike("leggendaria", "leggendario")
    assert written_alike("légendaires", "légendaire")
    assert written_alike("legendaire", "légendaire")
    assert not written_alike("basé", "base")
    assert not written_alike("basés", "base")


def test_stems_that_merge_two_words_make_no_concept():
    """deserter is not desert, magia (spell) is not mago (wizard), though Snowball stems both
    pairs alike; leggendari and leggendario, acciones and acción are one word."""
    assert not inflected_alike("deserter", "desert", "en")
    assert not inflected_alike("magia", "mago", "it")
    assert inflected_alike("leggendari", "leggendario", "it")
    assert inflected_alike("acciones", "acción", "es")
    assert inflected_alike("abilities", "ability", "en")
    termbase = TermBase(
        [
            Term("desert", "it", "deserto", "test"),
            Term("deserter", "it", "disertore", "test"),
            Term("wizard", "it", "mago", "test"),
            Term("spell", "it", "magia", "test"),
        ]
    )
    assert termbase.named_by("deserter") == {"deserter"}
    assert termbase.named_by("desert") == {"desert"}
    assert termbase.concepts_in("Scegli un mago.", "it") == ["wizard"]
    assert termbase.concepts_in("Lancia una magia.", "it") == ["spell"]
    assert {t.term for t in termbase.lookup("deserter")} == {"disertore"}


def test_a_query_word_is_read_as_a_text_word_is():
    """Looking a word up applies the same check: French 'basé' does not ask for basic lands."""
    termbase = TermBase(static_terms())
    assert termbase.english_for("basé") == set()
    assert termbase.english_for("terrain de base") == {"basic land"}
