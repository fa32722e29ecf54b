"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger

__all__ = ["TRIGGERS"]

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "weather.query", "weather.query", order=120,
        pattern=r"天气|下雨|下雪|气温|温度|冷不冷|热不热|(冷|热|暖和|凉快)(吗|不)|要不要带伞|带伞吗|刮风|雾霾|空气质量|晴天|阴天|几度",
        # indoor temperature and devices are not the weather ("客厅现在几度", "把空调调到24度")
        unless=r"客厅|卧室|房间|室内|屋里|家里|空调|暖气|地暖|恒温|冰箱|热水器|调到|调高|调低|设为|设成|设置|歌|播放|放一首",
    ),
)
