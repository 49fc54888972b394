"""Prompts: the decisions the game waits for, each with its legal options as ready-to-submit commands.

``flow.waiting`` says who must decide what; ``build`` lists the options. ``legal_commands`` is the
union over a seat's prompts, like python-chess's ``Board.legal_moves``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.everaegis import reactive
from domain.everaegis.actions import barracks_choices, declarations, sanction_choices
from domain.everaegis.artificers import options as artificer_options
from domain.everaegis.blasphemy import spoils_options
from domain.everaegis.consumables import options as consumable_options
from domain.everaegis.effects import decision as effect_decision
from domain.everaegis.flow import Need, waiting
from domain.everaegis.items import brig_sources, sanction_sources
from domain.everaegis.leaders import options as leader_options
from domain.everaegis.reactions import guard_means, penalty_choices, proof_choices
from domain.everaegis.state import Card, GameState
from domain.everaegis.war import reveal_choices
from domain.kernel.prompts import Choice, Option, Param, Prompt


def _card_label(card: Card) -> str:
    state = "revealed" if card.revealed else "unrevealed"
    return f"{card.name} ({state}, {card.id})"


def _cmd(type_: str, seat: int) -> dict[str, Any]:
    return {"type": type_, "seat": seat}


def _card_choices(cards: list[Card]) -> tuple[Choice, ...]:
    return tuple(Choice(_card_label(c), c.id) for c in cards)


def _card_options(seat: int, cards: list[Card], verb: str, type_: str = "reveal") -> tuple[Option, ...]:
    return tuple(Option(f"{verb} {_card_label(c)}", {"type": type_, "seat": seat, "card": c.id}, type_) for c in cards)


def build(s: GameState, need: Need, only: str | None = None) -> Prompt:
    """The prompt for ``need``; ``only`` narrows a declaration prompt to one action."""
    seat, kind = need.seat, need.kind
    name = s.players[seat].name
    if kind == "declare":
        return Prompt(seat, kind, f"{name}: use 1 of your 8 actions (R28, A6)", tuple(declarations(s, seat, only)))
    if kind == "choose_year":
        opts = tuple(
            Option(
                f"Make year {label} ({len(cards)} cards) the deck", {"type": "choose_year", "seat": seat, "year": label}, "year"
            )
            for label, cards in s.years
        )
        return Prompt(seat, kind, f"{name}: the deck is empty; choose a year to become the deck (R34)", opts)
    if kind in ("effect_choice", "effect_order"):
        d = effect_decision(s)
        assert d is not None
        type_ = "effect_order" if d.kind == "order" else "effect_choice"
        key = "first" if d.kind == "order" else "choice"
        opts = tuple(Option(label, {"type": type_, "seat": seat, key: value}, type_) for label, value in d.options)
        return Prompt(seat, kind, f"{name}: {d.text}", opts)
    if kind == "draw_reaction":
        text = f"{name}: {s.players[s.draw_queue[0][0]].name} is about to draw in their Draw Phase (R104, R118)"
        return Prompt(seat, kind, text, tuple(reactive.draw_options(s, seat)))
    if kind == "use_item":
        text = f"{name}: you may use a consumable item before you declare your action (R103)"
        return Prompt(seat, kind, text, tuple(consumable_options(s, seat)))
    if kind == "artificer_gift":
        text = f"{name}: give an opponent an item (Artificers: one-piece kinds, until everyone holds 3; R172)"
        return Prompt(seat, kind, text, tuple(artificer_options(s, seat)))
    if kind == "choose_leader":
        how = {"limited": "keep 1 of your mats face down (R19)", "drafting": "keep 1 mat and pass the rest (R20)"}
        text = f"{name}: " + how.get(s.config.selection, "pick your leader mat (R21)")
        return Prompt(seat, kind, text, tuple(leader_options(s, seat)))
    if kind == "setup_reveal":
        cards = s.players[seat].unrevealed
        return Prompt(
            seat, kind, f"{name}: reveal 1 of your cards before play (Quick Game, R164)", _card_options(seat, cards, "Reveal")
        )
    if kind == "react":
        return _react_prompt(s, seat)
    if kind == "prove":
        ch = s.challenge
        assert ch is not None
        text = f"{name}: your {ch.claim} claim is called; reveal 1 of your unrevealed cards (R57, A10)"
        return Prompt(seat, kind, text, _card_options(seat, proof_choices(s), "Reveal"))
    if kind == "pay":
        text = f"{name}: your call was incorrect; fully reveal 1 of your unrevealed cards (R58)"
        return Prompt(seat, kind, text, _card_options(seat, penalty_choices(s), "Reveal"))
    if kind == "take_brig":
        opts = tuple(
            Option(f"Take a BRIG from {s.players[o].name}", {"type": "take", "seat": seat, "item": "BRIG", "from": o}, "take")
            for o in brig_sources(s, seat)
        )
        return Prompt(seat, kind, f"{name}: no BRIG is left in the reserve; take one from another player (R105)", opts)
    if kind == "take_sanction":
        act = s.act
        assert act is not None
        opts = tuple(
            Option(
                f"Take the SANCTION on {s.players[src['seat']].name}'s {src['action'].title()}",
                {"type": "take", "seat": seat, "item": "SANCTION", "from": src},
                "take",
            )
            for src in sanction_sources(s, act.todo[0])
        )
        return Prompt(seat, kind, f"{name}: no SANCTION is left in the reserve; take one from another player (R105)", opts)
    if kind == "sanction_discard":
        text = f"{name}: your action is SANCTIONED: discard an unrevealed card (R110)"
        return Prompt(seat, kind, text, _card_options(seat, sanction_choices(s), "Discard", "discard"))
    if kind == "barracks_discard":
        text = f"{name}: Barracks: discard 1 of your unrevealed cards (R48)"
        return Prompt(seat, kind, text, _card_options(seat, barracks_choices(s), "Discard", "discard"))
    if kind == "put_back":
        cards = _card_choices(s.players[seat].unrevealed)
        opts = (
            Option(
                "Put on top of the deck, first named on top:",
                _cmd("put_back", seat),
                "put_back",
                (Param("cards", cards, 2, 2, ordered=True),),
            ),
        )
        return Prompt(seat, kind, f"{name}: Laboratory: put 2 unrevealed cards on top of the deck (R52, A21)", opts)
    if kind == "war_reveal":
        due = len(reveal_choices(s)[0])
        cards = _card_choices(s.players[seat].unrevealed)
        opts = (Option("Reveal", _cmd("reveal", seat), "reveal", (Param("cards", cards, due, due),)),)
        return Prompt(seat, kind, f"{name}: you lost the war; fully reveal {due} unrevealed cards (R83)", opts)
    if kind == "spoils":
        assert s.variant.offer is not None
        loser = s.players[s.variant.offer[1]].name
        text = f"{name}: you won the war; you may take 1 of {loser}'s Blasphemy tokens (R90, R171)"
        return Prompt(seat, kind, text, spoils_options(s))
    if kind == "undo":
        undo = s.undo
        assert undo is not None
        base = {"type": "undo", "seat": seat, "window": undo.window}
        claimant = s.players[undo.claimant].name
        opts = (
            Option(f"Claim an undo: go back and call {claimant}'s bluff", {**base, "answer": "claim"}, "claim"),
            Option("Let the action stand", {**base, "answer": "waive"}, "waive"),
        )
        text = f"{name}: the window closed before you answered; you may claim an undo (R155, RULINGS: Undo)"
        return Prompt(seat, kind, text, opts, deadline=undo.deadline)
    raise AssertionError(kind)  # pragma: no cover


def _react_prompt(s: GameState, seat: int) -> Prompt:
    w = s.window
    act = s.act
    assert w is not None and act is not None
    claimant = s.players[w.claimant].name
    base = {"type": "react", "seat": seat, "window": w.id}
    opts = [Option("Pass", {**base, "answer": "pass"}, "pass")]
    if w.claim and s.may_call(seat, w.claimant):  # R61: a non-claim (Recruit, War, a mob's action) cannot be called
        opts.append(Option(f"Call {claimant}'s bluff: they claim a {w.claim}", {**base, "answer": "call"}, "call"))
    if w.about == "action":
        if seat in reactive.users(s, act):
            for item in reactive.reactions(s, seat):
                label = f"Use the {item}: thwart this action (R104; it is then discarded)"
                opts.append(Option(label, {**base, "answer": "use", "means": item}, "use"))
        for means in guard_means(s, seat, act):
            label = f"Guard with a {w.claim} claim" if means == "card" else "Guard with the WALL"
            opts.append(Option(label, {**base, "answer": "guard", "means": means}, "guard"))
        what = (
            f"{claimant} declares {act.action.title()} (claiming a {w.claim})"
            if w.claim
            else f"{claimant}{' (a mob)' if s.is_mob(w.claimant) else ''} uses {act.action.title()}"
        )
    else:
        what = f"{claimant} guards with a {w.claim} claim"
    text = f"{s.players[seat].name}: {what}. Pass, call{' or guard' if len(opts) > 2 else ''} (R39, R56)"
    return Prompt(seat, "react", text, tuple(opts), deadline=w.deadline)


def gift_prompt(s: GameState, seat: int) -> Prompt | None:
    """R107: TREATY parties may give each other soldiers at any time, except within a war."""
    if s.status != "active":
        return None
    partner = s.partner(seat)
    me = s.players[seat]
    if partner is None or me.eliminated or s.players[partner].eliminated or me.soldiers == 0 or s.is_mob(seat):
        return None
    war = s.act.war if s.act is not None else None
    if war is not None and seat in (war.attacker, war.defender) and war.stage not in ("ended",):
        return None
    amounts = tuple(Choice(str(n), n) for n in range(1, me.soldiers + 1))
    label = f"Give {s.players[partner].name} soldiers, how many:"
    opts = (Option(label, {"type": "give_soldiers", "seat": seat, "to": partner}, "give_soldiers", (Param("amount", amounts),)),)
    return Prompt(seat, "treaty_gift", f"{me.name}: you may give soldiers to your TREATY partner (R107)", opts, free=True)


def prompts(s: GameState, seat: int | None = None) -> list[Prompt]:
    """Open prompts, for one seat or for all; free prompts (TREATY gifts) come last."""
    out = [build(s, n) for n in waiting(s) if seat is None or n.seat == seat]
    for sst in range(s.seats) if seat is None else (seat,):
        gift = gift_prompt(s, sst)
        if gift is not None:
            out.append(gift)
    return out


def legal_commands(s: GameState, seat: int) -> Iterator[dict[str, Any]]:
    """Every complete command ``seat`` may submit now, lazily (python-chess's ``legal_moves``)."""
    for prompt in prompts(s, seat):
        yield from prompt.commands()
