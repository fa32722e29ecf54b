"""The WeChat webhook: an ASGI app (Starlette) that verifies, dedupes, enqueues and waits briefly.

GET: URL verification. POST: signature (and ``msg_signature``) first → 403; body cap → 413;
safe XML parsing → 400; then the message is appended to the user's mailbox exactly once across
replicas and WeChat retries, a drain job is dispatched, and the request waits up to
``reply_wait_s`` for the reply to answer passively (``0``: never wait, every reply goes through the
API). A retry of the same message keeps waiting for the same reply; when the last attempt times out
the request answers ``success`` and the worker delivers through the API.

Every limit of a waiting request counts from when it reached the host (:func:`bot.webhook._raw.arrived`),
not from when its handler ran: a process that was frozen never answers with a reply after WeChat
gave up on the request (:mod:`bot.delivery.handoff`). The answer is confirmed once written — recorded
``passive|sent`` when it was written in time, else given back for WeChat's next attempt or the API.
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

from bot.delivery.handoff import CONFIRM_GRACE_S, Attempt, claim_call, confirm_call, release_call, state_text
from bot.queue import Admitted, Dispatcher, RQDispatcher, admit_call, admitted, enqueue_drainer
from bot.queue.sweeper import sweep_once
from bot.redis_client import RedisClient
from bot.webhook._aio import ScriptRunner, ThreadedScripts
from bot.webhook._raw import (
    TEXT,
    XML,
    Answer,
    AsgiEndpoint,
    BodyTooLarge,
    Receive,
    Reply,
    Scope,
    Send,
    arrived,
    query_of,
    read_body,
)
from bot.wechat.crypto import BadSignature, WebhookSecrets, check_signature, open_body, text_reply
from bot.wechat.inbound import MalformedMessage, WeChatMessage, parse_message, waits_for_reply
from bot.wechat.texts import RATE_LIMITED

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
    notified_poll_s: float = 0.5  # with notifications that cannot tell a dropped subscription, a re-check this often
    subscribed_recheck_s: float = 2.0  # under one held subscription (every change notified), a re-check this often
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

    async def receive(scope: Scope, receive_body: Receive) -> Reply | Answer:
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
        if not (waits_for_reply(msg) and config.reply_wait_s > 0):
            return await _accept(query, msg, 0.0, None)
        came = arrived(receive_body)  # when the request reached the host (the kernel's stamp)
        member = f"{msg.user}|{msg.message_key}"
        woken = notifier.register(member)  # before the admit: a reply can never slip past unnoticed
        try:
            return await _accept(query, msg, came, woken)
        finally:
            notifier.unregister(member, woken)

    def _passive(query: dict[str, str], msg: WeChatMessage, text: str) -> Reply:
        return 200, text_reply(conf, query, user=msg.user, account=msg.account, text=text).encode(), XML

    async def _accept(query: dict[str, str], msg: WeChatMessage, came: float,
                      woken: asyncio.Event | None) -> Reply | Answer:
        attempt = None
        if woken is not None:  # its limits, from when it reached the host
            attempt = Attempt.of(time.time() - (time.monotonic() - came), wait_s=config.reply_wait_s,
                                 answer_s=config.attempt_period_s)
        try:
            admitted = await _admit(msg, attempt, clock())
        except RedisError as exc:  # not accepted: WeChat retries, nothing was promised
            log.warning("redis unavailable, message not accepted: %s", type(exc).__name__)
            return 503, b"unavailable", TEXT
        if not admitted.allowed:
            return _passive(query, msg, RATE_LIMITED)
        opened = admitted.opened
        if woken is None or attempt is None:
            return SUCCESS
        final = opened.attempt >= config.max_attempts
        if opened.state == "taken" and opened.text:  # taken back from an attempt that could not answer
            return _answer(query, msg, attempt, came, opened.text, final)
        if opened.state not in ("waiting", "ready"):
            return SUCCESS
        reply, pending = await _wait_for_reply(msg.user, msg.message_key, attempt, came, final, woken,
                                               look_first=opened.state != "waiting")
        if reply is not None:
            return _answer(query, msg, attempt, came, reply, final)
        if pending and not final:
            # Answering now would stop WeChat's retries; hold until it gave up on this attempt.
            await asyncio.sleep(max(0.0, came + config.hold_s - time.monotonic()))
        return SUCCESS

    async def _admit(msg: WeChatMessage, attempt: Attempt | None, now: float) -> Admitted:
        """Rate limit, durable append and drain dispatch: one pipelined script call (plus a thread hop
        when a drainer job has to be started)."""
        call, token = admit_call(msg.user, msg.message_key, msg.to_json(), limit=config.rate_limit_per_minute,
                                 deadline=now + config.release_after_s, now=now, waits=attempt is not None,
                                 schedule=schedule, attempt=attempt)
        result = admitted(await io.run(call), token)
        if result.drainer is not None and rq is not None:
            await io.off_loop(enqueue_drainer, rq.queue, result.drainer)
        elif result.claimed and not result.queued:
            await io.off_loop(dispatch.drain, msg.user)  # we set the pending flag: nobody else will dispatch
        return result

    async def _wait_for_reply(user: str, key: str, attempt: Attempt, came: float, final: bool,
                              woken: asyncio.Event, *, look_first: bool) -> tuple[str | None, bool]:
        """``(reply, still_pending)``: the passive reply if this request took it; pending if one may
        still come (for WeChat's next attempt).

        Woken by the replies channel (registered before the admit, so a hand-off the admit just
        opened as ``waiting`` needs no first look). While the subscription it looked under holds, it
        waits for a notification (every change of a hand-off a request waits on publishes one) and
        re-checks only every ``subscribed_recheck_s``, for a notification lost unnoticed;
        without a subscription it polls, and where the notifier cannot tell a dropped subscription
        (:class:`~bot.webhook._wait.ThreadedNotifier`) it re-checks every ``notified_poll_s``.
        Redis being away (a restart, a fail-over) does not end the wait: the request keeps looking
        until its own time is up, so the hand-off it holds open never outlives it."""
        look = look_first or not notifier.running
        until = came + config.reply_wait_s
        covered = notifier.generation if notifier.running else None  # registered before the admit
        while True:
            away = False
            if look:
                woken.clear()
                covered = notifier.generation if notifier.running else None  # before the look
                try:
                    state, reply = state_text(await io.run(claim_call(user, key, attempt)))
                except RedisError:
                    state, reply, away = "waiting", "", True
                if state == "taken":
                    return reply, False
                if state == "late":  # ready, but WeChat gave up on this request: not ours to answer
                    break
                if state != "waiting":
                    return None, False  # no reply (or it went another way): answer at once
            look = True
            left = until - time.monotonic()
            if left <= 0:
                break
            if away or not notifier.running:
                pause = config.poll_s
            elif covered is not None and covered == notifier.generation:
                # one subscription held since the look: any change of the hand-off wakes us; the rare
                # re-check only bounds a notification lost without the connection noticing (a partition)
                pause = max(config.poll_s, config.subscribed_recheck_s)
            else:
                pause = max(config.poll_s, config.notified_poll_s)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), min(left, pause))
        if final:  # nobody waits after this request: a ready reply it can still answer with is its own
            give_up = came + (attempt.claim_by - attempt.arrived)
            while True:
                try:
                    state, text = state_text(await io.run(release_call(user, key, attempt)))
                except RedisError:
                    if time.monotonic() >= give_up:
                        break  # its offer_by has passed: a worker sends the reply through the API
                    await asyncio.sleep(config.poll_s)
                    continue
                if state == "taken":
                    return text, False
                break
        return None, True

    def _answer(query: dict[str, str], msg: WeChatMessage, attempt: Attempt, came: float, text: str,
                final: bool) -> Answer:
        """The passive reply, and once it was written: recorded as sent if WeChat still waited for it,
        else given back (for WeChat's next attempt, or the API path)."""
        write_by = came + (attempt.write_by - attempt.arrived)

        async def confirm(written: float) -> None:
            call = confirm_call(msg.user, msg.message_key, attempt, in_time=written <= write_by, last=final,
                                size=len(text.encode()))
            give_up = written + CONFIRM_GRACE_S
            while True:
                try:
                    await io.run(call)
                    return
                except RedisError as exc:
                    if time.monotonic() >= give_up:  # the sweeper or the next delivery settles it
                        log.warning("passive answer not confirmed: %s", type(exc).__name__)
                        return
                    await asyncio.sleep(config.poll_s)

        return Answer(_passive(query, msg, text), confirm)

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


