"""The WeChat API error tree: callers branch on the type (or ``code``), never on message text."""

from __future__ import annotations

TOKEN_CODES = frozenset({40001, 40014, 42001})
OUTSIDE_WINDOW = 45015
QUOTA_EXCEEDED = 45047
USER_REFUSED = 43101
UNAVAILABLE = -1


class WeChatAPIError(Exception):
    """A WeChat API call failed with ``errcode`` ``code`` (``-1`` when no errcode came back)."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(f"WeChat API error {code}: {message}")
        self.code = code
        self.message = message


class AccessTokenInvalid(WeChatAPIError):
    """40001 / 40014 / 42001: invalidate the shared token, refresh once and retry."""


class OutsideWindow(WeChatAPIError):
    """45015: the 48-hour customer-service window is closed for this user."""


class QuotaExceeded(WeChatAPIError):
    """45047: the customer-service message quota for this user is used up."""


class UserRefused(WeChatAPIError):
    """43101: the user refused to receive the message (e.g. subscribe messages)."""


class WeChatUnavailable(WeChatAPIError):
    """An HTTP 5xx, a timeout or a connection failure; ``status`` holds the HTTP status if any."""

    def __init__(self, message: str = "", status: int | None = None) -> None:
        super().__init__(UNAVAILABLE, message)
        self.status = status


def error_for(code: int, message: str = "") -> WeChatAPIError:
    """Build the most specific error for a WeChat ``errcode``."""
    if code in TOKEN_CODES:
        return AccessTokenInvalid(code, message)
    cls = {OUTSIDE_WINDOW: OutsideWindow, QUOTA_EXCEEDED: QuotaExceeded, USER_REFUSED: UserRefused}.get(
        code, WeChatAPIError
    )
    return cls(code, message)
