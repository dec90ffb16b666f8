"""A piece of a build's work in a forked process beside it.

The child inherits the build's memory, so nothing is pickled on the way in and only the answer
on the way back: work that reads much and answers little (the rules' identity through every
English edition) runs on the other core while the build's own thread goes on. A child forked
during a build dies with it (indexer/store.py)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def aside(work: Callable[[], T]) -> Callable[[], T]:
    """Start `work` in a forked child; the function returned waits for its answer. Where no
    process can be forked, or the child fails or dies, the work is done here when the answer
    is asked for (so an error is raised here, as it would have been)."""
    import multiprocessing

    try:
        context = multiprocessing.get_context("fork")
        receiving, sending = context.Pipe(duplex=False)
        child = context.Process(target=_answer, args=(work, sending), daemon=True)
        child.start()
    except (ValueError, OSError):
        return work
    sending.close()

    def wait() -> T:
        answer: Any = None
        with contextlib.suppress(EOFError, OSError):
            answer = receiving.recv()
        receiving.close()
        child.join()
        return answer[0] if isinstance(answer, tuple) else work()

    return wait


def _answer(work: Callable[[], Any], sending: Any) -> None:
    """In the child: send the answer in a 1-tuple (nothing if the work fails: None may be an
    answer), then end at once, without the interpreter's exit (which would flush streams
    another thread may have held locked at the fork)."""
    with contextlib.suppress(BaseException):
        sending.send((work(),))
    os._exit(0)
