"""The mailbox entry of a message: a hand-written JSON encoding that must stay complete."""

from __future__ import annotations

import json
from dataclasses import asdict

from bot.wechat.inbound import Kind, WeChatMessage, parse_message
from bot.wechat.testkit.messages import MessageFactory


def test_to_json_carries_every_field_and_round_trips() -> None:
    msg = WeChatMessage(user="u1", account="gh_1", kind=Kind.EVENT, create_time=1764460800, msg_id=None,
                        text="", recognition="语音", event="CLICK", key="MENU_1", extra={"Latitude": "31.2"})
    assert json.loads(msg.to_json()) == asdict(msg) | {"kind": "event"}  # a new field must be added by hand
    assert WeChatMessage.from_json(msg.to_json()) == msg
    parsed = parse_message(MessageFactory().text("u2", "今天几号 <&>", msg_id=7).encode())
    assert WeChatMessage.from_json(parsed.to_json()) == parsed and parsed.text == "今天几号 <&>"
