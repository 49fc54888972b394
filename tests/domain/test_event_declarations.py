"""Every event of the ruleset is declared in the module of its concern (``domain/everaegis/events/``), with its
evolve handler and its narration beside it, each exactly once (issue 16). No event is left without either: an event
that changes nothing has a handler that does nothing and says why."""

from __future__ import annotations

import pytest

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.events.tables import HANDLERS, NARRATORS, handler, narrator
from aegis.domain.everaegis.evolve import _APPLY
from aegis.domain.everaegis.narration import _NARRATORS
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.kernel.events import Event

EVENTS = set(RULESET.event_types)  # what the service stores and the API documents (service/rulesets.py)


def test_the_ruleset_s_events_are_the_event_classes_the_events_package_exports():
    exported = {c for c in vars(ev).values() if isinstance(c, type) and issubclass(c, Event) and c is not Event}
    assert exported == EVENTS
    assert len({c.TYPE for c in EVENTS}) == len(EVENTS)


def test_evolve_and_narration_look_up_the_tables_the_concern_modules_fill():
    assert _APPLY is HANDLERS
    assert _NARRATORS is NARRATORS


def test_every_event_has_an_evolve_handler_and_a_narrator():
    assert sorted(c.TYPE for c in EVENTS if c not in HANDLERS) == []
    assert sorted(c.TYPE for c in EVENTS if c.TYPE not in NARRATORS) == []


def test_no_handler_or_narrator_is_entered_for_anything_but_an_event_of_the_ruleset():
    assert sorted(c.__name__ for c in set(HANDLERS) - EVENTS) == []
    assert sorted(set(NARRATORS) - {c.TYPE for c in EVENTS}) == []


def test_an_event_its_handler_and_its_narrator_are_declared_in_the_same_module():
    where = {
        c: (c.__module__, getattr(HANDLERS.get(c), "__module__", None), getattr(NARRATORS.get(c.TYPE), "__module__", None))
        for c in EVENTS
    }
    assert {c.TYPE: modules for c, modules in where.items() if len(set(modules)) != 1} == {}
    assert {c.__module__.rpartition(".")[0] for c in EVENTS} == {"aegis.domain.everaegis.events"}


def test_a_second_handler_or_narrator_for_an_event_is_refused():
    def again(s: object, e: object) -> None:
        pass

    with pytest.raises(TypeError, match="CardDrawn has an evolve handler already"):
        handler(ev.CardDrawn)(again)
    with pytest.raises(TypeError, match="CardDrawn has a narrator already"):
        narrator(ev.CardDrawn)(lambda e, who: "")
    assert HANDLERS[ev.CardDrawn] is not again and HANDLERS[ev.CardDrawn].__module__ == ev.CardDrawn.__module__
