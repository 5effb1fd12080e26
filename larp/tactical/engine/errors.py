"""The one exception a malformed tactical case raises (T37.1)."""
from __future__ import annotations

from larp.rules.errors import FieldError


class CaseError(FieldError):
    """A malformed tactical case, T37.1 (larp.rules.errors.FieldError: str(error) is "FIELD: PROBLEM")."""


class DataError(ValueError):
    """The rules data file (tactical-rules.yaml, or a scenario's override of it) is not usable."""
