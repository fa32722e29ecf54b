"""Routing rules of this skill: wordings that mean its intents (tried in ``order`` across skills)."""

from __future__ import annotations

from runtime.skill import Trigger
from runtime.skill.parsers import festivals
from skills.datetime._zones import CITIES

__all__ = ["TRIGGERS"]

_FESTIVALS = "|".join(sorted((w for w in festivals.WORDS if not w.isdigit() and len(w) > 1), key=len, reverse=True))
_CITIES = "|".join(sorted(CITIES, key=len, reverse=True))

TRIGGERS: tuple[Trigger, ...] = (
    Trigger(
        "datetime.query", "datetime.calendar", order=125,
        pattern=(
            r"(离|距离|距).{1,12}(还有|还剩|还差)?(几|多少)天|还有(几|多少)天(就到|到)?(过年|.{1,6}节)|"
            r"农历|阴历|节气|第几周|第几个星期|几个周末|多少个周末|"
            rf"({_FESTIVALS}).{{0,4}}((放|休)(几|多少)天|几天假)|"
            rf"({_FESTIVALS})(是|在)?(几号|哪天|哪一天|什么时候|啥时候|几时|几月几|星期几|周几|礼拜几)|"
            rf"(今天|明天|后天|今儿|明儿|今日|(?:这|下|上)?(?:周|星期|礼拜)[一二三四五六日天]|\d{{1,2}}月\d{{1,2}}[日号]?|"
            rf"\d{{1,2}}[日号])(是不是|是|就是)({_FESTIVALS})|"
            r"(\d+|[一二两三四五六七八九十百]+)(天|周|个星期|个月)(后|以后|之后)(是)?(几号|星期几|周几|哪天)|"
            rf"({_CITIES}).{{0,4}}(现在|时间|几点|时差)"
        ),
        unless=r"提醒|天气|下雨|气温|^(那|那么)?.{1,8}呢[?？]?$",  # 那春节呢: a follow-up, the engine reuses the frame
    ),
    Trigger(
        "datetime.query", "datetime.query", order=130,
        pattern=(
            r"几号|几月几|几点了?$|现在几点|几点钟|什么时间了|星期几|周几|礼拜几|日期|哪天|哪一天|什么日子|工作日|放假|"
            r"节假日|调休|上班吗|休息吗|多少号|今年是|几年|农历|过年|元旦|春节|国庆|中秋|端午|清明|劳动节|"
            r"^(?:现在|当前|目前)?的?(?:时间|时刻)[?？。]*$|报(?:一下|个|下)?(?:时|时间)|(?:是不是|是)(?:周末|休息日)|周末吗"
        ),
        unless=r"提醒|天气|下雨|^(那|那么)?.{1,8}呢[?？]?$|快乐|过年好|恭喜发财",  # 中秋快乐 is a greeting
    ),
)
