"""Keep credentials out of HTTP client logs: urllib3 logs every request URL at DEBUG, and WeChat puts
the ``access_token`` in the query string."""

from __future__ import annotations

import logging
import re

_SECRET_PARAM = re.compile(r"((?:access_token|secret|appsecret|key)=)[^&\s\"']+", re.IGNORECASE)
_LOGGERS = ("urllib3.connectionpool", "httpx", "httpcore", "requests", "wechatpy")


class RedactCredentials(logging.Filter):
    """Replace ``access_token=…`` (and secret/key parameters) in a record's message with ``***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = _SECRET_PARAM.sub(r"\1***", message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


_FILTER = RedactCredentials()


def install() -> None:
    """Attach the filter to the HTTP client loggers (idempotent)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
