"""The one exception a malformed Ordonnance case raises."""
from __future__ import annotations

from larp.rules.errors import FieldError


class OrdonnanceCaseError(FieldError):
    """A malformed Ordonnance case (larp.rules.errors.FieldError: str(error) is "FIELD: PROBLEM")."""


class RulesDataError(ValueError):
    """The rules data (ordonnance.yaml or a case's `rules` override) is not usable; names the key."""
