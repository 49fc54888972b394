"""What a reader may know: the one place where Ever Aegis decides visibility (A53, RULINGS
"Hidden information").

- A seat sees its own cards, every revealed card, every card whose identity was shown to all (a
  proven claim, marked by a discovery token under Discovery, R160), and cards it legitimately knows
  (those it put on the deck with a Laboratory).
- Under Rubble Rouser everyone sees the rubble, face up, card by card (R158).
- Nobody sees the deck order, the seed, fresh card ids, or another seat's answer in an open window.
- Once the game is over everyone is omniscient: the full log, every hand, the seed.
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.flow import waiting
from aegis.domain.everaegis.setup import public_years
from aegis.domain.everaegis.state import Card, GameState, Player
from aegis.domain.everaegis.variants import view as variant_view
from aegis.domain.kernel.redaction import OMNISCIENT, SPECTATOR, Perspective, reader, redact_event

__all__ = ["OMNISCIENT", "SPECTATOR", "effective", "redact", "view"]


def effective(state: GameState, perspective: Perspective) -> Perspective:
    """Everyone reads omnisciently once the game is finished (A53 ruling)."""
    return reader(perspective, finished=state.status == "finished")


def redact(state: GameState, event: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
    """An event dict as ``perspective`` may see it, given the game's current status."""
    return redact_event(event, effective(state, perspective))


def _card_view(card: Card, possessor: int | None, who: Perspective, s: GameState | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": card.id, "revealed": card.revealed}
    if who == OMNISCIENT or card.revealed or card.public or (isinstance(who, int) and card.known_to(who, possessor)):
        out["name"] = card.name
        estate = s.estate(card.name) if s is not None else None
        if estate is not None:  # A54: say what the card does, or that its text is not printed
            out["estate"] = {"type": estate["type"], "text_known": estate["text_known"], "plain": estate["plain"]}
    if card.public and not card.revealed:
        out["known_to_all"] = True
    if card.discovered:  # Discovery (R160): the token on the card tells everyone what it is; a tree token on an estate
        out["discovery"] = "tree" if s is not None and s.estate(card.name) is not None else "discovery"
    return out


def view(state: GameState, perspective: Perspective) -> dict[str, Any]:
    """The table as ``perspective`` may know it. Cards the reader may not know have no ``name``."""
    who = effective(state, perspective)
    s = state
    players = []
    for p in s.players:
        players.append(
            {
                "seat": p.seat,
                "name": p.name,
                "soldiers": p.soldiers,
                "eliminated": p.eliminated,
                "cards": [_card_view(c, p.seat, who, s) for c in p.cards],
                "revealed": len(p.revealed),
                "unrevealed": len(p.unrevealed),
                "sanctions": list(p.sanctions),
                "items": _items_of(s, p.seat),
                **({"sacrifices": p.sacrifices} if p.sacrifices else {}),
                **_leader_of(s, p, who),
                "mob": s.is_mob(p.seat),  # R173: played by the D8
                "resigned": p.seat in s.departures.resigned,  # S2: left the game of their own accord
                "abandoned": p.seat in s.departures.abandoned,  # S3: a bot plays the seat for the rest of the game
            }
        )
    deck: dict[str, Any] = {"size": len(s.deck)}
    known_top = []
    for card in s.deck:
        shown = _card_view(card, None, who, s)
        if "name" not in shown:
            break
        known_top.append(shown)
    if known_top:
        deck["known_top"] = known_top  # A21: a Laboratory user knows what they put on top
    out: dict[str, Any] = {
        "ruleset": "ever-aegis",
        "variants": list(s.config.variants),
        "mobs": list(s.config.mobs),
        "perspective": perspective,
        "you": perspective if isinstance(perspective, int) else None,
        "seq": s.seq,
        "status": s.status,
        "turn": s.play.turn,
        "current": s.play.current,
        "phase": s.play.phase,
        "stage": s.stage,
        "commitment": s.commitment,
        "players": players,
        "deck": deck,
        "years": public_years(s.years),
        "reserve": _reserve(s),
        "action": _action_view(s),
        "window": _window_view(s, who),
        "challenge": _challenge_view(s),
        "awaiting": [{"seat": n.seat, "kind": n.kind} for n in waiting(s)],
        "result": _result_view(s),
    }
    if s.pending.effects:  # card texts are public: so is an effect's progress (R92, R93)
        out["effects"] = [
            {"id": p.id, "source": p.source, "owner": p.owner, "steps": p.steps, "next_step": p.index, "work": p.work}
            for p in s.pending.effects
        ]
    if s.classic.components is not None:
        out["estate_deck"] = {"size": len(s.classic.estate_deck)}
        out["selection"] = s.config.selection
        if s.classic.dictator is not None:
            out["dictator"] = s.classic.dictator
        out["components"] = {
            "source": s.classic.components["source"],
            "plain_estates": sorted(e["name"] for e in s.classic.components["estates"] if e["plain"]),
            # estate cards that play only the sentences the book prints of them (the rest of the card waits, A54)
            "partial_estates": sorted(
                e["name"] for e in s.classic.components["estates"] if not e["plain"] and e["text_known"] != "full"
            ),
        }
    if s.config.option("rubble_rouser"):
        out["rubble"] = [{"id": c.id, "name": c.name} for c in s.rubble]  # R158: face up, anyone may look through it
    out.update(variant_view(s))  # allies, the Overlord, the Blasphemy card and tokens: public (R163, R170, R171)
    if who == OMNISCIENT:
        out["seed"] = s.seed if s.status == "finished" else None
        out["deck"]["cards"] = [{"id": c.id, "name": c.name} for c in s.deck]
    return out


def _leader_of(s: GameState, p: Player, who: Perspective) -> dict[str, Any]:
    """Classic: the leader (marked plain if its text is not printed, A54); during Limited Selection the mats
    drawn and the mat kept face down are known to their player only (R19)."""
    if s.classic.components is None:
        return {}
    entry = s.leader_entry(p.leader)
    out: dict[str, Any] = {
        "leader": p.leader if s.config.selection != "simpleton" else "Simpleton side",
        "leader_plain": bool(entry and entry["plain"]),
    }
    if who in (OMNISCIENT, p.seat):
        if p.mats:
            out["mats"] = list(p.mats)
        if p.kept:
            out["kept"] = p.kept
    return out


def _items_of(s: GameState, seat: int) -> list[str]:
    items = []
    if s.items.wall == seat:
        items.append("WALL")
    if s.items.treaty == seat:
        items.append("TREATY")
    if s.items.quill == seat:
        items.append("INK QUILL")
    items.extend(["BRIG"] * s.players[seat].brigs)
    items.extend(s.items_of(seat))
    return items


def _action_view(s: GameState) -> dict[str, Any] | None:
    act = s.play.act
    if act is None:
        return None
    out: dict[str, Any] = {
        "declarer": act.declarer,
        "action": act.action,
        "plan": act.plan,
        "claim": act.claim,
        "sanctioned": act.sanctioned,
        "stage": act.stage,
        "guards": [{"seat": g.seat, "means": g.means, "status": g.status} for g in act.guards],
    }
    if act.war is not None:
        w = act.war
        out["war"] = {"attacker": w.attacker, "defender": w.defender, "stage": w.stage, "winner": w.winner, "loser": w.loser}
    return out


def _window_view(s: GameState, who: Perspective) -> dict[str, Any] | None:
    w = s.calls.window
    if w is None:
        return None
    answers = {str(seat): a if who in (OMNISCIENT, seat) else {"answered": True} for seat, a in sorted(w.answers.items())}
    return {
        "id": w.id,
        "claimant": w.claimant,
        "claim": w.claim,
        "about": w.about,
        "asked": list(w.asked),
        "answers": answers,
        "waiting_for": w.waiting_for,
        "deadline": w.deadline,
    }


def _result_view(s: GameState) -> dict[str, Any] | None:
    if s.status != "finished":
        return None
    return {"result": s.outcome.result, "winners": s.outcome.winners, "reason": s.outcome.end_reason}


def _challenge_view(s: GameState) -> dict[str, Any] | None:
    ch = s.calls.challenge
    if ch is None:
        return None
    return {"caller": ch.caller, "claimant": ch.claimant, "claim": ch.claim, "about": ch.about, "stage": ch.stage}


def _reserve(s: GameState) -> dict[str, int]:
    """The pieces left in the reserve: the SANCTIONS and BRIGS, and in Classic each item of the game's box, which
    decides whether a gain overflows (R105): public, as the pieces on the table are."""
    out = {"SANCTION": s.items.sanction_supply, "BRIG": s.items.brig_supply}
    for entry in (s.classic.components or {}).get("items", []):
        out[entry["name"]] = s.supply(entry["name"])
    return out
