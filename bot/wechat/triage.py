"""WeChatMessage → what the worker does with it: an engine turn, a fixed reply, or a record only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.wechat.inbound import Kind, WeChatMessage
from bot.wechat.texts import UNSUPPORTED, VOICE_NOT_UNDERSTOOD
from runtime.turn import Inbound, Origin

ENGINE_EVENTS = frozenset({"subscribe", "CLICK", "SCAN"})
SILENT_EVENTS = frozenset({"unsubscribe", "VIEW", "TEMPLATESENDJOBFINISH"})


@dataclass(frozen=True)
class Triage:
    """Pure decision for one message: ``inbound`` for the engine, else a fixed ``reply`` (or none)."""

    inbound: Inbound | None = None
    reply: str | None = None
    user_message: bool = False  # opens the 48-hour window
    interaction: bool = False  # opens the 1-minute window


def waits_for_reply(msg: WeChatMessage) -> bool:
    """Whether the webhook should hold the request for a passive reply."""
    return not (msg.kind is Kind.EVENT and _event(msg) in SILENT_EVENTS)


def _event(msg: WeChatMessage) -> str:
    event = msg.event or ""
    return event.lower() if event.lower() in {"subscribe", "unsubscribe"} else event.upper()


def triage(msg: WeChatMessage) -> Triage:
    """Decide what to do with ``msg`` (no I/O)."""
    at = datetime.fromtimestamp(msg.create_time or 0, tz=UTC)
    msg_id = msg.message_key
    if msg.kind is Kind.TEXT:
        return Triage(Inbound(user=msg.user, text=msg.text, origin=Origin.TEXT, msg_id=msg_id, at=at),
                      user_message=True)
    if msg.kind is Kind.VOICE:
        if msg.recognition and msg.recognition.strip():
            inbound = Inbound(user=msg.user, text=msg.recognition.strip(), origin=Origin.VOICE,
                              msg_id=msg_id, at=at)
            return Triage(inbound, user_message=True)
        return Triage(reply=VOICE_NOT_UNDERSTOOD, user_message=True)
    if msg.kind is not Kind.EVENT:
        return Triage(reply=UNSUPPORTED.get(msg.kind.value, UNSUPPORTED["unknown"]), user_message=True)
    event = _event(msg)
    if event in ENGINE_EVENTS:
        origin = Origin.MENU if event == "CLICK" else Origin.EVENT
        key = msg.key
        if event == "subscribe" and key and key.startswith("qrscene_"):
            key = key[len("qrscene_"):]
        inbound = Inbound(user=msg.user, origin=origin, event=event, key=key, msg_id=msg_id, at=at)
        return Triage(inbound, interaction=True)
    return Triage()
