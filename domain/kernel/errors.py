"""Errors as data: every refusal names the rule that forbids the command and the prompts that are open instead."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base class of every refusal raised by a ruleset."""

    status = "illegal"

    def __init__(self, message: str, *, rule: str | None = None, prompts: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.prompts = prompts or []  # the seat's open prompts, compact (as a view lists them)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.status, "message": self.message, "rule": self.rule, "prompts": self.prompts}


class IllegalCommand(DomainError):
    """A well-formed command that the rules do not allow now (HTTP 422 later)."""

    status = "illegal"


class MalformedCommand(DomainError):
    """A command that is not of any shape the ruleset understands (HTTP 400 later); ``errors``: what is wrong with
    it, by field, where the fault lies in its fields."""

    status = "malformed"

    def __init__(self, message: str, *, rule: str | None = None, errors: dict[str, list[str]] | None = None):
        super().__init__(message, rule=rule)
        self.errors = errors or {}

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), **({"errors": self.errors} if self.errors else {})}


class NotYourTurn(IllegalCommand):
    """The seat has no open prompt that this command answers (HTTP 403 later)."""

    status = "not_your_prompt"


class TooLate(IllegalCommand):
    """The command answers a decision that is already settled, e.g. a window closed by its deadline (HTTP 409)."""

    status = "too_late"


class GameOver(IllegalCommand):
    """The game has ended; nothing more can be played (HTTP 409 later)."""

    status = "finished"


class NothingThere(DomainError):
    """A well-formed question about a record that has nothing of the kind asked at that place: no claim at or
    before the step an audit names (HTTP 404 later)."""

    status = "nothing_there"
