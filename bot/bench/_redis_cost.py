"""What a run cost the Redis server, per turn: script calls, commands, server time and CPU.

Read from the server itself before and after a run (``INFO commandstats``, ``INFO cpu``), so the
webhook's calls count as well as the workers'. Counting conventions (the issue's figures use them):

* ``script_calls``: ``EVAL`` + ``EVALSHA`` (+ ``FCALL``) calls;
* ``commands``: every command the server ran, those a script called included (as ``INFO
  commandstats`` counts them);
* ``command_usec_sum``: the sum of ``commandstats`` server time. A script's time includes the
  commands it calls, which are counted again under their own names, so this sum is an upper bound
  (it is the figure ``bench worker`` printed as "Redis server time");
* ``cpu_us``: the server process's CPU (``used_cpu_user`` + ``used_cpu_sys``): what one Redis core
  can give, the figure a capacity model divides by.

:class:`ScriptTally` names each script call (a ``MONITOR`` client, so it costs the server CPU: the
figures above are taken without it).
"""

from __future__ import annotations

import hashlib
import sys
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["RedisCost", "ScriptTally", "as_shown", "script_names"]

_SCRIPT_COMMANDS = ("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro")


@dataclass(frozen=True)
class RedisCost:
    """One reading of the server's counters."""

    commands: dict[str, tuple[int, int]]  # name → (calls, usec)
    cpu_s: float

    @classmethod
    def read(cls, conn: Any) -> RedisCost:
        stats = conn.info("commandstats")
        cpu = conn.info("cpu")
        return cls({name.removeprefix("cmdstat_"): (int(f["calls"]), int(f["usec"])) for name, f in stats.items()},
                   float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]))

    def since(self, earlier: RedisCost, turns: int) -> dict[str, Any]:
        """Per turn from ``earlier`` to this reading: totals first, then each command (≥ 0.05 a turn)."""
        turns = max(1, turns)
        delta = {k: (v[0] - earlier.commands.get(k, (0, 0))[0], v[1] - earlier.commands.get(k, (0, 0))[1])
                 for k, v in self.commands.items()}
        delta.pop("info", None)  # our own readings
        scripts = sum(v[0] for k, v in delta.items() if k in _SCRIPT_COMMANDS)
        return {
            "script_calls_per_turn": round(scripts / turns, 2),
            "commands_per_turn": round(sum(v[0] for v in delta.values()) / turns, 1),
            "command_usec_sum_per_turn": round(sum(v[1] for v in delta.values()) / turns, 1),
            "redis_cpu_us_per_turn": round((self.cpu_s - earlier.cpu_s) * 1e6 / turns, 1),
            "commands": {k: round(v[0] / turns, 2) for k, v in sorted(delta.items(), key=lambda kv: -kv[1][0])
                         if v[0] / turns >= 0.05},
            "usec": {k: round(v[1] / turns, 1) for k, v in sorted(delta.items(), key=lambda kv: -kv[1][1])
                     if v[1] / turns >= 0.5},
        }


def _script_bodies() -> dict[str, str]:
    """Body → ``module.NAME`` of every Lua script held in a module-level string of a loaded
    ``bot``/``runtime`` module."""
    found: dict[str, str] = {}
    for modname, module in list(sys.modules.items()):
        if module is None or not modname.startswith(("bot", "runtime")):
            continue
        for name, value in list(vars(module).items()):
            if isinstance(value, str) and "redis.call" in value:
                found.setdefault(value, f"{modname}.{name}")
    return found


def script_names() -> dict[str, str]:
    """SHA1 → ``module.NAME`` of the scripts of :func:`_script_bodies` (RQ's own show by their SHA)."""
    return {hashlib.sha1(body.encode()).hexdigest(): name for body, name in _script_bodies().items()}


def as_shown(body: str) -> str:
    """A script's body as a MONITOR line shows it (its escapes of control characters)."""
    return body.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


class ScriptTally:
    """Counts script calls by script while running, on a ``MONITOR`` connection of its own."""

    def __init__(self, conn: Any) -> None:
        self._monitor = conn.monitor()
        self._stop = threading.Event()
        self.counts: dict[str, int] = {}
        self._thread = threading.Thread(target=self._run, name="script-tally", daemon=True)

    def __enter__(self) -> ScriptTally:
        self._monitor.__enter__()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._monitor.connection.disconnect()  # ends the blocking read
        self._thread.join(timeout=5)

    def _run(self) -> None:
        names = script_names()
        bodies = sorted(((as_shown(body), name) for body, name in _script_bodies().items()), key=lambda bn: -len(bn[0]))
        while not self._stop.is_set():
            try:
                line = self._monitor.next_command()
            except Exception:  # the connection closed: the tally is over
                return
            command = str(line.get("command", ""))
            verb, _, rest = command.partition(" ")
            if line.get("client_type") == "lua" or verb.lower() not in _SCRIPT_COMMANDS or not rest:
                continue
            if verb.lower().startswith("evalsha"):
                label = names.get(rest[:40], f"sha:{rest[:12]}")
            else:  # the body itself (shown unescaped and space-joined): the longest known script it starts with
                label = next((name for body, name in bodies if rest.startswith(body)), "eval:unknown")
            self.counts[label] = self.counts.get(label, 0) + 1

    def per_turn(self, turns: int) -> dict[str, float]:
        """Calls per turn of each script called at least once every 100 turns."""
        turns = max(1, turns)
        return {k: round(v / turns, 2) for k, v in sorted(self.counts.items(), key=lambda kv: -kv[1])
                if v / turns >= 0.01}
