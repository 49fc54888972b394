"""An Ever Aegis table in a few lines of plain text, from a reader's view (what ``aegis play`` prints)."""

from __future__ import annotations

from typing import Any


def describe(view: dict[str, Any]) -> str:
    """A view's table in a few lines of plain text, for a terminal (``aegis play``)."""
    table = view.get("table") or {}
    lines = [f"-- turn {table.get('turn')} · {table.get('phase')} phase · seq {view['seq']} --"]
    for p in table.get("players", []):
        cards = " ".join(c.get("name", "?") + ("*" if c["revealed"] else "") for c in p["cards"]) or "-"
        flags = " (eliminated)" if p["eliminated"] else ""
        items = (" items: " + ", ".join(p["items"])) if p.get("items") else ""
        sanctions = (" sanctioned: " + ", ".join(p["sanctions"])) if p.get("sanctions") else ""
        me = " <- you" if p["seat"] == view.get("you") else ""
        lines.append(f"  {p['seat']} {p['name']}{flags}: {p['soldiers']} soldiers; cards {cards}{items}{sanctions}{me}")
    lines.append(f"  deck {table.get('deck', {}).get('size')} cards; * = revealed, ? = unknown to you")
    if "rubble" in table:  # Rubble Rouser (R158): the face-up discard pile
        lines.append("  rubble: " + (" ".join(c["name"] for c in table["rubble"]) or "-"))
    return "\n".join(lines)
