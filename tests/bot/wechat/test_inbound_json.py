"""Inbound messages: the XML reader (checked against defusedxml) and the mailbox entry's JSON encoding."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from defusedxml.ElementTree import fromstring as defused_fromstring
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.wechat.inbound import (
    MAX_FIELD_CHARS,
    Kind,
    MalformedMessage,
    WeChatMessage,
    _expat_fields,
    _flat_fields,
    parse_message,
    xml_fields,
)
from bot.wechat.testkit.messages import MessageFactory


def test_to_json_carries_every_field_and_round_trips() -> None:
    msg = WeChatMessage(user="u1", account="gh_1", kind=Kind.EVENT, create_time=1764460800, msg_id=None,
                        text="", recognition="语音", event="CLICK", key="MENU_1", extra={"Latitude": "31.2"})
    assert json.loads(msg.to_json()) == asdict(msg) | {"kind": "event"}  # a new field must be added by hand
    assert WeChatMessage.from_json(msg.to_json()) == msg
    parsed = parse_message(MessageFactory().text("u2", "今天几号 <&>", msg_id=7).encode())
    assert WeChatMessage.from_json(parsed.to_json()) == parsed and parsed.text == "今天几号 <&>"


# -- the expat reader against defusedxml's ElementTree (the oracle, a dev dependency) --------------

_GOOD = ["", "你好", "a&lt;b&amp;c", "&#20320;&#x597D;", "<![CDATA[<x>&]]>", " ", "x]]y", "\u00e9",
         "<![CDATA[a]]>tail", "1764460800"]
_TEXTS = st.sampled_from(_GOOD * 6 + ["&undefined;", "<", "&"])
_TAGS = st.sampled_from(["ToUserName", "FromUserName", "Content", "MsgId", "Event", "a", "A-1", "x.y"])


@st.composite
def _bodies(draw: st.DrawFn) -> bytes | str:
    children = []
    for _ in range(draw(st.integers(0, 5))):
        tag = draw(_TAGS)
        inner = draw(_TEXTS)
        if draw(st.booleans()):  # a nested element: text after it is not the child's .text
            nested = draw(_TAGS)
            inner += f"<{nested}>{draw(_TEXTS)}</{nested}>{draw(_TEXTS)}"
        children.append(f"<{tag}>{inner}</{tag}>")
    root = draw(st.sampled_from(["xml", "xml", "xml", "root"]))
    body = f"<{root}>{''.join(children)}</{root}>"
    prefix = draw(st.sampled_from(["", "", "", "", "<?xml version='1.0' encoding='utf-8'?>", "<!DOCTYPE xml>",
                                   '<!DOCTYPE xml [<!ENTITY a "aaaa">]>', '<!DOCTYPE x SYSTEM "file:///etc/passwd">',
                                   "junk", " "]))
    body = prefix + body + draw(st.sampled_from(["", "", "", " ", "<x/>", "trailing"]))
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(body)))
        body = body[:cut]
    return body.encode() if draw(st.booleans()) else body


def _oracle(body: bytes | str) -> dict[str, str] | None:
    try:
        root = defused_fromstring(body, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except Exception:
        return None
    if root.tag != "xml":
        return None
    return {child.tag: (child.text or "")[:MAX_FIELD_CHARS] for child in root}


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(_bodies())
def test_xml_fields_agrees_with_defusedxml(body: bytes | str) -> None:
    _agrees(body, _oracle(body))


def _agrees(body: bytes | str, expected: dict[str, str] | None) -> None:
    if expected is None:
        with pytest.raises(MalformedMessage):
            xml_fields(body)
    else:
        assert xml_fields(body) == expected


def test_dtds_and_entities_are_refused_before_expansion() -> None:
    laughs = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
              + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">'
                        for i in range(1, 10))
              + ']><xml><Content>&lol9;</Content></xml>')
    for body in (laughs, '<!DOCTYPE xml [<!ENTITY x SYSTEM "file:///etc/passwd">]><xml><a>&x;</a></xml>',
                 '<!DOCTYPE xml SYSTEM "http://127.0.0.1:1/x.dtd"><xml><a>1</a></xml>'):
        with pytest.raises(MalformedMessage):
            xml_fields(body)


# -- the flat-shape reader: where it reads a body, it must read what expat (and defusedxml) read ----

_FLAT_TEXTS = st.sampled_from(["", "你好", "1764460800", "a]b", "a]]b", "]]", "x]]>y", "<x>", "a&b", "\r\n", "a\nb",
                               "\x01", "\ufffe", "\t", "é", "😀", "<![CDATA[", "]", "]]]", "a" * 9000])


@st.composite
def _flat_bodies(draw: st.DrawFn) -> bytes | str:
    parts = ["<xml>"]
    for _ in range(draw(st.integers(0, 7))):
        tag = draw(st.sampled_from(["ToUserName", "FromUserName", "Content", "MsgId", "a_1", "A", "1a", "x-y", "名"]))
        inner = "".join(draw(st.lists(_FLAT_TEXTS, max_size=3)))
        if draw(st.booleans()):  # CDATA, sometimes split the way WeChat escapes "]]>"
            inner = "<![CDATA[" + inner.replace("]]>", draw(st.sampled_from(["]]]]><![CDATA[>", "]]>"]))) + "]]>"
            if draw(st.integers(0, 4)) == 0:
                inner += draw(st.sampled_from(["<![CDATA[b]]>", "tail", " "]))
        parts.append(f"<{tag}>{inner}</{draw(st.sampled_from([tag, tag, tag, 'Other']))}>")
        parts.append(draw(st.sampled_from(["", "", "\n", " \t", "\r\n", "x"])))
    parts.append("</xml>" + draw(st.sampled_from(["", "", "\n", "\r\n", "<a/>"])))
    body = draw(st.sampled_from(["", "", "", " ", "\ufeff"])) + "".join(parts)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "str", "latin-1", "utf-16"]))
    if encoding == "str":
        return body
    return body.encode(encoding, errors="replace")


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(_flat_bodies())
def test_flat_reader_reads_what_expat_and_defusedxml_read(body: bytes | str) -> None:
    expected = _oracle(body)
    flat = _flat_fields(body)
    if flat is not None:
        assert flat == expected == _expat_fields(body)
    _agrees(body, expected)


def test_real_messages_take_the_flat_reader() -> None:
    factory = MessageFactory()
    for body in (factory.text("oUser", "今天 <b>&amp; 几号", msg_id=7), factory.event("oUser", "CLICK", key="M1"),
                 factory.text("oUser", "a]]b\nc", msg_id=8), factory.location("oUser", msg_id=9)):
        assert _flat_fields(body.encode()) == _expat_fields(body.encode())
    split = factory.text("oUser", "a]]>b", msg_id=10).encode()  # "]]>" escaped as two CDATA sections
    assert _flat_fields(split) is None and xml_fields(split)["Content"] == "a]]>b"
