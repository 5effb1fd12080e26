"""The one exception a malformed case raises."""
from __future__ import annotations

from larp.rules.errors import FieldError


class CaseError(FieldError):
    """A malformed military-module case (larp.rules.errors.FieldError: str(error) is "FIELD: PROBLEM")."""
