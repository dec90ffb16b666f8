"""Work done beside a build in a forked process (indexer/aside.py): the same answer as here,
and a failure or a dead child never loses it."""

from __future__ import annotations

import os
import signal
from functools import partial
from pathlib import Path

import pytest

from corpus.align.editions import by_edition
from corpus.align.identity import identity
from corpus.read.ingest import ingest_bytes
from indexer.aside import aside

EDITIONS = ("20241108", "20251114", "20260807")  # 2026-08-07 renumbered sections 722 onwards


@pytest.mark.shared_data
def test_the_rules_identity_found_aside_is_the_one_found_here(shared_data: Path):
    """The identity of the rules of three English editions around a renumbering, found in a
    forked child, is the one found in this process, number by number."""
    records = []
    for date in EDITIONS:
        path = shared_data / "cr" / "en" / f"MagicCompRules-{date}.txt"
        records += ingest_bytes(path.read_bytes(), path.name, {}).records
    english = by_edition(records, "en")
    here, beside = identity(english), aside(partial(identity, english))()
    assert beside.printed == here.printed and beside.origins == here.origins
    assert beside.current == here.current
    assert beside.key("2025-11-14", "725.1") == here.key("2025-11-14", "725.1") == "726.1"


def test_an_error_in_the_child_is_raised_here():
    """The work failed in the child: asked for its answer, it runs here and raises here."""
    with pytest.raises(ZeroDivisionError):
        aside(lambda: 1 // 0)()


def test_a_child_killed_before_it_answers_leaves_the_work_to_this_process():
    """The child dies before answering: the answer is worked out here."""
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return 42

    assert aside(work)() == 42
