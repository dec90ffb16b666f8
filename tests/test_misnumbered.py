"""A number a translation prints twice is read, where it is out of place, as the number its
place calls for, if the document prints that number nowhere and its English edition has it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from corpus.align.misnumbered import corrected_numbers, corrected_parts
from corpus.model.records import Record


def rules(*numbers: str) -> list[Record]:
    return [
        Record("es", "es.pdf", "rule", f"regla {n}", (i, i), n, number=n, seq=i)
        for i, n in enumerate(numbers)
    ]


ENGLISH = {"123.6", "123.6a", "123.6b", "123.6c", "123.6d", "123.6e", "123.7", "702.11c",
           "702.11d", "702.11e", "702.16h", "702.16i", "702.16j"}  # fmt: skip


def test_the_repeat_of_the_number_before_is_the_next_letter():
    """123.6d, 123.6d, 123.7: the second is 123.6e (the Spanish CR's misprint)."""
    assert corrected_numbers(rules("123.6c", "123.6d", "123.6d", "123.7"), ENGLISH) == {2: "123.6e"}


def test_the_first_of_two_printings_out_of_place_is_corrected():
    """702.16i printed among 702.11's subrules is 702.11d; the real 702.16i stays."""
    found = corrected_numbers(
        rules("702.11c", "702.16i", "702.11e", "702.16h", "702.16i", "702.16j"), ENGLISH
    )
    assert found == {1: "702.11d"}


def test_no_correction_without_the_english_number_or_when_it_is_printed():
    """A repeat is kept as printed when English lacks the number its place calls for, or the
    document prints it elsewhere."""
    assert corrected_numbers(rules("123.6c", "123.6d", "123.6d"), {"123.6d"}) == {}
    assert corrected_numbers(rules("123.6d", "123.6d", "123.6e"), ENGLISH) == {}


def test_examples_follow_their_corrected_rule():
    """The examples printed under a corrected rule are keyed with it."""
    records = [
        *rules("123.6c", "123.6d", "123.6d"),
        Record("es", "es.pdf", "example", "Ejemplo", (3, 3), "123.6d", parent="123.6d", seq=3),
    ]
    assert corrected_parts(records, ENGLISH) == {2: "123.6e", 3: "123.6e"}


@given(st.lists(st.sampled_from(sorted(ENGLISH)), max_size=12))
def test_a_correction_is_never_a_printed_number(numbers: list[str]):
    """Whatever the order, a corrected number is one the document does not print, English has,
    and no two rules are given."""
    found = corrected_numbers(rules(*numbers), ENGLISH)
    assert not set(found.values()) & set(numbers)
    assert set(found.values()) <= ENGLISH and len(set(found.values())) == len(found)
