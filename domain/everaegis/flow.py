"""The automatic part of the game: everything that happens without a player's decision.

``advance`` runs after every command (and after setup): it emits events until the game waits for
players or ends. ``waiting`` says who must decide what; ``prompts`` turns that into options.
"""

from __future__ import annotations

from aegis.domain.everaegis import artificers, consumables
from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.actions import execute_step, sanction_step
from aegis.domain.everaegis.blasphemy import token_step
from aegis.domain.everaegis.cards import chooser, draw_step, reveal
from aegis.domain.everaegis.context import Ctx, Need, Unsettled, need, needs
from aegis.domain.everaegis.decisions import DECISIONS
from aegis.domain.everaegis.effects import decision, effect_step, fire_triggers
from aegis.domain.everaegis.leaders import all_chosen, choosers, selection_step
from aegis.domain.everaegis.reactions import (
    asked_for_action,
    asked_for_guard,
    challenge_step,
    close_window,
    open_window,
    penalty_choices,
)
from aegis.domain.everaegis.setup import after_deal_step, setup_step, starting_step
from aegis.domain.everaegis.state import Act, GameState
from aegis.domain.everaegis.turns import out_of_cards_step, phase_step
from aegis.domain.everaegis.undo import pause_step
from aegis.domain.everaegis.war import war_step

MAX_AUTO_STEPS = 100_000


def advance(ctx: Ctx) -> None:
    for _ in range(MAX_AUTO_STEPS):
        if not step(ctx) and not mob_step(ctx):
            ctx.state.asked_at = (ctx.state.seq, list(ctx.asked))  # where it stopped: what waiting() would find
            return  # R173: a mob's decisions are made here, with the D8; it is never prompted
    raise AssertionError("the game did not settle")  # pragma: no cover


def mob_step(ctx: Ctx) -> bool:
    """Make the first decision the game waits for (``ctx.asked``, where the flow stopped) from a mob, as its kind's
    ``mob`` says. False if no mob is awaited. R178: a usable consumable comes first (before the action it could
    precede, and in the End Phase rather than going on)."""
    if not ctx.state.config.mobs:
        return False
    for asked in sorted(ctx.asked, key=lambda n: n.kind != "use_item"):
        if ctx.state.is_mob(asked.seat):
            decide_for_mob = DECISIONS[asked.kind].by_rules
            if decide_for_mob is None:  # pragma: no cover - config refuses mobs where other decisions arise
                raise AssertionError(f"a mob cannot decide {asked.kind!r}")
            decide_for_mob(ctx, asked.seat)
            return True
    return False


def waiting(s: GameState) -> list[Need]:
    """Who must decide what: where ``step`` stops, it says what it waits for. Looked at without moving the game
    (nothing is emitted); a state that would still move on by itself waits for nobody yet. Remembered in the
    state for its seq (every event moves seq on), and set by ``advance`` where it stops."""
    seq = s.seq
    if s.asked_at is not None and s.asked_at[0] == seq:
        return list(s.asked_at[1])
    ctx = Ctx(s, looking=True)
    try:
        moved = step(ctx)
    except (Unsettled, AssertionError):
        # still moving on by itself, or a state between two events of one step (a replay may stop there), from
        # which no step starts; advance() runs the same steps without this guard, so play never hides a fault
        return []
    found = [] if moved else ctx.asked
    if s.seq == seq:  # remembered for the seq it was worked out at
        s.asked_at = (seq, list(found))
    return found


def awaits(s: GameState, seat: int, kind: str) -> bool:
    """Is ``seat`` asked for a decision of ``kind`` now (``need(seat, kind) in waiting(s)``, without the copy)?"""
    asked = s.asked_at
    found = asked[1] if asked is not None and asked[0] == s.seq else waiting(s)
    return need(seat, kind) in found


def step(ctx: Ctx) -> bool:
    """Emit the next automatic event(s). False when nothing can happen without a decision; then ``ctx.asked``
    says which decisions the game waits for (``ctx.wait``)."""
    s = ctx.state
    if s.status == "finished":
        return ctx.wait()
    # only an Overlord game ends when the deck and every year are out of cards (R170)
    if s.variant.overlord is not None and out_of_cards_step(ctx):
        return True
    play = s.play  # read once: every step of the flow below looks at the turn
    if play.draw_queue:
        if s.items.draw_asked and play.draw_queue[0][1] == "draw phase":
            # R118: a reactive item may stop this draw: its holders answer first
            return ctx.wait(*(need(seat, "draw_reaction") for seat in s.items.draw_asked))
        return draw_step(ctx) or ctx.wait(need(chooser(ctx), "choose_year"))  # R34: the deck is empty
    if s.pending.triggers:
        fire_triggers(ctx)
        return True
    act = play.act
    if act is not None and act.from_effect:  # a war an effect started runs before the effect goes on
        return war_step(ctx) or ctx.wait(*_war_needs(s, act))
    if s.pending.effects:
        return effect_step(ctx) or ctx.wait(*_effect_needs(s))
    if s.stage != "turn":
        return _setup_step(ctx)
    phase = play.phase
    if phase == "action" and not play.action_done:
        # Blasphemy (R171, A48): only a game with a Blasphemy card gives its tokens
        if s.variant.blasphemy is not None and token_step(ctx):
            return True
        if act is None:  # R28: the current player declares an action, or first uses a consumable (R103)
            current = play.current
            assert current is not None
            if consumables.usable(s, current):
                return ctx.wait(need(current, "declare"), need(current, "use_item"))
            return ctx.wait(need(current, "declare"))
        return action_step(ctx)
    if phase == "action" and s.undo is not None:  # RULINGS "Undo": wait for whoever may claim an undo
        return pause_step(ctx) or ctx.wait(*(need(seat, "undo") for seat in s.undo.waiting))
    if phase == "end" and play.current is not None and consumables.usable(s, play.current):
        # R103: the action is over and the End Phase's effects have resolved: a consumable may still be used
        return ctx.wait(need(play.current, "end_phase"), need(play.current, "use_item"))
    phase_step(ctx)
    return True


def _setup_step(ctx: Ctx) -> bool:
    """Setup, before the first turn: True if a step was taken; False with ``ctx.asked`` set when it waits."""
    s = ctx.state
    if s.stage == "setup" and s.classic.artificers_done:
        starting_step(ctx)  # R172: the gifts are over; soldiers and cards follow
        return True
    if s.stage == "setup":
        setup_step(ctx)
        return True
    if s.stage == "artificers":
        return artificers.setup_step(ctx) or ctx.wait(need(s.classic.gifting[0], "artificer_gift"))
    if s.stage == "leaders":
        if all_chosen(s):
            starting_step(ctx)
            return True
        return selection_step(ctx) or ctx.wait(*(need(seat, "choose_leader") for seat in choosers(s)))
    if s.stage == "deal":
        after_deal_step(ctx)
        return True
    if s.stage == "quick_reveal":
        if s.play.reveal_queue:
            cards = s.players[s.play.reveal_queue[0]].unrevealed
            if len(cards) == 1:
                reveal(ctx, s.play.reveal_queue[0], cards[0], full=True, reason="setup")
                return True
            return ctx.wait(need(s.play.reveal_queue[0], "setup_reveal"))  # R164
        ctx.emit(ev.TurnBegan(seat=s.first_remaining(), turn=1))  # S2: never a player who resigned
        return True
    raise AssertionError(f"setup stage {s.stage}")  # pragma: no cover


def action_step(ctx: Ctx) -> bool:
    s = ctx.state
    act = s.play.act
    assert act is not None
    if act.sanctioned:
        return sanction_step(ctx) or ctx.wait(need(act.declarer, "sanction_discard"))  # R110
    ch = s.calls.challenge
    if ch is not None:
        if challenge_step(ctx):
            return True
        if ch.stage == "proof":  # R57, A10
            return ctx.wait(need(ch.claimant, "prove"))
        return ctx.wait(need(ch.caller, "pay" if penalty_choices(s) else "take_brig"))  # R58, R105
    if act.stage == "declared":
        asked = asked_for_action(s, act)
        if asked:  # a mob's action is no claim (R43): its window only asks WALL holders to guard
            open_window(ctx, act.declarer, act.claim or "", "action", asked)
        else:
            ctx.emit(ev.ActionResolving(seat=act.declarer, action=act.action))
        return True
    if s.calls.window is not None:
        waiting_for = s.calls.window.waiting_for
        if waiting_for:
            return ctx.wait(*needs("react", tuple(waiting_for)))
        close_window(ctx, s.calls.window.closing or "answers")
        return True
    if act.stage == "guards":
        for g in act.guards:
            if g.status == "claimed" and g.means == "card":
                asked = asked_for_guard(s, g.seat)
                if asked:
                    assert act.claim is not None
                    open_window(ctx, g.seat, act.claim, "guard", asked)
                    return True
            if g.status in ("claimed", "closed"):
                # R68: a WALL guard is no claim; a card guard nobody called stands
                ctx.emit(ev.GuardHeld(seat=g.seat, means=g.means))
                return True
        guarded = [g.seat for g in act.guards if g.status == "stands"]
        ctx.emit(ev.ActionResolving(seat=act.declarer, action=act.action, guarded_by=guarded))
        return True
    if act.stage == "execute":
        return execute_step(ctx) or ctx.wait(*_execution_needs(s, act))
    raise AssertionError(f"action stage {act.stage}")  # pragma: no cover


def _execution_needs(s: GameState, act: Act) -> list[Need]:
    """What a resolving action stopped for (``execute_step`` returned False)."""
    if act.action == "barracks":
        return [need(act.queue[0], "barracks_discard")]  # R48
    if act.action == "laboratory":
        return [need(act.declarer, "put_back")]  # R52, A21
    if act.action == "war":
        return _war_needs(s, act)
    return [need(act.declarer, "take_sanction")]  # R105: a SANCTION to take from another mat


def _war_needs(s: GameState, act: Act) -> list[Need]:
    """What a war stopped for, whether the turn's action or an effect's: the spoils, or the loser's reveals."""
    if s.variant.offer is not None:  # Blasphemy: a war's winner may take a token (R90, R171)
        return [need(s.variant.offer[0], "spoils")]
    assert act.war is not None and act.war.loser is not None
    return [need(act.war.loser, "war_reveal")]  # R83


def _effect_needs(s: GameState) -> list[Need]:
    d = decision(s)
    assert d is not None
    return [need(d.seat, "effect_order" if d.kind == "order" else "effect_choice")]
