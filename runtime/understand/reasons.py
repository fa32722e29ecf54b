"""Clauses that say why, not what (DESIGN §3.4: every span classified).

People explain a change as they make it: "改到中午吧，早上我在开会", "不对八点半 八点我还没到家", "提前到八点半
九点我都睡了". The explanation is a clause of its own that states how things are — a subject and a state or
plan (我在开会, 我还没到家, 上午要带孙子), or a causal word (因为, 怕, 不然) — and asks for nothing: no
operation, no request word, no question. Its words, time words included, are never a value of the
request beside it. Pure.
"""

from __future__ import annotations

import re

from runtime.understand.lexicon import Span, clauses, operations

__all__ = ["reason_spans", "says_why"]

# a causal or explaining lead: "因为…", "怕…", "不然…", "那会儿…"
_CAUSE = re.compile(r"因为|由于|怕忘|怕来不及|怕赶不上|怕迟到|怕错过|怕耽误|怕记不住|担心|不然|否则|毕竟|免得|省得|要不然|主要是|原因是|那会儿|那时候|那个点|那个时候|到时候我")
# a state or a plan of someone: "我在开会", "还没到家", "要带孙子", "已经睡了", "有事", "没空"
_STATE = re.compile(r"(?:还没|还在|正在|已经|都已经|早就|早|都|在|要|得|得去|会|有个?|没|不在|忙着?)"
                    r"[\u4e00-\u9fff]{0,3}?(?:到家|回家|下班|上班|开会|会|睡|睡了|睡觉|出门|上课|接|带|陪|忙|有事|空|在家|路上|"
                    r"起|吃饭|加班|值班|考试|在外|外面|走不开|赶不回|来不及|出差|出远门|回老家|上学|送孩子|穿|用|考)"
                    r"|没空|有事|走不开|赶不回来?|来不及|不方便|不在家|没去成?|去不了|没时间|下雨|下雪|刮风|太冷|太热|堵车|"
                    r"生病|感冒|发烧|不舒服|加班|排[\u4e00-\u9fff]{0,4}队|人(?:太|很|特别)?多|起不来|赶不上|"
                    r"在[\u4e00-\u9fff]{1,3}上")
# who the state is about
_SUBJECT = re.compile(r"我|我们|咱|他|她|孩子|老公|老婆|爸|妈|家里|上午|下午|早上|晚上|中午|那天|那时|[今明昨前后]天|"
                      r"(?:周|星期|礼拜)[一二三四五六日天]|[\d一二三四五六七八九十两]{1,3}点(?:半|钟)?")
# a clause that asks for something, whatever else it says
_ASKS = re.compile(r"提醒|叫我|喊我|记得|记一下|帮我|给我|设|改|换|挪|提前|推迟|延后|推到|取消|删|别|不要|不用|[?？吗]|几|"
                   r"多少|什么|啥")
_QUESTION_NE = re.compile(r"呢")  # "那周五呢" asks; after a state ("我还在上课呢", "挤着呢") it only says how things are
# "是X" said of a date or a day ("28号是礼拜天"): a claim that explains, not a value
_CLAIM = re.compile(r"^[\d一二三四五六七八九十廿初]{1,4}[号日].{0,2}是(?:周|星期|礼拜)")


def says_why(clause: str) -> bool:
    """Whether one clause says why rather than what (a state or plan of someone, a cause)."""
    if not clause or _ASKS.search(clause) or operations(clause):
        return False
    if _QUESTION_NE.search(clause) and not _STATE.search(clause):
        return False
    if _CAUSE.search(clause) or _CLAIM.search(clause):
        return True
    return bool(_STATE.search(clause)) and bool(_SUBJECT.search(clause))


def reason_spans(text: str) -> list[Span]:
    """The clauses of ``text`` that explain rather than ask, when another clause asks for something (a
    message that is all explanation is read as said)."""
    parts = clauses(text)
    if len(parts) < 2:
        return []
    why = [span for span in parts if says_why(text[span[0]:span[1]])]
    if not why or not any(_asks_anything(text[a:b]) for a, b in parts if (a, b) not in why):
        return []
    return why


def _asks_anything(clause: str) -> bool:
    return bool(_ASKS.search(clause) or operations(clause) or re.search(r"\d|[点号天分]|[一二三四五六七八九十两半]", clause))
