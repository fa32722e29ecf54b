"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "pantry.view", "pantry.view", order=80,
        pattern=r"(冰箱|家里|库存).{0,4}(有什么|有啥|还有什么|还剩什么|剩什么)|(查看|看看)(冰箱|库存)",
    ),
    Trigger(
        "pantry.update", "pantry.update", order=90,
        pattern=(
            r"(冰箱|家里)(里)?(有|还有|放了|新买了|买了).{0,20}[\d零一二两三四五六七八九十百半俩]+|[\d零一二两三四五六七八九十百半俩]+\s*(个|斤|克|盒|瓶|袋|把|颗|根|块|升)?.{0,8}(用完了|吃完了|没了)|"
            r"(用完了|吃完了|没了|用光了|吃光了)$|(买了|囤了).{0,20}(个|斤|克|盒|瓶|袋)|"
            r"(冰箱|家里)(里)?的?.{1,8}(清空|扔了|都扔了|用光了|吃光了)"
        ),
        unless=r"提醒|预算|怎么做|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用",
    ),
    Trigger(  # "鸡蛋吃了两个" / "西红柿用掉3个": the item first, then how many went
        "pantry.update", "pantry.update.used", order=91,
        pattern=(r"^[\u4e00-\u9fff]{1,5}?(吃|用)(了|掉了?)\s*([\d零一二两三四五六七八九十半]+\s*"
                 r"(个|斤|克|两|盒|瓶|袋|包|把|颗|根|块|只|枚)(?!小时|钟|月|星期|礼拜|人|菜)|俩|仨)[了啦吧。！!~]*$"),
        unless=r"^(今天|昨天|刚才|刚刚|早上|中午|晚上|上午|下午|我|你|他|她|咱|孩子|宝宝|一共|总共)",
    ),
)
