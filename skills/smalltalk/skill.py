"""chitchat — small talk answered in kind without a model (DESIGN §3.2: read-only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runtime.skill import UNKNOWN, ActionSpec, SkillResult, SkillSpec, SlotSpec, SlotType, Trigger
from runtime.views import ExecView
from skills.smalltalk._kinds import CANNOT, SLANG_LOW, WHAT_TO_EAT, WORN_OUT, kind_of, reply_for

__all__ = ["SPEC", "talk"]


def talk(view: ExecView, params: Mapping[str, Any], services: Any) -> SkillResult:
    """A short reply in kind; a feeling gets empathy, a request the bot cannot do is told so."""
    kind = params.get("kind")
    # the variant follows the user and the moment (not the message id, which a script run draws at
    # random): the same conversation gets the same words on every run
    seed = f"{view.user}|{view.now.isoformat()}"
    return SkillResult(reply_for(str(kind) if kind else None, seed), dto={"kind": kind or "other"},
                       ok=kind != "cannot")


# Short messages that are only small talk; longer ones reach this skill through the intent model.
TRIGGERS = (
    Trigger(
        "chitchat", "chitchat", order=200,
        pattern=r"^(你好|您好|hi|hello|嗨|哈喽|在吗|在不在|早上好|早安|中午好|下午好|晚上好|晚安|谢谢|谢啦|多谢|感谢|辛苦了|再见|拜拜"
                r"|哈哈+|嘿嘿|你是谁|你叫什么|你是机器人吗)[！!。.～~？?]*$",
    ),
    Trigger(  # a request the assistant cannot do (an app, a payment): said so, before any rule reads a word of it
        UNKNOWN, "cannot", order=3, pattern=CANNOT.pattern,
        unless=r"提醒|记得|记着|记住|帮我记|别忘|叫我|喊我|闹钟|几点|菜谱|做法|怎么做|食材|晚饭"
               r"|(?:还有|还剩|还差)(?:几|多少)天|几号|星期几|周几|礼拜几|哪天",  # a date question beside the wish
    ),
    Trigger(
        "chitchat", "chitchat.feelings", order=210,
        pattern=r"^(我)?(今天|最近|现在|有点|好|真|太|很)*(难过|伤心|不开心|郁闷|烦|累|无聊|开心|高兴|孤独|焦虑|emo)"
                r"|陪我聊|跟我聊|和我聊|聊会儿?天?|说说话",
        unless=r"提醒|预算|运动|跑|天气|几号|晚饭|菜",
    ),
    Trigger(  # worn out, in strong words anywhere in the message: empathy (a figure of speech, no danger)
        "chitchat", "chitchat.worn_out", order=215, pattern=WORN_OUT,
        unless=r"提醒|叫我|闹钟|预算|几号|几点|天气|晚饭|菜谱|记一下|记录|计划|\d|[一二两三四五六七八九十半]\s*(?:公里|分钟|小时|个钟|千米)"
               r"|不想活|活不下去|撑不下去|想死|去死|自杀|轻生|结束生命",
    ),
    Trigger(  # a low mood in slang, in a short message: empathy
        "chitchat", "chitchat.slang_low", order=216, pattern=rf"^.{{0,8}}(?:{SLANG_LOW}).{{0,8}}$",
        unless=r"提醒|叫我|闹钟|预算|几号|几点|天气|晚饭|菜谱|记一下|记录|计划|\d",
    ),
    Trigger(  # what to eat, asked alone: a plan or a recipe is offered (a dinner rule reads it first when it can)
        "chitchat", "chitchat.what_to_eat", order=205, pattern=WHAT_TO_EAT,
        unless=r"\d|[一二两三四五六七八九十俩仨]\s*(?:个人|口|位|块|元)|预算|不能吃|不吃|过敏|病|医生",
    ),
)

SPEC = SkillSpec(
    name="smalltalk",
    description="闲聊：问候、感谢、心情、你是谁",
    triggers=TRIGGERS,
    actions=(
        ActionSpec(
            name="talk", intent="chitchat", run=talk, read_only=True, task="聊天", fallback=True,
            slots=(SlotSpec("kind", SlotType.TEXT, "想聊点什么？", required=False, extract=kind_of),),
            description="闲聊、问候、感谢、情绪",
        ),
    ),
)
