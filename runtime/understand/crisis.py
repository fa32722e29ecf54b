"""Crisis first (DESIGN §3.4): does a message tell of thoughts of suicide or self-harm, a medical
emergency, or violence at home?

:func:`detect_crisis` reads the normalised text (Simplified Mandarin) once and returns ``None`` or a
typed :class:`Crisis`: its kind, a sub-kind that picks the first steps of the reply, and the spans of
the message it accounts for, so that a request said beside it ("…明早提醒我去医院") can still be
carried out. The cues are families of everyday words (:mod:`runtime.understand._crisis_cues`); the
rules here combine them and drop figures of speech:

* a figure is a cue said of something else: a film or the news ("剧里女主被家暴"), a joke ("哈哈"),
  a degree ("饿得想死", "累到喘不过气", "气得吐血"), something that nearly happened ("差点晕过去"),
  or a cue denied ("没晕倒", "不想死");
* a symptom counts while it may be happening now: one that is told as past and over ("前天胸口闷了一下，
  后来就好了") or habitual ("每天早上叫不醒") does not, breathlessness after exercise does not —
  and when in doubt, it counts: a false alarm costs a paragraph, a miss may cost a life;
* something swallowed is a self-harm attempt when the user took it, an emergency when someone else did
  or it was a mistake ("孩子误喝了消毒水").

Pure; no I/O; a few tens of µs per message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from runtime.understand._crisis_cues import CUES, PAIRS, Cue, Strength

__all__ = ["Crisis", "CrisisKind", "detect_crisis"]

Span = tuple[int, int]


class CrisisKind(StrEnum):
    """What kind of crisis a message tells of."""

    SELF_HARM = "self_harm"
    MEDICAL = "medical"
    VIOLENCE = "violence"


@dataclass(frozen=True, slots=True)
class Crisis:
    """A crisis read in a message: ``kind`` and ``sub`` (which first steps apply: ``chest``,
    ``stroke``, ``attempt``, ``threat`` …), other kinds told in the same message (``also``), the
    families of cues that were found (``cues``) and the ``spans`` of the message they account for."""

    kind: CrisisKind
    sub: str
    spans: tuple[Span, ...]
    also: tuple[CrisisKind, ...] = ()
    cues: tuple[str, ...] = ()

    def rest(self, text: str) -> str:
        """The words of ``text`` outside the crisis spans, clause by clause ("" when nothing is left)."""
        pieces, at = [], 0
        for start, end in sorted(self.spans):
            pieces.append(text[at:start])
            at = max(at, end)
        pieces.append(text[at:])
        return "，".join(p for p in (_TRIM.sub("", piece) for piece in pieces) if p)


_CLAUSE = re.compile(r"[^，,。.！!？?；;\n\s]+")
_TRIM = re.compile(r"^[\s，,。.！!？?；;~～…、]+|[\s，,。.！!？?；;~～…、]+$")
_FICTION = re.compile(r"电影|电视剧|剧里|剧中|剧情|小说|游戏里|游戏中|新闻|视频里|动画|漫画|书里|故事里|歌里|歌词|综艺|短剧"
                      r"|男主|女主|主角|反派|演员|角色|片子|片里|演的")
_JOKE = re.compile(r"哈哈|(?<!不是)(?<!没)开玩笑|开个玩笑|逗你|hhh|😂|🤣", re.I)
_DENIED = re.compile(r"(?:没有|没|无|不是|并没|别|不)$")
_NEARLY = re.compile(r"(?:差点|险些|几乎|差一点)(?:就)?(?:要)?$")
_DEGREE = re.compile(r"[气笑累跑爬急吓哭忙热冷饿困乐练跳游唱喊骂闹](?:得|到)(?:我)?(?:都|快|要|快要)?$")
_HABIT = re.compile(r"每天|天天|总是|老是|经常|每次|每回|平时|动不动|一到[^，。]{0,6}就|(?<!一)直都")
_PAST = re.compile(r"昨天|前天|昨晚|前晚|上周|上礼拜|前几天|之前|以前|那次|去年|前年|上次|前阵子|小时候|上个月|几年前|那年|年轻时")
_OVER = re.compile(r"好了|就好了|没事了|缓过来了|恢复了|不疼了|止住了|过去了|好多了|醒了|醒过来了|消失了")
_EXERTION = re.compile(r"跑步|跑了|跑完|爬山|爬楼|爬到|跳绳|游泳|运动|健身|锻炼|骑车|打球|练完|跑到|跳完|搬家|搬东西|跳舞|快走")
# someone other than the user, or a mistake: what was swallowed is a poisoning, not an attempt
_OTHER = re.compile(r"孩子|小孩|宝宝|娃|儿子|女儿|孙子|孙女|老人|奶奶|爷爷|外婆|外公|姥姥|姥爷|爸|妈|老公|老婆|老伴|媳妇|丈夫|妻子"
                    r"|同学|同事|朋友|室友|邻居|他|她|有人|弟弟|妹妹|哥哥|姐姐")
_MISTAKE = re.compile(r"误|不小心|不知道|以为是|蘑菇|野生菌|电池|磁铁|干燥剂|水银|凝珠")
_PLAN = re.compile(r"想|要|打算|准备|今晚就|等[^，。]{0,6}就")
_DONE = re.compile(r"了|刚|已经|过")
# the one who thinks of it is someone else ("我朋友说想自杀"): the reply is about helping them
_SOMEONE = re.compile(r"(?:朋友|同学|同事|室友|闺蜜|孩子|儿子|女儿|老公|老婆|爸|妈|弟弟|妹妹|哥哥|姐姐|邻居|他|她|有人)"
                      r"(?:说|说过|讲|总说|一直说|跟我说|也|又|刚|刚才|已经|好像|可能|在|要|想|想要|去)*$")
# what makes a cue something else: heartbreak for 心口疼, play or upbringing for 打, gums for 吐血, drink for slurred speech
_NOT_SO = {"chest": re.compile(r"失恋|分手|伤心|心碎|被甩|想他|想她"),
           "hit": re.compile(r"教育|管教|调皮|打闹|闹着玩|游戏|拼多多|砍一刀|砍价"),
           "bleeding": re.compile(r"刷牙|牙龈|牙齿"),
           "stroke_speech": re.compile(r"喝多了|喝醉|醉了|喝了酒")}
# a request said after the crisis words in the same clause ("胸口疼明天提醒我挂号"): cut there
_REQUEST = re.compile(r"(?:(?:今天|明天|后天|今晚|明早|明晚|早上|上午|中午|下午|晚上|等下|待会儿?|一会儿?|\d{1,2}点(?:半|\d{1,2}分?)?)\s*)*"
                      r"(?:先)?(?:提醒我|帮我|给我设|设个|定个|麻烦你|记得提醒)")
# the more urgent first steps first
_URGENCY = ("unconscious", "breathing", "convulsion", "stroke", "chest", "bleeding", "poisoning", "gas", "trauma", "other")
_ORDER = (CrisisKind.SELF_HARM, CrisisKind.VIOLENCE, CrisisKind.MEDICAL)


@dataclass(frozen=True, slots=True)
class _Found:
    """One cue that survived the filters: what it signals, where, and the clause it is in."""

    family: str
    kind: CrisisKind
    sub: str
    span: Span
    clause: Span


def _by_anchor() -> dict[str, tuple[int, ...]]:
    """A character → the cues (by position) that need it: few per message."""
    index: dict[str, list[int]] = {}
    for n, cue in enumerate(CUES):
        for ch in cue.anchors:
            index.setdefault(ch, []).append(n)
    return {ch: tuple(found) for ch, found in index.items()}


_BY_ANCHOR = _by_anchor()


@lru_cache(maxsize=4096)  # pure: a message said again is read once
def detect_crisis(text: str) -> Crisis | None:
    """The crisis ``text`` tells of, or None. ``text`` is the engine's normalised message."""
    if not text or text.isascii():
        return None
    near: set[int] = set()
    for ch in set(text):
        near.update(_BY_ANCHOR.get(ch, ()))
    matches = [(cue, m) for n in sorted(near) for cue in (CUES[n],) for m in cue.pattern.finditer(text)]
    if not matches:
        return None  # nearly every message: no cue at all
    clauses = [m.span() for m in _CLAUSE.finditer(text)]
    fiction = bool(_FICTION.search(text))
    found: list[_Found] = []
    weak: dict[str, list[_Found]] = {}
    for cue, m in matches:
        clause = next((c for c in clauses if c[0] <= m.start() < c[1]), (m.start(), m.end()))
        hit = _read(cue, m, text, clause, fiction)
        if hit is not None:
            (found if cue.strength is Strength.STRONG else weak.setdefault(cue.family, [])).append(hit)
    for one, other in PAIRS:
        if one in weak and other in weak:
            found += [weak[one][0], weak[other][0]]
    found = _filter_message(found, text)
    if not found:
        return None
    kinds = sorted({f.kind for f in found}, key=_ORDER.index)
    kind = kinds[0]
    subs = [f.sub for f in found if f.kind is kind]
    sub = min(subs, key=lambda s: _URGENCY.index(s) if s in _URGENCY else len(_URGENCY)) if kind is CrisisKind.MEDICAL \
        else _sub(kind, subs)
    spans = _spans(text, found)
    return Crisis(kind=kind, sub=sub, spans=spans, also=tuple(kinds[1:]),
                  cues=tuple(dict.fromkeys(f.family for f in found)))


def _read(cue: Cue, m: re.Match[str], text: str, clause: Span, fiction: bool) -> _Found | None:
    """The cue at ``m`` as what it signals, or None when it is a figure of speech."""
    kind, sub = CrisisKind(cue.kind), cue.sub
    words = text[clause[0]:clause[1]]
    before = text[max(clause[0], m.start() - 4):m.start()]
    if fiction and (_FICTION.search(words) or "我" not in words):
        return None  # told of a film, a story, the news
    if (_DENIED.search(before[-2:]) and not before.endswith("是不是")) or _NEARLY.search(before):
        return None  # "没晕倒", "不想死", "差点晕过去"
    if kind is CrisisKind.VIOLENCE and _JOKE.search(text):
        return None  # "我妈说再熬夜就打死我 哈哈"
    unless = _NOT_SO.get(cue.family)
    if unless is not None and unless.search(text):
        return None
    if kind is CrisisKind.MEDICAL and (_DEGREE.search(before) or _HABIT.search(words)):
        return None  # "累到喘不过来", "气得吐血"; "每天早上叫不醒"
    if cue.family == "ingest":
        head = text[clause[0]:m.start()]
        if _OTHER.search(head) or _MISTAKE.search(text):
            kind, sub = CrisisKind.MEDICAL, "poisoning"
        elif _HABIT.search(words):
            return None  # "每天要吃一大把药"
        elif _PLAN.search(head) or not _DONE.search(text[max(clause[0], m.start() - 6):m.end() + 3]):
            sub = "ideation"  # said as a plan, not as done ("…就把攒下的药全吃掉")
    elif kind is CrisisKind.SELF_HARM and _SOMEONE.search(text[clause[0]:m.start()]):
        if cue.family in ("jump", "means") and text.startswith("了", m.end()):
            kind, sub = CrisisKind.MEDICAL, "trauma"  # "我同学跳楼了": it has happened
        else:
            sub = "someone"
    return _Found(cue.family, kind, sub, m.span(), clause)


def _filter_message(found: list[_Found], text: str) -> list[_Found]:
    """Drop symptoms the whole message places in the past and over, or after exercise."""
    if _PAST.search(text) and _OVER.search(text):
        found = [f for f in found if f.kind is not CrisisKind.MEDICAL]
    elif _PAST.search(text):
        found = [f for f in found if f.family != "accident"]  # "前年出过车祸"
    medical = [f for f in found if f.kind is CrisisKind.MEDICAL]
    if medical and all(f.family == "breath" for f in medical) and _EXERTION.search(text):
        found = [f for f in found if f.family != "breath"]  # out of breath after a run
    return found


def _sub(kind: CrisisKind, subs: list[str]) -> str:
    """The sub-kind of a self-harm or violence crisis: an act done outranks a thought or a threat."""
    for sub in ("attempt", "injury", "abuse", "threat", "ideation", "someone"):
        if sub in subs:
            return sub
    return subs[0] if subs else kind.value


def _spans(text: str, found: list[_Found]) -> tuple[Span, ...]:
    """The clauses the cues are in, each cut before a request said after its cues in the same clause."""
    spans: dict[Span, int] = {}
    for f in found:
        spans[f.clause] = max(spans.get(f.clause, 0), f.span[1])
    out: list[Span] = []
    for (start, end), last in sorted(spans.items()):
        request = _REQUEST.search(text, last, end)
        out.append((start, request.start() if request is not None and request.start() > start else end))
    return tuple(out)
