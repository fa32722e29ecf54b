"""Build the XML WeChat posts to a webhook, for every message and event type."""

from __future__ import annotations

import itertools
import time
from xml.sax.saxutils import escape

_ids = itertools.count(int(time.time() * 1000) * 1000)


def next_msg_id() -> int:
    """A fresh, process-unique 64-bit-ish MsgId."""
    return next(_ids)


def _xml(fields: dict[str, str | int | float]) -> str:
    parts = []
    for name, value in fields.items():
        if isinstance(value, str):
            parts.append(f"<{name}><![CDATA[{value.replace(']]>', ']]]]><![CDATA[>')}]]></{name}>")
        else:
            parts.append(f"<{name}>{escape(str(value))}</{name}>")
    return "<xml>" + "".join(parts) + "</xml>"


class MessageFactory:
    """XML of inbound messages from ``user`` to the official account ``account``."""

    def __init__(self, account: str = "gh_testaccount") -> None:
        self.account = account

    def _head(self, user: str, kind: str, create_time: int | None) -> dict[str, str | int | float]:
        return {"ToUserName": self.account, "FromUserName": user,
                "CreateTime": create_time or int(time.time()), "MsgType": kind}

    def _msg(self, user: str, kind: str, body: dict[str, str | int | float], msg_id: int | None,
             create_time: int | None) -> str:
        fields = self._head(user, kind, create_time) | body
        fields["MsgId"] = msg_id or next_msg_id()
        return _xml(fields)

    def text(self, user: str, content: str, *, msg_id: int | None = None, create_time: int | None = None) -> str:
        return self._msg(user, "text", {"Content": content}, msg_id, create_time)

    def voice(self, user: str, recognition: str | None = None, *, msg_id: int | None = None,
              create_time: int | None = None) -> str:
        body: dict[str, str | int | float] = {"MediaId": "media-voice", "Format": "amr"}
        if recognition is not None:
            body["Recognition"] = recognition
        return self._msg(user, "voice", body, msg_id, create_time)

    def image(self, user: str, *, msg_id: int | None = None) -> str:
        return self._msg(user, "image", {"PicUrl": "http://example.invalid/p.jpg", "MediaId": "m1"},
                         msg_id, None)

    def video(self, user: str, *, msg_id: int | None = None) -> str:
        return self._msg(user, "video", {"MediaId": "m2", "ThumbMediaId": "t2"}, msg_id, None)

    def location(self, user: str, *, msg_id: int | None = None) -> str:
        body: dict[str, str | int | float] = {"Location_X": 39.9, "Location_Y": 116.4, "Scale": 15,
                                              "Label": "北京市"}
        return self._msg(user, "location", body, msg_id, None)

    def link(self, user: str, *, msg_id: int | None = None) -> str:
        body: dict[str, str | int | float] = {"Title": "标题", "Description": "描述",
                                              "Url": "http://example.invalid/a"}
        return self._msg(user, "link", body, msg_id, None)

    def file(self, user: str, *, msg_id: int | None = None) -> str:
        body: dict[str, str | int | float] = {"Title": "a.pdf", "Description": "", "FileKey": "k",
                                              "FileMd5": "0" * 32, "FileTotalLen": 10}
        return self._msg(user, "file", body, msg_id, None)

    def event(self, user: str, event: str, key: str | None = None, *, create_time: int | None = None,
              extra: dict[str, str | int | float] | None = None) -> str:
        fields = self._head(user, "event", create_time)
        fields["Event"] = event
        if key is not None:
            fields["EventKey"] = key
        return _xml(fields | (extra or {}))

    def subscribe(self, user: str, create_time: int | None = None) -> str:
        return self.event(user, "subscribe", create_time=create_time)

    def unsubscribe(self, user: str, create_time: int | None = None) -> str:
        return self.event(user, "unsubscribe", create_time=create_time)

    def click(self, user: str, key: str, create_time: int | None = None) -> str:
        return self.event(user, "CLICK", key, create_time=create_time)

    def view(self, user: str, url: str = "http://example.invalid/", create_time: int | None = None) -> str:
        return self.event(user, "VIEW", url, create_time=create_time)

    def scan(self, user: str, scene: str = "123", create_time: int | None = None) -> str:
        return self.event(user, "SCAN", scene, extra={"Ticket": "ticket"}, create_time=create_time)

    def template_finished(self, user: str, msg_id: int, status: str = "success") -> str:
        return self.event(user, "TEMPLATESENDJOBFINISH", extra={"MsgID": msg_id, "Status": status})
