"""A small game kernel that knows nothing about any particular game."""

from aegis.domain.kernel.errors import DomainError, IllegalCommand, MalformedCommand
from aegis.domain.kernel.events import Event, canonical_json, event_from_dict
from aegis.domain.kernel.prompts import Option, Prompt
from aegis.domain.kernel.rng import SeededRng, commitment_of

__all__ = [
    "DomainError",
    "Event",
    "IllegalCommand",
    "MalformedCommand",
    "Option",
    "Prompt",
    "SeededRng",
    "canonical_json",
    "commitment_of",
    "event_from_dict",
]
