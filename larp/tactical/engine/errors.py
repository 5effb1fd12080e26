"""The one exception a malformed tactical case raises (T37.1)."""
from __future__ import annotations


class CaseError(ValueError):
    """A malformed case: `field` names the place (`units[1].ranks[0][2].count`), `problem` what is wrong.

    str(error) is the single line the command line prints: "FIELD: PROBLEM".
    """

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class DataError(ValueError):
    """The rules data file (tactical-rules.yaml, or a scenario's override of it) is not usable."""
