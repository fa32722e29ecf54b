"""Short words that steer the conversation itself (取消, 继续, 确认, 重置, 帮助) and yes/no said the way
people say it: read once per message into a :class:`ControlReading` the control policy decides from."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from runtime.parsers.correction import CORRECTION
from runtime.understand.lexicon import explained, operations, unexplained, yes_no

__all__ = ["ControlReading", "read_control"]

_TRIM = re.compile(r"[\s，。！!？?,.~～…]+")
_TAIL = re.compile(r"[吧啊呀哦了的嘛呗]+$")

CANCEL = frozenset({"取消", "算了", "不用了", "不要了", "不用", "取消吧", "不做了", "停", "停止", "退出", "先不了", "不了",
                    "不弄了", "不搞了", "不需要了", "没事了", "不想弄了", "先不弄了", "先不用了", "还是算了"})
# a longer colloquial cancel: "算了，先不弄了" / "算了算了" / "先这样吧，不弄了"
_CANCEL_LEAD = re.compile(r"^(算了|还是算了|不弄了|不搞了|先不弄|先不做|先不记|不记了|不用了|不要了|不需要了|先不用|别弄了)")
_CONTINUE_ANY = re.compile(r"^(好|行|嗯|那|对|可以)?[的吧啊]?(继续|接着)")
# a colloquial no to a pending yes/no: "算了，先留着吧" / "别删" / "还是留着吧" / "先不要"
_DENY_LEAD = re.compile(r"^(不|别|否|算了|还是算了|先不|还是不|先留着|留着|保留|还是留着|先别)")
_CONFIRM_LEAD = re.compile(r"^(确认|确定|好|行|可以|没问题|嗯|对|是|ok|yes)")
_CANCEL_WORDS = re.compile(r"不用|不要|别|算了|不需要")
_TASKY = re.compile(r"\d|提醒|晚饭|菜|运动|天气|几号|冰箱|体重")
CONTINUE = frozenset({"继续", "接着来", "接着", "继续吧", "接着说", "回到刚才", "继续刚才"})
CONFIRM = frozenset({"确认", "好", "好的", "是", "是的", "对", "对的", "确定", "可以", "行", "嗯", "没问题", "ok", "yes"})
DENY = frozenset({"不", "不是", "不对", "否", "不行", "不确认", "no"})
RESET = frozenset({"重新开始", "重置", "重来", "从头开始"})
HELP = frozenset({"帮助", "菜单", "help", "你能做什么", "你会什么", "功能", "怎么用", "你能干啥", "你能干什么", "你会干啥",
                  "你会干什么", "你都会啥", "你都会什么", "你会啥", "你能做啥", "你有什么功能", "你有啥功能", "能干啥",
                  "你能帮我做什么", "你能帮我干啥", "你能帮我干什么", "你能帮我做啥", "你可以做什么", "你可以干啥"})

# a question about what the bot can do or how to use it: "都能帮我干点啥", "这个咋用"
_ABILITY = re.compile(r"(?:你|您)?(?:都|还|到底|具体)?(?:能|会|可以)(?:帮我|帮忙|给我)?(?:干|做|办)?(?:点|些)?(?:啥|什么|嘛|哪些)"
                      r"(?:事|功能|忙)?|(?:这个|你|这|它)(?:咋|怎么|如何)(?:用|使用|玩)|有(?:什么|啥)(?:用|功能)"
                      r"|^(?:咋|怎么|如何)(?:用|使用|玩)(?:啊|呀|呢)?(?:你|您|这个)$")
_THINGS = re.compile(r"这些|那些|这几|那几|它们|这堆|这点|剩下的|剩的")


def _asks_abilities(raw: str) -> bool:
    """"都能帮我干点啥", "这个咋用": a short question about the bot itself (not "鸡蛋可以做什么")."""
    m = _ABILITY.search(raw)
    if m is None or len(raw) > 14 or _TASKY.search(raw):
        return False
    if m.group().startswith(("你", "您", "这", "它")):
        return True
    if _THINGS.search(raw[:m.start()]):
        return False  # "就这些能做点啥": what the things just shown can make, not what the bot can do
    return not unexplained(raw[:m.start()], []) and not unexplained(raw[m.end():], [])  # said of nothing else


def _normalise(text: str) -> str:
    """Lower-case, strip punctuation, spaces and trailing particles (算了吧 → 算了)."""
    t = _TRIM.sub("", text.strip().lower())
    stripped = _TAIL.sub("", t)
    return stripped or t


@dataclass(frozen=True, slots=True)
class ControlReading:
    """What a message says about the conversation itself. ``word``: its short form (for the trace).
    ``reply``: a yes (True) or a no (False), when the message is nothing but one — counted only while
    a yes/no waits; ``reply_detail`` says how it was read."""

    word: str = ""
    confirm_word: bool = False
    cancel: bool = False
    continue_exact: bool = False
    continue_loose: bool = False  # a short message with 继续/接着: a continue when something waits
    reset: bool = False
    help: bool = False
    reply: bool | None = None
    reply_detail: str = ""
    then: str = ""  # what a yes or a no said first goes on to ask ("对，另外周四是什么节"), to carry out after it


def _reply(word: str, raw: str) -> tuple[bool | None, str]:
    if word in CONFIRM or raw in CONFIRM:
        return True, word
    if word in DENY or raw in DENY:
        return False, word
    if CORRECTION.search(raw) and _CANCEL_WORDS.search(raw) and len(raw) <= 12:
        return False, f"no: {word}"  # "不对，不用记了"
    if len(raw) > 12 or CORRECTION.search(raw):
        return None, ""  # a correction ("不对，是40分钟") or a request of its own: not a bare yes/no
    if _DENY_LEAD.match(raw) and not raw.startswith(("不错", "不客气")):
        return False, f"no: {word}"
    if _CONFIRM_LEAD.match(raw):
        return True, f"yes: {word}"
    said = yes_no(raw)  # "没毛病", "这回对了", "就这样吧" — yes or no in other words, nothing else
    if said is not None:
        return said, f"{'yes' if said else 'no'}: {word}"
    return None, ""


# a yes or a no said first, then something else asked: "对 另外周四是愚人节吧", "好的，顺便看看明天天气"
_LEADING_REPLY = re.compile(r"^(确认|确定|好的?|行|可以|没问题|嗯+|对的?|是的?|不用了?|不要了?|算了|先不了?)"
                            r"(?:[吧啊呀哦了]*)[，,。.!！\s]+(?P<then>.+)$")
_SAYS_NOTHING = re.compile(r"^[\s，,。.!！~～吧啊呀哦了的嘛呗哈谢谢多麻烦你]*$")


@lru_cache(maxsize=4096)  # pure, and the same short replies (好的, 谢谢, 确认) come again and again
def read_control(text: str) -> ControlReading:
    """The control words of ``text`` (the normalised message)."""
    raw = _TRIM.sub("", text.strip().lower())
    word = _normalise(text)
    if not word:
        return ControlReading()
    reply, detail = _reply(word, raw)
    then = ""
    said_more = _then(text)
    if said_more is not None:
        (reply, then), detail = said_more, f"{'yes' if said_more[0] else 'no'}, then more"
    return ControlReading(
        word=word,
        confirm_word=word in ("确认", "确定", "确认一下", "确定吧"),
        cancel=word in CANCEL or raw in CANCEL or bool(_CANCEL_LEAD.match(raw) and len(raw) <= 10
                                                       and not CORRECTION.search(raw)),  # 不用了，改成9点半
        continue_exact=word in CONTINUE or raw in CONTINUE,
        continue_loose=len(raw) <= 10 and bool(_CONTINUE_ANY.match(raw) or "继续" in raw),
        reset=word in RESET or raw in RESET,
        help=word in HELP or raw in HELP or _asks_abilities(raw),
        reply=reply, reply_detail=detail, then=then)


_INSTEAD = re.compile(r"(?:还是|就|改成|改为|换成|写成?|记成?|应该是|其实是)[^，,。\s]{0,6}?[\d零一二两三四五六七八九十百半点]")


def _then(text: str) -> tuple[bool, str] | None:
    """A yes or a no said first and then something else asked: the reply and what follows it."""
    lead = _LEADING_REPLY.match(text.strip())
    then = lead.group("then").strip() if lead is not None else ""
    if lead is None or _SAYS_NOTHING.match(then) or CORRECTION.search(then) or _INSTEAD.search(then):
        return None  # "算了 体重还是写69吧": a change of mind says what instead, no no
    rest = _TRIM.sub("", then.lower())
    ops = operations(then)
    if _reply(_normalise(then), rest)[0] is not None or (ops and explained(then, [s for _, s in ops])) \
            or _normalise(then) in CONTINUE | CANCEL | RESET or _CONTINUE_ANY.match(rest):
        return None  # "嗯 记上吧", "好，继续": all of it is the reply
    first, _ = _reply(_normalise(lead.group(1)), lead.group(1))
    return (first, then) if first is not None else None
