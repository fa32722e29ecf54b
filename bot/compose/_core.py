"""The stores and the conversation engine: Redis clients, the SQL engine, the transcript, the engine
with its skills and ports, and the throw-away engines of re-runs."""

from __future__ import annotations

import importlib
import logging
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine as SQLEngine

from bot.settings import Settings
from runtime.engine import Engine
from runtime.store import ContextStore, InMemoryContextStore, RedisContextStore
from runtime.transcript import StatsTally, Transcript, TurnHandler
from skills.services import Services

if TYPE_CHECKING:
    from bot.admin.rerun import Sandbox
    from bot.redis_client import RedisClient, RedisTarget

log = logging.getLogger("bot.compose")


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


def transcript(settings: Settings, redis: Any, tally: StatsTally | None = None) -> Transcript:
    """The per-user transcript with the configured retention (``tally``: where its records' global
    stats gather until the owner flushes them; without one they are written with each record)."""
    return Transcript(redis, max_len=settings.transcript_max_len, max_age_days=settings.transcript_max_age_days,
                      tally=tally)


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
