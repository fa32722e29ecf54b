"""The WeChat adapter: API port and wechatpy adapter, error tree, shared access_token."""

from bot.wechat.adapter import StableTokenFetcher, WeChatpyAPI
from bot.wechat.api import AccessToken, WeChatAPI
from bot.wechat.errors import (
    AccessTokenInvalid,
    OutsideWindow,
    QuotaExceeded,
    UserRefused,
    WeChatAPIError,
    WeChatUnavailable,
    error_for,
)
from bot.wechat.token import AccessTokenService, TokenSource

__all__ = [
    "AccessToken", "AccessTokenInvalid", "AccessTokenService", "OutsideWindow", "QuotaExceeded",
    "StableTokenFetcher", "TokenSource", "UserRefused", "WeChatAPI", "WeChatAPIError",
    "WeChatUnavailable", "WeChatpyAPI", "error_for",
]
