"""The invariant of DESIGN §3.4 for reminders: never confirmed while a temporal word is left unexplained.

``check_when`` is the reminder ``when`` slot's check (the engine asks its question instead of using
the value); ``create_reminder`` refuses the same values as a safety net.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from runtime.parsers.timephrase import parse_time_phrase
from skills.reminders import check_when, extract_content

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=TZ)

KNOWN = ("明天早上8点", "下周三", "12月24日晚上8点", "国庆前两天下午3点", "腊月二十三晚上", "每天早上7点", "中秋节",
         "后天", "下午3点", "周五晚上", "元旦", "平安夜晚上", "10分钟后", "月底晚上8点", "冬至", "下周一到周五每天早上7点",
         "每隔两小时", "母亲节", "大年初二", "半个月后", "睡前", "下周末", "月底")
# temporal-looking words the parser has no rule for: each one must make the bot ask
UNKNOWN = ("开斋节", "复活节", "泼水节", "排灯节", "下班后", "放学后", "生日那天", "开学那天", "发工资那天",
           "年会前一天", "考试前两天", "下旬", "上旬", "寒假", "暑假", "春运期间", "过几天", "改天", "周年纪念日",
           "世界读书日", "回家后", "起床后", "饭后", "那天晚上", "假期", "期末", "前一天", "开会前")
# a part of the day, 月底 or 下周末 without a clock time: taken by convention, and the reply says so
BY_CONVENTION = ("腊月二十三晚上", "周五晚上", "平安夜晚上", "睡前", "下周末", "月底", "月底晚上8点")
CONTENT = ("开会", "吃药", "买菜", "给妈妈打电话", "交报告", "带伞", "喝水")
SEPARATORS = ("", "，", " ", "的")


TEMPLATES = ("{u}{s}{k}提醒我{c}", "{k}{s}{u}提醒我{c}", "提醒我{k}{s}{u}{c}", "{k}提醒我{u}{s}{c}", "{u}{s}提醒我{k}{c}",
             "{k}{s}{u}，记得提醒我{c}")
_AXES = (KNOWN, UNKNOWN, CONTENT, SEPARATORS, TEMPLATES)
_SPACE = len(KNOWN) * len(UNKNOWN) * len(CONTENT) * len(SEPARATORS) * len(TEMPLATES)


def compose(index: int) -> tuple[str, str]:
    """Message number ``index`` of every (known, unknown, content, separator, template) combination.

    One integer per example keeps hypothesis' own cost low; it still shrinks to the simplest case.
    """
    picks = []
    for axis in _AXES:
        index, i = divmod(index, len(axis))
        picks.append(axis[i])
    known, unknown, content, sep, template = picks
    return template.format(u=unknown, s=sep, k=known, c=content), unknown


messages = st.integers(0, _SPACE - 1).map(compose)


@settings(max_examples=2100, deadline=None, derandomize=True, phases=[Phase.generate])
@given(messages)
def test_an_unknown_temporal_word_is_never_confirmed(message: tuple[str, str]) -> None:
    text, unknown = message
    expr = parse_time_phrase(text, NOW)
    if expr is None:
        return  # no time at all: the engine asks "什么时候提醒你？"
    question = check_when(expr.to_param())
    if question is None:  # then the word was understood as part of the time (明天早上8点前一天), not ignored
        assert unknown in expr.said, f"{text!r} would be confirmed for {expr.at} ({expr.said})"
        return
    assert "」" in question and expr.said in question  # it quotes what was understood


@pytest.mark.parametrize(("text", "asks"), [
    ("周四下午两点我要去取体检报告，到时候提醒我", False),  # 到时候 points back at the time said before it
    ("明晚七点半开家长会 到点叫我一声", False),
    ("后天上午十点复查，届时提醒我带上病历", False),
    ("到时候提醒我去取体检报告", True),  # no time said: which time is meant is unknown
    ("到时候，下周三下午提醒我交材料", True),  # said before the time: it points at something else
])
def test_a_word_pointing_back_at_the_time_said(text: str, asks: bool) -> None:
    expr = parse_time_phrase(text, NOW)
    question = check_when(expr.to_param()) if expr is not None else "什么时候提醒你？"
    assert (question is not None) is asks, (text, question)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(KNOWN), st.sampled_from(CONTENT))
def test_known_phrases_alone_pass_the_check(known: str, content: str) -> None:
    expr = parse_time_phrase(f"{known}提醒我{content}", NOW)
    assert expr is not None
    assert check_when(expr.to_param()) is None
    assert bool(expr.assumed) == (known in BY_CONVENTION)
    assert extract_content(f"{known}提醒我{content}") == content


def test_the_question_quotes_the_word_and_what_was_understood() -> None:
    expr = parse_time_phrase("开斋节晚上提醒我吃饭", NOW)
    assert expr is not None
    question = check_when(expr.to_param())
    assert question is not None and "「开斋节」" in question and "「晚上」" in question and "12月1日" in question


def test_a_missing_or_malformed_value_is_left_to_the_engine() -> None:
    assert check_when(None) is None
    assert check_when({"at": "not a time"}) is None


def test_an_old_value_without_the_new_fields_still_passes() -> None:
    assert check_when({"at": "2026-12-02T08:00:00+08:00", "rrule": None, "has_time": True, "span": [0, 6]}) is None


@pytest.mark.parametrize("said", ["周末", "月初", "年底", "月中"])
def test_a_stretch_of_days_without_a_time_is_asked_about(said: str) -> None:
    """A bare 周末 may mean every weekend; 月初, 月中 and 年底 name no day people agree on."""
    expr = parse_time_phrase(f"{said}提醒我交房租", NOW)
    assert expr is not None
    question = check_when(expr.to_param())
    assert question is not None and f"「{expr.said}」" in question and "几点" in question


@pytest.mark.parametrize("said", ["月底晚上8点", "周末上午10点", "周六", "明天", "月底", "这个月底", "下周末", "这周末"])
def test_a_day_or_a_stretch_with_a_time_is_not(said: str) -> None:
    expr = parse_time_phrase(f"{said}提醒我交房租", NOW)
    assert expr is not None and check_when(expr.to_param()) is None


@pytest.mark.parametrize(("text", "content"), [
    ("那就设个 后天9点交报告", "交报告"), ("那帮我定一个 周三下午两点去取车", "去取车"),
    ("再加一个 周五开会", "开会"), ("明天8点提醒我 那个文件记得带", "那个文件记得带"),
])
def test_a_steering_clause_before_a_space_is_no_content(text: str, content: str) -> None:
    assert extract_content(text) == content
