"""One message's delivery as the worker's turn drives it, through one object (:class:`TurnDelivery`).

The turn makes two round trips of its own — the entry's read, the commit — and its delivery rides
on both: the windows the user's message opens go with the read, the start of the delivery (one
passive piece offered to the waiting webhook request, or the reads a delivery plans from) with the
commit; the rest of the delivery runs once the turn is stored. The turn knows nothing of the
hand-off, the delivery's store or its transcript: it calls :meth:`DeliveryService.for_turn` once and
drives the object it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.delivery._fence import Fence
from bot.delivery._outcome import Outcome, Started
from bot.delivery._pieces import piece_ids, pieces_for
from bot.delivery._store import DeliveryStore, parse_offer_reads, parse_snapshot
from bot.delivery.handoff import Handoff
from bot.delivery.policy import Channel
from bot.wechat.api import WeChatAPI

Deliver = Callable[..., list[Outcome]]  # DeliveryService.deliver


@dataclass(frozen=True)
class PendingStart:
    """What :func:`queue_start` queued: replies from ``index`` on are its own."""

    store: DeliveryStore
    handoff: Handoff
    index: int
    offered: str | None  # the piece it tries to offer, or None: snapshot reads only

    def read(self, replies: list[Any]) -> Started:
        """Interpret the replies of the queued commands (an error reply is raised)."""
        if self.offered is None:
            return Started(snapshot=parse_snapshot(replies[:5]))
        found = self.handoff.read_offer(replies[0])
        if found is None:  # nothing ran: deliver reads the snapshot itself
            return Started()
        if isinstance(found, str):
            return Started(outcome=Outcome(Channel.PASSIVE, "offered", self.offered))
        return Started(snapshot=parse_offer_reads(found))


def queue_start(store: DeliveryStore, handoff: Handoff, pipe: Any, user: str, message_key: str, texts: list[str],
                saved_by: str | None = None) -> PendingStart:
    """:meth:`DeliveryService.queue_start`."""
    index = len(pipe)
    pieces = pieces_for((), texts)
    if len(pieces) == 1:  # passive, whenever a webhook waits and nothing is parked
        handoff.queue_offer_or_read(pipe, user, message_key, piece_ids(pieces)[0], pieces[0], saved_by)
        return PendingStart(store, handoff, index, pieces[0])
    store.queue_snapshot(pipe, user, message_key)
    return PendingStart(store, handoff, index, None)


class TurnDelivery:
    """The delivery of one message's replies, driven by the worker's turn (:mod:`bot.delivery.turn`)."""

    def __init__(self, store: DeliveryStore, handoff: Handoff, api: WeChatAPI, deliver: Deliver, user: str,
                 message_key: str) -> None:
        self._store, self._handoff, self._api, self._deliver = store, handoff, api, deliver
        self.user, self.message_key = user, message_key
        self._start: PendingStart | None = None

    def queue_opened(self, pipe: Any, at: float, *, wrote: bool, interacted: bool) -> None:
        """Queue on ``pipe`` the windows the message opens: the user ``wrote`` (a new 48-hour window
        with a fresh quota) or ``interacted`` (a menu click, subscribe or scan: a fresh allowance)."""
        if wrote:
            self._store.on_user_message(self.user, at, pipeline=pipe)
        if interacted:
            self._store.on_interaction(self.user, at, pipeline=pipe)

    def queue_start(self, pipe: Any, replies: list[str], *, saved_by: str | None = None) -> None:
        """Queue the start of the delivery of ``replies`` on ``pipe`` (the commit's pipeline, executed
        next; nothing when there are none); ``saved_by``: the turn's marker, queued earlier on
        ``pipe`` only once the turn is stored (:meth:`DeliveryService.queue_start`). Pass the
        pipeline's replies to :meth:`complete` as ``committed``."""
        self._start = queue_start(self._store, self._handoff, pipe, self.user, self.message_key, replies,
                                  saved_by) if replies else None

    def complete(self, replies: list[str], committed: list[Any] | None = None, *, fence: Fence | None = None,
                 record_on: Any = None) -> list[Outcome]:
        """Deliver ``replies`` under the user's lease ``fence``, going on from the start queued on the
        commit (``committed``: that pipeline's replies; None when the turn was stored before); with
        none, a waiting webhook request answers at once. ``record_on``: a pipeline the caller
        executes next (a delivery that keeps a transcript queues its records there)."""
        if not replies:
            self._handoff.release(self.user, self.message_key)
            return []
        start, self._start = self._start, None
        started = start.read(committed[start.index:]) if start is not None and committed is not None else None
        return self._deliver(self.user, self.message_key, replies, started=started, fence=fence, record_on=record_on)

    def typing(self) -> None:
        """Show "typing…" to the user (raises :class:`bot.wechat.errors.WeChatAPIError` if refused)."""
        self._api.typing(self.user)

    def record_event(self, event: str, extra: dict[str, str]) -> None:
        """Keep what an event says about delivering to the user: unsubscribed, subscribed again, or a
        template message's outcome (``extra``: the event's fields)."""
        store, user = self._store, self.user
        if event == "unsubscribe":
            store.set_flag(user, "unsubscribed")
            store.record(user, self.message_key, "event", "unsubscribed")
        elif event == "subscribe":
            store.set_flag(user, "unsubscribed", on=False)
            store.set_flag(user, "refused", on=False)
        elif event == "templatesendjobfinish":
            msgid, status = extra.get("MsgID", ""), extra.get("Status", "")
            store.record(user, store.template_message_key(user, msgid) or f"tmpl:{msgid}", "template",
                         "delivered" if status == "success" else f"undelivered:{status}")
