"""Prometheus metrics for the webhook and the workers (text exposition format at ``/metrics``).

Per-process figures (webhook requests, ack latency) live in the process. Figures the workers
produce (turns by stage, model calls, tokens, deliveries) and queue depths are read from Redis at
scrape time — the transcript counters are shared by every worker, so one scrape of any webhook
replica shows the whole deployment (use ``max`` rather than ``sum`` across replicas for those).
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

__all__ = ["Metrics", "RedisCollector", "RequestMetrics", "instrument", "metrics_routes", "serve_metrics"]

ACK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 4.5, 5.0, 6.0, 10.0)


class RedisCollector(Collector):
    """Reads the transcript counters and queue depths from Redis on every scrape."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def collect(self) -> Iterator[Metric]:
        from bot.queue.depths import queue_report
        from runtime.transcript import Transcript

        up = GaugeMetricFamily("wxbot_redis_up", "1 when the Redis-backed figures could be read")
        try:
            stats = Transcript(self._redis).stats()
            queues = queue_report(self._redis)
        except Exception as exc:  # a scrape must not fail because Redis blinked
            log.warning("metrics: redis unavailable: %s", type(exc).__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        turns = CounterMetricFamily("wxbot_turns", "Turns by deciding cascade stage", labels=["stage"])
        for stage, n in stats.by_stage.items():
            turns.add_metric([stage], n)
        yield turns
        zero = CounterMetricFamily("wxbot_turns_zero_model", "Turns answered without any model call")
        zero.add_metric([], stats.zero_model)
        yield zero
        calls = CounterMetricFamily("wxbot_model_calls", "Language-model calls by deciding stage", labels=["stage"])
        for stage, n in stats.llm_calls_by_stage.items():
            calls.add_metric([stage], n)
        yield calls
        tokens = CounterMetricFamily("wxbot_model_tokens", "Model tokens", labels=["kind"])
        tokens.add_metric(["prompt"], stats.prompt_tokens)
        tokens.add_metric(["completion"], stats.completion_tokens)
        yield tokens
        deliveries = CounterMetricFamily("wxbot_deliveries", "Outgoing texts by kind, channel and outcome",
                                         labels=["kind", "channel", "outcome"])
        for field, n in stats.deliveries.items():
            kind, channel, outcome = (field.split(":", 2) + ["", ""])[:3]
            deliveries.add_metric([kind, channel, outcome], n)
        yield deliveries
        latency = GaugeMetricFamily("wxbot_turn_latency_ms", "Engine latency over recent turns",
                                    labels=["quantile"])
        for q, value in (("0.5", stats.latency.p50), ("0.9", stats.latency.p90), ("0.99", stats.latency.p99)):
            latency.add_metric([q], value)
        yield latency
        depth = GaugeMetricFamily("wxbot_queue_jobs", "RQ jobs by queue and state", labels=["queue", "state"])
        for queue in queues.queues:
            for state in ("queued", "started", "failed", "scheduled"):
                depth.add_metric([queue.name, state], getattr(queue, state))
        yield depth
        boxes = GaugeMetricFamily("wxbot_mailbox_messages", "Messages waiting in user mailboxes")
        boxes.add_metric([], queues.mailbox_messages)
        yield boxes


class Metrics:
    """One registry per process (never the global one, so tests and apps never collide)."""

    def __init__(self, redis: Any = None) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("wxbot_webhook_requests", "HTTP requests by route group, method and status",
                                ["route", "method", "status"], registry=self.registry)
        self.ack_seconds = Histogram("wxbot_webhook_ack_seconds",
                                     "Time from a WeChat POST arriving to the webhook answering it",
                                     buckets=ACK_BUCKETS, registry=self.registry)
        if redis is not None:
            self.registry.register(RedisCollector(redis))

    def render(self) -> bytes:
        """The exposition text."""
        return generate_latest(self.registry)


def _group(path: str, webhook_path: str) -> str:
    if path == webhook_path:
        return "webhook"
    for prefix in ("admin", "simulator", "metrics"):
        if path == f"/{prefix}" or path.startswith(f"/{prefix}/"):
            return prefix
    return "other"  # bounded label values: never the raw path


class RequestMetrics:
    """ASGI middleware: counts requests and times the webhook's answers (the ack WeChat waits for)."""

    def __init__(self, app: ASGIApp, metrics: Metrics, webhook_path: str = "/wechat") -> None:
        self.app = app
        self.metrics = metrics
        self.webhook_path = webhook_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        group = _group(scope["path"], self.webhook_path)
        status = {"code": 500}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                if group == "webhook" and scope["method"] == "POST":
                    self.metrics.ack_seconds.observe(time.perf_counter() - started)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            self.metrics.requests.labels(group, scope["method"], str(status["code"])).inc()


def instrument(app: Any, metrics: Metrics, *, webhook_path: str = "/wechat") -> None:
    """Add :class:`RequestMetrics` to a Starlette app (before it starts serving)."""
    app.add_middleware(RequestMetrics, metrics=metrics, webhook_path=webhook_path)


def metrics_routes(metrics: Metrics, *, token: str = "") -> list[BaseRoute]:
    """``GET /metrics`` on the app's own port: only with ``Authorization: Bearer <ADMIN_TOKEN>``; 404
    without it, and 404 for everyone when no token is set. The client's address does not count (behind
    a proxy every client is local). For a scraper without the token use :func:`serve_metrics`."""

    async def endpoint(request: Request) -> Response:
        offered = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        if not token or not hmac.compare_digest(offered.encode(), token.encode()):
            return Response("Not Found", status_code=404)
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    return [Route("/metrics", endpoint, methods=["GET"])]


def serve_metrics(metrics: Metrics, port: int, addr: str = "127.0.0.1") -> Any:
    """Expose ``metrics`` without a token on a listener of their own, ``addr:port`` (a thread;
    ``METRICS_ADDR``). Keep ``addr`` off the internet: bind it to loopback or a private network."""
    from prometheus_client import start_http_server

    return start_http_server(port, addr=addr, registry=metrics.registry)
