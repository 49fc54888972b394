"""A card of the game: its opaque id, its building or estate, and who knows it. Apart from ``state`` because
every record of the state holds cards (the players, the deck, the years, the Blasphemy card of ``variant_state``)."""

from __future__ import annotations

from dataclasses import dataclass

from aegis.domain.kernel.events import quick_init


@dataclass(frozen=True)
class Card:
    """One card in a player's possession, the deck or a year. ``id`` is opaque and per game.

    ``known`` lists the seats that know a face-down card's identity besides its possessor (for
    example the player who put it on the deck with a Laboratory); ``public`` means everyone knows it
    (a claim proven with it). A revealed card is known to everyone.
    """

    id: str
    name: str
    revealed: bool = False
    known: frozenset[int] = frozenset()
    public: bool = False
    discovered: bool = False  # Discovery (R160): a discovery token lies on it; implies ``public``
    shown: bool = False  # fully revealed, then turned face down, without leaving play: revealed again, it does not
    # act again (R92, A30, E17); a card leaving play is made anew (discarded, to the rubble) or loses it (on the deck)

    def known_to(self, seat: int, possessor: int | None) -> bool:
        return self.revealed or self.public or seat == possessor or seat in self.known

    def knowers(self, possessor: int | None, seats: int) -> list[int]:
        if self.revealed or self.public:
            return list(range(seats))
        out = set(self.known)
        if possessor is not None:
            out.add(possessor)
        return sorted(out)

    def flip(self, revealed: bool) -> Card:
        return Card(self.id, self.name, revealed, self.known, self.public, self.discovered, self.shown)


# a setup makes dozens of cards and every reveal a new one: the dataclass's frozen constructor, which sets each
# field through object.__setattr__, made that a good part of starting a game
Card.__init__ = quick_init(Card, kw_only=False)  # type: ignore[method-assign]


def exposed_in_deck(card: Card) -> bool:
    """A card in the deck that somebody can name, or follow by its id (a Laboratory's, R52; the Blasphemy's, R171):
    a card shuffled in at a secret position (R96) may lie above it, so its place is nobody's to know any more. A
    Discovery token (R160) lies on the card itself and stays in sight: that card is not."""
    return (bool(card.known) or card.public) and not card.discovered
