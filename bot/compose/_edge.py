"""The edge: the WeChat API, delivery, the queue and the worker, the webhook app with the admin pages,
and the scheduler."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine as SQLEngine

from bot.compose._core import (
    DEFAULT_ENGINE_FACTORY,
    redis_at,
    redis_client,
    rerun_sandbox,
    sql_engine,
    transcript,
    turn_handler,
)
from bot.settings import Settings
from runtime.store import ContextStore, RedisContextStore
from runtime.transcript import StatsTally, TranscribedTurns, TurnHandler

if TYPE_CHECKING:
    from rq import Queue

    from bot.admin import AdminDeps
    from bot.delivery.transcribed import TranscribedDelivery
    from bot.queue import Dispatcher, SweeperThread
    from bot.redis_client import RedisClient
    from bot.scheduler import PushSink, Scheduler
    from bot.stopping import StopRequest
    from bot.webhook import WebhookConfig
    from bot.wechat import WeChatpyAPI
    from bot.wechat.crypto import WebhookSecrets
    from bot.worker import EdgeWorker, InlineDispatcher, WorkerDeps


# -- WeChat and delivery -------------------------------------------------------------------------
def wechat_api(settings: Settings, redis: RedisClient) -> WeChatpyAPI:
    """The WeChat API client, its access_token shared through Redis."""
    from bot.wechat import AccessTokenService, StableTokenFetcher, WeChatpyAPI

    app_id, secret, base = settings.wechat_app_id, settings.wechat_app_secret, settings.wechat_api_base
    tokens = AccessTokenService(redis, StableTokenFetcher(app_id, secret, base_url=base), app_id=app_id or "app")
    return WeChatpyAPI(app_id=app_id, secret=secret, tokens=tokens, base_url=base, timeout=settings.wechat_api_timeout)


def delivery(settings: Settings, redis: RedisClient, tally: StatsTally | None = None) -> TranscribedDelivery:
    """Delivery through the WeChat API, recording every outcome in the transcript."""
    from bot.delivery import TemplateConfig
    from bot.delivery.transcribed import TranscribedDelivery

    templates = TemplateConfig(template_id=settings.wechat_template_id or None,
                               template_field=settings.wechat_template_field,
                               subscribe_template_id=settings.wechat_subscribe_template_id or None,
                               subscribe_field=settings.wechat_subscribe_field)
    # a piece's claim waits for the replicas an accepted message waits for (REDIS_WAIT_REPLICAS)
    target = None if settings.embedded else settings.redis_target()
    service = TranscribedDelivery(redis, wechat_api(settings, redis), templates=templates,
                                  replicas=target.wait_replicas if target else 0,
                                  replica_timeout_ms=target.wait_timeout_ms if target else 500)
    service.transcript = transcript(settings, redis, tally)
    return service


# -- queues and the worker -----------------------------------------------------------------------
def queue(redis: RedisClient, name: str | None = None) -> Queue:
    """The RQ queue drain and push jobs go through (``name``: another queue, e.g. a benchmark's)."""
    from bot.queue import QUEUE_NAME, make_queue

    return make_queue(redis, name or QUEUE_NAME)


def worker_deps(settings: Settings, redis: RedisClient, handler: TurnHandler, *, sql: SQLEngine | None = None,
                lease_ttl_ms: int = 3_000, typing_after_s: float = 3.0, lanes: int = 1) -> WorkerDeps:
    """What the worker's jobs need: ``handler`` (every turn recorded in the transcript), delivery, the
    queue and the business tables (``sql``, or built from ``settings``)."""
    from bot.worker import WorkerDeps

    stats = StatsTally()  # the records' global stats, flushed after each batch and each job
    turns = TranscribedTurns(handler, transcript(settings, redis, stats))
    return WorkerDeps(redis=redis, turns=turns, delivery=delivery(settings, redis, stats), queue=queue(redis), stats=stats,
                      sql_engine=sql if sql is not None else sql_engine(settings, create_tables=False),
                      lease_ttl_ms=lease_ttl_ms, typing_after_s=typing_after_s, lanes=max(1, lanes))


def sweeper(redis: RedisClient, dispatch: Dispatcher) -> SweeperThread:
    """The thread that re-drives users whose drain stalled (a worker died mid-drain)."""
    from bot.queue import SweeperThread

    return SweeperThread(redis, dispatch)


@dataclass
class WorkerProcess:
    """``wxbot worker``: the RQ worker (its jobs run with ``deps``), its queue and the sweeper."""

    worker: EdgeWorker
    queue: Queue
    sweeper: SweeperThread
    deps: WorkerDeps


def worker_process(settings: Settings, *, engine_ref: str = DEFAULT_ENGINE_FACTORY, queue_name: str | None = None,
                   lease_ttl_ms: int = 3_000, typing_after_s: float = 3.0, lanes: int = 2,
                   name: str | None = None, stop: StopRequest | None = None) -> WorkerProcess:
    """Everything ``wxbot worker`` runs, on the configured Redis (``stop``: the process's stop request)."""
    from bot.queue import RQDispatcher
    from bot.worker import EdgeWorker

    conn = redis_at(settings.redis_target())
    handler, sql = turn_handler(settings, conn, engine_ref)
    deps = worker_deps(settings, conn, handler, sql=sql, lease_ttl_ms=lease_ttl_ms, typing_after_s=typing_after_s,
                       lanes=lanes)
    jobs = queue(conn, queue_name)
    return WorkerProcess(worker=EdgeWorker([jobs], connection=conn, deps=deps, name=name, stop=stop), queue=jobs,
                         sweeper=sweeper(conn, RQDispatcher(jobs)), deps=deps)


# -- the webhook ---------------------------------------------------------------------------------
def secrets(settings: Settings) -> WebhookSecrets:
    """The webhook's token, app id, AES key and message mode."""
    from bot.wechat.crypto import Mode, WebhookSecrets

    aes = settings.wechat_aes_key or None
    mode: Mode = settings.wechat_mode or ("compatible" if aes else "plain")
    return WebhookSecrets(token=settings.wechat_token, app_id=settings.wechat_app_id, aes_key=aes, mode=mode)


def webhook_config(settings: Settings, *, path: str = "/wechat", reply_wait_s: float | None = None,
                   **timing: Any) -> WebhookConfig:
    """The webhook's secrets, limits and passive-reply wait (``reply_wait_s`` overrides the setting;
    ``timing``: other :class:`~bot.webhook.WebhookConfig` fields, for tests and benchmarks)."""
    from bot.webhook import WebhookConfig

    wait = reply_wait_s if reply_wait_s is not None else settings.passive_wait_seconds
    return WebhookConfig(secrets=secrets(settings), path=path, body_limit=settings.max_body_bytes,
                         reply_wait_s=wait, rate_limit_per_minute=settings.rate_limit_per_minute, **timing)


@dataclass
class Webhook:
    """``wxbot serve``: the ASGI app, its Redis and, in embedded mode, the in-process worker's deps."""

    app: Any
    redis: Any
    deps: WorkerDeps | None = None  # embedded mode only
    inline: InlineDispatcher | None = None  # embedded mode only: the in-process worker (stopped by serve)


def webhook(settings: Settings, *, path: str = "/wechat", reply_wait_s: float | None = None,
            engine_ref: str = DEFAULT_ENGINE_FACTORY, admin: bool = True, sweep: bool = True,
            **timing: Any) -> Webhook:
    """The webhook app for ``settings``: the RQ dispatcher on the configured Redis, or (embedded) the
    in-process substitute with drain threads; ``/admin``, ``/simulator`` and ``/metrics`` mounted
    unless ``admin`` is false (a benchmark's bare webhook)."""
    from bot.admin import mount
    from bot.queue import RQDispatcher
    from bot.webhook import create_app, script_runner
    from bot.worker import InlineDispatcher

    conn = redis_client(settings)
    deps = None
    inline = None
    store: ContextStore | None = None
    dispatch: Any
    if settings.embedded:
        handler, sql = turn_handler(settings, conn, engine_ref)
        deps = worker_deps(settings, conn, handler, sql=sql)
        dispatch = inline = InlineDispatcher(deps)
        store = handler.store  # contexts live in the engine's own store in embedded mode
    else:
        dispatch = RQDispatcher(queue(conn))
    target = None if settings.embedded else settings.redis_target()  # a URL, or the master Sentinel names
    app = create_app(webhook_config(settings, path=path, reply_wait_s=reply_wait_s, **timing), redis=conn,
                     dispatch=dispatch, sweep=sweep, scripts=script_runner(conn, target))
    if admin:
        mount(app, admin_deps(settings, conn, store or RedisContextStore(conn)), webhook_path=path)
    return Webhook(app=app, redis=conn, deps=deps, inline=inline)


def admin_deps(settings: Settings, redis: Any, store: ContextStore) -> AdminDeps:
    """What the admin pages and the simulator read and use."""
    from bot.admin import AdminDeps

    return AdminDeps(settings=settings, redis=redis, store=store, transcript=transcript(settings, redis),
                     secrets=secrets(settings), sandbox=rerun_sandbox(settings))


# -- the scheduler -------------------------------------------------------------------------------
def scheduler(sql: SQLEngine, redis: Any, sink: PushSink, clock: Callable[[], datetime], *, ttl_ms: int = 10_000,
              tick_seconds: float = 0.5, name: str | None = None, batch: int = 5000,
              lease_key: str | None = None) -> Scheduler:
    """The reminder scheduler with a fresh lease token (one per process; ``lease_key``: a lease of its own)."""
    from bot.scheduler import LeaderLease, Scheduler

    token = name or uuid.uuid4().hex
    return Scheduler(db=sql, lease=LeaderLease(redis, token, ttl_ms=ttl_ms, key=lease_key), sink=sink, clock=clock,
                     tick_seconds=tick_seconds, batch=batch, name=token[:8])


def embedded_scheduler(hook: Webhook) -> Callable[[], None]:
    """Embedded mode: fire due reminders from a thread of this process; returns the function that stops
    it (the tick in flight finishes and the thread ends, waited for a few seconds at most)."""
    from bot.scheduler import DeliverySink
    from runtime.clock import SystemClock

    deps = hook.deps
    if deps is None or deps.sql_engine is None:
        raise RuntimeError("the embedded scheduler runs beside an embedded webhook with business tables")
    clock = SystemClock()

    def shown(push: Any) -> None:  # the reminder that fired is the focus of what the user says next
        deps.turns.show(push.user, *push.shown(), at=clock.now())

    loop = scheduler(deps.sql_engine, hook.redis, DeliverySink(deps.delivery, deps.sql_engine, shown), clock.now)
    stop = threading.Event()
    thread = threading.Thread(target=loop.run, args=(stop,), name="wxbot-scheduler", daemon=True)
    thread.start()

    def stopped() -> None:
        stop.set()
        thread.join(timeout=5)

    return stopped
