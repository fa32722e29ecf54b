"""Wiring: build the engine and its dependencies from Settings (the only place that does)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bot.settings import Settings
from runtime.engine import Engine
from runtime.skill import SkillRegistry
from runtime.store import ContextStore, InMemoryContextStore, RedisContextStore
from skills import all_skills
from skills.db import init_db, make_engine
from skills.services import Services

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
        from bot._redis_client import connect

        return connect(settings.redis_target())
    import fakeredis

    return fakeredis.FakeRedis(server=_embedded_server())


_SERVER: Any = None


def _embedded_server() -> Any:
    global _SERVER
    if _SERVER is None:
        import fakeredis

        _SERVER = fakeredis.FakeServer()
    return _SERVER


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
    services = Services(db=db, weather=weather if weather is not None else make_weather(settings, redis),
                        cache=redis)
    model = load_intent_model(settings)
    engine = Engine(store=store, registry=SkillRegistry(all_skills()), services=services, tz=settings.wxbot_tz,
                    intent_model=model, intent_threshold=DEFAULT_THRESHOLD, llm=build_llm(settings.llm_env()))
    return Runtime(settings=settings, redis=redis, store=store, services=services, engine=engine)
