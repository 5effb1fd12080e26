"""The one exception a malformed case raises."""
from __future__ import annotations


class CaseError(ValueError):
    """A malformed case: `field` names the place (`orders[3].path[1]`), `problem` says what is wrong.

    str(error) is the single line the command line prints: "FIELD: PROBLEM".
    """

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem
