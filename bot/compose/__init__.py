"""The composition root: every long-lived object of a wxbot process is built here, from :class:`Settings`.

Redis clients, SQL engines, the conversation engine with its skills and ports (the model port, weather,
the intent model), the WeChat API, delivery, RQ queues, dispatchers, the sweeper, the worker and its
:class:`~bot.worker.WorkerDeps`, the scheduler and the webhook ASGI app. Commands, benchmarks and the
admin surfaces call these builders, with keyword overrides where they need something else (a test's
Redis, a scratch database, a benchmark's timing); they never construct such objects themselves, and
everything built here is handed down explicitly. ``tests/bot/test_composition.py`` fails the build
when one is constructed anywhere else under ``bot/``. (A package only to keep its modules short:
``_core`` builds the stores and the engine, ``_edge`` what talks to WeChat and Redis queues.)

The edge's modules are imported inside the builders, so ``wxbot chat`` loads none of them.
"""

from bot.compose._core import (
    DEFAULT_ENGINE_FACTORY,
    Core,
    conversation_engine,
    core,
    embedded_redis,
    load_engine,
    load_intent_model,
    redis_at,
    redis_client,
    rerun_sandbox,
    sql_engine,
    transcript,
    turn_handler,
)
from bot.compose._edge import (
    Webhook,
    WorkerProcess,
    admin_deps,
    delivery,
    embedded_scheduler,
    queue,
    scheduler,
    secrets,
    sweeper,
    webhook,
    webhook_config,
    wechat_api,
    worker_deps,
    worker_process,
)

__all__ = [
    "DEFAULT_ENGINE_FACTORY", "Core", "Webhook", "WorkerProcess", "admin_deps", "conversation_engine", "core",
    "delivery", "embedded_redis", "embedded_scheduler", "load_engine", "load_intent_model", "queue", "redis_at",
    "redis_client", "rerun_sandbox", "scheduler", "secrets", "sql_engine", "sweeper", "transcript", "turn_handler",
    "webhook", "webhook_config", "wechat_api", "worker_deps", "worker_process",
]
