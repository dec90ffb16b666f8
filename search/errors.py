"""The errors a request can end in, and what each becomes: an HTTP status for the web app, an
exit code for the command line. The one place where that mapping is made."""

from __future__ import annotations


class QueryError(ValueError):
    """A query we cannot run; the message names it and says how to fix it."""


class UnknownEdition(QueryError):
    """An edition asked for (--edition, ?edition=) that no text of the library has."""


# The most specific class listed first wins.
HTTP_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (UnknownEdition, 404),
    (QueryError, 400),
)


def status_of(error: Exception) -> int:
    """The HTTP status of an error (400: the request is malformed; 404: nothing of that)."""
    return next((status for kind, status in HTTP_STATUS if isinstance(error, kind)), 500)


def exit_code_of(status: int) -> int:
    """The exit code of an HTTP status: 2 for bad usage, 1 for bad data or nothing found."""
    return 2 if status == 400 else 1


class Problem(Exception):
    """A request that cannot be answered: the message, its HTTP status, its exit code."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status
        self.exit_code = exit_code_of(status)

    @classmethod
    def of(cls, error: QueryError) -> Problem:
        return cls(str(error), status_of(error))
