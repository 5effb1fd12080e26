"""The malformed-case error every rule system's engine raises (exit 2, one line: "FIELD: PROBLEM")."""
from __future__ import annotations


class FieldError(ValueError):
    """A malformed case: `field` names the place (`orders[3].path[1]`), `problem` says what is wrong.

    str(error) is the single line the command line prints: "FIELD: PROBLEM".
    """

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem
