"""Structured JSON logs: one object per line, with turn ids and hashed user ids.

Rules enforced here rather than at every call site: user ids are hashed (``user`` → ``user_hash``);
fields that carry message text (``text``, ``reply``, ``replies``, ``content``, ``body``) are kept only
at DEBUG; fields whose name looks like a secret are redacted; known secret values (from Settings)
are scrubbed from every message, field and traceback.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import logging
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

__all__ = ["JsonFormatter", "configure_logging", "hash_user", "log_turn", "turn_context"]

TEXT_FIELDS = frozenset({"text", "reply", "replies", "content", "body", "message_text"})
SECRET_MARKERS = ("token", "secret", "password", "api_key", "apikey", "authorization", "aes_key", "cookie")
REDACTED = "[redacted]"
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
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
        return text

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._scrub(value)
        if isinstance(value, int | float | bool) or value is None:
            return value
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


def configure_logging(settings: Any, *, level: int | str = logging.INFO, stream: TextIO | None = None) -> None:
    """Route the root logger to one JSON handler on ``stream`` (stderr), scrubbing the secrets in ``settings``."""
    secrets = [str(getattr(settings, name, "") or "") for name in (
        "wechat_token", "wechat_app_secret", "wechat_aes_key", "openai_api_key", "admin_token")]
    secrets += [v for k, v in (getattr(settings, "openai_extra", {}) or {}).items() if "KEY" in k or "SECRET" in k]
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(secrets=secrets, salt=str(getattr(settings, "wechat_app_id", "") or "")))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


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
