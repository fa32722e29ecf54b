"""Chinese city names recognised in messages (prefecture-level and above, plus a few others)."""

from __future__ import annotations

import re

__all__ = ["CITIES", "clean_city", "find_city", "other_cities"]

_NAMES = """
北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 无锡 常州 宁波 温州 绍兴 嘉兴 金华 台州 合肥 芜湖 福州 厦门 泉州
南昌 赣州 济南 青岛 烟台 潍坊 临沂 淄博 郑州 洛阳 开封 武汉 宜昌 襄阳 长沙 株洲 岳阳 成都 绵阳 贵阳 遵义 昆明
大理 丽江 西安 宝鸡 兰州 西宁 银川 乌鲁木齐 拉萨 呼和浩特 包头 石家庄 唐山 保定 邯郸 太原 大同 沈阳 大连 长春
吉林 哈尔滨 大庆 南宁 桂林 柳州 北海 海口 三亚 珠海 佛山 东莞 中山 惠州 汕头 湛江 江门 肇庆 徐州 扬州 南通
盐城 泰州 镇江 连云港 宿迁 淮安 秦皇岛 廊坊 沧州 威海 日照 香港 澳门 台北 高雄 义乌 昆山 江阴 张家口 承德 九江
景德镇 黄山 安庆 蚌埠 阜阳 宜宾 泸州 南充 乐山 德阳 攀枝花 延安 咸阳 榆林 汉中 天水 酒泉 敦煌 喀什 伊宁 克拉玛依
"""
CITIES: tuple[str, ...] = tuple(_NAMES.split())

_SUFFIX = re.compile(r"(市|区|县)$")


def find_city(text: str) -> str | None:
    """The first known city named in ``text`` (longest name wins at the same place)."""
    best: tuple[int, int, str] | None = None
    for city in CITIES:
        pos = text.find(city)
        if pos >= 0 and (best is None or (pos, -len(city)) < (best[0], best[1])):
            best = (pos, -len(city), city)
    return best[2] if best else None


def clean_city(name: str) -> str:
    """A user-typed city name without 市/区/县."""
    return _SUFFIX.sub("", name.strip())


def other_cities(text: str) -> list[str] | None:
    """The known cities named in ``text`` after the first ("上海和南京哪个冷" → [南京]), or None."""
    first = find_city(text)
    if first is None:
        return None
    rest = text[text.find(first) + len(first):]
    found: list[str] = []
    while (city := find_city(rest)) is not None:
        found.append(city)
        rest = rest[rest.find(city) + len(city):]
    return [c for c in found if c != first] or None
