"""The wechatpy-backed :class:`~bot.wechat.api.WeChatAPI` adapter."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx
import requests
from wechatpy.exceptions import WeChatClientException

from bot.wechat import _redact
from bot.wechat._client import RebasedWeChatClient
from bot.wechat.api import AccessToken
from bot.wechat.errors import AccessTokenInvalid, WeChatAPIError, WeChatUnavailable, error_for
from bot.wechat.token import TokenSource

T = TypeVar("T")
DEFAULT_BASE = "https://api.weixin.qq.com"


class StableTokenFetcher:
    """``POST /cgi-bin/stable_token`` (wechatpy has no call for it)."""

    def __init__(self, app_id: str, secret: str, *, base_url: str = DEFAULT_BASE, timeout: float = 5.0):
        self.app_id = app_id
        self._secret = secret
        self._url = base_url.rstrip("/") + "/cgi-bin/stable_token"
        self._timeout = timeout

    def __call__(self, force_refresh: bool = False) -> AccessToken:
        body = {
            "grant_type": "client_credential",
            "appid": self.app_id,
            "secret": self._secret,
            "force_refresh": force_refresh,
        }
        try:
            res = httpx.post(self._url, json=body, timeout=self._timeout)
        except httpx.HTTPError as exc:
            raise WeChatUnavailable(f"stable_token: {type(exc).__name__}") from exc
        if res.status_code >= 500:
            raise WeChatUnavailable("stable_token", status=res.status_code)
        data = res.json()
        code = int(data.get("errcode", 0) or 0)
        if code:
            raise error_for(code, str(data.get("errmsg", "")))
        return AccessToken(token=str(data["access_token"]), expires_in=int(data.get("expires_in", 7200)))


class WeChatpyAPI:
    """WeChat API over wechatpy, with a shared token and one refresh-and-retry on 40001/42001."""

    def __init__(
        self,
        *,
        app_id: str,
        secret: str,
        tokens: TokenSource,
        base_url: str = DEFAULT_BASE,
        timeout: float = 5.0,
    ) -> None:
        _redact.install()  # urllib3 would log the access_token of every call at DEBUG
        self._tokens = tokens
        self._fetcher = StableTokenFetcher(app_id, secret, base_url=base_url, timeout=timeout)
        self._client = RebasedWeChatClient(
            app_id, secret, base_url=base_url, token_source=self._token, timeout=timeout
        )
        self._last_token = ""

    def _token(self) -> str:
        self._last_token = self._tokens.get()
        return self._last_token

    def send_text(self, user: str, text: str) -> None:
        self._call(lambda c: c.message.send_text(user, text))

    def typing(self, user: str, on: bool = True) -> None:
        command = "Typing" if on else "CancelTyping"
        self._call(lambda c: c.post("message/custom/typing", data={"touser": user, "command": command}))

    def send_template(
        self, user: str, template_id: str, data: Mapping[str, str], url: str | None = None
    ) -> int:
        payload = {k: {"value": v} for k, v in data.items()}
        res = self._call(lambda c: c.message.send_template(user, template_id, payload, url=url))
        return int(res.get("msgid", 0)) if isinstance(res, dict) else 0

    def send_subscribe(
        self, user: str, template_id: str, data: Mapping[str, str], page: str | None = None
    ) -> None:
        payload = {k: {"value": v} for k, v in data.items()}
        self._call(lambda c: c.message.send_subscribe_message(user, template_id, payload, page=page))

    def fetch_token(self, force_refresh: bool = False) -> AccessToken:
        return self._fetcher(force_refresh)

    def create_menu(self, menu: Mapping[str, Any]) -> None:
        self._call(lambda c: c.menu.create(dict(menu)))

    def get_menu(self) -> dict[str, Any] | None:
        found = self._call(lambda c: c.menu.get())  # wechatpy answers None for 46003 (no menu)
        return found if isinstance(found, dict) else None

    def _call(self, fn: Callable[[Any], T]) -> T:
        try:
            return self._once(fn)
        except AccessTokenInvalid:
            self._tokens.invalidate(self._last_token)
            return self._once(fn)

    def _once(self, fn: Callable[[Any], T]) -> T:
        try:
            return fn(self._client)
        except WeChatClientException as exc:
            if exc.errcode is None:
                status = getattr(exc.response, "status_code", None)
                raise WeChatUnavailable("http error", status=status) from exc
            raise error_for(int(exc.errcode), str(exc.errmsg)) from exc
        except requests.RequestException as exc:
            raise WeChatUnavailable(type(exc).__name__) from exc
        except WeChatAPIError:
            raise
