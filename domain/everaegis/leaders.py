"""Leader selection in a Classic game (R17, R19-R21; A45 rulings in docs/rulings.md).

- Limited (R19): the mats are shuffled; each player draws ``limited_mats`` (3) unseen by the others, keeps
  1 face down and puts the rest back in the box; all kept mats are shown when the game begins.
- Drafting (R20): the first player draws players + 2 mats, keeps 1 (shown to all) and passes the rest to a
  player who has no leader yet, who keeps 1 and passes on; the last player's leftovers go back in the box.
- Freeform (R21): in turn order from the first player, each player picks any mat nobody has picked.
- Simpleton (R22): everyone plays the back side; no selection happens.

Only the mats recorded in ``ComponentsChosen`` can be drawn or picked (see ``components``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Choice, Option, Param, Prompt


def pool(s: GameState) -> list[str]:
    """Mats still in the box: recorded for the game, and nobody's leader, kept mat or mat in hand."""
    assert s.classic.components is not None
    taken = {p.leader for p in s.players} | {p.kept for p in s.players}
    for p in s.players:
        taken.update(p.mats)
    return [e["name"] for e in s.classic.components["leaders"] if e["name"] not in taken]


def _deal(ctx: Ctx, seat: int, count: int) -> None:
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    mats = rng.shuffle(pool(s))[:count]
    ctx.emit(ev.LeaderMatsDealt(seat=seat, mats=mats, knowers=[seat], rng=[start, rng.counter]))


def selectors(s: GameState) -> list[int]:
    """The players who select a leader: everyone except the mobs, who play the Simpleton mat (A50 ruling), and a
    player who resigned before a choice was asked of them (S2: a choice already asked stays theirs)."""
    return [seat for seat in s.turn_order_from(s.play.first_player or 0) if not s.is_mob(seat) and _selects(s, seat)]


def _selects(s: GameState, seat: int) -> bool:
    p = s.players[seat]
    return not p.eliminated or bool(p.leader or p.kept or p.mats) or s.classic.selecting[:1] == [seat]


def begin_selection(ctx: Ctx) -> None:
    s = ctx.state
    mode = s.config.selection
    order = selectors(s)
    if mode == "limited":
        ctx.emit(ev.LeaderSelectionBegan(mode=mode))
        for seat in order:
            _deal(ctx, seat, s.config.option("limited_mats"))
    elif mode == "drafting":
        ctx.emit(ev.LeaderSelectionBegan(mode=mode, order=order[:1]))
        _deal(ctx, order[0], len(order) + 2)
    else:
        ctx.emit(ev.LeaderSelectionBegan(mode=mode, order=order))


def selection_step(ctx: Ctx) -> bool:
    """Show the Limited mats once all are kept, as the game begins (R19). False while players choose."""
    s = ctx.state
    if s.config.selection == "limited" and all(s.players[seat].kept for seat in selectors(s)):
        for seat in selectors(s):
            mat = s.players[seat].kept
            assert mat is not None
            ctx.emit(ev.LeaderChosen(seat=seat, mat=mat, plain=_plain(s, mat)))
        return True
    return False


def all_chosen(s: GameState) -> bool:
    return all(s.players[seat].leader for seat in selectors(s))


def choosers(s: GameState) -> list[int]:
    """Who must choose a leader now: every Limited player who has not kept a mat, or the next picker."""
    if s.config.selection == "limited":
        return [p.seat for p in s.players if p.mats and p.kept is None]
    return s.classic.selecting[:1]


def _plain(s: GameState, mat: str) -> bool:
    entry = s.leader_entry(mat)
    return bool(entry and entry["plain"])


def _label(s: GameState, mat: str) -> str:
    entry = s.leader_entry(mat)
    if entry is None or not entry["plain"]:
        return mat
    return f"{mat} (text not printed in the rulebook: a plain mat, Laboratory and Library without effect)"


def _leader_prompt(s: GameState, seat: int) -> Prompt:
    how = {"limited": "keep 1 of your mats face down (R19)", "drafting": "keep 1 mat and pass the rest (R20)"}
    text = f"{s.players[seat].name}: " + how.get(s.config.selection, "pick your leader mat (R21)")
    return Prompt(seat, "choose_leader", text, tuple(_options(s, seat)))


def _options(s: GameState, seat: int) -> list[Option]:
    me = s.players[seat]
    mode = s.config.selection
    if mode == "limited":
        return [
            Option(f"Keep {_label(s, m)} face down", {"type": "choose_leader", "seat": seat, "mat": m}, "leader") for m in me.mats
        ]
    if mode == "freeform":
        return [Option(f"Play {_label(s, m)}", {"type": "choose_leader", "seat": seat, "mat": m}, "leader") for m in pool(s)]
    waiting = [p for p in selectors(s) if s.players[p].leader is None and p != seat]
    if not waiting:
        return [Option(f"Keep {_label(s, m)}", {"type": "choose_leader", "seat": seat, "mat": m}, "leader") for m in me.mats]
    # R20: keep any of your mats and pass the rest to any player still choosing: one option, two parameters
    mats = Param("mat", tuple(Choice(_label(s, m), m) for m in me.mats))
    to = Param("pass_to", tuple(Choice(f"and pass the rest to {s.players[r].name}", r) for r in waiting))
    return [Option("Keep", {"type": "choose_leader", "seat": seat}, "leader", (mats, to))]


def choose(ctx: Ctx, seat: int, cmd: dict[str, Any]) -> None:
    s = ctx.state
    mat = cmd["mat"]
    if s.config.selection == "limited":
        ctx.emit(ev.LeaderKept(seat=seat, mat=mat, knowers=[seat]))
        return
    rest = [m for m in s.players[seat].mats if m != mat]
    to = cmd.get("pass_to")
    ctx.emit(
        ev.LeaderChosen(
            seat=seat,
            mat=mat,
            plain=_plain(s, mat),
            passed_to=to,
            passed=rest,
            knowers=sorted({seat, to}) if to is not None else [seat],
        )
    )


def choose_dictator(ctx: Ctx) -> None:
    """R168, A52 ruling: the shared mat is drawn at random from the mats nobody leads, once leaders are known."""
    s = ctx.state
    rng = ctx.rng()
    start = rng.counter
    mat = rng.shuffle(pool(s))[0]
    ctx.emit(ev.DictatorChosen(mat=mat, plain=_plain(s, mat), rng=[start, rng.counter]))


def _passed(to: Any, who: Callable[[Any], str]) -> str:
    """Drafting: whom a played choice of leader passes the other mats to (R19)."""
    return f", the rest passed to {who(to)}" if to is not None else ""


CHOOSE_LEADER = DecisionKind(
    "choose_leader",
    rule="R19",
    refusal="choose one of the leader mats you are offered (and, when drafting, who receives the rest)",
    fields={"mat": str},
    optional={"pass_to": int},
    docs={
        "mat": {"description": "the leader mat you keep (or play)"},
        "pass_to": {"minimum": 0, "description": "Drafting: the player who receives the rest of your mats"},
    },
    summary="choose your leader mat",
    offer=_leader_prompt,
    apply=lambda ctx, cmd: choose(ctx, cmd["seat"], cmd),
    asks="choose a leader",
    said=lambda cmd, who: f"leader {cmd.get('mat')}" + _passed(cmd.get("pass_to"), who),
)  # no mob: a game with mobs has no leader selection (see config)
