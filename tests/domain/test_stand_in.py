"""Ruling S3: the bot that decides for a person whose clock ran out. The timeout is announced to everyone and the
bot's policy is public, so what it decides must not tell anyone the seat's face-down cards."""

from __future__ import annotations

from aegis.domain.everaegis.cautious_bot import CautiousBot, StandInBot
from tests.helpers import Table

HANDS = (["Barracks"], ["Treasury"], ["Library"], ["Mason"], ["Laboratory"], ["Temple"])


def _choices(bot, seat, table_of):
    """What ``bot`` (the same seed each time) chooses for ``seat`` in twin games that differ only in its hand."""
    out = []
    for hand in HANDS:
        t = table_of(hand)
        out.append(bot(7).choose(t.view(seat), t.prompts(seat)))
    return out


def _at_declare(hand):
    return Table(3, rig={"hands": {"0": hand, "1": ["Temple"], "2": ["Mason"]}, "first_player": 0})


def _at_react(hand):
    t = Table(3, rig={"hands": {"0": ["Barracks"], "1": hand, "2": ["Mason"]}, "first_player": 0})
    t.declare(0, "barracks")
    return t


def test_s3_the_stand_in_declares_the_same_whatever_the_seat_holds():
    chosen = _choices(StandInBot, 0, _at_declare)
    assert all(c == chosen[0] for c in chosen), chosen
    assert len({str(c) for c in _choices(CautiousBot, 0, _at_declare)}) > 1  # the cautious bot claims what it holds


def test_s3_the_stand_in_answers_a_claim_the_same_whatever_the_seat_holds():
    chosen = _choices(StandInBot, 1, _at_react)
    assert all(c == chosen[0] for c in chosen), chosen
    assert len({str(c) for c in _choices(CautiousBot, 1, _at_react)}) > 1  # the cautious bot guards with its Barracks
