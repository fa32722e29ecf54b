"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "profile.update", "profile.update", order=140,
        pattern=(
            r"我的目标是|目标(改成|是|设为)|我(想|要)(减脂|增肌|减肥|控糖|保持)|身高\s*\d|体重\s*\d|我(身高|体重)|"
            r"我\d+(斤|公斤|kg|cm|厘米)|(我)?对.{1,6}过敏|我不吃|我是素食|我住在|^我(现在)?(在|住|人在)[\u4e00-\u9fa5]{2,5}(市)?$|"
            r"(默认|常住)城市|我(已经)?(搬到|搬去|定居在?)[\u4e00-\u9fa5]{2,5}(市)?了?$"
        ),
        unless=r"提醒|天气|今天|明天|是什么|是多少|是啥|多少|英文|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用",
    ),
    Trigger(
        "profile.view", "profile.view", order=150,
        pattern=r"(我的|查看|看看|看一下)(健康)?(档案|资料|信息|目标|身高|体重|身体数据)|我(现在)?(多高|多重|的目标是什么)"
                r"|我的?(体重|身高|目标)(是)?(多少|几|啥|什么)",
    ),
)
