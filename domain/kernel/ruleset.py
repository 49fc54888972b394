"""The ruleset protocol: what the service, the bots and the replay engine need from any game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from aegis.domain.kernel.decisions import Registry
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.prompts import Prompt
from aegis.domain.kernel.redaction import Perspective
from aegis.domain.kernel.shapes import Shapes

BRANCH_DEALS = ("same", "as_known")
"""How a branch deals (``Ruleset.branch``): "same" (the original's seed goes on) or "as_known" (the cards one seat could
not name dealt again). The service and its API offer exactly these."""


def is_void(spans: Sequence[tuple[int, int]], seq: int) -> bool:
    """Is the event numbered ``seq`` inside the spans a ruleset's ``undone`` gives (what its rules made void)?"""
    return any(lo <= seq <= hi for lo, hi in spans)


class Ruleset(Protocol):
    """Every ruleset also accepts two commands of the same shape, whatever its game:

    - ``{"type": "resign", "seat": N}``: the seat leaves the game, at any moment of a started game. It is the
      seat's own command, never a prompt option (bots choose among prompts and never resign).
    - ``{"type": "timeout", "seat": S, "kind": K, "deadline": D, "count": n, "abandon": bool, "play": P,
      "at": T}``: the service's (one of ``system_commands``). Seat S let its clock run out at ``D`` on the
      decision of prompt kind K (not one of ``window_kinds``); P is the complete command for S that the
      service's bot chose; ``count``: decisions in a row S has let time out; ``abandon``: from now on a bot
      plays S. The ruleset records the timeout (P visible to S only until the end) and then answers P as if
      S had sent it at ``T``.
    """

    name: str
    rules_version: int
    """Raised whenever the rules decide anything differently (another event, another refusal): a record is
    re-decided by the rules it was played under, and the service records the version each game was decided under."""
    window_kinds: frozenset[str]
    """Prompt kinds the ruleset closes at its own deadlines (``deadline``/``close_command``): never timed out."""
    system_commands: frozenset[str]
    """Command types only the service may send (no seat sends them)."""
    event_types: Sequence[type[Event]]
    """Every event class the ruleset records: the store resolves each by its ``TYPE``."""
    commands: Registry
    """Every command type a seat or the service may send, from the ruleset's decision kinds (for the API's schemas)."""
    bots: Mapping[str, Callable[[int], Any]]
    """The bots that may take a seat, by name: each made from a seed, with ``choose(view, prompts)`` (``domain.bots``)."""
    stand_in: Callable[[int], Any]
    """Makes (from a seed) the bot that decides for a person: a timed-out decision, an abandoned seat (ruling S3). The
    timeout is public, so its choices must not depend on the seat's hidden cards beyond what the rules reveal."""
    shapes: Shapes
    """The ruleset's fields of a game's creation, its table and its statistics, as the API checks and documents them."""

    def make_config(self, spec: dict[str, Any]) -> Any:
        """Validate a game's configuration (raise ``MalformedCommand`` with the rule that limits it)."""

    def seated_by_rules(self, spec: dict[str, Any]) -> dict[int, str]:
        """Seats nobody takes, played by the rules themselves (Ever Aegis: mobs, R173), with their names, for a game
        of ``spec`` (its configuration as the service stores it: ``make_config(...).to_dict()``). The service fills
        each as soon as the seats before it are taken."""

    def variant(self, spec: dict[str, Any]) -> str:
        """The label of the variant of a game of ``spec`` (as stored), as the lobby lists and filters it."""

    def read_catalog(self, data: Any, source: str) -> Any:
        """The ruleset's component texts from a file a host supplies (``AEGIS_CATALOG``, already parsed as JSON), for
        ``components``; ``source`` names the file in the games that use it. Raises ``MalformedCommand`` naming what is
        wrong."""

    def catalog_summary(self, catalog: Any) -> str:
        """What a catalog that ``read_catalog`` accepted holds, in one line (``aegis check-catalog``)."""

    def start(
        self,
        config: Any,
        seed: str,
        now: float | None = None,
        rig: dict[str, Any] | None = None,
        components: Any = None,
        commitment: str | None = None,
    ) -> list[Event]:
        """The events that set a game up, ending where the first decision is awaited (``rig``: a chosen position;
        ``components``: the game's fixed component data, as ``components`` chose it at creation; ``commitment``:
        the hash the service published before the game, None for the seed's own, "" for none: a rigged game)."""

    def components(self, config: Any, catalog: Any = None) -> Any:
        """The component data a game of ``config`` uses, from ``catalog`` (None: the shipped one), or None;
        raises ``MalformedCommand`` if the game cannot be played with that catalog."""

    def validate_rig(self, rig: Any, seats: int, components: Any = None) -> dict[str, Any]:
        """Check a rigged setup before it is stored (raise ``MalformedCommand`` naming what is wrong)."""

    def decide(self, state: Any, command: dict[str, Any]) -> list[Event]:
        """The events a command causes, or a ``DomainError`` naming the rule it breaks (``state`` is not changed)."""

    def push(self, state: Any, command: dict[str, Any]) -> list[Event]:
        """``decide``, and ``state`` itself moves on by the events returned (no copy; each event applied once). A
        refusal leaves ``state`` as it was."""

    def branch(
        self,
        state: Any,
        log: Sequence[dict[str, Any]],
        *,
        game: str,
        step: int,
        deal: str,
        knower: int | None,
        names: Sequence[str],
        seed: str,
        at: float | None,
    ) -> list[Event]:
        """The events that make ``state`` (the position after ``log``, the events 1..``step`` of the game ``game``)
        the start of a new game, a branch: its seats named ``names``, its clocks started at ``at``, marked rigged.
        ``deal``: "same" (the original's seed goes on, so its draws are the original's) or "as_known" (the cards seat
        ``knower`` could not name there are dealt again at random among themselves, from ``seed``, a fresh secret).
        ``state`` is not changed. Raises ``MalformedCommand`` for a deal it refuses, ``GameOver`` when the game is
        over at that step."""

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after one event (a new object; ``state`` is not changed)."""

    def apply(self, state: Any, event: Event) -> None:
        """Apply one event to a state the caller owns, in place (the fast path of ``evolve``)."""

    def clone(self, state: Any) -> Any:
        """An independent copy of a state (for checkpoints)."""

    def narrate(self, event: dict[str, Any], names: list[str]) -> str:
        """One plain sentence for an event as a reader sees it (redacted)."""

    def fold(self, config: Any, events: Iterable[Event]) -> Any:
        """The state after a whole log."""

    def encode_state(self, state: Any) -> dict[str, Any]:
        """The state as JSON data, for a snapshot: ``decode_state`` of it equals the state (``domain.kernel.codec``)."""

    def decode_state(self, config: Any, data: dict[str, Any]) -> Any:
        """The state ``encode_state`` wrote, for a game of ``config``."""

    def prompts(self, state: Any, seat: int | None = None) -> list[Prompt]:
        """Every open decision, for one seat or all seats."""

    def legal_commands(self, state: Any, seat: int) -> Iterator[dict[str, Any]]:
        """Every complete command ``seat`` may submit now, lazily; each is accepted by ``decide`` as is."""

    def view(self, state: Any, perspective: Perspective) -> dict[str, Any]:
        """The table as a reader may know it."""

    def describe(self, view: dict[str, Any]) -> str:
        """A reader's view (as the API serves it, with its ``table``) in a few lines of plain text, for a terminal."""

    def redact(self, state: Any, event: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
        """One event as a reader may see it."""

    def is_finished(self, state: Any) -> bool: ...

    def turn(self, state: Any) -> int:
        """The number of the turn under way (0 before the first): a simulation stops a game after so many."""

    def outcome(self, state: Any) -> tuple[str | None, list[int]]:
        """A finished game's result ("win" or "draw") and its winners' seats; (None, []) while it goes on."""

    def autoplayed(self, state: Any) -> list[int]:
        """The seats whose remaining decisions the service makes (resigned or abandoned), sorted."""

    def awaited(self, state: Any) -> list[tuple[int, str]]:
        """(seat, prompt kind) of every decision the game waits for (free prompts excluded)."""

    def deadline(self, state: Any) -> tuple[int | str, float] | None:
        """The next deadline the ruleset itself closes (a reaction window's, a pause's), if there is one: (a key
        that ``close_command`` understands, the time). The key is the ruleset's own: the service only hands it
        back."""

    def audit(
        self,
        config: Any,
        log: list[dict[str, Any]],
        step: int,
        reader: Perspective,
        names: list[str],
        accepted: dict[int, dict[str, Any]],
    ) -> dict[str, Any]:
        """What a dispute about ``step`` of a game's record needs, as ``reader`` may know it (already the omniscient
        reader once the game is over): the ruleset's own facts (Ever Aegis: the claim in play). ``log``: every event
        as stored; ``accepted``: seq -> the seat's command that caused that event (``type``, ``at``). Raises
        ``MalformedCommand`` when the step holds nothing to audit."""

    def odds(self, state: Any, event: dict[str, Any], perspective: Perspective) -> dict[str, Any] | None:
        """If ``event`` (as stored; ``state``: the state after it) is a claim, its odds as ``perspective`` knew them:
        ``{"claimant", "claim", "about", "probability" (exact, 0..1), "as": perspective, "held"}``; else None. Only
        for a finished game's record: during a game it would be an analysis engine at the table."""

    def review(
        self, config: Any, log: list[dict[str, Any]], events: Sequence[Event], perspective: Perspective, since: int = 0
    ) -> dict[str, Any]:
        """A finished game's claims and answers, seat by seat, with their odds as ``perspective`` knew them:
        ``{"players": [{"seat", "moves", "summary", "calibration"}]}`` (``log``: as stored; ``events``: decoded). Moves
        at steps up to ``since`` are left out (a branch's: its original's players made them)."""

    def undone(self, log: list[dict[str, Any]]) -> list[tuple[int, int]]:
        """The spans of seqs (first, last) that the game's own rules made void (an undo), for timelines."""

    def summarize(self, config: Any, events: Iterable[Event]) -> dict[str, Any]:
        """A finished game, seat by seat: ``{"result", "winners", "seats": [{"seat", "place", "won", "draw", <statistics>}]}``
        (place 1 is the best; equal places are ties). Called once, when the game is over."""

    def close_command(self, key: int | str, at: float) -> dict[str, Any]:
        """The service's command that closes what ``deadline`` named by ``key``, once its time has passed."""
