"""Fixed Chinese texts of the engine (skills own their own wording)."""

from __future__ import annotations

CAPABILITIES = (
    "我可以帮你：\n"
    "1. 安排晚饭：比如“3个人预算100帮我安排晚饭”\n"
    "2. 查菜谱：比如“番茄炒蛋怎么做”\n"
    "3. 设提醒：比如“明天早上8点提醒我带伞”“我的提醒”\n"
    "4. 运动：比如“帮我制定运动计划”“今天跑了5公里”“这周运动记录”\n"
    "5. 健康档案和冰箱：比如“我的目标是减脂，身高170”“冰箱里有鸡蛋6个”\n"
    "6. 小问题：今天几号、明天天气怎么样"
)

WELCOME = "你好，欢迎关注！我是你的生活小助手。\n" + CAPABILITIES
HELP = CAPABILITIES + "\n\n随时可以说“取消”“继续”“重新开始”。"
UNKNOWN = "抱歉，这个我还不太会。\n" + CAPABILITIES
ONLY_CHINESE = "抱歉，我目前只听得懂中文。Sorry, I only understand Chinese for now — 比如说“明天早上8点提醒我带伞”。"
UNKNOWN_SHORT = "抱歉，这个我还不太会。说“帮助”可以看看我能做什么。"
CHITCHAT = "你好呀！有什么我能帮你的吗？比如安排晚饭、设个提醒，或者问问天气。"
UNSUPPORTED = "暂时只能看懂文字消息哦，请用文字告诉我你想做什么～"
VOICE_UNREADABLE = "这条语音我没听清，可以打字告诉我吗？"

NOTHING_TO_CANCEL = "现在没有进行中的事情需要取消哦。"
NOTHING_TO_CONFIRM = "现在没有需要确认的事情哦。有什么要我做的，直接告诉我就行。"
CORRECTED = "好的，改成{what}。"
NOTED = "好的，{what}，记下了。"
WHICH_NUMBER = "你是说改成{options}吗？要改的话直接说「{example}」这样就行。现在还是："
NOTHING_TO_CONTINUE = "现在没有可以继续的事情，有什么新的需要吗？"
CANCELLED_CONFIRMATION = "好的，已取消，什么都没有改动。"
CANCELLED_TASK = "好的，已取消{task}。"
DROPPED_PAUSED = "好的，刚才{task}的事就不继续了。"
RESET_DONE = "好的，已经重新开始，之前没完成的事情都清空了。"
CONFIRM_EXPIRED = "这个确认已经过期了（超过10分钟），所以没有执行。需要的话请重新说一遍。"
CONFIRM_STALE = "刚才那个确认已经失效了（话题已经换了），所以没有执行。需要的话请重新说一遍。"
CONFIRM_SUFFIX = "（回复“确认”执行，或“取消”放弃）"
RESUME_OFFER = "刚才{task}还没完成，要继续吗？回复“继续”即可。"
REPEAT_PENDING = "（接着刚才的：{question}）"
INVALID_HINT = "没太明白，{hint}{question}"
ADVICE = "{hint}。{question}"
NO_ADVICE = "这个得你来定哦"
INVALID_GIVE_UP = "还是没能理解，要不先取消{task}？回复“取消”放弃，或直接回答：{question}"
CLARIFY_HEAD = "你是想："
CLARIFY_TAIL = "回复数字就行～"
SKILL_FAILED = "抱歉，{task}时出了点问题，请稍后再试。"

TASK_NAMES = {
    "dinner.plan": "安排晚饭", "recipe.query": "查菜谱", "reminder.create": "设提醒",
    "reminder.list": "查看提醒", "reminder.cancel": "取消提醒", "reminder.snooze": "推迟提醒",
    "exercise.plan": "制定运动计划", "exercise.log": "记录运动", "exercise.delete": "删除运动记录", "exercise.history": "查看运动记录",
    "profile.view": "查看健康档案", "profile.update": "更新健康档案", "pantry.update": "更新冰箱库存",
    "pantry.view": "查看冰箱库存", "weather.query": "查天气", "datetime.query": "查日期时间",
    "chitchat": "聊天", "unknown": "这件事",
}


def task_name(intent: str) -> str:
    """A short Chinese name of the task behind ``intent``."""
    return TASK_NAMES.get(intent, "这件事")
