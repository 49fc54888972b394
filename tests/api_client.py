"""A test client that knows nothing but the public contract: create, seat, start, read prompts, post options."""

from __future__ import annotations

import random
import time
from typing import Any


def command_of(option: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """The command to send for a prompt's option, as the README says: its ``command`` with each of its ``params``
    set to a picked value (a list of picked values when the parameter's ``max`` is above 1). ``rng``: pick at random
    (each size equally likely); None: the first choices. Written from the contract alone, as any client would."""
    command = dict(option["command"])
    for p in option.get("params", []):
        values = [c["value"] for c in p["choices"]]
        if p["max"] == 1:
            command[p["name"]] = rng.choice(values) if rng else values[0]
            continue
        top = min(p["max"], len(values)) if p["distinct"] else p["max"]
        k = rng.randint(p["min"], top) if rng else p["min"]
        if p["distinct"]:
            command[p["name"]] = rng.sample(values, k) if rng else values[:k]
        else:
            command[p["name"]] = [rng.choice(values) for _ in range(k)] if rng else values[:1] * k
    return command


class Api:
    def __init__(self, client: Any):
        self.c = client

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(self, expect: int = 201, **spec: Any) -> dict[str, Any]:
        r = self.c.post("/api/games", json=spec)
        assert r.status_code == expect, r.get_json()
        return r.get_json()

    def seat(self, gid: str, expect: int = 201, **body: Any) -> dict[str, Any]:
        r = self.c.post(f"/api/games/{gid}/seats", json=body)
        assert r.status_code == expect, r.get_json()
        return r.get_json()

    def start(self, gid: str, host: str | None, expect: int = 200) -> dict[str, Any]:
        r = self.c.post(f"/api/games/{gid}/start", headers=self.auth(host))
        assert r.status_code == expect, r.get_json()
        return r.get_json()

    def view(self, gid: str, token: str | None = None) -> dict[str, Any]:
        r = self.c.get(f"/api/games/{gid}/view", headers=self.auth(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def post(self, gid: str, token: str | None, command: dict[str, Any], key: str | None = None) -> Any:
        headers = self.auth(token)
        if key:
            headers["Idempotency-Key"] = key
        return self.c.post(f"/api/games/{gid}/commands", json=command, headers=headers)

    def events(self, gid: str, token: str | None = None, after: int = 0, limit: int = 5000) -> dict[str, Any]:
        r = self.c.get(f"/api/games/{gid}/events?after={after}&limit={limit}", headers=self.auth(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def new_game(self, seats: list[str], **spec: Any) -> tuple[str, str, dict[int, str]]:
        """``seats``: "human" or a bot name per seat. Returns (game id, host token, {seat: token})."""
        created = self.create(seats=len(seats), **spec)
        tokens = {}
        for i, who in enumerate(seats):
            if who == "human":
                taken = self.seat(created["id"], name=f"Human {i}")
                tokens[taken["seat"]] = taken["token"]
            else:
                self.seat(created["id"], bot=who)
        return created["id"], created["host_token"], tokens

    def people(self, names: list[str], **spec: Any) -> tuple[str, dict[str, str]]:
        """A started game of people seated in ``names`` order. Returns (game id, {name: seat token})."""
        created = self.create(seats=len(names), **spec)
        gid = created["id"]
        tokens = {name: self.seat(gid, name=name)["token"] for name in names}
        self.start(gid, created["host_token"])
        return gid, tokens

    def open_command(self, gid: str, tokens: dict[int, str], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
        """(the token of a human seat asked something now, a random command it may send), or None once the game is
        not active (the first seat asked, in seat order)."""
        for token in tokens.values():
            view = self.view(gid, token)
            if view["status"] != "active":
                return None
            prompts = [p for p in view["prompts"] if not p["free"]]
            if prompts:
                return token, command_of(rng.choice(prompts[0]["options"]), rng)
        raise AssertionError("no human is asked anything in an active game")

    def play_humans(self, gid: str, tokens: dict[int, str], rng: random.Random, max_moves: int = 3000, check: Any = None) -> int:
        """Every human posts a random option of its open prompt until the game ends. Returns the moves made. While no
        human is asked anything the server is playing (bots, deadlines): wait for it, a few seconds at most."""
        moves = 0
        idle_since = None
        while moves < max_moves:
            progressed = False
            for _seat, token in tokens.items():
                view = self.view(gid, token)
                if view["status"] == "finished":
                    return moves
                prompts = [p for p in view["prompts"] if not p["free"]]
                if not prompts:
                    continue
                r = self.post(gid, token, command_of(rng.choice(prompts[0]["options"]), rng))
                assert r.status_code == 200, r.get_json()
                moves += 1
                progressed = True
                if check is not None:
                    check(gid)
            if progressed:
                idle_since = None
                continue
            idle_since = idle_since or time.monotonic()
            assert time.monotonic() - idle_since < 30, "no human has a prompt, yet the game is not over"
            time.sleep(0.02)
        raise AssertionError(f"the game did not end in {max_moves} human moves")
