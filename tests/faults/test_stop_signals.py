"""Every long-lived process stops within 10 s of one SIGTERM, exits 0 and prints no traceback.

Real processes (``wxbot serve`` on Redis, ``wxbot serve`` embedded, ``wxbot worker`` with the bot's own
engine, ``wxbot scheduler``) are started while two busy loops hold both CPUs, and each kind is signalled
again and again: at a random moment of its start or after it is up, some of them twice. A worker also
stops in the middle of a drain: the turns in flight finish, the users it had not reached go back to the
ready list with their leases released, and the next worker answers every message once, in order.

Every run signals each kind once (all four side by side, beside the busy loops); ``WXBOT_LONG=1`` (CI)
signals each kind 20 times, two kinds at a time.
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq import Queue

from bot.delivery import DeliveryService
from bot.queue import QUEUE_NAME, RQDispatcher, make_queue
from bot.stopping import STOP_WITHIN_S
from bot.webhook import create_app
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, ServerThread, WebhookDriver
from bot.wechat.testkit.echo import EchoEngine
from bot.worker import EdgeWorker, UnrecordedTurns, WorkerDeps
from runtime import keys
from tests.harness.edge import fast_config, make_api, wait_until
from tests.harness.faults import FAULTS_REDIS_URL, LONG, ROOT, TOKEN, worker_cmd, worker_env

pytestmark = pytest.mark.redis
ROUNDS = 20 if LONG else 1
SECRET = "stop-signal-test-secret-0001"
M = MessageFactory()
# what each kind prints once it is up
READY = {"worker": "worker started", "scheduler": "scheduler started", "web": "Application startup complete",
         "embedded": "Application startup complete"}


@pytest.fixture
def busy_cpus() -> Iterator[None]:
    """Two busy loops beside the processes under test (the machine has two cores)."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    yield
    for loop in loops:
        loop.kill()
        loop.wait()


def _command(kind: str) -> list[str]:
    cli = [sys.executable, "-m", "bot.cli"]
    if kind in ("web", "embedded"):
        return [*cli, "serve", "--port", "0"]  # any free port: nothing connects
    return [*cli, kind]


def _env(kind: str, data: Path) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("WECHAT_", "ADMIN_", "REDIS_", "LOG_"))}
    env = base | {"DATA_DIR": str(data), "DATABASE_URL": "", "WEATHER_FAKE": "true", "LOG_FORMAT": "text",
                  "PYTHONPATH": str(ROOT), "WECHAT_TOKEN": SECRET, "ADMIN_TOKEN": SECRET, "REDIS_URL": ""}
    return env if kind == "embedded" else env | {"REDIS_URL": FAULTS_REDIS_URL}


def _catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM (the first thing wxbot's code does; before it, in
    the interpreter's own start, a signal ends a process the default way)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def _one_stop(kind: str, data: Path, rng: random.Random, n: int, *, during_start: bool,
              twice: bool) -> tuple[float, str]:
    """Start ``kind``, signal it (during its start, or once it is up), maybe twice; the seconds from the
    first signal to its exit, and when it was signalled. Asserts exit code 0 and no traceback."""
    out_path = data / f"{kind}-{n}.log"
    with out_path.open("wb") as out:
        proc = subprocess.Popen(_command(kind), cwd=data, env=_env(kind, data), stdout=out, stderr=out)
    try:
        when = "start" if during_start else "up"
        if when == "start":  # somewhere in the start: imports, migrations, connections
            assert wait_until(lambda: _catches_sigterm(proc.pid) or proc.poll() is not None, 60, 0.01)
            time.sleep(rng.uniform(0.0, 2.0))
        else:
            assert wait_until(lambda: READY[kind] in out_path.read_text(errors="replace") or proc.poll() is not None,
                              120, 0.05), f"{kind} did not start:\n{out_path.read_text(errors='replace')[-3000:]}"
            time.sleep(rng.uniform(0.0, 1.5))
        assert proc.poll() is None, f"{kind} ended before the signal:\n{out_path.read_text(errors='replace')[-3000:]}"
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        if twice:  # an impatient supervisor (or person) asks again
            time.sleep(rng.uniform(0.05, 1.0))
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                when += "+again"
        try:
            code = proc.wait(timeout=STOP_WITHIN_S + 20)
        except subprocess.TimeoutExpired:
            code = None
        took = time.monotonic() - signalled
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = out_path.read_text(errors="replace")
    assert code == 0, f"{kind} exited {code} {took:.1f} s after SIGTERM:\n{text[-3000:]}"
    assert "Traceback" not in text, f"{kind}:\n{text[-3000:]}"
    return took, when


@pytest.mark.timeout(1800 if LONG else 300)
def test_every_process_stops_within_ten_seconds_of_sigterm_under_cpu_load(tmp_path: Path, busy_cpus: None,
                                                                         db6: redis.Redis) -> None:
    kinds = ("worker", "scheduler", "web", "embedded")
    took: dict[str, list[float]] = {kind: [] for kind in kinds}
    rounds_seen: list[str] = []
    failures: list[BaseException] = []

    def rounds(kind: str) -> None:
        data = tmp_path / kind
        data.mkdir()
        rng = random.Random(f"stop-{kind}")
        try:
            for n in range(ROUNDS):  # every kind in every phase: a quarter during the start, a third twice
                at = n + kinds.index(kind)
                seconds, when = _one_stop(kind, data, rng, n, during_start=at % 4 == 3, twice=at % 3 == 0)
                took[kind].append(seconds)
                rounds_seen.append(f"{kind}/{when}: {seconds:.2f} s")
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)

    for group in ((kinds[:2], kinds[2:]) if LONG else (kinds,)):  # beside the two busy loops
        threads = [threading.Thread(target=rounds, args=(kind,)) for kind in group]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if failures:
        raise failures[0]
    figures = {kind: f"{len(t)} stops, median {statistics.median(t):.2f} s, max {max(t):.2f} s"
               for kind, t in took.items()}
    print("seconds from SIGTERM to exit under two busy loops:", figures)
    for kind, times in took.items():
        assert len(times) == ROUNDS and max(times) <= STOP_WITHIN_S, (kind, figures, rounds_seen)


def _sent(wx: FakeWeChatServer, user: str) -> list[str]:
    return [s.text for s in wx.state.sent_to(user, "custom")]


def test_a_worker_stopped_mid_drain_finishes_its_turns_and_hands_the_rest_back(
        db6: redis.Redis, wx: FakeWeChatServer) -> None:
    conn = redis.Redis.from_url(FAULTS_REDIS_URL)
    hook = ServerThread(create_app(fast_config(reply_wait_s=0.0, max_attempts=1, rate_limit_per_minute=100_000),
                                   redis=conn, dispatch=RQDispatcher(make_queue(conn)), sweep=False))
    hook.start()  # no sweeper here: what the stopping worker hands back is all another worker gets
    users = [f"stop{i}" for i in range(6)]
    per_user = 5
    first = subprocess.Popen(worker_cmd("stopping", lease_ttl=30), cwd=ROOT, env=worker_env(FAULTS_REDIS_URL, wx),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        with WebhookDriver(hook.url + "/wechat", TOKEN, attempts=1, attempt_timeout_s=10) as driver:
            for i in range(per_user):
                for user in users:
                    assert driver.post_once(M.text(user, f"sleep:0.15 {user}-{i}")).status_code == 200
        assert wait_until(lambda: sum(len(_sent(wx, u)) for u in users) >= 2, 60, 0.02)
        signalled = time.monotonic()
        first.send_signal(signal.SIGTERM)
        code = first.wait(timeout=STOP_WITHIN_S + 20)
        took = time.monotonic() - signalled
        err = first.stderr.read().decode(errors="replace") if first.stderr else ""
        assert code == 0 and took <= STOP_WITHIN_S and "Traceback" not in err, (code, took, err[-3000:])
        left = [u for u in users if conn.llen(keys.mailbox(u))]
        assert left, "the worker finished everything before the signal: nothing was handed back"
        # handed back, not abandoned: no lease is left to expire (30 s), every user with mail is ready
        # again, and a drainer job waits for the next worker
        assert not [u for u in users if conn.exists(keys.lease(u))]
        ready = {r.decode() for r in conn.lrange(keys.ready_users(), 0, -1)}
        assert set(left) <= ready, (left, ready)
        queue = Queue(QUEUE_NAME, connection=conn)
        assert queue.count >= 1
        # the next worker (here in this process, on the same queue) answers the rest, once each, in order
        deps = WorkerDeps(redis=conn, turns=UnrecordedTurns(EchoEngine()), queue=queue, typing_after_s=0, lanes=2,
                          delivery=DeliveryService(conn, make_api(wx, conn)))
        EdgeWorker([queue], connection=conn, deps=deps, name=f"taking-over-{os.getpid()}").work(burst=True)
        assert {u: _sent(wx, u) for u in users} == {u: [f"echo:{u}-{i}" for i in range(per_user)] for u in users}
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        if first.stderr is not None:
            first.stderr.close()
        hook.stop()
        conn.close()
