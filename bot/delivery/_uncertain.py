"""Which failed WeChat calls may have been carried out anyway: the uncertain deliveries.

A call that failed before its request was written (connection refused, connect timeout, no access
token) or that WeChat answered with an error code certainly sent nothing. A call whose request was
written and that then failed (read timeout, connection reset or closed before the answer, an answer
cut short, an HTTP 5xx other than 503) may have reached the user: its outcome is unknown.
"""

from __future__ import annotations

import requests
from urllib3.exceptions import ConnectTimeoutError, MaxRetryError, NameResolutionError, NewConnectionError

from bot.wechat.errors import WeChatAPIError, WeChatUnavailable
from bot.wechat.token import TokenUnavailable

# An HTTP status that says the request was not acted on (503: not taken in; 429: too many).
NOT_TAKEN_STATUSES = frozenset({429, 503})
_BEFORE_SENDING = (NewConnectionError, ConnectTimeoutError, NameResolutionError)


def outcome_unknown(exc: WeChatAPIError) -> bool:
    """True when the failed call may have delivered its message (see the module docstring)."""
    if not isinstance(exc, WeChatUnavailable) or isinstance(exc, TokenUnavailable):
        return False  # WeChat answered with an errcode, or the call was never made
    if exc.status is not None:
        return exc.status not in NOT_TAKEN_STATUSES
    cause = exc.__cause__
    if not isinstance(cause, requests.RequestException):
        return False  # e.g. no access token could be had: the request was never made
    if isinstance(cause, requests.ConnectTimeout | requests.exceptions.InvalidURL):
        return False
    if isinstance(cause, requests.ConnectionError) and not isinstance(cause, requests.Timeout):
        reason = cause.args[0] if cause.args else None
        if isinstance(reason, MaxRetryError):
            reason = reason.reason
        return not isinstance(reason, _BEFORE_SENDING)
    return True  # read timeout, answer cut short, an unreadable answer
