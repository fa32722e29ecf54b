"""``wxbot serve``: the WeChat webhook (uvicorn). Without REDIS_URL it also runs the worker inside."""

from __future__ import annotations

import argparse
import sys

from bot.compose import DEFAULT_ENGINE_FACTORY
from bot.settings import Settings
from bot.stopping import StopRequest, end_process, stop_signals
from bot.upgrade import current_engine_factory

GRACE_S = 5  # seconds requests in flight get to finish after a stop signal (a reply wait is ≤ 4.9 s)
STARTUP_FAILED = 3  # uvicorn's own code when it could not start (the port taken …)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--path", default="/wechat")
    parser.add_argument("--engine", default=DEFAULT_ENGINE_FACTORY,
                        help="embedded mode: engine factory module:callable")
    parser.add_argument("--reply-wait", type=float, default=None, help="seconds to wait for a passive reply")


def refusal(settings: Settings) -> str | None:
    """Why ``wxbot serve`` must not start with ``settings`` (one line naming the setting), or None."""
    problem = settings.unsafe_secret()
    return f"wxbot serve: {problem}" if problem else None


def run(args: argparse.Namespace, settings: Settings, stop: StopRequest) -> int:
    """Serve until SIGTERM/SIGINT (``stop``: the process's stop request, installed before the start): then
    requests in flight get up to :data:`GRACE_S` to finish, the embedded worker finishes its turns in
    flight, and the exit code is 0."""
    import uvicorn

    from bot import compose
    from bot.commands.db import schema_gate
    from bot.logs import configure_logging, log_startup

    if (unsafe := refusal(settings)) is not None:
        print(unsafe, file=sys.stderr)
        return 2
    # the webhook itself writes no SQL: it checks the schema when its embedded engine does, or when it
    # shares a database with the workers
    uses_sql = current_engine_factory(args.engine) == DEFAULT_ENGINE_FACTORY if settings.embedded else bool(settings.database_url)
    if uses_sql and (gate := schema_gate(settings, "serve")) is not None:
        print(gate, file=sys.stderr)
        return 2
    configure_logging(settings)
    hook = compose.webhook(settings, path=args.path, reply_wait_s=args.reply_wait, engine_ref=args.engine)
    app = hook.app
    stop_scheduler = compose.embedded_scheduler(hook) if settings.embedded else None
    if settings.metrics_addr:
        from bot.metrics import serve_metrics

        host, _, port = settings.metrics_addr.rpartition(":")
        serve_metrics(app.state.metrics, int(port), host.strip("[]"))
    log_startup("web+worker+scheduler (embedded)" if settings.embedded else "web", settings,
                listen=f"{args.host}:{args.port}", path=args.path, metrics_addr=settings.metrics_addr or None,
                admin=bool(settings.admin_token))
    # log_config=None: uvicorn's own lines go through the handler configure_logging set (JSON by default)
    server = uvicorn.Server(uvicorn.Config(
        app, host=args.host, port=args.port, log_level=settings.log_level, log_config=None, proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips, timeout_graceful_shutdown=GRACE_S))
    # uvicorn takes the signals while it serves and afterwards raises the one it caught again, under
    # the handler it found: the stop request's, which only marks the process as stopping (no -15)
    stop.on_stop(lambda: setattr(server, "should_exit", True))  # a signal before uvicorn took them
    stop.started()
    try:
        if not stop.requested:
            server.run()
    finally:
        if stop_scheduler is not None:
            stop_scheduler()
        if hook.inline is not None:
            hook.inline.stop()
        if hook.deps is not None and hook.deps.sql_engine is not None:
            hook.deps.sql_engine.dispose()
    return 0 if server.started or stop.requested else STARTUP_FAILED


def main(argv: list[str] | None = None) -> int:
    """Run without the ``wxbot`` CLI: ``python -m bot.commands.serve``."""
    parser = argparse.ArgumentParser(prog="wxbot serve")
    add_arguments(parser)
    with stop_signals() as stop:
        return run(parser.parse_args(argv), Settings.from_env(), stop)


if __name__ == "__main__":
    end_process(main(), fast=True)
