"""A webhook driver: sends signed (and, in safe mode, AES-encrypted) XML like WeChat does.

WeChat waits ~5 s for an answer and retries the same message up to 3 attempts in all; the driver
imitates that with ``attempt_timeout_s`` and ``attempts`` (shorter in tests).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Literal

import httpx
import xmltodict
from wechatpy.crypto import WeChatCrypto

Mode = Literal["plain", "compatible", "safe"]


def sign(*parts: str) -> str:
    """WeChat's signature: SHA-1 over the sorted parts."""
    return hashlib.sha1("".join(sorted(parts)).encode()).hexdigest()


@dataclass(frozen=True)
class Delivery:
    """What happened to one message: the attempt that got an answer, its status and reply text."""

    attempts: int
    status: int | None
    body: str
    reply: str | None


class WebhookDriver:
    """Post messages to ``url`` as WeChat would (``mode``: plain, compatible or safe)."""

    def __init__(self, url: str, token: str, *, mode: Mode = "plain", aes_key: str | None = None,
                 app_id: str = "wxtestapp", attempts: int = 3, attempt_timeout_s: float = 5.0) -> None:
        self.url = url
        self.token = token
        self.mode = mode
        self.app_id = app_id
        self.attempts = attempts
        self.attempt_timeout_s = attempt_timeout_s
        self._crypto = WeChatCrypto(token, aes_key, app_id) if aes_key else None
        self._http = httpx.Client(headers={"Content-Type": "text/xml"})
        if mode != "plain" and self._crypto is None:
            raise ValueError("compatible/safe mode needs aes_key")

    def signed_params(self, body_encrypt: str | None = None, *, user: str = "") -> dict[str, str]:
        ts, nonce = str(int(time.time())), secrets.token_hex(8)
        params = {"timestamp": ts, "nonce": nonce, "signature": sign(self.token, ts, nonce)}
        if user:
            params["openid"] = user
        if body_encrypt is not None:
            params["encrypt_type"] = "aes"
            params["msg_signature"] = sign(self.token, ts, nonce, body_encrypt)
        return params

    def envelope(self, xml: str) -> tuple[dict[str, str], str]:
        """The query parameters and body for one attempt in the driver's mode."""
        if self.mode == "plain" or self._crypto is None:
            return self.signed_params(), xml
        ts, nonce = str(int(time.time())), secrets.token_hex(8)
        encrypted = xmltodict.parse(self._crypto.encrypt_message(xml, nonce, ts))["xml"]["Encrypt"]
        params = {"timestamp": ts, "nonce": nonce, "signature": sign(self.token, ts, nonce),
                  "encrypt_type": "aes", "msg_signature": sign(self.token, ts, nonce, encrypted)}
        fields = xmltodict.parse(xml)["xml"]
        if self.mode == "safe":
            body = f"<xml><ToUserName><![CDATA[{fields['ToUserName']}]]></ToUserName>" \
                   f"<Encrypt><![CDATA[{encrypted}]]></Encrypt></xml>"
        else:
            body = xml.replace("</xml>", f"<Encrypt><![CDATA[{encrypted}]]></Encrypt></xml>")
        return params, body

    def post_once(self, xml: str, *, timeout: float | None = None, params: dict[str, str] | None = None,
                  body: str | bytes | None = None) -> httpx.Response:
        """One attempt; raises ``httpx.TimeoutException`` when the webhook is slower than ``timeout``."""
        if params is None or body is None:
            p, b = self.envelope(xml)
            params, body = params or p, b if body is None else body
        return self._http.post(self.url, params=params, content=body, timeout=timeout or self.attempt_timeout_s)

    def deliver(self, xml: str) -> Delivery:
        """Send ``xml`` with WeChat's retry behaviour; return the first answered attempt."""
        for attempt in range(1, self.attempts + 1):
            try:
                res = self.post_once(xml)
            except httpx.TimeoutException:
                continue
            return Delivery(attempt, res.status_code, res.text, self.reply_text(res.text))
        return Delivery(self.attempts, None, "", None)

    def reply_text(self, body: str) -> str | None:
        """The text of a passive reply (decrypted in safe/compatible mode); None for success/empty."""
        if not body or body == "success" or not body.lstrip().startswith("<xml"):
            return None
        fields = xmltodict.parse(body)["xml"]
        if "Encrypt" in fields and self._crypto is not None:
            plain = self._crypto.decrypt_message(body, fields["MsgSignature"], fields["TimeStamp"],
                                                 fields["Nonce"])
            fields = xmltodict.parse(plain)["xml"]
        content = fields.get("Content")
        return None if content is None else str(content)

    def verify_url(self, echostr: str = "echo123") -> httpx.Response:
        """The GET WeChat sends when the server URL is configured."""
        return self._http.get(self.url, params=self.signed_params() | {"echostr": echostr}, timeout=5)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> WebhookDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
