"""Structured JSON logs: one object per line, with turn ids and hashed user ids.

Rules enforced here rather than at every call site: user ids are hashed (``user`` → ``user_hash``);
fields that carry message text (``text``, ``reply``, ``replies``, ``content``, ``body``) are kept only
at DEBUG; fields whose name looks like a secret are redacted; known secret values (from Settings)
are scrubbed from every message, field and traceback, and so are the values of the query parameters that
sign a request, carry a token or name a user (``signature``, ``timestamp``, ``nonce``, ``access_token``,
``openid`` …), whatever logged the URL. Libraries' chatter (Alembic's per-revision lines, httpx's line per
request) is kept to warnings unless the level is DEBUG.

:func:`configure_logging` routes every logger of the process through one handler: the libraries'
too (uvicorn's start and access lines, RQ's), so with ``LOG_FORMAT=json`` (the default) every line
is a JSON object. Access lines carry ``method``, ``path`` (never the query string: WeChat puts the
user's openid and the signature there) and ``status``. ``LOG_FORMAT=text`` is the same records as
plain lines, for a terminal. Each process logs one :func:`log_startup` line.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from bot._startup import log_startup
from bot.settings import Settings

__all__ = ["JsonFormatter", "configure_logging", "hash_user", "log_startup", "log_turn", "turn_context"]

TEXT_FIELDS = frozenset({"text", "reply", "replies", "content", "body", "message_text"})
SECRET_MARKERS = ("token", "secret", "password", "api_key", "apikey", "authorization", "aes_key", "cookie")
REDACTED = "[redacted]"
# record attributes that are not fields (uvicorn's ``color_message`` repeats the message with ANSI codes)
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message", "asctime", "taskName", "color_message"}
# loggers whose handlers configure_logging takes over (they would otherwise print their own plain text)
LIBRARY_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "rq", "rq.worker")
# libraries whose INFO lines are chatter, kept to warnings unless the level is DEBUG: Alembic's per
# revision lines (six for every admin re-run's scratch database), httpx's line per request (WeChat's
# signed URLs, the simulator's)
CHATTY_LOGGERS = ("alembic", "httpx", "httpcore")
# query parameters that sign a request, carry a token or name a user: their values never reach a log
_SIGNED_QUERY = re.compile(r"(?i)([?&;](?:msg_signature|signature|timestamp|nonce|echostr|access_token|"
                           r"openid|appsecret|secret|token|api_key|key)=)[^&\s\"'#]+")
_bound: contextvars.ContextVar[tuple[tuple[str, Any], ...]] = contextvars.ContextVar("wxbot_log_fields",
                                                                                    default=())


def hash_user(user: str, salt: str = "") -> str:
    """A stable, non-reversible short id for a user (same user, same salt → same hash)."""
    return "u_" + hashlib.sha256(f"{salt}\x00{user}".encode()).hexdigest()[:12]


@contextlib.contextmanager
def turn_context(*, turn_id: str = "", user: str = "", **fields: Any) -> Iterator[None]:
    """Attach ``turn_id``, the user (hashed on output) and ``fields`` to every record logged inside."""
    extra = {k: v for k, v in {"turn_id": turn_id, "user": user, **fields}.items() if v not in ("", None)}
    token = _bound.set(tuple({**dict(_bound.get()), **extra}.items()))
    try:
        yield
    finally:
        _bound.reset(token)


class JsonFormatter(logging.Formatter):
    """Formats records as single-line JSON under the rules in the module docstring."""

    def __init__(self, *, secrets: Iterable[str] = (), salt: str = "") -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)
        self._salt = salt

    def _scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return _SIGNED_QUERY.sub(rf"\1{REDACTED}", text)

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._scrub(value)
        if isinstance(value, int | float | bool) or value is None:
            return value
        if isinstance(value, list | tuple):
            return [self._value(item) for item in value]
        return self._scrub(str(value))

    def format(self, record: logging.LogRecord) -> str:
        fields = {**dict(_bound.get()), **{k: v for k, v in vars(record).items() if k not in _STANDARD}}
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name, "msg": self._scrub(record.getMessage()),
        }
        for name, value in fields.items():
            lowered = name.lower()
            if lowered == "user":
                out["user_hash"] = hash_user(str(value), self._salt)
            elif lowered in TEXT_FIELDS:
                if record.levelno <= logging.DEBUG:
                    out[name] = self._value(value)
            elif any(marker in lowered for marker in SECRET_MARKERS):
                out[name] = REDACTED
            else:
                out[name] = self._value(value)
        if record.exc_info:
            out["exc"] = self._scrub(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


class TextFormatter(JsonFormatter):
    """The same records as plain ``time level logger message key=value`` lines (``LOG_FORMAT=text``)."""

    def format(self, record: logging.LogRecord) -> str:
        data = json.loads(super().format(record))
        head = f"{data.pop('ts')} {data.pop('level').upper()} {data.pop('logger')}: {data.pop('msg')}"
        exc = data.pop("exc", None)
        line = " ".join([head, *(f"{k}={v}" for k, v in data.items())])
        return f"{line}\n{exc}" if exc else line


class AccessFields(logging.Filter):
    """uvicorn's access records as fields (client, method, path, status), the query string dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, version, status = record.args
            path = str(path).split("?", 1)[0]
            record.args = (client, method, path, version, status)
            record.__dict__.update(client=client, method=method, path=path, status=status)
        return True


def configure_logging(settings: Settings, *, level: int | str | None = None, stream: TextIO | None = None) -> None:
    """Route every logger to one handler on ``stream`` (stderr): JSON lines, or text with
    ``LOG_FORMAT=text``; the secrets in ``settings`` are scrubbed from both."""
    secrets = [settings.wechat_token, settings.wechat_app_secret, settings.wechat_aes_key, settings.openai_api_key,
               settings.admin_token]
    secrets += [v for k, v in settings.openai_extra.items() if "KEY" in k or "SECRET" in k]
    salt = settings.wechat_app_id
    kind = TextFormatter if settings.log_format == "text" else JsonFormatter
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(kind(secrets=secrets, salt=salt))
    handler.addFilter(AccessFields())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level if level is not None else settings.log_level.upper())
    for name in LIBRARY_LOGGERS:  # their own handlers (if any were set) would print plain text
        library = logging.getLogger(name)
        for old in list(library.handlers):
            library.removeHandler(old)
        library.propagate = True
    debug = root.getEffectiveLevel() <= logging.DEBUG
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET if debug else logging.WARNING)


def log_turn(logger: logging.Logger, inbound: Any, result: Any) -> None:
    """One INFO line per turn (no message text); the text and replies only at DEBUG."""
    t = result.trace
    logger.info("turn", extra={
        "turn_id": t.turn_id, "user": inbound.user, "msg_id": inbound.msg_id, "origin": str(inbound.origin),
        "stage": str(t.stage), "intent": t.intent, "skill": t.skill, "action": t.action, "llm_calls": t.llm_calls,
        "prompt_tokens": t.prompt_tokens, "completion_tokens": t.completion_tokens, "latency_ms": t.latency_ms,
        "errors": len(t.errors),
    })
    logger.debug("turn text", extra={"turn_id": t.turn_id, "user": inbound.user, "text": inbound.text,
                                     "replies": list(result.replies)})
