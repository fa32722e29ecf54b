"""The decision a cascade stage makes: data, easy to test, trace and replay."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from runtime.turn import Stage
from runtime.understand.frame import Frame


class Kind(StrEnum):
    """What a stage decided the message is."""

    WELCOME = "welcome"          # subscribe / scan
    GOODBYE = "goodbye"          # unsubscribe: no reply
    INTENT = "intent"            # start (or answer) an intent
    CANCEL = "cancel"
    CONTINUE = "continue"
    CONFIRM = "confirm"
    RESET = "reset"
    HELP = "help"
    ANSWER = "answer"            # the expected field's value
    FILL = "fill"                # other slots of the active task (out of order, or a correction)
    FOLLOW_UP = "follow_up"      # an elliptical follow-up of the last query ("那广州呢")
    REFER = "refer"              # a follow-up of the focus with its params worked out ("第二道怎么做")
    COMPOUND = "compound"        # several requests in one message, carried out in turn
    CHOICE = "choice"            # an answer to a clarifying question
    INVALID = "invalid"          # not the expected answer: re-ask with a hint
    CLARIFY = "clarify"          # ambiguous: ask a numbered question
    UNSUPPORTED = "unsupported"  # a message type the bot cannot read
    UNKNOWN = "unknown"
    CHITCHAT = "chitchat"
    CRISIS = "crisis"            # thoughts of self-harm, a medical emergency, violence at home: answered first


@dataclass(frozen=True, slots=True)
class Match:
    """A stage's verdict. ``also`` carries a read-only intent found beside a slot answer or a request
    (mixed), ``also_frame`` the clause that asks it."""

    stage: Stage
    kind: Kind
    intent: str = "unknown"
    confidence: float = 1.0
    params: Mapping[str, Any] = field(default_factory=dict)
    detail: str = ""
    also: str | None = None
    also_frame: Frame | None = None
    frame: Frame | None = None  # the part of the message the decision reads its values from (None: all)
    options: tuple[tuple[str, str], ...] = ()
