"""Signature checks, safe-mode decryption and passive-reply building for the webhook (no I/O)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from wechatpy.crypto import PrpCrypto, WeChatCrypto

from bot.wechat.inbound import MalformedMessage, xml_fields

Mode = Literal["plain", "compatible", "safe"]


class BadSignature(Exception):
    """signature / msg_signature / timestamp check failed (→ 403)."""


@dataclass(frozen=True)
class WebhookSecrets:
    """The official account's server configuration."""

    token: str
    app_id: str = ""
    aes_key: str | None = None
    mode: Mode = "plain"
    max_skew_s: int = 300


def _sign(*parts: str) -> str:
    return hashlib.sha1("".join(sorted(parts)).encode()).hexdigest()


def check_signature(conf: WebhookSecrets, query: Mapping[str, str], now: float | None = None) -> None:
    """Check ``signature`` over token/timestamp/nonce (and the timestamp's age)."""
    ts, nonce, sig = query.get("timestamp", ""), query.get("nonce", ""), query.get("signature", "")
    if not (ts and nonce and sig) or not hmac.compare_digest(_sign(conf.token, ts, nonce), sig):
        raise BadSignature("signature")
    try:
        skew = abs((time.time() if now is None else now) - int(ts))
    except ValueError as exc:
        raise BadSignature("timestamp") from exc
    if skew > conf.max_skew_s:
        raise BadSignature("timestamp too old")


def encrypted(query: Mapping[str, str]) -> bool:
    return query.get("encrypt_type", "raw").lower() == "aes"


def open_body(conf: WebhookSecrets, query: Mapping[str, str], body: bytes) -> bytes:
    """The plain message XML: checks ``msg_signature`` and decrypts in safe/compatible mode."""
    if not encrypted(query):
        if conf.mode == "safe":
            raise BadSignature("plaintext message in safe mode")
        return body
    if not conf.aes_key:
        raise MalformedMessage("encrypted message but no EncodingAESKey configured")
    encrypt = xml_fields(body).get("Encrypt", "")
    msg_sig = query.get("msg_signature", "")
    if not encrypt or not msg_sig or not hmac.compare_digest(
        _sign(conf.token, query.get("timestamp", ""), query.get("nonce", ""), encrypt), msg_sig
    ):
        raise BadSignature("msg_signature")
    crypto = WeChatCrypto(conf.token, conf.aes_key, conf.app_id)
    try:
        plain = PrpCrypto(crypto.key).decrypt(encrypt, conf.app_id)
    except Exception as exc:  # wrong key, bad padding or another app id
        raise MalformedMessage("cannot decrypt") from exc
    return plain if isinstance(plain, bytes) else str(plain).encode()


def _cdata(value: str) -> str:
    return "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def text_reply(conf: WebhookSecrets, query: Mapping[str, str], *, user: str, account: str, text: str) -> str:
    """A passive text reply, encrypted when the request was."""
    now = int(time.time())
    xml = (f"<xml><ToUserName>{_cdata(user)}</ToUserName><FromUserName>{_cdata(account)}</FromUserName>"
           f"<CreateTime>{now}</CreateTime><MsgType><![CDATA[text]]></MsgType>"
           f"<Content>{_cdata(text)}</Content></xml>")
    if not encrypted(query) or not conf.aes_key:
        return xml
    crypto = WeChatCrypto(conf.token, conf.aes_key, conf.app_id)
    return str(crypto.encrypt_message(xml, secrets.token_hex(8), str(now)))
