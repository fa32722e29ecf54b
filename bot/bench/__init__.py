"""``wxbot bench``: one module per benchmark, each with ``add_arguments(parser)`` and
``run(args, settings)``; private helpers start, load and measure the processes under test. A private
``redis-server`` on a free port (:class:`PrivateRedis`) and :func:`stop` for spawned processes are
shared with the test suite, with the load generator's requests and the ``/proc`` readings."""

from bot.bench._load import LoadSpec, SignedRequests
from bot.bench._procs import ROOT, cpu_seconds, resident_mb, stop
from bot.bench._redis import PrivateRedis, free_port
from bot.bench._redis_cost import RedisCost, ScriptTally, as_shown, script_names

BENCHES: dict[str, str] = {
    "script": "dialogue-script throughput: 2,000 single-turn utterances in one process",
    "tokens": "prompt tokens of our prompts vs a naive baseline",
    "reminders": "reminder scheduling and due-push throughput",
    "webhook": "webhook request throughput and passive-reply latency",
    "pipeline": "webhook → queue → worker → delivery end to end",
    "worker": "CPU per turn of one worker and where it goes (cProfile top functions)",
    "heldout": "router score on the public held-out intent sets (aggregate figures only)",
    "dialogues": "pass rate of a set of dialogue scripts (default: the blind set, tests/dialogues_blind)",
}

__all__ = ["ROOT", "BENCHES", "LoadSpec", "PrivateRedis", "RedisCost", "ScriptTally", "SignedRequests", "as_shown", "cpu_seconds",
           "free_port", "resident_mb", "script_names", "stop"]
