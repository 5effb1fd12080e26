"""The one exception a malformed Ordonnance case raises."""
from __future__ import annotations


class OrdonnanceCaseError(ValueError):
    """A malformed case: `field` names the place (`plays[3].card`), `problem` says what is wrong.

    str(error) is the single line the command line prints: "FIELD: PROBLEM".
    """

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class RulesDataError(ValueError):
    """The rules data (ordonnance.yaml or a case's `rules` override) is not usable; names the key."""
