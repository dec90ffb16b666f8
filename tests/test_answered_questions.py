"""Answered questions: a query like a question the tuning files answer reaches that answer
through the encoder (corpus/data/answered-questions.tsv, indexer/answered.py, search/meaning.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from indexer.answered import DATA, questions
from search import meaning
from search.meaning import with_answers

ROOT = Path(__file__).resolve().parent.parent


def test_the_most_alike_question_raises_its_answers_to_its_likeness():
    """Rows 2 and 3 answer the question most like the query (0.7): they score 0.7 unless
    they were nearer already; the other question's answer (row 0) is left as it was."""
    scores = np.array([0.1, 0.2, 0.3, 0.8], dtype=np.float32)
    alike = np.array([0.6, 0.7], dtype=np.float32)
    raised = with_answers(scores, alike, [np.array([0]), np.array([2, 3])])
    assert raised.tolist() == pytest.approx([0.1, 0.2, 0.7, 0.8])
    assert scores.tolist() == pytest.approx([0.1, 0.2, 0.3, 0.8])  # not changed in place


def test_a_question_less_alike_than_the_floor_raises_nothing():
    """Below ANSWERED_FLOOR a question is another question: its answer stays where it was."""
    scores = np.array([0.1, 0.2], dtype=np.float32)
    alike = np.array([meaning.ANSWERED_FLOOR - 0.01], dtype=np.float32)
    assert with_answers(scores, alike, [np.array([0])]).tolist() == pytest.approx([0.1, 0.2])
    assert with_answers(scores, np.array([], dtype=np.float32), []).tolist() == pytest.approx(
        [0.1, 0.2]
    )


def test_the_answered_questions_are_the_tuning_files_and_never_a_frozen_one(tmp_path: Path):
    """The data file is what scripts/derive-answered makes of eval/ (the frozen files left
    out, and every question they ask), and each question has an answer."""
    frozen = set()
    for path in (ROOT / "eval").glob("frozen*.tsv"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                frozen.add(" ".join(line.split("\t")[1].casefold().split()))
    answered = questions()
    assert len(answered) > 1000
    assert not {" ".join(q.casefold().split()) for q, _, _ in answered} & frozen
    assert all(answers and not source.startswith("frozen") for _, answers, source in answered)
    derived = tmp_path / "answered-questions.tsv"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "derive_answered.py"), str(derived)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0
    assert derived.read_bytes() == DATA.read_bytes()
