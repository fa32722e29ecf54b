"""``wxbot serve``: the WeChat webhook (uvicorn). Without REDIS_URL it also runs the worker inside."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.app import DEFAULT_ENGINE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--path", default="/wechat")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="embedded mode: engine factory module:callable")
    parser.add_argument("--reply-wait", type=float, default=None, help="seconds to wait for a passive reply")


def build_app(args: argparse.Namespace, settings: Any) -> Any:
    """The ASGI app for ``settings`` (embedded: fakeredis + in-process drain threads)."""
    from bot import app as wiring
    from bot.queue import RQDispatcher, make_queue
    from bot.webhook import create_app, script_runner

    store: Any = None
    conn = wiring.make_redis(settings)  # embedded: the in-process substitute the engine's store also uses
    if not settings.embedded:
        dispatch: Any = RQDispatcher(make_queue(conn))
    else:
        from bot.worker import InlineDispatcher

        handler, sql = wiring.turn_handler(settings, conn, args.engine)
        edge = wiring.worker_runtime(settings, conn, handler, sql=sql)
        dispatch = InlineDispatcher(edge)
        store = handler.store  # contexts live in the engine's own store in embedded mode
    config = wiring.webhook_config(settings, path=args.path, reply_wait_s=args.reply_wait)
    target = None if settings.embedded else settings.redis_target()  # a URL, or the master Sentinel names
    app = create_app(config, redis=conn, dispatch=dispatch, scripts=script_runner(conn, target))
    from bot.admin import AdminDeps, mount

    mount(app, AdminDeps.build(settings, conn, store), webhook_path=args.path)  # /admin, /simulator, /metrics
    if settings.embedded:
        app.state.embedded_edge = edge
        app.state.embedded_redis = conn
    return app


def start_embedded_scheduler(app: Any, settings: Any) -> Any:
    """Embedded mode: fire due reminders from a thread of this process (returns its stop event)."""
    import threading

    from bot.scheduler import DeliverySink, make_scheduler
    from runtime.clock import SystemClock

    edge = app.state.embedded_edge
    db = edge.sql_engine()
    clock = SystemClock()

    def shown(push: Any) -> None:  # the reminder that fired is the focus of what the user says next
        edge.engine.show(push.user, *push.shown(), at=clock.now())

    scheduler = make_scheduler(db, app.state.embedded_redis, DeliverySink(edge.delivery, db, shown), clock.now)
    stop = threading.Event()
    threading.Thread(target=scheduler.run, args=(stop,), name="wxbot-scheduler", daemon=True).start()
    return stop


def refusal(settings: Any) -> str | None:
    """Why ``wxbot serve`` must not start with ``settings`` (one line naming the setting), or None."""
    problem = settings.unsafe_secret()
    return f"wxbot serve: {problem}" if problem else None


def run(args: argparse.Namespace, settings: Any) -> int:
    import uvicorn

    from bot.commands.db import schema_gate
    from bot.logs import configure_logging, log_startup

    if (unsafe := refusal(settings)) is not None:
        print(unsafe, file=sys.stderr)
        return 2
    # the webhook itself writes no SQL: it checks the schema when its embedded engine does, or when it
    # shares a database with the workers
    uses_sql = args.engine == DEFAULT_ENGINE if settings.embedded else bool(settings.database_url)
    if uses_sql and (gate := schema_gate(settings, "serve")) is not None:
        print(gate, file=sys.stderr)
        return 2
    configure_logging(settings)
    app = build_app(args, settings)
    if settings.embedded:
        start_embedded_scheduler(app, settings)
    if settings.metrics_addr:
        from bot.metrics import serve_metrics

        host, _, port = settings.metrics_addr.rpartition(":")
        serve_metrics(app.state.metrics, int(port), host.strip("[]"))
    log_startup("web+worker+scheduler (embedded)" if settings.embedded else "web", settings,
                listen=f"{args.host}:{args.port}", path=args.path, metrics_addr=settings.metrics_addr or None,
                admin=bool(settings.admin_token))
    # log_config=None: uvicorn's own lines go through the handler configure_logging set (JSON by default)
    uvicorn.run(app, host=args.host, port=args.port, log_level=settings.log_level, log_config=None,
                proxy_headers=True, forwarded_allow_ips=settings.forwarded_allow_ips)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run without the ``wxbot`` CLI: ``python -m bot.commands.serve``."""
    from bot.settings import Settings

    parser = argparse.ArgumentParser(prog="wxbot serve")
    add_arguments(parser)
    return run(parser.parse_args(argv), Settings.from_env())


if __name__ == "__main__":
    raise SystemExit(main())
