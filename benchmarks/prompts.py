"""Prompt sizes: how large a seat's view and prompts are along whole games, compact against the commands they
stand for. A 10-seat Simpleton game of random bots, in-process: after every command, every seat's table and
prompts as JSON (what the view carries besides the game's header), the options of each prompt, and the number of
complete commands those options stand for (what a prompt listed before options had parameters)."""

from __future__ import annotations

import json
import random
from typing import Any

from aegis.domain.everaegis.bots import make_bot
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.ruleset import RULESET


def prompts(games: int = 3, seats: int = 10) -> dict[str, Any]:
    config = make_config(seats=seats, variants="simpleton", reaction_seconds=0)
    view_bytes: list[int] = []
    most_options = most_commands = 0
    for game in range(games):
        seed = f"prompts-{seats}-{game}"
        state = RULESET.fold(config, RULESET.start(config, seed))
        bots = [make_bot("random", random.Random(f"{seed}#{i}").getrandbits(32)) for i in range(seats)]
        while state.status != "finished" and state.play.turn <= 500:
            for seat in range(seats):
                asked = RULESET.prompts(state, seat)
                body = json.dumps({"table": RULESET.view(state, seat), "prompts": [p.to_dict() for p in asked]})
                view_bytes.append(len(body.encode()))
                for p in asked:
                    most_options = max(most_options, len(p.options))
                    most_commands = max(most_commands, sum(o.size() for o in p.options))
            seat = RULESET.awaited(state)[0][0]
            command = bots[seat].choose(RULESET.view(state, seat), RULESET.prompts(state, seat))
            assert command is not None
            RULESET.push(state, command)
    view_bytes.sort()
    return {
        "suite": "prompts",
        "games": games,
        "seats": seats,
        "views": len(view_bytes),
        "view_bytes_p50": view_bytes[len(view_bytes) // 2],
        "view_bytes_max": view_bytes[-1],
        "most_options": most_options,
        "most_commands": most_commands,
    }


def print_prompts(r: dict[str, Any]) -> None:
    print(f"prompts: {r['games']} games of {r['seats']} seats, {r['views']} views (table and prompts of a seat)")
    print(f"  view bytes: p50 {r['view_bytes_p50']}, max {r['view_bytes_max']}")
    print(f"  most options in a prompt: {r['most_options']}, standing for up to {r['most_commands']} complete commands")
