"""A wechatpy client that can be pointed at any base URL (a test server, a proxy).

wechatpy hard-codes ``https://api.weixin.qq.com`` in three ways: the client's ``API_BASE_URL``, API
groups with their own ``API_BASE_URL`` (card, datacube, wxa, …) and absolute URLs inside methods
(customservice, media, the token URL). All three are rewritten here in ``_request``; the token comes
from an injected callable, never from wechatpy's own fetch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wechatpy.client import WeChatClient

WECHAT_ORIGIN = "https://api.weixin.qq.com"


class RebasedWeChatClient(WeChatClient):  # type: ignore[misc]
    """wechatpy's client with every URL rebased onto ``base_url`` and tokens from ``token_source``."""

    def __init__(
        self, app_id: str, secret: str, *, base_url: str, token_source: Callable[[], str], timeout: float
    ) -> None:
        super().__init__(app_id, secret, timeout=timeout, auto_retry=False)
        self._base = base_url.rstrip("/")
        self._token_source = token_source
        self.API_BASE_URL = self._base + "/cgi-bin/"

    def rebase(self, url: str) -> str:
        """Map an ``api.weixin.qq.com`` URL onto the configured base."""
        if url.startswith(WECHAT_ORIGIN):
            return self._base + url[len(WECHAT_ORIGIN) :]
        return url

    def _request(self, method: str, url_or_endpoint: str, **kwargs: Any) -> Any:
        base = kwargs.get("api_base_url")
        if isinstance(base, str):
            kwargs["api_base_url"] = self.rebase(base)
        return super()._request(method, self.rebase(url_or_endpoint), **kwargs)

    @property
    def access_token(self) -> str:
        return self._token_source()

    def fetch_access_token(self) -> Any:
        raise RuntimeError("tokens come from the shared AccessTokenService")
