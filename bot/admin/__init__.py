"""Admin and observability surfaces: the /admin pages, the /simulator page, re-run diffs, queue depths.

Mount everything on the webhook app with :func:`mount` (or extend its routes with
:func:`admin_routes` / :func:`simulator_routes` yourself).
"""

from __future__ import annotations

from typing import Any

from bot.admin._labels import counted_deliveries, delivery_label, entry_view, local_time, state_text
from bot.admin.overview import AdminDeps, collect_stats
from bot.admin.rerun import RerunReport, TurnDiff, rerun
from bot.admin.simulator import SimulatorConfig, simulator_routes
from bot.admin.web import admin_routes

__all__ = [
    "AdminDeps", "RerunReport", "SimulatorConfig", "TurnDiff", "admin_routes", "collect_stats", "counted_deliveries",
    "delivery_label", "entry_view", "local_time", "mount", "rerun", "simulator_routes", "state_text",
]


def mount(app: Any, deps: AdminDeps, *, webhook_path: str = "/wechat", metrics: bool = True) -> None:
    """Add /admin, /simulator (and /metrics) to a Starlette ``app`` built by ``bot.webhook.create_app``.

    Call before the app serves its first request. ``deps``: settings, the webhook's Redis client and
    the context store.
    """
    routes = admin_routes(deps) + simulator_routes(deps, SimulatorConfig(webhook_path=webhook_path))
    if metrics:
        from bot.metrics import Metrics, instrument, metrics_routes

        registry = Metrics(deps.redis)
        instrument(app, registry, webhook_path=webhook_path)
        app.state.metrics = registry  # `wxbot serve` also exposes it on METRICS_ADDR when set
        routes += metrics_routes(registry, token=deps.settings.admin_token)
    app.router.routes.extend(routes)
