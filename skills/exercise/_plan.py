"""A weekly exercise plan from goal, level and minutes per session (pure).

Volumes follow the WHO 2020 physical-activity guidelines for adults (150–300 min of moderate
activity a week plus muscle-strengthening on 2+ days), scaled by level.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "PlanDay", "parse_level", "weekly_plan"]

LEVELS = ("初级", "中级", "高级")
_LEVEL_WORDS = (("高级", ("高级", "老手", "很有经验", "专业")), ("中级", ("中级", "有基础", "练过", "一般")),
                ("初级", ("初级", "新手", "入门", "刚开始", "零基础", "没怎么练", "小白")))
_DAYS = "一二三四五六日"
# (day index, activity, note) templates per goal; the level picks how many days are used
_TEMPLATES: dict[str, tuple[tuple[int, str, str], ...]] = {
    "减脂": ((0, "快走", "中等强度，能说话但不能唱歌"), (2, "力量训练", "全身：深蹲、俯卧撑、划船"),
             (4, "跑步", "慢跑，可走跑交替"), (5, "骑车", "户外或动感单车"), (1, "跳绳", "分组跳，每组1-2分钟"),
             (3, "力量训练", "下肢和核心")),
    "增肌": ((0, "力量训练", "上肢推：卧推、肩推、俯卧撑"), (2, "力量训练", "下肢：深蹲、硬拉、弓步"),
             (4, "力量训练", "上肢拉：引体、划船、弯举"), (5, "快走", "低强度有氧，帮助恢复"),
             (1, "力量训练", "核心与薄弱部位"), (3, "拉伸", "放松和活动度")),
    "控糖": ((0, "快走", "饭后30分钟开始"), (1, "力量训练", "全身，弹力带或哑铃"), (2, "快走", "饭后"),
             (4, "骑车", "中等强度"), (3, "力量训练", "全身"), (5, "快走", "饭后")),
    "保持": ((0, "快走", "中等强度"), (2, "力量训练", "全身"), (4, "跑步", "轻松跑"), (5, "羽毛球", "或其他球类"),
             (1, "瑜伽", "拉伸放松"), (3, "骑车", "中等强度")),
}


@dataclass(frozen=True, slots=True)
class PlanDay:
    """One training day of the week."""

    weekday: int
    activity: str
    minutes: int
    note: str

    @property
    def label(self) -> str:
        return f"周{_DAYS[self.weekday]}"


def parse_level(text: str) -> str | None:
    """初级/中级/高级 from words such as 新手 / 有基础 / 老手."""
    for level, words in _LEVEL_WORDS:
        if any(w in text for w in words):
            return level
    return None


def weekly_plan(goal: str | None, level: str | None, minutes: float | None) -> list[PlanDay]:
    """Training days for one week, ordered Monday to Sunday."""
    template = _TEMPLATES.get(goal or "保持", _TEMPLATES["保持"])
    level = level if level in LEVELS else "初级"
    days = {"初级": 3, "中级": 4, "高级": 5}[level]
    per_session = int(max(10, min(120, minutes or {"初级": 30, "中级": 45, "高级": 60}[level])))
    chosen = [PlanDay(d, act, per_session, note) for d, act, note in template[:days]]
    return sorted(chosen, key=lambda p: p.weekday)
