"""Overlord (R170, A47): one player against a team of all the others.

Rulings (docs/rulings.md, "Overlord"):
- The Overlord is the seat named by the game option ``overlord_seat``, and the first player is the seat
  after it; with the default -1, the Overlord is the seat before the first player (chosen at creation or
  at random, R18). Either way the Overlord always goes last in the round.
- After each of its turns, the Overlord takes another one while the turns it has begun in a row are fewer
  than its remaining opponents (counted then). A skipped turn (BRIG) counts as one of them.
- The Overlord cannot be eliminated; nobody wins by unrevealed cards in the Conquest Phase (thresholds).
- The game ends, from the first turn on, as soon as the deck and every year are out of cards, even in the
  middle of an action: the rest of that action does not happen. The estate deck (Classic) is not the deck
  or a year, so it never refills the deck in an Overlord game. Under Rubble Rouser the rubble forms the deck
  whenever the deck is empty, before any year (R158), so the game ends only once the rubble is empty too.
- Scoring (A47): the team's total is the unrevealed cards of every opponent of the Overlord, eliminated ones
  included (an eliminated player has revealed every card, R123, so adds 0). The higher total wins; the
  team's winners are its remaining members. Equal totals: a draw, as no side has the highest total.
- A win by any other condition (R11, a Blasphemy win) by a team member is the team's: its remaining
  members win. The last player remaining still wins (R11).
"""

from __future__ import annotations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import GameState
from aegis.domain.everaegis.variant_config import overlord_option


def first_player_after_overlord(config: Config) -> int | None:
    """The first player when the option names the Overlord's seat: the seat after it (R170: it goes last)."""
    if "overlord" not in config.variants:
        return None
    seat = overlord_option(config.options)
    return None if seat < 0 else (seat + 1) % config.seats


def choose(ctx: Ctx) -> None:
    s = ctx.state
    assert s.play.first_player is not None
    seat = overlord_option(s.config.options)
    if seat >= 0:
        ctx.emit(ev.OverlordChosen(seat=seat, method="named at creation (game option overlord_seat)"))
    else:
        last = (s.play.first_player - 1) % s.seats
        ctx.emit(ev.OverlordChosen(seat=last, method="the seat before the first player, so it goes last (R170)"))


def opponents(s: GameState) -> list[int]:
    """The Overlord's remaining opponents."""
    return [seat for seat in s.remaining() if seat != s.variant.overlord]


def plays_again(s: GameState) -> bool:
    """R170: the Overlord's turns in a row number its remaining opponents."""
    o = s.variant.overlord
    return o is not None and s.play.current == o and not s.players[o].eliminated and s.variant.streak < len(opponents(s))


def immune(s: GameState, seat: int) -> bool:
    """R170: the Overlord cannot be eliminated."""
    return seat == s.variant.overlord


def share(s: GameState, winners: list[int]) -> list[int]:
    """A team member's win is the team's: its remaining members win (ruling)."""
    o = s.variant.overlord
    if o is None or not any(w != o for w in winners):
        return winners
    return sorted(set(winners) | set(opponents(s)))
