"""Fixed Chinese texts of the engine (skills own their own wording)."""

from __future__ import annotations

import re
from functools import lru_cache

from runtime.skill import SkillRegistry

ONLY_CHINESE = "抱歉，我目前只听得懂中文。Sorry, I only understand Chinese for now — 比如说“明天早上8点提醒我带伞”。"
UNKNOWN_SHORT = "抱歉，这个我还不太会。说“帮助”可以看看我能做什么。"
UNSUPPORTED = "暂时只能看懂文字消息哦，请用文字告诉我你想做什么～"
VOICE_UNREADABLE = "这条语音我没听清，可以打字告诉我吗？"

NOTHING_TO_CANCEL = "现在没有进行中的事情需要取消哦。"
NOTHING_TO_CONFIRM = "现在没有需要确认的事情哦。有什么要我做的，直接告诉我就行。"
CORRECTED = "好的，改成{what}。"
NOTED = "好的，{what}，记下了。"
NOTED_PLAIN = "好的，记下了。"
WHICH_NUMBER = "你是说改成{options}吗？要改的话直接说「{example}」这样就行。现在还是："
NOTHING_TO_CONTINUE = "现在没有可以继续的事情，有什么新的需要吗？"
CANCELLED_CONFIRMATION = "好的，已取消，什么都没有改动。"
CANCELLED_TASK = "好的，已取消{task}。"
DROPPED_PAUSED = "好的，刚才{task}的事就不继续了。"
RESET_DONE = "好的，已经重新开始，之前没完成的事情都清空了。"
CONFIRM_EXPIRED = "这个确认已经过期了（超过10分钟），所以没有执行。需要的话请重新说一遍。"
CONFIRM_STALE = "刚才那个确认已经失效了（话题已经换了），所以没有执行。需要的话请重新说一遍。"
MODEL_READ = "（这是我根据你的话理解的，不对可以直接改）"
CONFIRM_SUFFIX = "（回复“确认”执行，或“取消”放弃）"
ALSO_WAITING = "\n（刚才那条也还等你确认，一起办：{questions}）"
CONFIRM_ALL = "这{n}件都对的话回复“确认”一起办，“取消”就都不办。"
_COUNTS = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")


def count_word(n: int) -> str:
    """A small count as said in Chinese (两, not 二)."""
    return _COUNTS[n] if 0 <= n < len(_COUNTS) else str(n)
RESUME_OFFER = "刚才{task}还没完成，想接着来就回复“继续”。"
REPEAT_PENDING = "（接着刚才的：{question}）"
_JOINED = re.compile(r"^(?:顺便|另外|还有|然后|同时|并且|对了)[，,、\s]*")


def queued(requests: list[str]) -> str:
    """The requests of one message that wait for the first to finish, named in the user's words."""
    said = "；".join(_JOINED.sub("", r.strip("，,。 ")) for r in requests)
    return f"（这个办完接着办：{said}）"
INVALID_HINT = "没太明白，{hint}{question}"
ADVICE = "{hint}。{question}"
NO_ADVICE = "这个得你来定哦"
INVALID_GIVE_UP = "还是没能理解，要不先取消{task}？回复“取消”放弃，或直接回答：{question}"
CLARIFY_HEAD = "你是想："
WHICH_ONE = "你说的是哪一个？（{task}）"
CLARIFY_TAIL = "回复数字就行～"
SKILL_FAILED = "抱歉，{task}时出了点问题，请稍后再试。"
# said only if the crisis answer itself failed: the numbers every Chinese phone can call, nothing else
CRISIS_FAILSAFE = "如果有危险，请马上拨打120（急救）或110（报警）。我一直在这儿。"

CONTROLS = "随时可以说“取消”“继续”“重新开始”。"


@lru_cache(maxsize=8)
def capabilities(registry: SkillRegistry) -> str:
    """What the bot can do, one numbered line per skill, from the skills' own help lines."""
    lines = [f"{n}. {line}" for n, line in enumerate(registry.help_lines(), 1)]
    return "\n".join(["我可以帮你：", *lines])


def welcome(registry: SkillRegistry) -> str:
    """The greeting for a new follower."""
    return "你好，欢迎关注！我是你的生活小助手。\n" + capabilities(registry)


def help_text(registry: SkillRegistry) -> str:
    """The answer to 帮助."""
    return capabilities(registry) + "\n\n" + CONTROLS


def unknown(registry: SkillRegistry) -> str:
    """A message nothing explained, the first time: say so, and what the bot can do."""
    return "抱歉，这个我还不太会。\n" + capabilities(registry)
