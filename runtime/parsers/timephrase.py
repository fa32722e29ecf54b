"""Chinese time phrases → a moment (and maybe a repeat rule), resolved against the user's clock.

Pure: no I/O, no ``datetime.now()``. ``now`` is the turn's clock in the user's timezone.

>>> from datetime import datetime
>>> from zoneinfo import ZoneInfo
>>> now = datetime(2026, 12, 1, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))  # a Tuesday
>>> e = parse_time_phrase("后天早上7点提醒我带伞", now)
>>> format_when(e.at), e.span
('12月3日（周四）07:00', (0, 6))
>>> e = parse_time_phrase("国庆前两天下午3点提醒我抢票", now)
>>> format_when(e.at), e.unexplained
('9月29日（周三）15:00', ())
>>> parse_time_phrase("开斋节晚上提醒我", now).unexplained
('开斋节',)

Rules: a date without a clock time means 09:00 (a part of day alone means its usual hour, from
:mod:`runtime.parsers.day_parts`; ``assumed`` says which were taken);
a time without a date that has already passed today means its next occurrence (and 1-11
o'clock without 上午/下午 means whichever of am/pm comes first); 下午/晚上 + 1-11 means pm; a
festival or lunar date means its next occurrence. Every temporal-looking word the parser could
not use is listed in ``unexplained``. See ``skills/reminders/README-time.md`` for every phrase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from runtime.parsers import day_parts
from runtime.parsers._festival_things import names_content
from runtime.parsers._time_agree import APPOSITION, agreeing, readings
from runtime.parsers._time_cues import cue_spans, leaning
from runtime.parsers._time_describe import describe_rrule, format_when
from runtime.parsers._time_resolve import Resolved, group, resolve
from runtime.parsers._time_scan import DATE_KINDS, tokenize
from runtime.parsers._time_tokens import Kind, Token

__all__ = ["TimeExpr", "describe_rrule", "format_when", "leaning", "parse_time_phrase", "time_spans"]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class TimeExpr:
    """A resolved time phrase.

    ``at`` is the first occurrence (aware, user's timezone); ``rrule`` a repeat rule without
    DTSTART (``at`` is the start; RFC 5545 or the lunar extension of :mod:`recurrence`) or None;
    ``has_time`` whether a clock time or a duration was said; ``span`` the characters of the phrase
    in the text; ``said`` the words understood; ``unexplained`` the temporal-looking words of the
    text that were not used (a festival the calendar does not know, a second date, 下班后 …);
    ``timer`` whether it was said as a timer (10分钟计时器); ``assumed`` the words whose conventional
    meaning was taken, each with what was taken (a :class:`Part` value for the hour of a part of the
    day, ``month-end`` for 月底, ``weekend`` for 下周末's Saturday); ``readings`` the words and days of
    two dates said together that disagree (8月15日 … 中秋节), whose words are also ``unexplained``, and
    ``shared`` what holds for either (晚上8点): the words an answer naming the day is read with. ``dated`` whether a day was named (明天, 周五,
    12月3号, 中秋 — not 下午 or 8点 alone), None when not known (a value stored before it was kept).
    """

    at: datetime
    rrule: str | None = None
    has_time: bool = True
    span: tuple[int, int] = (0, 0)
    said: str = ""
    unexplained: tuple[str, ...] = ()
    timer: bool = False
    assumed: tuple[tuple[str, str], ...] = ()
    readings: tuple[tuple[str, date], ...] = ()
    shared: str = ""
    dated: bool | None = None

    def to_param(self) -> dict[str, Any]:
        """A JSON-serialisable form (slot params)."""
        param: dict[str, Any] = {"at": self.at.isoformat(), "rrule": self.rrule, "has_time": self.has_time,
                                 "span": [self.span[0], self.span[1]]}
        if self.said:
            param["said"] = self.said
        if self.unexplained:
            param["unexplained"] = list(self.unexplained)
        if self.timer:
            param["timer"] = True
        if self.assumed:
            param["assumed"] = [[word, what] for word, what in self.assumed]
        if self.readings:
            param["readings"] = [[word, day.isoformat()] for word, day in self.readings]
            param["shared"] = self.shared
        if self.dated is not None:
            param["dated"] = self.dated
        return param

    @classmethod
    def from_param(cls, param: dict[str, Any]) -> TimeExpr:
        """The inverse of :meth:`to_param`; raises ``ValueError`` on a malformed or naive value."""
        at = datetime.fromisoformat(str(param["at"]))
        if at.tzinfo is None:
            raise ValueError("TimeExpr.at must be timezone-aware")
        span = param.get("span") or (0, 0)
        return cls(at=at, rrule=param.get("rrule") or None, has_time=bool(param.get("has_time", True)),
                   span=(int(span[0]), int(span[1])), said=str(param.get("said") or ""),
                   unexplained=tuple(str(w) for w in param.get("unexplained") or ()),
                   timer=bool(param.get("timer", False)),
                   assumed=tuple((str(w), str(a)) for w, a in param.get("assumed") or ()),
                   readings=tuple((str(w), date.fromisoformat(str(d))) for w, d in param.get("readings") or ()),
                   shared=str(param.get("shared") or ""),
                   dated=None if param.get("dated") is None else bool(param["dated"]))


@dataclass(frozen=True, slots=True)
class _Reading:
    """How the phrases of a text were read: the moment, the phrases used, and what is left over."""

    resolved: Resolved
    used: list[list[Token]]
    content: list[Span]        # phrases that are part of what is said, not when (中秋月饼, 周五的会)
    unexplained: list[Span]
    readings: list[tuple[Span, date]]  # two dates that disagree (8月15日 … 中秋节)
    shared: list[Span]         # with readings: what the used phrases say besides the day (晚上8点)


def _span(phrase: list[Token]) -> Span:
    return phrase[0].start, phrase[-1].end


def _lone_weak(phrase: list[Token]) -> bool:
    return len(phrase) == 1 and phrase[0].weak


def _attributive(text: str, phrase: list[Token]) -> bool:
    """A festival that names what the message is about (中秋月饼, 吃元宵), or any day followed by 的 + a noun."""
    end = phrase[-1].end
    if not any(t.kind in (Kind.DAY, Kind.WEEK, Kind.MONTHDAY, Kind.NAMED) for t in phrase):
        return False  # 前一天的会: which day is still unexplained
    only = phrase[0]
    if len(phrase) == 1 and only.kind is Kind.NAMED:
        festival = only.name.removeprefix("fest:") if only.name.startswith("fest:") else ""
        if names_content(text, only.start, end, festival):  # 中秋月饼, 吃元宵, 腊八粥
            return True
    return text.startswith("的", end) and not tokenize(text[end + 1:end + 4])


def _slots(phrase: list[Token]) -> tuple[bool, bool, bool]:
    kinds = {t.kind for t in phrase}
    has_date = bool(kinds & {Kind.DAY, Kind.WEEK, Kind.MONTHDAY, Kind.NAMED, Kind.RANGE, Kind.RECUR, Kind.DELTA})
    has_clock = bool(kinds & {Kind.CLOCK, Kind.WINDOW, Kind.PART, Kind.DELTA}) or any(t.part for t in phrase)
    has_offset = Kind.OFFSET in kinds
    return has_date, has_clock, has_offset


def _complements(main: list[Token], other: list[Token]) -> bool:
    """Whether ``other`` fills only what ``main`` lacks (明天 … 下午3点; 下午3点开会 … 提前半小时)."""
    m_date, m_clock, m_offset = _slots(main)
    o_date, o_clock, o_offset = _slots(other)
    if any(t.kind is Kind.DELTA for t in main + other):
        return False
    if o_offset and not (o_date or o_clock):  # only 提前…: 年会前一天 counts from 年会, not from main
        ahead = all(t.name == "ahead" for t in other if t.kind is Kind.OFFSET)
        return ahead and not m_offset and (m_date or m_clock)
    for part, clock in ((main, other), (other, main)):  # 后天下午 … 大概4点: the clock time in that part of the day
        if _part_only(part) and Kind.CLOCK in {t.kind for t in clock} and not _has_part(clock) \
                and not (m_date and o_date):
            return not (m_offset and o_offset)
    return not (m_date and o_date) and not (m_clock and o_clock) and not (m_offset and o_offset)


def _has_part(phrase: list[Token]) -> bool:
    return any(t.kind is Kind.PART or t.part for t in phrase)


def _part_only(phrase: list[Token]) -> bool:
    """A part of the day without a clock time (下午, 明晚)."""
    return _has_part(phrase) and not {t.kind for t in phrase} & {Kind.CLOCK, Kind.WINDOW}


_STARTING = re.compile(r"\s*(?:开始|起|以后|之后|往后)")
_FROM = re.compile(r"(?:从|自|打)\s*$")


def _start_of(text: str, repeat: list[Token], phrase: list[Token], now: datetime) -> Resolved | None:
    """A repeat read from a day it starts on ("从下周一开始", "12月10号起"), or None when ``phrase`` is not that."""
    if not any(t.kind is Kind.RECUR for t in repeat) or any(t.kind is Kind.RECUR for t in phrase):
        return None
    if not {t.kind for t in phrase} <= {Kind.DAY, Kind.WEEK, Kind.MONTHDAY, Kind.NAMED}:
        return None
    start, end = _span(phrase)
    if not (_STARTING.match(text, end) or _FROM.search(text, 0, start)):
        return None
    day = resolve(phrase, now)
    if day is None:
        return None
    begin = day.at.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(seconds=1)
    return resolve(repeat, max(now, begin))


def _read(text: str, tokens: list[Token], now: datetime) -> _Reading | None:
    phrases = group(text, tokens)
    resolved = [(p, r) for p in phrases if (r := resolve(p, now)) is not None]
    if not resolved:
        return None
    strong = [(p, r) for p, r in resolved if not _lone_weak(p) and not _attributive(text, p)] or resolved
    main_phrase, best = max(strong, key=lambda pr: (pr[1].span[1] - pr[1].span[0], -pr[1].span[0]))
    used, content, unexplained = [main_phrase], [], []
    disputed: list[tuple[Span, date]] = []
    merged = list(main_phrase)
    for phrase in phrases:
        if phrase is main_phrase:
            continue
        if _lone_weak(phrase) or _attributive(text, phrase):
            content.append(_span(phrase))
            continue
        starts = _start_of(text, merged, phrase, now)
        if starts is not None:  # 从下周一开始 工作日每天6点50: the repeat's first time is on or after that day
            best, used = starts, [*used, phrase]
            continue
        together = sorted(merged + phrase, key=lambda t: t.start) if _complements(merged, phrase) \
            else agreeing(merged, phrase, best, now)  # 10月1日 … 国庆节上午10点: one day said twice
        candidate = resolve(together, now) if together is not None else None
        if together is not None and candidate is not None:
            merged, best, used = together, candidate, [*used, phrase]
            continue
        if all(t.weak for t in phrase):
            continue  # 一点 (a little), a lone 早 (早点睡)
        disagree = () if disputed else readings(text, merged, phrase, best, now)
        if not disagree:
            unexplained.append(_span(phrase))
            continue
        disputed.extend(disagree)  # 9月26日中秋节晚上: which day is asked; 晚上 holds for either
        dates = [t for t in phrase if t.kind in DATE_KINDS]
        unexplained.append(_span(dates))
        rest = [t for t in phrase if t.kind not in DATE_KINDS]
        together = sorted(merged + rest, key=lambda t: t.start)
        candidate = resolve(together, now) if rest and _complements(merged, rest) else None
        if candidate is not None:
            merged, best = together, candidate
    unexplained.extend(best.loose)
    shared = _joined([(t.start, t.end) for t in merged if t.kind not in DATE_KINDS]) if disputed else []
    return _Reading(best, used, content, unexplained, disputed, shared)


def _joined(spans: list[Span]) -> list[Span]:
    """Spans next to each other as one (晚上 + 8点 → 晚上8点)."""
    out: list[Span] = []
    for a, b in sorted(spans):
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _leftover_cues(text: str, tokens: list[Token]) -> list[Span]:
    """Cues, or the parts of cues, that no token covers (8点开斋节: 开斋节, not 点开斋节)."""
    covered: set[int] = set()
    for t in tokens:
        covered.update(range(t.start, t.end))
    found: list[Span] = []
    for a, b in cue_spans(text):
        start = None
        for i in range(a, b + 1):
            if i < b and i not in covered:
                start = i if start is None else start
                continue
            if start is not None:
                found.extend((start + x, start + y) for x, y in cue_spans(text[start:i]))
                start = None
    return found


_CLAUSE_BREAK = re.compile(r"[，,。；;！!？?\s]")
# "到时候提醒我": a word that points back at the time already said
_BACK = re.compile(r"(?:到|在)?(?:那个?时候|到时候?|届时|那会儿?|到点)")
# "眯一会儿", "歇会儿": how long an activity lasts, not when — part of what is said
_WHILE = re.compile(r"(?:眯|歇|睡|躺|坐|休息|玩|聊|等|打盹|小憩|放松|站|走|看|练)(?:一)?会儿?$")


def _explained_by(text: str, start: int, end: int, said: str, said_at: int | None, said_end: int | None) -> bool:
    """Whether a temporal-looking word left over is explained after all: a word pointing back at the time
    said before it (…三点半去医院，到时候提醒我), a while that an activity lasts (眯一会儿), or, in a clause of
    its own after the time, a part of the day the time already names (每日中午十二点半…，…中午不歇不行)."""
    word = text[start:end]
    if said_at is not None and said_at < start and _BACK.fullmatch(word):
        return True
    if _WHILE.search(text[max(0, start - 3):end]) and word.endswith(("会", "会儿")):
        return True
    return word in day_parts.WORDS and word in said and said_end is not None and said_end <= start \
        and bool(_CLAUSE_BREAK.search(text, said_end, start))


def parse_time_phrase(text: str, now: datetime) -> TimeExpr | None:
    """The time phrase in ``text`` resolved against ``now`` (aware); None when there is none.

    When the text holds several phrases the most complete one wins; a phrase that only adds
    what it lacks (明天 … 下午3点) is merged into it; anything else temporal is ``unexplained``.
    """
    if now.tzinfo is None:
        raise ValueError("parse_time_phrase needs an aware 'now' in the user's timezone")
    # keyed by the wall clock and the zone: aware datetimes of one instant compare equal across zones
    return _parse(text, now.replace(tzinfo=None), now.tzinfo)


@lru_cache(maxsize=4096)
def _parse(text: str, wall: datetime, tz: Any) -> TimeExpr | None:
    """:func:`parse_time_phrase`, kept per (text, wall clock, zone): a day's questions asked against
    its midnight (今天几号, 中秋是哪天) are read once."""
    now = wall.replace(tzinfo=tz)
    tokens = tokenize(text)
    reading = _read(text, tokens, now)
    if reading is None:
        return None
    best = reading.resolved
    spans = sorted(_span(p) for p in reading.used)
    said = "…".join(text[a:b] for a, b in spans)
    leftover = sorted(set(reading.unexplained) | set(_leftover_cues(text, tokens)))
    timed = [_span(p) for p in reading.used if _slots(p)[0] or _slots(p)[1]]
    said_at = min((a for a, _ in timed), default=None)
    said_end = max((b for _, b in timed), default=None)
    leftover = [(a, b) for a, b in leftover if not _explained_by(text, a, b, said, said_at, said_end)]
    words = tuple(dict.fromkeys(text[a:b].removeprefix("的") for a, b in leftover))
    span = (spans[0][0], spans[-1][1]) if len(spans) > 1 else best.span
    assumed = tuple((text[a:b], what) for (a, b), what in best.assumed)
    days = tuple((text[a:b], day) for (a, b), day in reading.readings)
    shared = "…".join(text[a:b] for a, b in reading.shared)
    dated = any(_slots(p)[0] for p in reading.used)
    return TimeExpr(best.at, best.rrule, best.has_time, span, said, words, best.timer, assumed, days, shared,
                    dated)


def time_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the time phrases in ``text`` that say when (not 中秋 in 中秋月饼), left to right."""
    return list(_time_spans(text))


@lru_cache(maxsize=4096)
def _time_spans(text: str) -> tuple[tuple[int, int], ...]:
    probe = datetime.fromisoformat("2000-01-03T12:00:00+00:00")
    tokens = tokenize(text)
    reading = _read(text, tokens, probe)
    if reading is None:
        return ()
    content = set(reading.content)
    spans = sorted(s for p in group(text, tokens) if (s := _span(p)) not in content and not _lone_weak(p)
                   and not all(t.weak for t in p))
    return tuple(_together(text, spans))


_CLOSING = {"（": "）", "(": ")", "【": "】"}


def _together(text: str, spans: list[Span]) -> list[Span]:
    """Phrases said as one with what stands between them (12月25日（周五）, 农历八月十五也就是9月15日)."""
    out: list[Span] = []
    for a, b in spans:
        if out and APPOSITION.fullmatch(text, out[-1][1], a):
            a = out.pop()[0]
        opened = [c for c in _CLOSING if c in text[a:b]]
        if opened and text.startswith(_CLOSING[opened[-1]], b):
            b += 1
        out.append((a, b))
    return out
