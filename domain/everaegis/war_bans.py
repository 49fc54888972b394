"""Who may be in a war with whom: every rule that keeps two players out of a war, in one place.

The War action (R45, R77), a mob's War (R173), and a war a card or item starts (the SWORD, an effect's ``war``
step) all ask ``war_targets``. What keeps a war from happening:
- R107: the two parties of the TREATY cannot go to war with each other;
- R163: allies, unless the game option ``ally_war`` allows it;
- R86, R93: a condition in effect that no player can go to war (the Chapel's narrated effect);
- the TORCH (p.23): "The player with this item cannot be in a war with any other players.";
- the PENGUIN EFFIGY (p.23): "With this item, stay out of war with the Grand Penguin";
- the TARGET (p.23): "When players go to war, they must have war with the player that has the TARGET." Whoever
  goes to war while another player holds it may attack only that player; if that war is barred, there is no war.
  Its own holder goes to war as usual (they cannot attack themselves). See docs/rulings.md, "Classic items".
"""

from __future__ import annotations

from aegis.domain.everaegis.state import GameState

Refusal = tuple[str, str]  # (the rule, its words)


def barred(s: GameState, attacker: int, defender: int) -> Refusal | None:
    """Why ``attacker`` and ``defender`` cannot be in a war with each other, or None."""
    if attacker == defender:
        return "R45", "a player cannot go to war with themselves"
    if s.partner(attacker) == defender:
        return "R107", "TREATY partners cannot go to war with each other"
    if s.variant.allied(attacker, defender):
        if s.config.option("ally_war") != 1:
            return "R163", "that player is your ally, and this game's option ally_war is 0"
        if "opponent" in _war_text(s, attacker):  # the text on the attacker's own mat (Hooded Fox's, R154)
            return "R163", "your mat's War says to select an opponent, and your allies are not opponents"
    return _item_bans(s, attacker, defender)


def _war_text(s: GameState, seat: int) -> str:
    """The War text of ``seat``'s leader mat, where the game plays it (empty: the Simpleton side's 'another player')."""
    entry = s.leader_entry(s.players[seat].leader)
    if entry is None or entry.get("plain"):
        return ""
    return str((entry.get("actions") or {}).get("war") or "")


def _item_bans(s: GameState, attacker: int, defender: int) -> Refusal | None:
    for holder, item, _step in s.holding("out_of_war"):
        if holder in (attacker, defender):
            return "R86", f"{s.players[holder].name} holds the {item}: they cannot be in a war with any other players (p.23)"
    for holder, item, step in s.holding("out_of_war_with_leader"):
        led = s.seat_led_by(step["leader"])
        if led is not None and {holder, led} == {attacker, defender}:
            return "R86", f"{s.players[holder].name} holds the {item}: they stay out of war with the {step['leader']} (p.23)"
    return None


def war_targets(s: GameState, attacker: int) -> list[int]:
    """The remaining players ``attacker`` may go to war with now, by seat (empty when no war may happen)."""
    if s.in_effect("no_war"):  # R86, R93: no player can go to war with another
        return []
    return [t for t in s.remaining() if _refusal(s, attacker, t) is None]


def is_war_target(s: GameState, attacker: int, defender: int) -> bool:
    """Is ``defender`` one of ``war_targets(s, attacker)``? (Without working out the others: a check.)"""
    if s.in_effect("no_war") or not 0 <= defender < s.seats or s.players[defender].eliminated:
        return False
    return _refusal(s, attacker, defender) is None


def why_not(s: GameState, attacker: int, defender: int) -> Refusal | None:
    """Why a war of ``attacker`` on ``defender`` cannot happen now, or None if it can."""
    if s.in_effect("no_war"):
        return "R86", "no player can go to war with another while that condition is in effect (R93)"
    return _refusal(s, attacker, defender)


def _refusal(s: GameState, attacker: int, defender: int) -> Refusal | None:
    reason = barred(s, attacker, defender)
    if reason is not None:
        return reason
    forced = [holder for holder, _item, _step in s.holding("war_only_with_holder") if holder != attacker]
    if forced and defender != forced[0]:  # the TARGET: only its holder may be attacked
        name = s.players[forced[0]].name
        return "R86", f"{name} holds the TARGET: when players go to war, they must have war with them (p.23)"
    return None
