"""Reminder wording: the content of "…提醒我…", the target of "取消…提醒", and timers."""

from __future__ import annotations

import re

from runtime.skill.parsers import NOT_NEEDED, time_spans

__all__ = ["ALL", "LATEST", "TIMER", "TIMER_CONTENT", "extract_content", "extract_kind", "extract_target", "parse_target"]

ALL = "全部"
LATEST = "刚才"  # the reminder set last: "取消刚才那个", "刚才那个不要了"
_LATEST = re.compile(r"(?:刚才|刚刚|刚)(?:设|加|定|建)?(?:的|那个|那条|这个|这条)*(?:提醒)?")
TIMER = "计时"
TIMER_CONTENT = "计时结束"
_KEYWORD = re.compile(r"(?:记得|请|麻烦|帮我)*(?:提醒一下我|提醒我一下|提醒下我|提醒我|提醒一下|叫我|喊我|提醒"
                      r"|(?:可|千万|一定)?(?:别|不要)让我忘(?:了|记)?|(?:帮我|给我|替我)(?:记住|记着|记好)(?:一下)?)")
_SETUP = re.compile(r"(?:帮我)?(?:设置?|定|订|弄|整|搞|建|加|创建|添加)(?:一个|个|一下)?(?:的)?提醒")
_LEAD = re.compile(r"^(?:[\s,，:：。、]|的|要|该|记得|我|再)+|^是(?=[\u4e00-\u9fff])")
_TRAIL = re.compile(r"[\s,，。.!！~～吧哦啊呀哈的了]+$")
_ALL = re.compile(r"全部|所有|全都|都")
_NUMBER = re.compile(r"第?\s*(?P<n>\d+|[一二两三四五六七八九十]{1,3})\s*(?:个|条|号)?")
_POLITE = re.compile(r"^(?:请|帮我|麻烦你?|把|将|我要|我想|我)+")
_VERB = re.compile(r"^(?:取消|删掉|删除|删了|去掉|撤销|关掉|关闭|停止|停掉|结束|不要|别再|删)(?:掉|了)?(?:一下)?(?:我的|的)?")
_NO_MORE = re.compile(r"^(?:以后|今后|之后)?(?:别|不要|不用|不必|无需)再?(?:提醒我?|叫我|喊我)")
# "那个看牙的用不着叫我了": the words before the reminding verb said not to be needed name the reminder
_NO_MORE_TAIL = re.compile(rf"(?:就|也|都)?(?:{NOT_NEEDED})再?(?:提醒我?|叫我|喊我|催我?)(?:了|啦|吧)*$")
_MATTER = re.compile(r"(?:的|这件|那件)事(?:儿|情)?$")
_POINTING = re.compile(r"^(?:那个|这个|那条|这条|那一条|这一条)")
_REMINDER = re.compile(r"(?:那个|这个|那条|这条|那一条|这一条|的)*(?:提醒|闹钟)")
_TAIL = re.compile(r"(?:那个|这个|那条|这条|的)*(?:提醒)?(?:以后|今后)?(?:就|也|都)?"
                   r"(?:吧|了|掉|一下|取消|删掉|删除|删了|去掉|不要|不用|不需要|别|停|关)*$")
_TIMER = re.compile(r"倒计时|计时器|计时|定时器")
_SOME = re.compile(r"(?:一|1)?\s*(?:个|条)|某(?:一)?(?:个|条)|一下|哪个|哪条")
_CN = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


_FROM = re.compile(r"(?:从|自)\s*$")
_ON = re.compile(r"\s*(?:开始|起)")


def _strip_spans(text: str) -> str:
    """``text`` without its time phrases, and the 从…开始 around them (从下周一开始 is when, not what)."""
    for start, end in reversed(time_spans(text)):
        before, after = _FROM.search(text, 0, start), _ON.match(text, end)
        start = before.start() if before is not None else start
        end = after.end() if after is not None else end
        text = text[:start] + text[end:]
    return text


# a leading clause that only steers the conversation: "等下，先…", "再加一个，…", "对了，…"
_FILLER_CLAUSE = re.compile(r"^\s*(?:等下|等一下|等等|先|对了|另外|还有|顺便|然后|再|也|加一个|再加一个|再来一个|"
                            r"再设一个|再加个|来一个|一个|好的?|嗯+|哦|那个|那就|那么|那|帮我|给我|设一个|设个|定一个|定个|"
                            r"建一个|\s)*(?:[,，、;；]|(?<=[个我那么])\s+)")


_THANKS = re.compile(r"[，,。\s]*(?:谢谢|谢啦|谢了|多谢|(?:麻烦|拜托|辛苦)(?:你|您)(?:了|啦)?|(?:麻烦|拜托|辛苦)了)"
                     r"(?:你|啦|了|哈|啊|呀|哦|喽)*[!！。~～]*$")  # 麻烦你了啊


def _clean(text: str) -> str:
    text = _THANKS.sub("", text.strip())
    while (m := _FILLER_CLAUSE.match(text)) is not None:
        text = text[m.end():]
    return _TRAIL.sub("", _LEAD.sub("", text.strip())).strip()


# a clause that says nothing of what to remind: an address, politeness, the request itself said again,
# thanks ("小王啊，麻烦你帮我记一下哈，…，提醒我啊，谢谢啊谢谢")
_EMPTY = re.compile(r"^(?:[\u4e00-\u9fff]{1,3}(?:啊|呀|哎|哇)|(?:麻烦|劳驾|拜托|请|求求)?(?:你|您)?"
                    r"(?:帮我|给我|替我)?(?:记一下|记下|记着|记住|记好|设一下|弄一下|记得|别忘了?|一定|到时候?)?(?:提醒我?|叫我|喊我)?"
                    r"(?:一下|一声|下)?(?:哈|啊|呀|哦|吧|啦|了|呢|嘛|哟|喔)*|(?:谢谢|多谢|谢啦|谢了|感谢)(?:你|您)?"
                    r"(?:啊|呀|哈|了)*(?:谢谢)?|好的?|嗯+|行|对)$")
_CLAUSE_CUT = re.compile(r"[，,。；;！!？?、\n]+")
# a word pointing back at the time already said ("到时候提醒我"): when, not what
_BACK = re.compile(r"(?:到|在)?(?:那个?时候|到时候?|届时|到点)")


def _said(text: str) -> str:
    """``text`` without the clauses that say nothing of what to remind (when others do)."""
    cut = re.split(r"([，,。；;！!？?、\n]+|\s+)", text)  # spaces too: "量血压 提醒我啊" said by voice
    pairs = [(cut[n].strip(), cut[n + 1] if n + 1 < len(cut) else "") for n in range(0, len(cut), 2)]
    pairs = [(c, sep) for c, sep in pairs if c]
    kept = [(c, sep) for c, sep in pairs if not _EMPTY.fullmatch(c)]
    if not kept or len(kept) == len(pairs):
        return text
    return "".join(c + (sep if n < len(kept) - 1 else "") for n, (c, sep) in enumerate(kept))


def extract_content(text: str) -> str | None:
    """What to be reminded of: the words after 提醒我 (or before it), without the time phrase, the clauses
    that say nothing of it (an address, politeness, thanks, the request said again) and a word that points
    back at the time (到时候).

    A timer (10分钟计时器, 计时20分钟) is reminded of as :data:`TIMER_CONTENT`.
    """
    rest = _BACK.sub("", _said(_SETUP.sub(" ", _strip_spans(text))))
    match = _KEYWORD.search(rest)
    if match is None and _TIMER.search(text):
        return TIMER_CONTENT
    if match is None:
        content = _clean(rest)
    else:
        content = _clean(rest[match.end():]) or _clean(rest[:match.start()])
    return content or None


def extract_kind(text: str) -> str | None:
    """``计时`` when a list request is about timers (计时器还剩多久)."""
    return TIMER if _TIMER.search(text) else None


def _small_int(raw: str) -> int | None:
    if raw.isdigit():
        return int(raw)
    if raw == "十":
        return 10
    if raw.startswith("十") and len(raw) == 2:
        return 10 + _CN.get(raw[1], -100)
    if len(raw) == 1:
        return _CN.get(raw)
    return None


PICKED = "#"  # a target that names one reminder by its id, picked from a list shown: "#12 吃药"


def parse_target(text: str) -> int | str | None:
    """A cancel target: a list number, :data:`ALL`, :data:`TIMER`, or words of a reminder's content.

    取消第2个 → 2; 喝水那个提醒以后不要了 → 喝水; 把去银行那个提醒取消掉 → 去银行; 停止计时器 → 计时.
    """
    raw = text.strip().strip("。.!！~～")
    if not raw:
        return None
    if _TIMER.search(raw):
        return TIMER
    if _ALL.search(raw):
        return ALL
    rest = _POLITE.sub("", raw)
    no_more = _NO_MORE.match(rest)
    rest = rest[no_more.end():] if no_more else _VERB.sub("", _NO_MORE_TAIL.sub("", rest))
    rest = _POLITE.sub("", rest)
    reminder = _REMINDER.search(rest)
    if reminder is not None and reminder.start() > 0:
        words = rest[:reminder.start()]
    elif reminder is not None:
        words = rest[reminder.end():]
    else:
        words = rest
    words = _clean(_TAIL.sub("", _clean(words)))
    if _LATEST.fullmatch(words):
        return LATEST
    if _SOME.fullmatch(words):
        return None  # 删个提醒 / 取消一个提醒: which one is still to be asked
    number = _NUMBER.fullmatch(words)
    if number is not None:
        value = _small_int(number.group("n"))
        return value if value is not None and value > 0 else None
    words = _clean(_strip_spans(words)) or words
    words = _POINTING.sub("", words) or words  # "后天那个看牙的": the one about 看牙
    words = _MATTER.sub("", words) or words  # "体检的事": 体检
    return words or None


def extract_target(text: str) -> int | str | None:
    """The cancel target in a whole first message (取消第2个提醒 / 取消带伞的提醒 / 取消所有提醒)."""
    return parse_target(text)
