"""The one exception of a malformed case: it names the field and the problem (W41.1)."""
from __future__ import annotations

from larp.rules.errors import FieldError


class CaseError(FieldError):
    """A malformed case or data file: exit 2 with one line `field: problem` (larp.rules.errors.FieldError)."""


class DataError(CaseError):
    """The data file (or a case's override of it) is not usable."""
