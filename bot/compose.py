"""The composition root: every long-lived object of a wxbot process is built here, from :class:`Settings`.

Redis clients, SQL engines, the conversation engine with its skills and ports (the model port, weather,
the intent model), the WeChat API, delivery, RQ queues, dispatchers, the sweeper, the worker and its
:class:`~bot.worker.WorkerDeps`, the scheduler and the webhook ASGI app. Commands, benchmarks and the
admin surfaces call these builders, with keyword overrides where they need something else (a test's
Redis, a scratch database, a benchmark's timing); they never construct such objects themselves, and
everything built here is handed down explicitly. ``tests/bot/test_composition.py`` fails the build
when one is constructed anywhere else under ``bot/``.

The edge's modules are imported inside the builders, so ``wxbot chat`` loads none of them.
"""

from __future__ import annotations

import importlib
import logging
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine as SQLEngine

from bot.settings import Settings
from runtime.engine import Engine
from runtime.store import ContextStore, InMemoryContextStore, RedisContextStore
from runtime.transcript import TranscribedTurns, Transcript, TurnHandler
from skills.services import Services

if TYPE_CHECKING:
    from rq import Queue

    from bot.admin import AdminDeps
    from bot.admin.rerun import Sandbox
    from bot.delivery.transcribed import TranscribedDelivery
    from bot.queue import Dispatcher, SweeperThread
    from bot.redis_client import RedisClient, RedisTarget
    from bot.scheduler import PushSink, Scheduler
    from bot.webhook import WebhookConfig
    from bot.wechat import WeChatpyAPI
    from bot.wechat.crypto import WebhookSecrets
    from bot.worker import EdgeWorker, WorkerDeps

log = logging.getLogger(__name__)

__all__ = ["DEFAULT_ENGINE_FACTORY", "Core", "Webhook", "WorkerProcess", "admin_deps", "conversation_engine", "core",
           "delivery",
           "embedded_redis", "embedded_scheduler", "load_engine", "load_intent_model", "queue", "redis_at",
           "redis_client", "rerun_sandbox", "scheduler", "secrets", "sql_engine", "transcript", "turn_handler", "webhook",
           "webhook_config", "wechat_api", "worker_deps", "worker_process"]


# -- stores --------------------------------------------------------------------------------------
def embedded_redis() -> Any:
    """The in-process Redis substitute (embedded mode, a local chat, a re-run sandbox)."""
    import fakeredis

    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


def redis_at(target: RedisTarget | str) -> Any:
    """A client of the Redis server at ``target`` (a URL, or the master Sentinel names)."""
    from bot.redis_client import connect

    return connect(target)


def redis_client(settings: Settings) -> Any:
    """The configured Redis (or Sentinel's master), or an in-process substitute in embedded mode; one
    per process, shared by everything built from it."""
    return embedded_redis() if settings.embedded else redis_at(settings.redis_target())


def sql_engine(database: Settings | str, *, create_tables: bool = True) -> SQLEngine:
    """The business tables' SQLAlchemy engine (``database``: settings, or a URL), tables created unless
    ``create_tables`` is false (the migration commands manage the schema themselves)."""
    from skills.db import make_sql_engine
    from skills.migrate import init_db

    built = make_sql_engine(database if isinstance(database, str) else database.database())
    if create_tables:
        init_db(built)
    return built


def transcript(settings: Settings, redis: Any) -> Transcript:
    """The per-user transcript with the configured retention."""
    return Transcript(redis, max_len=settings.transcript_max_len, max_age_days=settings.transcript_max_age_days)


# -- the conversation engine ---------------------------------------------------------------------
@dataclass
class Core:
    """The conversation engine and what it was built on: everything one process needs to run turns."""

    settings: Settings
    redis: Any
    store: ContextStore
    services: Services
    engine: Engine


def load_intent_model(settings: Settings) -> Any:
    """The shipped local intent model, or None when disabled or unusable (logged, never fatal)."""
    if not settings.intent_model:
        return None
    try:
        from runtime.intent import load_default_model

        return load_default_model()
    except Exception as exc:  # the cascade works without it: rules, then fallback
        log.warning("intent model unavailable: %s", exc)
        return None


def _weather(settings: Settings, cache: Any) -> Any:
    """The weather provider: the deterministic fake when asked for, else the real adapter (if present)."""
    try:
        from skills.weather import provider_from_settings
    except ImportError:
        return None
    return provider_from_settings(fake=settings.weather_fake, base_url=settings.weather_base_url,
                                  geocoding_url=settings.weather_geocoding_url, cache=cache)


def core(settings: Settings, *, store: ContextStore | None = None, redis: Any = None,
         database_url: str | None = None, weather: Any = None) -> Core:
    """The engine with every port wired from ``settings`` (keywords override for tests and scripts)."""
    from bot.recording import RecordingCache, RecordingWeather  # a re-run answers what the turn recorded
    from runtime.intent import DEFAULT_THRESHOLD  # chosen on the dev split with the shipped model
    from runtime.llm import build_llm
    from runtime.skill import SkillRegistry
    from skills import all_skills

    redis = redis if redis is not None else redis_client(settings)
    if store is None:
        store = (InMemoryContextStore() if settings.embedded
                 else RedisContextStore(redis, idle_ttl=settings.context_idle_ttl))
    db = sql_engine(database_url or settings)
    weather = weather if weather is not None else _weather(settings, redis)
    services = Services(db=db, weather=None if weather is None else RecordingWeather(weather),
                        cache=None if redis is None else RecordingCache(redis))
    engine = Engine(store=store, registry=SkillRegistry(all_skills()), services=services, tz=settings.wxbot_tz,
                    intent_model=load_intent_model(settings), intent_threshold=DEFAULT_THRESHOLD,
                    llm=build_llm(settings.llm_env()))
    return Core(settings=settings, redis=redis, store=store, services=services, engine=engine)


DEFAULT_ENGINE_FACTORY = "bot.compose:conversation_engine"


def conversation_engine(settings: Settings, redis: RedisClient) -> TurnHandler:
    """The real engine, built by :func:`core` on the same Redis connection."""
    return core(settings, redis=redis).engine


def load_engine(ref: str, settings: Settings, redis: RedisClient) -> TurnHandler:
    """Import ``module:callable`` (an older name is mapped by :mod:`bot.upgrade`) and call it with
    ``(settings, redis)``."""
    from bot.upgrade import current_engine_factory

    module, _, name = current_engine_factory(ref).partition(":")
    try:
        factory = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"cannot load engine factory {ref!r}: {exc}; pass --engine module:callable") from exc
    handler: TurnHandler = factory(settings, redis)
    return handler


def turn_handler(settings: Settings, redis: RedisClient,
                 engine_ref: str = DEFAULT_ENGINE_FACTORY) -> tuple[TurnHandler, SQLEngine | None]:
    """The engine ``engine_ref`` names and, for the bot's own engine, its business tables' engine."""
    from bot.upgrade import current_engine_factory

    if current_engine_factory(engine_ref) == DEFAULT_ENGINE_FACTORY:
        built = core(settings, redis=redis)
        return built.engine, built.services.db
    return load_engine(engine_ref, settings, redis), None


# -- WeChat and delivery -------------------------------------------------------------------------
def wechat_api(settings: Settings, redis: RedisClient) -> WeChatpyAPI:
    """The WeChat API client, its access_token shared through Redis."""
    from bot.wechat import AccessTokenService, StableTokenFetcher, WeChatpyAPI

    app_id, secret, base = settings.wechat_app_id, settings.wechat_app_secret, settings.wechat_api_base
    tokens = AccessTokenService(redis, StableTokenFetcher(app_id, secret, base_url=base), app_id=app_id or "app")
    return WeChatpyAPI(app_id=app_id, secret=secret, tokens=tokens, base_url=base, timeout=settings.wechat_api_timeout)


def delivery(settings: Settings, redis: RedisClient) -> TranscribedDelivery:
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
    service.transcript = transcript(settings, redis)
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

    turns = TranscribedTurns(handler, transcript(settings, redis))
    return WorkerDeps(redis=redis, turns=turns, delivery=delivery(settings, redis), queue=queue(redis),
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
                   name: str | None = None) -> WorkerProcess:
    """Everything ``wxbot worker`` runs, on the configured Redis."""
    from bot.queue import RQDispatcher
    from bot.worker import EdgeWorker

    conn = redis_at(settings.redis_target())
    handler, sql = turn_handler(settings, conn, engine_ref)
    deps = worker_deps(settings, conn, handler, sql=sql, lease_ttl_ms=lease_ttl_ms, typing_after_s=typing_after_s,
                       lanes=lanes)
    jobs = queue(conn, queue_name)
    return WorkerProcess(worker=EdgeWorker([jobs], connection=conn, deps=deps, name=name), queue=jobs,
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
    store: ContextStore | None = None
    dispatch: Any
    if settings.embedded:
        handler, sql = turn_handler(settings, conn, engine_ref)
        deps = worker_deps(settings, conn, handler, sql=sql)
        dispatch = InlineDispatcher(deps)
        store = handler.store  # contexts live in the engine's own store in embedded mode
    else:
        dispatch = RQDispatcher(queue(conn))
    target = None if settings.embedded else settings.redis_target()  # a URL, or the master Sentinel names
    app = create_app(webhook_config(settings, path=path, reply_wait_s=reply_wait_s, **timing), redis=conn,
                     dispatch=dispatch, sweep=sweep, scripts=script_runner(conn, target))
    if admin:
        mount(app, admin_deps(settings, conn, store or RedisContextStore(conn)), webhook_path=path)
    return Webhook(app=app, redis=conn, deps=deps)


def admin_deps(settings: Settings, redis: Any, store: ContextStore) -> AdminDeps:
    """What the admin pages and the simulator read and use."""
    from bot.admin import AdminDeps

    return AdminDeps(settings=settings, redis=redis, store=store, transcript=transcript(settings, redis),
                     secrets=secrets(settings), sandbox=rerun_sandbox(settings))


def rerun_sandbox(settings: Settings) -> Sandbox:
    """Throw-away engines for re-runs (the admin page, ``wxbot replay --rerun``): embedded Redis, an
    in-memory context store, a scratch SQLite file (removed afterwards), fake weather unless the
    re-run passes the recorded one, and no model unless asked."""
    from bot.admin.rerun import sandbox_settings

    @contextmanager
    def sandbox(*, with_llm: bool, weather: Any) -> Iterator[TurnHandler]:
        directory = Path(tempfile.mkdtemp(prefix="wxbot-rerun-"))
        try:
            local = sandbox_settings(settings, directory, with_llm=with_llm)
            yield core(local, store=InMemoryContextStore(), redis=embedded_redis(),
                       database_url=f"sqlite:///{directory / 'rerun.db'}", weather=weather).engine
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    return sandbox


# -- the scheduler -------------------------------------------------------------------------------
def scheduler(sql: SQLEngine, redis: Any, sink: PushSink, clock: Callable[[], datetime], *, ttl_ms: int = 10_000,
              tick_seconds: float = 0.5, name: str | None = None, batch: int = 5000,
              lease_key: str | None = None) -> Scheduler:
    """The reminder scheduler with a fresh lease token (one per process; ``lease_key``: a lease of its own)."""
    from bot.scheduler import LeaderLease, Scheduler

    token = name or uuid.uuid4().hex
    return Scheduler(db=sql, lease=LeaderLease(redis, token, ttl_ms=ttl_ms, key=lease_key), sink=sink, clock=clock,
                     tick_seconds=tick_seconds, batch=batch, name=token[:8])


def embedded_scheduler(hook: Webhook) -> threading.Event:
    """Embedded mode: fire due reminders from a thread of this process (returns its stop event)."""
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
    threading.Thread(target=loop.run, args=(stop,), name="wxbot-scheduler", daemon=True).start()
    return stop
