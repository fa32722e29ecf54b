"""Inbound WeChat XML → a small typed message (safe parsing: no DTD, no entities)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

MAX_FIELD_CHARS = 8192
MAX_USER_CHARS = 128  # openids are 28 characters; the user id is part of Redis keys


class MalformedMessage(ValueError):
    """The body is not a well-formed, entity-free WeChat XML message."""


class Kind(StrEnum):
    """WeChat ``MsgType`` values the bot knows; anything else is ``unknown``."""

    TEXT = "text"
    VOICE = "voice"
    IMAGE = "image"
    VIDEO = "video"
    SHORTVIDEO = "shortvideo"
    LOCATION = "location"
    LINK = "link"
    FILE = "file"
    EVENT = "event"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class WeChatMessage:
    """One inbound message or event, transport details stripped."""

    user: str
    account: str
    kind: Kind
    create_time: int
    msg_id: str | None = None
    text: str = ""
    recognition: str | None = None
    event: str | None = None
    key: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def message_key(self) -> str:
        """The dedupe identity: MsgId for messages; CreateTime+Event+EventKey for events."""
        if self.msg_id and self.kind is not Kind.EVENT:
            return f"m{self.msg_id}"
        return f"e{self.create_time}:{self.event or ''}:{self.key or ''}"

    def to_json(self) -> str:
        # by hand, not dataclasses.asdict (which deep-copies every value): this runs per request
        return json.dumps({"user": self.user, "account": self.account, "kind": self.kind.value,
                           "create_time": self.create_time, "msg_id": self.msg_id, "text": self.text,
                           "recognition": self.recognition, "event": self.event, "key": self.key,
                           "extra": dict(self.extra)}, ensure_ascii=False)

    @classmethod
    def from_json(cls, raw: str | bytes) -> WeChatMessage:
        data: dict[str, Any] = json.loads(raw)
        data["kind"] = Kind(data["kind"])
        return cls(**data)


def xml_fields(body: bytes | str) -> dict[str, str]:
    """The top-level ``<xml>`` children as strings; refuses DTDs, entities and bad XML."""
    try:
        root = fromstring(body, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise MalformedMessage(type(exc).__name__) from exc
    if root.tag != "xml":
        raise MalformedMessage("root element is not <xml>")
    return {child.tag: (child.text or "")[:MAX_FIELD_CHARS] for child in root}


def parse_message(body: bytes | str) -> WeChatMessage:
    """Parse a (decrypted) WeChat message body."""
    f = xml_fields(body)
    try:
        user, account = f["FromUserName"], f["ToUserName"]
        raw_kind = f["MsgType"].strip().lower()
        create_time = int(f.get("CreateTime") or 0)
    except (KeyError, ValueError) as exc:
        raise MalformedMessage(f"missing or bad field: {exc}") from exc
    if not user or len(user) > MAX_USER_CHARS or not user.isprintable():
        raise MalformedMessage("FromUserName empty, too long or not printable")
    if not 0 <= create_time < 2**32:
        raise MalformedMessage("CreateTime out of range")
    kind = Kind(raw_kind) if raw_kind in Kind._value2member_map_ else Kind.UNKNOWN
    known = {"FromUserName", "ToUserName", "MsgType", "CreateTime", "MsgId", "Content", "Recognition",
             "Event", "EventKey"}
    return WeChatMessage(
        user=user, account=account, kind=kind, create_time=create_time,
        msg_id=f.get("MsgId") or None, text=f.get("Content", ""),
        recognition=(f.get("Recognition") or None) if kind is Kind.VOICE else None,
        event=f.get("Event") or None, key=f.get("EventKey") or None,
        extra={k: v for k, v in f.items() if k not in known},
    )
