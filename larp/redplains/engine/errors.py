"""The one exception of a malformed case: it names the field and the problem (W41.1)."""
from __future__ import annotations


class CaseError(Exception):
    """A malformed case or data file: exit 2 with one line `field: problem`."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class DataError(CaseError):
    """The data file (or a case's override of it) is not usable."""
