"""Date questions as people ask them: the same day of another year or month, a countdown inside a run-on,
a festival named while another day is shown."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from skills.datetime.skill import answer

NOW = datetime(2027, 4, 12, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))  # a Monday


@pytest.mark.parametrize(("question", "said"), [
    ("明年今日是星期几", "2028年4月12日（星期三）"),
    ("后年的今天是周几呀", "2029年4月12日（星期四）"),
    ("去年的今天礼拜几", "2026年4月12日（星期日）"),
    ("下个月的今天几号", "2027年5月12日（星期三）"),
    ("下礼拜的今天是几号", "2027年4月19日（星期一）"),
])
def test_the_same_day_of_another_year_month_or_week(question: str, said: str) -> None:
    assert said in answer(question, NOW)


@pytest.mark.parametrize(("question", "days"), [
    ("那个我就想问问从今天到端午节还剩几天啊家里要包粽子", 58),
    ("今天开始算到中秋还有多少天", 156),
    ("嗯就是现在距离国庆还有几天来着我想订票", 172),
    ("就想知道到劳动节还要多少天", 19),
    ("从今儿个起离七夕还差几天", 118),
])
def test_a_countdown_said_in_a_run_on(question: str, days: int) -> None:
    assert f"还有{days}天" in answer(question, NOW)


def test_a_festival_asked_whether_it_falls_on_a_weekend() -> None:
    assert answer("端午那天是不是周末", NOW).startswith("不是，端午节是2027年6月9日（星期三）")


@pytest.mark.parametrize(("question", "said"), [("后儿是几号", "4月14日"), ("明儿星期几", "星期二"), ("大后儿几号", "4月15日")])
def test_a_relative_day_said_with_er(question: str, said: str) -> None:
    assert said in answer(question, NOW)


@pytest.mark.parametrize(("question", "thing"), [("离我生日还有几天", "生日"), ("距离考试还有多少天", "考试")])
def test_a_countdown_to_a_day_only_the_user_knows_asks_which_day(question: str, thing: str) -> None:
    said = answer(question, NOW)
    assert f"“{thing}”是哪天" in said and "4月12日" not in said


@pytest.mark.parametrize(("question", "said"), [("端午放假吗", "2027年端午是6月9日"), ("中秋放不放假", "2027年中秋"),
                                                ("元旦放假吗", "2028年元旦是1月1日")])
def test_a_holiday_beyond_the_known_schedule_is_the_next_one(question: str, said: str) -> None:
    assert said in answer(question, NOW)
