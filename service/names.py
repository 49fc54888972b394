"""Player names: what a name may be, its normal form, and when two names are the same.

A name is shown to every reader (views, timelines, exports, the leaderboard), so it must read as what it is:
no control characters (NUL, newlines, tabs), no bidirectional overrides or isolates that reorder the text
around it, not empty or made only of invisible characters, at most ``MAX_NAME`` characters. Names are kept in
Unicode NFC with surrounding spaces removed; two names are the same when their compatibility-folded,
case-folded forms are equal ("Sally", "sally" and "Ｓａｌｌｙ" are one name), within a game and among
registered players.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from aegis.service.errors import BadRequest

MAX_NAME = 40
# Explicit bidirectional formatting: embeddings, overrides and isolates (Unicode UAX #9), and the marks
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
# Characters that show nothing: format characters (zero-width space and joiners, ...) and the space-like
_INVISIBLE_CATEGORIES = ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")


def normal(raw: object, what: str = "a name") -> str:
    """The name in its normal form, or a ``BadRequest`` saying what is wrong with it."""
    if not isinstance(raw, str):
        raise BadRequest(f"{what} must be a string", kind="bad-name")
    name = unicodedata.normalize("NFC", raw).strip()
    bad = sorted({f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") or c in _BIDI})
    if bad:
        raise BadRequest(
            f"{what} may not contain control, private-use, unassigned or bidirectional formatting characters "
            f"(found {', '.join(bad)})",
            kind="bad-name",
        )
    if not name or all(unicodedata.category(c) in _INVISIBLE_CATEGORIES for c in name):
        raise BadRequest(f"{what} must have at least one visible character", kind="bad-name")
    if len(name) > MAX_NAME:
        raise BadRequest(f"{what} has at most {MAX_NAME} characters (this one has {len(name)})", kind="bad-name")
    return name


# the names the service gives the seats it names itself, as keys: "Cautious bot 2" (a bot), "Seat 3" (a person who
# gave no name)
_SERVICE_NAME = re.compile(r"(?:(?P<bot>.+?)\s+bot|seat)\s+[0-9]+")


def refuse_service_form(name: str, bots: Iterable[str]) -> None:
    """Refuse ``name`` for a person if it has the form the service gives a seat it names itself: "<Bot> bot <n>" for
    one of ``bots``, or "Seat <n>". A person with such a name would pass for a bot, and would take the name the
    service then gives a bot seated after them."""
    found = _SERVICE_NAME.fullmatch(key(name))
    if found is not None and (found["bot"] is None or found["bot"] in {key(bot) for bot in bots}):
        raise BadRequest(
            f"{name!r} has the form of a name the service gives its own seats ('Random bot 2', 'Seat 3'): choose "
            "another, so that nobody takes you for a bot",
            kind="bad-name",
        )


def key(name: str) -> str:
    """The form two names are compared in: two names are one when their keys are equal (compatibility forms
    folded, so that a full-width "Ｓａｌｌｙ" is "Sally", and case folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
