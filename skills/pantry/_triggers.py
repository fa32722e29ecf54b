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
            r"(用完了|吃完了|没了)$|(买了|囤了).{0,20}(个|斤|克|盒|瓶|袋)"
        ),
        unless=r"提醒|预算|怎么做|怎么|为什么|吗|？|\?|会不会|是不是|能不能|有用",
    ),
)
