"""The time in another city or time zone (IANA zones through ``zoneinfo``)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["CITIES", "city_in", "city_time"]

CITIES: dict[str, str] = {
    "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "香港": "Asia/Hong_Kong", "台北": "Asia/Taipei",
    "澳门": "Asia/Macau", "东京": "Asia/Tokyo", "日本": "Asia/Tokyo", "大阪": "Asia/Tokyo", "首尔": "Asia/Seoul",
    "韩国": "Asia/Seoul", "新加坡": "Asia/Singapore", "曼谷": "Asia/Bangkok", "泰国": "Asia/Bangkok",
    "吉隆坡": "Asia/Kuala_Lumpur", "雅加达": "Asia/Jakarta", "马尼拉": "Asia/Manila", "河内": "Asia/Ho_Chi_Minh",
    "胡志明市": "Asia/Ho_Chi_Minh", "新德里": "Asia/Kolkata", "孟买": "Asia/Kolkata", "印度": "Asia/Kolkata",
    "迪拜": "Asia/Dubai", "莫斯科": "Europe/Moscow", "俄罗斯": "Europe/Moscow", "伊斯坦布尔": "Europe/Istanbul",
    "伦敦": "Europe/London", "英国": "Europe/London", "巴黎": "Europe/Paris", "法国": "Europe/Paris",
    "柏林": "Europe/Berlin", "德国": "Europe/Berlin", "罗马": "Europe/Rome", "意大利": "Europe/Rome",
    "马德里": "Europe/Madrid", "西班牙": "Europe/Madrid", "阿姆斯特丹": "Europe/Amsterdam", "荷兰": "Europe/Amsterdam",
    "苏黎世": "Europe/Zurich", "瑞士": "Europe/Zurich", "维也纳": "Europe/Vienna", "开罗": "Africa/Cairo",
    "约翰内斯堡": "Africa/Johannesburg", "纽约": "America/New_York", "华盛顿": "America/New_York",
    "波士顿": "America/New_York", "美东": "America/New_York", "美国": "America/New_York",
    "芝加哥": "America/Chicago", "洛杉矶": "America/Los_Angeles", "旧金山": "America/Los_Angeles",
    "西雅图": "America/Los_Angeles", "硅谷": "America/Los_Angeles", "美西": "America/Los_Angeles",
    "温哥华": "America/Vancouver", "多伦多": "America/Toronto", "加拿大": "America/Toronto",
    "墨西哥城": "America/Mexico_City", "圣保罗": "America/Sao_Paulo", "巴西": "America/Sao_Paulo",
    "布宜诺斯艾利斯": "America/Argentina/Buenos_Aires", "檀香山": "Pacific/Honolulu", "夏威夷": "Pacific/Honolulu",
    "悉尼": "Australia/Sydney", "澳洲": "Australia/Sydney", "澳大利亚": "Australia/Sydney",
    "墨尔本": "Australia/Melbourne", "珀斯": "Australia/Perth", "奥克兰": "Pacific/Auckland", "新西兰": "Pacific/Auckland",
    "UTC": "UTC", "GMT": "UTC", "格林尼治": "UTC", "世界标准时间": "UTC",
}
_CITY = re.compile("|".join(sorted(map(re.escape, CITIES), key=len, reverse=True)) + r"|[A-Z][a-z]+/[A-Za-z_]+")
_WEEKDAYS = "一二三四五六日"


def city_in(text: str) -> str | None:
    """The first city, country or IANA zone named in ``text`` (伦敦, 纽约, Europe/London)."""
    m = _CITY.search(text)
    return m.group(0) if m else None


def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(CITIES.get(name, name))
    except (ZoneInfoNotFoundError, ValueError):
        return None


def city_time(question: str, now: datetime) -> str | None:
    """"伦敦现在几点" → the local time there and the difference with the user's clock; None if no city."""
    name = city_in(question)
    if name is None or name in ("北京", "上海") or not re.search(r"几点|时间|时差|几号|星期几|现在", question):
        return None
    zone = _zone(name)
    if zone is None:
        return None
    there = now.astimezone(zone)
    offset = there.utcoffset()
    here = now.utcoffset()
    hours = ((offset.total_seconds() if offset else 0) - (here.total_seconds() if here else 0)) / 3600
    diff = "时间和这里一样" if hours == 0 else (
        f"比这里{'早' if hours > 0 else '晚'}{abs(hours):g}小时")
    day = f"{there.month}月{there.day}日（星期{_WEEKDAYS[there.weekday()]}）"
    return f"{name}现在是{day}{there:%H:%M}，{diff}（这里是{now:%H:%M}）。"
