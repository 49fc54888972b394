"""A small test table: a game driven command by command, with shortcuts to find cards and prompts."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.cards import reveal
from aegis.domain.everaegis.classic import ClassicCatalog
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.decide import decide, start
from aegis.domain.everaegis.evolve import apply, fold
from aegis.domain.everaegis.flow import Need, advance, waiting
from aegis.domain.everaegis.prompts import legal_commands, prompts
from aegis.domain.everaegis.redaction import view
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.prompts import Option, Prompt


class Table:
    """A game in a test. ``play`` submits a command; ``events`` is the whole log so far."""

    def __init__(
        self,
        seats: int = 4,
        *,
        rig: dict[str, Any] | None = None,
        variants: str = "simpleton",
        seed: str = "test",
        reaction_seconds: float = 0,
        options: dict[str, Any] | None = None,
        names: list[str] | None = None,
        now: float | None = None,
        selection: str | None = None,
        catalog: ClassicCatalog | None = None,
        mobs: list[int] | None = None,
    ):
        self.config = make_config(
            seats=seats,
            variants=variants,
            reaction_seconds=reaction_seconds,
            options=options,
            names=names or (),
            selection=selection,
            mobs=mobs,
        )
        self.events: list[Event] = start(self.config, seed, now=now, rig=rig, catalog=catalog)
        self.state: GameState = fold(self.config, self.events)

    # ----- playing -----
    def play(self, command: dict[str, Any]) -> list[Event]:
        new = decide(self.state, command)
        for e in new:
            apply(self.state, e)
        self.events.extend(new)
        return new

    def reveal_now(self, seat: int, name: str) -> list[Event]:
        """Reveal the seat's card ``name`` at once, outside any command (as an effect would), and let the game go
        on from there (its triggers run); the new events are kept and returned."""
        ctx = Ctx(self.state.clone())
        reveal(ctx, seat, ctx.state.players[seat].card(self.card(seat, name)), full=True, reason="test")
        advance(ctx)
        self.state = ctx.state
        self.events.extend(ctx.events)
        return list(ctx.events)

    def declare(self, seat: int, action: str, **plan: Any) -> list[Event]:
        return self.play({"type": "declare", "seat": seat, "action": action, **plan})

    def react(self, seat: int, answer: str, means: str | None = None) -> list[Event]:
        assert self.state.calls.window is not None, "no window is open"
        cmd: dict[str, Any] = {"type": "react", "seat": seat, "window": self.state.calls.window.id, "answer": answer}
        if means:
            cmd["means"] = means
        return self.play(cmd)

    def pass_all(self) -> list[Event]:
        """Everyone still asked in the open window passes, in turn order (a window opened next is left open)."""
        out: list[Event] = []
        window = self.state.calls.window
        while window is not None and self.state.calls.window is not None and self.state.calls.window.id == window.id:
            if not self.state.calls.window.waiting_for:
                break
            out += self.react(self.state.calls.window.waiting_for[0], "pass")
        return out

    # ----- looking -----
    def prompts(self, seat: int | None = None) -> list[Prompt]:
        return prompts(self.state, seat)

    def waiting(self) -> list[Need]:
        return waiting(self.state)

    def options(self, seat: int) -> list[Option]:
        """Every complete option of every prompt ``seat`` has now (an option with parameters, expanded)."""
        return [one for p in self.prompts(seat) for o in p.options for one in o.expand()]

    def kinds(self, seat: int) -> list[str]:
        return [p.kind for p in self.prompts(seat)]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return list(legal_commands(self.state, seat))

    def view(self, perspective: Any) -> dict[str, Any]:
        return view(self.state, perspective)

    def card(self, seat: int, name: str, revealed: bool | None = None) -> str:
        for c in self.state.players[seat].cards:
            if c.name == name and (revealed is None or c.revealed == revealed):
                return c.id
        raise AssertionError(f"seat {seat} has no {name}")

    def types(self, events: list[Event] | None = None) -> list[str]:
        return [e.TYPE for e in (self.events if events is None else events)]

    def of(self, type_name: str, events: list[Event] | None = None) -> list[Event]:
        return [e for e in (self.events if events is None else events) if type_name == e.TYPE]

    def soldiers(self, seat: int) -> int:
        return self.state.players[seat].soldiers

    def revealed(self, seat: int) -> list[str]:
        return sorted(c.name for c in self.state.players[seat].cards if c.revealed)

    def unrevealed(self, seat: int) -> list[str]:
        return sorted(c.name for c in self.state.players[seat].cards if not c.revealed)


def offered(err: Any, command: dict[str, Any]) -> bool:
    """Is ``command`` among the options of the open prompts a refusal carries?"""
    return any(Prompt.from_dict(p).accepts(command) for p in err.prompts)
