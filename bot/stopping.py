"""How a long-lived process stops: SIGTERM (or SIGINT) asks it to stop, once.

``wxbot serve``, ``wxbot worker`` and ``wxbot scheduler`` install a :class:`StopRequest` before anything
that takes time (imports, migrations, connections), so a signal at any moment of a start ends the
process cleanly instead of killing it (a container's PID 1 would even ignore it). From then on the
process finishes or hands back the turn in flight and exits 0 within :data:`STOP_WITHIN_S`; deploy/
gives it a little more than that before SIGKILL (compose ``stop_grace_period``, systemd
``TimeoutStopSec``). A second signal while stopping changes nothing and prints no traceback, and once
the program is done stop signals are ignored (:func:`end_process`): the interpreter puts back the
default action of every signal it handled while it shuts down (not of an ignored one), and a signal in
that second would turn a clean stop into -15 (143 in Docker).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

__all__ = ["STOP_SIGNALS", "STOP_WITHIN_S", "StopRequest", "end_process", "exit_now", "stop_signals"]

log = logging.getLogger("bot.stopping")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
STOP_WITHIN_S = 10.0  # every long-lived process exits this long after the first signal, at the latest


class StopRequest:
    """The process's stop flag, set by the first stop signal; ``on_stop`` hooks run (in the main
    thread, inside the signal handler) when it is set. A hook may raise to interrupt the main
    thread where it waits (the RQ worker's dequeue does).

    Until the command calls :meth:`started` (its loop is about to run) the first signal ends the start
    where it is, with ``SystemExit(0)``: imports and connections unwind, a migration in progress rolls
    back under its lock, and nothing has been taken from a queue yet. A start takes seconds, more on a
    loaded machine: waiting for it to finish only to stop would break the bound."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._starting = True

    def install(self) -> StopRequest:
        """Handle SIGTERM and SIGINT from now on (call from the main thread)."""
        for sig in STOP_SIGNALS:
            signal.signal(sig, self.handle)
        return self

    @property
    def requested(self) -> bool:
        """True once a stop was asked for."""
        return self.event.is_set()

    def started(self) -> None:
        """The start is over: from now on a stop finishes the work in flight (the hooks say how)."""
        self._starting = False

    def on_stop(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` when the stop is asked for (at once if it was already)."""
        self._hooks.append(hook)
        if self.requested:
            hook()

    def request(self, reason: str = "asked") -> None:
        """Ask for the stop (the first call runs the hooks; later ones change nothing)."""
        if self.event.is_set():
            log.info("already stopping (%s); SIGKILL ends the process at once", reason)
            return
        self.event.set()
        if self._starting:
            log.info("stopping (%s) during the start", reason)
            raise SystemExit(0)
        log.info("stopping (%s): finishing the work in flight", reason)
        for hook in list(self._hooks):
            hook()

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler."""
        self.request(signal.Signals(signum).name)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the stop is asked for (or ``timeout``); True when it was."""
        return self.event.wait(timeout)

    @staticmethod
    def finish() -> None:
        """The command is done: ignore stop signals while the process exits."""
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)


@contextmanager
def stop_signals() -> Iterator[StopRequest]:
    """A long-lived command's run: SIGTERM/SIGINT ask it to stop from the first line on; the handlers
    found before come back afterwards (call from the main thread)."""
    before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    stop = StopRequest().install()
    try:
        yield stop
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def end_process(code: int, *, fast: bool) -> NoReturn:
    """End the program with ``code``. Stop signals are ignored from here on: a signal in the
    interpreter's teardown would end a clean exit with -15. ``fast`` (a long-lived command, its own
    cleanup done): skip that teardown, :func:`exit_now`."""
    StopRequest.finish()
    if fast:
        exit_now(code)
    raise SystemExit(code)


def exit_now(code: int) -> NoReturn:
    """End a long-lived command's process once its own cleanup is done: flush the logs and the output,
    then skip the interpreter's teardown, which frees the engine's whole heap object by object (about a
    second of CPU; several seconds of a stop's time on a loaded machine)."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
