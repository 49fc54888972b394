"""Prompts: the decisions the game waits for, each with its options, compact (see ``kernel.prompts``).

``flow.waiting`` says who must decide what; each kind's ``offer`` (in ``decisions``) builds the prompt.
``legal_commands`` expands them lazily, like python-chess's ``Board.legal_moves``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aegis.domain.everaegis.actions import declaration_prompt
from aegis.domain.everaegis.decisions import DECISIONS
from aegis.domain.everaegis.flow import waiting
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.prompts import Prompt

_FREE = [kind for kind in DECISIONS if kind.free and kind.offer is not None]  # open at any time (TREATY gifts)


def prompts(s: GameState, seat: int | None = None, only: str | None = None, kinds: set[str] | None = None) -> list[Prompt]:
    """Open prompts, for one seat or for all; free prompts (TREATY gifts) come last. ``only``: a declaration
    prompt narrowed to one action; ``kinds``: only prompts of these kinds (what checking a command needs)."""
    out: list[Prompt] = []
    for need in waiting(s):
        if (seat is None or need.seat == seat) and (kinds is None or need.kind in kinds):
            if need.kind == "declare" and only is not None:
                out.append(declaration_prompt(s, need.seat, only))
                continue
            offer = DECISIONS[need.kind].offer
            assert offer is not None
            prompt = offer(s, need.seat)
            assert prompt is not None
            out.append(prompt)
    for kind in _FREE:
        if kinds is None or kind.kind in kinds:
            for who in range(s.seats) if seat is None else (seat,):
                prompt = kind.offer(s, who)  # type: ignore[misc]
                if prompt is not None:
                    out.append(prompt)
    return out


def legal_commands(s: GameState, seat: int) -> Iterator[dict[str, Any]]:
    """Every complete command ``seat`` may submit now, lazily (python-chess's ``legal_moves``)."""
    for prompt in prompts(s, seat):
        yield from prompt.commands()
