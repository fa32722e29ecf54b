"""WeChat's side of passive replies for the fault tests, and the check of what each user got.

:class:`Conversation` posts one user's messages one after another as WeChat does: an attempt waits
5 s for the answer, a message gets 3 attempts (a refused attempt — 503, connection refused — is
retried quickly, as a WeChat outage stretched over a Redis restart), and it keeps every passive reply
it received and when. :func:`check` compares what each user got (those passive replies, and the
fake WeChat API's customer-service sends) with what was accepted, in order, and with the delivery
records: ``passive|sent`` only for a reply the sender received (less those WeChat's retry showed had
not arrived, recorded ``retried``), every reply received recorded, every double recorded.

:class:`Pauser` freezes a process (SIGSTOP) for a random 0.3–1.5 s every 2–4 s: a GC pause, CPU
starvation or a noisy neighbour as the webhook sees them.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bot.delivery import SEPARATOR, DeliveryStore
from bot.wechat.testkit import FakeWeChatServer, MessageFactory, WebhookDriver, next_msg_id

M = MessageFactory()
UNCERTAIN = ("uncertain", "resent_uncertain")


@dataclass
class Message:
    """One message as WeChat saw it: accepted (an attempt answered 200) and the passive replies it
    received (arrival time, text)."""

    user: str
    index: int
    content: str
    reply: str  # what the echo engine answers
    msg_id: int = field(default_factory=next_msg_id)
    accepted: bool = False
    attempts: int = 0
    passive: list[tuple[float, str]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"m{self.msg_id}"


class Conversation(threading.Thread):
    """One user's messages, posted one after another with WeChat's timing."""

    def __init__(self, url: str, token: str, user: str, contents: list[str], *, attempts: int = 3,
                 attempt_timeout_s: float = 5.0, refused_retries: int = 60, gap_s: float = 0.1) -> None:
        super().__init__(daemon=True, name=f"wechat-{user}")
        self.url, self.token, self.user = url, token, user
        self.messages = [Message(user, i, c, "echo:" + c.partition(" ")[2] if c.startswith("sleep:") else "echo:" + c)
                         for i, c in enumerate(contents)]
        self.attempts, self.timeout_s = attempts, attempt_timeout_s
        self.refused_retries, self.gap_s = refused_retries, gap_s
        self.statuses: Counter[int | str] = Counter()

    def run(self) -> None:
        with WebhookDriver(self.url, self.token, attempts=self.attempts, attempt_timeout_s=self.timeout_s) as d:
            for msg in self.messages:
                self._post(d, msg)
                time.sleep(self.gap_s)

    def _post(self, d: WebhookDriver, msg: Message) -> None:
        xml = M.text(self.user, msg.content, msg_id=msg.msg_id)
        timeouts = refused = 0
        while timeouts < self.attempts and refused <= self.refused_retries:
            msg.attempts += 1
            sent_at = time.monotonic()
            try:
                res = d.post_once(xml, timeout=self.timeout_s)
            except httpx.TimeoutException:
                res = None
            except httpx.HTTPError:
                self.statuses["refused"] += 1
                refused += 1
                time.sleep(0.2)
                continue
            if res is None or time.monotonic() - sent_at > self.timeout_s:  # an answer after 5 s is dropped
                self.statuses["timeout" if res is None else "late"] += 1
                timeouts += 1  # WeChat gave up on this attempt: the next one goes at once
                continue
            self.statuses[res.status_code] += 1
            if res.status_code != 200:
                refused += 1
                time.sleep(0.2)
                continue
            msg.accepted = True
            text = d.reply_text(res.text)
            if text is not None:
                msg.passive.append((time.time(), text))
            return


@dataclass
class Report:
    """What the users got, against what was accepted and recorded (summed over users)."""

    accepted: int = 0
    passive: int = 0  # replies received passively
    via_api: int = 0  # replies received as customer-service messages
    lost: list[str] = field(default_factory=list)  # accepted messages whose reply never came
    out_of_order: list[str] = field(default_factory=list)  # replies that came after a later one
    doubled: int = 0  # replies that came more than once
    uncertain: int = 0  # records of sends that may have reached the user
    unrecorded_doubles: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)  # records that do not match what was received

    def line(self) -> str:
        return (f"accepted={self.accepted} passive={self.passive} via_api={self.via_api} lost={len(self.lost)} "
                f"out_of_order={len(self.out_of_order)} doubled={self.doubled} uncertain_records={self.uncertain} "
                f"disagreements={len(self.disagreements)}")


def check(conversations: list[Conversation], wx: FakeWeChatServer, store: DeliveryStore) -> Report:
    """Compare, per user, the replies received (passive and customer-service, split at the packing
    separator, by time) with the accepted messages and with the user's delivery records."""
    report = Report()
    for conv in conversations:
        _check_user(conv, wx, store, report)
    return report


def _check_user(conv: Conversation, wx: FakeWeChatServer, store: DeliveryStore, report: Report) -> None:
    user, messages = conv.user, conv.messages
    index = {m.reply: m.index for m in messages}
    custom = wx.state.sent_to(user, "custom")
    received = sorted([(at, text, "passive") for m in messages for at, text in m.passive]
                      + [(s.at, s.text, "custom") for s in custom])
    seen: Counter[int] = Counter()
    latest = -1
    for _, text, channel in received:
        for part in text.split(SEPARATOR):
            i = index.get(part)
            if i is None:
                report.disagreements.append(f"{user}: unexpected reply {part!r}")
                continue
            seen[i] += 1
            if seen[i] > 1:
                continue
            if channel == "passive":
                report.passive += 1
            else:
                report.via_api += 1
            if i < latest:
                report.out_of_order.append(f"{user}: {part} after {messages[latest].reply}")
            latest = max(latest, i)
    accepted = [m for m in messages if m.accepted]
    report.accepted += len(accepted)
    report.lost += [f"{user}: {m.reply}" for m in accepted if not seen[m.index]]
    doubled = sum(n - 1 for n in seen.values() if n > 1)
    records = store.outcomes(user)
    uncertain = sum(r["status"] in UNCERTAIN for r in records)
    report.doubled += doubled
    report.uncertain += uncertain
    if doubled > uncertain:
        report.unrecorded_doubles.append(f"{user}: {doubled} doubled, {uncertain} recorded")
    for m in messages:  # passive|sent only for a reply this message's requests received
        mine = [r for r in records if r["msg"] == m.key and r["channel"] == "passive"]
        sent = sum(r["status"] == "sent" for r in mine) - sum(r["status"] == "retried" for r in mine)
        maybe = sum(r["status"] in UNCERTAIN for r in mine)
        if not sent <= len(m.passive) <= sent + maybe:
            report.disagreements.append(f"{user} {m.key}: {sent} passive|sent (+{maybe} uncertain) records, "
                                        f"{len(m.passive)} passive replies received")
    api_sent = sum(r["channel"] == "custom" and r["status"] == "sent" for r in records)
    api_maybe = sum(r["channel"] == "custom" and r["status"] in UNCERTAIN for r in records)
    if not api_sent <= len(custom) <= api_sent + api_maybe:
        report.disagreements.append(f"{user}: {api_sent} custom|sent (+{api_maybe} uncertain) records, "
                                    f"{len(custom)} customer-service messages received")


class Pauser(threading.Thread):
    """SIGSTOP ``pid`` for ``pause_s`` (random in the range) every ``every_s`` (random in the range),
    seeded; the process is always left running."""

    def __init__(self, pid: int, *, pause_s: tuple[float, float] = (0.3, 1.5), every_s: tuple[float, float] = (2.0, 4.0),
                 seed: int = 0) -> None:
        super().__init__(daemon=True, name="pauser")
        self.pid, self.pause_s, self.every_s = pid, pause_s, every_s
        self._rng = random.Random(seed)
        self._stop_event = threading.Event()
        self.pauses: list[float] = []

    def run(self) -> None:
        while not self._stop_event.wait(self._rng.uniform(*self.every_s)):
            pause = self._rng.uniform(*self.pause_s)
            os.kill(self.pid, signal.SIGSTOP)
            try:
                self._stop_event.wait(pause)
            finally:
                os.kill(self.pid, signal.SIGCONT)
            self.pauses.append(pause)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()
