"""Wiring: every long-lived object of the processes, built from Settings (the only place that does):
the Redis client, the engine and its ports, the WeChat API, delivery, the worker's runtime and the
webhook's secrets."""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy.engine import Engine as SQLEngine

from bot.settings import Settings
from runtime.engine import Engine
from runtime.skill import SkillRegistry
from runtime.store import ContextStore, InMemoryContextStore, RedisContextStore
from runtime.transcript import TranscribedEngine, Transcript, TurnHandler
from skills import all_skills
from skills.db import make_engine
from skills.migrate import init_db
from skills.services import Services

if TYPE_CHECKING:  # the edge's modules load only in the processes that build the edge (not `wxbot chat`)
    from bot.delivery.transcribed import TranscribedDelivery
    from bot.redis_client import RedisClient
    from bot.webhook import WebhookConfig
    from bot.wechat import WeChatpyAPI
    from bot.wechat.crypto import WebhookSecrets
    from bot.worker import EdgeRuntime

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    """Everything one process needs to run turns."""

    settings: Settings
    redis: Any
    store: ContextStore
    services: Services
    engine: Engine


def make_redis(settings: Settings) -> Any:
    """A Redis client: the configured server (or Sentinel's master), or an in-process substitute
    (embedded mode)."""
    if not settings.embedded:
        from bot.redis_client import connect

        return connect(settings.redis_target())
    import fakeredis

    return fakeredis.FakeRedis(server=fakeredis.FakeServer())  # the caller shares it within the process


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


def make_weather(settings: Settings, cache: Any) -> Any:
    """The weather provider: the deterministic fake when asked for, else the real adapter (if present)."""
    try:
        from skills.weather import provider_from_settings
    except ImportError:
        return None
    return provider_from_settings(fake=settings.weather_fake, base_url=settings.weather_base_url,
                                  geocoding_url=settings.weather_geocoding_url, cache=cache)


def build_runtime(settings: Settings, *, store: ContextStore | None = None, redis: Any = None,
                  database_url: str | None = None, weather: Any = None) -> Runtime:
    """Build the engine with every port wired from ``settings`` (arguments override for tests/scripts)."""
    from runtime.intent import DEFAULT_THRESHOLD  # chosen on the dev split with the shipped model
    from runtime.llm import build_llm

    redis = redis if redis is not None else make_redis(settings)
    if store is None:
        store = (InMemoryContextStore() if settings.embedded
                 else RedisContextStore(redis, idle_ttl=settings.context_idle_ttl))
    db = make_engine(database_url or settings.database())
    init_db(db)
    # the ports' answers are recorded with each turn (bot/recording.py): a re-run answers the same
    from bot.recording import RecordingCache, RecordingWeather

    weather = weather if weather is not None else make_weather(settings, redis)
    services = Services(db=db, weather=None if weather is None else RecordingWeather(weather),
                        cache=None if redis is None else RecordingCache(redis))
    model = load_intent_model(settings)
    engine = Engine(store=store, registry=SkillRegistry(all_skills()), services=services, tz=settings.wxbot_tz,
                    intent_model=model, intent_threshold=DEFAULT_THRESHOLD, llm=build_llm(settings.llm_env()))
    return Runtime(settings=settings, redis=redis, store=store, services=services, engine=engine)


DEFAULT_ENGINE = "bot.app:app_engine"


def app_engine(settings: Any, redis: RedisClient) -> TurnHandler:
    """The real engine, wired by :func:`build_runtime` on the same Redis connection."""
    return build_runtime(settings, redis=redis).engine


def load_engine(ref: str, settings: Any, redis: RedisClient) -> TurnHandler:
    """Import ``module:callable`` and call it with ``(settings, redis)``."""
    module, _, name = ref.partition(":")
    try:
        factory = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"cannot load engine factory {ref!r}: {exc}; pass --engine module:callable") from exc
    engine: TurnHandler = factory(settings, redis)
    return engine


def wechat_api(settings: Any, redis: RedisClient) -> WeChatpyAPI:
    """The WeChat API client, its access_token shared through Redis."""
    from bot.wechat import AccessTokenService, StableTokenFetcher, WeChatpyAPI

    app_id, secret = settings.wechat_app_id, settings.wechat_app_secret
    base = settings.wechat_api_base
    tokens = AccessTokenService(redis, StableTokenFetcher(app_id, secret, base_url=base), app_id=app_id or "app")
    return WeChatpyAPI(app_id=app_id, secret=secret, tokens=tokens, base_url=base,
                       timeout=float(getattr(settings, "wechat_api_timeout", 5.0)))


def delivery(settings: Any, redis: RedisClient) -> TranscribedDelivery:
    """Delivery through the WeChat API, recording every outcome in the transcript."""
    from bot.delivery import TemplateConfig
    from bot.delivery.transcribed import TranscribedDelivery

    templates = TemplateConfig(
        template_id=settings.wechat_template_id or None,
        template_field=getattr(settings, "wechat_template_field", "content"),
        subscribe_template_id=getattr(settings, "wechat_subscribe_template_id", "") or None,
        subscribe_field=getattr(settings, "wechat_subscribe_field", "thing1"),
    )
    # a piece's claim waits for the replicas an accepted message waits for (REDIS_WAIT_REPLICAS)
    target = settings.redis_target() if hasattr(settings, "redis_target") and not settings.embedded else None
    service = TranscribedDelivery(redis, wechat_api(settings, redis), templates=templates,
                                  replicas=target.wait_replicas if target else 0,
                                  replica_timeout_ms=target.wait_timeout_ms if target else 500)
    service.transcript = Transcript.from_settings(redis, settings)
    return service


def turn_handler(settings: Any, redis: RedisClient,
                 engine_ref: str = DEFAULT_ENGINE) -> tuple[TurnHandler, SQLEngine | None]:
    """The engine ``engine_ref`` names and, for the bot's own engine, its business tables' engine."""
    if engine_ref == DEFAULT_ENGINE:
        built = build_runtime(settings, redis=redis)
        return built.engine, built.services.db
    return load_engine(engine_ref, settings, redis), None


def worker_runtime(settings: Any, redis: RedisClient, handler: TurnHandler, *, sql: SQLEngine | None = None,
                   lease_ttl_ms: int = 3_000) -> EdgeRuntime:
    """The worker's runtime: ``handler`` (every turn recorded in the transcript), delivery and queue."""
    from bot.queue import make_queue
    from bot.worker import EdgeRuntime

    engine = TranscribedEngine(handler, Transcript.from_settings(redis, settings))
    return EdgeRuntime(redis=redis, engine=engine, delivery=delivery(settings, redis), queue=make_queue(redis),
                       lease_ttl_ms=lease_ttl_ms, database_url=settings.database(), sql=sql)


def secrets(settings: Any) -> WebhookSecrets:
    """The webhook's token, app id, AES key and message mode."""
    from bot.wechat.crypto import Mode, WebhookSecrets

    aes = settings.wechat_aes_key or None
    mode = getattr(settings, "wechat_mode", "") or ("compatible" if aes else "plain")
    if mode not in ("plain", "compatible", "safe"):
        raise SystemExit(f"WECHAT_MODE must be plain, compatible or safe, not {mode!r}")
    return WebhookSecrets(token=settings.wechat_token, app_id=settings.wechat_app_id, aes_key=aes,
                          mode=cast(Mode, mode))


def webhook_config(settings: Any, *, path: str = "/wechat", reply_wait_s: float | None = None) -> WebhookConfig:
    """The webhook's secrets, limits and passive-reply wait (``reply_wait_s`` overrides the setting)."""
    from bot.webhook import WebhookConfig

    wait = reply_wait_s if reply_wait_s is not None else settings.passive_wait_seconds
    return WebhookConfig(secrets=secrets(settings), path=path, body_limit=settings.max_body_bytes,
                         reply_wait_s=wait, rate_limit_per_minute=settings.rate_limit_per_minute)
