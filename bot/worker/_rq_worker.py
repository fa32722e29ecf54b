"""The worker process's RQ worker: non-forking, each job inside :func:`bot.worker.serving`, and a stop
that is always prompt.

Two things of RQ's own worker are replaced, both about stopping (:mod:`bot.stopping`):

* **Signals.** RQ's handlers raise ``StopRequested`` wherever the main thread happens to be (a
  second signal while it tears down escaped as a traceback) and turn a second signal into a cold
  stop. Here the process's :class:`~bot.stopping.StopRequest` takes SIGTERM/SIGINT: the first one
  interrupts the dequeue wait, or lets the job in flight finish its turn and hand the rest back
  (``WorkerDeps.stopping``, see :func:`bot.worker.drain_ready`); later ones change nothing.
* **The pub/sub thread** that listens for ``rq`` commands. RQ stops it with
  ``PubSubWorkerThread.stop()``, which joins a thread that may be waiting up to 60 s for a
  subscription the unsubscribe just removed (rq issue #1613; rq pull request #2172 reorders the
  calls): idle workers stayed alive up to a minute after SIGTERM. Here the listener waits at most
  :data:`LISTEN_POLL_S` per read and stops on its own event; nothing joins it without a bound.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import SimpleWorker
from rq.exceptions import StopRequested

from bot.stopping import STOP_SIGNALS, StopRequest
from bot.worker._context import WorkerDeps, serving

__all__ = ["LISTEN_POLL_S", "EdgeWorker"]

log = logging.getLogger("bot.worker")
LISTEN_POLL_S = 1.0  # the longest the command listener waits in one read: the bound of its stop
_RECONNECT_S = 2.0


class _CommandListener(threading.Thread):
    """Reads the worker's pub/sub channel (``rq`` commands: shutdown, kill-horse …); each message
    goes to the handler it was subscribed with. Stops within :data:`LISTEN_POLL_S` of :meth:`stop`."""

    def __init__(self, pubsub: Any, name: str) -> None:
        super().__init__(daemon=True, name=name)
        self.pubsub = pubsub
        self._stopped = threading.Event()

    def run(self) -> None:
        while not self._stopped.is_set():
            try:
                self.pubsub.get_message(ignore_subscribe_messages=True, timeout=LISTEN_POLL_S)
            except (RedisConnectionError, RedisTimeoutError) as exc:  # Redis away: redis-py resubscribes
                log.warning("worker command channel: %s; retrying", exc)
                self._stopped.wait(_RECONNECT_S)
            except Exception:
                if not self._stopped.is_set():
                    log.exception("worker command channel failed; rq commands are not heard any more")
                return

    def stop(self) -> None:
        """Stop reading and close the channel's connection (a listener that does not end in time is
        a daemon thread: it never holds the process)."""
        self._stopped.set()
        with contextlib.suppress(Exception):  # its reply wakes a read in progress (the flag is set first)
            self.pubsub.unsubscribe()
        if self is not threading.current_thread():
            self.join(LISTEN_POLL_S + 1.0)
        if not self.is_alive():
            with contextlib.suppress(Exception):
                self.pubsub.close()


class EdgeWorker(SimpleWorker):
    """A non-forking RQ worker: jobs run in the worker process (no ~10 ms fork per job), each inside
    :func:`bot.worker.serving` with this worker's :class:`WorkerDeps`. Per-user leases, not forking,
    keep users isolated. Jobs queued by older releases under names since moved still run
    (:class:`bot.upgrade.StoredJob`). ``stop``: the process's stop request (one of its own when
    not given; :meth:`work` then handles SIGTERM/SIGINT through it while it runs)."""

    def __init__(self, *args: Any, deps: WorkerDeps, stop: StopRequest | None = None, **kwargs: Any) -> None:
        from bot.upgrade import StoredJob

        kwargs.setdefault("job_class", StoredJob)
        super().__init__(*args, **kwargs)
        self.deps = deps
        self.stop_request = stop or StopRequest()
        self._dequeueing = False
        self.stop_request.on_stop(self._stop_asked)

    # -- stopping ---------------------------------------------------------------------------------
    def _stop_asked(self) -> None:
        """Runs in the main thread, inside the signal handler: the job in flight hands back after its
        turn, the loop ends before the next dequeue, and a dequeue waiting now is interrupted."""
        self.deps.stopping.set()
        self._stop_requested = True
        if self._dequeueing:
            raise StopRequested()  # inside RQ's work loop, which ends on it

    def dequeue_job_and_maintain_ttl(self, timeout: int | None, max_idle_time: int | None = None) -> Any:
        self._dequeueing = True
        try:
            if self._stop_requested:  # asked just before the wait began
                raise StopRequested()
            return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
        finally:
            self._dequeueing = False

    def work(self, *args: Any, **kwargs: Any) -> bool:
        main = threading.current_thread() is threading.main_thread()
        before = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS} if main else {}
        try:
            return bool(super().work(*args, **kwargs))
        finally:
            for sig, handler in before.items():  # a worker run inside a larger program gives them back
                signal.signal(sig, handler)

    def _install_signal_handlers(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self.stop_request.install()

    # -- the rq command channel ------------------------------------------------------------------
    def subscribe(self) -> None:
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        listener = _CommandListener(self.pubsub, name=f"rq-commands-{self.name[:8]}")
        listener.start()
        self.pubsub_thread = listener  # type: ignore[assignment]  # RQ types it as its own thread class

    def unsubscribe(self) -> None:
        listener = self.pubsub_thread
        if isinstance(listener, _CommandListener):
            listener.stop()
        elif listener is not None:  # pragma: no cover - subscribed by RQ's own code
            super().unsubscribe()
        self.pubsub_thread = None

    # -- jobs -------------------------------------------------------------------------------------
    def execute_job(self, job: Any, queue: Any) -> Any:
        with serving(self.deps):
            return super().execute_job(job, queue)
