"""Written Cantonese → Mandarin function words, so users in Guangdong and Hong Kong are understood alike.

Applied after Traditional → Simplified (:mod:`runtime.understand._hanzi`), before any stage reads the message:
聽日提我交功課 → 明天提醒我交功课, 我哋幾多個人 → 我们多少个人, 唔使喇 → 不用喇. Only words that
are Cantonese and not everyday Mandarin are mapped (係 after conversion is 系, as in 系统, so only its
Cantonese compounds are); a mixed-in English word people write in Hong Kong (set個timer) is read too.
Pure; a few µs per message.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["mandarin"]

_PHRASES: tuple[tuple[str, str], ...] = (
    ("唔该晒", "谢谢"), ("多谢晒", "谢谢"), ("晒所有", "所有"), ("唔该", "谢谢"), ("唔好意思", "不好意思"), ("唔使", "不用"), ("唔驶", "不用"), ("唔好", "不要"),
    ("系唔系", "是不是"), ("系咪", "是不是"), ("唔系", "不是"), ("就系", "就是"), ("都系", "都是"), ("我系", "我是"),
    ("系呀", "是呀"), ("系啊", "是啊"), ("系嘅", "是的"), ("系喇", "是啦"), ("冇错", "没错"), ("唔食", "不吃"),
    ("得唔得", "行不行"), ("好唔好", "好不好"), ("有冇", "有没有"), ("冇", "没有"), ("唔", "不"),
    ("佢哋", "他们"), ("我哋", "我们"), ("你哋", "你们"), ("俺们", "我们"), ("俺", "我"), ("佢", "他"), ("嘅", "的"), ("咗", "了"), ("喺", "在"),
    ("啲", "些"), ("而家", "现在"), ("依家", "现在"), ("宜家", "现在"), ("听日", "明天"), ("听朝", "明早"), ("听晚", "明晚"),
    ("琴日", "昨天"), ("寻日", "昨天"), ("琴晚", "昨晚"), ("寻晚", "昨晚"), ("今朝", "今早"), ("攰", "累"), ("后日", "后天"), ("今晚黑", "今晚"), ("夜晚黑", "晚上"), ("朝早", "早上"),
    ("晏昼", "下午"), ("钟意", "喜欢"), ("点样", "怎样"), ("点解", "为什么"), ("乜嘢", "什么"), ("咩嘢", "什么"),
    ("边个", "哪个"), ("边度", "哪里"), ("几多", "多少"), ("几耐", "多久"), ("睇", "看"), ("嚟", "来"),
    ("俾我", "给我"), ("畀", "给"), ("揾", "找"), ("嘢", "东西"), ("食饭", "吃饭"), ("食咗", "吃了"), ("食乜", "吃什么"),
    ("仲有", "还有"), ("仲未", "还没"), ("搞掂", "搞定"), ("乜", "什么"),
    ("屋企", "家里"), ("雪柜", "冰箱"), ("入面", "里面"), ("仲有咩", "还有什么"), ("有咩", "有什么"), ("食咩", "吃什么"), ("同埋", "和"), ("得返", "只剩"), ("啱啱", "刚刚"), ("啱", "对"), ("食晒", "吃完了"),
    ("饮晒", "喝完了"), ("用晒", "用完了"), ("冇晒", "都没有了"), ("饮咗", "喝了"),
    ("食嘢", "吃东西"), ("真系", "真是"), ("啱唔啱", "对不对"), ("犀利", "厉害"),
    ("呢个", "这个"), ("呢啲", "这些"), ("呢度", "这里"), ("呢排", "最近"), ("嗰个", "那个"), ("嗰啲", "那些"),
    ("嗰度", "那里"), ("嗰", "那"), ("今个", "这个"), ("边日", "哪天"), ("几时", "什么时候"), ("落雨", "下雨"),
    ("落雪", "下雪"), ("打风", "刮台风"), ("冻唔冻", "冷不冷"), ("好冻", "好冷"), ("几冻", "多冷"), ("咁", "这么"),
)
_PHRASE = re.compile("|".join(re.escape(a) for a, _ in sorted(_PHRASES, key=lambda p: len(p[0]), reverse=True)))
_MEANING = dict(_PHRASES)
_REGEX: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"咩(?=[？?！!。~～\s]*$)"), "吗"),  # a closing 咩 asks (系咩): 吗; elsewhere 咩 is 什么
    (re.compile(r"咩"), "什么"),
    (re.compile(r"^系(?=[啊呀啦喇嘅的吖哇！!。~～\s]*$)"), "是"),  # 係 said alone: yes
    (re.compile(r"提我(?!醒)"), "提醒我"),  # 聽日提我…: remind me
    (re.compile(r"(?<=[\d一二两三四五六七八九十百千万])\s*蚊"), "块"),  # 三百蚊: dollars (yuan)
    (re.compile(r"(?<![比计])较(?=[^，,。]{0,12}(?:闹钟|闹铃))"), "设"),  # 较个听朝7点嘅闹钟: set an alarm
    (re.compile(r"(?<![A-Za-z])set(?![A-Za-z])", re.I), "设"),
    (re.compile(r"(?<![A-Za-z])timers?(?![A-Za-z])", re.I), "计时器"),
    (re.compile(r"(?<![A-Za-z])alarms?(?![A-Za-z])", re.I), "闹钟"),
    (re.compile(r"(?<![A-Za-z])reminders?(?![A-Za-z])", re.I), "提醒"),
    (re.compile(r"(?<![A-Za-z])cancel(?![A-Za-z])", re.I), "取消"),
)
_CANTONESE = re.compile("|".join([*(re.escape(a) for a, _ in _PHRASES), "咩", "提我", "较", "蚊",
                                    r"^系(?=[啊呀啦喇嘅的吖哇！!。~～\s]*$)", "set", "timer", "alarm",
                                    "reminder", "cancel"]), re.I)


@lru_cache(maxsize=4096)  # pure, and the same short texts come again and again
def mandarin(text: str) -> str:
    """``text`` with written Cantonese function words in Mandarin (Simplified input)."""
    text = text.replace("𠮶", "嗰")  # the Simplified conversion writes 嗰 (that) as 𠮶
    if not _CANTONESE.search(text):
        return text
    text = _PHRASE.sub(lambda m: _MEANING[m.group(0)], text)
    for pattern, meaning in _REGEX:
        text = pattern.sub(meaning, text)
    return text
