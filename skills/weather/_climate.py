"""Rough climate normals by city, so the offline fake's forecasts are plausible for place and season.

Each profile is (annual mean °C, half the January–July swing °C, wet-season share): the monthly mean
follows a cosine coldest in mid-January and warmest in mid-July. Good enough that Beijing in December is
below freezing and Guangzhou mild; never meant as a forecast.
"""

from __future__ import annotations

import math
from datetime import date

__all__ = ["monthly_mean", "profile_for"]

# name: (annual mean, amplitude, rain chance in summer, rain chance in winter)
_PROFILES: dict[str, tuple[float, float, float, float]] = {
    "northeast": (5.0, 20.0, 0.35, 0.10),     # 哈尔滨 长春 沈阳
    "north": (12.5, 15.0, 0.35, 0.08),        # 北京 天津 石家庄 济南 太原 郑州 西安
    "northwest": (8.5, 16.5, 0.15, 0.05),     # 兰州 西宁 银川 乌鲁木齐 呼和浩特
    "plateau": (8.5, 9.0, 0.40, 0.03),        # 拉萨
    "east": (17.0, 12.0, 0.45, 0.30),         # 上海 杭州 南京 苏州 合肥 武汉 南昌 长沙
    "southwest": (16.5, 10.0, 0.50, 0.25),    # 成都 重庆 贵阳
    "yunnan": (15.5, 5.5, 0.50, 0.08),        # 昆明 大理 丽江
    "south": (22.5, 7.5, 0.55, 0.20),         # 广州 深圳 福州 厦门 南宁 香港 澳门 台北
    "tropical": (25.0, 4.5, 0.55, 0.20),      # 海口 三亚
}
_CITY_PROFILE: dict[str, str] = {}
for _profile, _names in {
    "northeast": "哈尔滨 长春 吉林 沈阳 大连 大庆",
    "north": "北京 天津 石家庄 唐山 保定 邯郸 廊坊 沧州 秦皇岛 张家口 承德 济南 青岛 烟台 潍坊 临沂 淄博 威海 日照 "
             "太原 大同 郑州 洛阳 开封 西安 宝鸡 咸阳 延安 榆林 徐州",
    "northwest": "兰州 西宁 银川 乌鲁木齐 呼和浩特 包头 天水 酒泉 敦煌 喀什 伊宁 克拉玛依",
    "plateau": "拉萨",
    "east": "上海 杭州 南京 苏州 无锡 常州 宁波 温州 绍兴 嘉兴 金华 台州 合肥 芜湖 安庆 蚌埠 阜阳 黄山 南昌 九江 "
            "景德镇 赣州 武汉 宜昌 襄阳 长沙 株洲 岳阳 扬州 南通 盐城 泰州 镇江 连云港 宿迁 淮安 义乌 昆山 江阴 汉中",
    "southwest": "成都 重庆 贵阳 遵义 绵阳 宜宾 泸州 南充 乐山 德阳 攀枝花",
    "yunnan": "昆明 大理 丽江",
    "south": "广州 深圳 珠海 佛山 东莞 中山 惠州 汕头 湛江 江门 肇庆 福州 厦门 泉州 南宁 桂林 柳州 北海 香港 澳门 台北 高雄",
    "tropical": "海口 三亚",
}.items():
    for _name in _names.split():
        _CITY_PROFILE[_name] = _profile


def profile_for(city: str) -> tuple[float, float, float, float]:
    """The climate profile of ``city`` (cities not listed get the eastern-China profile)."""
    return _PROFILES[_CITY_PROFILE.get(city, "east")]


def monthly_mean(city: str, day: date) -> float:
    """The typical daily mean temperature of ``city`` around ``day`` (°C)."""
    mean, amplitude, _, _ = profile_for(city)
    # day of year 15 (mid-January) is the coldest point of the cosine
    phase = 2 * math.pi * (day.timetuple().tm_yday - 15) / 365.25
    return mean - amplitude * math.cos(phase)


def rain_chance(city: str, day: date) -> float:
    """The typical chance of a wet day, between the winter and the summer figure."""
    _, _, summer, winter = profile_for(city)
    phase = 2 * math.pi * (day.timetuple().tm_yday - 15) / 365.25
    return winter + (summer - winter) * (1 - math.cos(phase)) / 2
