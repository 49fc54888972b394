"""The six phases of a turn, elimination and victory (R23-R33, R122-R123, R9-R12, R161-R169, A36, A37)."""

from __future__ import annotations

from aegis.domain.everaegis import artificers
from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.alliances import all_allied
from aegis.domain.everaegis.blasphemy import WIN_TOKENS
from aegis.domain.everaegis.blasphemy import wins as blasphemy_wins
from aegis.domain.everaegis.cards import reveal
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effects import at_phase
from aegis.domain.everaegis.evolve import ELIMINATION_REVEAL
from aegis.domain.everaegis.items import discard_all_items
from aegis.domain.everaegis.overlord import immune, plays_again
from aegis.domain.everaegis.overlord import opponents as overlord_opponents
from aegis.domain.everaegis.soldiers import change_soldiers
from aegis.domain.everaegis.state import GameState
from aegis.domain.everaegis.variants import winners as variant_winners
from aegis.domain.everaegis.wins import alternate_win


def next_seat(s: GameState) -> int:
    """The next remaining player clockwise (R23); eliminated players always skip (R25)."""
    assert s.play.current is not None
    if plays_again(s):  # R170: the Overlord takes one turn per remaining opponent, in a row
        return s.play.current
    for seat in [*s.turn_order_from(s.play.current)[1:], s.play.current]:
        if not s.players[seat].eliminated:
            return seat
    raise AssertionError("no remaining player: the game should have ended")


def phase_step(ctx: Ctx) -> None:
    """Move the turn on by one step when no player decision is needed."""
    s = ctx.state
    seat = s.play.current
    assert seat is not None
    t = s.config.thresholds
    phase = s.play.phase
    if (s.items.held or artificers.active(s)) and held_outcomes(ctx):
        return
    if phase is None:
        if s.players[seat].brigs and s.config.option("brig_skips_turn"):
            # A37 ruling (game option brig_skips_turn): a BRIG holder skips their next turn, then that BRIG is discarded
            ctx.emit(ev.TurnSkipped(seat=seat, reason="BRIG (A37 ruling)"))
            ctx.emit(ev.ItemDiscarded(seat=seat, item="BRIG", reason="served its skipped turn (A37 ruling)"))
            return
        ctx.emit(ev.PhaseBegan(seat=seat, phase="begin"))
        at_phase(ctx, seat, "begin")  # R26, R93: run before the phase moves on (flow runs effects first)
    elif phase == "begin":
        if t.begin_soldier_loss:
            change_soldiers(ctx, seat, -t.begin_soldier_loss, "plague (R169)")
        ctx.emit(ev.PhaseBegan(seat=seat, phase="draw"))
    elif phase == "draw":
        ctx.emit(ev.PhaseBegan(seat=seat, phase="action"))
    elif phase == "action":
        assert s.play.action_done
        ctx.emit(ev.PhaseBegan(seat=seat, phase="end"))
        at_phase(ctx, seat, "end")  # R29, R93
    elif phase == "end":
        ctx.emit(ev.PhaseBegan(seat=seat, phase="demise"))
    elif phase == "demise":
        demise(ctx)
        if s.status == "finished":
            return
        if s.players[seat].eliminated:
            ctx.emit(ev.TurnEnded(seat=seat, turn=s.play.turn))
        else:
            ctx.emit(ev.PhaseBegan(seat=seat, phase="conquest"))
    elif phase == "conquest":
        win = t.win_unrevealed
        if win is not None and len(s.players[seat].unrevealed) >= win:  # R10, R31
            end_game(ctx, "win", [seat], f"{win} or more unrevealed cards in the Conquest Phase (R9a, R31)")
            return
        if (reason := alternate_win(s, seat)) is not None:
            end_game(ctx, "win", [seat], reason)
            return
        if blasphemy_wins(s, seat):  # R171
            end_game(ctx, "win", [seat], f"{WIN_TOKENS} Blasphemy tokens in the Conquest Phase (R171)")
            return
        ctx.emit(ev.TurnEnded(seat=seat, turn=s.play.turn))
    elif phase == "over":
        rounds = s.config.option("stalemate_rounds")  # ruling S1, a game option (0: off)
        if rounds and s.outcome.quiet_turns >= rounds * len(s.remaining()):
            end_game(ctx, "draw", [], f"stalemate: {rounds} rounds without a card gained, moved or flipped (service ruling S1)")
            return
        ctx.emit(ev.TurnBegan(seat=next_seat(s), turn=s.play.turn + 1))
    else:  # pragma: no cover
        raise AssertionError(phase)


def held_outcomes(ctx: Ctx) -> bool:
    """What holding items decides at once, at the next step of the turn once the action, war or effect that gave
    the items is over (docs/rulings.md, A33): the BONES eliminate, then the Artificers win. True if the game moved."""
    s = ctx.state
    if s.items.held and item_eliminations(ctx):
        return True
    for seat in s.remaining_in_turn_order():  # R172 "When a player has X different types of items, they win"
        reason = artificers.wins(s, seat)
        if reason is not None:
            end_game(ctx, "win", [seat], reason)
            return True
    return False


def item_eliminations(ctx: Ctx) -> bool:
    """The BONES (p.22): "When a player has 3 BONES, they are eliminated." An item whose condition names a count
    eliminates its holder once they hold that many pieces. True if anyone was eliminated."""
    s = ctx.state
    doomed_now: list[tuple[int, str]] = []
    for seat, item, step in s.holding("eliminated_at"):
        if s.items.held[item].get(seat, 0) >= step["count"] and not immune(s, seat) and seat not in [d for d, _ in doomed_now]:
            doomed_now.append((seat, f"holds {step['count']} {item}S: they are eliminated (p.22)"))
    if not doomed_now:
        return False
    for seat, reason in doomed_now:
        eliminate(ctx, seat, reason)
    check_last_remaining(ctx)
    current = s.play.current
    ended = s.status == "finished" or s.play.phase in ("demise", "over")
    if not ended and current is not None and s.players[current].eliminated:
        ctx.emit(ev.TurnEnded(seat=current, turn=s.play.turn))  # their turn ends at once, as a resignation's does (S2)
    return True


def doomed(s: GameState) -> list[tuple[int, str]]:
    """R30: every player is checked, not only the current one; all who qualify go at once."""
    t = s.config.thresholds
    items = artificers.active(s)  # Artificers: a player with no item goes too (asked once, not per seat)
    out = []
    for seat in s.remaining_in_turn_order():
        p = s.players[seat]
        if immune(s, seat):  # R170: the Overlord cannot be eliminated
            continue
        if t.demise_revealed is not None and len(p.revealed) >= t.demise_revealed:
            out.append((seat, f"{t.demise_revealed} or more revealed cards (R30, R122)"))
        elif t.survival and not p.unrevealed:
            out.append((seat, "only revealed cards, or no cards (R166)"))
        elif t.zero_soldiers_eliminates and p.soldiers == 0:
            out.append((seat, "no soldiers in the Demise Phase (R169)"))
        elif items and (reason := artificers.doomed_reason(s, seat)) is not None:
            out.append((seat, reason))
    return out


def demise(ctx: Ctx) -> None:
    s = ctx.state
    for seat, reason in doomed(s):
        eliminate(ctx, seat, reason)
    check_last_remaining(ctx)


def eliminate(ctx: Ctx, seat: int, reason: str) -> None:
    """R123: takes no more turns, discards all items and soldiers, keeps their cards and reveals them all."""
    s = ctx.state
    ctx.emit(ev.PlayerEliminated(seat=seat, reason=reason))
    for card in s.players[seat].unrevealed:
        reveal(ctx, seat, card, full=True, reason=ELIMINATION_REVEAL)
    discard_all_items(ctx, seat, "eliminated (R123)")
    change_soldiers(ctx, seat, -s.players[seat].soldiers, "eliminated (R123)", loss=False)


def check_last_remaining(ctx: Ctx) -> None:
    """R11, R12, A36: the last remaining player wins at once; with none remaining the game is a draw."""
    s = ctx.state
    remaining = s.remaining()
    if len(remaining) == 1:
        end_game(ctx, "win", remaining, "the only player remaining (R11)")
    elif not remaining:
        end_game(ctx, "draw", [], "no players remaining (R12)")
    elif all_allied(s):
        end_game(ctx, "win", remaining, "every remaining player is an ally of the others: they share the victory (A51 ruling)")


def end_game(ctx: Ctx, result: str, winners: list[int], reason: str) -> None:
    winners = variant_winners(ctx.state, winners)  # allies (R163), the Overlord's team (R170)
    ctx.emit(ev.GameEnded(result=result, winners=winners, reason=reason, seed=ctx.state.seed))


def out_of_cards_step(ctx: Ctx) -> bool:
    """R170: end and score once the deck and every year are empty (from the first turn on)."""
    s = ctx.state
    o = s.variant.overlord
    if o is None or s.stage != "turn" or s.deck or s.years or s.rubble:  # R158: the rubble forms the deck first
        return False
    team = [seat for seat in range(s.seats) if seat != o]
    team_total = sum(len(s.players[seat].unrevealed) for seat in team)
    own = len(s.players[o].unrevealed)
    ctx.emit(ev.OverlordScored(overlord=o, overlord_total=own, team=team, team_total=team_total))
    why = f"the deck and every year are out of cards: the team has {team_total} unrevealed cards, the Overlord {own}"
    if team_total == own:
        end_game(ctx, "draw", [], f"{why}; equal totals are a draw (R170, A47 ruling)")
    elif team_total > own:
        end_game(ctx, "win", overlord_opponents(s), f"{why}; the team wins (R170)")
    else:
        end_game(ctx, "win", [o], f"{why}; the Overlord wins (R170)")
    return True
