"""The reaction protocol: who is asked, windows, calls, proofs and the incorrect caller's penalty.

Rules: R38-R39, R55-R72, A1-A4, A10-A13, A16 and RULINGS "The reaction protocol".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis import reactive
from aegis.domain.everaegis.actions import describe_plan
from aegis.domain.everaegis.cards import card_accepts, card_options, own_card, place_token, reveal
from aegis.domain.everaegis.catalog import CATALOG
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_plans import affected_by
from aegis.domain.everaegis.effects import leader_source
from aegis.domain.everaegis.events.words import capital, said_reveal, said_take
from aegis.domain.everaegis.items import brig_sources, gain_brig_step
from aegis.domain.everaegis.mob import agree, pick_player
from aegis.domain.everaegis.mob import own_card as mob_card
from aegis.domain.everaegis.mob_play import idle
from aegis.domain.everaegis.state import Act, Card, GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.errors import IllegalCommand
from aegis.domain.kernel.prompts import Option, Prompt, fits


def affected(s: GameState, act: Act) -> set[int]:
    """The players the declared plan would affect (A16 ruling: only they may guard)."""
    plan, d = act.plan, act.declarer
    out: set[int] = set()
    if idle(s, act):  # a mob's action with nothing it could select affects nobody (A50)
        return out
    if act.action == "temple":
        owner = s.owner_of(plan["card"])
        out = {plan["recipient"]} | ({owner} if owner is not None else set())
    elif act.action == "barracks":
        partner = s.partner(d)
        out = {seat for seat in s.remaining() if seat != partner and not s.variant.allied(d, seat)}  # R107, R163
    elif act.action in ("laboratory", "library") and s.leader_effect(d, act.action) is not None:
        effect = s.leader_effect(d, act.action)
        assert effect is not None
        out = affected_by(s, d, leader_source(s, d, act.action), effect["steps"], plan.get("choices", []))
    elif act.action == "library" and s.players[d].leader is None:
        if "treaty" in plan:
            # the receiver, and the holder the TREATY would be taken from (R106: players "can guard against
            # having their possessions taken"); never the declarer's own partner (R107: the options refuse it)
            out = {plan["treaty"]} | ({s.items.treaty} if s.items.treaty is not None else set())
        else:
            out = {t["seat"] for t in plan["sanctions"]}
    out.discard(d)  # R67: a declarer cannot guard their own action
    return {seat for seat in out if not s.players[seat].eliminated}


def guard_means(s: GameState, seat: int, act: Act, hit: set[int] | None = None) -> list[str]:
    """How ``seat`` may guard ``act``: a claim of the matching building, or the WALL (R65, R69, R71). ``hit``: the
    players the action affects, when the caller asks for every seat (worked out once)."""
    if act.sanctioned or CATALOG.action(act.action).pierce:
        return []
    if seat not in (affected(s, act) if hit is None else hit):
        return []
    # R43: a mob's action (no claim) is guarded only with the WALL; a mob guards only with the WALL
    # (A50 ruling); in Solo the person claims only a building they hold (R167)
    card = act.claim is not None and not s.is_mob(seat) and (s.may_bluff(seat) or s.holds(seat, act.claim))
    return (["card"] if card else []) + (["wall"] if s.items.wall == seat else [])


def asked_for_action(s: GameState, act: Act) -> list[int]:
    """Everyone who may call or guard, in turn order from the current player (RULINGS: who is asked)."""
    reacting = reactive.users(s, act)  # R104: a reactive item may answer any action
    if act.sanctioned or (act.claim is None and not s.is_mob(act.declarer)):
        return s.in_turn_order(reacting)  # R61, A17: Recruit, War and a SANCTION's text are not claims
    hit = affected(s, act)
    declarer = act.declarer
    return [  # every seat, in turn order: under Vengeance (R159) eliminated players may call (see GameState.may_call)
        seat
        for seat in s.turn_order()
        if seat != declarer and (seat in reacting or s.may_call(seat, declarer) or guard_means(s, seat, act, hit))
    ]


def asked_for_guard(s: GameState, guarder: int) -> list[int]:
    """R68: any player may call a guard made with a card, the acting player included."""
    return [seat for seat in s.turn_order() if s.may_call(seat, guarder)]


def open_window(ctx: Ctx, claimant: int, claim: str, about: str, asked: list[int]) -> None:
    s = ctx.state
    seconds = s.config.reaction_seconds
    deadline = ctx.now + seconds if ctx.now is not None and seconds > 0 else None
    ctx.emit(
        ev.ReactionWindowOpened(
            window=s.calls.windows_opened + 1, claimant=claimant, claim=claim, about=about, asked=asked, deadline=deadline
        )
    )


def close_window(ctx: Ctx, by: str) -> None:
    """Close the open window: publish the answers, the guards and the one caller with priority (R60)."""
    s = ctx.state
    w = s.calls.window
    assert w is not None
    timed_out = w.waiting_for
    answers = {str(seat): dict(a) for seat, a in sorted(w.answers.items())}
    window_id, claimant, claim, about = w.id, w.claimant, w.claim, w.about
    called: list[int] = []
    guarded: list[int] = []
    for seat, a in w.answers.items():  # one pass over the answers; most windows have neither calls nor guards
        if a["answer"] == "call":
            called.append(seat)
        elif a["answer"] == "guard":
            guarded.append(seat)
    callers = s.in_turn_order(called) if called else called
    guards = s.in_turn_order(guarded) if guarded else guarded
    means = {seat: w.answers[seat]["means"] for seat in guards}
    ctx.emit(ev.ReactionWindowClosed(window=window_id, answers=answers, timed_out=timed_out, by=by))
    act = s.play.act
    assert act is not None
    for seat in guards:
        ctx.emit(ev.GuardDeclared(seat=seat, means=means[seat], action=act.action))
    if callers:
        ctx.emit(
            ev.BluffCalled(
                window=window_id, caller=callers[0], claimant=claimant, claim=claim, about=about, void_calls=callers[1:]
            )
        )


# ----- a call being settled -----


def proof_choices(s: GameState) -> list[Card]:
    """A10 ruling: the called claimant chooses which of their unrevealed cards to reveal."""
    assert s.calls.challenge is not None
    return s.players[s.calls.challenge.claimant].unrevealed


def penalty_choices(s: GameState) -> list[Card]:
    """A12 ruling: an incorrect caller chooses which of their unrevealed cards to fully reveal."""
    assert s.calls.challenge is not None
    return s.players[s.calls.challenge.caller].unrevealed


def challenge_step(ctx: Ctx) -> bool:
    """Advance a call as far as it goes without a choice. False when a player must choose."""
    s = ctx.state
    ch = s.calls.challenge
    assert ch is not None
    if ch.stage == "proof":
        cards = proof_choices(s)
        if not cards:  # A11: nothing to show, so the call is correct
            ctx.emit(ev.BluffExposed(seat=ch.claimant, claim=ch.claim, caller=ch.caller))
            return True
        if len(cards) == 1:
            prove(ctx, cards[0])
            return True
        return False
    if ch.stage == "penalty":
        cards = penalty_choices(s)
        if ch.caller in s.departures.resigned:  # S2: resigning revealed all their cards (R123); nothing is left to pay
            settle(ctx, correct=False)
            return True
        if len(cards) == 1:
            pay(ctx, cards[0])
            return True
        if not cards:  # R58 (3): no unrevealed card, so the caller gains a BRIG
            why = "incorrect call (R58)"
            if s.players[ch.caller].eliminated:  # Vengeance: the BRIG is their only penalty, for good (R159)
                why = "incorrect call by an eliminated player: for the rest of the game (R159)"
            done = gain_brig_step(ctx, ch.caller, reason=why)
            if done:
                settle(ctx, correct=False)
            return done
        return False
    # exposed: the caller was right
    settle(ctx, correct=True)
    return True


def prove(ctx: Ctx, card: Card) -> None:
    s = ctx.state
    ch = s.calls.challenge
    assert ch is not None
    if card.name == ch.claim:
        # R58 (1), R63 (a): shown, then unrevealed at once: not a full reveal
        reveal(ctx, ch.claimant, card, full=False, reason=ev.PROOF)
        ctx.emit(ev.ClaimProven(seat=ch.claimant, claim=ch.claim, card=card.id, caller=ch.caller))
        ctx.emit(ev.CardUnrevealed(seat=ch.claimant, card=card.id, name=card.name, reason=ev.PROOF))
        place_token(ctx, ch.claimant, card, "proof")  # R160 ruling: a proof is a reveal then an unreveal
    else:
        # R59: the card stays revealed, a full reveal
        reveal(ctx, ch.claimant, card, full=True, reason="bluff exposed")
        ctx.emit(ev.BluffExposed(seat=ch.claimant, claim=ch.claim, card=card.id, name=card.name, caller=ch.caller))


def pay(ctx: Ctx, card: Card) -> None:
    """R58 (2): the incorrect caller fully reveals one of their unrevealed cards."""
    ch = ctx.state.calls.challenge
    assert ch is not None
    reveal(ctx, ch.caller, card, full=True, reason="incorrect call")
    settle(ctx, correct=False)


def settle(ctx: Ctx, *, correct: bool) -> None:
    s = ctx.state
    ch = s.calls.challenge
    assert ch is not None
    about, claimant, claim = ch.about, ch.claimant, ch.claim
    ctx.emit(ev.CallSettled(caller=ch.caller, claimant=claimant, claim=claim, about=about, correct=correct))
    if about == "action" and correct:
        act = s.play.act
        assert act is not None
        ctx.emit(ev.ActionThwarted(seat=claimant, action=act.action, reason="bluff called (R59, R73)"))


# ----- the decisions: answers in a window, proofs, penalties, and the closing of a window -----


def _react_answers(s: GameState, seat: int) -> Iterator[tuple[str, str | None]]:
    """The answers open to ``seat`` in the open window, lazily, as (answer, means): what its prompt lists and what
    ``_react_accepts`` checks against (the one source of both)."""
    w, act = s.calls.window, s.play.act
    assert w is not None and act is not None
    yield "pass", None
    if w.claim and s.may_call(seat, w.claimant):  # R61: a non-claim (Recruit, War, a mob's action) cannot be called
        yield "call", None
    if w.about == "action":
        if seat in reactive.users(s, act):
            for item in reactive.reactions(s, seat):
                yield "use", item
        for means in guard_means(s, seat, act):
            yield "guard", means


def _react_command(seat: int, window: int, answer: str, means: str | None) -> dict[str, Any]:
    """The complete command of one answer (an option's ``command``)."""
    if means is None:
        return {"type": "react", "seat": seat, "window": window, "answer": answer}
    return {"type": "react", "seat": seat, "window": window, "answer": answer, "means": means}


def _react_accepts(s: GameState, seat: int, cmd: dict[str, Any]) -> bool:
    """Would ``seat``'s react prompt accept ``cmd``? The option of the same answer, matched as the prompt's own
    option would match it, without building the prompt."""
    w = s.calls.window
    if w is None or s.play.act is None:
        return False
    answer = cmd["answer"]
    for given, means in _react_answers(s, seat):
        if given == answer and fits(cmd, _react_command(seat, w.id, given, means)):
            return True
    return False


def _answers_said(opts: list[Option], claimed: bool) -> str:
    """The answers offered, in words, as the options give them: never "call" where nothing can be called (R61)."""
    said = []
    for o in opts:
        word = "use the " + str(o.command.get("means")) if o.group == "use" else o.group
        if word not in said:
            said.append(word)
    words = ", ".join(said[:-1]) + " or " + said[-1] if len(said) > 1 else said[0]
    rules = "R39, R56" if "call" in said else "R39"
    if "use" in {o.group for o in opts}:
        rules += ", R104"
    tail = "" if claimed else "; it is no claim, so it cannot be called (R61)"
    return f"{capital(words)} ({rules}){tail}"


def _react_prompt(s: GameState, seat: int) -> Prompt:
    w, act = s.calls.window, s.play.act
    assert w is not None and act is not None
    claimant = s.players[w.claimant].name
    opts: list[Option] = []
    for answer, means in _react_answers(s, seat):
        if answer == "pass":
            label = "Pass"
        elif answer == "call":
            label = f"Call {claimant}'s bluff: they claim a {w.claim}"
        elif answer == "use":
            label = f"Use the {means}: thwart this action (R104; it is then discarded)"
        else:
            label = f"Guard with a {w.claim} claim" if means == "card" else "Guard with the WALL"
        opts.append(Option(label, _react_command(seat, w.id, answer, means), answer))

    worked: list[str] = []

    def does() -> str:  # what the claim would do, worked out once for the text and for about
        if not worked:
            worked.append(describe_plan(s, act, seat))
        return worked[0]

    def text() -> str:
        if w.about != "action":
            what = f"{claimant} guards with a {w.claim} claim against {s.players[act.declarer].name}'s {act.action.title()}"
        elif w.claim:
            what = f"{claimant} declares {act.action.title()} (claiming a {w.claim}): {does()}"
        else:
            mob = " (a mob)" if s.is_mob(w.claimant) else ""
            what = f"{claimant}{mob} uses {act.action.title()}: {does()}"
        return f"{s.players[seat].name}: {what}. {_answers_said(opts, bool(w.claim))}"

    def about() -> dict[str, Any]:
        out = {
            "window": w.id,
            "about": w.about,
            "claimant": w.claimant,
            "claim": w.claim or None,
            "action": act.action,
            "plan": dict(act.plan),
            "does": does(),
            "affects": sorted(affected(s, act)),
        }
        if w.about == "guard":
            out["guarding"] = w.claimant
        return out

    return Prompt(seat, "react", text, tuple(opts), deadline=w.deadline, context=about)


def _react(ctx: Ctx, cmd: dict[str, Any]) -> None:
    seat = cmd["seat"]
    ctx.emit(ev.ReactionGiven(window=cmd["window"], seat=seat, answer=cmd["answer"], means=cmd.get("means"), audience=[seat]))


def _mob_react(ctx: Ctx, mob: int) -> None:
    """A50 ruling: a mob never calls; it guards only with the WALL, and only on Agreement (R176). R178: a
    reactive item is used the moment the occasion occurs: the first action it may answer."""
    s = ctx.state
    w, act = s.calls.window, s.play.act
    assert w is not None and act is not None
    items = reactive.reactions(s, mob) if w.about == "action" and mob in reactive.users(s, act) else []
    if items:
        ctx.emit(ev.ReactionGiven(window=w.id, seat=mob, answer="use", means=items[0], audience=[mob]))
        return
    wall = w.about == "action" and "wall" in guard_means(s, mob, act)
    if wall and agree(ctx, mob, "guard with the WALL"):
        ctx.emit(ev.ReactionGiven(window=w.id, seat=mob, answer="guard", means="wall", audience=[mob]))
    else:
        ctx.emit(ev.ReactionGiven(window=w.id, seat=mob, answer="pass", audience=[mob]))


def _prove_prompt(s: GameState, seat: int) -> Prompt:
    ch = s.calls.challenge
    assert ch is not None
    text = f"{s.players[seat].name}: your {ch.claim} claim is called; reveal 1 of your unrevealed cards (R57, A10)"
    return Prompt(seat, "prove", text, card_options(seat, proof_choices(s), "Reveal", "prove"))


def _pay_prompt(s: GameState, seat: int) -> Prompt:
    text = f"{s.players[seat].name}: your call was incorrect; fully reveal 1 of your unrevealed cards (R58)"
    return Prompt(seat, "pay", text, card_options(seat, penalty_choices(s), "Reveal", "pay"))


def _take_brig_prompt(s: GameState, seat: int) -> Prompt:
    opts = tuple(
        Option(f"Take a BRIG from {s.players[o].name}", {"type": "take_brig", "seat": seat, "item": "BRIG", "from": o}, "take")
        for o in brig_sources(s, seat)
    )
    text = f"{s.players[seat].name}: no BRIG is left in the reserve; take one from another player (R105)"
    return Prompt(seat, "take_brig", text, opts)


def _take_brig(ctx: Ctx, cmd: dict[str, Any]) -> None:
    ctx.emit(ev.ItemGained(seat=cmd["seat"], item="BRIG", source=cmd["from"], reason="incorrect call (R58, R105)"))
    settle(ctx, correct=False)


def _mob_take_brig(ctx: Ctx, mob: int) -> None:
    source = pick_player(ctx, mob, brig_sources(ctx.state, mob))
    ctx.emit(ev.ItemGained(seat=mob, item="BRIG", source=source, reason="incorrect call (R58, R105)"))
    settle(ctx, correct=False)


def _close_window(ctx: Ctx, cmd: dict[str, Any]) -> None:
    """The service closes a window whose deadline has passed (RULINGS: when it closes; A1)."""
    w = ctx.state.calls.window
    if w is None or w.id != cmd["window"]:
        raise IllegalCommand(f"window {cmd['window']} is not open", rule="A1")
    check_due(
        w.deadline,
        ctx.now,
        "this window has no deadline: it closes when every asked player has answered",
        f"window {w.id} closes",
    )
    close_window(ctx, "deadline")


def check_due(deadline: float | None, now: float | None, no_deadline: str, what: str) -> None:
    """A1: the service may end a wait only at or after its recorded deadline."""
    if deadline is None:
        raise IllegalCommand(no_deadline, rule="A1")
    if now is None or now < deadline:
        raise IllegalCommand(f"{what} at {deadline}, not before", rule="A1")


REACT = DecisionKind(
    "react",
    rule="R56",
    refusal="that reaction is not open to you in this window (a call needs no BRIG and no TREATY with the claimant;"
    " a guard needs to be affected by the action, and the WALL to guard with it)",
    fields={"window": int, "answer": str},
    optional={"means": str},
    docs={
        "window": {"minimum": 1, "description": "the id of the reaction window you answer"},
        "answer": {"enum": ["pass", "call", "guard", "use"], "description": "let it be, call the bluff, guard, or use an item"},
        "means": {"description": "guard: card (a claim) or wall; use: the reactive item"},
    },
    summary="react to a declared action: pass, call the bluff, guard, or use a reactive item",
    offer=_react_prompt,
    accepts=_react_accepts,
    apply=_react,
    by_rules=_mob_react,
    window=True,
)
PROVE = DecisionKind(
    "prove",
    rule="R57",
    refusal="reveal one of your own unrevealed cards",
    fields={"card": str},
    docs={"card": {"description": "the id of the unrevealed card you reveal"}},
    summary="your claim was called: reveal a card to prove it",
    offer=_prove_prompt,
    accepts=lambda s, seat, cmd: card_accepts(seat, proof_choices(s), "prove", cmd),
    apply=lambda ctx, cmd: prove(ctx, own_card(ctx.state, cmd["seat"], cmd["card"])),
    by_rules=lambda ctx, mob: prove(ctx, mob_card(ctx, mob, proof_choices(ctx.state))),
    aliases=("reveal",),
    asks="prove their claim",
    said=said_reveal,
)
PAY = DecisionKind(
    "pay",
    rule="R58",
    refusal="fully reveal one of your own unrevealed cards",
    fields={"card": str},
    docs={"card": {"description": "the id of the unrevealed card you reveal"}},
    summary="pay the penalty of a lost challenge: reveal one of your cards",
    offer=_pay_prompt,
    accepts=lambda s, seat, cmd: card_accepts(seat, penalty_choices(s), "pay", cmd),
    apply=lambda ctx, cmd: pay(ctx, own_card(ctx.state, cmd["seat"], cmd["card"])),
    by_rules=lambda ctx, mob: pay(ctx, mob_card(ctx, mob, penalty_choices(ctx.state))),
    aliases=("reveal",),
    asks="reveal a card for an incorrect call",
    said=said_reveal,
)
TAKE_BRIG = DecisionKind(
    "take_brig",
    rule="R105",
    refusal="take the BRIG from a player who holds one",
    fields={"item": str, "from": int},
    docs={"item": {"enum": ["BRIG"]}, "from": {"minimum": 0, "description": "the player you take the BRIG from"}},
    summary="no BRIG is left in the reserve: take one from a player who holds one",
    offer=_take_brig_prompt,
    apply=_take_brig,
    by_rules=_mob_take_brig,
    aliases=("take",),
    asks="choose whom to take a BRIG from",
    said=said_take,
)
CLOSE_WINDOW = DecisionKind(
    "close_window",
    rule="A1",
    refusal="only the service closes a window, at or after its deadline",
    fields={"window": int},
    handle=_close_window,
    system=True,
    seatless=True,
)
