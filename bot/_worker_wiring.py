"""Build the edge's objects from Settings (shared by ``wxbot serve`` and ``wxbot worker``)."""

from __future__ import annotations

import importlib
from typing import Any, cast

from bot._delivery_transcript import TranscribedDelivery
from bot._webhook_crypto import Mode, WebhookSecrets
from bot._webhook_redis import RedisClient
from bot.delivery import TemplateConfig
from bot.queue import make_queue
from bot.wechat import AccessTokenService, WeChatpyAPI
from bot.wechat.adapter import StableTokenFetcher
from bot.worker import EdgeRuntime, TurnEngine
from runtime.transcript import TranscribedEngine, Transcript

DEFAULT_ENGINE = "bot._worker_wiring:app_engine"


def app_engine(settings: Any, redis: RedisClient) -> TurnEngine:
    """The real engine, wired by :func:`bot.app.build_runtime` on the same Redis connection."""
    from bot.app import build_runtime

    engine: TurnEngine = build_runtime(settings, redis=redis).engine
    return engine


def load_engine(ref: str, settings: Any, redis: RedisClient) -> TurnEngine:
    """Import ``module:callable`` and call it with ``(settings, redis)``."""
    module, _, name = ref.partition(":")
    try:
        factory = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise SystemExit(f"cannot load engine factory {ref!r}: {exc}; pass --engine module:callable") from exc
    engine: TurnEngine = factory(settings, redis)
    return engine


def wechat_api(settings: Any, redis: RedisClient) -> WeChatpyAPI:
    app_id, secret = settings.wechat_app_id, settings.wechat_app_secret
    base = settings.wechat_api_base
    tokens = AccessTokenService(redis, StableTokenFetcher(app_id, secret, base_url=base), app_id=app_id or "app")
    return WeChatpyAPI(app_id=app_id, secret=secret, tokens=tokens, base_url=base,
                       timeout=float(getattr(settings, "wechat_api_timeout", 5.0)))


def delivery(settings: Any, redis: RedisClient) -> TranscribedDelivery:
    templates = TemplateConfig(
        template_id=settings.wechat_template_id or None,
        template_field=getattr(settings, "wechat_template_field", "content"),
        subscribe_template_id=getattr(settings, "wechat_subscribe_template_id", "") or None,
        subscribe_field=getattr(settings, "wechat_subscribe_field", "thing1"),
    )
    service = TranscribedDelivery(redis, wechat_api(settings, redis), templates=templates)
    service.transcript = Transcript.from_settings(redis, settings)
    return service


def runtime(settings: Any, redis: RedisClient, *, engine_ref: str, lease_ttl_ms: int = 3_000) -> EdgeRuntime:
    """The worker's runtime: the engine (every turn recorded in the transcript), delivery and queue."""
    engine = TranscribedEngine(load_engine(engine_ref, settings, redis), Transcript.from_settings(redis, settings))
    return EdgeRuntime(redis=redis, engine=engine, delivery=delivery(settings, redis), queue=make_queue(redis),
                       lease_ttl_ms=lease_ttl_ms)


def secrets(settings: Any) -> WebhookSecrets:
    aes = settings.wechat_aes_key or None
    mode = getattr(settings, "wechat_mode", "") or ("compatible" if aes else "plain")
    if mode not in ("plain", "compatible", "safe"):
        raise SystemExit(f"WECHAT_MODE must be plain, compatible or safe, not {mode!r}")
    return WebhookSecrets(token=settings.wechat_token, app_id=settings.wechat_app_id, aes_key=aes,
                          mode=cast(Mode, mode))
