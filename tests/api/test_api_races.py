"""Concurrent commands on one game, idempotent retries and server-enforced deadlines."""

from __future__ import annotations

import threading
import time
from collections import Counter

from tests.api_client import Api

THREADS = 12


def _race(calls) -> list:
    """Run every call at once (released together by a barrier); return their responses."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def _gapless(api: Api, gid: str) -> None:
    log = api.events(gid)
    assert [e["seq"] for e in log["events"]] == list(range(1, log["seq"] + 1))


def test_the_same_move_from_many_threads_succeeds_once(app):
    """With expected_seq, exactly one of the identical commands lands; the rest get 409 and nothing is lost."""
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "human", "human"], reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0}
    )
    api.start(gid, host)
    view = api.view(gid, tokens[0])
    command = {"type": "declare", "seat": 0, "action": "recruit", "expected_seq": view["seq"]}
    clients = [Api(app.test_client()) for _ in range(THREADS)]
    results = _race([lambda c=c: c.post(gid, tokens[0], command) for c in clients])
    codes = Counter(r.status_code for r in results)
    assert codes == {200: 1, 409: THREADS - 1}, codes
    winner = next(r for r in results if r.status_code == 200).get_json()
    assert winner["events"][0]["seq"] == view["seq"] + 1
    _gapless(api, gid)
    assert api.view(gid, tokens[0])["table"]["players"][0]["soldiers"] == 5


def test_different_legal_answers_from_many_seats_all_succeed(app):
    """Every asked seat answers the same window at once: each answer is legal in any order, so all land."""
    api = Api(app.test_client())
    seats = ["human"] * 6
    gid, host, tokens = api.new_game(seats, reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0})
    api.start(gid, host)
    assert api.post(gid, tokens[0], {"type": "declare", "action": "treasury"}).status_code == 200
    window = api.view(gid, tokens[1])["table"]["window"]["id"]
    clients = [Api(app.test_client()) for _ in range(1, 6)]
    calls = [
        lambda c=c, s=s: c.post(gid, tokens[s], {"type": "react", "window": window, "answer": "pass"})
        for s, c in zip(range(1, 6), clients, strict=True)
    ]
    results = _race(calls)
    assert [r.status_code for r in results] == [200] * 5, [r.get_json() for r in results]
    _gapless(api, gid)
    events = api.events(gid)["events"]
    closed = [e for e in events if e["type"] == "ReactionWindowClosed"]
    assert len(closed) == 1 and sorted(closed[0]["answers"]) == ["1", "2", "3", "4", "5"]
    assert len([e for e in events if e["type"] == "ReactionGiven"]) == 5


def test_two_answers_from_one_seat_race_and_the_loser_gets_409(app):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "human", "human"], reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0}
    )
    api.start(gid, host)
    api.post(gid, tokens[0], {"type": "declare", "action": "treasury"})
    window = api.view(gid, tokens[1])["table"]["window"]["id"]
    a, b = Api(app.test_client()), Api(app.test_client())
    results = _race(
        [
            lambda: a.post(gid, tokens[1], {"type": "react", "window": window, "answer": "pass"}),
            lambda: b.post(gid, tokens[1], {"type": "react", "window": window, "answer": "call"}),
        ]
    )
    assert sorted(r.status_code for r in results) == [200, 409], [r.get_json() for r in results]
    loser = next(r for r in results if r.status_code == 409).get_json()
    assert "moved on" in loser["detail"]
    _gapless(api, gid)


def test_a_retry_with_the_same_idempotency_key_returns_the_first_answer_and_stores_nothing(app):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "random", "cautious"], reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0}
    )
    api.start(gid, host)
    command = {"type": "declare", "action": "recruit"}
    first = api.post(gid, tokens[0], command, key="try-1")
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    stored = app.extensions["aegis"].store.recorder.max_notification_id()
    again = api.post(gid, tokens[0], command, key="try-1")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert app.extensions["aegis"].store.recorder.max_notification_id() == stored
    reused = api.post(gid, tokens[0], {"type": "declare", "action": "treasury"}, key="try-1")
    assert reused.status_code == 400 and reused.get_json()["type"] == "/api/problems/idempotency-key-reused"
    # a key belongs to its seat: the same key from another seat is a new request
    assert api.post(gid, None, command, key="try-1").status_code == 401


def test_concurrent_retries_with_one_key_store_one_command(app):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "random", "random"], reaction_seconds=0, setup={"deck": ["Mason"], "first_player": 0}
    )
    api.start(gid, host)
    clients = [Api(app.test_client()) for _ in range(8)]
    results = _race([lambda c=c: c.post(gid, tokens[0], {"type": "declare", "action": "recruit"}, key="once") for c in clients])
    assert [r.status_code for r in results] == [200] * 8
    assert len({str(r.get_json()) for r in results}) == 1
    declared = [e for e in api.events(gid)["events"] if e["type"] == "ActionDeclared"]
    assert len([e for e in declared if e["seat"] == 0]) == 1


def test_the_server_closes_a_window_when_its_deadline_passes(app):
    """No client polls: the deadline keeper closes the window and records who had not answered."""
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(
        ["human", "human", "human"], reaction_seconds=0.5, setup={"deck": ["Mason"], "first_player": 0}
    )
    api.start(gid, host)
    answer = api.post(gid, tokens[0], {"type": "declare", "action": "treasury"}).get_json()
    opened = next(e for e in answer["events"] if e["type"] == "ReactionWindowOpened")
    assert opened["deadline"] is not None
    assert api.view(gid, tokens[1])["deadline"] == opened["deadline"]
    waited = time.monotonic()
    while time.monotonic() - waited < 10:
        closed = [e for e in api.events(gid)["events"] if e["type"] == "ReactionWindowClosed"]
        if closed:
            break
        time.sleep(0.05)
    assert closed, "the window was not closed by the server"
    assert (closed[0]["by"], closed[0]["timed_out"]) == ("deadline", [1, 2])
    assert api.view(gid, tokens[0])["table"]["players"][0]["soldiers"] == 8
    late = api.post(gid, tokens[1], {"type": "react", "window": opened["window"], "answer": "call"})
    assert late.status_code == 409 and late.get_json()["detail"] == f"reaction window {opened['window']} is already closed"


def test_a_save_that_loses_a_race_with_another_process_is_retried_on_the_new_state(store_env):
    """Two services on one store (as two gunicorn workers): B loads the game, A commits meanwhile, B's
    save then conflicts in the database and B runs its change again on the state that includes A's."""
    from uuid import UUID

    from aegis.service.games import GameService
    from aegis.service.settings import load

    a, b = GameService(load(store_env)), GameService(load(store_env))
    try:
        gid, host, _ = a.create_game({"seats": 3, "reaction_seconds": 0, "setup": {"deck": ["Mason"], "first_player": 0}})
        tokens = [a.take_seat(gid, name=f"p{i}", bot=None)[1] for i in range(3)]
        a.start(gid, host)
        a.submit(gid, tokens[0], {"type": "declare", "action": "treasury"})
        window = b.view(gid, tokens[1])["table"]["window"]["id"]
        attempts = []

        def change(game, attempt):
            attempts.append((attempt, game.seq))
            if attempt == 0:  # another process answers first, after B has loaded the game
                a.submit(gid, tokens[2], {"type": "react", "window": window, "answer": "pass"})
            command = {"type": "react", "seat": 1, "window": window, "answer": "pass", "at": 0.0}
            from aegis.service.rulesets import ruleset_named

            events = ruleset_named(game.ruleset).decide(game.state, command)
            game.accept(1, "seat", command, None, 0.0)
            game.append(events)
            return game.seq

        _, seq = b._change(UUID(str(gid)), change)
        assert [n for n, _ in attempts] == [0, 1] and attempts[1][1] > attempts[0][1]
        log = a.events(gid, None, 0, 5000)[0]
        assert [e["seq"] for e in log] == list(range(1, seq + 1))
        closed = [e for e in log if e["type"] == "ReactionWindowClosed"]
        assert len(closed) == 1 and sorted(closed[0]["answers"]) == ["1", "2"]
    finally:
        a.close()
        b.close()
