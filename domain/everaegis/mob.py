"""The mob's D8 procedures (R173-R181): how a roll becomes a choice, and the rolls themselves.

The counting functions are pure. ``roll`` draws D8 results (rigged ones first, then the seeded
stream) and records each roll as a public ``DieRolled`` event with its ``rng`` positions, so that a
replay never rolls again and anyone holding the seed can check it. ``pick_player`` and ``pick_object``
are the procedures a mob's decisions are made with (see ``mob_play``).

Rulings (docs/rulings.md, "Mobs and Solo"; A50):
- the count always starts with the current player (R174), whoever's turn it is;
- a choice with a single candidate is made without a roll, as every one-option choice is;
- Narrowing (R180) counts the players who hold a candidate, skipping the mob itself (R174); when
  no such player remains, or the candidates are not held by players, Abundance (R181) is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import Card, GameState

T = TypeVar("T")
D8 = 8


# ----- pure counting (R174-R181) -----


def count_off(line: Sequence[T], eligible: Callable[[T], bool], total: int) -> int:
    """R179: count the line with the roll, skipping what cannot be selected, wrapping around.
    Returns the index in ``line`` the count lands on."""
    indexes = [i for i, item in enumerate(line) if eligible(item)]
    if not indexes:
        raise ValueError("nothing in the line can be selected")
    return indexes[(total - 1) % len(indexes)]


def select_player(eligible_in_turn_order: Sequence[int], total: int) -> int:
    """R174: ``eligible[(roll - 1) mod len(eligible)]``, eligible in turn order from the current player."""
    return eligible_in_turn_order[count_off(eligible_in_turn_order, lambda _: True, total)]


def agreement(roll: int) -> bool:
    """R176: a mob says yes only on a 1 or a 2."""
    return roll in (1, 2)


def ultimatum(roll: int) -> int:
    """R177: odd -> choice 1, even -> choice 2."""
    return 1 if roll % 2 else 2


def dice_for(count: int) -> int:
    """R181 Abundance: the smallest number of D8 whose highest total exceeds ``count`` (1 up to 8)."""
    return 1 if count <= D8 else count // D8 + 1


def player_order(s: GameState, mob: int, seats: Sequence[int]) -> list[int]:
    """R174: ``seats`` in turn order from the current player, without the mob using the effect."""
    return [seat for seat in s.in_turn_order(list(seats)) if seat != mob]


# ----- rolling -----


def roll(ctx: Ctx, mob: int, purpose: str, outcome: Callable[[int], str], dice: int = 1) -> int:
    """Roll ``dice`` D8 for ``mob``, emit ``DieRolled`` and return the total."""
    s = ctx.state
    rigged = s.dice[:dice]
    rng = ctx.rng()
    start = rng.counter
    values = list(rigged) + [rng.below(D8) + 1 for _ in range(dice - len(rigged))]
    total = sum(values)
    ctx.emit(
        ev.DieRolled(
            seat=mob,
            purpose=purpose,
            dice=values,
            total=total,
            outcome=outcome(total),
            rigged=len(rigged),
            rng=[start, rng.counter],
        )
    )
    return total


def pick_player(ctx: Ctx, mob: int, seats: Sequence[int], purpose: str = "player selection") -> int | None:
    """R174/R175 Player Selection among ``seats`` (the mob is skipped). None if nobody can be selected."""
    s = ctx.state
    order = player_order(s, mob, seats)
    if len(order) <= 1:
        return order[0] if order else None
    names = [s.players[seat].name for seat in order]
    total = roll(ctx, mob, purpose, lambda t: f"{names[(t - 1) % len(order)]} (counting {', '.join(names)})")
    return select_player(order, total)


def pick_object(
    ctx: Ctx,
    mob: int,
    line: Sequence[T],
    eligible: Callable[[T], bool],
    label: Callable[[T], str],
    owner: Callable[[T], int | None] | None = None,
    purpose: str = "object selection",
) -> T:
    """R179 Object Selection of one item of ``line`` (at least one must be eligible).

    With more than 8 candidates: R180 Narrowing when ``owner`` says whose each is (a Player Selection
    among the holders, then an Object Selection among that player's), otherwise R181 Abundance."""
    s = ctx.state
    candidates = [i for i, item in enumerate(line) if eligible(item)]
    if not candidates:
        raise ValueError("nothing to select")
    if len(candidates) == 1:
        return line[candidates[0]]
    if len(candidates) > D8 and owner is not None:
        holders = {owner(line[i]) for i in candidates} - {None}
        order = player_order(s, mob, sorted(h for h in holders if h is not None))
        if order:
            chosen = pick_player(ctx, mob, order, "narrowing: player selection")
            return pick_object(ctx, mob, line, lambda x: eligible(x) and owner(x) == chosen, label, None, purpose)
    n = dice_for(len(candidates))
    what = purpose if n == 1 else f"{purpose} (abundance: {n} dice for {len(candidates)} candidates)"
    total = roll(ctx, mob, what, lambda t: f"{_place(t, len(candidates))}: {label(line[count_off(line, eligible, t)])}", dice=n)
    return line[count_off(line, eligible, total)]


def pick_objects(
    ctx: Ctx,
    mob: int,
    line: Sequence[T],
    eligible: Callable[[T], bool],
    label: Callable[[T], str],
    count: int,
    owner: Callable[[T], int | None] | None = None,
) -> list[T]:
    """R179: several picks, a new roll for each; an item picked is skipped by the later counts."""
    picked: list[int] = []
    for _ in range(count):
        rest = [i for i, item in enumerate(line) if i not in picked and eligible(item)]
        if not rest:
            break
        positions = list(range(len(line)))
        index = pick_object(
            ctx,
            mob,
            positions,
            lambda i: i not in picked and eligible(line[i]),
            lambda i: label(line[i]),
            (lambda i: owner(line[i])) if owner is not None else None,
        )
        picked.append(index)
    return [line[i] for i in picked]


def agree(ctx: Ctx, mob: int, question: str) -> bool:
    """R176 Agreement: yes only on a 1 or a 2."""
    return agreement(roll(ctx, mob, "agreement", lambda t: f"{question}: {'yes' if agreement(t) else 'no'}"))


def choose_between(ctx: Ctx, mob: int, first: str, second: str) -> int:
    """R177 Ultimatum: 1 (``first``) on an odd roll, 2 (``second``) on an even one."""
    return ultimatum(roll(ctx, mob, "ultimatum", lambda t: first if ultimatum(t) == 1 else second))


def own_card(ctx: Ctx, mob: int, choices: Sequence[Card]) -> Card:
    """R179: the mob's cards in a line; the count skips those that cannot be selected (E28)."""
    ids = {c.id for c in choices}
    return pick_object(ctx, mob, ctx.state.players[mob].cards, lambda c: c.id in ids, card_said)


def card_said(card: Card) -> str:
    """A mob's own card as a roll's outcome names it: by its name only when everyone knows it (a roll is public:
    a hidden card is never named, nor shown by its id; its place in the count says which it is, R179)."""
    if card.revealed:
        return f"its revealed {card.name}"
    return f"its {card.name}, face down" if card.public else "an unrevealed card"


def _place(total: int, candidates: int) -> str:
    """Where the count landed (R179): "the 2nd of the 4 that can be selected", counted in the line's order (the
    order the mob holds its cards, its items in turn order...), skipping what cannot be selected."""
    return f"the {ordinal((total - 1) % candidates + 1)} of the {candidates} that can be selected"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
