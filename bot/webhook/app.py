"""The WeChat webhook: an ASGI app (Starlette) that verifies, dedupes, enqueues and waits briefly.

GET: URL verification. POST: signature (and ``msg_signature``) first → 403; body cap → 413;
safe XML parsing → 400; then the message is appended to the user's mailbox exactly once across
replicas and WeChat retries, a drain job is dispatched, and the request waits up to
``reply_wait_s`` for the reply to answer passively (``0``: never wait, every reply goes through the
API). A retry of the same message keeps waiting for
the same reply; when the last attempt times out the request answers ``success`` and the worker
delivers through the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.delivery.handoff import poll_call, release_call, state_text
from bot.queue import Admitted, Dispatcher, RQDispatcher, admit_call, admitted, enqueue_drainer
from bot.queue.sweeper import sweep_once
from bot.redis_client import RedisClient
from bot.webhook._aio import ScriptRunner, ThreadedScripts
from bot.webhook._asgi import (
    TEXT,
    XML,
    AsgiEndpoint,
    BodyTooLarge,
    Receive,
    Reply,
    Scope,
    Send,
    query_of,
    read_body,
)
from bot.wechat.crypto import BadSignature, WebhookSecrets, check_signature, open_body, text_reply
from bot.wechat.inbound import MalformedMessage, WeChatMessage, parse_message
from bot.wechat.texts import RATE_LIMITED
from bot.wechat.triage import waits_for_reply

log = logging.getLogger("bot.webhook")  # its name before the move: operators filter on it
SUCCESS: Reply = (200, b"success", TEXT)
FORBIDDEN: Reply = (403, b"forbidden", TEXT)


@dataclass(frozen=True)
class WebhookConfig:
    """Timing and limits; WeChat waits 5 s per attempt and makes 3 attempts."""

    secrets: WebhookSecrets
    path: str = "/wechat"
    body_limit: int = 64 * 1024
    reply_wait_s: float = 4.5
    hold_s: float = 5.5
    max_attempts: int = 3
    attempt_period_s: float = 5.0
    poll_s: float = 0.05
    notified_poll_s: float = 0.5  # with reply notifications, a waiting request only re-checks this often
    sweep_interval_s: float = 1.0
    rate_limit_per_minute: int = 30
    io_threads: int = 32  # blocking Redis calls run here; waiting requests each hold one briefly

    @property
    def release_after_s(self) -> float:
        return self.attempt_period_s * self.max_attempts + 1.0


class WebhookApp(Starlette):
    """Starlette, except that a POST to the webhook path skips the router and Starlette's own error
    and exception layers (~7 % of an ack; an exception still becomes a 500, from uvicorn). Middleware
    added with ``add_middleware`` (the metrics) wraps the hot path too."""

    def __init__(self, *, hot: tuple[str, AsgiEndpoint], **kw: Any) -> None:
        super().__init__(**kw)
        self._hot_path, self._hot = hot
        self._hot_stack: Any = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == self._hot_path:
            if self._hot_stack is None:
                stack: Any = self._hot
                for cls, args, kwargs in reversed(self.user_middleware):
                    stack = cls(stack, *args, **kwargs)
                self._hot_stack = stack
            scope["app"] = self
            await self._hot_stack(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def add_middleware(self, *args: Any, **kwargs: Any) -> None:
        super().add_middleware(*args, **kwargs)
        self._hot_stack = None


def create_app(config: WebhookConfig, *, redis: RedisClient, dispatch: Dispatcher,
               clock: Callable[[], float] = time.time, sweep: bool = True,
               scripts: ScriptRunner | None = None) -> Starlette:
    """Build the webhook app. ``redis`` is a sync client (the pub/sub notifier, the sweeper, rare
    dispatch calls: off the event loop); the per-request scripts go through ``scripts`` (default:
    ``redis`` on a thread pool; :func:`bot.webhook._aio.script_runner` pipelines them)."""
    io = scripts if scripts is not None else ThreadedScripts(redis, config.io_threads)
    rq = dispatch if isinstance(dispatch, RQDispatcher) else None  # its ready-list push rides in the admit
    schedule = rq.schedule if rq is not None else None
    conf = config.secrets

    async def verify(request: Request) -> Response:
        try:
            check_signature(conf, request.query_params)
        except BadSignature:
            return PlainTextResponse("forbidden", status_code=403)
        return PlainTextResponse(request.query_params.get("echostr", ""))

    async def receive(scope: Scope, receive_body: Receive) -> Reply:
        started = time.monotonic()
        query = query_of(scope)
        try:
            check_signature(conf, query)
            body = await read_body(scope, receive_body, config.body_limit)
            msg = parse_message(open_body(conf, query, body))
        except BadSignature:
            return FORBIDDEN
        except BodyTooLarge:
            return 413, b"payload too large", TEXT
        except MalformedMessage:
            return 400, b"bad request", TEXT
        waits = waits_for_reply(msg) and config.reply_wait_s > 0
        if not waits:
            return await _accept(query, msg, waits, started, None)
        member = f"{msg.user}|{msg.message_key}"
        woken = notifier.register(member)  # before the admit: a reply can never slip past unnoticed
        try:
            return await _accept(query, msg, waits, started, woken)
        finally:
            notifier.unregister(member, woken)

    def _passive(query: dict[str, str], msg: WeChatMessage, text: str) -> Reply:
        return 200, text_reply(conf, query, user=msg.user, account=msg.account, text=text).encode(), XML

    async def _accept(query: dict[str, str], msg: WeChatMessage, waits: bool, started: float,
                      woken: asyncio.Event | None) -> Reply:
        try:
            admitted = await _admit(msg, waits, clock())
        except RedisError as exc:  # not accepted: WeChat retries, nothing was promised
            log.warning("redis unavailable, message not accepted: %s", type(exc).__name__)
            return 503, b"unavailable", TEXT
        if not admitted.allowed:
            return _passive(query, msg, RATE_LIMITED)
        opened = admitted.opened
        if woken is None or opened.state not in ("waiting", "ready"):
            return SUCCESS
        final = opened.attempt >= config.max_attempts
        try:
            reply, pending = await _wait_for_reply(msg.user, msg.message_key, started, final, woken,
                                                   look_first=opened.state != "waiting")
        except RedisError:  # accepted already: the worker will deliver through the API
            return SUCCESS
        if reply is not None:
            return _passive(query, msg, reply)
        if pending and not final:
            # Answering now would stop WeChat's retries; hold until it gave up on this attempt.
            await asyncio.sleep(max(0.0, config.hold_s - (time.monotonic() - started)))
        return SUCCESS

    async def _admit(msg: WeChatMessage, waits: bool, now: float) -> Admitted:
        """Rate limit, durable append and drain dispatch: one pipelined script call (plus a thread hop
        when a drainer job has to be started)."""
        call, token = admit_call(msg.user, msg.message_key, msg.to_json(), limit=config.rate_limit_per_minute,
                                 deadline=now + config.release_after_s, now=now, waits=waits, schedule=schedule)
        result = admitted(await io.run(call), token)
        if result.drainer is not None and rq is not None:
            await io.off_loop(enqueue_drainer, rq.queue, result.drainer)
        elif result.claimed and not result.queued:
            await io.off_loop(dispatch.drain, msg.user)  # we set the pending flag: nobody else will dispatch
        return result

    async def _wait_for_reply(user: str, key: str, started: float, final: bool, woken: asyncio.Event, *,
                              look_first: bool) -> tuple[str | None, bool]:
        """``(reply, still_pending)``: the passive reply if it came in time; pending if one may follow.

        Woken by the replies channel (registered before the admit, so a hand-off the admit just
        opened as ``waiting`` needs no first look); without it, or if a notification is lost, it polls."""
        look = look_first or not notifier.running
        while True:
            if look:
                woken.clear()
                state, reply = state_text(await io.run(poll_call(user, key)))
                if state == "taken":
                    return reply, False
                if state != "waiting":
                    return None, False  # no reply (or it went another way): answer at once
            look = True
            left = config.reply_wait_s - (time.monotonic() - started)
            if left <= 0:
                break
            pause = max(config.poll_s, config.notified_poll_s) if notifier.running else config.poll_s
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), min(left, pause))
        if final:
            state, text = state_text(await io.run(release_call(user, key)))
            if state == "released_ready" and text:
                return text, False  # it became ready just now: still answer passively
        return None, True

    notifier = io.notifier()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(_sweeper()) if sweep else None
        if config.reply_wait_s > 0:
            notifier.start(asyncio.get_running_loop())
        yield
        notifier.stop()
        io.close()
        if task:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _sweeper() -> None:
        while True:
            await asyncio.sleep(config.sweep_interval_s)
            try:
                await io.off_loop(sweep_once, redis, dispatch)
            except Exception:
                log.exception("sweep failed")

    post = AsgiEndpoint(receive)
    routes = [Route(config.path, verify, methods=["GET"]), Route(config.path, post, methods=["POST"])]
    app = WebhookApp(routes=routes, lifespan=lifespan, hot=(config.path, post))
    app.state.scripts = io  # which Redis adapter the requests use (inspection, tests)
    return app


