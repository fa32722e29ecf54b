"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "dinner.plan", "dinner.plan", order=100,
        pattern=(
            r"(安排|规划|计划|准备|搭配|设计|推荐|定|弄|做)(一下|一顿|个|下)?.{0,8}(晚饭|晚餐|晚上吃|饭菜|菜单|一桌|家宴|聚餐)|"
            r"(晚饭|晚餐|今晚|晚上)(吃什么|吃啥|怎么吃)|(预算|块钱?|元).{0,10}(吃饭|晚饭|晚餐|做饭|买菜)|(人|个人|位).{0,6}(吃饭|晚饭|晚餐)|"
            r"买菜清单|采购清单"
        ),
        unless=r"怎么做|做法|菜谱|孕|病|传染|会不会",
    ),
    Trigger(
        "recipe.query", "recipe.query", order=110,
        pattern=r".{1,12}(怎么做|咋做|怎么烧|怎么炒|怎么煮|怎么炖|怎么蒸|的做法|做法|菜谱|需要什么材料|用什么材料)",
    ),
)
