"""The Redis cost figures the benches print: totals per turn from two readings of the server."""

from __future__ import annotations

import hashlib

from bot.bench import RedisCost, as_shown, script_names
from bot.queue import mailbox


def test_totals_count_scripts_and_every_command_and_leave_out_the_readings() -> None:
    before = RedisCost({"evalsha": (10, 300), "hget": (5, 10), "info": (2, 40)}, cpu_s=1.0)
    after = RedisCost({"evalsha": (30, 900), "eval": (10, 200), "hget": (45, 90), "info": (4, 80)}, cpu_s=1.004)
    cost = after.since(before, turns=10)
    assert cost["script_calls_per_turn"] == 3.0  # 20 EVALSHA + 10 EVAL over 10 turns
    assert cost["commands_per_turn"] == 7.0  # scripts and the 40 HGETs; INFO is the bench's own
    assert cost["command_usec_sum_per_turn"] == 88.0
    assert cost["redis_cpu_us_per_turn"] == 400.0
    assert cost["commands"] == {"hget": 4.0, "evalsha": 2.0, "eval": 1.0}


def test_scripts_are_named_by_sha_and_by_body_as_monitor_shows_it() -> None:
    names = script_names()
    assert names[hashlib.sha1(mailbox._CLAIM.encode()).hexdigest()] == "bot.queue.mailbox._CLAIM"
    shown = as_shown("\nredis.call('GET', KEYS[1])\t\\")
    assert shown == "\\nredis.call('GET', KEYS[1])\\t\\\\"
