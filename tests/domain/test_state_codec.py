"""A ruleset state as data and back (``domain/kernel/codec.py``), what a snapshot stores: in random legal games of
every variant, at random moments, the decoded state equals the state, and the game played on from it ends exactly
as the game played from the start."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.kernel.codec import INLINE, Codec

GAMES = [  # (variants, leader selection, options, mobs, fewest seats)
    ("simpleton", None, None, None, 3),
    ("simpleton+quick+plague", None, None, None, 3),
    ("classic", "freeform", {"plain_unknown": 1}, None, 3),
    ("classic+artificers", "drafting", {"plain_unknown": 1}, None, 3),
    ("classic+alliances", "limited", {"plain_unknown": 1}, None, 5),
    ("classic+overlord", None, {"plain_unknown": 1}, None, 3),
    ("classic+dictator+long", None, {"plain_unknown": 1}, [2], 3),
]


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), data=st.data())
def test_a_decoded_state_is_the_state_and_plays_on_the_same(game, seed, data):
    variants, selection, options, mobs, fewest = game
    seats = data.draw(st.integers(fewest, 6))
    record = play_game(
        seats=seats,
        variants=variants.split("+"),
        seed=f"codec-{seed}",
        bots=["random"],
        selection=selection,
        options=options,
        mobs=mobs,
        max_turns=60,
    )
    config = RULESET.make_config(
        {
            "seats": seats,
            "variants": variants.split("+"),
            "reaction_seconds": 0,
            "selection": selection,
            "options": options,
            "mobs": mobs or (),
        }
    )
    cuts = sorted(data.draw(st.sets(st.integers(0, len(record.events)), min_size=1, max_size=4)))
    state = RULESET.fold(config, [])
    done = 0
    for cut in cuts:
        for e in record.events[done:cut]:
            RULESET.apply(state, e)
        done = cut
        stored = json.loads(json.dumps(RULESET.encode_state(state)))  # through JSON, as the store keeps it
        back = RULESET.decode_state(config, stored)
        assert back == state
        assert RULESET.encode_state(back) == stored, "the same state always gives the same data"
        for e in record.events[cut:]:
            RULESET.apply(back, e)
        assert back == RULESET.fold(config, record.events)


def test_the_codec_builds_only_the_classes_it_was_given():
    from aegis.domain.everaegis.state import Card

    codec = Codec([Card])
    card = Card("c1", "Mason", known=frozenset({2, 0}))
    data = codec.encode({"hand": [card], 3: (card,)}, {})
    assert data == {
        "$map": [
            ["hand", [{"$": "Card", "id": "c1", "name": "Mason", "known": {"$frozenset": [0, 2]}}]],
            [3, {"$tuple": [{"$": "Card", "id": "c1", "name": "Mason", "known": {"$frozenset": [0, 2]}}]}],
        ]
    }
    assert codec.decode(data, {}) == {"hand": [card], 3: (card,)}
    try:
        codec.decode({"$": "GameState"}, {})
    except ValueError as err:
        assert "GameState" in str(err)
    else:
        raise AssertionError("decoded a class the codec was not given")
    try:
        codec.encode(object(), {})
    except TypeError:
        pass
    else:
        raise AssertionError("encoded an object the codec does not know")


def test_flipping_a_card_keeps_everything_else_it_carries():
    """``Card.flip`` builds the flipped card field by field (faster than ``dataclasses.replace``): a field added
    to ``Card`` and forgotten there would be lost on every reveal. Every field is set to a value unlike its default."""
    import dataclasses

    from aegis.domain.everaegis.state import Card

    odd = {
        "id": "c1",
        "name": "Temple",
        "revealed": False,
        "known": frozenset({2}),
        "public": True,
        "discovered": True,
        "shown": True,
    }
    assert set(odd) == {f.name for f in dataclasses.fields(Card)}, "a new Card field: give it a value here and in flip"
    flipped = Card(**odd).flip(True)
    assert flipped == Card(**{**odd, "revealed": True})


def test_an_inline_record_is_stored_among_its_owners_fields():
    """A field declared ``metadata=INLINE`` (the records of ``GameState``) is written as its record's fields, beside
    the owner's own, and read back into its record: a state split into records keeps its stored form."""
    import dataclasses

    @dataclasses.dataclass
    class Inner:
        a: int = 0
        b: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass
    class Outer:
        x: int = 0
        inner: Inner = dataclasses.field(default_factory=Inner, metadata=INLINE)
        y: Inner | None = None

    codec = Codec([Outer, Inner])
    value = Outer(1, Inner(2, [3]), Inner(4))
    data = codec.encode(value, {})
    assert data == {"$": "Outer", "x": 1, "a": 2, "b": [3], "y": {"$": "Inner", "a": 4}}
    assert codec.decode(data, {}) == value
    assert codec.encode(Outer(), {}) == {"$": "Outer"}, "a record's defaults are left out, as the owner's are"
    assert codec.decode({"$": "Outer", "b": [5]}, {}) == Outer(inner=Inner(b=[5]))

    @dataclasses.dataclass
    class Clash:
        a: int = 0
        inner: Inner = dataclasses.field(default_factory=Inner, metadata=INLINE)

    with pytest.raises(TypeError, match="stored twice"):
        Codec([Clash])
