"""The engine's exceptions and its refusal value."""
from __future__ import annotations


class CaseError(Exception):
    """The case is malformed (exit 2): the message names the field and the problem, on one line."""


class Refused(Exception):
    """An action breaks the rules: the mode answers {"refused": {...}} and the state is unchanged."""

    def __init__(self, code: tuple[str, str], reason: str):
        super().__init__(reason)
        self.rule, self.code = code
        self.reason = reason

    def as_dict(self) -> dict:
        return {"rule": self.rule, "code": self.code, "reason": self.reason}
