"""Small talk without a model: short, varied, natural replies by kind (thanks, greetings, who-are-you …).

Deterministic per message (the variant is chosen from the message id), so a retried message gets
the same reply and a conversation does not hear the same line every time.
"""

from __future__ import annotations

import re
import zlib

__all__ = ["small_talk"]

_KINDS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (name, re.compile(pattern, re.I), replies) for name, pattern, replies in (
        ("thanks", r"谢|感谢|辛苦了|thank|多亏",
         ("不客气～有事随时找我。", "不用谢，能帮上忙就好！", "客气啦，还有什么需要尽管说。")),
        ("bye", r"再见|拜拜|bye|回头聊|先这样|晚安|睡了|下线",
         ("好的，回头见～", "拜拜，有需要随时叫我。", "好嘞，祝你一切顺利！")),
        ("morning", r"早上好|早安|早啊|^早$", ("早上好！今天有什么安排吗？", "早安～需要我帮你设个提醒吗？")),
        ("greeting", r"^(你好|您好|hi|hello|嗨|哈喽|在吗|在不在|有人吗|中午好|下午好|晚上好)",
         ("你好呀！我在～", "在的，有什么可以帮你？", "你好！今天想做点什么？")),
        ("who", r"你是谁|你叫什么|你是机器人|你是人|你是什么|介绍一下你",
         ("我是你的生活小助手，能帮你安排晚饭、设提醒、记运动、查天气和日期。",
          "我是个小助手机器人：安排晚饭、提醒、运动记录、天气日期都可以找我。")),
        ("how", r"你好吗|最近怎么样|过得怎么样|忙不忙", ("挺好的，随时待命！你呢？", "我一切都好，谢谢关心～")),
        ("praise", r"真棒|厉害|不错|好用|聪明|赞|靠谱|666|牛[逼bB啊呀]|^(你|真|太|好)*牛(了|啊|呀)?[!！。~～]*$", ("谢谢夸奖，我会继续努力的！", "嘿嘿，过奖啦～")),
        ("complaint", r"笨|傻|没用|垃圾|太差|听不懂|气死|烦死", (
            "抱歉没帮上忙😥 可以换个说法再试试，或者说“帮助”看看我能做什么。",
            "对不起，是我没理解好。能再说具体一点吗？")),
        ("laugh", r"^(哈+|嘿+|呵+|嘻+|hh+|lol|笑死|😂+|🤣+)[!！。~～]*$", ("哈哈～", "😄", "开心就好～")),
        ("ack", r"^(好的?|嗯+|哦+|噢|行|ok|知道了|明白了|收到|了解|对|对的|是的|没错|可以)[啊呀吧!！。~～]*$", ("好的～", "嗯嗯，有需要随时叫我。")),
    ))
_CANT_HELP = ("这个我还帮不上忙😅 我擅长的是安排晚饭、设提醒、记运动、查天气和日期。",
              "这个超出我的能力啦。要不要试试让我安排顿晚饭，或者设个提醒？")


def small_talk(text: str, seed: str) -> str | None:
    """A reply to small talk, or None when ``text`` is not small talk of a known kind."""
    t = text.strip()
    for _name, pattern, replies in _KINDS:
        if pattern.search(t):
            return replies[zlib.crc32(seed.encode()) % len(replies)]
    return None


def cannot_help(seed: str) -> str:
    """A friendly "not something I can do" for a question outside the bot's skills."""
    return _CANT_HELP[zlib.crc32(seed.encode()) % len(_CANT_HELP)]
