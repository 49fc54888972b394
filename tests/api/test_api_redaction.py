"""A redaction oracle over random games played through the API: no view and no event list ever shows a
reader a card it may not know, the deck order, fresh card ids or the seed before the game ends.

The oracle's ground truth is the server's own state (every card's identity, who knows it), read
beside the API; what each reader receives over HTTP is checked against it after every move.
"""

from __future__ import annotations

import json
import random
from uuid import UUID

import pytest

from tests.api_client import Api

SECRET_FIELDS = {"seed", "cards", "new_card", "position"}  # rng counters are public: useless without the seed


def _truth(app, gid: str):
    """The game's state, and its secrets: the server's secret and the seed it makes with the contributions."""
    svc = app.extensions["aegis"]
    return svc.read(UUID(gid), lambda game: (game.state, (game.seed, game.shuffle_seed())))


def _may_know(state, reader: int | None, card, possessor: int | None) -> bool:
    if card.revealed or card.public:
        return True
    return reader is not None and card.known_to(reader, possessor)


def check_reader(api: Api, app, gid: str, reader: int | None, token: str | None) -> None:
    state, secrets = _truth(app, gid)
    if state is None or state.status == "finished":
        return
    view = api.view(gid, token)
    text = json.dumps(view)
    assert not any(s in text for s in secrets), "the seed or the server's secret leaked into a view"
    # every card of every hand: a name only where the reader may know it
    for p, shown in zip(state.players, view["table"]["players"], strict=True):
        for card, seen in zip(p.cards, shown["cards"], strict=True):
            assert seen["id"] == card.id
            if "name" in seen:
                assert seen["name"] == card.name
                assert _may_know(state, reader, card, p.seat), (reader, p.seat, card)
    # the deck: only cards the reader put there, from the top
    known_top = view["table"]["deck"].get("known_top", [])
    for card, seen in zip(state.deck, known_top, strict=False):
        assert seen["name"] == card.name and _may_know(state, reader, card, None)
    # the prompts speak only of the reader's own cards
    if reader is not None:
        own = {c.id for c in state.players[reader].cards}
        hidden = {c.id for p in state.players if p.seat != reader for c in p.cards if not _may_know(state, reader, c, p.seat)}
        prompt_text = json.dumps(view["prompts"])
        assert not any(cid in prompt_text for cid in hidden - own)
    # the event log as this reader gets it
    log = api.events(gid, token)["events"]
    assert not any(s in json.dumps(log) for s in secrets)
    for e in log:
        assert not SECRET_FIELDS & set(e), (e["type"], SECRET_FIELDS & set(e))
        if "knowers" in e and "name" in e:
            assert e["knowers"] == "all" or reader in e["knowers"], e
        if "audience" in e:
            assert ("answer" in e) == (reader in e["audience"]), e


@pytest.mark.parametrize("seed", ["oracle-1", "oracle-2", "oracle-3"])
def test_no_reader_ever_sees_what_it_may_not_know(sqlite_app, seed):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "random", "human"], seed=seed, reaction_seconds=0)
    api.start(gid, host)

    def check(gid: str) -> None:
        for seat, token in tokens.items():
            check_reader(api, sqlite_app, gid, seat, token)
        check_reader(api, sqlite_app, gid, None, None)

    check(gid)
    api.play_humans(gid, tokens, random.Random(seed), check=check)
    # once over, everything is public to everyone, the seed included
    assert _truth(sqlite_app, gid)[1][1] in json.dumps(api.events(gid, tokens[0])["events"])


def test_once_the_game_is_over_every_page_of_its_events_shows_what_the_whole_log_shows(sqlite_app):
    """A reviewer paging a finished game sees on each page what the whole log shows (the hidden cards revealed),
    not a page before the last one still redacted as if the game were running."""
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "random", "cautious"], seed="pages", reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(2))
    for token in (None, tokens[0]):
        whole = api.events(gid, token)["events"]
        assert whole[0]["type"] == "GameStarted" and "seed" in whole[0], "the seed is shown once the game is over"
        for after in range(0, len(whole), 37):
            assert api.events(gid, token, after=after, limit=37)["events"] == whole[after : after + 37]
